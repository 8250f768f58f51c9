//! Forcing: reasoning with hypotheses where the rules stall, instead of
//! guessing. A hypothesis is a cell (each of its candidates in turn) or a
//! digit in a unit (each of its places in turn); each option is supposed
//! in a fork of the stalled state, and the rules run there to their
//! fixpoint. An option whose fork ends in a contradiction is false: the
//! digit leaves the cell. With none refuted, a fact that every fork
//! reaches holds whichever option is true: it is derived. The parent
//! takes them as facts of its own (their origin is forcing) and its
//! fixpoint goes on.
//!
//! Hypotheses are tried cheapest first (two options before three), and
//! the first that yields something is the step, so that traces stay
//! short. Each supposition is run once per stall, whichever hypotheses
//! share it, and one that held up is not run again from a later state
//! between its old stall and its fork's end. At depth 2, a fork that stalls may force once more inside;
//! a stall tries depth 1 first, and 2 only where it finds nothing.

use crate::engine::{Engine, Solve, Status};
use crate::grid::Puzzle;
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;
use std::rc::Rc;
use std::time::Instant;

/// `(cell, digit)` pairs: a hypothesis's options, or what it places or
/// eliminates.
type Pairs = Vec<(usize, u8)>;

/// How forcing runs, when it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forcing {
    /// Levels of hypotheses: 0 for none, 1 for forks that run the rules,
    /// 2 for forks that may force once more where their rules stall.
    pub depth: u32,
    /// The hardest tier the rules run in a fork (`None`: every tier of
    /// the rule set).
    pub fork_tier: Option<u32>,
}

/// The hardest tier forks run by default: singles and locked candidates
/// in the standard library. On magictour (depth 1, one thread) it takes
/// 44 s, against 54 s with the singles alone and 53 s with every tier.
pub const DEFAULT_FORK_TIER: u32 = 2;

impl Default for Forcing {
    /// No forcing; forks would run up to [`DEFAULT_FORK_TIER`].
    fn default() -> Self {
        Forcing {
            depth: 0,
            fork_tier: Some(DEFAULT_FORK_TIER),
        }
    }
}

/// What a hypothesis supposes, one option at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hypothesis {
    /// Each candidate of a cell (row-major index).
    Cell(usize),
    /// Each place of a digit in a unit.
    Unit {
        /// The unit's name (`row3`, `box7`, a variant's `diag1`).
        unit: String,
        /// The digit.
        digit: u8,
    },
}

/// Where one option's fork ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForkEnd {
    /// The rules derived a contradiction: its reason and cell.
    Contradiction(Option<(String, Option<usize>)>),
    /// The rules stalled or solved the grid without one.
    Survived,
}

/// One option of a hypothesis: the digit supposed in the cell, and where
/// its fork ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForkResult {
    /// The cell (row-major index).
    pub cell: usize,
    /// The digit supposed there.
    pub digit: u8,
    /// How the fork ended.
    pub end: ForkEnd,
}

/// A forcing step: the hypothesis, each option's fork, and what came back
/// to the parent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcingStep {
    /// What was supposed.
    pub hypothesis: Hypothesis,
    /// Each option's fork, in the order tried.
    pub forks: Vec<ForkResult>,
    /// Digits placed: `(cell, digit)` that every surviving fork placed.
    pub placed: Vec<(usize, u8)>,
    /// Candidates eliminated: the refuted options, and `(cell, digit)`
    /// that every surviving fork eliminated.
    pub eliminated: Vec<(usize, u8)>,
    /// The levels of hypotheses it used: 1, or 2 if a fork forced too.
    pub depth: u32,
}

/// What forcing counts across a solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Forks opened (at every depth).
    pub forks: u64,
    /// Whether a fork's rules used a technique that assumes one solution.
    pub assumed_unique: bool,
}

/// Why forcing stopped before an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed.
    Timeout,
    /// The forks reached `--max-branches`.
    BranchLimit,
}

/// How one supposition's fork ended, kept for every hypothesis that
/// shares it.
enum Supposed {
    Refuted(Option<(String, Option<usize>)>),
    /// The fork's grid and candidates, and the depth it used.
    Survived(Vec<u8>, Vec<u32>, u32),
    /// A limit stopped the fork (the fact limit, a conflict): nothing can
    /// be concluded from it.
    Unknown,
}

