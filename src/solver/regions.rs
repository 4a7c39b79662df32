//! The meet in the middle's largest step, a ply's new wins, taken one region of the ply at
//! a time ([`Region`]) so that each part fits the memory budget, and journaled part by part
//! so that a stopped run resumes inside the ply.
//!
//! A ply's new wins are the positions of `new` (the ply's positions no later ply valued)
//! with a move into any of the opponent's known losses, an image of each loss set within
//! `new`. Its tables grow with the product of the two, and on the largest boards one image
//! of a whole ply needs more than the budget. Cut into regions of `new` by the states its
//! strings pass, each image explores only the product under its region's states, and the
//! union of the regions' images is the whole: the values are the same for any cut.
//!
//! How many regions: as many as the last ply needed, grown by what its parts' memory says
//! this one will need; and a part that still passes the budget is stopped, cut in two and
//! taken again, so a run never ends on the budget here while its ply can be cut. With
//! checkpoints, also enough that each part takes about the journal's interval, judged by the
//! last ply of the same side (the two sides' plies differ 2-3x in cost): the journal saves
//! after a part once the interval has passed, so a stop loses about one part.
//!
//! The journal (`backup-NNNN-SIDE-wins`) holds the union of the finished parts and the
//! regions still to do, and names its inputs by fingerprint ([`Dfa::fingerprint`]): a
//! journal made from other sets is refused, never silently taken as this ply's.

use super::StepKey;
use super::checkpoint::Checkpoints;
use super::step_key::JournalPart;
use crate::dfa::limits::{self, EngineStop, Stoppable};
use crate::dfa::{Dfa, Region};
use crate::error::{Error, Result};
use crate::move_graph::Moves;
use crate::vocabulary::Side;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The share of the memory budget above what the process holds that one part may be
/// expected to take: the rest is headroom for the thread preparing the next ply and for
/// the misjudged part.
const PART_SHARE: f64 = 0.5;

/// A ply grows by about this much over the one after it (`docs/measurements.md`: 1.3x on
/// 6x6's backup), so its parts are planned that much larger.
const GROWTH: f64 = 1.4;

/// At most this many regions a ply is cut into for the journal's interval: each part
/// re-explores the product above its cut, and on the largest boards this keeps parts of
/// plies many hours long near the default interval.
const MAX_PACED_PARTS: usize = 64;

/// At most this many regions a ply is cut into before the run stops on the budget.
const MAX_PARTS: usize = 1 << 16;

/// What one ply's regional image found out about its parts, for the next ply's plan.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PartsSeen {
    /// How many parts the ply ended with.
    pub(super) parts: usize,
    /// The most memory one part took above what the process held as it started, in bytes.
    pub(super) largest_part: u64,
    /// The longest time one part took, in seconds.
    pub(super) longest_part_s: f64,
    /// The fewest parts to plan, whatever memory says.
    pub(super) floor: usize,
}

impl PartsSeen {
    /// As a ply's checkpoint records it.
    pub(super) fn to_record(self) -> serde_json::Value {
        serde_json::json!({ "parts": self.parts, "largest_part": self.largest_part, "longest_part_s": self.longest_part_s })
    }

    /// From a ply's checkpoint record (nothing known from an older checkpoint without one).
    pub(super) fn from_record(record: &serde_json::Value) -> PartsSeen {
        let field = |name: &str| record.get(name).and_then(serde_json::Value::as_u64).unwrap_or(0);
        let longest_part_s = record.get("longest_part_s").and_then(serde_json::Value::as_f64).unwrap_or(0.0);
        PartsSeen { parts: field("parts") as usize, largest_part: field("largest_part"), longest_part_s, floor: 1 }
    }

    /// This, planning at least `parts` parts for the next ply.
    pub(super) fn at_least(self, parts: usize) -> PartsSeen {
        PartsSeen { floor: parts, ..self }
    }

