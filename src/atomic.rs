//! Atomic file writes: readers see either the old file or the whole new one, and a failed or
//! killed write never leaves a half-written file under the real name.
//!
//! The contents go to a temporary file in the target's directory (`tempfile` names it and
//! removes it if the write fails), which is synced and then renamed into place. A path is
//! written as the user means it: a symbolic link is followed (the file it names is replaced,
//! the link stays), what is not a regular file (a FIFO, a device) is written into directly,
//! and a missing directory is an error, never made unasked.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Links followed at most, as the kernel does (`ELOOP` beyond).
const MAX_LINKS: usize = 40;

/// `path` with its symbolic links followed to the file they name (which need not exist).
fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "too many levels of symbolic links"))
}

/// What a write to `path` goes to.
enum Target {
    /// A regular file, new or to replace atomically, in `dir`.
    File { path: PathBuf, dir: PathBuf },
    /// A FIFO, a device or a socket: written into as it is.
    Special(PathBuf),
}

fn target(path: &Path) -> std::io::Result<Target> {
    let path = follow_links(path)?;
    match std::fs::metadata(&path) {
        Ok(m) if m.is_dir() => Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory, not a file")),
        Ok(m) if !m.is_file() => Ok(Target::Special(path)),
        _ => {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            if !dir.is_dir() {
                let why =
                    if dir.exists() { "is under a file, not a directory" } else { "its directory does not exist" };
                return Err(std::io::Error::new(std::io::ErrorKind::NotFound, why));
            }
            Ok(Target::File { path, dir })
        }
    }
}

/// Write `bytes` to `path` atomically.
///
/// # Errors
/// [`Error::Io`] naming the file that failed (its directory missing included).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically_with(path, |f| f.write_all(bytes))
}

/// [`write_atomically`] with the contents written by `fill`.
///
/// # Errors
/// [`Error::Io`] naming the file that failed.
pub fn write_atomically_with(path: &Path, fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>) -> Result<()> {
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |source| Error::Io { path: p, error: source }
    };
    let (path, dir) = match target(path).map_err(io(path))? {
        Target::Special(p) => {
            let mut f = std::fs::OpenOptions::new().write(true).open(&p).map_err(io(&p))?;
            return fill(&mut f).map_err(io(&p));
        }
        Target::File { path, dir } => (path, dir),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let prefix = format!(".{name}.tmp");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    // As `File::create` does: 0o666 less the umask (a temporary file's default is 0o600).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder.tempfile_in(&dir).map_err(io(&dir))?;
    fill(tmp.as_file_mut()).and_then(|()| tmp.as_file().sync_all()).map_err(io(tmp.path()))?;
    tmp.persist(&path).map_err(|e| io(&path)(e.error))?;
    Ok(())
}

/// Check before a long run that `path` can be written later: a regular file (new or not) in
/// a directory that exists and takes new files, or a FIFO or device as it is. Nothing is
/// left behind.
///
/// # Errors
/// [`Error::Io`] naming the path and why it cannot be written.
pub fn check_writable(path: &Path) -> Result<()> {
    let io = |error| Error::Io { path: path.to_path_buf(), error };
    match target(path).map_err(io)? {
        Target::Special(_) => Ok(()),
        Target::File { dir, .. } => probe(&dir),
    }
}

/// Check that `dir` is a directory that takes new files, making it (not its parents) if it
/// is not there.
///
/// # Errors
/// [`Error::Io`] naming the directory and why.
pub fn check_directory(dir: &Path) -> Result<()> {
    let io = |error| Error::Io { path: dir.to_path_buf(), error };
    if dir.exists() && !dir.is_dir() {
        return Err(io(std::io::Error::new(std::io::ErrorKind::NotADirectory, "is a file, not a directory")));
    }
    if !dir.exists() {
        std::fs::create_dir(dir).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => io(std::io::Error::new(e.kind(), "its parent directory does not exist")),
            _ => io(e),
        })?;
    }
    probe(dir)
}

/// That `dir` takes a new file (the probe is removed).
fn probe(dir: &Path) -> Result<()> {
    tempfile::Builder::new()
        .prefix(".dfasolve-probe")
        .tempfile_in(dir)
        .map_err(|error| Error::Io { path: dir.to_path_buf(), error })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_checked_before_they_are_written() {
        let dir = crate::scratch::tempdir();
        assert!(check_writable(&dir.path().join("new/sub/file.dfas")).is_err(), "no directory is made unasked");
        assert!(!dir.path().join("new").exists());
        assert!(check_writable(&dir.path().join("file.dfas")).is_ok());
        assert!(check_directory(&dir.path().join("new/sub")).is_err(), "only the directory named is made");
        assert!(check_directory(&dir.path().join("new")).is_ok());
        assert!(dir.path().join("new").is_dir());
        assert_eq!(std::fs::read_dir(dir.path().join("new")).expect("listed").count(), 0, "no probe is left");
        assert!(check_writable(dir.path()).is_err(), "a directory is not a file");
        let file = dir.path().join("plain");
        std::fs::write(&file, b"x").expect("written");
        assert!(check_writable(&file.join("below.dfas")).is_err(), "a file is not a directory");
        assert!(check_directory(&file).is_err());
    }

    #[test]
    fn writes_whole_files_and_leaves_no_temporary_behind() {
        let dir = crate::scratch::tempdir();
        assert!(write_atomically(&dir.path().join("sub").join("out.txt"), b"x").is_err(), "no directory made");
        std::fs::create_dir(dir.path().join("sub")).expect("made");
        let path = dir.path().join("sub").join("out.txt");
        write_atomically(&path, b"first").expect("written");
        write_atomically(&path, b"second").expect("replaced");
        assert_eq!(std::fs::read(&path).expect("readable"), b"second");
        let failed = write_atomically_with(&path, |_| Err(std::io::Error::other("disk full")));
        assert!(matches!(failed, Err(Error::Io { .. })));
        assert_eq!(std::fs::read(&path).expect("readable"), b"second", "a failed write keeps the old file");
        let names: Vec<_> = std::fs::read_dir(path.parent().expect("has a parent")).expect("listable").collect();
        assert_eq!(names.len(), 1, "only the target is left");
        // The same permissions as a file made by `File::create` (not a temporary file's 0o600).
        let plain = dir.path().join("plain");
        std::fs::File::create(&plain).expect("created");
        let mode = |p: &Path| std::fs::metadata(p).expect("exists").permissions();
        assert_eq!(mode(&path), mode(&plain));
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_special_files_written_into() {
        let dir = crate::scratch::tempdir();
        let real = dir.path().join("real.txt");
        std::fs::write(&real, b"old").expect("written");
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink("real.txt", &link).expect("linked");
        write_atomically(&link, b"new").expect("written through the link");
        assert!(std::fs::symlink_metadata(&link).expect("there").file_type().is_symlink(), "the link stays");
        assert_eq!(std::fs::read(&real).expect("readable"), b"new");
        // A dangling link: the file it names is made.
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink("made.txt", &dangling).expect("linked");
        write_atomically(&dangling, b"made").expect("written");
        assert_eq!(std::fs::read(dir.path().join("made.txt")).expect("readable"), b"made");
        // A device stays a device.
        write_atomically(Path::new("/dev/null"), b"nothing").expect("written into");
        check_writable(Path::new("/dev/null")).expect("writable");
        assert!(!std::fs::metadata("/dev/null").expect("there").is_file());
    }
}
