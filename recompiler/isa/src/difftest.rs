//! Differential testing against llvm-mc-19: random instructions drawn across all families,
//! disassembled by llvm-mc in batches and by this crate, texts compared. Used by the test suite
//! (a small draw) and by `examples/difftest.rs` (the full run).

use std::io::Write;
use std::process::{Command, Stdio};

use crate::decode::{decode_one, Decoded};
use crate::known::{KnownEntry, Scope};
use crate::table::{self, Family, OpInfo, Source};
use crate::{encode, Wave};

/// Name of the llvm-mc binary.
pub const LLVM_MC: &str = "llvm-mc-19";

/// Whether llvm-mc-19 can be run.
pub fn llvm_mc_available() -> bool {
    Command::new(LLVM_MC)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether llvm-mc-19 can run here, for the tests that need it: under CI it must (the run
/// fails); elsewhere its absence is printed and the test skips.
pub fn llvm_mc_or_skip() -> bool {
    if llvm_mc_available() {
        return true;
    }
    assert!(
        std::env::var("CI").is_err(),
        "llvm-mc-19 is required under CI"
    );
    eprintln!("llvm-mc-19 not found; skipping");
    false
}

/// Six `s_nop 0` words and one `s_code_end` follow each stream. After a rejected word llvm-mc
/// decodes the following words, and its guesses may run past the stream: the nops absorb them,
/// and the `s_code_end` marker closes the stream's group of output lines. (The `; encoding:`
/// bytes llvm-mc prints are re-encoded and may be shorter than what it consumed, for example
/// for MIMG NSA words, so they cannot be used to walk the byte stream.)
const PAD: [u32; 7] = [
    0xbf80_0000,
    0xbf80_0000,
    0xbf80_0000,
    0xbf80_0000,
    0xbf80_0000,
    0xbf80_0000,
    MARKER,
];
const MARKER: u32 = 0xbf9f_0000;

/// What llvm-mc made of one stream: the text of its first instruction, and whether it read
/// exactly the stream's words for it (the stream is one instruction by this crate's decoder).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlvmFirst {
    pub text: String,
    /// Where llvm-mc's length differs: `Some(true)` when it read into the padding (longer),
    /// `Some(false)` when words of the stream were left for further instructions (shorter).
    pub length_differs: Option<bool>,
    /// The `; encoding:` words llvm-mc printed for it (its own encoding of the instruction it
    /// read: bits it does not use are zero).
    pub encoding: Vec<u32>,
}

/// Disassemble many streams in one llvm-mc run and return, per stream, its first instruction,
/// or None where llvm-mc rejects the first word. The length is judged from the padding: the
/// first instruction read exactly the stream when the six `s_nop 0` words follow it.
pub fn llvm_disassemble(
    streams: &[Vec<u32>],
    mcpu: &str,
    wave64: bool,
) -> std::io::Result<Vec<Option<LlvmFirst>>> {
    let mut input = String::new();
    for s in streams {
        let mut line = Vec::new();
        for w in s.iter().copied().chain(PAD) {
            for b in w.to_le_bytes() {
                line.push(format!("0x{b:02x}"));
            }
        }
        input.push_str(&line.join(" "));
        input.push('\n');
    }
    let mut args = vec![
        "-arch=amdgcn".to_string(),
        format!("-mcpu={mcpu}"),
        "--disassemble".to_string(),
        "-show-encoding".to_string(),
    ];
    if wave64 {
        args.push("-mattr=+wavefrontsize64".to_string());
    }
    let out = run_llvm_mc(&args, input)?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut rejected = std::collections::HashSet::new();
    for l in stderr.lines() {
        if let Some(i) = l.find(": warning: invalid instruction encoding") {
            let mut parts = l[..i].rsplit(':');
            let col = parts.next().and_then(|c| c.parse::<usize>().ok());
            let line = parts.next().and_then(|c| c.parse::<usize>().ok());
            if let (Some(line), Some(1)) = (line, col) {
                rejected.insert(line - 1);
            }
        }
    }
    let mut groups: Vec<Vec<(String, Vec<u32>)>> = vec![Vec::new()];
    for l in stdout.lines() {
        if let Some(i) = l.find("; encoding: [") {
            let text = l[..i].trim().to_string();
            if text == "s_code_end" {
                groups.push(Vec::new());
                continue;
            }
            if let Some(g) = groups.last_mut() {
                g.push((text, encoding_words(&l[i + "; encoding: [".len()..])));
            }
        }
    }
    if groups.len() != streams.len() + 1 {
        return Err(std::io::Error::other(format!(
            "llvm-mc printed {} stream groups for {} streams",
            groups.len() - 1,
            streams.len()
        )));
    }
    Ok(groups
        .into_iter()
        .take(streams.len())
        .enumerate()
        .map(|(i, g)| {
            if rejected.contains(&i) || g.is_empty() {
                return None;
            }
            let nops = g
                .iter()
                .skip(1)
                .filter(|t| normalize(&t.0) == "s_nop 0")
                .count();
            let length_differs = match g.len() - 1 {
                n if n == PAD.len() - 1 && nops == n => None,
                n if n < PAD.len() - 1 => Some(true),
                _ => Some(false),
            };
            let mut g = g;
            let (text, encoding) = g.swap_remove(0);
            Some(LlvmFirst {
                text,
                length_differs,
                encoding,
            })
        })
        .collect())
}

/// Assemble `lines` (one instruction each, no `;`) with llvm-mc-19 for gfx1030 in one process.
pub fn llvm_assemble(
    lines: &[String],
    wave64: bool,
) -> std::io::Result<Vec<Result<Vec<u32>, String>>> {
    let mut input = String::new();
    for l in lines {
        if l.contains(';') || l.contains('\n') {
            return Err(std::io::Error::other(format!("not one instruction: `{l}`")));
        }
        input.push_str(l);
        input.push('\n');
    }
    let wave = if wave64 {
        "-mattr=+wavefrontsize64"
    } else {
        "-mattr=+wavefrontsize32"
    };
    let args = ["-arch=amdgcn", "-mcpu=gfx1030", wave, "-show-encoding"].map(String::from);
    let out = run_llvm_mc(&args, input)?;
    let mut errors: Vec<Option<String>> = vec![None; lines.len()];
    for l in String::from_utf8_lossy(&out.stderr).lines() {
        let Some(rest) = l.strip_prefix("<stdin>:") else {
            continue;
        };
        let mut p = rest.splitn(3, ':');
        let (Some(ln), Some(_col), Some(msg)) = (p.next(), p.next(), p.next()) else {
            continue;
        };
        let Some(msg) = msg.trim().strip_prefix("error:") else {
            continue;
        };
        if let Ok(n) = ln.parse::<usize>() {
            if (1..=lines.len()).contains(&n) && errors[n - 1].is_none() {
                errors[n - 1] = Some(msg.trim().to_string());
            }
        }
    }
    let mut encodings = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once("; encoding: [").map(|(_, e)| e.to_string()))
        .collect::<Vec<_>>()
        .into_iter();
    errors
        .into_iter()
        .map(|e| match e {
            Some(m) => Ok(Err(m)),
            None => {
                let e = encodings
                    .next()
                    .ok_or_else(|| std::io::Error::other("llvm-mc-19 printed too few encodings"))?;
                Ok(Ok(encoding_words(&e)))
            }
        })
        .collect()
}

