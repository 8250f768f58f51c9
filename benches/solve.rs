//! `cargo bench`: solving the in-repo sample files with the default rules
//! (as `sudolog solve` runs them), one thread, engine built once. The
//! figures are per file (criterion reports time per iteration and puzzles
//! per second); `sudolog solve --stats` gives the per-puzzle distribution
//! on any file.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudolog::DEFAULT_MAX_TIER as SOLVE_DEFAULT_MAX_TIER;
use sudolog::engine::Engine;
use sudolog::grid::{Puzzle, read_inputs};
use sudolog::lang::library::RuleSources;
use sudolog::solve::SearchOptions;
use sudolog::solve::solve;

/// The sample files: a mix of the technique sample (easy to hard 9x9) and
/// the 16x16 puzzles.
const SAMPLES: [&str; 3] = [
    "tests/data/essay.txt",
    "tests/data/techniques/sample.txt",
    "tests/data/sixteen.txt",
];

fn puzzles(path: &str) -> Vec<Puzzle> {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    read_inputs(&[full])
        .map(|p| p.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn default_engine() -> Engine {
    let mut program = RuleSources::standard()
        .load()
        .unwrap_or_else(|e| panic!("the standard library loads: {e}"));
    program.restrict_tier(SOLVE_DEFAULT_MAX_TIER);
    Engine::new(program).unwrap_or_else(|d| panic!("the standard library compiles: {d}"))
}

fn bench_samples(c: &mut Criterion) {
    let engine = default_engine();
    let options = SearchOptions::default();
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for path in SAMPLES {
        let puzzles = puzzles(path);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(path, |b| {
            b.iter(|| {
                for p in &puzzles {
                    std::hint::black_box(solve(&engine, p, &options));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_samples);
criterion_main!(benches);
