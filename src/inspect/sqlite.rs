//! Exporting every relation of a solve into a SQLite database, one table
//! per relation with provenance columns, so derived facts can be queried
//! with SQL.

use super::db::FactDb;
use crate::lang::ast::Type;
use rusqlite::{Connection, params_from_iter};
use std::path::Path;

/// Writes every relation (and the `candidate` view) into a new database at
/// `path` (replacing the file), and returns the number of facts written.
pub fn export(db: &FactDb, path: &Path) -> rusqlite::Result<usize> {
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
                    Type::Number => "INTEGER",
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
            db.relations[rel].facts.clone()
        };
        for f in &facts {
            let mut row: Vec<rusqlite::types::Value> = f
                .values
                .iter()
                .zip(&types)
                .map(|(v, t)| match t {
                    Type::Number => rusqlite::types::Value::Integer(*v as i64),
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
