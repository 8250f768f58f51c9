//! One step, as a player asks for it: the easiest technique that applies
//! in a state, and every placement and elimination it makes there.
//!
//! A hint runs in two stages. The grid's rules alone (tier 0) first turn
//! the input (givens, digits placed later, removed candidates) into the
//! state a player sees: every candidate a placed digit rules out is gone.
//! Then each named pattern of each technique (`Naked single`, `XY-wing`:
//! the words a rule's comment starts with), easiest tier first and within a
//! file in the order of its rules, runs on that state with its own rules
//! only ([`Program::freeze_state`]): what it derives goes to a step of its
//! own, which feeds neither the grid's rules nor itself, and no other
//! pattern fires in between, so what it derives is one step: every instance
//! of the pattern in that state, and no cascade. Its helpers that need
//! several rounds (a chain's closure, colouring's spread) run to their
//! fixpoint. The first pattern that derives anything is the hint.
//!
//! A technique that assumes the singles are stalled (`.assumes stalled`:
//! BUG+1) is tried only on a state where the grid's rules and the singles
//! have nothing left to derive, as in a solve.

use crate::engine::tuple::Tuple;
use crate::engine::{Engine, Solve, Status};
use crate::grid::Puzzle;
use crate::lang::diag::Diagnostics;
use crate::lang::program::{Builtin, Program, RelId};
use crate::lang::rules_error::RulesError;

/// The engines a hint runs: the grid's rules, and each technique over a
/// frozen state. Built once per run, for any number of puzzles.
pub struct Hinter {
    /// Tier 0 alone: the state a hint starts from.
    state: Engine,
    /// Every technique above tier 0, easiest first.
    techniques: Vec<TechniqueEngine>,
    /// Tiers 0 and 1 (the singles), run on the state to see whether it is
    /// stalled, when a technique assumes it is (and the rules have a tier
    /// 1).
    singles: Option<Engine>,
}

/// One technique's rules (with the helpers they read) over a frozen state,
/// with the conclusions of one of its named patterns.
struct TechniqueEngine {
    name: String,
    tier: u32,
    /// Whether its file says `.assumes stalled`.
    assumes_stalled: bool,
    engine: Engine,
    /// Where its placements and eliminations go (see
    /// [`Program::freeze_state`]).
    step: (RelId, RelId),
}

/// Why a [`Hinter`] could not be built.
#[derive(Debug)]
pub enum HinterError {
    /// A technique asked for is not in the rule set.
    Rules(RulesError),
    /// A technique's rules did not compile on their own.
    Compile(Diagnostics),
}

/// What a hint found for one state.
pub enum Hint<'h> {
    /// The easiest technique that applies, and what it makes.
    Step(Box<Step<'h>>),
    /// Every cell holds a digit already.
    Solved,
    /// No technique of the rule set applies: the rules are stuck here.
    Stuck,
    /// The state is impossible: the grid's rules, or a technique's, derived
    /// a contradiction (reason, cell index).
    Contradiction(Vec<(String, Option<usize>)>),
    /// A limit stopped a run before its fixpoint (the fact limit, naming
    /// the relation that grew most, or the deadline).
    Stopped(Status),
}

/// A technique's step.
pub struct Step<'h> {
    /// The technique (its file's stem).
    pub technique: &'h str,
    /// Its tier.
    pub tier: u32,
    /// The technique's run, for inspection: its program names the rules of
    /// [`HintFact::rule`], and `explain` words each fact from it (a fact of
    /// [`Step::relations`]).
    pub solve: Solve<'h>,
    /// The relations of the step's placements and eliminations in the
    /// run's program (see [`Program::freeze_state`]).
    pub relations: (RelId, RelId),
    /// What its rules placed and eliminated, in the order they were
    /// derived, then placements first, then by cell and digit.
    pub facts: Vec<HintFact>,
}

/// One placement or elimination of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HintFact {
    /// A placement (`r5c7=2`) rather than an elimination (`r3c6<>4`).
    pub placed: bool,
    /// The cell index (row-major).
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// The rule that derived it (an id of the step's program).
    pub rule: usize,
    /// The fixpoint step at which it was derived.
    pub step: u32,
}

