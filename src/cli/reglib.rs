//! `sudolog reglib`: HoDoKu's regression library run against the rules,
//! with a table per code (cases, passed, failed, not covered, and how often
//! a hint names the expected technique). The checking itself is
//! `crate::reglib`.

use super::{
    BatchArgs, EXIT_INVALID, EXIT_OK, EXIT_UNSOLVED, FactLimit, RuleArgs, load_program, stderr,
};
use crate::batch;
use crate::reglib::{
    CaseResult, CaseVerdict, Checker, CheckerError, CodeMap, read_library, standard_maps,
};
use crate::solve::HinterError;
use clap::Args;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Arguments of `reglib`.
#[derive(Args, Debug)]
pub struct ReglibArgs {
    /// A file of HoDoKu library lines (`:code:candidates:givens:deleted:
    /// eliminations:placements:extra`), its header naming the codes.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Map a HoDoKu code to a technique (a rule file's stem), with the
    /// names its rules' comments start with: `0402=empty_rectangle` or
    /// `0402=empty_rectangle:Empty rectangle`; `0711-3=...` maps only the
    /// code's variant 3; techniques joined by `+` run together
    /// (`0312=finned_fish+late_finned_fish`) (repeatable; replaces the
    /// standard map of that code or variant).
    #[arg(long, value_name = "CODE=TECHNIQUE[:NAME]", value_parser = parse_map)]
    pub map: Vec<CodeMap>,
    /// List every case that failed, with what was missed or wrong, and every
    /// case whose hint named neither the technique nor an easier one, with
    /// what the hint gave.
    #[arg(long)]
    pub failures: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: ReglibFormat,
    /// How many facts one case's run may store.
    #[command(flatten)]
    pub facts: FactLimit,
    /// Threads and the progress line.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The rule set (every tier unless `--max-tier` or `--techniques` say
    /// otherwise).
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Output formats of `reglib`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReglibFormat {
    /// A table per code, then per technique.
    #[default]
    Text,
    /// One JSON object per case, one per line.
    Json,
}

fn parse_map(text: &str) -> Result<CodeMap, String> {
    let (code, rest) = text.split_once('=').ok_or_else(|| {
        format!("`{text}` is no map: write CODE=TECHNIQUE, e.g. 0402=empty_rectangle")
    })?;
    let (technique, label) = match rest.split_once(':') {
        Some((t, l)) => (t, Some(l)),
        None => (rest, None),
    };
    let (number, variant) = code.split_once('-').unwrap_or((code, "1"));
    let digits = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit());
    let variant_ok = !variant.is_empty() && variant.chars().all(|c| c.is_ascii_alphanumeric());
    if !digits || !variant_ok || technique.split('+').any(str::is_empty) {
        return Err(format!(
            "`{text}` is no map: the code is HoDoKu's number (0402, or 0711-1 for one variant), \
             the technique a rule file's stem (or several joined by `+`)"
        ));
    }
    Ok(CodeMap {
        code: code.to_string(),
        technique: technique.to_string(),
        labels: label.map(|l| vec![l.to_string()]).unwrap_or_default(),
    })
}

/// Per code: cases, passed, failed, not covered, hints that name it, and
/// covered cases a hint was asked for.
#[derive(Default)]
struct Tally {
    cases: usize,
    passed: usize,
    failed: usize,
    not_covered: usize,
    named: usize,
    asked: usize,
}

impl Tally {
    fn add(&mut self, r: &CaseResult) {
        self.cases += 1;
        match r.verdict {
            CaseVerdict::Passed => self.passed += 1,
            CaseVerdict::Failed(_) => self.failed += 1,
            CaseVerdict::NotCovered => self.not_covered += 1,
        }
        if let Some(named) = r.hint_named {
            self.asked += 1;
            self.named += usize::from(named);
        }
    }
}

