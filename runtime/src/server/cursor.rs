//! Signed, expiring, bound pagination cursors (SPEC B5).
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

type HmacSha256 = hmac::Hmac<Sha256>;

const VERSION: u8 = 1;
const PAYLOAD_LEN: usize = 1 + 4 + 8 + 32;
const MAC_LEN: usize = 32;
const BASE64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// A digest of everything a page depends on, computed from a canonical encoding so that
/// every replica computes the same one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding([u8; 32]);

/// Builds a [`Binding`] from length-prefixed parts, so no two part lists collide.
#[derive(Clone, Debug, Default)]
pub struct BindingBuilder(Sha256);

impl BindingBuilder {
    /// Adds one part.
    pub fn part(mut self, bytes: impl AsRef<[u8]>) -> Self {
        let bytes = bytes.as_ref();
        self.0.update((bytes.len() as u64).to_be_bytes());
        self.0.update(bytes);
        self
    }

    /// The binding.
    pub fn finish(self) -> Binding {
        Binding(self.0.finalize().into())
    }
}

/// Why a cursor was refused. The client only ever learns `invalid_cursor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CursorError {
    /// Not base64url, or not the right length or version.
    Malformed,
    /// The signature does not match (tampered, or another secret).
    Signature,
    /// Past its expiry.
    Expired,
    /// Issued for another caller, catalog, page size, era or presentation.
    Binding,
}

/// Issues and checks cursors with one secret.
#[derive(Clone)]
pub struct CursorSigner {
    key: Vec<u8>,
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
    /// A signer with this secret (share it between replicas behind one load balancer).
    pub fn new(secret: impl Into<Vec<u8>>, ttl: Duration) -> Self {
        CursorSigner {
            key: secret.into(),
            ttl,
        }
    }

    /// A signer with a random secret of this process.
    pub fn random(ttl: Duration) -> Self {
        let mut key = vec![0u8; 32];
        getrandom::fill(&mut key).expect("the operating system's random source failed");
        CursorSigner { key, ttl }
    }

    /// How long a cursor stays valid.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    fn mac(&self) -> HmacSha256 {
        <HmacSha256 as KeyInit>::new_from_slice(&self.key).expect("HMAC takes a key of any length")
    }

    /// A cursor for the page starting at `offset`, valid until `now + ttl`.
    pub fn issue(&self, offset: usize, binding: &Binding, now: SystemTime) -> String {
        let mut bytes = Vec::with_capacity(PAYLOAD_LEN + MAC_LEN);
        bytes.push(VERSION);
        bytes.extend_from_slice(&u32::try_from(offset).unwrap_or(u32::MAX).to_be_bytes());
        bytes.extend_from_slice(&millis(now + self.ttl).to_be_bytes());
        bytes.extend_from_slice(&binding.0);
        let mut mac = self.mac();
        mac.update(&bytes);
        bytes.extend_from_slice(&mac.finalize().into_bytes());
        BASE64.encode(bytes)
    }

    /// The offset a cursor stands for, if it is genuine, current and bound to `binding`.
    pub fn verify(
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
        let mut mac = self.mac();
        mac.update(payload);
        // Constant-time comparison.
        mac.verify_slice(tag).map_err(|_| CursorError::Signature)?;
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

    fn binding(who: &str) -> Binding {
        BindingBuilder::default().part(who).part("catalog").finish()
    }

    #[test]
    fn a_cursor_round_trips_and_can_be_reused() {
        let signer = CursorSigner::new(b"secret".to_vec(), Duration::from_secs(300));
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
        let signer = CursorSigner::new(b"secret".to_vec(), Duration::from_secs(300));
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
        let other = CursorSigner::new(b"other".to_vec(), Duration::from_secs(300));
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
    }
}
