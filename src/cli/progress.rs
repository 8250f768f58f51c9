//! The progress line of long batch runs: a count of finished puzzles and
//! the rate, on stderr. It shows only when stderr is a terminal and the
//! results go elsewhere (a file or a pipe), so it never mixes with the
//! results on screen nor ends up in a log.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Starts the progress line, counting `what` ("puzzles"), hidden unless it
/// can help (see the module).
pub fn start(wanted: bool, what: &str) -> ProgressBar {
    if !wanted || std::io::stdout().is_terminal() || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(&format!(
        "{{spinner}} {{human_pos}} {what}  {{per_sec}}  {{elapsed}}"
    )) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
