//! `rdnaprobe encode`: LLVM-syntax assembly to instruction words (`0x%08x`, space separated).

use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Assembly text; several instructions may be separated by `;` or newlines.
    asm: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let words = rdnaprobe_isa::assemble(&args.asm)?;
    let text: Vec<String> = words.iter().map(|w| format!("0x{w:08x}")).collect();
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", text.join(" "))?;
    Ok(ExitCode::SUCCESS)
}
