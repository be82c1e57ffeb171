//! `rdnaprobe exhaustive`: a streaming sweep over every input of a set (all 2^16 f16 values,
//! all 2^32 f32 values, ranges, products of them) under a list of float modes. The candidate
//! backend's outputs are compared chunk by chunk against the CPU model and hashed; the run
//! writes RESULT_DIR/manifest.json (generator, digest, class counts per mode, timings, rows/s,
//! peak RSS) and RESULT_DIR/mismatches.csv (schema v1 rows of the first mismatches, with the
//! reference's outputs in `ref_out0..ref_out15`). While it runs, RESULT_DIR/journal.jsonl holds
//! every finished chunk, so that a killed run continues with `--resume`. See
//! docs/performance.md.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use rdnaprobe_dataset::{
    encoding_cell, git_commit, rfc3339_utc, sha256_file, AtomicFile, Manifest, ManifestProducer,
    Row, Writer,
};
use rdnaprobe_isa::{decode_stream, Decoded, Target, Wave};
use rdnaprobe_reports::classify::Class;

use crate::backend::Producer;
use crate::stream::journal::Journal;
use crate::stream::{self, digest, spec, Engine, Outcome, Plan};

#[derive(clap::Args)]
pub struct Args {
    /// The body as LLVM-syntax assembly (`;` or newlines separate instructions). Repeatable:
    /// several bodies run one after the other over the same inputs and modes, each into
    /// OUTPUT/NN-MNEMONIC (a single body writes into OUTPUT itself).
    #[arg(long, conflicts_with = "words", required_unless_present = "words")]
    pub asm: Vec<String>,
    /// The body as instruction words (hex, space or comma separated). Repeatable, as --asm.
    #[arg(long)]
    pub words: Vec<String>,
    /// Input generators, `inN=f32:all|f16:all|range:A:B|const:X` (repeatable; unnamed inputs
    /// are 0). Rows are their product, in0 varying fastest.
    #[arg(long = "input", required = true)]
    pub inputs: Vec<String>,
    /// Float modes: `all16` (denorm x round, both widths), `default`, or
    /// `FIELD=V1/V2|all,...` with fields ieee, dx10_clamp, denorm, denorm32, denorm16, round,
    /// round32, round16, fp16_overflow.
    #[arg(long, default_value = "default")]
    pub modes: String,
    #[command(flatten)]
    pub wave: super::args::WaveSize,
    // The target whose instruction table decodes the body.
    #[command(flatten)]
    pub gfx: super::args::Gfx,
    /// Candidate backend: cpu, cpu:interp, vulkan[:lavapipe|nvidia|radv|N].
    #[arg(long, short, default_value = "cpu")]
    pub backend: String,
    /// Reference: cpu, cpu:interp or none (digest only).
    #[arg(long, default_value = "cpu")]
    pub reference: String,
    /// Result directory.
    #[arg(long, short)]
    pub output: PathBuf,
    /// Rows per chunk (rounded up to a multiple of 4096).
    #[arg(long, default_value_t = 1 << 20)]
    pub chunk: usize,
    /// Mismatching rows written to mismatches.csv; the rest are counted.
    #[arg(long, default_value_t = 10_000)]
    pub max_mismatches: usize,
    #[command(flatten)]
    pub ulp: super::args::Ulp,
    /// CPU threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Continue the interrupted run whose journal is in the result directory (the same
    /// generator, modes, backends, chunk size and mismatch cap).
    #[arg(long)]
    pub resume: bool,
    /// Save the run's per-block digests into this reference digest store (a directory,
    /// docs/performance.md), keyed by body, mode, generator and semantics version.
    #[arg(long)]
    pub save_digests: Option<PathBuf>,
    /// Check the candidate against the digests in this store instead of computing the
    /// reference: only blocks whose digest differs are computed by `--reference` and diffed.
    #[arg(long)]
    pub against_digests: Option<PathBuf>,
}

/// Readable text of a body, one instruction after another.
fn body_text(words: &[u32], gfx: Target, wave: Wave) -> anyhow::Result<String> {
    let items = decode_stream(words).context("decoding the body")?;
    let parts: Vec<String> = items
        .iter()
        .map(|d| match d {
            Decoded::Inst(i) => i.to_llvm_text_for(gfx, wave),
            Decoded::Unsupported(u) => u.to_string(),
        })
        .collect();
    Ok(parts.join(" ; "))
}

