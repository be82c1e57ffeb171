//! Assembler: LLVM-syntax text to words, for the VALU (VOP1, VOP2, VOPC, VOP3, VOP3P, SDWA,
//! DPP16, DPP8) and SALU (SOP1, SOP2, SOPC, SOPK, SOPP) forms with their modifiers. Fields are
//! packed with the decoder's layouts, and every result is decoded again before it is returned.
//!
//! `operands` reads registers and constants, `mods` the modifier words, `forms` packs the SALU
//! and VALU encodings; this module splits statements and checks every result by decoding it.

mod caps;
mod forms;
mod mods;
mod operands;
#[cfg(test)]
mod tests;
mod valu;

use crate::decode::{decode_one, Decoded};
use crate::layout::{self, Field, Fields, Slot};
use crate::mode::Wave;
use crate::operand::{self, Operand, Reg, RegKind};
use crate::table::{self, flags, Family, OpInfo, OperandKind, ValueType};
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
    let rows = table::lookup_name(base);
    let info = *rows
        .first()
        .ok_or((0, format!("unknown mnemonic `{mn}`")))?;
    let (ops, mods_t) = split_operands(rest, rest_col);
    let mut mods = Mods::default();
    for (t, c) in &mods_t {
        parse_mod(&mut mods, t, *c)?;
    }
    match info.family {
        Family::SOP1 | Family::SOP2 | Family::SOPC | Family::SOPK | Family::SOPP => {
            salu(info, &ops)
        }
        Family::VOP1 | Family::VOP2 | Family::VOPC | Family::VOP3 | Family::VOP3P => {
            valu(info, forced, &ops, &mods, wave)
        }
        f => Err((
            0,
            format!("the assembler handles VALU and SALU forms; `{mn}` is {f}"),
        )),
    }
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
