//! `rdnaprobe progfuzz`: random well-formed RDNA2 wave programs (SALU, VALU with modifiers
//! and DPP, VOPC into VCC/SGPRs/EXEC, saveexec, cross-lane, LDS, forward branches, bounded
//! loops) run on the CPU model and on a backend, every output compared (per-lane v10..v25,
//! s0..s15, EXEC, VCC, SCC, LDS). A difference is shrunk to a small case, written as a
//! one-wave dataset, and printed as a one-line repro: `rdnaprobe progfuzz --replay FILE
//! --backend B`, which runs that file on `cpu` and `B` and prints what differs.

pub mod case;
pub mod gen;
mod gen_image;
mod render;
pub mod shrink;
#[cfg(test)]
pub(crate) mod tests;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use rdnaprobe_dataset::{read_dataset, WaveLayout, Writer};
use rdnaprobe_recompiler::spirv::arbitrary::Rng;

use crate::backend::{self, cpu::CpuBackend, Backend};
use case::{compare, differs, Case, Compared, COLUMNS};
use gen::{Gen, Pools};

#[derive(clap::Args)]
pub struct Args {
    /// Seed of the first program (program i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of programs.
    #[arg(long, default_value_t = 200)]
    pub programs: u64,
    /// Items per program body (blocks count as one item).
    #[arg(long, default_value_t = 8)]
    pub size: usize,
    /// Waves per program: the first as today, the others with fresh inputs in the same float
    /// mode, so they run through the same compiled kernel (a driver's compile time is paid once).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub waves: u64,
    /// Backend compared with `cpu`.
    #[arg(long, default_value = "vulkan:lavapipe")]
    pub backend: String,
    /// Folder for the shrunk repro datasets.
    #[arg(long, default_value = ".")]
    pub out: PathBuf,
    /// Checks the shrinker may spend on one difference.
    #[arg(long, default_value_t = 400)]
    pub shrink_budget: usize,
    /// Run a repro dataset on `cpu` and the backend and print its differences instead.
    #[arg(long)]
    pub replay: Option<PathBuf>,
}

/// Totals of a batch run.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub programs: u64,
    pub waves: u64,
    pub lanes: u64,
    pub dwords: u64,
    pub not_run: u64,
    pub not_run_why: Vec<String>,
    pub differences: Vec<String>,
    pub repros: Vec<String>,
}

/// Mixed into a program's seed for the inputs of its extra waves (`--waves`).
const EXTRA_WAVES: u64 = 0x9e37_79b9_7f4a_7c15;

/// The case of program `i` of a run seeded `seed`.
pub fn case_for(pools: &Pools, seed: u64, size: usize) -> Case {
    let mut rng = Rng::new(seed);
    let wave = if rng.below(2) == 0 { 32 } else { 64 };
    let gen = Gen { pools, wave };
    let program = gen.program(&mut rng, size);
    Case::random(&mut rng, program)
}

