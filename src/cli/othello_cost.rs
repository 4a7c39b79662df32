//! What an Othello job will cost ([`Estimate`]): the runs in `results/othello/` scaled by the
//! positions a board's start reaches.

use super::cost::Estimate;

/// What the estimates scale.
const BASIS: &str = "the runs measured on 4x5 to 5x5";

/// log10 of the positions reachable from the start (both sides to move) by squares: counted
/// up to 25 squares (3x3, 4x3, 4x4, 4x5, 4x6, 5x5), extrapolated above from the class
/// universes made to 16-17 discs on 5x6, 4x8 and 6x6 (`results/othello/sizes.csv`).
const REACHABLE_LOG10: [(f64, f64); 9] = [
    (9.0, 1.672),
    (12.0, 2.582),
    (16.0, 4.798),
    (20.0, 6.698),
    (24.0, 8.580),
    (25.0, 9.253),
    (30.0, 11.6),
    (32.0, 12.0),
    (36.0, 14.0),
];
/// Growth per square past the last anchor (8x8 then comes out near 10^28, the usual estimate).
const LOG10_PER_SQUARE: f64 = 0.5;
/// Seconds of a DFA solve per position on 2 cores: 4x5 (4.99 M positions) in 48 s, 4x6 by
/// classes (380 M) in 5,439 s.
const DFA_SECONDS_PER_POSITION: f64 = 1.2e-5;
/// Peak memory of a DFA solve: 269 MiB on 4x5, growing as positions^0.68 (4x6's whole universe
/// passed 5 GiB before its first retrograde step).
const DFA_PEAK: (f64, f64, f64) = (4.99e6, 269.0 * 1048576.0, 0.68);
/// A solve over every board (`--strong`) compresses far better: 4x4's 17.0 M boards in 13.9 s
/// at a peak of 109 MiB.
const STRONG_SECONDS_PER_POSITION: f64 = 8.2e-7;
/// Peak memory of a solve over every board, growing as the reachable solve's.
const STRONG_PEAK: (f64, f64, f64) = (17.0e6, 109.0 * 1048576.0, 0.68);
/// Seconds of `--differences` per position on 2 cores: 5x5 (1.79 G) in 3,671 s, 6x4 (380 M)
/// in 1,105 s.
const DIFFERENCE_SECONDS_PER_POSITION: f64 = 2.5e-6;
/// Peak memory of `--differences`: 5.92 GiB on 5x5, 2.28 GiB on 6x4 (positions^0.62).
const DIFFERENCE_PEAK: (f64, f64, f64) = (1.79e9, 5.92 * 1073741824.0, 0.62);
/// Disk of `--differences` per position, tables and universes: 4.99 GB for 5x5's 1.79 G.
const DIFFERENCE_DISK_PER_POSITION: f64 = 2.8;

/// Which Othello job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// One solve over the positions the start reaches.
    Reachable,
    /// One solve over every board whose centre holds discs.
    Strong,
    /// The start's exact difference: the solves of a binary search over thresholds.
    Margin,
    /// Every threshold, each a solve.
    Margins,
    /// Exact differences by rank, one explicit pass per class.
    Differences,
}

/// The positions the start of a board of `squares` reaches, about.
pub fn reachable_positions(squares: usize) -> f64 {
    let s = squares as f64;
    let last = REACHABLE_LOG10[REACHABLE_LOG10.len() - 1];
    let log10 = if s >= last.0 {
        last.1 + (s - last.0) * LOG10_PER_SQUARE
    } else if s <= REACHABLE_LOG10[0].0 {
        REACHABLE_LOG10[0].1
    } else {
        let i = REACHABLE_LOG10.iter().position(|&(q, _)| q > s).expect("inside the anchors");
        let ((a, la), (b, lb)) = (REACHABLE_LOG10[i - 1], REACHABLE_LOG10[i]);
        la + (lb - la) * (s - a) / (b - a)
    };
    10f64.powf(log10)
}

/// The estimate of `job` on a board of `squares`.
pub fn estimate(job: Job, squares: usize) -> Estimate {
    let cores = rayon::current_num_threads().max(1) as f64;
    let scaled = |(p0, b0, e): (f64, f64, f64), p: f64| b0 * (p / p0).powf(e);
    let reachable = reachable_positions(squares);
    // Every board with discs on its four centre squares, either side to move.
    let strong = 2f64.powi(5) * 3f64.powi(squares as i32 - 4);
    let thresholds = 2 * squares + 1;
    let (positions, solves) = match job {
        Job::Reachable => (reachable, 1.0),
        Job::Strong => {
            return Estimate {
                positions: strong,
                seconds: strong * STRONG_SECONDS_PER_POSITION * 2.0 / cores,
                peak_bytes: scaled(STRONG_PEAK, strong),
                disk_bytes: None,
                basis: BASIS,
            };
        }
        Job::Margin => (reachable, (thresholds as f64).log2().ceil()),
        Job::Margins => (reachable, thresholds as f64),
        Job::Differences => {
            return Estimate {
                positions: reachable,
                seconds: reachable * DIFFERENCE_SECONDS_PER_POSITION * 2.0 / cores,
                peak_bytes: scaled(DIFFERENCE_PEAK, reachable),
                disk_bytes: Some(reachable * DIFFERENCE_DISK_PER_POSITION),
                basis: BASIS,
            };
        }
    };
    Estimate {
        positions,
        seconds: positions * solves * DFA_SECONDS_PER_POSITION * 2.0 / cores,
        peak_bytes: scaled(DFA_PEAK, positions),
        disk_bytes: None,
        basis: BASIS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimates_meet_their_measurements() {
        let cores = rayon::current_num_threads().max(1) as f64;
        // Counted positions come back exactly where they were counted.
        assert!((reachable_positions(25) / 1_791_419_846.0 - 1.0).abs() < 0.01);
        assert!((reachable_positions(20) / 4_990_592.0 - 1.0).abs() < 0.01);
        // 4x5's solve took 48 s; 5x5's differences 3,671 s and 5.92 GiB.
        let solve = estimate(Job::Reachable, 20);
        assert!((solve.seconds * cores / 2.0 - 60.0).abs() < 15.0, "{}", solve.seconds);
        let differences = estimate(Job::Differences, 25);
        assert!((differences.seconds * cores / 2.0 / 3671.0 - 1.0).abs() < 0.25, "{}", differences.seconds);
        assert!((differences.peak_bytes / (5.92 * 1073741824.0) - 1.0).abs() < 0.01);
        // The refusals: 8x8 is years, 4x4's margins are seconds.
        assert!(estimate(Job::Reachable, 64).refuse_unless(false, "othello 8x8").is_err());
        assert!(estimate(Job::Margins, 16).refuse_unless(false, "othello 4x4").is_ok());
        assert!(estimate(Job::Differences, 25).refuse_unless(false, "othello 5x5").is_err());
    }
}
