//! Meet in the middle: a shallow retrograde pass, forward ply sets pruned by it, and values
//! backed up through the plies from the last to the first. See the formulas in the module
//! docs of [`super`].

use super::meet_job::MeetJob;
use super::regions::{self, FixedParts, PartsSeen};
use super::running::{RunHome, RunManifest, RunningSet};
use super::step_key::JournalPart;
use super::{PerSide, Solver, StepKey, pass};
use crate::dfa::Dfa;
use crate::dfa::limits::{self, Stoppable};
use crate::error::{Error, Result};
use crate::move_graph::Moves;
use crate::record::{Phase, SetName};
use crate::solved::{RestClass, ValueClass};
use crate::vocabulary::{Outcome, Ply, Position, Side};
use serde::Deserialize;

/// What a meet in the middle values: the retrograde pass's classes with their distances and
/// the backup's losses ([`Met::classes`]), its wins as the rest of the positions valued
/// ([`Met::rest`]), and how many positions reachable from the start these value.
pub(super) struct Met {
    /// The retrograde pass's classes, then the backup's losses by side (in parts).
    pub classes: Vec<ValueClass>,
    /// The backup's wins by side: the forward plies' positions that no class holds.
    pub rest: Vec<RestClass>,
    /// The positions of the forward plies: the classes also hold the retrograde pass's
    /// positions that the start does not reach.
    pub reachable_valued: u128,
}

