//! Solution files: a checksummed bundle ([`crate::dfa::file`]) holding one DFA per value class,
//! with metadata naming the game, the mode and each class's side and value.
//!
//! The metadata is the JSON form of [`Meta`], keys in sorted order, for example
//! `{"classes":[{"outcome":{"win":1},"side":"first"}],"initial_value":{"loss":null},
//! "kind":"dfasolve-solution","mode":{"meet_in_the_middle":{"depth":2}},"mover_relative":false,
//! "params":{"game":"nim","heaps":2,"tokens":3},"program":"dfasolve 0.1.0 (commit ...)",
//! "reachable_valued":"15"}`. An outcome is `{"win": plies}`, `{"loss": plies}` (plies `null`
//! when not known) or `"draw"`. The key `program` names the build that wrote the file
//! ([`crate::PROGRAM_VERSION`]); `reachable_valued` ([`Solution::reachable_valued`], only for a
//! meet in the middle) is a decimal string. A solution with classes stored as the rest of a
//! domain ([`super::RestClass`]) lists them under `rest` (side, value and their positions in
//! decimal), and their domains follow the classes' sets in the bundle; a solution without
//! them has no `rest` key.
//!
//! A solution whose classes already lie in files of their own ([`ValueClass::file`]: the
//! running losses of a checkpointed meet in the middle), more than [`LINK_ABOVE`] bytes of
//! them, is saved as a directory: those files linked into it (hard links: no byte is copied
//! where the checkpoints lie on the same file system), and the bundle of the rest named
//! [`DIRECTORY_INDEX`], whose metadata lists them under `linked` (side, value, file name and
//! the checksum the file ends with). The directory, or its index, is the solution.

use super::{Mode, RestClass, Solution, ValueClass};
use crate::dfa::Dfa;
use crate::dfa::file::{Bundle, save_entries};
use crate::error::{Error, Result};
use crate::game::{Game, GameParams};
use crate::solved::Games;
use crate::storage::container::stored_checksum;
use crate::vocabulary::{Outcome, Side};
use std::path::{Path, PathBuf};

/// The bundle of a solution saved as a directory.
pub const DIRECTORY_INDEX: &str = "solution.dfas";

/// A solution whose classes in files of their own pass this many bytes is saved as a
/// directory that links them ([`Solution::save`]); below, they are copied into one file.
pub const LINK_ABOVE: u64 = 1 << 30;

/// The `kind` of a solution file's metadata.
const KIND: &str = "dfasolve-solution";

/// The metadata of a solution file.
#[derive(serde::Serialize, serde::Deserialize)]
struct Meta {
    kind: String,
    params: serde_json::Value,
    mode: Mode,
    initial_value: StoredOutcome,
    classes: Vec<StoredClass>,
    #[serde(default)]
    mover_relative: bool,
    /// [`Solution::reachable_valued`] in decimal (absent where it is `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reachable_valued: Option<String>,
    /// The classes stored as the rest of a domain: their sets are the bundle's entries after
    /// the classes'.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rest: Vec<StoredRest>,
    /// The classes whose sets are files beside the bundle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    linked: Vec<StoredLink>,
}

/// A class whose set is a file beside the bundle, as [`Dfa::saved_mapped`] writes them.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredLink {
    side: Side,
    outcome: StoredOutcome,
    /// The file's name in the bundle's directory.
    file: String,
    /// The checksum the file ends with, in hex: the file is the one saved.
    checksum: String,
}

/// A class whose set is a file beside the bundle, its name resolved and checked.
pub(super) struct Linked {
    pub side: Side,
    pub outcome: Outcome,
    pub path: PathBuf,
    checksum: String,
}

impl Linked {
    /// The set, read in place and checked whole (its checksum and every row).
    ///
    /// # Errors
    /// The file is missing, foreign, damaged or not the one the solution was saved with.
    pub fn open_checked(&self, shape: &crate::dfa::Shape) -> Result<Dfa> {
        self.open_with(Some(shape), Dfa::open_mapped)
    }

    /// The set, read in place for lookups: its header, the checksum it ends with and its
    /// shape checked, its rows left to [`Dfa::checked_contains`].
    ///
    /// # Errors
    /// The file is missing, foreign, not the one saved, or its header or layout is damaged.
    pub fn open_for_lookups(&self, shape: &crate::dfa::Shape) -> Result<Dfa> {
        self.open_with(Some(shape), Dfa::open_mapped_unverified)
    }

