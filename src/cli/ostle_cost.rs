//! What an Ostle solve will cost, said before it starts: one estimated to take more than half
//! an hour is refused with its estimate unless `--long` asks for it, so that `dfasolve ostle`
//! or `dfasolve explicit ostle` with the defaults (the standard 5x5 game) does not start hours
//! of work unannounced.

use super::cost::{LONG_SECONDS, duration};
use crate::games::ostle::Variant;
use crate::games::ostle::ranked::Class;
use anyhow::Result;
use std::path::Path;

/// States per board up to symmetry in the explicit solver by rank (a board's forbidden-move
/// slots), measured on 5x5: 4.47 (4 v 4) to 4.82 (5 v 5).
const STATES_PER_BOARD: f64 = 4.8;
/// States decided per second of wall per core, measured on the whole 5x5 game (the third
/// fresh solve, build 7625ed3, alone): 12.92 G states in 9,959 s on 2 cores.
const STATES_PER_CORE_SECOND: f64 = 0.65e6;
/// Bytes of tables on disk per state: 17.08 GB for the 12.92 G states of 5x5.
const DISK_BYTES_PER_STATE: f64 = 1.32;
/// Peak resident bytes per state of the class under way: 18,976,940,032 bytes for the 7.44 G
/// states of 5x5's 5 v 5 (the largest measured, a run resumed from its checkpoint).
const PEAK_BYTES_PER_STATE: f64 = 2.55;
/// Universe states above which a DFA solve is long: 5x5's 4 v 4 class alone, 6.36 G states,
/// took about 2 hours, and the classes above it compress far less.
const DFA_LONG_STATES: u128 = 1_000_000_000;

/// The estimate of an explicit solve of `classes` of `v` (those not yet in `dir`).
pub struct ExplicitCost {
    /// States of the classes still to solve.
    pub states: f64,
    /// Seconds of wall on this machine's cores.
    pub seconds: f64,
    /// Bytes of tables they add on disk.
    pub disk_bytes: f64,
    /// Peak resident bytes of the largest.
    pub peak_bytes: f64,
}

impl ExplicitCost {
    /// The cost of solving the classes of `chosen` whose tables are not in `dir` yet.
    pub fn of(v: &Variant, chosen: &[&Class], dir: &Path) -> ExplicitCost {
        let to_solve = chosen.iter().filter(|c| !crate::games::ostle::ranked::class_file(dir, c).exists());
        let states: Vec<f64> = to_solve.map(|c| c.estimated_boards(v) as f64 * STATES_PER_BOARD).collect();
        let total: f64 = states.iter().sum();
        let cores = rayon::current_num_threads().max(1) as f64;
        ExplicitCost {
            states: total,
            seconds: total / (STATES_PER_CORE_SECOND * cores),
            disk_bytes: total * DISK_BYTES_PER_STATE,
            peak_bytes: states.iter().copied().fold(0.0, f64::max) * PEAK_BYTES_PER_STATE,
        }
    }

    /// One line: states, time, disk and memory.
    pub fn text(&self) -> String {
        format!(
            "about {} states, {} on {} cores, {:.1} GB of tables, a peak of {:.1} GB",
            crate::counts::human(Some(self.states as u128)),
            duration(self.seconds),
            rayon::current_num_threads(),
            self.disk_bytes / 1e9,
            self.peak_bytes / 1e9
        )
    }

    /// Refuse a long solve unless `long`.
    pub fn refuse_unless(&self, long: bool, what: &str) -> Result<()> {
        if self.seconds > LONG_SECONDS && !long {
            anyhow::bail!(
                "{what}: {} (rates measured on 5x5); refused without --long, which starts it (a checkpoint every \
                 10 minutes; the same command resumes)",
                self.text()
            );
        }
        Ok(())
    }
}

/// Seconds of a DFA solve per universe state at least, on 2 cores: 5x5's 4 v 4 class, 6.36 G
/// states, took 85 minutes, and the classes above it compress far less.
const DFA_SECONDS_PER_STATE_AT_LEAST: f64 = 85.0 * 60.0 / 6.36e9;