/// Runs llvm-mc-19 with `args` on `input` (written from a thread, so that a large input and
/// output cannot block each other) and gives what it printed.
fn run_llvm_mc(args: &[String], input: String) -> std::io::Result<std::process::Output> {
    let mut child = Command::new(LLVM_MC)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| std::io::Error::other("no stdin"))?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output()?;
    writer
        .join()
        .map_err(|_| std::io::Error::other("writer thread failed"))??;
    Ok(out)
}

/// The little-endian words of an `; encoding: [0x.., ...]` byte list.
fn encoding_words(list: &str) -> Vec<u32> {
    let bytes: Vec<u8> = list
        .split(']')
        .next()
        .unwrap_or("")
        .split(',')
        .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
        .collect();
    bytes
        .chunks(4)
        .map(|c| c.iter().rev().fold(0u32, |a, &b| (a << 8) | u32::from(b)))
        .collect()
}

/// A small deterministic generator (SplitMix64), so the draw is reproducible from its seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// A random instruction: a random table row's probe words with the non-opcode fields
/// randomised (random source codes, modifiers, offsets, registers), plus random trailing words
/// for a literal, SDWA/DPP word or NSA addresses where the form has them.
pub fn random_instruction(rng: &mut Rng) -> Vec<u32> {
    let rows = &table::table().rows;
    let row = rows[rng.below(rows.len())];
    random_instruction_for(row, rng)
}

