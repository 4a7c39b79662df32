//! The counts of an Ostle variant that do not depend on values (`games/ostle/README.md`): positions by hole
//! class and pieces, checkmate positions, non-trivial states (and how many carry a forbidden
//! move), and breadth-first levels from the start. Computed **part by part**, a part being the
//! states with `p` pieces of the mover, `q` of the opponent and the hole in one class of
//! squares under the board's symmetries, so that no set of the whole variant is ever built: on
//! 5x5 the whole non-trivial set and the whole levels did not fit in memory, nor did parts by
//! pieces alone. Every part is closed under the symmetries (they keep piece counts and move
//! the hole within its class), so the orbit counts of the parts add up to those of the whole.

use super::super::explicit::State;
use super::super::{HOLE, HOLE_BANNED, Ostle, THEIRS, Variant};
use super::symmetry::{boards_of, boards_with, hole_classes, orbit_set, orbits, states_of_boards};
use super::{Count, SolvedSets};
use crate::dfa::limits::Stoppable;
use crate::dfa::{Dfa, Symbol};
use crate::error::{Error, Result};
use crate::game::Rules;
use crate::vocabulary::Side;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The value-free counts of a variant.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Structure {
    /// Positions (boards without a forbidden move) by hole class and (mover, opponent)
    /// pieces, then their total.
    pub positions_by_hole_and_pieces: Vec<Count>,
    /// Positions where the mover can take the opponent down to the losing count.
    pub checkmate_positions: Count,
    /// Possibly reachable states of non-checkmate positions.
    pub nontrivial_states: Count,
    /// Of those, the states that carry a forbidden move.
    pub nontrivial_with_forbidden_move: Count,
    /// Ongoing boards where the two readings of the no-undo rule differ (some move leaves a
    /// different forbidden move behind), by (mover, opponent) pieces, then their total.
    pub boards_where_readings_differ: Vec<Count>,
    /// Breadth-first levels from the start (forbidden moves not excluded).
    pub distances_from_start: Vec<Count>,
    /// Why the levels stop early, if they do (e.g. the memory budget).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distances_stopped: Option<String>,
}

pub(super) fn count(v: &Variant, what: impl Into<String>, set: &Dfa) -> Result<Count> {
    let (raw, up_to_symmetry) = orbits(v, set)?;
    Ok(Count { what: what.into(), raw, up_to_symmetry })
}

pub(super) fn add(total: &mut Count, part: &Count) {
    total.raw += part.raw;
    total.up_to_symmetry += part.up_to_symmetry;
}

fn zero(what: &str) -> Count {
    Count { what: what.into(), raw: 0, up_to_symmetry: 0 }
}

/// The boards where the readings of the no-undo rule differ, by pieces, then their total.
fn boards_where_readings_differ(game: &Ostle) -> Result<Vec<Count>> {
    let v = game.variant();
    let mut by_pieces: BTreeMap<(usize, usize), Vec<Vec<Symbol>>> = BTreeMap::new();
    for cells in v.almost_symmetric_boards() {
        let pieces = Variant::piece_counts(&cells);
        by_pieces.entry(pieces).or_default().push(v.encode(&State { cells, forbidden: None }));
    }
    let mut rows = Vec::new();
    let mut total = zero("all boards where the readings differ");
    for ((mine, theirs), strings) in by_pieces {
        let row = count(v, format!("readings differ, {mine} v {theirs}"), &Dfa::from_strings(game.shape(), &strings))?;
        add(&mut total, &row);
        rows.push(row);
    }
    rows.push(total);
    Ok(rows)
}

/// One part: its states (markers included) and its boards (no marker, game not over).
struct Part {
    states: Dfa,
    boards: Dfa,
    /// The hole's square class, by its first square.
    hole: String,
    /// The mover's and the opponent's pieces.
    mine: usize,
    theirs: usize,
}

/// The parts of `game`: the hole's square class, and pieces `(p, q)` both above the losing
/// count.
fn parts(game: &Ostle) -> Stoppable<Vec<Part>> {
    let v = game.variant();
    let (s, n, t, k) = (game.shape(), v.squares(), v.lose_at, v.pieces);
    let mover = Ostle::mover_symbols();
    let mut out = Vec::new();
    for (hole, squares) in hole_classes(v) {
        let hole_here = Dfa::from_allowed(s, |l, c| c != HOLE || squares.contains(&l));
        // Most pieces first: the order of the published table.
        for p in (t + 1..=k).rev() {
            for q in (t + 1..=k).rev() {
                let states = Dfa::conjunction(
                    s,
                    &[
                        hole_here.clone(),
                        Dfa::count_between(s, 0..n, |c| mover.contains(&c), p, p),
                        Dfa::count_between(s, 0..n, |c| c == THEIRS, q, q),
                    ],
                )?;
                let boards = boards_with(game, &squares, p, q)?;
                out.push(Part { states, boards, hole: hole.clone(), mine: p, theirs: q });
            }
        }
    }
    Ok(out)
}

