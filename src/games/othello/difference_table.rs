//! A class's exact disc differences on disk: a byte per reachable position, by side to move
//! and rank in the class's universe.
//!
//! # File format (version 1), `differences-D.table` for the class of `D` discs
//! In the crate's container ([`crate::storage::container`]), magic `DFASOLVE-OTHELLO-DIFF`:
//! ```text
//! header    postcard of `Header`
//! values    i8 each, the mover's final difference: Black to move by rank, then White to move
//! ```
//! Opening checks the magic, the version, the game and class, the length and the checksum
//! (tables are read whole, as the next class's solve needs them all anyway).

use crate::error::{Error, Result};
use crate::storage::container::Format;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
const FORMAT: Format =
    Format { magic: b"DFASOLVE-OTHELLO-DIFF\n\0\0", version: VERSION, header_digest: false, body_align: 1 };

/// What a table file says about itself.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// The program that wrote it.
    pub program: String,
    /// Board columns.
    pub width: u8,
    /// Board rows.
    pub height: u8,
    /// Discs on the board in every position of the class.
    pub discs: u8,
    /// Positions with Black to move and with White to move (the universe's sizes).
    pub positions: [u64; 2],
}

/// One class's values: `values[side][rank]`, the mover's final difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DifferenceTable {
    /// The header.
    pub header: Header,
    /// Per side to move, by rank.
    pub values: [Vec<i8>; 2],
}

impl DifferenceTable {
    /// The table file of the class of `discs` discs in `dir`.
    pub fn path(dir: &Path, discs: usize) -> PathBuf {
        dir.join(format!("differences-{discs}.table"))
    }

    /// Write to `path` atomically.
    ///
    /// # Errors
    /// [`Error::Io`] if it cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        FORMAT.write(path, &self.header, |out| {
            for side in &self.values {
                out.write_all(bytemuck::cast_slice(side))?;
            }
            Ok(())
        })
    }

    /// Read the table at `path`, checking that it is the class of `discs` discs on a
    /// `width` x `height` board.
    ///
    /// # Errors
    /// [`Error::Io`] if it cannot be read; [`Error::ForeignFile`] for a file that is not a
    /// table; [`Error::UnsupportedVersion`]; [`Error::Corrupt`] for one cut short or failing its
    /// checksum; [`Error::Mismatch`] for another board or class.
    pub fn load(path: &Path, width: usize, height: usize, discs: usize) -> Result<DifferenceTable> {
        let table = DifferenceTable::load_any(path)?;
        let header = &table.header;
        if (header.width as usize, header.height as usize, header.discs as usize) != (width, height, discs) {
            return Err(Error::Mismatch(format!(
                "{} holds the class of {} discs of {}x{}, not {discs} discs of {width}x{height}",
                path.display(),
                header.discs,
                header.width,
                header.height
            )));
        }
        Ok(table)
    }

    /// Read the table at `path`, whichever board and class it holds.
    ///
    /// # Errors
    /// As [`DifferenceTable::load`], but for the board and class.
    pub fn load_any(path: &Path) -> Result<DifferenceTable> {
        let corrupt = |what: &str| Error::Corrupt { path: path.to_path_buf(), what: what.into() };
        let (header, values) = FORMAT.read::<Header>(path)?;
        let [black, white] = header.positions.map(|n| n as usize);
        if values.len() as u64 != header.positions[0] + header.positions[1] {
            return Err(corrupt("its length does not match its header"));
        }
        let as_i8 = |b: &[u8]| bytemuck::cast_slice::<u8, i8>(b).to_vec();
        let values = [as_i8(&values[..black]), as_i8(&values[black..black + white])];
        Ok(DifferenceTable { header, values })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> DifferenceTable {
        DifferenceTable {
            header: Header {
                version: VERSION,
                program: "test".into(),
                width: 4,
                height: 4,
                discs: 15,
                positions: [3, 2],
            },
            values: [vec![1, -3, 0], vec![16, -16]],
        }
    }

    #[test]
    fn a_table_reads_back_as_written_and_refuses_damage_and_other_classes() {
        let dir = crate::scratch::tempdir();
        let path = DifferenceTable::path(dir.path(), 15);
        table().save(&path).unwrap();
        assert_eq!(DifferenceTable::load(&path, 4, 4, 15).unwrap(), table());
        assert!(matches!(DifferenceTable::load(&path, 4, 4, 14), Err(Error::Mismatch(_))));
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 40;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(DifferenceTable::load(&path, 4, 4, 15), Err(Error::Corrupt { .. })));
        std::fs::write(&path, b"not a table").unwrap();
        assert!(matches!(DifferenceTable::load(&path, 4, 4, 15), Err(Error::ForeignFile { .. })));
    }
}
