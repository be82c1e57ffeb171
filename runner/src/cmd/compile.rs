//! `rdnaprobe compile`: the driver's view of a body. The recompiler lowers the body, emits its
//! SPIR-V with the options RADV's device reports, and RADV's own compiler (ACO, on its null
//! device: no AMD GPU needed) compiles it for one or every gfx103x chip. Prints ACO's listing
//! with its words, the statistics and the compile time, as text or JSON; `--ir` adds NIR and
//! ACO's IR; `--save-spirv DIR` keeps the module. The listing's words are decoded by this
//! project's decoder beside ACO's text, so a disagreement shows (`--check` makes it an error).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use rdnaprobe_isa::{decode_stream, Decoded, FloatMode, Target, Wave};
use rdnaprobe_recompiler::spirv;

use crate::radv::{Chip, Compiled, CHIPS};

#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("body").args(["asm", "encoding", "spirv"]).required(true))]
pub struct Args {
    /// The body as assembly (`;` or newlines between instructions).
    #[arg(long)]
    pub asm: Option<String>,
    /// The body as hex words.
    #[arg(long)]
    pub encoding: Option<String>,
    /// SPIR-V modules the recompiler emitted (`rdnaprobe --save-spirv DIR replay ...`), with
    /// the wave modules' layout, instead of a body.
    #[arg(long, num_args = 1..)]
    pub spirv: Vec<PathBuf>,
    /// The chip: gfx1030 ... gfx1036, or `all` (default).
    #[arg(long, default_value = "all")]
    pub gfx: String,
    #[command(flatten)]
    pub wave: super::args::WaveSize,
    /// Lower under the wave contract (SGPR and EXEC inputs, a memory region) instead of the
    /// lane contract.
    #[arg(long)]
    pub wave_contract: bool,
    /// Print NIR and ACO's IR too.
    #[arg(long)]
    pub ir: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// ACO's listing and the statistics of each module.
    Text,
    /// The same as JSON.
    Json,
    /// Per chip: modules, failures, compile time (median, max), instructions, VGPRs, SGPRs,
    /// spills, and the decoder's differences from ACO's listings.
    Summary,
}

/// The chips `--gfx` names.
pub fn chips(gfx: &str) -> anyhow::Result<Vec<Target>> {
    if gfx == "all" {
        return Ok(CHIPS.iter().map(|c| c.0).collect());
    }
    let t: Target = gfx
        .parse()
        .map_err(|e| anyhow::anyhow!("--gfx {gfx}: {e}"))?;
    anyhow::ensure!(
        CHIPS.iter().any(|c| c.0 == t),
        "--gfx {gfx}: RADV's compiler is run for gfx1030 ... gfx1036 (or `all`)"
    );
    Ok(vec![t])
}

/// The body's words, from `--asm` or `--encoding`.
fn body(a: &Args) -> anyhow::Result<Vec<u32>> {
    super::lower::body_words(a.asm.as_deref(), a.encoding.as_deref(), a.wave.wave)
}

/// The module of `words` for a device with `opts`.
pub fn emit(
    words: &[u32],
    wave: Wave,
    wave_contract: bool,
    opts: &spirv::SpirvOptions,
) -> anyhow::Result<Vec<u32>> {
    let k = super::lower::lower(
        words,
        FloatMode::DEFAULT,
        wave,
        Target::Gfx1030,
        wave_contract,
    )?;
    if wave_contract {
        spirv::emit_wave(&k, wave, 0, opts).map_err(|e| anyhow::anyhow!("SPIR-V backend: {e}"))
    } else {
        spirv::emit(&k, wave, opts).map_err(|e| anyhow::anyhow!("SPIR-V backend: {e}"))
    }
}

