//! `rdnaprobe texture-report REFERENCE CANDIDATE`: an image sweep run twice, on the software
//! image path (REFERENCE) and with a driver's own texture unit (`--images native`, CANDIDATE),
//! joined and classified as `diff` does, per image format, filter, addressing mode and
//! dimensionality (`rdnaprobe_reports::texture`). Markdown on stdout or `-o FILE.md`, the same
//! numbers as JSON with `--json FILE`. Exit 0 whatever the differences (they are the report's
//! content); 2 on bad inputs.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use rdnaprobe_reports::texture::{markdown, texture_report, TextureOptions};

#[derive(clap::Args)]
pub struct Args {
    /// The software run of the image sweep (`rdnaprobe sweep SPEC -b B -o REF.csv`).
    pub reference: PathBuf,
    /// The native run of the same sweep (`... --images native -o CAND.csv`).
    pub candidate: PathBuf,
    /// Write the Markdown report to this file (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE.md")]
    pub output: Option<PathBuf>,
    /// Also write the report's numbers as JSON to this file (atomically).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Worst rows listed.
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    #[command(flatten)]
    pub ulp: super::args::Ulp,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    for path in [&args.output, &args.json].into_iter().flatten() {
        super::check_output_file(path)?;
    }
    let options = TextureOptions {
        ulp_k: args.ulp.ulp_k,
        limit: args.limit,
    };
    let report = texture_report(&args.reference, &args.candidate, &options)?;
    let text = markdown(&report);
    if let Some(path) = &args.json {
        let mut json = serde_json::to_vec_pretty(&report)?;
        json.push(b'\n');
        super::assemble::write_atomically(path, &json)?;
    }
    match &args.output {
        Some(path) => {
            super::assemble::write_atomically(path, text.as_bytes())?;
            note!(
                "{}: {} rows in {} groups, {} run on both sides, {} exact",
                path.display(),
                report.total.rows,
                report.groups.len(),
                report.total.both_ok,
                report.total.exact
            );
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
