//! The exact final disc difference of every position reachable from the start, a byte each,
//! indexed by the position's rank in its class's universe.
//!
//! Value sets give exact differences only through a strong solve per threshold
//! (`margins.rs`: 49 solves on 4x6). Explicitly it is one pass per class of discs: a move adds
//! a disc, so the values of the positions with `d` discs read only those with `d + 1`; a pass
//! keeps the board and reads the other side's value of it. The classes' universes (their
//! reachable positions per side to move, the `universe-D.dfas` files a solve by classes saves)
//! give every position its place, its rank, so a class costs a byte per position plus its
//! universe's counts (16 bytes per DFA state), and only two classes are held at a time.
//!
//! Invariants, checked as the solve goes: every successor of a universe's position is in the
//! next class's universe (a pass's in the other side's universe of the same class), and every
//! value lies within `-squares..=squares`.

use super::difference_table::{DifferenceTable, Header, VERSION};
use super::explicit::{Discs, Geometry};
use super::sets::disc;
use super::{Othello, OthelloParams, write_board};
use crate::dfa::{Dfa, RankMemo, RankedSet, Symbol};
use crate::error::{Error, Result};
use crate::explicit::classes::{ClassStep, solve_classes};
use crate::game::Rules;
use crate::game::SolverHints;
use crate::solved::solution::{ClassUniverse, ClassValues};
use crate::vocabulary::{Outcome, Side};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::Path;

/// Not worked out yet (no real difference is this low).
const UNKNOWN: i8 = i8::MIN;
/// Positions per parallel task.
const CHUNK: usize = 1 << 14;

/// What one class's solve found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ClassReport {
    /// Discs on the board.
    pub discs: usize,
    /// Positions with Black to move and with White to move.
    pub positions: [u64; 2],
    /// DFA states of the two universes.
    pub universe_states: usize,
    /// How many positions have each final difference, from the mover's side.
    pub histogram: BTreeMap<i8, u64>,
    /// Whether its signs were compared with a solve at threshold 0, and agreed.
    pub signs_checked: bool,
}

/// A class in memory: its universes with their ranks, and its values by rank.
pub(super) struct Class {
    pub(super) universes: [RankedSet; 2],
    pub(super) values: [Vec<i8>; 2],
}

impl Class {
    /// Class `discs`'s universes and values, which must have one value per position.
    ///
    /// # Errors
    /// [`Error::Mismatch`] if the counts differ (a table of other universes).
    pub(super) fn new(discs: usize, universes: [RankedSet; 2], values: [Vec<i8>; 2]) -> Result<Class> {
        if (0..2).any(|s| universes[s].len() != values[s].len() as u128) {
            return Err(Error::Mismatch(format!("the table of {discs} discs does not match its universe")));
        }
        Ok(Class { universes, values })
    }

    /// Class `discs` of `game` from its universe file and table in `dir`.
    ///
    /// # Errors
    /// Files that cannot be read or do not belong together.
    pub(super) fn load(game: &Othello, dir: &Path, discs: usize) -> Result<Class> {
        let universes = ranked_universes(game, dir, discs)?;
        let g = game.geometry;
        let table = DifferenceTable::load(&DifferenceTable::path(dir, discs), g.width, g.height, discs)?;
        Class::new(discs, universes, table.values)
    }
}

/// Class `discs`'s universe file in `dir`, ranked.
///
/// # Errors
/// A universe file that cannot be read, or is too large to rank.
fn ranked_universes(game: &Othello, dir: &Path, discs: usize) -> Result<[RankedSet; 2]> {
    let name = discs.to_string();
    let universe = ClassUniverse::load(&ClassUniverse::path(dir, &name), &game.universe_params(), game.shape(), &name)?;
    let [black, white] = universe.sets;
    Ok([ranked(black)?, ranked(white)?])
}

/// The position of board string `word` from `side`'s view.
fn discs_of(word: &[Symbol], side: Side) -> Discs {
    let bits = |s: Symbol| word.iter().enumerate().filter(|&(_, &x)| x == s).fold(0u64, |b, (i, _)| b | 1 << i);
    Discs { mover: bits(disc(side)), opponent: bits(disc(side.other())) }
}

