//! Derivation trees: why a fact holds, down to givens and guesses, each
//! step named by its rule and worded by the rule's comment.

use super::db::FactDb;
use super::eval::{FactRef, Match};
use super::firing::{Evaluators, is_chain, read_derivation};
use crate::engine::Guess;
use crate::lang::program::{Builtin, RelId, Rule, Value};
use crate::solve::ForkEnd;
use rustc_hash::FxHashSet;
use serde_json::{Value as Json, json};

/// What a node of the tree is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A clue of the puzzle (or a fact derived from clues and geometry only).
    Given,
    /// Stated by a pencil-mark input before the solve: a digit placed
    /// (`placed`), or else a candidate removed.
    Input {
        /// Whether the fact is a placed digit.
        placed: bool,
    },
    /// A guess of the branching layer, at this depth (the guesses are
    /// described once, by [`render_guesses`]).
    Guess(usize),
    /// Brought back by forcing from its hypothesis's forks.
    Forced {
        /// The forcing step in words (see `inspect::trace::forcing_words`).
        words: String,
        /// The fixpoint step its facts arrived at.
        step: u32,
        /// How many of the path's guesses were in force then.
        branch: usize,
    },
    /// Derived by a rule.
    Derived {
        /// `file:line`.
        rule: String,
        /// The rule's comment with the variables filled in.
        words: String,
        /// The fixpoint step.
        step: u32,
        /// How many of the path's guesses were in force when it was
        /// derived (0: none, the rules alone).
        branch: usize,
    },
    /// A link of a chain, read as the chain above it could be read before
    /// its step: the chain's shortest derivation from the facts known then
    /// passes through it, whether or not the engine derived it itself
    /// (its first derivation may be longer, from an earlier state).
    Rederived {
        /// `file:line`.
        rule: String,
        /// The rule's comment with the variables filled in.
        words: String,
        /// The step of the chain above: what was known before it.
        before: u32,
    },
    /// One option of a forcing step, supposed in a fork: its child is
    /// the fork's derivation of its contradiction (`refuted`) or of the
    /// fact every fork reached.
    Fork {
        /// Whether the fork ended in a contradiction.
        refuted: bool,
    },
    /// Inside a fork: the supposition that opened it.
    Supposition,
    /// Inside a fork: a fact of the stalled state it started from (its
    /// own derivation is the solve's, outside the fork).
    Premise {
        /// Where it came from: a rule's `file:line`, `forcing`, `the input`.
        origin: String,
        /// The step it arrived at.
        step: u32,
    },
    /// Explained earlier in the tree.
    Seen,
    /// Not expanded: the depth cap was reached.
    Cut,
    /// Geometry or another static fact.
    Static,
    /// Not a fact of the solve.
    Unknown,
}

/// A node of a derivation tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The fact, as people read it.
    pub fact: String,
    /// What it is.
    pub kind: NodeKind,
    /// The facts it was derived from (those that can change; geometry is
    /// left out).
    pub children: Vec<Node>,
}

/// Builds the derivation tree of a fact, expanding at most `max_depth`
/// levels (each fact is expanded once; later mentions say so).
///
/// A chain is shown through its shortest derivation from the facts known
/// when it was derived (`inspect::shortest`), its links as
/// [`NodeKind::Rederived`].
pub fn explain(db: &FactDb, rel: RelId, values: &[Value], max_depth: usize) -> Node {
    let mut seen = FxHashSet::default();
    let mut evs = Evaluators::new(db);
    node(&mut evs, rel, values, 0, max_depth, &mut seen, None)
}