    /// This, planning at least as many parts as keep each part of the next ply near
    /// `journal_every`, if `same_side` (the last ply of the next ply's side, two plies
    /// before it) says how long its parts took. Nothing changes without a journal.
    pub(super) fn paced(self, same_side: Option<PartsSeen>, journal_every: Option<Duration>) -> PartsSeen {
        let (Some(seen), Some(every)) = (same_side, journal_every) else { return self };
        let every = every.as_secs_f64();
        if every <= 0.0 || seen.parts == 0 || seen.longest_part_s <= 0.0 {
            return self;
        }
        let expected = seen.longest_part_s * seen.parts as f64 * GROWTH * GROWTH;
        let parts = ((expected / every).ceil() as usize).clamp(1, MAX_PACED_PARTS);
        PartsSeen { floor: self.floor.max(parts), ..self }
    }

    /// How many parts the next ply should start with, given its process holds `base` bytes
    /// against the budget `budget`.
    fn plan_next(&self, base: u64, budget: u64) -> usize {
        let floor = self.floor.clamp(1, MAX_PARTS);
        if budget == 0 || self.parts == 0 {
            return floor;
        }
        let room = (budget.saturating_sub(base) as f64 * PART_SHARE).max(1.0);
        let expected = self.largest_part as f64 * self.parts as f64 * GROWTH;
        ((expected / room).ceil() as usize).clamp(floor, MAX_PARTS)
    }
}

/// The journal's record: what the image is made from and what is left of it.
#[derive(Serialize, Deserialize)]
struct Record {
    /// Fingerprints of `new` and of each loss set, in order.
    inputs: Vec<String>,
    /// The regions not yet imaged, next first.
    todo: Vec<Region>,
}

