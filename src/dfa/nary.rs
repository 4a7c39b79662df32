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

use super::build::{RowTable, SliceTable, TUPLE, intern_explored};
use super::{Dfa, Shape};

/// The union of all `sets` (all of one shape) in one pass.
pub(crate) fn union_all(shape: &Shape, sets: &[&Dfa]) -> Dfa {
    let live: Vec<&Dfa> = sets.iter().copied().filter(|d| !d.is_empty()).collect();
    for d in &live {
        assert_eq!(d.shape(), shape, "operands of one union must share a shape");
    }
    if live.iter().any(|d| d.is_full()) {
        return Dfa::accept_all(shape);
    }
    match live.len() {
        0 => return Dfa::reject_all(shape),
        1 => return live[0].clone(),
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
            let layer = &d.layers()[l];
            let below = &maps_below[k];
            let mut map = Vec::with_capacity(layer.len());
            map.extend([0, 1]);
            for s in 2..layer.len() {
                row.clear();
                row.extend(layer.raw()[s * alphabet..(s + 1) * alphabet].iter().map(|&x| below[x as usize]));
                map.push(tables[l].intern(&row));
            }
            maps_below[k] = map;
        }
    }
    let mut roots: Vec<u32> = live.iter().enumerate().map(|(k, d)| maps_below[k][d.initial().index()]).collect();
    drop(maps_below);
    roots.sort_unstable();
    roots.dedup();
    if roots.len() == 1 {
        return live[0].clone();
    }

    // 2. Subsets, top-down. children[l][t * alphabet + c] is a child code (see TUPLE).
    let mut children: Vec<Vec<u32>> = Vec::with_capacity(n);
    let mut current = SliceTable::new();
    current.intern(&roots);
    let mut scratch: Vec<u32> = Vec::new();
    for (l, table) in tables.iter().enumerate() {
        let alphabet = shape.alphabet(l);
        let mut next = SliceTable::new();
        let mut codes = Vec::with_capacity(current.len() * alphabet);
        {
            let raw = table.rows();
            for t in 0..current.len() as u32 {
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
                                debug_assert!(l + 1 < n, "last layer only leads to 0 or 1");
                                TUPLE | next.intern(&scratch)
                            }
                        }
                    };
                    codes.push(code);
                }
            }
        }
        children.push(codes);
        current = next;
    }

    // 3. Intern explored sets bottom-up into the shared tables.
    intern_explored(shape, tables, children)
}

impl Dfa {
    /// The union of many sets of one shape, in one pass (see the module docs of `nary`).
    ///
    /// # Panics
    /// If the sets do not all have `shape`.
    pub fn union_all(shape: &Shape, sets: &[&Dfa]) -> Dfa {
        union_all(shape, sets)
    }
}
