//! A run's record: one [`StepRecord`] per set a solve computes, with its size and the cost so
//! far, kept by a [`Recorder`], and written to (and read back from) CSV.
//!
//! The CSV has one header line and one line per step:
//! `game,phase,step,side,set,positions,states,bytes,positions_per_byte,elapsed_s,peak_rss_bytes`
//! (phase `Forward`, `Backward` or `Backup`; side `first` or `second`; empty fields for
//! counts that are not known; seconds and positions per byte with three decimals).

use crate::atomic::write_atomically;
use crate::dfa::{Dfa, DfaStats};
use crate::error::{Error, Result};
use crate::vocabulary::Side;
use std::path::Path;
use std::time::Instant;

/// Which phase a [`StepRecord`] belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Forward ply sets from the initial position.
    Forward,
    /// Retrograde iterations from the terminal positions.
    Backward,
    /// Values backed up through the forward ply sets.
    Backup,
}

impl Phase {
    /// The name in progress lines: `forward`, `backward` or `backup`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Forward => "forward",
            Phase::Backward => "backward",
            Phase::Backup => "backup",
        }
    }
}

/// Which set a [`StepRecord`] measures (its name in records and CSV files).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetName {
    /// Forward: the positions reachable in exactly this many plies.
    Reachable,
    /// Backward, iteration 0: the positions the pass decides.
    Universe,
    /// Backward, iteration 0: those lost by rule or without a move.
    Loss,
    /// The running wins (records of earlier builds only).
    Win,
    /// Won in exactly this many plies (backward), or first valued as won at this ply (backup).
    NewWin,
    /// Lost likewise.
    NewLoss,
    /// Backup, at the end: the positions the start reaches that the backward pass decided.
    ReachedDecided,
}

impl SetName {
    /// Every name.
    pub const ALL: [SetName; 7] = [
        SetName::Reachable,
        SetName::Universe,
        SetName::Loss,
        SetName::Win,
        SetName::NewWin,
        SetName::NewLoss,
        SetName::ReachedDecided,
    ];

    /// The name as written.
    pub fn as_str(self) -> &'static str {
        match self {
            SetName::Reachable => "reachable",
            SetName::Universe => "universe",
            SetName::Loss => "loss",
            SetName::Win => "win",
            SetName::NewWin => "new_win",
            SetName::NewLoss => "new_loss",
            SetName::ReachedDecided => "reached_decided",
        }
    }
}

impl std::fmt::Display for SetName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for SetName {
    type Err = Error;

    fn from_str(s: &str) -> Result<SetName> {
        SetName::ALL
            .into_iter()
            .find(|n| n.as_str() == s)
            .ok_or_else(|| Error::BadParameters(format!("{s:?} is not the name of a recorded set")))
    }
}

/// One line of a run's record: a set computed at one step, with its size and the cost so far.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StepRecord {
    /// Phase of the run.
    pub phase: Phase,
    /// Ply (forward, backup) or iteration (backward).
    pub step: u32,
    /// Side to move in the set.
    pub side: Side,
    /// Which set.
    pub set: SetName,
    /// Members of the set, exact (`None` above `u128::MAX`).
    #[serde(serialize_with = "crate::counts::serialize_opt")]
    pub positions: Option<u128>,
    /// Non-reserved DFA states.
    pub states: usize,
    /// Bytes of the compact on-disk layout.
    pub bytes: usize,
    /// Positions per byte.
    pub positions_per_byte: Option<f64>,
    /// Seconds since the solver started.
    pub elapsed_s: f64,
    /// Peak resident memory of the process so far, in bytes (Linux only).
    pub peak_rss_bytes: Option<u64>,
    /// The class of positions being solved, in a solve by classes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
}

/// Peak resident set size of this process (VmHWM), if the platform reports it.
pub fn peak_rss_bytes() -> Option<u64> {
    crate::sys::peak_resident_bytes()
}

