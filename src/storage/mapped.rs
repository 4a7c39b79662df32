//! Memory maps: files read in place, and anonymous memory for the large arrays of a solve.
//!
//! The crate's one module of unsafe code over memory (listed in the crate docs). Three things
//! here need it, and each says why it holds where it is done:
//! * mapping a file ([`map_file`]): sound only while nothing writes the file, which every
//!   caller's file guarantees (tables are written to a temporary file renamed into place and
//!   never changed; spill files are unnamed and written before they are mapped);
//! * viewing a mapped section as values ([`MappedSlice`]): bounds and alignment are checked
//!   once, when the section is made, and `T: Pod` accepts every bit pattern;
//! * viewing anonymous memory as atomic bytes ([`AtomicBytes`]).
//!
//! Plain values become bytes to write with `bytemuck`, which needs no unsafe code here.
#![allow(unsafe_code)]

use bytemuck::Pod;
use memmap2::{Advice, Mmap, MmapMut};
use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::AtomicU8;

// Mapped values are read as the machine's own integers and written little-endian.
const _: () = assert!(cfg!(target_endian = "little"), "mapped files are read as little-endian integers");

/// Map `file` read-only. The caller's file must not be written while it is mapped (see the
/// module docs): every file this crate maps is either renamed into place whole and never
/// changed, or unnamed and private to the process.
///
/// # Errors
/// What the operating system says.
pub fn map_file(file: &std::fs::File) -> std::io::Result<Arc<Mmap>> {
    // SAFETY: the caller's file is not written while mapped (the contract above).
    Ok(Arc::new(unsafe { Mmap::map(file) }?))
}

/// `len` values of `T` at byte `offset` of a read-only map, read in place.
pub struct MappedSlice<T: Pod> {
    map: Arc<Mmap>,
    offset: usize,
    len: usize,
    _values: std::marker::PhantomData<T>,
}

impl<T: Pod> Clone for MappedSlice<T> {
    fn clone(&self) -> Self {
        MappedSlice { map: Arc::clone(&self.map), ..*self }
    }
}

impl<T: Pod> MappedSlice<T> {
    /// The section of `map` of `len` values from byte `offset`, if it lies inside the map and
    /// is aligned for `T`.
    pub fn new(map: &Arc<Mmap>, offset: usize, len: usize) -> Option<MappedSlice<T>> {
        let end = len.checked_mul(size_of::<T>())?.checked_add(offset)?;
        let aligned = (map.as_ptr() as usize).checked_add(offset)?.is_multiple_of(align_of::<T>());
        (end <= map.len() && aligned).then(|| MappedSlice {
            map: Arc::clone(map),
            offset,
            len,
            _values: std::marker::PhantomData,
        })
    }
}

impl<T: Pod> Deref for MappedSlice<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `new` checked that the section lies in the map and is aligned for `T`;
        // `Pod` accepts every bit pattern; the map lives as long as `self` holds it, and its
        // file is not written while mapped (`map_file`). Not `bytemuck::cast_slice`: this is
        // read in the inner loops of products, and the checks were made once already.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().add(self.offset).cast::<T>(), self.len) }
    }
}

/// An array of `T`, owned or mapped, read the same way.
pub enum Store<T: Pod> {
    /// In memory.
    Owned(Vec<T>),
    /// In a mapped file or in anonymous memory.
    Mapped(MappedSlice<T>),
}

impl<T: Pod> Store<T> {
    /// A section of `map`, if it lies inside the map and is aligned for `T`.
    pub fn mapped(map: &Arc<Mmap>, offset: usize, len: usize) -> Option<Store<T>> {
        MappedSlice::new(map, offset, len).map(Store::Mapped)
    }
}

impl<T: Pod> Deref for Store<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            Store::Owned(v) => v,
            Store::Mapped(m) => m,
        }
    }
}

/// Anonymous memory of `len` bytes (at least one), zeroed, asked to be backed by huge pages:
/// the explicit solves read their arrays at random, and with 4 KiB pages most of a lookup's
/// time went to address translation.
fn anonymous(len: usize) -> std::io::Result<MmapMut> {
    let map = MmapMut::map_anon(len.max(1))?;
    // Advice only: a system without transparent huge pages keeps the small ones.
    let _ = map.advise(Advice::HugePage);
    Ok(map)
}

