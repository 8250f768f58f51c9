//! Differential test of the rule engine (issue 14, item 4).
//!
//! Random small rule programs over the built-in relations are evaluated
//! twice: by sudolog (parser, checker, `Engine`, `Solve::run`) and by a
//! naive evaluator written here in plain Rust, which knows nothing of
//! seeds, counters, memos, tiers, pipes or semi-naive rounds: it
//! enumerates every binding of every rule body by backtracking over
//! sets of facts and repeats until nothing changes, stratum by stratum.
//! For every program and puzzle, every relation the program declares and
//! the state relations `placed` and `eliminated` must hold exactly the same
//! facts in both. Earlier engine bugs were of this kind (a negated `given`
//! ignored beside a count; exact counts blind to groups that arrive from the
//! state after the first fixpoint; their exact regressions are in
//! `engine_semantics.rs`). The generator produces programs of both shapes:
//! run against the engine as it was before those fixes, the 4x4 property
//! failed within 40 to 530 cases, and `known_bug_shapes_agree` failed.
//!
//! Two things of the engine's documented behaviour are not a plain least
//! fixpoint, and the comparison allows for them:
//! - a fixpoint at which `placed` holds a fact for every cell (or more)
//!   switches no harder tier on ("a harder tier runs only when every easier
//!   tier is stalled"; `Store::run`: "a complete grid needs no harder
//!   technique"), so what tiers 2 and up would still derive may be missing
//!   then, and how much depends on the schedule. For such runs the test
//!   checks that every fact is within the full fixpoint, that the static
//!   relations are complete, and that nothing is missing that the
//!   always-running tiers 0 and 1 derive from the engine's facts;
//! - a run that stops at the fact limit (a random join of several atoms
//!   over 81 cells can make millions of intermediate tuples) is skipped (2
//!   of 600 runs on 9x9, none on 4x4).
//!
//! Engine bugs and limits this test found are at the end of the file, each
//! as a test with its smallest reproduction: the fixed ones run, the engine
//! limits still open are ignored, and the generator keeps out of their way
//! (the notes that name those tests).
//!
//! A program is its own syntax tree ([`Prog`]): generated from a tape of
//! random numbers (proptest shrinks the tape, so a failure shrinks towards
//! shorter tapes and smaller choices, that is simpler programs), rendered to
//! rule text for sudolog, and evaluated by [`naive`]. It replaces the
//! standard library, so `placed` and `eliminated` hold only what its own
//! rules derive: either a copy of the grid's meaning and the singles (with
//! the singles in random tiers, so that there are several fixpoints) or a
//! few random rules of its own.
//!
//! What the generator covers: joins of the built-in relations (`cell`,
//! `digit`, `size`, `box_width`, `row`, `col`, `box`, `unit`, `in_unit`,
//! `unit_kind`, `given`, `placed`, `eliminated`) and of the program's own
//! relations (`peer`, and up to four random ones of one or two columns of
//! cells, digits/numbers or units), constants and `_`, a variable repeated
//! in an atom; negation of static built-ins, of `given` and of lower
//! derived static relations (also inside counts); comparisons with every
//! operator (cells and numbers; units with `=` and `!=`) and `+`/`-`;
//! assignments (`K = X + 1`) whose result may join a later atom; counts with
//! every comparison (`>=`, `>` over anything, the state and the rule's own
//! relation included; `=`, `!=`, `<`, `<=` and `K = count` over static
//! bodies, with groups from static relations or from the state), counts
//! with no group and counts of `_`; recursion (a relation in its own body:
//! transitive closures, and through a threshold count of itself) and
//! recursion through the state (a rule deriving `placed`/`eliminated` from
//! relations that read them); rules spread over files of tiers 0 to 3.
//!
//! What it leaves out, and why:
//! - guards (`unless`): a guard is checked against the facts known before
//!   the round that fires the rule, so what a guarded rule derives depends
//!   on the engine's schedule of rounds and tiers, not on the program's
//!   meaning alone; a naive fixpoint has no rounds to compare with
//!   (`engine_semantics.rs` tests guards against recorded steps instead);
//! - sets (`S = set X : {...}`): over the state a set grows and the rule
//!   derives a fact for every set it grows through, which again depends on
//!   the schedule; (static sets, `digit_set`, `in_set` and `covers` are not
//!   generated either, to keep the domain small);
//! - `contradiction`: a fact of it stops the run before the fixpoint;
//! - arithmetic in heads of recursive rules and assignment results in
//!   heads at all, so that every program terminates (an assigned value may
//!   still select a row, a digit...); rules deriving `placed`/`eliminated`
//!   bind their digit with `digit(D)` for the same reason (recursion
//!   through the state is then over a finite domain);
//! - `<` on units (units compare by interned symbol id, an implementation
//!   detail) and symbol variables (`unit_kind`'s kind is a constant or `_`).

use proptest::prelude::*;
use proptest::test_runner::Config;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use sudolog::engine::tuple::values;
use sudolog::engine::{Engine, Status};
use sudolog::grid::Geometry;
use sudolog::lang::library::RuleSources;

// ---------------------------------------------------------------------------
// Values: cells are `row * 32 + col` (0-based), as in the engine, so that `<`
// on cells means the same thing in both; numbers are themselves; unit names
// and unit kinds are encoded here (they are read back from the engine by
// name, never by the engine's symbol ids).
// ---------------------------------------------------------------------------

const UNIT_BASE: i64 = 1 << 20;
const KIND_BASE: i64 = 1 << 21;
const KINDS: [&str; 3] = ["row", "col", "box"];

fn cell_val(r: usize, c: usize) -> i64 {
    (r * 32 + c) as i64
}

fn unit_val(kind: usize, index: usize) -> i64 {
    UNIT_BASE + (kind * 64 + index) as i64
}

fn kind_val(kind: usize) -> i64 {
    KIND_BASE + kind as i64
}

/// The value of a unit name (`"row3"`) or unit kind (`"box"`).
fn symbol_val(name: &str) -> i64 {
    for (k, kind) in KINDS.iter().enumerate() {
        if name == *kind {
            return kind_val(k);
        }
        if let Some(i) = name.strip_prefix(kind).and_then(|s| s.parse().ok()) {
            return unit_val(k, i);
        }
    }
    panic!("unexpected symbol {name:?}")
}

/// The kinds of values a column or variable holds (digits and numbers are
/// one family, as in the rule language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fam {
    Cell,
    Num,
    Unit,
    Kind,
}

/// A value as rule text.
fn show(fam: Fam, v: i64) -> String {
    match fam {
        Fam::Cell => format!("r{}c{}", v / 32 + 1, v % 32 + 1),
        Fam::Num => v.to_string(),
        Fam::Unit => {
            let x = v - UNIT_BASE;
            format!("\"{}{}\"", KINDS[(x / 64) as usize], x % 64)
        }
        Fam::Kind => format!("\"{}\"", KINDS[(v - KIND_BASE) as usize]),
    }
}

// ---------------------------------------------------------------------------
// Programs.
// ---------------------------------------------------------------------------

/// A relation: built-in, or declared by the program.
#[derive(Clone, Debug)]
struct Rel {
    name: String,
    cols: Vec<Fam>,
    /// Declared column types (`digit` or `number` for a number column).
    types: Vec<&'static str>,
    builtin: bool,
}

// The built-ins, in the order of `builtins()`.
const CELL: usize = 0;
const DIGIT: usize = 1;
const SIZE: usize = 2;
const BOX_WIDTH: usize = 3;
const ROW: usize = 4;
const COL: usize = 5;
const BOX: usize = 6;
const UNIT: usize = 7;
const IN_UNIT: usize = 8;
const UNIT_KIND: usize = 9;
const GIVEN: usize = 10;
const PLACED: usize = 11;
const ELIMINATED: usize = 12;

fn builtins() -> Vec<Rel> {
    use Fam::*;
    let b = |name: &str, cols: &[Fam]| Rel {
        name: name.to_string(),
        cols: cols.to_vec(),
        types: Vec::new(),
        builtin: true,
    };
    vec![
        b("cell", &[Cell]),
        b("digit", &[Num]),
        b("size", &[Num]),
        b("box_width", &[Num]),
        b("row", &[Cell, Num]),
        b("col", &[Cell, Num]),
        b("box", &[Cell, Num]),
        b("unit", &[Unit]),
        b("in_unit", &[Cell, Unit]),
        b("unit_kind", &[Unit, Kind]),
        b("given", &[Cell, Num]),
        b("placed", &[Cell, Num]),
        b("eliminated", &[Cell, Num]),
    ]
}

