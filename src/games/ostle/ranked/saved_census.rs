//! A class's census, saved beside its tables (`class-5v5.census`) by the solve, so that
//! `positions` counts the census's states without walking every board again (over an hour on
//! 5x5). The file names the checksum of the class file it was taken of: a census of other
//! tables is refused, never reused.

use super::census::Census;
use super::{Class, class_file};
use crate::error::{Error, Result};
use crate::storage::container::stored_checksum;
use std::path::{Path, PathBuf};

/// What the first line says, so that a foreign JSON file is told apart.
const FORMAT: &str = "dfasolve ostle class census";
/// The version this build writes and reads.
const VERSION: u32 = 1;

#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    format: String,
    version: u32,
    class: String,
    /// SHA-256 of the class file (its last 32 bytes), in hex.
    tables_sha256: String,
    census: Census,
}

/// The census file of `class` in `dir`.
pub fn census_file(dir: &Path, class: &Class) -> PathBuf {
    dir.join(format!("class-{}.census", class.name))
}

/// Save the census of `class`, taken of its tables in `dir`.
///
/// # Errors
/// The class file cannot be read, or the census cannot be written.
pub fn save(dir: &Path, class: &Class, census: &Census) -> Result<()> {
    let saved = Saved {
        format: FORMAT.into(),
        version: VERSION,
        class: class.name.clone(),
        tables_sha256: stored_checksum(&class_file(dir, class))?,
        census: census.clone(),
    };
    let text = serde_json::to_string_pretty(&saved).expect("a census serialises");
    crate::atomic::write_atomically(&census_file(dir, class), format!("{text}\n").as_bytes())
}

/// The saved census of `class` in `dir`; `None` if none was saved.
///
/// # Errors
/// [`Error::ForeignFile`], [`Error::UnsupportedVersion`] or [`Error::Corrupt`]: not a census,
/// or one of other tables.
pub fn load(dir: &Path, class: &Class) -> Result<Option<Census>> {
    let path = census_file(dir, class);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(Error::Io { path, error }),
    };
    let saved: Saved = serde_json::from_str(&text)
        .ok()
        .filter(|s: &Saved| s.format == FORMAT)
        .ok_or_else(|| Error::ForeignFile { path: path.clone(), expected: FORMAT })?;
    if saved.version != VERSION {
        return Err(Error::UnsupportedVersion { path, found: saved.version, supported: VERSION });
    }
    let corrupt = |what: String| Error::Corrupt { path: path.clone(), what };
    if saved.class != class.name {
        return Err(corrupt(format!("the census of class {}, not {}", saved.class, class.name)));
    }
    if saved.tables_sha256 != stored_checksum(&class_file(dir, class))? {
        return Err(corrupt(format!(
            "taken of other tables than {}: delete it, and the solve command with --tables writes it again",
            class_file(dir, class).display()
        )));
    }
    Ok(Some(saved.census))
}
