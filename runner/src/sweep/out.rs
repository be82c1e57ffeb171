//! What replay, sweep and merge share when they write a dataset: the manifest's producer, the
//! output columns, the per-field report of mode defaults used for empty cells, and counts of
//! row outcomes.

use std::collections::BTreeMap;

use rdnaprobe_dataset::{ManifestProducer, Row};
use rdnaprobe_isa::FloatMode;

use crate::backend::{Producer, RowResult, Status};

/// Columns that replay and sweep outputs insert after the v1 columns.
pub const RESULT_COLUMNS: [&str; 2] = ["backend", "status"];

/// The default wave size for an empty `wave` cell (the lane contract's primary size).
pub const DEFAULT_WAVE: u32 = 32;

pub fn manifest_producer(p: &Producer) -> ManifestProducer {
    ManifestProducer {
        backend: p.backend.clone(),
        device: p.device.clone(),
        gfx: p.gfx.clone(),
        driver: p.driver.clone(),
        runtime: String::new(),
        rdnaprobe_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: rdnaprobe_dataset::git_commit(),
    }
}

/// Outcome counts and, per mode field, how many rows left it empty.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub rows: u64,
    pub ok: u64,
    pub unsupported: u64,
    pub error: u64,
    /// Field name -> rows whose cell was empty.
    pub unstated: BTreeMap<&'static str, u64>,
}

/// `FloatMode::DEFAULT` per field, as written in a cell.
pub fn default_cells() -> [(&'static str, u32); 8] {
    let d = FloatMode::DEFAULT;
    [
        ("wave", DEFAULT_WAVE),
        ("ieee", u32::from(d.ieee)),
        ("dx10_clamp", u32::from(d.dx10_clamp)),
        ("denorm32", u32::from(d.denorm32)),
        ("denorm16", u32::from(d.denorm16)),
        ("round32", u32::from(d.round32)),
        ("round16", u32::from(d.round16)),
        ("fp16_overflow", u32::from(d.fp16_overflow)),
    ]
}

impl Tally {
    pub fn add(&mut self, row: &Row, status: &Status) {
        self.rows += 1;
        match status {
            Status::Ok => self.ok += 1,
            Status::Unsupported(_) => self.unsupported += 1,
            Status::Error(_) => self.error += 1,
        }
        let m = &row.mode;
        let cells = [
            ("wave", row.wave.is_none()),
            ("ieee", m.ieee.is_none()),
            ("dx10_clamp", m.dx10_clamp.is_none()),
            ("denorm32", m.denorm32.is_none()),
            ("denorm16", m.denorm16.is_none()),
            ("round32", m.round32.is_none()),
            ("round16", m.round16.is_none()),
            ("fp16_overflow", m.fp16_overflow.is_none()),
        ];
        for (name, empty) in cells {
            if empty {
                *self.unstated.entry(name).or_default() += 1;
            }
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
        for (name, value) in default_cells() {
            if let Some(n) = self.unstated.get(name) {
                s.push_str(&format!(
                    "\n  {name}: empty in {n} rows, default {value} used (FloatMode::DEFAULT)"
                ));
            }
        }
        s
    }
}

/// The output row of a backend result: outputs replaced, the status cell text.
pub fn result_row(row: &Row, result: &RowResult) -> Row {
    let mut out = row.clone();
    out.outputs = result.outputs;
    out
}

/// Runs a batch and never loses a row: a backend that returns the wrong number of results
/// turns every row of the batch into an error instead of mis-pairing them.
pub fn run_batch(backend: &mut dyn crate::backend::Backend, rows: &[Row]) -> Vec<RowResult> {
    let results = backend.run(rows);
    if results.len() == rows.len() {
        return results;
    }
    let msg = format!(
        "backend returned {} results for {} rows",
        results.len(),
        rows.len()
    );
    rows.iter()
        .map(|_| RowResult {
            outputs: [None; 16],
            status: Status::Error(msg.clone()),
        })
        .collect()
}

/// A progress bar on stderr, only when stderr is a terminal.
pub fn progress(len: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rows {elapsed} (eta {eta})")
    {
        bar.set_style(style);
    }
    Some(bar)
}