fn ranked(dfa: Dfa) -> Result<RankedSet> {
    let set = RankedSet::new(dfa).ok_or_else(|| Error::Mismatch("a universe too large to rank".into()))?;
    if set.len() > (isize::MAX as u128) {
        return Err(Error::Mismatch("a universe too large for a table in memory".into()));
    }
    Ok(set)
}

/// The universes of every class, made by the sweep from the start and saved in `dir` unless
/// all are there already (from this command or a solve by classes). A sweep stopped part way
/// resumes from the last class it saved (each is saved atomically).
///
/// # Errors
/// Universe files that cannot be read or written.
fn ensure_universes(game: &Othello, dir: &Path) -> Result<()> {
    let squares = game.shape().len();
    let params = game.universe_params();
    let path = |d: usize| ClassUniverse::path(dir, &d.to_string());
    if (4..=squares).all(|d| path(d).exists()) {
        return Ok(());
    }
    std::fs::create_dir_all(dir).map_err(|error| Error::Io { path: dir.to_path_buf(), error })?;
    let mut outcome = Ok(());
    let mut reached = 3;
    let mut save = |discs: usize, sets: [Dfa; 2]| {
        reached = discs;
        crate::progress!(
            "universe of {discs} discs: {} positions, {} DFA states",
            sets[0].count() + sets[1].count(),
            sets[0].state_count() + sets[1].state_count()
        );
        let file = ClassUniverse { params: params.clone(), class: discs.to_string(), sets };
        match file.save(&path(discs)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                outcome = Err(e);
                ControlFlow::Break(())
            }
        }
    };
    let saved = (4..=squares).take_while(|&d| path(d).exists()).last();
    match saved {
        Some(d) => {
            let class = ClassUniverse::load(&path(d), &params, game.shape(), &d.to_string())?;
            crate::progress!("universes resumed after the class of {d} discs");
            game.classes_from(d, class.sets, &mut save)?;
        }
        None => game.classes_from_start(&mut save)?,
    }
    outcome?;
    for d in reached + 1..=squares {
        let empty = Dfa::reject_all(game.shape());
        let file = ClassUniverse { params: params.clone(), class: d.to_string(), sets: [empty.clone(), empty] };
        file.save(&path(d))?;
    }
    Ok(())
}

/// One run of [`solve`]: the game, its directory, and the class solved last (the one above
/// the next, whose values the next class's moves read).
struct Step<'a> {
    game: &'a Othello,
    dir: &'a Path,
    upper: Option<Class>,
}

impl Step<'_> {
    /// Class `d` with its `values`, read or solved: its signs checked and its histogram made,
    /// and kept for the class below.
    fn found(&mut self, d: usize, universes: [RankedSet; 2], values: [Vec<i8>; 2]) -> Result<ClassReport> {
        let signs_checked = check_signs(self.game, self.dir, d, &values)?;
        let mut histogram = BTreeMap::new();
        for v in values.iter().flatten() {
            *histogram.entry(*v).or_insert(0) += 1;
        }
        let report = ClassReport {
            discs: d,
            positions: universes.each_ref().map(|u| u.len() as u64),
            universe_states: universes.iter().map(|u| u.dfa().state_count()).sum(),
            histogram,
            signs_checked,
        };
        self.upper = Some(Class::new(d, universes, values)?);
        Ok(report)
    }
}

impl ClassStep for Step<'_> {
    type Class = usize;
    type Found = ClassReport;
    fn name(&self, d: &usize) -> String {
        format!("of {d} discs")
    }
    fn is_solved(&self, d: &usize) -> bool {
        DifferenceTable::path(self.dir, *d).exists()
    }
    fn read(&mut self, &d: &usize) -> Result<ClassReport> {
        let OthelloParams { width, height, .. } = self.game.own_params();
        let universes = ranked_universes(self.game, self.dir, d)?;
        let values = DifferenceTable::load(&DifferenceTable::path(self.dir, d), width, height, d)?.values;
        self.found(d, universes, values)
    }
    fn solve(&mut self, &d: &usize) -> Result<ClassReport> {
        let OthelloParams { width, height, .. } = self.game.own_params();
        let universes = ranked_universes(self.game, self.dir, d)?;
        let values = solve_class(self.game.geometry, &universes, self.upper.as_ref())?;
        let positions = universes.each_ref().map(|u| u.len() as u64);
        let header = Header {
            version: VERSION,
            program: crate::PROGRAM_VERSION.into(),
            width: width as u8,
            height: height as u8,
            discs: d as u8,
            positions,
        };
        let table = DifferenceTable { header, values };
        table.save(&DifferenceTable::path(self.dir, d))?;
        self.found(d, universes, table.values)
    }
}

