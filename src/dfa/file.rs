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
//! `u8` entry width `w` (1, 2, 3 or 4: the smallest that holds the next layer's ids) and
//! `states × alphabet × w` bytes of rows, reserved rows included. Version 1 had no 3-byte
//! entries (a layer whose next layer has more than 2^16 states took 4 bytes an entry); this
//! build reads both versions and writes version 2, whose 3-byte entries make the largest
//! sets a quarter smaller (`docs/measurements.md`).
//!
//! Loading checks the magic, version, length and checksum, decodes with bounds checks, and
//! runs [`Dfa::validate`] on every DFA: a truncated, corrupt or foreign file is an
//! [`Error`], never a panic. Saving writes a temporary file next to the target, syncs it and
//! renames it into place, so a crash never leaves a half-written file under the real name.

use super::{Dfa, Layer, Shape, StateId};
use crate::atomic::write_atomically_with;
use crate::error::{Error, Result};
use crate::storage::Hashing;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::Path;

/// Magic bytes at the start of every bundle.
pub const MAGIC: &[u8; 8] = b"DFASOLVE";
/// The format version this build writes.
pub const FORMAT_VERSION: u32 = 2;
/// The first format version this build still reads.
const OLDEST_VERSION: u32 = 1;
pub(super) const HEADER_LEN: usize = 8 + 4 + 4 + 8 + 32;

/// Bytes per transition entry when the next layer has `next_len` states.
pub fn entry_width(next_len: usize) -> usize {
    if next_len <= 1 << 8 {
        1
    } else if next_len <= 1 << 16 {
        2
    } else if next_len <= 1 << 24 {
        3
    } else {
        4
    }
}

/// Whether a file of format `version` may hold entries `width` bytes wide.
pub(super) fn is_entry_width(width: usize, version: u32) -> bool {
    matches!(width, 1 | 2 | 4) || (width == 3 && version >= 2)
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

    /// The DFA named `name`, moved out of the bundle (large sets are not copied).
    ///
    /// # Errors
    /// [`Error::Mismatch`] naming `what` (the file or step) if there is none.
    pub fn take(&mut self, name: &str, what: &str) -> Result<Dfa> {
        let at = self.entries.iter().position(|(n, _)| n == name);
        at.map(|i| self.entries.swap_remove(i).1).ok_or_else(|| Error::Mismatch(format!("{what}: missing {name}")))
    }

    /// Encode to bytes (header + payload).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut p = Vec::new();
        write_payload(&mut p, &self.meta, &self.entry_refs(), FORMAT_VERSION).expect("writing to memory cannot fail");
        let mut out = header(p.len() as u64, Sha256::digest(&p).into(), FORMAT_VERSION).to_vec();
        out.extend_from_slice(&p);
        out
    }

    /// Decode bytes read from `path` (the path is only used in error messages).
    ///
    /// # Errors
    /// [`Error::ForeignFile`], [`Error::UnsupportedVersion`] or [`Error::Corrupt`].
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Bundle> {
        let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
        let (digest, version) = check_header(&bytes[..bytes.len().min(HEADER_LEN)], bytes.len() as u64, path)?;
        let payload = &bytes[HEADER_LEN..];
        if Sha256::digest(payload).as_slice() != digest {
            return Err(corrupt(CHECKSUM_MISMATCH.into()));
        }
        let mut r = Reader { inner: payload, remaining: payload.len() as u64, pos: 0, hasher: None };
        decode_payload(&mut r, version).map_err(|e| match e {
            ReadError::Format(what) => corrupt(what),
            ReadError::Io(source) => Error::Io { path: path.to_path_buf(), error: source },
        })
    }

    /// Write atomically to `path` (temporary file, fsync, rename).
    ///
    /// # Errors
    /// [`Error::Io`] if writing fails; the target is then untouched.
    pub fn save(&self, path: &Path) -> Result<()> {
        save_entries(path, &self.meta, &self.entry_refs())
    }

    /// The entries as the writers take them.
    fn entry_refs(&self) -> Vec<(&str, &Dfa)> {
        self.entries.iter().map(|(n, d)| (n.as_str(), d)).collect()
    }

    /// Read and fully check the bundle at `path`.
    ///
    /// # Errors
    /// [`Error::Io`] or any error of [`Bundle::from_bytes`].
    ///
    /// The file is decoded as it is read, through the checksum, so a large bundle needs no
    /// second copy in memory; the checksum is compared at the end, and a damaged file is
    /// reported as such even when the damage also broke the decoding.
    pub fn load(path: &Path) -> Result<Bundle> {
        use std::io::Read;
        let io = |source| Error::Io { path: path.to_path_buf(), error: source };
        let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
        let file = std::fs::File::open(path).map_err(io)?;
        let file_len = file.metadata().map_err(io)?.len();
        let mut input = std::io::BufReader::with_capacity(1 << 20, file);
        let mut head = Vec::with_capacity(HEADER_LEN);
        (&mut input).take(HEADER_LEN as u64).read_to_end(&mut head).map_err(io)?;
        let (digest, version) = check_header(&head, file_len, path)?;
        let mut r =
            Reader { inner: input, remaining: file_len - HEADER_LEN as u64, pos: 0, hasher: Some(Sha256::new()) };
        let decoded = decode_payload(&mut r, version);
        if let Err(ReadError::Io(source)) = decoded {
            return Err(io(source));
        }
        // Hash what the decoder left unread (nothing, unless it stopped at an error).
        let mut rest = Hashing { hasher: r.hasher.take().expect("hashing"), ..Hashing::new(std::io::sink()) };
        std::io::copy(&mut (&mut r.inner).take(r.remaining), &mut rest).map_err(io)?;
        if rest.hasher.finalize().as_slice() != digest {
            return Err(corrupt(CHECKSUM_MISMATCH.into()));
        }
        decoded.map_err(|e| match e {
            ReadError::Format(what) => corrupt(what),
            ReadError::Io(source) => io(source),
        })
    }
}

