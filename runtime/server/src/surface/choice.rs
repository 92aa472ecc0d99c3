//! Which surface a reader gets: the request's own word (`_meta`, then the HTTP header),
//! else its session's (`setReader`), else the tailoring file's `[surface]` rules, else the first of the server's rules
//! matching its runner and model, else the server's default.

use super::IndexSurface;
use crate::request::info::RequestInfo;
use mcp_tailor_core::Tailoring;
use rmcp::ErrorData;
use serde_json::json;
use std::fmt;
use std::str::FromStr;

/// The `_meta` key naming a request's surface (`"native"` or `"index"`).
pub const META_SURFACE: &str = "mcp-tailor.dev/surface";
/// The HTTP header naming a request's surface.
pub const HEADER_SURFACE: &str = "x-mcp-surface";
/// `data.reason` of a request naming a surface that is not one (`-32602`).
pub const INVALID_SURFACE: &str = "invalid_surface";

/// What a reader's `tools/list` presents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Surface {
    /// Every tool, worded for the reader: the catalog.
    #[default]
    Native,
    /// `search_tools` (its description the index, one line per tool) and `call_tool`.
    Index,
}

impl Surface {
    /// Its name on the wire and the command line: `native`, `index`.
    pub fn name(self) -> &'static str {
        match self {
            Surface::Native => "native",
            Surface::Index => "index",
        }
    }
}

impl fmt::Display for Surface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Surface {
    type Err = String;

    fn from_str(text: &str) -> Result<Surface, String> {
        match text.trim() {
            "native" => Ok(Surface::Native),
            "index" => Ok(Surface::Index),
            other => Err(format!(
                "`{}` is not a surface: `native` or `index`",
                other.chars().take(64).collect::<String>()
            )),
        }
    }
}

/// Readers of one runner and model (either may be any) get one surface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SurfaceRule {
    runner: Option<String>,
    model: Option<String>,
    surface: Surface,
}

impl SurfaceRule {
    /// Readers of `runner` (`None`: any) and `model` (`None`: any) get `surface`.
    pub fn new(runner: Option<&str>, model: Option<&str>, surface: Surface) -> Self {
        SurfaceRule {
            runner: runner.map(str::to_owned),
            model: model.map(str::to_owned),
            surface,
        }
    }

    fn matches(&self, runner: Option<&str>, model: Option<&str>) -> bool {
        let one = |rule: &Option<String>, named: Option<&str>| {
            rule.as_deref().is_none_or(|rule| Some(rule) == named)
        };
        one(&self.runner, runner) && one(&self.model, model)
    }
}

impl IndexSurface {
    /// The surface of the request `info` describes, in a session that chose `session`
    /// (with `setReader`), `file` in force; `Err` (invalid params, `invalid_surface`) when
    /// the request names one that is not.
    pub(crate) fn surface_for(
        &self,
        info: &RequestInfo,
        session: Option<&str>,
        file: &Tailoring,
    ) -> Result<Surface, ErrorData> {
        let header = || {
            info.headers
                .get(HEADER_SURFACE)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        let named = match info.meta.get(META_SURFACE) {
            Some(serde_json::Value::String(name)) => Some(name.clone()),
            Some(other) => Some(other.to_string()),
            None => header().or_else(|| session.map(str::to_owned)),
        };
        if let Some(named) = named {
            return named.parse().map_err(|why: String| {
                ErrorData::invalid_params(why, Some(json!({ "reason": INVALID_SURFACE })))
            });
        }
        let (runner, model) = (info.reader.runner.as_deref(), info.reader.model.as_deref());
        if let Some(named) = file.surface_for(runner, model) {
            return Ok(named.parse().unwrap_or_default());
        }
        Ok(self
            .rules
            .iter()
            .find(|rule| rule.matches(runner, model))
            .map_or(self.default, |rule| rule.surface))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::reader::Reader;
    use rmcp::model::Tool;
    use std::sync::Arc;

    struct Nothing;
    impl super::super::Finder for Nothing {
        fn rank(&self, _: &[Tool], _: &str) -> Vec<usize> {
            Vec::new()
        }
        fn sentences<'a>(&self, description: &'a str) -> Vec<&'a str> {
            vec![description]
        }
        fn tokens(&self, text: &str) -> usize {
            text.len()
        }
    }

    #[test]
    fn a_request_names_its_surface_else_a_rule_else_the_default_answers() {
        let index = IndexSurface::new(Nothing)
            .rule(SurfaceRule::new(Some("aider"), None, Surface::Index))
            .rule(SurfaceRule::new(None, Some("qwen3-8b"), Surface::Index));
        let none = Tailoring::default();
        let mut info = RequestInfo::default();
        assert_eq!(
            index.surface_for(&info, None, &none).unwrap(),
            Surface::Native
        );
        info.reader = Reader {
            runner: Some("aider".into()),
            ..Reader::default()
        };
        assert_eq!(
            index.surface_for(&info, None, &none).unwrap(),
            Surface::Index
        );
        info.reader = Reader {
            runner: Some("codex".into()),
            model: Some("qwen3-8b".into()),
            ..Reader::default()
        };
        assert_eq!(
            index.surface_for(&info, None, &none).unwrap(),
            Surface::Index
        );
        // The file's rules come before the server's.
        let file = Tailoring::from_toml_str(
            r#"surface.readers = [{ runner = "codex", model = "_", surface = "native" }]"#,
        )
        .unwrap();
        assert_eq!(
            index.surface_for(&info, None, &file).unwrap(),
            Surface::Native
        );
        // A session's choice comes before the file's.
        assert_eq!(
            index.surface_for(&info, Some("index"), &file).unwrap(),
            Surface::Index
        );
        Arc::make_mut(&mut info.headers).insert(HEADER_SURFACE, "native".parse().unwrap());
        assert_eq!(
            index.surface_for(&info, None, &none).unwrap(),
            Surface::Native
        );
        Arc::make_mut(&mut info.meta).insert(META_SURFACE.into(), json!("index"));
        assert_eq!(
            index.surface_for(&info, None, &none).unwrap(),
            Surface::Index
        );
        Arc::make_mut(&mut info.meta).insert(META_SURFACE.into(), json!("catalog"));
        let refused = index.surface_for(&info, None, &none).unwrap_err();
        assert_eq!(refused.data.unwrap()["reason"], INVALID_SURFACE);
        assert!(refused.message.contains("`catalog` is not a surface"));
        let everyone = IndexSurface::new(Nothing).default_surface(Surface::Index);
        assert_eq!(
            everyone
                .surface_for(&RequestInfo::default(), None, &none)
                .unwrap(),
            Surface::Index
        );
    }
}