/// Built-ins a positive atom may read (most useful first: a tape of small
/// numbers picks them).
const POS_BUILTINS: &[usize] = &[
    IN_UNIT, CELL, DIGIT, GIVEN, PLACED, ELIMINATED, ROW, COL, BOX, UNIT, UNIT_KIND, SIZE,
    BOX_WIDTH,
];
/// Built-ins that never change during a solve (for exact counts).
const STATIC_BUILTINS: &[usize] = &[
    IN_UNIT, CELL, DIGIT, GIVEN, ROW, COL, BOX, UNIT, UNIT_KIND, SIZE, BOX_WIDTH,
];
/// Built-ins worth negating.
const NEG_BUILTINS: &[usize] = &[GIVEN, IN_UNIT, ROW, COL, BOX, UNIT_KIND, DIGIT, CELL];

#[derive(Clone, Debug)]
enum Term {
    Var(usize),
    /// A variable written `_` (inside a count, where `_` is counted); it
    /// occurs once.
    Anon(usize),
    Const(Fam, i64),
    Wild,
}

#[derive(Clone, Debug)]
enum Expr {
    Var(usize),
    Const(Fam, i64),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

const ALL_OPS: [Op; 6] = [Op::Ge, Op::Gt, Op::Eq, Op::Ne, Op::Lt, Op::Le];

impl Op {
    fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
        }
    }

    fn text(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }
}

#[derive(Clone, Debug)]
struct Atom {
    rel: usize,
    args: Vec<Term>,
}

#[derive(Clone, Debug)]
enum Lit {
    Pos(Atom),
    Neg(Atom),
    /// A comparison of bound values.
    Cmp(Expr, Op, Expr),
    /// `V = expr` with `V` not bound before.
    Assign(usize, Expr),
    /// `count : { body } op bound`.
    Count {
        body: Vec<Lit>,
        op: Op,
        bound: Expr,
    },
    /// `V = count : { body }`.
    Value {
        var: usize,
        body: Vec<Lit>,
    },
}

/// A rule; its body is in an order the naive evaluator can run left to
/// right (positive atoms and assignments, then filters, then counts).
#[derive(Clone, Debug)]
struct Rule {
    head: usize,
    args: Vec<Expr>,
    body: Vec<Lit>,
    vars: usize,
    /// The file it is written in: file `k` has tier `k`.
    file: usize,
}

#[derive(Clone, Debug)]
struct Prog {
    rels: Vec<Rel>,
    rules: Vec<Rule>,
}

impl Prog {
    fn new() -> Prog {
        Prog {
            rels: builtins(),
            rules: Vec::new(),
        }
    }

    fn add_rel(&mut self, name: &str, cols: &[Fam], types: &[&'static str]) -> usize {
        self.rels.push(Rel {
            name: name.to_string(),
            cols: cols.to_vec(),
            types: types.to_vec(),
            builtin: false,
        });
        self.rels.len() - 1
    }

    /// The relations whose facts are compared: the program's own and the state.
    fn compared(&self) -> Vec<usize> {
        let mut out = vec![PLACED, ELIMINATED];
        out.extend((0..self.rels.len()).filter(|&r| !self.rels[r].builtin));
        out
    }
}

// ---------------------------------------------------------------------------
// Rendering a program as rule files.
// ---------------------------------------------------------------------------

fn render_expr(e: &Expr) -> String {
    match e {
        Expr::Var(v) => format!("X{v}"),
        Expr::Const(f, v) => show(*f, *v),
        Expr::Add(a, b) => format!("{} + {}", render_expr(a), render_expr(b)),
        Expr::Sub(a, b) => format!("{} - {}", render_expr(a), render_expr(b)),
    }
}

fn render_atom(p: &Prog, a: &Atom) -> String {
    let args: Vec<String> = a
        .args
        .iter()
        .map(|t| match t {
            Term::Var(v) => format!("X{v}"),
            Term::Anon(_) | Term::Wild => "_".to_string(),
            Term::Const(f, v) => show(*f, *v),
        })
        .collect();
    format!("{}({})", p.rels[a.rel].name, args.join(", "))
}

fn render_lits(p: &Prog, lits: &[Lit]) -> String {
    let parts: Vec<String> = lits
        .iter()
        .map(|l| match l {
            Lit::Pos(a) => render_atom(p, a),
            Lit::Neg(a) => format!("!{}", render_atom(p, a)),
            Lit::Cmp(a, op, b) => format!("{} {} {}", render_expr(a), op.text(), render_expr(b)),
            Lit::Assign(v, e) => format!("X{v} = {}", render_expr(e)),
            Lit::Count { body, op, bound } => format!(
                "count : {{ {} }} {} {}",
                render_lits(p, body),
                op.text(),
                render_expr(bound)
            ),
            Lit::Value { var, body } => format!("X{var} = count : {{ {} }}", render_lits(p, body)),
        })
        .collect();
    parts.join(", ")
}

fn render_rule(p: &Prog, r: &Rule) -> String {
    let head: Vec<String> = r.args.iter().map(render_expr).collect();
    format!(
        "{}({}) :- {}.",
        p.rels[r.head].name,
        head.join(", "),
        render_lits(p, &r.body)
    )
}

/// The program as files `t0.dl` (declarations, tier 0) to `t3.dl` (tier 3).
fn render(p: &Prog) -> Vec<(String, String)> {
    let mut files = vec![String::new(); 4];
    for rel in p.rels.iter().filter(|r| !r.builtin) {
        let cols: Vec<String> = rel
            .types
            .iter()
            .enumerate()
            .map(|(i, t)| format!("x{i}: {t}"))
            .collect();
        files[0].push_str(&format!(".decl {}({})\n", rel.name, cols.join(", ")));
    }
    for r in &p.rules {
        files[r.file].push_str(&render_rule(p, r));
        files[r.file].push('\n');
    }
    files
        .into_iter()
        .enumerate()
        .filter(|(k, text)| *k == 0 || !text.is_empty())
        .map(|(k, text)| {
            let tier = if k == 0 {
                String::new()
            } else {
                format!(".tier {k}\n")
            };
            (format!("t{k}.dl"), format!("{tier}{text}"))
        })
        .collect()
}

/// The whole program as one text, for failure messages.
fn listing(p: &Prog) -> String {
    render(p)
        .into_iter()
        .map(|(name, text)| format!("// {name}\n{text}"))
        .collect()
}

// ---------------------------------------------------------------------------
// The generator: a program from a tape of random numbers. A tape that runs
// out reads as zeros, and zero always picks the simplest option (no extra
// literal, the first relation), so shorter tapes and smaller numbers make
// simpler programs: proptest's shrinking of the tape shrinks the program.
// ---------------------------------------------------------------------------

struct Tape<'a> {
    data: &'a [u32],
    pos: usize,
}

impl Tape<'_> {
    fn next(&mut self) -> u32 {
        let v = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        v
    }

    /// A number in `0..n`.
    fn pick(&mut self, n: usize) -> usize {
        self.next() as usize % n.max(1)
    }

    /// True with `pct` percent (false on zero).
    fn flag(&mut self, pct: u32) -> bool {
        self.next() % 100 >= 100 - pct
    }

    fn choose<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.pick(xs.len())]
    }
}

/// How a rule reads its own head relation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rec {
    /// Not at all.
    No,
    /// In a positive atom (a closure).
    Atom,
    /// Inside a threshold count.
    Count,
}

/// Variables of a rule being generated.
#[derive(Default)]
struct Vars {
    fams: Vec<Fam>,
    /// Bound by the rule's own (outer) positive atoms or assignments.
    bound: Vec<bool>,
    /// Made by arithmetic: never written into a head.
    arith: Vec<bool>,
}

impl Vars {
    fn fresh(&mut self, f: Fam) -> usize {
        self.fams.push(f);
        self.bound.push(false);
        self.arith.push(false);
        self.fams.len() - 1
    }

    fn bound_of(&self, f: Fam, with_arith: bool) -> Vec<usize> {
        (0..self.fams.len())
            .filter(|&v| self.bound[v] && self.fams[v] == f && (with_arith || !self.arith[v]))
            .collect()
    }
}

/// Which relations a rule may read.
struct Pools {
    /// Program relations for positive atoms and threshold counts.
    pos: Vec<usize>,
    /// Static program relations (declared earlier) for negations and exact counts.
    stat: Vec<usize>,
}

struct Gen<'t> {
    tape: Tape<'t>,
    prog: Prog,
    /// Whether each relation depends on the state.
    dynamic: Vec<bool>,
}

const SHAPES: &[&[Fam]] = &[
    &[Fam::Cell],
    &[Fam::Cell, Fam::Cell],
    &[Fam::Cell, Fam::Num],
    &[Fam::Num],
    &[Fam::Unit],
    &[Fam::Cell, Fam::Unit],
    &[Fam::Unit, Fam::Num],
    &[Fam::Num, Fam::Num],
];

fn generate(data: &[u32]) -> Prog {
    let mut g = Gen::new(data);
    let grid = g.tape.flag(40);
    g.grid_rules(grid);
    let relations = 1 + g.tape.pick(4);
    for i in 0..relations {
        g.relation(i);
    }
    let state_rules = if grid {
        g.tape.pick(2)
    } else {
        1 + g.tape.pick(3)
    };
    for _ in 0..state_rules {
        let head = if g.tape.flag(50) { ELIMINATED } else { PLACED };
        let file = g.file();
        let rule = g.rule(head, Rec::No, file);
        g.prog.rules.push(rule);
    }
    g.prog
}

