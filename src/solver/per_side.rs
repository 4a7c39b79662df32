//! One value per side to move, or one value for both.
//!
//! A game whose strings are mover-relative ([`SolverHints::mover_relative`](crate::game::SolverHints::mover_relative)) has one
//! set of positions for whoever moves: its sides share every set the solver holds. Other
//! games hold a set per side. `PerSide` knows which: reading the second side of a shared
//! value reads the one value, and iterating visits each value once, so the solver never asks
//! whether strings are mover-relative, never keeps an unused copy for the second side, and
//! never indexes sides by number.

use crate::vocabulary::Side;
use std::ops::{Index, IndexMut};

/// Whether the sides share their sets: one value for both, or a value each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    /// Mover-relative strings: one set stands for whoever moves.
    Shared,
    /// A set for each side to move.
    Apart,
}

impl Sides {
    /// How a game with [`SolverHints::mover_relative`](crate::game::SolverHints::mover_relative) strings (or not) holds its sets.
    pub fn of_game(mover_relative: bool) -> Sides {
        if mover_relative { Sides::Shared } else { Sides::Apart }
    }
}

/// A value per side to move (`Apart`), or one value standing for both (`Shared`).
///
/// Invariant: every value held belongs to a side in [`PerSide::sides`], and indexing by a side
/// reads that side's value (the shared one for either side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerSide<T> {
    /// One value for whoever moves.
    Shared(T),
    /// The first side's value, then the second side's.
    Apart([T; 2]),
}

impl<T> PerSide<T> {
    /// `value(side)` for each side holding a value of its own: once, as the first side, when
    /// the sides are shared.
    pub fn new(sides: Sides, mut value: impl FnMut(Side) -> T) -> PerSide<T> {
        match sides {
            Sides::Shared => PerSide::Shared(value(Side::First)),
            Sides::Apart => PerSide::Apart(Side::BOTH.map(value)),
        }
    }

    /// [`PerSide::new`] with a value that may fail; the first error is returned.
    ///
    /// # Errors
    /// The first error `value` returns.
    pub fn try_new<E>(sides: Sides, mut value: impl FnMut(Side) -> Result<T, E>) -> Result<PerSide<T>, E> {
        Ok(match sides {
            Sides::Shared => PerSide::Shared(value(Side::First)?),
            Sides::Apart => PerSide::Apart([value(Side::First)?, value(Side::Second)?]),
        })
    }

    /// Whether one value stands for both sides.
    pub fn sharing(&self) -> Sides {
        match self {
            PerSide::Shared(_) => Sides::Shared,
            PerSide::Apart(_) => Sides::Apart,
        }
    }

    /// Whether one value stands for both sides.
    pub fn is_shared(&self) -> bool {
        self.sharing() == Sides::Shared
    }

