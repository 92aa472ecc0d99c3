//! The house has no import circle: no file of a crate's `src` (the runtime's crates, the
//! macros', the command's) reaches itself through the files it imports. A file imports
//! another when it names a path into that file's module (`crate::a::b`, `super::x`,
//! `self::x` in a `mod.rs`, `use` groups included; comments aside). Paths into `lib.rs` or
//! a `mod.rs` are the crate's or folder's re-exports and entry points, so they make no
//! edge. The rooms of the server and the gateway import one way, every public error type
//! is `#[non_exhaustive]`, and each crate reads the `fast-path` feature in one place.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, with its module path (`lib.rs` → `[]`, `a/mod.rs` → `[a]`,
/// `a/b.rs` → `[a, b]`).
fn modules(dir: &Path, prefix: &[String], out: &mut BTreeMap<Vec<String>, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut inner = prefix.to_vec();
            inner.push(name);
            modules(&path, &inner, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut module = prefix.to_vec();
            if name != "mod" && name != "lib" {
                module.push(name);
            }
            out.insert(module, path);
        }
    }
}

fn is_entry(path: &Path) -> bool {
    matches!(
        path.file_name().and_then(|n| n.to_str()),
        Some("lib.rs" | "mod.rs")
    )
}

/// The paths `crate::…`, `super::…`, `self::…` a line of code names, `use` groups expanded
/// one level: `(head, segments)`.
fn paths(code: &str) -> Vec<(String, Vec<String>)> {
    let ident = |s: &str| -> usize {
        s.char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map_or(s.len(), |(i, _)| i)
    };
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while at < code.len() {
        let len = ident(&code[at..]);
        if len == 0 {
            at += code[at..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let word = &code[at..at + len];
        let boundary = at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        at += len;
        if !boundary || !matches!(word, "crate" | "super" | "self") {
            continue;
        }
        let mut segments = Vec::new();
        let mut rest = &code[at..];
        while let Some(after) = rest.strip_prefix("::") {
            if let Some(group) = after.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let item = item.trim();
                    let mut path = segments.clone();
                    path.extend(
                        item.split("::")
                            .map(str::trim)
                            .take_while(|s| !s.is_empty() && ident(s) == s.len())
                            .map(str::to_owned),
                    );
                    out.push((word.to_owned(), path));
                }
                segments.clear();
                break;
            }
            let len = ident(after);
            if len == 0 {
                break;
            }
            segments.push(after[..len].to_owned());
            rest = &after[len..];
        }
        if !segments.is_empty() {
            out.push((word.to_owned(), segments));
        }
    }
    out
}

/// The file → file import graph of one crate's `src`.
fn graph(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut mods = BTreeMap::new();
    modules(src, &[], &mut mods);
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (module, file) in &mods {
        let text = std::fs::read_to_string(file).unwrap();
        // `self` is the file's own module; `super` its parent (for `a/mod.rs`, the parent of
        // `a`).
        let here = module.clone();
        let parent = module[..module.len().saturating_sub(1)].to_vec();
        let targets = edges.entry(file.clone()).or_default();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            for (head, segments) in paths(code) {
                let base = match head.as_str() {
                    "crate" => Vec::new(),
                    "super" => parent.clone(),
                    _ => here.clone(),
                };
                // The longest prefix of the path that is a file's module.
                let target = (0..=segments.len()).rev().find_map(|k| {
                    let mut path = base.clone();
                    path.extend(segments[..k].iter().cloned());
                    mods.get(&path)
                });
                if let Some(target) = target
                    && target != file
                    && !is_entry(target)
                {
                    targets.insert(target.clone());
                }
            }
        }
    }
    edges
}

/// The strongly connected sets of more than one file (Tarjan).
fn circles(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        edges: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut set = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                set.push(w.clone());
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                s.out.push(set);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.out
}

fn src(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("src")
}

/// Every crate of the workspace with code of its own, by folder.
const CRATES: [&str; 9] = [
    "runtime",
    "runtime/core",
    "runtime/server",
    "runtime/inspect",
    "runtime/init",
    "runtime/gateway",
    "macros",
    "macros/model",
    "cli",
];

