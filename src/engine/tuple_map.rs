//! A forking map keyed by tuples, with each tuple's key as small as the
//! tuple allows.
//!
//! Every fact of a solve is looked up in its variable's map on arrival
//! (the deduplication) and again by the checks that ask whether it is
//! known, and those lookups are mostly cache misses: their cost follows
//! the size of an entry. A tuple of at most four columns whose values are
//! small non-negative numbers (cells, digits, units, the sets of 9x9),
//! which most facts are, packs into one 64-bit word, and its entry takes
//! 16 bytes instead of 40; any other tuple keeps its whole 32 bytes. A
//! tuple always packs the same way, so each lives in exactly one of the
//! two maps. The memo's tables (`engine/memo`) are such maps too, for
//! the same reason.

use super::layered::{LayerValue, LayeredMap};
use super::tuple::{HALF, Half, Key, Tuple};
use crate::lang::program::Value;
use itertools::Either;

/// Bits per slot of a tuple packed into one word ([`pack`]).
const WORD_SLOT_BITS: u32 = 16;

/// The tuple as one 64-bit word, for a compact hash key: its first half,
/// 16 bits a slot, if the second half is zero and each slot lies in
/// `0..65536` (most facts: at most four columns of cells, digits, units
/// or 9x9 sets). Distinct tuples that pack give distinct words.
#[inline]
fn pack(t: &Tuple) -> Option<u64> {
    if t.1 != [0; HALF] {
        return None;
    }
    let mut word = 0u64;
    for (i, &v) in t.0.iter().enumerate() {
        let v = u16::try_from(v).ok()?;
        word |= u64::from(v) << (WORD_SLOT_BITS * i as u32);
    }
    Some(word)
}

/// The tuple a word of [`pack`] holds.
fn unpack(word: u64) -> Tuple {
    let mut first: Half = [0; HALF];
    for (i, v) in first.iter_mut().enumerate() {
        *v = ((word >> (WORD_SLOT_BITS * i as u32)) & 0xffff) as Value;
    }
    (first, [0; HALF])
}

/// A map from tuples to `V` whose forks share the entries it had (see
/// [`LayeredMap`]).
pub struct TupleMap<V> {
    packed: LayeredMap<u64, V>,
    wide: LayeredMap<Key, V>,
}

impl<V> Default for TupleMap<V> {
    fn default() -> Self {
        TupleMap {
            packed: LayeredMap::default(),
            wide: LayeredMap::default(),
        }
    }
}

impl<V: LayerValue> TupleMap<V> {
    /// The value of `t`, from whichever layer holds it.
    #[inline]
    pub fn get(&self, t: &Tuple) -> Option<&V> {
        match pack(t) {
            Some(word) => self.packed.get(&word),
            None => self.wide.get(&Key(*t)),
        }
    }

    /// Inserts `t` with `value` unless it is present; returns whether it
    /// was new.
    #[inline]
    pub fn insert_new(&mut self, t: &Tuple, value: V) -> bool {
        match pack(t) {
            Some(word) => self.packed.insert_new(word, value),
            None => self.wide.insert_new(Key(*t), value),
        }
    }

    /// The value of `t` in the own layer, made with `V::default()` if
    /// absent there (see [`LayeredMap::own_entry`]).
    pub fn own_entry(&mut self, t: &Tuple) -> &mut V
    where
        V: Default,
    {
        match pack(t) {
            Some(word) => self.packed.own_entry(word),
            None => self.wide.own_entry(Key(*t)),
        }
    }

    /// Every layer's value of `t`, oldest first (see
    /// [`LayeredMap::get_all`]).
    pub fn get_all(&self, t: &Tuple) -> impl Iterator<Item = &V> {
        match pack(t) {
            Some(word) => Either::Left(self.packed.get_all(word)),
            None => Either::Right(self.wide.get_all(Key(*t))),
        }
    }

    /// Makes room for `additional` new entries of tuples like `sample`.
    pub fn reserve(&mut self, additional: usize, sample: &Tuple) {
        match pack(sample) {
            Some(_) => self.packed.reserve(additional),
            None => self.wide.reserve(additional),
        }
    }

    /// The number of entries (see [`LayeredMap::len`]).
    pub fn len(&self) -> usize {
        self.packed.len() + self.wide.len()
    }

    /// Every entry, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (Tuple, &V)> {
        let packed = self.packed.iter().map(|(&word, v)| (unpack(word), v));
        packed.chain(self.wide.iter().map(|(k, v)| (k.0, v)))
    }

    /// Forgets every entry (see [`LayeredMap::clear`]).
    pub fn clear(&mut self) {
        self.packed.clear();
        self.wide.clear();
    }

    /// A map that starts with every entry of this one (see
    /// [`LayeredMap::fork`]).
    pub fn fork(&mut self) -> Self {
        TupleMap {
            packed: self.packed.fork(),
            wide: self.wide.fork(),
        }
    }

    /// Freezes the entries so far, so that forks share them (see
    /// [`LayeredMap::freeze`]).
    pub fn freeze(&mut self) {
        self.packed.freeze();
        self.wide.freeze();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tuple::flat;

    #[test]
    fn small_tuples_pack_and_come_back_whole() {
        for values in [&[0][..], &[1, 2, 3, 4], &[65_535, 0, 7], &[]] {
            let t = flat(values);
            let word = pack(&t).expect("small and narrow");
            assert_eq!(unpack(word), t);
        }
        for values in [&[-1][..], &[65_536], &[1, 2, 3, 4, 5]] {
            assert_eq!(pack(&flat(values)), None, "{values:?}");
        }
    }

    #[test]
    fn packed_and_wide_tuples_are_each_found_once() {
        let mut map: TupleMap<u32> = TupleMap::default();
        let tuples = [
            flat(&[1, 2]),
            flat(&[1, 2, 0, 0, 9]),
            flat(&[-3]),
            flat(&[70_000, 1]),
        ];
        for (i, t) in tuples.iter().enumerate() {
            assert!(map.insert_new(t, i as u32));
            assert!(!map.insert_new(t, 99), "a second time is not new");
        }
        let mut fork = map.fork();
        assert!(fork.insert_new(&flat(&[5]), 4));
        for (i, t) in tuples.iter().enumerate() {
            assert_eq!(fork.get(t), Some(&(i as u32)));
        }
        assert_eq!((map.len(), fork.len()), (4, 5));
        assert_eq!(map.get(&flat(&[5])), None, "the parent never sees it");
        let mut all: Vec<Tuple> = fork.iter().map(|(t, _)| t).collect();
        all.sort_unstable();
        let mut expected = tuples.to_vec();
        expected.push(flat(&[5]));
        expected.sort_unstable();
        assert_eq!(all, expected);
    }
}
