//! `rdnaprobe oracle-worker` (hidden): the child process that the `hip` backend's watchdog starts.
//! It serves the oracle's JSON-lines protocol on stdin/stdout (rdnaprobe_oracle::worker) and is
//! the only place where GPU kernels run, so a hang or a fault kills this process, not the sweep.

use std::process::ExitCode;

/// The worker takes no options: requests carry everything.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    rdnaprobe_oracle::worker::serve_stdio()?;
    Ok(ExitCode::SUCCESS)
}

/// How the `hip` backend starts a worker: this executable with the hidden subcommand.
pub fn command() -> anyhow::Result<rdnaprobe_oracle::worker::WorkerCommand> {
    let exe = std::env::current_exe()
        .map_err(|e| anyhow::anyhow!("cannot locate the rdnaprobe executable: {e}"))?;
    Ok(rdnaprobe_oracle::worker::WorkerCommand::new(exe).arg(SUBCOMMAND))
}

/// The hidden subcommand's name.
pub const SUBCOMMAND: &str = "oracle-worker";
