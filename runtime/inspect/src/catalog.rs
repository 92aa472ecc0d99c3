//! The catalog under inspection: a built server's registered tools, listed exactly as its
//! `tools/list` answers a given caller on a given protocol revision.

use std::borrow::Cow;

use super::readers::ReaderClass;
use super::tokens;
use mcp_tailor_core::ToolDef;
use mcp_tailor_server::rmcp::model::{ListToolsResult, ServerResult, Tool};
use mcp_tailor_server::rmcp::{ErrorData, ServerHandler};
use mcp_tailor_server::seam::verbatim;
use mcp_tailor_server::{Era, Principal, Reader, Server};

/// The most `tools/list` pages followed for one catalog.
const MAX_PAGES: usize = 10_000;

/// Bytes and tokens of a text or of a catalog.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Size {
    /// UTF-8 bytes.
    pub bytes: usize,
    /// `o200k_base` tokens.
    pub tokens: usize,
}

impl Size {
    /// The size of `text`.
    pub fn of(text: &str) -> Size {
        Size {
            bytes: text.len(),
            tokens: tokens::count(text),
        }
    }

    /// The total size of `pages`, each without its `nextCursor`: a signed cursor differs on
    /// every listing (its size with it), and a harness follows it; no model reads it.
    pub fn of_pages(pages: &[String]) -> Size {
        pages.iter().fold(Size::default(), |total, page| {
            let page = Size::of(&without_cursor(page));
            Size {
                bytes: total.bytes + page.bytes,
                tokens: total.tokens + page.tokens,
            }
        })
    }
}

/// `page` (a `tools/list` result as written) without its `nextCursor` field.
fn without_cursor(page: &str) -> Cow<'_, str> {
    let cursor = serde_json::from_str::<serde_json::Value>(page)
        .ok()
        .and_then(|result| result.get("nextCursor").cloned());
    let Some(cursor) = cursor else {
        return Cow::Borrowed(page);
    };
    let field = format!("\"nextCursor\":{cursor}");
    match page.find(&field) {
        Some(at) => {
            let end = at + field.len();
            // The field and the comma that parts it from the next field (or the previous).
            let (start, end) = if page[end..].starts_with(',') {
                (at, end + 1)
            } else if page[..at].ends_with(',') {
                (at - 1, end)
            } else {
                (at, end)
            };
            Cow::Owned(format!("{}{}", &page[..start], &page[end..]))
        }
        None => Cow::Borrowed(page),
    }
}

/// A server's catalog as one caller on one protocol revision sees it.
pub struct CallerCatalog<'a, H> {
    server: &'a Server<H>,
    principal: Principal,
    protocol: String,
    /// The wrapped handler's tools, as given ([`wrapping`](Self::wrapping)).
    wrapped: Vec<Tool>,
}

/// The `tools/list` result exactly as the server writes it for `protocol`: rmcp strips the
/// 2026-07-28 fields for older revisions and fills absent cache hints for newer ones.
pub fn listing_json(result: ListToolsResult, protocol: &str) -> String {
    let mut result = ServerResult::ListToolsResult(result);
    if Era::of(Some(protocol)).is_stateless() {
        result.fill_missing_cache_hints();
    } else {
        result.strip_result_type_for_legacy_peer();
        result.strip_non_object_output_for_legacy_peer();
    }
    // As the transports write it: a wrapped gateway's tools as their upstream wrote them.
    if verbatim::patches_made()
        && let Ok(result) = serde_json::to_value(&result)
    {
        let mut message = serde_json::json!({ "result": result });
        verbatim::restore(&mut message);
        return message["result"].to_string();
    }
    serde_json::to_string(&result).unwrap_or_default()
}

impl<'a, H: ServerHandler + Clone> CallerCatalog<'a, H> {
    /// The catalog of `server` for `principal` on `protocol` (e.g. `2025-11-25`).
    pub fn new(server: &'a Server<H>, principal: Principal, protocol: &str) -> Self {
        CallerCatalog {
            server,
            principal,
            protocol: protocol.to_owned(),
            wrapped: Vec::new(),
        }
    }

    /// This catalog, with `tools` as its server's wrapped handler lists them: another
    /// server's (the gateway's, or a captured catalog's), tailored, filtered and paged as
    /// `proxy` serves them.
    pub fn wrapping(mut self, tools: Vec<Tool>) -> Self {
        self.wrapped = tools;
        self
    }

    /// The registered tools' definitions (every one, visible or not).
    pub fn defs(&self) -> Vec<&'static ToolDef> {
        self.server.tools().collect()
    }

    /// The first `tools/list` page `reader` gets, as the server writes it.
    pub async fn first_page(&self, reader: Reader) -> Result<String, ErrorData> {
        let result = self.page(reader, None).await?;
        Ok(listing_json(result, &self.protocol))
    }

    /// Every page of the `tools/list` results `reader` gets, as the server writes them.
    pub async fn pages(&self, reader: Reader) -> Result<Vec<String>, ErrorData> {
        let mut pages = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let result = self.page(reader.clone(), cursor.as_deref()).await?;
            cursor = result.next_cursor.clone();
            pages.push(listing_json(result, &self.protocol));
            if cursor.is_none() {
                break;
            }
        }
        Ok(pages)
    }

    /// The `tools/list` page at `cursor` `reader` gets.
    async fn page(
        &self,
        reader: Reader,
        cursor: Option<&str>,
    ) -> Result<ListToolsResult, ErrorData> {
        let principal = self.principal.clone();
        self.server
            .list_tools_wrapping(
                self.wrapped.clone(),
                reader,
                principal,
                &self.protocol,
                cursor,
            )
            .await
    }

    /// The whole catalog's size for `class` at each level 0..=9: the bytes and tokens of
    /// every `tools/list` page it takes.
    pub async fn sizes(&self, class: &ReaderClass) -> Result<[Size; 10], ErrorData> {
        let mut sizes = [Size::default(); 10];
        for (level, size) in (0u8..).zip(sizes.iter_mut()) {
            *size = Size::of_pages(&self.pages(class.reader(level)).await?);
        }
        Ok(sizes)
    }
}
