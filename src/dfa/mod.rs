//! Layered, minimal, canonical DFAs over fixed-length strings.
//!
//! A [`Dfa`] describes a set of strings that all have length `shape.len()`; character `i` of a
//! string is drawn from `0..shape[i]`. The states consulted when reading character `i` form
//! *layer* `i`, and every transition out of layer `i` enters layer `i + 1` (layer `len` is
//! implicit and only holds the two reserved states).
//!
//! # Invariants
//!
//! Every `Dfa` value upholds these; [`Dfa::validate`] checks them all and runs at the end of
//! every constructor in debug builds (`debug_assert!`). Code cites them as `// I1` .. `// I7`.
//!
//! 1. **Layering.** There are exactly `shape.len()` layers; layer `i` has rows of exactly
//!    `shape[i]` entries, so every accepted string has length `shape.len()`.
//! 2. **Ids in range.** Every entry of a row of layer `i` is a valid state id of layer `i + 1`
//!    (for the last layer: `REJECT` or `ACCEPT`), and `initial` is a valid id of layer 0
//!    (or of the implicit final layer when there are no layers).
//! 3. **Reserved states.** In every layer state 0 ([`StateId::REJECT`]) rejects everything and
//!    state 1 ([`StateId::ACCEPT`]) accepts every remaining suffix; their rows are stored
//!    explicitly as all-0 and all-1, so lookups need no branch.
//! 4. **Reduced.** No non-reserved state has an all-`REJECT` or all-`ACCEPT` row (it would be
//!    equivalent to a reserved state).
//! 5. **Minimal.** No two states of a layer have the same row. With I4 and induction from the
//!    last layer, two states of a layer accept the same suffixes only if they are the same id.
//! 6. **Trim.** Every non-reserved state is reachable from `initial`. (I4 and I5 then imply that
//!    every non-reject state can reach accept.)
//! 7. **Canonical numbering.** Layer 0 holds `initial` as id 2 (when it is not reserved);
//!    the non-reserved ids of layer `i + 1` are numbered 2, 3, ... in order of first appearance
//!    when the rows of layer `i` are scanned in id order, each row in symbol order.
//!    Together with I5 and I6 this makes the whole value a function of the set alone, so
//!    set equality is `==` and the derived `Hash` is a set hash.

mod build;
mod canonical;
mod constraints;
mod count;
pub mod dfa1;
mod explored;
pub mod file;
mod ids;
mod image;
mod intern;
pub mod limits;
mod nary;
pub mod on_disk;
mod ops;
mod packed;
mod product;
mod rank;
mod reached;
mod region;
mod relation;
mod reverse;
mod saved_mapped;
mod spill;
mod unique;
mod validate;

pub use build::DfaBuilder;
pub use count::{Members, Sampler, SplitMix64};
pub use image::{Background, Move, MovePlan};
pub use limits::{EngineStop, Stoppable};
pub use ops::Change;
pub use product::product_states_explored;
pub use rank::{Cursor, RankMemo, RankedSet};
pub use region::{Cut, Region};
pub use relation::RelationImager;
pub use validate::InvariantViolation;

use std::fmt;
use std::sync::Arc;

/// One character of a position string. Alphabets have at most 256 symbols.
pub type Symbol = u8;

/// A state of one layer. The layer is implied by context; ids are dense per layer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct StateId(pub u32);

impl StateId {
    /// The reserved state that rejects every suffix (I3).
    pub const REJECT: StateId = StateId(0);
    /// The reserved state that accepts every suffix (I3).
    pub const ACCEPT: StateId = StateId(1);

    /// The id as an index into a layer.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is one of the two reserved ids.
    #[inline]
    pub fn is_reserved(self) -> bool {
        self.0 < 2
    }
}

impl fmt::Debug for StateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StateId::REJECT => write!(f, "REJECT"),
            StateId::ACCEPT => write!(f, "ACCEPT"),
            StateId(n) => write!(f, "s{n}"),
        }
    }
}

/// The per-layer alphabet sizes of a family of fixed-length strings.
///
/// Each size lies in `1..=256`. Cloning is cheap (shared).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Shape(Arc<[u16]>);

impl Shape {
    /// A shape from per-layer alphabet sizes.
    ///
    /// # Panics
    /// If a size is 0 or above 256 (a programmer error: games build their own shapes).
    pub fn new(sizes: impl Into<Vec<u16>>) -> Shape {
        let sizes: Vec<u16> = sizes.into();
        for (layer, &size) in sizes.iter().enumerate() {
            assert!((1..=256).contains(&size), "layer {layer}: alphabet size {size} outside 1..=256");
        }
        Shape(sizes.into())
    }

    /// `len` layers that all have alphabet `size`.
    pub fn uniform(len: usize, size: u16) -> Shape {
        Shape::new(vec![size; len])
    }

    /// Number of layers (the length of every string).
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no layers (the only string is the empty one).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Alphabet size of `layer`.
    #[inline]
    pub fn alphabet(&self, layer: usize) -> usize {
        self.0[layer] as usize
    }

