//! Building blocks games describe their sets with: single strings, lists of strings,
//! "layer i holds one of these symbols", and counting constraints.

use super::build::{DfaBuilder, from_strings};
use super::limits::Stoppable;
use super::{Dfa, Shape, StateId, Symbol};

impl Dfa {
    /// The set holding exactly `string`.
    ///
    /// # Panics
    /// If `string` does not fit `shape`.
    pub fn from_string(shape: &Shape, string: &[Symbol]) -> Dfa {
        from_strings(shape, &[string.to_vec()])
    }

    /// The set of the given strings (duplicates are fine).
    ///
    /// # Panics
    /// If a string does not fit `shape`.
    pub fn from_strings(shape: &Shape, strings: &[Vec<Symbol>]) -> Dfa {
        from_strings(shape, strings)
    }

    /// Strings whose symbol at each layer is allowed: `allowed(layer, symbol)`.
    pub fn from_allowed(shape: &Shape, allowed: impl Fn(usize, Symbol) -> bool) -> Dfa {
        let mut b = DfaBuilder::new(shape);
        let mut state = StateId::ACCEPT;
        for l in (0..shape.len()).rev() {
            let row: Vec<StateId> =
                (0..shape.alphabet(l)).map(|c| if allowed(l, c as Symbol) { state } else { StateId::REJECT }).collect();
            state = b.add(l, &row);
        }
        b.finish(state)
    }

    /// Strings with one of `symbols` at `layer` and anything elsewhere.
    pub fn layer_in(shape: &Shape, layer: usize, symbols: &[Symbol]) -> Dfa {
        Dfa::from_allowed(shape, |l, c| l != layer || symbols.contains(&c))
    }

    /// Strings in which the number of positions `l` in `layers` with `class(s[l])` true lies
    /// in `lo..=hi` (a counting automaton: one state per layer and count so far).
    pub fn count_between(
        shape: &Shape,
        layers: std::ops::Range<usize>,
        class: impl Fn(Symbol) -> bool,
        lo: usize,
        hi: usize,
    ) -> Dfa {
        let n = shape.len();
        assert!(layers.end <= n, "counted layers {layers:?} outside the shape");
        if lo > hi {
            return Dfa::reject_all(shape);
        }
        let cap = hi + 1; // counts above hi all behave alike
        let mut b = DfaBuilder::new(shape);
        // below[k] = state of the next layer after k counted symbols so far.
        let mut below: Vec<StateId> =
            (0..=cap).map(|k| if (lo..=hi).contains(&k) { StateId::ACCEPT } else { StateId::REJECT }).collect();
        for l in (0..n).rev() {
            let counted = layers.contains(&l);
            let here: Vec<StateId> = (0..=cap)
                .map(|k| {
                    let row: Vec<StateId> = (0..shape.alphabet(l))
                        .map(|c| {
                            let step = usize::from(counted && class(c as Symbol));
                            below[(k + step).min(cap)]
                        })
                        .collect();
                    b.add(l, &row)
                })
                .collect();
            below = here;
        }
        b.finish(below[0])
    }

    /// Strings whose count of `plus` symbols less their count of `minus` symbols, `d`, has
    /// `accept(d)` (a counting automaton: one state per layer and difference so far). Games
    /// compare discs or cells with it.
    pub fn count_difference(shape: &Shape, plus: Symbol, minus: Symbol, accept: impl Fn(i64) -> bool) -> Dfa {
        let n = shape.len() as i64;
        let offset = |d: i64| (d + n) as usize;
        let mut b = DfaBuilder::new(shape);
        let mut below: Vec<StateId> =
            (-n..=n).map(|d| if accept(d) { StateId::ACCEPT } else { StateId::REJECT }).collect();
        for l in (0..shape.len()).rev() {
            below = (-n..=n)
                .map(|d| {
                    let row: Vec<StateId> = (0..shape.alphabet(l))
                        .map(|s| {
                            let s = s as Symbol;
                            let e = d + i64::from(s == plus) - i64::from(s == minus);
                            if e.abs() > n { StateId::REJECT } else { below[offset(e)] }
                        })
                        .collect();
                    b.add(l, &row)
                })
                .collect();
        }
        b.finish(below[offset(0)])
    }

    /// The intersection of all `sets` (the empty conjunction is every string).
    ///
    /// # Errors
    /// An [`EngineStop`](super::limits::EngineStop).
    pub fn conjunction(shape: &Shape, sets: &[Dfa]) -> Stoppable<Dfa> {
        sets.iter().try_fold(Dfa::accept_all(shape), |acc, s| acc.intersection(s))
    }
}