/// [`anonymous`] memory holding a copy of `bytes`.
fn anonymous_copy(bytes: &[u8]) -> std::io::Result<MmapMut> {
    let mut map = anonymous(bytes.len())?;
    map[..bytes.len()].copy_from_slice(bytes);
    Ok(map)
}

/// A copy of `values` on huge pages if the system lends the memory, else in a vector.
pub fn huge_copy<T: Pod>(values: &[T]) -> Store<T> {
    anonymous_copy(bytemuck::cast_slice(values))
        .and_then(MmapMut::make_read_only)
        .ok()
        .and_then(|map| Store::mapped(&Arc::new(map), 0, values.len()))
        .unwrap_or_else(|| Store::Owned(values.to_vec()))
}

/// A byte per state, written by many threads at once, on huge pages where the system has them.
/// No bytes need no map.
pub struct AtomicBytes {
    map: Option<MmapMut>,
    len: usize,
}

impl AtomicBytes {
    /// `len` zero bytes.
    ///
    /// # Errors
    /// What the operating system says.
    pub fn zeroed(len: usize) -> std::io::Result<AtomicBytes> {
        Ok(AtomicBytes { map: if len == 0 { None } else { Some(anonymous(len)?) }, len })
    }

    /// A copy of `bytes`.
    ///
    /// # Errors
    /// What the operating system says.
    pub fn copy_of(bytes: &[u8]) -> std::io::Result<AtomicBytes> {
        Ok(AtomicBytes { map: if bytes.is_empty() { None } else { Some(anonymous_copy(bytes)?) }, len: bytes.len() })
    }

    /// No bytes.
    pub fn empty() -> AtomicBytes {
        AtomicBytes { map: None, len: 0 }
    }

    /// The bytes as a read-only store, without a copy.
    ///
    /// # Errors
    /// What the operating system says.
    pub fn into_store(self) -> std::io::Result<Store<u8>> {
        Ok(match self.map {
            Some(map) => {
                let map = Arc::new(map.make_read_only()?);
                Store::mapped(&map, 0, self.len).expect("the whole of a map of its own length")
            }
            None => Store::Owned(Vec::new()),
        })
    }
}

impl Deref for AtomicBytes {
    type Target = [AtomicU8];

    fn deref(&self) -> &[AtomicU8] {
        match &self.map {
            // SAFETY: `AtomicU8` has the size, alignment and bit validity of `u8`; the map
            // holds `len` bytes and lives as long as `self`; all writes go through the atomics.
            Some(map) => unsafe { std::slice::from_raw_parts(map.as_ptr().cast::<AtomicU8>(), self.len) },
            None => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn mapped_bytes(bytes: &[u8]) -> Arc<Mmap> {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(bytes).unwrap();
        map_file(&file).unwrap()
    }

    #[test]
    fn a_section_reads_the_values_written_and_refuses_to_leave_its_map() {
        let words: Vec<u64> = vec![7, 1 << 40, u64::MAX];
        let mut bytes = vec![0u8; 8];
        bytes.extend_from_slice(bytemuck::cast_slice(&words));
        let map = mapped_bytes(&bytes);
        let section = Store::<u64>::mapped(&map, 8, 3).expect("inside and aligned");
        assert_eq!(&*section, &words[..]);
        assert!(Store::<u64>::mapped(&map, 8, 4).is_none(), "one value past the end");
        assert!(Store::<u64>::mapped(&map, 4, 1).is_none(), "not aligned for u64");
        assert!(Store::<u64>::mapped(&map, usize::MAX, 1).is_none(), "an offset that overflows");
    }

    #[test]
    fn atomic_bytes_keep_what_is_stored_and_become_a_store() {
        let bytes = AtomicBytes::copy_of(&[1, 2, 3]).unwrap();
        bytes[1].store(9, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(&*bytes.into_store().unwrap(), &[1, 9, 3]);
        assert!(AtomicBytes::zeroed(0).unwrap().is_empty());
        assert_eq!(&*huge_copy(&[5u64, 6]), &[5, 6]);
    }
}
