//! Atomic file writes: readers see either the old file or the whole new one, and a failed or
//! killed write never leaves a half-written file under the real name.
//!
//! The contents go to a temporary file in the target's directory (`tempfile` names it and
//! removes it if the write fails), which is synced and then renamed into place.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Write `bytes` to `path` atomically, creating its directory if needed.
///
/// # Errors
/// [`Error::Io`] naming the file that failed.
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
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let prefix = format!(".{name}.tmp");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    // As `File::create` does: 0o666 less the umask (a temporary file's default is 0o600).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder.tempfile_in(&dir).map_err(io(&dir))?;
    fill(tmp.as_file_mut()).and_then(|()| tmp.as_file().sync_all()).map_err(io(tmp.path()))?;
    tmp.persist(path).map_err(|e| io(path)(e.error))?;
    Ok(())
}

/// Check before a long run that `path` can be written atomically later: it is not a
/// directory, and its directory exists (or is created now) and takes a new file. Nothing is
/// left behind but the directory.
///
/// # Errors
/// [`Error::Io`] naming the path and why it cannot be written.
pub fn check_writable(path: &Path) -> Result<()> {
    if path.is_dir() {
        let what = std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory, not a file");
        return Err(Error::Io { path: path.to_path_buf(), error: what });
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    check_directory(dir)
}

/// Check that `dir` is (or can be made) a directory that takes new files.
///
/// # Errors
/// [`Error::Io`] naming the directory and why.
pub fn check_directory(dir: &Path) -> Result<()> {
    let io = |error| Error::Io { path: dir.to_path_buf(), error };
    if dir.exists() && !dir.is_dir() {
        return Err(io(std::io::Error::new(std::io::ErrorKind::NotADirectory, "is a file, not a directory")));
    }
    std::fs::create_dir_all(dir).map_err(io)?;
    tempfile::Builder::new().prefix(".dfasolve-probe").tempfile_in(dir).map_err(io)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_checked_before_they_are_written() {
        let dir = tempfile::tempdir().expect("temporary directory");
        assert!(check_writable(&dir.path().join("new/sub/file.dfas")).is_ok());
        assert!(dir.path().join("new/sub").is_dir(), "the directory is made");
        assert_eq!(std::fs::read_dir(dir.path().join("new/sub")).expect("listed").count(), 0, "no probe is left");
        assert!(check_writable(dir.path()).is_err(), "a directory is not a file");
        let file = dir.path().join("plain");
        std::fs::write(&file, b"x").expect("written");
        assert!(check_writable(&file.join("below.dfas")).is_err(), "a file is not a directory");
        assert!(check_directory(&file).is_err());
    }

    #[test]
    fn writes_whole_files_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().expect("temporary directory");
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
}
