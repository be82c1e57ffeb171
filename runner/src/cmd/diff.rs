//! `rdnaprobe diff REFERENCE CANDIDATE` (each CSV or Parquet): joins the candidate's rows to the reference's,
//! classifies every output dword, and prints a table (or CSV / JSON Lines) on stdout. With
//! `-o FILE` every joined row is also written to FILE (CSV, or JSON Lines when FILE ends in
//! `.json`/`.jsonl`), atomically. Exit 0: no unexpected difference; 1: some; 2: error.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use rdnaprobe_dataset::AtomicFile;
use rdnaprobe_reports::diff::Options;
use rdnaprobe_reports::output::{row_json, write_csv_line, CsvSink, JsonSink, Table};
use rdnaprobe_reports::pipeline::diff_paths;
use rdnaprobe_reports::{Known, RowDiff};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Class counts and the unexpected rows, aligned for people.
    Table,
    /// One line per joined row (see docs/reports.md for the columns).
    Csv,
    /// JSON Lines: one object per joined row, then one summary object.
    Json,
}

#[derive(clap::Args)]
pub struct Args {
    /// The reference dataset (hardware rows, or another backend's replay), CSV or Parquet.
    pub reference: PathBuf,
    /// The candidate: a replay output (with `backend` and `status` columns) or a dataset, CSV
    /// or Parquet.
    pub candidate: PathBuf,
    /// Also write every joined row to this file (CSV, or JSON Lines for .json/.jsonl).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// What stdout shows.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Known-discrepancy file (TOML): differences it explains are expected.
    #[arg(long)]
    pub known: Option<PathBuf>,
    #[command(flatten)]
    pub ulp: super::args::Ulp,
    /// Leave `exact` rows out of the CSV / JSON rows.
    #[arg(long)]
    pub differences_only: bool,
    /// Most unexpected rows the table lists.
    #[arg(long, default_value_t = 40)]
    pub limit: usize,
}

/// What one batch of rows turned into, in the workers: the bytes of each output format that
/// is wanted, and the unexpected rows the table may list.
#[derive(Default)]
struct Batch {
    rows: u64,
    csv: Vec<u8>,
    json: Vec<u8>,
    unexpected: Vec<RowDiff>,
}

/// A destination of per-row records: CSV (header written) or JSON Lines.
struct Sink<W: Write> {
    out: W,
    json: bool,
}

impl<W: Write> Sink<W> {
    fn for_format(json: bool, out: W) -> io::Result<Self> {
        let out = if json {
            out
        } else {
            CsvSink::new(out)?.finish()?
        };
        Ok(Sink { out, json })
    }

    fn write(&mut self, b: &Batch) -> io::Result<()> {
        self.out.write_all(if self.json { &b.json } else { &b.csv })
    }

    fn finish(self, summary: &rdnaprobe_reports::Summary) -> io::Result<W> {
        if self.json {
            JsonSink::new(self.out).finish(summary)
        } else {
            Ok(self.out)
        }
    }
}

fn is_json_path(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("json" | "jsonl")
    )
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let known = match &args.known {
        Some(path) => Known::load(path)?,
        None => Known::default(),
    };
    let options = Options {
        ulp_k: args.ulp.ulp_k,
        known,
    };
    let mut screen = match args.format {
        Format::Table => None,
        Format::Csv => Some(Sink::for_format(
            false,
            BufWriter::new(io::stdout().lock()),
        )?),
        Format::Json => Some(Sink::for_format(true, BufWriter::new(io::stdout().lock()))?),
    };
    let mut file = match &args.output {
        Some(path) => {
            super::check_output_file(path)?;
            let f = AtomicFile::create(path)?;
            Some(Sink::for_format(is_json_path(path), BufWriter::new(f))?)
        }
        None => None,
    };
    let mut table = Table::new(args.limit);
    let formats = [
        screen.as_ref().map(|s| s.json),
        file.as_ref().map(|s| s.json),
    ];
    let want_csv = formats.contains(&Some(false));
    let want_json = formats.contains(&Some(true));
    let limit = args.limit;
    let per_row = |d: &RowDiff, b: &mut Batch| {
        b.rows += 1;
        if d.is_unexpected() && b.unexpected.len() < limit {
            b.unexpected.push(d.clone());
        }
        if args.differences_only && d.class == rdnaprobe_reports::Class::Exact {
            return;
        }
        if want_csv {
            write_csv_line(&mut b.csv, d);
        }
        if want_json {
            // Writing into memory cannot fail.
            let _ = serde_json::to_writer(&mut b.json, &row_json(d));
            b.json.push(b'\n');
        }
    };
    let progress = crate::progress::Rows::new("diff", None);
    // The batches' CSV buffers go round: a fresh 2 MiB buffer per batch cost page faults.
    let buffers = rdnaprobe_reports::pipeline::Buffers::default();
    let mut on_batch = |b: Batch| -> rdnaprobe_reports::Result<()> {
        for d in &b.unexpected {
            table.add(d);
        }
        if let Some(s) = &mut screen {
            s.write(&b)
                .map_err(|e| rdnaprobe_reports::Error::io("<stdout>", e))?;
        }
        if let (Some(s), Some(path)) = (&mut file, &args.output) {
            s.write(&b)
                .map_err(|e| rdnaprobe_reports::Error::io(path, e))?;
        }
        progress.add(b.rows);
        buffers.give(b.csv);
        Ok(())
    };
    let summary = diff_paths(
        &args.reference,
        &args.candidate,
        &options,
        &|| Batch {
            // About 200 bytes a row: one buffer per batch, reused.
            csv: if want_csv {
                buffers.take(2 << 20)
            } else {
                Vec::new()
            },
            ..Batch::default()
        },
        &per_row,
        &mut on_batch,
    )?;
    progress.finish();
    if let (Some(sink), Some(path)) = (file, &args.output) {
        let atomic = sink
            .finish(&summary)
            .and_then(|w| w.into_inner().map_err(|e| e.into_error()))
            .with_context(|| format!("writing {}", path.display()))?;
        atomic.commit()?;
    }
    match screen {
        Some(sink) => {
            sink.finish(&summary)?.flush()?;
            if io::stderr().is_terminal() {
                note!(
                    "{} rows: {} expected, {} unexpected differences",
                    summary.rows,
                    summary.expected,
                    summary.unexpected
                );
            }
        }
        None => {
            let mut out = io::stdout().lock();
            out.write_all(table.render(&summary).as_bytes())?;
            out.flush()?;
        }
    }
    Ok(if summary.unexpected > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
