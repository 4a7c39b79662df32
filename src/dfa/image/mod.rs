//! The image of a set under many moves at once, in one pass (a relational product).
//!
//! `S.image_union(moves, within)` is `within ∩ ⋃_m post_m ∩ change_m(S ∩ pre_m)`. Computing
//! each move's image separately and then uniting them costs one full product per move and a
//! union that re-shares all of them. Here the result is explored once, top-down: a result state
//! is the within-state `w` plus a *set of elements*, each element one way the output prefix read
//! so far can come from an input prefix of `S`:
//!
//! * `R(s)` for a *suffix set* `R` (see [`SuffixAutomaton`]): the moves without conditions that
//!   are still to be completed, grouped by what is left for them to change. Until a move
//!   changes something, input and output agree, so all those moves share one element.
//! * `move m (s, p, q)`: a move with conditions, stepped on its own: `S`-state `s`,
//!   `pre_m`-state `p` (reading input symbols) and `post_m`-state `q` (reading output symbols).
//! * `DONE(s)`: some move has made all its changes and passed its conditions; from here input
//!   and output agree, so the residual is `S`'s state `s`. All moves meet here, which is what
//!   keeps the sets small.
//!
//! Layer by layer each element steps on the output symbol (reading the input symbol its move
//! implies), elements that reach `REJECT` are dropped, and the set is sorted and deduplicated.
//! A set that is exactly `{DONE(s)}` with `w = ACCEPT` *is* `S`'s state `s`: the result points
//! into `S`'s own structure there instead of re-exploring it. Only the states of `S` the result
//! reaches that way are copied into its tables ([`super::reached`]): an image of a large `S` within a
//! small set then costs what it explores, not the size of `S`. Bottom-up interning and
//! canonicalisation finish as in every operation.

mod plan;

use super::explored::{TUPLE, intern_packed};
use super::limits::Stoppable;
use super::packed::PackedCodes;
use super::unique::{SliceTable, Slices};
use super::{Dfa, Region, Symbol};
use plan::DONE;
pub use plan::{Background, Move, MovePlan};
use rayon::prelude::*;

/// Tags at or above this are conditional moves under way: tag `COND + m`.
const COND: u32 = 1 << 30;
/// Elements are `[tag, s, p, q]`: tag a suffix set id (free moves, `p = q = 1`) or `COND + m`.
type Element = [u32; 4];
/// One chunk of a layer explored: its child codes, its new keys, and the states of `S` its
/// direct codes point to (sorted, distinct).
type Explored = (Vec<u32>, SliceTable, Vec<u32>);

impl Dfa {
    /// `within ∩ ⋃_m post_m ∩ change_m(self ∩ pre_m)` in one pass (see the module docs).
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    ///
    /// # Panics
    /// If shapes differ or a move changes a layer twice or outside the shape.
    pub fn image_union(&self, moves: &[Move], within: Option<&Dfa>) -> Stoppable<Dfa> {
        self.image_union_over(moves, within, &Background::identity())
    }

    /// [`Dfa::image_union`] where the layers a move leaves alone are read through
    /// `background` instead of copied.
    ///
    /// # Panics
    /// As [`Dfa::image_union`].
    pub fn image_union_over(&self, moves: &[Move], within: Option<&Dfa>, background: &Background) -> Stoppable<Dfa> {
        self.image_planned(&MovePlan::new(self.shape(), moves, background.clone()), within)
    }

    /// The image of `self` under a prepared [`MovePlan`], within `within`.
    ///
    /// # Panics
    /// If shapes differ.
    pub fn image_planned(&self, plan: &MovePlan, within: Option<&Dfa>) -> Stoppable<Dfa> {
        self.image_planned_in(plan, within, &Region::whole())
    }

