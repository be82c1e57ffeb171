//! `plan --estimate`: rows, device hours and output size of a sweep before it runs. The rate is
//! the `--rows-per-s` given, or measured here: the sweep's first rows (up to [`SAMPLE_ROWS`])
//! run on the plan's backend into a temporary file, timed, and the file's bytes per row give
//! the output size. A short local run is how a cluster run is sized.

use std::time::Instant;

use crate::sweep::exec::{self, Options};
use crate::sweep::spec::Sweep;

/// Rows of the local sample.
pub const SAMPLE_ROWS: u64 = 8192;

/// What a plan will cost.
#[derive(Clone, Debug)]
pub struct Estimate {
    pub rows: u64,
    pub rows_per_s: f64,
    /// Where the rate comes from.
    pub rate_from: String,
    pub bytes_per_row: f64,
}

impl Estimate {
    pub fn device_hours(&self) -> f64 {
        self.rows as f64 / self.rows_per_s / 3600.0
    }

    pub fn output_bytes(&self) -> f64 {
        self.rows as f64 * self.bytes_per_row
    }

    pub fn render(&self, shards: u64) -> String {
        let hours = self.device_hours();
        format!(
            "estimate: {} rows at {:.3e} rows/s ({}) = {:.3} device hours = {:.1} device seconds \
             ({:.3} h wall per shard on {} shard(s)); output {:.3} GB ({:.0} B/row)\n",
            self.rows,
            self.rows_per_s,
            self.rate_from,
            hours,
            hours * 3600.0,
            hours / shards as f64,
            shards,
            self.output_bytes() / 1e9,
            self.bytes_per_row
        )
    }
}

pub fn estimate(sweep: &Sweep, args: &super::Args) -> anyhow::Result<Estimate> {
    let total = sweep.total_rows();
    let dir = std::env::temp_dir().join(format!("rdnaprobe-estimate-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let result = sample(sweep, args, &dir.join("sample.csv"));
    let _ = std::fs::remove_dir_all(&dir);
    let (sample_rows, secs, bytes) = result?;
    let measured = sample_rows as f64 / secs;
    let (rows_per_s, rate_from) = match args.rows_per_s {
        Some(r) => (r, "given".to_string()),
        None => (
            measured,
            format!("measured: {sample_rows} rows in {secs:.2} s here"),
        ),
    };
    Ok(Estimate {
        rows: total,
        rows_per_s,
        rate_from,
        bytes_per_row: bytes / sample_rows.max(1) as f64,
    })
}

/// Runs the sample into `out`: (rows, seconds, bytes of rows).
fn sample(
    sweep: &Sweep,
    args: &super::Args,
    out: &std::path::Path,
) -> anyhow::Result<(u64, f64, f64)> {
    let total = sweep.total_rows();
    // The first slice of the rows no larger than the sample.
    let count = total.div_ceil(SAMPLE_ROWS).max(1);
    let shard = crate::plan::order::Shard { index: 1, count };
    let sample_rows = shard.range(total).end;
    let opts = Options {
        backend: args.backend.clone(),
        shard: Some(shard),
        resume: false,
        chunk: args.chunk,
    };
    let mut backend = crate::backend::open(&args.backend)?;
    let started = Instant::now();
    exec::run(sweep, backend.as_mut(), out, &opts)?;
    let secs = started.elapsed().as_secs_f64().max(1e-6);
    let header = exec_header_len(out)?;
    let bytes = std::fs::metadata(out)?.len().saturating_sub(header) as f64;
    Ok((sample_rows, secs, bytes))
}

/// Bytes of the header line of a dataset file.
fn exec_header_len(path: &std::path::Path) -> anyhow::Result<u64> {
    let text = std::fs::read(path)?;
    Ok(text
        .iter()
        .position(|b| *b == b'\n')
        .map_or(0, |p| p as u64 + 1))
}
