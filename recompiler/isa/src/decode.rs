//! Decoder: instruction words to [`Instruction`]s. The first word selects the encoding format;
//! the format's layout (layout.rs) gives the fields; the table gives the row. A known family
//! with an unknown opcode becomes [`Unsupported`] with the right length, so the stream stays in
//! step. Words llvm-mc rejects but the hardware executes (an unused VOP3 src2 field that is not
//! zero, for example) decode to what the hardware runs: unused fields are kept, not checked.

use crate::layout::{self, Field, Fields, Slot};
use crate::opcode::Opcode;
use crate::operand;
use crate::table::{self, Family, Flags, OpInfo};

/// The encoding actually used by an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Encoding {
    SOP2,
    SOPK,
    SOP1,
    SOPC,
    SOPP,
    SMEM,
    VOP1,
    VOP2,
    VOPC,
    /// VOP3a/VOP3b, including promoted VOP1/VOP2/VOPC (`_e64`).
    VOP3,
    VOP3P,
    /// VOP1/VOP2/VOPC with an SDWA word.
    SDWA,
    /// VOP1/VOP2/VOPC with a DPP16 word.
    DPP16,
    /// VOP1/VOP2/VOPC with a DPP8 word.
    DPP8,
    VINTRP,
    DS,
    MUBUF,
    MTBUF,
    /// FLAT, GLOBAL and SCRATCH (the segment field tells them apart).
    FLAT,
    MIMG,
    EXP,
}

/// One decoded instruction. Equality compares the row, encoding, fields, literal and words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub(crate) info: &'static OpInfo,
    pub(crate) encoding: Encoding,
    pub(crate) fields: Fields,
    pub(crate) literal: Option<u32>,
    /// MIMG NSA address words (after the two MIMG words).
    pub(crate) nsa: Vec<u32>,
    pub(crate) words: Vec<u32>,
}

/// An instruction of a known family whose opcode the table does not have (or whose format is
/// unknown: `family` None). It keeps its words so the stream stays in step.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Unsupported {
    pub family: Option<Family>,
    pub opcode: u16,
    pub words: Vec<u32>,
    pub reason: String,
}

impl Unsupported {
    pub fn len(&self) -> usize {
        self.words.len()
    }
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fam = self.family.map(|f| f.name()).unwrap_or("unknown");
        write!(
            f,
            "unsupported {fam} opcode {}: {}",
            self.opcode, self.reason
        )
    }
}

/// One item of a decoded stream. Instructions are the common case and stay unboxed, so a
/// stream is one allocation; `Unsupported` items are rare.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)]
pub enum Decoded {
    Inst(Instruction),
    Unsupported(Unsupported),
}

impl Decoded {
    /// Length in words.
    pub fn len(&self) -> usize {
        match self {
            Decoded::Inst(i) => i.len(),
            Decoded::Unsupported(u) => u.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn words(&self) -> &[u32] {
        match self {
            Decoded::Inst(i) => &i.words,
            Decoded::Unsupported(u) => &u.words,
        }
    }
}

/// Decoding failures. Every variant carries the word offset of the instruction in the stream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error(
        "truncated instruction at word {offset}: {family} needs {needed} words, {available} left"
    )]
    Truncated {
        offset: usize,
        family: &'static str,
        needed: usize,
        available: usize,
    },
}

/// Decode a whole stream of words.
pub fn decode_stream(words: &[u32]) -> Result<Vec<Decoded>, DecodeError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < words.len() {
        let d = decode_one(&words[at..], at)?;
        at += d.len().max(1);
        out.push(d);
    }
    Ok(out)
}

/// Decode the instruction at the start of `words` (`offset` is only used in errors).
pub fn decode_one(words: &[u32], offset: usize) -> Result<Decoded, DecodeError> {
    let w0 = words.first().copied().unwrap_or(0);
    let fmt = classify(w0);
    let (family_name, needed) = length(fmt, words);
    if words.len() < needed {
        return Err(DecodeError::Truncated {
            offset,
            family: family_name,
            needed,
            available: words.len(),
        });
    }
    let words = &words[..needed];
    Ok(build(fmt, words))
}

/// Format of an instruction from its first word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    Vop3,
    Vop3p,
    Vintrp,
    Ds,
    Mubuf,
    Mtbuf,
    Flat,
    Mimg,
    Exp,
    Unknown,
}

