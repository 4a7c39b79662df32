//! A bundle file read in place: membership in its DFAs without loading them.
//!
//! [`super::file::Bundle::load`] decodes every DFA into memory, which a lookup of a few
//! positions does not need: a membership test reads one row per layer. An [`OnDiskBundle`]
//! checks the file's checksum as it opens (reading it through a buffer), keeps the directory
//! of layer offsets, and reads each row a walk needs from the file where it lies. (A memory
//! map would count every page it touched as the process's memory: 2.8 GB for the best line of
//! 5x6 Breakthrough's start, whose class files are up to 1.3 GB each. A read per row costs a
//! system call, microseconds.)
//!
//! Trust: the bytes are the checksummed ones, but the rows are not validated as
//! [`super::Dfa::validate`] would; every step of a walk checks that the next id lies in its
//! layer, so a forged file with a valid checksum gives an error, never a panic or a read
//! outside the map. Membership does not rest on minimality or the reserved rows (a walk stops
//! at a reserved id, as [`super::Dfa::contains`] does).

use super::Symbol;
use super::file::{HEADER_LEN, check_header, entry_width, is_entry_width, verify};
use crate::error::{Error, Result};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// A checked bundle file, open: its metadata, and its DFAs for membership tests.
pub struct OnDiskBundle {
    path: PathBuf,
    file: File,
    meta: String,
    entries: Vec<DfaOnDisk>,
}

/// Where one DFA's layers lie in the file.
struct DfaOnDisk {
    name: String,
    sizes: Vec<u16>,
    initial: u32,
    layers: Vec<LayerOnDisk>,
}

/// One layer's rows: `states` rows of `alphabet` entries of `width` bytes from `offset`.
#[derive(Clone, Copy)]
struct LayerOnDisk {
    offset: u64,
    states: u32,
    width: u8,
}

impl OnDiskBundle {
    /// Open the bundle file at `path`: check its header and checksum and read its directory.
    ///
    /// # Errors
    /// [`Error::Io`]; [`Error::ForeignFile`], [`Error::UnsupportedVersion`] or
    /// [`Error::Corrupt`] as [`super::file::Bundle::load`] reports them.
    pub fn open(path: &Path) -> Result<OnDiskBundle> {
        Self::open_checking(path, true)
    }

    /// [`OnDiskBundle::open`] without the checksum of the payload: the header is checked and
    /// the directory read, but the rows are not read until a walk needs them. For files too
    /// large to read whole for a lookup (the checksum of a 30 GB solution reads 30 GB). A
    /// walk still checks every id it reads, so damage in the rows gives an error or a wrong
    /// answer, never a read outside the file: `check` reads such a file whole.
    ///
    /// # Errors
    /// As [`OnDiskBundle::open`], but for the checksum.
    pub fn open_unverified(path: &Path) -> Result<OnDiskBundle> {
        Self::open_checking(path, false)
    }

    fn open_checking(path: &Path, checksum: bool) -> Result<OnDiskBundle> {
        let io = |source| Error::Io { path: path.to_path_buf(), error: source };
        let file = File::open(path).map_err(io)?;
        let (len, version) = if checksum {
            verify(&file, path)?
        } else {
            let len = file.metadata().map_err(io)?.len();
            let mut head = vec![0u8; HEADER_LEN.min(len as usize)];
            file.read_exact_at(&mut head, 0).map_err(io)?;
            (len, check_header(&head, len, path)?.1)
        };
        let (meta, entries) =
            Directory { file: &file, len, at: HEADER_LEN as u64, version }.read().map_err(|e| match e {
                ReadError::Format(what) => Error::Corrupt { path: path.to_path_buf(), what },
                ReadError::Io(error) => io(error),
            })?;
        Ok(OnDiskBundle { path: path.to_path_buf(), file, meta, entries })
    }

    /// The metadata the writer stored.
    pub fn meta(&self) -> &str {
        &self.meta
    }