/// One class of [`solve`]: what it found, and what it cost.
pub type ClassRun = crate::explicit::classes::ClassRun<ClassReport>;

/// Solve every class of `game` (the reachable positions) into `dir`, the full board first,
/// reporting each class as it is done. A table already in `dir` is read, not solved again, so
/// a stopped run resumes at the class it was in. Where `dir` also holds a solve by classes
/// at threshold 0 (`class-D.dfas`), each class's signs are compared with it.
///
/// # Errors
/// File errors; [`Error::Mismatch`] if a successor is missing from its universe or the signs
/// disagree with the saved solve.
pub fn solve(game: &Othello, dir: &Path, mut each: impl FnMut(&ClassRun)) -> Result<i8> {
    let squares = game.shape().len();
    ensure_universes(game, dir)?;
    let mut step = Step { game, dir, upper: None };
    solve_classes(&mut step, (4..=squares).rev(), |run| {
        each(run);
        Ok(())
    })?;
    let class = step.upper.expect("the class of 4 discs");
    let start = game.geometry.start();
    let mut word = Vec::new();
    write_board(start, Side::First, squares, &mut word);
    let rank =
        class.universes[0].rank(&word).ok_or_else(|| Error::Mismatch("the start is not in its universe".into()))?;
    Ok(class.values[0][rank as usize])
}

/// Class `d` of `game` alone, into `dir`: one job of a plan (`docs/cluster.md`). The full
/// board's class, the first job, sweeps the universes first; a lower class reads its own
/// universe and the class above from their files, which must be there. A class whose table
/// is there already is read, not solved again.
///
/// # Errors
/// [`Error::BadParameters`] for a class outside 4 to the squares or whose inputs are missing;
/// as [`solve`] otherwise.
pub fn solve_one(game: &Othello, dir: &Path, d: usize) -> Result<ClassRun> {
    let squares = game.shape().len();
    if !(4..=squares).contains(&d) {
        return Err(Error::BadParameters(format!("{} has classes of 4 to {squares} discs, not {d}", game.name())));
    }
    let upper = if d == squares {
        ensure_universes(game, dir)?;
        None
    } else {
        let needed = [
            ClassUniverse::path(dir, &d.to_string()),
            ClassUniverse::path(dir, &(d + 1).to_string()),
            DifferenceTable::path(dir, d + 1),
        ];
        if let Some(missing) = needed.iter().find(|p| !p.exists()) {
            return Err(Error::BadParameters(format!(
                "the class of {d} discs reads the class above it: {} is not there (solve the classes from the full board down)",
                missing.display()
            )));
        }
        Some(Class::load(game, dir, d + 1)?)
    };
    let mut step = Step { game, dir, upper };
    let mut runs = solve_classes(&mut step, [d], |_| Ok(()))?;
    Ok(runs.remove(0))
}

