//! Tailoring files: the DSL's tables written in TOML, checked at load time by the rules the
//! macro applies at compile time (the shared `mcp-tailor-model`), and applied by name to
//! tools built at run time, to a wrapped handler's tools, or to any MCP server through the
//! `mcp-tailor proxy` gateway.
//!
//! ```toml
//! fallback_verbosity = 3                # a reader naming no level reads level 3
//!                                       # (without it: the tools' own words)
//! [instructions]                        # the server's instructions: a text or a table
//! levels = [{ verbosity = 0, text = "Notes." }, { verbosity = 9, text = "A notes server." }]
//!
//! [tools.search_notes]                  # a tool by name
//! drafted_from = "3f2a9c1e"             # `init`'s fingerprint of the server's words
//! title = "Search"                      # a text (every level, every reader) or a table
//! description = "Search notes."
//!
//! [tools.get_note.description]          # a description table
//! levels = [
//!   { verbosity = 0, text = "Get a note." },            # N
//!   { verbosity = "3..=6", text = "Get a note by id." }, # LO..=HI
//!   { verbosity = [7, 9], text = "Get one note." },      # a set
//! ]
//! default = "Get a note by its id."                      # the levels left: 1, 2, 8
//! default_verbosity = 3
//! descriptions = { grok_hint = "Get a note; pass `id`.", "hippo-5" = "Note by id." }
//! verbosity_map = [{ verbosity = "0..=5", tag = "grok_hint" }]
//! runners = [
//!   { runner = "grok", model = "_", levels = [{ verbosity = "0..=5", tag = "hippo-5" }] },
//!   { runner = "codex", model = ["spark", "5.4"], default = "grok_hint" },
//! ]
//! allow = ["dead_variants"]             # no warnings for variants never served
//! fill = "nearest"                      # opt into gap-fill (default: "none", an overlay)
//!
//! [arguments]                           # every argument no entry words, every tool
//! description = { levels = [{ verbosity = "0..=2", text = false }] }
//!
//! [schemas]                             # every tool's input and output schema, by level:
//! dialect = "0..=6"                     # `$schema` left out where it changes no rule
//! titles = "0..=6"                      # titles that repeat a name left out
//!
//! [tools.search_notes.arguments.query]  # an argument by serialized name
//! description = "Words to look for."    # nested: arguments."filter.tag", "files[].path"
//!
//! [surface]                             # readers given the index surface, where served
//! readers = [{ runner = "_", model = ["qwen3-8b"], surface = "index" }]
//! ```
//!
//! **A file overlays the tool's own words.** Where a table covers a level and reader, its
//! text; elsewhere the tool's own (the upstream's, a wrapped or registered tool's, the
//! wrapped handler's instructions). Per level: the `verbosity_map`'s entry, else the level
//! entry, else the table's `default`; a matching runner rule answers the levels it covers
//! (its entries, else its `default`) and leaves the rest to those tiers. So `levels = [{
//! verbosity = "0..=2", text = "…" }]` words levels 0 to 2 and leaves 3 to 9 as the server
//! wrote them. `fill = "nearest"` opts a table into the DSL's gap-fill: every level reads
//! the nearest covered one, exactly as `#[mcp_tool]` resolves.
//!
//! **`false` says nothing**, wherever a text stands (`text = false`, `default = false`, a
//! variant, `description = false`): where it answers, the key is left out of the served
//! tool — its title or description, an argument's description.
//!
//! An argument is named by its path: `query`, `filter.tag` (a nested object, through local
//! `$ref`s), `files[].path` (an array's items), `labels{}.color` (a map's values), and a
//! property inside `allOf`/`anyOf`/`oneOf` branches is found by its name.
//!
//! A title table takes `levels`, `default`, `default_verbosity`, `allow` and `fill`. Loading
//! reports **every** error at once, each `FILE:LINE:COL: message`; variants that can never be
//! served are warnings ([`Tailoring::warnings`]), worded as the macro's.

#[cfg(feature = "rmcp")]
mod view;
#[cfg(feature = "rmcp")]
mod worded;