/// ACO's words as this project's decoder prints them, and the lines where its text differs
/// from ACO's (mnemonics only: ACO's operand syntax is its own).
pub fn decode_listing(c: &Compiled) -> (Vec<String>, Vec<String>) {
    let mut ours = Vec::new();
    let mut differ = Vec::new();
    match decode_stream(&c.words) {
        Ok(body) => {
            let aco: Vec<&str> = c
                .assembly
                .lines()
                .filter(|l| l.contains(';') && !crate::radv::listing_words(l).is_empty())
                .map(|l| l.split(';').next().unwrap_or("").trim())
                .collect();
            for (i, d) in body.iter().enumerate() {
                let text = match d {
                    Decoded::Inst(inst) => inst.to_llvm_text(Wave::W64),
                    Decoded::Unsupported(u) => format!("<refused: {}>", u.reason),
                };
                let mnemonic = |s: &str| {
                    let m = s.split_whitespace().next().unwrap_or("").to_string();
                    m.trim_end_matches("_e32")
                        .trim_end_matches("_e64")
                        .to_string()
                };
                if let Some(a) = aco.get(i) {
                    if mnemonic(a) != mnemonic(&text) {
                        differ.push(format!("`{a}` (ACO) vs `{text}` (rdnaprobe)"));
                    }
                }
                ours.push(text);
            }
        }
        Err(e) => differ.push(format!("the words do not decode: {e}")),
    }
    (ours, differ)
}

/// The modules to compile: `--spirv` files, or the body's module for each chip's options.
enum Modules {
    Body(Vec<u32>),
    Files(Vec<(String, Vec<u32>)>),
}