/// Check the bundle file at `path` without decoding it: its magic, version, length and
/// checksum (what a job checks of its inputs before it starts).
///
/// # Errors
/// [`Error::Io`], or the header and checksum errors of [`Bundle::load`].
pub fn check_file(path: &Path) -> Result<u64> {
    let file = std::fs::File::open(path).map_err(|error| Error::Io { path: path.to_path_buf(), error })?;
    verify(&file, path).map(|(len, _)| len)
}

/// Check the open bundle file `file` (read from `path`) without decoding it: its header, and
/// its payload against the checksum, read through a buffer (nothing of it stays in memory).
/// Returns the file's length; [`super::mapped::OnDiskBundle`] then reads the checked bytes in
/// place, from the same open file, and the file's format version.
///
/// # Errors
/// [`Error::Io`], or the header and checksum errors of [`Bundle::load`].
pub(super) fn verify(file: &std::fs::File, path: &Path) -> Result<(u64, u32)> {
    use std::io::{Read, Seek};
    let io = |source| Error::Io { path: path.to_path_buf(), error: source };
    let mut file = file;
    file.rewind().map_err(io)?;
    let file_len = file.metadata().map_err(io)?.len();
    let mut input = std::io::BufReader::with_capacity(1 << 20, file);
    let mut head = Vec::with_capacity(HEADER_LEN);
    (&mut input).take(HEADER_LEN as u64).read_to_end(&mut head).map_err(io)?;
    let (digest, version) = check_header(&head, file_len, path)?;
    let mut hashing = Hashing::new(std::io::sink());
    std::io::copy(&mut input, &mut hashing).map_err(io)?;
    if hashing.hasher.finalize().as_slice() != digest {
        return Err(Error::Corrupt { path: path.to_path_buf(), what: CHECKSUM_MISMATCH.into() });
    }
    Ok((file_len, version))
}

