//! Saving and loading DFAs: a named bundle in one checksummed file.
//!
//! # Layout (all integers little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `DFASOLVE` |
//! | 4 | format version (this build: [`FORMAT_VERSION`]) |
//! | 4 | reserved, 0 |
//! | 8 | payload length |
//! | 32 | SHA-256 of the payload |
//! | … | payload |
//!
//! Payload: `u32` length + UTF-8 metadata (JSON written by the caller, e.g. the game and its
//! parameters), `u32` entry count, then per entry: `u16` length + UTF-8 name, `u32` layers,
//! one `u16` alphabet size per layer, `u32` initial state, and per layer `u32` state count,
//! `u8` entry width `w` (1, 2 or 4: the smallest that holds the next layer's ids) and
//! `states × alphabet × w` bytes of rows, reserved rows included.
//!
//! Loading checks the magic, version, length and checksum, decodes with bounds checks, and
//! runs [`Dfa::validate`] on every DFA: a truncated, corrupt or foreign file is an
//! [`Error`], never a panic. Saving writes a temporary file next to the target, syncs it and
//! renames it into place, so a crash never leaves a half-written file under the real name.

use super::{Dfa, Layer, Shape, StateId};
use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Magic bytes at the start of every bundle.
pub const MAGIC: &[u8; 8] = b"DFASOLVE";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 8 + 4 + 4 + 8 + 32;

/// Bytes per transition entry when the next layer has `next_len` states.
pub fn entry_width(next_len: usize) -> usize {
    if next_len <= 1 << 8 {
        1
    } else if next_len <= 1 << 16 {
        2
    } else {
        4
    }
}

/// Named DFAs plus free-form metadata, saved and loaded as one file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bundle {
    /// Caller-defined metadata (the CLI stores JSON describing the game and the run).
    pub meta: String,
    /// The DFAs, in order, by name.
    pub entries: Vec<(String, Dfa)>,
}

impl Bundle {
    /// The DFA named `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Dfa> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, d)| d)
    }

    /// Encode to bytes (header + payload).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut p = Vec::new();
        put_u32(&mut p, self.meta.len() as u32);
        p.extend_from_slice(self.meta.as_bytes());
        put_u32(&mut p, self.entries.len() as u32);
        for (name, dfa) in &self.entries {
            assert!(name.len() <= u16::MAX as usize, "entry name too long");
            p.extend_from_slice(&(name.len() as u16).to_le_bytes());
            p.extend_from_slice(name.as_bytes());
            encode_dfa(&mut p, dfa);
        }
        let mut out = Vec::with_capacity(HEADER_LEN + p.len());
        out.extend_from_slice(MAGIC);
        put_u32(&mut out, FORMAT_VERSION);
        put_u32(&mut out, 0);
        out.extend_from_slice(&(p.len() as u64).to_le_bytes());
        out.extend_from_slice(&Sha256::digest(&p));
        out.extend_from_slice(&p);
        out
    }

    /// Decode bytes read from `path` (the path is only used in error messages).
    ///
    /// # Errors
    /// [`Error::ForeignFile`], [`Error::UnsupportedVersion`] or [`Error::Corrupt`].
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Bundle> {
        let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(Error::ForeignFile { path: path.to_path_buf(), expected: "DFASOLVE" });
        }
        if bytes.len() < HEADER_LEN {
            return Err(corrupt(format!("truncated header ({} of {HEADER_LEN} bytes)", bytes.len())));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(Error::UnsupportedVersion {
                path: path.to_path_buf(),
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        if bytes[12..16] != [0; 4] {
            return Err(corrupt("reserved header bytes are not zero".into()));
        }
        let len = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        let payload = &bytes[HEADER_LEN..];
        if payload.len() as u64 != len {
            return Err(corrupt(format!(
                "payload is {} bytes, header says {len} (truncated or extended)",
                payload.len()
            )));
        }
        if Sha256::digest(payload).as_slice() != &bytes[24..56] {
            return Err(corrupt("checksum mismatch (the file was modified or damaged)".into()));
        }
        let mut r = Reader { bytes: payload, pos: 0 };
        let decode = |r: &mut Reader| -> std::result::Result<Bundle, String> {
            let meta_len = r.u32()? as usize;
            let meta = String::from_utf8(r.take(meta_len)?.to_vec()).map_err(|_| "metadata is not UTF-8")?;
            let count = r.u32()? as usize;
            let mut entries = Vec::new();
            for _ in 0..count {
                let name_len = r.u16()? as usize;
                let name = String::from_utf8(r.take(name_len)?.to_vec()).map_err(|_| "entry name is not UTF-8")?;
                let dfa = decode_dfa(r).map_err(|e| format!("entry {name:?}: {e}"))?;
                entries.push((name, dfa));
            }
            if r.pos != r.bytes.len() {
                return Err(format!("{} trailing bytes", r.bytes.len() - r.pos));
            }
            Ok(Bundle { meta, entries })
        };
        decode(&mut r).map_err(corrupt)
    }

    /// Write atomically to `path` (temporary file, fsync, rename).
    ///
    /// # Errors
    /// [`Error::Io`] if writing fails; the target is then untouched.
    pub fn save(&self, path: &Path) -> Result<()> {
        write_atomically(path, &self.to_bytes())
    }

    /// Read and fully check the bundle at `path`.
    ///
    /// # Errors
    /// [`Error::Io`] or any error of [`Bundle::from_bytes`].
    pub fn load(path: &Path) -> Result<Bundle> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
        Bundle::from_bytes(&bytes, path)
    }
}