/// The values of one class: first every position whose mover has a move (from the class
/// above), then the passes and the ends.
fn solve_class(geometry: Geometry, universes: &[RankedSet; 2], upper: Option<&Class>) -> Result<[Vec<i8>; 2]> {
    let squares = geometry.width * geometry.height;
    let mut values = universes.each_ref().map(|u| vec![UNKNOWN; u.len() as usize]);
    for side in Side::BOTH {
        let universe = &universes[side.index()];
        values[side.index()].par_chunks_mut(CHUNK).enumerate().try_for_each(|(c, chunk)| {
            let mut child = Vec::new();
            // Neighbouring positions' successors by the same square share long prefixes.
            let mut memos = vec![RankMemo::default(); squares];
            let mut cursor = universe.cursor((c * CHUNK) as u128);
            for (i, value) in chunk.iter_mut().enumerate() {
                if i > 0 {
                    cursor.advance();
                }
                let d = discs_of(cursor.word(), side);
                let moves = geometry.moves(d);
                if moves.is_empty() {
                    continue;
                }
                let upper = upper.ok_or_else(|| Error::Mismatch("a full board with a move".into()))?;
                let next = side.other().index();
                let mut best = i8::MIN;
                for m in moves {
                    write_board(geometry.play(d, m), side.other(), squares, &mut child);
                    let r = upper.universes[next].rank_with(&mut memos[m.square], &child).ok_or_else(|| {
                        Error::Mismatch(format!(
                            "a successor of a reachable position is not in its universe: {child:?}"
                        ))
                    })?;
                    best = best.max(-upper.values[next][r as usize]);
                }
                *value = best;
            }
            Ok::<(), Error>(())
        })?;
    }
    let [black, white] = &mut values;
    fill_passes(geometry, universes, Side::First, black, white)?;
    fill_passes(geometry, universes, Side::Second, white, black)?;
    let bound = squares as i8;
    if values.iter().flatten().any(|&v| !(-bound..=bound).contains(&v)) {
        return Err(Error::Mismatch("a difference outside the board's".into()));
    }
    Ok(values)
}

/// The values of `side`'s positions without a move (`mine`, the others set): a pass, valued
/// from the other side's value of the board (`theirs`, who then has a move), or the end.
fn fill_passes(
    geometry: Geometry,
    universes: &[RankedSet; 2],
    side: Side,
    mine: &mut [i8],
    theirs: &[i8],
) -> Result<()> {
    let (universe, other) = (&universes[side.index()], &universes[side.other().index()]);
    mine.par_chunks_mut(CHUNK).enumerate().try_for_each(|(c, chunk)| {
        let mut word = Vec::new();
        for (i, value) in chunk.iter_mut().enumerate().filter(|(_, v)| **v == UNKNOWN) {
            universe.member_into((c * CHUNK + i) as u128, &mut word);
            let d = discs_of(&word, side);
            *value = if geometry.moves(Geometry::pass(d)).is_empty() {
                d.mover.count_ones() as i8 - d.opponent.count_ones() as i8
            } else {
                let r = other.rank(&word).ok_or_else(|| {
                    Error::Mismatch(format!("a pass from a reachable position is not in its universe: {word:?}"))
                })?;
                -theirs[r as usize]
            };
        }
        Ok(())
    })
}

/// Compare class `d`'s signs with a solve at threshold 0 saved in `dir`, if there is one:
/// per side, the positions won, drawn and lost must be exactly its value classes' sizes.
fn check_signs(game: &Othello, dir: &Path, d: usize, values: &[Vec<i8>; 2]) -> Result<bool> {
    let path = ClassValues::path(dir, &d.to_string());
    if !path.exists() {
        return Ok(false);
    }
    let saved = ClassValues::load(&path, game, Some(&d.to_string()))?;
    if saved.mover_relative {
        return Ok(false);
    }
    for side in Side::BOTH {
        let mut theirs = [0u128; 3];
        for c in saved.values.iter().filter(|c| c.side == side) {
            let k = match c.outcome {
                Outcome::Win { .. } => 0,
                Outcome::Draw => 1,
                Outcome::Loss { .. } => 2,
            };
            theirs[k] += c.set.count();
        }
        let mut ours = [0u128; 3];
        for &v in &values[side.index()] {
            ours[usize::from(v <= 0) + usize::from(v < 0)] += 1;
        }
        if ours != theirs {
            return Err(Error::Mismatch(format!(
                "{d} discs, {side:?} to move: won/drawn/lost {ours:?} here, {theirs:?} in {}",
                path.display()
            )));
        }
    }
    Ok(true)
}

/// What [`check`] found in one class.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ClassChecked {
    /// Discs on the board.
    pub discs: usize,
    /// Positions checked.
    pub checked: u64,
    /// Whether that is every position of the class (otherwise a uniform sample).
    pub all: bool,
}