/// The positions of `new` with a move (of `moves`) into any set of `losses`, one region of
/// `new` at a time (see the module docs), journaled under ply `ply`'s side `side`.
///
/// # Errors
/// The journal cannot be read, or was made from other sets ([`Error::Mismatch`]); a part of
/// a single path still over the budget ([`Error::OverMemoryBudget`]); any other engine stop.
#[allow(clippy::too_many_arguments)]
pub(super) fn wins_by_regions(
    moves: &Moves,
    losses: &[&Dfa],
    new: &Dfa,
    checkpoints: &Checkpoints,
    ply: u32,
    side: Side,
    journal_every: Duration,
    seen_before: PartsSeen,
) -> Result<(Dfa, PartsSeen)> {
    let key = StepKey::Backup(ply).journal(side, JournalPart::Wins);
    let losses: Vec<&Dfa> = losses.iter().copied().filter(|l| !l.is_empty()).collect();
    if new.is_empty() || losses.is_empty() {
        return Ok((Dfa::reject_all(new.shape()), PartsSeen { parts: 1, ..seen_before }));
    }
    let inputs = || std::iter::once(new).chain(losses.iter().copied()).map(Dfa::fingerprint).collect::<Vec<_>>();
    let journaled = if checkpoints.enabled() { checkpoints.load_with(&key)? } else { None };
    let (inputs, next_first, mut done) = match journaled {
        Some((record, bundle)) => {
            let record: Record = serde_json::from_value(record)
                .map_err(|e| Error::Mismatch(format!("journal {key}: not a regional image's record ({e})")))?;
            let inputs = inputs();
            if record.inputs != inputs {
                return Err(Error::Mismatch(format!(
                    "journal {key} was made from other sets than this ply's (fingerprints {:?}, this ply's {:?}): \
                     remove it to compute the ply again",
                    record.inputs, inputs
                )));
            }
            let done = bundle
                .entries
                .into_iter()
                .next()
                .map(|(_, d)| d)
                .ok_or_else(|| Error::Mismatch(format!("journal {key}: no set of finished parts")))?;
            tracing::info!(target: "dfasolve::journal",
                "{key}: resuming after the regions done, {} left", record.todo.len());
            (inputs, record.todo, done)
        }
        None => {
            let parts = seen_before.plan_next(limits::resident_now(), limits::memory_budget());
            let todo = Region::parts_of(new, parts);
            let inputs = if checkpoints.enabled() { inputs() } else { Vec::new() };
            (inputs, todo, Dfa::reject_all(new.shape()))
        }
    };
    // A stack: the next region last.
    let mut todo: Vec<Region> = next_first.into_iter().rev().collect();
    let mut seen = PartsSeen { parts: todo.len(), largest_part: 0, longest_part_s: 0.0, floor: seen_before.floor };
    let mut last_save = Instant::now();
    while let Some(region) = todo.pop() {
        let base = limits::resident_now();
        let started = Instant::now();
        limits::reset_resident_peak();
        match image_within(moves, &losses, new, &region) {
            Ok(part) => {
                seen.largest_part = seen.largest_part.max(limits::resident_peak().saturating_sub(base));
                seen.longest_part_s = seen.longest_part_s.max(started.elapsed().as_secs_f64());
                done = done.union(&part)?;
            }
            Err(stop @ EngineStop::OverMemoryBudget { .. }) => {
                let Some([a, b]) = region.split(new).filter(|_| seen.parts < MAX_PARTS) else {
                    return Err(stop.into());
                };
                crate::progress!("backup ply {ply}: region {region} passed the memory budget; cut in two");
                limits::settle_under(0.9);
                limits::clear_memory_stop();
                todo.push(b);
                todo.push(a);
                seen.parts += 1;
            }
            Err(other) => return Err(other.into()),
        }
        if checkpoints.enabled() && !todo.is_empty() && last_save.elapsed() >= journal_every {
            let mut next_first = todo.clone();
            next_first.reverse();
            let record = serde_json::to_value(Record { inputs: inputs.clone(), todo: next_first })
                .map_err(|e| Error::Mismatch(format!("journal {key}: {e}")))?;
            match checkpoints.save_with(&key, &record, &[("done", &done)]) {
                Ok(()) => tracing::debug!(target: "dfasolve::solver",
                    "     journal: {key}, {} regions left, {} states done", todo.len(), done.nontrivial_state_count()),
                Err(e) => tracing::warn!("journal {key} not saved ({e}); a stop would redo the ply's parts"),
            }
            last_save = Instant::now();
        }
    }
    Ok((done, seen))
}

/// How a ply's regions are fixed when its parts are jobs of their own
/// ([`super::MeetJob`]): [`Region::parts_of`] cuts the ply into about `of` regions (fewer
/// where a region cannot be cut, more where some are cut once more than others), and part
/// `i` takes regions `i`, `i + of`, `i + 2 of`, … With `only`, just that part, saved as its
/// part file.
#[derive(Clone, Copy, Debug)]
pub(super) struct FixedParts {
    /// The regions the ply is cut into ([`Region::parts_of`]).
    pub(super) of: usize,
    /// The one region this process images (`None`: all, from their part files where made).
    pub(super) only: Option<usize>,
}

/// A part file's record: the ply's positions it was made from, and its region.
#[derive(Serialize, Deserialize)]
struct PartRecord {
    /// Fingerprint of the ply's positions still to value (`new`).
    new: String,
    /// The part's regions (none: a part past the regions the ply could be cut into, empty).
    regions: Vec<Region>,
}

