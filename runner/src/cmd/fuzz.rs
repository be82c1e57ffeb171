//! `rdnaprobe fuzz`: the differential VALU fuzzer (see the `fuzz` module) from the command
//! line. Prints the seed and the sizes first, one repro line per mismatching row (up to
//! `--max-repros`) on stdout, and a summary on stderr. Exit 1 when any row differs.
//!
//! `--images N` adds N random image sweep specs (`fuzz::image_run`): their reproducers are
//! reduced spec files under `--repro-dir` and one `rdnaprobe sweep` command each on stdout;
//! their summary is the last line on stderr. With `--images` the VALU rows run only when
//! `--rows` is given. Exit 2 when rows fail with the same error on both backends (and none
//! differs).

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use crate::fuzz::{self, Config};

#[derive(clap::Args)]
pub struct Args {
    /// Seed of the generator (default: from the clock; printed either way).
    #[arg(long)]
    pub seed: Option<u64>,
    /// VALU rows to run (default 100000, or 0 with --images).
    #[arg(long)]
    pub rows: Option<usize>,
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
    /// Random image sweep specs to run (image samples, gathers, loads, stores, queries and
    /// atomics on random T#s, S#s and coordinates).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub images: usize,
    /// Where the image reproducers (reduced spec files) go; default: a new directory under
    /// the system's temporary directory, printed on stderr.
    #[arg(long, value_name = "DIR")]
    pub repro_dir: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rows = args
        .rows
        .unwrap_or(if args.images > 0 { 0 } else { 100_000 });
    anyhow::ensure!(
        rows > 0 || args.images > 0,
        "--rows must be at least 1 (or give --images N)"
    );
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let start = Instant::now();
    let mut cpu = crate::backend::open("cpu")?;
    let mut cand = crate::backend::open(&args.backend)?;
    let mut total_bad = 0usize;
    if rows > 0 {
        total_bad = run_rows(&args, rows, seed, cpu.as_mut(), cand.as_mut(), start)?;
    }
    if args.images == 0 {
        return Ok(exit(total_bad, 0));
    }
    let start = Instant::now();
    note!(
        "fuzz --images: seed {seed}, {} image specs, cpu vs {}",
        args.images,
        args.backend
    );
    let cfg = fuzz::image_run::Config {
        seed,
        specs: args.images,
        backend: args.backend.clone(),
        max_repros: args.max_repros,
        repro_dir: args.repro_dir.clone(),
    };
    let mut out = std::io::stdout().lock();
    let t = fuzz::image_run::run(&cfg, cpu.as_mut(), cand.as_mut(), &mut out)?;
    out.flush()?;
    note!("{}", t.ops_line());
    note!("{}", t.slowest_line());
    note!(
        "{}, {:.1} s",
        t.summary(seed),
        start.elapsed().as_secs_f64()
    );
    Ok(exit(total_bad + t.mismatches, t.errors))
}

/// 0 when nothing differs and no row failed, 1 when a row differs, else 2.
fn exit(mismatches: usize, errors: usize) -> ExitCode {
    match (mismatches, errors) {
        (0, 0) => ExitCode::SUCCESS,
        (0, _) => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}

/// The VALU rows: returns the mismatching rows.
fn run_rows(
    args: &Args,
    rows: usize,
    seed: u64,
    cpu: &mut dyn crate::backend::Backend,
    cand: &mut dyn crate::backend::Backend,
    start: Instant,
) -> anyhow::Result<usize> {
    note!(
        "fuzz: seed {seed}, {} rows, {} rows per body, bodies of 1..={} instructions, cpu vs {}",
        rows,
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
    while done < rows {
        // each batch has its own stream, so a batch's rows do not depend on the batch size
        // of the batches before it
        let cfg = Config {
            seed: seed.wrapping_add(batch_no.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            rows: batch.min(rows - done),
            rows_per_body: args.rows_per_body,
            max_len: args.max_len,
        };
        let g = fuzz::generate(&cfg);
        bodies += g.bodies;
        refused += g.refused;
        opcodes.extend(g.opcodes);
        templates = g.templates;
        for m in fuzz::compare(&g.rows, cpu, cand, &args.backend) {
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
    Ok(total_bad)
}