/// The words of a row's own case: llvm-mc's probe words, or for a hardware-only MIMG row the
/// plain MIMG words with its opcode (dmask 0xf, 1D).
pub fn row_words(row: &OpInfo) -> Vec<u32> {
    if row.probe_words.is_empty() {
        vec![
            0xf000_0f00 | (u32::from(row.opcode) & 0x7f) << 18 | u32::from(row.opcode >> 7),
            0x0004_0100,
        ]
    } else {
        row.probe_words.clone()
    }
}

/// A random instruction of one row (see [`random_instruction`]).
pub fn random_instruction_for(row: &OpInfo, rng: &mut Rng) -> Vec<u32> {
    let mut words = row_words(row);
    // Keep the bits that select format and opcode; randomise the rest.
    let keep0: u32 = match row.family {
        Family::SOP2 => 0xff80_0000,
        Family::SOPK => 0xff80_0000,
        Family::SOP1 => 0xff80_ff00,
        Family::SOPC | Family::SOPP => 0xffff_0000,
        Family::SMEM => 0xffff_0000 & !0x0001_4000 | 0x03fc_0000,
        Family::VOP1 => 0xfe01_fe00,
        Family::VOP2 => 0xfe00_0000,
        Family::VOPC => 0xfffe_0000,
        Family::VOP3 => 0xffff_0000,
        Family::VOP3P => 0xffff_0000,
        Family::VINTRP => 0xfc03_0000,
        Family::DS => 0xfffc_0000,
        Family::MUBUF => 0xfffc_0000,
        Family::MTBUF => 0xfc07_0000,
        Family::FLAT | Family::GLOBAL | Family::SCRATCH => 0xfffc_c000,
        Family::MIMG => 0xfffc_0001,
        Family::EXP => 0xfc00_0000,
    };
    let r = rng.next_u32();
    words[0] = (words[0] & keep0) | (r & !keep0);
    if row.family == Family::MTBUF {
        // The fourth opcode bit lives in the second word.
        if let Some(w1) = words.get_mut(1) {
            let keep = 1 << 21;
            *w1 = (*w1 & keep) | (rng.next_u32() & !keep);
        }
    } else if words.len() > 1 {
        words[1] = rng.next_u32();
    }
    // Bias source fields toward registers and inline constants, as real code has them.
    let pick_src = |rng: &mut Rng| -> u32 {
        match rng.below(8) {
            0 => 128 + rng.below(81) as u32,
            1 => 240 + rng.below(9) as u32,
            2 => 255,
            3 => rng.below(128) as u32,
            4 => [
                249u32, 250, 233, 234, 251, 252, 253, 254, 235, 236, 237, 238, 239,
            ][rng.below(13)],
            _ => 256 + rng.below(256) as u32,
        }
    };
    match row.family {
        Family::VOP1 | Family::VOP2 | Family::VOPC => {
            words.truncate(1);
            words[0] = (words[0] & !0x1ff) | pick_src(rng);
        }
        Family::VOP3 | Family::VOP3P => {
            words.truncate(2);
            let w1 = &mut words[1];
            *w1 &= !0x7ff_ffff;
            let s0 = pick_src(rng);
            let s1 = pick_src(rng);
            let s2 = pick_src(rng);
            *w1 |= s0 | (s1 << 9) | (s2 << 18);
            if rng.below(2) == 0 {
                words[0] &= !0x7f00; // no op_sel / abs most of the time
                words[1] &= 0x07ff_ffff;
            }
        }
        Family::SOP1 | Family::SOP2 | Family::SOPC => {
            words.truncate(1);
            let a = pick_src(rng) & 0xff;
            let b = pick_src(rng) & 0xff;
            words[0] = (words[0] & !0xffff)
                | a
                | if row.family == Family::SOP1 {
                    words[0] & 0xff00
                } else {
                    b << 8
                };
        }
        Family::MIMG => {
            words.truncate(2);
        }
        Family::FLAT | Family::GLOBAL | Family::SCRATCH if rng.below(2) == 0 => {
            // Half of the draws without a scalar address (FLAT takes none).
            words[1] = (words[1] & !(0x7f << 16)) | (0x7d << 16);
        }
        _ => {}
    }
    // Trailing words: literal / extra words, random.
    for _ in 0..4 {
        words.push(rng.next_u32());
    }
    match decode_one(&words, 0) {
        Ok(d) => {
            let n = d.len();
            words.truncate(n);
        }
        Err(_) => words.truncate(2),
    }
    words
}

