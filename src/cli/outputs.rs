//! The files one command reads and writes, checked together before any work starts: an
//! output is never one of the command's inputs or another of its outputs, a file dfasolve
//! did not write is not replaced unless the user says so (`--force`), and an output that
//! must be written whole is not a pipe.
//!
//! Each check reads only metadata and the first bytes of an existing file, so it costs
//! nothing beside a solve, and a refused command has touched nothing.

use anyhow::{Result, bail};
use std::io::Read;
use std::path::{Path, PathBuf};

/// How an output is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Writing {
    /// As one checksummed file whose header is written last (solutions, bundles): it needs
    /// a file it can seek in, so a FIFO or a socket is refused.
    Whole,
    /// Front to back (records, charts, exchange files): a FIFO or a device takes it as it
    /// is.
    Stream,
}

/// The paths a command reads and the files it writes.
#[derive(Default)]
pub(super) struct Files<'a> {
    reads: Vec<&'a Path>,
    writes: Vec<(&'a Path, Writing, &'static str)>,
    force: bool,
}

impl<'a> Files<'a> {
    /// No files yet; `force` lets an existing file dfasolve did not write be replaced.
    pub(super) fn new(force: bool) -> Files<'a> {
        Files { force, ..Files::default() }
    }

    /// A file (or directory) the command reads.
    pub(super) fn reads(mut self, path: &'a Path) -> Files<'a> {
        self.reads.push(path);
        self
    }

    /// A file the command writes, named in messages by `what` (`"the solution"`).
    pub(super) fn writes(mut self, path: Option<&'a Path>, how: Writing, what: &'static str) -> Files<'a> {
        if let Some(path) = path {
            self.writes.push((path, how, what));
        }
        self
    }

    /// Refuse, in one line naming the path, an output that is an input or another output,
    /// a pipe where a whole file is written, or an existing file dfasolve did not write
    /// (without `force`).
    ///
    /// # Errors
    /// The first output refused, with why.
    pub(super) fn check(&self) -> Result<()> {
        for (i, &(path, how, what)) in self.writes.iter().enumerate() {
            let shown = path.display();
            if let Some(input) = self.reads.iter().find(|input| same_file(path, input)) {
                let spelled = if input == &path { String::new() } else { format!(" (as {})", input.display()) };
                bail!("{what} {shown} is also read by this command{spelled}: refusing to write over it");
            }
            if let Some((other, _, other_what)) = self.writes[..i].iter().find(|(other, ..)| same_file(path, other)) {
                bail!("{what} {shown} is the same file as {other_what} {}: give each its own file", other.display());
            }
            let Ok(meta) = std::fs::metadata(path) else { continue };
            if meta.is_dir() {
                // A solution saved as a directory is replaced as its file would be.
                if how == Writing::Whole && crate::solved::solution::is_solution_directory(path) {
                    continue;
                }
                bail!("{what} {shown} is a directory: give a file name");
            }
            if how == Writing::Whole && is_pipe(&meta) {
                bail!(
                    "{what} {shown} is a pipe: a solution is written whole, with its checksum at the start, \
                     so it needs a regular file"
                );
            }
            if meta.is_file() && meta.len() > 0 && !self.force && !written_by_dfasolve(path) {
                bail!("{shown} exists and was not written by dfasolve: refusing to replace it (--force replaces it)");
            }
        }
        Ok(())
    }
}

/// Whether `a` and `b` name one file: the same inode when both exist (links and `..`
/// included), else the same absolute path. Devices (`/dev/null`) are never "the same":
/// writing twice into one loses nothing.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => {
            if !(x.is_file() || x.is_dir()) {
                return false;
            }
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                x.dev() == y.dev() && x.ino() == y.ino()
            }
            #[cfg(not(unix))]
            {
                absolute(a) == absolute(b)
            }
        }
        (Err(_), Err(_)) => absolute(a) == absolute(b),
        _ => false,
    }
}

