//! Union of many sets in one pass (subset construction over shared operands).
//!
//! A chain of pairwise unions rebuilds the growing result once per operand. Instead:
//!
//! 1. **Share.** All operands are hash-consed bottom-up into one multi-rooted layered DFA: one
//!    unique table per layer, so a sub-language that several operands have in common (the
//!    normal case for the images of moves of one set) is stored once.
//! 2. **Subsets.** The result is explored top-down; a result state is a *set* of shared states
//!    (sorted, without the reject state; any accept-all member makes it accept-all). A set with
//!    one member *is* that shared state, so exploration stops there and the shared structure
//!    below it is reused as it is.
//! 3. **Intern.** Bottom-up, each explored set's row is interned into the same shared tables,
//!    and `canonicalize` keeps only what the result's initial state reaches.

use super::explored::{TUPLE, intern_explored};
use super::ids::{ScatterIds, hash_ids};
use super::limits::Stoppable;
use super::unique::{RowTable, SliceTable};
use super::{Dfa, Shape};
use rayon::prelude::*;

/// The union of all `sets` (all of one shape) in one pass.
pub(crate) fn union_all(shape: &Shape, sets: &[&Dfa]) -> Stoppable<Dfa> {
    let live: Vec<&Dfa> = sets.iter().copied().filter(|d| !d.is_empty()).collect();
    for d in &live {
        assert_eq!(d.shape(), shape, "operands of one union must share a shape");
    }
    if live.iter().any(|d| d.is_full()) {
        return Ok(Dfa::accept_all(shape));
    }
    match live.len() {
        0 => return Ok(Dfa::reject_all(shape)),
        1 => return Ok(live[0].clone()),
        _ => {}
    }
    let n = shape.len();

    // 1. Share: map every operand's states into per-layer unique tables, deepest layer first.
    let mut tables: Vec<RowTable> = (0..n).map(|l| RowTable::new(shape.alphabet(l))).collect();
    let mut maps_below: Vec<Vec<u32>> = vec![vec![0, 1]; live.len()];
    let mut row = Vec::new();
    for l in (0..n).rev() {
        let alphabet = shape.alphabet(l);
        for (k, d) in live.iter().enumerate() {
            super::limits::check_memory()?;
            let layer = &d.layers()[l];
            let below = &maps_below[k];
            let mut map = Vec::with_capacity(layer.len());
            map.extend([0, 1]);
            for s in 2..layer.len() {
                row.clear();
                row.extend(layer.raw()[s * alphabet..(s + 1) * alphabet].iter().map(|&x| below[x as usize]));
                map.push(tables[l].intern(&row)?);
            }
            maps_below[k] = map;
        }
    }
    let mut roots: Vec<u32> = live.iter().enumerate().map(|(k, d)| maps_below[k][d.initial().index()]).collect();
    drop(maps_below);
    roots.sort_unstable();
    roots.dedup();
    if roots.len() == 1 {
        return Ok(live[0].clone());
    }

    // 2. Subsets, top-down. children[l][t * alphabet + c] is a child code (see TUPLE).
    let mut children: Vec<Vec<u32>> = Vec::with_capacity(n);
    let mut current = Sets { members: roots.clone(), starts: vec![0, roots.len()] };
    for (l, table) in tables.iter().enumerate() {
        let (codes, next) = expand_sets(table.rows(), shape.alphabet(l), &current)?;
        debug_assert!(l + 1 < n || next.len() == 0, "last layer only leads to 0 or 1");
        children.push(codes);
        current = next;
    }

    // 3. Intern explored sets bottom-up into the shared tables.
    intern_explored(shape, tables, children)
}

/// Sets of shared states, stored flat: set `i` is `members[starts[i]..starts[i + 1]]`.
struct Sets {
    members: Vec<u32>,
    starts: Vec<usize>,
}

impl Sets {
    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    fn get(&self, i: usize) -> &[u32] {
        &self.members[self.starts[i]..self.starts[i + 1]]
    }
}

/// Sets expanded per work unit.
const UNIT: usize = 1 << 12;