/// `peer`, the grid's meaning and the singles, nothing else: the naked
/// single in file (tier) `naked`, the hidden single in `hidden`.
fn grid_program(naked: u32, hidden: u32) -> Prog {
    let data = [naked, hidden];
    let mut g = Gen::new(&data);
    g.grid_rules(true);
    g.prog
}

impl<'t> Gen<'t> {
    fn new(data: &'t [u32]) -> Gen<'t> {
        let prog = Prog::new();
        let dynamic = (0..prog.rels.len())
            .map(|r| r == PLACED || r == ELIMINATED)
            .collect();
        Gen {
            tape: Tape { data, pos: 0 },
            prog,
            dynamic,
        }
    }

    fn file(&mut self) -> usize {
        if self.tape.flag(50) {
            1 + self.tape.pick(3)
        } else {
            0
        }
    }

    /// `peer`, always; with `grid`, the grid's meaning and the singles (a
    /// copy of `rules/grid.dl` and `rules/singles.dl` without the
    /// contradictions), the singles in random tiers; else, maybe, givens
    /// placed.
    fn grid_rules(&mut self, grid: bool) {
        use Expr as E;
        use Term::Var as V;
        let p = &mut self.prog;
        let peer = p.add_rel("peer", &[Fam::Cell, Fam::Cell], &["cell", "cell"]);
        self.dynamic.push(false);
        let atom = |rel, args| Lit::Pos(Atom { rel, args });
        let var = |v| Box::new(E::Var(v));
        let one = Box::new(E::Const(Fam::Num, 1));
        let rule = |head, args: Vec<usize>, body, vars, file| Rule {
            head,
            args: args.into_iter().map(E::Var).collect(),
            body,
            vars,
            file,
        };
        // peer(A, B) :- in_unit(A, U), in_unit(B, U), A != B.
        p.rules.push(rule(
            peer,
            vec![0, 2],
            vec![
                atom(IN_UNIT, vec![V(0), V(1)]),
                atom(IN_UNIT, vec![V(2), V(1)]),
                Lit::Cmp(E::Var(0), Op::Ne, E::Var(2)),
            ],
            3,
            0,
        ));
        if !grid {
            if self.tape.flag(60) {
                p.rules.push(rule(
                    PLACED,
                    vec![0, 1],
                    vec![atom(GIVEN, vec![V(0), V(1)])],
                    2,
                    0,
                ));
            }
            return;
        }
        let naked_file = self.tape.pick(3);
        let hidden_file = self.tape.pick(4);
        let p = &mut self.prog;
        p.rules.push(rule(
            PLACED,
            vec![0, 1],
            vec![atom(GIVEN, vec![V(0), V(1)])],
            2,
            0,
        ));
        // eliminated(C, E) :- placed(C, D), digit(E), E != D.
        p.rules.push(rule(
            ELIMINATED,
            vec![0, 2],
            vec![
                atom(PLACED, vec![V(0), V(1)]),
                atom(DIGIT, vec![V(2)]),
                Lit::Cmp(E::Var(2), Op::Ne, E::Var(1)),
            ],
            3,
            0,
        ));
        // eliminated(P, D) :- placed(C, D), peer(C, P).
        p.rules.push(rule(
            ELIMINATED,
            vec![2, 1],
            vec![atom(PLACED, vec![V(0), V(1)]), atom(peer, vec![V(0), V(2)])],
            3,
            0,
        ));
        // Naked single.
        p.rules.push(rule(
            PLACED,
            vec![0, 1],
            vec![
                atom(CELL, vec![V(0)]),
                atom(DIGIT, vec![V(1)]),
                atom(SIZE, vec![V(2)]),
                Lit::Count {
                    body: vec![
                        atom(ELIMINATED, vec![V(0), V(3)]),
                        Lit::Cmp(E::Var(3), Op::Ne, E::Var(1)),
                    ],
                    op: Op::Ge,
                    bound: E::Sub(var(2), one.clone()),
                },
            ],
            4,
            naked_file,
        ));
        // Hidden single.
        p.rules.push(rule(
            PLACED,
            vec![0, 2],
            vec![
                atom(IN_UNIT, vec![V(0), V(1)]),
                atom(DIGIT, vec![V(2)]),
                atom(SIZE, vec![V(3)]),
                Lit::Count {
                    body: vec![
                        atom(IN_UNIT, vec![V(4), V(1)]),
                        Lit::Cmp(E::Var(4), Op::Ne, E::Var(0)),
                        atom(ELIMINATED, vec![V(4), V(2)]),
                    ],
                    op: Op::Ge,
                    bound: E::Sub(var(3), one),
                },
            ],
            5,
            hidden_file,
        ));
    }

    /// A new relation `q<i>` with one or two rules, and maybe a recursive one.
    fn relation(&mut self, i: usize) {
        let shape = self.tape.choose(SHAPES);
        let types: Vec<&'static str> = shape
            .iter()
            .map(|f| match f {
                Fam::Cell => "cell",
                Fam::Unit => "unit",
                _ if self.tape.flag(50) => "number",
                _ => "digit",
            })
            .collect();
        let rel = self.prog.add_rel(&format!("q{i}"), shape, &types);
        self.dynamic.push(false);
        let mut rules = Vec::new();
        let file = self.file();
        rules.push(self.rule(rel, Rec::No, file));
        if self.tape.flag(30) {
            let file = self.file();
            rules.push(self.rule(rel, Rec::No, file));
        }
        if self.tape.flag(50) {
            let rec = if self.tape.flag(40) {
                Rec::Count
            } else {
                Rec::Atom
            };
            let file = self.file();
            rules.push(self.rule(rel, rec, file));
        }
        let dynamic = rules.iter().any(|r| self.reads_dynamic(&r.body));
        self.dynamic[rel] = dynamic;
        self.prog.rules.extend(rules);
    }

    fn reads_dynamic(&self, body: &[Lit]) -> bool {
        body.iter().any(|l| match l {
            Lit::Pos(a) | Lit::Neg(a) => self.dynamic[a.rel],
            Lit::Count { body, .. } | Lit::Value { body, .. } => self.reads_dynamic(body),
            _ => false,
        })
    }

    /// The relations a rule for `head` may read: those declared before it
    /// (all of them for `placed`/`eliminated`), and the built-ins.
    fn pools(&self, head: usize) -> Pools {
        let state = head == PLACED || head == ELIMINATED;
        let user: Vec<usize> = (0..self.prog.rels.len())
            .filter(|&r| !self.prog.rels[r].builtin && r != head && (state || r < head))
            .collect();
        Pools {
            stat: user.iter().copied().filter(|&r| !self.dynamic[r]).collect(),
            pos: user,
        }
    }

    /// A relation from a pool of built-ins or of program relations.
    fn pick_rel(&mut self, builtins: &[usize], user: &[usize]) -> usize {
        if !user.is_empty() && self.tape.flag(50) {
            self.tape.choose(user)
        } else {
            self.tape.choose(builtins)
        }
    }

    fn constant(&mut self, f: Fam) -> Term {
        let v = match f {
            Fam::Cell => cell_val(self.tape.pick(4), self.tape.pick(4)),
            Fam::Num => self.tape.pick(5) as i64,
            Fam::Unit => unit_val(self.tape.pick(3), 1 + self.tape.pick(4)),
            Fam::Kind => kind_val(self.tape.pick(3)),
        };
        Term::Const(f, v)
    }

    /// A positive atom of the rule's own body: joined with what is bound
    /// already (when `connect` and a column allows it), with fresh
    /// variables, constants and `_`.
    fn outer_atom(&mut self, vars: &mut Vars, rel: usize, connect: bool) -> Lit {
        let cols = self.prog.rels[rel].cols.clone();
        let joinable: Vec<usize> = (0..cols.len())
            .filter(|&i| cols[i] != Fam::Kind && !vars.bound_of(cols[i], true).is_empty())
            .collect();
        let forced = (connect && !joinable.is_empty()).then(|| self.tape.choose(&joinable));
        let mut args = Vec::new();
        for (i, &f) in cols.iter().enumerate() {
            if f == Fam::Kind {
                args.push(if self.tape.flag(50) {
                    self.constant(f)
                } else {
                    Term::Wild
                });
                continue;
            }
            let existing = vars.bound_of(f, true);
            let choice = self.tape.pick(10);
            let term = if forced == Some(i) || ((5..8).contains(&choice) && !existing.is_empty()) {
                Term::Var(self.tape.choose(&existing))
            } else if choice == 8 {
                self.constant(f)
            } else if choice == 9 {
                Term::Wild
            } else {
                let v = vars.fresh(f);
                vars.bound[v] = true;
                Term::Var(v)
            };
            args.push(term);
        }
        Lit::Pos(Atom { rel, args })
    }

    /// A comparison of a bound variable with another, a constant or a sum.
    fn comparison(&mut self, vars: &Vars, among: &[usize]) -> Option<Lit> {
        let cands: Vec<usize> = among
            .iter()
            .copied()
            .filter(|&v| vars.fams[v] != Fam::Kind)
            .collect();
        if cands.is_empty() {
            return None;
        }
        let x = self.tape.choose(&cands);
        let f = vars.fams[x];
        let op = if f == Fam::Unit {
            self.tape.choose(&[Op::Ne, Op::Eq])
        } else {
            self.tape
                .choose(&[Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Eq])
        };
        let same: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|&v| v != x && vars.fams[v] == f)
            .collect();
        let rhs = match self.tape.pick(3) {
            0 if !same.is_empty() => Expr::Var(self.tape.choose(&same)),
            2 if f == Fam::Num => {
                let c = Box::new(Expr::Const(Fam::Num, self.tape.pick(3) as i64));
                let y = Box::new(Expr::Var(if same.is_empty() {
                    x
                } else {
                    self.tape.choose(&same)
                }));
                if self.tape.flag(50) {
                    Expr::Sub(y, c)
                } else {
                    Expr::Add(y, c)
                }
            }
            _ => match self.constant(f) {
                Term::Const(f, v) => Expr::Const(f, v),
                _ => unreachable!(),
            },
        };
        Some(Lit::Cmp(Expr::Var(x), op, rhs))
    }

