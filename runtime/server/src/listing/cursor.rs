//! Signed, expiring, bound pagination cursors.
//!
//! A cursor is `base64url(payload ‖ HMAC-SHA256(payload))`, the payload being a version
//! byte, the page offset, the expiry (Unix milliseconds) and a 32-byte binding: a digest of
//! everything the page depends on (principal, tenant, scopes, visible catalog, page size,
//! protocol era, presented catalog). Any change to any of them, a flipped byte, another
//! secret or a late use makes the cursor invalid — never another page.

use base64::Engine as _;
use hmac::{KeyInit, Mac};
use sha2::{Digest, Sha256};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The shortest cursor secret accepted, in bytes (HMAC-SHA256's output size).
pub const MIN_SECRET_LEN: usize = 32;

/// A cursor secret shorter than [`MIN_SECRET_LEN`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
#[error("a cursor secret must be at least {MIN_SECRET_LEN} bytes; this one has {0}")]
pub struct ShortSecret(pub usize);

type HmacSha256 = hmac::Hmac<Sha256>;

const VERSION: u8 = 1;
const PAYLOAD_LEN: usize = 1 + 4 + 8 + 32;
const MAC_LEN: usize = 32;
const BASE64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// A digest of everything a page depends on, computed from a canonical encoding so that
/// every replica computes the same one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Binding([u8; 32]);

/// Builds a [`Binding`] from length-prefixed parts, so no two part lists collide.
#[derive(Clone, Debug, Default)]
pub(crate) struct BindingBuilder(Sha256);

impl BindingBuilder {
    /// Adds one part.
    pub(crate) fn part(mut self, bytes: impl AsRef<[u8]>) -> Self {
        let bytes = bytes.as_ref();
        self.0.update((bytes.len() as u64).to_be_bytes());
        self.0.update(bytes);
        self
    }

    /// Adds a part that may be absent (absent and empty differ).
    pub(crate) fn optional(self, part: Option<impl AsRef<[u8]>>) -> Self {
        match part {
            None => self.part([0u8]),
            Some(bytes) => self.part([1u8]).part(bytes),
        }
    }

    /// Adds a list of parts: its length, then each part.
    pub(crate) fn list<P: AsRef<[u8]>>(self, parts: impl IntoIterator<Item = P>) -> Self {
        let parts: Vec<P> = parts.into_iter().collect();
        let start = self.part((parts.len() as u64).to_be_bytes());
        parts.into_iter().fold(start, Self::part)
    }

    /// The binding.
    pub(crate) fn finish(self) -> Binding {
        Binding(self.0.finalize().into())
    }
}

/// Why a cursor was refused. The client only ever learns `invalid_cursor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum CursorError {
    /// Not base64url, or not the right length or version.
    #[error("malformed cursor")]
    Malformed,
    /// The signature does not match (tampered, or another secret).
    #[error("cursor signature does not match")]
    Signature,
    /// Past its expiry.
    #[error("cursor expired")]
    Expired,
    /// Issued for another caller, catalog, page size, era or presentation.
    #[error("cursor issued for another caller, catalog, page size, era or presentation")]
    Binding,
}

/// The environment variable the builder reads the cursor secret from when the host sets none
/// in code: hex, at least [`MIN_SECRET_LEN`] bytes. Replicas that share it accept one
/// another's cursors.
pub const ENV_CURSOR_SECRET: &str = "MCP_TAILOR_CURSOR_SECRET";

/// Issues cursors with the newest secret and accepts those of older ones too, so a
/// deployment can rotate its secret without breaking the cursors in flight.
#[derive(Clone)]
pub(crate) struct CursorSigner {
    /// The signing key first, then the older keys still accepted.
    keys: Vec<Vec<u8>>,
    ttl: Duration,
}

impl std::fmt::Debug for CursorSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CursorSigner")
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

