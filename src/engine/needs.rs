//! The array counters of a count over a numbered static seed: for each
//! group (by row), how many more body tuples it needs to reach its bound.
//!
//! Most bounds are small (the size of a digit set, a count of one), and a
//! threshold count only cares about the step from one to zero, so such
//! counters are kept in a byte each and stop at zero: the gate counts of
//! every tier have 3.8 million groups on 25x25, 15 MiB as `i32` per store
//! and as many again shared.

/// How many more body tuples each group needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Exact, for counts that compare with `=`, `<`, ... at the fixpoint.
    Wide(Vec<i32>),
    /// For threshold counts (`>=`, `>`) whose bounds all fit a byte.
    Narrow(Vec<i8>),
}

impl Needs {
    /// The counters of groups with these bounds (in row order); `len` is
    /// their number. A threshold count gets bytes if every bound fits.
    pub fn new(bounds: impl Iterator<Item = i64>, len: usize, threshold: bool) -> Needs {
        let wide = |b: i64| b.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        let mut narrow: Vec<i8> = Vec::with_capacity(if threshold { len } else { 0 });
        let mut bounds = bounds;
        if threshold {
            for b in bounds.by_ref() {
                match i8::try_from(b) {
                    Ok(b) => narrow.push(b),
                    Err(_) => {
                        // Too large for a byte: widen what is there.
                        let mut out: Vec<i32> = Vec::with_capacity(len);
                        out.extend(narrow.iter().map(|&b| i32::from(b)));
                        out.push(wide(b));
                        out.extend(bounds.map(wide));
                        return Needs::Wide(out);
                    }
                }
            }
            return Needs::Narrow(narrow);
        }
        let mut out = Vec::with_capacity(len);
        out.extend(bounds.map(wide));
        Needs::Wide(out)
    }

    /// What group `row` still needs (its bound minus its count, exactly
    /// for `Wide`).
    pub fn get(&self, row: usize) -> Option<i64> {
        match self {
            Needs::Wide(v) => v.get(row).map(|&l| i64::from(l)),
            Needs::Narrow(v) => v.get(row).map(|&l| i64::from(l)),
        }
    }

    /// The rows of the groups that need nothing more (reached before any
    /// body tuple).
    pub fn satisfied(&self) -> Vec<usize> {
        match self {
            Needs::Wide(v) => (0..v.len()).filter(|&r| v[r] <= 0).collect(),
            Needs::Narrow(v) => (0..v.len()).filter(|&r| v[r] <= 0).collect(),
        }
    }

    /// Counts one body tuple of each row in `rows` and calls `reached`
    /// with the position (in `rows`) of each row whose group a threshold
    /// count now reaches. A threshold count's group that needs nothing
    /// more is left alone: it was reached (or satisfied from the start)
    /// once, and only that step matters.
    #[inline]
    pub fn count_down(
        &mut self,
        rows: impl Iterator<Item = usize>,
        threshold: bool,
        mut reached: impl FnMut(usize),
    ) {
        fn each<T: Copy + PartialOrd + From<i8> + std::ops::SubAssign>(
            v: &mut [T],
            rows: impl Iterator<Item = usize>,
            threshold: bool,
            reached: &mut impl FnMut(usize),
        ) {
            let (zero, one) = (T::from(0), T::from(1));
            for (i, row) in rows.enumerate() {
                let Some(l) = v.get_mut(row) else { continue };
                if !threshold {
                    *l -= one;
                } else if *l > zero {
                    *l -= one;
                    if *l == zero {
                        reached(i);
                    }
                }
            }
        }
        match self {
            Needs::Wide(v) => each(v, rows, threshold, &mut reached),
            Needs::Narrow(v) => each(v, rows, true, &mut reached),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_threshold_bounds_take_a_byte_and_stop_at_zero() {
        let mut needs = Needs::new([2, 1, 0].into_iter(), 3, true);
        assert!(matches!(needs, Needs::Narrow(_)));
        assert_eq!(needs.satisfied(), [2]);
        let mut hits = Vec::new();
        // Row 1 reaches zero once; 300 more tuples never bring it back, and
        // row 2, satisfied from the start, is never reached again.
        let rows = [1, 0, 0, 2];
        needs.count_down(rows.into_iter(), true, |i| hits.push(rows[i]));
        needs.count_down(std::iter::repeat_n(1, 300), true, |_| hits.push(1));
        assert_eq!(hits, [1, 0]);
        assert_eq!((needs.get(1), needs.get(2)), (Some(0), Some(0)));
    }

    #[test]
    fn large_or_exact_bounds_stay_exact() {
        let needs = Needs::new([1, 200, 3].into_iter(), 3, true);
        assert_eq!(needs, Needs::Wide(vec![1, 200, 3]));
        let mut exact = Needs::new([1, 1].into_iter(), 2, false);
        exact.count_down([0, 0, 0].into_iter(), false, |_| {
            panic!("not a threshold count")
        });
        assert_eq!(exact.get(0), Some(-2));
    }
}
