//! Images under symbol relations on single layers: every move rewrites one character and
//! nothing else (Nim's "take k tokens from heap i", for instance), so all the moves that touch
//! layer `l` are one relation `R_l` on its symbols.
//!
//! The image is built bottom-up in a hash-consed node store ([`RelationImager`]): the image of
//! a state `u` at layer `l` reads, on `c`, the union of the image of `δ(u, c)` (the move comes
//! later) and of `δ(u, a)` over `(a, c) ∈ R_l` (the move is here). Unions are memoised node
//! pairs, and an imager kept across calls reuses them for the next set.

use super::canonical::canonicalize;
use super::limits::Stoppable;
use super::unique::RowTable;
use super::{Dfa, Symbol};

impl Dfa {
    /// The strings obtained from members of `self` by rewriting the symbol at `layer` along
    /// `relation`: `y` is a member when some member `x` agrees with `y` off `layer` and
    /// `(x[layer], y[layer])` is a pair of `relation`. With the pairs reversed this is the
    /// preimage (the strings with a move into `self`). One layer of [`Dfa::relations_image`].
    ///
    /// # Panics
    /// If `layer` or a symbol of `relation` lies outside the shape.
    pub fn layer_relation_image(&self, layer: usize, relation: &[(Symbol, Symbol)]) -> Stoppable<Dfa> {
        self.relations_image(&[(layer, relation.to_vec())], None)
    }
}

/// How to fold each symbol's sources cheaply: `(base, extra)` per symbol `c`, where
/// `sources[c]` is `sources[base] ∪ extra` for an earlier symbol `base` whose sources are a
/// subset (the largest one), so nested source sets (Nim's "any smaller heap") cost one union
/// per symbol instead of one per source.
fn fold_plan(sources: &[Vec<u32>]) -> Vec<(Option<usize>, Vec<u32>)> {
    (0..sources.len())
        .map(|c| {
            let subset = |b: &usize| sources[*b].iter().all(|x| sources[c].binary_search(x).is_ok());
            let base = (0..c).filter(|b| !sources[*b].is_empty()).filter(subset).max_by_key(|b| sources[*b].len());
            let extra = match base {
                Some(b) => sources[c].iter().copied().filter(|x| sources[b].binary_search(x).is_err()).collect(),
                None => sources[c].clone(),
            };
            (base, extra)
        })
        .collect()
}

/// Hash-consed states shared by successive images: one unique table per layer whose rows
/// name rows of the next layer's table, with memoised pairwise unions and intersections.
/// Every node is canonical (by induction from the last layer: same language, same children,
/// same row), so a DFA imported into the store maps its states onto nodes, and equal
/// languages met in different calls are one node. That is what makes a series of images cheap
/// when the sets share most of their residual languages (Nim's loss sets at successive plies
/// differ in one token-count threshold): unions done for one call are memo hits for the next.
struct NodeStore {
    alphabets: Vec<usize>,
    tables: Vec<RowTable>,
    /// Per [`PairOp`] and layer, the node of each pair already combined.
    memo: [Vec<hashbrown::HashMap<(u32, u32), u32>>; 2],
    row: Vec<Vec<u32>>,
    recent: RecentPairs,
}

/// A direct-mapped cache of recent pairwise answers in front of the memo tables (the
/// "computed table" of BDD packages): one slot per hash, overwritten on collision. The memo
/// tables grow to millions of pairs, so a hit there costs cache misses; most lookups repeat a
/// pair met shortly before, and this small table answers them from cache (Nim 8x31: 93
/// million union lookups, 3 million distinct pairs; about 10% less wall time).
struct RecentPairs {
    slots: Vec<[u32; 4]>,
}

impl RecentPairs {
    const BITS: u32 = 18;

    fn new() -> RecentPairs {
        RecentPairs { slots: vec![[0; 4]; 1 << Self::BITS] }
    }

