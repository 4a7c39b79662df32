//! Counting Ostle sets up to the board's symmetries (Burnside's lemma), and the sets the
//! census counts: hole classes, boards with given piece counts, orbits of a board, states of
//! boards.
//!
//! Every set counted here is closed under the symmetries (the rules commute with them), so
//! the number of orbits is `(1/|G|) Σ_g |Fix(g) ∩ S|`. `|Fix(g) ∩ S|` is counted by a
//! memoised walk through `S`'s DFA that only follows strings equal to their own image under
//! `g` (see [`count_fixed`]); the division must be exact, which is checked.

use super::super::{BANNED, EMPTY, HOLE, MINE, Ostle, SYMBOLS, THEIRS, Variant};
use crate::dfa::limits::Stoppable;
use crate::dfa::{Background, Dfa, Move, StateId, Symbol};
use crate::error::{Error, Result};
use hashbrown::HashMap;

/// A board symmetry acting on strings: square `i` goes to `perm[i]`, symbol `c` becomes
/// `sigma[c]` (marker directions turn with the board).
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// Square permutation.
    pub perm: Vec<usize>,
    /// Symbol map.
    pub sigma: Vec<Symbol>,
}

impl Variant {
    /// The board symmetries acting on DFA strings, identity first.
    pub fn string_symmetries(&self) -> Vec<Symmetry> {
        self.symmetries_with_dirs()
            .into_iter()
            .map(|(perm, dirs)| {
                let sigma = (0..SYMBOLS as Symbol)
                    .map(|c| match c {
                        5..=8 => BANNED[dirs[(c - 5) as usize] as usize],
                        c => c,
                    })
                    .collect();
                Symmetry { perm, sigma }
            })
            .collect()
    }
}

impl Symmetry {
    /// The image of a string.
    pub fn apply(&self, x: &[Symbol]) -> Vec<Symbol> {
        let mut out = vec![0; x.len()];
        for (i, &c) in x.iter().enumerate() {
            out[self.perm[i]] = self.sigma[c as usize];
        }
        out
    }
}

/// Number of members `x` of `set` with `g(x) = x`.
///
/// Walks the DFA layer by layer; the memo key is the layer, the DFA state and the symbols
/// already read that a later layer must agree with (for a left-right mirror of a row-major
/// board that is at most a row, so the walk is polynomial).
pub fn count_fixed(set: &Dfa, g: &Symmetry) -> u128 {
    let n = set.shape().len();
    let mut pinv = vec![0; n];
    for (i, &p) in g.perm.iter().enumerate() {
        pinv[p] = i;
    }
    // live[i]: earlier layers whose symbol a layer at or after i depends on.
    let live: Vec<Vec<usize>> = (0..=n).map(|i| (0..i).filter(|&j| g.perm[j] >= i || pinv[j] >= i).collect()).collect();
    let mut walk = FixedWalk { set, g, pinv, live, memo: HashMap::new(), x: vec![0; n] };
    walk.count(0, set.initial())
}

/// The memoised walk of [`count_fixed`].
struct FixedWalk<'a> {
    set: &'a Dfa,
    g: &'a Symmetry,
    pinv: Vec<usize>,
    live: Vec<Vec<usize>>,
    memo: HashMap<(usize, u32, Vec<Symbol>), u128>,
    /// The symbols read so far.
    x: Vec<Symbol>,
}

impl FixedWalk<'_> {
    /// Fixed members with the prefix `x[..i]`, from state `q` of layer `i`.
    fn count(&mut self, i: usize, q: StateId) -> u128 {
        if q == StateId::REJECT {
            return 0;
        }
        if i == self.x.len() {
            return u128::from(q == StateId::ACCEPT);
        }
        let key = (i, q.0, self.live[i].iter().map(|&j| self.x[j]).collect::<Vec<_>>());
        if let Some(&c) = self.memo.get(&key) {
            return c;
        }
        let (perm, sigma) = (&self.g.perm, &self.g.sigma);
        let mut total = 0;
        for c in 0..self.set.shape().alphabet(i) as Symbol {
            // x[perm[i]] must be sigma(x[i]); x[i] must be sigma(x[pinv[i]]).
            let image_ok = match perm[i].cmp(&i) {
                std::cmp::Ordering::Less => self.x[perm[i]] == sigma[c as usize],
                std::cmp::Ordering::Equal => sigma[c as usize] == c,
                std::cmp::Ordering::Greater => true,
            };
            let pinv = self.pinv[i];
            if !image_ok || (pinv < i && sigma[self.x[pinv] as usize] != c) {
                continue;
            }
            self.x[i] = c;
            let next = self.set.layers()[i].next(q, c);
            total += self.count(i + 1, next);
        }
        self.memo.insert(key, total);
        total
    }
}

