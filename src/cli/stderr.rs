//! What the commands say on standard error: errors, always, after
//! `error:`; notes (what a run was cut short by, a puzzle's oddities),
//! unless `-q`; and rule diagnostics. Everything goes through `anstream`,
//! which keeps the colours on a terminal and strips them under `NO_COLOR`
//! or when standard error is a file or a pipe.

use crate::lang::diag::Diagnostics;
use crate::lang::library::RulesError;
use crate::lang::program::Program;
use anstyle::{AnsiColor, Style};
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by `-q`: notes are not printed, errors still are.
static QUIET: AtomicBool = AtomicBool::new(false);

/// How `error:` looks on a terminal.
const ERROR: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)));

/// How `note:` looks on a terminal.
const NOTE: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Cyan)));

/// Leaves out the notes from now on (`-q`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether notes are left out (`-q`): whatever else speaks unasked on
/// standard error (a spinner) stays quiet too.
pub fn is_quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// Prints an error: `error: ` and the message, on its own line.
pub fn error(message: fmt::Arguments<'_>) {
    let _ = write!(anstream::stderr().lock(), "{}", error_text(message));
}

/// An error as [`error`] prints it, for output written later in one piece
/// (a batch's worker renders it, the writer prints it in input order).
pub fn error_text(message: impl fmt::Display) -> String {
    format!("{ERROR}error:{ERROR:#} {message}\n")
}

/// Prints a note (unless `-q`): `note: ` and the message, on its own line.
pub fn note(message: fmt::Arguments<'_>) {
    if QUIET.load(Ordering::Relaxed) {
        return;
    }
    let mut err = anstream::stderr().lock();
    let _ = writeln!(err, "{NOTE}note:{NOTE:#} {message}");
}

/// Prints text as it is: output asked for that goes to standard error (a
/// trace beside line output, the `--stats` summary), even under `-q`.
pub fn text(text: fmt::Arguments<'_>) {
    let _ = write!(anstream::stderr().lock(), "{text}");
}

/// Prints a rule set's diagnostics (they begin with `error:`), in colour
/// on a terminal.
pub fn diagnostics(d: &Diagnostics) {
    let _ = write!(anstream::stderr().lock(), "{}", d.render_styled(true));
}

/// Prints why a rule set could not be loaded.
pub fn rules_error(e: &RulesError) {
    match e {
        RulesError::Invalid(d) => diagnostics(d),
        other => error(format_args!("{other}")),
    }
}

/// Prints a rule set's warnings (what is allowed but probably not meant),
/// unless `-q`.
pub fn warnings(program: &Program) {
    if program.warnings.is_empty() || QUIET.load(Ordering::Relaxed) {
        return;
    }
    let report = Diagnostics {
        items: program.warnings.clone(),
        sources: program.sources.clone(),
    };
    let _ = write!(
        anstream::stderr().lock(),
        "{}",
        report.render_warnings_styled(true)
    );
}
