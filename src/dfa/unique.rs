//! Unique tables: one layer's states looked up by content, so that equal rows get one id (I5).
//!
//! [`RowTable`] holds rows of a fixed length (an alphabet's worth of child ids); [`SliceTable`]
//! holds keys of any length (subsets of states, product tuples) under dense indices.

use super::Layer;
use super::ids::{hash_ids, ids_equal, push_ids};
use super::limits::Stoppable;
use hashbrown::HashTable;

/// A hash-table entry of [`RowTable`] and [`SliceTable`]: the low 32 bits of the key's
/// [`hash_ids`] above the key's id. Keeping the hash lets the table grow without hashing every
/// key again (a fifth of an image's time went to that), and a probe rejects a different key
/// without reading it.
type Entry = u64;

#[inline]
fn entry(hash: u64, id: u32) -> Entry {
    (hash << 32) | u64::from(id)
}

/// The hash the table files an entry under: its stored 32 bits in both halves (hashbrown takes
/// the bucket from the low bits and the tag from the top seven). Sharding by the top bits of
/// `hash_ids` (see [`super::intern::intern_layer`]) leaves these bits free.
#[inline]
fn entry_hash(e: Entry) -> u64 {
    (e >> 32) | (e & 0xffff_ffff_0000_0000)
}

#[inline]
fn table_hash(hash: u64) -> u64 {
    entry_hash(entry(hash, 0))
}

#[inline]
fn entry_matches(e: Entry, hash: u64) -> bool {
    (e >> 32) == (hash & 0xffff_ffff)
}

/// Whether entry `e` of a table whose rows are `rows` (flat, `alphabet` ids each) is `row`,
/// whose hash is `hash`.
#[inline]
fn holds(rows: &[u32], alphabet: usize, e: Entry, hash: u64, row: &[u32]) -> bool {
    let id = e as u32 as usize;
    entry_matches(e, hash) && ids_equal(&rows[id * alphabet..(id + 1) * alphabet], row)
}

/// The reserved id (0 or 1) of an all-reject or all-accept row (I4), or `None`.
#[inline]
pub(crate) fn reserved_id(row: &[u32]) -> Option<u32> {
    let first = row[0];
    (first < 2 && row.iter().all(|&x| x == first)).then_some(first)
}

/// A layer's unique table: rows of `alphabet` ids, stored flat, looked up by content.
///
/// Rows 0 and 1 are the reserved all-reject and all-accept rows (I3).
pub(crate) struct RowTable {
    alphabet: usize,
    rows: Vec<u32>,
    table: HashTable<Entry>,
    /// The most states the layer may hold ([`super::limits`]).
    limit: usize,
}

impl RowTable {
    pub(crate) fn new(alphabet: usize) -> RowTable {
        let rows = Layer::reserved_only(alphabet).into_ids();
        RowTable { alphabet, rows, table: HashTable::new(), limit: super::limits::layer_state_limit() }
    }

    pub(crate) fn with_capacity(alphabet: usize, states: usize) -> RowTable {
        let mut t = RowTable::new(alphabet);
        t.rows.reserve(states * alphabet);
        t.table.reserve(states, |&e| entry_hash(e));
        t
    }

    /// The id of the state with this row, creating it if new. All-0 and all-1 rows are the
    /// reserved ids (I4). A new state past the layer limit, or over the memory budget, stops.
    #[inline]
    pub(crate) fn intern(&mut self, row: &[u32]) -> Stoppable<u32> {
        self.intern_hashed(row, hash_ids(row))
    }

    /// [`RowTable::intern`] given `hash_ids(row)`.
    #[inline]
    pub(crate) fn intern_hashed(&mut self, row: &[u32], hash: u64) -> Stoppable<u32> {
        self.intern_checked::<true>(row, hash)
    }

    /// [`RowTable::intern`] for a caller that adds states one by one from what it already
    /// holds ([`super::DfaBuilder`]): no memory check, and the layer limit is the caller's
    /// error.
    ///
    /// # Panics
    /// If the layer would pass the limit of states.
    pub(crate) fn add(&mut self, row: &[u32]) -> u32 {
        match self.intern_checked::<false>(row, hash_ids(row)) {
            Ok(id) => id,
            Err(stop) => panic!("{stop}"),
        }
    }

    /// The insertion of [`RowTable::intern_hashed`]; `MEMORY` says whether it checks the
    /// memory budget every 65,536 new states.
    #[inline(always)]
    fn intern_checked<const MEMORY: bool>(&mut self, row: &[u32], hash: u64) -> Stoppable<u32> {
        debug_assert_eq!(row.len(), self.alphabet);
        debug_assert_eq!(hash, hash_ids(row));
        if let Some(id) = reserved_id(row) {
            return Ok(id);
        }
        let (alphabet, rows) = (self.alphabet, &self.rows);
        // One probe sequence for both the lookup and the insertion (most rows of a large
        // product are new).
        match self.table.entry(table_hash(hash), |&e| holds(rows, alphabet, e, hash, row), |&e| entry_hash(e)) {
            hashbrown::hash_table::Entry::Occupied(found) => Ok(*found.get() as u32),
            hashbrown::hash_table::Entry::Vacant(slot) => {
                let id = self.rows.len() / alphabet;
                if id >= self.limit {
                    return Err(super::limits::too_many_states(self.limit));
                }
                if MEMORY && id & 0xFFFF == 0 {
                    super::limits::check_memory()?;
                }
                let id = id as u32;
                push_ids(&mut self.rows, row);
                slot.insert(entry(hash, id));
                Ok(id)
            }
        }
    }