    /// All alphabet sizes.
    pub fn sizes(&self) -> &[u16] {
        &self.0
    }

    /// Whether `string` has the right length and every symbol is within its alphabet.
    pub fn admits(&self, string: &[Symbol]) -> bool {
        string.len() == self.len() && string.iter().zip(self.0.iter()).all(|(&s, &n)| (s as u16) < n)
    }

    /// Number of strings of the shape from `layer` on, if it fits in a `u128`.
    pub fn suffix_count(&self, layer: usize) -> Option<u128> {
        self.0[layer..].iter().try_fold(1u128, |acc, &n| acc.checked_mul(n as u128))
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Shape{:?}", &self.0[..])
    }
}

/// One layer's transition table: `rows` rows of `alphabet` next-state ids, row-major.
///
/// Rows 0 and 1 are the reserved states (I3). The table is in memory, or in a file of the
/// process's own, mapped ([`Dfa::spilled_to`]): the same ids either way.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layer {
    alphabet: usize,
    next: Rows,
}

/// Where a layer's table lies.
#[derive(Clone)]
enum Rows {
    InMemory(Vec<u32>),
    Spilled(spill::SpilledRows),
}

impl Rows {
    #[inline]
    fn ids(&self) -> &[u32] {
        match self {
            Rows::InMemory(ids) => ids,
            Rows::Spilled(rows) => rows,
        }
    }
}

impl PartialEq for Rows {
    fn eq(&self, other: &Rows) -> bool {
        self.ids() == other.ids()
    }
}

impl Eq for Rows {}

impl std::hash::Hash for Rows {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.ids().hash(state);
    }
}

impl Layer {
    /// A layer holding only the two reserved states.
    pub(crate) fn reserved_only(alphabet: usize) -> Layer {
        let mut next = vec![0u32; alphabet];
        next.extend(std::iter::repeat_n(1u32, alphabet));
        Layer { alphabet, next: Rows::InMemory(next) }
    }

    /// Number of states, reserved ones included.
    #[inline]
    pub fn len(&self) -> usize {
        self.next.ids().len() / self.alphabet
    }

    /// Whether the layer holds only the reserved states.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() <= 2
    }

    /// Alphabet size of this layer.
    #[inline]
    pub fn alphabet(&self) -> usize {
        self.alphabet
    }

    /// The successor of `state` on `symbol`.
    #[inline]
    pub fn next(&self, state: StateId, symbol: Symbol) -> StateId {
        StateId(self.next.ids()[state.index() * self.alphabet + symbol as usize])
    }

    /// The row of `state`: its successors in symbol order.
    #[inline]
    pub fn row(&self, state: StateId) -> &[u32] {
        let start = state.index() * self.alphabet;
        &self.next.ids()[start..start + self.alphabet]
    }

    /// Bytes of the transition table (in memory, or mapped from a spill file).
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(self.next.ids())
    }

    pub(crate) fn raw(&self) -> &[u32] {
        self.next.ids()
    }

    pub(crate) fn from_raw(alphabet: usize, next: Vec<u32>) -> Layer {
        Layer { alphabet, next: Rows::InMemory(next) }
    }

    /// The ids of a layer made by [`Layer::reserved_only`], to build on.
    pub(crate) fn into_ids(self) -> Vec<u32> {
        match self.next {
            Rows::InMemory(ids) => ids,
            Rows::Spilled(rows) => rows.to_vec(),
        }
    }
}

/// A set of strings of one [`Shape`], stored as a minimal canonical layered DFA.
///
/// See the module docs for the invariants. Equal sets are `==`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Dfa {
    shape: Shape,
    /// The start state in layer 0 (or in the implicit final layer: 0/1 when there are no layers).
    initial: StateId,
    /// `layers[i]` is consulted when reading character `i`.
    layers: Vec<Layer>,
}

impl Dfa {
    /// A SHA-256 digest of the set (its canonical layers, I7): equal sets have equal
    /// fingerprints, so a journal can name the sets it was made from and refuse others.
    pub fn fingerprint(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut hasher = Sha256::new();
        hasher.update(self.shape.sizes().iter().flat_map(|s| s.to_le_bytes()).collect::<Vec<u8>>());
        hasher.update(self.initial.0.to_le_bytes());
        for layer in &self.layers {
            for chunk in layer.raw().chunks(1 << 16) {
                let bytes: Vec<u8> = chunk.iter().flat_map(|id| id.to_le_bytes()).collect();
                hasher.update(&bytes);
            }
        }
        crate::storage::hex(&hasher.finalize()[..16])
    }

    /// The empty set.
    pub fn reject_all(shape: &Shape) -> Dfa {
        Dfa::trivial(shape, StateId::REJECT)
    }

    /// Every string of the shape.
    pub fn accept_all(shape: &Shape) -> Dfa {
        Dfa::trivial(shape, StateId::ACCEPT)
    }