impl Hinter {
    /// The engines for `program`'s techniques, or only for those named in
    /// `only` (each must exist). Every engine gets `fact_limit`.
    pub fn new(
        program: &Program,
        only: Option<&[String]>,
        fact_limit: u64,
    ) -> Result<Hinter, HinterError> {
        let compile = |p: Program| -> Result<Engine, HinterError> {
            let mut e = Engine::new(p).map_err(HinterError::Compile)?;
            e.set_fact_limit(fact_limit);
            Ok(e)
        };
        let mut grid_only = program.clone();
        grid_only
            .restrict_techniques(&[])
            .map_err(HinterError::Rules)?;
        let state = compile(grid_only)?;
        if let Some(names) = only {
            // Unknown names are reported with every known one.
            program
                .clone()
                .restrict_techniques(names)
                .map_err(HinterError::Rules)?;
        }
        let mut techniques = Vec::new();
        for t in program.techniques.iter().filter(|t| t.tier > 0) {
            if only.is_some_and(|names| !names.contains(&t.name)) {
                continue;
            }
            let mut alone = program.clone();
            alone
                .restrict_techniques(std::slice::from_ref(&t.name))
                .map_err(HinterError::Rules)?;
            // One engine per named pattern of the file, in file order
            // (`Naked single` before `Hidden single`, `XY-wing` before
            // `XYZ-wing`): a pattern that a later one generalises is named for
            // its own instances.
            for label in conclusion_labels(&alone, &t.name) {
                let mut one = alone.clone();
                let step = one.freeze_state(label.as_deref());
                techniques.push(TechniqueEngine {
                    name: t.name.clone(),
                    tier: t.tier,
                    assumes_stalled: t.assumes_stalled,
                    engine: compile(one)?,
                    step,
                });
            }
        }
        // Without a technique of tier 1 no state counts as stalled, and a
        // technique that assumes one is never tried.
        let singles = if program.has_singles() && techniques.iter().any(|t| t.assumes_stalled) {
            let mut up_to_singles = program.clone();
            up_to_singles.restrict_tier(1);
            Some(compile(up_to_singles)?)
        } else {
            None
        };
        Ok(Hinter {
            state,
            techniques,
            singles,
        })
    }

    /// The techniques a hint tries, easiest first: name and tier.
    pub fn techniques(&self) -> impl Iterator<Item = (&str, u32)> {
        self.techniques.iter().map(|t| (t.name.as_str(), t.tier))
    }

