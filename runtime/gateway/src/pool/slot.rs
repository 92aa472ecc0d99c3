//! Where connections are kept: a slot opens its connection on first use and replaces it
//! once it died; slots by credential keep one per client `Authorization` (forwarded, so a
//! connection never carries another client's credential).

use crate::pool::connection::Connection;
use crate::upstream::open::{Credential, UpstreamError};
use mcp_tailor_core::seam::Locked;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How many credentials get a connection of their own at once; past it, an idle one is
/// forgotten (its connection ends when its last request does).
const MAX_CREDENTIALS: usize = 256;

/// Where a connection is kept: opened on first use, replaced once it died. The live
/// connection is read under a plain lock held for an `Arc` clone (every request of every
/// session sharing it reads it, from any thread); only opening one waits its turn.
#[derive(Default)]
pub(crate) struct Slot {
    held: Mutex<Option<Arc<Connection>>>,
    opening: tokio::sync::Mutex<()>,
}

impl Slot {
    /// A slot holding `connection`.
    pub(crate) fn holding(connection: Connection) -> Slot {
        Slot {
            held: Mutex::new(Some(Arc::new(connection))),
            opening: tokio::sync::Mutex::new(()),
        }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Option<Arc<Connection>>> {
        self.held.locked()
    }

    /// The connection held, while it lives.
    fn live(&self) -> Option<Arc<Connection>> {
        self.held().as_ref().filter(|c| !c.is_closed()).cloned()
    }

    /// The live connection, opening one with `open` when there is none or it died. Two
    /// requests arriving first at once open one connection, not two.
    pub(crate) async fn get<F>(&self, open: F) -> Result<Arc<Connection>, UpstreamError>
    where
        F: AsyncFnOnce() -> Result<Connection, UpstreamError>,
    {
        if let Some(live) = self.live() {
            return Ok(live);
        }
        let _opening = self.opening.lock().await;
        // Another request may have opened it meanwhile.
        if let Some(live) = self.live() {
            return Ok(live);
        }
        let connection = Arc::new(open().await?);
        *self.held() = Some(connection.clone());
        Ok(connection)
    }

    /// The connection, if one is open (live or not).
    pub(crate) fn current(&self) -> Option<Arc<Connection>> {
        self.held().clone()
    }
}

/// A slot per credential (the gateway's, or a client's `Authorization`, forwarded).
#[derive(Default)]
pub(crate) struct Slots(Mutex<HashMap<Credential, Arc<Slot>>>);

impl Slots {
    /// Slots holding `connection` for the gateway's own credential.
    pub(crate) fn holding(connection: Connection) -> Slots {
        let slots = Slots::default();
        let slot = Arc::new(Slot::holding(connection));
        slots.lock().insert(Credential::Gateway, slot);
        slots
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Credential, Arc<Slot>>> {
        self.0.locked()
    }

    /// The slot of `credential`.
    pub(crate) fn slot(&self, credential: &Credential) -> Arc<Slot> {
        let mut slots = self.lock();
        if let Some(slot) = slots.get(credential) {
            return slot.clone();
        }
        if slots.len() >= MAX_CREDENTIALS {
            let idle = slots
                .iter()
                .find(|(key, slot)| **key != Credential::Gateway && Arc::strong_count(slot) == 1)
                .map(|(key, _)| key.clone());
            if let Some(idle) = idle {
                slots.remove(&idle);
            }
        }
        slots.entry(credential.clone()).or_default().clone()
    }
}
