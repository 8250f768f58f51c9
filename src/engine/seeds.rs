//! The groups of a count over a numbered static seed, in row order: a
//! stored relation, or a product of independent parts that is never
//! stored (see [`super::ir::ProductDef`]).

use super::tuple::{EMPTY, Tuple, set_slot, slot};
use crate::lang::program::Value;
use datafrog::Relation;
use std::sync::Arc;

/// A seed kept as the product of its parts.
#[derive(Clone)]
pub struct ProductSeed {
    /// The parts, the last varying fastest.
    pub parts: Vec<SeedPart>,
    /// The number of groups: the product of the parts' sizes.
    pub len: usize,
    /// The seed's key columns (its row number follows them).
    pub key_len: usize,
    /// Every group's seed tuple, when there are at most [`DECODED_MAX`]:
    /// a reached group's key is then a lookup, not a decoding (the singles'
    /// seeds are products too, and their groups are reached in every
    /// branch: decoding each cost the default solve 10% more instructions).
    decoded: Option<Vec<Tuple>>,
}

/// The most groups of a product seed kept decoded (512 KiB of tuples: the
/// singles' seeds up to 16x16).
const DECODED_MAX: usize = 1 << 14;

/// One part of a product seed.
#[derive(Clone)]
pub struct SeedPart {
    /// The part's tuples (its key columns, then its row number: its index
    /// times `stride`).
    pub tuples: Arc<Relation<Tuple>>,
    /// Groups per step of this part's index: the product of the sizes of
    /// the parts after it.
    pub stride: usize,
    /// For each key column of the part: its position in the seed's key.
    pub key_pos: Vec<usize>,
}

impl ProductSeed {
    /// The product of `parts` (given with their tuples numbered 0, 1, ...
    /// in their row column); renumbers each part's rows with its stride.
    /// `None` if it would have more than `max` groups.
    pub fn new(
        parts: Vec<(Arc<Relation<Tuple>>, Vec<usize>)>,
        key_len: usize,
        max: usize,
    ) -> Option<ProductSeed> {
        let mut len = 1usize;
        for (tuples, _) in &parts {
            len = len.checked_mul(tuples.len()).filter(|&l| l <= max)?;
        }
        let mut stride = len;
        let mut out = Vec::with_capacity(parts.len());
        for (tuples, key_pos) in parts {
            stride /= tuples.len().max(1);
            let row_slot = key_pos.len();
            let renumbered: Vec<Tuple> = tuples
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let mut t = *t;
                    set_slot(&mut t, row_slot, (i * stride) as Value);
                    t
                })
                .collect();
            out.push(SeedPart {
                // Sorted still: the row column grows with the tuples' order.
                tuples: Arc::new(Relation::from_vec(renumbered)),
                stride,
                key_pos,
            });
        }
        let mut seed = ProductSeed {
            parts: out,
            len,
            key_len,
            decoded: None,
        };
        if len <= DECODED_MAX {
            seed.decoded = Some((0..len).filter_map(|row| seed.decode(row)).collect());
        }
        Some(seed)
    }

    /// The seed tuple of group `row`: its key, then `row`.
    pub fn get(&self, row: usize) -> Option<Tuple> {
        match &self.decoded {
            Some(rows) => rows.get(row).copied(),
            None => self.decode(row),
        }
    }

    fn decode(&self, row: usize) -> Option<Tuple> {
        if row >= self.len {
            return None;
        }
        let mut t = EMPTY;
        let mut rest = row;
        for p in &self.parts {
            let part = p.tuples.get(rest / p.stride.max(1))?;
            rest %= p.stride.max(1);
            for (j, &k) in p.key_pos.iter().enumerate() {
                set_slot(&mut t, k, slot(part, j));
            }
        }
        set_slot(&mut t, self.key_len, row as Value);
        Some(t)
    }
}

/// The groups of a count over a numbered static seed.
#[derive(Clone, Copy)]
pub enum SeedRows<'a> {
    /// A stored seed: group `r` is its `r`th tuple.
    Stored(&'a Relation<Tuple>),
    /// A product seed.
    Product(&'a ProductSeed),
}

impl<'a> SeedRows<'a> {
    /// The number of groups.
    pub fn len(self) -> usize {
        match self {
            SeedRows::Stored(r) => r.len(),
            SeedRows::Product(p) => p.len,
        }
    }

    /// Whether there are no groups.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Group `row`'s seed tuple (its key, then its row number).
    pub fn get(self, row: usize) -> Option<Tuple> {
        match self {
            SeedRows::Stored(r) => r.get(row).copied(),
            SeedRows::Product(p) => p.get(row),
        }
    }

    /// Every group's seed tuple, in row order.
    pub fn iter(self) -> impl Iterator<Item = Tuple> + 'a {
        (0..self.len()).filter_map(move |row| self.get(row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(keys: &[Value]) -> Arc<Relation<Tuple>> {
        let tuples = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| ([k, i as Value, 0, 0], [0; 4]))
            .collect();
        Arc::new(Relation::from_vec(tuples))
    }

    #[test]
    fn rows_run_through_the_product_last_part_fastest() {
        // Key (a, b) with a from the second part, b from the first.
        let seed = ProductSeed::new(
            vec![(part(&[10, 20, 30]), vec![1]), (part(&[1, 2]), vec![0])],
            2,
            100,
        )
        .expect("within the bound");
        assert_eq!(seed.len, 6);
        let rows = SeedRows::Product(&seed);
        let keys: Vec<(Value, Value, Value)> =
            rows.iter().map(|t| (t.0[0], t.0[1], t.0[2])).collect();
        assert_eq!(
            keys,
            [
                (1, 10, 0),
                (2, 10, 1),
                (1, 20, 2),
                (2, 20, 3),
                (1, 30, 4),
                (2, 30, 5)
            ]
        );
        // Each part's row column is its index times its stride, so the
        // rows of one group's parts add up to the group's row.
        let strided: Vec<Value> = seed.parts[0].tuples.iter().map(|t| t.0[1]).collect();
        assert_eq!(strided, [0, 2, 4]);
        assert_eq!(rows.get(6), None);
        assert!(ProductSeed::new(vec![(part(&[1, 2, 3]), vec![0]); 2], 2, 8).is_none());
    }
}
