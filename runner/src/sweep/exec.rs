//! Running a sweep crash-safely, in chunks, on one shard of its row order.
//!
//! Files beside the output `OUT.csv`: `OUT.csv.partial` (the header and every finished chunk,
//! fsynced after each chunk) and `OUT.csv.journal` (JSON: spec hash, backend, shard, rows done
//! and the byte length of the partial file at that point, replaced atomically after each
//! chunk). A process killed at any moment leaves a journal that points at the end of the last
//! complete chunk; `--resume` truncates the partial file to that length (dropping a chunk
//! that was half written) and carries on. `OUT.csv` appears by rename only when every row of
//! the shard is in, then its manifest is written and the journal removed.

use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::time::Instant;

use rdnaprobe_dataset::{
    manifest_path, sha256_file, Manifest, Reader, Tally, Writer, REPLAY_COLUMNS,
};
use serde::{Deserialize, Serialize};

use super::spec::{Sweep, SWEEP_ROW_COLUMN};
use crate::backend::{Backend, Status};
use crate::batch;
use crate::plan::journal::partial_path;
use crate::plan::journal::{self, AbortHooks, Begin, Snapshot};
pub use crate::plan::order::Shard;

/// Test hook: abort the process right after this many chunks were committed.
pub const ABORT_AFTER_ENV: &str = "RDNAPROBE_SWEEP_ABORT_AFTER_CHUNKS";
/// Test hook: abort the process in the middle of writing this (1-based) chunk.
pub const ABORT_MID_ENV: &str = "RDNAPROBE_SWEEP_ABORT_MID_CHUNK";
/// Test hook: milliseconds to wait after each committed chunk (a slow sweep that a scheduler
/// test can cancel in the middle).
pub const CHUNK_DELAY_ENV: &str = "RDNAPROBE_SWEEP_CHUNK_DELAY_MS";

pub struct Options {
    /// Backend as given on the command line (checked on resume).
    pub backend: String,
    pub shard: Option<Shard>,
    pub resume: bool,
    /// Rows per chunk (one backend call, one fsync).
    pub chunk: u64,
}

/// What a journal must match to be resumed (the journal file's first fields).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Key {
    spec_hash: String,
    backend: String,
    shard: Option<String>,
    start: u64,
    end: u64,
}

/// The output header: v1 columns, `backend`, `status`, then `sweep_row`.
fn header_bytes(label: &str) -> anyhow::Result<Vec<u8>> {
    let w = Writer::new(
        Vec::new(),
        label,
        &REPLAY_COLUMNS,
        &[SWEEP_ROW_COLUMN.to_string()],
    )?;
    Ok(w.finish()?)
}

/// Runs (or resumes) the sweep into `out`. Returns the tally of the whole output file.
pub fn run(
    sweep: &Sweep,
    backend: &mut dyn Backend,
    out: &Path,
    opts: &Options,
) -> anyhow::Result<Tally> {
    let started = Instant::now();
    let label = out.display().to_string();
    let range = opts
        .shard
        .map_or(0..sweep.total_rows(), |s| s.range(sweep.total_rows()));
    let key = Key {
        spec_hash: sweep.hash(),
        backend: opts.backend.clone(),
        shard: opts.shard.map(|s| s.to_string()),
        start: range.start,
        end: range.end,
    };
    let header = header_bytes(&label)?;
    let total = range.end - range.start;
    let mut journal = match Snapshot::begin(out, key, total, &header, opts.resume, "sweep")? {
        Begin::Run(j) => j,
        Begin::Complete => {
            note!("{label}: already complete, nothing to resume");
            return tally_file(out);
        }
    };

    let hooks = AbortHooks::from_env(ABORT_AFTER_ENV, ABORT_MID_ENV);
    let delay = std::env::var(CHUNK_DELAY_ENV)
        .ok()
        .and_then(|v| v.parse().ok())
        .map(std::time::Duration::from_millis);
    let bar = crate::progress::Rows::plain(total);
    bar.set(journal.rows_done);
    let chunk = opts.chunk.max(1);
    let mut chunks_done = 0u64;
    let mut this_run = Tally::default();
    while journal.rows_done < total {
        let first = range.start + journal.rows_done;
        let last = (first + chunk).min(range.end);
        let rows: Vec<_> = (first..last).map(|i| sweep.row(i)).collect();
        let results = batch::run(backend, &rows);
        let mut w = Writer::headless(Vec::new(), &label, REPLAY_COLUMNS.len(), 1);
        for (row, res) in rows.iter().zip(&results) {
            let status = res.status.to_string();
            let out_row = batch::output_row(row, res);
            w.write_row(&out_row, &[opts.backend.as_str(), status.as_str()])?;
            this_run.add(row, &res.status);
        }
        let bytes = w.finish()?;
        if hooks.abort_mid == Some(chunks_done + 1) {
            let mut f = journal::append(&partial_path(out))?;
            // Half the chunk, never ending on a row boundary: a torn last row.
            let mut cut = bytes.len() / 2;
            if cut > 0 && bytes[cut - 1] == b'\n' {
                cut += 1;
            }
            f.write_all(&bytes[..cut.min(bytes.len())])?;
            f.sync_all()?;
            note!(
                "{ABORT_MID_ENV}: aborting in the middle of chunk {}",
                chunks_done + 1
            );
            std::process::abort();
        }
        journal.commit(out, last - first, &bytes)?;
        chunks_done += 1;
        if let Some(d) = delay {
            std::thread::sleep(d);
        }
        bar.set(journal.rows_done);
        if hooks.abort_after == Some(chunks_done) {
            note!("{ABORT_AFTER_ENV}: aborting after chunk {chunks_done}");
            std::process::abort();
        }
    }
    bar.finish();
    Snapshot::<Key>::finish(out)?;
    let tally = tally_file(out)?;
    let mut manifest = Manifest::new_v1(
        out,
        backend.producer().manifest(),
        tally.rows,
        sha256_file(out)?,
    );
    manifest.generator = format!("rdnaprobe sweep: {}", sweep.describe());
    manifest.sweep = Some(sweep_json(sweep, opts.shard, range.clone()));
    manifest.defaults = tally.defaults_json();
    manifest.write(&manifest_path(out))?;
    Snapshot::<Key>::remove(out)?;
    note!(
        "{label}: this run: {}",
        this_run.summary(Some(started.elapsed().as_secs_f64()))
    );
    Ok(tally)
}

/// The manifest's `sweep` object. Merging shards gives the unsharded value.
pub fn sweep_json(sweep: &Sweep, shard: Option<Shard>, range: Range<u64>) -> serde_json::Value {
    serde_json::json!({
        "spec": sweep.spec,
        "spec_hash": sweep.hash(),
        "words": rdnaprobe_dataset::encoding_cell(&sweep.words),
        "total_rows": sweep.total_rows(),
        "shard": shard.map(|s| s.to_string()),
        "rows": [range.start, range.end],
    })
}

/// Counts statuses and unstated mode cells of a written sweep or replay output.
pub fn tally_file(path: &Path) -> anyhow::Result<Tally> {
    let mut reader = Reader::open(path)?;
    let status_col = reader.extra_columns().iter().position(|c| c == "status");
    let mut tally = Tally::default();
    while let Some(row) = reader.read_row()? {
        let status = match status_col.map(|i| row.extra[i].as_str()) {
            Some("ok") => Status::Ok,
            Some(s) if s.starts_with("unsupported") => Status::Unsupported(s.into()),
            Some(s) => Status::Error(s.into()),
            None => Status::Ok,
        };
        tally.add(&row, &status);
    }
    Ok(tally)
}
