//! One module per subcommand. Each exposes `Args` (clap) and `run(Args) -> anyhow::Result<ExitCode>`:
//! `Ok(0)` success, `Ok(1)` ran but found unexpected mismatches, `Err` becomes exit code 2.

pub mod assemble;
pub mod coverage;
pub mod decode;
pub mod devices;
pub mod diff;
pub mod encode;
pub mod exhaustive;
pub mod export;
pub mod merge;
pub mod replay;
pub mod report;
pub mod sweep;

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
