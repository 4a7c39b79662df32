//! A solution file answered in place: a position's value reads a row per layer of each of
//! its side's sets where they lie in the file ([`OnDiskBundle`]), and no set is loaded.
//!
//! Loading a solution ([`super::Solution::load`]) decodes every set: a meet in the middle of
//! Breakthrough 6x6 holds tens of gigabytes. A person asking about a position and its moves
//! needs a few hundred rows. The payload's checksum is not read on opening (it would read the
//! whole file); every walk checks the ids it reads, and `check` reads the file whole.

use super::file::{Described, describe};
use super::in_two_classes;
use crate::dfa::on_disk::OnDiskBundle;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::solved::Games;
use crate::vocabulary::{Outcome, Position, Side};
use std::path::Path;

/// A solution file, open for lookups.
///
/// Invariant: entry `i` of `bundle` is the set of the `i`-th class the file's metadata
/// describes, and entry `classes + j` (after all of them) the domain of its `j`-th rest class;
/// `linked[k]` is the set of its `k`-th linked class, mapped, its rows unverified.
pub struct SolutionInPlace {
    bundle: OnDiskBundle,
    described: Described,
    linked: Vec<crate::dfa::Dfa>,
}

impl SolutionInPlace {
    /// Open the solution file `path` for lookups, with the game it solves.
    ///
    /// # Errors
    /// The errors of [`OnDiskBundle::open_unverified`]; [`Error::Corrupt`] if it is not a
    /// solution, a set does not have the game's shape, or the start's stored value is not
    /// the one its class gives.
    pub fn open(path: &Path, games: &Games) -> Result<(Box<dyn Game>, SolutionInPlace)> {
        let bundle = OnDiskBundle::open_unverified(path)?;
        let described = describe(bundle.meta(), bundle.names().count(), path)?;
        let game = games.build(&described.params)?;
        let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
        for i in 0..bundle.names().count() {
            if bundle.sizes(i) != Some(game.shape().sizes()) {
                return Err(corrupt(format!("a stored set does not have the shape of {}", game.name())));
            }
        }
        let linked = described.linked.iter().map(|l| l.open_for_lookups(game.shape())).collect::<Result<Vec<_>>>()?;
        let solution = SolutionInPlace { bundle, described, linked };
        let initial = game.initial();
        match solution.value(&initial) {
            Ok(Some(v)) if v == solution.described.initial_value => Ok((game, solution)),
            Ok(found) => Err(corrupt(format!(
                "the stored value of the start ({}) is not the value its class gives ({})",
                solution.described.initial_value,
                found.map_or("none".into(), |v| v.to_string())
            ))),
            Err(e) => Err(e),
        }
    }

    /// The value of `pos`, or `None` if the solution does not value it.
    ///
    /// # Errors
    /// [`Error::Mismatch`] if it is in two value classes; a row that cannot be read or names
    /// a state outside its layer.
    pub fn value(&self, pos: &Position) -> Result<Option<Outcome>> {
        let d = &self.described;
        let side = if d.mover_relative { Side::First } else { pos.side };
        let mut found = value_among(&self.bundle, &d.classes, side, &pos.board)?;
        for (link, set) in d.linked.iter().zip(&self.linked).filter(|(l, _)| l.side == side) {
            let held =
                set.checked_contains(&pos.board).map_err(|what| Error::Corrupt { path: link.path.clone(), what })?;
            if held {
                if let Some(first) = found {
                    return Err(in_two_classes(first, link.outcome));
                }
                found = Some(link.outcome);
            }
        }
        if found.is_some() {
            return Ok(found);
        }
        for (j, &(s, outcome)) in d.rest.iter().enumerate() {
            if s == side && self.bundle.contains(d.classes.len() + j, &pos.board)? {
                return Ok(Some(outcome));
            }
        }
        Ok(None)
    }
}

/// The value of `board` (`side` to move) among the first entries of `bundle`, the sets of
/// `values` (each entry's side and value), or `None` if none of that side holds it.
///
/// # Errors
/// [`crate::Error::Mismatch`] if two hold it; a row that cannot be read or names a state
/// outside its layer.
pub(super) fn value_among(
    bundle: &OnDiskBundle,
    values: &[(Side, Outcome)],
    side: Side,
    board: &[crate::dfa::Symbol],
) -> Result<Option<Outcome>> {
    let mut found = None;
    for (i, &(s, outcome)) in values.iter().enumerate() {
        if s == side && bundle.contains(i, board)? {
            if let Some(first) = found {
                return Err(in_two_classes(first, outcome));
            }
            found = Some(outcome);
        }
    }
    Ok(found)
}