    /// `tag` names the operation and layer (never 0, which marks an empty slot).
    #[inline]
    fn slot(tag: u32, key: (u32, u32)) -> usize {
        let h = ((key.0 as u64) << 32 | key.1 as u64) ^ ((tag as u64) << 58);
        (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - Self::BITS)) as usize
    }

    #[inline]
    fn get(&self, tag: u32, key: (u32, u32)) -> Option<u32> {
        let e = self.slots[Self::slot(tag, key)];
        (e[0] == tag && e[1] == key.0 && e[2] == key.1).then_some(e[3])
    }

    #[inline]
    fn put(&mut self, tag: u32, key: (u32, u32), value: u32) {
        self.slots[Self::slot(tag, key)] = [tag, key.0, key.1, value];
    }
}

/// The pairwise operations of the store.
#[derive(Clone, Copy)]
enum PairOp {
    Union = 0,
    Intersection = 1,
}

impl NodeStore {
    fn new(shape: &super::Shape) -> NodeStore {
        let n = shape.len();
        let alphabets: Vec<usize> = (0..n).map(|l| shape.alphabet(l)).collect();
        NodeStore {
            tables: alphabets.iter().map(|&a| RowTable::new(a)).collect(),
            memo: [0, 1].map(|_| (0..n).map(|_| hashbrown::HashMap::new()).collect()),
            recent: RecentPairs::new(),
            row: alphabets.iter().map(|&a| Vec::with_capacity(a)).collect(),
            alphabets,
        }
    }

    /// Rows held, all layers together.
    fn nodes(&self) -> usize {
        self.tables.iter().map(RowTable::len).sum()
    }

    /// The node of every state of `dfa`, per layer (`map[l][state]`), interning bottom-up.
    fn import(&mut self, dfa: &Dfa) -> Stoppable<Vec<Vec<u32>>> {
        let n = self.alphabets.len();
        let mut map: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut row = Vec::new();
        for l in (0..n).rev() {
            let a = self.alphabets[l];
            let raw = dfa.layers[l].raw();
            let states = dfa.layers[l].len();
            let mut ids = vec![0, 1];
            for s in 2..states {
                row.clear();
                row.extend(raw[s * a..(s + 1) * a].iter().map(|&x| if l + 1 < n { map[l + 1][x as usize] } else { x }));
                ids.push(self.tables[l].intern(&row)?);
            }
            map[l] = ids;
        }
        Ok(map)
    }

    /// The canonical DFA of node `root` of layer 0: its reachable nodes, renumbered.
    fn extract(&self, shape: &super::Shape, root: u32) -> Dfa {
        let n = self.alphabets.len();
        let mut layers = Vec::with_capacity(n);
        let mut order = vec![root];
        for l in 0..n {
            let a = self.alphabets[l];
            let mut index: hashbrown::HashMap<u32, u32> = hashbrown::HashMap::new();
            let mut next = Vec::new();
            let mut rows = Vec::with_capacity((order.len() + 2) * a);
            rows.extend(std::iter::repeat_n(0, a));
            rows.extend(std::iter::repeat_n(1, a));
            for &g in &order {
                for c in 0..a {
                    let x = self.child(l, g, c);
                    rows.push(if x < 2 {
                        x
                    } else {
                        *index.entry(x).or_insert_with(|| {
                            next.push(x);
                            next.len() as u32 + 1
                        })
                    });
                }
            }
            layers.push(rows);
            order = next;
        }
        canonicalize(shape, if root < 2 { root } else { 2 }, layers)
    }

    fn child(&self, layer: usize, node: u32, c: usize) -> u32 {
        self.tables[layer].rows()[node as usize * self.alphabets[layer] + c]
    }

    /// The node of `L(x) ∪ L(y)`, both nodes of `layer` (`layer == n`: past the last layer,
    /// where only 0 and 1 exist).
    fn union(&mut self, layer: usize, x: u32, y: u32) -> Stoppable<u32> {
        if x == y || y == 0 {
            return Ok(x);
        }
        if x == 0 {
            return Ok(y);
        }
        if x == 1 || y == 1 {
            return Ok(1);
        }
        self.pairwise(PairOp::Union, layer, x, y)
    }

