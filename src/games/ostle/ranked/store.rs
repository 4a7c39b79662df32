//! An array that is either owned or a section of a memory-mapped file, read the same way, and
//! the large arrays of a solve in memory asked to be backed by huge pages.
//! One of the crate's four places of unsafe code (listed in the crate docs): mapping a file and
//! viewing its bytes as integers.
#![allow(unsafe_code)]

use memmap2::{Advice, Mmap, MmapMut};
use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::AtomicU8;

/// Anonymous memory of `len` bytes (at least one), zeroed, asked to be backed by huge pages:
/// the solve reads its arrays at random, and with 4 KiB pages most of a lookup's time went to
/// address translation (random bytes of 4 GiB: 35 ns a lookup, 20 ns on 2 MiB pages).
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
pub fn huge_copy<T: Plain>(values: &[T]) -> Store<T> {
    match anonymous_copy(bytes_of(values)).and_then(MmapMut::make_read_only) {
        Ok(map) => Store::Mapped { map: Arc::new(map), offset: 0, len: values.len() },
        Err(_) => Store::Owned(values.to_vec()),
    }
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
            Some(map) => Store::Mapped { map: Arc::new(map.make_read_only()?), offset: 0, len: self.len },
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

/// Map `file` read-only.
///
/// # Errors
/// What the operating system says.
pub fn map_file(file: &std::fs::File) -> std::io::Result<Arc<Mmap>> {
    // SAFETY: tables files are written atomically (a new file renamed into place) and never
    // changed afterwards, so the mapped bytes do not change under the map.
    Ok(Arc::new(unsafe { Mmap::map(file) }?))
}

/// Plain old data that can be read from a mapped file as it lies there (little-endian).
///
/// # Safety
/// Every bit pattern must be a valid value.
pub unsafe trait Plain: Copy + Send + Sync + 'static {}
// SAFETY: integers accept every bit pattern.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for u64 {}

/// An array of `T`, owned or mapped.
pub enum Store<T: Plain> {
    /// In memory.
    Owned(Vec<T>),
    /// `len` values at byte `offset` of a mapped file (aligned for `T`).
    Mapped {
        /// The file's map.
        map: Arc<Mmap>,
        /// Where the values start.
        offset: usize,
        /// How many.
        len: usize,
    },
}

impl<T: Plain> Store<T> {
    /// A section of `map`, if it lies inside the map and is aligned for `T`.
    pub fn mapped(map: &Arc<Mmap>, offset: usize, len: usize) -> Option<Store<T>> {
        let bytes = len.checked_mul(size_of::<T>())?;
        let end = offset.checked_add(bytes)?;
        let aligned = (map.as_ptr() as usize + offset).is_multiple_of(align_of::<T>());
        (end <= map.len() && aligned).then(|| Store::Mapped { map: Arc::clone(map), offset, len })
    }
}

impl<T: Plain> Deref for Store<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Store::Owned(v) => v,
            // SAFETY: `mapped` checked bounds and alignment; `Plain` accepts every bit pattern;
            // the map lives as long as `self` holds it.
            Store::Mapped { map, offset, len } => unsafe {
                std::slice::from_raw_parts(map.as_ptr().add(*offset).cast::<T>(), *len)
            },
        }
    }
}

/// The bytes of a slice of plain values, as they are written to a file.
pub fn bytes_of<T: Plain>(values: &[T]) -> &[u8] {
    // SAFETY: plain values have no padding; u8 has alignment 1.
    unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values)) }
}