/// One option's fork of a forcing step, kept at its end for inspection:
/// `explain` shows the fork's own derivation of its contradiction, or of
/// the fact every fork reached.
pub struct KeptFork<'e> {
    /// The cell supposed (row-major index).
    pub cell: usize,
    /// The digit supposed there.
    pub digit: u8,
    /// The fork where its rules ended.
    pub solve: Solve<'e>,
    /// The fork's own forcing steps (at depth 2), each with the step its
    /// facts arrived at; their forks are not kept.
    pub forcing: Vec<(u32, ForcingStep)>,
}

/// The stalled state forcing looks at: its size, digits and candidates.
struct Stalled {
    n: usize,
    grid: Vec<u8>,
    candidates: Vec<u32>,
}

impl Stalled {
    /// Whether `self` knows everything `other` knows: its digits, and no
    /// candidate `other` has not ruled out.
    fn knows(&self, grid: &[u8], candidates: &[u32]) -> bool {
        (self.grid.iter().zip(grid)).all(|(&mine, &theirs)| theirs == 0 || mine == theirs)
            && (self.candidates.iter().zip(candidates)).all(|(&mine, &theirs)| mine & !theirs == 0)
    }
}

/// The most survivors a forcer keeps: every option of a 9x9 grid (729),
/// and on a 25x25 grid (15,625 options, some 6 KB each with their stall)
/// a bound of about 6 MB a puzzle.
const MAX_SURVIVORS: usize = 1024;

/// A one-level supposition whose fork held up: the stall it was supposed
/// in, and where its fork ended.
struct Survivor {
    stall: Rc<Stalled>,
    end: Stalled,
}

/// Forcing over one puzzle's solve: the settings, the deadline, the
/// bound on forks, and what it counted so far.
pub struct Forcer {
    /// The settings.
    pub forcing: Forcing,
    /// When to stop.
    pub deadline: Option<Instant>,
    /// Forks opened, and whether one assumed a unique solution.
    pub tally: Tally,
    /// Stop after opening this many forks (`--max-branches`).
    pub max_forks: Option<u64>,
    /// One-level suppositions that held up, by `(cell, digit)`: at a later
    /// stall that knows all their stall knew and nothing their fork's end
    /// did not, the fork would end the same, and is not run again.
    survivors: FxHashMap<(usize, u8), Survivor>,
}

impl Forcer {
    /// A forcer with `forcing`'s settings, stopping at `deadline` and
    /// after `max_forks` forks.
    pub fn new(forcing: Forcing, deadline: Option<Instant>, max_forks: Option<u64>) -> Forcer {
        Forcer {
            forcing,
            deadline,
            tally: Tally::default(),
            max_forks,
            survivors: FxHashMap::default(),
        }
    }

    /// Runs `solve`'s rules, forcing where they stall while `depth`
    /// allows; returns how the run ended and the depth forcing used (0 if
    /// none).
    /// With `log`, each forcing step is recorded there with the step its
    /// facts arrived at.
    pub fn settle(
        &mut self,
        solve: &mut Solve,
        depth: u32,
        mut log: Option<&mut Vec<(u32, ForcingStep)>>,
    ) -> Result<(Status, u32), Stop> {
        let mut used = 0;
        loop {
            let status = solve.run_until(self.deadline);
            if status != Status::Stalled || depth == 0 {
                return Ok((status, used));
            }
            match self.find(solve, depth)? {
                Some(step) => {
                    used = used.max(step.depth);
                    solve.force(&step.placed, &step.eliminated);
                    if let Some(log) = log.as_deref_mut() {
                        log.push((solve.steps(), step));
                    }
                }
                None => return Ok((status, used)),
            }
        }
    }

    /// The first hypothesis, cheapest first, whose forks yield something
    /// in the stalled state `solve`, one level deep if any does, else two
    /// (up to `depth`): a deeper level only where the shallower finds
    /// nothing, since each of its forks forces in turn. `None` if none
    /// does.
    pub fn find(&mut self, solve: &mut Solve, depth: u32) -> Result<Option<ForcingStep>, Stop> {
        Ok(self.find_in(solve, depth, false)?.map(|(step, _)| step))
    }

