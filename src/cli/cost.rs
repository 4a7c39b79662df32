//! A job's estimate, said before it starts: one estimated to take more than half an hour is
//! refused with its time, memory and disk unless `--long` asks for it, and one of over a minute
//! is said at once as progress.

use anyhow::Result;

/// What counts as long.
pub(super) const LONG_SECONDS: f64 = 1800.0;
/// Over this an estimate is said before the work starts.
pub(super) const SAID_SECONDS: f64 = 60.0;

/// The estimate of one job on this machine's cores.
#[derive(Clone, Debug)]
pub struct Estimate {
    /// Positions the job values.
    pub positions: f64,
    /// Seconds of wall.
    pub seconds: f64,
    /// Peak resident bytes.
    pub peak_bytes: f64,
    /// Bytes on disk, where the job writes tables.
    pub disk_bytes: Option<f64>,
    /// What it was scaled from, e.g. "the runs measured on 4x5 to 5x5".
    pub basis: &'static str,
}

impl Estimate {
    /// One line: positions, time, memory and disk.
    pub fn text(&self) -> String {
        let gb = |bytes: f64| match bytes / 1e9 {
            g if g < 100.0 => format!("{g:.1}"),
            g => crate::counts::about(g),
        };
        let disk = self.disk_bytes.map_or(String::new(), |d| format!(", {} GB of tables", gb(d)));
        format!(
            "about {} positions, {} on {} cores, a peak of {} GB{disk} (scaled from {})",
            crate::counts::about(self.positions),
            duration(self.seconds),
            rayon::current_num_threads(),
            gb(self.peak_bytes),
            self.basis
        )
    }

    /// Refuse a long job unless `long`; say a job of over a minute's estimate as progress.
    ///
    /// # Errors
    /// The refusal, with the estimate.
    pub fn refuse_unless(&self, long: bool, what: &str) -> Result<()> {
        if self.seconds > LONG_SECONDS && !long {
            anyhow::bail!("{what}: {}; refused without --long, which starts it", self.text());
        }
        if self.seconds > SAID_SECONDS {
            crate::progress!("{what}: estimated {}", self.text());
        }
        Ok(())
    }
}

/// `seconds` in the unit a person reads them in: seconds, minutes, hours, days or years.
pub(super) fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.0} min", s / 60.0),
        s if s < 3.0 * 86400.0 => format!("{:.1} h", s / 3600.0),
        s if s < 3.0e7 => format!("{:.0} days", s / 86400.0),
        s => format!("{} years", crate::counts::about((s / 3.15e7).round())),
    }
}
