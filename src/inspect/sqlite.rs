//! Exporting every relation of a solve into a SQLite database, one table
//! per relation with provenance columns, so derived facts can be queried
//! with SQL; beside them the puzzle, the branches of the solution's path
//! (the guesses), the rules and the digits' symbols. Digits are integers
//! in every table (`digits` gives their symbols).

use super::db::{FactDb, show_set};
use crate::grid::{Puzzle, render_line};
use crate::lang::program::Builtin;
use crate::lang::value::Type;
use rusqlite::{Connection, params_from_iter};
use std::path::Path;

/// Writes every relation (and the `candidate` view) of the solve of
/// `puzzle` into a new database at `path` (replacing the file), and returns
/// the number of facts written.
pub fn export(db: &FactDb, puzzle: &Puzzle, path: &Path) -> rusqlite::Result<usize> {
    if path.exists() {
        // A stale file would mix two solves; start afresh.
        std::fs::remove_file(path)
            .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    }
    let mut conn = Connection::open(path)?;
    let tx = conn.transaction()?;
    tx.execute_batch(
        "CREATE TABLE rules (name TEXT PRIMARY KEY, technique TEXT, head TEXT, comment TEXT);",
    )?;
    for r in &db.program.rules {
        tx.execute(
            "INSERT OR IGNORE INTO rules VALUES (?1, ?2, ?3, ?4)",
            (
                &r.name,
                &r.technique,
                &db.program.relations[r.head_rel].name,
                &r.doc,
            ),
        )?;
    }
    describe_puzzle(&tx, db, puzzle)?;
    let mut written = 0;
    for rel in 0..=db.program.relations.len() {
        let name = db.rel_name(rel).to_string();
        let types = db.rel_types(rel);
        let columns: Vec<String> = match db.program.relations.get(rel) {
            Some(r) => r.columns.iter().map(|c| c.0.clone()).collect(),
            None => vec!["c".into(), "d".into()],
        };
        let decl: Vec<String> = columns
            .iter()
            .zip(&types)
            .map(|(c, t)| {
                let sql = match t {
                    Type::Number | Type::Digit => "INTEGER",
                    _ => "TEXT",
                };
                format!("\"{c}\" {sql}")
            })
            .chain(["rule TEXT", "step INTEGER", "branch INTEGER"].map(String::from))
            .collect();
        tx.execute_batch(&format!("CREATE TABLE \"{name}\" ({});", decl.join(", ")))?;
        let marks = vec!["?"; columns.len() + 3].join(", ");
        let mut insert = tx.prepare(&format!("INSERT INTO \"{name}\" VALUES ({marks})"))?;
        // The candidate view's digits are open, not derived: no provenance.
        let view = rel == db.candidate_rel();
        let facts = if view {
            db.candidate_facts(u32::MAX)
        } else {
            db.rel(rel).facts.clone()
        };
        for f in &facts {
            let mut row: Vec<rusqlite::types::Value> = f
                .values
                .iter()
                .zip(&types)
                .map(|(v, t)| match t {
                    Type::Number | Type::Digit => rusqlite::types::Value::Integer(*v as i64),
                    _ => rusqlite::types::Value::Text(db.show(*t, *v)),
                })
                .collect();
            row.push(if view {
                rusqlite::types::Value::Null
            } else {
                rusqlite::types::Value::Text(db.origin_name(f))
            });
            match f.origin {
                Some(o) => {
                    row.push(rusqlite::types::Value::Integer(o.step as i64));
                    row.push(rusqlite::types::Value::Integer(
                        db.branch_depth(o.step) as i64
                    ));
                }
                None => {
                    row.push(rusqlite::types::Value::Null);
                    row.push(rusqlite::types::Value::Null);
                }
            }
            insert.execute(params_from_iter(row))?;
            written += 1;
        }
    }
    tx.commit()?;
    Ok(written)
}

/// The tables about the puzzle rather than its facts: `puzzle` (where it
/// came from, its givens, the grid the facts reach), `branches` (branch 0
/// before any guess, then one per guess of the solution's path, with the
/// guess, the step it was placed at, the candidates it was chosen from and
/// those tried before it and refuted: the `branch` columns point here),
/// the view `guesses` (the branches after the first) and `digits` (each
/// digit's symbol, for sizes where it is a letter).
fn describe_puzzle(
    tx: &rusqlite::Transaction<'_>,
    db: &FactDb,
    puzzle: &Puzzle,
) -> rusqlite::Result<()> {
    let g = db.geometry;
    let placed = db.rel(db.program.builtin(Builtin::Placed));
    let mut grid = vec![0u8; g.n * g.n];
    for f in &placed.facts {
        if let [cell, digit] = f.values[..] {
            let (r, c) = crate::lang::program::cell_coords(cell);
            if let Some(slot) = grid.get_mut(r * g.n + c) {
                *slot = u8::try_from(digit).unwrap_or(0);
            }
        }
    }
    tx.execute_batch(
        "CREATE TABLE puzzle (file TEXT, line INTEGER, size INTEGER, givens TEXT, reached TEXT, \
         guesses INTEGER);
         CREATE TABLE branches (branch INTEGER PRIMARY KEY, cell TEXT, digit INTEGER, step INTEGER, \
         options TEXT, refuted TEXT);
         CREATE VIEW guesses AS SELECT branch AS depth, cell, digit, step, options, refuted \
         FROM branches WHERE branch > 0;
         CREATE TABLE digits (digit INTEGER PRIMARY KEY, symbol TEXT);",
    )?;
    tx.execute(
        "INSERT INTO puzzle VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        (
            &puzzle.origin.file,
            puzzle.origin.line as i64,
            g.n as i64,
            render_line(&g, &puzzle.cells),
            render_line(&g, &grid),
            db.guesses.len() as i64,
        ),
    )?;
    tx.execute(
        "INSERT INTO branches VALUES (0, NULL, NULL, 0, NULL, NULL)",
        (),
    )?;
    for (depth, guess) in db.guesses.iter().enumerate() {
        let digits = |ds: &[u8]| show_set(ds.iter().fold(0, |m, &d| m | 1 << d));
        tx.execute(
            "INSERT INTO branches VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            (
                (depth + 1) as i64,
                g.cell_name(guess.cell),
                i64::from(guess.digit),
                db.guess_step(guess).map(i64::from),
                digits(&guess.options),
                digits(guess.tried()),
            ),
        )?;
    }
    for d in 1..=g.n as u8 {
        tx.execute(
            "INSERT INTO digits VALUES (?1, ?2)",
            (i64::from(d), g.digit_symbol(d).to_string()),
        )?;
    }
    Ok(())
}
