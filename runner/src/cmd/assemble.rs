//! `rdnaprobe assemble`: wraps instruction words in the probe kernel (the lane contract's
//! template) and writes the code object comgr produces, e.g. to load it by hand or disassemble it.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use rdnaprobe_oracle::elf::CodeObject;
use rdnaprobe_oracle::template::KERNEL_NAME;
use rdnaprobe_oracle::{assemble_probe, Comgr, FloatMode, Mode, ModeField, Target};

#[derive(clap::Args)]
pub struct Args {
    // The chip the probe kernel is assembled for: gfx1030 ... gfx1036.
    #[command(flatten)]
    pub gfx: super::args::Gfx,
    #[command(flatten)]
    pub wave: super::args::WaveSize,
    /// IEEE mode, 0 or 1.
    #[arg(long, default_value_t = 1)]
    pub ieee: u32,
    /// DX10 clamp, 0 or 1.
    #[arg(long = "dx10-clamp", default_value_t = 1)]
    pub dx10_clamp: u32,
    /// f32 denormal mode 0..3 (bit 0 keeps input, bit 1 keeps output denormals).
    #[arg(long, default_value_t = 0)]
    pub denorm32: u32,
    /// f16/f64 denormal mode 0..3.
    #[arg(long, default_value_t = 3)]
    pub denorm16: u32,
    /// f32 rounding 0..3 (nearest even, +inf, -inf, toward zero).
    #[arg(long, default_value_t = 0)]
    pub round32: u32,
    /// f16/f64 rounding 0..3.
    #[arg(long, default_value_t = 0)]
    pub round16: u32,
    /// FP16_OVFL, 0 or 1.
    #[arg(long = "fp16-overflow", default_value_t = 0)]
    pub fp16_overflow: u32,
    /// The body's words in hex, separated by spaces or commas (`0x` optional).
    #[arg(long)]
    pub encoding: String,
    /// Output code object.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Also write the generated assembly source here.
    #[arg(long)]
    pub source: Option<PathBuf>,
}

/// The body's words of `--encoding`; errors name the word's position.
pub fn parse_words(text: &str) -> anyhow::Result<Vec<u32>> {
    let words = super::args::parse_words(text).map_err(|e| anyhow::anyhow!("--encoding {e}"))?;
    anyhow::ensure!(!words.is_empty(), "--encoding has no words");
    Ok(words)
}

pub fn mode_from_args(a: &Args) -> anyhow::Result<Mode> {
    let mut float = FloatMode::DEFAULT;
    for (field, value) in [
        (ModeField::Ieee, a.ieee),
        (ModeField::Dx10Clamp, a.dx10_clamp),
        (ModeField::Denorm32, a.denorm32),
        (ModeField::Denorm16, a.denorm16),
        (ModeField::Round32, a.round32),
        (ModeField::Round16, a.round16),
        (ModeField::Fp16Overflow, a.fp16_overflow),
    ] {
        float = float.with(field, field.check(value)?);
    }
    Ok(Mode::new(float, a.wave.wave))
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so a
/// reader never sees half a file (the dataset crate's [`rdnaprobe_dataset::AtomicFile`], the
/// one such writer of the project).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut f = rdnaprobe_dataset::AtomicFile::create(path)?;
    f.write_all(bytes)
        .with_context(|| format!("writing {}", path.display()))?;
    f.commit()?;
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let target = args.gfx.gfx;
    anyhow::ensure!(
        Target::GFX103X.contains(&target),
        "--gfx {target}: the probe kernel is assembled for one RDNA2 chip, gfx1030 ... gfx1036"
    );
    super::check_output_file(&args.output)?;
    if let Some(src) = &args.source {
        super::check_output_file(src)?;
    }
    let mode = mode_from_args(&args)?;
    let words = parse_words(&args.encoding)?;
    let comgr = Comgr::load()?;
    let kernel = assemble_probe(&comgr, target, &mode, &words)
        .with_context(|| format!("assembling the probe kernel for {target}"))?;
    write_atomically(&args.output, &kernel.code_object)?;
    if let Some(src) = &args.source {
        write_atomically(src, kernel.source.as_bytes())?;
    }
    if std::io::stderr().is_terminal() {
        let kd = CodeObject::parse(&kernel.code_object)?.kernel_descriptor(KERNEL_NAME)?;
        note!(
            "wrote {} ({} bytes): {target} wave{}, COMPUTE_PGM_RSRC1 {:#010x} (FLOAT_MODE {:#04x}), {} body words, comgr {}.{}",
            args.output.display(),
            kernel.code_object.len(),
            mode.wave.lanes(),
            kd.compute_pgm_rsrc1,
            kd.float_mode(),
            words.len(),
            comgr.version().0,
            comgr.version().1,
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_errors_name_the_flag_and_the_word() {
        assert_eq!(parse_words("0x7e140304,1").unwrap(), vec![0x7e14_0304, 1]);
        let err = parse_words("0x1 0xZZ").unwrap_err().to_string();
        assert_eq!(
            err,
            "--encoding column 5: `0xZZ` is not a 32-bit hex word (word 2)"
        );
        assert_eq!(
            parse_words("  ").unwrap_err().to_string(),
            "--encoding has no words"
        );
    }

    #[test]
    fn atomic_write_replaces_the_file() {
        let dir =
            std::env::temp_dir().join(format!("rdnaprobe-assemble-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("k.co");
        write_atomically(&p, b"one").unwrap();
        write_atomically(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let leftovers = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file is left behind");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(write_atomically(&dir.join("missing-dir/k.co"), b"x").is_err());
    }
}
