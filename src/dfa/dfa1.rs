//! Import and export of single DFAs in the layered-DFA exchange format "DFA1" (version 1.0)
//! of the C++ dfa-games solver, described in `docs/dfa1-format.md`.
//!
//! Layout: a 64-byte header (magic, version, header size, SHA-256 of everything from byte 48,
//! `ndim`, flags, initial state), then per layer its size (`u64`), block offset (`u64`) and
//! alphabet (`u32`), zero padding to 8 bytes, and one transition block per layer, each starting
//! at a multiple of 8, entries `width` bytes wide (the smallest of 1, 2, 4, 8 that holds the next
//! layer's ids). States 0 and 1 are reject-all and accept-all in every layer.
//!
//! Export always writes *canonical numbering* (flag bit 0): within a layer, states 2.. are
//! sorted by their rows as tuples of next-state ids (numbered that way bottom-up), so the file
//! is a function of the set and equal digests mean equal sets. Our own numbering is by first
//! appearance (I7), so export renumbers. Import accepts any valid file (canonical or not,
//! minimal or not) and rebuilds a canonical [`Dfa`] with [`DfaBuilder`].

use super::build::DfaBuilder;
use super::{Dfa, Shape, StateId};
use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The 8 magic bytes: "DFA1", CR, LF, SUB, LF.
pub const DFA1_MAGIC: [u8; 8] = [0x44, 0x46, 0x41, 0x31, 0x0D, 0x0A, 0x1A, 0x0A];
const HEADER: usize = 64;

fn align8(x: usize) -> usize {
    x.div_ceil(8) * 8
}

/// Bytes per entry when the next layer has `next_len` states.
fn width(next_len: u64) -> usize {
    [1usize, 2, 4, 8].into_iter().find(|&w| w == 8 || next_len <= 1u64 << (8 * w)).expect("8 always fits")
}

/// Per-layer state orders for canonical numbering: `order[l][k]` = our id of the state that gets
/// DFA1 id `k + 2`. Bottom-up: sort each layer's rows, with children already renumbered.
fn canonical_orders(dfa: &Dfa) -> Vec<Vec<u32>> {
    let n = dfa.shape().len();
    let mut orders: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut new_of_below: Vec<u32> = vec![0, 1];
    for l in (0..n).rev() {
        let layer = &dfa.layers()[l];
        let mut ids: Vec<u32> = (2..layer.len() as u32).collect();
        let mapped = |s: u32| -> Vec<u32> { layer.row(StateId(s)).iter().map(|&x| new_of_below[x as usize]).collect() };
        let keys: Vec<Vec<u32>> = (0..layer.len() as u32).map(|s| if s < 2 { Vec::new() } else { mapped(s) }).collect();
        ids.sort_by(|&a, &b| keys[a as usize].cmp(&keys[b as usize]));
        let mut new_of = vec![0u32; layer.len()];
        new_of[1] = 1;
        for (k, &s) in ids.iter().enumerate() {
            new_of[s as usize] = k as u32 + 2;
        }
        orders[l] = ids;
        new_of_below = new_of;
    }
    orders
}

