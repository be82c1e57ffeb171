//! Assembler: LLVM-syntax text to words, for the VALU (VOP1, VOP2, VOPC, VOP3, VOP3P, SDWA,
//! DPP16, DPP8), SALU (SOP1, SOP2, SOPC, SOPK, SOPP, with the symbolic `s_waitcnt`,
//! `s_waitcnt_depctr`, `hwreg` and `sendmsg` operands), SMEM, DS, MUBUF, MTBUF,
//! FLAT/GLOBAL/SCRATCH, MIMG, EXP and VINTRP forms with their modifiers.
//! Fields are packed with the decoder's layouts, and every result is decoded again before it is
//! returned.
//!
//! `operands` reads registers and constants, `mods` the VALU modifier words, `symbols` the
//! symbolic immediates, `forms` packs the SALU encodings, `valu` the VALU ones, `mem`, `buffer`, `mimg`,
//! `smem` and `export` the memory, scalar-memory, export and interpolation ones; this module
//! splits statements and checks every result by decoding it.

mod buffer;
mod caps;
mod export;
mod forms;
mod mem;
mod mimg;
mod mods;
mod operands;
mod smem;
mod symbols;
#[cfg(test)]
mod tests;
mod valu;

use crate::decode::{decode_one, Decoded};
use crate::layout::{self, Field, Fields, Slot};
use crate::mode::Wave;
use crate::opcode::Opcode;
use crate::operand::{self, Operand, Reg, RegKind};
use crate::table::{self, Family, Flags, OpInfo, OperandKind, ValueType};
use forms::*;
use mods::*;
use operands::*;
use valu::valu;

/// An assembly error with its position (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct AsmError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Assemble one or more instructions separated by `;` or newlines. Lane masks (VOPC
/// destinations, carry-ins, conditions) may be written for either wave size (`vcc_lo`/`s0` or
/// `vcc`/`s[0:1]`); the words are the same. [`assemble_for`] checks them for one wave size.
pub fn assemble(text: &str) -> Result<Vec<u32>, AsmError> {
    assemble_with(text, None)
}

/// [`assemble`] for one wave size: lane masks must have its width, as llvm-mc-19 requires with
/// `-mattr=+wavefrontsize32` / `+wavefrontsize64`.
pub fn assemble_for(text: &str, wave: Wave) -> Result<Vec<u32>, AsmError> {
    assemble_with(text, Some(wave))
}

fn assemble_with(text: &str, wave: Option<Wave>) -> Result<Vec<u32>, AsmError> {
    let mut words = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let mut col = 1;
        for stmt in line.split(';') {
            let lead = stmt.len() - stmt.trim_start().len();
            let s = stmt.trim();
            if !s.is_empty() {
                let w = assemble_one(s, wave).map_err(|(c, message)| AsmError {
                    line: ln + 1,
                    column: col + lead + c,
                    message,
                })?;
                words.extend(w);
            }
            col += stmt.len() + 1;
        }
    }
    Ok(words)
}

pub(super) type Res<T> = Result<T, (usize, String)>;

/// Bare modifiers of the memory forms, which are never operands.
const MEM_FLAGS: [&str; 11] = [
    "gds", "glc", "slc", "dlc", "lds", "tfe", "offen", "idxen", "done", "compr", "vm",
];