/// Outcome of one comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// llvm-mc rejects the words.
    LlvmRejects,
    /// The words are a row llvm-mc-19 does not know ([`Source::HardwareOnly`]): not compared,
    /// whatever llvm-mc makes of them. `evidence` is the row's reason for existing.
    HardwareOnly {
        mnemonic: &'static str,
        evidence: &'static str,
    },
    Agree,
    /// llvm-mc and this crate disagree on the length in words (`llvm_longer`: llvm-mc read
    /// more words).
    Length {
        llvm_longer: bool,
        ours: usize,
        llvm_text: String,
    },
    Text {
        llvm: String,
        ours: String,
    },
    /// This crate says unsupported where llvm-mc decodes.
    OursUnsupported {
        llvm: String,
        reason: String,
    },
}

/// Compare a batch of streams (each one instruction long by this crate's decoder). A stream
/// this crate decodes as a hardware-only row is [`Outcome::HardwareOnly`], not compared.
pub fn compare(streams: &[Vec<u32>], wave: Wave) -> std::io::Result<Vec<Outcome>> {
    let mc = disassemble_split(streams, wave == Wave::W64)?;
    let mut out = Vec::with_capacity(streams.len());
    for (s, first) in streams.iter().zip(mc) {
        if let Ok(Decoded::Inst(i)) = decode_one(s, 0) {
            let info = i.info();
            if info.source == Source::HardwareOnly {
                out.push(Outcome::HardwareOnly {
                    mnemonic: info.mnemonic,
                    evidence: info.evidence,
                });
                continue;
            }
        }
        let Some(LlvmFirst {
            text,
            length_differs,
            ..
        }) = first
        else {
            out.push(Outcome::LlvmRejects);
            continue;
        };
        let ours = decode_one(s, 0);
        match ours {
            Ok(Decoded::Inst(i)) => {
                if let Some(llvm_longer) = length_differs {
                    out.push(Outcome::Length {
                        llvm_longer,
                        ours: i.len(),
                        llvm_text: text,
                    });
                    continue;
                }
                let t = i.to_llvm_text(wave);
                // Re-encoding must give back the words.
                debug_assert_eq!(encode(&i), s.to_vec());
                if normalize(&t) == normalize(&text) {
                    out.push(Outcome::Agree);
                } else {
                    out.push(Outcome::Text {
                        llvm: text,
                        ours: t,
                    });
                }
            }
            Ok(Decoded::Unsupported(u)) => out.push(Outcome::OursUnsupported {
                llvm: text,
                reason: u.reason,
            }),
            Err(e) => out.push(Outcome::OursUnsupported {
                llvm: text,
                reason: e.to_string(),
            }),
        }
    }
    Ok(out)
}

/// Disassemble, halving the batch where llvm-mc's output cannot be tied to the streams (a
/// guess that swallowed a marker); a single stream that still cannot be tied counts as rejected.
pub fn disassemble_split(
    streams: &[Vec<u32>],
    wave64: bool,
) -> std::io::Result<Vec<Option<LlvmFirst>>> {
    match llvm_disassemble(streams, "gfx1030", wave64) {
        Ok(v) => Ok(v),
        Err(_) if streams.len() == 1 => Ok(vec![None]),
        Err(e) if streams.is_empty() => Err(e),
        Err(_) => {
            let (a, b) = streams.split_at(streams.len() / 2);
            let mut v = disassemble_split(a, wave64)?;
            v.extend(disassemble_split(b, wave64)?);
            Ok(v)
        }
    }
}

