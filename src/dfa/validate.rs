//! [`Dfa::validate`]: checks every invariant of the module docs.

use super::{Dfa, StateId};
use hashbrown::HashSet;

/// The first invariant a [`Dfa`] value was found to break.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvariantViolation {
    /// I1: wrong number of layers or a row length that differs from the alphabet.
    #[error("I1: layer {layer}: {what}")]
    Layering {
        /// The layer.
        layer: usize,
        /// Details.
        what: String,
    },
    /// I2: a successor or the initial id is out of range.
    #[error("I2: layer {layer} state {state}: successor {next} out of range (next layer has {next_len})")]
    OutOfRange {
        /// The layer.
        layer: usize,
        /// The state.
        state: u32,
        /// The bad successor id.
        next: u32,
        /// States in the next layer.
        next_len: usize,
    },
    /// I3: a reserved row is not all-reject/all-accept.
    #[error("I3: layer {layer}: reserved row {state} altered")]
    Reserved {
        /// The layer.
        layer: usize,
        /// 0 or 1.
        state: u32,
    },
    /// I4: a non-reserved state equivalent to a reserved one.
    #[error("I4: layer {layer} state {state} has an all-{} row", if *all == 0 { "reject" } else { "accept" })]
    NotReduced {
        /// The layer.
        layer: usize,
        /// The state.
        state: u32,
        /// The repeated id.
        all: u32,
    },
    /// I5: two states of a layer with one row.
    #[error("I5: layer {layer}: states {a} and {b} have the same row")]
    Duplicate {
        /// The layer.
        layer: usize,
        /// First state.
        a: u32,
        /// Second state.
        b: u32,
    },
    /// I6/I7: a state unreachable, or ids not in first-appearance order.
    #[error("I6/I7: layer {layer}: state ids not in first-appearance order (expected {expected}, found {found})")]
    Numbering {
        /// The layer.
        layer: usize,
        /// Expected next new id.
        expected: u32,
        /// Found id.
        found: u32,
    },
}

impl Dfa {
    /// Check invariants I1–I7 (see the module docs of `dfa`). Linear time.
    ///
    /// # Errors
    /// The first violation found.
    pub fn validate(&self) -> Result<(), InvariantViolation> {
        let n = self.shape.len();
        if self.layers.len() != n {
            return Err(InvariantViolation::Layering {
                layer: self.layers.len().min(n),
                what: format!("{} layers for a shape of {n}", self.layers.len()),
            });
        }
        if n == 0 {
            return if self.initial.is_reserved() {
                Ok(())
            } else {
                Err(InvariantViolation::OutOfRange { layer: 0, state: 0, next: self.initial.0, next_len: 2 })
            };
        }
        for (l, layer) in self.layers.iter().enumerate() {
            let a = self.shape.alphabet(l);
            if layer.alphabet() != a || layer.raw().len() % a != 0 || layer.len() < 2 {
                return Err(InvariantViolation::Layering { layer: l, what: format!("rows do not have {a} entries") });
            }
            for r in 0..2u32 {
                if layer.row(StateId(r)).iter().any(|&x| x != r) {
                    return Err(InvariantViolation::Reserved { layer: l, state: r });
                }
            }
            let next_len = if l + 1 < n { self.layers[l + 1].len() } else { 2 };
            let mut seen: HashSet<&[u32]> = HashSet::with_capacity(layer.len());
            for s in 2..layer.len() as u32 {
                let row = layer.row(StateId(s));
                if let Some(&x) = row.iter().find(|&&x| x as usize >= next_len) {
                    return Err(InvariantViolation::OutOfRange { layer: l, state: s, next: x, next_len });
                }
                if row[0] < 2 && row.iter().all(|&x| x == row[0]) {
                    return Err(InvariantViolation::NotReduced { layer: l, state: s, all: row[0] });
                }
                if !seen.insert(row) {
                    let a = (2..s).find(|&t| layer.row(StateId(t)) == row).unwrap_or(0);
                    return Err(InvariantViolation::Duplicate { layer: l, a, b: s });
                }
            }
        }
        // I6 + I7: scanning rows in order, new ids appear exactly as 2, 3, ..., and every id
        // of the next layer appears.
        let first = &self.layers[0];
        let expected_first = if self.initial.is_reserved() { 2 } else { 3 };
        if self.initial.0 as usize >= first.len() {
            return Err(InvariantViolation::OutOfRange {
                layer: 0,
                state: 0,
                next: self.initial.0,
                next_len: first.len(),
            });
        }
        if !self.initial.is_reserved() && self.initial != StateId(2) || first.len() != expected_first as usize {
            return Err(InvariantViolation::Numbering { layer: 0, expected: 2, found: self.initial.0 });
        }
        for l in 0..n - 1 {
            let layer = &self.layers[l];
            let mut fresh = 2u32;
            for &x in &layer.raw()[2 * layer.alphabet()..] {
                if x >= 2 {
                    if x > fresh {
                        return Err(InvariantViolation::Numbering { layer: l + 1, expected: fresh, found: x });
                    }
                    if x == fresh {
                        fresh += 1;
                    }
                }
            }
            if fresh as usize != self.layers[l + 1].len() {
                return Err(InvariantViolation::Numbering {
                    layer: l + 1,
                    expected: fresh,
                    found: self.layers[l + 1].len() as u32,
                });
            }
        }
        Ok(())
    }
}
