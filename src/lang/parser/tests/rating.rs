//! `.rating` lines: what they parse to, which rules they rate, and the
//! diagnostics of broken ones.

use super::*;

#[test]
fn a_group_of_rating_lines_rates_the_rules_below_it() {
    let module = parse(
        ".rating 1.2 when unit_kind(U, \"box\").\n\
         .rating 1.5\n\
         // Hidden single.\n\
         placed(C, D) :- in_unit(C, U), digit(D).\n\
         eliminated(C, D) :- placed(C, D).\n\
         .rating 6.6 + length\n\
         eliminated(C, D) :- given(C, D).\n",
    );
    let ratings: Vec<Vec<(u32, bool, usize)>> = module
        .rules
        .iter()
        .map(|r| {
            (r.rating.iter())
                .map(|l| (l.tenths, l.length_bonus, l.when.len()))
                .collect()
        })
        .collect();
    assert_eq!(
        ratings,
        [
            vec![(12, false, 1), (15, false, 0)],
            vec![(12, false, 1), (15, false, 0)],
            vec![(66, true, 0)],
        ]
    );
    // The comment below the group is still the rule's.
    assert_eq!(module.rules[0].doc, "Hidden single.");
}

#[test]
fn a_rating_may_be_whole_and_rules_above_any_rating_have_none() {
    let module = parse("given(r1c1, 1).\n.rating 7\nplaced(C, D) :- given(C, D).\n");
    assert!(module.rules[0].rating.is_empty());
    assert_eq!(module.rules[1].rating[0].tenths, 70);
}

#[test]
fn broken_rating_lines_are_located() {
    assert_error(
        ".rating x\np(1).\n",
        "expected a rating after `.rating`, found `x`",
        1,
        9,
    );
    assert_error(
        ".rating 4.25\np(1).\n",
        "a rating has one digit after the point",
        1,
        11,
    );
    assert_error(
        ".rating 2.3 + size\np(1).\n",
        "expected `length` after `+`, found `size`",
        1,
        15,
    );
    assert_error(".rating 101\np(1).\n", "a rating above 100.0", 1, 1);
    assert_error(
        "p(1).\n.rating 2.0\n",
        "a `.rating` with no rule below it",
        2,
        1,
    );
    let help = assert_error(
        ".rating 1.2\n.rating 1.5 when p(1).\n.rating 2.0\nq(2).\n",
        "this `.rating` always applies, so those below it never do",
        1,
        1,
    );
    assert!(help.contains("without `when` last"), "{help}");
    assert_error(
        ".rating 1.2 when p(1).\nq(2).\n",
        "the last `.rating` of a group has a `when`",
        1,
        1,
    );
}

#[test]
fn fractions_are_still_refused_everywhere_else() {
    assert_error("p(1.5).\n", "fractional numbers are not supported", 1, 3);
}