/// Check the tables in `dir` by the plain rules: in each class, every position if it has at
/// most `sample`, else `sample` drawn uniformly with `seed` (per class, over both sides); a
/// position's value must be the best of its moves' negated values read from the class above,
/// or its pass's from the other side's table, or the board's difference at the end.
///
/// # Errors
/// Files that cannot be read; [`Error::Verification`] for the first value that does not follow.
pub fn check(game: &Othello, dir: &Path, sample: u64, seed: u64) -> Result<Vec<ClassChecked>> {
    let squares = game.shape().len();
    let geometry = game.geometry;
    let mut rng = crate::dfa::SplitMix64::new(seed);
    let (mut upper, mut report): (Option<Class>, Vec<ClassChecked>) = (None, Vec::new());
    for d in (4..=squares).rev() {
        let class = Class::load(game, dir, d)?;
        let sizes = class.values.each_ref().map(|v| v.len() as u64);
        let total = sizes[0] + sizes[1];
        let all = total <= sample;
        let mut word = Vec::new();
        for (part, r) in crate::explicit::sample::draw(&sizes, sample, &mut rng) {
            let side = Side::BOTH[part];
            class.universes[side.index()].member_into(r.into(), &mut word);
            let claimed = class.values[side.index()][r as usize];
            let want = value_by_rules(geometry, &class, upper.as_ref(), side, &word)?;
            if want != claimed {
                return Err(Error::Verification(format!(
                    "{}, {side:?} to move: the table says {claimed:+}, its moves give {want:+}",
                    game.render(&crate::vocabulary::Position { side, board: word.clone() })
                )));
            }
        }
        report.push(ClassChecked { discs: d, checked: if all { total } else { sample }, all });
        upper = Some(class);
    }
    Ok(report)
}

