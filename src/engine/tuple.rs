//! The one fixed-width row type every datafrog relation of the engine holds.
//!
//! A tuple is a pair of halves so that it doubles as a `(key, value)` pair
//! for datafrog's joins: join keys live in the first half, the other values
//! in the second. A relation stored "flat" simply uses the slots in order.

use crate::lang::program::Value;

/// Slots in one half of a tuple.
pub const HALF: usize = 4;
/// Slots in a tuple.
pub const SLOTS: usize = 2 * HALF;

// The checker lets relations have as many columns as a tuple holds.
const _: () = assert!(SLOTS == crate::lang::program::MAX_COLUMNS);
/// Slots in an operator's frame: a tuple plus the half the other side adds.
pub const FRAME: usize = SLOTS + HALF;

/// One half of a tuple.
pub type Half = [Value; HALF];
/// A row: eight values, used as `(key, value)` by joins.
pub type Tuple = (Half, Half);

/// A tuple as a hash key. Hashing it as four machine words is much
/// cheaper than the derived hash of two nested arrays (two length prefixes
/// and two byte-string hashes), and every fact of the engine is hashed at
/// least once on arrival (11% of all instructions on 17-clue puzzles).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key(pub Tuple);

impl std::hash::Hash for Key {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let word = |a: Value, b: Value| (a as u32 as u64) | ((b as u32 as u64) << 32);
        let (k, v) = &self.0;
        state.write_u64(word(k[0], k[1]));
        state.write_u64(word(k[2], k[3]));
        state.write_u64(word(v[0], v[1]));
        state.write_u64(word(v[2], v[3]));
    }
}

/// The all-zero tuple (also the one row of the "true" relation).
pub const EMPTY: Tuple = ([0; HALF], [0; HALF]);

/// Slot `i` of a tuple.
#[inline]
pub fn slot(t: &Tuple, i: usize) -> Value {
    if i < HALF { t.0[i] } else { t.1[i - HALF] }
}

/// Sets slot `i` of a tuple.
#[inline]
pub fn set_slot(t: &mut Tuple, i: usize, v: Value) {
    if i < HALF {
        t.0[i] = v
    } else {
        t.1[i - HALF] = v
    }
}

/// A flat tuple from values (at most [`SLOTS`]).
pub fn flat(values: &[Value]) -> Tuple {
    let mut t = EMPTY;
    for (i, v) in values.iter().enumerate().take(SLOTS) {
        set_slot(&mut t, i, *v);
    }
    t
}

/// The first `n` slots of a flat tuple.
pub fn values(t: &Tuple, n: usize) -> Vec<Value> {
    slots(t, n).collect()
}

/// The first `n` slots of a flat tuple, one by one (to collect where a
/// `Vec` of their own would cost an allocation).
pub fn slots(t: &Tuple, n: usize) -> impl Iterator<Item = Value> + '_ {
    (0..n).map(move |i| slot(t, i))
}

/// An operator's view of the values it can read: a left tuple and a half
/// contributed by the right side (a join's right value or a proposed
/// extension), addressed as slots `0..FRAME`, and a half of zeros after
/// them (see [`Frame::ZERO`]).
///
/// Four halves, so that a slot is found with a shift and a mask, without a
/// division or a bounds check: every check and emit of every candidate
/// binding reads slots. (Copying the values into one array instead made
/// fewer instructions but a slower solve.)
#[derive(Clone, Copy)]
pub struct Frame<'a> {
    halves: [&'a Half; 4],
}

/// The half of zeros past a frame's values.
static ZEROS: Half = [0; HALF];

impl<'a> Frame<'a> {
    /// A slot past the values, always 0 (what an emit's constant or unused
    /// slot reads before it is filled in).
    pub const ZERO: usize = FRAME;

    /// A frame over a left tuple and a right half.
    #[inline]
    pub fn new(left: &'a Tuple, right: &'a Half) -> Frame<'a> {
        Frame {
            halves: [&left.0, &left.1, right, &ZEROS],
        }
    }

    /// Slot `i` of the frame.
    #[inline]
    pub fn get(&self, i: usize) -> Value {
        self.halves[(i / HALF) & 3][i % HALF]
    }
}

/// Sorts tuples into their derived order (what datafrog's joins and
/// merges expect), as numbers where it can: a round's new facts are sorted
/// into a batch in every round, and comparing 32-byte tuples slot by slot
/// was a tenth of a solve.
///
/// When every slot lies in `0..65536` (cells, digits, units and small sets
/// do), each tuple is packed into one number of 16 bits per slot, the
/// first slot highest, which orders the numbers as the tuples: a `u64`
/// when the second half is 0 throughout (a relation of at most four
/// columns), else a `u128`.
pub fn sort_tuples(tuples: &mut [Tuple]) {
    if tuples.len() < 2 {
        return;
    }
    let (mut first, mut second) = (0u32, 0u32);
    for (k, v) in tuples.iter() {
        first |= k.iter().fold(0, |a, &x| a | x as u32);
        second |= v.iter().fold(0, |a, &x| a | x as u32);
    }
    // Negative slots have their top bit set, and never pack.
    if (first | second) >> 16 != 0 {
        tuples.sort_unstable();
        return;
    }
    let pack = |h: &Half| h.iter().fold(0u64, |a, &x| (a << 16) | u64::from(x as u32));
    let unpack = |mut p: u64| {
        let mut h = [0; HALF];
        for x in h.iter_mut().rev() {
            *x = (p & 0xffff) as Value;
            p >>= 16;
        }
        h
    };
    if second == 0 {
        let mut keys: Vec<u64> = tuples.iter().map(|t| pack(&t.0)).collect();
        keys.sort_unstable();
        for (t, k) in tuples.iter_mut().zip(keys) {
            t.0 = unpack(k);
        }
    } else {
        let mut keys: Vec<u128> = tuples
            .iter()
            .map(|t| (u128::from(pack(&t.0)) << 64) | u128::from(pack(&t.1)))
            .collect();
        keys.sort_unstable();
        for (t, k) in tuples.iter_mut().zip(keys) {
            *t = (unpack((k >> 64) as u64), unpack(k as u64));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Slot values that hit every path of `sort_tuples`: small ones (both
    /// packings), past 16 bits, and negative.
    fn value() -> impl Strategy<Value = Value> {
        prop_oneof![0..10i32, 0..70_000i32, -5..5i32]
    }

    proptest! {
        #[test]
        fn sort_tuples_orders_as_the_derived_order(
            rows in prop::collection::vec(prop::collection::vec(value(), SLOTS), 0..40),
            flat_only in any::<bool>(),
        ) {
            let mut tuples: Vec<Tuple> = rows
                .iter()
                .map(|r| flat(if flat_only { &r[..HALF] } else { r }))
                .collect();
            let mut expected = tuples.clone();
            expected.sort_unstable();
            sort_tuples(&mut tuples);
            prop_assert_eq!(tuples, expected);
        }
    }
}