    /// The set `open` reads, once the file is the one saved, checked to be of `shape` if given.
    fn open_with(&self, shape: Option<&crate::dfa::Shape>, open: fn(&Path) -> Result<Dfa>) -> Result<Dfa> {
        let corrupt = |what: String| Error::Corrupt { path: self.path.clone(), what };
        if stored_checksum(&self.path)? != self.checksum {
            return Err(corrupt("not the file the solution was saved with (its checksum differs)".into()));
        }
        let set = open(&self.path)?;
        if shape.is_some_and(|shape| set.shape() != shape) {
            return Err(corrupt("its set does not have the game's shape".into()));
        }
        Ok(set)
    }
}

/// [`StoredLink`]s of the bundle at `path`, resolved in its directory; a name that is not a
/// plain file name there is refused.
fn resolve_links(links: &[StoredLink], path: &Path) -> Result<Vec<Linked>> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    links
        .iter()
        .map(|l| {
            let plain = !l.file.is_empty() && !l.file.starts_with('.') && !l.file.contains(['/', '\\']);
            if !plain {
                return Err(Error::Corrupt {
                    path: path.to_path_buf(),
                    what: format!("linked file {:?} is not a file name beside it", l.file),
                });
            }
            Ok(Linked {
                side: l.side,
                outcome: l.outcome.into(),
                path: dir.join(&l.file),
                checksum: l.checksum.clone(),
            })
        })
        .collect()
}

/// The sets a solution's bundle at `path` (metadata `meta`) links, each named `side/value`
/// with its file, read in place and checked whole; none for a bundle that links none or is
/// not a solution's.
///
/// # Errors
/// A linked file is missing, damaged or not the one saved.
pub fn linked_sets(meta: &str, path: &Path) -> Result<Vec<(String, PathBuf, Dfa)>> {
    let Ok(meta) = serde_json::from_str::<Meta>(meta) else { return Ok(Vec::new()) };
    if meta.kind != KIND {
        return Ok(Vec::new());
    }
    let mut sets = Vec::new();
    for link in resolve_links(&meta.linked, path)? {
        let set = link.open_with(None, Dfa::open_mapped)?;
        sets.push((format!("{}/{}", link.side, link.outcome), link.path, set));
    }
    Ok(sets)
}

/// The bundle of the solution at `path`: its index if it is a solution saved as a directory,
/// else `path` itself.
pub fn solution_index(path: &Path) -> PathBuf {
    let index = path.join(DIRECTORY_INDEX);
    if path.is_dir() && index.is_file() { index } else { path.to_path_buf() }
}

/// Whether `path` is a directory that holds a solution ([`DIRECTORY_INDEX`]).
pub fn is_solution_directory(path: &Path) -> bool {
    path.is_dir() && path.join(DIRECTORY_INDEX).is_file()
}

/// A [`RestClass`]'s description: its domain is the bundle entry at the same index after the
/// classes'.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredRest {
    side: Side,
    outcome: StoredOutcome,
    /// [`RestClass::positions`] in decimal (absent beyond `u128::MAX`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    positions: Option<String>,
}

/// A value class's description: its set is the bundle entry at the same index.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredClass {
    side: Side,
    outcome: StoredOutcome,
}

/// An [`Outcome`] as stored.
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum StoredOutcome {
    Win(Option<u32>),
    Loss(Option<u32>),
    Draw,
}

impl From<Outcome> for StoredOutcome {
    fn from(o: Outcome) -> StoredOutcome {
        match o {
            Outcome::Win { plies } => StoredOutcome::Win(plies),
            Outcome::Loss { plies } => StoredOutcome::Loss(plies),
            Outcome::Draw => StoredOutcome::Draw,
        }
    }
}

impl From<StoredOutcome> for Outcome {
    fn from(o: StoredOutcome) -> Outcome {
        match o {
            StoredOutcome::Win(plies) => Outcome::Win { plies },
            StoredOutcome::Loss(plies) => Outcome::Loss { plies },
            StoredOutcome::Draw => Outcome::Draw,
        }
    }
}

