//! Brute-force oracles: sets of strings held explicitly.
use dfasolve::dfa::{Shape, Symbol};
use std::collections::BTreeSet;

/// Every string of `shape`, in lexicographic order.
pub fn all_strings(shape: &Shape) -> Vec<Vec<Symbol>> {
    let mut out = vec![Vec::new()];
    for l in 0..shape.len() {
        let mut next = Vec::new();
        for s in &out {
            for c in 0..shape.alphabet(l) {
                let mut t = s.clone();
                t.push(c as Symbol);
                next.push(t);
            }
        }
        out = next;
    }
    out
}

/// The subset of all strings selected by the bits of `mask` (bit i = i-th string).
pub fn subset(shape: &Shape, mask: &[bool]) -> BTreeSet<Vec<Symbol>> {
    all_strings(shape).into_iter().zip(mask.iter().cycle()).filter(|(_, b)| **b).map(|(s, _)| s).collect()
}

/// Parse a vector file's per-ply lines: `WxH ply  k:   n positions (m with mover on far row)`.
pub fn breakthrough_vector(path: &str) -> Vec<(u128, u128)> {
    let text = std::fs::read_to_string(path).expect("vector file");
    text.lines()
        .filter(|l| l.contains(" ply "))
        .map(|l| {
            let after = l.split(':').nth(1).expect("colon");
            let nums: Vec<u128> = after
                .split(|c: char| !c.is_ascii_digit() && c != ',')
                .filter(|w| !w.is_empty() && *w != ",")
                .map(|w| w.replace(',', "").parse().expect("number"))
                .collect();
            (nums[0], nums[1])
        })
        .collect()
}
