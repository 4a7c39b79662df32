//! End-to-end solves of small boards (full solves of large boards run through the CLI and
//! write CSV into results/).
use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use dfasolve::games::breakthrough::Breakthrough;
use dfasolve::games::nim::Nim;
use dfasolve::games::othello::Othello;
use dfasolve::games::othello::difference_table::DifferenceTable;
use dfasolve::games::othello::differences;
use dfasolve::solved::Mode;
use dfasolve::solver::Solver;
use std::hint::black_box;

fn solve(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    for (w, h) in [(4, 4), (3, 5), (5, 4)] {
        let game = Breakthrough::new(w, h).unwrap();
        g.bench_function(BenchmarkId::new("breakthrough-strong", format!("{w}x{h}")), |b| {
            b.iter(|| black_box(Solver::new(&game).unwrap().solve(Mode::Strong).unwrap()))
        });
        g.bench_function(BenchmarkId::new("breakthrough-mitm2", format!("{w}x{h}")), |b| {
            b.iter(|| black_box(Solver::new(&game).unwrap().solve(Mode::MeetInTheMiddle { depth: 2 }).unwrap()))
        });
    }
    // Othello 4x5's exact differences by rank (4,990,592 positions), the universes made once:
    // each iteration writes every class's table again.
    let othello = Othello::new(4, 5, 0).unwrap().reachable_only();
    let dir = tempfile::tempdir().unwrap();
    differences::solve(&othello, dir.path(), |_| {}).unwrap();
    let remove_tables = || {
        for d in 4..=20 {
            std::fs::remove_file(DifferenceTable::path(dir.path(), d)).unwrap();
        }
    };
    g.bench_function(BenchmarkId::new("othello-differences", "4x5"), |b| {
        b.iter_batched(
            remove_tables,
            |()| black_box(differences::solve(&othello, dir.path(), |_| {}).unwrap()),
            BatchSize::PerIteration,
        )
    });
    let nim = Nim::new(8, 31).unwrap();
    g.bench_function(BenchmarkId::new("nim", "8x31"), |b| {
        b.iter(|| black_box(Solver::new(&nim).unwrap().solve(Mode::Strong).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