/// The node of a fact; `chain`: the step of the chain above it, when it is
/// a link of that chain.
fn node(
    evs: &mut Evaluators,
    rel: RelId,
    values: &[Value],
    depth: usize,
    max_depth: usize,
    seen: &mut FxHashSet<FactRef>,
    chain: Option<u32>,
) -> Node {
    let db = evs.db();
    let fact_text = db.show_fact(rel, values);
    let leaf = |kind| Node {
        fact: fact_text.clone(),
        kind,
        children: Vec::new(),
    };
    if let Some(before) = chain.filter(|_| is_chain(evs, rel)) {
        let fact = (rel, values.iter().copied().collect());
        if seen.contains(&fact) {
            return leaf(NodeKind::Seen);
        }
        let Some((rule, m)) = read_derivation(evs, &fact, Some(before)) else {
            return leaf(NodeKind::Unknown);
        };
        seen.insert(fact);
        let rule = &db.program.rules[rule];
        let words = rule_words(db, rule, values, &m);
        return Node {
            fact: fact_text,
            kind: NodeKind::Rederived {
                rule: rule.name.clone(),
                words,
                before,
            },
            children: children(evs, &used_facts(&m), depth, max_depth, seen, Some(before)),
        };
    }
    let Some(fact) = db.get_rel(rel).and_then(|r| r.find(values)) else {
        return leaf(NodeKind::Unknown);
    };
    let Some(origin) = fact.origin else {
        return leaf(if rel == db.program.builtin(Builtin::Given) {
            NodeKind::Given
        } else {
            NodeKind::Static
        });
    };
    if let Some((cell, digit, step)) = db.supposition {
        let placed = rel == db.program.builtin(Builtin::Placed);
        if fact.is_guess()
            && placed
            && db.cell_index(values[0]) == Some(cell)
            && values[1] == Value::from(digit)
        {
            return leaf(NodeKind::Supposition);
        }
        if origin.step <= step {
            return leaf(NodeKind::Premise {
                origin: db.origin_name(fact),
                step: origin.step,
            });
        }
    }
    if fact.is_guess() {
        return leaf(NodeKind::Guess(db.branch_depth(origin.step)));
    }
    if origin.is_input() {
        return leaf(NodeKind::Input {
            placed: rel == db.program.builtin(Builtin::Placed),
        });
    }
    if origin.is_forced() {
        let index = db.forcing_index_at(origin.step, rel, values);
        let words = index.map_or_else(
            || "forcing".to_string(),
            |i| super::trace::forcing_words(&db.forcing[i].1, &db.geometry),
        );
        let children = match index {
            Some(_) if depth >= max_depth => vec![Node {
                fact: "the forks".to_string(),
                kind: NodeKind::Cut,
                children: Vec::new(),
            }],
            Some(i) => fork_nodes(db, i, rel, values, depth, max_depth),
            None => Vec::new(),
        };
        return Node {
            fact: fact_text,
            kind: NodeKind::Forced {
                words,
                step: origin.step,
                branch: db.branch_depth(origin.step),
            },
            children,
        };
    }
    let first_time = seen.insert((rel, values.iter().copied().collect()));
    // Find the body's facts among those known before the step: a chain's
    // through its shortest derivation, whose links it then passes on.
    let chain_step = is_chain(evs, rel).then_some(origin.step);
    // (The shortest derivation may be by another rule of the chain's.)
    let Some((rule, m)) =
        read_derivation(evs, &(rel, values.iter().copied().collect()), chain_step)
    else {
        return leaf(NodeKind::Unknown);
    };
    let rule = &db.program.rules[rule];
    let words = rule_words(db, rule, values, &m);
    let used = used_facts(&m);
    let from_given = used
        .iter()
        .any(|(r, _)| *r == db.program.builtin(Builtin::Given));
    let dynamic = used.iter().filter(|(r, _)| db.is_dynamic(*r)).count();
    if dynamic == 0 && from_given {
        return leaf(NodeKind::Given);
    }
    if !first_time {
        return leaf(NodeKind::Seen);
    }
    Node {
        fact: fact_text,
        kind: NodeKind::Derived {
            rule: rule.name.clone(),
            words,
            step: origin.step,
            branch: db.branch_depth(origin.step),
        },
        children: children(evs, &used, depth, max_depth, seen, chain_step),
    }
}

/// A rule's comment with a derivation's values filled in; a helper rule
/// without a comment of its own is told in the words of its relation's
/// declaration, which names the columns in capitals (`c: cell` is `C`).
fn rule_words(db: &FactDb, rule: &Rule, values: &[Value], m: &Match) -> String {
    if rule.doc.is_empty() {
        let relation = &db.program.relations[rule.head_rel];
        let names: Vec<String> = relation
            .columns
            .iter()
            .map(|(n, _)| n.to_uppercase())
            .collect();
        let types: Vec<_> = relation.columns.iter().map(|(_, t)| *t).collect();
        let head: Vec<Option<Value>> = values.iter().map(|&v| Some(v)).collect();
        fill_in(db, &relation.doc, &names, &types, &head)
    } else {
        fill_in(db, &rule.doc, &rule.var_names, &rule.var_types, &m.values)
    }
}