/// Runs `n` programs from `seed` in batches; differences are shrunk when `out` is given.
pub fn fuzz(
    args: &Args,
    other: &mut dyn Backend,
    mut on_case: impl FnMut(&Case),
    progress: bool,
) -> anyhow::Result<Summary> {
    let pools = Pools::from_table();
    let mut cpu = CpuBackend::new();
    let layout = case::layout();
    let mut s = Summary::default();
    let mut i = 0;
    while i < args.programs {
        let end = (i + 32).min(args.programs);
        let mut batch: Vec<(String, Case)> = Vec::new();
        for k in i..end {
            let seed = args.seed + k;
            let first = case_for(&pools, seed, args.size);
            let mut rng = Rng::new(seed ^ EXTRA_WAVES);
            let more: Vec<Case> = (1..args.waves)
                .map(|_| first.with_new_inputs(&mut rng))
                .collect();
            batch.push((format!("program seed {seed}"), first));
            for (w, case) in more.into_iter().enumerate() {
                batch.push((format!("program seed {seed} wave {}", w + 1), case));
            }
        }
        s.programs += end - i;
        i = end;
        let mut rows = Vec::new();
        let mut starts = Vec::new();
        for (k, (name, case)) in batch.iter().enumerate() {
            on_case(case);
            starts.push(rows.len());
            rows.extend(
                case.rows(&format!("w{k}"))
                    .map_err(|e| anyhow::anyhow!("{name}: {e}"))?,
            );
        }
        s.waves += batch.len() as u64;
        let a = cpu.run_waves(&rows, &layout);
        let b = other.run_waves(&rows, &layout);
        let c: Compared = compare(&rows, &a, &b);
        s.lanes += c.lanes;
        s.dwords += c.dwords;
        s.not_run += c.not_run;
        s.not_run_why.extend(c.not_run_why);
        for (start, what) in c.differences {
            let k = starts.iter().position(|&x| x == start).unwrap_or(0);
            let (name, case) = (&batch[k].0, &batch[k].1);
            // A difference that the wave does not show when it runs alone (a batch-level
            // failure such as a device timeout, or a race between waves) is kept as found:
            // shrinking needs a difference that reproduces.
            let alone = differs(case, &mut cpu, other).is_some();
            let how = if alone {
                ""
            } else {
                " (not reproduced when the wave runs alone)"
            };
            s.differences.push(format!("{name}: {what}{how}"));
            let small = if alone {
                shrink::shrink(case, args.shrink_budget, &mut |c| {
                    differs(c, &mut cpu, other).is_some()
                })
            } else {
                case.clone()
            };
            let file = name
                .trim_start_matches("program seed ")
                .replace(" wave ", "-w");
            let path = args.out.join(format!("progfuzz-{file}.csv"));
            write_case(&small, &path)?;
            s.repros.push(format!(
                "rdnaprobe progfuzz --replay {} --backend {}   # {}",
                path.display(),
                args.backend,
                differs(&small, &mut cpu, other).unwrap_or_else(|| "(flaky)".into())
            ));
        }
        if progress {
            note!(
                "progfuzz: {} programs, {} waves, {} output dwords, {} differences",
                s.programs,
                s.waves,
                s.dwords,
                s.differences.len()
            );
        }
    }
    Ok(s)
}

/// Writes `case` as a one-wave dataset.
pub fn write_case(case: &Case, path: &std::path::Path) -> anyhow::Result<()> {
    let rows = case.rows("repro").map_err(|e| anyhow::anyhow!(e))?;
    let file = std::fs::File::create(path).with_context(|| path.display().to_string())?;
    let cols = COLUMNS.map(String::from);
    let mut w = Writer::new(file, path.display().to_string(), &[], &cols)?;
    for r in &rows {
        w.write_row(r, &[])?;
    }
    w.finish()?;
    Ok(())
}

fn replay(path: &std::path::Path, other: &mut dyn Backend) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let ds = read_dataset(path)?;
    let layout = WaveLayout::from_columns(&ds.extra_columns)
        .with_context(|| format!("{}: not a wave dataset", path.display()))?;
    let a = CpuBackend::new().run_waves(&ds.rows, &layout);
    let b = other.run_waves(&ds.rows, &layout);
    let c = compare(&ds.rows, &a, &b);
    if let Some(r) = ds.rows.first() {
        writeln!(out, "{}", r.instruction.replace("; ", "\n"))?;
    }
    for (start, what) in &c.differences {
        writeln!(out, "difference (wave at row {}): {what}", start + 2)?;
    }
    writeln!(
        out,
        "{} lanes, {} output dwords compared, {} differences",
        c.lanes,
        c.dwords,
        c.differences.len()
    )?;
    Ok(ExitCode::from(u8::from(!c.differences.is_empty())))
}

/// The command: exit code 0 when every program agrees, 1 when some differ.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut other = backend::open(&args.backend)?;
    if let Some(path) = &args.replay {
        return replay(path, other.as_mut());
    }
    std::fs::create_dir_all(&args.out).with_context(|| args.out.display().to_string())?;
    let t = Instant::now();
    let s = fuzz(&args, other.as_mut(), |_| {}, true)?;
    let secs = t.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "progfuzz: seed {} backend {}: {} programs, {} waves, {} lanes, {} output dwords \
         compared, {} waves not run, {} differences",
        args.seed,
        args.backend,
        s.programs,
        s.waves,
        s.lanes,
        s.dwords,
        s.not_run,
        s.differences.len()
    )?;
    writeln!(
        out,
        "{secs:.1} s: {:.1} programs/s, {:.0} output dwords/s",
        s.programs as f64 / secs,
        s.dwords as f64 / secs
    )?;
    for w in s.not_run_why.iter().take(8) {
        writeln!(out, "not run: {w}")?;
    }
    for d in &s.differences {
        writeln!(out, "difference: {d}")?;
    }
    for r in &s.repros {
        writeln!(out, "repro: {r}")?;
    }
    Ok(ExitCode::from(u8::from(!s.differences.is_empty())))
}