    /// [`Dfa::image_planned`] within `region` of `within` only: the members of the image in
    /// that part of `within` ([`Region`]), explored without a copy of the part.
    ///
    /// # Panics
    /// If shapes differ, or a region is given without `within`.
    pub fn image_planned_in(&self, plan: &MovePlan, within: Option<&Dfa>, region: &Region) -> Stoppable<Dfa> {
        assert!(within.is_some() || region.is_whole(), "a region is a part of `within`");
        let shape = self.shape();
        assert_eq!(&plan.shape, shape, "the plan is for another shape");
        let background = &plan.background;
        // With a one-to-one-per-output background, completed moves read the preimage `P` of
        // the set under the map, so the result can point into `P` as it can into the set.
        let exact = background.is_identity() || background.map.is_some();
        if let Some(w) = within {
            assert_eq!(w.shape(), shape);
        }
        let w0 = within.map_or(1, |w| w.initial().0);
        if self.is_empty() || w0 == 0 || plan.moves.is_empty() {
            return Ok(Dfa::reject_all(shape));
        }
        let n = shape.len();
        if n == 0 {
            // The empty string is in S and within; every move of no changes keeps it.
            let ok = plan
                .moves
                .iter()
                .any(|m| m.pre.as_ref().is_none_or(Dfa::is_full) && m.post.as_ref().is_none_or(Dfa::is_full));
            return Ok(if ok { Dfa::accept_all(shape) } else { Dfa::reject_all(shape) });
        }

        // Root set.
        let s0 = self.initial().0;
        let mut root: Vec<Element> = Vec::new();
        for &r in &plan.free.root {
            root.push([r, s0, 1, 1]);
        }
        for &m in &plan.conditional {
            let mv = &plan.moves[m];
            let p = mv.pre.as_ref().map_or(1, |d| d.initial().0);
            let q = mv.post.as_ref().map_or(1, |d| d.initial().0);
            if p == 0 || q == 0 {
                continue;
            }
            if plan.last_change[m].is_none() && p == 1 && q == 1 {
                root.push([DONE, s0, 1, 1]);
            } else {
                root.push([COND + m as u32, s0, p, q]);
            }
        }
        root.sort_unstable();
        root.dedup();
        let mut key = vec![w0];
        match classify(&mut root, w0, exact) {
            Class::Reject => return Ok(Dfa::reject_all(shape)),
            Class::Accept => return Ok(Dfa::accept_all(shape)),
            Class::Direct(_) => match &background.map {
                None => return Ok(self.clone()),
                Some(map) => return self.preimage_symbols(&map.iter().cloned().map(Some).collect::<Vec<_>>()),
            },
            Class::Explore => encode(&root, &mut key),
        }

        // Forward: explore sets layer by layer.
        let started = std::time::Instant::now();
        let mut children: Vec<PackedCodes> = Vec::with_capacity(n);
        // `direct[d]`: the states of `S` at depth `d` that child codes point to.
        let mut direct: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        let mut current: Slices = {
            let mut root = SliceTable::new();
            root.intern(&key)?;
            root.into_slices()
        };
        for l in 0..n {
            let alphabet = shape.alphabet(l);
            let last = l + 1 == n;
            let cut = region.cut_at(l + 1).map(|c| c.lo..c.hi);
            // New keys are numbered in a table per chunk (`TUPLE | local id`), so a chunk holds
            // each distinct key once however many children share it; the tables are merged
            // into the layer's after. (Writing every child's key out and interning them all
            // sequentially held a copy per child: most of an image's peak memory.)
            let expand = |t: u32,
                          codes: &mut Vec<u32>,
                          local: &mut SliceTable,
                          elems: &mut Vec<Element>,
                          pending: &mut Vec<u32>,
                          pointed: &mut Vec<u32>|
             -> Stoppable<()> {
                let key = current.get(t);
                let w = key[0];
                for c in 0..alphabet {
                    let w2 = match within {
                        None => 1,
                        Some(d) => d.layers()[l].next(super::StateId(w), c as Symbol).0,
                    };
                    if w2 == 0 || cut.as_ref().is_some_and(|c| !c.contains(&w2)) {
                        codes.push(0);
                        continue;
                    }
                    elems.clear();
                    decode(&key[1..], |e| step(self, plan, l, c as Symbol, e, elems));
                    elems.sort_unstable();
                    elems.dedup();
                    match classify(elems, w2, exact || last) {
                        Class::Reject => codes.push(0),
                        Class::Accept => codes.push(1),
                        Class::Direct(s) => {
                            if s >= 2 {
                                pointed.push(s);
                            }
                            codes.push(s);
                        }
                        Class::Explore => {
                            debug_assert!(!last, "every element is settled at the end of the string");
                            pending.clear();
                            pending.push(w2);
                            encode(elems, pending);
                            codes.push(TUPLE | local.intern(pending)?);
                        }
                    }
                }
                Ok(())
            };
            // Larger chunks find more of a layer's duplicate keys locally, which leaves fewer
            // for the sequential merge, whose lookups in the layer's table miss the cache:
            // 2^14 keys beat 2^12 by about 15% on Ostle 5x5 passes, 2^16 gained nothing more.
            const CHUNK: u32 = 1 << 14;
            let count = current.len() as u32;
            let run = |range: std::ops::Range<u32>| {
                let (mut codes, mut local, mut elems, mut pending, mut pointed) =
                    (Vec::with_capacity(range.len() * alphabet), SliceTable::new(), Vec::new(), Vec::new(), Vec::new());
                for t in range {
                    expand(t, &mut codes, &mut local, &mut elems, &mut pending, &mut pointed)?;
                }
                pointed.sort_unstable();
                pointed.dedup();
                Ok((codes, local, pointed))
            };
            let mut next = SliceTable::new();
            let mut layer_codes = Vec::with_capacity(count as usize * alphabet);
            let pointed_next = &mut direct[l + 1];
            let mut merge = |parts: Vec<Explored>| -> Stoppable<()> {
                for (codes, local, pointed) in parts {
                    pointed_next.extend(pointed);
                    let global: Vec<u32> =
                        super::limits::collect_stoppable((0..local.len() as u32).map(|i| next.intern(local.get(i))))?;
                    drop(local);
                    layer_codes.extend(
                        codes.into_iter().map(|code| {
                            if code & TUPLE != 0 { TUPLE | global[(code & !TUPLE) as usize] } else { code }
                        }),
                    );
                }
                Ok(())
            };
            if count >= 2 * CHUNK {
                // Chunks run in parallel a batch at a time. Merging is sequential, so a batch
                // is merged while the next one is explored (the merging thread steals
                // exploration work when it is done): at most two batches' chunk tables exist
                // besides the layer's own.
                const BATCH: u32 = 16;
                let chunks = count.div_ceil(CHUNK);
                let mut waiting: Option<Vec<Explored>> = None;
                for first in (0..chunks).step_by(BATCH as usize) {
                    let explore = || {
                        (first..(first + BATCH).min(chunks))
                            .into_par_iter()
                            .map(|chunk| run(chunk * CHUNK..((chunk + 1) * CHUNK).min(count)))
                            .collect::<Stoppable<Vec<Explored>>>()
                    };
                    let parts = match waiting.take() {
                        None => explore()?,
                        Some(done) => {
                            let (parts, merged) = rayon::join(explore, || merge(done));
                            merged?;
                            parts?
                        }
                    };
                    waiting = Some(parts);
                }
                if let Some(done) = waiting {
                    merge(done)?;
                }
            } else {
                merge(vec![run(0..count)?])?;
            }
            if tracing::enabled!(target: "dfasolve::image::layers", tracing::Level::TRACE) {
                let total: usize = (0..next.len() as u32).map(|t| next.get(t).len()).sum();
                tracing::trace!(target: "dfasolve::image::layers",
                    "  layer {l}: {} keys, {:.1} u32 per key, {} MiB resident",
                    next.len(),
                    total as f64 / next.len().max(1) as f64,
                    crate::sys::resident_mib()
                );
            }
            children.push(PackedCodes::pack(alphabet, layer_codes));
            direct[l + 1].sort_unstable();
            direct[l + 1].dedup();
            current = next.into_slices();
        }

        let trace = tracing::enabled!(target: "dfasolve::image", tracing::Level::DEBUG);
        if trace {
            let explored: usize = children.iter().map(PackedCodes::len).sum();
            let packed: usize = children.iter().map(PackedCodes::bytes).sum();
            tracing::debug!(target: "dfasolve::image",
                "image_union: S {} states, within {:?}, {} moves, {} child codes ({} MiB packed) in {:.1} s, {} MiB resident",
                self.nontrivial_state_count(),
                within.map(|w| w.nontrivial_state_count()),
                plan.moves.len(),
                explored,
                packed >> 20,
                started.elapsed().as_secs_f64(),
                crate::sys::resident_mib()
            );
        }
        // Backward: intern rows into tables preloaded with the states of S (or of its preimage
        // under the map) that direct codes reach, and point the codes at them.
        let (tables, ids) = super::reached::reached_tables(self, background.map.as_deref(), direct)?;
        let result = intern_packed(shape, tables, children, &ids)?;
        if trace {
            tracing::debug!(target: "dfasolve::image",
                "image_union: result {} states at {:.1} s, {} MiB resident",
                result.nontrivial_state_count(),
                started.elapsed().as_secs_f64(),
                crate::sys::resident_mib()
            );
        }
        Ok(result)
    }
}