/// The value of `side`'s position `word` in `class` from the plain rules and the values of
/// its successors (in `upper`) or of its pass (in `class`).
fn value_by_rules(geometry: Geometry, class: &Class, upper: Option<&Class>, side: Side, word: &[Symbol]) -> Result<i8> {
    let d = discs_of(word, side);
    let moves = geometry.moves(d);
    let squares = word.len();
    let missing = |what: &str| Error::Verification(format!("{what} of {word:?} is not in its universe"));
    if moves.is_empty() {
        if geometry.moves(Geometry::pass(d)).is_empty() {
            return Ok(d.mover.count_ones() as i8 - d.opponent.count_ones() as i8);
        }
        let other = side.other().index();
        let r = class.universes[other].rank(word).ok_or_else(|| missing("the pass"))?;
        return Ok(-class.values[other][r as usize]);
    }
    let upper = upper.ok_or_else(|| missing("a move"))?;
    let next = side.other().index();
    let mut child = Vec::new();
    let mut best = i8::MIN;
    for m in moves {
        write_board(geometry.play(d, m), side.other(), squares, &mut child);
        let r = upper.universes[next].rank(&child).ok_or_else(|| missing("a move"))?;
        best = best.max(-upper.values[next][r as usize]);
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::explicit::Negamax;

    /// Every reachable position's table value is the plain rules' negamax value, on boards
    /// small enough to value every position both ways; the start is the published 4x4 loss
    /// by 8 and the 3x4 win by 12 (`results/othello/sizes.csv`).
    #[test]
    fn every_reachable_difference_is_the_negamax_value() {
        for (w, h, start) in [(3, 3, -9), (4, 3, 12), (3, 4, 12), (4, 4, -8)] {
            let game = Othello::new(w, h, 0).unwrap().reachable_only();
            let dir = crate::scratch::tempdir();
            let mut reports = Vec::new();
            assert_eq!(solve(&game, dir.path(), |c| reports.push(c.clone())).unwrap(), start, "{w}x{h}");
            assert!(reports.iter().all(|c| !c.already_solved && !c.found.signs_checked));
            let mut oracle = Negamax::new(game.geometry);
            let mut word = Vec::new();
            let mut valued = 0;
            for d in 4..=w * h {
                let table = DifferenceTable::load(&DifferenceTable::path(dir.path(), d), w, h, d).unwrap();
                let params = game.universe_params();
                let universe = ClassUniverse::load(
                    &ClassUniverse::path(dir.path(), &d.to_string()),
                    &params,
                    game.shape(),
                    &d.to_string(),
                )
                .unwrap();
                for side in Side::BOTH {
                    let set = RankedSet::new(universe.sets[side.index()].clone()).unwrap();
                    for (r, &v) in table.values[side.index()].iter().enumerate() {
                        set.member_into(r as u128, &mut word);
                        assert_eq!(v, oracle.value(discs_of(&word, side)), "{w}x{h}, {word:?}, {side:?} to move");
                        valued += 1;
                    }
                }
            }
            let total: u64 = reports.iter().map(|c| c.found.positions[0] + c.found.positions[1]).sum();
            assert_eq!(valued, total);
            // A second run reads every table back and finds the same start.
            let mut again = Vec::new();
            assert_eq!(solve(&game, dir.path(), |c| again.push(c.already_solved)).unwrap(), start);
            assert!(again.iter().all(|&s| s));
        }
    }

    /// A universe that lacks a successor is refused, not valued from a wrong rank.
    #[test]
    fn a_universe_missing_a_successor_is_refused() {
        let game = Othello::new(4, 4, 0).unwrap().reachable_only();
        let dir = crate::scratch::tempdir();
        ensure_universes(&game, dir.path()).unwrap();
        let params = game.universe_params();
        let path = ClassUniverse::path(dir.path(), "10");
        let mut universe = ClassUniverse::load(&path, &params, game.shape(), "10").unwrap();
        let sampler = universe.sets[1].sampler().unwrap();
        let dropped = Dfa::from_string(game.shape(), &sampler.nth(0));
        universe.sets[1] = universe.sets[1].difference(&dropped).unwrap();
        universe.save(&path).unwrap();
        let err = solve(&game, dir.path(), |_| {}).unwrap_err();
        assert!(matches!(err, Error::Mismatch(_)), "{err}");
    }

    /// `check` passes on the tables a solve wrote and names a position whose byte was changed.
    #[test]
    fn check_follows_the_rules_and_finds_a_changed_value() {
        let game = Othello::new(4, 4, 0).unwrap().reachable_only();
        let dir = crate::scratch::tempdir();
        solve(&game, dir.path(), |_| {}).unwrap();
        let report = check(&game, dir.path(), 1_000_000, 1).unwrap();
        assert!(report.iter().all(|c| c.all));
        assert_eq!(report.iter().map(|c| c.checked).sum::<u64>(), 62789);
        assert!(check(&game, dir.path(), 5, 2).unwrap().iter().all(|c| !c.all || c.checked <= 5));
        let path = DifferenceTable::path(dir.path(), 12);
        let mut table = DifferenceTable::load(&path, 4, 4, 12).unwrap();
        table.values[1][7] = table.values[1][7].wrapping_add(2);
        table.save(&path).unwrap();
        let err = check(&game, dir.path(), 1_000_000, 1).unwrap_err();
        assert!(matches!(err, Error::Verification(_)), "{err}");
    }

    /// A sweep stopped after some classes resumes from the last one saved and makes the same
    /// universes as an unbroken one.
    #[test]
    fn a_stopped_sweep_resumes_from_its_last_class() {
        let game = Othello::new(4, 4, 0).unwrap().reachable_only();
        let (whole, broken) = (crate::scratch::tempdir(), crate::scratch::tempdir());
        ensure_universes(&game, whole.path()).unwrap();
        for d in 4..=9 {
            let name = format!("universe-{d}.dfas");
            std::fs::copy(whole.path().join(&name), broken.path().join(&name)).unwrap();
        }
        ensure_universes(&game, broken.path()).unwrap();
        let params = game.universe_params();
        for d in 4..=16 {
            let load = |dir: &Path| {
                ClassUniverse::load(&ClassUniverse::path(dir, &d.to_string()), &params, game.shape(), &d.to_string())
                    .unwrap()
                    .sets
            };
            assert_eq!(load(whole.path()), load(broken.path()), "class {d}");
        }
    }
}
