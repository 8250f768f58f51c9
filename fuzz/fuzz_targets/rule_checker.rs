//! Arbitrary bytes as a rule file (rule files are UTF-8 text, so other
//! inputs are skipped): parse and check it added to the standard library,
//! alone, and as an ad-hoc query body; compile what checks; render every
//! diagnostic and the rule listing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use sudolog::engine::Engine;
use sudolog::lang::check::check_query;
use sudolog::lang::diag::Diagnostics;
use sudolog::lang::library::{RuleSources, RulesError};
use sudolog::lang::program::Program;
use sudolog::report;

fn render(d: &Diagnostics) {
    let _ = d.short();
    let _ = d.render();
    let _ = d.to_string();
}

/// Loads a rule set and does what `sudolog check` does with it.
fn load_and_check(sources: &RuleSources) {
    match sources.load() {
        Err(RulesError::Invalid(d)) => render(&d),
        Err(e) => {
            let _ = e.to_string();
        }
        Ok(program) => {
            let _ = report::rule_listing(&program);
            let mut capped = program.clone();
            // What `sudolog solve` does by default.
            capped.restrict_tier(sudolog::DEFAULT_MAX_TIER);
            let _ = report::rule_listing(&capped);
            for p in [program, capped] {
                if let Err(d) = Engine::new(p) {
                    render(&d);
                }
            }
        }
    }
}

fn standard() -> &'static Program {
    static P: OnceLock<Program> = OnceLock::new();
    P.get_or_init(|| RuleSources::standard().load().expect("standard rules load"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    let mut with_standard = RuleSources::standard();
    with_standard.add_text("fuzz/fuzz.dl", text);
    load_and_check(&with_standard);

    let mut alone = RuleSources::default();
    alone.add_text("fuzz/fuzz.dl", text);
    load_and_check(&alone);

    if let Err(d) = check_query(standard(), text) {
        render(&d);
    }
});