    /// [`Forcer::find`], keeping the forks of the step's options at their
    /// end (for `explain`), in the order of [`ForcingStep::forks`].
    pub fn find_keeping<'e>(
        &mut self,
        solve: &mut Solve<'e>,
        depth: u32,
    ) -> Result<Option<(ForcingStep, Vec<KeptFork<'e>>)>, Stop> {
        self.find_in(solve, depth, true)
    }

    fn find_in<'e>(
        &mut self,
        solve: &mut Solve<'e>,
        depth: u32,
        keep: bool,
    ) -> Result<Option<(ForcingStep, Vec<KeptFork<'e>>)>, Stop> {
        let state = Rc::new(Stalled {
            n: solve.geometry().n,
            grid: solve.grid(),
            candidates: solve.candidates(),
        });
        let list = hypotheses(state.n, &solve.units(), &state.grid, &state.candidates);
        solve.freeze();
        for level in 1..=depth {
            if let Some(found) = self.find_at(solve, &state, &list, level, keep)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// The first hypothesis of `list` whose forks, with `depth - 1` levels
    /// of forcing of their own, yield something; with `keep`, its forks.
    fn find_at<'e>(
        &mut self,
        solve: &mut Solve<'e>,
        state: &Rc<Stalled>,
        list: &[(Hypothesis, Pairs)],
        depth: u32,
        keep: bool,
    ) -> Result<Option<(ForcingStep, Vec<KeptFork<'e>>)>, Stop> {
        let (n, grid, candidates) = (state.n, &state.grid, &state.candidates);
        let mut tried: FxHashMap<(usize, u8), Supposed> = FxHashMap::default();
        for (hypothesis, options) in list {
            for &option in options {
                if let Entry::Vacant(slot) = tried.entry(option) {
                    slot.insert(self.suppose(solve, state, option, depth, false)?.0);
                }
            }
            let results: Vec<&Supposed> = options.iter().map(|k| &tried[k]).collect();
            let Some((placed, eliminated)) = conclude(grid, candidates, n, options, &results)
            else {
                continue;
            };
            let used = (results.iter())
                .map(|s| match s {
                    Supposed::Survived(_, _, d) => 1 + d,
                    _ => 1,
                })
                .max()
                .unwrap_or(1);
            let forks = (options.iter().zip(&results))
                .map(|(&(cell, digit), s)| ForkResult {
                    cell,
                    digit,
                    end: match s {
                        Supposed::Refuted(why) => ForkEnd::Contradiction(why.clone()),
                        _ => ForkEnd::Survived,
                    },
                })
                .collect();
            // Only the step's own forks are kept, run once more (the runs
            // are deterministic): keeping every fork tried would hold
            // hundreds of them on a large grid.
            let mut kept = Vec::new();
            if keep {
                for &option in options {
                    kept.extend(self.suppose(solve, state, option, depth, true)?.1);
                }
            }
            let step = ForcingStep {
                hypothesis: hypothesis.clone(),
                forks,
                placed,
                eliminated,
                depth: used,
            };
            return Ok(Some((step, kept)));
        }
        Ok(None)
    }

    /// Keeps a survivor for later stalls, within [`MAX_SURVIVORS`]: past
    /// it the older ones are forgotten (they only save work).
    fn remember(&mut self, option: (usize, u8), survivor: Survivor) {
        if self.survivors.len() >= MAX_SURVIVORS && !self.survivors.contains_key(&option) {
            self.survivors.clear();
        }
        self.survivors.insert(option, survivor);
    }

    /// Supposes `digit` in `cell` in a fork of `solve` and runs it, with
    /// `depth - 1` levels of forcing left; with `keep`, returns the fork
    /// too.
    fn suppose<'e>(
        &mut self,
        solve: &mut Solve<'e>,
        state: &Rc<Stalled>,
        (cell, digit): (usize, u8),
        depth: u32,
        keep: bool,
    ) -> Result<(Supposed, Option<KeptFork<'e>>), Stop> {
        // Facts only grow and the fork's rules reach one fixpoint: from a
        // state between its old stall and its end, the fork ends there
        // again.
        let reusable = !keep && depth == 1;
        if reusable
            && let Some(s) = self.survivors.get(&(cell, digit))
            && state.knows(&s.stall.grid, &s.stall.candidates)
            && s.end.knows(&state.grid, &state.candidates)
        {
            let end = &s.end;
            return Ok((
                Supposed::Survived(end.grid.clone(), end.candidates.clone(), 0),
                None,
            ));
        }
        if self.max_forks.is_some_and(|m| self.tally.forks >= m) {
            return Err(Stop::BranchLimit);
        }
        let mut fork = solve.fork();
        if let Some(tier) = self.forcing.fork_tier {
            fork.cap_tiers(tier);
        }
        fork.suppose(cell, digit);
        self.tally.forks += 1;
        let mut log = Vec::new();
        let (status, used) = self.settle(&mut fork, depth - 1, keep.then_some(&mut log))?;
        let firings: Vec<(usize, u64)> = (fork.firings().into_iter())
            .map(|(r, k)| (r, u64::from(k)))
            .collect();
        self.tally.assumed_unique |= fork.engine().used_assumption(&firings);
        let supposed = match status {
            Status::Contradiction => Supposed::Refuted(fork.contradictions().into_iter().next()),
            Status::Stalled | Status::Solved => {
                let (grid, candidates) = (fork.grid(), fork.candidates());
                if reusable {
                    let end = Stalled {
                        n: state.n,
                        grid: grid.clone(),
                        candidates: candidates.clone(),
                    };
                    let stall = Rc::clone(state);
                    self.remember((cell, digit), Survivor { stall, end });
                }
                Supposed::Survived(grid, candidates, used)
            }
            Status::Timeout => return Err(Stop::Timeout),
            Status::Conflict | Status::FactLimit(_) => Supposed::Unknown,
        };
        let fork = keep.then(|| KeptFork {
            cell,
            digit,
            solve: fork,
            forcing: log,
        });
        Ok((supposed, fork))
    }
}