impl StepRecord {
    /// The step as one progress line: time, phase, step, side, set and its size.
    pub fn line(&self) -> String {
        format!(
            "[{:>8.2}s] {:>8} {:>4} {:>6} {:>9}: {:>22} positions, {:>10} states, rss {:>6} MiB",
            self.elapsed_s,
            self.phase.name(),
            self.step,
            self.side.to_string(),
            self.set,
            crate::counts::human(self.positions),
            self.states,
            self.peak_rss_bytes.unwrap_or(0) >> 20
        )
    }
}

/// A callback that sees every step record as it is made (to keep a record file growing).
pub type StepFollower<'a> = Box<dyn FnMut(&StepRecord) + Send + 'a>;

/// Keeps the records of one run: measures each set once (it is only borrowed, never copied),
/// stamps it with the time since the run started and the peak memory, says it as progress
/// ([`crate::progress::STEP_TARGET`]) and shows it to the callback, if any.
pub struct Recorder<'a> {
    started: Instant,
    records: Vec<StepRecord>,
    class: Option<String>,
    /// Behind a lock so that a solver can be shared by the threads of one step.
    follower: std::sync::Mutex<Option<StepFollower<'a>>>,
}

impl<'a> Recorder<'a> {
    /// A recorder whose clock started at `started`.
    pub fn new(started: Instant) -> Recorder<'a> {
        Recorder { started, records: Vec::new(), class: None, follower: std::sync::Mutex::new(None) }
    }

    /// Call `f` with every record from now on.
    pub fn on_step(&mut self, f: impl FnMut(&StepRecord) + Send + 'a) {
        *self.follower.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Box::new(f));
    }

    /// Label the records from now on with the class of positions being solved.
    pub fn set_class(&mut self, class: Option<String>) {
        self.class = class;
    }

    /// Record `set`, computed at `step` of `phase` with `side` to move, under the name `name`.
    pub fn record(&mut self, phase: Phase, step: u32, side: Side, name: SetName, set: &Dfa) {
        self.record_stats(phase, step, side, name, &set.stats());
    }

    /// [`Recorder::record`] of a set measured earlier, by its figures (a set read back from a
    /// checkpoint that keeps only them).
    pub fn record_stats(&mut self, phase: Phase, step: u32, side: Side, name: SetName, stats: &DfaStats) {
        let DfaStats { states, disk_bytes, positions, positions_per_byte, .. } = *stats;
        let r = StepRecord {
            phase,
            step,
            side,
            set: name,
            positions,
            states,
            bytes: disk_bytes,
            positions_per_byte,
            elapsed_s: self.started.elapsed().as_secs_f64(),
            peak_rss_bytes: peak_rss_bytes(),
            class: self.class.clone(),
        };
        tracing::info!(
            target: crate::progress::STEP_TARGET,
            phase = r.phase.name(),
            step = r.step,
            side = %r.side,
            set = %r.set,
            positions = %crate::counts::human(r.positions),
            states = r.states,
            rss_mib = r.peak_rss_bytes.unwrap_or(0) >> 20,
            class = r.class.as_deref().unwrap_or(""),
            "{}",
            r.line()
        );
        if let Some(f) = self.follower.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner).as_mut() {
            f(&r);
        }
        self.records.push(r);
    }

    /// The records so far.
    pub fn records(&self) -> &[StepRecord] {
        &self.records
    }
}

/// A number written with three decimals (read back as any finite number: `inf`, `NaN` and
/// `1e999` are not measurements, and would break every axis drawn from them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fixed3(pub f64);

impl<'de> serde::Deserialize<'de> for Fixed3 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Fixed3, D::Error> {
        let x = <f64 as serde::Deserialize>::deserialize(d)?;
        if x.is_finite() { Ok(Fixed3(x)) } else { Err(serde::de::Error::custom(format!("{x} is not a finite number"))) }
    }
}

impl serde::Serialize for Fixed3 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{:.3}", self.0))
    }
}

