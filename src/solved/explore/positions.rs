//! Positions of one value: how many there are at each distance, and some of them, the first
//! in the solution's order or drawn uniformly at random.

use super::{DfaSolved, Solved};
use crate::dfa::SplitMix64;
use crate::error::{Error, Result};
use crate::solved::Games;
use crate::vocabulary::{Outcome, Side};
use std::path::Path;

/// What `positions` asks for.
#[derive(Clone, Copy, Debug)]
pub struct PositionsAsk {
    /// Wins, losses or draws.
    pub kind: ValueKind,
    /// At which distance.
    pub distance: Distance,
    /// With which side to move (`None`: either).
    pub side: Option<Side>,
    /// The first in order, or a sample.
    pub pick: Pick,
}

/// The positions `positions` found, with the solution that answers them.
pub struct Listed {
    /// The solution, to answer each position listed.
    pub solved: Box<dyn Solved>,
    /// The counts and the positions.
    pub listing: Listing,
    /// What a count counts, in the text's heading (`positions`, `states up to symmetry`).
    pub unit: &'static str,
    /// What the counts are where they are not plain positions, said under the heading.
    pub counted: Option<&'static str>,
}

/// `positions` of `path`: a format of a game's own, or a DFA solution file.
///
/// # Errors
/// The file cannot be read; a side asked of a solution whose values do not depend on it.
pub fn positions(path: &Path, ask: &PositionsAsk, games: &'static Games) -> Result<Listed> {
    if let Some(format) = games.format_of(path)? {
        return format.positions(path, ask);
    }
    let solved = DfaSolved::load(path, games)?;
    if ask.side.is_some() && solved.solution.mover_relative {
        return Err(Error::NotApplicable(format!(
            "--side: {} writes positions from the mover's view, so a value does not depend on the side to move",
            solved.game.name()
        )));
    }
    let listing = solved.positions(ask.kind, ask.distance, ask.side, ask.pick)?;
    Ok(Listed { solved: Box::new(solved), listing, unit: "positions", counted: None })
}

/// Wins, losses or draws (for the player to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    /// The player to move wins.
    Win,
    /// The player to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
}

impl crate::choice::Choice for ValueKind {
    const ALL: &'static [ValueKind] = &[ValueKind::Win, ValueKind::Loss, ValueKind::Draw];

    fn name(self) -> &'static str {
        match self {
            ValueKind::Win => "win",
            ValueKind::Loss => "loss",
            ValueKind::Draw => "draw",
        }
    }

    fn help(self) -> &'static str {
        match self {
            ValueKind::Win => "The player to move wins",
            ValueKind::Loss => "The player to move loses",
            ValueKind::Draw => "Neither side can force a win",
        }
    }
}

impl ValueKind {
    /// Whether `o` is of this kind.
    pub fn holds(self, o: Outcome) -> bool {
        matches!(
            (self, o),
            (ValueKind::Win, Outcome::Win { .. })
                | (ValueKind::Loss, Outcome::Loss { .. })
                | (ValueKind::Draw, Outcome::Draw)
        )
    }
}

/// Which distances of a kind are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distance {
    /// Every distance.
    Any,
    /// Exactly this many plies to the end.
    Exactly(u32),
    /// The longest distance any position of the kind has.
    Longest,
}

/// How the listed positions are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The first ones in the solution's order (shortest distance first), at most this many.
    First(usize),
    /// This many distinct ones drawn uniformly at random with this seed (all, if there are no
    /// more).
    Sample {
        /// How many.
        count: usize,
        /// The seed.
        seed: u64,
    },
}

impl Pick {
    /// How many at most.
    pub fn most(self) -> usize {
        match self {
            Pick::First(n) | Pick::Sample { count: n, .. } => n,
        }
    }
}

