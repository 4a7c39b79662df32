//! Large structured DFAs for tests and benchmarks (benches/dfa_ops.rs includes this file).

use dfasolve::dfa::{Dfa, DfaBuilder, Shape, StateId};

/// Strings over {0,1,2}^layers whose weighted sum Σ weight(i)·x_i mod p is in `residues`.
/// Mid-string, each residue that can still be completed differently is its own state, so a
/// large `p` with weights spread over the residues gives layers of about `p` states: operands
/// large enough for the engine's parallel paths and for throughput figures.
pub fn modular(layers: usize, p: usize, weight: impl Fn(usize) -> usize, residues: &[usize]) -> Dfa {
    let shape = Shape::uniform(layers, 3);
    let mut b = DfaBuilder::new(&shape);
    let mut below: Vec<StateId> =
        (0..p).map(|r| if residues.contains(&r) { StateId::ACCEPT } else { StateId::REJECT }).collect();
    for l in (0..layers).rev() {
        below = (0..p)
            .map(|r| {
                let row: Vec<StateId> = (0..3).map(|x| below[(r + weight(l) * x) % p]).collect();
                b.add(l, &row)
            })
            .collect();
    }
    b.finish(below[0])
}
