//! Where the fixpoint's time goes, per rule (`sudolog solve --profile`):
//! every operator of the fixpoint's plan times its runs, and the report
//! adds them up per rule, as `check --plan` groups them.
//!
//! A rule author's question is "what does my technique cost?", and the
//! answer is rarely the rule that derives the eliminations: it is a helper
//! relation that holds for many cells, or a count over a large group. So
//! the report names each rule (and each count's body) on its own line.
//!
//! The counters are atomics shared by every thread and every fork of a
//! run: a profile adds up a whole batch. Timing costs two clock reads per
//! operator run, so it is off unless asked for.

use super::Engine;
use super::show_plan::{Purpose, purpose_rule, rule_text, runs};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The time and output of each operator of the fixpoint's plan, summed
/// over every run that recorded into it.
pub struct Profile {
    ops: Vec<OpCost>,
    /// Time spent ending rounds: new facts sorted and merged into the
    /// stable batches of the variables that joins read.
    rounds: OpCost,
}

/// What one operator (or the rounds' bookkeeping) cost.
#[derive(Default)]
struct OpCost {
    nanos: AtomicU64,
    runs: AtomicU64,
    new_facts: AtomicU64,
}

impl OpCost {
    fn add(&self, time: Duration, new_facts: u64) {
        let nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        self.nanos.fetch_add(nanos, Ordering::Relaxed);
        self.runs.fetch_add(1, Ordering::Relaxed);
        self.new_facts.fetch_add(new_facts, Ordering::Relaxed);
    }

    fn load(&self) -> (u64, u64, u64) {
        (
            self.nanos.load(Ordering::Relaxed),
            self.runs.load(Ordering::Relaxed),
            self.new_facts.load(Ordering::Relaxed),
        )
    }
}

impl Profile {
    /// Empty counters for a plan of `ops` operators.
    pub(super) fn new(ops: usize) -> Profile {
        Profile {
            ops: (0..ops).map(|_| OpCost::default()).collect(),
            rounds: OpCost::default(),
        }
    }

    /// Records one run of operator `op`: how long it took and how many new
    /// facts it stored.
    pub(super) fn record_op(&self, op: usize, time: Duration, new_facts: u64) {
        if let Some(cost) = self.ops.get(op) {
            cost.add(time, new_facts);
        }
    }

    /// Records the end of one round (see [`Profile::rounds`]).
    pub(super) fn record_round(&self, time: Duration) {
        self.rounds.add(time, 0);
    }
}

/// One line of a profile: a rule (or a count's body, or the index maps
/// that several rules share) with what its operators cost.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileLine {
    /// What the operators were planned for, in `check --plan`'s words
    /// (`rules/fish.dl:42`, `the body of count#3 of rules/fish.dl:42`).
    pub what: String,
    /// The rule's text (empty for the rounds' bookkeeping and shared
    /// index maps).
    pub rule_text: String,
    /// The rule's tier (0 for lines that are not one rule's).
    pub tier: u32,
    /// Time spent in the operators.
    pub time: Duration,
    /// How many times they ran (summed over the rule's operators).
    pub runs: u64,
    /// New facts the operators stored (a rule's last operator: its
    /// derivations; a helper operator: its intermediate results).
    pub new_facts: u64,
}

impl ProfileLine {
    /// Adds one operator's (or the rounds') cost to the line.
    fn add(&mut self, cost: &OpCost) {
        let (nanos, runs, new_facts) = cost.load();
        self.time += Duration::from_nanos(nanos);
        self.runs += runs;
        self.new_facts += new_facts;
    }
}

impl Engine {
    /// Starts timing every operator of the fixpoint, for this engine and
    /// the one it counts with (see [`Engine::profile`]).
    pub fn enable_profile(&mut self) {
        self.profile = Some(Profile::new(self.dynamic.ops.len()));
        if let Some(c) = &mut self.counting {
            c.enable_profile();
        }
    }

    /// The profile so far, one line per rule (and count body), costliest
    /// first, and last the rounds' bookkeeping; `None` unless
    /// [`Engine::enable_profile`] was called. The engine that counts
    /// solutions has the same rules: its lines are added in.
    pub fn profile(&self) -> Option<Vec<ProfileLine>> {
        self.profile.as_ref()?;
        let mut lines: Vec<ProfileLine> = Vec::new();
        let mut rounds = ProfileLine {
            what: "(ending rounds: new facts sorted into batches)".to_string(),
            rule_text: String::new(),
            tier: 0,
            time: Duration::ZERO,
            runs: 0,
            new_facts: 0,
        };
        let engines = [Some(self), self.counting.as_deref()];
        for (e, p) in engines
            .into_iter()
            .flatten()
            .filter_map(|e| Some((e, e.profile.as_ref()?)))
        {
            rounds.add(&p.rounds);
            for (purpose, ops) in runs(e, &e.dynamic) {
                let (what, rule_text, tier) = e.purpose_words(purpose);
                let at = match lines.iter().position(|l| l.what == what) {
                    Some(at) => at,
                    None => {
                        lines.push(ProfileLine {
                            what,
                            rule_text,
                            tier,
                            time: Duration::ZERO,
                            runs: 0,
                            new_facts: 0,
                        });
                        lines.len() - 1
                    }
                };
                for cost in ops.iter().filter_map(|&op| p.ops.get(op)) {
                    lines[at].add(cost);
                }
            }
        }
        lines.retain(|l| l.runs > 0);
        lines.sort_by(|a, b| b.time.cmp(&a.time).then_with(|| a.what.cmp(&b.what)));
        lines.push(rounds);
        Some(lines)
    }

    /// How a profile line names what operators were planned for: its
    /// words, the rule's text and the rule's tier.
    fn purpose_words(&self, purpose: Purpose) -> (String, String, u32) {
        match purpose_rule(self, purpose) {
            None => ("(index maps)".to_string(), String::new(), 0),
            Some((what, None)) => (format!("{what}(a rule)"), String::new(), 0),
            Some((what, Some(rule))) => (
                format!("{what}{}", rule.name),
                rule_text(self, rule),
                rule.tier,
            ),
        }
    }
}