const CHECKSUM_MISMATCH: &str = "checksum mismatch (the file was modified or damaged)";

/// Checks the header (the first bytes of a file of `file_len` bytes, up to [`HEADER_LEN`]):
/// magic, version, reserved bytes and payload length. Returns the payload's SHA-256 and the
/// format version.
pub(super) fn check_header(head: &[u8], file_len: u64, path: &Path) -> Result<([u8; 32], u32)> {
    let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
    if head.len() < 8 || &head[..8] != MAGIC {
        return Err(Error::ForeignFile { path: path.to_path_buf(), expected: "DFASOLVE" });
    }
    // The program's other file kinds extend the magic with `-KIND`: name the kind found.
    if head.get(8) == Some(&b'-') {
        let kind: String =
            head.iter().take_while(|b| b.is_ascii_uppercase() || **b == b'-').map(|&b| b as char).collect();
        return Err(Error::Mismatch(format!("{}: a {kind} file, not a DFA file", path.display())));
    }
    if head.len() < HEADER_LEN {
        return Err(corrupt(format!("truncated header ({} of {HEADER_LEN} bytes)", head.len())));
    }
    let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
    if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&version) {
        return Err(Error::UnsupportedVersion { path: path.to_path_buf(), found: version, supported: FORMAT_VERSION });
    }
    if head[12..16] != [0; 4] {
        return Err(corrupt("reserved header bytes are not zero".into()));
    }
    let len = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
    let payload_len = file_len - HEADER_LEN as u64;
    if payload_len != len {
        return Err(corrupt(format!("payload is {payload_len} bytes, header says {len} (truncated or extended)")));
    }
    Ok((head[24..56].try_into().expect("32 bytes"), version))
}

/// Decodes a payload: metadata, entries, and nothing after them.
fn decode_payload<R: std::io::Read>(r: &mut Reader<R>, version: u32) -> std::result::Result<Bundle, ReadError> {
    let meta_len = r.u32()? as usize;
    let meta = String::from_utf8(r.take(meta_len)?).map_err(|_| format_error("metadata is not UTF-8"))?;
    let count = r.u32()? as usize;
    let mut entries = Vec::new();
    for _ in 0..count {
        let name_len = r.u16()? as usize;
        let name = String::from_utf8(r.take(name_len)?).map_err(|_| format_error("entry name is not UTF-8"))?;
        let dfa = decode_dfa(r, version).map_err(|e| match e {
            ReadError::Format(what) => ReadError::Format(format!("entry {name:?}: {what}")),
            io => io,
        })?;
        entries.push((name, dfa));
    }
    if r.remaining != 0 {
        return Err(format_error(&format!("{} trailing bytes", r.remaining)));
    }
    Ok(Bundle { meta, entries })
}

/// Save `meta` and the named DFAs as a bundle file at `path`, as [`Bundle::save`] does,
/// without copying the DFAs: the payload streams to the file through the checksum, and the
/// header is written last. A solution of gigabytes then needs no second copy in memory.
///
/// # Errors
/// [`Error::Io`] if writing fails; the target is then untouched.
pub fn save_entries(path: &Path, meta: &str, entries: &[(&str, &Dfa)]) -> Result<()> {
    save_entries_as(path, meta, entries, FORMAT_VERSION)
}

/// [`save_entries`] in format `version` (an older one, for the tests that it still reads).
fn save_entries_as(path: &Path, meta: &str, entries: &[(&str, &Dfa)], version: u32) -> Result<()> {
    use std::io::{Seek, SeekFrom};
    write_atomically_with(path, |file| {
        file.write_all(&[0; HEADER_LEN])?;
        let mut sink = std::io::BufWriter::with_capacity(1 << 20, Hashing::new(&mut *file));
        write_payload(&mut sink, meta, entries, version)?;
        let hashing = sink.into_inner().map_err(std::io::IntoInnerError::into_error)?;
        let (len, digest) = (hashing.len, hashing.hasher.finalize().into());
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&header(len, digest, version))
    })
}

