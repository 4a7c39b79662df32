//! Property tests of the DFA engine against explicit sets of strings.
use crate::oracle::{all_strings, subset};
use dfasolve::dfa::file::Bundle;
use dfasolve::dfa::{Background, Change, Dfa, DfaBuilder, Shape, StateId, Symbol};
use dfasolve::move_graph::MoveGraph;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashSet};

type Set = BTreeSet<Vec<Symbol>>;

fn shape_strategy() -> impl Strategy<Value = Shape> {
    prop::collection::vec(1u16..=4, 1..=5).prop_map(Shape::new)
}

fn shape_and_sets(k: usize) -> impl Strategy<Value = (Shape, Vec<Set>)> {
    shape_strategy()
        .prop_flat_map(move |shape| {
            let n = all_strings(&shape).len();
            let masks = prop::collection::vec(prop::collection::vec(prop::bool::weighted(0.4), n), k);
            (Just(shape), masks)
        })
        .prop_map(|(shape, masks)| {
            let sets = masks.iter().map(|m| subset(&shape, m)).collect();
            (shape, sets)
        })
}

fn dfa(shape: &Shape, set: &Set) -> Dfa {
    let v: Vec<Vec<Symbol>> = set.iter().cloned().collect();
    let d = Dfa::from_strings(shape, &v);
    assert_eq!(d.validate(), Ok(()));
    d
}

fn members(d: &Dfa) -> Set {
    d.iter().collect()
}