/// One line of the CSV form of a run record.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CsvRow {
    /// The game's name.
    pub game: String,
    /// `Forward`, `Backward` or `Backup` (`Classes` in a record of class universes made from a
    /// sweep's files, `Class values` in one of a solve by class jobs made from their reports).
    pub phase: String,
    /// Ply or iteration.
    pub step: u32,
    /// `first` or `second`.
    pub side: String,
    /// Which set.
    pub set: SetName,
    /// Members of the set (empty above `u128::MAX`).
    pub positions: Option<u128>,
    /// DFA states.
    pub states: usize,
    /// Bytes of the compact layout.
    pub bytes: usize,
    /// Positions per byte.
    pub positions_per_byte: Option<Fixed3>,
    /// Seconds since the run started.
    pub elapsed_s: Fixed3,
    /// Peak resident memory so far.
    pub peak_rss_bytes: Option<u64>,
    /// The class solved, in a solve by classes (empty otherwise; absent from older records).
    #[serde(default)]
    pub class: Option<String>,
    /// The build that ran it ([`crate::PROGRAM_VERSION`]; absent from older records).
    #[serde(default)]
    pub program: Option<String>,
}

impl CsvRow {
    /// The CSV line of `record` in a run of `game`.
    pub fn new(game: &str, record: &StepRecord) -> CsvRow {
        CsvRow {
            game: game.to_string(),
            phase: format!("{:?}", record.phase),
            step: record.step,
            side: record.side.to_string(),
            set: record.set,
            positions: record.positions,
            states: record.states,
            bytes: record.bytes,
            positions_per_byte: record.positions_per_byte.map(Fixed3),
            elapsed_s: Fixed3(record.elapsed_s),
            peak_rss_bytes: record.peak_rss_bytes,
            class: record.class.clone(),
            program: Some(crate::PROGRAM_VERSION.to_string()),
        }
    }
}

/// The CSV text of `records` of a run of `game`, header included.
pub fn csv_text(game: &str, records: &[StepRecord]) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in records {
        w.serialize(CsvRow::new(game, r)).map_err(|e| Error::BadParameters(format!("run record: {e}")))?;
    }
    let bytes = w.into_inner().map_err(|e| Error::BadParameters(format!("run record: {e}")))?;
    Ok(String::from_utf8(bytes).expect("the CSV writer writes the UTF-8 it is given"))
}

/// The CSV line of one record, without the header (for a record that grows as a run goes).
pub fn csv_line(game: &str, record: &StepRecord) -> Result<String> {
    let text = csv_text(game, std::slice::from_ref(record))?;
    Ok(text.split_once('\n').map_or(String::new(), |(_, line)| line.to_string()))
}

/// The CSV header line.
pub const CSV_HEADER: &str =
    "game,phase,step,side,set,positions,states,bytes,positions_per_byte,elapsed_s,peak_rss_bytes,class,program\n";

/// Write the record of a run of `game` to `path`, atomically.
///
/// # Errors
/// [`Error::Io`] if the file cannot be written.
pub fn write_csv(path: &Path, game: &str, records: &[StepRecord]) -> Result<()> {
    let text = if records.is_empty() { CSV_HEADER.to_string() } else { csv_text(game, records)? };
    write_atomically(path, text.as_bytes())
}