/// Runs `reglib`.
pub fn reglib_command(args: &ReglibArgs) -> io::Result<i32> {
    let Some(program) = load_program(&args.rules) else {
        return Ok(EXIT_INVALID);
    };
    let library = match read_library(&args.file) {
        Ok(l) => l,
        Err(e) => {
            errorln!("{e}");
            return Ok(EXIT_INVALID);
        }
    };
    let mut maps = standard_maps();
    maps.retain(|m| !args.map.iter().any(|o| o.code == m.code));
    maps.extend(args.map.iter().cloned());
    // The standard maps of techniques a custom rule set lacks drop out
    // (their codes are then not covered); a map asked for must work.
    maps.retain(|m| {
        args.map.contains(m)
            || m.techniques()
                .all(|name| program.techniques.iter().any(|t| t.name == name))
    });
    let checker = match Checker::new(&program, maps, args.facts.max_facts) {
        Ok(c) => c,
        Err(CheckerError::Hinter(HinterError::Rules(e))) => {
            stderr::rules_error(&e);
            return Ok(EXIT_INVALID);
        }
        Err(CheckerError::Hinter(HinterError::Compile(d))) => {
            stderr::diagnostics(&d);
            return Ok(EXIT_INVALID);
        }
        Err(CheckerError::Solver(e)) => {
            errorln!("{e}");
            return Ok(EXIT_INVALID);
        }
    };
    let progress = args.batch.progress("cases");
    let mut results = Vec::with_capacity(library.cases.len());
    batch::for_each_ordered(
        library.cases.iter().cloned(),
        args.batch.threads(),
        |_, case| checker.check(&case),
        |r| {
            progress.inc(1);
            results.push(r);
            Ok::<(), io::Error>(())
        },
    )?;
    progress.finish_and_clear();
    let mut out = io::stdout().lock();
    let name = |code: &str| library.names.get(code).map_or("?", String::as_str);
    // A code's techniques: those of its cases' maps (variants may differ).
    let mut techniques_of: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for r in &results {
        let list = techniques_of.entry(&r.code).or_default();
        if let Some(t) = r.technique.as_deref().filter(|t| !list.contains(t)) {
            list.push(t);
        }
    }
    let technique = |code: &str| match techniques_of.get(code) {
        Some(list) if !list.is_empty() => list.join(", "),
        _ => "-".to_string(),
    };
    if args.format == ReglibFormat::Json {
        for r in &results {
            let (verdict, detail) = match &r.verdict {
                CaseVerdict::Passed => ("passed", ""),
                CaseVerdict::Failed(why) => ("failed", why.as_str()),
                CaseVerdict::NotCovered => ("not covered", ""),
            };
            let value = json!({
                "line": r.line,
                "code": r.code,
                "name": name(&r.code),
                "technique": r.technique,
                "verdict": verdict,
                "detail": detail,
                "hint_named": r.hint_named,
                "hint": r.hint,
            });
            writeln!(out, "{value}")?;
        }
    } else {
        let mut by_code: BTreeMap<&str, Tally> = BTreeMap::new();
        let mut by_technique: BTreeMap<&str, Tally> = BTreeMap::new();
        for r in &results {
            by_code.entry(&r.code).or_default().add(r);
            by_technique
                .entry(r.technique.as_deref().unwrap_or("(not covered)"))
                .or_default()
                .add(r);
        }
        let row = |label: String, t: &Tally| {
            format!(
                "{label:<42} {:>5} {:>6} {:>6} {:>11} {:>11}",
                t.cases,
                t.passed,
                t.failed,
                t.not_covered,
                if t.asked == 0 {
                    "-".to_string()
                } else {
                    format!("{}/{}", t.named, t.asked)
                }
            )
        };
        let header = format!(
            "{:<42} {:>5} {:>6} {:>6} {:>11} {:>11}",
            "code", "cases", "passed", "failed", "not covered", "hint named"
        );
        writeln!(out, "{header}")?;
        for (code, t) in &by_code {
            writeln!(
                out,
                "{}",
                row(format!("{code} {} ({})", name(code), technique(code)), t)
            )?;
        }
        writeln!(out)?;
        writeln!(out, "{}", header.replacen("code", "technique", 1))?;
        for (tech, t) in &by_technique {
            let label = if *tech == "-" { "(not covered)" } else { tech };
            writeln!(out, "{}", row(label.to_string(), t))?;
        }
        let all = results.iter().fold(Tally::default(), |mut t, r| {
            t.add(r);
            t
        });
        writeln!(out, "{}", row("all".to_string(), &all))?;
        if args.failures {
            for r in &results {
                let at = format!("{}:{}: {} {}", args.file, r.line, r.code, name(&r.code));
                if let CaseVerdict::Failed(why) = &r.verdict {
                    writeln!(out, "{at}: {why}")?;
                }
                // A hint that named neither the technique nor an easier
                // one is the column's miss: say what it gave instead.
                if let Some(hint) = &r.hint {
                    let technique = r.technique.as_deref().unwrap_or("-");
                    writeln!(
                        out,
                        "{at}: the hint gave {hint}, where {technique} or an easier technique was expected"
                    )?;
                }
            }
        }
    }
    let failed = results
        .iter()
        .any(|r| matches!(r.verdict, CaseVerdict::Failed(_)));
    Ok(if failed { EXIT_UNSOLVED } else { EXIT_OK })
}
