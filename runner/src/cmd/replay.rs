//! `rdnaprobe replay DATASET.csv... --backend B [-o OUT.csv | -o DIR/]`: runs dataset rows
//! through a backend and writes the replay output schema (docs/dataset-format.md): the v1
//! columns with out0..out15 replaced by the backend's results, then `backend` and `status`,
//! then the input's extra columns.
//!
//! Several inputs are concatenated into one output (their extra columns must match), or, with
//! `-o DIR/` (a trailing slash or an existing directory), each input gets `DIR/NAME.csv`.
//! Without `-o` the CSV goes to stdout and no manifest is written. A row that cannot run
//! carries its reason in `status`; it never stops the other rows. With `-o DIR/` the command
//! prints one summary line (the default-mode notes once, on it); `-v` adds a line per input.
//!
//! One row, printed instead of written: `rdnaprobe replay DATASET --row ID` runs the row whose
//! `row_id` is ID (or data row ID of a dataset without that row_id) and shows its outputs next
//! to the dataset's; `rdnaprobe replay --asm "v_cos_f32 v10, v4" --in0 0x3e720bea --mode
//! ieee=0` (or `--encoding "0x7e106d04"`) runs one experiment given on the command line. The
//! report's and the site's repro cells are such commands ([`rdnaprobe_reports::format::repro_command`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use rdnaprobe_dataset::{
    clashing_column, manifest_path, sha256_file, AtomicFile, Manifest, Reader, ReplayWriter, Row,
    Tally, WaveLayout,
};

use crate::backend::phase::{self, span, Phase};
use crate::backend::Backend;
use crate::batch;
use crate::progress::Rows;

pub(crate) mod one_row;