/// How many positions have one value.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// The side to move; `None` where a position's value does not depend on it (solutions
    /// whose strings are from the mover's view).
    #[serde(serialize_with = "side_text")]
    pub side: Option<Side>,
    /// The value, as every report writes it.
    pub value: String,
    /// Plies to the end, where known.
    pub plies: Option<u32>,
    /// How many positions (states, in class tables: up to symmetry) have it.
    pub count: u128,
}

/// What a listing found.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Listing {
    /// Every value of the kind asked for, with its count, shortest distance first.
    pub tallies: Vec<Tally>,
    /// The distance listed ([`Distance::Longest`] resolved); `None` for every distance.
    pub plies: Option<u32>,
    /// How many positions the listing chose from.
    pub matching: u128,
    /// The positions listed, as text.
    pub positions: Vec<String>,
}

/// The distance a [`Distance`] selects among `tallies` (`Longest`: the largest with positions).
pub fn resolve(distance: Distance, tallies: &[Tally]) -> Option<u32> {
    match distance {
        Distance::Any => None,
        Distance::Exactly(n) => Some(n),
        Distance::Longest => tallies.iter().filter(|t| t.count > 0).filter_map(|t| t.plies).max(),
    }
}

/// Draw ranks in `0..total` for `pick`: the first `n`, or `count` distinct ones uniformly at
/// random, ascending either way.
pub fn ranks(pick: Pick, total: u128) -> Vec<u128> {
    match pick {
        Pick::First(n) => (0..total.min(n as u128)).collect(),
        Pick::Sample { count, .. } if total <= count as u128 => (0..total).collect(),
        Pick::Sample { count, seed } => {
            let mut rng = SplitMix64::new(seed);
            let mut chosen = std::collections::BTreeSet::new();
            while chosen.len() < count {
                chosen.insert(rng.below(total));
            }
            chosen.into_iter().collect()
        }
    }
}

/// A side as every report writes it (`first`, `second`).
fn side_text<S: serde::Serializer>(side: &Option<Side>, to: S) -> Result<S::Ok, S::Error> {
    match side {
        Some(s) => to.serialize_str(&s.to_string()),
        None => to.serialize_none(),
    }
}

fn sort_key(t: &Tally) -> (Option<Side>, u32) {
    (t.side, t.plies.unwrap_or(u32::MAX))
}

/// A value class of a DFA solution as a listing reads it: a set, or the rest of a domain.
enum Listable<'a> {
    Set(&'a crate::solved::ValueClass),
    Rest(&'a crate::solved::RestClass),
}

impl Listable<'_> {
    fn side(&self) -> Side {
        match self {
            Listable::Set(c) => c.side,
            Listable::Rest(r) => r.side,
        }
    }

    fn outcome(&self) -> Outcome {
        match self {
            Listable::Set(c) => c.outcome,
            Listable::Rest(r) => r.outcome,
        }
    }

    fn count(&self) -> u128 {
        match self {
            Listable::Set(c) => c.set.checked_count().unwrap_or(u128::MAX),
            Listable::Rest(r) => r.positions.unwrap_or(u128::MAX),
        }
    }
}

