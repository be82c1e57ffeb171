//! `rdnaprobe fuzz`: the differential VALU fuzzer (see the `fuzz` module) from the command
//! line. Prints the seed and the sizes first, one repro line per mismatching row (up to
//! `--max-repros`) on stdout, and a summary on stderr. Exit 1 when any row differs.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use crate::fuzz::{self, Config};

#[derive(clap::Args)]
pub struct Args {
    /// Seed of the generator (default: from the clock; printed either way).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Rows to run.
    #[arg(long, default_value_t = 100_000)]
    pub rows: usize,
    /// Rows per body and float mode (one kernel each on a GPU backend).
    #[arg(long, default_value_t = 256)]
    pub rows_per_body: usize,
    /// Longest body, in instructions.
    #[arg(long, default_value_t = 4)]
    pub max_len: usize,
    /// Candidate backend, run against the CPU model.
    #[arg(long, short, default_value = "vulkan:lavapipe")]
    pub backend: String,
    /// Rows run per batch (bounds memory).
    #[arg(long, default_value_t = 65_536)]
    pub batch: usize,
    /// Repro lines printed; the rest are counted.
    #[arg(long, default_value_t = 20)]
    pub max_repros: usize,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.rows > 0, "--rows must be at least 1");
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let start = Instant::now();
    let mut cpu = crate::backend::open("cpu")?;
    let mut cand = crate::backend::open(&args.backend)?;
    note!(
        "fuzz: seed {seed}, {} rows, {} rows per body, bodies of 1..={} instructions, cpu vs {}",
        args.rows,
        args.rows_per_body,
        args.max_len,
        args.backend
    );
    let mut out = std::io::stdout().lock();
    let (mut done, mut total_bad, mut bodies, mut refused) = (0usize, 0usize, 0usize, 0usize);
    let mut opcodes = std::collections::HashSet::new();
    let mut batch_no = 0u64;
    let mut templates = 0;
    let batch = args.batch.max(args.rows_per_body).max(1);
    while done < args.rows {
        // each batch has its own stream, so a batch's rows do not depend on the batch size
        // of the batches before it
        let cfg = Config {
            seed: seed.wrapping_add(batch_no.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            rows: batch.min(args.rows - done),
            rows_per_body: args.rows_per_body,
            max_len: args.max_len,
        };
        let g = fuzz::generate(&cfg);
        bodies += g.bodies;
        refused += g.refused;
        opcodes.extend(g.opcodes);
        templates = g.templates;
        for m in fuzz::compare(&g.rows, cpu.as_mut(), cand.as_mut(), &args.backend) {
            if total_bad < args.max_repros {
                writeln!(out, "{}", m.repro)?;
                note!("  row {}: {}", done + m.index, m.detail);
            }
            total_bad += 1;
        }
        done += g.rows.len();
        batch_no += 1;
    }
    out.flush()?;
    let secs = start.elapsed().as_secs_f64();
    note!(
        "fuzz: seed {seed}: {done} rows, {bodies} bodies, {} of {templates} lowered VALU opcodes drawn, {refused} drawn instances refused, {total_bad} mismatching rows, {secs:.1} s",
        opcodes.len()
    );
    Ok(if total_bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
