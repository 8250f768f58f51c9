//! Ctrl-C during a batch: the first one stops handing out new puzzles, so
//! the run writes every result it finished, in order, flushes and exits
//! with [`EXIT_INTERRUPTED`]; a second one exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

/// Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: i32 = 130;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Starts watching for Ctrl-C (once per process; later calls do nothing).
pub fn watch() {
    // Without a handler (none can be installed) Ctrl-C simply ends the
    // process as it would anyway.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED);
        }
    });
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