/// Append elements to a key compactly: free elements as `[tag, s]` (their `p`, `q` are 1),
/// conditional ones as `[tag, s, p, q]`. Keys are hashed and compared as slices, so shorter
/// keys are faster.
fn encode(elems: &[Element], key: &mut Vec<u32>) {
    for e in elems {
        if e[0] < COND {
            key.extend_from_slice(&e[..2]);
        } else {
            key.extend_from_slice(e);
        }
    }
}

/// The elements of a key written by [`encode`].
#[inline]
fn decode(mut key: &[u32], mut f: impl FnMut(Element)) {
    while !key.is_empty() {
        if key[0] < COND {
            f([key[0], key[1], 1, 1]);
            key = &key[2..];
        } else {
            f([key[0], key[1], key[2], key[3]]);
            key = &key[4..];
        }
    }
}

enum Class {
    Reject,
    Accept,
    /// The set is `{DONE(s)}` under an accept-all within-state: `S`'s own state `s`.
    Direct(u32),
    Explore,
}

/// Settle a sorted, deduplicated element set: empty rejects; `DONE(ACCEPT)` absorbs the rest.
///
/// `exact`: the rest of the string is read as it is (identity background, or the end of the
/// string), so `S`'s accept-all state really accepts everything and `S`'s states can be used
/// as they are. Under a relabelling background neither holds before the end.
fn classify(elems: &mut Vec<Element>, w: u32, exact: bool) -> Class {
    if elems.is_empty() {
        return Class::Reject;
    }
    if !exact {
        return Class::Explore;
    }
    if elems.iter().any(|e| e[0] == DONE && e[1] == 1) {
        if w == 1 {
            return Class::Accept;
        }
        elems.clear();
        elems.push([DONE, 1, 1, 1]);
        return Class::Explore;
    }
    if w == 1 && elems.len() == 1 && elems[0][0] == DONE {
        return Class::Direct(elems[0][1]);
    }
    Class::Explore
}

