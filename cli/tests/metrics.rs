//! `proxy --metrics ADDR`: the Prometheus text it serves counts the requests a client
//! made, by method and outcome, with their latency and the upstream's connections; and its
//! token figures are `inspect tokens`' own, counted against the server's own words. The
//! text is read by Prometheus' official Python parser where `.ci/run` installs it
//! (`MCP_TAILOR_PYTHON`, the test marked `ignore`).

mod common;

use common::{BIN, RawSession, upstream};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;

/// A tailoring file wording the notes server's tool at levels 0..=3.
const FILE: &str = r#"
[tools.search_notes.description]
levels = [{ verbosity = "0..=3", text = "Search." }]
"#;

/// The samples of an exposition: `name{labels}` (as written) → value.
fn samples(text: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| {
            let (key, value) = line.rsplit_once(' ')?;
            Some((key.to_owned(), value.parse().ok()?))
        })
        .collect()
}

/// A proxy of the notes server with `FILE`, serving metrics; its address, the metrics
/// address, the upstream's URL and the file's path.
async fn proxied(
    folder: &PathBuf,
) -> (
    tokio::process::Child,
    SocketAddr,
    SocketAddr,
    String,
    PathBuf,
) {
    let url = upstream().await;
    std::fs::create_dir_all(folder).unwrap();
    let file = folder.join("notes.toml");
    std::fs::write(&file, FILE).unwrap();
    let tailoring = file.to_str().unwrap();
    let args = [
        "--upstream",
        &url,
        "--tailoring",
        tailoring,
        "--metrics",
        "127.0.0.1:0",
    ];
    let proxy = common::started(&args, &[]).await;
    let metrics = common::metrics(&proxy);
    (proxy.child, proxy.addr, metrics, url, file)
}

async fn scrape(metrics: SocketAddr) -> (String, String) {
    let response = reqwest::get(format!("http://{metrics}/metrics"))
        .await
        .unwrap();
    let kind = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    (kind, response.text().await.unwrap())
}

/// What a client does: list, call twice, call a tool that does not exist.
async fn use_it(addr: SocketAddr) {
    let session = RawSession::open(&format!("http://{addr}/mcp")).await;
    session
        .ask(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        .await;
    for id in [3, 4] {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "search_notes", "arguments": {"query": "tea"}}});
        session.ask(call).await;
    }
    let prompt = json!({"jsonrpc": "2.0", "id": 5, "method": "prompts/get",
        "params": {"name": "nothing"}});
    session.ask(prompt).await;
}

/// `inspect tokens --json` of the same upstream and file.
async fn inspect_tokens(url: &str, file: &PathBuf) -> Value {
    let output = tokio::process::Command::new(BIN)
        .args(["inspect", "--upstream", url, "--tailoring"])
        .arg(file)
        .args(["tokens", "--json"])
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn metrics_count_requests_connections_and_the_tokens_inspect_counts() {
    let folder = std::env::temp_dir().join(format!("mcp-tailor-metrics-{}", std::process::id()));
    let (_proxy, addr, metrics, url, file) = proxied(&folder).await;
    use_it(addr).await;
    let (kind, text) = scrape(metrics).await;
    assert!(kind.starts_with("application/openmetrics-text"), "{kind}");
    assert!(text.ends_with("# EOF\n"), "{text}");
    let samples = samples(&text);
    let get = |key: &str| {
        *samples
            .get(key)
            .unwrap_or_else(|| panic!("no sample {key} in\n{text}"))
    };
    let on = |method: &str, outcome: &str| {
        format!(
            "mcp_tailor_requests_total{{server=\"notes\",method=\"{method}\",outcome=\"{outcome}\"}}"
        )
    };
    assert_eq!(get(&on("tools/call", "ok")), 2.0);
    assert_eq!(get(&on("prompts/get", "error")), 1.0);
    assert_eq!(
        get("mcp_tailor_request_duration_seconds_count{server=\"notes\",method=\"tools/call\"}"),
        2.0
    );
    assert!(get("mcp_tailor_upstream_connections_opened_total{server=\"notes\"}") >= 1.0);
    assert!(get("mcp_tailor_upstream_connections{server=\"notes\"}") >= 1.0);
    assert_eq!(
        get("mcp_tailor_upstream_connections_lost_total{server=\"notes\"}"),
        0.0
    );
    // The tokens: inspect's, per reader and level; saved against the server's own words,
    // which the file leaves at level 9.
    let inspected = inspect_tokens(&url, &file).await;
    let readers = inspected.as_object().expect("readers");
    assert!(!readers.is_empty());
    let own = get("mcp_tailor_listing_tokens_own");
    for (reader, levels) in readers {
        let levels = levels.as_array().unwrap();
        assert_eq!(levels[9]["tokens"].as_f64(), Some(own), "{reader}");
        for level in levels {
            let (n, tokens) = (&level["level"], level["tokens"].as_f64().unwrap());
            let labels = format!("{{reader=\"{reader}\",level=\"{n}\",surface=\"native\"}}");
            assert_eq!(get(&format!("mcp_tailor_listing_tokens{labels}")), tokens);
            let saved = get(&format!("mcp_tailor_listing_tokens_saved{labels}"));
            assert_eq!(saved, own - tokens, "{reader} {n}");
            // The index surface, priced beside it: what `inspect --surface index` counts.
            let index = labels.replace("native", "index");
            let indexed = get(&format!("mcp_tailor_listing_tokens{index}"));
            assert!(indexed > 0.0, "{reader} {n}");
            let saved = get(&format!("mcp_tailor_listing_tokens_saved{index}"));
            assert_eq!(saved, own - indexed, "{reader} {n}");
        }
        assert!(levels[0]["tokens"].as_f64().unwrap() < own, "level 0 saves");
    }
    std::fs::remove_dir_all(&folder).unwrap();
}

/// A command upstream that exits when called: the call fails, the next is served by a new
/// process, and the metrics count the connection lost and the one opened for it.
#[tokio::test(flavor = "multi_thread")]
async fn an_upstream_that_exits_is_counted_lost_and_reopened() {
    let script = common::sh_server("mortal", &[(r#"*'"method":"tools/call"'*"#, "'' ; exit 0")]);
    let proxy = common::started(
        &["--metrics", "127.0.0.1:0", "--", "sh", "-c", &script],
        &[],
    )
    .await;
    let (addr, metrics) = (proxy.addr, common::metrics(&proxy));
    let session = RawSession::open(&format!("http://{addr}/mcp")).await;
    let call = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "anything", "arguments": {}}})
    };
    assert!(session.ask(call(2)).await.get("error").is_some());
    session.ask(call(3)).await;
    let (_, text) = scrape(metrics).await;
    let samples = samples(&text);
    let get = |name: &str| samples[&format!("{name}{{server=\"mortal\"}}")];
    assert!(
        get("mcp_tailor_upstream_connections_lost_total") >= 1.0,
        "{text}"
    );
    assert!(
        get("mcp_tailor_upstream_connections_opened_total") >= 2.0,
        "{text}"
    );
    let failed =
        "mcp_tailor_requests_total{server=\"mortal\",method=\"tools/call\",outcome=\"error\"}";
    assert!(samples[failed] >= 1.0, "{text}");
}

