//! Sets kept on disk while a solve runs: a DFA's tables written to an unnamed file of the
//! process's own and mapped, so that the kernel holds in memory only the pages being read and
//! drops the others when memory is short (they are clean: it reads them back from the file).
//!
//! A spilled set is used as any other ([`Dfa::spilled_to`]): products and images read its rows
//! through the map. The file has no name, so it disappears with the last map of it, and
//! nothing else can change it under the map.

use super::{Dfa, Layer, Rows};
use crate::storage::mapped::{MappedSlice, map_file};
use std::io::Write;
use std::path::Path;

/// One layer's ids, in a mapped spill file.
pub(super) type SpilledRows = MappedSlice<u32>;

impl Dfa {
    /// The same set with its tables in an unnamed file in `dir`, mapped: the process's memory
    /// then holds only the rows being read. Equal to `self` in every way but where it lies.
    ///
    /// # Errors
    /// What the operating system says when the file cannot be made, written or mapped.
    pub fn spilled_to(&self, dir: &Path) -> std::io::Result<Dfa> {
        let total: usize = self.layers.iter().map(|l| l.raw().len()).sum();
        if total == 0 {
            return Ok(self.clone());
        }
        let mut file = tempfile::tempfile_in(dir)?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, &mut file);
        for layer in &self.layers {
            out.write_all(bytemuck::cast_slice(layer.raw()))?;
        }
        out.flush()?;
        drop(out);
        // The file is unnamed (only this process holds it) and is not written again.
        let map = map_file(&file)?;
        if map.len() != total * 4 {
            return Err(std::io::Error::other("a spill file is shorter than what was written to it"));
        }
        let mut start = 0;
        let layers = self
            .layers
            .iter()
            .map(|l| {
                let len = l.raw().len();
                let rows = SpilledRows::new(&map, start * 4, len).expect("a layer inside the file written");
                start += len;
                Layer { alphabet: l.alphabet, next: Rows::Spilled(rows) }
            })
            .collect();
        Ok(Dfa { shape: self.shape.clone(), initial: self.initial, layers })
    }

    /// Whether some layer of this set lies in a spill file.
    pub fn is_spilled(&self) -> bool {
        self.layers.iter().any(|l| matches!(l.next, Rows::Spilled(_)))
    }
}

#[cfg(test)]
mod tests {
    use crate::dfa::{Dfa, Shape};

    #[test]
    fn a_spilled_set_is_the_same_set_and_works_in_every_operation() {
        let shape = Shape::new(vec![3, 4, 2, 5]);
        let a = Dfa::from_strings(&shape, &[vec![0, 1, 1, 4], vec![2, 3, 0, 0], vec![1, 0, 1, 2], vec![2, 2, 1, 3]]);
        let b = Dfa::from_strings(&shape, &[vec![0, 1, 1, 4], vec![1, 1, 1, 1]]);
        let dir = crate::scratch::tempdir();
        let spilled = a.spilled_to(dir.path()).unwrap();
        assert!(spilled.is_spilled() && !a.is_spilled());
        assert_eq!(spilled, a);
        assert_eq!(spilled.count(), a.count());
        assert_eq!(spilled.union(&b).unwrap(), a.union(&b).unwrap());
        assert_eq!(b.difference(&spilled).unwrap(), b.difference(&a).unwrap());
        assert_eq!(spilled.intersection(&b).unwrap(), a.intersection(&b).unwrap());
        spilled.validate().unwrap();
        let empty = Dfa::reject_all(&shape).spilled_to(dir.path()).unwrap();
        assert!(empty.is_empty());
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "spill files have no name");
    }
}
