//! Media types in a request's headers, compared by essence (type and subtype, parameters
//! dropped, case ignored) as rmcp compares them: what a client accepts (`Accept`, a list)
//! and what its body is (`Content-Type`, one type).

use axum::http::{HeaderMap, header};

/// JSON, a body's or an answer's type.
pub(crate) const JSON: &str = "application/json";

/// An event stream, an answer's type.
pub(crate) const EVENTS: &str = "text/event-stream";

/// `value`'s essence: the media type before its parameters, trimmed.
fn essence(value: &str) -> &str {
    value.split(';').next().unwrap_or_default().trim()
}

/// The essences of the media types every `Accept` header of `headers` lists (a value that
/// is not text lists none).
pub(crate) fn accepted(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    let values = headers.get_all(header::ACCEPT).into_iter();
    let lists = values.filter_map(|value| value.to_str().ok());
    lists.flat_map(|list| list.split(',')).map(essence)
}

/// Whether the (first) `Content-Type` of `headers` says `media`.
pub(crate) fn body_is(headers: &HeaderMap, media: &str) -> bool {
    let value = headers.get(header::CONTENT_TYPE);
    let value = value.and_then(|value| value.to_str().ok());
    value.is_some_and(|value| essence(value).eq_ignore_ascii_case(media))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, value.parse().unwrap());
        }
        headers
    }

    #[test]
    fn accepted_types_are_read_from_every_list_without_parameters() {
        let headers = headers(&[
            ("accept", "Application/JSON;q=0.9, text/plain"),
            ("accept", " text/event-stream ; q=1"),
        ]);
        let all: Vec<&str> = accepted(&headers).collect();
        assert_eq!(all, ["Application/JSON", "text/plain", "text/event-stream"]);
    }

    #[test]
    fn a_body_type_is_its_first_header_by_essence() {
        let json = headers(&[("content-type", "application/json; charset=utf-8")]);
        assert!(body_is(&json, JSON));
        assert!(!body_is(&json, EVENTS));
        let listed = headers(&[("content-type", "application/json, text/plain")]);
        assert!(!body_is(&listed, JSON), "one type, not a list");
        assert!(!body_is(&HeaderMap::new(), JSON));
    }
}
