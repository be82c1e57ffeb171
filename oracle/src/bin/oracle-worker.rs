//! The oracle's worker process: serves the JSON-lines protocol of `rdnaprobe_oracle::worker` on
//! stdin/stdout. Set RDNAPROBE_FAKE_WORKER to run without a GPU (tests).

use std::process::ExitCode;

fn main() -> ExitCode {
    match rdnaprobe_oracle::worker::serve_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // a closed stderr loses the message rather than panicking
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "rdnaprobe-oracle-worker: {e}");
            ExitCode::from(2)
        }
    }
}
