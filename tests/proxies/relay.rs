//! The floor of the benchmark: a relay that copies each HTTP request to a streamable HTTP
//! upstream and its response back, byte for byte, streamed both ways — hyper's server and
//! its pooled client on one thread, as `mcp-tailor proxy` runs, and nothing else: no JSON
//! read, no session kept. What it adds to a call is what any proxy built on hyper pays
//! before it does anything.
//!
//! Below it, a TCP pump: each connection's bytes copied to one upstream connection and back,
//! no HTTP read at all. What it adds is what the machine charges for one more hop, which no
//! proxy can go under.
//!
//! `proxies relay LISTEN URL` serves the relay at `LISTEN` until killed; `proxies pump
//! LISTEN ADDR` the pump.

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use std::net::SocketAddr;
use tokio::net::{TcpListener, TcpStream};

/// Serves the relay at `listen` in front of `upstream` until the process ends.
pub fn serve(listen: SocketAddr, upstream: Uri) -> std::io::Result<()> {
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true);
    let client: Client<_, Incoming> = Client::builder(TokioExecutor::new()).build(connector);
    on_one_thread(listen, move |stream| {
        let (client, upstream) = (client.clone(), upstream.clone());
        let relayed = service_fn(move |request: Request<Incoming>| {
            let (client, upstream) = (client.clone(), upstream.clone());
            async move {
                let (mut parts, body) = request.into_parts();
                parts.uri = upstream;
                // The client names the upstream's host itself.
                parts.headers.remove(hyper::header::HOST);
                client.request(Request::from_parts(parts, body)).await
            }
        });
        tokio::spawn(async move {
            let connection = http1::Builder::new();
            let _ = connection
                .serve_connection(TokioIo::new(stream), relayed)
                .await;
        });
    })
}

/// Serves the pump at `listen` in front of the TCP endpoint `upstream` until the process
/// ends: one upstream connection per client connection, bytes copied both ways.
pub fn pump(listen: SocketAddr, upstream: SocketAddr) -> std::io::Result<()> {
    on_one_thread(listen, move |mut client| {
        tokio::spawn(async move {
            let Ok(mut server) = TcpStream::connect(upstream).await else {
                return;
            };
            if server.set_nodelay(true).is_ok() {
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            }
        });
    })
}

/// Listens at `listen` on one thread, as `mcp-tailor proxy` runs, handing each connection
/// (without Nagle's delay) to `each` until the process ends.
fn on_one_thread(listen: SocketAddr, mut each: impl FnMut(TcpStream)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = TcpListener::bind(listen).await?;
        loop {
            let (stream, _) = listener.accept().await?;
            stream.set_nodelay(true)?;
            each(stream);
        }
    })
}