/// Step one element on output symbol `c` at layer `l`, pushing its successors.
#[inline]
fn step(s_dfa: &Dfa, plan: &MovePlan, l: usize, c: Symbol, e: Element, out: &mut Vec<Element>) {
    let layer = &s_dfa.layers()[l];
    let next_s = |input: Symbol| layer.next(super::StateId(e[1]), input).0;
    if e[0] < COND {
        for &(input, r) in &plan.free.next[l][e[0] as usize][c as usize] {
            let s2 = next_s(input);
            if s2 != 0 {
                out.push([r, s2, 1, 1]);
            }
        }
        return;
    }
    let m = (e[0] - COND) as usize;
    let inputs = match plan.change_at(m, l) {
        Some(ch) if ch.to == c => std::slice::from_ref(&ch.from),
        Some(_) => return,
        None => plan.background.inputs(l, c),
    };
    for &input in inputs {
        let s2 = next_s(input);
        if s2 == 0 {
            continue;
        }
        let mv = &plan.moves[m];
        let p2 = mv.pre.as_ref().map_or(1, |d| d.layers()[l].next(super::StateId(e[2]), input).0);
        let q2 = mv.post.as_ref().map_or(1, |d| d.layers()[l].next(super::StateId(e[3]), c).0);
        if p2 == 0 || q2 == 0 {
            continue;
        }
        let changes_done = plan.last_change[m].is_none_or(|last| last <= l);
        if changes_done && p2 == 1 && q2 == 1 {
            out.push([DONE, s2, 1, 1]);
        } else {
            out.push([e[0], s2, p2, q2]);
        }
    }
}
