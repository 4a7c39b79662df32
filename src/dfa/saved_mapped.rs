//! A set saved under a name and used in place: its tables written as the process holds them
//! (4-byte ids, page-aligned) and mapped back, so that the file is at once a checkpoint and
//! the set's spill ([`super::spill`]). A long solve then keeps one copy of each of its large
//! finished sets on disk, not a checkpoint and an unnamed spill file beside it.
//!
//! The file is a [`crate::storage::container`] of its own kind. Opening checks the header,
//! the whole file's checksum and [`Dfa::validate`]: a damaged or forged file is an error,
//! never a panic or a read outside the map.

use super::spill::SpilledRows;
use super::{Dfa, Layer, Rows, Shape, StateId};
use crate::error::{Error, Result};
use crate::storage::container::{Format, verify_checksum};
use std::io::Write;
use std::path::Path;

const FORMAT: Format =
    Format { magic: b"DFASOLVE-MAPPED-SET\n\0\0\0\0", version: 1, header_digest: true, body_align: 4096 };

/// What precedes the tables: the shape, the initial state and each layer's entries.
#[derive(serde::Serialize, serde::Deserialize)]
struct Header {
    version: u32,
    sizes: Vec<u16>,
    initial: u32,
    /// Entries (states × alphabet) of each layer, in order.
    layer_entries: Vec<u64>,
}

impl Dfa {
    /// Save the set at `path` (atomically) and return it read from there in place.
    ///
    /// # Errors
    /// [`Error::Io`] naming the file if it cannot be written or mapped.
    pub fn saved_mapped(&self, path: &Path) -> Result<Dfa> {
        let header = Header {
            version: FORMAT.version,
            sizes: self.shape.sizes().to_vec(),
            initial: self.initial.0,
            layer_entries: self.layers.iter().map(|l| l.raw().len() as u64).collect(),
        };
        FORMAT.write(path, &header, |out| {
            for layer in &self.layers {
                for chunk in layer.raw().chunks(1 << 16) {
                    out.write_all(bytemuck::cast_slice(chunk))?;
                }
            }
            Ok(())
        })?;
        Dfa::mapped_from(path)
    }

    /// The set saved at `path` by [`Dfa::saved_mapped`], read in place, its checksum and
    /// invariants checked.
    ///
    /// # Errors
    /// [`Error::Io`], [`Error::ForeignFile`], [`Error::UnsupportedVersion`] or
    /// [`Error::Corrupt`].
    pub fn open_mapped(path: &Path) -> Result<Dfa> {
        // The header first: a foreign file is named as such, not as a failed checksum.
        let dfa = Dfa::mapped_from(path)?;
        verify_checksum(path)?;
        dfa.validate().map_err(|e| Error::Corrupt { path: path.to_path_buf(), what: format!("invalid DFA: {e}") })?;
        Ok(dfa)
    }

    /// The set saved at `path` by [`Dfa::saved_mapped`], read in place with its header and
    /// layout checked but neither its checksum nor its rows (which would read the whole
    /// file): for lookups by [`Dfa::checked_contains`] only, which checks each id it reads.
    ///
    /// # Errors
    /// As [`Dfa::open_mapped`], but for damage in the rows.
    pub fn open_mapped_unverified(path: &Path) -> Result<Dfa> {
        Dfa::mapped_from(path)
    }

    /// The set in the file at `path`, its header and layout checked, its rows not.
    fn mapped_from(path: &Path) -> Result<Dfa> {
        let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
        let opened = FORMAT.open_mapped::<Header>(path)?;
        let Header { sizes, initial, layer_entries, .. } = opened.header;
        if sizes.len() != layer_entries.len() || sizes.iter().any(|&a| !(1..=256).contains(&a)) {
            return Err(corrupt("its shape does not match its layers".into()));
        }
        let total = layer_entries.iter().try_fold(0u64, |t, &n| t.checked_add(n)).unwrap_or(u64::MAX);
        if total.checked_mul(4) != Some(opened.body.len() as u64) {
            return Err(corrupt(format!("its tables take {} bytes, not {total} ids", opened.body.len())));
        }
        let shape = Shape::new(sizes);
        let mut start = opened.body.start;
        let mut layers = Vec::with_capacity(layer_entries.len());
        for (l, &entries) in layer_entries.iter().enumerate() {
            let alphabet = shape.alphabet(l);
            let entries = entries as usize;
            if !entries.is_multiple_of(alphabet) || entries < 2 * alphabet {
                return Err(corrupt(format!("layer {l}: {entries} ids are not whole rows with the reserved two")));
            }
            let rows = SpilledRows::new(&opened.map, start, entries)
                .ok_or_else(|| corrupt(format!("layer {l} lies outside the file")))?;
            start += entries * 4;
            layers.push(Layer { alphabet, next: Rows::Spilled(rows) });
        }
        Ok(Dfa { shape, initial: StateId(initial), layers })
    }
}

#[cfg(test)]
mod tests {
    use crate::dfa::{Dfa, Shape};
    use crate::error::Error;

    #[test]
    fn a_saved_set_reads_back_in_place_as_the_same_set() {
        let shape = Shape::new(vec![3, 4, 2, 5]);
        let a = Dfa::from_strings(&shape, &[vec![0, 1, 1, 4], vec![2, 3, 0, 0], vec![1, 0, 1, 2]]);
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("a.set");
        let saved = a.saved_mapped(&path).unwrap();
        assert!(saved.is_spilled());
        assert_eq!(saved, a);
        let opened = Dfa::open_mapped(&path).unwrap();
        assert_eq!(opened, a);
        assert_eq!(opened.union(&Dfa::reject_all(&shape)).unwrap(), a);
        let empty = Dfa::reject_all(&shape).saved_mapped(&dir.path().join("empty.set")).unwrap();
        assert!(empty.is_empty());
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused() {
        let shape = Shape::uniform(4, 3);
        let a = Dfa::from_strings(&shape, &[vec![0, 1, 2, 1], vec![2, 2, 0, 1]]);
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("a.set");
        drop(a.saved_mapped(&path).unwrap());
        let mut bytes = std::fs::read(&path).unwrap();
        let last_row = bytes.len() - 32 - 4;
        bytes[last_row] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(Dfa::open_mapped(&path), Err(Error::Corrupt { .. })), "a flipped id is caught");
        std::fs::write(&path, b"not a set at all, only some bytes of text").unwrap();
        assert!(matches!(Dfa::open_mapped(&path), Err(Error::ForeignFile { .. })));
    }
}