/// How the breadth-first levels of a census are bounded, besides the memory budget.
#[derive(Clone, Copy, Debug)]
pub struct LevelsLimit {
    /// Stop the levels (keeping the finished ones) once they have run this long.
    pub time: Option<Duration>,
}

/// The value-free counts of `game` from the sets of its solver, levels included;
/// `on_nontrivial` sees the non-trivial states of every part (the census counts their values
/// there).
///
/// # Errors
/// [`Error::Verification`] if an orbit count does not divide exactly; what `on_nontrivial`
/// returns.
pub fn structure(
    game: &Ostle,
    sets: &SolvedSets<'_>,
    on_nontrivial: impl FnMut(&Dfa) -> Result<()>,
    limit: LevelsLimit,
) -> Result<Structure> {
    let counter = Counter::new(game, sets)?;
    let mut counted = counter.counts(on_nontrivial)?;
    (counted.distances_from_start, counted.distances_stopped) = counter.levels(limit)?;
    Ok(counted)
}

/// The census of a variant in its two steps: the counts part by part, then the breadth-first
/// levels, which take longest (so a report can show the counts first).
pub struct Counter<'a> {
    game: &'a Ostle,
    sets: &'a SolvedSets<'a>,
    parts: Vec<Part>,
    /// States where the game is over, either way.
    terminal: Dfa,
}

impl<'a> Counter<'a> {
    /// The parts of `game` and its terminal states.
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn new(game: &'a Ostle, sets: &'a SolvedSets<'a>) -> Stoppable<Self> {
        let terminal = sets.lost_terminal.union(&game.won_terminal(Side::First)?)?;
        Ok(Counter { game, sets, parts: parts(game)?, terminal })
    }

    /// Every count but the levels (left empty); `on_nontrivial` sees the non-trivial states
    /// of every part.
    ///
    /// # Errors
    /// [`Error::Verification`] if an orbit count does not divide exactly; what
    /// `on_nontrivial` returns.
    pub fn counts(&self, mut on_nontrivial: impl FnMut(&Dfa) -> Result<()>) -> Result<Structure> {
        let (game, sets, parts, terminal) = (self.game, self.sets, &self.parts, &self.terminal);
        let v = game.variant().clone();
        let t = v.lose_at;
        let mut by_hole = Vec::new();
        let mut all_positions = zero("all positions");
        for part in parts {
            let row = count(&v, format!("hole {}, {} v {}", part.hole, part.mine, part.theirs), &part.boards)?;
            add(&mut all_positions, &row);
            by_hole.push(row);
        }
        by_hole.push(all_positions);
        let start = Dfa::from_string(game.shape(), &game.initial().board);
        let n = v.squares();
        let marked = Dfa::count_between(game.shape(), 0..n, |c| c >= HOLE_BANNED, 1, 1);
        let start_reached = !sets.moves.backward_within(&start, &game.ongoing_boards()?)?.is_empty();
        let mut checkmate_positions = zero("checkmate positions");
        let mut nontrivial_states = zero("non-trivial states");
        let mut with_forbidden = zero("non-trivial states with a forbidden move");
        for (i, part) in parts.iter().enumerate() {
            // Only a move that pushes the opponent down to T pieces checkmates.
            let checkmate = if part.theirs == t + 1 {
                sets.moves.backward_within(sets.lost_terminal, &part.boards)?
            } else {
                Dfa::reject_all(game.shape())
            };
            add(&mut checkmate_positions, &count(&v, "", &checkmate)?);
            // The universe is the possibly reachable states plus the start; the start counts
            // only if some move leads to it.
            let mut reachable = sets.universe.intersection(&part.states)?;
            if !start_reached {
                reachable = reachable.difference(&start)?;
            }
            let nontrivial = reachable.difference(terminal)?.difference(&states_of_boards(game, &checkmate)?)?;
            add(&mut nontrivial_states, &count(&v, "", &nontrivial)?);
            add(&mut with_forbidden, &count(&v, "", &nontrivial.intersection(&marked)?)?);
            on_nontrivial(&nontrivial)?;
            tracing::debug!(
                target: "dfasolve::census",
                "census part {} of {}: {} checkmate boards, {} non-trivial states in {} DFA states, {} MiB resident",
                i + 1,
                parts.len(),
                checkmate.checked_count().unwrap_or(0),
                nontrivial.checked_count().unwrap_or(0),
                nontrivial.nontrivial_state_count(),
                crate::sys::resident_mib()
            );
        }
        Ok(Structure {
            positions_by_hole_and_pieces: by_hole,
            checkmate_positions,
            nontrivial_states,
            nontrivial_with_forbidden_move: with_forbidden,
            boards_where_readings_differ: boards_where_readings_differ(game)?,
            distances_from_start: Vec::new(),
            distances_stopped: None,
        })
    }

