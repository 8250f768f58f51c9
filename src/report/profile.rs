//! The `--profile` table: where a batch's time in the rules went, one line
//! per rule (and per count body), costliest first.

use crate::engine::profile::ProfileLine;
use std::fmt::Write as _;
use std::time::Duration;

/// In a table longer than [`SHORT_TABLE`] lines, lines below this share
/// of the total are summed into one line.
const SHOWN_SHARE: f64 = 0.002;

/// A table of at most this many lines is shown whole.
const SHORT_TABLE: usize = 30;

/// The longest rule text shown; longer ones end in `...`.
const TEXT_WIDTH: usize = 72;

/// The table of a profile, for a batch that ran on `jobs` threads.
pub fn render(lines: &[ProfileLine], jobs: usize) -> String {
    let total: Duration = lines.iter().map(|l| l.time).sum();
    let mut out = String::new();
    let threads = if jobs > 1 {
        format!(" (summed over {jobs} threads)")
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "profile: {:.3} s in the fixpoint's operators{threads}",
        total.as_secs_f64()
    );
    let _ = writeln!(
        out,
        "{:>6} {:>9} {:>9} {:>10} {:>4}  rule",
        "share", "time s", "runs", "new facts", "tier"
    );
    let share = |t: Duration| {
        if total.is_zero() {
            0.0
        } else {
            t.as_secs_f64() / total.as_secs_f64()
        }
    };
    let (shown, rest): (Vec<&ProfileLine>, Vec<&ProfileLine>) = lines
        .iter()
        .partition(|l| lines.len() <= SHORT_TABLE || share(l.time) >= SHOWN_SHARE);
    for l in shown {
        let _ = write!(
            out,
            "{:>5.1}% {:>9.3} {:>9} {:>10} {:>4}  {}",
            100.0 * share(l.time),
            l.time.as_secs_f64(),
            l.runs,
            l.new_facts,
            l.tier,
            l.what
        );
        if !l.rule_text.is_empty() {
            let _ = write!(out, "  {}", shorten(&l.rule_text));
        }
        out.push('\n');
    }
    if !rest.is_empty() {
        let time: Duration = rest.iter().map(|l| l.time).sum();
        let noun = if rest.len() == 1 { "line" } else { "lines" };
        let _ = writeln!(
            out,
            "{:>5.1}% {:>9.3} {:>9} {:>10} {:>4}  ({} more {noun}, each under {:.1}%)",
            100.0 * share(time),
            time.as_secs_f64(),
            rest.iter().map(|l| l.runs).sum::<u64>(),
            rest.iter().map(|l| l.new_facts).sum::<u64>(),
            "",
            rest.len(),
            100.0 * SHOWN_SHARE
        );
    }
    out
}

/// A rule's text cut to [`TEXT_WIDTH`] characters.
fn shorten(text: &str) -> String {
    if text.chars().count() <= TEXT_WIDTH {
        return text.to_string();
    }
    let cut: String = text.chars().take(TEXT_WIDTH - 3).collect();
    format!("{cut}...")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(what: &str, millis: u64, text: &str) -> ProfileLine {
        ProfileLine {
            what: what.to_string(),
            rule_text: text.to_string(),
            tier: 5,
            time: Duration::from_millis(millis),
            runs: 3,
            new_facts: 7,
        }
    }

    #[test]
    fn small_lines_are_summed_and_long_rules_cut() {
        let long = "x".repeat(100);
        let mut lines = vec![
            line("rules/a.dl:3", 900, "a(X) :- b(X)."),
            line("rules/b.dl:4", 99, &long),
            line("rules/c.dl:5", 1, "c(X) :- d(X)."),
        ];
        // A short table is shown whole.
        assert!(render(&lines, 1).contains("rules/c.dl:5"));
        lines.extend((0..SHORT_TABLE).map(|i| line(&format!("rules/d.dl:{i}"), 0, "")));
        let text = render(&lines, 2);
        assert!(
            text.starts_with(
                "profile: 1.000 s in the fixpoint's operators (summed over 2 threads)\n"
            )
        );
        assert!(
            text.contains(
                " 90.0%     0.900         3          7    5  rules/a.dl:3  a(X) :- b(X).\n"
            )
        );
        assert!(text.contains(&format!("rules/b.dl:4  {}...\n", "x".repeat(69))));
        assert!(!text.contains("rules/c.dl"));
        assert!(text.contains(&format!(
            "  0.1%     0.001        {}        {}       ({} more lines, each under 0.2%)\n",
            3 * (SHORT_TABLE + 1),
            7 * (SHORT_TABLE + 1),
            SHORT_TABLE + 1
        )));
    }
}
