//! Benchmark of the diff and the report over synthetic rows (default 10 million).
//!
//! ```text
//! cargo run -p rdnaprobe-reports --example bench --release -- [ROWS] [DIR]
//! ```
//! (or see docs/reports.md for a dev-profile run that reuses the debug build of polars).
//!
//! Writes a reference dataset and a candidate replay output of ROWS rows each into DIR
//! (default `target/bench-report`), then times `diff` (streaming, every joined row written as
//! CSV) and `report` (polars aggregation, HTML/Markdown/CSV/JSON/SVG), printing the wall time
//! and the peak resident memory (VmHWM, reset between steps through /proc/self/clear_refs).
//! `BENCH_STREAMING=1` also times the one-thread streaming diff and compares the two diff.csv.
//! `BENCH_PARQUET=1` (feature `polars`) exports both files to Parquet once, times the diff of
//! the Parquet pair the same way and checks that its diff.csv is the CSV run's.
//! `BENCH_FROM=FILE.csv` (a shipped dataset, such as `datasets/rdna2/f16_rounding.csv`) makes
//! the rows from that file's instead: its rows cycled to ROWS rows, each with a unique `row_id`
//! (`FAMILY:N`), the candidate a replay output (`backend`, `status`) whose out0 differs in the
//! low bit in 3% of the rows (seeded). `BENCH_SHORT=1` empties the `source` and `note` cells.
//! The generated files are removed at the end unless KEEP=1; `BENCH_REUSE=1` times the files
//! an earlier `KEEP=1` run left in DIR instead of generating them (and keeps them).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rdnaprobe_reports::diff::{diff_files, Options};
use rdnaprobe_reports::output::{write_csv_line, CsvSink};
use rdnaprobe_reports::pipeline::diff_paths;

const HEADER: &str = "instruction,encoding,wave,ieee,dx10_clamp,denorm32,denorm16,round32,round16,fp16_overflow,in0,in1,in2,in3,in4,in5,out0,out1,out2,out3,out4,out5,out6,out7,out8,out9,out10,out11,out12,out13,out14,out15,gfx,source,note";

/// The mnemonics the generator cycles through (the words are synthetic, not real encodings).
const OPS: [&str; 24] = [
    "v_add_f32",
    "v_sub_f32",
    "v_mul_f32",
    "v_min_f32",
    "v_max_f32",
    "v_rcp_f32",
    "v_sqrt_f32",
    "v_rsq_f32",
    "v_exp_f32",
    "v_log_f32",
    "v_sin_f32",
    "v_cos_f32",
    "v_fract_f32",
    "v_trunc_f32",
    "v_ceil_f32",
    "v_floor_f32",
    "v_rndne_f32",
    "v_ldexp_f32",
    "v_mac_f32",
    "v_fma_f32",
    "v_mad_f32",
    "v_med3_f32",
    "v_div_fixup_f32",
    "v_cvt_f32_i32",
];

