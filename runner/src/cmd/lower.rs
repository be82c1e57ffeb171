//! `rdnaprobe lower`: the IR the recompiler makes of a body, as text (`ir::text`): what a
//! rule produces, before any backend sees it.

use std::io::Write;
use std::process::ExitCode;

use rdnaprobe_recompiler::ir::Kernel;

#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("body").args(["asm", "encoding"]).required(true))]
pub struct Args {
    /// The body as assembly (`;` or newlines between instructions).
    #[arg(long)]
    pub asm: Option<String>,
    /// The body as hex words.
    #[arg(long)]
    pub encoding: Option<String>,
    #[command(flatten)]
    pub wave: super::args::WaveSize,
    #[command(flatten)]
    pub gfx: super::args::Gfx,
    /// The float mode: `default`, or FIELD=V,... (as `replay --mode`).
    #[arg(long, default_value = "default")]
    pub mode: String,
    /// Lower under the wave contract (SGPR and EXEC inputs, uniform outputs) instead of the
    /// lane contract.
    #[arg(long)]
    pub wave_contract: bool,
}

/// The words of `--asm` (assembled for `wave`) or `--encoding`.
pub fn body_words(
    asm: Option<&str>,
    encoding: Option<&str>,
    wave: rdnaprobe_isa::Wave,
) -> anyhow::Result<Vec<u32>> {
    match (asm, encoding) {
        (Some(text), _) => rdnaprobe_isa::assemble_for(&text.replace(';', "\n"), wave)
            .map_err(|e| anyhow::anyhow!("--asm: {e}")),
        (_, Some(words)) => {
            super::args::parse_words(words).map_err(|e| anyhow::anyhow!("--encoding {e}"))
        }
        (None, None) => anyhow::bail!("give --asm or --encoding"),
    }
}

/// The kernel of `words` under the lane or the wave contract.
pub fn lower(
    words: &[u32],
    mode: rdnaprobe_isa::FloatMode,
    wave: rdnaprobe_isa::Wave,
    gfx: rdnaprobe_isa::Target,
    wave_contract: bool,
) -> anyhow::Result<Kernel> {
    let k = if wave_contract {
        rdnaprobe_recompiler::lower_wave_words(words, mode, wave, gfx)
    } else {
        rdnaprobe_recompiler::lower_words(words, mode, wave, gfx)
    };
    k.map_err(|e| anyhow::anyhow!("lowering: {e}"))
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let wave = a.wave.wave;
    let words = body_words(a.asm.as_deref(), a.encoding.as_deref(), wave)?;
    let mode = super::replay::one_row::parse_mode(&a.mode)?.resolve();
    let k = lower(&words, mode, wave, a.gfx.gfx, a.wave_contract)?;
    let mut out = std::io::stdout().lock();
    write!(out, "{k}")?;
    Ok(ExitCode::SUCCESS)
}
