//! Arbitrary bytes as a rule file added to the standard library (rule files
//! are UTF-8 text, so other inputs are skipped), capped at the default tier
//! of `sudolog solve` as the command does. If the set loads and compiles, solve one fixed 9x9 puzzle (the second of tests/data/essay.txt,
//! which needs guesses) under a branch limit and a short timeout, and
//! render the result in every output format. Any verdict is fine (a wrong
//! rule set may well give `invalid_result` or `fact_limit`); a panic, an
//! abort or a hang is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use std::time::Duration;
use sudolog::engine::Engine;
use sudolog::grid::{Puzzle, PuzzleReader};
use sudolog::lang::library::RuleSources;
use sudolog::report::{self, Show};
use sudolog::solve::solve;
use sudolog::solve::{Mode, SearchOptions};

const PUZZLE: &str =
    "...6.8.1.......7..7..5........7..38.6....31.5.72...6.....3..8....9......4.6.2...3\n";

fn puzzle() -> &'static Puzzle {
    static P: OnceLock<Puzzle> = OnceLock::new();
    P.get_or_init(|| {
        PuzzleReader::new(PUZZLE.as_bytes(), "essay.txt")
            .next()
            .expect("one puzzle")
            .expect("a valid puzzle")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut sources = RuleSources::standard();
    sources.add_text("fuzz/fuzz.dl", text);
    let Ok(mut program) = sources.load() else {
        return;
    };
    // What `sudolog solve` does by default (tiers above it are the slow
    // techniques: 20x the time on this puzzle).
    program.restrict_tier(sudolog::DEFAULT_MAX_TIER);
    let Ok(engine) = Engine::new(program) else {
        return;
    };
    let options = SearchOptions {
        mode: Mode::First,
        max_branches: Some(64),
        timeout: Some(Duration::from_secs(2)),
        trace: true,
    };
    let p = puzzle();
    let outcome = solve(&engine, p, &options);
    let show = Show {
        counting: false,
        count_limit: 1,
        trace: true,
        stats: true,
    };
    let _ = report::line(&outcome, p, &show);
    let _ = report::grid(1, &outcome, p, &show, engine.program());
    let _ = report::json(1, &outcome, p, engine.program()).to_string();
    let _ = report::trace_lines(&outcome, p, engine.program());
    let _ = report::stats_line(&outcome);
});