/// The facts a derivation read, those its counts counted included.
fn used_facts(m: &Match) -> Vec<FactRef> {
    let mut used = m.used.clone();
    for counted in &m.counted {
        used.extend(counted.iter().cloned());
    }
    used
}

/// The nodes of the changing facts among those a derivation read (`used`,
/// see [`used_facts`]), one level deeper (or a note of how many, at the
/// depth cap); `chain`: the step of the chain the derivation belongs to,
/// whose links are read as it reads them.
fn children(
    evs: &mut Evaluators,
    used: &[FactRef],
    depth: usize,
    max_depth: usize,
    seen: &mut FxHashSet<FactRef>,
    chain: Option<u32>,
) -> Vec<Node> {
    let db = evs.db();
    let dynamic: Vec<&FactRef> = used.iter().filter(|(r, _)| db.is_dynamic(*r)).collect();
    if depth >= max_depth {
        if dynamic.is_empty() {
            return Vec::new();
        }
        return vec![Node {
            fact: format!(
                "{} more fact{}",
                dynamic.len(),
                if dynamic.len() == 1 { "" } else { "s" }
            ),
            kind: NodeKind::Cut,
            children: Vec::new(),
        }];
    }
    dynamic
        .iter()
        .map(|(r, v)| node(evs, *r, v, depth + 1, max_depth, seen, chain))
        .collect()
}

/// The forks of forcing step `index` that explain its fact `values` of
/// `rel`, each with the fork's own derivation: the option it refuted (an
/// elimination of that option), or else every fork, each reaching the
/// fact. Empty when the solve kept no forks.
fn fork_nodes(
    db: &FactDb,
    index: usize,
    rel: RelId,
    values: &[Value],
    depth: usize,
    max_depth: usize,
) -> Vec<Node> {
    let Some(forks) = db.forks.get(index) else {
        return Vec::new();
    };
    let step = &db.forcing[index].1;
    let refuted = |cell: usize, digit: u8| {
        (step.forks.iter()).any(|f| {
            (f.cell, f.digit) == (cell, digit) && matches!(f.end, ForkEnd::Contradiction(_))
        })
    };
    let eliminated = rel == db.program.builtin(Builtin::Eliminated);
    let this = db.cell_index(values[0]).zip(u8::try_from(values[1]).ok());
    let chosen: Vec<_> = match this.filter(|&(c, d)| eliminated && refuted(c, d)) {
        Some(option) => (forks.iter())
            .filter(|f| (f.cell, f.digit) == option)
            .collect(),
        None => (forks.iter())
            .filter(|f| !refuted(f.cell, f.digit))
            .collect(),
    };
    let contradiction = db.program.builtin(Builtin::Contradiction);
    chosen
        .into_iter()
        .map(|fork| {
            let fdb = db.fork(index, fork);
            let is_refuted = refuted(fork.cell, fork.digit);
            let target = if is_refuted {
                let from = fdb.supposition.map_or(0, |(_, _, s)| s);
                (fdb.rel(contradiction).facts.iter())
                    .filter(|f| f.step() > from)
                    .min_by_key(|f| f.step())
                    .map(|f| (contradiction, f.values.clone()))
            } else {
                Some((rel, values.iter().copied().collect()))
            };
            // A fork's facts are its own: what the tree said before of
            // the same fact elsewhere does not hold for it.
            let mut seen = FxHashSet::default();
            let mut fork_evs = Evaluators::new(&fdb);
            let children = target
                .map(|(r, v)| node(&mut fork_evs, r, &v, depth + 2, max_depth, &mut seen, None))
                .into_iter()
                .collect();
            Node {
                fact: format!(
                    "{}={}",
                    db.geometry.cell_name(fork.cell),
                    db.geometry.digit_symbol(fork.digit)
                ),
                kind: NodeKind::Fork {
                    refuted: is_refuted,
                },
                children,
            }
        })
        .collect()
}