    /// The entries' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.name.as_str())
    }

    /// The alphabet sizes of entry `index`'s layers (its shape), if there is such an entry.
    pub fn sizes(&self, index: usize) -> Option<&[u16]> {
        self.entries.get(index).map(|e| e.sizes.as_slice())
    }

    /// Whether entry `index` holds `string` (false for a string not of its shape).
    ///
    /// # Errors
    /// [`Error::Corrupt`] if the walk meets an id outside its layer (a forged file);
    /// [`Error::Io`] if a row cannot be read; [`Error::Mismatch`] for an index past the entries.
    pub fn contains(&self, index: usize, string: &[Symbol]) -> Result<bool> {
        let dfa = self.entries.get(index).ok_or_else(|| {
            Error::Mismatch(format!("{}: no entry {index} (it has {})", self.path.display(), self.entries.len()))
        })?;
        if string.len() != dfa.sizes.len() || string.iter().zip(&dfa.sizes).any(|(&s, &n)| u16::from(s) >= n) {
            return Ok(false);
        }
        let mut state = dfa.initial;
        for (l, (layer, &symbol)) in dfa.layers.iter().zip(string).enumerate() {
            if state < 2 {
                break;
            }
            if state >= layer.states {
                return Err(self.out_of_range(&dfa.name, l, state));
            }
            let w = usize::from(layer.width);
            let entry = u64::from(state) * u64::from(dfa.sizes[l]) + u64::from(symbol);
            let mut b = [0u8; 4];
            self.file
                .read_exact_at(&mut b[..w], layer.offset + entry * w as u64)
                .map_err(|error| Error::Io { path: self.path.clone(), error })?;
            state = u32::from_le_bytes(b);
        }
        let last = dfa.layers.len();
        if state >= 2 && last > 0 {
            return Err(self.out_of_range(&dfa.name, last, state));
        }
        Ok(state == 1)
    }

    fn out_of_range(&self, name: &str, layer: usize, state: u32) -> Error {
        Error::Corrupt {
            path: self.path.clone(),
            what: format!("entry {name:?}: state {state} is outside layer {layer}"),
        }
    }
}

/// Why reading the directory stopped: the bytes do not follow the format, or reading failed.
enum ReadError {
    Format(String),
    Io(std::io::Error),
}

impl From<String> for ReadError {
    fn from(what: String) -> ReadError {
        ReadError::Format(what)
    }
}

/// Reads the payload's directory from the file (`len` bytes), skipping the rows.
struct Directory<'a> {
    file: &'a File,
    len: u64,
    at: u64,
    version: u32,
}