/// Read a run record written by [`write_csv`].
///
/// # Errors
/// [`Error::Io`] if it cannot be read, [`Error::Corrupt`] naming the line of anything that is
/// not a run record.
pub fn read_csv(path: &Path) -> Result<Vec<CsvRow>> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_path_buf(), error: source })?;
    let bad = |line: u64, msg: String| Error::Corrupt { path: path.to_path_buf(), what: format!("line {line}: {msg}") };
    if text.is_empty() {
        return Err(bad(1, "empty file".into()));
    }
    if !text.starts_with("game,phase,step,side,set,positions,states,bytes,positions_per_byte") {
        return Err(bad(1, "not a dfasolve run record (unexpected header)".into()));
    }
    // Flexible: records written before the class column have one field fewer.
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for row in reader.deserialize::<CsvRow>() {
        let row = row.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            bad(line, e.to_string())
        })?;
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(bad(2, "no steps recorded".into()));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set name reads back as itself, in text and through serde (as records and CSV
    /// files write it); an unknown name is an error.
    #[test]
    fn set_names_round_trip() {
        for n in SetName::ALL {
            assert_eq!(n.as_str().parse::<SetName>().unwrap(), n);
            assert_eq!(serde_json::to_value(n).unwrap(), serde_json::json!(n.as_str()));
        }
        assert!("new_draw".parse::<SetName>().is_err());
    }

    fn record(phase: Phase, positions: Option<u128>, per_byte: Option<f64>) -> StepRecord {
        StepRecord {
            phase,
            step: 3,
            side: Side::Second,
            set: SetName::NewWin,
            positions,
            states: 17,
            bytes: 80,
            positions_per_byte: per_byte,
            elapsed_s: 1.23456,
            peak_rss_bytes: Some(4096),
            class: None,
        }
    }

    /// The CSV is exactly the format the committed records use, and reads back.
    #[test]
    fn csv_round_trips_in_the_committed_format() {
        let records = [record(Phase::Backward, Some(u128::MAX), Some(0.5)), record(Phase::Forward, None, None)];
        let text = csv_text("nim 3x7", &records).expect("written");
        assert_eq!(
            text,
            format!(
                "{CSV_HEADER}nim 3x7,Backward,3,second,new_win,{},17,80,0.500,1.235,4096,,{P}\n\
                 nim 3x7,Forward,3,second,new_win,,17,80,,1.235,4096,,{P}\n",
                u128::MAX,
                P = crate::PROGRAM_VERSION
            )
        );
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("run.csv");
        write_csv(&path, "nim 3x7", &records).expect("written");
        let rows = read_csv(&path).expect("read back");
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].positions, rows[0].positions_per_byte), (Some(u128::MAX), Some(Fixed3(0.5))));
        assert_eq!((rows[1].positions, rows[1].elapsed_s), (None, Fixed3(1.235)));
        assert_eq!((rows[1].phase.as_str(), rows[1].side.as_str(), rows[1].step), ("Forward", "second", 3));
        let line = format!("g,Forward,3,second,new_win,,17,80,,1.235,4096,,{}\n", crate::PROGRAM_VERSION);
        assert_eq!(csv_line("g", &records[1]).expect("line"), line);
        assert_eq!(rows[0].program.as_deref(), Some(crate::PROGRAM_VERSION));
        // Records from before the class and program columns read too.
        let old = "game,phase,step,side,set,positions,states,bytes,positions_per_byte,elapsed_s,peak_rss_bytes\n";
        std::fs::write(&path, format!("{old}g,Forward,3,second,new_win,,17,80,,1.235,4096\n")).expect("written");
        assert_eq!(read_csv(&path).expect("read").len(), 1);
    }

    #[test]
    fn read_csv_names_the_bad_line() {
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("run.csv");
        std::fs::write(&path, format!("{CSV_HEADER}g,Forward,x,first,reachable,1,2,3,,0.1,\n")).expect("written");
        let err = read_csv(&path).expect_err("a step that is not a number");
        assert!(err.to_string().contains("line 2"), "{err}");
        for not_finite in ["inf", "1e999", "NaN", "-inf"] {
            std::fs::write(&path, format!("{CSV_HEADER}g,Forward,1,first,reachable,1,2,3,,0.1,\ng,Forward,2,first,reachable,1,2,3,{not_finite},0.2,\n"))
                .expect("written");
            let err = read_csv(&path).expect_err("not a finite number");
            assert!(err.to_string().contains("line 3") && err.to_string().contains("finite"), "{not_finite}: {err}");
        }
        std::fs::write(&path, "a,b\n1,2\n").expect("written");
        assert!(read_csv(&path).expect_err("foreign").to_string().contains("not a dfasolve run record"));
    }
}
