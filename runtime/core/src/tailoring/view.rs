//! One view per tool: a tool's own `#[mcp_tool]` tables and a tailoring file's overlay,
//! merged once (when a server is built, and when its file is swapped), so a listing only
//! resolves. Where both declare an item (the title, the description, an argument), the
//! tables win. The listing, the gateway's listing and `inspect` all read this view; every
//! argument path is found through [`schema_path`](crate::schema_path).

use super::lean::{Cut, Lean};
use super::worded::Worded;
use super::{Location, Tailoring, ToolTailoring};
use crate::description::{Description, Found};
use crate::schema_path::{self, ArgumentAt};
use crate::{RenderCtx, ToolDef};
use rmcp::model::Tool;
use serde_json::{Map, Value};
use std::sync::Arc;

/// What words one tool: its compile-time tables, and the file's items they leave free.
#[derive(Clone, Debug, Default)]
pub struct ToolView {
    /// The tool's `#[mcp_tool]` tables (a registered tool's, or one attached to a wrapped
    /// handler's tool with `.tailor()`).
    def: Option<&'static ToolDef>,
    /// The file's title, when the tables declare none.
    title: Option<Description>,
    /// The file's description, when the tables declare none.
    description: Option<Description>,
    /// The file's argument descriptions the tables do not declare, by argument path.
    arguments: Vec<(String, Description)>,
    /// The file's `[arguments]` table: every other described argument's description.
    every: Option<Description>,
    /// The file's `[schemas]`: what it leaves out of the tool's schemas, by level.
    lean: Lean,
    /// Input schemas with those descriptions put in, kept per schema and wording.
    worded: Worded,
    /// Output schemas leaned, kept per schema and cut.
    output: Worded,
}

impl ToolView {
    /// The view of a tool with tables `def` (if any) under the file's `file` (if any).
    pub fn new(def: Option<&'static ToolDef>, file: Option<&ToolTailoring>) -> ToolView {
        let Some(file) = file else {
            return ToolView {
                def,
                ..ToolView::default()
            };
        };
        let free = |declared: &Description| declared.is_absent();
        ToolView {
            def,
            title: file
                .title
                .clone()
                .filter(|_| def.is_none_or(|d| free(d.title()))),
            description: file
                .description
                .clone()
                .filter(|_| def.is_none_or(|d| free(d.description()))),
            arguments: file
                .arguments
                .iter()
                .filter(|(path, _)| def.is_none_or(|d| d.field(path).is_none()))
                .map(|(path, d)| (path.clone(), d.clone()))
                .collect(),
            every: None,
            lean: file.lean(),
            worded: Worded::default(),
            output: Worded::default(),
        }
    }

    /// This view with the file's catalog-wide `[arguments]` table (if any): it words every
    /// described argument no entry of the file or the tables words.
    pub fn with_every_argument(mut self, every: Option<&Description>) -> ToolView {
        self.every = every.cloned();
        self
    }

    /// This view with a file's `[schemas]` (a tool its entries do not name reads the whole
    /// file's; an entry carries its own).
    pub fn with_lean(mut self, lean: Lean) -> ToolView {
        self.lean = lean;
        self
    }

    /// The file's title, when it words the tool's.
    #[cfg(feature = "inspect")]
    pub fn title(&self) -> Option<&Description> {
        self.title.as_ref()
    }

    /// The file's description, when it words the tool's.
    #[cfg(feature = "inspect")]
    pub fn description(&self) -> Option<&Description> {
        self.description.as_ref()
    }

    /// The file's argument descriptions where `schema` has them: the path the file names,
    /// each place it reaches (one per `anyOf` branch holding it), and its table. A path the
    /// schema lacks is left out (see [`Tailoring::unmatched`]).
    pub fn arguments_in<'v, 's>(
        &'v self,
        schema: &'s Map<String, Value>,
    ) -> impl Iterator<Item = (&'v str, ArgumentAt, &'v Description)> + use<'v, 's> {
        self.arguments.iter().flat_map(move |(path, d)| {
            schema_path::arguments(schema, path)
                .into_iter()
                .map(move |at| (path.as_str(), at, d))
        })
    }

    /// Words `tool` (another implementation's, or the upstream's): the tables for `ctx`
    /// first, then the file's items for `file_ctx` (see [`overlay`](Self::overlay);
    /// `None`: the file leaves this reader to the tool's own words).
    pub fn tailor(&self, tool: &mut Tool, ctx: &RenderCtx<'_>, file_ctx: Option<&RenderCtx<'_>>) {
        if let Some(def) = self.def {
            def.tailor_tool(tool, ctx);
        }
        if let Some(file_ctx) = file_ctx {
            self.overlay(tool, file_ctx);
        }
    }

