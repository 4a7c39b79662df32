//! `stats`: the sizes and compression of every set of a saved file or directory.

use super::report::{Report, line};
use super::{Games, solution};
use crate::counts::human;
use crate::dfa::DfaStats;
use crate::dfa::file::Bundle;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// What `stats` reports of a file or a directory of DFA files: each set's figures by name, the
/// metadata, and the bytes on disk.
pub struct Figures {
    /// Each set's figures, by name.
    pub sets: Vec<(String, DfaStats)>,
    /// The metadata of the (last) file read.
    pub meta: String,
    /// Bytes on disk, all files together.
    pub bytes: u64,
    /// The positions the whole holds, where the sets' sum overcounts them (one position in
    /// every threshold's solve); `None`: their sum.
    pub positions: Option<Option<u128>>,
}

impl Figures {
    /// No sets yet.
    pub fn empty() -> Figures {
        Figures { sets: Vec::new(), meta: String::new(), bytes: 0, positions: None }
    }

    /// The figures of the sets of one DFA file.
    ///
    /// # Errors
    /// The file cannot be read, or is not a DFA file.
    pub fn of_file(path: &Path) -> Result<Figures> {
        let bundle = Bundle::load(path)?;
        let mut sets: Vec<(String, DfaStats)> =
            bundle.entries.iter().map(|(name, d)| (name.clone(), d.stats())).collect();
        let size = |path: &Path| std::fs::metadata(path).map_err(|error| Error::Io { path: path.to_path_buf(), error });
        let mut bytes = size(path)?.len();
        // A solution saved as a directory: the files its index links count as its sets.
        for (name, file, set) in solution::linked_sets(&bundle.meta, path)? {
            let on_disk = size(&file)?.len();
            bytes += on_disk;
            let mut stats = set.stats();
            stats.disk_bytes = on_disk as usize;
            stats.positions_per_byte = stats.positions.map(|p| p as f64 / stats.disk_bytes.max(1) as f64);
            sets.push((name, stats));
        }
        let positions = solution::positions_of_rest(&bundle.meta).map(|rest| {
            // The domains of classes stored as a rest hold other classes' positions too.
            let sets = sets.iter().filter(|(name, _)| !solution::is_domain_name(name));
            sets.map(|(_, s)| s.positions).fold(rest, |acc, n| acc.zip(n).and_then(|(a, b)| a.checked_add(b)))
        });
        Ok(Figures { sets, meta: bundle.meta, bytes, positions })
    }

    /// The figures of every set of the class files in `dir` (each set named `CLASS: set`), the
    /// last file's metadata, and their bytes together. One file is in memory at a time: a
    /// class directory can be far larger than memory (5x6 Breakthrough: 11.5 GB).
    ///
    /// # Errors
    /// No class files there; a file that cannot be read.
    pub fn of_class_files(dir: &Path) -> Result<Figures> {
        let files = solution::class_files(dir)?;
        if files.is_empty() {
            return Err(Error::NotApplicable(format!("{}: no class files (class-*.dfas) here", dir.display())));
        }
        let mut all = Figures::empty();
        for file in files {
            let one = Figures::of_file(&file)?;
            let class =
                file.file_stem().and_then(|s| s.to_str()).unwrap_or("?").trim_start_matches("class-").to_string();
            all.sets.extend(one.sets.into_iter().map(|(name, s)| (format!("{class}: {name}"), s)));
            all.meta = one.meta;
            all.bytes += one.bytes;
        }
        Ok(all)
    }

    /// Adds `one`'s sets as one row named `name`, its bytes counted with `extra_bytes` more
    /// (a table beside the sets).
    pub fn add_summed(&mut self, name: String, one: Figures, extra_bytes: u64) {
        let mut sum = DfaStats {
            states_per_layer: Vec::new(),
            states: 0,
            memory_bytes: 0,
            disk_bytes: 0,
            positions: Some(0),
            positions_per_byte: None,
        };
        for (_, s) in &one.sets {
            sum.states += s.states;
            sum.memory_bytes += s.memory_bytes;
            sum.disk_bytes += s.disk_bytes;
            sum.positions = sum.positions.zip(s.positions).and_then(|(a, b)| a.checked_add(b));
        }
        let bytes = one.bytes + extra_bytes;
        sum.disk_bytes = bytes as usize;
        sum.positions_per_byte = sum.positions.map(|p| p as f64 / bytes.max(1) as f64);
        self.sets.push((name, sum));
        self.meta = one.meta;
        self.bytes += bytes;
    }

