//! The set operations of [`Dfa`], each one product ([`super::product`]) or a linear pass:
//! union, intersection, difference, complement, change, the fused move image, relabelling.
//!
//! Every operation that builds states may be stopped by the engine's limits and returns
//! [`Stoppable`]; the complement, a linear relabelling of ids, cannot be. Operands of
//! different shapes are a programmer error and panic, before any shortcut.

use super::limits::Stoppable;
use super::product::{All, DEAD, Either, Minus, SymbolMaps, identity_maps, product};
use super::{Dfa, Shape, StateId, Symbol};

/// Rewrite of one layer: keeps the strings with `from` at `layer` and rewrites that symbol
/// to `to`. A list of changes applies at most one change per layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Change {
    /// Which character of the string.
    pub layer: usize,
    /// The symbol the string must have there.
    pub from: Symbol,
    /// The symbol it gets instead.
    pub to: Symbol,
}

impl Change {
    /// A change of `layer` from `from` to `to`.
    pub fn new(layer: usize, from: Symbol, to: Symbol) -> Change {
        Change { layer, from, to }
    }

    /// The change that undoes this one.
    pub fn inverse(self) -> Change {
        Change { layer: self.layer, from: self.to, to: self.from }
    }
}

/// The per-layer map that realises `changes` for an operand: at a changed layer, output `to`
/// reads `from` and every other output reads nothing.
fn change_map(shape: &Shape, changes: &[Change]) -> Vec<Option<Vec<u16>>> {
    let mut maps: Vec<Option<Vec<u16>>> = vec![None; shape.len()];
    for ch in changes {
        assert!(ch.layer < shape.len(), "change {ch:?} outside the shape");
        let alphabet = shape.alphabet(ch.layer);
        assert!((ch.from as usize) < alphabet && (ch.to as usize) < alphabet, "change {ch:?} outside the alphabet");
        assert!(maps[ch.layer].is_none(), "two changes of layer {}", ch.layer);
        let mut m = vec![DEAD; alphabet];
        m[ch.to as usize] = ch.from as u16;
        maps[ch.layer] = Some(m);
    }
    maps
}

impl Dfa {
    /// Strings in both sets.
    pub fn intersection(&self, other: &Dfa) -> Stoppable<Dfa> {
        assert_eq!(self.shape, other.shape, "operands of one operation must share a shape");
        if self.is_empty() || other.is_full() {
            return Ok(self.clone());
        }
        if other.is_empty() || self.is_full() {
            return Ok(other.clone());
        }
        product(&self.shape, [self, other], &identity_maps(&self.shape), &All)
    }

    /// Strings in either set.
    pub fn union(&self, other: &Dfa) -> Stoppable<Dfa> {
        assert_eq!(self.shape, other.shape, "operands of one operation must share a shape");
        if self.is_full() || other.is_empty() {
            return Ok(self.clone());
        }
        if other.is_full() || self.is_empty() {
            return Ok(other.clone());
        }
        product(&self.shape, [self, other], &identity_maps(&self.shape), &Either)
    }

    /// Strings in `self` and not in `other`.
    pub fn difference(&self, other: &Dfa) -> Stoppable<Dfa> {
        assert_eq!(self.shape, other.shape, "operands of one operation must share a shape");
        if self.is_empty() || other.is_empty() {
            return Ok(self.clone());
        }
        if other.is_full() {
            return Ok(Dfa::reject_all(&self.shape));
        }
        product(&self.shape, [self, other], &identity_maps(&self.shape), &Minus)
    }

    /// `self ∪= other`. An empty `other` leaves `self` as it is: [`Dfa::union`] would copy it,
    /// and a solver's running sets reach gigabytes.
    pub fn unite_with(&mut self, other: &Dfa) -> Stoppable<()> {
        if !other.is_empty() {
            *self = self.union(other)?;
        }
        Ok(())
    }

    /// `self \= other`, without a copy of `self` when `other` is empty (see
    /// [`Dfa::unite_with`]).
    pub fn subtract(&mut self, other: &Dfa) -> Stoppable<()> {
        if !other.is_empty() && !self.is_empty() {
            *self = self.difference(other)?;
        }
        Ok(())
    }

    /// Whether every member of `self` is a member of `other`.
    pub fn is_subset(&self, other: &Dfa) -> Stoppable<bool> {
        Ok(self.difference(other)?.is_empty())
    }

    /// Strings of the shape not in `self`. Linear time: swapping the two reserved ids keeps
    /// every invariant (rows stay distinct and reduced, first appearances keep their order).
    pub fn complement(&self) -> Dfa {
        let swap = |x: u32| if x < 2 { 1 - x } else { x };
        let layers = self
            .layers
            .iter()
            .map(|layer| {
                let a = layer.alphabet();
                let mut next: Vec<u32> = layer.raw().iter().map(|&x| swap(x)).collect();
                // Reserved rows keep their meaning: row 0 all-0, row 1 all-1 (I3).
                next[..a].fill(0);
                next[a..2 * a].fill(1);
                super::Layer::from_raw(a, next)
            })
            .collect();
        Dfa::from_parts(self.shape.clone(), StateId(swap(self.initial.0)), layers)
    }