    /// The node of `L(x) ∩ L(y)`, both nodes of `layer` (as in [`NodeStore::union`]).
    fn intersection(&mut self, layer: usize, x: u32, y: u32) -> Stoppable<u32> {
        if x == y || y == 1 {
            return Ok(x);
        }
        if x == 1 {
            return Ok(y);
        }
        if x == 0 || y == 0 {
            return Ok(0);
        }
        self.pairwise(PairOp::Intersection, layer, x, y)
    }

    /// `op` on two nodes of `layer` past its terminal cases: memoised, row by row.
    fn pairwise(&mut self, op: PairOp, layer: usize, x: u32, y: u32) -> Stoppable<u32> {
        let key = (x.min(y), x.max(y));
        let tag = 2 * layer as u32 + op as u32 + 1;
        if let Some(z) = self.recent.get(tag, key) {
            return Ok(z);
        }
        if let Some(&z) = self.memo[op as usize][layer].get(&key) {
            self.recent.put(tag, key, z);
            return Ok(z);
        }
        let a = self.alphabets[layer];
        let mut row = std::mem::take(&mut self.row[layer]);
        row.clear();
        // Neighbouring symbols often lead to the same pair (Nim: every heap size past a
        // threshold): reuse the last answer rather than look it up again.
        let mut last = (u32::MAX, u32::MAX, 0);
        for c in 0..a {
            let (cx, cy) = (self.child(layer, x, c), self.child(layer, y, c));
            if (cx, cy) != (last.0, last.1) {
                // A stop leaves the store whole: the rows interned so far are nodes like any
                // other, and nothing half-made is memoised (the row buffer is only scratch).
                let z = match op {
                    PairOp::Union => self.union(layer + 1, cx, cy)?,
                    PairOp::Intersection => self.intersection(layer + 1, cx, cy)?,
                };
                last = (cx, cy, z);
            }
            row.push(last.2);
        }
        let z = self.tables[layer].intern(&row);
        self.row[layer] = row;
        let z = z?;
        self.memo[op as usize][layer].insert(key, z);
        self.recent.put(tag, key, z);
        Ok(z)
    }
}

/// Images under one symbol relation per layer (moves that each rewrite one character), for a
/// series of sets: the relations are prepared once and the hash-consed unions of one image
/// are reused by the next (a hash-consed node store). [`Dfa::relations_image`] is one call of it.
pub struct RelationImager {
    shape: super::Shape,
    /// Per layer and symbol `c`, `(base, extra)` covering the symbols that may become `c`:
    /// see [`fold_plan`].
    plans: Vec<Vec<(Option<usize>, Vec<u32>)>>,
    moves_at: Vec<bool>,
    /// `moves_below[l]`: some layer `>= l` has a move.
    moves_below: Vec<bool>,
    store: NodeStore,
    /// `moved[l][u]`: per symbol `c`, the union of `u`'s successors on the sources of `c`.
    moved: Vec<hashbrown::HashMap<u32, Box<[u32]>>>,
    /// `images[l][u]`: [`RelationImager::node_image`].
    images: Vec<hashbrown::HashMap<u32, u32>>,
    /// `restricted[l][(w, u)]`: [`RelationImager::restricted_image`].
    restricted: Vec<hashbrown::HashMap<(u32, u32), u32>>,
}

/// The store is dropped and started afresh past this many nodes (all layers), so a long series
/// of images keeps bounded memory.
const STORE_LIMIT: usize = 1 << 24;