    /// Words `tool` for `ctx` with the file's items alone (a registered tool, already
    /// rendered from its tables). A level or reader the file's table does not cover keeps
    /// the tool's own words.
    pub fn overlay(&self, tool: &mut Tool, ctx: &RenderCtx<'_>) {
        if let Some(title) = &self.title {
            let found = title.lookup(ctx);
            // Saying nothing reaches the title a client would show instead: one held in
            // `annotations.title` (an annotations object left empty stays, as written).
            if matches!(found, Found::Nothing)
                && let Some(annotations) = &mut tool.annotations
            {
                annotations.title = None;
            }
            found.apply(&mut tool.title, str::to_owned);
        }
        if let Some(description) = &self.description {
            let found = description.lookup(ctx);
            found.apply(&mut tool.description, |text| text.to_owned().into());
        }
        let cut = self.lean.cut(ctx.effective_level(None));
        if let Some(output) = &tool.output_schema
            && !cut.is_none()
        {
            tool.output_schema = Some(leaned(&self.output, output, cut));
        }
        if self.arguments.is_empty() && self.every.is_none() {
            if !cut.is_none() {
                tool.input_schema = leaned(&self.worded, &tool.input_schema, cut);
            }
            return;
        }
        // What each argument's description answers (the catalog-wide one last); a schema
        // worded so before is reused.
        let found: Vec<Found<'_>> = self
            .arguments
            .iter()
            .map(|(_, d)| d)
            .chain(&self.every)
            .map(|d| d.lookup(ctx))
            .collect();
        if let Some(worded) = self.worded.get(&tool.input_schema, &found, cut) {
            tool.input_schema = worded;
            return;
        }
        let source = tool.input_schema.clone();
        let places: Vec<(String, &Description)> = self
            .arguments_in(&source)
            .map(|(_, at, d)| (at.pointer(), d))
            .collect();
        let root = Arc::make_mut(&mut tool.input_schema);
        // The catalog-wide table first: each entry of the tool's own then words its place.
        // (The tables win: a field a `#[mcp_tool]` table words is not the file's to word.)
        if let Some(every) = &self.every {
            let mut own: Vec<String> = places.iter().map(|(p, _)| p.clone()).collect();
            for (name, _) in self.def.map(ToolDef::fields).unwrap_or_default() {
                own.extend(
                    schema_path::arguments(&source, name)
                        .iter()
                        .map(ArgumentAt::pointer),
                );
            }
            let own: Vec<&str> = own.iter().map(String::as_str).collect();
            let found = every.lookup(ctx);
            if !matches!(found, Found::Uncovered) {
                every_property(root, "", &own, found);
            }
        }
        for (pointer, description) in places {
            if let Some(property) = schema_path::object_mut(root, &pointer) {
                word(property, description.lookup(ctx));
            }
        }
        cut.lean(root);
        self.worded
            .keep(source, &found, cut, tool.input_schema.clone());
    }
}

/// `schema` less what `cut` leaves out (the same `Arc` when nothing goes), kept in `kept`.
fn leaned(kept: &Worded, schema: &Arc<Map<String, Value>>, cut: Cut) -> Arc<Map<String, Value>> {
    if let Some(leaned) = kept.get(schema, &[], cut) {
        return leaned;
    }
    let mut copy = (**schema).clone();
    let leaned = match cut.lean(&mut copy) {
        true => Arc::new(copy),
        false => schema.clone(),
    };
    kept.keep(schema.clone(), &[], cut, leaned.clone());
    leaned
}

/// Puts what an argument's description answered in its `property`: a text, or no key.
fn word(property: &mut Map<String, Value>, found: Found<'_>) {
    match found {
        Found::Text(text) => {
            property.insert("description".into(), text.into());
        }
        Found::Nothing => {
            property.shift_remove("description");
        }
        Found::Uncovered => {}
    }
}

/// Words every described property below `value` (at JSON pointer `at`) with `found`, but
/// those at `own` (worded by an entry of their own).
fn every_property(value: &mut Map<String, Value>, at: &str, own: &[&str], found: Found<'_>) {
    for (key, inner) in value.iter_mut() {
        let here = format!("{at}/{}", schema_path::escape(key));
        match inner {
            Value::Object(object) => {
                if key == "properties" {
                    for (name, property) in object.iter_mut() {
                        let Value::Object(property) = property else {
                            continue;
                        };
                        let pointer = format!("{here}/{}", schema_path::escape(name));
                        if property.contains_key("description") && !own.contains(&pointer.as_str())
                        {
                            word(property, found);
                        }
                        every_property(property, &pointer, own, found);
                    }
                } else {
                    every_property(object, &here, own, found);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    if let Value::Object(item) = item {
                        every_property(item, &format!("{here}/{i}"), own, found);
                    }
                }
            }
            _ => {}
        }
    }
}

impl ToolTailoring {
    /// Tailors `tool` for `ctx`: each item the file declares overlays the tool's — where its
    /// table covers the level and reader, its text (or no key at all, where it says
    /// `false`); elsewhere the tool's own. Its file's `[schemas]` leans the schemas at the
    /// levels it names; nothing else of `tool` changes.
    pub fn tailor_tool(&self, tool: &mut Tool, ctx: &RenderCtx<'_>) {
        ToolView::new(None, Some(self)).overlay(tool, ctx);
    }

