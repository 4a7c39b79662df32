//! An array that is either owned or a section of a memory-mapped file, read the same way.
//! The crate's only unsafe code: mapping a file and viewing its bytes as integers.
#![allow(unsafe_code)]

use memmap2::Mmap;
use std::ops::Deref;
use std::sync::Arc;

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
