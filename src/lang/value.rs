//! Values: every value inside the engine is an integer (cells, digits,
//! numbers, sets and interned symbols), their types, and the comparisons
//! between them.
//! A leaf module, so that the syntax tree, the checked program, the symbol
//! table and the engine can all speak of values without importing each
//! other (the engine never imports the syntax tree).

use std::fmt;

/// Every value inside the engine: cells, digits, numbers and interned symbols.
pub type Value = i32;

/// Cells are encoded as `row * CELL_STRIDE + col` (0-based), so that a cell
/// constant such as `r3c5` means the same value for every grid size.
pub const CELL_STRIDE: Value = 32;

/// The value of the cell at 0-based `row`, `col`.
pub fn cell_value(row: usize, col: usize) -> Value {
    row as Value * CELL_STRIDE + col as Value
}

/// A cell value's name as the rules and every report write it: `r3c5`,
/// 1-based like the puzzle books. (`grid::Geometry::cell_name` names a
/// grid's cell index the same way; the grid and the language are leaves
/// apart, so each has its own.)
pub fn cell_name(value: Value) -> String {
    let (row, col) = cell_coords(value);
    format!("r{}c{}", row + 1, col + 1)
}

/// The 0-based `(row, col)` of a cell value.
pub fn cell_coords(value: Value) -> (usize, usize) {
    (
        (value / CELL_STRIDE) as usize,
        (value % CELL_STRIDE) as usize,
    )
}

/// The largest number a `set` aggregate can hold: a set is a bitmask (bit
/// `x` for member `x`) in one value, a 32-bit integer, like `digit_set`'s.
pub const MAX_SET_MEMBER: i64 = 30;

/// What a value aggregate makes of the values of its variable
/// (`S = sum X : { ... }`; over the solving state, only a `sum` of digits
/// or a `max`, which grow as it does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fold {
    /// `sum`: their sum (0 over no binding).
    Sum,
    /// `min`: the least (no value over no binding).
    Min,
    /// `max`: the greatest (no value over no binding).
    Max,
}

impl Fold {
    /// The aggregate's name as written.
    pub fn name(self) -> &'static str {
        match self {
            Fold::Sum => "sum",
            Fold::Min => "min",
            Fold::Max => "max",
        }
    }

    /// The fold's name written in a rule, if `word` is one.
    pub fn from_name(word: &str) -> Option<Fold> {
        Some(match word {
            "sum" => Fold::Sum,
            "min" => Fold::Min,
            "max" => Fold::Max,
            _ => return None,
        })
    }

    /// The value so far `acc` (none yet: `None`) with `x` folded in.
    pub fn step(self, acc: Option<i64>, x: i64) -> i64 {
        match (self, acc) {
            (_, None) => x,
            (Fold::Sum, Some(a)) => a.saturating_add(x),
            (Fold::Min, Some(a)) => a.min(x),
            (Fold::Max, Some(a)) => a.max(x),
        }
    }

    /// The value over no binding at all: 0 for a sum, none for the others.
    pub fn empty(self) -> Option<i64> {
        (self == Fold::Sum).then_some(0)
    }
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operator that holds with its operands swapped (`a < b` is `b > a`).
    pub fn flipped(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Eq,
            CmpOp::Ne => CmpOp::Ne,
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
        }
    }

    /// Whether `a op b` holds.
    pub fn holds<T: Ord>(self, a: T, b: T) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

impl fmt::Display for CmpOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        })
    }
}

/// The test of a guard's `where` (`unless tint(D, B, S, _) where S < R`,
/// `unless filled(U, P) where P in T`): how the guard's own column stands
/// to a variable of the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhereOp {
    /// A comparison of two values.
    Cmp(CmpOp),
    /// `P in T`: the column's number is a member of the set `T`.
    In,
}

impl WhereOp {
    /// The test with its operands swapped, if it has one (`in` has none:
    /// the guard's column is the member, never the set).
    pub fn flipped(self) -> Option<WhereOp> {
        match self {
            WhereOp::Cmp(op) => Some(WhereOp::Cmp(op.flipped())),
            WhereOp::In => None,
        }
    }

    /// Whether `column op value` holds.
    pub fn holds(self, column: Value, value: Value) -> bool {
        match self {
            WhereOp::Cmp(op) => op.holds(column, value),
            WhereOp::In => set_has(value, column),
        }
    }
}

impl fmt::Display for WhereOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WhereOp::Cmp(op) => op.fmt(f),
            WhereOp::In => f.write_str("in"),
        }
    }
}

/// The set holding just `x` (a bitmask, see [`MAX_SET_MEMBER`]); empty
/// for a number no set can hold.
pub fn singleton(x: Value) -> Value {
    if (1..=MAX_SET_MEMBER as Value).contains(&x) {
        1 << x
    } else {
        0
    }
}

/// Whether the set `set` holds `x`.
pub fn set_has(set: Value, x: Value) -> bool {
    set & singleton(x) != 0
}

/// A column type in a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A cell of the grid, written `r3c5`.
    Cell,
    /// A digit `1..=n` (printed as its symbol).
    Digit,
    /// A unit (row, column, box, or a unit a rule file adds); units are named by symbols.
    Unit,
    /// A plain integer.
    Number,
    /// An interned string.
    Symbol,
    /// A set of numbers from 1 to 30, held as a bitmask (bit `x` for member
    /// `x`), as `digit_set` and `set X : {...}` make them; printed `{2,7}`.
    /// Sets are numbers to the checker (they meet numbers in joins), a type
    /// of their own for people.
    Set,
}

impl Type {
    /// Parses a type name as written in `.decl`.
    pub fn from_name(name: &str) -> Option<Type> {
        Some(match name {
            "cell" => Type::Cell,
            "digit" => Type::Digit,
            "unit" => Type::Unit,
            "number" => Type::Number,
            "symbol" => Type::Symbol,
            "set" => Type::Set,
            _ => return None,
        })
    }

    /// The family a type belongs to: values of one family can meet in a join
    /// or a comparison (digits are numbers, units are symbols).
    pub fn family(self) -> TypeFamily {
        match self {
            Type::Cell => TypeFamily::Cell,
            Type::Digit | Type::Number | Type::Set => TypeFamily::Number,
            Type::Unit | Type::Symbol => TypeFamily::Symbol,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Type::Cell => "cell",
            Type::Digit => "digit",
            Type::Unit => "unit",
            Type::Number => "number",
            Type::Symbol => "symbol",
            Type::Set => "set",
        })
    }
}

/// Groups of types whose values are comparable with each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeFamily {
    /// Cells.
    Cell,
    /// Digits and numbers.
    Number,
    /// Units and symbols.
    Symbol,
}

impl fmt::Display for TypeFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TypeFamily::Cell => "cell",
            TypeFamily::Number => "number",
            TypeFamily::Symbol => "symbol",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        assert_eq!(cell_value(2, 4), 2 * 32 + 4);
        assert_eq!(cell_coords(cell_value(24, 24)), (24, 24));
        assert_eq!(cell_name(cell_value(9, 0)), "r10c1");
    }
}