fn read_spirv(path: &std::path::Path) -> anyhow::Result<Vec<u32>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    anyhow::ensure!(
        bytes.len() % 4 == 0 && bytes.len() >= 20 && bytes[..4] == [0x03, 0x02, 0x23, 0x07],
        "{}: not a SPIR-V module (no magic number 0x07230203 at byte 0, or not whole words)",
        path.display()
    );
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// One module on one chip: its name, and what RADV made of it or why it failed.
struct Outcome {
    module: String,
    gfx: String,
    mesa: String,
    result: Result<(Compiled, Vec<String>), String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let modules = if a.spirv.is_empty() {
        Modules::Body(body(&a)?)
    } else {
        let mut v = Vec::new();
        for p in &a.spirv {
            v.push((p.display().to_string(), read_spirv(p)?));
        }
        Modules::Files(v)
    };
    let targets = chips(&a.gfx)?;
    let mut outcomes = Vec::new();
    for t in targets {
        let chip = Chip::open(t).with_context(|| format!("RADV's null device for {t}"))?;
        // The body's module follows the chip's options; saved modules are compiled as they are.
        let list: Vec<(&str, std::borrow::Cow<[u32]>)> = match &modules {
            Modules::Body(words) => {
                let spv = emit(words, a.wave.wave, a.wave_contract, &chip.options)?;
                crate::vulkan::save_module(&spv)?;
                vec![("body", spv.into())]
            }
            Modules::Files(v) => v
                .iter()
                .map(|(n, w)| (n.as_str(), w.as_slice().into()))
                .collect(),
        };
        for (name, spv) in list {
            let result = chip
                .compile(&spv)
                .map(|c| {
                    let differ = decode_listing(&c).1;
                    (c, differ)
                })
                .map_err(|e| format!("{e:#}"));
            outcomes.push(Outcome {
                module: name.to_string(),
                gfx: t.to_string(),
                mesa: chip.mesa.clone(),
                result,
            });
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match a.format {
        Format::Json => {
            let v: Vec<serde_json::Value> = outcomes
                .iter()
                .map(|o| match &o.result {
                    Ok((c, differ)) => {
                        let mut v = serde_json::to_value(c).unwrap_or_default();
                        if !a.ir {
                            v["representations"] = serde_json::Value::Array(vec![]);
                        }
                        v["module"] = o.module.clone().into();
                        v["mesa"] = o.mesa.clone().into();
                        v["decoder_differences"] = differ.clone().into();
                        v
                    }
                    Err(e) => serde_json::json!({
                        "module": o.module, "gfx": o.gfx, "mesa": o.mesa, "error": e,
                    }),
                })
                .collect();
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        Format::Summary => write_summary(&mut out, &outcomes)?,
        Format::Text => {
            for o in &outcomes {
                let (c, differ) = match &o.result {
                    Ok(r) => r,
                    Err(e) => {
                        writeln!(out, "; {}: RADV failed: {e}", o.module)?;
                        continue;
                    }
                };
                writeln!(
                    out,
                    "; {}: {} ({}), RADV of {}: wave{}, compiled in {:.1} ms",
                    o.module, c.gfx, c.family, o.mesa, c.subgroup_size, c.compile_ms
                )?;
                for (name, v) in &c.statistics {
                    writeln!(out, ";   {name}: {v}")?;
                }
                if a.ir {
                    for (name, text) in &c.representations {
                        writeln!(out, "; {name}:")?;
                        for l in text.lines() {
                            writeln!(out, ";   {l}")?;
                        }
                    }
                }
                out.write_all(c.assembly.as_bytes())?;
                for d in differ {
                    writeln!(out, "; decoder differs: {d}")?;
                }
            }
        }
    }
    let bad = outcomes
        .iter()
        .filter(|o| o.result.as_ref().map_or(true, |r| !r.1.is_empty()))
        .count();
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn statistic(c: &Compiled, name: &str) -> u64 {
    c.statistics.iter().find(|s| s.0 == name).map_or(0, |s| s.1)
}

fn write_summary(out: &mut impl Write, outcomes: &[Outcome]) -> anyhow::Result<()> {
    writeln!(
        out,
        "| chip | modules | failed | compile ms median | max | instructions median | max | \
         VGPRs max | SGPRs max | spilled (S+V) | decoder differences |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|")?;
    for &(t, family) in &CHIPS {
        let gfx = t.to_string();
        let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.gfx == gfx).collect();
        let failed = mine.iter().filter(|o| o.result.is_err()).count();
        if mine.len() == failed {
            if failed > 0 {
                writeln!(
                    out,
                    "| {gfx} ({family}) | {failed} | {failed} | | | | | | | | |"
                )?;
            }
            continue;
        }
        let cs: Vec<&Compiled> = mine
            .iter()
            .filter_map(|o| o.result.as_ref().ok().map(|r| &r.0))
            .collect();
        let mut ms: Vec<f64> = cs.iter().map(|c| c.compile_ms).collect();
        ms.sort_by(f64::total_cmp);
        let mut ins: Vec<u64> = cs.iter().map(|c| statistic(c, "Instructions")).collect();
        ins.sort_unstable();
        let max = |n: &str| cs.iter().map(|c| statistic(c, n)).max().unwrap_or(0);
        let spills: u64 = cs
            .iter()
            .map(|c| statistic(c, "Spilled SGPRs") + statistic(c, "Spilled VGPRs"))
            .sum();
        let differ: usize = mine
            .iter()
            .filter_map(|o| o.result.as_ref().ok())
            .map(|r| r.1.len())
            .sum();
        writeln!(
            out,
            "| {gfx} ({family}) | {} | {failed} | {:.1} | {:.1} | {} | {} | {} | {} | {spills} | {differ} |",
            cs.len(),
            ms[ms.len() / 2],
            ms[ms.len() - 1],
            ins[ins.len() / 2],
            ins[ins.len() - 1],
            max("VGPRs"),
            max("SGPRs"),
        )?;
    }
    let failures: Vec<&Outcome> = outcomes.iter().filter(|o| o.result.is_err()).collect();
    for o in failures {
        if let Err(e) = &o.result {
            writeln!(out, "failed: {} on {}: {e}", o.module, o.gfx)?;
        }
    }
    Ok(())
}
