//! Listings restored lately (`verbatim`), each kept with its typed form and its
//! result written out: restoring is a pure function of the typed listing, patches
//! included, so a listing equal to one kept (compared as typed values, field by field,
//! without writing either out) is the same restored listing. A reader class listing again,
//! while the upstream's tools and the file stay as they were, is served the listing
//! restored before: as JSON, or (streamable HTTP) as the text written then
//! (`verbatim::splice`).

use mcp_tailor_core::seam::Locked;
use rmcp::model::ServerResult;
use serde_json::Value;
use std::sync::{Arc, LazyLock, Mutex};

/// The most listings kept (then it starts again): a few per reader class.
const KEPT: usize = 64;

/// A listing restored, kept.
pub(crate) struct KeptListing {
    typed: ServerResult,
    /// Its result as restored.
    pub(crate) value: Value,
    /// `value` written out (for streamable HTTP, `verbatim::splice`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) written: Arc<str>,
}

/// A result restored: a listing kept, or any other result restored afresh.
pub(crate) enum Restoration {
    Kept(Arc<KeptListing>),
    Fresh(Value),
}

/// The listings kept, the latest found first.
static RESTORED: LazyLock<Mutex<Vec<Arc<KeptListing>>>> = LazyLock::new(Default::default);

/// Whether `a` and `b` are the same listing (of one kind, equal in every field).
fn same_listing(a: &ServerResult, b: &ServerResult) -> bool {
    use ServerResult as R;
    match (a, b) {
        (R::ListToolsResult(a), R::ListToolsResult(b)) => a == b,
        (R::ListPromptsResult(a), R::ListPromptsResult(b)) => a == b,
        (R::ListResourcesResult(a), R::ListResourcesResult(b)) => a == b,
        (R::ListResourceTemplatesResult(a), R::ListResourceTemplatesResult(b)) => a == b,
        _ => false,
    }
}

/// `result` restored by `restore` (`None`: it carries no patch): a listing from the ones
/// kept when it was restored before (else restored and kept); any other result (a call's,
/// read once) restored afresh.
pub(crate) fn restoration(
    result: &ServerResult,
    restore: impl FnOnce(&ServerResult) -> Option<Value>,
) -> Option<Restoration> {
    let listing = matches!(
        result,
        ServerResult::ListToolsResult(_)
            | ServerResult::ListPromptsResult(_)
            | ServerResult::ListResourcesResult(_)
            | ServerResult::ListResourceTemplatesResult(_)
    );
    if !listing {
        return restore(result).map(Restoration::Fresh);
    }
    let kept = || RESTORED.locked();
    {
        let mut kept = kept();
        if let Some(at) = kept.iter().position(|k| same_listing(&k.typed, result)) {
            // The latest found first: a few reader classes list again and again.
            kept[..=at].rotate_right(1);
            return Some(Restoration::Kept(kept[0].clone()));
        }
    }
    let value = restore(result)?;
    let listing = Arc::new(KeptListing {
        typed: result.clone(),
        written: value.to_string().into(),
        value,
    });
    let mut kept = kept();
    if kept.len() >= KEPT {
        kept.clear();
    }
    kept.insert(0, listing.clone());
    Some(Restoration::Kept(listing))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ListPromptsResult, Prompt};
    use serde_json::json;

    fn listing(name: &str) -> ServerResult {
        let prompt = Prompt::new(name, None::<String>, None);
        ServerResult::ListPromptsResult(ListPromptsResult::with_all_items(vec![prompt]))
    }

    #[test]
    fn a_listing_is_restored_once_and_kept_written_while_it_is_the_same() {
        let restores = std::cell::Cell::new(0);
        let restore = |result: &ServerResult| {
            restores.set(restores.get() + 1);
            let mut value = serde_json::to_value(result).unwrap();
            value["restored"] = json!(true);
            Some(value)
        };
        let kept = |result| match restoration(&result, restore).unwrap() {
            Restoration::Kept(kept) => kept,
            Restoration::Fresh(_) => panic!("a listing is kept"),
        };
        let name = "a_listing_is_restored_once";
        let first = kept(listing(name));
        assert_eq!(first.value["restored"], json!(true));
        assert_eq!(*first.written, first.value.to_string());
        let again = kept(listing(name));
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(restores.get(), 1);
        // Another listing is restored on its own, never served one kept for another.
        let other = kept(listing("another"));
        assert_eq!(other.value["prompts"][0]["name"], json!("another"));
        assert_eq!(restores.get(), 2);
        // Other results are restored each time, and not kept.
        let call = ServerResult::empty(());
        assert!(matches!(
            restoration(&call, restore),
            Some(Restoration::Fresh(_))
        ));
        assert!(restoration(&listing("none"), |_| None).is_none());
    }
}
