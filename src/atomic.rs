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
        move |source| Error::Io { path: p, source }
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

#[cfg(test)]
mod tests {
    use super::*;

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
