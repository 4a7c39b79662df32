//! Ranks of a set's members: the place of a member in lexicographic order and the member at
//! a place, for tables indexed by rank (a byte per member beside the set). Ranking costs a
//! walk down the layers; [`Cursor`] steps through consecutive members and [`RankMemo`]
//! resumes a rank from the last word's common prefix, which makes both close to constant
//! per member where neighbouring words share long prefixes.

use super::count::{member_of_rank, suffix_counts};
use super::{Dfa, StateId, Symbol};

/// A set that owns its suffix counts: each member's rank (its place in lexicographic order)
/// and the member of each rank, both in one walk down the layers. The counts cost 16 bytes
/// a state, so a table indexed by rank is a byte per member plus that.
#[derive(Clone, Debug)]
pub struct RankedSet {
    dfa: Dfa,
    counts: Vec<Vec<u128>>,
}

impl RankedSet {
    /// `dfa` with its counts, or `None` if it has more than `u128::MAX` members.
    pub fn new(dfa: Dfa) -> Option<RankedSet> {
        let counts = if dfa.is_empty() { Vec::new() } else { suffix_counts(&dfa)? };
        Some(RankedSet { dfa, counts })
    }

    /// The set.
    pub fn dfa(&self) -> &Dfa {
        &self.dfa
    }

    /// Number of members.
    pub fn len(&self) -> u128 {
        if self.dfa.is_empty() { 0 } else { self.counts[0][self.dfa.initial().index()] }
    }

    /// Whether there are no members.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rank of `word`, or `None` if it is not a member (or has the wrong length).
    pub fn rank(&self, word: &[Symbol]) -> Option<u128> {
        let n = self.dfa.shape().len();
        if self.dfa.is_empty() || word.len() != n {
            return None;
        }
        let mut state = self.dfa.initial();
        let mut rank = 0;
        for (l, &symbol) in word.iter().enumerate() {
            let (next, below) = self.step(l, state, symbol)?;
            state = next;
            rank += below;
        }
        Some(rank)
    }

    /// From `state` of layer `l` by `symbol`: the next state and the members of the smaller
    /// symbols' branches; `None` where that leaves the set.
    fn step(&self, l: usize, state: StateId, symbol: Symbol) -> Option<(StateId, u128)> {
        let layer = &self.dfa.layers()[l];
        if symbol as usize >= layer.alphabet() {
            return None;
        }
        let below = (0..symbol).map(|c| self.counts[l + 1][layer.next(state, c).index()]).sum();
        let next = layer.next(state, symbol);
        (next != StateId::REJECT).then_some((next, below))
    }

    /// Writes the member of rank `index` into `word` (cleared first).
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn member_into(&self, index: u128, word: &mut Vec<Symbol>) {
        assert!(index < self.len(), "rank {index} out of range");
        word.clear();
        member_of_rank(&self.dfa, &self.counts, index, word);
    }
}

impl RankedSet {
    /// A cursor on the member of rank `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn cursor(&self, index: u128) -> Cursor<'_> {
        let mut word = Vec::with_capacity(self.dfa.shape().len());
        self.member_into(index, &mut word);
        let mut states = vec![self.dfa.initial()];
        for (l, &c) in word.iter().enumerate() {
            states.push(self.dfa.layers()[l].next(states[l], c));
        }
        Cursor { set: self, word, states }
    }

    /// The rank of `word` as [`RankedSet::rank`], resumed from `memo`'s last word where the
    /// two share a prefix (and `memo` then remembers `word`).
    pub fn rank_with(&self, memo: &mut RankMemo, word: &[Symbol]) -> Option<u128> {
        let n = self.dfa.shape().len();
        if self.dfa.is_empty() || word.len() != n {
            return None;
        }
        if memo.states.is_empty() {
            memo.states.push(self.dfa.initial());
            memo.partial.push(0);
        }
        // `memo.word[..memo.states.len() - 1]` is a prefix whose states and ranks are known.
        let mut l = 0;
        while l + 1 < memo.states.len() && memo.word[l] == word[l] {
            l += 1;
        }
        memo.word.truncate(l);
        memo.states.truncate(l + 1);
        memo.partial.truncate(l + 1);
        let (mut state, mut rank) = (memo.states[l], memo.partial[l]);
        for (l, &symbol) in word.iter().enumerate().skip(l) {
            let (next, below) = self.step(l, state, symbol)?;
            state = next;
            rank += below;
            memo.word.push(symbol);
            memo.states.push(state);
            memo.partial.push(rank);
        }
        Some(rank)
    }
}