/// [`wins_by_regions`] with the regions fixed by `fixed`: with `fixed.only`, the new wins
/// within that region are saved as the ply's part file and the solve stops
/// ([`Error::StoppedAsAsked`]); without, the union of every part, each read from its file
/// where one was made and imaged here where not.
///
/// # Errors
/// A part file made from another ply's positions or region ([`Error::Mismatch`]); a region of
/// a single path over the budget; checkpoint I/O; [`Error::StoppedAsAsked`] once a part is
/// saved.
#[allow(clippy::too_many_arguments)]
pub(super) fn wins_by_fixed_parts(
    moves: &Moves,
    losses: &[&Dfa],
    new: &Dfa,
    checkpoints: &Checkpoints,
    ply: u32,
    side: Side,
    fixed: FixedParts,
) -> Result<(Dfa, PartsSeen)> {
    let losses: Vec<&Dfa> = losses.iter().copied().filter(|l| !l.is_empty()).collect();
    let regions = if new.is_empty() || losses.is_empty() { Vec::new() } else { Region::parts_of(new, fixed.of) };
    let fingerprint = new.fingerprint();
    let key = |index: usize| StepKey::Backup(ply).journal(side, JournalPart::WinsPart { index, of: fixed.of });
    let mut seen = PartsSeen { parts: regions.len().max(1), ..PartsSeen::default() };
    let regions_of = |index: usize| regions.iter().skip(index).step_by(fixed.of).cloned().collect::<Vec<Region>>();
    let wins_of = |part: &[Region]| -> Result<Dfa> {
        let mut wins = Dfa::reject_all(new.shape());
        for region in part {
            let within = wins_within(moves, &losses, new, region.clone())?;
            wins = wins.union(&within)?;
        }
        Ok(wins)
    };
    if let Some(index) = fixed.only {
        let started = Instant::now();
        let mine = regions_of(index);
        let part = wins_of(&mine)?;
        let record = serde_json::to_value(PartRecord { new: fingerprint, regions: mine })
            .map_err(|e| Error::Mismatch(format!("part {}: {e}", key(index))))?;
        checkpoints.save_with(&key(index), &record, &[("wins", &part)])?;
        return Err(Error::StoppedAsAsked(format!(
            "backup ply {ply}: part {index} of {} saved ({} DFA states, {:.1} s)",
            fixed.of,
            part.state_count(),
            started.elapsed().as_secs_f64()
        )));
    }
    let mut done = Dfa::reject_all(new.shape());
    for index in 0..fixed.of {
        let mine = regions_of(index);
        let part = match checkpoints.load_with(&key(index))? {
            Some((record, bundle)) => {
                let record: PartRecord = serde_json::from_value(record)
                    .map_err(|e| Error::Mismatch(format!("{}: not a part's record ({e})", key(index))))?;
                if record.new != fingerprint || record.regions != mine {
                    return Err(Error::Mismatch(format!(
                        "part {} was made from other positions than this ply's, or another region: \
                         remove it to make it again",
                        key(index)
                    )));
                }
                bundle
                    .entries
                    .into_iter()
                    .next()
                    .map(|(_, d)| d)
                    .ok_or_else(|| Error::Mismatch(format!("part {}: no set of new wins", key(index))))?
            }
            None => {
                let started = Instant::now();
                let part = wins_of(&mine)?;
                seen.longest_part_s = seen.longest_part_s.max(started.elapsed().as_secs_f64());
                part
            }
        };
        done = done.union(&part)?;
    }
    Ok((done, seen))
}

/// Remove the part files of ply `ply`'s `of` regions: its checkpoint holds their union.
pub(super) fn remove_parts(checkpoints: &Checkpoints, ply: u32, side: Side, of: usize) {
    for index in 0..of {
        checkpoints.remove(&StepKey::Backup(ply).journal(side, JournalPart::WinsPart { index, of }));
    }
}

/// The positions of `new` within `region` with a move into any of `losses`; a region that
/// passes the memory budget is cut in two and its halves taken in turn.
fn wins_within(moves: &Moves, losses: &[&Dfa], new: &Dfa, region: Region) -> Result<Dfa> {
    let mut todo = vec![region];
    let mut done = Dfa::reject_all(new.shape());
    while let Some(region) = todo.pop() {
        match image_within(moves, losses, new, &region) {
            Ok(part) => done = done.union(&part)?,
            Err(stop @ EngineStop::OverMemoryBudget { .. }) => {
                let Some([a, b]) = region.split(new) else { return Err(stop.into()) };
                limits::settle_under(0.9);
                limits::clear_memory_stop();
                todo.push(b);
                todo.push(a);
            }
            Err(other) => return Err(other.into()),
        }
    }
    Ok(done)
}

