//! The byte per state: what it holds during the solve and after.
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | a draw: every move that stays in the class loses, and a move out of it draws |
//! | 1..=24 | undecided: the moves in the class not yet seen to lose (at the end: a draw) |
//! | 25 + n, n ≤ 229 | decided in `n` plies: a win when `n` is odd, a loss when even |
//! | 255 | decided with the other parity (a win in an even number of plies, or a loss in an odd one): the value is in a side table |
//!
//! Wins are odd and losses even unless a player's only moves push out their own pieces, so
//! the side table stays tiny (empty on 5x5).

use crate::explicit::Exact;

/// The first decided byte.
pub const DECIDED: u8 = 25;
/// The byte of a value with the other parity.
pub const OTHER_PARITY: u8 = u8::MAX;
/// The most plies a byte holds.
pub const MAX_PLIES: u32 = (OTHER_PARITY - 1 - DECIDED) as u32;
/// Draws found during the solve.
pub const DRAW: u8 = 0;

/// Plies of a value, if decided.
pub fn plies(v: Exact) -> Option<u32> {
    match v {
        Exact::Win(n) | Exact::Loss(n) => Some(n),
        Exact::Draw => None,
    }
}

/// The byte of a decided value, or [`OTHER_PARITY`] if it goes to the side table.
pub fn encode(v: Exact) -> u8 {
    match v {
        Exact::Win(n) if n % 2 == 1 && n <= MAX_PLIES => DECIDED + n as u8,
        Exact::Loss(n) if n % 2 == 0 && n <= MAX_PLIES => DECIDED + n as u8,
        Exact::Draw => DRAW,
        _ => OTHER_PARITY,
    }
}

/// The value of a byte other than [`OTHER_PARITY`].
pub fn decode(code: u8) -> Exact {
    debug_assert_ne!(code, OTHER_PARITY);
    if code < DECIDED {
        Exact::Draw
    } else {
        let n = u32::from(code - DECIDED);
        if n % 2 == 1 { Exact::Win(n) } else { Exact::Loss(n) }
    }
}

/// Whether a byte is an undecided count of moves.
pub fn undecided(code: u8) -> bool {
    code > DRAW && code < DECIDED
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_or_go_to_the_side_table() {
        for n in 0..=MAX_PLIES {
            for v in [Exact::Win(n), Exact::Loss(n)] {
                let c = encode(v);
                if c == OTHER_PARITY {
                    assert_eq!(n % 2 == 0, matches!(v, Exact::Win(_)), "{v}: only the other parity is set aside");
                } else {
                    assert_eq!(decode(c), v);
                    assert!(c >= DECIDED);
                }
            }
        }
        assert_eq!(encode(Exact::Win(MAX_PLIES + 2)), OTHER_PARITY);
        assert_eq!(decode(DRAW), Exact::Draw);
    }
}