    /// The breadth-first levels from the orbit of the start, each level one set per part,
    /// within `limit` and the memory budget: the levels finished and, if they stopped early, why.
    ///
    /// # Errors
    /// [`Error::Verification`] if an orbit count does not divide exactly.
    pub fn levels(&self, limit: LevelsLimit) -> Result<(Vec<Count>, Option<String>)> {
        levels(self.game, self.sets, &self.terminal, &self.parts, limit)
    }
}

/// Breadth-first levels from the orbit of the start, each level kept as one set per part, and
/// moves that end the game not expanded. Levels are closed under symmetry, so their orbits
/// are the published levels. If the engine stops (the memory budget) or the time of `limit`
/// runs out, the levels finished so far and why.
fn levels(
    game: &Ostle,
    sets: &SolvedSets<'_>,
    terminal: &Dfa,
    parts: &[Part],
    limit: LevelsLimit,
) -> Result<(Vec<Count>, Option<String>)> {
    let v = game.variant().clone();
    let mut found = Vec::new();
    let started = Instant::now();
    let mut out_of_time: Option<Duration> = None;
    let mut run = || -> Result<()> {
        let empty = Dfa::reject_all(game.shape());
        let start = orbit_set(&v, game, &game.initial().board);
        let mut seen: Vec<Dfa> = parts.iter().map(|part| start.intersection(&part.states)).collect::<Stoppable<_>>()?;
        let mut frontier = seen.clone();
        let mut level = 0;
        while frontier.iter().any(|f| !f.is_empty()) {
            let mut here = zero(&format!("level {level}"));
            for f in &frontier {
                add(&mut here, &count(&v, "", f)?);
            }
            tracing::debug!(
                target: "dfasolve::census",
                "census level {level}: {} states ({} up to symmetry) at {:.1} s, {} MiB resident",
                here.raw,
                here.up_to_symmetry,
                started.elapsed().as_secs_f64(),
                crate::sys::resident_mib()
            );
            found.push(here);
            let mut next: Vec<Dfa> = vec![empty.clone(); parts.len()];
            for (i, f) in frontier.iter().enumerate() {
                if f.is_empty() {
                    continue;
                }
                // Checked between parts, so a level over time is dropped whole, a few seconds late.
                if let Some(time) = limit.time
                    && started.elapsed() > time
                {
                    out_of_time = Some(time);
                    return Ok(());
                }
                let expand = boards_of(game, &f.difference(terminal)?)?.intersection(&parts[i].boards)?;
                let image = sets.moves.forward(&expand)?.difference(terminal)?;
                for (j, part) in parts.iter().enumerate() {
                    let landed = image.intersection(&part.states)?;
                    if !landed.is_empty() {
                        next[j] = next[j].union(&landed.difference(&seen[j])?)?;
                    }
                }
            }
            for (s, n) in seen.iter_mut().zip(&next) {
                *s = s.union(n)?;
            }
            frontier = next;
            level += 1;
        }
        Ok(())
    };
    match run() {
        Ok(()) => {
            let why = out_of_time.map(|time: Duration| {
                let secs = time.as_secs_f64();
                let limit = if secs < 120.0 { format!("{secs:.3} s") } else { format!("{:.0} min", secs / 60.0) };
                format!("stopped after {} levels: their time limit of {limit} ran out (--levels-minutes)", found.len())
            });
            Ok((found, why))
        }
        Err(stop @ Error::OverMemoryBudget { .. }) => {
            crate::dfa::limits::clear_memory_stop();
            let why = format!("stopped after {} levels: {stop}", found.len());
            Ok((found, Some(why)))
        }
        Err(other) => Err(other),
    }
}