/// Encode `dfa` as a DFA1 file with canonical numbering.
///
/// # Panics
/// If the DFA has no layers (DFA1 requires `ndim ≥ 1`).
pub fn to_dfa1(dfa: &Dfa) -> Vec<u8> {
    let n = dfa.shape().len();
    assert!(n >= 1, "DFA1 needs at least one layer");
    let orders = canonical_orders(dfa);
    // new_of[l][our id] = DFA1 id.
    let new_of: Vec<Vec<u32>> = orders
        .iter()
        .enumerate()
        .map(|(l, order)| {
            let mut m = vec![0u32; dfa.layers()[l].len()];
            m[1] = 1;
            for (k, &s) in order.iter().enumerate() {
                m[s as usize] = k as u32 + 2;
            }
            m
        })
        .collect();
    let sizes: Vec<u64> = dfa.layers().iter().map(|l| l.len() as u64).collect();
    let mut offsets = Vec::with_capacity(n);
    let mut at = align8(HEADER + 20 * n);
    for l in 0..n {
        offsets.push(at as u64);
        let next_len = if l + 1 < n { sizes[l + 1] } else { 2 };
        let end = at + sizes[l] as usize * dfa.shape().alphabet(l) * width(next_len);
        at = if l + 1 < n { align8(end) } else { end };
    }
    let mut out = vec![0u8; at];
    out[..8].copy_from_slice(&DFA1_MAGIC);
    out[8..10].copy_from_slice(&1u16.to_le_bytes());
    out[10..12].copy_from_slice(&0u16.to_le_bytes());
    out[12..16].copy_from_slice(&(HEADER as u32).to_le_bytes());
    out[48..52].copy_from_slice(&(n as u32).to_le_bytes());
    out[52..56].copy_from_slice(&1u32.to_le_bytes());
    let initial = match dfa.initial() {
        s if s.is_reserved() => s.0,
        s => new_of[0][s.index()],
    };
    out[56..64].copy_from_slice(&(initial as u64).to_le_bytes());
    for l in 0..n {
        out[HEADER + 8 * l..HEADER + 8 * l + 8].copy_from_slice(&sizes[l].to_le_bytes());
        out[HEADER + 8 * n + 8 * l..HEADER + 8 * n + 8 * l + 8].copy_from_slice(&offsets[l].to_le_bytes());
        let a = dfa.shape().alphabet(l) as u32;
        out[HEADER + 16 * n + 4 * l..HEADER + 16 * n + 4 * l + 4].copy_from_slice(&a.to_le_bytes());
    }
    for l in 0..n {
        let layer = &dfa.layers()[l];
        let next_len = if l + 1 < n { sizes[l + 1] } else { 2 };
        let w = width(next_len);
        let below: Option<&Vec<u32>> = new_of.get(l + 1);
        let mut pos = offsets[l] as usize;
        let rows = [0u32, 1].into_iter().chain(orders[l].iter().copied());
        for s in rows {
            for &x in layer.row(StateId(s)) {
                let id = if x < 2 { x } else { below.expect("last layer only has 0/1")[x as usize] } as u64;
                out[pos..pos + w].copy_from_slice(&id.to_le_bytes()[..w]);
                pos += w;
            }
        }
    }
    let digest = Sha256::digest(&out[48..]);
    out[16..48].copy_from_slice(&digest);
    out
}