/// The forcing step a player would take in the state `puzzle` describes
/// (a pencil-mark state, or givens alone): `engine`'s rules run to their
/// fixpoint, then, if they stall, the first hypothesis that yields
/// something. Returns the stalled solve (the board before the step) with
/// the step; `None` where the rules do not stall or no hypothesis yields
/// anything within `forcing.depth`; [`Stop::Timeout`] past `deadline`.
pub fn forcing_step<'e>(
    engine: &'e Engine,
    puzzle: &Puzzle,
    forcing: Forcing,
    deadline: Option<Instant>,
) -> Result<Option<(Solve<'e>, ForcingStep)>, Stop> {
    let mut solve = engine.start_puzzle(puzzle, deadline);
    if let Some(marks) = &puzzle.marks {
        solve.enter_marks(&marks.entered_digits(), &marks.removed_candidates());
    }
    match solve.run_until(deadline) {
        Status::Stalled if forcing.depth > 0 => {}
        Status::Timeout => return Err(Stop::Timeout),
        _ => return Ok(None),
    }
    let mut forcer = Forcer::new(forcing, deadline, None);
    Ok(forcer
        .find(&mut solve, forcing.depth)?
        .map(|step| (solve, step)))
}

/// What a hypothesis yields, if anything: `(placed, eliminated)`. Refuted
/// options are eliminated, and that is all: the parent's rules take it
/// from there, each fact with its own rule (what the one survivor of a
/// bivalue cell derived would come back whole otherwise). With none
/// refuted and every fork known, what they all reached beyond the
/// parent's state holds whichever option is true.
fn conclude(
    grid: &[u8],
    candidates: &[u32],
    n: usize,
    options: &[(usize, u8)],
    results: &[&Supposed],
) -> Option<(Pairs, Pairs)> {
    let mut eliminated: Vec<(usize, u8)> = (options.iter().zip(results))
        .filter(|(_, s)| matches!(s, Supposed::Refuted(_)))
        .map(|(&o, _)| o)
        .collect();
    let survivors: Vec<(&Vec<u8>, &Vec<u32>)> = results
        .iter()
        .filter_map(|s| match s {
            Supposed::Survived(g, c, _) => Some((g, c)),
            _ => None,
        })
        .collect();
    let unknown = results.iter().any(|s| matches!(s, Supposed::Unknown));
    let mut placed = Vec::new();
    if eliminated.is_empty() && !unknown && !survivors.is_empty() {
        for cell in 0..grid.len() {
            if grid[cell] == 0 {
                let first = survivors[0].0[cell];
                if first != 0 && survivors.iter().all(|(g, _)| g[cell] == first) {
                    placed.push((cell, first));
                }
            }
            let gone = (survivors.iter()).fold(candidates[cell], |m, (_, c)| m & !c[cell]);
            eliminated.extend(
                (1..=n as u8)
                    .filter(|d| gone & (1 << d) != 0)
                    .map(|d| (cell, d)),
            );
        }
    }
    eliminated.sort_unstable();
    (!placed.is_empty() || !eliminated.is_empty()).then_some((placed, eliminated))
}