pub use lean::Lean;
#[cfg(feature = "rmcp")]
pub use view::ToolView;
#[cfg(feature = "rmcp")]
pub use view::Unmatched;
mod build;
mod dsl_values;
mod lean;
mod read;
pub mod source;
mod surfaces;

use crate::description::Description;
use mcp_tailor_model::{Errors, valid};
use source::{File, Lines};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::Path;

/// A loaded tailoring file: descriptions by tool and argument name, and the server's
/// instructions.
///
/// ```
/// use mcp_tailor::{RenderCtx, Tailoring};
/// let t = Tailoring::from_toml_str(r#"
///     [tools.search.description]
///     levels = [{ verbosity = 0, text = "Search." }, { verbosity = 9, text = "Full-text search." }]
///     descriptions = { grok = "Search. Plain words only." }
///     runners = [{ runner = "grok", model = "_", default = "grok" }]
/// "#).unwrap();
/// let search = t.tool("search").unwrap().description().unwrap();
/// assert_eq!(search.resolve(&RenderCtx::new().verbosity(0)), Some("Search."));
/// assert_eq!(search.resolve(&RenderCtx::new().runner("grok")), Some("Search. Plain words only."));
/// // An overlay: level 1 is the file's to leave, so the tool's own words answer there.
/// assert_eq!(search.resolve(&RenderCtx::new().verbosity(1)), None);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Tailoring {
    /// The level a reader that names none reads the file at (`fallback_verbosity = N`).
    fallback_verbosity: Option<u8>,
    /// `[arguments]`: every argument no entry (nor a `#[mcp_tool]` table) words.
    every_argument: Option<Description>,
    /// `[schemas]`: the schema boilerplate left out, by level, of the tools no entry names
    /// (each entry carries its own file's).
    lean: Lean,
    tools: BTreeMap<String, ToolTailoring>,
    instructions: Option<Description>,
    /// `[surface]`: which readers get which surface.
    surfaces: Vec<surfaces::FileSurfaceRule>,
    warnings: Vec<Diagnostic>,
}

/// What a tailoring file declares for one tool. An item the file leaves out is absent
/// here and left as the tool has it.
#[derive(Clone, Debug, Default)]
pub struct ToolTailoring {
    title: Option<Description>,
    description: Option<Description>,
    arguments: BTreeMap<String, Description>,
    /// Its file's `[schemas]`.
    lean: Lean,
    /// Where the tool's table starts, for findings about it.
    at: Location,
    /// `drafted_from`: the fingerprint of the server's own words the entry was drafted
    /// from, and where it is written.
    drafted_from: Option<(String, Location)>,
}

/// A place in a tailoring file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// The file's name as given (or `<string>`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// An error or a warning at a place of a tailoring file: `FILE:LINE:COL: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where.
    pub at: Location,
    /// What, worded as the macro words the same rule.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// Why a file (a tailoring file, a tasks file) cannot be used. Its `Display` is one
/// `PATH:LINE:COL: message` a line, or why the file could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum FileError {
    /// The file could not be read.
    Read {
        /// The file as named.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file, or what it asks of the catalog, is wrong: every mistake, in file order.
    Invalid(Vec<Diagnostic>),
}

/// Why a server's own file cannot be taken into the file of the whole
/// ([`Tailoring::absorb`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AbsorbError {
    /// It words the whole catalog (`instructions`, `[arguments]`, `fallback_verbosity`).
    WholeCatalog(&'static str),
    /// It words a tool another file words already (named as served).
    WordedTwice(String),
}

impl fmt::Display for AbsorbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AbsorbError::WholeCatalog(what) => write!(
                f,
                "`{what}` words the whole catalog: write it in the file of the whole (--tailoring)"
            ),
            AbsorbError::WordedTwice(tool) => write!(f, "the tool `{tool}` is worded by two files"),
        }
    }
}

impl std::error::Error for AbsorbError {}