/// The states and partial ranks along the last word ranked by [`RankedSet::rank_with`] (empty:
/// none yet). One memo belongs to one set.
#[derive(Clone, Debug, Default)]
pub struct RankMemo {
    word: Vec<Symbol>,
    /// `states[l]`: the state before reading `word[l]`.
    states: Vec<StateId>,
    /// `partial[l]`: the rank contributed by `word[..l]`.
    partial: Vec<u128>,
}

/// Consecutive members of a [`RankedSet`] in lexicographic order, from a given rank.
pub struct Cursor<'a> {
    set: &'a RankedSet,
    word: Vec<Symbol>,
    /// `states[l]`: the state before reading `word[l]`; `states[n]` accepts.
    states: Vec<StateId>,
}

impl Cursor<'_> {
    /// The member the cursor is on.
    pub fn word(&self) -> &[Symbol] {
        &self.word
    }

    /// Move to the next member; `false` (and the cursor unchanged) after the last.
    pub fn advance(&mut self) -> bool {
        let layers = self.set.dfa.layers();
        let n = self.word.len();
        for l in (0..n).rev() {
            let layer = &layers[l];
            let next = (self.word[l] as usize + 1..layer.alphabet())
                .find(|&c| layer.next(self.states[l], c as Symbol) != StateId::REJECT);
            let Some(c) = next else { continue };
            self.word[l] = c as Symbol;
            self.states[l + 1] = layer.next(self.states[l], c as Symbol);
            for (m, layer) in layers.iter().enumerate().skip(l + 1) {
                // A state other than reject has a member below it (the sets are trimmed).
                let c = (0..layer.alphabet())
                    .find(|&c| layer.next(self.states[m], c as Symbol) != StateId::REJECT)
                    .expect("a live state has a live child");
                self.word[m] = c as Symbol;
                self.states[m + 1] = layer.next(self.states[m], c as Symbol);
            }
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfa::Shape;

    /// Ranks are places in the lexicographic order of the members, both ways, and
    /// non-members have none.
    #[test]
    fn ranks_are_lexicographic_places_both_ways() {
        let shape = Shape::uniform(6, 3);
        // Strings with exactly two 1s and no 2 in the first place: rows that reach the
        // accept-all state early and rows that do not.
        let set = Dfa::count_between(&shape, 0..6, |s| s == 1, 2, 2)
            .intersection(&Dfa::from_allowed(&shape, |l, s| l != 0 || s != 2))
            .unwrap();
        let members = set.to_strings();
        let ranked = RankedSet::new(set.clone()).unwrap();
        assert_eq!(ranked.len(), members.len() as u128);
        let mut word = Vec::new();
        for (i, m) in members.iter().enumerate() {
            assert_eq!(ranked.rank(m), Some(i as u128));
            ranked.member_into(i as u128, &mut word);
            assert_eq!(&word, m);
        }
        assert_eq!(ranked.rank(&[2, 1, 1, 0, 0, 0]), None);
        assert_eq!(ranked.rank(&[1, 1, 1, 0, 0, 0]), None);
        assert_eq!(ranked.rank(&[1, 1]), None);
        let all = RankedSet::new(Dfa::accept_all(&shape)).unwrap();
        assert_eq!(all.rank(&[0, 0, 0, 0, 1, 2]), Some(5));
        assert!(RankedSet::new(Dfa::reject_all(&shape)).unwrap().rank(&[0; 6]).is_none());
    }

    /// A cursor steps through the members in order from any rank, and memoised ranks are
    /// the plain ones whatever order the words come in.
    #[test]
    fn cursors_and_memoised_ranks_agree_with_the_plain_walk() {
        let shape = Shape::uniform(7, 3);
        let set = Dfa::count_between(&shape, 0..7, |s| s == 2, 1, 3)
            .intersection(&Dfa::from_allowed(&shape, |l, s| l != 3 || s != 1))
            .unwrap();
        let members = set.to_strings();
        let ranked = RankedSet::new(set).unwrap();
        for start in [0, 1, members.len() / 2, members.len() - 1] {
            let mut cursor = ranked.cursor(start as u128);
            for m in &members[start..] {
                assert_eq!(cursor.word(), &m[..]);
                cursor.advance();
            }
            assert!(!cursor.advance(), "past the last member");
        }
        let mut memo = RankMemo::default();
        for (i, m) in members.iter().enumerate().rev().step_by(3).chain(members.iter().enumerate()) {
            assert_eq!(ranked.rank_with(&mut memo, m), Some(i as u128));
        }
        assert_eq!(ranked.rank_with(&mut memo, &[0, 0, 0, 1, 0, 0, 2]), None);
        assert_eq!(ranked.rank_with(&mut memo, &members[5]), Some(5));
    }
}
