//! Replay output (docs/dataset-format.md): the v1 columns with out0..out15 replaced by what a
//! backend computed, then `backend` and `status`, then the input's extra columns. Also the
//! tally of row outcomes and of unstated mode cells that replay and sweep report in their
//! summary and manifest.

use std::collections::BTreeMap;
use std::io::Write;

use rdnaprobe_contract::{FloatMode, ModeField, Status, Wave};

use crate::error::DatasetError;
use crate::row::Row;
use crate::write::Writer;

/// Columns that replay and sweep outputs insert after the v1 columns.
pub const REPLAY_COLUMNS: [&str; 2] = ["backend", "status"];

/// The replay output row of `row`: its cells, with the outputs a backend computed.
pub fn replay_row(row: &Row, outputs: [Option<u32>; 16]) -> Row {
    let mut out = row.clone();
    out.outputs = outputs;
    out
}

/// The first of `extra_columns` that a replay output would insert itself (an input that
/// already is a replay output).
pub fn clashing_column(extra_columns: &[String]) -> Option<&str> {
    extra_columns
        .iter()
        .map(String::as_str)
        .find(|c| REPLAY_COLUMNS.contains(c))
}

/// Writes replay output: [`REPLAY_COLUMNS`] inserted after the v1 columns, one row per
/// backend result.
pub struct ReplayWriter<W: Write> {
    inner: Writer<W>,
}

impl<W: Write> ReplayWriter<W> {
    /// Writes the header; `label` names the sink in errors.
    pub fn new(
        sink: W,
        label: impl Into<String>,
        extra_columns: &[String],
    ) -> Result<ReplayWriter<W>, DatasetError> {
        Ok(ReplayWriter {
            inner: Writer::new(sink, label, &REPLAY_COLUMNS, extra_columns)?,
        })
    }

    /// Writes `row` with the `outputs`, `backend` and `status` a backend gave it.
    pub fn write(
        &mut self,
        row: &Row,
        outputs: [Option<u32>; 16],
        backend: &str,
        status: &Status,
    ) -> Result<(), DatasetError> {
        let text;
        let status = match status {
            Status::Ok => "ok",
            other => {
                text = other.to_string();
                &text
            }
        };
        self.inner
            .write_row_with_outputs(row, &outputs, &[backend, status])
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.inner.rows()
    }

    /// Flushes and returns the sink.
    pub fn finish(self) -> Result<W, DatasetError> {
        self.inner.finish()
    }
}

/// The value an empty cell resolves to, per cell, as written in a cell: `wave` first, then the
/// mode fields in column order.
pub fn default_cells() -> [(&'static str, u32); 8] {
    let d = FloatMode::DEFAULT;
    let mut cells = [("wave", Wave::DEFAULT.lanes()); 8];
    for (slot, field) in cells[1..].iter_mut().zip(ModeField::ALL) {
        *slot = (field.name(), u32::from(d.get(field)));
    }
    cells
}

/// Outcome counts and, per cell, how many rows left it empty.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub rows: u64,
    pub ok: u64,
    pub unsupported: u64,
    pub error: u64,
    /// Cell name (`wave` or a mode field) -> rows whose cell was empty.
    pub unstated: BTreeMap<&'static str, u64>,
}

impl Tally {
    pub fn add(&mut self, row: &Row, status: &Status) {
        self.rows += 1;
        match status {
            Status::Ok => self.ok += 1,
            Status::Unsupported(_) => self.unsupported += 1,
            Status::Error(_) => self.error += 1,
        }
        if row.wave.is_none() {
            *self.unstated.entry("wave").or_default() += 1;
        }
        for field in ModeField::ALL {
            if row.mode.get(field).is_none() {
                *self.unstated.entry(field.name()).or_default() += 1;
            }
        }
    }

    /// Adds another tally's counts (outputs written one per input).
    pub fn merge(&mut self, other: &Tally) {
        self.rows += other.rows;
        self.ok += other.ok;
        self.unsupported += other.unsupported;
        self.error += other.error;
        for (k, v) in &other.unstated {
            *self.unstated.entry(k).or_default() += v;
        }
    }