pub(crate) fn classify(w0: u32) -> Format {
    if w0 >> 31 == 0 {
        return match (w0 >> 25) & 0x3f {
            0x3e => Format::Vopc,
            0x3f => Format::Vop1,
            _ => Format::Vop2,
        };
    }
    if w0 >> 30 == 0b10 {
        return match w0 >> 23 {
            0x17d => Format::Sop1,
            0x17e => Format::Sopc,
            0x17f => Format::Sopp,
            _ if w0 >> 28 == 0xb => Format::Sopk,
            _ => Format::Sop2,
        };
    }
    match w0 >> 26 {
        0x32 => Format::Vintrp,
        0x33 => Format::Vop3p,
        0x35 => Format::Vop3,
        0x36 => Format::Ds,
        0x37 => Format::Flat,
        0x38 => Format::Mubuf,
        0x3a => Format::Mtbuf,
        0x3c => Format::Mimg,
        0x3d => Format::Smem,
        0x3e => Format::Exp,
        _ => Format::Unknown,
    }
}

fn src9(w: u32, lo: u32) -> u16 {
    ((w >> lo) & 0x1ff) as u16
}

/// Sources a VOP3/VOP3P row reads (unknown rows: all three).
fn vop3_nsrc(info: Option<&OpInfo>) -> usize {
    info.map(|i| i.srcs.len().min(3)).unwrap_or(3)
}

/// (family name for errors, words needed) of the instruction at `words`.
fn length(fmt: Format, words: &[u32]) -> (&'static str, usize) {
    let w0 = words.first().copied().unwrap_or(0);
    let w1 = words.get(1).copied().unwrap_or(0);
    match fmt {
        Format::Vop1 | Format::Vop2 | Format::Vopc => {
            let name = match fmt {
                Format::Vop1 => "VOP1",
                Format::Vop2 => "VOP2",
                _ => "VOPC",
            };
            let src0 = src9(w0, 0);
            let info = short_info(fmt, w0);
            let lit_op = info.is_some_and(|i| i.has(Flags::LITERAL_OPERAND));
            let n = match src0 {
                operand::SDWA | operand::DPP16 | operand::DPP8 | operand::DPP8_FI => 2,
                operand::LITERAL => 2,
                _ if lit_op => 2,
                _ => 1,
            };
            (name, n)
        }
        Format::Vop3 | Format::Vop3p => {
            let info = if fmt == Format::Vop3 {
                table::lookup_vop3(((w0 >> 16) & 0x3ff) as u16)
            } else {
                table::lookup(Family::VOP3P, ((w0 >> 16) & 0x7f) as u16)
            };
            let n = vop3_nsrc(info);
            if words.len() < 2 {
                return ("VOP3", 2);
            }
            // VOP3 interpolation keeps the attribute in src0: no literal there.
            let first = usize::from(info.is_some_and(|i| i.has(Flags::INTERP)));
            let lit = (first..n).any(|i| src9(w1, 9 * i as u32) == operand::LITERAL);
            (
                if fmt == Format::Vop3 { "VOP3" } else { "VOP3P" },
                2 + usize::from(lit),
            )
        }
        Format::Sop2 | Format::Sopc => {
            let lit = (w0 & 0xff) == 255 || ((w0 >> 8) & 0xff) == 255;
            (
                if fmt == Format::Sop2 { "SOP2" } else { "SOPC" },
                1 + usize::from(lit),
            )
        }
        Format::Sop1 => {
            let info = table::lookup(Family::SOP1, ((w0 >> 8) & 0xff) as u16);
            let reads = info.map(|i| !i.srcs.is_empty()).unwrap_or(true);
            ("SOP1", 1 + usize::from(reads && (w0 & 0xff) == 255))
        }
        Format::Sopk => {
            let info = table::lookup(Family::SOPK, ((w0 >> 23) & 0x1f) as u16);
            let lit = info.is_some_and(|i| i.op() == Opcode::s_setreg_imm32_b32);
            ("SOPK", 1 + usize::from(lit))
        }
        Format::Sopp => ("SOPP", 1),
        Format::Vintrp => ("VINTRP", 1),
        Format::Smem => ("SMEM", 2),
        Format::Ds => ("DS", 2),
        Format::Mubuf => ("MUBUF", 2),
        Format::Mtbuf => ("MTBUF", 2),
        Format::Flat => ("FLAT", 2),
        Format::Exp => ("EXP", 2),
        Format::Mimg => ("MIMG", 2 + ((w0 >> 1) & 3) as usize),
        Format::Unknown => ("unknown", 1),
    }
}

