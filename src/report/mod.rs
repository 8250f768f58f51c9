//! Output formats for solve results: the line format (one line per puzzle),
//! the grid format (grids and pencil marks, readable back as input), the
//! candidates format (the final state as one candidate line, readable back
//! as the same state), and JSON (one object per puzzle, one per line).

pub mod correlation;
pub mod plot;
pub mod profile;
pub mod summary;

use crate::grid::{
    Puzzle, PuzzleError, render_candidate_line, render_candidates_comment, render_clues,
    render_grid, render_jigsaw, render_line, render_region_line,
};
use crate::lang::program::Program;
use crate::solve::{Outcome, Verdict};
use serde_json::{Value as Json, json};

/// Why a puzzle is not solved, in words (for `#` lines).
fn reason(outcome: &Outcome, puzzle: &Puzzle) -> String {
    let g = &puzzle.geometry;
    let open = outcome.grid.iter().filter(|&&d| d == 0).count();
    match &outcome.verdict {
        Verdict::Solved => "solved".to_string(),
        Verdict::Stalled => format!(
            "stalled: the rules derive nothing more after {} steps with {} of {} cells open",
            outcome.stats.steps,
            open,
            g.cell_count()
        ),
        Verdict::Contradiction => {
            let first = outcome.contradictions.first();
            match first {
                Some((why, Some(cell))) => {
                    format!("contradiction: {why} at {}", g.cell_name(*cell))
                }
                Some((why, None)) => format!("contradiction: {why}"),
                None => "contradiction".to_string(),
            }
        }
        Verdict::NoSolution => match outcome.contradictions.first() {
            Some((why, Some(cell))) => format!(
                "no solution: the rules find a contradiction before any guess ({why} at {})",
                g.cell_name(*cell)
            ),
            _ => format!(
                "no solution: every branch ends in a contradiction ({} branches explored)",
                outcome.stats.branches
            ),
        },
        Verdict::BranchLimit | Verdict::Timeout => {
            let what = match outcome.verdict {
                Verdict::Timeout => "the time limit (--timeout)",
                _ => "the branch limit (--max-branches)",
            };
            let k = outcome.solutions;
            format!(
                "stopped by {what} after {} branches with {k} solution{} found; raise the limit to go on",
                outcome.stats.branches,
                if k == 1 { "" } else { "s" }
            )
        }
        Verdict::InvalidResult(why) => {
            format!("invalid result: the rules produced a wrong grid ({why}); check the rule files")
        }
        Verdict::FactLimit(grew) => format!(
            "stopped: {grew} grew past the fact limit (--max-facts): a rule that \
             derives without end (bound its numbers) or a join or count too large \
             for the limit (narrow the rule, or raise the limit)"
        ),
    }
}

/// What a report shows beyond the answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Show {
    /// Solutions are being counted (`--count N`): say how many.
    pub counting: bool,
    /// The limit solutions are counted up to.
    pub count_limit: u64,
    /// Show the guesses that led to the solution.
    pub trace: bool,
    /// Show statistics.
    pub stats: bool,
}

/// "1 solution (unique)", "2 solutions (stopped at --count 2)".
fn count_words(outcome: &Outcome) -> String {
    let k = outcome.solutions;
    let plural = if k == 1 { "" } else { "s" };
    let tail = if outcome.complete {
        if k == 1 {
            " (unique)"
        } else {
            " (all of them)"
        }
    } else {
        // A search cut by a limit is reported as `limit`, never here.
        " (stopped at --count)"
    };
    format!("{k} solution{plural}{tail}")
}

/// One line for a puzzle: the solution's symbols, or `# ...` saying why not
/// (with the partial grid for a stall). When counting, the solution is
/// followed by `# N solutions`, which reads back as a label.
pub fn line(outcome: &Outcome, puzzle: &Puzzle, show: &Show) -> String {
    let g = &puzzle.geometry;
    let at = format!("({}:{})", puzzle.origin.file, puzzle.origin.line);
    match outcome.verdict {
        Verdict::Solved if show.counting => format!(
            "{} # {}",
            render_line(g, &outcome.grid),
            count_words(outcome)
        ),
        Verdict::Solved => render_line(g, &outcome.grid),
        Verdict::Stalled => format!(
            "# {} {at}: {}",
            reason(outcome, puzzle),
            render_line(g, &outcome.grid)
        ),
        // A count cut short after a solution: show what it found.
        _ if outcome.verdict.is_limit() && outcome.solutions > 0 => format!(
            "# {} {at}: {}",
            reason(outcome, puzzle),
            render_line(g, &outcome.grid)
        ),
        _ => format!("# {} {at}", reason(outcome, puzzle)),
    }
}