    /// The id of the state with this row, if the table has it (all-0 and all-1 rows are the
    /// reserved ids). Read-only, so many threads may look up at once.
    pub(crate) fn lookup(&self, row: &[u32]) -> Option<u32> {
        debug_assert_eq!(row.len(), self.alphabet);
        if let Some(id) = reserved_id(row) {
            return Some(id);
        }
        let hash = hash_ids(row);
        self.table.find(table_hash(hash), |&e| holds(&self.rows, self.alphabet, e, hash, row)).map(|&e| e as u32)
    }

    pub(crate) fn len(&self) -> usize {
        self.rows.len() / self.alphabet
    }

    pub(crate) fn rows(&self) -> &[u32] {
        &self.rows
    }

    pub(crate) fn into_rows(self) -> Vec<u32> {
        self.rows
    }
}

/// Variable-length keys (sets of states, product tuples) of one layer, stored flat and looked
/// up by content; each gets a dense index in insertion order.
pub(crate) struct SliceTable {
    keys: Slices,
    table: HashTable<Entry>,
    /// The most keys the table may hold: indices stay below the explored-state tag bit
    /// ([`super::limits`]).
    limit: usize,
}

impl SliceTable {
    pub(crate) fn new() -> SliceTable {
        SliceTable {
            keys: Slices { members: Vec::new(), starts: vec![0] },
            table: HashTable::new(),
            limit: super::limits::layer_state_limit(),
        }
    }

    pub(crate) fn get(&self, i: u32) -> &[u32] {
        self.keys.get(i)
    }

    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Total length of the stored keys.
    pub(crate) fn member_count(&self) -> usize {
        self.keys.member_count()
    }

    #[inline]
    pub(crate) fn intern(&mut self, set: &[u32]) -> Stoppable<u32> {
        self.intern_hashed(set, hash_ids(set))
    }

    /// The keys alone, readable by index: the hash index is dropped and the buffers trimmed
    /// to their length. A layer being explored needs only its keys, and at the widest layer
    /// of a large image its index and the buffers' spare capacity were about a third of it.
    pub(crate) fn into_slices(self) -> Slices {
        let mut keys = self.keys;
        keys.members.shrink_to_fit();
        keys.starts.shrink_to_fit();
        keys
    }

    /// [`SliceTable::intern`] given `hash_ids(set)`.
    #[inline(always)]
    pub(crate) fn intern_hashed(&mut self, set: &[u32], hash: u64) -> Stoppable<u32> {
        debug_assert_eq!(hash, hash_ids(set));
        let keys = &self.keys;
        if let Some(&e) =
            self.table.find(table_hash(hash), |&e| entry_matches(e, hash) && ids_equal(keys.get(e as u32), set))
        {
            return Ok(e as u32);
        }
        if self.len() >= self.limit {
            return Err(super::limits::too_many_states(self.limit));
        }
        if self.len() & 0xFFFF == 0 {
            super::limits::check_memory()?;
        }
        let i = self.len() as u32;
        self.keys.members.extend_from_slice(set);
        self.keys.starts.push(self.keys.members.len());
        self.table.insert_unique(table_hash(hash), entry(hash, i), |&e| entry_hash(e));
        Ok(i)
    }
}

/// The keys of a finished [`SliceTable`], in the order it numbered them.
pub(crate) struct Slices {
    members: Vec<u32>,
    starts: Vec<usize>,
}

impl Slices {
    pub(crate) fn get(&self, i: u32) -> &[u32] {
        &self.members[self.starts[i as usize]..self.starts[i as usize + 1]]
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Total length of the keys.
    pub(crate) fn member_count(&self) -> usize {
        self.members.len()
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::EngineStop;
    use super::*;

    /// A table at its limit of states stops with the stop as a value, keeps every state it
    /// holds, and still finds them: a stopped operation leaves nothing half-made behind.
    #[test]
    fn a_table_at_its_limit_stops_with_a_value_and_keeps_its_states() {
        let mut rows = RowTable { limit: 4, ..RowTable::new(2) };
        assert_eq!(rows.intern(&[0, 1]), Ok(2));
        assert_eq!(rows.intern(&[1, 0]), Ok(3));
        assert_eq!(rows.intern(&[1, 1]), Ok(1), "a reserved row costs no state");
        assert_eq!(rows.intern(&[2, 3]), Err(EngineStop::TooManyStates { limit: 4 }));
        assert_eq!(rows.intern(&[1, 0]), Ok(3), "a state held is still found");
        assert_eq!(rows.len(), 4);
        let mut keys = SliceTable { limit: 1, ..SliceTable::new() };
        assert_eq!(keys.intern(&[7, 8]), Ok(0));
        assert!(matches!(keys.intern(&[9]), Err(EngineStop::TooManyStates { .. })));
        assert_eq!(keys.intern(&[7, 8]), Ok(0));
    }
}