/// `path` made absolute with its directory's links resolved, as far as they exist.
fn absolute(path: &Path) -> PathBuf {
    let name = path.file_name().map(PathBuf::from).unwrap_or_default();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    dir.canonicalize().unwrap_or(dir).join(name)
}

#[cfg(unix)]
fn is_pipe(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_fifo() || meta.file_type().is_socket()
}

#[cfg(not(unix))]
fn is_pipe(_: &std::fs::Metadata) -> bool {
    false
}

/// Whether the file at `path` starts as a file dfasolve writes does: a bundle or table
/// (`DFASOLVE…`), a DFA1 exchange file, a run record, or a chart or game record that names
/// the program in its first lines.
fn written_by_dfasolve(path: &Path) -> bool {
    let mut head = Vec::with_capacity(4096);
    let Ok(file) = std::fs::File::open(path) else { return false };
    if file.take(4096).read_to_end(&mut head).is_err() {
        return false;
    }
    head.starts_with(crate::dfa::file::MAGIC)
        || head.starts_with(&crate::dfa::dfa1::DFA1_MAGIC)
        || head.starts_with(crate::record::CSV_HEADER.split(',').take(5).collect::<Vec<_>>().join(",").as_bytes())
        || MARKS.iter().any(|mark| String::from_utf8_lossy(&head).contains(mark))
}

/// What the first lines of dfasolve's text outputs say: explicit Ostle tables' heading, a
/// game record's `program` and a chart's opening comment ([`crate::plot::SVG_MARK`]).
const MARKS: [&str; 4] =
    ["# ostle explicit tables", "\"program\": \"dfasolve", "\"program\":\"dfasolve", crate::plot::SVG_MARK];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_that_are_inputs_or_each_other_or_foreign_are_refused() {
        let dir = crate::scratch::tempdir();
        let (a, b) = (dir.path().join("a.dfas"), dir.path().join("b.csv"));
        std::fs::write(&a, crate::dfa::file::MAGIC).unwrap();
        let refused = |files: Files| files.check().unwrap_err().to_string();
        let why = refused(Files::new(false).reads(&a).writes(Some(&a), Writing::Whole, "the output"));
        assert!(why.contains("also read"), "{why}");
        // The same file by another spelling.
        let dotted = dir.path().join(".").join("a.dfas");
        assert!(refused(Files::new(false).reads(&a).writes(Some(&dotted), Writing::Whole, "x")).contains("also read"));
        let why = refused(Files::new(false).writes(Some(&b), Writing::Whole, "the solution").writes(
            Some(&b),
            Writing::Stream,
            "the record",
        ));
        assert!(why.contains("same file"), "{why}");
        let foreign = dir.path().join("keep.txt");
        std::fs::write(&foreign, "notes\n").unwrap();
        let why = refused(Files::new(false).writes(Some(&foreign), Writing::Stream, "the record"));
        assert!(why.contains("not written by dfasolve") && why.contains("--force"), "{why}");
        assert!(Files::new(true).writes(Some(&foreign), Writing::Stream, "the record").check().is_ok());
        // Ours, new, empty and devices are fine.
        assert!(Files::new(false).writes(Some(&a), Writing::Whole, "x").check().is_ok());
        assert!(Files::new(false).writes(Some(&b), Writing::Whole, "x").check().is_ok());
        std::fs::write(&b, "").unwrap();
        assert!(Files::new(false).writes(Some(&b), Writing::Whole, "x").check().is_ok());
        let null = Path::new("/dev/null");
        assert!(
            Files::new(false)
                .writes(Some(null), Writing::Whole, "x")
                .writes(Some(null), Writing::Stream, "y")
                .check()
                .is_ok()
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_is_refused_for_a_whole_file_at_once() {
        let dir = crate::scratch::tempdir();
        let fifo = dir.path().join("out.fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let why = Files::new(false).writes(Some(&fifo), Writing::Whole, "the solution").check().unwrap_err();
        assert!(why.to_string().contains("is a pipe"), "{why}");
        assert!(Files::new(false).writes(Some(&fifo), Writing::Stream, "the record").check().is_ok());
    }
}
