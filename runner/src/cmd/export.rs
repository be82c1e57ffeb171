//! `rdnaprobe export --parquet DIR INPUT...`: datasets, replay outputs and diff CSVs as
//! hive-partitioned Parquet (`instruction=.../backend=.../part-N.parquet`). Needs the `report`
//! feature (polars).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Target directory (replaced as a whole).
    #[arg(long, value_name = "DIR")]
    pub parquet: PathBuf,
    /// Datasets, replay outputs and diff CSVs (`rdnaprobe diff -o`).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

#[cfg(feature = "report")]
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    use std::io::Write;

    let s = rdnaprobe_reports::export::export_parquet(&args.inputs, &args.parquet)?;
    writeln!(
        std::io::stdout().lock(),
        "{}: {} dataset rows, {} diff rows, {} files in {} partitions",
        args.parquet.display(),
        s.dataset_rows,
        s.diff_rows,
        s.files,
        s.partitions
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "report"))]
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this rdnaprobe was built without the `report` feature (polars); rebuild with default features")
}
