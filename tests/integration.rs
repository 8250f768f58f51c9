//! The integration tests: one test crate (as ripgrep's), a module per
//! area, so the shared plumbing of `common` compiles once and the suite
//! links one binary instead of one per area. Each module's own doc says
//! what it covers; `cargo test --test integration NAME` runs a module's
//! tests (`cli::`, `inspect::`, ...).

mod common;

mod aligned_pairs;
mod bad_input;
mod bug;
mod cli;
mod clue_variants;
mod differential;
mod engine_semantics;
mod forcing;
mod franken_fish;
mod generate;
mod grade;
mod hint;
mod inspect;
mod jigsaw;
mod layers;
mod library;
mod limits;
mod medusa;
mod nothing_lost;
mod path;
mod pencil_marks;
mod pictures;
mod properties;
mod rating;
mod reglib;
mod rule_errors;
mod search;
mod shortest_chains;
mod single_digit;
mod soundness;
mod techniques;
mod templates;
mod turbot_fish;
mod uniqueness;
mod variants;
mod verify_rules;
mod vwxyz_wing;
mod wings;
mod wxyz_wing;