    /// `!rel(...)` over a static relation, with variables from `among`,
    /// constants and `_`.
    fn negation(&mut self, vars: &Vars, among: &[usize], stat: &[usize]) -> Lit {
        let rel = self.pick_rel(NEG_BUILTINS, stat);
        let cols = self.prog.rels[rel].cols.clone();
        let args = cols
            .iter()
            .map(|&f| {
                let mine: Vec<usize> = among
                    .iter()
                    .copied()
                    .filter(|&v| vars.fams[v] == f)
                    .collect();
                match self.tape.pick(4) {
                    _ if f == Fam::Kind => Term::Wild,
                    0 | 1 if !mine.is_empty() => Term::Var(self.tape.choose(&mine)),
                    2 => self.constant(f),
                    _ => Term::Wild,
                }
            })
            .collect();
        Lit::Neg(Atom { rel, args })
    }

    /// A count (threshold, exact or value) at the end of a rule's body.
    /// `own`: the head relation to read inside (recursion through a count).
    /// Returns the count and maybe a comparison of its value.
    fn count(
        &mut self,
        vars: &mut Vars,
        pos: &mut Vec<Lit>,
        pools: &Pools,
        strict_ok: bool,
        own: Option<usize>,
    ) -> Vec<Lit> {
        let kind = if strict_ok && own.is_none() {
            self.tape.pick(3)
        } else {
            0
        };
        let (builtins, user) = if kind == 0 {
            let mut user = pools.pos.clone();
            user.extend(own);
            (POS_BUILTINS, user)
        } else {
            (STATIC_BUILTINS, pools.stat.clone())
        };
        let group: Vec<usize> = (0..vars.fams.len()).filter(|&v| vars.bound[v]).collect();
        let mut local: Vec<usize> = Vec::new();
        let mut body = Vec::new();
        let atoms = 1 + self.tape.pick(2);
        for i in 0..atoms {
            let rel = match own {
                Some(r) if i == 0 => r,
                _ => self.pick_rel(builtins, &user),
            };
            let cols = self.prog.rels[rel].cols.clone();
            // A second atom joins the first (sudolog cannot plan some
            // cross products of changing relations in a count, see
            // `a_count_over_a_cross_product_of_the_state_is_planned`).
            let used: Vec<usize> = body_vars(&body)
                .into_iter()
                .filter(|&v| !matches!(vars.fams[v], Fam::Kind))
                .filter(|v| group.contains(v) || local.contains(v))
                .collect();
            let joinable: Vec<usize> = (0..cols.len())
                .filter(|&c| used.iter().any(|&v| vars.fams[v] == cols[c]))
                .collect();
            if i > 0 && joinable.is_empty() {
                continue;
            }
            let forced = (i > 0).then(|| self.tape.choose(&joinable));
            let mut args = Vec::new();
            for (c, &f) in cols.iter().enumerate() {
                if f == Fam::Kind {
                    args.push(if self.tape.flag(50) {
                        self.constant(f)
                    } else {
                        Term::Wild
                    });
                    continue;
                }
                if forced == Some(c) {
                    let mine: Vec<usize> = used
                        .iter()
                        .copied()
                        .filter(|&v| vars.fams[v] == f)
                        .collect();
                    args.push(Term::Var(self.tape.choose(&mine)));
                    continue;
                }
                // At most three group variables (sudolog cannot plan a
                // value count over more, see
                // `a_value_count_with_four_group_variables_is_planned`).
                let used = body_vars(&body);
                let in_group = group.iter().filter(|v| used.contains(v)).count()
                    + args
                        .iter()
                        .filter(|t| matches!(t, Term::Var(v) if group.contains(v)))
                        .count();
                let outer: Vec<usize> = group
                    .iter()
                    .copied()
                    .filter(|&v| vars.fams[v] == f)
                    .filter(|v| in_group < 3 || used.contains(v))
                    .collect();
                let inner: Vec<usize> = local
                    .iter()
                    .copied()
                    .filter(|&v| vars.fams[v] == f)
                    .collect();
                let term = match self.tape.pick(6) {
                    1 | 2 if !outer.is_empty() => Term::Var(self.tape.choose(&outer)),
                    3 if !inner.is_empty() => Term::Var(self.tape.choose(&inner)),
                    4 => self.constant(f),
                    5 => Term::Anon(vars.fresh(f)),
                    _ => {
                        let v = vars.fresh(f);
                        local.push(v);
                        Term::Var(v)
                    }
                };
                args.push(term);
            }
            body.push(Lit::Pos(Atom { rel, args }));
        }
        let seen: Vec<usize> = body_vars(&body)
            .into_iter()
            .filter(|v| group.contains(v) || local.contains(v))
            .collect();
        if self.tape.flag(30) && !local.is_empty() {
            // A filter on the counted variables (`E != D`).
            let x = self.tape.choose(&local);
            let same: Vec<usize> = seen
                .iter()
                .copied()
                .filter(|&v| v != x && vars.fams[v] == vars.fams[x])
                .collect();
            let op = if vars.fams[x] == Fam::Unit {
                Op::Ne
            } else {
                self.tape.choose(&[Op::Ne, Op::Lt, Op::Ge])
            };
            let rhs = if !same.is_empty() && self.tape.flag(70) {
                Expr::Var(self.tape.choose(&same))
            } else {
                match self.constant(vars.fams[x]) {
                    Term::Const(f, v) => Expr::Const(f, v),
                    _ => unreachable!(),
                }
            };
            body.push(Lit::Cmp(Expr::Var(x), op, rhs));
        }
        if self.tape.flag(15) {
            body.push(self.negation(vars, &seen, &pools.stat));
        }
        if kind == 2 {
            let k = vars.fresh(Fam::Num);
            vars.bound[k] = true;
            let mut out = vec![Lit::Value { var: k, body }];
            if self.tape.flag(40) {
                let op = self.tape.choose(&ALL_OPS);
                let c = self.tape.pick(4) as i64;
                out.push(Lit::Cmp(Expr::Var(k), op, Expr::Const(Fam::Num, c)));
            }
            return out;
        }
        let op = if kind == 0 {
            self.tape.choose(&[Op::Ge, Op::Gt])
        } else {
            self.tape.choose(&ALL_OPS)
        };
        let bound = match self.tape.pick(3) {
            1 => {
                // N - c, with N the grid's size.
                let n = match vars.bound_of(Fam::Num, true).into_iter().find(|&v| {
                    pos.iter().any(|l| {
                        matches!(l, Lit::Pos(a) if a.rel == SIZE && matches!(a.args[0], Term::Var(x) if x == v))
                    })
                }) {
                    Some(n) => n,
                    None => {
                        let n = vars.fresh(Fam::Num);
                        vars.bound[n] = true;
                        pos.push(Lit::Pos(Atom {
                            rel: SIZE,
                            args: vec![Term::Var(n)],
                        }));
                        n
                    }
                };
                Expr::Sub(
                    Box::new(Expr::Var(n)),
                    Box::new(Expr::Const(Fam::Num, self.tape.pick(4) as i64)),
                )
            }
            2 if group.iter().any(|&v| vars.fams[v] == Fam::Num) => {
                let nums: Vec<usize> = group
                    .iter()
                    .copied()
                    .filter(|&v| vars.fams[v] == Fam::Num)
                    .collect();
                Expr::Var(self.tape.choose(&nums))
            }
            _ => Expr::Const(Fam::Num, self.tape.pick(4) as i64),
        };
        vec![Lit::Count { body, op, bound }]
    }