    /// The sides holding a value of their own: the first alone when shared.
    pub fn sides(&self) -> &'static [Side] {
        if self.is_shared() { &[Side::First] } else { &Side::BOTH }
    }

    /// Each side holding a value of its own, with that value.
    pub fn iter(&self) -> impl Iterator<Item = (Side, &T)> {
        self.sides().iter().map(move |&s| (s, &self[s]))
    }

    /// [`PerSide::iter`] with the values mutable.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Side, &mut T)> {
        let values: Vec<&mut T> = match self {
            PerSide::Shared(v) => vec![v],
            PerSide::Apart(vs) => vs.iter_mut().collect(),
        };
        Side::BOTH.into_iter().zip(values)
    }

    /// The values, each with its side, moved out.
    pub fn into_iter_sides(self) -> impl Iterator<Item = (Side, T)> {
        let values: Vec<T> = match self {
            PerSide::Shared(v) => vec![v],
            PerSide::Apart(vs) => vs.into_iter().collect(),
        };
        Side::BOTH.into_iter().zip(values)
    }

    /// The same sides, sharing as these do, with `f` of each value.
    pub fn map<U>(&self, mut f: impl FnMut(Side, &T) -> U) -> PerSide<U> {
        match self {
            PerSide::Shared(v) => PerSide::Shared(f(Side::First, v)),
            PerSide::Apart([a, b]) => PerSide::Apart([f(Side::First, a), f(Side::Second, b)]),
        }
    }

    /// [`PerSide::map`] with a fallible `f`: the first error.
    ///
    /// # Errors
    /// The first error `f` returns.
    pub fn try_map<U, E>(&self, mut f: impl FnMut(Side, &T) -> Result<U, E>) -> Result<PerSide<U>, E> {
        Ok(match self {
            PerSide::Shared(v) => PerSide::Shared(f(Side::First, v)?),
            PerSide::Apart([a, b]) => PerSide::Apart([f(Side::First, a)?, f(Side::Second, b)?]),
        })
    }

    /// [`PerSide::into_map`] with a fallible `f`: the first error.
    ///
    /// # Errors
    /// The first error `f` returns.
    pub fn try_into_map<U, E>(self, mut f: impl FnMut(Side, T) -> Result<U, E>) -> Result<PerSide<U>, E> {
        Ok(match self {
            PerSide::Shared(v) => PerSide::Shared(f(Side::First, v)?),
            PerSide::Apart([a, b]) => PerSide::Apart([f(Side::First, a)?, f(Side::Second, b)?]),
        })
    }

    /// [`PerSide::map`] consuming the values.
    pub fn into_map<U>(self, mut f: impl FnMut(Side, T) -> U) -> PerSide<U> {
        match self {
            PerSide::Shared(v) => PerSide::Shared(f(Side::First, v)),
            PerSide::Apart([a, b]) => PerSide::Apart([f(Side::First, a), f(Side::Second, b)]),
        }
    }

    /// `f` of this side's value and `other`'s, for each side of these (which `other` must
    /// share as these do).
    ///
    /// # Panics
    /// If one of the two is shared and the other not.
    pub fn zip_map<U, V>(&self, other: &PerSide<U>, mut f: impl FnMut(Side, &T, &U) -> V) -> PerSide<V> {
        assert_eq!(self.sharing(), other.sharing(), "per-side values of a shared and an unshared kind");
        self.map(|s, t| f(s, t, &other[s]))
    }

    /// [`PerSide::zip_map`] with a fallible `f`: the first error.
    ///
    /// # Errors
    /// The first error `f` returns.
    ///
    /// # Panics
    /// As [`PerSide::zip_map`].
    pub fn try_zip_map<U, V, E>(
        &self,
        other: &PerSide<U>,
        mut f: impl FnMut(Side, &T, &U) -> Result<V, E>,
    ) -> Result<PerSide<V>, E> {
        assert_eq!(self.sharing(), other.sharing(), "per-side values of a shared and an unshared kind");
        self.try_map(|s, t| f(s, t, &other[s]))
    }
}

impl<T: Clone> PerSide<T> {
    /// `value` for each side holding one of its own.
    pub fn splat(sides: Sides, value: &T) -> PerSide<T> {
        PerSide::new(sides, |_| value.clone())
    }
}

impl<T> Index<Side> for PerSide<T> {
    type Output = T;

    fn index(&self, side: Side) -> &T {
        match self {
            PerSide::Shared(v) => v,
            PerSide::Apart([first, second]) => match side {
                Side::First => first,
                Side::Second => second,
            },
        }
    }
}

impl<T> IndexMut<Side> for PerSide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match self {
            PerSide::Shared(v) => v,
            PerSide::Apart([first, second]) => match side {
                Side::First => first,
                Side::Second => second,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_value_answers_for_both_sides_and_is_visited_once() {
        let mut calls = Vec::new();
        let shared = PerSide::new(Sides::Shared, |s| {
            calls.push(s);
            7
        });
        assert_eq!(calls, [Side::First]);
        assert_eq!((shared[Side::First], shared[Side::Second]), (7, 7));
        assert_eq!(shared.iter().collect::<Vec<_>>(), [(Side::First, &7)]);
        assert_eq!(shared.sides(), [Side::First]);
        let mut shared = shared;
        shared[Side::Second] += 1;
        assert_eq!(shared[Side::First], 8, "writing either side writes the one value");
        assert_eq!(shared.into_iter_sides().count(), 1);
    }

    #[test]
    fn values_apart_keep_their_sides_through_every_operation() {
        let apart = PerSide::new(Sides::Apart, |s| if s == Side::First { 1 } else { 2 });
        assert_eq!((apart[Side::First], apart[Side::Second]), (1, 2));
        assert_eq!(apart.map(|s, v| (s, v * 10)), PerSide::Apart([(Side::First, 10), (Side::Second, 20)]));
        assert_eq!(apart.zip_map(&apart.map(|_, v| v + 1), |_, a, b| a * b), PerSide::Apart([2, 6]));
        let failed: Result<PerSide<i32>, &str> =
            PerSide::try_new(Sides::Apart, |s| if s == Side::Second { Err("no") } else { Ok(apart[s]) });
        assert_eq!(failed, Err("no"));
        let mut apart = apart;
        for (s, v) in apart.iter_mut() {
            *v += s.index() as i32;
        }
        assert_eq!(apart.into_iter_sides().collect::<Vec<_>>(), [(Side::First, 1), (Side::Second, 3)]);
    }

    #[test]
    #[should_panic(expected = "shared and an unshared")]
    fn zipping_a_shared_with_an_unshared_value_is_refused() {
        PerSide::Shared(1).zip_map(&PerSide::Apart([1, 2]), |_, a, b| a + b);
    }
}