/// Refuse a DFA solve of a universe of `states` that is long unless `long`, with its time
/// (at least), memory (the budget) and the explicit solver's estimate beside it.
pub fn refuse_long_dfa_solve(states: u128, long: bool, what: &str, explicit: Option<&ExplicitCost>) -> Result<()> {
    if states > DFA_LONG_STATES && !long {
        let cores = rayon::current_num_threads().max(1) as f64;
        let seconds = states as f64 * DFA_SECONDS_PER_STATE_AT_LEAST * 2.0 / cores;
        let instead = explicit.map_or(String::new(), |c| format!("; the explicit solver: {}", c.text()));
        anyhow::bail!(
            "{what}: {} states to solve with DFAs: at least {} on {} cores (5x5's 4 v 4 class, 6.36 G states, \
             took 85 min, and larger classes compress less), memory up to the budget (--max-memory), the disk of \
             its checkpoints and solution beside it; refused without --long. The explicit solver is faster here \
             (`dfasolve explicit ostle --long`{instead}), and `--census` counts without solving",
            crate::counts::human(Some(states)),
            duration(seconds),
            rayon::current_num_threads()
        );
    }
    Ok(())
}

/// Seconds of the counts of `ostle --census` per board up to symmetry on 2 cores: 37 minutes
/// for the 2,735,147,685 boards of the standard 5x5 game (the levels after them run as long
/// as `--levels-minutes` lets them, 30 minutes in the README's example).
const CENSUS_SECONDS_PER_BOARD_ON_2_CORES: f64 = 37.0 * 60.0 / 2.735e9;

/// The estimate of `ostle --census` of `v` in words, and its seconds on this machine's cores:
/// the counts, then the levels, which run at most `levels` (`None`: until they end).
pub fn census_cost(v: &Variant, levels: Option<std::time::Duration>) -> (String, f64) {
    let boards: f64 = crate::games::ostle::ranked::classes(v).iter().map(|c| c.estimated_boards(v) as f64).sum();
    let cores = rayon::current_num_threads().max(1) as f64;
    let counts = boards * CENSUS_SECONDS_PER_BOARD_ON_2_CORES * 2.0 / cores;
    // The levels walk the same boards: taken as long as the counts, within their limit.
    let levels_s = levels.map_or(counts, |d| counts.min(d.as_secs_f64()));
    let levels_text = match levels {
        Some(d) => format!(
            "then the levels, about {} (at most {}: --levels-minutes)",
            duration(levels_s),
            duration(d.as_secs_f64())
        ),
        None => format!("then the levels, about {}", duration(levels_s)),
    };
    let text = format!(
        "about {} boards up to symmetry: the counts {} on {} cores (rate measured on 5x5), {levels_text}",
        crate::counts::human(Some(boards as u128)),
        duration(counts),
        rayon::current_num_threads()
    );
    (text, counts + levels_s)
}

/// Refuse a census of `v` that is long unless `long`; otherwise say its estimate as progress.
pub fn refuse_long_census(v: &Variant, levels: Option<std::time::Duration>, long: bool, what: &str) -> Result<()> {
    let (text, seconds) = census_cost(v, levels);
    if seconds > LONG_SECONDS && !long {
        anyhow::bail!("{what} --census: {text}; refused without --long, which starts it");
    }
    crate::progress!("{what} --census: {text}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ostle::Rule;

    fn variant(width: usize, pieces: usize, lose_at: usize) -> Variant {
        Variant { width, height: width, pieces, lose_at, rule: Rule::Class }
    }

    #[test]
    fn the_standard_game_is_long_and_a_small_one_is_not() {
        let nowhere = Path::new("/nonexistent-dfasolve-tables");
        let cost = |v: &Variant| {
            let classes = crate::games::ostle::ranked::classes(v);
            ExplicitCost::of(v, &classes.iter().collect::<Vec<_>>(), nowhere)
        };
        let big = cost(&variant(5, 5, 3));
        // 12.92 G states measured; the estimate is within a few percent.
        assert!((big.states / 12.92e9 - 1.0).abs() < 0.05, "{}", big.states);
        let refused = big.refuse_unless(false, "ostle 5x5").unwrap_err().to_string();
        assert!(refused.contains("--long") && refused.contains("GB of tables"), "{refused}");
        assert!(big.refuse_unless(true, "ostle 5x5").is_ok());
        assert!(cost(&variant(4, 3, 1)).refuse_unless(false, "ostle 4x4").is_ok());
        let refused = refuse_long_dfa_solve(6_359_734_822, false, "x", Some(&big)).unwrap_err().to_string();
        assert!(refused.contains("at least ") && refused.contains("GB of tables"), "{refused}");
        assert!(refuse_long_dfa_solve(1_000_000, false, "x", None).is_ok());
        let census = refuse_long_census(&variant(5, 5, 3), None, false, "ostle 5x5").unwrap_err().to_string();
        assert!(census.contains("--long") && census.contains("boards up to symmetry"), "{census}");
        assert!(refuse_long_census(&variant(5, 5, 3), None, true, "ostle 5x5").is_ok());
        assert!(refuse_long_census(&variant(4, 3, 1), None, false, "ostle 4x4").is_ok());
    }
}