    /// The items this file declares that `def`'s tables also declare (and so win): `title`,
    /// `description`, `arguments.NAME`.
    pub fn overridden_by(&self, def: &ToolDef) -> Vec<String> {
        let mut out = Vec::new();
        if self.title.is_some() && !def.title().is_absent() {
            out.push("title".to_owned());
        }
        if self.description.is_some() && !def.description().is_absent() {
            out.push("description".to_owned());
        }
        for name in self.arguments.keys() {
            if def.field(name).is_some() {
                out.push(format!("arguments.{name}"));
            }
        }
        out
    }
}

/// Something a tailoring file declares that a catalog lacks: a tool, or an argument of a
/// tool it has. Not an error (an upstream may add it later): a warning, and a `lint`
/// finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmatched<'a> {
    /// The tool the file names.
    pub tool: &'a str,
    /// The argument the tool lacks (`None`: the catalog lacks the whole tool).
    pub argument: Option<&'a str>,
    /// Where the file declares the tool.
    pub at: &'a Location,
}

impl std::fmt::Display for Unmatched<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.argument {
            None => write!(f, "{}: the catalog has no tool `{}`", self.at, self.tool),
            Some(argument) => write!(
                f,
                "{}: tool `{}` has no argument `{argument}`",
                self.at, self.tool
            ),
        }
    }
}

impl Tailoring {
    /// The view of the tool `name` under this file alone (no `#[mcp_tool]` tables): its
    /// entry, else the file's `[schemas]`; and the file's `[arguments]`.
    pub fn view(&self, name: &str) -> ToolView {
        match self.tool(name) {
            Some(file) => {
                ToolView::new(None, Some(file)).with_every_argument(self.every_argument())
            }
            None => self.unnamed_view(),
        }
    }

    /// The view of `#[mcp_tool]` tool `def` under this file: its entry where the tables
    /// leave items free, else the file's `[schemas]`; and the file's `[arguments]`.
    pub fn def_view(&self, def: &'static ToolDef) -> ToolView {
        let file = self.tool(def.name());
        let view = ToolView::new(Some(def), file);
        match file {
            Some(_) => view,
            None => view.with_lean(self.lean()),
        }
        .with_every_argument(self.every_argument())
    }

    /// The one view of every tool this file names not: its `[arguments]` and `[schemas]`,
    /// keeping the schemas of many tools as worded.
    pub fn unnamed_view(&self) -> ToolView {
        ToolView {
            worded: Worded::shared(),
            output: Worded::shared(),
            ..ToolView::default()
        }
        .with_lean(self.lean())
        .with_every_argument(self.every_argument())
    }

    /// What this file declares that `tools` lack, in the file's order of tools. An argument
    /// path (see [`ToolTailoring::argument`]) counts when it reaches a property.
    pub fn unmatched(&self, tools: &[Tool]) -> Vec<Unmatched<'_>> {
        let mut out = Vec::new();
        for (name, file) in self.tools() {
            let at = file.location();
            let Some(tool) = tools.iter().find(|t| t.name == name) else {
                out.push(Unmatched {
                    tool: name,
                    argument: None,
                    at,
                });
                continue;
            };
            for (argument, _) in file.arguments() {
                if schema_path::argument(&tool.input_schema, argument).is_none() {
                    out.push(Unmatched {
                        tool: name,
                        argument: Some(argument),
                        at,
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Readers alternating between two levels get their own argument wording each time,
    /// the same schema (`Arc`) as before for a level seen before, and the source untouched.
    #[test]
    fn a_worded_schema_is_reused_per_wording_and_never_another_readers() {
        let file = Tailoring::from_toml_str(
            r#"
            [tools.find.arguments."filter.tag"]
            description = { levels = [{ verbosity = 0, text = "tag" }, { verbosity = 9, text = "A tag to filter by." }] }
            "#,
        )
        .unwrap();
        let view = ToolView::new(None, file.tool("find"));
        let source = json!({"type": "object", "properties": {"filter": {"$ref": "#/$defs/F"}},
            "$defs": {"F": {"type": "object", "properties": {"tag": {"type": "string"}}}}});
        let source = Arc::new(source.as_object().unwrap().clone());
        let worded = |level: u8| {
            let mut tool = Tool::new("find", "Find.", source.clone());
            view.overlay(&mut tool, &RenderCtx::new().verbosity(level));
            tool.input_schema
        };
        let tag = |schema: &Arc<Map<String, Value>>| {
            schema["$defs"]["F"]["properties"]["tag"]["description"].clone()
        };
        let (terse, rich) = (worded(0), worded(9));
        assert_eq!(
            (tag(&terse), tag(&rich)),
            (json!("tag"), json!("A tag to filter by."))
        );
        let (terse_again, rich_again) = (worded(0), worded(9));
        assert!(Arc::ptr_eq(&terse, &terse_again) && Arc::ptr_eq(&rich, &rich_again));
        assert_eq!(tag(&source), Value::Null);
        // Another schema (an upstream's tools changed) is worded afresh.
        let changed = Arc::new((*source).clone());
        let mut tool = Tool::new("find", "Find.", changed.clone());
        view.overlay(&mut tool, &RenderCtx::new().verbosity(0));
        assert!(!Arc::ptr_eq(&tool.input_schema, &terse));
        assert_eq!(tag(&tool.input_schema), json!("tag"));
    }
}