#[test]
fn no_file_of_any_crate_imports_itself_in_a_circle() {
    for krate in CRATES {
        let edges = graph(&src(krate));
        assert!(!edges.is_empty(), "{krate}: read no file");
        let found = circles(&edges);
        assert!(found.is_empty(), "{krate}: import circles {found:#?}");
    }
}

/// The rooms of the serving layer's `src` (each subfolder, and each file directly inside
/// it), bottom to top: each may import only from the rooms before it. A new room must be
/// placed here.
const SERVER_ROOMS: [&str; 17] = [
    // Per-key counts every limit shares.
    "shares",
    "callbacks",
    "failure",
    "http_config",
    "request",
    "instructions",
    "call",
    "catalog",
    "listing",
    // What a reader's listing presents: the catalog, or an index with search.
    "surface",
    "limits",
    "session",
    // Faithful pass-through: patches, kept listings, spliced text.
    "verbatim",
    // The fast path: everything that relies on how rmcp works inside.
    "direct",
    "transport",
    "build",
    // The entry point: its re-exports make no edges.
    "lib",
];

/// The rooms of the server's `transport/`, bottom to top: why serving stopped, refusals
/// logged, who may call, then each transport.
const TRANSPORT_ROOMS: [&str; 6] = ["error", "refusals", "auth", "stdio", "http", "mod"];

/// The room of a file of a crate's `src`: its subfolder, or its own stem.
fn room(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).ok()?;
    let first = relative.components().next()?.as_os_str().to_string_lossy();
    Some(first.trim_end_matches(".rs").to_owned())
}

/// The rooms of the gateway's `src`, bottom to top.
const GATEWAY_ROOMS: [&str; 7] = [
    "redact", "relay", "upstream", "pool", "serve", "fleet", "lib",
];

/// The rooms of the gateway's upstream side, bottom to top: what both transports share
/// (`verbatim`: what the upstream wrote, kept as written), then stdio, what comes in, HTTP
/// (which makes an old server's event stream into lines), the lanes past rmcp's client
/// loop (the fast path), and opening a connection of either kind.
const UPSTREAM_ROOMS: [&str; 10] = [
    "cause", "counts", "read", "verbatim", "stdio", "inbound", "http", "lane", "open", "mod",
];

/// The folder `folder` of `krate`'s `src` reads one way: each of its rooms imports only
/// from the rooms before it in `rooms` (so no circle between them, and nothing runs back
/// up), and every room is placed there.
fn rooms_read_one_way(krate: &str, folder: &str, rooms: &[&str], at_least: usize) {
    let crate_src = src(krate);
    let src = crate_src.join(folder);
    let entry = |room: &String| room == "lib" || room == "mod";
    let rank = |room: &str| rooms.iter().position(|r| *r == room);
    let edges = graph(&crate_src);
    let mut up = Vec::new();
    let mut between: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    let mut arrows = 0;
    for (from, targets) in &edges {
        let Some(a) = room(&src, from).filter(|a| !entry(a)) else {
            continue;
        };
        assert!(rank(&a).is_some(), "{krate}: room {a} is not placed");
        for to in targets {
            let Some(b) = room(&src, to).filter(|b| *b != a && !entry(b)) else {
                continue;
            };
            arrows += 1;
            let (ra, rb) = (rank(&a), rank(&b));
            assert!(rb.is_some(), "{krate}: room {b} is not placed");
            if rb >= ra {
                up.push(format!("{} -> {}", from.display(), to.display()));
            }
            between
                .entry(PathBuf::from(&a))
                .or_default()
                .insert(PathBuf::from(&b));
        }
    }
    assert!(
        arrows > at_least,
        "{krate}: the check reads the imports ({arrows})"
    );
    assert_eq!(
        circles(&between),
        Vec::<Vec<PathBuf>>::new(),
        "{krate}: folder circles"
    );
    assert!(
        up.is_empty(),
        "{krate}: {} imports run up: {up:#?}",
        up.len()
    );
}