    /// `change(S)`: the members with `from` at each changed layer, with that symbol rewritten
    /// to `to`. Linear in the size of `self`; the result is re-minimised in the same pass.
    ///
    /// # Panics
    /// If two changes name the same layer or a change lies outside the shape.
    pub fn change(&self, changes: &[Change]) -> Stoppable<Dfa> {
        self.image(&Dfa::accept_all(&self.shape), changes, &Dfa::accept_all(&self.shape))
    }

    /// `change⁻¹(S)`: the strings whose change lies in `self`.
    pub fn change_inverse(&self, changes: &[Change]) -> Stoppable<Dfa> {
        let inverse: Vec<Change> = changes.iter().map(|c| c.inverse()).collect();
        self.change(&inverse)
    }

    /// The fused move image `post ∩ change(self ∩ pre)` in one pass over the three operands.
    ///
    /// The backward image of a move is `pre ∩ change⁻¹(S ∩ post)`, which is
    /// `S.image(post, inverse changes, pre)`.
    pub fn image(&self, pre: &Dfa, changes: &[Change], post: &Dfa) -> Stoppable<Dfa> {
        let shape = &self.shape;
        if self.is_empty() || pre.is_empty() || post.is_empty() {
            return Ok(Dfa::reject_all(shape));
        }
        let cmap = change_map(shape, changes);
        let mapped = |l: usize| cmap[l].clone();
        match (pre.is_full(), post.is_full()) {
            (true, true) => {
                let maps: SymbolMaps<1> = (0..shape.len()).map(|l| [mapped(l)]).collect();
                product(shape, [self], &maps, &All)
            }
            (false, true) => {
                let maps: SymbolMaps<2> = (0..shape.len()).map(|l| [mapped(l), mapped(l)]).collect();
                product(shape, [self, pre], &maps, &All)
            }
            (true, false) => {
                let maps: SymbolMaps<2> = (0..shape.len()).map(|l| [mapped(l), None]).collect();
                product(shape, [self, post], &maps, &All)
            }
            (false, false) => {
                let maps: SymbolMaps<3> = (0..shape.len()).map(|l| [mapped(l), mapped(l), None]).collect();
                product(shape, [self, pre, post], &maps, &All)
            }
        }
    }

    /// Relabel symbols: a member `s` becomes the string with `perm[l][s[l]]` at each layer `l`
    /// (`None` leaves a layer as it is). Each `perm[l]` must be a permutation of the layer's
    /// alphabet. One pass, like `change`.
    ///
    /// # Panics
    /// If a map is not a permutation of its layer's alphabet.
    pub fn relabel(&self, perm: &[Option<Vec<Symbol>>]) -> Stoppable<Dfa> {
        let shape = &self.shape;
        assert_eq!(perm.len(), shape.len());
        let maps: SymbolMaps<1> = perm
            .iter()
            .enumerate()
            .map(|(l, p)| {
                [p.as_ref().map(|p| {
                    let a = shape.alphabet(l);
                    assert_eq!(p.len(), a, "layer {l}: map must cover the alphabet");
                    let mut inverse = vec![DEAD; a];
                    for (input, &output) in p.iter().enumerate() {
                        assert!(
                            (output as usize) < a && inverse[output as usize] == DEAD,
                            "layer {l}: not a permutation"
                        );
                        inverse[output as usize] = input as u16;
                    }
                    inverse
                })]
            })
            .collect();
        product(shape, [self], &maps, &All)
    }

    /// The strings whose image under a symbol map is in `self`: `x` is a member when the
    /// string with `map[l][x[l]]` at each layer `l` is in `self` (`None` leaves a layer as it
    /// is). The map need not be a permutation; the result is built in one pass, like `change`.
    ///
    /// # Panics
    /// If a map does not cover its layer's alphabet or leaves it.
    pub fn preimage_symbols(&self, map: &[Option<Vec<Symbol>>]) -> Stoppable<Dfa> {
        let shape = &self.shape;
        assert_eq!(map.len(), shape.len());
        let maps: SymbolMaps<1> = map
            .iter()
            .enumerate()
            .map(|(l, m)| {
                [m.as_ref().map(|m| {
                    let a = shape.alphabet(l);
                    assert_eq!(m.len(), a, "layer {l}: map must cover the alphabet");
                    assert!(m.iter().all(|&c| (c as usize) < a), "layer {l}: map leaves the alphabet");
                    m.iter().map(|&c| u16::from(c)).collect()
                })]
            })
            .collect();
        product(shape, [self], &maps, &All)
    }

    /// Swap symbols `a` and `b` in every layer (e.g. the two players' pieces).
    pub fn swap_symbols(&self, a: Symbol, b: Symbol) -> Stoppable<Dfa> {
        let perm: Vec<Option<Vec<Symbol>>> = (0..self.shape.len())
            .map(|l| {
                let n = self.shape.alphabet(l);
                ((a as usize) < n && (b as usize) < n).then(|| {
                    (0..n as u16)
                        .map(|s| s as Symbol)
                        .map(|s| {
                            if s == a {
                                b
                            } else if s == b {
                                a
                            } else {
                                s
                            }
                        })
                        .collect()
                })
            })
            .collect();
        self.relabel(&perm)
    }
}
