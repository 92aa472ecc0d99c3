//! What the front reads of a POSTed body before anyone else does: whether it is JSON-RPC,
//! one request or several messages, an `initialize`, and whether its `params` carry `_meta`.
//! Nothing else is built: rmcp, or the direct path, reads the message itself.

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// What a POST body holds, as far as the front needs: an `initialize` opens a session; a
/// request (one message with a method and an id) may be answered as JSON, and may go
/// direct to its session (`direct::http`) when its `params` carry no `_meta`.
pub(crate) struct Posted {
    /// The `initialize` request's id, when it is one.
    pub(crate) initialize: Option<Value>,
    /// Its method, when it is one request (a method and an id, neither a result nor an
    /// error: rmcp reads a message with both as none).
    pub(crate) request: Option<String>,
    /// Whether its `params` carry `_meta` (a progress token, a protocol version).
    pub(crate) meta: bool,
}

/// The keys of one message the front reads; the rest is skipped, not built.
#[derive(serde::Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    jsonrpc: Option<Cow<'a, str>>,
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    id: Option<Value>,
    #[serde(default)]
    params: PostedParams,
    #[serde(default)]
    result: Seen,
    #[serde(default)]
    error: Seen,
}

impl Envelope<'_> {
    fn is_jsonrpc(&self) -> bool {
        self.jsonrpc.as_deref() == Some("2.0")
    }
}

/// Reads `bytes` as a JSON-RPC message (or a batch of them); `Err` is the JSON-RPC code of
/// why not: `-32700` for a body that is not JSON, `-32600` for JSON that is not JSON-RPC.
pub(crate) fn posted(bytes: &[u8]) -> Result<Posted, i64> {
    let code = |error: serde_json::Error| match error.classify() {
        serde_json::error::Category::Data => -32600,
        _ => -32700,
    };
    let batch = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[');
    if batch {
        let all: Vec<Envelope<'_>> = serde_json::from_slice(bytes).map_err(code)?;
        if all.is_empty() || !all.iter().all(Envelope::is_jsonrpc) {
            return Err(-32600);
        }
        return Ok(Posted {
            initialize: None,
            request: None,
            meta: all.iter().any(|one| one.params.meta),
        });
    }
    let one: Envelope<'_> = serde_json::from_slice(bytes).map_err(code)?;
    if !one.is_jsonrpc() {
        return Err(-32600);
    }
    let answer = one.result.0 || one.error.0;
    let request = one
        .method
        .as_deref()
        .filter(|_| one.id.is_some() && !answer);
    let request = request.map(str::to_owned);
    let initialize =
        (one.method.as_deref() == Some("initialize")).then(|| one.id.unwrap_or(Value::Null));
    Ok(Posted {
        initialize,
        request,
        meta: one.params.meta,
    })
}

/// A message's `params` as the front reads them: whether a `_meta` key is among them. Any
/// JSON is taken (`params` that are no object carry no `_meta`); values are skipped unread.
#[derive(Default)]
struct PostedParams {
    meta: bool,
}

impl<'de> serde::Deserialize<'de> for PostedParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(PostedParams::default())
    }
}

impl<'de> Visitor<'de> for PostedParams {
    type Value = PostedParams;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PostedParams, A::Error> {
        let mut meta = false;
        while let Some(key) = map.next_key::<IsMeta>()? {
            meta |= key.0;
            map.next_value::<IgnoredAny>()?;
        }
        Ok(PostedParams { meta })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PostedParams, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(self)
    }

    fn visit_unit<E>(self) -> Result<PostedParams, E> {
        Ok(self)
    }

    fn visit_bool<E>(self, _: bool) -> Result<PostedParams, E> {
        Ok(self)
    }

    fn visit_i64<E>(self, _: i64) -> Result<PostedParams, E> {
        Ok(self)
    }

    fn visit_u64<E>(self, _: u64) -> Result<PostedParams, E> {
        Ok(self)
    }

    fn visit_f64<E>(self, _: f64) -> Result<PostedParams, E> {
        Ok(self)
    }

    fn visit_str<E>(self, _: &str) -> Result<PostedParams, E> {
        Ok(self)
    }
}

/// Whether a key is present: its value is skipped unread.
#[derive(Default)]
struct Seen(bool);

impl<'de> serde::Deserialize<'de> for Seen {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(deserializer).map(|_| Seen(true))
    }
}

/// A key, read as whether it is `_meta`, never copied.
struct IsMeta(bool);

impl<'de> serde::Deserialize<'de> for IsMeta {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl Visitor<'_> for KeyVisitor {
            type Value = IsMeta;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }

            fn visit_str<E>(self, key: &str) -> Result<IsMeta, E> {
                Ok(IsMeta(key == "_meta"))
            }
        }

        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &str) -> Result<(bool, bool, bool), i64> {
        posted(body.as_bytes()).map(|p| (p.initialize.is_some(), p.request.is_some(), p.meta))
    }

    #[test]
    fn a_request_is_told_with_its_meta() {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#;
        assert_eq!(read(call), Ok((false, true, false)));
        let with_meta = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call",
            "params":{"name":"x","arguments":{"_meta":1},"_meta":{"progressToken":3}}}"#;
        assert_eq!(read(with_meta), Ok((false, true, true)));
        let escaped = r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"\u005fmeta":{}}}"#;
        assert_eq!(read(escaped), Ok((false, true, true)));
        let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#;
        assert_eq!(read(init), Ok((true, true, false)));
    }

    #[test]
    fn a_request_names_its_method_unless_it_also_answers() {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#;
        let method = posted(call.as_bytes()).unwrap().request;
        assert_eq!(method.as_deref(), Some("tools/call"));
        for stray in [r#""result":{}"#, r#""error":null"#] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping",{stray}}}"#);
            assert_eq!(read(&body), Ok((false, false, false)), "{body}");
        }
    }

    #[test]
    fn only_the_params_own_meta_counts() {
        let nested = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call",
            "params":{"arguments":{"_meta":{}}}}"#;
        assert_eq!(read(nested), Ok((false, true, false)));
    }

    #[test]
    fn params_of_any_kind_are_read_without_failing() {
        for params in [
            "[1,{\"_meta\":2}]",
            "null",
            "true",
            "-1",
            "2",
            "1.5",
            "\"s\"",
            "{}",
        ] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{params}}}"#);
            assert_eq!(read(&body), Ok((false, true, false)), "{params}");
        }
    }

    #[test]
    fn notifications_batches_and_refusals() {
        let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        assert_eq!(read(note), Ok((false, false, false)));
        let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{}}}]"#;
        assert_eq!(read(batch), Ok((false, false, true)));
        assert_eq!(read("[]"), Err(-32600));
        assert_eq!(read(r#"{"jsonrpc":"1.0","id":1}"#), Err(-32600));
        assert_eq!(read("{not json"), Err(-32700));
    }
}