impl Directory<'_> {
    fn read(mut self) -> std::result::Result<(String, Vec<DfaOnDisk>), ReadError> {
        let meta_len = self.u32()? as usize;
        let meta = String::from_utf8(self.take(meta_len)?).map_err(|_| "metadata is not UTF-8".to_string())?;
        let count = self.u32()?;
        let mut entries = Vec::new();
        for _ in 0..count {
            let name_len = usize::from(self.u16()?);
            let name = String::from_utf8(self.take(name_len)?).map_err(|_| "entry name is not UTF-8".to_string())?;
            let dfa = self.dfa(name.clone()).map_err(|e| match e {
                ReadError::Format(what) => ReadError::Format(format!("entry {name:?}: {what}")),
                io => io,
            })?;
            entries.push(dfa);
        }
        if self.at != self.len {
            return Err(format!("{} trailing bytes", self.len - self.at).into());
        }
        Ok((meta, entries))
    }

    fn dfa(&mut self, name: String) -> std::result::Result<DfaOnDisk, ReadError> {
        let n = self.u32()? as usize;
        if n as u64 > self.len - self.at {
            return Err(format!("{n} layers cannot fit in the file").into());
        }
        let mut sizes = Vec::with_capacity(n);
        for l in 0..n {
            let a = self.u16()?;
            if !(1..=256).contains(&a) {
                return Err(format!("layer {l}: alphabet size {a} outside 1..=256").into());
            }
            sizes.push(a);
        }
        let initial = self.u32()?;
        let mut layers = Vec::with_capacity(n);
        for (l, &a) in sizes.iter().enumerate() {
            let states = self.u32()?;
            let width = self.take(1)?[0];
            if !is_entry_width(usize::from(width), self.version) {
                return Err(format!("layer {l}: entry width {width} is not one of version {}'s", self.version).into());
            }
            if states < 2 {
                return Err(format!("layer {l}: {states} states (the two reserved states are required)").into());
            }
            let offset = self.at;
            self.skip(u64::from(states) * u64::from(a) * u64::from(width))?;
            layers.push(LayerOnDisk { offset, states, width });
        }
        // The widths must hold the next layer's ids, as the writer chose them.
        for l in 0..n {
            let next = layers.get(l + 1).map_or(2, |x: &LayerOnDisk| x.states as usize);
            if usize::from(layers[l].width) < entry_width(next) {
                return Err(format!("layer {l}: entries of {} bytes cannot name {next} states", layers[l].width).into());
            }
        }
        if n > 0 && initial >= layers[0].states || n == 0 && initial >= 2 {
            return Err(format!("initial state {initial} is outside layer 0").into());
        }
        Ok(DfaOnDisk { name, sizes, initial, layers })
    }

    /// Moves past `k` bytes, which must lie in the file.
    fn skip(&mut self, k: u64) -> std::result::Result<(), ReadError> {
        let left = self.len - self.at;
        if k > left {
            let at = self.at - HEADER_LEN as u64;
            return Err(format!("truncated: needed {k} bytes at offset {at}, {left} left").into());
        }
        self.at += k;
        Ok(())
    }

    fn take(&mut self, k: usize) -> std::result::Result<Vec<u8>, ReadError> {
        let at = self.at;
        self.skip(k as u64)?;
        let mut out = vec![0; k];
        self.file.read_exact_at(&mut out, at).map_err(ReadError::Io)?;
        Ok(out)
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
    use super::*;
    use crate::dfa::file::Bundle;
    use crate::dfa::{Dfa, Shape};

    fn sets() -> Vec<(String, Dfa)> {
        // An alphabet of 256 makes the next layer's entries wider than a byte.
        let shape = Shape::new(vec![3, 2, 256, 3]);
        let all = Dfa::accept_all(&shape);
        let some = Dfa::from_strings(&shape, &[vec![0, 1, 7, 2], vec![2, 0, 255, 0], vec![1, 1, 0, 0]]);
        let empty = Dfa::reject_all(&shape);
        vec![("all".into(), all), ("some".into(), some), ("empty".into(), empty)]
    }

    #[test]
    fn a_bundle_on_disk_answers_every_string_as_the_loaded_one() {
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("b.dfas");
        let bundle = Bundle { meta: "{\"x\":1}".into(), entries: sets() };
        bundle.save(&path).unwrap();
        let mapped = OnDiskBundle::open(&path).unwrap();
        assert_eq!(mapped.meta(), "{\"x\":1}");
        assert_eq!(mapped.names().collect::<Vec<_>>(), ["all", "some", "empty"]);
        for a in 0..3u8 {
            for b in 0..2u8 {
                for c in [0u8, 1, 7, 200, 255] {
                    for d in 0..3u8 {
                        let s = [a, b, c, d];
                        for (i, (_, dfa)) in bundle.entries.iter().enumerate() {
                            assert_eq!(mapped.contains(i, &s).unwrap(), dfa.contains(&s), "{s:?} in entry {i}");
                        }
                    }
                }
            }
        }
        assert!(!mapped.contains(1, &[0, 1, 7]).unwrap(), "a string of another length is not a member");
        assert!(!mapped.contains(0, &[3, 0, 0, 0]).unwrap(), "a symbol past the alphabet is not a member");
        assert!(matches!(mapped.contains(3, &[0, 0, 0, 0]), Err(Error::Mismatch(_))));
    }

    #[test]
    fn entries_wider_than_a_byte_are_read_as_written() {
        // 256 first symbols, each with its own row of last symbols: layer 1 has 258 states.
        let shape = Shape::new(vec![256, 256, 4]);
        let mut rng = crate::dfa::SplitMix64::new(7);
        let strings: Vec<Vec<u8>> =
            (0..=255u8).flat_map(|a| (0..=255u8).map(move |b| (a, b))).map(|(a, b)| vec![a, b, 0]).collect();
        let strings: Vec<Vec<u8>> = strings
            .into_iter()
            .map(|mut s| {
                s[2] = (rng.next_u64() % 4) as u8;
                s
            })
            .collect();
        let set = Dfa::from_strings(&shape, &strings);
        assert!(set.states_per_layer()[1] > 256, "the test needs a layer of more than 256 states");
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("b.dfas");
        Bundle { meta: String::new(), entries: vec![("set".into(), set.clone())] }.save(&path).unwrap();
        let mapped = OnDiskBundle::open(&path).unwrap();
        for a in 0..=255u8 {
            for b in (0..=255u8).step_by(5) {
                for c in 0..4u8 {
                    assert_eq!(mapped.contains(0, &[a, b, c]).unwrap(), set.contains(&[a, b, c]));
                }
            }
        }
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused_as_it_opens() {
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("b.dfas");
        let bytes = Bundle { meta: String::new(), entries: sets() }.to_bytes();
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        std::fs::write(&path, &damaged).unwrap();
        assert!(matches!(OnDiskBundle::open(&path), Err(Error::Corrupt { .. })));
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(matches!(OnDiskBundle::open(&path), Err(Error::Corrupt { .. })));
        std::fs::write(&path, b"not a bundle at all").unwrap();
        assert!(matches!(OnDiskBundle::open(&path), Err(Error::ForeignFile { .. })));
    }
}