/// The file header for a payload of `len` bytes with SHA-256 `digest`.
fn header(len: u64, digest: [u8; 32], version: u32) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&version.to_le_bytes());
    h[16..24].copy_from_slice(&len.to_le_bytes());
    h[24..56].copy_from_slice(&digest);
    h
}

/// The payload: metadata, entry count, then each named DFA.
fn write_payload(w: &mut impl Write, meta: &str, entries: &[(&str, &Dfa)], version: u32) -> std::io::Result<()> {
    w.write_all(&(meta.len() as u32).to_le_bytes())?;
    w.write_all(meta.as_bytes())?;
    w.write_all(&(entries.len() as u32).to_le_bytes())?;
    for (name, dfa) in entries {
        assert!(name.len() <= u16::MAX as usize, "entry name too long");
        w.write_all(&(name.len() as u16).to_le_bytes())?;
        w.write_all(name.as_bytes())?;
        encode_dfa(w, dfa, version)?;
    }
    Ok(())
}

fn encode_dfa(w: &mut impl Write, dfa: &Dfa, version: u32) -> std::io::Result<()> {
    let n = dfa.shape().len();
    w.write_all(&(n as u32).to_le_bytes())?;
    for &a in dfa.shape().sizes() {
        w.write_all(&a.to_le_bytes())?;
    }
    w.write_all(&dfa.initial().0.to_le_bytes())?;
    // Rows are narrowed to `width` bytes an entry through a small buffer.
    let mut buf = Vec::with_capacity(1 << 16);
    for (l, layer) in dfa.layers().iter().enumerate() {
        let next_len = if l + 1 < n { dfa.layers()[l + 1].len() } else { 2 };
        let width = match entry_width(next_len) {
            3 if version < 2 => 4,
            width => width,
        };
        w.write_all(&(layer.len() as u32).to_le_bytes())?;
        w.write_all(&[width as u8])?;
        for chunk in layer.raw().chunks(1 << 14) {
            buf.clear();
            for &x in chunk {
                buf.extend_from_slice(&x.to_le_bytes()[..width]);
            }
            w.write_all(&buf)?;
        }
    }
    Ok(())
}

fn decode_dfa<R: std::io::Read>(r: &mut Reader<R>, version: u32) -> std::result::Result<Dfa, ReadError> {
    let n = r.u32()? as usize;
    if n as u64 > r.remaining {
        return Err(format_error(&format!("{n} layers cannot fit in the file")));
    }
    let mut sizes = Vec::with_capacity(n);
    for l in 0..n {
        let a = r.u16()?;
        if !(1..=256).contains(&a) {
            return Err(format_error(&format!("layer {l}: alphabet size {a} outside 1..=256")));
        }
        sizes.push(a);
    }
    let shape = Shape::new(sizes);
    let initial = StateId(r.u32()?);
    let mut layers = Vec::with_capacity(n);
    for l in 0..n {
        let states = r.u32()? as usize;
        let w = r.u8()? as usize;
        if !is_entry_width(w, version) {
            return Err(format_error(&format!("layer {l}: entry width {w} is not one of version {version}'s")));
        }
        let a = shape.alphabet(l);
        let entries = states.checked_mul(a).ok_or_else(|| format_error("layer too large"))?;
        let raw = r.take(entries.checked_mul(w).ok_or_else(|| format_error("layer too large"))?)?;
        let mut next = Vec::with_capacity(entries);
        for chunk in raw.chunks_exact(w) {
            let mut b = [0u8; 4];
            b[..w].copy_from_slice(chunk);
            next.push(u32::from_le_bytes(b));
        }
        if states < 2 {
            return Err(format_error(&format!("layer {l}: {states} states (the two reserved states are required)")));
        }
        layers.push(Layer::from_raw(a, next));
    }
    let dfa = Dfa { shape, initial, layers };
    dfa.validate().map_err(|e| format_error(&format!("invalid DFA: {e}")))?;
    Ok(dfa)
}