/// The bodies of `--asm` or `--words`, in order.
fn bodies(args: &Args) -> anyhow::Result<Vec<Vec<u32>>> {
    let mut out = Vec::new();
    for text in &args.asm {
        let words = rdnaprobe_isa::assemble(&text.replace(';', "\n"))
            .with_context(|| format!("assembling `{text}`"))?;
        anyhow::ensure!(!words.is_empty(), "`{text}` has no instruction words");
        out.push(words);
    }
    for w in &args.words {
        let words = super::args::parse_words(w).map_err(|e| anyhow::anyhow!("--words {e}"))?;
        anyhow::ensure!(!words.is_empty(), "--words `{w}` has no instruction words");
        out.push(words);
    }
    anyhow::ensure!(!out.is_empty(), "give the body with --asm or --words");
    Ok(out)
}

/// Where body `index` of `count` writes: OUTPUT itself for one body, else
/// OUTPUT/NN-MNEMONIC (the first instruction's mnemonic).
fn body_dir(output: &std::path::Path, index: usize, count: usize, text: &str) -> PathBuf {
    if count == 1 {
        return output.to_path_buf();
    }
    let mnemonic: String = text
        .split_whitespace()
        .next()
        .unwrap_or("body")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    output.join(format!("{index:02}-{mnemonic}"))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bodies = bodies(&args)?;
    // what every body shares, parsed once: a bad --input, --modes, --backend or --reference
    // stops the command before the first body runs
    let shared = Shared {
        inputs: spec::Inputs::parse(&args.inputs)?,
        modes: spec::parse_modes(&args.modes)?,
        candidate: Engine::parse(&args.backend)?,
        reference: match args.reference.as_str() {
            "none" => None,
            r => Some(Engine::parse(r)?),
        },
    };
    let mut code = ExitCode::SUCCESS;
    for (i, words) in bodies.iter().enumerate() {
        let text = body_text(words, args.gfx.gfx, args.wave.wave)?;
        let dir = body_dir(&args.output, i, bodies.len(), &text);
        let mut resume = args.resume;
        if bodies.len() > 1 {
            note!(
                "body {} of {}: {text} -> {}",
                i + 1,
                bodies.len(),
                dir.display()
            );
            // A resumed list skips the bodies that finished (manifest written, journal gone),
            // continues the one that was cut, and starts the ones not begun.
            let manifest = dir.join("manifest.json");
            let journal = Journal::path_in(&dir).exists();
            if resume && manifest.exists() && !journal {
                note!("already finished: {}", manifest.display());
                if finished_with_mismatches(&manifest)? {
                    code = ExitCode::from(1);
                }
                continue;
            }
            resume &= journal;
        }
        if run_body(&args, &shared, resume, words.clone(), text, &dir)? != ExitCode::SUCCESS {
            code = ExitCode::from(1);
        }
    }
    Ok(code)
}

/// Whether the finished run of `manifest` (a manifest.json this command wrote) counted
/// mismatching rows.
fn finished_with_mismatches(manifest: &std::path::Path) -> anyhow::Result<bool> {
    let text = std::fs::read_to_string(manifest)
        .with_context(|| format!("reading {}", manifest.display()))?;
    let m: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", manifest.display()))?;
    Ok(m["mismatches"]["total"].as_u64().unwrap_or(0) > 0)
}

/// The parts of a run every body of the command shares.
struct Shared {
    inputs: spec::Inputs,
    modes: Vec<rdnaprobe_isa::FloatMode>,
    candidate: Engine,
    reference: Option<Engine>,
}

