//! `rdnaprobe decode`: instruction words to LLVM-syntax text, one line per instruction.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{bail, Context};
use rdnaprobe_isa::{decode_stream, Decoded, Target, Wave};

#[derive(clap::Args)]
pub struct Args {
    /// Target GPU (gfx1010, gfx1013, gfx1030..gfx1036).
    #[arg(long, default_value = "gfx1030")]
    mcpu: String,
    /// Wave size: 32 or 64.
    #[arg(long, default_value_t = 32)]
    wave: u32,
    /// Output format: text (llvm-mc syntax) or json (JSON Lines).
    #[arg(long, default_value = "text")]
    format: String,
    /// Hex words (`0x7e145504`); without them each stdin line is one stream.
    words: Vec<String>,
}

/// Parse hex words of one stream; errors name the line, column and word position.
fn parse_words(line: &str, line_no: usize) -> anyhow::Result<Vec<u32>> {
    let mut out = Vec::new();
    let mut col = 1;
    for (idx, tok) in line
        .split(|c: char| c.is_whitespace() || c == ',')
        .enumerate()
    {
        let start = col;
        col += tok.len() + 1;
        if tok.is_empty() {
            continue;
        }
        let digits = tok
            .strip_prefix("0x")
            .or_else(|| tok.strip_prefix("0X"))
            .unwrap_or(tok);
        match u32::from_str_radix(digits, 16) {
            Ok(w) if !digits.is_empty() => out.push(w),
            _ => bail!(
                "line {line_no}, column {start}: `{tok}` is not a 32-bit hex word (token {})",
                idx + 1
            ),
        }
    }
    Ok(out)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let target: Target = args.mcpu.parse()?;
    let Ok(wave) = Wave::from_lanes(args.wave) else {
        bail!("--wave must be 32 or 64, not {}", args.wave)
    };
    let json = match args.format.as_str() {
        "text" => false,
        "json" => true,
        f => bail!("--format must be text or json, not `{f}`"),
    };
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
