//! The states of class tables with one value, as the census counts them: counts per value from
//! each class's census, and some of the states, the first in table order or drawn uniformly
//! at random.
//!
//! The tables store more states than the census counts (checkmate positions, states without a
//! forbidden move that play cannot reach, both of two mirror-image states of a symmetric
//! board). A listing draws from the stored states with the value and keeps those the census
//! counts (`counts_state` beside the census walk), so that its counts and its states agree.

use super::census::{Census, counts_state};
use super::{Solution, census, class_file, code, saved_census};
use crate::dfa::SplitMix64;
use crate::error::{Error, Result};
use crate::explicit::Exact;
use crate::solved::explore::positions::{Distance, Listing, Pick, Tally, ValueKind, resolve};
use rayon::prelude::*;

/// States per piece of a scan (a piece's count is kept, so a rank is found in one piece).
const PIECE: usize = 1 << 20;
/// Stored states tested at a time while listing.
const BATCH: usize = 1 << 12;
/// Seconds of a class census per board up to symmetry, measured on 5x5 (2.735 G boards in
/// 8,267 s of wall on 2 cores; its lookups are random reads, so more cores help little).
const CENSUS_SECONDS_PER_BOARD: f64 = 8267.0 / 2.735e9;
/// A census not saved with the tables is taken on the spot if it is this quick.
const QUICK_CENSUS_SECONDS: f64 = 60.0;

impl Solution {
    /// The census of every solved class: the one saved beside its tables, or, where none was
    /// saved, one taken now if that is quick.
    ///
    /// # Errors
    /// A saved census that is foreign or of other tables; a missing one that would take long.
    pub fn census(&self) -> Result<Census> {
        let start = super::start_board(self.rules(), &self.variant);
        let solved = super::classes(&self.variant).into_iter().filter(|c| class_file(&self.dir, c).exists());
        let mut all = Census::default();
        for (c, class) in solved.enumerate() {
            let one = match saved_census::load(&self.dir, &class)? {
                Some(saved) => saved,
                None => {
                    let seconds = class.estimated_boards(&self.variant) as f64 * CENSUS_SECONDS_PER_BOARD;
                    if seconds > QUICK_CENSUS_SECONDS {
                        return Err(Error::BadParameters(format!(
                            "{}: class {} has no saved census, and taking it would take about {:.0} min: the solve \
                             command with the same --tables writes it (the solved classes are not solved again)",
                            self.dir.display(),
                            class.name,
                            seconds / 60.0
                        )));
                    }
                    let lower = super::lower_of(&self.variant, &self.dir, &class)?;
                    census::census(self.rules(), &self.classes()[c], &lower, Some(start))
                }
            };
            all.add(&one);
        }
        Ok(all)
    }

    /// The states of `kind` (up to symmetry) that the census counts: counts per distance, and
    /// those at `distance` chosen by `pick`, as text from the mover's view (Black to move).
    ///
    /// # Errors
    /// As [`Solution::census`].
    pub fn positions(&self, kind: ValueKind, distance: Distance, pick: Pick) -> Result<Listing> {
        let tallies: Vec<Tally> = census_values(&self.census()?)
            .into_iter()
            .filter(|&(v, n)| kind.holds(v.into()) && n > 0)
            .map(|(v, n)| Tally { side: None, value: v.to_string(), plies: code::plies(v), count: n.into() })
            .collect();
        let plies = resolve(distance, &tallies);
        let matching: u128 = tallies.iter().filter(|t| plies.is_none() || t.plies == plies).map(|t| t.count).sum();
        let wanted = |v: Exact| kind.holds(v.into()) && (plies.is_none() || code::plies(v) == plies);
        let stored = self.stored(&wanted);
        let start = super::start_board(self.rules(), &self.variant);
        let counted = |&(c, k, i): &(usize, usize, u64)| {
            let (r, slot) = self.locate(c, k, i);
            counts_state(self.rules(), &self.classes()[c].kinds[k], r, slot, Some(start))
        };
        let most = match pick {
            Pick::First(n) | Pick::Sample { count: n, .. } => (n as u128).min(matching) as usize,
        };
        // Stored ranks to test, in the order they are taken: table order, or a random order
        // (without repeats) for a sample, which keeps the census's states uniformly.
        let mut order: Box<dyn Iterator<Item = u64>> = match pick {
            Pick::Sample { seed, .. } if (most as u128) < matching => Box::new(RandomOrder::new(seed, stored.total())),
            _ => Box::new(0..stored.total()),
        };
        let mut found = Vec::new();
        while found.len() < most {
            let batch: Vec<(usize, usize, u64)> = order.by_ref().take(BATCH).map(|rank| stored.index(rank)).collect();
            if batch.is_empty() {
                break;
            }
            let kept: Vec<(usize, usize, u64)> = batch.into_par_iter().filter(|s| counted(s)).collect();
            found.extend(kept.into_iter().take(most - found.len()));
        }
        found.sort_unstable();
        let positions = found.iter().map(|&(c, k, i)| self.variant.state_text(&self.state_of(c, k, i))).collect();
        Ok(Listing { tallies, plies, matching, positions })
    }