pub(super) fn assemble_one(s: &str, wave: Option<Wave>) -> Res<Vec<u32>> {
    let (mn, rest) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
    let rest_col = mn.len() + (s.len() - mn.len() - rest.len());
    let mut base = mn;
    let mut forced = None;
    for suf in ["_e32", "_e64", "_sdwa", "_dpp"] {
        if let Some(b) = mn.strip_suffix(suf) {
            base = b;
            forced = Some(suf);
        }
    }
    if mn == "exp" {
        return export::exp(rest, rest_col);
    }
    let rows = table::lookup_name(base);
    // v_interp_*_f32 has a VINTRP row and a VOP3 row (`_e64`).
    let info = *rows
        .iter()
        .find(|r| (r.family == Family::VINTRP) != (forced == Some("_e64")))
        .or(rows.first())
        .ok_or((0, format!("unknown mnemonic `{mn}`")))?;
    let symbolic = match info.op() {
        Opcode::s_waitcnt => Some(symbols::waitcnt as fn(&str, usize) -> Res<u32>),
        Opcode::s_waitcnt_depctr => Some(symbols::depctr as fn(&str, usize) -> Res<u32>),
        Opcode::s_sendmsg | Opcode::s_sendmsghalt => {
            Some(symbols::sendmsg as fn(&str, usize) -> Res<u32>)
        }
        Opcode::s_version => Some(symbols::version as fn(&str, usize) -> Res<u32>),
        // s_endpgm takes an optional 16-bit immediate (llvm-mc-19 prints it when not 0).
        Opcode::s_endpgm if !rest.trim().is_empty() => {
            Some(symbols::imm16_text as fn(&str, usize) -> Res<u32>)
        }
        _ => None,
    };
    if let (Some(parse), Family::SOPP | Family::SOPK, None) = (symbolic, info.family, forced) {
        let lead = rest.len() - rest.trim_start().len();
        if rest.trim().is_empty() {
            return Err((0, format!("too few operands: {mn} takes an immediate")));
        }
        let simm = parse(rest.trim(), rest_col + lead)?;
        return simm_only(info, simm);
    }
    let (mut ops, mut mods_t) = split_operands(rest, rest_col);
    // A statement of no operands may start with a bare modifier (`ds_gws_sema_v gds`).
    if let [(t, _)] = &ops[..] {
        if MEM_FLAGS.contains(&t.as_str()) {
            mods_t.insert(0, ops.remove(0));
        }
    }
    let memory = !matches!(
        info.family,
        Family::SOP1
            | Family::SOP2
            | Family::SOPC
            | Family::SOPK
            | Family::SOPP
            | Family::VOP1
            | Family::VOP2
            | Family::VOPC
            | Family::VOP3
            | Family::VOP3P
    );
    if memory && forced.is_some() && !(info.family == Family::VINTRP && forced == Some("_e32")) {
        return Err((0, format!("`{mn}`: no such encoding of {}", info.family)));
    }
    let interp3 = info.family == Family::VOP3 && info.has(Flags::INTERP);
    let mut mods = Mods::default();
    if !memory && !interp3 {
        for (t, c) in &mods_t {
            parse_mod(&mut mods, t, *c)?;
        }
        check_order(&mods_t, valu_rank)?;
    }
    match info.family {
        Family::SOP1 | Family::SOP2 | Family::SOPC | Family::SOPK | Family::SOPP => {
            if let Some((t, c)) = mods_t.first() {
                return Err((*c, format!("`{t}`: {mn} takes no modifiers")));
            }
            salu(info, &ops)
        }
        Family::VOP3 if interp3 => export::vop3_interp(info, &ops, &mods_t),
        Family::VOP1 | Family::VOP2 | Family::VOPC | Family::VOP3 | Family::VOP3P => {
            valu(info, forced, &ops, &mods, wave)
        }
        Family::SMEM => smem::smem(info, &ops, &mods_t),
        Family::DS => mem::ds(info, &ops, &mods_t),
        Family::FLAT | Family::GLOBAL | Family::SCRATCH => mem::flat(info, &ops, &mods_t),
        Family::MUBUF | Family::MTBUF => buffer::buffer(info, &ops, &mods_t),
        Family::VINTRP => export::vintrp(info, &ops, &mods_t),
        Family::EXP => export::exp(rest, rest_col),
        Family::MIMG => mimg::mimg(info, &ops, &mods_t),
    }
}

/// A SOPP (or destination-less SOPK, `s_version`) word with a given immediate.
fn simm_only(info: &'static OpInfo, simm: u32) -> Res<Vec<u32>> {
    let mut f = Fields::default();
    let (l, enc): (&[Slot], u32) = if info.family == Family::SOPK {
        (layout::SOPK, 0xb)
    } else {
        (layout::SOPP, 0x17f)
    };
    f.set(Field::Enc, enc);
    f.set(Field::Op, u32::from(info.opcode));
    f.set(Field::Simm16, simm);
    finish(&[l], &f, 1, None, 0)
}

pub(super) fn finish(
    layouts: &[&[Slot]],
    fields: &Fields,
    nwords: usize,
    literal: Option<u32>,
    col: usize,
) -> Res<Vec<u32>> {
    let mut words = vec![0u32; nwords];
    for l in layouts {
        fields.pack(l, &mut words);
    }
    if let Some(l) = literal {
        words.push(l);
    }
    verify(words, col)
}

/// The words if they decode as one instruction of their length.
pub(super) fn verify(words: Vec<u32>, col: usize) -> Res<Vec<u32>> {
    match decode_one(&words, 0) {
        Ok(Decoded::Inst(i)) if i.len() == words.len() => Ok(words),
        Ok(Decoded::Inst(i)) => Err((
            col,
            format!(
                "encoded {} words but they decode as {} words",
                words.len(),
                i.len()
            ),
        )),
        Ok(Decoded::Unsupported(u)) => Err((col, u.to_string())),
        Err(e) => Err((col, e.to_string())),
    }
}

pub(super) struct Lit(Option<u32>);

impl Lit {
    fn code(&mut self, op: &Operand, col: usize) -> Res<u32> {
        if let Operand::Literal(v) = op {
            match self.0 {
                Some(x) if x != *v => {
                    return Err((col, "only one literal constant per instruction".into()))
                }
                _ => self.0 = Some(*v),
            }
        }
        Ok(u32::from(operand::encode_src(op)))
    }
}