impl RelationImager {
    /// Prepare images of strings of `shape` under `relations` (`(layer, pairs)`; a layer may
    /// appear more than once).
    ///
    /// # Panics
    /// If a layer or a symbol of `relations` lies outside the shape.
    pub fn new(shape: &super::Shape, relations: &[(usize, Vec<(Symbol, Symbol)>)]) -> RelationImager {
        let n = shape.len();
        let mut sources: Vec<Vec<Vec<u32>>> = (0..n).map(|l| vec![Vec::new(); shape.alphabet(l)]).collect();
        for (layer, pairs) in relations {
            assert!(*layer < n, "layer {layer} outside a shape of {n} layers");
            let alphabet = shape.alphabet(*layer);
            for &(a, c) in pairs {
                assert!((a as usize) < alphabet && (c as usize) < alphabet, "pair ({a}, {c}) outside layer {layer}");
                sources[*layer][c as usize].push(a as u32);
            }
        }
        for per_symbol in &mut sources {
            for s in per_symbol.iter_mut() {
                s.sort_unstable();
                s.dedup();
            }
        }
        let moves_at: Vec<bool> = sources.iter().map(|per| per.iter().any(|s| !s.is_empty())).collect();
        let mut moves_below = vec![false; n + 1];
        for l in (0..n).rev() {
            moves_below[l] = moves_below[l + 1] || moves_at[l];
        }
        RelationImager {
            shape: shape.clone(),
            plans: sources.iter().map(|per| fold_plan(per)).collect(),
            moves_at,
            moves_below,
            store: NodeStore::new(shape),
            moved: (0..n).map(|_| hashbrown::HashMap::new()).collect(),
            images: (0..n).map(|_| hashbrown::HashMap::new()).collect(),
            restricted: (0..n).map(|_| hashbrown::HashMap::new()).collect(),
        }
    }

    /// The strings of `within` (all strings when `None`) obtained from a member of `set` by
    /// rewriting exactly one character along its layer's relation.
    ///
    /// `set` (and `within`) are imported into the store. Without `within`, the image of the
    /// set's initial node is built bottom-up (`node_image`, memoised per node
    /// across calls, so the states a set shares with earlier ones cost a lookup). With
    /// `within`, the restricted image `L(w) ∩ image(L(u))` is built the same way for the pairs
    /// of a `within` node and a set node reached together (`restricted_image`),
    /// so every union it makes is of languages inside `within`: the image outside it is never
    /// built (Nim 8x31 backing up through ply 120: a 4,000-state set has a 180,000-state image
    /// of which 5,000 states lie in the ply).
    ///
    /// Why not top-down with a state (prefix unchanged, moves made so far): the moves made in
    /// the prefix alone, or the moves still to come alone, can remember far more than their
    /// union (in Nim, a set of XOR values that the other heaps' moves fill in), and such a
    /// state keeps them apart. A node of the image is the union itself, so it collapses
    /// (measured in `docs/engine-notes.md`, "Figures behind the code's comments").
    ///
    /// # Panics
    /// If `set` or `within` has another shape.
    pub fn image(&mut self, set: &Dfa, within: Option<&Dfa>) -> Stoppable<Dfa> {
        let shape = self.shape.clone();
        assert_eq!(set.shape, shape, "the set has another shape");
        if let Some(w) = within {
            assert_eq!(w.shape, shape, "within has another shape");
        }
        if set.is_empty() || !self.moves_below[0] || within.is_some_and(Dfa::is_empty) {
            return Ok(Dfa::reject_all(&shape));
        }
        if self.store.nodes() > STORE_LIMIT {
            self.store = NodeStore::new(&shape);
            self.moved.iter_mut().for_each(hashbrown::HashMap::clear);
            self.images.iter_mut().for_each(hashbrown::HashMap::clear);
            self.restricted.iter_mut().for_each(hashbrown::HashMap::clear);
        }
        let map = self.store.import(set)?;
        let u = map[0][set.initial.0 as usize];
        let root = match within {
            None => self.node_image(0, u)?,
            Some(w) => {
                let w_root = self.store.import(w)?[0][w.initial.0 as usize];
                self.restricted_image(0, w_root, u)?
            }
        };
        Ok(self.store.extract(&shape, root))
    }

    /// The node of the image of node `u` of layer `l`: the suffixes with exactly one move in
    /// layers `l..` from a suffix in `L(u)`. Its row on `c` is the union of the image of `u`'s
    /// child (the move comes later) and `u`'s successors on the sources of `c` (the move is
    /// here). Memoised per node across calls.
    fn node_image(&mut self, l: usize, u: u32) -> Stoppable<u32> {
        if u == 0 || !self.moves_below[l] {
            return Ok(0);
        }
        if let Some(&z) = self.images[l].get(&u) {
            return Ok(z);
        }
        // The node store grows with every new node: the budget stops it here. Only finished
        // nodes are memoised, so the imager stays usable after a stop.
        super::limits::check_memory()?;
        let a = self.shape.alphabet(l);
        // The images of the children first (they recurse), then the unions with the moved row,
        // read in place.
        let mut row: Vec<u32> = super::limits::collect_stoppable((0..a).map(|c| {
            let child = self.store.child(l, u, c);
            if l + 1 < self.shape.len() { self.node_image(l + 1, child) } else { Ok(0) }
        }))?;
        if self.moves_at[l] {
            self.fill_moved_row(l, u)?;
            let moved = &self.moved[l][&u];
            for (later, &here) in row.iter_mut().zip(moved.iter()) {
                *later = self.store.union(l + 1, *later, here)?;
            }
        }
        let z = self.store.tables[l].intern(&row)?;
        self.images[l].insert(u, z);
        Ok(z)
    }

