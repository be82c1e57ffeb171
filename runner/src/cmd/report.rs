//! `rdnaprobe report INPUT... -o DIR`: the conformance report (HTML, Markdown, CSV, JSON and
//! SVG plots) of hardware datasets and replay outputs. Needs the `report` feature (polars).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Datasets (the reference) and replay outputs (the candidates).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output directory (replaced as a whole).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Label of the reference inputs (a backend such as `cpu`, or `hardware`). Default: the
    /// one label of the inputs without a `backend` column.
    #[arg(long)]
    pub reference: Option<String>,
    /// Known-discrepancy file (TOML): differences it explains are expected.
    #[arg(long)]
    pub known: Option<PathBuf>,
    #[command(flatten)]
    pub ulp: super::args::Ulp,
    /// Title of the report.
    #[arg(long)]
    pub title: Option<String>,
}

#[cfg(feature = "report")]
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    use std::io::Write;

    use rdnaprobe_reports::report::{write_report_with_progress, ReportOptions};
    use rdnaprobe_reports::{Known, Options};

    let known = match &args.known {
        Some(path) => Known::load(path)?,
        None => Known::default(),
    };
    let options = ReportOptions {
        reference: args.reference,
        diff: Options {
            ulp_k: args.ulp.ulp_k,
            known,
        },
        title: args.title,
    };
    let progress = crate::progress::Rows::new("report", None);
    let report = write_report_with_progress(&args.inputs, &args.output, &options, &mut |n| {
        progress.add(n)
    })?;
    progress.finish();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {} rows compared against {} ({} reference rows), {} backends, {} groups, {} unexpected",
        args.output.join("index.html").display(),
        report.compared_rows,
        report.reference,
        report.reference_rows,
        report.backends.len(),
        report.groups.len(),
        report.unexpected_rows
    )?;
    Ok(if report.unexpected_rows > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(not(feature = "report"))]
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this rdnaprobe was built without the `report` feature (polars); rebuild with default features")
}