impl FileError {
    /// [`FileError::Read`] of `path`.
    pub fn read(path: impl Into<String>, error: std::io::Error) -> FileError {
        FileError::Read {
            path: path.into(),
            error,
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Read { path, error } => write!(f, "{path}: cannot read: {error}"),
            FileError::Invalid(errors) => {
                let lines: Vec<_> = errors.iter().map(ToString::to_string).collect();
                f.write_str(&lines.join("\n"))
            }
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Read { error, .. } => Some(error),
            FileError::Invalid(_) => None,
        }
    }
}

impl Tailoring {
    /// Loads a tailoring file from TOML text; errors are located as `<string>:LINE:COL`.
    pub fn from_toml_str(source: &str) -> Result<Tailoring, FileError> {
        Self::parse("<string>", source)
    }

    /// Reads and loads the tailoring file at `path`; errors are located as
    /// `PATH:LINE:COL`.
    pub fn load(path: impl AsRef<Path>) -> Result<Tailoring, FileError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let source =
            std::fs::read_to_string(path).map_err(|error| FileError::read(name.clone(), error))?;
        Self::parse(&name, &source)
    }

    /// Loads TOML text, naming it `file` in every diagnostic.
    pub fn parse(file: &str, source: &str) -> Result<Tailoring, FileError> {
        let lines = Lines::new(file, source);
        let at = |span: Range<usize>| lines.locate(span.start);
        let (root, syntax) = toml::de::DeTable::parse_recoverable(source);
        let mut errors: Errors<Range<usize>> = Errors::default();
        let spec = read::file(&root, &mut errors);
        let mut warnings = Vec::new();
        let mut check = |spec: &mcp_tailor_model::ast::DescSpec<File>, errors: &mut Errors<_>| {
            let checked = valid::desc(spec, None, errors);
            warnings.extend(checked.warnings.iter().map(|w| Diagnostic {
                at: at(w.loc.clone()),
                message: format!("warning: {}", crate::dead_variant::message(w.kind)),
            }));
            build::description(&checked)
        };
        let instructions = spec.instructions.as_ref().map(|s| check(s, &mut errors));
        let every_argument = spec.every_argument.as_ref().map(|s| check(s, &mut errors));
        let fallback_verbosity = spec
            .fallback_verbosity
            .as_ref()
            .and_then(|level| valid::level(level, &mut errors));
        let mut lean = Lean::default();
        for (key, levels) in &spec.schemas {
            let levels = valid::spec_mask(levels, &mut errors).unwrap_or_default();
            match *key {
                "dialect" => lean.dialect = levels,
                _ => lean.titles = levels,
            }
        }
        let mut tools = BTreeMap::new();
        for tool in &spec.tools {
            let title = tool.title.as_ref().map(|s| check(s, &mut errors));
            let description = tool.description.as_ref().map(|s| check(s, &mut errors));
            let arguments = tool
                .arguments
                .iter()
                .map(|(name, _, s)| (name.clone(), check(s, &mut errors)))
                .collect();
            tools.insert(
                tool.name.clone(),
                ToolTailoring {
                    title,
                    description,
                    arguments,
                    lean,
                    at: at(tool.span.clone()),
                    drafted_from: tool
                        .drafted_from
                        .as_ref()
                        .map(|(print, span)| (print.clone(), at(span.clone()))),
                },
            );
        }
        let diagnostics = source::diagnostics(&lines, &syntax, errors);
        if !diagnostics.is_empty() {
            return Err(FileError::Invalid(diagnostics));
        }
        warnings.sort_by_key(|w| (w.at.line, w.at.column));
        Ok(Tailoring {
            fallback_verbosity,
            every_argument,
            lean,
            tools,
            instructions,
            surfaces: spec.surfaces.clone(),
            warnings,
        })
    }

    /// The surface the file's `[surface]` table gives a reader of `runner` and `model`
    /// (`"native"` or `"index"`; its first rule naming the reader), if any.
    pub fn surface_for(&self, runner: Option<&str>, model: Option<&str>) -> Option<&'static str> {
        surfaces::surface_for(&self.surfaces, runner, model)
    }

    /// What the file declares for the tool `name`.
    pub fn tool(&self, name: &str) -> Option<&ToolTailoring> {
        self.tools.get(name)
    }

    /// The level a reader that names none reads this file at (`fallback_verbosity = N`
    /// at the top of the file). Without one, and without the server's own
    /// [`fallback_verbosity`](crate::RenderCtx::fallback_verbosity) set by its host, such a
    /// reader reads the tools' own words: a file changes nothing a client did not ask for.
    pub fn fallback_verbosity(&self) -> Option<u8> {
        self.fallback_verbosity
    }

    /// The file's `[arguments]` table: the description of every described argument of every
    /// tool that no entry of the file (nor a `#[mcp_tool]` table) words, e.g. nothing at
    /// the terse levels in one entry.
    pub fn every_argument(&self) -> Option<&Description> {
        self.every_argument.as_ref()
    }

    /// The file's `[schemas]`: what it leaves out of every tool's input and output schema,
    /// by level (`$schema` where the schema means the same without it, titles that repeat a
    /// name).
    pub fn lean(&self) -> Lean {
        self.lean
    }

    /// Every tool the file names, by name.
    pub fn tools(&self) -> impl Iterator<Item = (&str, &ToolTailoring)> {
        self.tools.iter().map(|(name, tool)| (name.as_str(), tool))
    }

    /// The server's instructions, when the file declares them (`[instructions]`).
    pub fn instructions(&self) -> Option<&Description> {
        self.instructions.as_ref()
    }

    /// The variants the file declares but can never serve, as warnings.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// Takes in `other`'s tool entries (a file of one server of many), each under the name
    /// `served` gives it (the name the tool is served by; `None` keeps its own). `Err`
    /// names what cannot be taken in: a tool this file words already, or what words a
    /// whole catalog (`instructions`, `[arguments]`, `fallback_verbosity`), which belongs
    /// in the file of the whole. (`other`'s `[schemas]` goes with its tools.)
    pub fn absorb(
        &mut self,
        other: &Tailoring,
        served: impl Fn(&str) -> Option<String>,
    ) -> Result<(), AbsorbError> {
        let whole = [
            (other.instructions.is_some(), "instructions"),
            (other.every_argument.is_some(), "[arguments]"),
            (other.fallback_verbosity.is_some(), "fallback_verbosity"),
        ];
        if let Some((_, what)) = whole.iter().find(|(given, _)| *given) {
            return Err(AbsorbError::WholeCatalog(what));
        }
        for (name, tool) in &other.tools {
            let name = served(name).unwrap_or_else(|| name.clone());
            if self.tools.contains_key(&name) {
                return Err(AbsorbError::WordedTwice(name));
            }
            self.tools.insert(name, tool.clone());
        }
        self.warnings.extend(other.warnings.iter().cloned());
        Ok(())
    }
}