/// SplitMix64: a fixed, seeded stream so that runs are comparable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// `BENCH_FROM`: realistic rows, the shipped dataset `from` cycled to `rows` rows.
fn generate_from(
    dir: &Path,
    rows: u64,
    from: &Path,
    short: bool,
) -> Result<(PathBuf, PathBuf), Box<dyn std::error::Error>> {
    std::fs::create_dir_all(dir)?;
    let family = from
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or("BENCH_FROM: a file name")?
        .to_string();
    let mut input = csv::Reader::from_path(from)?;
    let mut header: Vec<String> = input.headers()?.iter().map(str::to_string).collect();
    let col = |h: &[String], name: &str| h.iter().position(|c| c == name);
    let row_id = match col(&header, "row_id") {
        Some(i) => i,
        None => {
            header.push("row_id".into());
            header.len() - 1
        }
    };
    let out0 = col(&header, "out0").ok_or("BENCH_FROM: no out0 column")?;
    let (source, note) = (col(&header, "source"), col(&header, "note"));
    let mut records: Vec<Vec<String>> = Vec::new();
    for rec in input.records() {
        let mut rec: Vec<String> = rec?.iter().map(str::to_string).collect();
        rec.resize(header.len(), String::new());
        if short {
            for c in [source, note].into_iter().flatten() {
                rec[c].clear();
            }
        }
        records.push(rec);
    }
    if records.is_empty() {
        return Err("BENCH_FROM: the file has no rows".into());
    }
    let (rp, cp) = (dir.join("reference.csv"), dir.join("candidate.csv"));
    let mut r = csv::Writer::from_writer(BufWriter::with_capacity(1 << 20, File::create(&rp)?));
    let mut c = csv::Writer::from_writer(BufWriter::with_capacity(1 << 20, File::create(&cp)?));
    r.write_record(&header)?;
    c.write_record(
        header
            .iter()
            .map(String::as_str)
            .chain(["backend", "status"]),
    )?;
    let mut rng = Rng(0x5eed);
    for i in 0..rows {
        let mut rec = records[(i % records.len() as u64) as usize].clone();
        rec[row_id] = format!("{family}:{i}");
        r.write_record(&rec)?;
        if rng.next() % 100 < 3 {
            if let Some(v) = rec[out0].strip_prefix("0x") {
                rec[out0] = format!("0x{:08x}", u32::from_str_radix(v, 16)? ^ 1);
            }
        }
        c.write_record(rec.iter().map(String::as_str).chain(["cpu", "ok"]))?;
    }
    r.into_inner()?.into_inner()?.sync_all()?;
    c.into_inner()?.into_inner()?.sync_all()?;
    Ok((rp, cp))
}

fn generate(dir: &Path, rows: u64) -> std::io::Result<(PathBuf, PathBuf)> {
    std::fs::create_dir_all(dir)?;
    let (rp, cp) = (dir.join("reference.csv"), dir.join("candidate.csv"));
    let mut r = BufWriter::with_capacity(1 << 20, File::create(&rp)?);
    let mut c = BufWriter::with_capacity(1 << 20, File::create(&cp)?);
    writeln!(r, "{HEADER}")?;
    writeln!(c, "{HEADER},backend,status")?;
    let mut rng = Rng(0x5eed);
    let empty_outs = ",".repeat(15);
    for i in 0..rows {
        // Rows come in runs of 4096 per instruction x mode, as sweeps write them.
        let block = i / 4096;
        let op = OPS[(block % OPS.len() as u64) as usize];
        let mode = (block / OPS.len() as u64) % 4;
        let (ieee, denorm) = (mode & 1, if mode & 2 != 0 { 3 } else { 0 });
        let word = 0x7e14_0004u32 | ((block % 128) as u32) << 9;
        let a = rng.next() as u32;
        let b = rng.next() as u32;
        let out = a ^ b.rotate_left(7);
        // 97% exact, 2% one ULP, 0.5% a few ULP, 0.3% NaN payload, 0.2% wrong.
        let roll = rng.next() % 1000;
        let got = match roll {
            0..=969 => out,
            970..=989 => out.wrapping_add(1),
            990..=994 => out.wrapping_add(3),
            995..=997 => 0x7fc0_0000 | (roll as u32),
            _ => out ^ 0x0040_0000,
        };
        let want = if (995..=997).contains(&roll) {
            0x7fc0_0000
        } else {
            out
        };
        let common = format!(
            "{op} v10 v4 v5,0x{word:08x},32,{ieee},1,{denorm},{denorm},0,0,0,0x{a:08x},0x{b:08x},0x00000000,0x00000000,0x00000000,0x00000000"
        );
        writeln!(r, "{common},0x{want:08x}{empty_outs},gfx1030,bench,")?;
        writeln!(c, "{common},0x{got:08x}{empty_outs},gfx1030,bench,,cpu,ok")?;
    }
    r.into_inner()?.sync_all()?;
    c.into_inner()?.sync_all()?;
    Ok((rp, cp))
}

/// Peak resident set size in KiB (VmHWM), or 0 where /proc is not there.
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

/// CPU seconds (user + system) the process has used so far, or 0 where /proc is not there.
fn cpu_s() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let after = s.rsplit_once(')')?.1.split_whitespace().collect::<Vec<_>>();
            let ticks = after.get(11)?.parse::<f64>().ok()? + after.get(12)?.parse::<f64>().ok()?;
            Some(ticks / 100.0)
        })
        .unwrap_or(0.0)
}

