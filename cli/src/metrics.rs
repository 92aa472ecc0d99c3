//! `proxy --metrics ADDR`: the proxy's work as Prometheus (OpenMetrics) text at
//! `http://ADDR/metrics` — requests, their latency, the upstream's connections, and the
//! tokens each reader's catalog costs and saves against the server's own words.
//!
//! | metric | labels | what |
//! |---|---|---|
//! | `mcp_tailor_requests_total` | server, method, outcome | requests served (`ok`, `error`) |
//! | `mcp_tailor_request_duration_seconds` | server, method | histogram, arrival to answer |
//! | `mcp_tailor_upstream_connections` | server | open now |
//! | `mcp_tailor_upstream_connections_opened_total` | server | opened (each a process, for a command) |
//! | `mcp_tailor_upstream_connections_lost_total` | server | ended by the upstream (exit, closed stream) |
//! | `mcp_tailor_listing_tokens` | reader, level, surface | a reader's whole `tools/list` on a surface (`native`, `index`), as `inspect tokens` counts it |
//! | `mcp_tailor_listing_tokens_saved` | reader, level, surface | the server's own words' tokens less that |
//! | `mcp_tailor_listing_tokens_own` | | the server's own words, untailored |
//!
//! The token figures are counted once per rendered catalog — when the file or the upstream's
//! tools change — never per request.

use crate::CommandError;
use crate::upstreams::Proxied;
use mcp_tailor::Tailoring;
use mcp_tailor::gateway::{Served, UpstreamCounts};
use mcp_tailor::inspect::{Inspection, definitions};
use mcp_tailor::seam::Locked;
use mcp_tailor::server::auth::ClientAuth;
use mcp_tailor::server::{IndexSurface, Server, Surface, rmcp};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::sync::{Arc, Mutex};