fn millis(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl CursorSigner {
    /// A signer with this secret, at least [`MIN_SECRET_LEN`] bytes (the builder's
    /// `.cursor_secret` goes through [`rotating`](Self::rotating)).
    #[cfg(test)]
    pub(crate) fn new(secret: impl Into<Vec<u8>>, ttl: Duration) -> Result<Self, ShortSecret> {
        Self::rotating(secret, Vec::<Vec<u8>>::new(), ttl)
    }

    /// A signer that signs with `current` and still accepts cursors signed with any of
    /// `previous` (each at least [`MIN_SECRET_LEN`] bytes): rotate by moving the old
    /// current secret into `previous` for one cursor lifetime.
    pub(crate) fn rotating<S: Into<Vec<u8>>>(
        current: impl Into<Vec<u8>>,
        previous: impl IntoIterator<Item = S>,
        ttl: Duration,
    ) -> Result<Self, ShortSecret> {
        let keys: Vec<Vec<u8>> = std::iter::once(current.into())
            .chain(previous.into_iter().map(Into::into))
            .collect();
        if let Some(short) = keys.iter().find(|k| k.len() < MIN_SECRET_LEN) {
            return Err(ShortSecret(short.len()));
        }
        Ok(CursorSigner { keys, ttl })
    }

    /// A signer with a random secret of this process.
    pub(crate) fn random(ttl: Duration) -> Self {
        let mut key = vec![0u8; MIN_SECRET_LEN];
        getrandom::fill(&mut key).expect("the operating system's random source failed");
        CursorSigner {
            keys: vec![key],
            ttl,
        }
    }

    /// How long a cursor stays valid.
    pub(crate) fn ttl(&self) -> Duration {
        self.ttl
    }

    fn mac(key: &[u8]) -> HmacSha256 {
        <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC takes a key of any length")
    }

    /// A cursor for the page starting at `offset`, valid until `now + ttl`.
    pub(crate) fn issue(&self, offset: usize, binding: &Binding, now: SystemTime) -> String {
        let mut bytes = Vec::with_capacity(PAYLOAD_LEN + MAC_LEN);
        bytes.push(VERSION);
        bytes.extend_from_slice(&u32::try_from(offset).unwrap_or(u32::MAX).to_be_bytes());
        bytes.extend_from_slice(&millis(now + self.ttl).to_be_bytes());
        bytes.extend_from_slice(&binding.0);
        let mut mac = Self::mac(&self.keys[0]);
        mac.update(&bytes);
        bytes.extend_from_slice(&mac.finalize().into_bytes());
        BASE64.encode(bytes)
    }

    /// The offset a cursor stands for, if it is genuine, current and bound to `binding`.
    pub(crate) fn verify(
        &self,
        cursor: &str,
        binding: &Binding,
        now: SystemTime,
    ) -> Result<usize, CursorError> {
        let bytes = BASE64.decode(cursor).map_err(|_| CursorError::Malformed)?;
        if bytes.len() != PAYLOAD_LEN + MAC_LEN || bytes[0] != VERSION {
            return Err(CursorError::Malformed);
        }
        let (payload, tag) = bytes.split_at(PAYLOAD_LEN);
        // Constant-time comparison, against each accepted key.
        let genuine = self.keys.iter().any(|key| {
            let mut mac = Self::mac(key);
            mac.update(payload);
            mac.verify_slice(tag).is_ok()
        });
        if !genuine {
            return Err(CursorError::Signature);
        }
        let offset = u32::from_be_bytes(
            payload[1..5]
                .try_into()
                .map_err(|_| CursorError::Malformed)?,
        );
        let expires = u64::from_be_bytes(
            payload[5..13]
                .try_into()
                .map_err(|_| CursorError::Malformed)?,
        );
        if millis(now) >= expires {
            return Err(CursorError::Expired);
        }
        if payload[13..] != binding.0 {
            return Err(CursorError::Binding);
        }
        Ok(offset as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(seed: &[u8]) -> Vec<u8> {
        seed.iter().copied().cycle().take(MIN_SECRET_LEN).collect()
    }

    fn signer(seed: &[u8]) -> CursorSigner {
        CursorSigner::new(secret(seed), Duration::from_secs(300)).unwrap()
    }

    #[test]
    fn secrets_are_long_enough_and_rotate() {
        assert_eq!(
            CursorSigner::new(b"short".to_vec(), Duration::from_secs(1)).unwrap_err(),
            ShortSecret(5)
        );
        let now = SystemTime::now();
        let old = signer(b"old");
        let cursor = old.issue(3, &binding("alice"), now);
        let rotated =
            CursorSigner::rotating(secret(b"new"), [secret(b"old")], Duration::from_secs(300))
                .unwrap();
        assert_eq!(rotated.verify(&cursor, &binding("alice"), now), Ok(3));
        let fresh = rotated.issue(4, &binding("alice"), now);
        assert_eq!(signer(b"new").verify(&fresh, &binding("alice"), now), Ok(4));
        assert_eq!(
            old.verify(&fresh, &binding("alice"), now),
            Err(CursorError::Signature)
        );
        assert!(
            CursorSigner::rotating(secret(b"new"), [b"short".to_vec()], Duration::from_secs(1))
                .is_err()
        );
    }

    fn binding(who: &str) -> Binding {
        BindingBuilder::default().part(who).part("catalog").finish()
    }

    #[test]
    fn a_cursor_round_trips_and_can_be_reused() {
        let signer = signer(b"secret");
        let now = SystemTime::now();
        let cursor = signer.issue(7, &binding("alice"), now);
        assert_eq!(signer.verify(&cursor, &binding("alice"), now), Ok(7));
        assert_eq!(
            signer.verify(&cursor, &binding("alice"), now + Duration::from_secs(10)),
            Ok(7)
        );
    }

    #[test]
    fn every_tampering_is_refused() {
        let signer = signer(b"secret");
        let now = SystemTime::now();
        let alice = binding("alice");
        let cursor = signer.issue(1, &alice, now);
        let raw = BASE64.decode(&cursor).unwrap();
        for i in 0..raw.len() {
            for bit in [0x01u8, 0x80] {
                let mut flipped = raw.clone();
                flipped[i] ^= bit;
                let flipped = BASE64.encode(flipped);
                assert!(signer.verify(&flipped, &alice, now).is_err(), "byte {i}");
            }
        }
        for len in 0..cursor.len() {
            assert!(
                signer.verify(&cursor[..len], &alice, now).is_err(),
                "truncated to {len}"
            );
        }
        assert_eq!(
            signer.verify(&cursor, &binding("bob"), now),
            Err(CursorError::Binding)
        );
        let other = CursorSigner::new(secret(b"other"), Duration::from_secs(300)).unwrap();
        assert_eq!(
            other.verify(&cursor, &alice, now),
            Err(CursorError::Signature)
        );
        assert_eq!(
            signer.verify(&cursor, &alice, now + Duration::from_secs(300)),
            Err(CursorError::Expired)
        );
        assert_eq!(
            signer.verify("not a cursor!", &alice, now),
            Err(CursorError::Malformed)
        );
        assert_eq!(signer.verify("", &alice, now), Err(CursorError::Malformed));
    }

    #[test]
    fn binding_parts_are_length_prefixed() {
        let a = BindingBuilder::default().part("ab").part("c").finish();
        let b = BindingBuilder::default().part("a").part("bc").finish();
        assert_ne!(a, b);
        let one = BindingBuilder::default().list(["a b"]).finish();
        let two = BindingBuilder::default().list(["a", "b"]).finish();
        assert_ne!(one, two, "scopes {{\"a b\"}} and {{\"a\", \"b\"}}");
        let none = BindingBuilder::default().optional(None::<&str>).finish();
        let empty = BindingBuilder::default().optional(Some("")).finish();
        assert_ne!(none, empty);
    }
}
