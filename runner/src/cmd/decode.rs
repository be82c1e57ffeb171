//! `rdnaprobe decode`: instruction words to LLVM-syntax text, one line per instruction.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::Context;
use rdnaprobe_isa::{decode_stream, Decoded, Target, Wave};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    gfx: super::args::Gfx,
    #[command(flatten)]
    wave: super::args::WaveSize,
    /// Output format: text (llvm-mc syntax) or json (JSON Lines).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Hex words (`0x7e145504`); without them each stdin line is one stream.
    words: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

/// The words of one stream; errors name the line as well as the column and word.
fn parse_words(line: &str, line_no: usize) -> anyhow::Result<Vec<u32>> {
    super::args::parse_words(line).map_err(|e| anyhow::anyhow!("line {line_no}, {e}"))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let target = args.gfx.gfx;
    let wave = args.wave.wave;
    let json = args.format == Format::Json;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if !args.words.is_empty() {
        let words = parse_words(&args.words.join(" "), 1)?;
        print_stream(&mut out, &words, 1, target, wave, json)?;
    } else {
        for (i, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line.context("reading stdin")?;
            let words = parse_words(&line, i + 1)?;
            print_stream(&mut out, &words, i + 1, target, wave, json)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn print_stream(
    out: &mut impl Write,
    words: &[u32],
    line: usize,
    target: Target,
    wave: Wave,
    json: bool,
) -> anyhow::Result<()> {
    let items = decode_stream(words).with_context(|| format!("line {line}"))?;
    let mut offset = 0;
    for d in items {
        let hex: Vec<String> = d.words().iter().map(|w| format!("0x{w:08x}")).collect();
        match (&d, json) {
            (Decoded::Inst(i), false) => writeln!(out, "{}", i.to_llvm_text_for(target, wave))?,
            (Decoded::Unsupported(u), false) => writeln!(out, "{u}")?,
            (Decoded::Inst(i), true) => {
                let v = serde_json::json!({
                    "line": line, "offset": offset, "words": hex,
                    "text": i.to_llvm_text_for(target, wave),
                    "family": i.info().family.name(), "opcode": i.info().opcode,
                    "encoding": format!("{:?}", i.encoding()),
                });
                writeln!(out, "{v}")?;
            }
            (Decoded::Unsupported(u), true) => {
                let v = serde_json::json!({
                    "line": line, "offset": offset, "words": hex, "unsupported": true,
                    "family": u.family.map(|f| f.name()), "opcode": u.opcode, "reason": u.reason,
                });
                writeln!(out, "{v}")?;
            }
        }
        offset += d.len();
    }
    Ok(())
}
