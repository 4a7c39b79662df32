//! Move graphs of one-character moves without conditions (Nim's "take tokens from heap i"):
//! one symbol relation per layer, imaged by a kept [`RelationImager`].

use super::{Direction, MoveGraph};
use crate::dfa::limits::Stoppable;
use crate::dfa::{Dfa, RelationImager, Symbol};

impl MoveGraph {
    /// When every path rewrites exactly one character and has no conditions (and no layers are
    /// relabelled), the moves are one symbol relation per layer: `(layer, pairs)` sorted by
    /// layer, computed once. Images then take the graph's kept [`RelationImager`], one pass
    /// over all layers, instead of a pass that carries every move's hypotheses (Nim 8x31:
    /// 3,968 moves).
    pub(super) fn layer_relations(&self) -> Stoppable<Option<&[LayerRelation]>> {
        Ok(crate::once::get_or_try_init(&self.relations, || self.find_layer_relations())?.as_deref())
    }
    pub(super) fn find_layer_relations(&self) -> Stoppable<Option<Vec<LayerRelation>>> {
        if self.relabel.is_some() {
            return Ok(None);
        }
        let unconditional = |c: &Option<Dfa>| c.as_ref().is_none_or(Dfa::is_full);
        let mut by_layer: std::collections::BTreeMap<usize, Vec<(Symbol, Symbol)>> = Default::default();
        let Some(paths) = self.flat()? else { return Ok(None) };
        for p in paths {
            match p.changes[..] {
                [c] if unconditional(&p.pre) && unconditional(&p.post) => {
                    by_layer.entry(c.layer).or_default().push((c.from, c.to))
                }
                _ => return Ok(None),
            }
        }
        Ok(Some(by_layer.into_iter().collect()))
    }
    /// The union over `relations` of the images (or, `backward`, preimages) of `set`, within
    /// `within` when given: one pass over all layers with the graph's kept imager
    /// ([`RelationImager`]), so a series of images reuses the unions already built.
    pub(super) fn relation_images(
        &self,
        relations: &[LayerRelation],
        set: &Dfa,
        direction: Direction,
        within: Option<&Dfa>,
    ) -> Stoppable<Dfa> {
        // A poisoned lock only means an earlier image panicked; the imager is rebuilt then. A
        // stop leaves it usable (it memoises finished nodes only).
        let mut slot = self.imagers[direction.index()].lock().unwrap_or_else(|e| {
            let mut guard = e.into_inner();
            *guard = None;
            guard
        });
        let imager = slot.get_or_insert_with(|| {
            if direction == Direction::Backward {
                let inverse: Vec<LayerRelation> =
                    relations.iter().map(|(l, pairs)| (*l, pairs.iter().map(|&(a, b)| (b, a)).collect())).collect();
                RelationImager::new(&self.shape, &inverse)
            } else {
                RelationImager::new(&self.shape, relations)
            }
        });
        imager.image(set, within)
    }
}

/// All the moves that rewrite one layer, as pairs `(from, to)` of its symbols.
pub(super) type LayerRelation = (usize, Vec<(Symbol, Symbol)>);
