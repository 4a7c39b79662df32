//! A breadth-first pass stopped between two pieces of a level, in a file.
//!
//! # File format (version 1)
//! ```text
//! magic     "DFASOLVE-OSTLE-LEVELS\n\0\0" (24 bytes)
//! u64       header length h (little-endian)
//! header    h bytes: postcard of `Header` (variant, every kind's boards and states, the
//!           levels done, the states found so far in the level under way)
//! padding   to 8 bytes
//! words     u64s: a bit per state; then per class and kind a bit per board three times
//!           (reached, to expand in this level, to expand in the next)
//! [u8; 32]  SHA-256 of everything before it
//! ```
//! The word counts follow from the header, so a file of other tables is refused before its
//! bits are read.

use super::super::super::Variant;
use super::super::tables::HashingWriter;
use super::{Bits, Pass};
use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const MAGIC: &[u8; 24] = b"DFASOLVE-OSTLE-LEVELS\n\0\0";
const VERSION: u32 = 1;

#[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
struct Header {
    format: u32,
    variant: Variant,
    /// Per class, per kind: boards and states.
    kinds: Vec<Vec<(u64, u64)>>,
    levels: Vec<u64>,
    found: u64,
    program: String,
}

fn per_kind(b: &Bits) -> impl Iterator<Item = &[AtomicU64]> {
    b.iter().flatten().map(Vec::as_slice)
}

fn all_bits(pass: &Pass) -> impl Iterator<Item = &[AtomicU64]> {
    std::iter::once(pass.states.as_slice())
        .chain(per_kind(&pass.boards))
        .chain(per_kind(&pass.frontier))
        .chain(per_kind(&pass.next))
}

/// Save `pass` (no worker running) to `path` atomically.
pub(super) fn save(path: &Path, variant: &Variant, kinds: &[Vec<(u64, u64)>], pass: &Pass) -> Result<()> {
    let header = Header {
        format: VERSION,
        variant: variant.clone(),
        kinds: kinds.to_vec(),
        levels: pass.levels.clone(),
        found: pass.found.load(Relaxed),
        program: crate::PROGRAM_VERSION.to_string(),
    };
    let head = postcard::to_allocvec(&header)
        .map_err(|e| Error::Corrupt { path: path.to_path_buf(), what: format!("the header does not encode: {e}") })?;
    crate::atomic::write_atomically_with(path, |file| {
        let mut out = HashingWriter::new(BufWriter::with_capacity(1 << 22, file));
        out.write_all(MAGIC)?;
        out.write_all(&(head.len() as u64).to_le_bytes())?;
        out.write_all(&head)?;
        out.pad()?;
        let mut buffer = Vec::with_capacity(1 << 20);
        for words in all_bits(pass) {
            for chunk in words.chunks(1 << 17) {
                buffer.clear();
                buffer.extend(chunk.iter().flat_map(|w| w.load(Relaxed).to_le_bytes()));
                out.write_all(&buffer)?;
            }
        }
        out.finish()
    })
}

/// The pass saved at `path`, if it was saved from these tables (`fresh` makes the empty
/// bitmaps of the right sizes); `Ok(None)` if there is no file.
pub(super) fn load(
    path: &Path,
    variant: &Variant,
    kinds: &[Vec<(u64, u64)>],
    fresh: impl FnOnce() -> Pass,
) -> Result<Option<Pass>> {
    let io = |error| Error::Io { path: path.to_path_buf(), error };
    let corrupt = |what: &str| Error::Corrupt { path: path.to_path_buf(), what: what.to_string() };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    let mut input = HashingReader { inner: BufReader::with_capacity(1 << 22, file), hash: Sha256::new(), read: 0 };
    let mut magic = [0u8; 24];
    input.read_exact(&mut magic).map_err(|_| corrupt("too short"))?;
    if &magic != MAGIC {
        return Err(Error::ForeignFile { path: path.to_path_buf(), expected: "DFASOLVE-OSTLE-LEVELS" });
    }
    let mut len = [0u8; 8];
    input.read_exact(&mut len).map_err(|_| corrupt("too short"))?;
    let len = u64::from_le_bytes(len);
    if len > 1 << 20 {
        return Err(corrupt("the header length is out of range"));
    }
    let mut head = vec![0u8; len as usize];
    input.read_exact(&mut head).map_err(|_| corrupt("the header is cut short"))?;
    let header: Header = postcard::from_bytes(&head).map_err(|_| corrupt("the header does not decode"))?;
    if header.format != VERSION {
        return Err(Error::UnsupportedVersion { path: path.to_path_buf(), found: header.format, supported: VERSION });
    }
    if header.variant != *variant || header.kinds != kinds {
        return Err(Error::Mismatch(format!(
            "{}: the breadth-first checkpoint was saved from other tables; move it away to start over",
            path.display()
        )));
    }
    let pad = (input.read.next_multiple_of(8) - input.read) as usize;
    input.read_exact(&mut [0u8; 8][..pad]).map_err(|_| corrupt("cut short"))?;
    let pass = fresh();
    let mut buffer = vec![0u8; 1 << 20];
    for words in all_bits(&pass) {
        for chunk in words.chunks(buffer.len() / 8) {
            let bytes = &mut buffer[..chunk.len() * 8];
            input.read_exact(bytes).map_err(|_| corrupt("the bits are cut short"))?;
            for (w, b) in chunk.iter().zip(bytes.chunks_exact(8)) {
                w.store(u64::from_le_bytes(b.try_into().expect("8 bytes")), Relaxed);
            }
        }
    }
    let digest = input.hash.clone().finalize();
    let mut stored = [0u8; 32];
    input.inner.read_exact(&mut stored).map_err(|_| corrupt("the checksum is missing"))?;
    if stored[..] != digest[..] || input.inner.read(&mut [0u8; 1]).map_err(io)? != 0 {
        return Err(corrupt("the file fails its checksum"));
    }
    Ok(Some(Pass { levels: header.levels, found: AtomicU64::new(header.found), ..pass }))
}

struct HashingReader<R: Read> {
    inner: R,
    hash: Sha256,
    read: u64,
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        self.read += n as u64;
        Ok(n)
    }
}
