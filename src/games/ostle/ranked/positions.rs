//! The states of class tables with one value: counts per value from a scan of the bytes, and
//! some of them, the first in table order or drawn uniformly at random.

use super::Solution;
use super::code;
use crate::games::explore::positions::{Distance, Listing, Pick, Tally, ValueKind, ranks, resolve};
use crate::vocabulary::Outcome;
use rayon::prelude::*;

/// States per piece of a scan (a piece's count is kept, so a rank is found in one piece).
const PIECE: usize = 1 << 20;

impl Solution {
    /// How many states (up to symmetry) have each value, over every solved class.
    pub fn value_counts(&self) -> Vec<(Outcome, u64)> {
        let mut per_byte = [0u64; 256];
        let mut side: std::collections::BTreeMap<(u8, u32), u64> = Default::default();
        for class in self.classes() {
            for t in &class.kinds {
                let counted = t
                    .values
                    .par_chunks(PIECE)
                    .fold(
                        || [0u64; 256],
                        |mut n, piece| {
                            for &b in piece {
                                n[usize::from(b)] += 1;
                            }
                            n
                        },
                    )
                    .reduce(|| [0u64; 256], |a, b| std::array::from_fn(|i| a[i] + b[i]));
                for (i, n) in counted.iter().enumerate() {
                    per_byte[i] += n;
                }
            }
            for v in class.other_parity.values() {
                *side.entry(value_key(*v)).or_default() += 1;
            }
        }
        let mut counts: std::collections::BTreeMap<(u8, u32), u64> = side;
        for (b, &n) in per_byte.iter().enumerate().filter(|&(b, &n)| n > 0 && b != usize::from(code::OTHER_PARITY)) {
            *counts.entry(value_key(code::decode(b as u8))).or_default() += n;
        }
        counts.into_iter().map(|(key, n)| (from_key(key), n)).collect()
    }

    /// The states of `kind` (up to symmetry): counts per distance, and those at `distance`
    /// chosen by `pick`, as text from the mover's view (Black to move).
    pub fn positions(&self, kind: ValueKind, distance: Distance, pick: Pick) -> Listing {
        let tallies: Vec<Tally> = self
            .value_counts()
            .into_iter()
            .filter(|&(v, _)| kind.holds(v))
            .map(|(v, n)| Tally { side: None, value: v.to_string(), plies: code::plies(v), count: n.into() })
            .collect();
        let plies = resolve(distance, &tallies);
        let wanted = |v: Outcome| kind.holds(v) && (plies.is_none() || code::plies(v) == plies);
        let byte_wanted: [bool; 256] =
            std::array::from_fn(|b| b != usize::from(code::OTHER_PARITY) && wanted(code::decode(b as u8)));
        // The matching states piece by piece, then the side tables' (empty on 5x5).
        let mut pieces: Vec<(usize, usize, usize, u64)> = Vec::new();
        for (c, class) in self.classes().iter().enumerate() {
            for (k, t) in class.kinds.iter().enumerate() {
                let counts: Vec<u64> = t
                    .values
                    .par_chunks(PIECE)
                    .map(|piece| piece.iter().filter(|&&b| byte_wanted[usize::from(b)]).count() as u64)
                    .collect();
                pieces.extend(counts.into_iter().enumerate().filter(|(_, n)| *n > 0).map(|(p, n)| (c, k, p, n)));
            }
        }
        let mut side_hits: Vec<(usize, usize, u64)> = Vec::new();
        for (c, class) in self.classes().iter().enumerate() {
            for (&(k, r, slot), &v) in &class.other_parity {
                if wanted(v) {
                    let k = usize::from(k);
                    side_hits.push((c, k, class.kinds[k].first_state(r) + u64::from(slot)));
                }
            }
        }
        side_hits.sort_unstable();
        let in_pieces: u64 = pieces.iter().map(|p| p.3).sum();
        let matching = u128::from(in_pieces) + side_hits.len() as u128;
        let mut positions = Vec::new();
        let (mut piece, mut before) = (0usize, 0u64);
        for rank in ranks(pick, matching) {
            let (c, k, i) = if rank >= u128::from(in_pieces) {
                side_hits[(rank - u128::from(in_pieces)) as usize]
            } else {
                let rank = rank as u64;
                while before + pieces[piece].3 <= rank {
                    before += pieces[piece].3;
                    piece += 1;
                }
                let (c, k, p, _) = pieces[piece];
                let values = &self.classes()[c].kinds[k].values;
                let start = p * PIECE;
                let within = values[start..(start + PIECE).min(values.len())]
                    .iter()
                    .enumerate()
                    .filter(|&(_, &b)| byte_wanted[usize::from(b)])
                    .nth((rank - before) as usize)
                    .map(|(i, _)| i)
                    .expect("the piece's count covers the rank");
                (c, k, (start + within) as u64)
            };
            positions.push(self.variant.state_text(&self.state_of(c, k, i)));
        }
        Listing { tallies, plies, matching, positions }
    }
}

/// An order on values: wins, then losses, then draws, each by distance.
fn value_key(v: Outcome) -> (u8, u32) {
    match v {
        Outcome::Win { plies: Some(n) } => (0, n),
        Outcome::Loss { plies: Some(n) } => (1, n),
        Outcome::Draw => (2, 0),
        Outcome::Win { plies: None } | Outcome::Loss { plies: None } => {
            unreachable!("the explicit solvers know every distance")
        }
    }
}

fn from_key((kind, n): (u8, u32)) -> Outcome {
    match kind {
        0 => Outcome::Win { plies: Some(n) },
        1 => Outcome::Loss { plies: Some(n) },
        _ => Outcome::Draw,
    }
}