/// Write `bytes` to `path` so that readers see either the old file or the whole new one.
///
/// # Errors
/// [`Error::Io`] naming the file that failed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |source| Error::Io { path: p, source }
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let mut f = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    f.write_all(bytes).map_err(io(&tmp))?;
    f.sync_all().map_err(io(&tmp))?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io(path))?;
    Ok(())
}

fn put_u32(out: &mut Vec<u8>, x: u32) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn encode_dfa(p: &mut Vec<u8>, dfa: &Dfa) {
    let n = dfa.shape().len();
    put_u32(p, n as u32);
    for &a in dfa.shape().sizes() {
        p.extend_from_slice(&a.to_le_bytes());
    }
    put_u32(p, dfa.initial().0);
    for (l, layer) in dfa.layers().iter().enumerate() {
        let next_len = if l + 1 < n { dfa.layers()[l + 1].len() } else { 2 };
        let w = entry_width(next_len);
        put_u32(p, layer.len() as u32);
        p.push(w as u8);
        p.reserve(layer.raw().len() * w);
        for &x in layer.raw() {
            p.extend_from_slice(&x.to_le_bytes()[..w]);
        }
    }
}

fn decode_dfa(r: &mut Reader) -> std::result::Result<Dfa, String> {
    let n = r.u32()? as usize;
    if n > r.remaining() {
        return Err(format!("{n} layers cannot fit in the file"));
    }
    let mut sizes = Vec::with_capacity(n);
    for l in 0..n {
        let a = r.u16()?;
        if !(1..=256).contains(&a) {
            return Err(format!("layer {l}: alphabet size {a} outside 1..=256"));
        }
        sizes.push(a);
    }
    let shape = Shape::new(sizes);
    let initial = StateId(r.u32()?);
    let mut layers = Vec::with_capacity(n);
    for l in 0..n {
        let states = r.u32()? as usize;
        let w = r.u8()? as usize;
        if ![1, 2, 4].contains(&w) {
            return Err(format!("layer {l}: entry width {w} is not 1, 2 or 4"));
        }
        let a = shape.alphabet(l);
        let entries = states.checked_mul(a).ok_or("layer too large")?;
        let raw = r.take(entries.checked_mul(w).ok_or("layer too large")?)?;
        let mut next = Vec::with_capacity(entries);
        for chunk in raw.chunks_exact(w) {
            let mut b = [0u8; 4];
            b[..w].copy_from_slice(chunk);
            next.push(u32::from_le_bytes(b));
        }
        if states < 2 {
            return Err(format!("layer {l}: {states} states (the two reserved states are required)"));
        }
        layers.push(Layer::from_raw(a, next));
    }
    let dfa = Dfa { shape, initial, layers };
    dfa.validate().map_err(|e| format!("invalid DFA: {e}"))?;
    Ok(dfa)
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn take(&mut self, k: usize) -> std::result::Result<&'a [u8], String> {
        if k > self.remaining() {
            return Err(format!("truncated: needed {k} bytes at offset {}, {} left", self.pos, self.remaining()));
        }
        let s = &self.bytes[self.pos..self.pos + k];
        self.pos += k;
        Ok(s)
    }

    fn u8(&mut self) -> std::result::Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> std::result::Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }

    fn u32(&mut self) -> std::result::Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
}