impl Solver<'_> {
    /// Value every position reachable from `initial`: retrograde `depth` plies, then forward
    /// plies pruned by it, then backup. Positions the retrograde pass decided keep their exact
    /// distance; the rest are known as win or loss.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for a game with draws; checkpoint I/O; [`Error::Mismatch`] if
    /// the wins counted ply by ply are not the positions valued less the others.
    pub(super) fn meet_in_the_middle(&mut self, initial: &Position, depth: u32) -> Result<Met> {
        if self.game.has_draws() {
            return Err(Error::BadParameters(format!("{} can be drawn: use the strong mode", self.game.name())));
        }
        let mut r = self.retrograde(Some(depth))?;
        let sides = r.win.sharing();
        let decided = r.win.try_zip_map(&r.loss, |_, w, l| w.union(l))?;
        let mut plies = self.forward_plies(initial, Some(&decided), None)?;
        let backup_moves = PerSide::try_new(sides, |s| self.moves_of_undecided(s, &decided[s]))?;
        let job = self.meet_job;
        match job.map(MeetJob::ply) {
            Some(None) => {
                let record = serde_json::json!({ "plies": plies.len() });
                self.checkpoints.save_with(&StepKey::MeetForward, &record, &[])?;
                return Err(Error::StoppedAsAsked(format!(
                    "the forward plies are done: {} plies to back up",
                    plies.len()
                )));
            }
            Some(Some(k)) if k as usize >= plies.len() => {
                return Err(Error::BadParameters(format!(
                    "{}: the backup has plies 0 to {}",
                    job.expect("a job"),
                    plies.len().saturating_sub(1)
                )));
            }
            _ => {}
        }
        // With a spill directory the finished sets lie in mapped files from here on: the
        // backup's memory is then its ply's work (`docs/measurements.md`, lever 2).
        let decided = {
            let in_memory = decided;
            PerSide::try_new(sides, |s| self.spill.keep(in_memory[s].clone()))?
        };
        r.loss = PerSide::try_new(sides, |s| self.spill.keep(r.loss[s].clone()))?;
        // The backward wins are in `decided` and are not read again.
        r.win = PerSide::new(sides, |_| Dfa::reject_all(self.game.shape()));
        for ply in &mut plies {
            *ply = self.spill.keep(std::mem::replace(ply, Dfa::reject_all(self.game.shape())))?;
        }
        // Every position of ply k + 1 is valued before ply k: each ply's successors lie
        // in the next ply. So ply k only values the positions no later ply has seen,
        // a win when it has a move into any known loss of the opponent. A position
        // recurs in many plies (Nim: in nearly all of them), and the known losses grow
        // towards the simple final set.
        // The running sets hold what the backup values, and so become the final classes as
        // they are; the retrograde pass's losses are imaged beside them. (Holding those too
        // meant a difference of each running set at the end, whose spikes were the solve's
        // peak: `docs/engine-notes.md`, the final classes.)
        let empty = Dfa::reject_all(self.game.shape());
        let run_cap = self.run_cap;
        let running = || PerSide::new(sides, |_| RunningSet::new(empty.clone(), self.spill.clone(), run_cap));
        // The backup reads only the opponent's losses, and a ply's positions are all valued:
        // its wins are its positions less its losses. So the wins are kept only as counts,
        // and the solution holds them as the rest of the plies' positions ([`RestClass`]):
        // kept as sets, they doubled the run's disk and the solution (`docs/measurements.md`).
        // Each side's new wins counted ply by ply, to check the rest's count against.
        let mut wins_counted = PerSide::new(sides, |_| Some(0u128));
        let mut count_wins = |side: Side, stats: &crate::dfa::DfaStats| {
            wins_counted[side] = wins_counted[side].zip(stats.positions).and_then(|(a, b)| a.checked_add(b));
        };
        // With checkpoints the running losses' parts are saved among them and read from
        // there: one copy on disk, which is both the spill and the checkpoint.
        let loss_home =
            |s: Side| self.checkpoints.dir().map(|dir| RunHome::new(dir.to_path_buf(), format!("running-losses-{s}")));
        // Given its home after the read-back: older checkpoints' losses are added there, and
        // their merges belong in spill files until the next ply lists what it keeps.
        let mut loss_all = running();
        // The files that held the running losses after the newest ply read back.
        let mut saved_losses: Option<PerSide<RunManifest>> = None;
        // The reachable positions the retrograde pass decided, for the count of reachable
        // positions valued (the backup values the others).
        let mut reached_decided = running();
        // Ply k's positions that the later plies have not valued, and those the retrograde
        // pass decided. Each ply's set is taken out of `plies` for this, then kept in `later`.
        // A position of ply k that a later ply j of the same side holds is one of j's
        // positions to value (the two plies' `fresh` sets agree on it), so it was valued
        // there: the positions the later plies valued are `fresh` ∩ `later`, the union of
        // those plies' forward sets. These are the solve's small sets; the running values
        // that hold the same positions are its largest, and subtracting them was the
        // backup's peak memory on 6x6 (`docs/measurements.md`).
        let unvalued = |k: usize, ply: &Dfa, ongoing: &PerSide<Dfa>, later: &PerSide<Dfa>| -> Result<(Dfa, Dfa)> {
            let s = Side::after(initial.side, Ply(k as u32));
            let fresh = ply.intersection(&ongoing[s])?.difference(&decided[s])?;
            let reached = ply.intersection(&decided[s])?;
            Ok((fresh.difference(&later[s])?, reached))
        };
        // Each ply is a chain (its positions to value, their preimage, the running
        // unions the next ply reads). The other thread meanwhile prepares the next
        // ply's positions from the forward sets of the plies after it. What is recorded per ply is
        // the positions it valued first: the whole ply's values (its wins and losses)
        // are large DFAs whose intersections took a core and most of the peak memory for a
        // record only.
        let last = plies.len().checked_sub(1);
        let mut take_ply = |k: usize| std::mem::replace(&mut plies[k], empty.clone());
        // The forward sets of the plies already backed up, by side to move.
        let mut later = PerSide::new(sides, |_| empty.clone());
        let spill = self.spill.clone();
        let add_later = |later: &mut PerSide<Dfa>, side: Side, ply: Dfa| -> Result<()> {
            let union = later[side].union(&ply)?;
            later[side] = spill.keep(union)?;
            Ok(())
        };
        // Plies an earlier run of this solve backed up (their checkpoints, from the last ply
        // down without a gap) are read back instead of computed: losing a run costs at most
        // the ply it was on.
        // What the last ply's parts took, for this ply's cut (the newest checkpoint's record),
        // and the last ply of each side, for the parts' time.
        let mut parts_seen = PartsSeen::default();
        let mut seen_by_side: [Option<PartsSeen>; 2] = [None, None];
        let mut undone = last.map_or(0, |l| l + 1);
        // Whether the newest checkpoint lists the running losses' files: they then hold the
        // losses of every ply above it, and an older build's checkpoint that also holds its
        // ply's losses is saved again without them (its figures kept).
        let newest = (0..undone).rev().take_while(|&k| self.checkpoints.exists(&backup_step(k))).last();
        let losses_listed = match newest {
            Some(k) => self
                .checkpoints
                .load_record(&backup_step(k))?
                .is_some_and(|(_, names)| names.is_empty() || names == [SetName::NewWin.as_str()]),
            None => false,
        };
        while let Some(k) = undone.checked_sub(1) {
            let step = backup_step(k);
            // The record first: the sets of a newer checkpoint stay in their file unless the
            // wins are wanted now.
            let Some((record, names)) = self.checkpoints.load_record(&step)? else { break };
            // Read from the last ply down: the newest read is the newest ply's.
            parts_seen = PartsSeen::from_record(&record);
            let side = Side::after(initial.side, Ply(k as u32));
            seen_by_side[side.index()] = Some(parts_seen);
            let not_backup = || Error::Mismatch(format!("{step}: not a backup checkpoint"));
            let load = || -> Result<Vec<(String, Dfa)>> {
                let (_, saved) = self.checkpoints.load_own_with(&step)?.ok_or_else(not_backup)?;
                Ok(saved.entries)
            };
            // A stop between the ply's checkpoint and the removal of its journal left it.
            self.checkpoints.remove(&step.journal(side, JournalPart::Wins));
            // Checkpoints of older builds also hold the ply's new wins (one build without
            // their figures), and the oldest their losses as well.
            if names.is_empty() || names == [SetName::NewWin.as_str()] {
                let mut saved = SavedPly::deserialize(&record).map_err(|_| not_backup())?;
                if saved.new_win.is_none() {
                    let [(_, win_new)]: [(String, Dfa); 1] = load()?.try_into().map_err(|_| not_backup())?;
                    saved.new_win = Some(win_new.stats());
                }
                if !names.is_empty() {
                    // The wins are the rest of the plies' positions: the checkpoint is saved
                    // again without them, and with their figures, which frees their disk.
                    self.checkpoints.save_with(&step, &saved.over(record), &[])?;
                }
                let new_win = saved.new_win.as_ref().expect("read or measured above");
                self.recorder.record_stats(Phase::Backup, k as u32, side, SetName::NewWin, new_win);
                count_wins(side, new_win);
                self.recorder.record_stats(Phase::Backup, k as u32, side, SetName::NewLoss, &saved.new_loss);
                // Empty in an older build's checkpoint saved again below (a newer one lists
                // the files).
                if !saved.losses.is_empty() {
                    saved_losses = Some(PerSide::try_new(sides, |s| {
                        saved.losses.get(&s.to_string()).cloned().ok_or_else(not_backup)
                    })?);
                }
            } else {
                // Older checkpoints hold the ply's new wins and losses, the oldest the
                // positions valued (`new`) before them.
                if saved_losses.is_some() {
                    return Err(Error::Mismatch(format!(
                        "{step}: a checkpoint of an older build below one of a newer: use another checkpoint directory"
                    )));
                }
                let mut entries = load()?;
                if entries.len() == 3 && entries[0].0 == "new" {
                    entries.remove(0);
                }
                let [(_, win_new), (_, lose_new)]: [(String, Dfa); 2] = entries.try_into().map_err(|_| not_backup())?;
                let new_win = win_new.stats();
                drop(win_new);
                self.recorder.record_stats(Phase::Backup, k as u32, side, SetName::NewWin, &new_win);
                count_wins(side, &new_win);
                let new_loss = lose_new.stats();
                self.recorder.record_stats(Phase::Backup, k as u32, side, SetName::NewLoss, &new_loss);
                if losses_listed {
                    let saved = SavedPly { new_win: Some(new_win), new_loss, losses: Default::default() };
                    self.checkpoints.save_with(&step, &saved.over(record), &[])?;
                } else {
                    loss_all[side].add(&lose_new)?;
                }
            }
            let ply = take_ply(k);
            reached_decided[side].add(&ply.intersection(&decided[side])?)?;
            add_later(&mut later, side, ply)?;
            undone = k;
        }
        loss_all = match &saved_losses {
            Some(saved) => PerSide::try_new(sides, |s| {
                let home = loss_home(s).expect("read from checkpoints");
                RunningSet::restore(&saved[s], home, self.spill.clone(), run_cap, &empty)
            })?,
            None => loss_all.into_map(|s, set| match loss_home(s) {
                Some(home) => set.at_home(home),
                None => set,
            }),
        };
        if let Some(k) = job.and_then(MeetJob::ply).map(|k| k as usize) {
            if undone <= k {
                return Err(Error::StoppedAsAsked(format!("backup ply {k} is already done")));
            }
            if undone > k + 1 {
                return Err(Error::Mismatch(format!(
                    "{}: the plies after it must be backed up first, and ply {} is not",
                    job.expect("a job"),
                    undone - 1
                )));
            }
        }
        let mut prepared = match undone.checked_sub(1) {
            Some(k) => {
                let ply = take_ply(k);
                let prepared = unvalued(k, &ply, &self.whole_made().ongoing, &later)?;
                add_later(&mut later, Side::after(initial.side, Ply(k as u32)), ply)?;
                Some(prepared)
            }
            None => None,
        };
        for k in (0..undone).rev() {
            let side = Side::after(initial.side, Ply(k as u32));
            let o = side.other();
            let (new, reached) = prepared.take().expect("prepared during the previous ply");
            reached_decided[side].add(&reached)?;
            drop(reached);
            let moves = backup_moves[side].as_ref().unwrap_or(&self.moves[side]);
            let (ongoing, later_ref, loss_ref) = (&self.whole_made().ongoing, &later, &loss_all);
            let decided_loss = &r.loss[o];
            let (checkpoints, every, seen_before) =
                (&self.checkpoints, self.journal_every, parts_seen.at_least(self.backup_parts));
            let journaled = self.checkpoints.enabled().then_some(every);
            let seen_before = seen_before.paced(seen_by_side[side.index()], journaled);
            let fixed = match job {
                Some(MeetJob::Part { ply, index, of }) if ply as usize == k => {
                    Some(FixedParts { of, only: Some(index) })
                }
                Some(MeetJob::Ply { ply, of }) if ply as usize == k => Some(FixedParts { of, only: None }),
                _ => None,
            };
            let chain = || -> Result<(Dfa, Dfa, PartsSeen)> {
                let losses: Vec<&Dfa> = loss_ref[o].parts().chain(std::iter::once(decided_loss)).collect();
                let started = std::time::Instant::now();
                let (win_new, seen) = match fixed {
                    Some(fixed) => {
                        regions::wins_by_fixed_parts(moves, &losses, &new, checkpoints, k as u32, side, fixed)?
                    }
                    None => {
                        regions::wins_by_regions(moves, &losses, &new, checkpoints, k as u32, side, every, seen_before)?
                    }
                };
                tracing::debug!(target: "dfasolve::solver",
                    "     ply {k} {side}: new wins of {} states among {} states, from losses of {:?} states, in {:.2} s",
                    win_new.nontrivial_state_count(), new.nontrivial_state_count(),
                    losses.iter().map(|l| l.nontrivial_state_count()).collect::<Vec<_>>(), started.elapsed().as_secs_f64());
                let lose_new = new.difference(&win_new)?;
                Ok((win_new, lose_new, seen))
            };
            // A job of this ply stops after it: the next ply is not prepared.
            let before = if fixed.is_some() { None } else { k.checked_sub(1).map(|j| (j, take_ply(j))) };
            let prepare = |(j, ply): &(usize, Dfa)| {
                let started = std::time::Instant::now();
                let prepared = unvalued(*j, ply, ongoing, later_ref);
                tracing::debug!(target: "dfasolve::solver", "     ply {j} prepared in {:.2} s", started.elapsed().as_secs_f64());
                prepared
            };
            // The next ply's positions are prepared beside this ply's chain. A stop for the
            // budget that the chain's parts reach stops them too: they are then prepared
            // after it, alone.
            let (chained, next) = rayon::join(chain, || before.as_ref().map(prepare));
            let (win_new, lose_new, seen) = chained?;
            if seen.parts > 1 || loss_all[o].runs() > 1 {
                crate::progress!(
                    "backup ply {k}: new wins in {} (the largest took {} MiB); the opponent's losses in {}",
                    crate::counts::counted(seen.parts as u64, "region", "regions"),
                    seen.largest_part >> 20,
                    crate::counts::counted(loss_all[o].runs() as u64, "run", "runs")
                );
            }
            parts_seen = seen;
            seen_by_side[side.index()] = Some(seen);
            let next = match next {
                Some(Err(Error::OverMemoryBudget { .. })) => {
                    limits::settle_under(0.9);
                    limits::clear_memory_stop();
                    Some(prepare(before.as_ref().expect("prepared only before a ply"))?)
                }
                next => next.transpose()?,
            };
            if let Some((j, ply)) = before {
                add_later(&mut later, Side::after(initial.side, Ply(j as u32)), ply)?;
            }
            // Each measured once: a count over the ply's largest sets.
            let (new_win, new_loss) = (win_new.stats(), lose_new.stats());
            self.recorder.record_stats(Phase::Backup, k as u32, side, SetName::NewWin, &new_win);
            self.recorder.record_stats(Phase::Backup, k as u32, side, SetName::NewLoss, &new_loss);
            count_wins(side, &new_win);
            drop(win_new);
            loss_all[side].add(&lose_new)?;
            drop(lose_new);
            if self.checkpoints.enabled() {
                // The ply's checkpoint lists the files of the running losses as they now are:
                // the files it no longer lists are removed once it is saved.
                let losses = PerSide::try_new(sides, |s| loss_all[s].persist())?;
                let saved = SavedPly {
                    new_win: Some(new_win),
                    new_loss,
                    losses: losses.iter().map(|(s, m)| (s.to_string(), m.clone())).collect(),
                };
                self.checkpoints.save_with(&backup_step(k), &saved.to_record(parts_seen), &[])?;
                for (s, manifest) in losses.iter() {
                    loss_home(s).expect("checkpoints have a directory").remove_all_but(manifest);
                }
            }
            self.checkpoints.remove(&backup_step(k).journal(side, JournalPart::Wins));
            if let Some(FixedParts { of, only: None }) = fixed {
                regions::remove_parts(&self.checkpoints, k as u32, side, of);
                return Err(Error::StoppedAsAsked(format!("backup ply {k} is done")));
            }
            prepared = next;
        }
        // Positions decided by the retrograde pass keep their exact distance; the
        // reachable rest is known as win/loss only: the losses as sets, the wins as what the
        // plies' positions (`later`, every ply now) hold besides.
        // One running set at a time, each dropped as soon as its class exists: these are the
        // solve's largest sets, and making every class while all four were held went over a
        // budget the backup had kept.
        let mut classes = pass::exact_classes(r.new_win, r.new_loss);
        let mut rest = Vec::new();
        let mut reachable_valued = 0u128;
        let counted = |set: &Dfa| set.checked_count().unwrap_or(u128::MAX);
        for ((s, reached), (_, loss)) in reached_decided.into_iter_sides().zip(loss_all.into_iter_sides()) {
            let reached = reached.into_dfa()?;
            self.recorder.record(Phase::Backup, 0, s, SetName::ReachedDecided, &reached);
            let domain = std::mem::replace(&mut later[s], empty.clone());
            let valued = counted(&domain);
            reachable_valued = reachable_valued.saturating_add(valued);
            // The domain's positions less those the retrograde pass decided and the losses.
            // Counted where the domain's count fits in a u128 (Nim 64x3's does not).
            let mut wins = Some(valued).filter(|&n| n != u128::MAX).and_then(|n| n.checked_sub(counted(&reached)));
            drop(reached);
            // A value class larger than one union can build within the budget is kept in
            // disjoint parts, each a class of the same side and value.
            // With checkpoints the parts are the running losses' files, which a saved solution
            // links rather than copies.
            let mut parts = loss.into_files()?;
            if parts.is_empty() {
                parts.push((empty.clone(), None));
            }
            for (part, file) in parts {
                let set = self.spill.keep(part)?;
                wins = wins.and_then(|n| n.checked_sub(counted(&set)));
                classes.push(ValueClass { file, ..ValueClass::new(s, Outcome::Loss { plies: None }, set) });
            }
            if wins.is_some() && wins != wins_counted[s] {
                return Err(Error::Mismatch(format!(
                    "{s} to move: the plies' new wins add up to {}, but their positions less the others are {}",
                    crate::counts::human(wins_counted[s]),
                    crate::counts::human(wins)
                )));
            }
            let positions = wins.or(wins_counted[s]);
            rest.push(RestClass { side: s, outcome: Outcome::Win { plies: None }, domain, positions });
        }
        Ok(Met { classes, rest, reachable_valued })
    }

    /// `side`'s moves without the groups that no position outside `decided` has a move of
    /// (moves that end the game at once, whose positions the retrograde pass decided), or
    /// `None` if every group has such positions or the moves are not all a graph's. A ply's
    /// new wins are positions outside `decided` with a move into a loss: those groups find
    /// none, and imaging them against the loss sets can cost as much as a group that does
    /// (Breakthrough's first side: its moves onto the last row of the string).
    fn moves_of_undecided(&self, side: Side, decided: &Dfa) -> Stoppable<Option<Moves>> {
        let (moves, made) = (&self.moves[side], self.whole_made());
        let undecided = made.ongoing[side].difference(decided)?;
        let mut idle = Vec::new();
        for group in moves.groups() {
            let Some(only) = moves.with_groups(|g| g == group) else { return Ok(None) };
            if only.backward_within(&made.universe[side.other()], &undecided)?.is_empty() {
                idle.push(group);
            }
        }
        if idle.is_empty() {
            return Ok(None);
        }
        tracing::debug!(target: "dfasolve::solver", "     {side}: the backup leaves out move groups {idle:?}, which no undecided position has");
        Ok(moves.with_groups(|g| !idle.contains(&g)))
    }
}