/// The deepest guess a tree depends on: how many of the path's guesses
/// its facts need (0: the rules alone derived them from the givens).
pub fn depth_used(node: &Node) -> usize {
    let own = match node.kind {
        NodeKind::Guess(d) => d,
        NodeKind::Derived { branch, .. } | NodeKind::Forced { branch, .. } => branch,
        _ => 0,
    };
    node.children.iter().map(depth_used).fold(own, usize::max)
}

/// One guess of the path as people read it, with what became of the
/// other candidates: `r9c2=7 at step 10, chosen from {2,7}: 2 was tried
/// first and refuted (3 branches, each ended in a contradiction)`.
pub fn describe_guess(db: &FactDb, guess: &Guess) -> String {
    let g = db.geometry;
    let mut text = format!(
        "{}={}",
        g.cell_name(guess.cell),
        g.digit_symbol(guess.digit)
    );
    if let Some(step) = db.guess_step(guess) {
        text.push_str(&format!(" at step {step}"));
    }
    text.push_str(&format!(
        ", chosen from {}",
        g.digit_set_text(&guess.options)
    ));
    let mut fates = Vec::new();
    for (d, branches) in guess.tried().iter().zip(&guess.refuted) {
        let s = if *branches == 1 { "" } else { "es" };
        fates.push(format!(
            "{} was tried and refuted ({branches} branch{s}, each ended in a contradiction)",
            g.digit_symbol(*d)
        ));
    }
    let untried: Vec<String> = guess
        .untried()
        .iter()
        .map(|&d| g.digit_symbol(d).to_string())
        .collect();
    if !untried.is_empty() {
        fates.push(format!(
            "{} not tried (the search found the solution before reaching {})",
            untried.join(" and "),
            if untried.len() == 1 { "it" } else { "them" }
        ));
    }
    if !fates.is_empty() {
        text.push_str(": ");
        text.push_str(&fates.join("; "));
    }
    text
}

/// The guesses a tree depends on, once, before it: each numbered by its
/// depth, which the tree's lines refer to.
pub fn render_guesses(db: &FactDb, depth: usize) -> String {
    if depth == 0 {
        return String::new();
    }
    let mut out = String::from(
        "Guesses on the path (each where the rules stalled; later lines say \"after guess N\"):\n",
    );
    for (i, guess) in db.guesses.iter().take(depth).enumerate() {
        out.push_str(&format!("  {}. {}\n", i + 1, describe_guess(db, guess)));
    }
    out
}

/// The guesses a tree depends on, as JSON objects.
pub fn guesses_json(db: &FactDb, depth: usize) -> Json {
    let g = db.geometry;
    // Digits as their symbols, as in every other JSON output.
    let symbol = |d: &u8| g.digit_symbol(*d).to_string();
    db.guesses
        .iter()
        .take(depth)
        .enumerate()
        .map(|(i, guess)| {
            let (tried, untried) = (guess.tried(), guess.untried());
            json!({
                "depth": i + 1,
                "cell": g.cell_name(guess.cell),
                "digit": symbol(&guess.digit),
                "step": db.guess_step(guess),
                "options": guess.options.iter().map(symbol).collect::<Vec<_>>(),
                "refuted": tried.iter().zip(&guess.refuted)
                    .map(|(d, b)| json!({ "digit": symbol(d), "branches": b }))
                    .collect::<Vec<_>>(),
                "untried": untried.iter().map(symbol).collect::<Vec<_>>(),
                "words": describe_guess(db, guess),
            })
        })
        .collect()
}

