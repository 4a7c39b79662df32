//! What an Ostle solve will cost, said before it starts: one estimated to take more than half
//! an hour is refused with its estimate unless `--long` asks for it, so that `dfasolve ostle`
//! or `dfasolve explicit ostle` with the defaults (the standard 5x5 game) does not start hours
//! of work unannounced.

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
/// What counts as long.
const LONG_SECONDS: f64 = 1800.0;
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

/// Refuse a DFA solve of a universe of `states` that is long unless `long`.
pub fn refuse_long_dfa_solve(states: u128, long: bool, what: &str) -> Result<()> {
    if states > DFA_LONG_STATES && !long {
        anyhow::bail!(
            "{what}: {} states to solve with DFAs, where a billion takes hours (5x5's 4 v 4 class alone, 6.36 G \
             states, took about 2 h); refused without --long. The explicit solver is faster here (`dfasolve \
             explicit ostle --long`), and `--census` counts without solving",
            crate::counts::human(Some(states))
        );
    }
    Ok(())
}

/// `seconds` as minutes or hours.
fn duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
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
        assert!(refuse_long_dfa_solve(6_359_734_822, false, "x").is_err());
        assert!(refuse_long_dfa_solve(1_000_000, false, "x").is_ok());
    }
}