    /// The stored states whose value is `wanted`: pieces of the byte tables, then the side
    /// tables' states (empty on 5x5).
    fn stored(&self, wanted: &(dyn Fn(Exact) -> bool + Sync)) -> Stored<'_> {
        let byte_wanted: [bool; 256] =
            std::array::from_fn(|b| b != usize::from(code::OTHER_PARITY) && wanted(code::decode(b as u8)));
        let mut pieces = Vec::new();
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
        let mut before = Vec::with_capacity(pieces.len());
        let mut sum = 0u64;
        for p in &pieces {
            before.push(sum);
            sum += p.3;
        }
        let mut side = Vec::new();
        for (c, class) in self.classes().iter().enumerate() {
            for (&(k, r, slot), &v) in &class.other_parity {
                if wanted(v) {
                    let k = usize::from(k);
                    side.push((c, k, class.kinds[k].first_state(r) + u64::from(slot)));
                }
            }
        }
        side.sort_unstable();
        Stored { solution: self, byte_wanted, pieces, before, in_pieces: sum, side }
    }
}

/// The stored states with a value, numbered by rank in table order.
struct Stored<'a> {
    solution: &'a Solution,
    byte_wanted: [bool; 256],
    /// (class, kind, piece, states with the value in it), pieces holding some.
    pieces: Vec<(usize, usize, usize, u64)>,
    /// The states with the value before each piece.
    before: Vec<u64>,
    in_pieces: u64,
    side: Vec<(usize, usize, u64)>,
}

impl Stored<'_> {
    fn total(&self) -> u64 {
        self.in_pieces + self.side.len() as u64
    }

    /// The class, kind and index of the state of `rank`.
    fn index(&self, rank: u64) -> (usize, usize, u64) {
        if rank >= self.in_pieces {
            return self.side[(rank - self.in_pieces) as usize];
        }
        let piece = self.before.partition_point(|&b| b <= rank) - 1;
        let (c, k, p, _) = self.pieces[piece];
        let values = &self.solution.classes()[c].kinds[k].values;
        let start = p * PIECE;
        let within = values[start..(start + PIECE).min(values.len())]
            .iter()
            .enumerate()
            .filter(|&(_, &b)| self.byte_wanted[usize::from(b)])
            .nth((rank - self.before[piece]) as usize)
            .map(|(i, _)| i)
            .expect("the piece's count covers the rank");
        (c, k, (start + within) as u64)
    }
}

/// The numbers `0..n` in a random order without repeats, drawn as they are asked for.
struct RandomOrder {
    rng: SplitMix64,
    n: u64,
    drawn: hashbrown::HashSet<u64>,
}

impl RandomOrder {
    fn new(seed: u64, n: u64) -> RandomOrder {
        RandomOrder { rng: SplitMix64::new(seed), n, drawn: Default::default() }
    }
}

impl Iterator for RandomOrder {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.drawn.len() as u64 >= self.n {
            return None;
        }
        loop {
            let x = self.rng.below(u128::from(self.n)) as u64;
            if self.drawn.insert(x) {
                return Some(x);
            }
        }
    }
}

/// The census's non-trivial states by value: `by_d[d]` holds the values of `d + 1` plies, the
/// mover's wins for even `d`.
fn census_values(census: &Census) -> Vec<(Exact, u64)> {
    let mut values: Vec<(Exact, u64)> = census
        .by_d
        .iter()
        .enumerate()
        .map(|(d, n)| {
            let plies = d as u32 + 1;
            (if d % 2 == 0 { Exact::Win(plies) } else { Exact::Loss(plies) }, n.classes)
        })
        .collect();
    values.push((Exact::Draw, census.draws.classes));
    values
}
