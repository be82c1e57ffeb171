//! What replay, sweep and merge share when they write a dataset: the manifest's producer, the
//! output columns, the per-field report of mode defaults used for empty cells, counts of row
//! outcomes, and running a batch without losing rows. The replay output schema itself (its
//! columns, the tally of outcomes and unstated cells) belongs to the dataset crate; this module
//! adds what needs a backend.

use rdnaprobe_dataset::{ManifestProducer, Row};
pub use rdnaprobe_dataset::{Tally, REPLAY_COLUMNS as RESULT_COLUMNS};

use crate::backend::{Producer, RowResult, Status};

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

/// The output row of a backend result: outputs replaced.
pub fn result_row(row: &Row, result: &RowResult) -> Row {
    rdnaprobe_dataset::replay_row(row, result.outputs)
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
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {human_pos}/{human_len} rows {per_sec} {elapsed} (eta {eta})",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}