/// The checkpoint of backup ply `k`: the positions it valued first and their values.
fn backup_step(k: usize) -> StepKey {
    StepKey::Backup(k as u32)
}

/// The record of a backup ply's checkpoint (which holds no set): how its parts went, its new
/// wins' and new losses' figures (the losses are in the running losses' files, the wins are
/// the rest of the plies' positions) and the files that hold the running losses of each side
/// once it is done.
#[derive(serde::Serialize, serde::Deserialize)]
struct SavedPly {
    /// Not in the checkpoints of the first build that kept the losses apart.
    #[serde(default)]
    new_win: Option<crate::dfa::DfaStats>,
    new_loss: crate::dfa::DfaStats,
    /// Empty in an older build's checkpoint saved again without its sets: a newer
    /// checkpoint lists the files that hold its losses.
    #[serde(default)]
    losses: std::collections::BTreeMap<String, RunManifest>,
}

impl SavedPly {
    /// The record: the parts' figures ([`PartsSeen::to_record`]) and this.
    fn to_record(&self, parts: PartsSeen) -> serde_json::Value {
        self.over(parts.to_record())
    }

    /// `record` (the parts' figures, or an older checkpoint's whole record, which the oldest
    /// lack) with this in place of its fields of the same names.
    fn over(&self, record: serde_json::Value) -> serde_json::Value {
        let mut fields = match record {
            serde_json::Value::Object(fields) => fields,
            _ => serde_json::Map::new(),
        };
        if let serde_json::Value::Object(more) = serde_json::to_value(self).expect("plain JSON") {
            fields.extend(more);
        }
        serde_json::Value::Object(fields)
    }
}
