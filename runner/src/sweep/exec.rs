//! Running a sweep crash-safely, in chunks, on one shard of its row order.
//!
//! Files beside the output `OUT.csv`: `OUT.csv.partial` (the header and every finished chunk,
//! fsynced after each chunk) and `OUT.csv.journal` (JSON: spec hash, backend, shard, rows done
//! and the byte length of the partial file at that point, replaced atomically after each
//! chunk). A process killed at any moment leaves a journal that points at the end of the last
//! complete chunk; `--resume` truncates the partial file to that length (dropping a chunk
//! that was half written) and carries on. `OUT.csv` appears by rename only when every row of
//! the shard is in, then its manifest is written and the journal removed.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use rdnaprobe_dataset::{
    manifest_path, sha256_file, sync_dir, AtomicFile, Manifest, Reader, Writer,
};
use serde::{Deserialize, Serialize};

use super::out::{manifest_producer, progress, run_batch, Tally, RESULT_COLUMNS};
use super::spec::{Sweep, SWEEP_ROW_COLUMN};
use crate::backend::{Backend, Status};

/// Test hook: abort the process right after this many chunks were committed.
pub const ABORT_AFTER_ENV: &str = "RDNAPROBE_SWEEP_ABORT_AFTER_CHUNKS";
/// Test hook: abort the process in the middle of writing this (1-based) chunk.
pub const ABORT_MID_ENV: &str = "RDNAPROBE_SWEEP_ABORT_MID_CHUNK";

/// `--shard i/n`: the i-th (1-based) of n contiguous slices of the row order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s.split_once('/').ok_or("expected i/n, e.g. 2/4")?;
        let index: u64 = i
            .trim()
            .parse()
            .map_err(|_| format!("bad shard index `{i}`"))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("bad shard count `{n}`"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {index}/{count}: need 1 <= i <= n"));
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Rows `[total*(i-1)/n, total*i/n)`: the shards of a sweep tile its rows exactly.
    pub fn range(self, total: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(total) * u128::from(k) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

pub struct Options {
    /// Backend as given on the command line (checked on resume).
    pub backend: String,
    pub shard: Option<Shard>,
    pub resume: bool,
    /// Rows per chunk (one backend call, one fsync).
    pub chunk: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Journal {
    spec_hash: String,
    backend: String,
    shard: Option<String>,
    start: u64,
    end: u64,
    rows_done: u64,
    bytes: u64,
}

fn side_path(out: &Path, suffix: &str) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    out.with_file_name(name)
}

pub fn partial_path(out: &Path) -> PathBuf {
    side_path(out, ".partial")
}

pub fn journal_path(out: &Path) -> PathBuf {
    side_path(out, ".journal")
}

fn write_journal(path: &Path, j: &Journal) -> anyhow::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(&serde_json::to_vec_pretty(j)?)
        .with_context(|| format!("writing {}", path.display()))?;
    f.commit()?;
    Ok(())
}

fn read_journal(path: &Path) -> anyhow::Result<Journal> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: not a sweep journal", path.display()))
}

fn env_chunk(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
}