    /// The node of `L(w) ∩ image(L(u))` for nodes `w` and `u` of layer `l`: like
    /// [`RelationImager::node_image`], with each child restricted to `w`'s child on the same
    /// symbol, so that the recursion only visits the pairs `within` and the set reach together.
    /// Past an accept-all `w` it is the unrestricted image. Memoised per pair across calls.
    fn restricted_image(&mut self, l: usize, w: u32, u: u32) -> Stoppable<u32> {
        if u == 0 || w == 0 || !self.moves_below[l] {
            return Ok(0);
        }
        if w == 1 {
            return self.node_image(l, u);
        }
        if let Some(&z) = self.restricted[l].get(&(w, u)) {
            return Ok(z);
        }
        super::limits::check_memory()?;
        let a = self.shape.alphabet(l);
        let last = l + 1 == self.shape.len();
        let mut row: Vec<u32> = super::limits::collect_stoppable((0..a).map(|c| {
            let (wc, uc) = (self.store.child(l, w, c), self.store.child(l, u, c));
            if last { Ok(0) } else { self.restricted_image(l + 1, wc, uc) }
        }))?;
        if self.moves_at[l] {
            self.fill_moved_row(l, u)?;
            let moved = &self.moved[l][&u];
            let store = &mut self.store;
            for (c, later) in row.iter_mut().enumerate() {
                let wc = store.child(l, w, c);
                let here = store.intersection(l + 1, wc, moved[c])?;
                *later = store.union(l + 1, *later, here)?;
            }
        }
        let z = self.store.tables[l].intern(&row)?;
        self.restricted[l].insert((w, u), z);
        Ok(z)
    }

    /// Fill `moved[l][u]`: per symbol `c`, the union of the successors of node `u` (layer `l`)
    /// on the sources of `c`.
    fn fill_moved_row(&mut self, l: usize, u: u32) -> Stoppable<()> {
        if self.moved[l].contains_key(&u) {
            return Ok(());
        }
        let a = self.shape.alphabet(l);
        let mut row: Vec<u32> = Vec::with_capacity(a);
        for (base, extra) in &self.plans[l] {
            let mut acc = base.map_or(0, |b| row[b]);
            for &from in extra {
                let x = self.store.child(l, u, from as usize);
                acc = self.store.union(l + 1, acc, x)?;
            }
            row.push(acc);
        }
        self.moved[l].insert(u, row.into());
        Ok(())
    }
}

impl Dfa {
    /// The union over `relations` (`(layer, pairs)`) of [`Dfa::layer_relation_image`],
    /// intersected with `within` when given, in one pass over all layers: the strings `y` (of
    /// `within`) obtained from a member `x` of `self` by rewriting exactly one character along
    /// the relation of its layer. See [`RelationImager::image`].
    ///
    /// Why one pass: the image under one layer's relation alone can be far larger than the
    /// union (in Nim, "a token was taken from heap 3" remembers a set of XOR values that the
    /// other heaps' moves fill in), so building the parts and then their union pays for
    /// states the answer never has.
    ///
    /// # Panics
    /// If a layer or a symbol of `relations` lies outside the shape, or `within` has another
    /// shape.
    pub fn relations_image(
        &self,
        relations: &[(usize, Vec<(Symbol, Symbol)>)],
        within: Option<&Dfa>,
    ) -> Stoppable<Dfa> {
        RelationImager::new(&self.shape, relations).image(self, within)
    }
}
