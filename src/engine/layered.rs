//! A hash map that forks in constant time: a fork shares everything its
//! parent knew and keeps only what it learns itself.
//!
//! Facts only grow, so a store stalled on a guess never changes the facts
//! it has while its branches run: they can read them in place instead of
//! copying them. The map is a stack of frozen layers (shared, behind
//! `Arc`) under one layer of its own. Forking freezes the own layer and
//! hands the child the same frozen layers; a deep search then holds one
//! copy of the root's facts and, per level, only what that level derived.
//!
//! A lookup that misses walks every layer, so the stack stays short: past
//! [`MAX_FROZEN`] layers a fork first folds the newest into one (a copy,
//! as every fork was before layers, but once per several levels, and of
//! an old large layer only once the newer ones have grown as large).
//! Forcing forks one stalled state many times over: it freezes the state
//! first ([`LayeredMap::freeze`]), so that even small layers are shared
//! rather than copied per fork.

use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;
use std::hash::Hash;
use std::sync::Arc;

/// The most frozen layers a map keeps before a fork folds them into one.
/// Four keeps a miss to at most five probes while a search of depth 8
/// copies its facts twice rather than eight times.
const MAX_FROZEN: usize = 4;

/// Below this many entries of its own, a map's fork copies them rather
/// than freezing them: a copy that small costs less than the extra probe
/// every later miss would make in one more layer (on 9x9 puzzles with the
/// default tiers, no map grows that large, and search is as fast as with
/// plain copies).
const COPY_BELOW: usize = 2048;

/// A hash map from `K` to `V` whose forks share the entries it had.
pub struct LayeredMap<K, V> {
    /// Entries known when this map (or an ancestor) forked, oldest first.
    frozen: Vec<Arc<FxHashMap<K, V>>>,
    /// Entries added since the last fork.
    own: FxHashMap<K, V>,
    /// Entries in all layers (a key is in at most one layer).
    len: usize,
}

impl<K, V> Default for LayeredMap<K, V> {
    fn default() -> Self {
        LayeredMap {
            frozen: Vec::new(),
            own: FxHashMap::default(),
            len: 0,
        }
    }
}

/// A value that may be held in several layers for one key (see
/// [`LayeredMap::own_entry`]), and how two such values fold into one.
pub trait LayerValue: Clone {
    /// Takes in the value a newer layer holds for the same key.
    fn absorb(&mut self, newer: &Self);
}

/// A first arrival: a key is in one layer only, and the older value
/// stands.
impl LayerValue for u32 {
    fn absorb(&mut self, _newer: &Self) {}
}

impl<T: Clone> LayerValue for Vec<T> {
    fn absorb(&mut self, newer: &Self) {
        self.extend_from_slice(newer);
    }
}

impl<K: Hash + Eq + Clone, V: LayerValue> LayeredMap<K, V> {
    /// The value of `key`, from whichever layer holds it.
    #[inline]
    pub fn get(&self, key: &K) -> Option<&V> {
        if let Some(v) = self.own.get(key) {
            return Some(v);
        }
        self.frozen.iter().rev().find_map(|layer| layer.get(key))
    }

    /// Inserts `key` with `value` unless it is present in some layer;
    /// returns whether it was new.
    #[inline]
    pub fn insert_new(&mut self, key: K, value: V) -> bool {
        if self.frozen.iter().any(|layer| layer.contains_key(&key)) {
            return false;
        }
        match self.own.entry(key) {
            Entry::Vacant(e) => {
                e.insert(value);
                self.len += 1;
                true
            }
            Entry::Occupied(_) => false,
        }
    }

    /// The value of `key` in the own layer, made with `V::default()` if
    /// absent there (whatever the frozen layers hold for it): for values
    /// that accumulate per layer, read back with [`LayeredMap::get_all`].
    pub fn own_entry(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        match self.own.entry(key) {
            Entry::Vacant(e) => {
                self.len += 1;
                e.insert(V::default())
            }
            Entry::Occupied(e) => e.into_mut(),
        }
    }

    /// Every layer's value of `key`, oldest first (for values that
    /// accumulate per layer, see [`LayeredMap::own_entry`]).
    pub fn get_all(&self, key: K) -> impl Iterator<Item = &V> {
        let own = self.own.get(&key);
        self.frozen
            .iter()
            .filter_map(move |layer| layer.get(&key))
            .chain(own)
    }

    /// Makes room for `additional` new entries in the own layer.
    pub fn reserve(&mut self, additional: usize) {
        self.own.reserve(additional);
    }

    /// The number of entries (of [`LayeredMap::own_entry`] maps: of
    /// key-layer pairs).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Forgets every entry (the layers this map shares are dropped, not
    /// changed).
    pub fn clear(&mut self) {
        self.frozen.clear();
        self.own.clear();
        self.len = 0;
    }

