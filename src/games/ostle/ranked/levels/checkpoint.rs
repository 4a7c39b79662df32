//! A breadth-first pass stopped between two pieces of a level, in a file.
//!
//! # File format (version 1)
//! In the crate's container ([`crate::storage::container`]), magic `DFASOLVE-OSTLE-LEVELS`:
//! ```text
//! header    postcard of `Header` (variant, every kind's boards and states, the levels done,
//!           the states found so far in the level under way)
//! words     from a multiple of 8 bytes, u64s: a bit per state; then per class and kind a bit
//!           per board three times (reached, to expand in this level, to expand in the next)
//! ```
//! The word counts follow from the header, so a file of other tables is refused before its
//! bits are read.

use super::super::super::Variant;
use super::{Bits, Pass};
use crate::error::{Error, Result};
use crate::storage::container::Format;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const FORMAT: Format =
    Format { magic: b"DFASOLVE-OSTLE-LEVELS\n\0\0", version: 1, header_digest: false, body_align: 8 };

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
        format: FORMAT.version,
        variant: variant.clone(),
        kinds: kinds.to_vec(),
        levels: pass.levels.clone(),
        found: pass.found.load(Relaxed),
        program: crate::PROGRAM_VERSION.to_string(),
    };
    FORMAT.write(path, &header, |out| {
        let mut buffer = Vec::with_capacity(1 << 20);
        for words in all_bits(pass) {
            for chunk in words.chunks(1 << 17) {
                buffer.clear();
                buffer.extend(chunk.iter().flat_map(|w| w.load(Relaxed).to_le_bytes()));
                out.write_all(&buffer)?;
            }
        }
        Ok(())
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
    let Some((header, mut input)) = FORMAT.stream::<Header>(path)? else { return Ok(None) };
    if header.variant != *variant || header.kinds != kinds {
        return Err(Error::Mismatch(format!(
            "{}: the breadth-first checkpoint was saved from other tables; move it away to start over",
            path.display()
        )));
    }
    let pass = fresh();
    let mut buffer = vec![0u8; 1 << 20];
    for words in all_bits(&pass) {
        for chunk in words.chunks(buffer.len() / 8) {
            let bytes = &mut buffer[..chunk.len() * 8];
            input.fill(bytes)?;
            for (w, b) in chunk.iter().zip(bytes.chunks_exact(8)) {
                w.store(u64::from_le_bytes(b.try_into().expect("8 bytes")), Relaxed);
            }
        }
    }
    input.finish()?;
    Ok(Some(Pass { levels: header.levels, found: AtomicU64::new(header.found), ..pass }))
}