/// Resets VmHWM to the current RSS (Linux: writing 5 to clear_refs).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Set to `INPUT\nOUTPUT` in a child process: export one file to Parquet and exit.
#[cfg(feature = "polars")]
const EXPORT_ENV: &str = "BENCH_EXPORT_FILE";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    #[cfg(feature = "polars")]
    if let Ok(job) = std::env::var(EXPORT_ENV) {
        use rdnaprobe_reports::export::{export_dataset_file, ROW_GROUP_ROWS};
        let (from, to) = job
            .split_once('\n')
            .ok_or("BENCH_EXPORT_FILE: INPUT\\nOUTPUT")?;
        export_dataset_file(Path::new(from), Path::new(to), ROW_GROUP_ROWS)?;
        return Ok(());
    }
    let mut args = std::env::args().skip(1);
    let rows: u64 = match args.next() {
        Some(n) => n.replace('_', "").parse()?,
        None => 10_000_000,
    };
    let dir = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/bench-report"));
    let mut err = std::io::stderr().lock();

    let t = Instant::now();
    let reuse = std::env::var_os("BENCH_REUSE").is_some()
        && dir.join("reference.csv").is_file()
        && dir.join("candidate.csv").is_file();
    let (reference, candidate) = match std::env::var_os("BENCH_FROM") {
        _ if reuse => (dir.join("reference.csv"), dir.join("candidate.csv")),
        Some(from) => generate_from(
            &dir,
            rows,
            Path::new(&from),
            std::env::var_os("BENCH_SHORT").is_some(),
        )?,
        None => generate(&dir, rows)?,
    };
    let size = std::fs::metadata(&reference)?.len() + std::fs::metadata(&candidate)?.len();
    writeln!(
        err,
        "generate: {rows} rows x 2 files, {:.2} GB, {:.1} s",
        size as f64 / 1e9,
        t.elapsed().as_secs_f64()
    )?;

    timed_diff(
        "diff",
        &reference,
        &candidate,
        &dir.join("diff.csv"),
        &mut err,
    )?;

    if std::env::var_os("BENCH_STREAMING").is_some() {
        reset_peak();
        let t = Instant::now();
        let out = BufWriter::with_capacity(1 << 20, File::create(dir.join("diff-streaming.csv"))?);
        let mut sink = CsvSink::new(out)?;
        let summary = diff_files(&reference, &candidate, &Options::default(), |d| {
            sink.write(d)
                .map_err(|e| rdnaprobe_reports::Error::io("diff-streaming.csv", e))
        })?;
        sink.finish()?.flush()?;
        let secs = t.elapsed().as_secs_f64();
        writeln!(
            err,
            "diff (streaming, one thread): {} rows in {secs:.1} s = {:.0} rows/s, peak RSS {} MiB",
            summary.rows,
            summary.rows as f64 / secs,
            peak_kib() / 1024
        )?;
        let same =
            std::fs::read(dir.join("diff.csv"))? == std::fs::read(dir.join("diff-streaming.csv"))?;
        writeln!(err, "diff.csv identical to the streaming diff's: {same}")?;
        std::fs::remove_file(dir.join("diff-streaming.csv"))?;
    }

    #[cfg(feature = "polars")]
    if std::env::var_os("BENCH_PARQUET").is_some() {
        parquet(&dir, &reference, &candidate, &mut err)?;
    }
    #[cfg(not(feature = "polars"))]
    if std::env::var_os("BENCH_PARQUET").is_some() {
        writeln!(err, "parquet: skipped (built without the `polars` feature)")?;
    }

    #[cfg(feature = "polars")]
    report(&dir, &reference, &candidate, &mut err)?;
    #[cfg(not(feature = "polars"))]
    writeln!(err, "report: skipped (built without the `polars` feature)")?;
    if std::env::var_os("KEEP").is_none() && !reuse {
        std::fs::remove_file(&reference)?;
        std::fs::remove_file(&candidate)?;
        std::fs::remove_file(dir.join("diff.csv"))?;
    }
    Ok(())
}