impl DfaSolved {
    /// The positions of `kind` with `side` to move (either, if `None`): counts per distance,
    /// and those at `distance` chosen by `pick`.
    ///
    /// # Errors
    /// A sample of a class stored as the rest of a domain that is too thin a share of it
    /// ([`crate::solved::Solution::sample_rest`]).
    pub fn positions(&self, kind: ValueKind, distance: Distance, side: Option<Side>, pick: Pick) -> Result<Listing> {
        let solution = &self.solution;
        let relative = solution.mover_relative;
        let sets = solution.classes.iter().map(Listable::Set);
        let classes: Vec<Listable> = sets
            .chain(solution.rest.iter().map(Listable::Rest))
            .filter(|c| kind.holds(c.outcome()) && (relative || side.is_none_or(|s| s == c.side())))
            .collect();
        let mut tallies: Vec<Tally> = classes
            .iter()
            .map(|c| Tally {
                side: (!relative).then_some(c.side()),
                value: c.outcome().to_string(),
                plies: plies_of(c.outcome()),
                count: c.count(),
            })
            .collect();
        tallies.sort_by_key(sort_key);
        let plies = resolve(distance, &tallies);
        let mut chosen: Vec<_> =
            classes.into_iter().filter(|c| plies.is_none() || plies_of(c.outcome()) == plies).collect();
        chosen.sort_by_key(|c| (c.side(), plies_of(c.outcome()).unwrap_or(u32::MAX)));
        let counts: Vec<u128> = chosen.iter().map(Listable::count).collect();
        let matching = counts.iter().fold(0u128, |a, &n| a.saturating_add(n));
        // The ranks each class is asked for, from its start.
        let mut asked: Vec<Vec<u128>> = vec![Vec::new(); chosen.len()];
        for rank in ranks(pick, matching) {
            let (mut class, mut offset) = (0, rank);
            while offset >= counts[class] {
                offset -= counts[class];
                class += 1;
            }
            asked[class].push(offset);
        }
        let mut positions = Vec::new();
        for (i, (c, offsets)) in chosen.iter().zip(&asked).enumerate() {
            if offsets.is_empty() {
                continue;
            }
            let boards: Vec<Vec<crate::dfa::Symbol>> = match c {
                Listable::Set(c) => match c.set.sampler() {
                    Some(sampler) => offsets.iter().map(|&o| sampler.nth(o)).collect(),
                    None => continue,
                },
                // Its members have no ranks of their own: the first in the domain's order, or
                // as many distinct ones drawn uniformly.
                Listable::Rest(r) => match pick {
                    Pick::First(_) => solution.rest_members(r).take(offsets.len()).collect(),
                    Pick::Sample { .. } if Some(offsets.len() as u128) == r.positions => {
                        solution.rest_members(r).collect()
                    }
                    Pick::Sample { seed, .. } => {
                        let mut rng = SplitMix64::new(seed ^ i as u64);
                        let mut drawn = std::collections::BTreeSet::new();
                        while drawn.len() < offsets.len() {
                            drawn.extend(solution.sample_rest(r, offsets.len() - drawn.len(), &mut rng)?);
                        }
                        drawn.into_iter().collect()
                    }
                },
            };
            let side = c.side();
            positions
                .extend(boards.into_iter().map(|board| self.game.render(&crate::vocabulary::Position { side, board })));
        }
        Ok(Listing { tallies, plies, matching, positions })
    }
}

fn plies_of(o: Outcome) -> Option<u32> {
    match o {
        Outcome::Win { plies } | Outcome::Loss { plies } => plies,
        Outcome::Draw => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_the_first_or_distinct_draws() {
        assert_eq!(ranks(Pick::First(3), 10), [0, 1, 2]);
        assert_eq!(ranks(Pick::First(30), 2), [0, 1]);
        assert_eq!(ranks(Pick::Sample { count: 5, seed: 1 }, 3), [0, 1, 2]);
        let drawn = ranks(Pick::Sample { count: 5, seed: 7 }, 1000);
        assert_eq!(drawn.len(), 5);
        assert!(drawn.windows(2).all(|w| w[0] < w[1]) && drawn.iter().all(|&r| r < 1000));
        assert_eq!(drawn, ranks(Pick::Sample { count: 5, seed: 7 }, 1000), "the seed decides");
    }

    #[test]
    fn the_longest_distance_is_the_largest_with_positions() {
        let t = |plies, count| Tally { side: None, value: String::new(), plies: Some(plies), count };
        let tallies = [t(1, 5), t(3, 2), t(5, 0)];
        assert_eq!(resolve(Distance::Longest, &tallies), Some(3));
        assert_eq!(resolve(Distance::Exactly(5), &tallies), Some(5));
        assert_eq!(resolve(Distance::Any, &tallies), None);
    }
}
