//! The finished classes below the one being solved, read for the moves that remove a piece:
//! the value of a board there, and the order in which many lookups walk their tables.

use super::board::Board;
use super::directory::Kind;
use super::reading::Rules;
use super::tables::ClassTables;
use crate::error::{Error, Result};
use crate::explicit::Exact;

/// A state without a forbidden move in the lower classes: class, kind and raw index of its
/// canonical board (ordered as the tables lie in memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LowerKey {
    class: u8,
    kind: u8,
    raw: u64,
}

/// Raw indexes per bucket of [`Lower::in_table_order`] (about 2,000 boards: their values
/// lie within a few pages).
const BUCKET_RAW: u64 = 1 << 12;

/// The finished classes below the one being solved: values of the moves that remove a piece.
pub struct Lower {
    classes: Vec<ClassTables>,
}

impl Lower {
    /// The classes given.
    pub fn new(classes: Vec<ClassTables>) -> Lower {
        Lower { classes }
    }

    /// The value of the state without a forbidden move on board `b` (any representative).
    ///
    /// # Errors
    /// [`Error::BadParameters`] if no class given holds the board's kind.
    pub fn value(&self, rules: &Rules, b: &Board) -> Result<Exact> {
        let (mine, theirs) = b.counts();
        let kind = Kind { mover: mine as u8, opponent: theirs as u8 };
        let canonical = rules.sym.canonical(b).0;
        self.classes.iter().find_map(|c| c.plain_value(rules, kind, &canonical)).ok_or_else(|| {
            Error::BadParameters(format!("the tables of kind {kind}, which a move reaches, are not given"))
        })
    }

    /// Where the state without a forbidden move on board `b` lies: its class, its kind there
    /// and the raw index of its canonical board, so that many lookups can be sorted into the
    /// tables' order before they are made ([`Lower::value_of`]).
    ///
    /// # Errors
    /// As [`Lower::value`].
    pub fn locate(&self, rules: &Rules, b: &Board) -> Result<LowerKey> {
        let (mine, theirs) = b.counts();
        let kind = Kind { mover: mine as u8, opponent: theirs as u8 };
        let canonical = rules.sym.canonical(b).0;
        let hole = rules.sym.fundamental_index[usize::from(canonical.hole)].expect("a canonical hole is fundamental");
        for (c, class) in self.classes.iter().enumerate() {
            if let Some((k, t)) = class.kind(kind) {
                return Ok(LowerKey { class: c as u8, kind: k, raw: t.dir.layout.raw_index(hole, &canonical) });
            }
        }
        Err(Error::BadParameters(format!("the tables of kind {kind}, which a move reaches, are not given")))
    }

    /// The value at a key from [`Lower::locate`].
    pub fn value_of(&self, key: LowerKey) -> Exact {
        let c = &self.classes[usize::from(key.class)];
        let r = c.kinds[usize::from(key.kind)].dir.rank_of_raw(key.raw);
        c.value_at(key.kind, r, 0)
    }

    /// `keys` with their places, in the order the tables lie in memory to within a bucket of
    /// 4,096 raw indexes (`BUCKET_RAW`): a counting sort, linear in the keys (a comparison sort of
    /// them was a fifth of the count of moves).
    pub fn in_table_order(&self, keys: &[LowerKey]) -> Vec<(LowerKey, u32)> {
        // The first bucket of each class and kind, the tables' order.
        let mut first: Vec<Vec<usize>> = Vec::with_capacity(self.classes.len());
        let mut buckets = 0;
        for c in &self.classes {
            first.push(
                c.kinds
                    .iter()
                    .map(|t| {
                        let at = buckets;
                        buckets += t.dir.layout.raw.div_ceil(BUCKET_RAW) as usize;
                        at
                    })
                    .collect(),
            );
        }
        let bucket = |k: &LowerKey| first[usize::from(k.class)][usize::from(k.kind)] + (k.raw / BUCKET_RAW) as usize;
        let mut start = vec![0u32; buckets + 1];
        for k in keys {
            start[bucket(k) + 1] += 1;
        }
        for b in 0..buckets {
            start[b + 1] += start[b];
        }
        let mut out = vec![(LowerKey { class: 0, kind: 0, raw: 0 }, 0u32); keys.len()];
        for (i, k) in keys.iter().enumerate() {
            let b = bucket(k);
            out[start[b] as usize] = (*k, i as u32);
            start[b] += 1;
        }
        out
    }

    /// Whether the classes hold `kind`.
    pub fn has(&self, kind: Kind) -> bool {
        self.classes.iter().any(|c| c.kind(kind).is_some())
    }
}