/// Raw count and count up to the board's symmetries of a symmetric set.
///
/// # Errors
/// [`Error::Verification`] if Burnside's sum is not divisible by the group order (the set is
/// not closed under the symmetries).
pub fn orbits(v: &Variant, set: &Dfa) -> Result<(u128, u128)> {
    let gs = v.string_symmetries();
    let raw = set.count();
    let sum: u128 = raw + gs[1..].iter().map(|g| count_fixed(set, g)).sum::<u128>();
    let order = gs.len() as u128;
    if !sum.is_multiple_of(order) {
        return Err(Error::Verification(format!(
            "Burnside sum {sum} is not a multiple of {order}: the set is not closed under the board symmetries"
        )));
    }
    Ok((raw, sum / order))
}

/// The orbit of one string under the board symmetries, as a set.
pub fn orbit_set(v: &Variant, game: &Ostle, x: &[Symbol]) -> Dfa {
    let images: Vec<Vec<Symbol>> = v.string_symmetries().iter().map(|g| g.apply(x)).collect();
    Dfa::from_strings(crate::game::Rules::shape(game), &images)
}

/// The symbol map that erases the forbidden-move marker (a banned piece is a piece, a square
/// banned to the hole is empty).
fn erase_marker() -> Vec<Symbol> {
    (0..SYMBOLS as Symbol)
        .map(|c| match c {
            super::super::HOLE_BANNED => EMPTY,
            5..=8 => MINE,
            c => c,
        })
        .collect()
}

/// The boards of a set of states: the forbidden move erased.
///
/// # Errors
/// An [`EngineStop`](crate::dfa::limits::EngineStop).
pub fn boards_of(game: &Ostle, set: &Dfa) -> Stoppable<Dfa> {
    let n = game.variant.squares();
    let erase = erase_marker();
    let keep = Move { pre: None, changes: &[], post: None };
    set.image_union_over(&[keep], None, &Background::forward(crate::game::Rules::shape(game), &vec![erase; n]))
}

/// The states whose board (forbidden move erased) is in `boards`.
///
/// # Errors
/// An [`EngineStop`](crate::dfa::limits::EngineStop).
pub fn states_of_boards(game: &Ostle, boards: &Dfa) -> Stoppable<Dfa> {
    let n = game.variant.squares();
    let erase = erase_marker();
    boards.preimage_symbols(&vec![Some(erase); n])
}

/// The square classes of the hole up to symmetry: (name of the smallest square, squares).
pub fn hole_classes(v: &Variant) -> Vec<(String, Vec<usize>)> {
    let syms = v.symmetries();
    let mut seen = vec![false; v.squares()];
    let mut out = Vec::new();
    // Name classes by their square nearest a1 in the published style (a1, a2, b2, ...).
    let mut order: Vec<usize> = (0..v.squares()).collect();
    order.sort_by_key(|&s| (s % v.width + s / v.width, s % v.width));
    for s in order {
        if seen[s] {
            continue;
        }
        let mut class: Vec<usize> = syms.iter().map(|p| p[s]).collect();
        class.sort_unstable();
        class.dedup();
        for &c in &class {
            seen[c] = true;
        }
        let name_square = class.iter().copied().min_by_key(|&c| (c % v.width, c / v.width)).unwrap_or(s);
        out.push((v.square_name(name_square), class));
    }
    out
}

/// The boards (no marker) with the hole on one of `squares`, `mine` mover's pieces and
/// `theirs` of the opponent.
///
/// # Errors
/// An [`EngineStop`](crate::dfa::limits::EngineStop).
pub fn boards_with(game: &Ostle, squares: &[usize], mine: usize, theirs: usize) -> Stoppable<Dfa> {
    let s = crate::game::Rules::shape(game);
    let n = game.variant.squares();
    Dfa::conjunction(
        s,
        &[
            game.boards(0, 0)?,
            Dfa::from_allowed(s, |l, c| c != HOLE || squares.contains(&l)),
            Dfa::count_between(s, 0..n, |c| c == MINE, mine, mine),
            Dfa::count_between(s, 0..n, |c| c == THEIRS, theirs, theirs),
        ],
    )
}