fn short_info(fmt: Format, w0: u32) -> Option<&'static OpInfo> {
    match fmt {
        Format::Vop1 => table::lookup(Family::VOP1, ((w0 >> 9) & 0xff) as u16),
        Format::Vop2 => table::lookup(Family::VOP2, ((w0 >> 25) & 0x3f) as u16),
        Format::Vopc => table::lookup(Family::VOPC, ((w0 >> 17) & 0xff) as u16),
        _ => None,
    }
}

/// Layouts of an encoding (base word layout, extra word layout).
pub(crate) fn layouts(enc: Encoding, info: &OpInfo) -> (&'static [Slot], &'static [Slot]) {
    let base: &'static [Slot] = match info.family {
        Family::VOP1 => layout::VOP1,
        Family::VOP2 => layout::VOP2,
        Family::VOPC => layout::VOPC,
        _ => &[],
    };
    match enc {
        Encoding::SOP2 => (layout::SOP2, &[]),
        Encoding::SOPK => (layout::SOPK, &[]),
        Encoding::SOP1 => (layout::SOP1, &[]),
        Encoding::SOPC => (layout::SOPC, &[]),
        Encoding::SOPP => (layout::SOPP, &[]),
        Encoding::SMEM => (layout::SMEM, &[]),
        Encoding::VOP1 => (layout::VOP1, &[]),
        Encoding::VOP2 => (layout::VOP2, &[]),
        Encoding::VOPC => (layout::VOPC, &[]),
        Encoding::VOP3 if info.has(Flags::VOP3B) => (layout::VOP3B, &[]),
        Encoding::VOP3 => (layout::VOP3, &[]),
        Encoding::VOP3P => (layout::VOP3P, &[]),
        Encoding::SDWA if info.family == Family::VOPC => (base, layout::SDWA_VOPC),
        Encoding::SDWA => (base, layout::SDWA),
        Encoding::DPP16 => (base, layout::DPP16),
        Encoding::DPP8 => (base, layout::DPP8),
        Encoding::VINTRP => (layout::VINTRP, &[]),
        Encoding::DS => (layout::DS, &[]),
        Encoding::MUBUF => (layout::MUBUF, &[]),
        Encoding::MTBUF => (layout::MTBUF, &[]),
        Encoding::FLAT => (layout::FLAT, &[]),
        Encoding::MIMG => (layout::MIMG, &[]),
        Encoding::EXP => (layout::EXP, &[]),
    }
}

fn unsupported(family: Option<Family>, opcode: u32, words: &[u32], reason: &str) -> Decoded {
    Decoded::Unsupported(Unsupported {
        family,
        opcode: opcode as u16,
        words: words.to_vec(),
        reason: reason.to_string(),
    })
}