impl ToolTailoring {
    /// The tool's title, when the file declares one.
    pub fn title(&self) -> Option<&Description> {
        self.title.as_ref()
    }

    /// The tool's description, when the file declares one.
    pub fn description(&self) -> Option<&Description> {
        self.description.as_ref()
    }

    /// The description of the argument `name`, when the file declares one: a serialized
    /// name, or a path into nested objects (`filter.tag`), array items (`files[].path`)
    /// and map values (`labels{}.color`), through local `$ref`s and `anyOf`/`oneOf`
    /// branches.
    pub fn argument(&self, name: &str) -> Option<&Description> {
        self.arguments.get(name)
    }

    /// Every argument the file describes: name and description.
    pub fn arguments(&self) -> impl Iterator<Item = (&str, &Description)> {
        self.arguments.iter().map(|(name, d)| (name.as_str(), d))
    }

    /// What its file's `[schemas]` leaves out of its schemas, by level.
    pub fn lean(&self) -> Lean {
        self.lean
    }

    /// Where the file declares the tool.
    pub fn location(&self) -> &Location {
        &self.at
    }

    /// The fingerprint of the server's own words this entry was drafted from
    /// (`drafted_from = "…"`, written by `mcp-tailor init`), and where it stands.
    pub fn drafted_from(&self) -> Option<(&str, &Location)> {
        self.drafted_from
            .as_ref()
            .map(|(print, at)| (print.as_str(), at))
    }
}