/// One layer of the subset construction: the child code of every set of `current` on every
/// symbol, and the distinct child sets that need exploring further (numbered as in the codes).
///
/// Units of sets are expanded in parallel; their new child sets are then numbered in shards by
/// hash (equal sets meet in one shard), each shard on its own thread.
fn expand_sets(raw: &[u32], alphabet: usize, current: &Sets) -> Stoppable<(Vec<u32>, Sets)> {
    // Per unit: codes (u32::MAX marks a new child set), and the new child sets with hashes.
    let expand = |first: usize| {
        let last = (first + UNIT).min(current.len());
        let mut codes = Vec::with_capacity((last - first) * alphabet);
        let mut found = Sets { members: Vec::new(), starts: vec![0] };
        let mut hashes = Vec::new();
        let mut scratch: Vec<u32> = Vec::new();
        for t in first..last {
            let set = current.get(t);
            for c in 0..alphabet {
                scratch.clear();
                let mut accept = false;
                for &s in set {
                    let x = raw[s as usize * alphabet + c];
                    if x == 1 {
                        accept = true;
                        break;
                    }
                    if x != 0 {
                        scratch.push(x);
                    }
                }
                let code = if accept {
                    1
                } else {
                    scratch.sort_unstable();
                    scratch.dedup();
                    match scratch.len() {
                        0 => 0,
                        1 => scratch[0],
                        _ => {
                            hashes.push(hash_ids(&scratch));
                            found.members.extend_from_slice(&scratch);
                            found.starts.push(found.members.len());
                            u32::MAX
                        }
                    }
                };
                codes.push(code);
            }
        }
        (codes, found, hashes)
    };
    let firsts: Vec<usize> = (0..current.len()).step_by(UNIT).collect();
    let units: Vec<(Vec<u32>, Sets, Vec<u64>)> = if firsts.len() > 1 {
        firsts.par_iter().map(|&f| expand(f)).collect()
    } else {
        firsts.iter().map(|&f| expand(f)).collect()
    };
    // Number the new child sets: shard by hash, one table per shard.
    let total: usize = units.iter().map(|u| u.2.len()).sum();
    let shards = if total >= 2 * UNIT { 2 * rayon::current_num_threads() } else { 1 };
    let shard_of = |hash: u64| ((hash >> 32) as usize * shards) >> 32;
    let mut unit_firsts = Vec::with_capacity(units.len());
    let mut k = 0;
    for u in &units {
        unit_firsts.push(k);
        k += u.2.len();
    }
    let ids = ScatterIds::new(total);
    let number = |s: usize| {
        let mut table = SliceTable::new();
        let mut own = Vec::new();
        for (u, &first) in units.iter().zip(&unit_firsts) {
            for (i, &hash) in u.2.iter().enumerate() {
                if shard_of(hash) == s {
                    own.push((first + i, table.intern_hashed(u.1.get(i), hash)?));
                }
            }
        }
        Ok((own, table))
    };
    let tables: Vec<(Vec<(usize, u32)>, SliceTable)> = if shards > 1 {
        (0..shards).into_par_iter().map(number).collect::<Stoppable<_>>()?
    } else {
        (0..1).map(number).collect::<Stoppable<_>>()?
    };
    let mut next = Sets { members: Vec::new(), starts: vec![0] };
    for (own, table) in &tables {
        let offset = next.len() as u32;
        for &(k, id) in own {
            ids.set(k, offset + id);
        }
        for i in 0..table.len() as u32 {
            next.members.extend_from_slice(table.get(i));
            next.starts.push(next.members.len());
        }
    }
    let ids = ids.into_vec();
    let mut codes = Vec::with_capacity(current.len() * alphabet);
    let mut k = 0;
    for (unit_codes, _, _) in units {
        for code in unit_codes {
            codes.push(if code == u32::MAX {
                k += 1;
                TUPLE | ids[k - 1]
            } else {
                code
            });
        }
    }
    Ok((codes, next))
}

impl Dfa {
    /// The union of many sets of one shape, in one pass (see the module docs of `nary`).
    ///
    /// Best for many operands that share structure (the images of one set under many moves),
    /// which it unites faster than a chain of pairwise unions. The subset construction can
    /// explore far more sets than the result has states when a few large operands differ a
    /// lot, so move graphs merge their groups' images by pairwise unions in a balanced tree
    /// (`docs/engine-notes.md`, "Figures behind the code's comments").
    ///
    /// # Errors
    /// An [`EngineStop`](super::limits::EngineStop).
    ///
    /// # Panics
    /// If the sets do not all have `shape`.
    pub fn union_all(shape: &Shape, sets: &[&Dfa]) -> Stoppable<Dfa> {
        union_all(shape, sets)
    }
}