/// Every hypothesis of a stalled state with its options, cheapest first:
/// by the number of options (two first), then cells before units, then
/// in grid order (cells; units in the rule set's order, digits
/// ascending). `units` are the rule set's, a variant's included.
fn hypotheses(
    n: usize,
    units: &[(String, Vec<usize>)],
    grid: &[u8],
    candidates: &[u32],
) -> Vec<(Hypothesis, Pairs)> {
    let mut out: Vec<(usize, usize, Hypothesis, Pairs)> = Vec::new();
    for cell in (0..grid.len()).filter(|&c| grid[c] == 0) {
        let options: Pairs = (1..=n as u8)
            .filter(|d| candidates[cell] & (1 << d) != 0)
            .map(|d| (cell, d))
            .collect();
        if options.len() >= 2 {
            out.push((options.len(), 0, Hypothesis::Cell(cell), options));
        }
    }
    for (unit, cells) in units {
        for digit in 1..=n as u8 {
            if cells.iter().any(|&c| grid[c] == digit) {
                continue;
            }
            let options: Pairs = (cells.iter())
                .filter(|&&c| grid[c] == 0 && candidates[c] & (1 << digit) != 0)
                .map(|&c| (c, digit))
                .collect();
            if options.len() >= 2 {
                let hypothesis = Hypothesis::Unit {
                    unit: unit.clone(),
                    digit,
                };
                out.push((options.len(), 1, hypothesis, options));
            }
        }
    }
    // Stable: grid order within each size and kind.
    out.sort_by_key(|(size, kind, _, _)| (*size, *kind));
    out.into_iter().map(|(_, _, h, o)| (h, o)).collect()
}

#[cfg(test)]
mod tests {
    use super::{Forcer, Forcing, MAX_SURVIVORS, Stalled, Survivor};
    use std::rc::Rc;

    #[test]
    fn the_survivors_a_forcer_keeps_are_bounded() {
        let mut forcer = Forcer::new(Forcing::default(), None, None);
        let stall = Rc::new(state(&[0; 4], &[0b11110; 4]));
        let survivor = || Survivor {
            stall: Rc::clone(&stall),
            end: state(&[0; 4], &[0b11110; 4]),
        };
        for i in 0..MAX_SURVIVORS {
            forcer.remember((i, 1), survivor());
        }
        assert_eq!(forcer.survivors.len(), MAX_SURVIVORS);
        forcer.remember((0, 1), survivor());
        assert_eq!(
            forcer.survivors.len(),
            MAX_SURVIVORS,
            "a known option is replaced"
        );
        forcer.remember((MAX_SURVIVORS, 1), survivor());
        assert!(forcer.survivors.len() <= MAX_SURVIVORS);
        assert!(forcer.survivors.contains_key(&(MAX_SURVIVORS, 1)));
    }

    fn state(grid: &[u8], candidates: &[u32]) -> Stalled {
        Stalled {
            n: 4,
            grid: grid.to_vec(),
            candidates: candidates.to_vec(),
        }
    }

    #[test]
    fn a_state_knows_another_when_it_has_its_digits_and_no_candidate_it_lost() {
        let earlier = state(&[1, 0], &[0b0010, 0b1110]);
        let later = state(&[1, 2], &[0b0010, 0b0100]);
        assert!(later.knows(&earlier.grid, &earlier.candidates));
        assert!(
            !earlier.knows(&later.grid, &later.candidates),
            "a digit it lacks"
        );
        let other_digit = state(&[1, 3], &[0b0010, 0b1000]);
        assert!(!other_digit.knows(&later.grid, &later.candidates));
        let candidate_back = state(&[1, 0], &[0b0010, 0b0110]);
        assert!(
            !candidate_back.knows(&later.grid, &later.candidates),
            "a candidate it kept"
        );
        assert!(later.knows(&later.grid, &later.candidates));
    }
}