/// The output header: v1 columns, `backend`, `status`, then `sweep_row`.
fn header_bytes(label: &str) -> anyhow::Result<Vec<u8>> {
    let w = Writer::new(
        Vec::new(),
        label,
        &RESULT_COLUMNS,
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
    let partial = partial_path(out);
    let journal_file = journal_path(out);
    let range = opts
        .shard
        .map_or(0..sweep.total_rows(), |s| s.range(sweep.total_rows()));
    let fresh = Journal {
        spec_hash: sweep.hash(),
        backend: opts.backend.clone(),
        shard: opts.shard.map(|s| s.to_string()),
        start: range.start,
        end: range.end,
        rows_done: 0,
        bytes: 0,
    };
    let mut journal = if journal_file.exists() {
        if !opts.resume {
            bail!(
                "an unfinished sweep into {label} exists ({}): pass --resume to continue it, or delete {} and {}",
                journal_file.display(),
                journal_file.display(),
                partial.display()
            );
        }
        let j = read_journal(&journal_file)?;
        let same = Journal {
            rows_done: j.rows_done,
            bytes: j.bytes,
            ..fresh.clone()
        };
        if j != same {
            bail!(
                "{} was written by a different sweep (spec hash, backend or shard differ): \
                 journal {j:?}, now {same:?}",
                journal_file.display()
            );
        }
        if partial.exists() {
            let f = OpenOptions::new()
                .write(true)
                .open(&partial)
                .with_context(|| format!("opening {}", partial.display()))?;
            let len = f.metadata()?.len();
            if len < j.bytes {
                bail!(
                    "{} has {len} bytes, its journal says {} were committed: the file was damaged",
                    partial.display(),
                    j.bytes
                );
            }
            // Drop whatever a killed chunk left after the last commit.
            f.set_len(j.bytes)?;
            f.sync_all()?;
        } else if !(out.exists() && j.rows_done == j.end - j.start) {
            bail!(
                "{} is missing; delete {} and start again",
                partial.display(),
                journal_file.display()
            );
        }
        j
    } else {
        if opts.resume && out.exists() {
            eprintln!("{label}: already complete, nothing to resume");
            return tally_file(out);
        }
        let header = header_bytes(&label)?;
        let mut f = fs::File::create(&partial)
            .with_context(|| format!("creating {}", partial.display()))?;
        f.write_all(&header)?;
        f.sync_all()?;
        sync_dir(&partial);
        let j = Journal {
            bytes: header.len() as u64,
            ..fresh
        };
        write_journal(&journal_file, &j)?;
        j
    };

    let abort_after = env_chunk(ABORT_AFTER_ENV);
    let abort_mid = env_chunk(ABORT_MID_ENV);
    let total = range.end - range.start;
    let bar = progress(total);
    if let Some(b) = &bar {
        b.set_position(journal.rows_done);
    }
    let chunk = opts.chunk.max(1);
    let mut chunks_done = 0u64;
    let mut this_run = Tally::default();
    while journal.rows_done < total {
        let first = range.start + journal.rows_done;
        let last = (first + chunk).min(range.end);
        let rows: Vec<_> = (first..last).map(|i| sweep.row(i)).collect();
        let results = run_batch(backend, &rows);
        let mut w = Writer::headless(Vec::new(), &label, RESULT_COLUMNS.len(), 1);
        for (row, res) in rows.iter().zip(&results) {
            let status = res.status.to_string();
            let out_row = super::out::result_row(row, res);
            w.write_row(&out_row, &[opts.backend.as_str(), status.as_str()])?;
            this_run.add(row, &res.status);
        }
        let bytes = w.finish()?;
        let mut f = OpenOptions::new()
            .append(true)
            .open(&partial)
            .with_context(|| format!("opening {}", partial.display()))?;
        if abort_mid == Some(chunks_done + 1) {
            // Half the chunk, never ending on a row boundary: a torn last row.
            let mut cut = bytes.len() / 2;
            if cut > 0 && bytes[cut - 1] == b'\n' {
                cut += 1;
            }
            f.write_all(&bytes[..cut.min(bytes.len())])?;
            f.sync_all()?;
            eprintln!(
                "{ABORT_MID_ENV}: aborting in the middle of chunk {}",
                chunks_done + 1
            );
            std::process::abort();
        }
        f.write_all(&bytes)
            .with_context(|| format!("appending to {}", partial.display()))?;
        f.sync_all()?;
        journal.rows_done += last - first;
        journal.bytes += bytes.len() as u64;
        write_journal(&journal_file, &journal)?;
        chunks_done += 1;
        if let Some(b) = &bar {
            b.set_position(journal.rows_done);
        }
        if abort_after == Some(chunks_done) {
            eprintln!("{ABORT_AFTER_ENV}: aborting after chunk {chunks_done}");
            std::process::abort();
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if partial.exists() {
        fs::rename(&partial, out)
            .with_context(|| format!("renaming {} to {label}", partial.display()))?;
        sync_dir(out);
    }
    let tally = tally_file(out)?;
    let mut manifest = Manifest::new_v1(
        out,
        manifest_producer(&backend.producer()),
        tally.rows,
        sha256_file(out)?,
    );
    manifest.generator = format!("rdnaprobe sweep: {}", sweep.describe());
    manifest.sweep = Some(sweep_json(sweep, opts.shard, range.clone()));
    manifest.defaults = tally.defaults_json();
    manifest.write(&manifest_path(out))?;
    fs::remove_file(&journal_file)
        .with_context(|| format!("removing {}", journal_file.display()))?;
    eprintln!(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_rows() {
        for total in [0u64, 1, 7, 100, 1001] {
            for n in 1..=9u64 {
                let mut next = 0;
                for i in 1..=n {
                    let r = Shard { index: i, count: n }.range(total);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert_eq!(
            "2/3".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 3 }
        );
    }
}
