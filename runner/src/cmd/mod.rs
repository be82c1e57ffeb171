//! One module per subcommand. Each exposes `Args` (clap) and `run(Args) -> anyhow::Result<ExitCode>`:
//! `Ok(0)` success, `Ok(1)` ran but found unexpected mismatches, `Err` becomes exit code 2.

pub mod args;
pub mod assemble;
pub mod compile;
pub mod coverage;
pub mod decode;
pub mod devices;
pub mod diff;
pub mod dispatch;
pub mod encode;
pub mod exhaustive;
pub mod export;
pub mod fuzz;
pub mod lower;
pub mod merge;
pub mod plan;
pub mod publish;
pub mod regress;
pub mod replay;
pub mod report;
pub mod store;
pub mod sweep;
pub mod texture;

/// `--allow-hazards`: lets `backend` run what its hazard list refuses; a note when the
/// backend has none (only `hip` has one).
pub fn allow_hazards(backend: &mut dyn crate::backend::Backend, allow: bool) {
    if allow && !backend.allow_hazards() {
        note!("--allow-hazards has no effect on this backend (only hip refuses hazards)");
    }
}

/// Checks that the directory an output file goes into exists, so that a mistyped `-o` fails
/// with one line naming the path before any work is done. (Commands whose `-o` is a
/// directory create it instead.)
pub fn check_output_file(path: &std::path::Path) -> anyhow::Result<()> {
    let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    if !parent.is_dir() {
        anyhow::bail!(
            "{}: cannot write the output: directory {} does not exist",
            path.display(),
            parent.display()
        );
    }
    Ok(())
}

/// `--format table|json` of the commands that print one report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableOrJson {
    Table,
    Json,
}

/// Prints `report` on stdout, as pretty JSON or through `table`. Errors stay `io::Error`s, so
/// that a closed pipe ends the program quietly.
pub fn print_report<T: serde::Serialize>(
    format: TableOrJson,
    report: &T,
    table: impl FnOnce(&mut std::io::StdoutLock<'static>, &T) -> std::io::Result<()>,
) -> anyhow::Result<std::process::ExitCode> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match format {
        TableOrJson::Json => {
            serde_json::to_writer_pretty(&mut out, report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        TableOrJson::Table => table(&mut out, report)?,
    }
    out.flush()?;
    Ok(std::process::ExitCode::SUCCESS)
}