/// The candidates format: one line per puzzle, its final state (the
/// solution, or where the rules stalled) as a candidate line, a solved
/// cell having its digit as its only candidate, and a jigsaw's region map
/// after it; it reads back as that state. When counting, `# N solutions`
/// follows, which reads back as a label. Any other end is `# why not`, as
/// [`line`] says it.
pub fn candidates(outcome: &Outcome, puzzle: &Puzzle, show: &Show) -> String {
    let g = &puzzle.geometry;
    if !matches!(outcome.verdict, Verdict::Solved | Verdict::Stalled) {
        return line(outcome, puzzle, show);
    }
    let mut out = render_candidate_line(g, &outcome.grid, &outcome.candidates);
    if let Some(regions) = &puzzle.regions {
        out.push(' ');
        out.push_str(&render_region_line(regions));
    }
    if outcome.verdict == Verdict::Solved && show.counting {
        out.push_str(&format!(" # {}", count_words(outcome)));
    }
    // The clues on the lines after it, so that the state reads back whole.
    let clues = render_clues(&puzzle.clues);
    if !clues.is_empty() {
        out.push('\n');
        out.push_str(clues.trim_end());
    }
    out
}

/// The step log and the guesses on the solution's branch, one `#` line each.
pub fn trace_lines(outcome: &Outcome, puzzle: &Puzzle, program: &Program) -> String {
    let g = &puzzle.geometry;
    let mut out = String::new();
    for l in crate::inspect::trace::lines(&outcome.trace, program, g) {
        out.push_str("# ");
        out.push_str(&l);
        out.push('\n');
    }
    for (depth, guess) in outcome.path.iter().enumerate() {
        out.push_str(&format!(
            "# guess at depth {}: {} = {} (chosen from {})\n",
            depth + 1,
            g.cell_name(guess.cell),
            g.digit_symbol(guess.digit),
            g.digit_set_text(&guess.options)
        ));
    }
    out
}

/// The `#` statistics line of a puzzle.
pub fn stats_line(outcome: &Outcome) -> String {
    let s = &outcome.stats;
    let forcing = if s.forks > 0 {
        format!(
            ", {} forcing steps over {} forks (depth {})",
            s.forcing_steps, s.forks, s.forcing_depth
        )
    } else {
        String::new()
    };
    format!(
        "# stats: {} steps, {} facts derived, {} branches, {} pruned, max depth {}, {} us{forcing}\n",
        s.steps, s.derived, s.branches, s.pruned, s.max_depth, s.micros
    )
}

/// The `#` line for a puzzle that could not be read.
pub fn error_line(error: &PuzzleError) -> String {
    format!("# invalid: {error}")
}

/// The grid format: a `#` header, the grid, and for a stall the pencil
/// marks (as `#` lines, so the output reads back as a puzzle file).
pub fn grid(
    index: usize,
    outcome: &Outcome,
    puzzle: &Puzzle,
    show: &Show,
    program: &Program,
) -> String {
    let g = &puzzle.geometry;
    let what = match outcome.verdict {
        Verdict::Solved if show.counting => format!("solved, {}", count_words(outcome)),
        _ => reason(outcome, puzzle),
    };
    let mut out = format!(
        "# puzzle {} ({}:{}): {}\n",
        index, puzzle.origin.file, puzzle.origin.line, what
    );
    if show.trace {
        out.push_str(&trace_lines(outcome, puzzle, program));
    }
    match &puzzle.regions {
        Some(regions) => out.push_str(&render_jigsaw(g, &outcome.grid, regions)),
        None => out.push_str(&render_grid(g, &outcome.grid)),
    }
    if outcome.verdict == Verdict::Stalled {
        // Under the grid, so that the reader takes it as the grid's marks.
        out.push_str(&render_candidates_comment(
            g,
            &outcome.grid,
            &outcome.candidates,
        ));
    }
    // Then the clues, which read back with the grid above them.
    out.push_str(&render_clues(&puzzle.clues));
    if show.stats {
        out.push_str(&stats_line(outcome));
    }
    out
}

/// The grid format for a puzzle that could not be read.
pub fn grid_error(index: usize, error: &PuzzleError) -> String {
    format!("# puzzle {index}: invalid: {error}\n")
}

/// Candidates of the open cells as `{"r1c2": "349", ...}`.
fn candidates_json(outcome: &Outcome, puzzle: &Puzzle) -> Json {
    let g = &puzzle.geometry;
    let mut map = serde_json::Map::new();
    for (cell, &d) in outcome.grid.iter().enumerate() {
        if d == 0 {
            let mask = outcome.candidates.get(cell).copied().unwrap_or(0);
            let s: String = (1..=g.n as u8)
                .filter(|k| mask & (1 << k) != 0)
                .map(|k| g.digit_symbol(k))
                .collect();
            map.insert(g.cell_name(cell), Json::String(s));
        }
    }
    Json::Object(map)
}