    /// Every entry, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.frozen
            .iter()
            .flat_map(|layer| layer.iter())
            .chain(self.own.iter())
    }

    /// A map that starts with every entry of this one and evolves
    /// independently. Freezes this map's own layer, so both go on from
    /// the same shared layers.
    pub fn fork(&mut self) -> Self {
        if self.own.len() < COPY_BELOW {
            return LayeredMap {
                frozen: self.frozen.clone(),
                own: self.own.clone(),
                len: self.len,
            };
        }
        if !self.own.is_empty() {
            let own = std::mem::take(&mut self.own);
            self.frozen.push(Arc::new(own));
        }
        if self.frozen.len() > MAX_FROZEN {
            self.fold();
        }
        LayeredMap {
            frozen: self.frozen.clone(),
            own: FxHashMap::default(),
            len: self.len,
        }
    }

    /// Freezes the own layer however small, so that the forks that
    /// follow share it instead of copying it: for a state forked many
    /// times over (forcing's hypotheses), where one freeze replaces a
    /// copy per fork.
    pub fn freeze(&mut self) {
        if !self.own.is_empty() {
            let own = std::mem::take(&mut self.own);
            self.frozen.push(Arc::new(own));
        }
        if self.frozen.len() > MAX_FROZEN {
            self.fold();
        }
    }

    /// Folds the newest frozen layers into one: at least two, and on down
    /// while the next older layer is no more than twice what is folded
    /// so far, so that a large old layer (the root's facts) is copied
    /// only once the layers above it have grown as large. A key held in
    /// several layers (see [`LayeredMap::own_entry`]) gets their values
    /// absorbed in order.
    fn fold(&mut self) {
        let Some(mut from) = self.frozen.len().checked_sub(2) else {
            return;
        };
        let mut total = self.frozen[from].len() + self.frozen[from + 1].len();
        while from > 0 && self.frozen[from - 1].len() <= 2 * total {
            from -= 1;
            total += self.frozen[from].len();
        }
        let mut all: FxHashMap<K, V> = FxHashMap::default();
        all.reserve(total);
        let before: usize = self.frozen[from..].iter().map(|l| l.len()).sum();
        for layer in self.frozen.drain(from..) {
            for (k, v) in layer.iter() {
                match all.entry(k.clone()) {
                    Entry::Vacant(e) => {
                        e.insert(v.clone());
                    }
                    Entry::Occupied(mut e) => e.get_mut().absorb(v),
                }
            }
        }
        self.len = self.len + all.len() - before;
        self.frozen.push(Arc::new(all));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map with `n` entries `i -> vec![i]`, from `from`.
    fn filled(from: u32, n: u32) -> LayeredMap<u32, Vec<u32>> {
        let mut m = LayeredMap::default();
        for i in from..from + n {
            assert!(m.insert_new(i, vec![i]));
        }
        m
    }

    #[test]
    fn a_fork_sees_its_parents_entries_and_neither_sees_the_others_later_ones() {
        let big = COPY_BELOW as u32;
        let mut parent = filled(0, big);
        let mut child = parent.fork();
        assert_eq!(
            parent.frozen.len(),
            1,
            "a large own layer is frozen, not copied"
        );
        assert!(child.get(&5).is_some());
        assert!(!child.insert_new(5, vec![0]), "known in a frozen layer");
        assert!(child.insert_new(big + 1, vec![1]));
        assert!(parent.insert_new(big + 2, vec![2]));
        assert!(parent.get(&(big + 1)).is_none());
        assert!(child.get(&(big + 2)).is_none());
        assert_eq!(
            (parent.len(), child.len()),
            (big as usize + 1, big as usize + 1)
        );
        assert_eq!(child.iter().count(), big as usize + 1);
    }

    #[test]
    fn a_small_map_forks_by_copy() {
        let mut parent = filled(0, 10);
        let mut child = parent.fork();
        assert!(parent.frozen.is_empty() && child.frozen.is_empty());
        assert!(child.insert_new(10, vec![]));
        assert!(parent.get(&10).is_none());
    }

    #[test]
    fn values_accumulate_per_layer_and_folding_keeps_them_all() {
        let big = COPY_BELOW as u32;
        let mut m = filled(0, big);
        let mut layers = 0;
        // Each round adds a value to key 0 and enough entries to freeze.
        for round in 1..=(MAX_FROZEN as u32 + 2) {
            m.own_entry(0).push(100 + round);
            for i in 0..big {
                m.insert_new(round * 10 * big + i, vec![]);
            }
            let _ = m.fork();
            layers = layers.max(m.frozen.len());
        }
        assert!(layers <= MAX_FROZEN + 1);
        assert!(m.frozen.len() < MAX_FROZEN, "the layers were folded");
        let all: Vec<u32> = m.get_all(0).flatten().copied().collect();
        let expected: Vec<u32> = std::iter::once(0)
            .chain((1..=(MAX_FROZEN as u32 + 2)).map(|r| 100 + r))
            .collect();
        assert_eq!(all, expected);
    }

    #[test]
    fn freezing_shares_even_a_small_layer_and_folding_spares_a_large_old_one() {
        let mut m = filled(0, 10_000);
        m.freeze();
        let root = Arc::clone(&m.frozen[0]);
        for round in 1..=(3 * MAX_FROZEN as u32) {
            assert!(m.insert_new(100_000 + round, vec![round]));
            m.freeze();
            assert!(m.own.is_empty(), "a one-entry layer is frozen too");
            assert!(m.frozen.len() <= MAX_FROZEN);
            let child = m.fork();
            assert!(child.own.is_empty() && child.frozen.len() == m.frozen.len());
        }
        assert!(
            Arc::ptr_eq(&root, &m.frozen[0]),
            "the root's layer was never copied"
        );
        assert_eq!(m.len(), 10_000 + 3 * MAX_FROZEN);
        assert_eq!(m.iter().count(), m.len());
        assert_eq!(m.get(&100_001), Some(&vec![1]));
    }
}