impl Solution {
    /// Save as a bundle: metadata JSON plus one DFA per value class; as a directory that
    /// links the classes' own files if they pass [`LINK_ABOVE`] bytes (module docs).
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        self.save_linking(path, LINK_ABOVE)
    }

    /// [`Solution::save`], as a directory once the classes' own files pass `link_above`
    /// bytes. What was at `path` (a file or such a directory) is replaced once the new one
    /// is whole.
    ///
    /// # Errors
    /// [`Error::Io`] if a file cannot be written, linked or copied.
    pub fn save_linking(&self, path: &Path, link_above: u64) -> Result<()> {
        let mut own_bytes = 0u64;
        for file in self.classes.iter().filter_map(|c| c.file.as_deref()) {
            own_bytes += std::fs::metadata(file).map_err(io_at(file))?.len();
        }
        if own_bytes <= link_above {
            let everything: Vec<&ValueClass> = self.classes.iter().collect();
            let write = |to: &Path| save_values(to, &self.meta(&everything, Vec::new()), &everything, &self.rest);
            if !is_solution_directory(path) {
                return write(path);
            }
            return replace_whole(path, write);
        }
        replace_whole(path, |partial| {
            std::fs::create_dir(partial).map_err(io_at(partial))?;
            let (mut kept, mut links) = (Vec::new(), Vec::new());
            for class in &self.classes {
                let Some(source) = &class.file else {
                    kept.push(class);
                    continue;
                };
                let file = format!("{}-{}-{}.set", class.side, outcome_word(class.outcome), links.len() + 1);
                let linked = partial.join(&file);
                if std::fs::hard_link(source, &linked).is_err() {
                    std::fs::copy(source, &linked).map_err(io_at(&linked))?;
                }
                let checksum = stored_checksum(&linked)?;
                links.push(StoredLink { side: class.side, outcome: class.outcome.into(), file, checksum });
            }
            let index = partial.join(DIRECTORY_INDEX);
            save_values(&index, &self.meta(&kept, links), &kept, &self.rest)
        })
    }

    /// The metadata of a bundle of `classes` (and the rest classes' domains) beside `linked`.
    fn meta(&self, classes: &[&ValueClass], linked: Vec<StoredLink>) -> Meta {
        Meta {
            kind: KIND.into(),
            params: self.params.to_json(),
            mode: self.mode,
            initial_value: self.initial_value.into(),
            classes: classes.iter().map(|c| StoredClass { side: c.side, outcome: c.outcome.into() }).collect(),
            mover_relative: self.mover_relative,
            reachable_valued: self.reachable_valued.map(|n| n.to_string()),
            rest: self
                .rest
                .iter()
                .map(|r| StoredRest {
                    side: r.side,
                    outcome: r.outcome.into(),
                    positions: r.positions.map(|n| n.to_string()),
                })
                .collect(),
            linked,
        }
    }

    /// Load one solution file.
    pub(super) fn load_file(path: &Path, games: &Games) -> Result<(Box<dyn Game>, Solution)> {
        let bundle = Bundle::load(path)?;
        let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
        let meta: Meta = read_meta((&bundle.meta, bundle.entries.len()), path, KIND, "a solution file", |m: &Meta| {
            m.classes.len() + m.rest.len()
        })?;
        let params = GameParams::from_json(&meta.params)?;
        let game = games.build(&params)?;
        let mut sets = bundle.entries.into_iter().map(|(_, set)| set);
        let mut shaped = || {
            let set = sets.next().expect("read_meta counted the sets");
            if set.shape() != game.shape() {
                return Err(corrupt(format!("a stored set does not have the shape of {}", game.name())));
            }
            Ok(set)
        };
        let mut classes = Vec::with_capacity(meta.classes.len() + meta.linked.len());
        for desc in meta.classes {
            classes.push(ValueClass::new(desc.side, desc.outcome.into(), shaped()?));
        }
        for link in resolve_links(&meta.linked, path)? {
            let set = link.open_checked(game.shape())?;
            classes.push(ValueClass { file: Some(link.path.clone()), ..ValueClass::new(link.side, link.outcome, set) });
        }
        let mut rest = Vec::with_capacity(meta.rest.len());
        for desc in meta.rest {
            let positions = match desc.positions {
                Some(n) => Some(n.parse().map_err(|_| corrupt(format!("positions {n:?} is not a count")))?),
                None => None,
            };
            rest.push(RestClass { side: desc.side, outcome: desc.outcome.into(), domain: shaped()?, positions });
        }
        let solution = Solution {
            params,
            mode: meta.mode,
            initial: game.initial(),
            initial_value: meta.initial_value.into(),
            classes,
            rest,
            records: Vec::new(),
            mover_relative: meta.mover_relative,
            reachable_valued: match meta.reachable_valued {
                Some(n) => Some(n.parse().map_err(|_| corrupt(format!("reachable_valued {n:?} is not a count")))?),
                None => None,
            },
            index: None,
        };
        check_labels(&solution).map_err(corrupt)?;
        Ok((game, solution))
    }
}