    pub(crate) fn trivial(shape: &Shape, initial: StateId) -> Dfa {
        debug_assert!(initial.is_reserved());
        let layers = (0..shape.len()).map(|l| Layer::reserved_only(shape.alphabet(l))).collect();
        Dfa { shape: shape.clone(), initial, layers }
    }

    /// Assemble from parts that already satisfy the invariants (checked in debug builds).
    pub(crate) fn from_parts(shape: Shape, initial: StateId, layers: Vec<Layer>) -> Dfa {
        let dfa = Dfa { shape, initial, layers };
        debug_assert_eq!(dfa.validate(), Ok(()));
        dfa
    }

    /// The shape of every member.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The start state.
    pub fn initial(&self) -> StateId {
        self.initial
    }

    /// All layers, in string order.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// Whether the set is empty (O(1) thanks to I4–I6).
    pub fn is_empty(&self) -> bool {
        self.initial == StateId::REJECT
    }

    /// Whether the set holds every string of the shape (O(1)).
    pub fn is_full(&self) -> bool {
        self.initial == StateId::ACCEPT
    }

    /// Whether `string` is a member. Strings of the wrong length or with out-of-alphabet
    /// symbols are not members.
    pub fn contains(&self, string: &[Symbol]) -> bool {
        if !self.shape.admits(string) {
            return false;
        }
        let mut state = self.initial;
        for (layer, &symbol) in self.layers.iter().zip(string) {
            if state.is_reserved() {
                break;
            }
            state = layer.next(state, symbol);
        }
        state == StateId::ACCEPT
    }

    /// [`Dfa::contains`] for a set whose rows were not validated ([`Dfa::open_mapped_unverified`]):
    /// each id read is checked against the states of its layer.
    ///
    /// # Errors
    /// The layer and id of the first id that names no state.
    pub fn checked_contains(&self, string: &[Symbol]) -> std::result::Result<bool, String> {
        if !self.shape.admits(string) {
            return Ok(false);
        }
        let mut state = self.initial;
        for (l, (layer, &symbol)) in self.layers.iter().zip(string).enumerate() {
            if state.is_reserved() {
                break;
            }
            if state.index() >= layer.len() {
                return Err(format!("layer {l}: state {} of {}", state.0, layer.len()));
            }
            state = layer.next(state, symbol);
        }
        if !state.is_reserved() {
            return Err(format!("a string ends on state {} rather than accept or reject", state.0));
        }
        Ok(state == StateId::ACCEPT)
    }

    /// Number of states per layer, reserved states included.
    pub fn states_per_layer(&self) -> Vec<usize> {
        self.layers.iter().map(Layer::len).collect()
    }

    /// Total number of states, reserved states included.
    pub fn state_count(&self) -> usize {
        self.layers.iter().map(Layer::len).sum()
    }

    /// Total number of non-reserved states (the usual "DFA size").
    pub fn nontrivial_state_count(&self) -> usize {
        self.layers.iter().map(|l| l.len() - 2).sum()
    }

    /// Bytes used by the transition tables in memory.
    pub fn bytes(&self) -> usize {
        self.layers.iter().map(Layer::bytes).sum()
    }

    /// Bytes the transition tables take on disk: every entry in the smallest of 1, 2 or 4
    /// bytes that holds the next layer's ids (the layout of [`file`](mod@file)).
    pub fn disk_bytes(&self) -> usize {
        let n = self.layers.len();
        (0..n)
            .map(|l| {
                let next_len = if l + 1 < n { self.layers[l + 1].len() } else { 2 };
                self.layers[l].next.ids().len() * file::entry_width(next_len)
            })
            .sum()
    }

    /// Summary statistics (states, bytes, members, members per byte).
    pub fn stats(&self) -> DfaStats {
        let positions = self.checked_count();
        let disk_bytes = self.disk_bytes();
        DfaStats {
            states_per_layer: self.states_per_layer(),
            states: self.nontrivial_state_count(),
            memory_bytes: self.bytes(),
            disk_bytes,
            positions,
            positions_per_byte: positions.map(|p| p as f64 / disk_bytes.max(1) as f64),
        }
    }
}

impl fmt::Debug for Dfa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Dfa {{ shape: {:?}, states: {:?}, initial: {:?} }}",
            self.shape,
            self.states_per_layer(),
            self.initial
        )
    }
}

/// Size and compression figures of one DFA.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DfaStats {
    /// States per layer, reserved states included.
    pub states_per_layer: Vec<usize>,
    /// Non-reserved states in all layers.
    pub states: usize,
    /// Bytes of the in-memory transition tables (4 bytes per entry).
    pub memory_bytes: usize,
    /// Bytes of the transition tables in the compact file layout.
    pub disk_bytes: usize,
    /// Members, exact; `None` if above `u128::MAX`.
    pub positions: Option<u128>,
    /// Members per byte of compact storage (a ratio for display; counts stay exact).
    pub positions_per_byte: Option<f64>,
}