/// A rule's comment with its variables (whole words) replaced by their
/// values: "every other digit is eliminated from r5c3".
pub(super) fn fill_in(
    db: &FactDb,
    doc: &str,
    names: &[String],
    types: &[crate::lang::value::Type],
    values: &[Option<Value>],
) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let replaced = names
            .iter()
            .position(|n| n == word && !n.starts_with('_'))
            .and_then(|i| {
                values
                    .get(i)
                    .copied()
                    .flatten()
                    .map(|v| db.show(types[i], v))
            });
        out.push_str(replaced.as_deref().unwrap_or(word));
        word.clear();
    };
    for ch in doc.chars() {
        if ch.is_alphanumeric() || ch == '_' {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The tree as indented text, one fact per line.
pub fn render(node: &Node) -> String {
    let mut out = String::new();
    render_into(node, 0, &mut out);
    out
}

/// Where a derivation sits on the path: `, after guess 2` (nothing before
/// any guess).
fn after_guess(branch: usize) -> String {
    if branch == 0 {
        String::new()
    } else {
        format!(", after guess {branch}")
    }
}

fn render_into(node: &Node, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent);
    let what = match &node.kind {
        NodeKind::Given => "a given".to_string(),
        NodeKind::Input { placed: true } => "placed in the input".to_string(),
        NodeKind::Input { placed: false } => "removed in the input".to_string(),
        NodeKind::Guess(d) => format!("guess {d} (see the guesses above)"),
        NodeKind::Derived {
            rule,
            words,
            step,
            branch,
        } => {
            let words = if words.is_empty() {
                "(no comment)"
            } else {
                words
            };
            format!("{words} [{rule}, step {step}{}]", after_guess(*branch))
        }
        NodeKind::Rederived {
            rule,
            words,
            before,
        } => format!("{words} [{rule}, a link of the chain as known before step {before}]"),
        NodeKind::Forced {
            words,
            step,
            branch,
        } => format!("{words} [forcing, step {step}{}]", after_guess(*branch)),
        NodeKind::Fork { refuted: true } => {
            "supposed in a fork, whose rules reach a contradiction:".to_string()
        }
        NodeKind::Fork { refuted: false } => {
            "supposed in a fork, whose rules reach the fact as well:".to_string()
        }
        NodeKind::Supposition => "the supposition".to_string(),
        NodeKind::Premise { origin, step } => {
            format!("known before the supposition [{origin}, step {step}]")
        }
        NodeKind::Seen => "(explained above)".to_string(),
        NodeKind::Cut => "(not expanded: --depth)".to_string(),
        NodeKind::Static => "(geometry)".to_string(),
        NodeKind::Unknown => "(not derived in this solve)".to_string(),
    };
    out.push_str(&format!("{pad}{} — {what}\n", node.fact));
    for c in &node.children {
        render_into(c, indent + 1, out);
    }
}

/// The tree as JSON.
pub fn to_json(node: &Node) -> Json {
    let mut o = json!({ "fact": node.fact });
    match &node.kind {
        NodeKind::Given => o["kind"] = "given".into(),
        NodeKind::Input { .. } => o["kind"] = "input".into(),
        NodeKind::Guess(d) => {
            o["kind"] = "guess".into();
            o["depth"] = (*d).into();
        }
        NodeKind::Derived {
            rule,
            words,
            step,
            branch,
        } => {
            o["kind"] = "derived".into();
            o["rule"] = rule.clone().into();
            o["words"] = words.clone().into();
            o["step"] = (*step).into();
            o["branch"] = (*branch).into();
        }
        NodeKind::Rederived {
            rule,
            words,
            before,
        } => {
            o["kind"] = "chain_link".into();
            o["rule"] = rule.clone().into();
            o["words"] = words.clone().into();
            o["before"] = (*before).into();
        }
        NodeKind::Forced {
            words,
            step,
            branch,
        } => {
            o["kind"] = "forcing".into();
            o["words"] = words.clone().into();
            o["step"] = (*step).into();
            o["branch"] = (*branch).into();
        }
        NodeKind::Fork { refuted } => {
            o["kind"] = "fork".into();
            o["refuted"] = (*refuted).into();
        }
        NodeKind::Supposition => o["kind"] = "supposition".into(),
        NodeKind::Premise { origin, step } => {
            o["kind"] = "premise".into();
            o["origin"] = origin.clone().into();
            o["step"] = (*step).into();
        }
        NodeKind::Seen => o["kind"] = "seen".into(),
        NodeKind::Cut => o["kind"] = "cut".into(),
        NodeKind::Static => o["kind"] = "static".into(),
        NodeKind::Unknown => o["kind"] = "unknown".into(),
    }
    if !node.children.is_empty() {
        o["children"] = node.children.iter().map(to_json).collect();
    }
    o
}
