//! Serving a server on stdio (or any rmcp transport), with `rmcp` doing the
//! protocol.
//!
//! On stdio, `rmcp` hands the connection back to nobody when an `initialize` fails: the
//! transport is consumed by the failed handshake. A pump task therefore owns the real
//! transport, and each handshake attempt gets a thin handle onto it; after a failed
//! `initialize` the session is still unnegotiated and the next `initialize` on the same
//! connection is served.

use crate::session::handler::Session;
use crate::transport::error::ServeError;
use crate::verbatim;
use rmcp::service::{RxJsonRpcMessage, ServerInitializeError, TxJsonRpcMessage};
use rmcp::transport::{IntoTransport, Transport};
use rmcp::{RoleServer, ServerHandler, serve_server};
use std::sync::Arc;
use tokio::sync::{Mutex, mpsc};

/// One handshake attempt's handle onto the retained connection.
struct Attempt {
    incoming: Arc<Mutex<mpsc::Receiver<RxJsonRpcMessage<RoleServer>>>>,
    outgoing: mpsc::Sender<TxJsonRpcMessage<RoleServer>>,
}

impl Transport<RoleServer> for Attempt {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let outgoing = self.outgoing.clone();
        let item = verbatim::restore_message(item);
        async move {
            outgoing.send(item).await.map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the connection is closed")
            })
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.incoming.lock().await.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // The connection outlives an attempt; the pump closes it when the peer does.
        Ok(())
    }
}

enum Event {
    In(Option<RxJsonRpcMessage<RoleServer>>),
    Out(Option<TxJsonRpcMessage<RoleServer>>),
}

/// Owns the real transport: forwards what arrives to the current attempt and writes what
/// any attempt sends. Ends when the peer closes and every attempt has finished sending.
async fn pump<T: Transport<RoleServer>>(
    mut transport: T,
    incoming: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    mut outgoing: mpsc::Receiver<TxJsonRpcMessage<RoleServer>>,
) {
    let mut incoming = Some(incoming);
    loop {
        let event = match &incoming {
            Some(_) => tokio::select! {
                message = transport.receive() => Event::In(message),
                message = outgoing.recv() => Event::Out(message),
            },
            None => Event::Out(outgoing.recv().await),
        };
        match event {
            Event::In(Some(message)) => {
                if let Some(tx) = &incoming
                    && tx.send(message).await.is_err()
                {
                    incoming = None;
                }
            }
            // The peer closed: let the attempt see the end, keep writing what it sends.
            Event::In(None) => incoming = None,
            Event::Out(Some(message)) => {
                if let Err(error) = transport.send(message).await {
                    tracing::debug!(%error, "writing to the transport failed");
                    break;
                }
            }
            Event::Out(None) => break,
        }
    }
    let _ = transport.close().await;
}

/// Serves one connection on any `rmcp` transport until the peer closes it, each handshake
/// attempt with a fresh session from `session`. A failed `initialize` leaves the connection
/// open and unnegotiated; a later valid `initialize` is served.
pub(crate) async fn serve<H, T, E, A>(
    session: impl Fn() -> Session<H>,
    transport: T,
) -> Result<(), ServeError>
where
    H: ServerHandler,
    T: IntoTransport<RoleServer, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let (in_tx, in_rx) = mpsc::channel(64);
    let (out_tx, out_rx) = mpsc::channel(64);
    let pump = tokio::spawn(pump(transport.into_transport(), in_tx, out_rx));
    let incoming = Arc::new(Mutex::new(in_rx));
    let result = loop {
        let attempt = Attempt {
            incoming: incoming.clone(),
            outgoing: out_tx.clone(),
        };
        match serve_server(session(), attempt).await {
            Ok(running) => break running.waiting().await.map(drop).map_err(ServeError::from),
            Err(ServerInitializeError::InitializeFailed(error)) => {
                tracing::info!(code = ?error.code, "initialize failed; the connection stays open for another");
            }
            Err(ServerInitializeError::ExpectedInitializeRequest(message)) => {
                tracing::info!(?message, "ignored a message before initialize");
            }
            Err(ServerInitializeError::ConnectionClosed(_)) => break Ok(()),
            Err(error) => break Err(ServeError::Handshake(Box::new(error))),
        }
    };
    drop(out_tx);
    let _ = pump.await;
    result
}