/// Times the parallel diff of `reference` and `candidate`, every joined row written to `out`
/// as CSV, and prints rows/s, CPU seconds and the peak RSS.
fn timed_diff(
    label: &str,
    reference: &Path,
    candidate: &Path,
    out_path: &Path,
    err: &mut impl Write,
) -> Result<(), Box<dyn std::error::Error>> {
    reset_peak();
    let t = Instant::now();
    let cpu = cpu_s();
    let mut out =
        CsvSink::new(BufWriter::with_capacity(1 << 20, File::create(out_path)?))?.finish()?;
    let buffers = rdnaprobe_reports::pipeline::Buffers::default();
    let summary = diff_paths(
        reference,
        candidate,
        &Options::default(),
        &|| buffers.take(2 << 20),
        &|d, buf: &mut Vec<u8>| write_csv_line(buf, d),
        &mut |buf| {
            out.write_all(&buf)
                .map_err(|e| rdnaprobe_reports::Error::io(out_path, e))?;
            buffers.give(buf);
            Ok(())
        },
    )?;
    out.flush()?;
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu_s() - cpu;
    writeln!(
        err,
        "{label}: {} rows ({} exact, {} unexpected) in {secs:.1} s = {:.0} rows/s on {} threads, \
         {cpu:.1} CPU s ({:.0} rows per CPU second), peak RSS {} MiB",
        summary.rows,
        summary.count(rdnaprobe_reports::Class::Exact),
        summary.unexpected,
        summary.rows as f64 / secs,
        rayon::current_num_threads(),
        summary.rows as f64 / cpu,
        peak_kib() / 1024,
    )?;
    Ok(())
}

/// `BENCH_PARQUET=1`: exports both files to one Parquet file each (`export_dataset_file`, row
/// groups of 131,072 rows, in two child processes), times the diff of the Parquet pair and
/// checks that its diff.csv is the CSV run's.
#[cfg(feature = "polars")]
fn parquet(
    dir: &Path,
    reference: &Path,
    candidate: &Path,
    err: &mut impl Write,
) -> Result<(), Box<dyn std::error::Error>> {
    let (rp, cp) = (dir.join("reference.parquet"), dir.join("candidate.parquet"));
    let t = Instant::now();
    // Each export in a child process (both at once): its heap is not counted in the diff's
    // peak RSS below.
    let children = [(reference, &rp), (candidate, &cp)].map(|(from, to)| {
        std::process::Command::new(std::env::current_exe().expect("bench path"))
            .env(EXPORT_ENV, format!("{}\n{}", from.display(), to.display()))
            .spawn()
    });
    for child in children {
        if !child?.wait()?.success() {
            return Err("the Parquet export failed".into());
        }
    }
    let size = std::fs::metadata(&rp)?.len() + std::fs::metadata(&cp)?.len();
    writeln!(
        err,
        "parquet export: 2 files, {:.1} MB, {:.1} s",
        size as f64 / 1e6,
        t.elapsed().as_secs_f64()
    )?;
    let out = dir.join("diff-parquet.csv");
    timed_diff("diff (parquet)", &rp, &cp, &out, err)?;
    let same = std::fs::read(dir.join("diff.csv"))? == std::fs::read(&out)?;
    writeln!(
        err,
        "diff.csv from Parquet identical to the CSV run's: {same}"
    )?;
    if std::env::var_os("KEEP").is_none() {
        for f in [&rp, &cp, &out] {
            std::fs::remove_file(f)?;
        }
    }
    Ok(())
}

#[cfg(feature = "polars")]
fn report(
    dir: &Path,
    reference: &Path,
    candidate: &Path,
    err: &mut impl Write,
) -> Result<(), Box<dyn std::error::Error>> {
    use rdnaprobe_reports::report::{write_report, ReportOptions};

    reset_peak();
    let t = Instant::now();
    let cpu = cpu_s();
    let report = write_report(
        &[reference.to_path_buf(), candidate.to_path_buf()],
        &dir.join("report"),
        &ReportOptions::default(),
    )?;
    let secs = t.elapsed().as_secs_f64();
    writeln!(
        err,
        "report: {} rows, {} groups, {} matrix cells in {secs:.1} s = {:.0} rows/s, {cpu:.1} CPU s, \
         peak RSS {} MiB",
        report.compared_rows,
        report.groups.len(),
        report.matrix.len(),
        report.compared_rows as f64 / secs,
        peak_kib() / 1024,
        cpu = cpu_s() - cpu,
    )?;
    Ok(())
}
