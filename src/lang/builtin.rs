//! The built-in relations every program has, and everything the checker
//! and the engine need to know about each, in one table
//! ([`Builtin::ALL`]): its name, its columns, where its facts come from,
//! whether rules may add to it, and how the engine keeps it. Adding a
//! built-in relation is a variant, its row, and its facts
//! (`engine::facts::base_facts`).

use super::ast::Type::{self, Cell, Digit, Number, Set, Symbol, Unit};

/// The relations every program has, filled from the grid and the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `cell(c)`: every cell of the grid.
    Cell,
    /// `digit(d)`: the digits `1..=n`.
    Digit,
    /// `size(n)`: the number of digits.
    Size,
    /// `box_width(w)`: the side of a box (no fact in a jigsaw, whose
    /// regions have none: rules that need box geometry read it).
    BoxWidth,
    /// `row(c, r)`: the 1-based row of a cell.
    Row,
    /// `col(c, k)`: the 1-based column of a cell.
    Col,
    /// `box(c, b)`: the 1-based box of a cell (boxes numbered row by row;
    /// in a jigsaw, its region, `A` being 1).
    Box,
    /// `unit(u)`: every unit (rows, columns, boxes, and units rules add).
    Unit,
    /// `in_unit(c, u)`: cell `c` belongs to unit `u`.
    InUnit,
    /// `unit_kind(u, k)`: `"row"`, `"col"` or `"box"` (or what a rule file says).
    UnitKind,
    /// `given(c, d)`: the puzzle's clues.
    Given,
    /// `placed(c, d)`: state, digit `d` is in cell `c`.
    Placed,
    /// `eliminated(c, d)`: state, digit `d` cannot be in cell `c`.
    Eliminated,
    /// `contradiction(reason, c)`: the branch is impossible; stops the fixpoint.
    Contradiction,
    /// `digit_set(s, k)`: every set of 1 to 4 of the numbers `1..=n`, as a
    /// bitmask `s` (bit `d` for member `d`), with its size `k`.
    DigitSet,
    /// `in_set(d, s)`: `d` is a member of set `s`.
    InSet,
    /// `covers(m, t)`: `t` is a set of `digit_set`, and the set `m` holds
    /// every number of `1..=n` outside `t` (and any of `t`'s): what is not in
    /// `m` lies within `t`.
    Covers,
}

/// The largest sets in `digit_set`: quads, enough for subsets and fish up
/// to jellyfish, and small enough for 25x25 grids.
pub const MAX_SET: usize = 4;

/// Where a built-in relation's facts come from, which decides when they
/// are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The grid (its size, or a jigsaw's regions): computed once per grid.
    Grid,
    /// The puzzle's clues: once per puzzle.
    Givens,
    /// The solving state (`placed`, `eliminated`): it only grows as the
    /// solve goes on, and it is what a solve records.
    State,
    /// `contradiction`: rules alone derive it, and it lives in the fixpoint
    /// even when a rule derives it from the givens alone, so that it always
    /// stops a branch.
    Stop,
}

/// One row of the table of built-in relations.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinInfo {
    /// Which one.
    pub which: Builtin,
    /// Its name in rules.
    pub name: &'static str,
    /// Its columns: names and types.
    pub columns: &'static [(&'static str, Type)],
    /// Where its facts come from.
    pub source: Source,
    /// Whether rules may add facts to it.
    pub rules_add: bool,
    /// Whether the engine keeps only the indexes its plans read, not the
    /// relation itself: large (`covers` is 222,050 tuples on 25x25) and a
    /// function of the grid size alone, so inspection recomputes it.
    pub indexes_only: bool,
}

/// A row of [`Builtin::ALL`] with the defaults: a static relation of the
/// grid, kept whole, that rules may not add to.
const fn builtin(
    which: Builtin,
    name: &'static str,
    columns: &'static [(&'static str, Type)],
) -> BuiltinInfo {
    BuiltinInfo {
        which,
        name,
        columns,
        source: Source::Grid,
        rules_add: false,
        indexes_only: false,
    }
}

impl BuiltinInfo {
    /// The same row, with rules allowed to add facts.
    const fn rules_add(self) -> BuiltinInfo {
        BuiltinInfo {
            rules_add: true,
            ..self
        }
    }

    /// The same row, with its facts from `source`.
    const fn from(self, source: Source) -> BuiltinInfo {
        BuiltinInfo { source, ..self }
    }

