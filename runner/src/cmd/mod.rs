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