    /// A random rule for `head`.
    fn rule(&mut self, head: usize, rec: Rec, file: usize) -> Rule {
        let pools = self.pools(head);
        let mut vars = Vars::default();
        let mut pos: Vec<Lit> = Vec::new();
        let mut extra: Vec<Lit> = Vec::new();
        let mut tail: Vec<Lit> = Vec::new();
        let steps = 1 + self.tape.pick(3);
        let state = head == PLACED || head == ELIMINATED;
        for i in 0..steps {
            if rec == Rec::Atom && i == 0 {
                // The head relation itself, with fresh variables.
                let args = self.prog.rels[head]
                    .cols
                    .clone()
                    .into_iter()
                    .map(|f| {
                        let v = vars.fresh(f);
                        vars.bound[v] = true;
                        Term::Var(v)
                    })
                    .collect();
                pos.push(Lit::Pos(Atom { rel: head, args }));
                continue;
            }
            let nums = vars.bound_of(Fam::Num, false);
            if i > 0 && !nums.is_empty() && self.tape.flag(15) {
                // K = X + c, X - c or X + Y: joins a later atom or a filter.
                let x = Box::new(Expr::Var(self.tape.choose(&nums)));
                let y = Box::new(if self.tape.flag(30) {
                    Expr::Var(self.tape.choose(&nums))
                } else {
                    Expr::Const(Fam::Num, self.tape.pick(3) as i64)
                });
                let e = if self.tape.flag(50) {
                    Expr::Add(x, y)
                } else {
                    Expr::Sub(x, y)
                };
                let k = vars.fresh(Fam::Num);
                vars.bound[k] = true;
                vars.arith[k] = true;
                pos.push(Lit::Assign(k, e));
                continue;
            }
            let rel = self.pick_rel(POS_BUILTINS, &pools.pos);
            let lit = self.outer_atom(&mut vars, rel, i > 0);
            pos.push(lit);
        }
        // Recursion through a count: outer atoms from other relations, the
        // head relation inside a threshold count.
        if rec == Rec::Count {
            tail.extend(self.count(&mut vars, &mut pos, &pools, false, Some(head)));
        }
        let outer: Vec<usize> = (0..vars.fams.len()).filter(|&v| vars.bound[v]).collect();
        if self.tape.flag(35) {
            extra.extend(self.comparison(&vars, &outer));
        }
        if self.tape.flag(15) {
            extra.extend(self.comparison(&vars, &outer));
        }
        if self.tape.flag(30) {
            extra.push(self.negation(&vars, &outer, &pools.stat));
        }
        // Exact counts need the rule's other atoms complete first: not in a
        // rule that reads its own head.
        let strict_ok = rec == Rec::No;
        if self.tape.flag(40) {
            tail.extend(self.count(&mut vars, &mut pos, &pools, strict_ok, None));
            if self.tape.flag(15) {
                tail.extend(self.count(&mut vars, &mut pos, &pools, strict_ok, None));
            }
        }
        // The head: bound variables of the right kind (a fresh one bound by
        // `cell`, `digit` or `unit` if there is none), or a constant.
        let cols = self.prog.rels[head].cols.clone();
        let mut args = Vec::new();
        for &f in &cols {
            let cands = vars.bound_of(f, false);
            let e = if self.tape.flag(8) {
                match self.constant(f) {
                    Term::Const(f, v) => Expr::Const(f, v),
                    _ => unreachable!(),
                }
            } else if cands.is_empty() {
                let v = vars.fresh(f);
                vars.bound[v] = true;
                let rel = match f {
                    Fam::Cell => CELL,
                    Fam::Num => DIGIT,
                    _ => UNIT,
                };
                pos.push(Lit::Pos(Atom {
                    rel,
                    args: vec![Term::Var(v)],
                }));
                Expr::Var(v)
            } else {
                Expr::Var(self.tape.choose(&cands))
            };
            // `X + 1` in the head of a rule that does not read its own
            // relation or change the state (so nothing grows without end).
            let e = if f == Fam::Num && rec == Rec::No && !state && self.tape.flag(10) {
                Expr::Add(Box::new(e), Box::new(Expr::Const(Fam::Num, 1)))
            } else {
                e
            };
            args.push(e);
        }
        if state && let Expr::Var(d) = args[1] {
            // The state holds digits only: recursion through it ends.
            pos.push(Lit::Pos(Atom {
                rel: DIGIT,
                args: vec![Term::Var(d)],
            }));
        }
        let mut body = pos;
        body.extend(extra);
        body.extend(tail);
        Rule {
            head,
            args,
            body,
            vars: vars.fams.len(),
            file,
        }
    }
}

// ---------------------------------------------------------------------------
// The naive evaluator.
// ---------------------------------------------------------------------------

type Fact = Vec<i64>;

/// Facts per relation, with an index per column.
struct Db {
    facts: Vec<Vec<Fact>>,
    seen: Vec<HashSet<Fact>>,
    index: Vec<Vec<HashMap<i64, Vec<usize>>>>,
}

impl Db {
    fn new(rels: &[Rel]) -> Db {
        Db {
            facts: vec![Vec::new(); rels.len()],
            seen: vec![HashSet::new(); rels.len()],
            index: rels
                .iter()
                .map(|r| vec![HashMap::new(); r.cols.len()])
                .collect(),
        }
    }

    fn insert(&mut self, rel: usize, t: Fact) -> bool {
        if !self.seen[rel].insert(t.clone()) {
            return false;
        }
        let at = self.facts[rel].len();
        for (c, &v) in t.iter().enumerate() {
            self.index[rel][c].entry(v).or_default().push(at);
        }
        self.facts[rel].push(t);
        true
    }

    /// The facts of `rel` that can match an atom, through the index of its
    /// first bound column.
    fn candidates<'a>(
        &'a self,
        a: &Atom,
        env: &[Option<i64>],
    ) -> Box<dyn Iterator<Item = &'a Fact> + 'a> {
        let facts = &self.facts[a.rel];
        let key = a.args.iter().enumerate().find_map(|(c, t)| match t {
            Term::Var(v) | Term::Anon(v) => env[*v].map(|x| (c, x)),
            Term::Const(_, x) => Some((c, *x)),
            Term::Wild => None,
        });
        match key {
            Some((c, x)) => match self.index[a.rel][c].get(&x) {
                Some(at) => Box::new(at.iter().map(move |&i| &facts[i])),
                None => Box::new(std::iter::empty()),
            },
            None => Box::new(facts.iter()),
        }
    }
}

/// The built-in facts of a grid of side `n` and a puzzle.
fn base_facts(db: &mut Db, n: usize, givens: &[u8]) {
    let b = (n as f64).sqrt().round() as usize;
    db.insert(SIZE, vec![n as i64]);
    db.insert(BOX_WIDTH, vec![b as i64]);
    for d in 1..=n {
        db.insert(DIGIT, vec![d as i64]);
    }
    for k in 0..3 {
        for i in 1..=n {
            db.insert(UNIT, vec![unit_val(k, i)]);
            db.insert(UNIT_KIND, vec![unit_val(k, i), kind_val(k)]);
        }
    }
    for r in 0..n {
        for c in 0..n {
            let cell = cell_val(r, c);
            let bx = (r / b) * b + c / b + 1;
            db.insert(CELL, vec![cell]);
            db.insert(ROW, vec![cell, r as i64 + 1]);
            db.insert(COL, vec![cell, c as i64 + 1]);
            db.insert(BOX, vec![cell, bx as i64]);
            for (k, i) in [(0, r + 1), (1, c + 1), (2, bx)] {
                db.insert(IN_UNIT, vec![cell, unit_val(k, i)]);
            }
            if givens[r * n + c] != 0 {
                db.insert(GIVEN, vec![cell, i64::from(givens[r * n + c])]);
            }
        }
    }
}

fn eval(e: &Expr, env: &[Option<i64>]) -> i64 {
    match e {
        Expr::Var(v) => env[*v].unwrap_or_else(|| panic!("X{v} is not bound")),
        Expr::Const(_, x) => *x,
        Expr::Add(a, b) => eval(a, env) + eval(b, env),
        Expr::Sub(a, b) => eval(a, env) - eval(b, env),
    }
}

fn expr_vars(e: &Expr, out: &mut Vec<usize>) {
    match e {
        Expr::Var(v) => out.push(*v),
        Expr::Const(..) => {}
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            expr_vars(a, out);
            expr_vars(b, out);
        }
    }
}

