//! Looking into what the rules derived: fact snapshots, queries,
//! explanations, step logs and exports.

pub mod db;
pub mod eval;
pub mod explain;
pub mod export;
pub mod firing;
pub mod path;
pub mod rating;
pub mod shortest;
pub mod sqlite;
pub mod trace;
pub mod verify;
