//! One catalog under inspection, and every report of it as a typed value: the catalog as
//! one caller sees it, its definitions, and the reader classes its tables tell apart.

use super::report::{Diff, Matrix, Tokens};
use super::{CallerCatalog, Finding, LintConfig, ReaderClass, Size, eval, lint, reader_classes};
use mcp_tailor_core::ToolDef;
use mcp_tailor_server::rmcp::model::Tool;
use mcp_tailor_server::rmcp::{ErrorData, ServerHandler};
use mcp_tailor_server::{BuildError, Principal, Reader, Server, ToolRegistration};

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InspectError {
    /// The server's own `tools/list` failed.
    #[error("the listing failed: {0}")]
    Listing(ErrorData),
    /// A tasks file names what the catalog lacks (one `FILE:LINE:COL: message` a line).
    #[error("{0}")]
    Tasks(#[from] mcp_tailor_core::FileError),
}

impl From<ErrorData> for InspectError {
    fn from(error: ErrorData) -> Self {
        InspectError::Listing(error)
    }
}

/// A server of `defs` alone (no handlers, default settings, no presentation), to inspect
/// definitions that are not served yet. (Another server's tools are listed as written
/// with [`Inspection::of_wrapped`].)
pub fn listing_server(defs: &[&'static ToolDef]) -> Result<Server, BuildError> {
    defs.iter()
        .fold(Server::builder(), |builder, def| {
            builder.register(ToolRegistration::listing_only(def))
        })
        .build()
}

/// A server's catalog as one caller sees it, and every report of it.
///
/// ```no_run
/// # async fn host(server: mcp_tailor::server::Server) -> Result<(), mcp_tailor::inspect::InspectError> {
/// use mcp_tailor::inspect::Inspection;
/// use mcp_tailor::server::Principal;
/// let inspection = Inspection::new(&server, Principal::anonymous(), "2025-11-25");
/// println!("{}", inspection.tokens().await?);
/// for finding in inspection.lint(&Default::default()) {
///     println!("{finding}");
/// }
/// # Ok(()) }
/// ```
pub struct Inspection<'a, H> {
    catalog: CallerCatalog<'a, H>,
    defs: Vec<&'static ToolDef>,
    classes: Vec<ReaderClass>,
}

impl<'a, H: ServerHandler + Clone> Inspection<'a, H> {
    /// The catalog of `server` for `caller` on `protocol` (e.g. `2025-11-25`).
    pub fn new(server: &'a Server<H>, caller: Principal, protocol: &str) -> Self {
        let catalog = CallerCatalog::new(server, caller, protocol);
        Self::of(catalog, server.tools().collect())
    }

    /// Another server's `tools` under inspection: listed through `server` (its tailoring
    /// file, defaults and presentation; no tools of its own) as `proxy` serves them, each
    /// field as that server wrote it where the file does not word it, and read by string
    /// through `defs` ([`definitions`] of the same tools and file).
    ///
    /// [`definitions`]: super::definitions
    pub fn of_wrapped(
        server: &'a Server<H>,
        tools: Vec<Tool>,
        defs: Vec<&'static ToolDef>,
        caller: Principal,
        protocol: &str,
    ) -> Self {
        let catalog = CallerCatalog::new(server, caller, protocol).wrapping(tools);
        Self::of(catalog, defs)
    }

    fn of(catalog: CallerCatalog<'a, H>, defs: Vec<&'static ToolDef>) -> Self {
        let classes = reader_classes(&defs);
        Inspection {
            catalog,
            defs,
            classes,
        }
    }

    /// The catalog as the caller lists it.
    pub fn catalog(&self) -> &CallerCatalog<'a, H> {
        &self.catalog
    }

    /// The registered tools' definitions (every one, visible or not).
    pub fn defs(&self) -> &[&'static ToolDef] {
        &self.defs
    }

    /// The reader classes the catalog's tables tell apart (see [`reader_classes`]).
    pub fn classes(&self) -> &[ReaderClass] {
        &self.classes
    }

    /// `list`: the first `tools/list` page `reader` gets, byte for byte.
    pub async fn list(&self, reader: Reader) -> Result<String, InspectError> {
        Ok(self.catalog.first_page(reader).await?)
    }

    /// The catalog's size for each of `classes` at each level.
    async fn sizes(
        &self,
        classes: &[ReaderClass],
    ) -> Result<Vec<(ReaderClass, [Size; 10])>, InspectError> {
        let mut out = Vec::with_capacity(classes.len());
        for class in classes {
            out.push((class.clone(), self.catalog.sizes(class).await?));
        }
        Ok(out)
    }

    /// `matrix`: every string per reader class and level, then the catalog per class.
    pub async fn matrix(&self) -> Result<Matrix, InspectError> {
        Ok(Matrix {
            defs: self.defs.clone(),
            classes: self.classes.clone(),
            tokens: self.tokens().await?,
        })
    }

    /// `tokens`: the whole catalog per reader class and level.
    pub async fn tokens(&self) -> Result<Tokens, InspectError> {
        Ok(Tokens {
            sizes: self.sizes(&self.classes).await?,
        })
    }

    /// `diff A B`: what two readers read differently, and their catalogs per level.
    pub async fn diff(&self, a: &ReaderClass, b: &ReaderClass) -> Result<Diff, InspectError> {
        let sizes = self.sizes(&[a.clone(), b.clone()]).await?;
        Ok(Diff {
            defs: self.defs.clone(),
            sizes: [sizes[0].clone(), sizes[1].clone()],
        })
    }

    /// `lint`: the wording's findings (none on a clean catalog).
    pub fn lint(&self, config: &LintConfig) -> Vec<Finding> {
        lint(&self.defs, &self.classes, config)
    }

    /// `eval`: every reader class at every level, ranked for `tasks` by each of `searches`
    /// (one [`Evaluation`](eval::Evaluation) each, in that order), K = `k` (`None`: each
    /// search's own, [`Search::limit`](eval::Search::limit)). The catalogs are listed once
    /// for every search. The findings are [`eval::lost_at_terser_levels`] and
    /// [`eval::below_floor`] of each result.
    pub async fn eval(
        &self,
        tasks: &eval::Tasks,
        k: Option<usize>,
        searches: &[eval::Search],
    ) -> Result<Vec<eval::Evaluation>, InspectError> {
        let mut listings = Vec::with_capacity(self.classes.len());
        for class in &self.classes {
            listings.push((class.clone(), eval::listings(&self.catalog, class).await?));
        }
        // Tailoring never changes which tools a caller sees: any listing names them all.
        let tools: Vec<&str> = listings
            .first()
            .map(|(_, levels)| levels[0].entries.iter().map(|e| e.name.as_str()).collect())
            .unwrap_or_default();
        tasks.check(&tools, &self.classes)?;
        Ok(searches
            .iter()
            .map(|search| {
                let k = k.unwrap_or(search.limit());
                eval::Evaluation::new(tasks.tasks(), k, search.clone(), &listings)
            })
            .collect())
    }
}