#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("one_row").args(["asm", "encoding"]).multiple(false))]
pub struct Args {
    /// Schema v1 datasets to replay (none with --asm/--encoding).
    #[arg(required_unless_present_any = ["asm", "encoding"])]
    pub inputs: Vec<PathBuf>,
    /// Replay one row of the (one) dataset and print it: the row whose `row_id` is ID, or data
    /// row ID (1-based) when no row has that row_id.
    #[arg(long, value_name = "ID")]
    pub row: Option<String>,
    /// One row from the command line: its body as assembly (`v_cos_f32 v10, v4`).
    #[arg(long, conflicts_with_all = ["inputs", "encoding"])]
    pub asm: Option<String>,
    /// One row from the command line: its body as instruction words (`0x7e106d04 ...`).
    #[arg(long, conflicts_with = "inputs")]
    pub encoding: Option<String>,
    /// One row's inputs in0..in5 (v4..v9 before the body) as 0x hex dwords; unnamed ones are 0.
    #[arg(long = "in0", value_name = "HEX", requires = "one_row")]
    pub in0: Option<String>,
    #[arg(long = "in1", value_name = "HEX", requires = "one_row", hide = true)]
    pub in1: Option<String>,
    #[arg(long = "in2", value_name = "HEX", requires = "one_row", hide = true)]
    pub in2: Option<String>,
    #[arg(long = "in3", value_name = "HEX", requires = "one_row", hide = true)]
    pub in3: Option<String>,
    #[arg(long = "in4", value_name = "HEX", requires = "one_row", hide = true)]
    pub in4: Option<String>,
    #[arg(long = "in5", value_name = "HEX", requires = "one_row", hide = true)]
    pub in5: Option<String>,
    /// One row's float mode: `default`, or `FIELD=V,...` (ieee, dx10_clamp, denorm32,
    /// denorm16, round32, round16, fp16_overflow); fields not named are FloatMode::DEFAULT's.
    #[arg(long, requires = "one_row")]
    pub mode: Option<String>,
    /// One row's wave size, 32 or 64.
    #[arg(long, value_name = "LANES", requires = "one_row", value_parser = super::args::wave)]
    pub wave: Option<rdnaprobe_isa::Wave>,
    /// One row's target (the row's `gfx` cell), e.g. gfx1030.
    #[arg(long, alias = "mcpu", value_name = "TARGET", requires = "one_row", value_parser = super::args::target)]
    pub gfx: Option<rdnaprobe_isa::Target>,
    /// A line per input (with -o DIR/), with the default-mode notes of each.
    #[arg(long, short)]
    pub verbose: bool,
    /// Backend: cpu, vulkan[:lavapipe|nvidia|radv|N], hip[:gfx10xx].
    #[arg(long, short, default_value = "cpu")]
    pub backend: String,
    /// Output CSV (inputs concatenated), or a directory (`DIR/`) for one output per input.
    /// Default: CSV on stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Rows per backend call.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// hip: run waves the hazard list refuses (instruction and format pairs known to hang the
    /// GPU; docs/oracle.md, Hazards). The watchdog still makes a hung kernel a row error.
    #[arg(long)]
    pub allow_hazards: bool,
    /// Image samples, gathers and loads: `software` (the model's rules, on every backend) or
    /// `native` (a Vulkan driver's own texture unit; docs/backends.md, "Native images").
    #[arg(long, value_name = "PATH", default_value = "software", value_parser = super::args::images)]
    pub images: rdnaprobe_recompiler::ImagePath,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.asm.is_some() || args.encoding.is_some() {
        return one_row::from_args(&args);
    }
    if let Some(id) = &args.row {
        return one_row::from_dataset(&args, id);
    }
    let mut backend = crate::backend::open_images(&args.backend, args.images)?;
    super::allow_hazards(backend.as_mut(), args.allow_hazards);
    let label = super::args::backend_label(&args.backend, args.images);
    let started = Instant::now();
    let batch = args.batch.max(1);
    match &args.output {
        None => {
            let columns = WaveLayout::output_columns(&common_columns(&args.inputs)?);
            let stdout = std::io::stdout().lock();
            let mut w = ReplayWriter::new(stdout, "<stdout>", &columns)?;
            let tally = replay_into(&args.inputs, backend.as_mut(), &label, batch, &mut w)?;
            w.finish()?.flush()?;
            note!("{}", tally.summary(Some(started.elapsed().as_secs_f64())));
        }
        Some(out) if is_dir_target(out) => {
            std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
            let mut total = Tally::default();
            for input in &args.inputs {
                let name = input.file_name().context("input has no file name")?;
                let target = out.join(name);
                if same_file(input, &target) {
                    bail!("{}: the output would overwrite the input", target.display());
                }
                let t = replay_to_file(
                    std::slice::from_ref(input),
                    &target,
                    backend.as_mut(),
                    &label,
                    batch,
                )?;
                // The default-mode notes go once, on the summary line; a line per input only
                // with -v or where rows did not run.
                if args.verbose {
                    note!("{}: {}", target.display(), t.summary(None));
                } else if t.ok < t.rows {
                    note!("{}: {}", target.display(), counts(&t));
                }
                total.merge(&t);
            }
            note!(
                "{}: {} files, {}",
                out.display(),
                args.inputs.len(),
                total.summary(Some(started.elapsed().as_secs_f64()))
            );
        }
        Some(out) => {
            if args.inputs.iter().any(|i| same_file(i, out)) {
                bail!("{}: the output would overwrite an input", out.display());
            }
            super::check_output_file(out)?;
            let tally = replay_to_file(&args.inputs, out, backend.as_mut(), &label, batch)?;
            note!("{}", tally.summary(Some(started.elapsed().as_secs_f64())));
        }
    }
    if let Some(line) = phase::summary() {
        note!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// A tally's outcome counts without the default-mode notes.
fn counts(t: &Tally) -> String {
    Tally {
        unstated: Default::default(),
        ..t.clone()
    }
    .summary(None)
}

fn is_dir_target(p: &Path) -> bool {
    p.is_dir() || p.as_os_str().to_string_lossy().ends_with('/')
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// The extra columns shared by all inputs (concatenation needs them equal).
fn common_columns(inputs: &[PathBuf]) -> anyhow::Result<Vec<String>> {
    let mut columns: Option<(Vec<String>, &Path)> = None;
    for input in inputs {
        let cols = Reader::open(input)?.extra_columns().to_vec();
        if let Some((c, first)) = &columns {
            if *c != cols {
                bail!(
                    "{}: extra columns {cols:?} differ from {}'s {c:?}; replay them one by one or with -o DIR/",
                    input.display(),
                    first.display()
                );
            }
        } else {
            columns = Some((cols, input));
        }
    }
    let columns = columns.map(|(c, _)| c).unwrap_or_default();
    if let Some(clash) = clashing_column(&columns) {
        bail!("the inputs already have a `{clash}` column (replay output?): replay the original dataset");
    }
    Ok(columns)
}

fn replay_into<W: Write>(
    inputs: &[PathBuf],
    backend: &mut dyn Backend,
    backend_name: &str,
    batch: usize,
    w: &mut ReplayWriter<W>,
) -> anyhow::Result<Tally> {
    let mut tally = Tally::default();
    for input in inputs {
        let reader = Reader::open(input)?;
        let layout = reader.wave_layout().cloned();
        // The output's wave columns: the input's plus the uniform outputs it lacks.
        let out_columns = WaveLayout::output_columns(reader.extra_columns());
        let out_layout = WaveLayout::from_columns(&out_columns);
        let bar = Rows::plain(count_lines(input).saturating_sub(1));
        let mut rows: Vec<Row> = Vec::with_capacity(batch);
        let mut flush = |rows: &mut Vec<Row>,
                         w: &mut ReplayWriter<W>,
                         tally: &mut Tally|
         -> anyhow::Result<()> {
            if let Some(layout) = &layout {
                // A wave dataset: `rows` holds whole waves (see the loop below).
                let results = {
                    let _s = span(Phase::Backend);
                    backend.run_waves(&rows[..], layout)
                };
                let _s = span(Phase::Write);
                let out_layout = out_layout.as_ref().unwrap_or(layout);
                let n = rows.len() as u64;
                // The rows become their output rows in place.
                for ((mut row, res), uni) in rows.drain(..).zip(&results.rows).zip(&results.uniform)
                {
                    tally.add(&row, &res.status);
                    row.extra.resize(out_columns.len(), String::new());
                    out_layout.set_outputs(&mut row, uni.as_ref());
                    w.write(&row, res.outputs, backend_name, &res.status)?;
                }
                bar.add(n);
                rows.clear();
                return Ok(());
            }
            let results = {
                let _s = span(Phase::Backend);
                batch::run(backend, &rows[..])
            };
            let _s = span(Phase::Write);
            for (row, res) in rows.iter().zip(&results) {
                w.write(row, res.outputs, backend_name, &res.status)?;
                tally.add(row, &res.status);
            }
            bar.add(rows.len() as u64);
            rows.clear();
            Ok(())
        };
        let layout = reader.wave_layout().cloned();
        let mut reader = reader;
        loop {
            let row = {
                let _s = span(Phase::Read);
                reader.next()
            };
            let Some(row) = row else { break };
            let row = row?;
            if let Some(layout) = &layout {
                // Batches of a wave dataset end at a wave's end.
                let new_wave = rows
                    .last()
                    .is_some_and(|last| !layout.same_wave(last, &row));
                if rows.len() >= batch && new_wave {
                    flush(&mut rows, w, &mut tally)?;
                }
                rows.push(row);
                continue;
            }
            rows.push(row);
            if rows.len() == batch {
                flush(&mut rows, w, &mut tally)?;
            }
        }
        flush(&mut rows, w, &mut tally)?;
        bar.finish();
    }
    Ok(tally)
}

/// Lines in a file (for the progress bar's length); 0 when it cannot be read.
fn count_lines(path: &Path) -> u64 {
    use std::io::Read;
    let Ok(mut f) = std::fs::File::open(path) else {
        return 0;
    };
    let mut buf = vec![0u8; 1 << 16];
    let mut n = 0u64;
    while let Ok(k) = f.read(&mut buf) {
        if k == 0 {
            break;
        }
        n += buf[..k].iter().filter(|b| **b == b'\n').count() as u64;
    }
    n
}

pub(crate) fn replay_to_file(
    inputs: &[PathBuf],
    out: &Path,
    backend: &mut dyn Backend,
    backend_name: &str,
    batch: usize,
) -> anyhow::Result<Tally> {
    let columns = WaveLayout::output_columns(&common_columns(inputs)?);
    let file = AtomicFile::create(out)?;
    let mut w = ReplayWriter::new(file, out.display().to_string(), &columns)?;
    let tally = replay_into(inputs, backend, backend_name, batch, &mut w)?;
    let _s = span(Phase::Finish);
    w.finish()?.commit()?;
    let mut manifest = Manifest::new_v1(
        out,
        backend.producer().manifest(),
        tally.rows,
        sha256_file(out)?,
    );
    let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    manifest.generator = format!("rdnaprobe replay of {}", names.join(", "));
    manifest.defaults = tally.defaults_json();
    let mut sources = Vec::new();
    for input in inputs {
        sources.push(serde_json::json!({
            "path": input.display().to_string(),
            "sha256": sha256_file(input)?,
        }));
    }
    manifest
        .provenance
        .insert("inputs".into(), serde_json::Value::Array(sources));
    manifest.provenance.insert(
        "outcomes".into(),
        serde_json::json!({ "ok": tally.ok, "unsupported": tally.unsupported, "error": tally.error }),
    );
    manifest.write(&manifest_path(out))?;
    Ok(tally)
}
