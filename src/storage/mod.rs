//! How the explicit tables lie in files and in memory: one container for every table and
//! checkpoint file ([`container`]), and the memory maps they are read through ([`mapped`]).
//! Names no game: each format is a [`container::Format`] its owner declares.

pub mod container;
pub mod mapped;

use sha2::{Digest, Sha256};
use std::io::Write;

/// `bytes` in lower-case hex: how checksums and fingerprints are written in records.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A writer that passes bytes on while counting and hashing them: how every checksummed file
/// of the crate is written.
pub(crate) struct Hashing<W> {
    /// Where the bytes go.
    pub(crate) inner: W,
    /// The SHA-256 of the bytes so far.
    pub(crate) hasher: Sha256,
    /// How many bytes so far.
    pub(crate) len: u64,
}

impl<W> Hashing<W> {
    /// Nothing written to `inner` yet.
    pub(crate) fn new(inner: W) -> Hashing<W> {
        Hashing { inner, hasher: Sha256::new(), len: 0 }
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}
