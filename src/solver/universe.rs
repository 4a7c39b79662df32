//! The sets a retrograde pass starts from, over one universe (the whole game's, or one
//! class's): its positions, those the rules end (lost, won or drawn), and those without a
//! legal move, which lose or pass as the game says.

use super::per_side::PerSide;
use super::timed;
use crate::dfa::Dfa;
use crate::dfa::limits::Stoppable;
use crate::game::{Game, NoMove};
use crate::move_graph::Moves;
use crate::vocabulary::Side;

/// A universe and its terminal sets, by side to move.
pub(super) struct UniverseSets {
    /// The positions.
    pub universe: PerSide<Dfa>,
    /// Lost for the side to move: by rule, or (games without passes) without a legal move.
    pub lost: PerSide<Dfa>,
    /// Won for the side to move by rule.
    pub won: PerSide<Dfa>,
    /// Positions the rules do not end and that are not lost: play goes on.
    pub ongoing: PerSide<Dfa>,
    /// Games with passes: the ongoing positions whose only move is the pass.
    pub passing: Option<PerSide<Dfa>>,
}

impl UniverseSets {
    /// The sets over `universe`, whose moves land in `targets` (by side to move after the
    /// move; `None`: in `universe` itself).
    pub(super) fn new(
        game: &dyn Game,
        moves: &PerSide<Moves>,
        universe: PerSide<Dfa>,
        targets: Option<&PerSide<Dfa>>,
    ) -> Stoppable<UniverseSets> {
        let targets = targets.unwrap_or(&universe);
        // Terminal by rule, whatever the moves would be; then the positions the rules do not
        // end but that have no legal move, which lose or pass.
        let lost_by_rule = universe.try_map(|s, u| game.lost_terminal(s)?.intersection(u))?;
        let won_by_rule = universe.try_map(|s, u| game.won_terminal(s)?.intersection(u))?;
        let drawn_by_rule = universe.try_map(|s, u| game.drawn_terminal(s)?.intersection(u))?;
        let by_rule = lost_by_rule.try_map(|s, lost| lost.union(&won_by_rule[s])?.union(&drawn_by_rule[s]))?;
        let stuck = universe.try_map(|s, u| {
            let stuck = match game.stuck(s)? {
                Some(stuck) => stuck.intersection(u)?,
                None => {
                    let has_move = timed!("has move", moves[s].backward_within(&targets[s.other()], u)?);
                    u.difference(&has_move)?
                }
            };
            stuck.difference(&by_rule[s])
        })?;
        let passes = game.without_a_move() == NoMove::Passes;
        let lost = if passes { lost_by_rule } else { lost_by_rule.try_zip_map(&stuck, |_, l, st| l.union(st))? };
        let won = won_by_rule.try_zip_map(&lost, |_, w, l| w.difference(l))?;
        let ongoing = universe.try_map(|s, u| u.difference(&by_rule[s])?.difference(&lost[s]))?;
        Ok(UniverseSets { universe, lost, won, ongoing, passing: passes.then_some(stuck) })
    }

    /// A copy of the sets a pass starts from (the passes stay on the moves).
    pub(super) fn for_pass(&self) -> UniverseSets {
        UniverseSets {
            universe: self.universe.clone(),
            lost: self.lost.clone(),
            won: self.won.clone(),
            ongoing: self.ongoing.clone(),
            passing: None,
        }
    }

    /// The universe with `side` to move.
    pub(super) fn universe(&self, side: Side) -> &Dfa {
        &self.universe[side]
    }
}
