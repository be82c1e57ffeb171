//! Packing of the SALU encodings (SOP1/SOP2/SOPC/SOPK/SOPP) from parsed operands.

use super::*;

/// s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 with a `hwreg(...)` operand (the table row
/// splits that operand into three immediates, so it is packed here).
fn salu_hwreg(info: &'static OpInfo, ops: &[(String, usize)], at: usize) -> Res<Vec<u32>> {
    let mut f = Fields::default();
    let (t, c) = &ops[at];
    let simm = super::symbols::hwreg(t, *c)?;
    let other: Vec<&(String, usize)> = ops
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        .map(|(_, o)| o)
        .collect();
    if other.len() != 1 {
        return Err((*c, format!("{} takes 2 operands", info.mnemonic)));
    }
    let (o, oc) = other[0];
    let mut literal = None;
    if info.op() == Opcode::s_setreg_imm32_b32 {
        let v = parse_int(o)
            .filter(|v| (-(1i64 << 31)..(1i64 << 32)).contains(v))
            .ok_or((*oc, format!("`{o}` is not a 32-bit integer")))?;
        literal = Some(v as u32);
    } else {
        let r = parse_reg(o)
            .filter(|r| r.kind != RegKind::Vgpr && r.count == 1)
            .ok_or((*oc, format!("`{o}` is not a 32-bit scalar register")))?;
        f.set(
            Field::Sdst,
            u32::from(operand::encode_src(&Operand::Reg(r))),
        );
    }
    f.set(Field::Enc, 0xb);
    f.set(Field::Op, u32::from(info.opcode));
    f.set(Field::Simm16, simm);
    finish(&[layout::SOPK], &f, 1, literal, 0)
}

pub(super) fn salu(info: &'static OpInfo, ops: &[(String, usize)]) -> Res<Vec<u32>> {
    match info.op() {
        Opcode::s_getreg_b32 if !ops.is_empty() => {
            return salu_hwreg(info, ops, 1.min(ops.len() - 1))
        }
        Opcode::s_setreg_b32 | Opcode::s_setreg_imm32_b32 if !ops.is_empty() => {
            return salu_hwreg(info, ops, 0)
        }
        _ => {}
    }
    let mut f = Fields::default();
    let mut lit = Lit(None);
    let nd = info.dsts.len();
    let want = nd + info.srcs.len();
    if ops.len() != want {
        return Err((
            ops.first().map(|o| o.1).unwrap_or(0),
            format!("{} takes {want} operands, got {}", info.mnemonic, ops.len()),
        ));
    }
    if nd == 1 {
        let (t, c) = &ops[0];
        let r = parse_reg(t)
            .filter(|r| r.kind != RegKind::Vgpr)
            .ok_or((*c, format!("`{t}` is not a scalar register")))?;
        // `null` stands for a register of any width.
        if r.count != info.dsts[0].dwords && r.kind != RegKind::Null {
            return Err((
                *c,
                format!(
                    "`{t}` is {} dword(s); the destination is {}",
                    r.count, info.dsts[0].dwords
                ),
            ));
        }
        f.set(
            Field::Sdst,
            u32::from(operand::encode_src(&Operand::Reg(r))),
        );
    }
    let (layout, enc): (&[Slot], u32) = match info.family {
        Family::SOP1 => (layout::SOP1, 0x17d),
        Family::SOP2 => (layout::SOP2, 2),
        Family::SOPC => (layout::SOPC, 0x17e),
        Family::SOPK => (layout::SOPK, 0xb),
        _ => (layout::SOPP, 0x17f),
    };
    f.set(Field::Enc, enc);
    f.set(Field::Op, u32::from(info.opcode));
    for (i, (t, c)) in ops.iter().skip(nd).enumerate() {
        let spec = info.srcs[i];
        if matches!(info.family, Family::SOPK | Family::SOPP) {
            if spec.kind == OperandKind::Sgpr {
                let r = parse_reg(t).ok_or((*c, format!("`{t}` is not a scalar register")))?;
                f.set(
                    Field::Sdst,
                    u32::from(operand::encode_src(&Operand::Reg(r))),
                );
            } else {
                let v = parse_int(t)
                    .filter(|v| (-32768..=65535).contains(v))
                    .ok_or((*c, format!("`{t}` is not a 16-bit immediate")))?;
                f.set(Field::Simm16, (v as u32) & 0xffff);
            }
            continue;
        }
        let s = parse_src(t, *c, spec.ty)?;
        // The special sources count as registers of their width: the 64-bit apertures
        // (src_shared_base ... src_private_limit); src_pops_exiting_wave_id, src_vccz,
        // src_execz and src_scc as 32-bit ones.
        let special_reg = matches!(s.op, Operand::Special(_)) && {
            let code = operand::encode_src(&s.op);
            if spec.dwords == 2 {
                (235..=238).contains(&code)
            } else {
                matches!(code, 239 | 251..=253)
            }
        };
        if info.has(Flags::REGISTER_ONLY) && !matches!(s.op, Operand::Reg(_)) && !special_reg {
            return Err((*c, format!("`{t}`: {} reads a register", info.mnemonic)));
        }
        if let Operand::Reg(r) = s.op {
            if r.count != spec.dwords && !matches!(r.kind, RegKind::Vgpr | RegKind::Null) {
                return Err((
                    *c,
                    format!(
                        "`{t}` is {} dword(s); the operand is {}",
                        r.count, spec.dwords
                    ),
                ));
            }
        }
        let code = lit.code(&s.op, *c)?;
        if code > 255 {
            return Err((*c, format!("`{t}`: scalar instructions cannot read VGPRs")));
        }
        f.set(if i == 0 { Field::Src0 } else { Field::Src1 }, code);
    }
    finish(&[layout], &f, 1, lit.0, 0)
}
