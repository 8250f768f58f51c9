//! Random input never panics, and diagnostics render with their location
//! and help.

use super::*;

/// A small deterministic generator, so that the test needs no crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn never_panics_on_garbage() {
    let pieces = [
        "p",
        "(",
        ")",
        "{",
        "}",
        ",",
        ".",
        ":",
        ":-",
        "!",
        "=",
        "!=",
        "<",
        ">=",
        "+",
        "-",
        "count",
        ":",
        "X",
        "_",
        "r1c1",
        "1",
        "99999999999999999999",
        "\"s\"",
        "\"",
        "/*",
        "*/",
        "//",
        "\n",
        " ",
        ".decl",
        "cell",
        "é",
        ";",
        "\\",
        "9223372036854775808",
        ".input",
        "sum",
    ];
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..3000 {
        let len = (rng.next() % 25) as usize;
        let text: String = (0..len)
            .map(|_| pieces[(rng.next() % pieces.len() as u64) as usize])
            .collect();
        let _ = parse_module(&text, 0);
        let _ = parse_body(&text, 0);
    }
    for end in 0..=SAMPLE.len() {
        if let Some(prefix) = SAMPLE.get(..end) {
            let _ = parse_module(prefix, 0);
            let _ = parse_body(prefix, 0);
        }
    }
}

#[test]
fn diagnostics_render() {
    use crate::lang::diag::Diagnostics;
    let mut sources = SourceSet::default();
    let text = "p(X) :- q(X)";
    let file = sources.add("t.dl", text);
    let items = parse_module(text, file).unwrap_err();
    let rendered = Diagnostics { items, sources }.render();
    assert!(
        rendered.contains("expected `.` at the end of the rule (t.dl:1:13)"),
        "{rendered}"
    );
    assert!(rendered.contains("help: rules end with `.`"), "{rendered}");
}
