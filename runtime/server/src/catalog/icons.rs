//! Icon validation: at most 16 icons, each with a strict `http(s)` or base64
//! `data:image/…` source and well-formed `mimeType`, `sizes` and `theme`.

use base64::Engine as _;
use serde_json::Value;

/// The most icons one list may hold.
pub const MAX_ICONS: usize = 16;
/// The largest serialized icon list, in bytes.
pub const MAX_ICONS_JSON: usize = 131_072;

/// Why an icon list was rejected, in words for the log (never for the client).
pub(crate) type IconError = String;

fn is_token(s: &str) -> bool {
    // RFC 7230 `token`.
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn image_mime(s: &str) -> bool {
    s.len() <= 255 && s.strip_prefix("image/").is_some_and(is_token)
}

fn check_src(src: &str) -> Result<(), IconError> {
    if src.is_empty() || src.len() > 65_536 {
        return Err("`src` must be 1..=65,536 bytes".into());
    }
    if src.bytes().any(|b| b.is_ascii_control() || b == b' ') {
        return Err("`src` must not contain spaces or control characters".into());
    }
    if let Some(rest) = src
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("data:"))
        .map(|_| &src[5..])
    {
        let (media, payload) = rest
            .split_once(";base64,")
            .ok_or("a `data:` icon must be `data:image/<type>;base64,<payload>`")?;
        if !image_mime(media) {
            return Err("a `data:` icon must have an `image/` media type".into());
        }
        if payload.is_empty() || payload.len() % 4 != 0 {
            return Err("a `data:` icon's payload must be non-empty base64".into());
        }
        base64::engine::general_purpose::STANDARD
            .decode(payload)
            .map_err(|_| "a `data:` icon's payload is not base64")?;
        return Ok(());
    }
    let uri = fluent_uri::Uri::parse(src).map_err(|e| format!("`src` is not a URI: {e}"))?;
    let scheme = uri.scheme().as_str();
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err("`src` must be an http(s) or data: URI".into());
    }
    let authority = uri.authority().ok_or("`src` needs a host")?;
    if authority.userinfo().is_some() {
        return Err("`src` must not carry user information".into());
    }
    if authority.host().is_empty() {
        return Err("`src` needs a host".into());
    }
    Ok(())
}

fn check_sizes(sizes: &Value) -> Result<(), IconError> {
    let sizes = sizes.as_array().ok_or("`sizes` must be an array")?;
    if sizes.len() > 16 {
        return Err("at most 16 `sizes`".into());
    }
    let mut seen = Vec::new();
    for size in sizes {
        let size = size.as_str().ok_or("each size is a string")?;
        if size.len() > 128 {
            return Err("a size is at most 128 bytes".into());
        }
        let valid = size == "any"
            || size.split_once('x').is_some_and(|(w, h)| {
                let positive = |n: &str| {
                    !n.is_empty()
                        && n.bytes().all(|b| b.is_ascii_digit())
                        && n.bytes().any(|b| b != b'0')
                };
                positive(w) && positive(h)
            });
        if !valid {
            return Err(format!("invalid size {size:?}; use `any` or `<W>x<H>`"));
        }
        if seen.contains(&size) {
            return Err(format!("size {size:?} listed twice"));
        }
        seen.push(size);
    }
    Ok(())
}

fn check_icon(icon: &Value) -> Result<(), IconError> {
    let icon = icon.as_object().ok_or("an icon is an object")?;
    for (key, value) in icon {
        if value.is_null() {
            return Err(format!("`{key}` must not be null"));
        }
        match key.as_str() {
            "src" => check_src(value.as_str().ok_or("`src` must be a string")?)?,
            "mimeType" => {
                let mime = value.as_str().ok_or("`mimeType` must be a string")?;
                if !image_mime(mime) {
                    return Err(format!("invalid mimeType {mime:?}; use `image/<type>`"));
                }
            }
            "sizes" => check_sizes(value)?,
            "theme" => {
                if !matches!(value.as_str(), Some("light" | "dark")) {
                    return Err("`theme` is `light` or `dark`".into());
                }
            }
            other => return Err(format!("unknown icon key `{other}`")),
        }
    }
    if !icon.contains_key("src") {
        return Err("an icon needs `src`".into());
    }
    Ok(())
}