/// Statistics as JSON, naming rules by `file:line`.
pub fn stats_json(outcome: &Outcome, program: &Program) -> Json {
    let s = &outcome.stats;
    let firings: Vec<Json> = s
        .firings
        .iter()
        .filter_map(|&(rule, facts)| {
            let r = program.rules.get(rule)?;
            Some(json!({"rule": r.name, "technique": r.technique, "facts": facts}))
        })
        .collect();
    json!({
        "steps": s.steps,
        "facts_derived": s.derived,
        "placed": s.placed,
        "eliminated": s.eliminated,
        "firings": firings,
        "branches": s.branches,
        "pruned": s.pruned,
        "max_depth": s.max_depth,
        "forcing_steps": s.forcing_steps,
        "forks": s.forks,
        "forcing_depth": s.forcing_depth,
        "guesses": outcome.path.len(),
        "micros": s.micros,
    })
}

/// One JSON object for a puzzle.
pub fn json(index: usize, outcome: &Outcome, puzzle: &Puzzle, program: &Program) -> Json {
    let g = &puzzle.geometry;
    let mut obj = json!({
        "index": index,
        "file": puzzle.origin.file,
        "line": puzzle.origin.line,
        "size": g.label(),
        "status": outcome.verdict.word(),
        "puzzle": render_line(g, &puzzle.cells),
        "solutions": outcome.solutions,
        "search_complete": outcome.complete,
        "stats": stats_json(outcome, program),
    });
    if outcome.verdict == Verdict::Solved {
        obj["solution"] = Json::String(render_line(g, &outcome.grid));
        obj["guesses"] = outcome
            .path
            .iter()
            .enumerate()
            .map(|(depth, guess)| {
                json!({
                    "depth": depth + 1,
                    "cell": g.cell_name(guess.cell),
                    "digit": g.digit_symbol(guess.digit).to_string(),
                    "options": guess.options.iter().map(|&d| g.digit_symbol(d).to_string()).collect::<Vec<_>>(),
                })
            })
            .collect();
    } else {
        obj["reason"] = Json::String(reason(outcome, puzzle));
        // A count cut short after a solution still gives the solution.
        let key = if outcome.verdict.is_limit() && outcome.solutions > 0 {
            "solution"
        } else {
            "partial"
        };
        obj[key] = Json::String(render_line(g, &outcome.grid));
    }
    if outcome.verdict == Verdict::Stalled {
        obj["candidates"] = candidates_json(outcome, puzzle);
    }
    if !outcome.contradictions.is_empty() {
        obj["contradictions"] = outcome
            .contradictions
            .iter()
            .map(|(why, cell)| json!({"reason": why, "cell": cell.map(|c| g.cell_name(c))}))
            .collect();
    }
    if !puzzle.label.is_empty() {
        obj["label"] = Json::String(puzzle.label.clone());
    }
    if !outcome.trace.is_empty() {
        obj["trace"] = crate::inspect::trace::lines(&outcome.trace, program, g).into();
    }
    obj
}

/// One JSON object for a puzzle that could not be read.
pub fn json_error(index: usize, error: &PuzzleError) -> Json {
    json!({
        "index": index,
        "file": error.file,
        "line": error.line,
        "column": error.column,
        "status": "invalid",
        "error": error.message,
    })
}

/// A human summary of a rule set for `sudolog check`: relations and rules.
pub fn rule_listing(program: &Program) -> String {
    let mut out = String::from("relations:\n");
    for r in &program.relations {
        let cols = r
            .columns
            .iter()
            .map(|(n, t)| format!("{n}: {t}"))
            .collect::<Vec<_>>()
            .join(", ");
        let kind = match (r.builtin.is_some(), r.dynamic) {
            (true, true) => "state",
            (true, false) => "built-in",
            (false, true) => "derived, changes during the solve",
            (false, false) => "derived, static",
        };
        out.push_str(&format!("  {}({})  [{}]\n", r.name, cols, kind));
    }
    out.push_str("techniques (tier: a tier runs only when every lower one is stalled):\n");
    for t in &program.techniques {
        let assumption = match (t.assumes_unique, t.assumes_stalled) {
            (true, true) => {
                " (assumes one solution: off when solutions are counted; \
                 assumes the singles are stalled)"
            }
            (true, false) => " (assumes one solution: off when solutions are counted)",
            (false, true) => " (assumes the singles are stalled)",
            (false, false) => "",
        };
        out.push_str(&format!(
            "  {:<3} {:<16} {} rules{assumption}\n",
            t.tier, t.name, t.rules
        ));
    }
    out.push_str("rules:\n");
    for r in &program.rules {
        let head = &program.relations[r.head_rel].name;
        out.push_str(&format!(
            "  {:<24} {:<10} -> {:<14} {}\n",
            r.name, r.technique, head, r.doc
        ));
    }
    out.push_str("ratings (Sudoku Explainer's scale; the first line that holds rates a step):\n");
    for r in program.rules.iter().filter(|r| !r.rating.is_empty()) {
        let lines: Vec<&str> = (r.rating.iter())
            .map(|l| &program.sources.text(l.span.file)[l.span.start..l.span.end])
            .collect();
        out.push_str(&format!("  {:<24} {}\n", r.name, lines.join(" | ")));
    }
    out
}