/// `--log-format json`: every line the proxy logs is one JSON object with its level and
/// message.
#[tokio::test(flavor = "multi_thread")]
async fn the_log_is_json_lines_on_request() {
    let url = upstream().await;
    let proxy = common::started(&["--upstream", &url, "--log-format", "json"], &[]).await;
    // A session answered: the proxy has said what it serves.
    RawSession::open(&common::url(&proxy)).await;
    let log = proxy.ended().await;
    let lines: Vec<Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    let said = |words: &str| {
        lines.iter().any(|line| {
            line["level"] == "INFO"
                && line["fields"]["message"]
                    .as_str()
                    .is_some_and(|m| m.contains(words))
        })
    };
    assert!(said("tailored"), "{log}");
    assert!(said("proxy on http://"), "{log}");
}

/// Prometheus' own parser (`prometheus_client`'s OpenMetrics parser, pinned in
/// `tests/python/requirements.txt`) reads the text whole, and finds the figures above.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs Python with prometheus-client: .ci/run sets MCP_TAILOR_PYTHON"]
async fn prometheus_own_parser_reads_the_metrics() {
    let folder = std::env::temp_dir().join(format!("mcp-tailor-metrics-py-{}", std::process::id()));
    let (_proxy, addr, metrics, _, _) = proxied(&folder).await;
    use_it(addr).await;
    let (_, text) = scrape(metrics).await;
    let python = std::env::var("MCP_TAILOR_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = mcp_tailor_test_support::workspace().join("tests/python/parse_metrics.py");
    let mut child = std::process::Command::new(&python)
        .arg(&script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), text.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "the parser refused:\n{text}");
    let parsed: Value = serde_json::from_slice(&output.stdout).unwrap();
    let find = |name: &str, labels: Value| {
        parsed
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name && s["labels"] == labels)
            .map(|s| s["value"].as_f64().unwrap())
    };
    let call = json!({"server": "notes", "method": "tools/call", "outcome": "ok"});
    assert_eq!(find("mcp_tailor_requests_total", call), Some(2.0));
    let own = find("mcp_tailor_listing_tokens_own", json!({})).expect("own tokens");
    let level0 = json!({"reader": "-", "level": "0", "surface": "native"});
    let tokens = find("mcp_tailor_listing_tokens", level0.clone()).expect("level 0");
    assert_eq!(
        find("mcp_tailor_listing_tokens_saved", level0),
        Some(own - tokens)
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_metrics_token_keeps_scrapers_without_it_out() {
    let url = upstream().await;
    let args = [
        "--upstream",
        &url,
        "--metrics",
        "127.0.0.1:0",
        "--metrics-token-env",
        "METRICS_TEST_TOKEN",
    ];
    let proxy = common::started(&args, &[("METRICS_TEST_TOKEN", "scrape-0123456789")]).await;
    let metrics = common::metrics(&proxy);
    let client = reqwest::Client::new();
    let at = format!("http://{metrics}/metrics");
    let without = client.get(&at).send().await.unwrap();
    assert_eq!(without.status().as_u16(), 401);
    let wrong = client.get(&at).bearer_auth("scrape-012345678").send().await;
    assert_eq!(wrong.unwrap().status().as_u16(), 401);
    let with = client
        .get(&at)
        .bearer_auth("scrape-0123456789")
        .send()
        .await;
    let with = with.unwrap();
    assert_eq!(with.status().as_u16(), 200);
    assert!(with.text().await.unwrap().contains("mcp_tailor_"));
}