/// llvm-mc pads the mnemonic column; compare with runs of spaces collapsed.
pub fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The printer's known differences with llvm-mc: the `printer` entries of a known-differences
/// file (scripts/isa/known-differences.toml; format: [`crate::known`]). A disagreement belongs
/// to an entry when every matcher it states matches: the family this crate decoded, the outcome
/// kind, llvm-mc's mnemonic, and a substring of llvm-mc's or this crate's text.
#[derive(Clone, Debug, Default)]
pub struct KnownDifferences {
    pub classes: Vec<KnownEntry>,
}

/// The matchers a printer entry may state.
pub const PRINTER_MATCHERS: &[&str] = &[
    "families",
    "outcome",
    "mnemonics",
    "llvm_contains",
    "ours_contains",
];

/// Errors reading the known-differences file.
#[derive(Debug, thiserror::Error)]
pub enum KnownError {
    #[error("reading {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Parse {
        path: String,
        source: crate::known::KnownError,
    },
}

impl KnownDifferences {
    pub fn load(path: &std::path::Path) -> Result<Self, KnownError> {
        let text = std::fs::read_to_string(path).map_err(|source| KnownError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text).map_err(|source| KnownError::Parse {
            path: path.display().to_string(),
            source,
        })
    }

    pub fn parse(text: &str) -> Result<Self, crate::known::KnownError> {
        let classes = crate::known::parse(text, Scope::Printer, PRINTER_MATCHERS)?;
        Ok(KnownDifferences { classes })
    }

    /// The first entry a disagreement belongs to (`family`: the family this crate decoded).
    pub fn classify(&self, family: &str, outcome: &Outcome) -> Option<&KnownEntry> {
        let (kind, llvm, ours) = match outcome {
            Outcome::Agree | Outcome::LlvmRejects | Outcome::HardwareOnly { .. } => return None,
            Outcome::Text { llvm, ours } => ("text", llvm.as_str(), ours.as_str()),
            Outcome::Length { llvm_text, .. } => ("length", llvm_text.as_str(), ""),
            Outcome::OursUnsupported { llvm, reason } => {
                ("ours-unsupported", llvm.as_str(), reason.as_str())
            }
        };
        let mnemonic = llvm.split_whitespace().next().unwrap_or("");
        self.classes.iter().find(|c| {
            (c.families.is_empty() || c.families.iter().any(|f| f == family))
                && c.outcome.as_deref().is_none_or(|o| o == kind)
                && (c.mnemonics.is_empty() || c.mnemonics.iter().any(|m| m == mnemonic))
                && (c.llvm_contains.is_empty()
                    || c.llvm_contains.iter().any(|x| llvm.contains(x.as_str())))
                && (c.ours_contains.is_empty()
                    || c.ours_contains.iter().any(|x| ours.contains(x.as_str())))
        })
    }
}

/// Figures of one differential run.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub total: usize,
    pub llvm_rejects: usize,
    /// Draws of rows llvm-mc-19 does not know, left out of the comparison.
    pub hardware_only: usize,
    pub agree: usize,
    /// Disagreements in a known class, by class name.
    pub known: std::collections::BTreeMap<String, usize>,
    /// Disagreements in no known class: (family, words, outcome).
    pub unexplained: Vec<(String, Vec<u32>, Outcome)>,
    /// Disagreements in a known class: (class name, words, outcome).
    pub explained: Vec<(String, Vec<u32>, Outcome)>,
    /// Per family: (llvm-mc decodes, agree, known class).
    pub by_family: std::collections::BTreeMap<String, (usize, usize, usize)>,
}

impl Tally {
    /// Instructions llvm-mc decodes (hardware-only rows left out).
    pub fn decoded(&self) -> usize {
        self.total - self.llvm_rejects - self.hardware_only
    }
    pub fn known_total(&self) -> usize {
        self.known.values().sum()
    }
    /// Agreement where llvm-mc decodes, known classes left out of the count.
    pub fn agreement(&self) -> f64 {
        let n = self.decoded() - self.known_total();
        if n == 0 {
            1.0
        } else {
            self.agree as f64 / n as f64
        }
    }
}