/// The positions of `new` within `region` with a move into any of `losses` (not empty).
fn image_within(moves: &Moves, losses: &[&Dfa], new: &Dfa, region: &Region) -> Stoppable<Dfa> {
    let mut images: Vec<Dfa> =
        losses.iter().map(|l| moves.backward_within_in(l, new, region)).collect::<Stoppable<_>>()?;
    images.sort_by_key(Dfa::state_count);
    let mut images = images.into_iter();
    let first = images.next().expect("some loss set");
    images.try_fold(first, |all, image| all.union(&image))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Rules, SolverHints};
    use crate::games::fixtures::a_board_game_of_two_sides;

    /// A board game's positions three plies in (the second player to move), and half of the
    /// positions they move to (a region of them) as the losses to move into.
    fn ply_and_losses() -> (impl Game, Dfa, Dfa) {
        let game = a_board_game_of_two_sides();
        let mut set = Dfa::from_string(game.shape(), &game.initial().board);
        let mut side = game.initial().side;
        for _ in 0..3 {
            set = game.moves(side).unwrap().forward(&set).unwrap();
            side = side.other();
        }
        let next = game.moves(side).unwrap().forward(&set).unwrap();
        let losses = next.restricted_to(&Region::parts_of(&next, 2)[0]);
        (game, set, losses)
    }

    /// The wins found region by region, for any number of regions, are the wins of the
    /// whole ply; and each region's image is the whole image within that region.
    #[test]
    fn any_cut_gives_the_wins_of_the_whole_ply() {
        let (game, new, losses) = ply_and_losses();
        let moves = game.solver_moves(Side::Second).unwrap();
        let whole = moves.backward_within(&losses, &new).unwrap();
        assert!(!whole.is_empty() && whole != new);
        let none = Checkpoints::none();
        for parts in [1, 2, 3, 8, 50] {
            let seen = PartsSeen::default().at_least(parts);
            let (wins, seen) =
                wins_by_regions(&moves, &[&losses], &new, &none, 3, Side::Second, Duration::ZERO, seen).unwrap();
            assert_eq!(wins, whole, "{parts} parts");
            assert!(seen.parts >= parts.min(8), "{parts} asked, {} cut", seen.parts);
            for region in Region::parts_of(&new, parts) {
                let direct = moves.backward_within_in(&losses, &new, &region).unwrap();
                assert_eq!(direct, whole.intersection(&new.restricted_to(&region)).unwrap(), "region {region}");
            }
        }
    }

    /// A ply in fixed parts, each made by a job of its own and saved, gives the wins of the
    /// whole ply for any number of parts: every region is some part's, also where the cut
    /// makes more regions than parts; a part made from other positions is refused.
    #[test]
    fn fixed_parts_made_apart_give_the_wins_of_the_whole_ply() {
        let (game, new, losses) = ply_and_losses();
        let moves = game.solver_moves(Side::Second).unwrap();
        let whole = moves.backward_within(&losses, &new).unwrap();
        for of in [1, 2, 3, 5, 8, 16, 64] {
            let dir = crate::scratch::tempdir();
            let checkpoints = Checkpoints::new(dir.path().to_path_buf(), game.params());
            let fixed = |only| FixedParts { of, only };
            for index in 0..of {
                let made =
                    wins_by_fixed_parts(&moves, &[&losses], &new, &checkpoints, 3, Side::Second, fixed(Some(index)));
                assert!(matches!(made, Err(Error::StoppedAsAsked(_))), "{made:?}");
            }
            let (wins, _) =
                wins_by_fixed_parts(&moves, &[&losses], &new, &checkpoints, 3, Side::Second, fixed(None)).unwrap();
            assert_eq!(wins, whole, "{of} parts");
            // The same parts read against other positions of the ply: refused.
            let fewer = new.restricted_to(&Region::parts_of(&new, 2)[0]);
            let other = wins_by_fixed_parts(&moves, &[&losses], &fewer, &checkpoints, 3, Side::Second, fixed(None));
            assert!(
                matches!(&other, Err(Error::Mismatch(m)) if m.contains("other positions")),
                "{of} parts: {other:?}"
            );
            remove_parts(&checkpoints, 3, Side::Second, of);
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "the parts are removed");
        }
    }

    /// With a journal, a ply is cut into enough parts that each takes about the interval,
    /// judged from the same side's last ply grown two plies; without one, or without that
    /// ply's times, the plan is the floor alone.
    #[test]
    fn parts_are_paced_by_the_journal_interval() {
        let ten_minutes = Some(Duration::from_secs(600));
        let same_side = PartsSeen { parts: 2, largest_part: 1 << 30, longest_part_s: 600.0, floor: 1 };
        let plan = PartsSeen::default().at_least(1);
        let expected = (600.0 * 2.0 * GROWTH * GROWTH / 600.0_f64).ceil() as usize;
        assert_eq!(plan.paced(Some(same_side), ten_minutes).floor, expected);
        assert_eq!(plan.at_least(50).paced(Some(same_side), ten_minutes).floor, 50, "the floor stays");
        assert_eq!(plan.paced(Some(same_side), None).floor, 1, "no journal");
        let a_millisecond = Some(Duration::from_millis(1));
        assert_eq!(plan.paced(Some(same_side), a_millisecond).floor, MAX_PACED_PARTS, "at most");
        assert_eq!(plan.paced(Some(same_side), Some(Duration::ZERO)).floor, 1, "a journal after every group");
        assert_eq!(plan.paced(None, ten_minutes).floor, 1, "no ply of that side yet");
        let untimed = PartsSeen::from_record(&serde_json::json!({ "parts": 2, "largest_part": 1 }));
        assert_eq!(plan.paced(Some(untimed), ten_minutes).floor, 1, "a record of an older build");
        let back = PartsSeen::from_record(&same_side.to_record());
        assert_eq!((back.parts, back.largest_part, back.longest_part_s), (2, 1 << 30, 600.0));
    }

    /// A journal whose fingerprints are not those of the ply's sets is refused with an error
    /// that says so; one of the same sets is resumed to the same wins.
    #[test]
    fn a_journal_of_other_sets_is_refused() {
        let (game, new, losses) = ply_and_losses();
        let moves = game.solver_moves(Side::Second).unwrap();
        let dir = crate::scratch::tempdir();
        let checkpoints = Checkpoints::new(dir.path().to_path_buf(), game.params());
        let key = StepKey::Backup(3).journal(Side::Second, JournalPart::Wins);
        let run = || {
            let seen = PartsSeen::default().at_least(4);
            wins_by_regions(&moves, &[&losses], &new, &checkpoints, 3, Side::Second, Duration::ZERO, seen)
        };
        let regions = Region::parts_of(&new, 4);
        let done = moves.backward_within_in(&losses, &new, &regions[0]).unwrap();
        let record =
            |inputs: Vec<String>| serde_json::to_value(Record { inputs, todo: regions[1..].to_vec() }).unwrap();
        checkpoints.save_with(&key, &record(vec!["0".repeat(32), "1".repeat(32)]), &[("done", &done)]).unwrap();
        match run() {
            Err(Error::Mismatch(why)) => assert!(why.contains("other sets"), "{why}"),
            other => panic!("a journal of other sets was taken: {other:?}"),
        }
        let inputs = vec![new.fingerprint(), losses.fingerprint()];
        checkpoints.save_with(&key, &record(inputs), &[("done", &done)]).unwrap();
        assert_eq!(run().unwrap().0, moves.backward_within(&losses, &new).unwrap());
    }
}
