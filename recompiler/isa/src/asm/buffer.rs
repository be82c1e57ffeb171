//! MUBUF and MTBUF statements: `vdata, vaddr, srsrc, soffset` with `format:` (MTBUF, right
//! after soffset), `idxen`/`offen` (which decide vaddr's width, `off` with neither), `offset:`
//! (12 bits), glc slc dlc, `lds` (the LDS-load forms, which have no vdata) and `tfe` (loads:
//! one more data dword), checked as llvm-mc-19 checks them.

use super::mem::{count, mem_mods, ranged, sreg, vreg, Scalar};
use super::*;
use crate::probe::probe_widths;

pub(super) fn buffer(
    info: &'static OpInfo,
    ops: &[(String, usize)],
    mods: &Tokens,
) -> Res<Vec<u32>> {
    let m = info.mnemonic;
    let mtbuf = info.family == Family::MTBUF;
    let widths = probe_widths(info.probe_text);
    let mut f = Fields::default();
    if mtbuf {
        f.set(Field::Op, u32::from(info.opcode) & 7);
        f.set(Field::OpHi, u32::from(info.opcode) >> 3);
    } else {
        f.set(Field::Op, u32::from(info.opcode) & 0x7f);
        f.set(Field::OpHi, u32::from(info.opcode) >> 7);
    }
    let (layout, enc): (&[Slot], u32) = if mtbuf {
        (layout::MTBUF, 0x3a)
    } else {
        (layout::MUBUF, 0x38)
    };
    f.set(Field::Enc, enc);
    if widths.is_empty() {
        // buffer_gl0_inv / buffer_gl1_inv: no operands, no modifiers.
        count(info, ops, 0)?;
        mem_mods(m, mods, &[], &[])?;
        return finish(&[layout], &f, 2, None, 0);
    }
    let mut mods = mods.clone();
    if mtbuf {
        // The format comes first among the modifiers (llvm-mc-19 reads it with the operands).
        if let Some(i) = mods.iter().position(|(t, _)| t.starts_with("format:")) {
            if i != 0 {
                return Err((
                    mods[i].1,
                    "not a valid operand: format: follows soffset".into(),
                ));
            }
        }
    }
    let store = info.has(Flags::STORE);
    let atomic = info.has(Flags::ATOMIC);
    let mut flags = vec!["offen", "idxen", "glc", "slc", "dlc"];
    if info.has(Flags::LDS_FORM) {
        flags.push("lds");
    }
    // llvm-mc-19 takes tfe on MUBUF loads only (no MTBUF form has it).
    if !store && !atomic && !mtbuf {
        flags.push("tfe");
    }
    let keys: &[&'static str] = if mtbuf {
        &["offset", "format"]
    } else {
        &["offset"]
    };
    if store {
        if let Some((_, c)) = mods.iter().find(|(t, _)| t == "tfe") {
            return Err((
                *c,
                "TFE modifier has no meaning for store instructions".into(),
            ));
        }
    }
    let mm = mem_mods(m, &mods, &flags, keys)?;
    mods.clear();
    let lds = mm.has("lds");
    let tfe = mm.has("tfe");
    if lds && tfe {
        return Err((mm.col("tfe"), "lds and tfe cannot be used together".into()));
    }
    if atomic && mm.has("dlc") {
        return Err((
            mm.col("dlc"),
            "atomics take no dlc (llvm-mc-19 drops it from the word)".into(),
        ));
    }
    count(info, ops, if lds { 3 } else { 4 })?;
    let mut it = ops.iter();
    let mut next = || it.next().expect("operand count checked");
    if !lds {
        f.set(Field::Vdata, vreg(next(), widths[0] + u8::from(tfe))?);
    }
    let vaddr = next();
    let (idxen, offen) = (mm.has("idxen"), mm.has("offen"));
    match (idxen, offen) {
        (false, false) if vaddr.0 != "off" => {
            return Err((vaddr.1, "vaddr without idxen or offen: write `off`".into()))
        }
        (false, false) => {}
        (true, true) => f.set(Field::Vaddr, vreg(vaddr, 2)?),
        _ => f.set(Field::Vaddr, vreg(vaddr, 1)?),
    }
    let srsrc = sreg(next(), 4, Scalar::NoM0Null)?;
    f.set(Field::Srsrc, srsrc >> 2);
    let (st, sc) = next();
    let so = parse_src(st, *sc, ValueType::B32)?;
    if so.neg || so.abs || so.sext || matches!(so.op, Operand::Literal(_)) {
        return Err((
            *sc,
            format!("`{st}`: soffset is a register or an inline constant"),
        ));
    }
    let code = u32::from(operand::encode_src(&so.op));
    if code > 255 {
        return Err((*sc, format!("`{st}`: soffset cannot be a VGPR")));
    }
    f.set(Field::Soffset, code);
    f.set(Field::Offen, u32::from(offen));
    f.set(Field::Idxen, u32::from(idxen));
    f.set(
        Field::Offset,
        ranged(mm.value("offset"), 0, 4095, "a 12-bit unsigned offset")? as u32,
    );
    f.set(Field::Glc, u32::from(mm.has("glc")));
    f.set(Field::Slc, u32::from(mm.has("slc")));
    f.set(Field::Dlc, u32::from(mm.has("dlc")));
    f.set(Field::Tfe, u32::from(tfe));
    if mtbuf {
        let fmt = match mm.value("format") {
            Some((v, c)) => symbols::buffer_format(v, c)?,
            None => 1,
        };
        f.set(Field::Format, fmt);
    } else {
        f.set(Field::Lds, u32::from(lds));
    }
    finish(&[layout], &f, 2, None, 0)
}