/// Number of distinct residual languages per layer, non-reserved (the minimal DFA's size).
fn residual_counts(shape: &Shape, set: &Set) -> Vec<usize> {
    let all = all_strings(shape);
    (0..shape.len())
        .map(|l| {
            let mut residuals: HashSet<Vec<bool>> = HashSet::new();
            let prefixes: BTreeSet<&[Symbol]> = set.iter().map(|s| &s[..l]).collect();
            for p in prefixes {
                let suffixes: Vec<bool> = all.iter().filter(|s| s[..l] == *p).map(|s| set.contains(s)).collect();
                residuals.insert(suffixes);
            }
            let reserved = |r: &Vec<bool>| r.iter().all(|&b| b) || r.iter().all(|&b| !b);
            residuals.iter().filter(|r| !reserved(r)).count()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn binary_ops_match_oracle((shape, sets) in shape_and_sets(2)) {
        let (a, b) = (&sets[0], &sets[1]);
        let (da, db) = (dfa(&shape, a), dfa(&shape, b));
        let u = da.union(&db).unwrap();
        let i = da.intersection(&db).unwrap();
        let d = da.difference(&db).unwrap();
        for r in [&u, &i, &d] { prop_assert_eq!(r.validate(), Ok(())); }
        prop_assert_eq!(members(&u), a.union(b).cloned().collect::<Set>());
        prop_assert_eq!(members(&i), a.intersection(b).cloned().collect::<Set>());
        prop_assert_eq!(members(&d), a.difference(b).cloned().collect::<Set>());
        prop_assert_eq!(da.is_subset(&db).unwrap(), a.is_subset(b));
        prop_assert_eq!(da == db, a == b);
        let (mut united, mut subtracted) = (da.clone(), da.clone());
        united.unite_with(&db).unwrap();
        subtracted.subtract(&db).unwrap();
        prop_assert_eq!(&united, &u);
        prop_assert_eq!(&subtracted, &d);
        let c = da.complement();
        prop_assert_eq!(c.validate(), Ok(()));
        let all: Set = all_strings(&shape).into_iter().collect();
        prop_assert_eq!(members(&c), all.difference(a).cloned().collect::<Set>());
    }

    #[test]
    fn canonical_and_minimal((shape, sets) in shape_and_sets(2)) {
        let (a, b) = (&sets[0], &sets[1]);
        let u = a.union(b).cloned().collect::<Set>();
        // Built directly, and built by an operation: identical values.
        let direct = dfa(&shape, &u);
        let via_ops = dfa(&shape, a).union(&dfa(&shape, b)).unwrap();
        prop_assert_eq!(&direct, &via_ops);
        let via_complements = dfa(&shape, a).complement().intersection(&dfa(&shape, b).complement()).unwrap().complement();
        prop_assert_eq!(&direct, &via_complements);
        let counts: Vec<usize> = direct.states_per_layer().iter().map(|n| n - 2).collect();
        prop_assert_eq!(counts, residual_counts(&shape, &u));
    }

    #[test]
    fn count_iter_sample((shape, sets) in shape_and_sets(1)) {
        let a = &sets[0];
        let d = dfa(&shape, a);
        prop_assert_eq!(d.count(), a.len() as u128);
        prop_assert_eq!(d.to_strings(), a.iter().cloned().collect::<Vec<_>>());
        for s in all_strings(&shape) { prop_assert_eq!(d.contains(&s), a.contains(&s)); }
        if let Some(sampler) = d.sampler() {
            let sorted: Vec<_> = a.iter().cloned().collect();
            for (i, s) in sorted.iter().enumerate() { prop_assert_eq!(&sampler.nth(i as u128), s); }
            let mut rng = dfasolve::dfa::SplitMix64::new(7);
            for _ in 0..10 { prop_assert!(a.contains(&sampler.sample(&mut rng))); }
        }
    }

    #[test]
    fn nary_union_matches((shape, sets) in shape_and_sets(5)) {
        let dfas: Vec<Dfa> = sets.iter().map(|s| dfa(&shape, s)).collect();
        let refs: Vec<&Dfa> = dfas.iter().collect();
        let u = Dfa::union_all(&shape, &refs).unwrap();
        prop_assert_eq!(u.validate(), Ok(()));
        let expected: Set = sets.iter().flatten().cloned().collect();
        prop_assert_eq!(members(&u), expected.clone());
        prop_assert_eq!(u, dfa(&shape, &expected));
    }

    #[test]
    fn change_and_image_match((shape, sets) in shape_and_sets(3), picks in prop::collection::vec((0usize..5, 0u8..4, 0u8..4), 1..3)) {
        let mut changes: Vec<Change> = Vec::new();
        for (l, f, t) in picks {
            let l = l % shape.len();
            let a = shape.alphabet(l) as u8;
            if changes.iter().all(|c| c.layer != l) { changes.push(Change::new(l, f % a, t % a)); }
        }
        let rewrite = |s: &Vec<Symbol>| -> Option<Vec<Symbol>> {
            let mut t = s.clone();
            for c in &changes { if t[c.layer] != c.from { return None; } t[c.layer] = c.to; }
            Some(t)
        };
        let (s, pre, post) = (&sets[0], &sets[1], &sets[2]);
        let (ds, dpre, dpost) = (dfa(&shape, s), dfa(&shape, pre), dfa(&shape, post));
        let changed: Set = s.iter().filter_map(rewrite).collect();
        prop_assert_eq!(members(&ds.change(&changes).unwrap()), changed);
        let image: Set = s.iter().filter(|x| pre.contains(*x)).filter_map(rewrite).filter(|x| post.contains(x)).collect();
        let di = ds.image(&dpre, &changes, &dpost).unwrap();
        prop_assert_eq!(di.validate(), Ok(()));
        prop_assert_eq!(members(&di), image);
        let inverse: Set = all_strings(&shape).into_iter().filter(|x| rewrite(x).is_some_and(|y| s.contains(&y))).collect();
        prop_assert_eq!(members(&ds.change_inverse(&changes).unwrap()), inverse);
    }

    #[test]
    fn move_graph_matches((shape, sets) in shape_and_sets(3)) {
        // Two moves sharing a second stage: input -(c1)-> a -> b -(cond)-> output, input -> b.
        let l0 = 0;
        let l1 = shape.len() - 1;
        let a0 = shape.alphabet(l0) as u8;
        let a1 = shape.alphabet(l1) as u8;
        let ch_a = vec![Change::new(l0, 0, a0 - 1)];
        let ch_b = vec![Change::new(l1, a1 - 1, 0)];
        if l0 == l1 { return Ok(()); }
        let cond = dfa(&shape, &sets[1]);
        let mut g = MoveGraph::new(&shape);
        let a = g.add_node("a", ch_a.clone());
        let b = g.add_node("b", ch_b.clone());
        g.add_edge(MoveGraph::INPUT, a, None);
        g.add_edge(a, b, None);
        g.add_edge(MoveGraph::INPUT, b, Some(cond.clone()));
        g.add_edge(b, MoveGraph::OUTPUT, None);
        let apply = |s: &Vec<Symbol>, chs: &[Change]| -> Option<Vec<Symbol>> {
            let mut t = s.clone();
            for c in chs { if t[c.layer] != c.from { return None; } t[c.layer] = c.to; }
            Some(t)
        };
        let step = |s: &Vec<Symbol>| -> Vec<Vec<Symbol>> {
            let mut out = Vec::new();
            if let Some(x) = apply(s, &ch_a).and_then(|x| apply(&x, &ch_b)) { out.push(x); }
            if sets[1].contains(s) && let Some(x) = apply(s, &ch_b) { out.push(x); }
            out
        };
        let src = &sets[0];
        let fwd: Set = src.iter().flat_map(step).collect();
        prop_assert_eq!(members(&g.forward(&dfa(&shape, src)).unwrap()), fwd.clone());
        // The stage-by-stage evaluation (one product per edge) agrees with the flattened one.
        prop_assert_eq!(members(&g.forward_by_stages(&dfa(&shape, src)).unwrap()), fwd);
        let target = &sets[2];
        let bwd: Set = all_strings(&shape).into_iter().filter(|s| step(s).iter().any(|t| target.contains(t))).collect();
        prop_assert_eq!(members(&g.backward(&dfa(&shape, target)).unwrap()), bwd.clone());
        prop_assert_eq!(members(&g.backward_by_stages(&dfa(&shape, target), None).unwrap()), bwd.clone());
        let within = &sets[0];
        let bwd_within: Set = bwd.intersection(within).cloned().collect();
        prop_assert_eq!(members(&g.backward_by_stages(&dfa(&shape, target), Some(&dfa(&shape, within))).unwrap()), bwd_within.clone());
        prop_assert_eq!(members(&g.backward_within(&dfa(&shape, target), &dfa(&shape, within)).unwrap()), bwd_within.clone());
        // Filtering a path at a time leaves exactly the strings of `within` with no path into `target`.
        let no_path: Set = within.difference(&bwd_within).cloned().collect();
        prop_assert_eq!(members(&g.without_path_into(&dfa(&shape, target), &dfa(&shape, within)).unwrap()), no_path);
        // The dot form names every node and draws every edge, a condition's solid.
        let dot = g.to_dot();
        let names_nodes = dot.starts_with("digraph moves {") && dot.contains("label=\"a\\n") && dot.contains("label=\"b\\n");
        prop_assert!(names_nodes, "{}", dot);
        prop_assert_eq!(dot.matches(" -> ").count(), 4);
        prop_assert_eq!(dot.matches("style=solid").count(), 1);
    }

    #[test]
    fn layer_in_matches_oracle(shape in shape_strategy(), layer_seed in any::<usize>(), mask in any::<u8>()) {
        let layer = layer_seed % shape.len();
        let symbols: Vec<Symbol> = (0..shape.alphabet(layer) as Symbol).filter(|c| mask & (1 << c) != 0).collect();
        let expected: Set = all_strings(&shape).into_iter().filter(|s| symbols.contains(&s[layer])).collect();
        let d = Dfa::layer_in(&shape, layer, &symbols);
        prop_assert_eq!(d.validate(), Ok(()));
        prop_assert_eq!(members(&d), expected);
    }

    #[test]
    fn grouped_moves_match_oracle((shape, sets) in shape_and_sets(3), groups in proptest::collection::vec(0u32..7, 1..12)) {
        // One conditional single-symbol move per entry of `groups`, each in that evaluation
        // group: images are computed group by group and merged, which must equal the union
        // over all moves however the groups fall (1 to 7 groups, so the merge tree has
        // leftovers of several ranks).
        let mut g = MoveGraph::new(&shape);
        let mut moves: Vec<(Change, &Set)> = Vec::new();
        for (i, &group) in groups.iter().enumerate() {
            let layer = i % shape.len();
            let a = shape.alphabet(layer) as u8;
            let change = Change::new(layer, (i as u8) % a, (i as u8 + 1) % a);
            let pre = &sets[i % 2];
            g.add_move_in(group, format!("m{i}"), Some(dfa(&shape, pre)), vec![change], None);
            moves.push((change, pre));
        }
        let step = |s: &Vec<Symbol>| -> Vec<Vec<Symbol>> {
            let mut out = Vec::new();
            for (c, pre) in &moves {
                if pre.contains(s) && s[c.layer] == c.from {
                    let mut t = s.clone();
                    t[c.layer] = c.to;
                    out.push(t);
                }
            }
            out
        };
        let fwd: Set = sets[2].iter().flat_map(step).collect();
        prop_assert_eq!(members(&g.forward(&dfa(&shape, &sets[2])).unwrap()), fwd);
        let bwd: Set = all_strings(&shape).into_iter().filter(|s| step(s).iter().any(|t| sets[2].contains(t))).collect();
        prop_assert_eq!(members(&g.backward(&dfa(&shape, &sets[2])).unwrap()), bwd);
    }

    #[test]
    fn relabel_matches((shape, sets) in shape_and_sets(1)) {
        let s = &sets[0];
        let d = dfa(&shape, s);
        // Only layers with both symbols are relabelled; others must be left alone.
        let expected: Set = s.iter().map(|x| x.iter().enumerate().map(|(l, &c)| if shape.alphabet(l) >= 2 { match c { 0 => 1, 1 => 0, c => c } } else { c }).collect()).collect();
        prop_assert_eq!(members(&d.swap_symbols(0, 1).unwrap()), expected);
    }

    #[test]
    fn reverse_matches_oracle((shape, sets) in shape_and_sets(1)) {
        let s = &sets[0];
        let d = dfa(&shape, s);
        let r = d.reverse().unwrap();
        prop_assert_eq!(r.validate(), Ok(()));
        let reversed_shape = Shape::new(shape.sizes().iter().rev().copied().collect::<Vec<u16>>());
        prop_assert_eq!(r.shape(), &reversed_shape);
        let expected: Set = s.iter().map(|x| x.iter().rev().copied().collect()).collect();
        prop_assert_eq!(members(&r), expected.clone());
        // Canonical: the same set built directly gives the identical DFA, and twice is identity.
        prop_assert_eq!(&r, &dfa(&reversed_shape, &expected));
        prop_assert_eq!(&r.reverse().unwrap(), &d);
        // A bounded reversal either finishes with the same DFA or gives up; a budget of no
        // ids gives up on any set that needs a subset.
        for budget in [0usize, 1, 4, 16, 1 << 20] {
            if let Some(b) = d.reverse_bounded(budget).unwrap() {
                prop_assert_eq!(&b, &r);
            }
        }
        prop_assert_eq!(d.reverse_bounded(1 << 20).unwrap(), Some(r.clone()));
        if d.nontrivial_state_count() > 0 {
            prop_assert_eq!(d.reverse_bounded(0).unwrap(), None);
        }
    }

    #[test]
    fn counting_constraint_matches(shape in shape_strategy(), lo in 0usize..4, span in 0usize..3, from in 0usize..5, to in 0usize..6) {
        let (from, to) = (from.min(shape.len()), to.min(shape.len()));
        let (from, to) = (from.min(to), from.max(to));
        let hi = lo + span;
        let d = Dfa::count_between(&shape, from..to, |c| c == 1, lo, hi);
        prop_assert_eq!(d.validate(), Ok(()));
        let expected: Set = all_strings(&shape).into_iter().filter(|s| (lo..=hi).contains(&s[from..to].iter().filter(|&&c| c == 1).count())).collect();
        prop_assert_eq!(members(&d), expected);
    }

    #[test]
    fn save_load_round_trip((shape, sets) in shape_and_sets(2)) {
        let bundle = Bundle { meta: "{\"t\":1}".into(), entries: vec![("a".into(), dfa(&shape, &sets[0])), ("b".into(), dfa(&shape, &sets[1]))] };
        let bytes = bundle.to_bytes();
        let back = Bundle::from_bytes(&bytes, std::path::Path::new("mem")).unwrap();
        prop_assert_eq!(&back, &bundle);
        // The streaming file writer writes exactly these bytes.
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("b.dfas");
        bundle.save(&path).unwrap();
        prop_assert_eq!(std::fs::read(&path).unwrap(), bytes);
        prop_assert_eq!(Bundle::load(&path).unwrap(), bundle);
    }

    #[test]
    fn loader_never_panics_on_damage((shape, sets) in shape_and_sets(1), cut in 0usize..10_000, flip in 0usize..10_000, bit in 0u8..8) {
        let bundle = Bundle { meta: String::new(), entries: vec![("a".into(), dfa(&shape, &sets[0]))] };
        let bytes = bundle.to_bytes();
        let path = std::path::Path::new("mem");
        let truncated = &bytes[..cut % bytes.len()];
        prop_assert!(Bundle::from_bytes(truncated, path).is_err());
        let mut flipped = bytes.clone();
        let i = flip % flipped.len();
        flipped[i] ^= 1 << bit;
        prop_assert!(Bundle::from_bytes(&flipped, path).is_err());
        // The file loader decodes as it reads: the same damage must be an error there too.
        let dir = crate::scratch::tempdir();
        let file = dir.path().join("d.dfas");
        std::fs::write(&file, truncated).unwrap();
        prop_assert!(Bundle::load(&file).is_err());
        std::fs::write(&file, &flipped).unwrap();
        prop_assert!(Bundle::load(&file).is_err());
    }
}

#[test]
fn builder_reduces_and_shares() {
    let shape = Shape::uniform(3, 2);
    let mut b = DfaBuilder::new(&shape);
    let x = b.add(2, &[StateId::REJECT, StateId::ACCEPT]);
    let y = b.add(2, &[StateId::REJECT, StateId::ACCEPT]);
    assert_eq!(x, y);
    let all = b.add(1, &[StateId::ACCEPT, StateId::ACCEPT]);
    assert_eq!(all, StateId::ACCEPT);
    let top = b.add(1, &[x, StateId::REJECT]);
    let root = b.add(0, &[top, all]);
    let d = b.finish(root);
    assert_eq!(d.count(), 1 + 4);
}

#[test]
fn empty_and_full() {
    let shape = Shape::new(vec![3, 1, 2]);
    let e = Dfa::reject_all(&shape);
    let f = Dfa::accept_all(&shape);
    assert!(e.is_empty() && f.is_full());
    assert_eq!(f.count(), 6);
    assert_eq!(e.complement(), f);
    assert_eq!(f.to_strings().len(), 6);
    assert_eq!(e.union(&f).unwrap(), f);
}

#[test]
fn huge_counts_are_exact_or_refused() {
    let shape = Shape::uniform(81, 3);
    assert_eq!(Dfa::accept_all(&shape).checked_count(), None);
    let shape = Shape::uniform(80, 3);
    assert_eq!(Dfa::accept_all(&shape).checked_count(), Some(3u128.pow(80)));
}

/// A move as drawn: changes (layer, from, to) and indices of pre/post condition sets.
type RawMove = (Vec<(usize, u8, u8)>, Option<usize>, Option<usize>);

fn moves_strategy() -> impl Strategy<Value = (Shape, Vec<Set>, Vec<RawMove>)> {
    shape_and_sets(4).prop_flat_map(|(shape, sets)| {
        let n = shape.len();
        let one = (
            prop::collection::vec((0..n, 0u8..4, 0u8..4), 0..3),
            prop::option::weighted(0.3, 1usize..4),
            prop::option::weighted(0.3, 1usize..4),
        );
        (Just(shape), Just(sets), prop::collection::vec(one, 1..6))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The one-pass image of many moves equals the union of the moves' images string by string,
    /// forward and backward, with and without a `within` restriction.
    #[test]
    fn image_union_matches_oracle((shape, sets, raw) in moves_strategy()) {
        let dfas: Vec<Dfa> = sets.iter().map(|s| dfa(&shape, s)).collect();
        let mut moves: Vec<(Vec<Change>, Option<usize>, Option<usize>)> = Vec::new();
        for (chs, pre, post) in raw {
            let mut changes: Vec<Change> = Vec::new();
            for (l, f, t) in chs {
                let a = shape.alphabet(l) as u8;
                if changes.iter().all(|c| c.layer != l) { changes.push(Change::new(l, f % a, t % a)); }
            }
            moves.push((changes, pre, post));
        }
        let specs: Vec<dfasolve::dfa::Move> = moves.iter().map(|(c, pre, post)| dfasolve::dfa::Move {
            pre: pre.map(|i| &dfas[i]), changes: c, post: post.map(|i| &dfas[i]) }).collect();
        let apply = |s: &Vec<Symbol>, chs: &[Change]| -> Option<Vec<Symbol>> {
            let mut t = s.clone();
            for c in chs { if t[c.layer] != c.from { return None; } t[c.layer] = c.to; }
            Some(t)
        };
        let in_opt = |i: &Option<usize>, x: &Vec<Symbol>| i.is_none_or(|i| sets[i].contains(x));
        let src = &sets[0];
        let mut expected = Set::new();
        for x in src {
            for (chs, pre, post) in &moves {
                if !in_opt(pre, x) { continue; }
                if let Some(y) = apply(x, chs) && in_opt(post, &y) { expected.insert(y); }
            }
        }
        let got = dfas[0].image_union(&specs, None).unwrap();
        prop_assert_eq!(got.validate(), Ok(()));
        prop_assert_eq!(members(&got), expected.clone());
        let within = &sets[3];
        let got_w = dfas[0].image_union(&specs, Some(&dfas[3])).unwrap();
        prop_assert_eq!(members(&got_w), expected.intersection(within).cloned().collect::<Set>());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Images whose untouched layers are relabelled by a (non-injective) symbol map: forward
    /// (`y[l] = map[l][x[l]]` off the changed layers) and backward (the strings with some move
    /// into the set), with and without `within`, equal string-by-string rewriting.
    #[test]
    fn relabelled_images_match_oracle(
        (shape, sets, raw) in moves_strategy(),
        seed in prop::collection::vec(0u8..4, 6),
    ) {
        let n = shape.len();
        let map: Vec<Vec<Symbol>> = (0..n)
            .map(|l| { let a = shape.alphabet(l) as u8; (0..a).map(|c| seed[(c as usize + l) % 6] % a).collect() })
            .collect();
        let dfas: Vec<Dfa> = sets.iter().map(|s| dfa(&shape, s)).collect();
        let mut moves: Vec<Vec<Change>> = Vec::new();
        for (chs, _, _) in raw {
            let mut changes: Vec<Change> = Vec::new();
            for (l, f, t) in chs {
                let a = shape.alphabet(l) as u8;
                if changes.iter().all(|c| c.layer != l) { changes.push(Change::new(l, f % a, t % a)); }
            }
            changes.sort();
            moves.push(changes);
        }
        let step = |x: &Vec<Symbol>, chs: &[Change]| -> Option<Vec<Symbol>> {
            let mut y: Vec<Symbol> = x.iter().enumerate().map(|(l, &c)| map[l][c as usize]).collect();
            for c in chs { if x[c.layer] != c.from { return None; } y[c.layer] = c.to; }
            Some(y)
        };
        let all: Vec<Vec<Symbol>> = members(&Dfa::accept_all(&shape)).into_iter().collect();
        let forward: Set = sets[0].iter().flat_map(|x| moves.iter().filter_map(|m| step(x, m))).collect();
        let backward: Set = all.iter().filter(|x| moves.iter().any(|m| step(x, m).is_some_and(|y| sets[1].contains(&y)))).cloned().collect();
        let fwd: Vec<dfasolve::dfa::Move> = moves.iter().map(|c| dfasolve::dfa::Move { pre: None, changes: c, post: None }).collect();
        let inverse: Vec<Vec<Change>> = moves.iter().map(|m| m.iter().map(|c| c.inverse()).collect()).collect();
        let bwd: Vec<dfasolve::dfa::Move> = inverse.iter().map(|c| dfasolve::dfa::Move { pre: None, changes: c, post: None }).collect();
        let got = dfas[0].image_union_over(&fwd, None, &Background::forward(&shape, &map)).unwrap();
        prop_assert_eq!(got.validate(), Ok(()));
        prop_assert_eq!(members(&got), forward.clone());
        let got = dfas[1].image_union_over(&bwd, None, &Background::backward(&shape, &map)).unwrap();
        prop_assert_eq!(got.validate(), Ok(()));
        prop_assert_eq!(members(&got), backward.clone());
        let got = dfas[1].image_union_over(&bwd, Some(&dfas[3]), &Background::backward(&shape, &map)).unwrap();
        prop_assert_eq!(members(&got), backward.intersection(&sets[3]).cloned().collect::<Set>());
        // The preimage under the map, by itself.
        let pre = dfas[1].preimage_symbols(&map.iter().cloned().map(Some).collect::<Vec<_>>()).unwrap();
        let expected: Set = all.iter().filter(|x| sets[1].contains(&x.iter().enumerate().map(|(l, &c)| map[l][c as usize]).collect::<Vec<_>>())).cloned().collect();
        prop_assert_eq!(members(&pre), expected);
    }
}

/// The parallel paths give the same canonical DFAs as one thread, for every thread count, and
/// the results obey the set identities (checked by counting and by sampled members).
#[test]
#[ignore = "slow"]
fn large_operations_agree_across_thread_counts() {
    // Weights spread over the residues, so that every residue is a distinct state mid-string.
    let weight = |l: usize| (l * 7919 + 13) * (l + 1) % 40009;
    let a = crate::modular::modular(30, 40009, weight, &[0, 5, 9]);
    let b = crate::modular::modular(30, 40009, |l| if l == 5 || l == 9 { 7 * l + 3 } else { weight(l) }, &[0, 3]);
    assert!(a.states_per_layer().iter().any(|&n| n > 30_000), "operands too small for the parallel paths");
    let moves = [Change::new(3, 0, 2), Change::new(7, 1, 0)];
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
        pool.install(|| {
            vec![
                a.union(&b).unwrap(),
                a.intersection(&b).unwrap(),
                a.difference(&b).unwrap(),
                a.change(&moves).unwrap(),
                a.image(&b, &moves, &b.complement()).unwrap(),
                Dfa::union_all(a.shape(), &[&a, &b, &a.change(&moves).unwrap(), &b.change(&moves).unwrap()]).unwrap(),
            ]
        })
    };
    let one = run(1);
    for threads in [2, 3] {
        assert!(run(threads) == one, "{threads} threads disagree with one");
    }
    let [union, inter, diff, changed, _, many] = &one[..] else { unreachable!() };
    assert!(*many == union.union(changed).unwrap().union(&b.change(&moves).unwrap()).unwrap());
    for d in &one {
        d.validate().expect("invariants hold");
    }
    assert_eq!(union.count() + inter.count(), a.count() + b.count());
    assert_eq!(diff.count() + inter.count(), a.count());
    assert!(*union == a.complement().intersection(&b.complement()).unwrap().complement());
    assert!(
        changed.change_inverse(&moves).unwrap()
            == a.intersection(&Dfa::from_allowed(a.shape(), |l, c| {
                match l {
                    3 => c == 0,
                    7 => c == 1,
                    _ => true,
                }
            }))
            .unwrap()
    );
    let mut rng = dfasolve::dfa::SplitMix64::new(7);
    let sampler = union.sampler().expect("nonempty");
    for _ in 0..200 {
        let x = sampler.sample(&mut rng);
        assert!(a.contains(&x) || b.contains(&x));
        assert_eq!(inter.contains(&x), a.contains(&x) && b.contains(&x));
        assert_eq!(diff.contains(&x), a.contains(&x) && !b.contains(&x));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// `layer_relation_image` equals rewriting each member's character at the layer along
    /// every pair of the relation, and gives a canonical DFA; a move graph made only of
    /// single-change moves (which takes that path) agrees with it forward and backward.
    #[test]
    fn layer_relation_images_match_oracle(
        (shape, sets) in shape_and_sets(2),
        layer_pick in 0usize..8,
        pair_bits in prop::collection::vec(prop::bool::weighted(0.3), 16),
    ) {
        let layer = layer_pick % shape.len();
        let a = shape.alphabet(layer);
        let relation: Vec<(Symbol, Symbol)> = (0..a * a)
            .filter(|&k| pair_bits[k % 16])
            .map(|k| ((k / a) as Symbol, (k % a) as Symbol))
            .collect();
        let s = dfa(&shape, &sets[0]);
        let image = s.layer_relation_image(layer, &relation).unwrap();
        prop_assert_eq!(image.validate(), Ok(()));
        let mut expected = Set::new();
        for x in &sets[0] {
            for &(from, to) in &relation {
                if x[layer] == from {
                    let mut y = x.clone();
                    y[layer] = to;
                    expected.insert(y);
                }
            }
        }
        prop_assert_eq!(members(&image), expected.clone());
        prop_assert!(image == dfa(&shape, &expected));
        // The same moves as a move graph, forward and backward (within the second set).
        let mut g = MoveGraph::new(&shape);
        for &(from, to) in &relation {
            if from != to {
                g.add_move(format!("{from}>{to}"), None, vec![Change::new(layer, from, to)], None);
            }
        }
        let proper: Vec<(Symbol, Symbol)> = relation.iter().copied().filter(|(f, t)| f != t).collect();
        prop_assert!(g.forward(&s).unwrap() == s.layer_relation_image(layer, &proper).unwrap());
        let inverse: Vec<(Symbol, Symbol)> = proper.iter().map(|&(f, t)| (t, f)).collect();
        let within = dfa(&shape, &sets[1]);
        prop_assert!(g.backward(&s).unwrap() == s.layer_relation_image(layer, &inverse).unwrap());
        prop_assert!(g.backward_within(&s, &within).unwrap() == s.layer_relation_image(layer, &inverse).unwrap().intersection(&within).unwrap());
    }

    /// `relations_image` (every layer's relation in one pass, optionally within a set) equals
    /// rewriting exactly one character of each member along its layer's relation; a move
    /// graph of such moves on several layers agrees with it forward and backward.
    #[test]
    fn relations_images_match_oracle(
        (shape, sets) in shape_and_sets(2),
        pair_bits in prop::collection::vec(prop::bool::weighted(0.25), 96),
        use_within in any::<bool>(),
    ) {
        let relations: Vec<(usize, Vec<(Symbol, Symbol)>)> = (0..shape.len())
            .map(|l| {
                let a = shape.alphabet(l);
                let pairs = (0..a * a)
                    .filter(|&k| pair_bits[(l * 16 + k) % 96])
                    .map(|k| ((k / a) as Symbol, (k % a) as Symbol))
                    .collect();
                (l, pairs)
            })
            .filter(|(_, pairs): &(usize, Vec<(Symbol, Symbol)>)| !pairs.is_empty())
            .collect();
        let s = dfa(&shape, &sets[0]);
        let within = dfa(&shape, &sets[1]);
        let image = s.relations_image(&relations, use_within.then_some(&within)).unwrap();
        prop_assert_eq!(image.validate(), Ok(()));
        let mut expected = Set::new();
        for x in &sets[0] {
            for (layer, pairs) in &relations {
                for &(from, to) in pairs {
                    if x[*layer] == from {
                        let mut y = x.clone();
                        y[*layer] = to;
                        if !use_within || sets[1].contains(&y) {
                            expected.insert(y);
                        }
                    }
                }
            }
        }
        prop_assert_eq!(members(&image), expected.clone());
        prop_assert!(image == dfa(&shape, &expected));
        let mut g = MoveGraph::new(&shape);
        for (layer, pairs) in &relations {
            for &(from, to) in pairs {
                g.add_move(format!("{layer}:{from}>{to}"), None, vec![Change::new(*layer, from, to)], None);
            }
        }
        let inverse: Vec<(usize, Vec<(Symbol, Symbol)>)> =
            relations.iter().map(|(l, p)| (*l, p.iter().map(|&(f, t)| (t, f)).collect())).collect();
        prop_assert!(g.forward(&s).unwrap() == s.relations_image(&relations, None).unwrap());
        prop_assert!(g.backward_within(&s, &within).unwrap() == s.relations_image(&inverse, Some(&within)).unwrap());
        prop_assert!(g.without_path_into(&s, &within).unwrap() == within.difference(&s.relations_image(&inverse, Some(&within)).unwrap()).unwrap());
        // The graph keeps its imagers: later images reuse the unions built for earlier ones.
        prop_assert!(g.backward(&within).unwrap() == within.relations_image(&inverse, None).unwrap());
        prop_assert!(g.forward(&within).unwrap() == within.relations_image(&relations, None).unwrap());
        prop_assert!(g.backward_within(&s.union(&within).unwrap(), &s).unwrap() == s.union(&within).unwrap().relations_image(&inverse, Some(&s)).unwrap());
    }
}
