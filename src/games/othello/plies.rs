//! Positions per ply from the start, counted explicitly: a hash set of the positions of each
//! ply. On 8x8 the forward DFA images hold about one position per DFA state in the opening,
//! so a set of 16-byte positions is the smaller representation there.
//!
//! A ply's positions are sharded by a hash of the board so that both cores insert at once; a
//! position is its discs from the mover's side, kept per colour to move (a pass is a ply: the
//! same board, the other colour to move). Two plies are held at a time.

use super::explicit::{Discs, Geometry};
use hashbrown::HashSet;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::Mutex;

/// Shards per colour to move.
const SHARDS: usize = 256;
/// Successors gathered per shard before its lock is taken.
const BATCH: usize = 256;
/// Bytes a bucket of a hash set costs: a 16-byte position and a control byte.
const BYTES_PER_BUCKET: f64 = 17.0;
/// Margin on a ply's size projected from the last ply's growth.
const PROJECTION_MARGIN: f64 = 1.1;

/// Bytes of `positions` positions in the shards' hash sets: each shard holds its share in a
/// power of two of buckets at most 7/8 full (hashbrown's layout), so a ply just past a power
/// of two costs twice the bytes of one just below it.
fn set_bytes(positions: f64) -> f64 {
    let per_shard = (positions / SHARDS as f64 * 8.0 / 7.0).ceil().max(1.0) as u64;
    SHARDS as f64 * per_shard.next_power_of_two() as f64 * BYTES_PER_BUCKET
}

/// One ply's positions: by colour to move (0: Black), by shard.
struct Ply {
    sets: [Vec<Mutex<HashSet<Discs>>>; 2],
}

impl Ply {
    fn new() -> Ply {
        let shards = || (0..SHARDS).map(|_| Mutex::new(HashSet::new())).collect();
        Ply { sets: [shards(), shards()] }
    }

    fn len(&self) -> u64 {
        self.sets.iter().flatten().map(|s| s.lock().expect("no insert panics").len() as u64).sum()
    }
}

fn shard_of(d: Discs) -> usize {
    let h = d.mover.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ d.opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> 56) as usize % SHARDS
}

/// Why a count stopped before the ply asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// Every game has ended: no position is `plies` plies from the start.
    Over {
        /// The first empty ply.
        plies: u32,
    },
    /// The next ply's estimated memory passes the budget.
    Budget {
        /// The ply not counted.
        ply: u32,
        /// The estimated bytes of its sets and the last ply's (its positions projected from
        /// the last ply's growth).
        estimated_bytes: f64,
    },
}

/// Count the positions reachable in exactly `n` plies, `n = 1, 2, ...`: `each` sees each
/// ply's count and breaks to stop. Before a ply whose sets would pass `budget` bytes
/// (estimated from the last ply's growth) it stops and says so.
pub fn count_plies(
    geometry: Geometry,
    budget: Option<u64>,
    mut each: impl FnMut(u32, u64) -> ControlFlow<()>,
) -> Option<Stop> {
    let mut ply = Ply::new();
    ply.sets[0][shard_of(geometry.start())].lock().expect("fresh").insert(geometry.start());
    let (mut last, mut before) = (1u64, 1u64);
    for n in 1.. {
        // The next ply's sets while the last ply's are still held.
        let growth = (last as f64 / before as f64).max(1.0);
        let estimated_bytes = set_bytes(last as f64 * growth * PROJECTION_MARGIN) + set_bytes(last as f64);
        if budget.is_some_and(|b| estimated_bytes > b as f64) {
            return Some(Stop::Budget { ply: n, estimated_bytes });
        }
        ply = next_ply(geometry, ply);
        let count = ply.len();
        if count == 0 {
            return Some(Stop::Over { plies: n });
        }
        (before, last) = (last, count);
        if each(n, count).is_break() {
            return None;
        }
    }
    unreachable!("the loop returns")
}

/// The positions one ply after `ply`'s (the sets of `ply` freed shard by shard).
fn next_ply(geometry: Geometry, ply: Ply) -> Ply {
    let next = Ply::new();
    for (colour, shards) in ply.sets.into_iter().enumerate() {
        shards.into_par_iter().for_each(|shard| {
            let set = shard.into_inner().expect("no insert panics");
            let mut batches: Vec<Vec<Discs>> = vec![Vec::new(); SHARDS];
            let them = 1 - colour;
            let mut pending = Vec::new();
            for d in set {
                let moves = geometry.moves(d);
                if moves.is_empty() {
                    // A pass, if the other side can move; else the game is over.
                    let passed = Geometry::pass(d);
                    if !geometry.moves(passed).is_empty() {
                        pending.push(passed);
                    }
                    continue;
                }
                for m in moves {
                    let after = geometry.play(d, m);
                    let batch = &mut batches[shard_of(after)];
                    batch.push(after);
                    if batch.len() >= BATCH {
                        next.sets[them][shard_of(after)].lock().expect("no insert panics").extend(batch.drain(..));
                    }
                }
            }
            for (s, batch) in batches.into_iter().enumerate() {
                next.sets[them][s].lock().expect("no insert panics").extend(batch);
            }
            // A pass keeps the board: the same discs seen from the other side, the other
            // colour to move.
            for p in pending {
                next.sets[them][shard_of(p)].lock().expect("no insert panics").insert(p);
            }
        });
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Othello;

    /// 8x8's first plies are OEIS A124005.
    #[test]
    fn the_first_plies_of_8x8_are_the_published_ones() {
        let mut counts = Vec::new();
        let stop = count_plies(Geometry::new(8, 8).unwrap(), None, |n, c| {
            counts.push(c);
            if n < 7 { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
        });
        assert_eq!(stop, None);
        assert_eq!(counts, [4, 12, 54, 236, 1288, 7092, 42614]);
    }

    /// On 4x4, passes and ended games included, every ply's count is the DFA forward images'.
    #[test]
    fn every_ply_of_4x4_is_the_forward_images_count() {
        let game = Othello::new(4, 4, 0).unwrap();
        let mut images = Vec::new();
        game.plies_from_start(|n, ply| {
            if n > 0 {
                images.push(ply[0].count() as u64 + ply[1].count() as u64);
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        let mut counts = Vec::new();
        let stop = count_plies(Geometry::new(4, 4).unwrap(), None, |_, c| {
            counts.push(c);
            ControlFlow::Continue(())
        });
        assert_eq!(counts, images);
        assert_eq!(stop, Some(Stop::Over { plies: images.len() as u32 + 1 }));
        let tight = count_plies(Geometry::new(4, 4).unwrap(), Some(1000), |_, _| ControlFlow::Continue(()));
        assert!(matches!(tight, Some(Stop::Budget { .. })));
    }

    /// The estimate follows hashbrown's sizes: a power of two of buckets per shard, at most
    /// 7/8 full. On 8x8 ply 12 (562,280,115 positions, 80,209,268 in ply 11) it says 19.1 GiB
    /// with ply 11's sets; the run's peak was 19.6 GiB.
    #[test]
    fn the_estimate_counts_whole_powers_of_two_of_buckets() {
        let per_shard = |b: f64| b / SHARDS as f64 / BYTES_PER_BUCKET;
        assert_eq!(per_shard(set_bytes(7.0 * SHARDS as f64)), 8.0);
        assert_eq!(per_shard(set_bytes(8.0 * SHARDS as f64)), 16.0, "past 7/8 of 8 buckets");
        let gib = (set_bytes(562_280_115.0) + set_bytes(80_209_268.0)) / f64::from(1u32 << 30);
        assert!((18.5..19.6).contains(&gib), "{gib}");
    }
}