/// One body's streaming run into `output`.
fn run_body(
    args: &Args,
    shared: &Shared,
    resume: bool,
    words: Vec<u32>,
    instruction: String,
    output: &std::path::Path,
) -> anyhow::Result<ExitCode> {
    let wave = args.wave.wave;
    let gfx = args.gfx.gfx;
    let plan = Plan {
        instruction,
        words,
        inputs: shared.inputs.clone(),
        modes: shared.modes.clone(),
        wave,
        gfx,
        chunk_rows: Plan::round_chunk(args.chunk),
        max_mismatches: args.max_mismatches,
        ulp_k: args.ulp.ulp_k,
    };
    let (candidate, reference) = (shared.candidate.clone(), shared.reference.clone());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting the CPU thread pool")?;
    let threads = pool.current_num_threads();
    std::fs::create_dir_all(output).with_context(|| format!("creating {}", output.display()))?;

    let total = plan.total_rows();
    let bar = crate::progress::Rows::new("exhaustive", Some(total));
    let mut progress = |done: u64, _total: u64| bar.set(done);
    let key = run_key(&plan, &candidate, reference.as_ref());
    let journal_path = Journal::path_in(output);
    let (mut journal, done) = if resume {
        Journal::resume(&journal_path, &key)?
    } else {
        (Journal::create(&journal_path, &key)?, Vec::new())
    };
    if !done.is_empty() {
        note!(
            "resuming after {} finished chunks ({})",
            done.len(),
            journal_path.display()
        );
    }
    let save = args
        .save_digests
        .as_deref()
        .map(stream::store::DigestStore::new);
    let against = args
        .against_digests
        .as_deref()
        .map(stream::store::DigestStore::new);
    let digests = stream::Digests {
        against: against.as_ref(),
        save: save.as_ref(),
    };
    let outcome = pool.install(|| {
        stream::run_with_digests(
            &plan,
            &candidate,
            reference.as_ref(),
            digests,
            done,
            &mut |r| journal.append(r),
            &mut progress,
        )
    })?;
    bar.finish();
    let peak = stream::peak_rss_bytes();

    let mm_path = output.join("mismatches.csv");
    write_mismatches(&mm_path, &plan, &outcome)?;
    let mut manifest = manifest_json(&plan, &outcome, threads, peak, total)?;
    if let Some(store) = &against {
        manifest["against_digests"] = serde_json::json!({
            "store": store.dir.display().to_string(),
            "blocks": outcome.digest_blocks,
            "blocks_recomputed": outcome.blocks_recomputed,
            "device_hash": outcome.device_hash,
            "semantics_version": stream::store::SEMANTICS_VERSION,
        });
    }
    manifest["bytes_read_back"] = outcome.bytes_read_back.into();
    if let Some(store) = &save {
        manifest["saved_digests"] = serde_json::json!({
            "store": store.dir.display().to_string(),
            "semantics_version": stream::store::SEMANTICS_VERSION,
        });
    }
    let path = output.join("manifest.json");
    let mut f = AtomicFile::create(&path)?;
    serde_json::to_writer_pretty(&mut f, &manifest)
        .with_context(|| format!("writing {}", path.display()))?;
    f.write_all(b"\n")?;
    f.commit()?;
    journal.finish()?;

    let mism = outcome.total_mismatches();
    note!(
        "{} rows, {} modes, {:.3} s, {:.3e} rows/s; digest {}; {} mismatching rows{}; peak RSS {} MiB",
        outcome.rows,
        plan.modes.len(),
        outcome.timings.wall_s,
        outcome.rows as f64 / outcome.timings.wall_s.max(1e-9),
        outcome.digest,
        mism,
        if reference.is_none() { " (no reference)" } else { "" },
        peak.map_or("?".into(), |b| (b >> 20).to_string()),
    );
    Ok(if mism > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Everything that decides a run's results: a journal is resumed only by the same run.
fn run_key(plan: &Plan, candidate: &Engine, reference: Option<&Engine>) -> serde_json::Value {
    serde_json::json!({
        "body": encoding_cell(&plan.words),
        "inputs": plan.inputs.describe(),
        "modes": plan.modes.iter().map(spec::mode_text).collect::<Vec<_>>(),
        "wave": plan.wave.lanes(),
        "gfx": plan.gfx.to_string(),
        "chunk_rows": plan.chunk_rows,
        "candidate": candidate.name(),
        "reference": reference.map(Engine::name),
        "max_mismatches": plan.max_mismatches,
        "ulp_k": plan.ulp_k,
    })
}

/// Column names after the v1 columns of mismatches.csv.
fn extra_columns() -> Vec<String> {
    let mut v: Vec<String> = (0..16).map(|i| format!("ref_out{i}")).collect();
    v.extend([
        "class".to_string(),
        "ulp".to_string(),
        "mode_index".to_string(),
        "row_index".to_string(),
    ]);
    v
}

fn write_mismatches(path: &std::path::Path, plan: &Plan, o: &Outcome) -> anyhow::Result<()> {
    let mut f = AtomicFile::create(path)?;
    let columns = extra_columns();
    let mut w = Writer::new(&mut f, path.display().to_string(), &[], &columns)?;
    for m in &o.mismatches {
        let mut extra: Vec<String> = m.reference.iter().map(|v| format!("0x{v:08x}")).collect();
        extra.push(m.class.name().to_string());
        extra.push(m.ulp.map_or(String::new(), |u| u.to_string()));
        extra.push(m.mode.to_string());
        extra.push(m.row.to_string());
        let row = Row {
            instruction: plan.instruction.clone(),
            encoding: plan.words.clone(),
            wave: Some(plan.wave.lanes()),
            mode: rdnaprobe_dataset::ModeCells::stated(&plan.modes[m.mode]),
            inputs: m.inputs,
            outputs: m.candidate.map(Some),
            gfx: plan.gfx.to_string(),
            source: format!("rdnaprobe exhaustive: {}", o.candidate.backend),
            note: format!("{} against {}", m.class.name(), reference_name(o)),
            extra,
        };
        w.write_row(&row, &[])?;
    }
    let rows = w.rows();
    w.finish()?;
    f.commit()?;
    let producer = ManifestProducer {
        backend: o.candidate.backend.clone(),
        device: o.candidate.device.clone(),
        gfx: None,
        driver: o.candidate.driver.clone(),
        runtime: String::new(),
        rdnaprobe_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: git_commit(),
    };
    let mut m = Manifest::new_v1(path, producer, rows, sha256_file(path)?);
    m.generator = format!(
        "rdnaprobe exhaustive: the first {} mismatching rows (of {}) of the run in manifest.json",
        rows,
        o.total_mismatches()
    );
    m.write(&rdnaprobe_dataset::manifest_path(path))?;
    Ok(())
}

fn reference_name(o: &Outcome) -> String {
    o.reference
        .as_ref()
        .map_or("nothing".into(), |p| p.backend.clone())
}

fn producer_json(p: &Producer) -> serde_json::Value {
    serde_json::json!({ "backend": p.backend, "device": p.device, "driver": p.driver })
}

fn manifest_json(
    plan: &Plan,
    o: &Outcome,
    threads: usize,
    peak: Option<u64>,
    total: u64,
) -> anyhow::Result<serde_json::Value> {
    let modes: Vec<serde_json::Value> = plan
        .modes
        .iter()
        .zip(&o.modes)
        .enumerate()
        .map(|(i, (m, st))| {
            let classes: serde_json::Map<String, serde_json::Value> = Class::ALL
                .iter()
                .filter(|c| st.classes[c.code() as usize] > 0)
                .map(|c| (c.name().to_string(), st.classes[c.code() as usize].into()))
                .collect();
            // Outputs the kernel of this mode computes as constants: not read back or hashed.
            let constants: serde_json::Map<String, serde_json::Value> = (0..16)
                .filter(|k| !o.layout.live.contains(k))
                .map(|k| {
                    (
                        format!("out{k}"),
                        format!("{:#010x}", o.layout.constants[i][k]).into(),
                    )
                })
                .collect();
            serde_json::json!({
                "index": i,
                "constant_outputs": constants,
                "mode": serde_json::to_value(m).unwrap_or_default(),
                "text": spec::mode_text(m),
                "rows": st.rows,
                "mismatches": st.mismatches(),
                "classes": classes,
                "max_ulp": st.max_ulp,
            })
        })
        .collect();
    let mut totals = serde_json::Map::new();
    for c in Class::ALL {
        let n: u64 = o.modes.iter().map(|s| s.classes[c.code() as usize]).sum();
        if n > 0 {
            totals.insert(c.name().to_string(), n.into());
        }
    }
    let t = &o.timings;
    Ok(serde_json::json!({
        "format": "rdnaprobe exhaustive result v1",
        "created": rfc3339_utc(std::time::SystemTime::now()),
        "rdnaprobe_version": env!("CARGO_PKG_VERSION"),
        "git_commit": git_commit(),
        "generator": {
            "body": { "instruction": plan.instruction, "encoding": encoding_cell(&plan.words) },
            "inputs": plan.inputs.describe(),
            "rows_per_mode": plan.inputs.rows(),
            "row_order": "modes outermost in the listed order; within a mode row i takes input \
                          values by mixed radix, in0 fastest; lane = i % wave",
            "modes": plan.modes.len(),
            "wave": plan.wave.lanes(),
            "gfx": plan.gfx.to_string(),
        },
        "chunking": {
            "chunk_rows": plan.chunk_rows,
            "chunks": o.chunks,
            "gpu_queue": stream::GPU_QUEUE,
            "cpu_threads": threads,
        },
        "candidate": producer_json(&o.candidate),
        "reference": o.reference.as_ref().map(producer_json),
        "rows": o.rows,
        "rows_planned": total,
        "resumed": { "chunks": o.resumed_chunks, "rows": o.resumed_rows },
        "digest": {
            "sha256": o.digest,
            "blocks": o.digest_blocks,
            "block_rows": digest::DIGEST_ROWS,
            "scheme": digest::SCHEME,
            "dwords": o.layout.live.iter().map(|k| format!("out{k}")).collect::<Vec<_>>(),
        },
        "classes": totals,
        "mismatches": {
            "total": o.total_mismatches(),
            "written": o.mismatches.len(),
            "file": "mismatches.csv",
        },
        "modes_detail": modes,
        "timings": t,
        "gpu_prepare": o.gpu_prepare,
        "rows_per_s": o.rows as f64 / t.wall_s.max(1e-9),
        "memory": {
            "peak_rss_bytes": peak,
            "baseline_rss_bytes": o.baseline_rss,
            "bound_bytes": stream::memory_bound(plan, o, threads),
            "bound": stream::MEMORY_BOUND_TEXT,
        },
    }))
}
