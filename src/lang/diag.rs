//! Diagnostics for rule files: what went wrong, where (file, line, column,
//! with the source line and a caret), and how to fix it.

use super::ast::{SourceSet, Span};
use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use std::fmt;

/// One problem found in a rule file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where it is.
    pub span: Span,
    /// A short label shown under the caret.
    pub label: String,
    /// How to fix it (may be empty).
    pub help: String,
}

impl Diagnostic {
    /// A diagnostic with a message and a location.
    pub fn new(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span,
            label: String::new(),
            help: String::new(),
        }
    }

    /// Adds the label shown under the caret.
    pub fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    /// Adds the advice on how to fix it.
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = help.into();
        self
    }
}

/// A list of diagnostics together with the sources they point into, ready to
/// print. This is the error type of loading and checking a rule set.
#[derive(Clone, Debug)]
pub struct Diagnostics {
    /// The problems, in the order they were found.
    pub items: Vec<Diagnostic>,
    /// The files the spans refer to.
    pub sources: SourceSet,
}

impl Diagnostics {
    /// `file:line:col: message` for each problem, one per line (the short
    /// form, for tests and logs).
    pub fn short(&self) -> String {
        let mut out = String::new();
        for d in &self.items {
            let (line, col) = self.sources.line_col(d.span.file, d.span.start);
            out.push_str(&format!(
                "{}:{}:{}: error: {}\n",
                self.sources.name(d.span.file),
                line,
                col,
                d.message
            ));
        }
        out
    }

    /// The full report: each problem with its source line, a caret under
    /// the offending text, and the help text.
    pub fn render(&self) -> String {
        self.render_styled(false)
    }

    /// [`Diagnostics::render`], with terminal colours (ANSI) if `colour`.
    pub fn render_styled(&self, colour: bool) -> String {
        self.render_as(false, colour)
    }

    /// The same report for warnings (what is allowed but probably not
    /// meant): `warning:` instead of `error:`.
    pub fn render_warnings_styled(&self, colour: bool) -> String {
        self.render_as(true, colour)
    }

    fn render_as(&self, warnings: bool, colour: bool) -> String {
        let mut files = SimpleFiles::new();
        for (name, text) in &self.sources.files {
            files.add(name.as_str(), text.as_str());
        }
        let config = term::Config::default();
        let mut out = String::new();
        for d in &self.items {
            let (line, col) = self.sources.line_col(d.span.file, d.span.start);
            let mut label = Label::primary(d.span.file, d.span.start..d.span.end.max(d.span.start));
            if !d.label.is_empty() {
                label = label.with_message(&d.label);
            }
            let report = if warnings {
                Report::warning()
            } else {
                Report::error()
            };
            let mut report = report
                .with_message(format!(
                    "{} ({}:{}:{})",
                    d.message,
                    self.sources.name(d.span.file),
                    line,
                    col
                ))
                .with_label(label);
            if !d.help.is_empty() {
                report = report.with_note(format!("help: {}", d.help));
            }
            let text = if colour {
                let mut buffer = term::termcolor::Buffer::ansi();
                term::emit_to_write_style(&mut buffer, &config, &files, &report)
                    .map(|()| String::from_utf8_lossy(buffer.as_slice()).into_owned())
            } else {
                term::emit_into_string(&config, &files, &report)
            };
            match text {
                Ok(text) => out.push_str(&text),
                // The spans come from the same text, so this only guards
                // against a bug: fall back to the short form.
                Err(_) => out.push_str(&format!("error: {}\n", d.message)),
            }
        }
        let n = self.items.len();
        out.push_str(&format!(
            "{} {}{} in the rule set\n",
            n,
            if warnings { "warning" } else { "error" },
            if n == 1 { "" } else { "s" }
        ));
        out
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_styled_report_is_the_plain_one_with_colours() {
        let mut sources = SourceSet::default();
        let file = sources.add("x.dl", "q(C) :- cel(C).\n");
        let d = Diagnostics {
            items: vec![
                Diagnostic::new(Span::new(file, 8, 11), "undeclared relation `cel`")
                    .label("not declared")
                    .help("declare it"),
            ],
            sources,
        };
        let plain = d.render();
        let coloured = d.render_styled(true);
        assert!(!plain.contains('\u{1b}'), "{plain}");
        assert!(coloured.contains("\u{1b}["), "{coloured}");
        // Without the escape sequences the two say the same.
        let mut stripped = String::new();
        let mut chars = coloured.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                chars.by_ref().find(|&c| c == 'm');
            } else {
                stripped.push(c);
            }
        }
        assert_eq!(stripped, plain);
    }
}
