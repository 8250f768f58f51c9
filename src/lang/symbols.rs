//! Interned symbols: every string value (unit names, unit kinds, reasons)
//! is a small integer inside the engine and a string in every output.

use super::value::Value;
use rustc_hash::FxHashMap;

/// The largest grid side; the built-in unit names are interned up to it so
/// that the table never changes after a program is checked.
pub const MAX_SIDE: usize = 25;

/// A string interner. Built-in unit names come first, so they have the same
/// ids in every program.
#[derive(Clone, Debug)]
pub struct Symbols {
    names: Vec<String>,
    ids: FxHashMap<String, Value>,
}

impl Default for Symbols {
    fn default() -> Self {
        Symbols::new()
    }
}

impl Symbols {
    /// A table holding the built-in names: `row`, `col`, `box`, and
    /// `row1`..`row25`, `col1`.., `box1`...
    pub fn new() -> Symbols {
        let mut s = Symbols {
            names: Vec::new(),
            ids: FxHashMap::default(),
        };
        for kind in ["row", "col", "box"] {
            s.intern(kind);
        }
        for kind in ["row", "col", "box"] {
            for i in 1..=MAX_SIDE {
                s.intern(&format!("{kind}{i}"));
            }
        }
        s
    }

    /// The id of `name`, adding it if new.
    pub fn intern(&mut self, name: &str) -> Value {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as Value;
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }

    /// The id of `name` if it is known.
    pub fn get(&self, name: &str) -> Option<Value> {
        self.ids.get(name).copied()
    }

    /// The string of an id (`?` for an id that was never interned).
    pub fn name(&self, id: Value) -> &str {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.names.get(i))
            .map_or("?", |s| s.as_str())
    }

    /// The id of the built-in unit of `kind` (`"row"`, `"col"`, `"box"`)
    /// with 1-based `index` (at most [`MAX_SIDE`]).
    pub fn unit(&self, kind: usize, index: usize) -> Value {
        (3 + kind * MAX_SIDE + (index - 1)) as Value
    }

    /// The id of a unit kind: 0 `row`, 1 `col`, 2 `box`.
    pub fn unit_kind(&self, kind: usize) -> Value {
        kind as Value
    }
}