fn build(fmt: Format, words: &[u32]) -> Decoded {
    let w0 = words[0];
    let w1 = words.get(1).copied().unwrap_or(0);
    let (family, opcode, enc): (Family, u32, Encoding) = match fmt {
        Format::Sop2 => (Family::SOP2, (w0 >> 23) & 0x7f, Encoding::SOP2),
        Format::Sopk => (Family::SOPK, (w0 >> 23) & 0x1f, Encoding::SOPK),
        Format::Sop1 => (Family::SOP1, (w0 >> 8) & 0xff, Encoding::SOP1),
        Format::Sopc => (Family::SOPC, (w0 >> 16) & 0x7f, Encoding::SOPC),
        Format::Sopp => (Family::SOPP, (w0 >> 16) & 0x7f, Encoding::SOPP),
        Format::Smem => (Family::SMEM, (w0 >> 18) & 0xff, Encoding::SMEM),
        Format::Vop1 | Format::Vop2 | Format::Vopc => {
            let (family, op) = match fmt {
                Format::Vop1 => (Family::VOP1, (w0 >> 9) & 0xff),
                Format::Vop2 => (Family::VOP2, (w0 >> 25) & 0x3f),
                _ => (Family::VOPC, (w0 >> 17) & 0xff),
            };
            let enc = match src9(w0, 0) {
                operand::SDWA => Encoding::SDWA,
                operand::DPP16 => Encoding::DPP16,
                operand::DPP8 | operand::DPP8_FI => Encoding::DPP8,
                _ => match family {
                    Family::VOP1 => Encoding::VOP1,
                    Family::VOP2 => Encoding::VOP2,
                    _ => Encoding::VOPC,
                },
            };
            (family, op, enc)
        }
        Format::Vop3 => {
            let op = (w0 >> 16) & 0x3ff;
            let Some(info) = table::lookup_vop3(op as u16) else {
                return unsupported(
                    Some(Family::VOP3),
                    op,
                    words,
                    "VOP3 opcode not in the GFX10.3 table",
                );
            };
            return finish(info, Encoding::VOP3, words);
        }
        Format::Vop3p => (Family::VOP3P, (w0 >> 16) & 0x7f, Encoding::VOP3P),
        Format::Vintrp => (Family::VINTRP, (w0 >> 16) & 3, Encoding::VINTRP),
        Format::Ds => (Family::DS, (w0 >> 18) & 0xff, Encoding::DS),
        Format::Mubuf => (
            Family::MUBUF,
            ((w0 >> 18) & 0x7f) | (((w0 >> 25) & 1) << 7),
            Encoding::MUBUF,
        ),
        Format::Mtbuf => (
            Family::MTBUF,
            ((w0 >> 16) & 7) | (((w1 >> 21) & 1) << 3),
            Encoding::MTBUF,
        ),
        Format::Flat => {
            let family = match (w0 >> 14) & 3 {
                0 => Family::FLAT,
                1 => Family::SCRATCH,
                2 => Family::GLOBAL,
                _ => {
                    return unsupported(
                        Some(Family::FLAT),
                        (w0 >> 18) & 0x7f,
                        words,
                        "FLAT segment 3 is reserved",
                    );
                }
            };
            (family, (w0 >> 18) & 0x7f, Encoding::FLAT)
        }
        Format::Mimg => (
            Family::MIMG,
            ((w0 >> 18) & 0x7f) | ((w0 & 1) << 7),
            Encoding::MIMG,
        ),
        Format::Exp => (Family::EXP, 0, Encoding::EXP),
        Format::Unknown => {
            return unsupported(
                None,
                w0 >> 26,
                words,
                "encoding format not defined on GFX10",
            );
        }
    };
    match table::lookup(family, opcode as u16) {
        Some(info) => {
            if matches!(enc, Encoding::SDWA | Encoding::DPP16 | Encoding::DPP8)
                && info.has(Flags::LITERAL_OPERAND)
            {
                return unsupported(
                    Some(family),
                    opcode,
                    words,
                    "fmamk/fmaak take no SDWA or DPP word",
                );
            }
            finish(info, enc, words)
        }
        None => unsupported(
            Some(family),
            opcode,
            words,
            &format!("{family} opcode not in the GFX10.3 table"),
        ),
    }
}

fn finish(info: &'static OpInfo, encoding: Encoding, words: &[u32]) -> Decoded {
    let mut fields = Fields::default();
    let (base, extra) = layouts(encoding, info);
    fields.extract(base, words);
    fields.extract(extra, words);
    let fixed = match encoding {
        Encoding::SDWA | Encoding::DPP16 | Encoding::DPP8 => 2,
        Encoding::MIMG => 2,
        _ => base.iter().map(|s| s.1 as usize + 1).max().unwrap_or(1),
    };
    let literal = if words.len() > fixed && encoding != Encoding::MIMG {
        words.get(fixed).copied()
    } else {
        None
    };
    let nsa = if encoding == Encoding::MIMG {
        words[2..].to_vec()
    } else {
        Vec::new()
    };
    Decoded::Inst(Instruction {
        info,
        encoding,
        fields,
        literal,
        nsa,
        words: words.to_vec(),
    })
}

impl Instruction {
    pub fn info(&self) -> &'static OpInfo {
        self.info
    }
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }
    /// The raw words, literal and extra words included.
    pub fn words(&self) -> &[u32] {
        &self.words
    }
    pub fn len(&self) -> usize {
        self.words.len()
    }
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
    /// Raw value of a format field.
    pub fn field(&self, f: Field) -> u32 {
        self.fields.get(f)
    }
    pub fn literal(&self) -> Option<u32> {
        self.literal
    }
    /// MIMG NSA address words.
    pub fn nsa_words(&self) -> &[u32] {
        &self.nsa
    }
}
