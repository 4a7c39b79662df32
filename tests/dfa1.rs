//! DFA1 exchange format: round trips and edge cases (empty/full sets, mixed alphabets, entry
//! widths crossing 1/2/4 bytes, odd layer counts, canonical numbering, digest, damage).
use dfasolve::dfa::dfa1::{from_dfa1, to_dfa1};
use dfasolve::dfa::{Dfa, DfaBuilder, Shape, StateId};
use proptest::prelude::*;
use std::path::Path;

fn round_trip(d: &Dfa) {
    let bytes = to_dfa1(d);
    let back = from_dfa1(&bytes, Path::new("mem")).expect("valid file");
    assert_eq!(&back, d);
    // Canonical: writing again gives the same bytes.
    assert_eq!(to_dfa1(&back), bytes);
}

/// A set over 5 layers of 256 symbols whose layer 3 has exactly `k + 2` states: the first three
/// symbols give a residue `r = (x0 + 256·x1 + 65536·x2) mod k`, and the last symbol must equal
/// byte `x3 mod 3` of `r`, so every residue has its own row.
fn wide(k: usize) -> Dfa {
    let shape = Shape::uniform(5, 256);
    let mut b = DfaBuilder::new(&shape);
    let only: Vec<StateId> = (0..256)
        .map(|v| {
            let row: Vec<StateId> = (0..256).map(|c| if c == v { StateId::ACCEPT } else { StateId::REJECT }).collect();
            b.add(4, &row)
        })
        .collect();
    let l3: Vec<StateId> = (0..k)
        .map(|r| {
            let row: Vec<StateId> = (0..256).map(|x3| only[(r >> (8 * (x3 % 3))) & 255]).collect();
            b.add(3, &row)
        })
        .collect();
    let l2: Vec<StateId> = (0..65536.min(k))
        .map(|p| {
            let row: Vec<StateId> = (0..256).map(|x2| l3[(p + 65536 * x2) % k]).collect();
            b.add(2, &row)
        })
        .collect();
    let l1: Vec<StateId> = (0..256)
        .map(|x0| {
            let row: Vec<StateId> = (0..256).map(|x1| l2[(x0 + 256 * x1) % k % 65536.min(k)]).collect();
            b.add(1, &row)
        })
        .collect();
    let root = b.add(0, &l1);
    b.finish(root)
}

#[test]
fn empty_full_and_mixed_shapes() {
    for shape in [Shape::new(vec![1]), Shape::new(vec![3, 1, 2]), Shape::new(vec![2, 5, 256, 1, 7])] {
        round_trip(&Dfa::reject_all(&shape));
        round_trip(&Dfa::accept_all(&shape));
        let s: Vec<u8> = shape.sizes().iter().map(|&a| (a - 1) as u8).collect();
        round_trip(&Dfa::from_string(&shape, &s));
    }
    let bytes = to_dfa1(&Dfa::reject_all(&Shape::new(vec![2, 2, 2])));
    assert_eq!(u64::from_le_bytes(bytes[56..64].try_into().unwrap()), 0, "empty set: initial 0");
}

#[test]
fn widths_cross_byte_boundaries() {
    // Layers with > 256 and > 65536 states force 2- and 4-byte entries.
    for k in [254, 300, 66_000] {
        let d = wide(k);
        assert_eq!(d.states_per_layer()[3], k + 2, "k = {k}");
        round_trip(&d);
    }
}

#[test]
fn damage_is_detected() {
    let d = wide(300);
    let bytes = to_dfa1(&d);
    let p = Path::new("mem");
    for cut in [0, 7, 40, 64, bytes.len() / 2, bytes.len() - 1] {
        assert!(from_dfa1(&bytes[..cut], p).is_err(), "truncated at {cut}");
    }
    let mut flipped = bytes.clone();
    flipped[bytes.len() - 3] ^= 1;
    let e = from_dfa1(&flipped, p).unwrap_err().to_string();
    assert!(e.contains("digest"), "{e}");
    let mut extended = bytes.clone();
    extended.push(0);
    assert!(from_dfa1(&extended, p).is_err());
    assert!(from_dfa1(b"DFASOLVE and more bytes", p).unwrap_err().to_string().contains("not a dfasolve file"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn random_sets_round_trip(sizes in prop::collection::vec(1u16..=4, 1..=7), picks in prop::collection::vec(prop::collection::vec(0u8..4, 7), 0..30)) {
        let shape = Shape::new(sizes.clone());
        let strings: Vec<Vec<u8>> = picks.iter().map(|p| p.iter().zip(&sizes).map(|(&c, &a)| c % a as u8).collect()).collect();
        let d = Dfa::from_strings(&shape, &strings);
        let bytes = to_dfa1(&d);
        prop_assert_eq!(from_dfa1(&bytes, Path::new("mem")).unwrap(), d.clone());
        // Canonical numbering: rows of each layer are sorted ascending.
        let n = sizes.len();
        let size = |l: usize| u64::from_le_bytes(bytes[64 + 8 * l..72 + 8 * l].try_into().unwrap()) as usize;
        let off = |l: usize| u64::from_le_bytes(bytes[64 + 8 * n + 8 * l..72 + 8 * n + 8 * l].try_into().unwrap()) as usize;
        for l in 0..n {
            let a = sizes[l] as usize;
            let w = 1; // small sets: one-byte entries
            let rows: Vec<&[u8]> = (2..size(l)).map(|s| &bytes[off(l) + s * a * w..off(l) + (s + 1) * a * w]).collect();
            prop_assert!(rows.windows(2).all(|p| p[0] < p[1]), "layer {} rows not sorted", l);
        }
    }
}
