//! The progress line of long batch runs: a count of finished puzzles and
//! the rate, on stderr. It shows only when stderr is a terminal and the
//! results go elsewhere (a file or a pipe), so it never mixes with the
//! results on screen nor ends up in a log. And the spinner of one long
//! solve (the inspection commands), which shows only once the solve has
//! taken long enough to make someone wonder.

use std::io::IsTerminal;
use std::sync::mpsc;
use std::thread;
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

/// How long a single solve runs before its spinner shows: shorter solves
/// (nearly all) print their result without any flicker.
const SPINNER_DELAY: Duration = Duration::from_millis(400);

/// A spinner for one solve that may run long: after [`SPINNER_DELAY`] it
/// shows `message` and the time spent, on a terminal's stderr (never under
/// `-q`, a pipe or a file), until the guard is dropped, which clears it.
pub struct Spinner {
    done: Option<mpsc::Sender<()>>,
    shower: Option<thread::JoinHandle<()>>,
}

impl Spinner {
    /// Starts the clock; the spinner shows if the solve outlasts it.
    pub fn after_delay(message: String) -> Spinner {
        if super::stderr::is_quiet() || !std::io::stderr().is_terminal() {
            return Spinner {
                done: None,
                shower: None,
            };
        }
        Spinner::drawn_on(SPINNER_DELAY, message, ProgressDrawTarget::stderr)
    }

    /// The spinner drawn on the target `target` makes, once `delay` has
    /// passed without the guard being dropped.
    fn drawn_on(
        delay: Duration,
        message: String,
        target: impl FnOnce() -> ProgressDrawTarget + Send + 'static,
    ) -> Spinner {
        let (done, wait) = mpsc::channel::<()>();
        let shower = thread::spawn(move || {
            // Finished (or dropped) before the delay: nothing to show.
            if wait.recv_timeout(delay) != Err(mpsc::RecvTimeoutError::Timeout) {
                return;
            }
            let bar = ProgressBar::with_draw_target(None, target());
            if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}  {elapsed}") {
                bar.set_style(style);
            }
            bar.set_message(message);
            bar.enable_steady_tick(Duration::from_millis(120));
            // Until the guard is dropped (which closes the channel).
            let _ = wait.recv();
            bar.finish_and_clear();
        });
        Spinner {
            done: Some(done),
            shower: Some(shower),
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        // Closing the channel wakes the thread, which clears the line
        // before the results are printed.
        self.done.take();
        if let Some(shower) = self.shower.take() {
            let _ = shower.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::TermLike;
    use std::sync::{Arc, Mutex};

    /// A terminal that remembers what was drawn and cleared on it.
    #[derive(Debug, Default, Clone)]
    struct Screen(Arc<Mutex<Vec<String>>>);

    impl Screen {
        fn log(&self, s: &str) -> std::io::Result<()> {
            if let Ok(mut l) = self.0.lock() {
                l.push(s.to_string());
            }
            Ok(())
        }
        fn seen(&self) -> Vec<String> {
            self.0.lock().map(|l| l.clone()).unwrap_or_default()
        }
    }

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.log(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.log(s)
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.log("<clear>")
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn spinner_on(screen: &Screen, delay: Duration) -> Spinner {
        let target = screen.clone();
        Spinner::drawn_on(delay, "solving p.txt (puzzle 1)".to_string(), move || {
            ProgressDrawTarget::term_like(Box::new(target))
        })
    }

    #[test]
    fn a_long_solve_shows_the_spinner_and_clears_it_when_done() {
        let screen = Screen::default();
        let spinner = spinner_on(&screen, Duration::ZERO);
        thread::sleep(Duration::from_millis(300));
        drop(spinner);
        let seen = screen.seen();
        assert!(
            seen.iter().any(|s| s.contains("solving p.txt (puzzle 1)")),
            "{seen:?}"
        );
        assert_eq!(seen.last().map(String::as_str), Some("<clear>"), "{seen:?}");
    }

    #[test]
    fn a_short_solve_shows_nothing() {
        let screen = Screen::default();
        drop(spinner_on(&screen, Duration::from_secs(60)));
        assert!(screen.seen().is_empty());
    }
}
