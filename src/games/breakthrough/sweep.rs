//! The positions reachable from the start, class by class of pawns on the board.
//!
//! A move keeps its class or captures into a class of one pawn fewer, so a total of pawns is
//! complete once no total above it has anything new. The sweep goes breadth first from the
//! start and hands each total's classes over as it completes: the totals still open are
//! held, the completed ones are not.

use super::{Breakthrough, EMPTY};
use crate::dfa::Dfa;
use crate::error::Result;
use crate::game::{Rules, SolverHints};
use crate::vocabulary::Side;

impl Breakthrough {
    /// Every class's positions reachable from the start, per side to move: `each` gets the
    /// index of a class in [`SolverHints::classes`] and its sets, every class once (the start's
    /// first, each class before those its captures lead to), and may stop the sweep with an
    /// error. Ended positions (lost for the side to move) are kept but not played on.
    ///
    /// # Errors
    /// The first error `each` returns.
    pub fn classes_from_start(&self, each: &mut dyn FnMut(usize, [Dfa; 2]) -> Result<()>) -> Result<()> {
        let classes = self.classes()?;
        let moves = Side::try_both(|side| self.moves(side))?;
        let ended = Side::try_both(|side| self.lost_terminal(side))?;
        let empty = || [Dfa::reject_all(&self.shape), Dfa::reject_all(&self.shape)];
        let counts = self.class_counts();
        let most = 4 * self.width;
        let total_set = |t: usize| Dfa::count_between(&self.shape, 0..self.shape.len(), |c| c != EMPTY, t, t);
        let totals: Vec<Dfa> = (0..=most).map(total_set).collect();
        // Breadth first from the start over every total at once: one image per side and ply,
        // where a sweep per class or per total takes one per side, step and class or total
        // (`docs/measurements.md`). A capture lowers the total, so once every total from `t`
        // up has nothing new, total `t` is complete: its classes go to `each` and its sets
        // are dropped.
        let start = self.initial();
        let mut seen: Vec<[Dfa; 2]> = (0..=most).map(|_| empty()).collect();
        seen[most][start.side.index()] = Dfa::from_string(&self.shape, &start.board);
        let mut frontier = seen.clone();
        let mut done = most + 1;
        let mut ply = 0;
        while done > 0 {
            ply += 1;
            let landed = Side::try_both(|to_play| {
                let mover = to_play.other().index();
                let from = frontier[..done]
                    .iter()
                    .try_fold(Dfa::reject_all(&self.shape), |u, f| u.union(&f[mover]))?
                    .difference(&ended[mover])?;
                moves[mover].forward(&from)
            })?;
            for t in 0..done {
                for (i, landed) in landed.iter().enumerate() {
                    let new = landed.intersection(&totals[t])?.difference(&seen[t][i])?;
                    seen[t][i] = seen[t][i].union(&new)?;
                    frontier[t][i] = new;
                }
            }
            crate::progress!(
                "reachable sweep, ply {ply}: {} new positions in {} DFA states, {} totals of pawns open",
                crate::counts::human(
                    frontier[..done].iter().flatten().try_fold(0u128, |n, set| set.checked_count()?.checked_add(n))
                ),
                frontier[..done].iter().flatten().map(Dfa::state_count).sum::<usize>(),
                done
            );
            while done > 0 && frontier[done - 1].iter().all(Dfa::is_empty) {
                done -= 1;
                let total = std::mem::replace(&mut seen[done], empty());
                for k in (0..classes.len()).filter(|&k| counts[k].0 + counts[k].1 == done) {
                    each(k, Side::try_both(|side| total[side.index()].intersection(&classes[k].set))?)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game::{ExplicitRules, Rules, SolverHints};
    use crate::games::breakthrough::Breakthrough;
    use crate::vocabulary::Position;
    use std::collections::{HashSet, VecDeque};

    /// Every position the plain rules reach from the start (ended ones not played on).
    fn reached_by_the_rules(game: &Breakthrough) -> HashSet<Position> {
        let start = game.initial();
        let mut seen = HashSet::from([start.clone()]);
        let mut queue = VecDeque::from([start]);
        while let Some(pos) = queue.pop_front() {
            if game.lost_terminal(pos.side).unwrap().contains(&pos.board) {
                continue;
            }
            for next in game.explicit_moves(&pos) {
                if seen.insert(next.clone()) {
                    queue.push_back(next);
                }
            }
        }
        seen
    }

    #[test]
    fn the_classes_hold_exactly_the_positions_the_rules_reach() {
        for (w, h) in [(2, 4), (3, 4), (2, 5)] {
            let game = Breakthrough::new(w, h).unwrap().reachable_only();
            let classes = game.classes().unwrap();
            let expected = reached_by_the_rules(&game);
            let mut found = 0u128;
            let mut seen = vec![false; classes.len()];
            game.classes_from_start(&mut |k, sets| {
                assert!(!std::mem::replace(&mut seen[k], true), "{w}x{h}: class {} twice", classes[k].name);
                for (side, set) in crate::vocabulary::Side::BOTH.into_iter().zip(&sets) {
                    assert!(
                        set.difference(&classes[k].set).unwrap().is_empty(),
                        "{w}x{h}: a position outside its class"
                    );
                    found += set.count();
                    for board in set.iter() {
                        let pos = Position { side, board };
                        assert!(expected.contains(&pos), "{w}x{h}: {pos:?} is not reachable");
                    }
                }
                Ok(())
            })
            .unwrap();
            assert!(seen.iter().all(|&s| s), "{w}x{h}: a class was never given");
            assert_eq!(found, expected.len() as u128, "{w}x{h}: reachable positions");
        }
    }
}
