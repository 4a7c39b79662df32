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

use super::{Mode, RestClass, Solution, ValueClass};
use crate::dfa::Dfa;
use crate::dfa::file::{Bundle, save_entries};
use crate::error::{Error, Result};
use crate::game::{Game, GameParams};
use crate::solved::Games;
use crate::vocabulary::{Outcome, Side};
use std::path::Path;

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
    /// Save as a bundle: metadata JSON plus one DFA per value class.
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        let meta = Meta {
            kind: KIND.into(),
            params: self.params.to_json(),
            mode: self.mode,
            initial_value: self.initial_value.into(),
            classes: self.classes.iter().map(|c| StoredClass { side: c.side, outcome: c.outcome.into() }).collect(),
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
        };
        save_values(path, &meta, &self.classes, &self.rest)
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
        let mut classes = Vec::with_capacity(meta.classes.len());
        for desc in meta.classes {
            classes.push(ValueClass { side: desc.side, outcome: desc.outcome.into(), set: shaped()? });
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
    values: &[ValueClass],
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