    /// The report of these figures for the file or directory `path`.
    pub fn report(self, path: &Path) -> Box<dyn Report> {
        Box::new(FiguresReport { path: path.to_path_buf(), figures: self })
    }
}

/// `stats` of a file or a directory by its sets.
struct FiguresReport {
    path: PathBuf,
    figures: Figures,
}

impl FiguresReport {
    fn total_positions(&self) -> Option<u128> {
        let sets = &self.figures.sets;
        self.figures
            .positions
            .unwrap_or_else(|| sets.iter().try_fold(0u128, |acc, (_, s)| s.positions.and_then(|n| acc.checked_add(n))))
    }

    fn total_states(&self) -> usize {
        self.figures.sets.iter().map(|(_, s)| s.states).sum()
    }
}

impl Report for FiguresReport {
    fn json(&self) -> serde_json::Value {
        let Figures { sets, meta, bytes, .. } = &self.figures;
        let sets = sets
            .iter()
            .map(|(name, s)| SetJson {
                name,
                layers: s.states_per_layer.len(),
                states: s.states,
                memory_bytes: s.memory_bytes,
                disk_bytes: s.disk_bytes,
                positions: s.positions,
                positions_per_byte: s.positions_per_byte,
            })
            .collect();
        let total_positions = self.total_positions();
        super::report::to_json(&FiguresJson {
            file: &self.path,
            file_bytes: *bytes,
            program: crate::PROGRAM_VERSION,
            meta: solution::metadata_for_reports(meta),
            sets,
            total_positions,
            total_states: self.total_states(),
            positions_per_byte: total_positions.map(|p| p as f64 / (*bytes).max(1) as f64),
        })
    }

    fn text(&self) -> String {
        let Figures { sets, bytes, .. } = &self.figures;
        let mut out = String::new();
        line!(
            out,
            "{}: {}, {} bytes on disk",
            self.path.display(),
            crate::counts::counted(sets.len() as u64, "set", "sets"),
            bytes
        );
        line!(out, "{:>24} {:>11} {:>12} {:>24} {:>10}", "set", "states", "bytes", "positions", "pos/byte");
        for (name, s) in sets {
            line!(
                out,
                "{name:>24} {:>11} {:>12} {:>24} {:>10}",
                s.states,
                s.disk_bytes,
                human(s.positions),
                s.positions_per_byte.map_or("-".into(), |p| format!("{p:.1}"))
            );
        }
        let total_pos = self.total_positions();
        line!(
            out,
            "total: {} states, {} positions, {} positions per byte of file",
            self.total_states(),
            human(total_pos),
            total_pos.map_or("-".into(), |p| format!("{:.1}", p as f64 / (*bytes).max(1) as f64))
        );
        out
    }
}

/// `stats` of `path`: a format of a game's own, a directory of class files, or one DFA file
/// (a solution, a checkpoint or any other).
///
/// # Errors
/// It cannot be read, or is none of these.
pub fn stats(path: &Path, games: &'static Games) -> Result<Box<dyn Report>> {
    if let Some(format) = games.format_of(path)? {
        return format.stats(path, games);
    }
    let figures = if path.is_dir() && !solution::is_solution_directory(path) {
        Figures::of_class_files(path)?
    } else {
        Figures::of_file(&solution::solution_index(path))?
    };
    Ok(figures.report(path))
}

/// `stats --json`: the file, its metadata, and each set's figures.
#[derive(serde::Serialize)]
struct FiguresJson<'a> {
    file: &'a std::path::Path,
    file_bytes: u64,
    program: &'static str,
    meta: serde_json::Value,
    sets: Vec<SetJson<'a>>,
    #[serde(serialize_with = "crate::counts::serialize_opt")]
    total_positions: Option<u128>,
    total_states: usize,
    positions_per_byte: Option<f64>,
}

/// One set of [`FiguresJson`].
#[derive(serde::Serialize)]
struct SetJson<'a> {
    name: &'a str,
    layers: usize,
    states: usize,
    memory_bytes: usize,
    disk_bytes: usize,
    #[serde(serialize_with = "crate::counts::serialize_opt")]
    positions: Option<u128>,
    positions_per_byte: Option<f64>,
}