    /// The same row, kept as indexes only.
    const fn indexes_only(self) -> BuiltinInfo {
        BuiltinInfo {
            indexes_only: true,
            ..self
        }
    }
}

impl Builtin {
    /// Every built-in relation, in the enum's order (a program's relations
    /// start with them, so a built-in's id is its position here).
    pub const ALL: &'static [BuiltinInfo] = &[
        builtin(Builtin::Cell, "cell", &[("c", Cell)]),
        builtin(Builtin::Digit, "digit", &[("d", Digit)]),
        builtin(Builtin::Size, "size", &[("n", Number)]),
        builtin(Builtin::BoxWidth, "box_width", &[("w", Number)]),
        builtin(Builtin::Row, "row", &[("c", Cell), ("r", Number)]),
        builtin(Builtin::Col, "col", &[("c", Cell), ("k", Number)]),
        builtin(Builtin::Box, "box", &[("c", Cell), ("b", Number)]),
        builtin(Builtin::Unit, "unit", &[("u", Unit)]).rules_add(),
        builtin(Builtin::InUnit, "in_unit", &[("c", Cell), ("u", Unit)]).rules_add(),
        builtin(
            Builtin::UnitKind,
            "unit_kind",
            &[("u", Unit), ("k", Symbol)],
        )
        .rules_add(),
        builtin(Builtin::Given, "given", &[("c", Cell), ("d", Digit)]).from(Source::Givens),
        builtin(Builtin::Placed, "placed", &[("c", Cell), ("d", Digit)])
            .from(Source::State)
            .rules_add(),
        builtin(
            Builtin::Eliminated,
            "eliminated",
            &[("c", Cell), ("d", Digit)],
        )
        .from(Source::State)
        .rules_add(),
        builtin(
            Builtin::Contradiction,
            "contradiction",
            &[("reason", Symbol), ("c", Cell)],
        )
        .from(Source::Stop)
        .rules_add(),
        builtin(Builtin::DigitSet, "digit_set", &[("s", Set), ("k", Number)]).indexes_only(),
        builtin(Builtin::InSet, "in_set", &[("d", Number), ("s", Set)]).indexes_only(),
        builtin(Builtin::Covers, "covers", &[("m", Set), ("t", Set)]).indexes_only(),
    ];

    /// Its row of [`Builtin::ALL`].
    pub fn info(self) -> &'static BuiltinInfo {
        &Self::ALL[self as usize]
    }

    /// Its name in rules.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Whether its facts can change as the solve goes on: it lives in the
    /// fixpoint (`placed`, `eliminated`, `contradiction`).
    pub fn dynamic(self) -> bool {
        matches!(self.info().source, Source::State | Source::Stop)
    }

    /// Whether it depends on the puzzle's givens.
    pub fn per_puzzle(self) -> bool {
        self.info().source == Source::Givens
    }

    /// Whether it is the solving state proper (`placed`, `eliminated`):
    /// what a solve records, and a person would write down.
    pub fn is_state(self) -> bool {
        self.info().source == Source::State
    }

    /// Whether it is a relation of the grid that rules add to (`unit`,
    /// `in_unit`, `unit_kind`): its base facts go into the same relation as
    /// what its rules derive.
    pub fn extended_by_rules(self) -> bool {
        let info = self.info();
        info.rules_add && info.source == Source::Grid
    }
}

// Each row sits at its variant's position, so that `info` is an index.
const _: () = {
    let mut i = 0;
    while i < Builtin::ALL.len() {
        assert!(Builtin::ALL[i].which as usize == i);
        i += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_answers_what_the_lists_did() {
        let names = |f: fn(Builtin) -> bool| -> Vec<&str> {
            Builtin::ALL
                .iter()
                .filter(|i| f(i.which))
                .map(|i| i.name)
                .collect()
        };
        assert_eq!(
            names(Builtin::dynamic),
            ["placed", "eliminated", "contradiction"]
        );
        assert_eq!(names(Builtin::is_state), ["placed", "eliminated"]);
        assert_eq!(names(Builtin::per_puzzle), ["given"]);
        assert_eq!(
            names(Builtin::extended_by_rules),
            ["unit", "in_unit", "unit_kind"]
        );
        assert_eq!(
            names(|b| b.info().indexes_only),
            ["digit_set", "in_set", "covers"]
        );
        assert_eq!(
            names(|b| b.info().rules_add),
            [
                "unit",
                "in_unit",
                "unit_kind",
                "placed",
                "eliminated",
                "contradiction"
            ]
        );
        assert_eq!(Builtin::Covers.name(), "covers");
    }
}