    /// The easiest step in the state `puzzle` describes.
    pub fn hint(&self, puzzle: &Puzzle) -> Hint<'_> {
        match self.steps(puzzle, true) {
            Ok(mut steps) => match steps.pop() {
                Some(step) => Hint::Step(Box::new(step)),
                None => Hint::Stuck,
            },
            Err(other) => other,
        }
    }

    /// Every pattern's step in the state `puzzle` describes, easiest
    /// first: what each of the hinter's patterns would make there (for a
    /// check of a whole technique, all of whose patterns count).
    pub fn every_step(&self, puzzle: &Puzzle) -> Result<Vec<Step<'_>>, Hint<'_>> {
        self.steps(puzzle, false)
    }

    /// The steps of the patterns that derive something, easiest first (only
    /// the first with `first_only`), or why there is no state to start from.
    fn steps(&self, puzzle: &Puzzle, first_only: bool) -> Result<Vec<Step<'_>>, Hint<'_>> {
        let g = puzzle.geometry;
        let mut state = self.state.start_puzzle(puzzle, None);
        if let Some(marks) = &puzzle.marks {
            state.enter_marks(&marks.entered_digits(), &marks.removed_candidates());
        }
        match state.run() {
            Status::Stalled => {}
            Status::Solved => return Err(Hint::Solved),
            Status::Contradiction => return Err(Hint::Contradiction(state.contradictions())),
            Status::Conflict => return Err(Hint::Contradiction(Vec::new())),
            stopped => return Err(Hint::Stopped(stopped)),
        }
        // The state as input facts: every digit placed but the givens, and
        // every candidate gone.
        let grid = state.grid();
        let candidates = state.candidates();
        let entered: Vec<(usize, u8)> = (grid.iter().zip(&puzzle.cells).enumerate())
            .filter(|&(_, (&d, &given))| d != 0 && given == 0)
            .map(|(c, (&d, _))| (c, d))
            .collect();
        let removed: Vec<(usize, u8)> = (candidates.iter().enumerate())
            .flat_map(|(c, &m)| {
                (1..=g.n as u8)
                    .filter(move |&d| m & (1 << d) == 0)
                    .map(move |d| (c, d))
            })
            .collect();
        let mut steps = Vec::new();
        let mut stalled = None;
        for t in &self.techniques {
            if t.assumes_stalled
                && !*stalled.get_or_insert_with(|| self.stalled(puzzle, &state, &entered, &removed))
            {
                continue;
            }
            let mut solve = t.engine.start_puzzle(puzzle, None);
            solve.enter_marks(&entered, &removed);
            let before = solve.steps();
            match solve.run() {
                Status::Stalled | Status::Solved => {}
                Status::Contradiction => return Err(Hint::Contradiction(solve.contradictions())),
                Status::Conflict => return Err(Hint::Contradiction(Vec::new())),
                stopped => return Err(Hint::Stopped(stopped)),
            }
            let facts = step_facts(&solve, before, t.step);
            if !facts.is_empty() {
                steps.push(Step {
                    technique: &t.name,
                    tier: t.tier,
                    solve,
                    relations: t.step,
                    facts,
                });
                if first_only {
                    break;
                }
            }
        }
        Ok(steps)
    }

    /// Whether the singles have nothing to derive in `state`, the hint's
    /// (`entered` and `removed` over `puzzle`'s givens); never, without
    /// a technique of tier 1.
    fn stalled(
        &self,
        puzzle: &Puzzle,
        state: &Solve,
        entered: &[(usize, u8)],
        removed: &[(usize, u8)],
    ) -> bool {
        let Some(singles) = &self.singles else {
            return false;
        };
        let mut solve = singles.start_puzzle(puzzle, None);
        solve.enter_marks(entered, removed);
        matches!(solve.run(), Status::Stalled | Status::Solved)
            && solve.grid() == state.grid()
            && solve.candidates() == state.candidates()
    }
}

/// The names of the patterns whose rules place or eliminate in `technique`,
/// in file order; one `None` if no such rule names one (then every rule
/// of the technique concludes together).
fn conclusion_labels(program: &Program, technique: &str) -> Vec<Option<String>> {
    let placed = program.builtin(Builtin::Placed);
    let eliminated = program.builtin(Builtin::Eliminated);
    let mut labels: Vec<Option<String>> = Vec::new();
    for r in &program.rules {
        let concludes = r.head_rel == placed || r.head_rel == eliminated;
        if concludes && r.technique == technique {
            let label = r.label().map(str::to_string);
            if !labels.contains(&label) {
                labels.push(label);
            }
        }
    }
    if labels.contains(&None) {
        // A conclusion with no name goes with all of them at once.
        return vec![None];
    }
    labels
}

/// The placements and eliminations a technique's rules derived after
/// `before`, into the step's relations `(placed, eliminated)`, that the
/// state does not hold already (a rule may conclude what is known).
fn step_facts(solve: &Solve, before: u32, (placed, eliminated): (RelId, RelId)) -> Vec<HintFact> {
    let n = solve.geometry().n;
    let program = solve.engine().program();
    let known = |rel: RelId, t: &Tuple| {
        let state = if rel == placed {
            program.builtin(Builtin::Placed)
        } else {
            program.builtin(Builtin::Eliminated)
        };
        solve.origin(state, t).is_some()
    };
    let mut facts: Vec<HintFact> = solve
        .facts_since(before)
        .into_iter()
        .filter(|(rel, t, origin)| {
            (*rel == placed || *rel == eliminated) && !origin.is_unruled() && !known(*rel, t)
        })
        .filter_map(|(rel, t, origin)| {
            let (row, col) = crate::lang::value::cell_coords(t.0[0]);
            let digit = u8::try_from(t.0[1]).ok()?;
            (row < n && col < n).then_some(HintFact {
                placed: rel == placed,
                cell: row * n + col,
                digit,
                rule: origin.rule as usize,
                step: origin.step,
            })
        })
        .collect();
    facts.sort_by_key(|f| (f.step, !f.placed, f.cell, f.digit));
    facts
}
