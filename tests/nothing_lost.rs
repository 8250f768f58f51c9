//! Nothing is lost: Ctrl-C writes every result finished before it (in
//! order, whole lines) and exits 130; a full disk is an error with a
//! message; a closed pipe (`| head`) ends quietly.

use crate::common;

use common::{read_lines, repo_path};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn binary() -> String {
    env!("CARGO_BIN_EXE_sudolog").to_string()
}

/// A file of `copies` rounds of the technique sample's puzzles, with their
/// solutions in the same order.
fn many_puzzles(dir: &tempfile::TempDir, copies: usize) -> (String, Vec<String>) {
    let puzzles = read_lines("tests/data/techniques/sample.txt");
    let solutions = read_lines("tests/data/techniques/sample.solutions.txt");
    let path = dir.path().join("many.txt");
    let mut file = std::fs::File::create(&path).expect("temp file");
    let mut expected = Vec::new();
    for _ in 0..copies {
        for (p, s) in puzzles.iter().zip(&solutions) {
            writeln!(file, "{p}").expect("write");
            expected.push(s.clone());
        }
    }
    (path.to_string_lossy().into_owned(), expected)
}

#[cfg(unix)]
#[test]
fn ctrl_c_writes_every_finished_result_in_order_and_exits_130() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (input, expected) = many_puzzles(&dir, 400);
    let out_path = dir.path().join("out.txt");
    let out = std::fs::File::create(&out_path).expect("output file");
    let mut child = Command::new(binary())
        .args(["solve", "--format", "line", "-j", "2", &input])
        .stdout(out)
        .stderr(Stdio::piped())
        .spawn()
        .expect("sudolog starts");
    // Interrupt once some results are out (and long before the end).
    let started = Instant::now();
    while std::fs::metadata(&out_path).map_or(0, |m| m.len()) == 0 {
        assert!(started.elapsed() < Duration::from_secs(120), "no output");
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = child.wait().expect("sudolog ends");
    let text = std::fs::read_to_string(&out_path).expect("output");
    assert_eq!(
        status.code(),
        Some(130),
        "output so far: {} bytes",
        text.len()
    );
    assert!(text.ends_with('\n'), "the last result is a whole line");
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines.is_empty() && lines.len() < expected.len());
    for (i, (got, want)) in lines.iter().zip(&expected).enumerate() {
        assert_eq!(got, want, "result {} (in input order)", i + 1);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_with_a_message() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = Command::new(binary())
        .args(["solve", &repo_path("tests/data/essay.txt")])
        .stdout(full)
        .output()
        .expect("sudolog runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot write the output"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (input, expected) = many_puzzles(&dir, 50);
    let mut child = Command::new(binary())
        .args(["solve", "--format", "line", "-j", "1", &input])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sudolog starts");
    let mut first = String::new();
    {
        let stdout = child.stdout.take().expect("stdout");
        let mut reader = BufReader::new(stdout);
        reader.read_line(&mut first).expect("a first line");
        // Dropping the reader closes the pipe, as `| head -1` does.
    }
    let out = child.wait_with_output().expect("sudolog ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(first.trim_end(), expected[0]);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "quiet: {stderr}");
}
