//! `rdnaprobe`: the command-line front end. Each subcommand lives in its own module under
//! `cmd/` and returns an exit code; errors become one line on stderr and exit code 2.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `eprintln!` for the program's notes and errors: a closed stderr (`2>&-`, or a log pipe
/// whose reader has exited) loses the line instead of panicking as `eprintln!` does, so a
/// command's exit code is the same whoever reads its stderr.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod backend;
mod batch;
mod cmd;
mod dispatch;
mod fuzz;
mod plan;
mod progfuzz;
mod progress;
mod radv;
mod specials;
mod stream;
mod sweep;
mod vulkan;
mod worker;

/// Measure what RDNA2 GPUs compute and replay it through the recompiler.
#[derive(Parser)]
#[command(name = "rdnaprobe", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Write every SPIR-V module the command emits into DIR, named by its content's SHA-256
    /// (before the driver sees it: a module that does not compile is kept too).
    #[arg(long, global = true, value_name = "DIR")]
    save_spirv: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Decode RDNA2 instruction words and print them in LLVM syntax.
    Decode(cmd::decode::Args),
    /// Encode LLVM-syntax assembly into instruction words.
    Encode(cmd::encode::Args),
    /// Replay datasets through a backend (cpu, vulkan[:driver]).
    Replay(cmd::replay::Args),
    /// Run a kernel of a code object over a grid (cpu, vulkan[:driver], hip).
    Dispatch(cmd::dispatch::Args),
    /// Run a sweep spec on a backend and write a dataset.
    Sweep(cmd::sweep::Args),
    /// Merge sweep shards into one dataset.
    Merge(cmd::merge::Args),
    /// Plan a sweep as shards: row ranges, cost estimate, Slurm job scripts.
    Plan(cmd::plan::Args),
    /// List HIP and Vulkan devices.
    Devices(cmd::devices::Args),
    /// Assemble a probe kernel code object with comgr.
    Assemble(cmd::assemble::Args),
    /// Compile a body with RADV's compiler (ACO) for one or every gfx103x chip, on RADV's null
    /// device (no AMD GPU needed): ACO's listing with its words, statistics, compile time.
    Compile(cmd::compile::Args),
    /// Print the IR the recompiler makes of a body (its text form).
    Lower(cmd::lower::Args),
    /// Diff a candidate dataset against a reference dataset.
    Diff(cmd::diff::Args),
    /// Write a conformance report from datasets.
    Report(cmd::report::Args),
    /// How far a driver's texture unit (an image sweep with `--images native`) is from the
    /// RDNA2 model, per image format, filter and addressing mode.
    TextureReport(cmd::texture::Args),
    /// Stream an exhaustive sweep through a backend, diffed against the CPU model on the fly.
    Exhaustive(cmd::exhaustive::Args),
    /// Export datasets and diffs as partitioned Parquet.
    Export(cmd::export::Args),
    /// The results store: add runs, list them.
    Store(cmd::store::Args),
    /// Which rows got better or worse against the hardware between two runs.
    Regress(cmd::regress::Args),
    /// Write the static conformance site of a results store.
    Publish(cmd::publish::Args),
    /// How much of the instruction table the recompiler lowers, per family.
    Coverage(cmd::coverage::Args),
    /// Differential fuzzing: random VALU bodies, inputs and modes, and (--images) random image
    /// sweep specs, CPU model vs a backend.
    Fuzz(cmd::fuzz::Args),
    /// Random wave programs on `cpu` and a backend, differences shrunk to one-line repros.
    Progfuzz(progfuzz::Args),
    /// The hip backend's GPU worker process (internal: JSON lines on stdin/stdout).
    #[command(name = "oracle-worker", hide = true)]
    OracleWorker(worker::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(dir) = &cli.save_spirv {
        if let Err(err) = vulkan::save_spirv_to(dir) {
            note!("rdnaprobe: error: {}", error_line(&err));
            return ExitCode::from(2);
        }
    }
    let result = match cli.command {
        Command::Decode(a) => cmd::decode::run(a),
        Command::Encode(a) => cmd::encode::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Dispatch(a) => cmd::dispatch::run(a),
        Command::Sweep(a) => cmd::sweep::run(a),
        Command::Merge(a) => cmd::merge::run(a),
        Command::Plan(a) => cmd::plan::run(a),
        Command::Devices(a) => cmd::devices::run(a),
        Command::Assemble(a) => cmd::assemble::run(a),
        Command::Compile(a) => cmd::compile::run(a),
        Command::Lower(a) => cmd::lower::run(a),
        Command::Diff(a) => cmd::diff::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::TextureReport(a) => cmd::texture::run(a),
        Command::Exhaustive(a) => cmd::exhaustive::run(a),
        Command::Export(a) => cmd::export::run(a),
        Command::Coverage(a) => cmd::coverage::run(a),
        Command::Store(a) => cmd::store::run(a),
        Command::Regress(a) => cmd::regress::run(a),
        Command::Publish(a) => cmd::publish::run(a),
        Command::Fuzz(a) => cmd::fuzz::run(a),
        Command::Progfuzz(a) => progfuzz::run(a),
        Command::OracleWorker(a) => worker::run(a),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            note!("rdnaprobe: error: {}", error_line(&err));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes on one line, each said once: a cause whose text the line already
/// ends with (a library error that prints its source, such as an I/O error) is left out.
fn error_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// A closed pipe (`rdnaprobe decode | head`) ends the program quietly, with exit code 0.
/// Rust programs start with SIGPIPE ignored, so a write to a closed pipe fails with EPIPE
/// instead of killing the process (which also keeps a dead worker's pipe from killing the
/// hip backend's parent). Commands write stdout through `io::Write` and return the error
/// (never `print!`, which would panic), and it ends here.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::error_line;

    /// A library error whose message already ends with its source's text.
    #[derive(Debug)]
    struct Wrapped(std::io::Error);

    impl std::fmt::Display for Wrapped {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "out.csv: create: {}", self.0)
        }
    }

    impl std::error::Error for Wrapped {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn each_cause_is_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such directory");
        let err = anyhow::Error::new(Wrapped(io)).context("writing the dataset");
        assert_eq!(
            error_line(&err),
            "writing the dataset: out.csv: create: no such directory"
        );
        let plain = anyhow::anyhow!("inner").context("outer");
        assert_eq!(error_line(&plain), "outer: inner");
    }
}
