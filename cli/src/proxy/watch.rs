//! The tailoring, live: read again when one of its files changes, on SIGHUP, and when a
//! fleet's member joins or its served names change. A valid file is swapped in and every
//! client told to list again; an invalid one is logged, error by error, and the previous
//! tables stay. When the tools listed upstream change, the file's drift is logged again.

use crate::upstreams::Proxied;
use mcp_tailor::server::Server;
use notify::Watcher;
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// Watches `proxied`'s files (their folders: editors replace a file by renaming over it)
/// until the process ends.
pub(super) async fn watch<P: Proxied>(server: Server<P::Handler>, proxied: Arc<P>) {
    let files = proxied.files();
    let (tx, mut edited) = mpsc::unbounded_channel();
    let names: BTreeSet<OsString> = files
        .iter()
        .filter_map(|f| f.file_name().map(ToOwned::to_owned))
        .collect();
    let _watcher = (!files.is_empty())
        .then(|| watcher(&files, names, tx))
        .flatten();
    let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
    let mut changes = proxied.changes();
    let mut tools_changed = proxied.tools_changed();
    let mut last = read_all(&files);
    loop {
        let hup = async {
            match &mut hangup {
                Some(signal) => signal.recv().await,
                None => std::future::pending().await,
            }
        };
        let changed = async {
            match &mut changes {
                Some(changes) => changes.changed().await.is_ok(),
                None => std::future::pending().await,
            }
        };
        let forced = tokio::select! {
            Some(()) = edited.recv() => false,
            _ = hup => false,
            true = changed => true,
            Ok(()) = tools_changed.changed() => {
                tracing::info!("the tools listed upstream changed");
                super::warn_unmatched(&*proxied, &server.tailoring());
                continue;
            }
        };
        // One edit makes several events: let them settle, then read once.
        tokio::time::sleep(Duration::from_millis(100)).await;
        while edited.try_recv().is_ok() {}
        let now = read_all(&files);
        if now == last && !forced {
            continue;
        }
        last = now;
        reload(&server, &*proxied).await;
    }
}

/// Every file's text (`None` for one that cannot be read).
fn read_all(files: &[PathBuf]) -> Vec<Option<String>> {
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).ok())
        .collect()
}

/// A watcher of the folders of `files`, telling `tx` of each event on one of `names`;
/// `None` (logged) where none can be made: SIGHUP still reloads.
fn watcher(
    files: &[PathBuf],
    names: BTreeSet<OsString>,
    tx: mpsc::UnboundedSender<()>,
) -> Option<notify::RecommendedWatcher> {
    let made = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && event
                .paths
                .iter()
                .any(|p| p.file_name().is_some_and(|n| names.contains(n)))
        {
            let _ = tx.send(());
        }
    });
    let folders: BTreeSet<&Path> = files
        .iter()
        .map(|f| {
            f.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
        })
        .collect();
    let watching = made.and_then(|mut w| {
        for folder in &folders {
            w.watch(folder, notify::RecursiveMode::NonRecursive)?;
        }
        Ok(w)
    });
    match watching {
        Ok(watcher) => Some(watcher),
        Err(error) => {
            tracing::warn!("cannot watch the tailoring files: {error}; SIGHUP still reloads them");
            None
        }
    }
}

/// Reads the tailoring again and swaps it in, or logs why not.
async fn reload<P: Proxied>(server: &Server<P::Handler>, proxied: &P) {
    match proxied.tailoring() {
        Ok(tailoring) => {
            for warning in tailoring.warnings() {
                tracing::warn!("{warning}");
            }
            super::warn_unmatched(proxied, &tailoring);
            server.set_tailoring(tailoring).await;
            tracing::info!("tailoring reloaded; clients told to list again");
        }
        Err(error) => {
            for line in error.to_string().lines() {
                tracing::error!("{line}");
            }
            tracing::error!("tailoring not reloaded; still serving the previous tables");
        }
    }
}
