//! Rows of facts or query answers in the formats people load elsewhere:
//! an aligned table, TSV (Soufflé `.facts` files), CSV, and JSON.

use serde_json::{Map, Value as Json};

/// Output formats of `facts` and `query`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum TableFormat {
    /// Aligned columns with a header.
    #[default]
    Table,
    /// Tab-separated values without a header (loads into Soufflé as a
    /// `.facts` file, and into SQL databases).
    Tsv,
    /// Comma-separated values with a header.
    Csv,
    /// One JSON object per row, one per line.
    Json,
}

/// A titled table of string cells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows, each as long as `columns`.
    pub rows: Vec<Vec<String>>,
    /// How many leading columns are data (the rest is provenance, which TSV
    /// leaves out so the file matches the relation's declaration).
    pub data_columns: usize,
    /// The columns that hold numbers or sets (JSON writes them as numbers,
    /// a set `{2,7}` as an array, and an empty cell as `null`); the others
    /// are text.
    pub numeric: Vec<usize>,
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Table {
    /// The table in a format.
    pub fn render(&self, format: TableFormat) -> String {
        match format {
            TableFormat::Table => self.aligned(),
            TableFormat::Tsv => self
                .rows
                .iter()
                .map(|r| format!("{}\n", r[..self.data_columns.min(r.len())].join("\t")))
                .collect(),
            TableFormat::Csv => {
                let mut out = format!(
                    "{}\n",
                    self.columns
                        .iter()
                        .map(|c| csv_field(c))
                        .collect::<Vec<_>>()
                        .join(",")
                );
                for r in &self.rows {
                    out.push_str(&r.iter().map(|c| csv_field(c)).collect::<Vec<_>>().join(","));
                    out.push('\n');
                }
                out
            }
            TableFormat::Json => self
                .rows
                .iter()
                .map(|r| {
                    let obj: Map<String, Json> = self
                        .columns
                        .iter()
                        .zip(r)
                        .enumerate()
                        .map(|(i, (c, v))| (c.clone(), self.json_cell(i, v)))
                        .collect();
                    format!("{}\n", Json::Object(obj))
                })
                .collect(),
        }
    }

    fn json_cell(&self, column: usize, v: &str) -> Json {
        if !self.numeric.contains(&column) {
            return Json::String(v.to_string());
        }
        // A set (`{2,7}`) is an array of its members.
        if let Some(members) = v.strip_prefix('{').and_then(|m| m.strip_suffix('}')) {
            let parsed: Result<Vec<i64>, _> = members
                .split(',')
                .filter(|m| !m.is_empty())
                .map(str::parse)
                .collect();
            if let Ok(members) = parsed {
                return Json::from(members);
            }
        }
        match v.parse::<i64>() {
            Ok(n) => Json::from(n),
            Err(_) if v.is_empty() => Json::Null,
            Err(_) => Json::String(v.to_string()),
        }
    }

    fn aligned(&self) -> String {
        let mut widths: Vec<usize> = self.columns.iter().map(|c| c.chars().count()).collect();
        for r in &self.rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let parts: Vec<String> = cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect();
            format!("{}\n", parts.join("  ").trim_end())
        };
        let mut out = line(&self.columns);
        out.push_str(&line(
            &widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>(),
        ));
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }
}