/// Decode a DFA1 file, validating everything the format requires plus the digest, reserved
/// rows and entry ranges. `path` is used in error messages only.
///
/// # Errors
/// [`Error::ForeignFile`] without the DFA1 magic, [`Error::UnsupportedVersion`], or
/// [`Error::Corrupt`] naming the first problem found.
pub fn from_dfa1(bytes: &[u8], path: &Path) -> Result<Dfa> {
    let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
    if bytes.len() < 8 || bytes[..8] != DFA1_MAGIC {
        return Err(Error::ForeignFile { path: path.to_path_buf(), expected: "DFA1" });
    }
    if bytes.len() < HEADER {
        return Err(corrupt(format!("truncated header ({} of 64 bytes)", bytes.len())));
    }
    let u16_at = |o: usize| u16::from_le_bytes(bytes[o..o + 2].try_into().expect("2"));
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4"));
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8"));
    let major = u16_at(8);
    if major != 1 {
        return Err(Error::UnsupportedVersion { path: path.to_path_buf(), found: major as u32, supported: 1 });
    }
    if u32_at(12) != HEADER as u32 {
        return Err(corrupt(format!("header_bytes is {}, expected 64", u32_at(12))));
    }
    let n = u32_at(48) as usize;
    if n == 0 {
        return Err(corrupt("ndim is 0".into()));
    }
    if u32_at(52) & !1 != 0 {
        return Err(corrupt(format!("reserved flag bits set (flags {:#x})", u32_at(52))));
    }
    let tables_end = HEADER + 20 * n;
    if bytes.len() < tables_end {
        return Err(corrupt(format!("truncated: {n} layers need {tables_end} header bytes, file has {}", bytes.len())));
    }
    if Sha256::digest(&bytes[48..]).as_slice() != &bytes[16..48] {
        return Err(corrupt("SHA-256 digest mismatch (the file was modified or damaged)".into()));
    }
    let sizes: Vec<u64> = (0..n).map(|l| u64_at(HEADER + 8 * l)).collect();
    let offsets: Vec<u64> = (0..n).map(|l| u64_at(HEADER + 8 * n + 8 * l)).collect();
    let shape: Vec<u32> = (0..n).map(|l| u32_at(HEADER + 16 * n + 4 * l)).collect();
    for l in 0..n {
        if shape[l] == 0 || shape[l] > 256 {
            return Err(corrupt(format!("layer {l}: alphabet {} (dfasolve supports 1..=256)", shape[l])));
        }
        if sizes[l] < 2 || sizes[l] > u32::MAX as u64 {
            return Err(corrupt(format!("layer {l}: {} states (need 2..2^32)", sizes[l])));
        }
    }
    let initial = u64_at(56);
    if initial >= sizes[0] {
        return Err(corrupt(format!("initial state {initial} out of range (layer 0 has {})", sizes[0])));
    }
    // Offsets must be exactly those the layout implies, and the file must end with the last block.
    let mut at = align8(tables_end) as u64;
    for l in 0..n {
        if offsets[l] != at {
            return Err(corrupt(format!("layer {l}: offset {} but the layout implies {at}", offsets[l])));
        }
        let next_len = if l + 1 < n { sizes[l + 1] } else { 2 };
        let len = sizes[l]
            .checked_mul(shape[l] as u64)
            .and_then(|x| x.checked_mul(width(next_len) as u64))
            .ok_or_else(|| corrupt(format!("layer {l} too large")))?;
        let end = at.checked_add(len).ok_or_else(|| corrupt("file too large".into()))?;
        at = if l + 1 < n { end.div_ceil(8) * 8 } else { end };
    }
    if at != bytes.len() as u64 {
        return Err(corrupt(format!("file is {} bytes, the layout implies {at} (truncated or extended)", bytes.len())));
    }
    // Rebuild bottom-up; DfaBuilder reduces, minimises and canonicalises.
    let shape16: Vec<u16> = shape.iter().map(|&a| a as u16).collect();
    let our_shape = Shape::new(shape16);
    let mut b = DfaBuilder::new(&our_shape);
    let mut ids_below: Vec<StateId> = vec![StateId::REJECT, StateId::ACCEPT];
    let mut row = Vec::new();
    for l in (0..n).rev() {
        let next_len = if l + 1 < n { sizes[l + 1] } else { 2 };
        let w = width(next_len);
        let a = shape[l] as usize;
        let mut ids = Vec::with_capacity(sizes[l] as usize);
        for s in 0..sizes[l] as usize {
            row.clear();
            for c in 0..a {
                let o = offsets[l] as usize + (s * a + c) * w;
                let mut buf = [0u8; 8];
                buf[..w].copy_from_slice(&bytes[o..o + w]);
                let x = u64::from_le_bytes(buf);
                if x >= next_len {
                    return Err(corrupt(format!(
                        "layer {l} state {s}: entry {x} out of range (next layer has {next_len})"
                    )));
                }
                row.push(ids_below[x as usize]);
            }
            if s < 2 && row.iter().any(|&x| x.0 != s as u32) {
                return Err(corrupt(format!("layer {l}: reserved row {s} is not all {s}")));
            }
            ids.push(if s < 2 { StateId(s as u32) } else { b.add(l, &row) });
        }
        ids_below = ids;
    }
    Ok(b.finish(ids_below[initial as usize]))
}

impl Dfa {
    /// Write this set as a DFA1 file (canonical numbering, digest), atomically.
    ///
    /// # Errors
    /// [`Error::Io`]; [`Error::BadParameters`] for a DFA with no layers.
    pub fn save_dfa1(&self, path: &Path) -> Result<()> {
        if self.shape().is_empty() {
            return Err(Error::BadParameters("DFA1 files need at least one layer".into()));
        }
        crate::atomic::write_atomically(path, &to_dfa1(self))
    }

    /// Read a DFA1 file.
    ///
    /// # Errors
    /// [`Error::Io`] or any error of [`from_dfa1`].
    pub fn load_dfa1(path: &Path) -> Result<Dfa> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io { path: path.to_path_buf(), error: source })?;
        from_dfa1(&bytes, path)
    }
}
