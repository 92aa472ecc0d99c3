//! `[surface]`: which readers a server with the index surface gives it, by runner and
//! model, as a runner rule matches them.
//!
//! ```toml
//! [surface]
//! readers = [
//!   { runner = "aider", model = "_", surface = "index" },
//!   { runner = "_", model = ["qwen3-8b", "llama-3.1-8b"], surface = "index" },
//! ]
//! ```

use super::dsl_values::{matcher, model_match};
use super::source::{Span, Value, array, describe, keys, table};
use mcp_tailor_model::ast::Model;
use mcp_tailor_model::{Errors, Sink};
use toml::de::DeValue;

const SURFACE_KEYS: &[&str] = &["readers"];
const READER_KEYS: &[&str] = &["runner", "model", "surface"];
/// The surfaces a rule may name.
const SURFACES: &[&str] = &["native", "index"];

/// One reader rule: readers of `runner` (`None`: any) and `model` get `surface`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FileSurfaceRule {
    runner: Option<String>,
    model: Model,
    surface: &'static str,
}

impl FileSurfaceRule {
    /// Whether a reader of `runner` and `model` is one this rule names.
    fn matches(&self, runner: Option<&str>, model: Option<&str>) -> bool {
        let runner = self.runner.as_deref().is_none_or(|r| runner == Some(r));
        runner
            && match &self.model {
                Model::Any => true,
                Model::Exact(m) => model == Some(m.as_str()),
                Model::List(list) => model.is_some_and(|m| list.iter().any(|l| l == m)),
            }
    }
}

/// The surface the first rule of `rules` naming this reader gives it.
pub(crate) fn surface_for(
    rules: &[FileSurfaceRule],
    runner: Option<&str>,
    model: Option<&str>,
) -> Option<&'static str> {
    rules
        .iter()
        .find(|rule| rule.matches(runner, model))
        .map(|rule| rule.surface)
}

/// The `[surface]` table's rules; errors go to `errors`.
pub(super) fn read(value: &Value<'_>, errors: &mut Errors<Span>) -> Vec<FileSurfaceRule> {
    let Some(surface) = table(value, "the table of surfaces", errors) else {
        return Vec::new();
    };
    let mut rules = Vec::new();
    for (_, readers) in keys(surface, SURFACE_KEYS, errors) {
        let Some(list) = array(readers, "a list of reader rules", errors) else {
            continue;
        };
        rules.extend(list.iter().filter_map(|item| rule(item, errors)));
    }
    rules
}

const RULE_FORM: &str = r#"`{ runner = "NAME" | "_", model = "NAME" | "_" | ["NAME", …], surface = "native" | "index" }`"#;

fn rule(item: &Value<'_>, errors: &mut Errors<Span>) -> Option<FileSurfaceRule> {
    let entry = table(item, &format!("a reader rule {RULE_FORM}"), errors)?;
    let (mut runner, mut model, mut surface) = (None, None, None);
    for (key, value) in keys(entry, READER_KEYS, errors) {
        match key {
            "runner" => runner = Some(matcher(value, "runner", errors)?),
            "model" => model = Some(model_match(value, errors)?),
            _ => match value.get_ref() {
                DeValue::String(name) => match SURFACES.iter().find(|s| **s == name.as_ref()) {
                    Some(known) => surface = Some(*known),
                    None => errors.error(
                        value.span(),
                        format!("`{name}` is not a surface: `native` or `index`"),
                    ),
                },
                other => errors.error(
                    value.span(),
                    format!(
                        "`surface` is `native` or `index`; found {}",
                        describe(other)
                    ),
                ),
            },
        }
    }
    for (key, seen) in [
        ("runner", runner.is_some()),
        ("model", model.is_some()),
        ("surface", surface.is_some()),
    ] {
        if !seen && !entry.iter().any(|(k, _)| k.get_ref() == key) {
            errors.error(
                item.span(),
                format!("missing key `{key}` in this reader rule; write {RULE_FORM}"),
            );
        }
    }
    Some(FileSurfaceRule {
        runner: runner?,
        model: model?,
        surface: surface?,
    })
}

#[cfg(test)]
mod tests {
    use crate::Tailoring;

    #[test]
    fn reader_rules_give_surfaces_in_order_and_every_mistake_is_located() {
        let file = Tailoring::from_toml_str(
            r#"
            [surface]
            readers = [
              { runner = "aider", model = "_", surface = "index" },
              { runner = "_", model = ["qwen3-8b", "llama-3.1-8b"], surface = "index" },
              { runner = "codex", model = "_", surface = "native" },
            ]
            "#,
        )
        .unwrap();
        assert_eq!(file.surface_for(Some("aider"), None), Some("index"));
        assert_eq!(
            file.surface_for(Some("codex"), Some("qwen3-8b")),
            Some("index")
        );
        assert_eq!(file.surface_for(Some("codex"), Some("5.4")), Some("native"));
        assert_eq!(file.surface_for(None, None), None);
        let wrong = Tailoring::from_toml_str(
            r#"
            [surface]
            readers = [
              { runner = "aider", model = "_", surface = "catalog" },
              { runner = "_", surface = "index" },
            ]
            colour = 1
            "#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            wrong.contains("4:58: `catalog` is not a surface"),
            "{wrong}"
        );
        assert!(
            wrong.contains("5:15: missing key `model` in this reader rule"),
            "{wrong}"
        );
        assert!(wrong.contains("7:13"), "{wrong}");
    }
}