/// Checks a complete icon list.
pub(crate) fn validate_icons(icons: &Value) -> Result<(), IconError> {
    let list = icons.as_array().ok_or("`icons` must be an array")?;
    if list.len() > MAX_ICONS {
        return Err(format!("at most {MAX_ICONS} icons"));
    }
    let bytes = serde_json::to_vec(icons).map_err(|e| e.to_string())?.len();
    if bytes > MAX_ICONS_JSON {
        return Err(format!(
            "icons take {bytes} bytes; at most {MAX_ICONS_JSON}"
        ));
    }
    list.iter().try_for_each(check_icon)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn valid_icon_lists_of_spec_c4() {
        for icons in [
            json!([{"src": "https://example.com/i.png"}]),
            json!([{"src": "http://example.com/i.png", "sizes": []}]),
            json!([{"src": "data:image/png;base64,AA==", "theme": "dark", "sizes": ["any"]}]),
            json!([{"src": "https://example.com/i.png", "sizes": ["100000x1"]}]),
            json!([{"src": "HTTPS://example.com/i.png", "mimeType": "image/svg+xml"}]),
            json!([]),
        ] {
            assert_eq!(validate_icons(&icons), Ok(()), "{icons}");
        }
    }

    #[test]
    fn the_total_size_limit_is_what_rejects_many_large_icons() {
        let one = json!([{"src": format!("https://example.com/{}", "a".repeat(8_300))}]);
        assert_eq!(validate_icons(&one), Ok(()));
        let many = Value::Array(vec![one[0].clone(); 16]);
        assert!(validate_icons(&many).unwrap_err().contains("bytes"));
    }

    #[test]
    fn invalid_icon_lists_of_spec_c4() {
        let icon = |extra: Value| {
            let mut base = json!({"src": "https://example.com/i.png"});
            base.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            json!([base])
        };
        let cases = [
            json!([{"src": "/icons/x.png"}]),
            json!([{"src": "https://user:pass@example.com/i.png"}]),
            json!([{"src": "https://example.com/icon one.png"}]),
            json!([{"mimeType": "image/png"}]),
            icon(json!({"alt": "x"})),
            icon(json!({"mimeType": ""})),
            icon(json!({"mimeType": "text/html"})),
            icon(json!({"sizes": ["48"]})),
            icon(json!({"theme": "blue"})),
            icon(json!({"theme": null})),
            json!([{"src": "data:image/png;base64,not base64!"}]),
            json!([{"src": "data:text/html;base64,AA=="}]),
            json!([{"src": "data:image/png;base64,"}]),
            json!([{"src": "javascript:alert(1)"}]),
            json!([{"src": "ftp://example.com/i.png"}]),
            Value::Array(vec![json!({"src": "https://example.com/i.png"}); 17]),
            icon(json!({"sizes": (1..=17).map(|n| format!("{n}x{n}")).collect::<Vec<_>>()})),
            icon(json!({"sizes": [format!("{}x1", "1".repeat(128))]})),
            json!([{"src": format!("https://example.com/{}", "a".repeat(65_536))}]),
            // Each icon is valid alone; together they exceed 131,072 bytes.
            Value::Array(vec![
                json!({"src": format!("https://example.com/{}", "a".repeat(8_300))});
                16
            ]),
            json!({"src": "https://example.com/i.png"}),
        ];
        for icons in cases {
            let shown: String = icons.to_string().chars().take(80).collect();
            assert!(validate_icons(&icons).is_err(), "{shown}");
        }
    }
}