#[test]
fn every_room_of_the_server_imports_only_from_the_rooms_below_it() {
    rooms_read_one_way("runtime/server", "", &SERVER_ROOMS, 20);
    rooms_read_one_way("runtime/server", "transport", &TRANSPORT_ROOMS, 3);
}

#[test]
fn every_room_of_the_gateway_imports_only_from_the_rooms_below_it() {
    rooms_read_one_way("runtime/gateway", "", &GATEWAY_ROOMS, 15);
    rooms_read_one_way("runtime/gateway", "upstream", &UPSTREAM_ROOMS, 15);
}

#[test]
fn the_checker_finds_a_circle_and_reads_every_path_form() {
    assert_eq!(
        paths("use super::{a::X, b}; let y = crate::c::d(self::e::F);"),
        [
            ("super".to_owned(), vec!["a".to_owned(), "X".to_owned()]),
            ("super".to_owned(), vec!["b".to_owned()]),
            ("crate".to_owned(), vec!["c".to_owned(), "d".to_owned()]),
            ("self".to_owned(), vec!["e".to_owned(), "F".to_owned()]),
        ]
    );
    // A crate of three files where a → b → c → a.
    let dir = std::env::temp_dir().join(format!("mcp-tailor-house-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in [
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::b::B;\n"),
        ("b.rs", "use super::c::C; // use crate::a;\n"),
        ("c.rs", "pub fn f() { crate::a::g() }\n"),
    ] {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let found = circles(&graph(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].len(), 3);
}

/// The public error types of `code` (a `thiserror::Error` derive on a `pub` type) that are
/// not `#[non_exhaustive]`: a new variant or field would break a user's match.
fn exhaustive_errors(code: &str) -> Vec<String> {
    let lines: Vec<&str> = code.lines().map(str::trim).collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !(line.starts_with("#[derive(") && line.contains("thiserror::Error")) {
            continue;
        }
        // The attributes after the derive, to the item.
        let rest = &lines[i + 1..];
        let Some(item) = rest.iter().position(|l| !l.starts_with("#[")) else {
            continue;
        };
        let declared = rest[item];
        let public = declared.starts_with("pub enum ") || declared.starts_with("pub struct ");
        if public && !rest[..item].contains(&"#[non_exhaustive]") {
            found.push(declared.to_owned());
        }
    }
    found
}

#[test]
fn every_public_error_type_is_non_exhaustive() {
    for krate in CRATES {
        let mut files = BTreeMap::new();
        modules(&src(krate), &[], &mut files);
        for path in files.values() {
            let code = std::fs::read_to_string(path).unwrap();
            let found = exhaustive_errors(&code);
            assert!(found.is_empty(), "{}: {found:?}", path.display());
        }
    }
    let open = "#[derive(Debug, thiserror::Error)]\n#[error(\"x\")]\npub enum E {}\n";
    assert_eq!(exhaustive_errors(open), ["pub enum E {}"]);
    let closed = "#[derive(Debug, thiserror::Error)]\n#[non_exhaustive]\npub struct E;\n";
    assert!(exhaustive_errors(closed).is_empty());
}

/// The one file of each crate that reads the `fast-path` feature, into its `FAST_PATH`:
/// no other file names the feature, so the fast path is turned off at one switch per crate.
const FAST_PATH_SWITCHES: [&str; 2] = [
    "runtime/server/src/direct/mod.rs",
    "runtime/gateway/src/upstream/lane/mod.rs",
];

#[test]
fn each_crate_reads_the_fast_path_feature_in_one_place() {
    let mut found = Vec::new();
    for krate in CRATES {
        let root = src(krate);
        let mut files = BTreeMap::new();
        modules(&root, &[], &mut files);
        for path in files.values() {
            let code = std::fs::read_to_string(path).unwrap();
            if code.contains("feature = \"fast-path\"") {
                let inside = path.strip_prefix(&root).unwrap().display();
                found.push(format!("{krate}/src/{inside}"));
            }
        }
    }
    assert_eq!(found, FAST_PATH_SWITCHES);
}