    /// Manifest `defaults`: for each field some row left empty, the value used and how many rows.
    pub fn defaults_json(&self) -> BTreeMap<String, serde_json::Value> {
        default_cells()
            .iter()
            .filter_map(|(name, value)| {
                self.unstated.get(name).map(|n| {
                    (
                        name.to_string(),
                        serde_json::json!({ "value": value, "rows": n, "from": "rdnaprobe_isa::FloatMode::DEFAULT" }),
                    )
                })
            })
            .collect()
    }

    /// The summary printed on stderr (with the time when given).
    pub fn summary(&self, seconds: Option<f64>) -> String {
        let mut s = format!(
            "{} rows: {} ok, {} unsupported, {} error",
            self.rows, self.ok, self.unsupported, self.error
        );
        if let Some(t) = seconds {
            s.push_str(&format!(" in {t:.2} s"));
        }
        let defaults: Vec<String> = default_cells()
            .iter()
            .filter_map(|(name, value)| {
                self.unstated
                    .get(name)
                    .map(|n| format!("{name}: empty in {n} rows, default {value} used"))
            })
            .collect();
        if !defaults.is_empty() {
            s.push_str(&format!(" ({}; FloatMode::DEFAULT)", defaults.join(", ")));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::parse_dataset;
    use crate::row::ModeCells;

    #[test]
    fn replay_output_inserts_backend_and_status_and_keeps_extra_columns() {
        let row = Row {
            instruction: "v_add_f32 v10, v4, v5".into(),
            encoding: vec![0x0614_0b04],
            wave: Some(32),
            mode: ModeCells::stated(&FloatMode::DEFAULT),
            inputs: [0x3f80_0000, 0x4000_0000, 0, 0, 0, 0],
            extra: vec!["a note".into()],
            ..Row::default()
        };
        let mut w = ReplayWriter::new(Vec::new(), "<memory>", &["annotation".into()]).unwrap();
        let mut outputs = [None; 16];
        outputs[0] = Some(0x4040_0000);
        w.write(&row, outputs, "cpu", &Status::Ok).unwrap();
        w.write(
            &row,
            [None; 16],
            "cpu",
            &Status::Unsupported("no rule".into()),
        )
        .unwrap();
        assert_eq!(w.rows(), 2);
        let bytes = w.finish().unwrap();
        let ds = parse_dataset(&bytes, "<memory>").unwrap();
        assert_eq!(ds.extra_columns, ["backend", "status", "annotation"]);
        assert_eq!(ds.rows[0].outputs[0], Some(0x4040_0000));
        assert_eq!(ds.rows[0].extra, ["cpu", "ok", "a note"]);
        assert_eq!(ds.rows[1].outputs, [None; 16]);
        assert_eq!(ds.rows[1].extra[1], "unsupported: no rule");
        assert_eq!(clashing_column(&ds.extra_columns), Some("backend"));
        assert_eq!(clashing_column(&["annotation".into()]), None);
    }

    #[test]
    fn tally_counts_outcomes_and_empty_cells() {
        let stated = Row {
            wave: Some(64),
            mode: ModeCells::stated(&FloatMode::DEFAULT),
            ..Row::default()
        };
        let mut t = Tally::default();
        t.add(&stated, &Status::Ok);
        t.add(&Row::default(), &Status::Error("timeout".into()));
        assert_eq!((t.rows, t.ok, t.unsupported, t.error), (2, 1, 0, 1));
        assert_eq!(t.unstated.get("wave"), Some(&1));
        assert_eq!(t.unstated.get("denorm16"), Some(&1));
        let json = t.defaults_json();
        assert_eq!(json["denorm16"]["value"], 3);
        assert_eq!(json["wave"]["value"], 32);
        let mut all = Tally::default();
        all.merge(&t);
        all.merge(&t);
        assert_eq!((all.rows, all.unstated["ieee"]), (4, 2));
        assert!(t
            .summary(None)
            .contains("ieee: empty in 1 rows, default 1 used"));
    }
}
