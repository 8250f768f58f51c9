//! How digits are written: `1`-`9`, then `A`-`P` for 10..=25.

use super::Geometry;

/// What one written character means in a grid of a given size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// A digit 1..=n.
    Digit(u8),
    /// An empty cell (`.`, `_`, or `0` on grids up to 9x9).
    Empty,
    /// Anything this size does not accept.
    Invalid,
}

impl Geometry {
    /// The character that writes digit `d`: `1`-`9`, then `A`-`P`.
    /// `0` (no digit) gives `.` and anything above 25 gives `?`, so
    /// rendering never fails even on corrupt cell values.
    pub fn digit_symbol(&self, d: u8) -> char {
        match d {
            0 => '.',
            1..=9 => char::from(b'0' + d),
            10..=25 => char::from(b'A' + (d - 10)),
            _ => '?',
        }
    }

    /// Some digits as a set is written: `{2,7}` (symbols, so `{A,G}` on
    /// 16x16), as candidates and guesses are shown everywhere.
    pub fn digit_set_text(&self, digits: &[u8]) -> String {
        let symbols: Vec<String> = digits
            .iter()
            .map(|&d| self.digit_symbol(d).to_string())
            .collect();
        format!("{{{}}}", symbols.join(","))
    }

    /// The digit `ch` writes, accepting lowercase letters; `None` if it is
    /// not a digit of this size (so a 9x9 rejects `A`).
    pub fn symbol_digit(&self, ch: char) -> Option<u8> {
        let d = match ch {
            '1'..='9' => ch as u8 - b'0',
            'A'..='P' => ch as u8 - b'A' + 10,
            'a'..='p' => ch as u8 - b'a' + 10,
            _ => return None,
        };
        (usize::from(d) <= self.n).then_some(d)
    }

    /// Classifies `ch` for this size. `0` means empty only up to 9x9,
    /// because tools that number 16x16 digits 0-F would otherwise be misread.
    pub fn classify_symbol(&self, ch: char) -> Symbol {
        if let Some(d) = self.symbol_digit(ch) {
            return Symbol::Digit(d);
        }
        match ch {
            '.' | '_' => Symbol::Empty,
            '0' if self.n <= 9 => Symbol::Empty,
            _ => Symbol::Invalid,
        }
    }

    /// One sentence listing what this size accepts, for error messages,
    /// e.g. "16x16 digits are 1-9 and A-G and empty cells are '.' or '_'".
    pub fn symbols_help(&self) -> String {
        let digits = if self.n <= 9 {
            format!("1-{}", self.n)
        } else {
            format!("1-9 and A-{}", self.digit_symbol(self.n as u8))
        };
        let empty = if self.n <= 9 {
            "'.', '_' or '0'"
        } else {
            "'.' or '_'"
        };
        format!(
            "{} digits are {digits} and empty cells are {empty}",
            self.label()
        )
    }
}

/// Whether `ch` could stand for a cell in some grid size; used before the
/// size of a line is known.
pub(crate) fn is_any_symbol(ch: char) -> bool {
    matches!(ch, '0'..='9' | 'A'..='P' | 'a'..='p' | '.' | '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(n: usize) -> Geometry {
        Geometry::from_side(n).unwrap()
    }

    #[test]
    fn digits_round_trip_for_every_size() {
        for geo in Geometry::all() {
            for d in 1..=geo.n as u8 {
                let ch = geo.digit_symbol(d);
                assert_eq!(geo.symbol_digit(ch), Some(d));
                assert_eq!(geo.symbol_digit(ch.to_ascii_lowercase()), Some(d));
                assert_eq!(geo.classify_symbol(ch), Symbol::Digit(d));
            }
            assert_eq!(geo.symbol_digit(geo.digit_symbol(geo.n as u8 + 1)), None);
        }
    }

    #[test]
    fn symbol_table() {
        assert_eq!(g(9).digit_symbol(0), '.');
        assert_eq!(g(9).digit_symbol(9), '9');
        assert_eq!(g(16).digit_symbol(10), 'A');
        assert_eq!(g(16).digit_symbol(16), 'G');
        assert_eq!(g(25).digit_symbol(25), 'P');
        assert_eq!(g(25).digit_symbol(26), '?');
        assert_eq!(g(25).digit_symbol(255), '?');
        assert_eq!(g(4).symbol_digit('5'), None);
        assert_eq!(g(9).symbol_digit('A'), None);
        assert_eq!(g(16).symbol_digit('g'), Some(16));
        assert_eq!(g(16).symbol_digit('H'), None);
        assert_eq!(g(25).symbol_digit('Q'), None);
        assert_eq!(g(25).symbol_digit('0'), None);
        assert_eq!(g(25).symbol_digit('é'), None);
    }

    #[test]
    fn empty_cells() {
        for geo in Geometry::all() {
            assert_eq!(geo.classify_symbol('.'), Symbol::Empty);
            assert_eq!(geo.classify_symbol('_'), Symbol::Empty);
            assert_eq!(geo.classify_symbol('x'), Symbol::Invalid);
        }
        assert_eq!(g(4).classify_symbol('0'), Symbol::Empty);
        assert_eq!(g(9).classify_symbol('0'), Symbol::Empty);
        assert_eq!(g(16).classify_symbol('0'), Symbol::Invalid);
        assert_eq!(g(25).classify_symbol('0'), Symbol::Invalid);
    }

    #[test]
    fn help_text() {
        assert_eq!(
            g(4).symbols_help(),
            "4x4 digits are 1-4 and empty cells are '.', '_' or '0'"
        );
        assert_eq!(
            g(9).symbols_help(),
            "9x9 digits are 1-9 and empty cells are '.', '_' or '0'"
        );
        assert_eq!(
            g(16).symbols_help(),
            "16x16 digits are 1-9 and A-G and empty cells are '.' or '_'"
        );
        assert_eq!(
            g(25).symbols_help(),
            "25x25 digits are 1-9 and A-P and empty cells are '.' or '_'"
        );
    }
}