/// What a solution file's metadata says of its sets, read without them: the game's
/// parameters, the start's value, whether positions are the mover's view, and each stored
/// set's side and value, the classes' first and then the rest classes' domains (with their
/// count).
pub(super) struct Described {
    pub params: GameParams,
    pub initial_value: Outcome,
    pub mover_relative: bool,
    pub classes: Vec<(Side, Outcome)>,
    pub rest: Vec<(Side, Outcome)>,
    /// The classes whose sets are files beside the bundle.
    pub linked: Vec<Linked>,
}

/// [`Described`] from the metadata `text` of a bundle of `entries` sets read from `path`.
///
/// # Errors
/// [`Error::Corrupt`] if it is not a solution's or does not describe as many sets.
pub(super) fn describe(text: &str, entries: usize, path: &Path) -> Result<Described> {
    let meta: Meta =
        read_meta((text, entries), path, KIND, "a solution file", |m: &Meta| m.classes.len() + m.rest.len())?;
    Ok(Described {
        params: GameParams::from_json(&meta.params)?,
        initial_value: meta.initial_value.into(),
        mover_relative: meta.mover_relative,
        classes: meta.classes.iter().map(|c| (c.side, c.outcome.into())).collect(),
        rest: meta.rest.iter().map(|r| (r.side, r.outcome.into())).collect(),
        linked: resolve_links(&meta.linked, path)?,
    })
}

