//! The DFA solution against the explicit tables: every entry by membership.

use super::{self as explicit, Tables};
use crate::error::{Error, Result};
use crate::game::{Position, Side};
use crate::solved::Solution;

/// Check that every state of the tables lies in the DFA value class of its exact value
/// (distance included) and that the DFA solution holds no other state. Returns the number of
/// entries checked.
///
/// # Errors
/// [`Error::Verification`] at the first mismatch, naming the state, both values and every
/// move with the values of its result on both sides.
pub fn check_tables(tables: &Tables, solution: &Solution) -> Result<u64> {
    let v = &tables.variant;
    let mut checked = 0u64;
    for (state, value) in tables.states.iter().zip(&tables.values) {
        let pos = Position { side: Side::First, board: v.encode(state) };
        let dfa = solution.value(&pos);
        let want = *value;
        if dfa != Some(want) {
            let mut moves = String::new();
            for (m, next) in v.successors(state) {
                let i = tables.states.binary_search(&next).ok();
                let explicit = i.map_or("?".into(), |i| explicit::value_text(tables.values[i]));
                let symbolic = solution.value(&Position { side: Side::Second, board: v.encode(&next) });
                moves.push_str(&format!(
                    "\n  {} -> {} {}: explicit {explicit}, DFA {}",
                    v.move_text(m),
                    v.board_text(&next.cells),
                    next.forbidden.map_or("-".into(), |f| v.move_text(f)),
                    symbolic.map_or("not covered".into(), |o| o.to_string())
                ));
            }
            return Err(Error::Verification(format!(
                "mismatch at {} {}: explicit {}, DFA {}; moves:{moves}",
                v.board_text(&state.cells),
                state.forbidden.map_or("-".into(), |f| v.move_text(f)),
                want,
                dfa.map_or("not covered".into(), |o| o.to_string())
            )));
        }
        checked += 1;
    }
    // The other direction: the DFA solution holds no state the tables do not.
    let dfa_total: u128 = solution.classes.iter().filter(|c| c.side == Side::First).map(|c| c.set.count()).sum();
    if dfa_total != tables.states.len() as u128 {
        return Err(Error::Verification(format!(
            "the DFA solution holds {dfa_total} states, the explicit tables {}",
            tables.states.len()
        )));
    }
    Ok(checked)
}
