//! Running host callbacks under the request deadline, with panics caught: a
//! callback can fail, hang or panic, and the server keeps serving.

use futures::FutureExt as _;
use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use tokio::time::Instant;

/// A boxed, sendable future: what every host callback returns.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// How a callback failed without answering.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallbackFailure {
    /// The request deadline passed first.
    Timeout,
    /// The callback panicked; the payload's message.
    Panic(String),
}

impl std::fmt::Display for CallbackFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallbackFailure::Timeout => f.write_str("the request deadline passed"),
            CallbackFailure::Panic(message) => write!(f, "panicked: {message}"),
        }
    }
}

impl std::error::Error for CallbackFailure {}

fn panic_message(payload: Box<dyn Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a non-string panic payload".to_owned())
}

/// Calls `make` and awaits its future until `deadline`, catching a panic in either.
pub(super) async fn guarded<T>(
    deadline: Instant,
    make: impl FnOnce() -> BoxFuture<T>,
) -> Result<T, CallbackFailure> {
    let future = std::panic::catch_unwind(AssertUnwindSafe(make))
        .map_err(|p| CallbackFailure::Panic(panic_message(p)))?;
    match tokio::time::timeout_at(deadline, AssertUnwindSafe(future).catch_unwind()).await {
        Err(_) => Err(CallbackFailure::Timeout),
        Ok(Err(payload)) => Err(CallbackFailure::Panic(panic_message(payload))),
        Ok(Ok(value)) => Ok(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn soon() -> Instant {
        Instant::now() + Duration::from_millis(50)
    }

    #[tokio::test]
    async fn answers_panics_and_timeouts() {
        assert_eq!(guarded(soon(), || Box::pin(async { 7 })).await, Ok(7));
        let panicked = guarded::<u8>(soon(), || Box::pin(async { panic!("inside") })).await;
        assert_eq!(panicked, Err(CallbackFailure::Panic("inside".into())));
        let panicked = guarded::<u8>(soon(), || panic!("before {}", "the future")).await;
        assert_eq!(
            panicked,
            Err(CallbackFailure::Panic("before the future".into()))
        );
        let slow = guarded(soon(), || {
            Box::pin(async {
                tokio::time::sleep(Duration::from_secs(5)).await;
                1
            })
        })
        .await;
        assert_eq!(slow, Err(CallbackFailure::Timeout));
    }
}