/// The protocol revision the token figures list on (`inspect tokens`' default).
const PROTOCOL: &str = "2025-11-25";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    server: String,
    method: String,
    outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct MethodLabels {
    server: String,
    method: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ServerLabels {
    server: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReaderLabels {
    reader: String,
    level: String,
    surface: String,
}

/// The proxy's metrics, registered once.
pub(crate) struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<MethodLabels, Histogram>,
    open: Family<ServerLabels, Gauge>,
    opened: Family<ServerLabels, Counter>,
    lost: Family<ServerLabels, Counter>,
    tokens: Family<ReaderLabels, Gauge>,
    saved: Family<ReaderLabels, Gauge>,
    own: Gauge,
    /// Each upstream's counts last read, to add only what is new to the counters.
    counted: Mutex<std::collections::HashMap<String, UpstreamCounts>>,
    /// The index surface the proxy offers, priced beside the catalog.
    index: IndexSurface,
    /// The catalog the token figures were counted for: the file and the tools.
    priced: tokio::sync::Mutex<Option<(Arc<Tailoring>, Vec<rmcp::model::Tool>)>>,
}

impl Metrics {
    /// The metrics of a proxy offering `index`, registered.
    pub(crate) fn new(index: IndexSurface) -> Arc<Metrics> {
        let mut registry = Registry::with_prefix("mcp_tailor");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register("requests", "Requests served", requests.clone());
        let latency = Family::<MethodLabels, Histogram>::new_with_constructor(|| {
            // 50 µs to about 13 s.
            Histogram::new(exponential_buckets(0.00005, 2.0, 19))
        });
        registry.register(
            "request_duration_seconds",
            "From a request's arrival to its answer",
            latency.clone(),
        );
        let open = Family::<ServerLabels, Gauge>::default();
        registry.register(
            "upstream_connections",
            "Upstream connections open",
            open.clone(),
        );
        let opened = Family::<ServerLabels, Counter>::default();
        registry.register(
            "upstream_connections_opened",
            "Upstream connections opened",
            opened.clone(),
        );
        let lost = Family::<ServerLabels, Counter>::default();
        registry.register(
            "upstream_connections_lost",
            "Upstream connections the upstream ended",
            lost.clone(),
        );
        let tokens = Family::<ReaderLabels, Gauge>::default();
        registry.register(
            "listing_tokens",
            "Tokens of a reader's whole tools/list at a level, on a surface",
            tokens.clone(),
        );
        let saved = Family::<ReaderLabels, Gauge>::default();
        registry.register(
            "listing_tokens_saved",
            "Tokens the reader's listing saves against the server's own words",
            saved.clone(),
        );
        let own = Gauge::default();
        registry.register(
            "listing_tokens_own",
            "Tokens of the server's own tools/list, untailored",
            own.clone(),
        );
        Arc::new(Metrics {
            registry,
            requests,
            latency,
            open,
            opened,
            lost,
            tokens,
            saved,
            own,
            index,
            counted: Mutex::default(),
            priced: tokio::sync::Mutex::default(),
        })
    }

    /// Counts one request the gateway served.
    pub(crate) fn served(&self, server: &str, served: &Served<'_>) {
        let outcome = if served.ok { "ok" } else { "error" };
        self.requests
            .get_or_create(&RequestLabels {
                server: server.to_owned(),
                method: served.method.to_owned(),
                outcome: outcome.to_owned(),
            })
            .inc();
        self.latency
            .get_or_create(&MethodLabels {
                server: server.to_owned(),
                method: served.method.to_owned(),
            })
            .observe(served.elapsed.as_secs_f64());
    }

    /// The text a scrape reads: the upstreams' counts and the token figures brought up to
    /// date first.
    pub(crate) async fn scrape<P: Proxied>(
        &self,
        server: &Server<P::Handler>,
        proxied: &P,
    ) -> String {
        for (name, counts) in proxied.counts() {
            self.count_upstream(name, counts);
        }
        if let Err(error) = self.price(server, proxied).await {
            tracing::warn!("metrics: the catalog's tokens were not counted: {error}");
        }
        let mut text = String::new();
        // Writing to a String does not fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }

    fn count_upstream(&self, server: String, now: UpstreamCounts) {
        let labels = ServerLabels {
            server: server.clone(),
        };
        let mut counted = self.counted.locked();
        let last = counted.entry(server).or_default();
        let gauge = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        self.open.get_or_create(&labels).set(gauge(now.open));
        self.opened
            .get_or_create(&labels)
            .inc_by(now.opened.saturating_sub(last.opened));
        self.lost
            .get_or_create(&labels)
            .inc_by(now.lost.saturating_sub(last.lost));
        *last = now;
    }

    /// Counts the tokens of each reader's listing when the file or the tools changed since
    /// they were last counted.
    async fn price<P: Proxied>(
        &self,
        server: &Server<P::Handler>,
        proxied: &P,
    ) -> Result<(), CommandError> {
        let Some(tools) = proxied.listed_tools() else {
            return Ok(());
        };
        let tailoring = server.tailoring();
        let mut priced = self.priced.lock().await;
        if let Some((file, listed)) = &*priced
            && Arc::ptr_eq(file, &tailoring)
            && *listed == tools
        {
            return Ok(());
        }
        let page_size = proxied.page_size();
        let own = sizes(&tools, Tailoring::default(), page_size, None).await?;
        let own_tokens = own.first().map_or(0, |(_, sizes)| sizes[0].tokens);
        let native = sizes(&tools, (*tailoring).clone(), page_size, None).await?;
        let index = Some(self.index.clone().default_surface(Surface::Index));
        let indexed = sizes(&tools, (*tailoring).clone(), page_size, index).await?;
        let gauge = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        self.own.set(gauge(own_tokens));
        self.tokens.clear();
        self.saved.clear();
        for (surface, priced) in [(Surface::Native, native), (Surface::Index, indexed)] {
            for (class, sizes) in &priced {
                for (level, size) in sizes.iter().enumerate() {
                    let labels = ReaderLabels {
                        reader: class.label(),
                        level: level.to_string(),
                        surface: surface.to_string(),
                    };
                    self.tokens.get_or_create(&labels).set(gauge(size.tokens));
                    let saved = gauge(own_tokens) - gauge(size.tokens);
                    self.saved.get_or_create(&labels).set(saved);
                }
            }
        }
        *priced = Some((tailoring, tools));
        Ok(())
    }
}

/// Each reader class's catalog at each level, `tools` listed through `tailoring` as the
/// proxy lists them (the sizes `inspect tokens` reports), on `index` where given.
async fn sizes(
    tools: &[rmcp::model::Tool],
    tailoring: Tailoring,
    page_size: Option<usize>,
    index: Option<IndexSurface>,
) -> Result<
    Vec<(
        mcp_tailor::inspect::ReaderClass,
        [mcp_tailor::inspect::Size; 10],
    )>,
    CommandError,
> {
    let defs = definitions(tools, &tailoring);
    let server = crate::inspect::wrapping_server(tailoring, page_size, index)?;
    let caller = mcp_tailor::server::Principal::anonymous();
    let inspection = Inspection::of_wrapped(&server, tools.to_vec(), defs, caller, PROTOCOL);
    let tokens = inspection.tokens().await?;
    Ok(tokens.sizes().to_vec())
}

/// Serves the metrics at `http://{listener}/metrics` until the process ends.
pub(crate) async fn serve<P: Proxied>(
    listener: tokio::net::TcpListener,
    metrics: Arc<Metrics>,
    (server, proxied): (Server<P::Handler>, Arc<P>),
    auth: Option<ClientAuth>,
) {
    let served = server.clone();
    use axum::http::header::CONTENT_TYPE;
    let scrape = move || {
        let (metrics, server, proxied) = (metrics.clone(), server.clone(), proxied.clone());
        async move {
            let text = metrics.scrape(&server, &*proxied).await;
            (
                [(
                    CONTENT_TYPE,
                    "application/openmetrics-text; version=1.0.0; charset=utf-8",
                )],
                text,
            )
        }
    };
    let app = axum::Router::new().route("/metrics", axum::routing::get(scrape));
    let app = match auth {
        Some(auth) => auth.guard(app),
        None => app,
    };
    // Served as the MCP endpoint is: the same connection limits, per-address share and
    // header timeout, so a flood at the metrics port holds no more than one at the endpoint.
    let forever = std::future::pending();
    if let Err(error) = served.serve_http_on(listener, app, forever).await {
        tracing::error!("metrics: {error}");
    }
}