/// Draw `count` random instructions from `seed`, compare them with llvm-mc in batches, and
/// classify the disagreements.
pub fn run(
    seed: u64,
    count: usize,
    wave: Wave,
    known: &KnownDifferences,
) -> std::io::Result<Tally> {
    let mut rng = Rng(seed);
    let corpus: Vec<Vec<u32>> = (0..count).map(|_| random_instruction(&mut rng)).collect();
    let mut t = Tally {
        total: count,
        ..Tally::default()
    };
    for chunk in corpus.chunks(4000) {
        for (w, o) in chunk.iter().zip(compare(chunk, wave)?) {
            let fam = match decode_one(w, 0) {
                Ok(Decoded::Inst(i)) => i.info().family.name().to_string(),
                Ok(Decoded::Unsupported(u)) => u.family.map_or("unknown", |f| f.name()).to_string(),
                Err(_) => "truncated".into(),
            };
            match o {
                Outcome::LlvmRejects => {
                    t.llvm_rejects += 1;
                    continue;
                }
                Outcome::HardwareOnly { .. } => {
                    t.hardware_only += 1;
                    continue;
                }
                _ => {}
            }
            let e = t.by_family.entry(fam.clone()).or_default();
            e.0 += 1;
            if o == Outcome::Agree {
                t.agree += 1;
                e.1 += 1;
            } else if let Some(c) = known.classify(&fam, &o) {
                e.2 += 1;
                *t.known.entry(c.id.clone()).or_default() += 1;
                t.explained.push((c.id.clone(), w.clone(), o));
            } else {
                t.unexplained.push((fam, w.clone(), o));
            }
        }
    }
    Ok(t)
}

/// What llvm-mc-19 makes of the text this crate prints for one instruction's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundTrip {
    /// llvm-mc-19 rejects the words, or reads another length: not compared.
    NotCompared,
    /// The text assembles to the words.
    SameWords,
    /// The text assembles to the words llvm-mc-19 writes for them itself (its re-encoding:
    /// bits the instruction does not use, or a literal an inline constant holds).
    LlvmWords,
    /// The text is llvm-mc-19's own, and it does not assemble it to the words either, or
    /// neither text assembles (an operand it marks invalid).
    LlvmText,
    /// The text assembles to other words: `back` (or llvm-mc's error).
    Wrong {
        text: String,
        back: Result<Vec<u32>, String>,
        llvm_text: String,
        llvm_words: Vec<u32>,
    },
}

/// The round trip through LLVM of each stream (one instruction each): decoded and printed by
/// this crate, assembled by llvm-mc-19 (see [`RoundTrip`]).
pub fn llvm_round_trip(streams: &[Vec<u32>], wave: Wave) -> std::io::Result<Vec<RoundTrip>> {
    let wave64 = wave == Wave::W64;
    let mut firsts = Vec::with_capacity(streams.len());
    for chunk in streams.chunks(4000) {
        firsts.extend(disassemble_split(chunk, wave64)?);
    }
    let mut cases = Vec::new();
    for (i, (w, first)) in streams.iter().zip(&firsts).enumerate() {
        let Some(first) = first.as_ref().filter(|f| f.length_differs.is_none()) else {
            continue;
        };
        let Ok(Decoded::Inst(inst)) = decode_one(w, 0) else {
            continue;
        };
        cases.push((i, inst.to_llvm_text(wave), first));
    }
    let ours: Vec<String> = cases.iter().map(|c| c.1.clone()).collect();
    let theirs: Vec<String> = cases.iter().map(|c| c.2.text.clone()).collect();
    let (mut back, mut theirs_back) = (Vec::new(), Vec::new());
    for chunk in ours.chunks(4000) {
        back.extend(llvm_assemble(chunk, wave64)?);
    }
    for chunk in theirs.chunks(4000) {
        theirs_back.extend(llvm_assemble(chunk, wave64)?);
    }
    let mut out = vec![RoundTrip::NotCompared; streams.len()];
    for (((i, text, first), back), theirs) in cases.into_iter().zip(back).zip(theirs_back) {
        let w = &streams[i];
        out[i] = match back {
            Ok(b) if b == *w => RoundTrip::SameWords,
            Ok(b) if b == first.encoding => RoundTrip::LlvmWords,
            _ if normalize(&text) == normalize(&first.text) => RoundTrip::LlvmText,
            Err(_) if theirs.is_err() => RoundTrip::LlvmText,
            back => RoundTrip::Wrong {
                text,
                back,
                llvm_text: first.text.clone(),
                llvm_words: first.encoding.clone(),
            },
        };
    }
    Ok(out)
}
