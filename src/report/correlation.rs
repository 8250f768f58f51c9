//! Rank correlation (Spearman's rho), for comparing sudolog's ratings with
//! another rater's over the same puzzles (`grade --compare`).

/// The ranks of `values` from 1, ties sharing the mean of their ranks (a
/// rating scale has few values, so ties are the rule).
pub fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut out = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Ranks start..end (from 0) share their mean, plus one.
        let mean = (start + end - 1) as f64 / 2.0 + 1.0;
        for &i in &order[start..end] {
            out[i] = mean;
        }
        start = end;
    }
    out
}

/// Spearman's rank correlation of two equally long samples: the Pearson
/// correlation of their ranks. `None` when it is undefined (fewer than
/// two values, or one sample constant).
pub fn spearman(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() != b.len() || a.len() < 2 {
        return None;
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        cov += (x - ma) * (y - mb);
        va += (x - ma) * (x - ma);
        vb += (y - mb) * (y - mb);
    }
    (va > 0.0 && vb > 0.0).then(|| cov / (va * vb).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_the_mean_of_their_ranks() {
        assert_eq!(ranks(&[3.0, 1.0, 3.0, 2.0]), [3.5, 1.0, 3.5, 2.0]);
    }

    #[test]
    fn the_same_order_correlates_fully_and_the_reverse_negatively() {
        let a = [1.2, 2.3, 4.5, 7.1, 7.2];
        assert_eq!(spearman(&a, &[1.0, 2.0, 3.0, 4.0, 5.0]), Some(1.0));
        assert_eq!(spearman(&a, &[5.0, 4.0, 3.0, 2.0, 1.0]), Some(-1.0));
        assert_eq!(spearman(&a, &[2.0; 5]), None);
    }

    #[test]
    fn a_known_value_with_ties() {
        // Ranks (1, 2.5, 2.5, 4) against (1, 3, 2, 4): rho = 0.9487 (the
        // Pearson correlation of the ranks, worked by hand).
        let rho = spearman(&[1.0, 2.0, 2.0, 3.0], &[1.0, 3.0, 2.0, 4.0]).unwrap();
        assert!((rho - 0.948_683).abs() < 1e-5, "{rho}");
    }
}