/// Why decoding stopped: the bytes do not follow the format, or reading them failed.
enum ReadError {
    Format(String),
    Io(std::io::Error),
}

fn format_error(what: &str) -> ReadError {
    ReadError::Format(what.to_string())
}

/// Reads a payload of known length from `inner`, hashing what it reads when asked to.
struct Reader<R> {
    inner: R,
    /// Payload bytes not read yet.
    remaining: u64,
    /// Payload bytes read so far.
    pos: u64,
    hasher: Option<Sha256>,
}

impl<R: std::io::Read> Reader<R> {
    /// The next `k` bytes; never allocates more than the payload has left.
    fn take(&mut self, k: usize) -> std::result::Result<Vec<u8>, ReadError> {
        if k as u64 > self.remaining {
            return Err(format_error(&format!(
                "truncated: needed {k} bytes at offset {}, {} left",
                self.pos, self.remaining
            )));
        }
        let mut buf = vec![0u8; k];
        self.inner.read_exact(&mut buf).map_err(ReadError::Io)?;
        if let Some(h) = self.hasher.as_mut() {
            h.update(&buf);
        }
        self.remaining -= k as u64;
        self.pos += k as u64;
        Ok(buf)
    }

    fn u8(&mut self) -> std::result::Result<u8, ReadError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> std::result::Result<u16, ReadError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }

    fn u32(&mut self) -> std::result::Result<u32, ReadError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
}

#[cfg(test)]
mod tests {
    use super::{Bundle, save_entries, save_entries_as};
    use crate::dfa::on_disk::OnDiskBundle;
    use crate::dfa::{Dfa, Shape, SplitMix64};

    /// A set with a layer of more than 2^16 states, so that the layer before it takes 3-byte
    /// entries in version 2 and 4-byte ones in version 1.
    fn wide_set() -> (Dfa, Vec<Vec<u8>>) {
        let shape = Shape::uniform(20, 4);
        let mut rng = SplitMix64::new(7);
        let words: Vec<Vec<u8>> = (0..90_000).map(|_| (0..20).map(|_| (rng.next_u64() % 4) as u8).collect()).collect();
        let set = Dfa::from_strings(&shape, &words);
        assert!(set.layers().iter().any(|l| l.len() > 1 << 16), "a layer past 2^16 states");
        (set, words)
    }

    /// Both versions read back as the same set, in memory and in place, and the version 2
    /// file is the smaller by the 3-byte entries.
    #[test]
    fn three_byte_entries_read_back_and_version_1_files_still_load() {
        let (set, words) = wide_set();
        let dir = crate::scratch::tempdir();
        let (v1, v2) = (dir.path().join("v1.dfas"), dir.path().join("v2.dfas"));
        save_entries_as(&v1, "{}", &[("s", &set)], 1).unwrap();
        save_entries(&v2, "{}", &[("s", &set)]).unwrap();
        let (len1, len2) = (std::fs::metadata(&v1).unwrap().len(), std::fs::metadata(&v2).unwrap().len());
        assert!(len2 < len1, "version 2 takes {len2} bytes, version 1 {len1}");
        let mut rng = SplitMix64::new(11);
        let others: Vec<Vec<u8>> = (0..200).map(|_| (0..20).map(|_| (rng.next_u64() % 4) as u8).collect()).collect();
        for path in [&v1, &v2] {
            assert_eq!(Bundle::load(path).unwrap().get("s"), Some(&set));
            let on_disk = OnDiskBundle::open(path).unwrap();
            for word in words.iter().take(200).chain(&others) {
                assert_eq!(on_disk.contains(0, word).unwrap(), set.contains(word), "{word:?}");
            }
        }
    }
}