/// The variables a count's body mentions.
fn body_vars(body: &[Lit]) -> Vec<usize> {
    let mut out = Vec::new();
    for l in body {
        match l {
            Lit::Pos(a) | Lit::Neg(a) => {
                for t in &a.args {
                    if let Term::Var(v) | Term::Anon(v) = t {
                        out.push(*v);
                    }
                }
            }
            Lit::Cmp(a, _, b) => {
                expr_vars(a, &mut out);
                expr_vars(b, &mut out);
            }
            Lit::Assign(v, e) => {
                out.push(*v);
                expr_vars(e, &mut out);
            }
            Lit::Count { .. } | Lit::Value { .. } => panic!("a count inside a count"),
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// One pass of a rule over a [`Db`] that does not change meanwhile: the
/// counts met so far, by body and group (the count of a group is asked
/// again for every binding of the rest of the rule).
struct Pass<'a> {
    db: &'a Db,
    counts: RefCell<HashMap<CountKey, i64>>,
}

/// A count met in a pass: its body (by address) and its variables' values
/// (`None` for the counted ones).
type CountKey = (usize, Vec<Option<i64>>);

/// The number of distinct bindings of a count body's own variables (those
/// not bound when the count is reached: the others are its group).
fn count(cx: &Pass<'_>, body: &[Lit], env: &mut Vec<Option<i64>>) -> i64 {
    let vars = body_vars(body);
    let key = (
        body.as_ptr() as usize,
        vars.iter().map(|&v| env[v]).collect::<Vec<_>>(),
    );
    if let Some(&k) = cx.counts.borrow().get(&key) {
        return k;
    }
    let local: Vec<usize> = vars.into_iter().filter(|&v| env[v].is_none()).collect();
    let mut seen = HashSet::new();
    solve(cx, body, env, &mut |e| {
        seen.insert(local.iter().map(|&v| e[v]).collect::<Vec<_>>());
    });
    let k = seen.len() as i64;
    cx.counts.borrow_mut().insert(key, k);
    k
}

/// Every binding of `lits` (left to right) extending `env`, to `out`.
fn solve(
    cx: &Pass<'_>,
    lits: &[Lit],
    env: &mut Vec<Option<i64>>,
    out: &mut dyn FnMut(&[Option<i64>]),
) {
    let Some((first, rest)) = lits.split_first() else {
        out(env);
        return;
    };
    match first {
        Lit::Pos(a) => {
            // An atom that binds nothing new is a test: one match will do.
            let binds = a
                .args
                .iter()
                .any(|t| matches!(t, Term::Var(v) | Term::Anon(v) if env[*v].is_none()));
            for t in cx.db.candidates(a, env) {
                let mut newly = Vec::new();
                let mut ok = true;
                for (term, &x) in a.args.iter().zip(t) {
                    match term {
                        Term::Var(v) | Term::Anon(v) => match env[*v] {
                            Some(y) => ok = y == x,
                            None => {
                                env[*v] = Some(x);
                                newly.push(*v);
                            }
                        },
                        Term::Const(_, c) => ok = *c == x,
                        Term::Wild => {}
                    }
                    if !ok {
                        break;
                    }
                }
                if ok {
                    solve(cx, rest, env, out);
                }
                for v in newly {
                    env[v] = None;
                }
                if ok && !binds {
                    break;
                }
            }
        }
        Lit::Neg(a) => {
            let exists = cx.db.candidates(a, env).any(|t| {
                a.args.iter().zip(t).all(|(term, &x)| match term {
                    Term::Var(v) | Term::Anon(v) => {
                        env[*v].unwrap_or_else(|| panic!("X{v} unbound in a negation")) == x
                    }
                    Term::Const(_, c) => *c == x,
                    Term::Wild => true,
                })
            });
            if !exists {
                solve(cx, rest, env, out);
            }
        }
        Lit::Cmp(a, op, b) => {
            if op.holds(eval(a, env), eval(b, env)) {
                solve(cx, rest, env, out);
            }
        }
        Lit::Assign(v, e) => {
            let x = eval(e, env);
            with_value(cx, rest, env, out, *v, x);
        }
        Lit::Value { var, body } => {
            let x = count(cx, body, env);
            with_value(cx, rest, env, out, *var, x);
        }
        Lit::Count { body, op, bound } => {
            let limit = eval(bound, env);
            if op.holds(count(cx, body, env), limit) {
                solve(cx, rest, env, out);
            }
        }
    }
}

/// [`solve`] of `rest` with `v` bound to `x` (or if it already is).
fn with_value(
    cx: &Pass<'_>,
    rest: &[Lit],
    env: &mut Vec<Option<i64>>,
    out: &mut dyn FnMut(&[Option<i64>]),
    v: usize,
    x: i64,
) {
    match env[v] {
        Some(y) => {
            if y == x {
                solve(cx, rest, env, out);
            }
        }
        None => {
            env[v] = Some(x);
            solve(cx, rest, env, out);
            env[v] = None;
        }
    }
}

/// The relations a body reads (counts included).
fn reads(body: &[Lit], out: &mut Vec<usize>) {
    for l in body {
        match l {
            Lit::Pos(a) | Lit::Neg(a) => out.push(a.rel),
            Lit::Count { body, .. } | Lit::Value { body, .. } => reads(body, out),
            _ => {}
        }
    }
}

/// The least fixpoint of a program on a puzzle, by brute force. Static
/// relations first, one at a time in declaration order (the generator
/// declares a relation after everything it negates or counts exactly);
/// then everything that depends on the state (`placed`, `eliminated` and
/// the relations reading them) together: their negations and exact counts
/// read static relations only, and their threshold counts only grow, so
/// one fixpoint of all of them is the meaning the README gives them.
fn naive(p: &Prog, n: usize, givens: &[u8]) -> Db {
    let mut db = Db::new(&p.rels);
    base_facts(&mut db, n, givens);
    let dynamic = dynamic_rels(p);
    let mut strata: Vec<Vec<&Rule>> = (0..p.rels.len())
        .filter(|&r| !p.rels[r].builtin && !dynamic[r])
        .map(|r| p.rules.iter().filter(|x| x.head == r).collect())
        .collect();
    strata.push(p.rules.iter().filter(|x| dynamic[x.head]).collect());
    for stratum in strata {
        while derive(&mut db, &stratum) {}
    }
    db
}

/// One pass of `rules` over `db`, each rule adding what it derives before
/// the next one runs; whether anything was new.
fn derive(db: &mut Db, rules: &[&Rule]) -> bool {
    let mut changed = false;
    for r in rules {
        let mut new = Vec::new();
        let mut env = vec![None; r.vars];
        let cx = Pass {
            db,
            counts: RefCell::new(HashMap::new()),
        };
        solve(&cx, &r.body, &mut env, &mut |e| {
            new.push(r.args.iter().map(|x| eval(x, e)).collect::<Fact>());
        });
        for t in new {
            changed |= db.insert(r.head, t);
        }
    }
    changed
}

/// Whether each relation depends on the state (reads `placed` or
/// `eliminated`, or a relation that does).
fn dynamic_rels(p: &Prog) -> Vec<bool> {
    let mut dynamic: Vec<bool> = (0..p.rels.len())
        .map(|r| r == PLACED || r == ELIMINATED)
        .collect();
    loop {
        let mut changed = false;
        for r in &p.rules {
            let mut rels = Vec::new();
            reads(&r.body, &mut rels);
            if !dynamic[r.head] && rels.iter().any(|&x| dynamic[x]) {
                dynamic[r.head] = true;
                changed = true;
            }
        }
        if !changed {
            return dynamic;
        }
    }
}

// ---------------------------------------------------------------------------
// Running sudolog and comparing.
// ---------------------------------------------------------------------------

/// The engine for a program; a program the checker rejects is a failure
/// (of the generator, or of the checker).
fn engine_for(p: &Prog) -> Engine {
    let mut sources = RuleSources::default();
    for (name, text) in render(p) {
        sources.add_text(&name, &text);
    }
    let program = match sources.load() {
        Ok(program) => program,
        Err(e) => panic!("sudolog rejects the program:\n{}\n{e}", listing(p)),
    };
    match Engine::new(program) {
        Ok(e) => e,
        Err(d) => panic!(
            "sudolog cannot compile the program:\n{}\n{}",
            listing(p),
            d.render()
        ),
    }
}

/// The facts of every compared relation after sudolog's run; `None` if
/// the run stopped at the fact limit (a random join of several atoms over
/// 81 cells can make millions of intermediate tuples, and the README says
/// such a run stops there).
fn engine_facts(engine: &Engine, p: &Prog, givens: &[u8]) -> Option<Vec<BTreeSet<Fact>>> {
    let g = Geometry::from_cell_count(givens.len()).expect("a supported size");
    let mut solve = engine.start(g, givens);
    let status = solve.run();
    if matches!(status, Status::FactLimit(_)) {
        return None;
    }
    assert!(
        matches!(status, Status::Solved | Status::Stalled | Status::Conflict),
        "run ended with {status:?}:\n{}",
        listing(p)
    );
    let program = engine.program();
    let facts = p
        .compared()
        .into_iter()
        .map(|r| {
            let rel = &p.rels[r];
            let id = program.relation(&rel.name).expect("a declared relation");
            solve
                .relation_facts(id)
                .into_iter()
                .map(|(t, _)| {
                    values(&t, rel.cols.len())
                        .into_iter()
                        .zip(&rel.cols)
                        .map(|(v, f)| match f {
                            Fam::Unit | Fam::Kind => symbol_val(program.symbols.name(v)),
                            _ => i64::from(v),
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    Some(facts)
}

fn show_fact(rel: &Rel, t: &Fact) -> String {
    let vals: Vec<String> = t.iter().zip(&rel.cols).map(|(&v, &f)| show(f, v)).collect();
    format!("{}({})", rel.name, vals.join(", "))
}

fn puzzle_text(givens: &[u8]) -> String {
    givens
        .iter()
        .map(|&d| char::from_digit(u32::from(d), 10).map_or('.', |c| if d == 0 { '.' } else { c }))
        .collect()
}

/// Compares sudolog and the naive evaluator on every puzzle (one engine
/// for all of them, as a batch solve would): `Err` describes the first
/// difference.
fn differ(p: &Prog, engine: &Engine, puzzles: &[Vec<u8>]) -> Result<(), String> {
    let compared = p.compared();
    for givens in puzzles {
        let n = (givens.len() as f64).sqrt().round() as usize;
        let Some(got) = engine_facts(engine, p, givens) else {
            continue;
        };
        let full = naive(p, n, givens);
        let want: Vec<BTreeSet<Fact>> = compared
            .iter()
            .map(|&r| full.facts[r].iter().cloned().collect())
            .collect();
        if got == want {
            continue;
        }
        let fail = |what: String| {
            format!(
                "{what}\npuzzle: {}\nprogram:\n{}",
                puzzle_text(givens),
                listing(p)
            )
        };
        // A fixpoint whose `placed` has a fact per cell (or more) switches
        // no harder tier on ("a complete grid needs no harder technique",
        // `Store::run`): what tiers 2 and up would still derive is missing
        // then, and how much of it is there depends on the schedule. The
        // facts must then still be sound (within the full fixpoint), the
        // static relations complete, and nothing missing that the
        // always-running tiers 0 and 1 derive from them.
        let gated = p.rules.iter().any(|r| r.file >= 2);
        if !(gated && got[0].len() >= n * n) {
            let (i, r) = (0..compared.len())
                .find(|&i| got[i] != want[i])
                .map(|i| (i, &p.rels[compared[i]]))
                .expect("a relation differs");
            let missing: Vec<String> = want[i]
                .difference(&got[i])
                .take(8)
                .map(|t| show_fact(r, t))
                .collect();
            let extra: Vec<String> = got[i]
                .difference(&want[i])
                .take(8)
                .map(|t| show_fact(r, t))
                .collect();
            return Err(fail(format!(
                "relation `{}` differs\nengine lacks ({} in all): {missing:?}\nengine has besides ({} in all): {extra:?}",
                r.name,
                want[i].difference(&got[i]).count(),
                got[i].difference(&want[i]).count(),
            )));
        }
        let dynamic = dynamic_rels(p);
        for (i, &r) in compared.iter().enumerate() {
            if let Some(t) = got[i].difference(&want[i]).next() {
                return Err(fail(format!(
                    "the engine derives {}, beyond the fixpoint",
                    show_fact(&p.rels[r], t)
                )));
            }
            if !dynamic[r] && got[i] != want[i] {
                return Err(fail(format!(
                    "static relation `{}` differs",
                    p.rels[r].name
                )));
            }
        }
        let mut db = Db::new(&p.rels);
        base_facts(&mut db, n, givens);
        for (i, &r) in compared.iter().enumerate() {
            for t in &got[i] {
                db.insert(r, t.clone());
            }
        }
        let before: usize = db.facts.iter().map(Vec::len).sum();
        let always: Vec<&Rule> = p.rules.iter().filter(|r| r.file <= 1).collect();
        derive(&mut db, &always);
        for (i, &r) in compared.iter().enumerate() {
            if let Some(t) = db.facts[r].iter().find(|t| !got[i].contains(*t)) {
                return Err(fail(format!(
                    "the engine stopped at a complete grid without {}, which tiers 0 and 1 derive from its facts ({} facts before, {} after)",
                    show_fact(&p.rels[r], t),
                    before,
                    db.facts.iter().map(Vec::len).sum::<usize>()
                )));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Puzzles.
// ---------------------------------------------------------------------------

const ESSAY: &str =
    "14..536......7.....56...7..8.9.61.2.7..9..........8.1.....9.....63.1.45..71.3..6.";
const ESSAY_SOLUTION: &str =
    "147253698398176245256489731839761524714925386625348917582694173963817452471532869";
const STALL: &str =
    "...6.8.1.......7..7..5........7..38.6....31.5.72...6.....3..8....9......4.6.2...3";
const STALL_2: &str =
    ".3....4.5...........7....1....79.5....6.5.8..2...4..73...92...7.4.3..9.....1.6...";
const SMALL: &str = "1..4.........32.";
/// A valid 4x4 grid (rows 1234, 3412, 2143, 4321).
const GRID_4: &str = "1234341221434321";

fn cells(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
        .collect()
}

/// A 4x4 puzzle from a seed: mostly a valid grid (digits relabelled, maybe
/// transposed) with cells removed; sometimes random givens, which may
/// clash (no contradiction rule stops the run, so clashes are just more
/// facts); sometimes the puzzle of the first bug.
fn puzzle_4(seed: u64) -> Vec<u8> {
    let pick = |shift: u32, n: u64| ((seed >> shift) % n) as usize;
    match seed % 8 {
        7 => cells(SMALL),
        6 => (0..16)
            .map(|i| {
                let d = (seed >> (i * 3 + 3)) & 7;
                if d <= 4 && d % 2 == 1 { d as u8 } else { 0 }
            })
            .collect(),
        _ => {
            let mut perm = [1u8, 2, 3, 4];
            let mut k = pick(3, 24);
            for i in 0..4 {
                perm.swap(i, i + k % (4 - i));
                k /= 4 - i;
            }
            let base = cells(GRID_4);
            let transpose = pick(8, 2) == 1;
            let mut mask = (seed >> 16) as u16;
            if pick(9, 2) == 1 {
                mask &= (seed >> 32) as u16;
            }
            (0..16)
                .map(|i| {
                    let at = if transpose { (i % 4) * 4 + i / 4 } else { i };
                    if mask & (1 << i) != 0 {
                        perm[base[at] as usize - 1]
                    } else {
                        0
                    }
                })
                .collect()
        }
    }
}

// ---------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------

/// `cases` cases, no failure file (there is no `lib.rs` next to which
/// proptest could save one); a failure is shrunk for at most a minute.
fn config(cases: u32) -> Config {
    Config {
        cases,
        max_shrink_time: 60_000,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(4000))]

    /// Random programs on two 4x4 puzzles through one engine.
    #[test]
    fn random_programs_agree_on_4x4(
        tape in prop::collection::vec(any::<u32>(), 0..300),
        a in any::<u64>(),
        b in any::<u64>(),
    ) {
        let p = generate(&tape);
        let engine = engine_for(&p);
        if let Err(e) = differ(&p, &engine, &[puzzle_4(a), puzzle_4(b)]) {
            return Err(TestCaseError::fail(e));
        }
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// Random programs on a 9x9 puzzle, then a 4x4 one through the same
    /// engine (statics per grid size).
    #[test]
    fn random_programs_agree_on_9x9(
        tape in prop::collection::vec(any::<u32>(), 0..300),
        stall in any::<bool>(),
        a in any::<u64>(),
    ) {
        let p = generate(&tape);
        let engine = engine_for(&p);
        let big = cells(if stall { STALL } else { ESSAY });
        if let Err(e) = differ(&p, &engine, &[big, puzzle_4(a)]) {
            return Err(TestCaseError::fail(e));
        }
    }
}

/// The naive evaluator is right on its own: with the grid rules and the
/// singles it solves the essay puzzle to its known solution (so that it
/// cannot agree with a wrong engine by being wrong the same way there).
#[test]
fn the_naive_evaluator_solves_with_singles() {
    let p = grid_program(0, 0);
    let db = naive(&p, 9, &cells(ESSAY));
    let solution = cells(ESSAY_SOLUTION);
    let placed: BTreeSet<Fact> = db.facts[PLACED].iter().cloned().collect();
    let expected: BTreeSet<Fact> = (0..81)
        .map(|i| vec![cell_val(i / 9, i % 9), i64::from(solution[i])])
        .collect();
    assert_eq!(placed, expected);
    // Every placed cell has lost its other eight digits.
    assert_eq!(db.facts[ELIMINATED].len(), 81 * 8);
}

/// The shapes of the two engine bugs of issue 14 (items 1 and 2), written
/// as programs of this test and compared like the random ones. The exact
/// regressions (12 cells; every 4 of the solution) are in
/// `engine_semantics.rs`; these show the harness expresses them.
#[test]
fn known_bug_shapes_agree() {
    use Term::Var as V;
    let atom = |rel, args| Lit::Pos(Atom { rel, args });
    // q(C) :- cell(C), !given(C, _), count : { in_unit(C, U) } >= 1.
    let mut p = Prog::new();
    let q = p.add_rel("q", &[Fam::Cell], &["cell"]);
    p.rules.push(Rule {
        head: q,
        args: vec![Expr::Var(0)],
        body: vec![
            atom(CELL, vec![V(0)]),
            Lit::Neg(Atom {
                rel: GIVEN,
                args: vec![V(0), Term::Wild],
            }),
            Lit::Count {
                body: vec![atom(IN_UNIT, vec![V(0), V(1)])],
                op: Op::Ge,
                bound: Expr::Const(Fam::Num, 1),
            },
        ],
        vars: 2,
        file: 0,
    });
    let engine = engine_for(&p);
    let puzzles = [cells(SMALL), cells("12..34.........."), vec![0; 16]];
    if let Err(e) = differ(&p, &engine, &puzzles) {
        panic!("{e}");
    }
    assert_eq!(naive(&p, 4, &cells(SMALL)).facts[q].len(), 12);

    // q(C) :- placed(C, 4), count : { in_unit(C, U) } = 3, with the grid
    // rules, the naked single in tier 0 and the hidden single in tier 2:
    // on the second stalled puzzle, a hidden single places a 4 after the
    // first fixpoint (and neither finishes the grid, so every tier runs).
    let mut p = grid_program(0, 2);
    let without_hidden = {
        let mut p = p.clone();
        p.rules.pop();
        p
    };
    let q = p.add_rel("q", &[Fam::Cell], &["cell"]);
    p.rules.push(Rule {
        head: q,
        args: vec![Expr::Var(0)],
        body: vec![
            atom(PLACED, vec![V(0), Term::Const(Fam::Num, 4)]),
            Lit::Count {
                body: vec![atom(IN_UNIT, vec![V(0), V(1)])],
                op: Op::Eq,
                bound: Expr::Const(Fam::Num, 3),
            },
        ],
        vars: 2,
        file: 0,
    });
    let engine = engine_for(&p);
    if let Err(e) = differ(&p, &engine, &[cells(STALL_2), cells(STALL)]) {
        panic!("{e}");
    }
    // Hidden singles place 4s that the first fixpoint (without them) lacks.
    let fours = |p: &Prog| {
        naive(p, 9, &cells(STALL_2)).facts[PLACED]
            .iter()
            .filter(|t| t[1] == 4)
            .count()
    };
    assert!(fours(&p) > fours(&without_hidden));
    assert_eq!(naive(&p, 9, &cells(STALL_2)).facts[q].len(), fours(&p));
}

// ---------------------------------------------------------------------------
// Engine bugs and limits the differential test found, each with its smallest
// reproduction. An equality lost in a join of changing relations and a
// count that could not read a value count were fixed (their tests run); the
// other limits are ignored until the engine plans them (then
// un-ignore the test, and remove what keeps the generator away from it: the
// cap on a count's group variables, the second atom of a count joining the
// first).
// ---------------------------------------------------------------------------

/// The facts of relation `rel` after sudolog runs rule `text` alone on a
/// puzzle (values as the engine holds them: cells `row * 32 + col`).
fn facts_of(text: &str, puzzle: &str, rel: &str) -> BTreeSet<Vec<i64>> {
    let mut sources = RuleSources::default();
    sources.add_text("test.dl", text);
    let program = sources
        .load()
        .unwrap_or_else(|e| panic!("the rules load:\n{e}"));
    let engine = Engine::new(program).unwrap_or_else(|d| panic!("{}", d.render()));
    let givens = cells(puzzle);
    let g = Geometry::from_cell_count(givens.len()).expect("a supported size");
    let mut solve = engine.start(g, &givens);
    solve.run();
    let id = engine.program().relation(rel).expect("the relation");
    let arity = engine.program().relations[id].arity();
    solve
        .relation_facts(id)
        .into_iter()
        .map(|(t, _)| values(&t, arity).into_iter().map(i64::from).collect())
        .collect()
}

/// Found by the differential test: in a rule that joins two changing
/// relations (two atoms over the state, or one and a count's groups), an
/// equality `V = e` whose variable the engine binds with the second of them
/// is taken as an assignment before that join, and the atom's column is not
/// compared with it: the rule fires as if the equality held. `C = r1c4`
/// gives every placed digit; `C != r1c1`, `C <= r1c1`, or the atoms in the
/// other order (`placed(C, D), eliminated(_, D), C = r1c1`) are right.
#[test]
fn an_equality_in_a_join_of_changing_relations_filters() {
    let state = "placed(C, D) :- given(C, D).\neliminated(C, D) :- given(C, D).\n";
    // Givens r1c1 = 1, r1c4 = 4, r4c2 = 3, r4c3 = 2: placed and eliminated
    // hold exactly those.
    let digits = |rule: &str| -> BTreeSet<i64> {
        let text = format!("{state}.decl q(d: digit)\n{rule}\n");
        facts_of(&text, SMALL, "q")
            .into_iter()
            .map(|t| t[0])
            .collect()
    };
    // The digit placed at r1c1 (was: 1, 2, 3 and 4).
    assert_eq!(
        digits("q(D) :- eliminated(_, D), placed(C, D), C = r1c1."),
        BTreeSet::from([1])
    );
    // The digit placed at r1c4 (was: 1, 2, 3 and 4).
    assert_eq!(
        digits("q(D) :- eliminated(_, D), placed(C, D), C = r1c4."),
        BTreeSet::from([4])
    );
    // A placed digit one above an eliminated one (was: 1, 2, 3 and 4).
    assert_eq!(
        digits("q(D) :- eliminated(_, E), placed(_, D), D = E + 1."),
        BTreeSet::from([2, 3, 4])
    );
    // The same digit eliminated from one cell and placed in another: none
    // here (was: 1, 2, 3 and 4).
    assert_eq!(
        digits("q(D) :- eliminated(X, E), placed(C, D), E = D, X != C."),
        BTreeSet::new()
    );
    // One changing atom and a value count without a group (was: every
    // placed cell).
    let text = format!(
        "{state}.decl q(c: cell)\nq(C) :- placed(C, _), C = r1c1, K = count : {{ digit(_) }}.\n"
    );
    assert_eq!(facts_of(&text, SMALL, "q"), BTreeSet::from([vec![0]]));
}

/// Found by the differential test: a count that reads the value of another
/// count (`K = count : {...}` in its bound or its body) passed the checker
/// but could not be planned ("a head variable is not bound by the body").
/// Now the value count's groups join the reading count's seed.
#[test]
fn a_count_reading_a_value_count_is_planned() {
    // Every cell is in 3 units, and there are 4 >= 3 digits: all 16 cells.
    let text = ".decl q(c: cell)\nq(C) :- cell(C), K = count : { in_unit(C, _) }, count : { digit(D) } >= K.\n";
    assert_eq!(facts_of(text, SMALL, "q").len(), 16);
    // Two more than the units: more than the 4 digits, so none.
    let text = ".decl q(c: cell)\nq(C) :- cell(C), K = count : { in_unit(C, _) }, count : { digit(D) } >= K + 2.\n";
    assert!(facts_of(text, SMALL, "q").is_empty());
}

/// Found by the differential test: a count over two changing atoms that
/// share no variable, with a group, passes the checker but "cannot be
/// planned: more than eight variables are alive at once" (it has five).
/// Without the group (`> 1`), or with the atoms sharing a variable, it is
/// planned.
#[test]
#[ignore = "engine limit: a count over a cross product of the state with a group"]
fn a_count_over_a_cross_product_of_the_state_is_planned() {
    // Four placed and four eliminated facts: 16 pairs, more than any digit.
    let text = "placed(C, D) :- given(C, D).\neliminated(C, D) :- given(C, D).\n\
                .decl q(u: unit)\n\
                q(U) :- unit(U), digit(N), count : { eliminated(X1, X2), placed(X3, X4) } > N.\n";
    assert_eq!(facts_of(text, SMALL, "q").len(), 12);
}

/// Found by the differential test: a value count with four group
/// variables is planned on its own, but not beside a count without a group
/// ("an atom of `reached#1` binds more than 4 new variables at once").
#[test]
#[ignore = "engine limit: a value count with four group variables beside a groupless count"]
fn a_value_count_with_four_group_variables_is_planned() {
    // Every cell and digit (the counts hold for every group).
    let text = ".decl h(c: cell, d: digit)\n\
                h(C, D) :- in_unit(C, U), digit(D), digit(E), count : { cell(_) } >= 2,\n\
                    K = count : { in_unit(C, U), digit(E), digit(D) }.\n";
    assert_eq!(facts_of(text, SMALL, "h").len(), 64);
}