/// The invariant between the stored sets that is cheap to check on every load: the stored
/// value of the start is the one its class gives. (Classes may share a side and a value: a
/// class too large for one set is stored in parts. That classes are disjoint is checked for
/// every position an answer reads, by [`Solution::checked_value`], and by `check`.)
fn check_labels(solution: &Solution) -> std::result::Result<(), String> {
    match solution.checked_value(&solution.initial) {
        Ok(Some(v)) if v == solution.initial_value => Ok(()),
        Ok(found) => Err(format!(
            "the stored value of the start ({}) is not the value its class gives ({})",
            solution.initial_value,
            found.map_or("none".into(), |v| v.to_string())
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// The suffix of the name of a rest class's domain in a solution's bundle.
const DOMAIN_SUFFIX: &str = "/domain";

/// Whether `name`, a set's name in a solution's bundle, is the domain of a class stored as
/// the rest of it ([`RestClass`]).
pub fn is_domain_name(name: &str) -> bool {
    name.ends_with(DOMAIN_SUFFIX)
}

/// The positions of the classes a solution's metadata `meta` lists as stored the rest of a
/// domain, added up: `None` if it lists none (or is not a solution's), `Some(None)` if a
/// count is not one or their sum overflows.
pub fn positions_of_rest(meta: &str) -> Option<Option<u128>> {
    let meta: serde_json::Value = serde_json::from_str(meta).ok()?;
    if meta["kind"] != KIND {
        return None;
    }
    let rest = meta.get("rest")?.as_array()?;
    Some(rest.iter().try_fold(0u128, |acc, r| r.get("positions")?.as_str()?.parse::<u128>().ok()?.checked_add(acc)))
}

/// Save `values` as a bundle under the JSON form of `meta`, one DFA per value class named
/// `side/value`, then the domain of each of `rest`, named `side/value/domain`. Through a JSON
/// value, whose keys are sorted: the bytes every file has had.
pub(super) fn save_values(
    path: &Path,
    meta: &impl serde::Serialize,
    values: &[&ValueClass],
    rest: &[RestClass],
) -> Result<()> {
    let mut meta = serde_json::to_value(meta).expect("file metadata is plain JSON");
    meta["program"] = serde_json::Value::String(crate::PROGRAM_VERSION.into());
    let meta = meta.to_string();
    let names: Vec<String> = (values.iter().map(|c| format!("{}/{}", c.side, c.outcome)))
        .chain(rest.iter().map(|r| format!("{}/{}{DOMAIN_SUFFIX}", r.side, r.outcome)))
        .collect();
    let sets = values.iter().map(|c| &c.set).chain(rest.iter().map(|r| &r.domain));
    let entries: Vec<(&str, &Dfa)> = names.iter().map(String::as_str).zip(sets).collect();
    save_entries(path, &meta, &entries)
}

/// A file's metadata as a report shows it: the JSON object with every stored value (the
/// start's and each class's) as [`Outcome`]'s text, as every report writes values; text that
/// is not JSON as a string.
pub fn metadata_for_reports(meta: &str) -> serde_json::Value {
    let Ok(mut meta) = serde_json::from_str::<serde_json::Value>(meta) else {
        return serde_json::Value::String(meta.to_string());
    };
    let as_text = |v: &mut serde_json::Value| {
        let outcome = serde_json::from_value::<StoredOutcome>(v.clone())
            .map(Outcome::from)
            .or_else(|_| serde_json::from_value::<Outcome>(v.clone()));
        if let Ok(o) = outcome {
            *v = serde_json::Value::String(o.to_string());
        }
    };
    if let Some(v) = meta.get_mut("initial_value") {
        as_text(v);
    }
    if let Some(classes) = meta.get_mut("classes").and_then(serde_json::Value::as_array_mut) {
        for c in classes {
            if let Some(v) = c.get_mut("outcome") {
                as_text(v);
            }
        }
    }
    meta
}

/// The metadata `text` of a bundle of `entries` sets (read from `path`) as `M`, checked to be
/// of `kind` (a `what`) and to describe as many value classes (`described`) as it stores sets.
pub(super) fn read_meta<M: serde::de::DeserializeOwned>(
    (text, entries): (&str, usize),
    path: &Path,
    kind: &str,
    what: &str,
    described: impl Fn(&M) -> usize,
) -> Result<M> {
    let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
    let meta: serde_json::Value = serde_json::from_str(text).map_err(|_| corrupt("metadata is not JSON".into()))?;
    if meta["kind"] != kind {
        return Err(corrupt(format!("not {what} (a bundle of another kind)")));
    }
    let meta: M = serde_json::from_value(meta).map_err(|e| corrupt(format!("bad metadata: {e}")))?;
    if described(&meta) != entries {
        return Err(corrupt("value classes do not match the stored sets".into()));
    }
    Ok(meta)
}

/// A value's word in a linked file's name: `win`, `loss` or `draw`, with its plies if known.
fn outcome_word(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { plies: Some(n) } => format!("win{n}"),
        Outcome::Win { plies: None } => "win".into(),
        Outcome::Loss { plies: Some(n) } => format!("loss{n}"),
        Outcome::Loss { plies: None } => "loss".into(),
        Outcome::Draw => "draw".into(),
    }
}

/// Remove `path`, a file or a directory with what it holds, if it is there.
fn remove_any(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// The error of an I/O operation on `path`.
fn io_at(path: &Path) -> impl Fn(std::io::Error) -> Error + use<> {
    let path = path.to_path_buf();
    move |error| Error::Io { path: path.clone(), error }
}

/// Replace what is at `path` (nothing, a file or a solution directory) by what `make` builds
/// at a path beside it, once it is whole: a stop leaves either the old or the new.
fn replace_whole(path: &Path, make: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let name = path.file_name().ok_or_else(|| Error::Io {
        path: path.to_path_buf(),
        error: std::io::Error::new(std::io::ErrorKind::InvalidInput, "names no file"),
    })?;
    let parent = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if path.is_dir() && !is_solution_directory(path) {
        return Err(Error::Io {
            path: path.to_path_buf(),
            error: std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory, not a solution"),
        });
    }
    let beside = |what: &str| parent.join(format!(".{}.{what}", name.to_string_lossy()));
    let (partial, replaced) = (beside("partial"), beside("replaced"));
    remove_any(&partial).map_err(io_at(&partial))?;
    make(&partial)?;
    if std::fs::symlink_metadata(path).is_err() {
        return std::fs::rename(&partial, path).map_err(io_at(path));
    }
    remove_any(&replaced).map_err(io_at(&replaced))?;
    std::fs::rename(path, &replaced).map_err(io_at(path))?;
    std::fs::rename(&partial, path).map_err(io_at(path))?;
    remove_any(&replaced).map_err(io_at(&replaced))
}
