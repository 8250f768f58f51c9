//! The `--stats` summary of a batch: per input file and over all files,
//! how many puzzles were solved (and how many without a guess), the time
//! per puzzle (median, 90th percentile, maximum), fixpoint steps and
//! branches per puzzle, throughput and peak memory.
//!
//! Times go into a histogram of fixed size, so the summary's memory does
//! not grow with the number of puzzles.

use std::fmt::Write as _;
use std::time::Duration;

use hdrhistogram::Histogram;

use crate::solve::{Outcome, Verdict};

/// What one result adds to the summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct PuzzleFigures {
    /// Whether it was solved.
    pub solved: bool,
    /// Whether it took at least one guess.
    pub guessed: bool,
    /// Whether the input was invalid (no other figure counts then).
    pub invalid: bool,
    /// Wall time of its solve.
    pub micros: u64,
    /// Fixpoint steps, over all branches.
    pub steps: u64,
    /// Branches opened.
    pub branches: u64,
}

impl PuzzleFigures {
    /// The figures of a solve.
    pub fn of(outcome: &Outcome) -> PuzzleFigures {
        PuzzleFigures {
            solved: outcome.verdict == Verdict::Solved,
            guessed: outcome.stats.branches > 0,
            invalid: false,
            micros: outcome.stats.micros,
            steps: outcome.stats.steps,
            branches: outcome.stats.branches,
        }
    }

    /// The figures of an input that is not a valid puzzle.
    pub fn invalid() -> PuzzleFigures {
        PuzzleFigures {
            invalid: true,
            ..PuzzleFigures::default()
        }
    }
}

/// Running totals for one file (or for all).
#[derive(Clone, Debug)]
struct Tally {
    puzzles: u64,
    solved: u64,
    without_guessing: u64,
    invalid: u64,
    steps: u64,
    branches: u64,
    micros: Histogram<u64>,
}

impl Tally {
    #[allow(clippy::expect_used, reason = "the bounds are constants, not input")]
    fn new() -> Tally {
        Tally {
            puzzles: 0,
            solved: 0,
            without_guessing: 0,
            invalid: 0,
            steps: 0,
            branches: 0,
            // 1 us to about an hour, 3 significant digits: a few hundred KiB.
            micros: Histogram::new_with_bounds(1, 3_600_000_000, 3)
                .expect("constant bounds are valid"),
        }
    }

    fn add(&mut self, f: &PuzzleFigures) {
        self.puzzles += 1;
        if f.invalid {
            self.invalid += 1;
            return;
        }
        self.solved += u64::from(f.solved);
        self.without_guessing += u64::from(f.solved && !f.guessed);
        self.steps += f.steps;
        self.branches += f.branches;
        self.micros.saturating_record(f.micros.max(1));
    }

    fn row(&self, name: &str) -> String {
        let valid = (self.puzzles - self.invalid).max(1) as f64;
        // The histogram answers with its bucket's top; its bottom is the
        // value recorded when the bucket is exact.
        let ms = |q: f64| {
            let v = self.micros.value_at_quantile(q);
            self.micros.lowest_equivalent(v) as f64 / 1000.0
        };
        format!(
            "{:>8} {:>8} {:>8} {:>7} {:>9.3} {:>9.3} {:>9.3} {:>8.1} {:>9.2}  {name}",
            self.puzzles,
            self.solved,
            self.without_guessing,
            self.invalid,
            ms(0.5),
            ms(0.9),
            ms(1.0),
            self.steps as f64 / valid,
            self.branches as f64 / valid,
        )
    }
}

/// The summary of a batch, filled in input order.
#[derive(Debug)]
pub struct Summary {
    files: Vec<(String, Tally)>,
    total: Tally,
}

impl Default for Summary {
    fn default() -> Self {
        Summary::new()
    }
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Summary {
        Summary {
            files: Vec::new(),
            total: Tally::new(),
        }
    }

    /// Adds one result from `file`.
    pub fn add(&mut self, file: &str, figures: &PuzzleFigures) {
        if self.files.last().is_none_or(|(name, _)| name != file) {
            self.files.push((file.to_string(), Tally::new()));
        }
        if let Some((_, tally)) = self.files.last_mut() {
            tally.add(figures);
        }
        self.total.add(figures);
    }

    /// The table: a row per file, a total row when there are several, then
    /// throughput over `elapsed` wall time with `jobs` threads and peak
    /// memory.
    pub fn render(&self, elapsed: Duration, jobs: usize) -> String {
        let mut out = format!(
            "{:>8} {:>8} {:>8} {:>7} {:>9} {:>9} {:>9} {:>8} {:>9}  file\n",
            "puzzles",
            "solved",
            "no-guess",
            "invalid",
            "median ms",
            "p90 ms",
            "max ms",
            "steps",
            "branches",
        );
        for (name, tally) in &self.files {
            out.push_str(&tally.row(name));
            out.push('\n');
        }
        if self.files.len() != 1 {
            out.push_str(&self.total.row("all"));
            out.push('\n');
        }
        let secs = elapsed.as_secs_f64();
        let _ = write!(
            out,
            "{} puzzles in {secs:.3} s with {jobs} thread{}: {:.0} puzzles/s",
            self.total.puzzles,
            if jobs == 1 { "" } else { "s" },
            self.total.puzzles as f64 / secs.max(1e-9)
        );
        if let Some(kib) = peak_memory_kib() {
            let _ = write!(out, "; peak memory {:.1} MiB", kib as f64 / 1024.0);
        }
        out.push('\n');
        out
    }
}

/// The process's peak resident memory, where the system reports it
/// (Linux: `VmHWM` in `/proc/self/status`).
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solved(micros: u64, branches: u64) -> PuzzleFigures {
        PuzzleFigures {
            solved: true,
            guessed: branches > 0,
            invalid: false,
            micros,
            steps: 10,
            branches,
        }
    }

    #[test]
    fn rows_per_file_and_a_total() {
        let mut s = Summary::new();
        for m in [1000, 2000, 3000] {
            s.add("a.txt", &solved(m, 0));
        }
        s.add("b.txt", &solved(9000, 4));
        s.add("b.txt", &PuzzleFigures::invalid());
        let text = s.render(Duration::from_secs(1), 2);
        let rows: Vec<Vec<&str>> = text
            .lines()
            .skip(1)
            .take(3)
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(
            rows[0],
            [
                "3", "3", "3", "0", "2.000", "3.000", "3.000", "10.0", "0.00", "a.txt"
            ]
        );
        assert_eq!(rows[1][..4], ["2", "1", "0", "1"]);
        assert_eq!(rows[1][8..], ["4.00", "b.txt"], "branches per valid puzzle");
        assert_eq!(rows[2][..4], ["5", "4", "3", "1"]);
        assert_eq!(rows[2][9], "all");
        assert!(text.contains("5 puzzles in 1.000 s with 2 threads: 5 puzzles/s"));
    }
}
