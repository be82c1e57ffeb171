//! Packing of the SALU and VALU encodings (VOP1/VOP2/VOPC/VOP3/VOP3P, SDWA, DPP) from parsed operands.

use super::*;

/// `hwreg(id, offset, size)`: the SIMM16 of s_getreg/s_setreg (id [5:0], offset [10:6],
/// size - 1 [15:11]).
fn hwreg(t: &str) -> Option<u32> {
    let inner = t.strip_prefix("hwreg(")?.strip_suffix(')')?;
    let v: Vec<i64> = inner
        .split(',')
        .map(|x| parse_int(x.trim()))
        .collect::<Option<_>>()?;
    match v[..] {
        [id, off, size]
            if (0..64).contains(&id) && (0..32).contains(&off) && (1..=32).contains(&size) =>
        {
            Some(id as u32 | (off as u32) << 6 | (size as u32 - 1) << 11)
        }
        _ => None,
    }
}

/// s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 with a `hwreg(...)` operand (the table row
/// splits that operand into three immediates, so it is packed here).
fn salu_hwreg(info: &'static OpInfo, ops: &[(String, usize)], at: usize) -> Res<Vec<u32>> {
    let mut f = Fields::default();
    let (t, c) = &ops[at];
    let simm = hwreg(t).ok_or((*c, format!("`{t}` is not hwreg(id, offset, size)")))?;
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
    if info.mnemonic == "s_setreg_imm32_b32" {
        let v = parse_int(o)
            .filter(|v| (-(1i64 << 31)..(1i64 << 32)).contains(v))
            .ok_or((*oc, format!("`{o}` is not a 32-bit integer")))?;
        literal = Some(v as u32);
    } else {
        let r = parse_reg(o)
            .filter(|r| r.kind != RegKind::Vgpr)
            .ok_or((*oc, format!("`{o}` is not a scalar register")))?;
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
    if let Some(at) = ops.iter().position(|(t, _)| t.starts_with("hwreg(")) {
        return salu_hwreg(info, ops, at);
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
        let code = lit.code(&s.op, *c)?;
        if code > 255 {
            return Err((*c, format!("`{t}`: scalar instructions cannot read VGPRs")));
        }
        f.set(if i == 0 { Field::Src0 } else { Field::Src1 }, code);
    }
    finish(&[layout], &f, 1, lit.0, 0)
}

pub(super) fn valu(
    info: &'static OpInfo,
    forced: Option<&str>,
    ops: &[(String, usize)],
    m: &Mods,
) -> Res<Vec<u32>> {
    let col0 = ops.first().map(|o| o.1).unwrap_or(0);
    let specs = &info.srcs;
    // Destinations as written: VOPC e32 writes vcc implicitly but prints it; cmpx has none.
    let short_forms = matches!(info.family, Family::VOP1 | Family::VOP2 | Family::VOPC);
    let sdwa = forced == Some("_sdwa") || m.dst_sel.is_some() || m.src0_sel.is_some();
    let dpp = forced == Some("_dpp") || m.dpp_ctrl.is_some() || m.dpp8.is_some();
    let nd_written = if info.family == Family::VOPC && info.has(flags::CMPX) {
        0
    } else {
        info.dsts.len()
    };
    if ops.len() < nd_written {
        return Err((
            col0,
            format!("{} needs {nd_written} destination operands", info.mnemonic),
        ));
    }
    let (dst_t, src_t) = ops.split_at(nd_written);
    let mut srcs = Vec::new();
    for (i, (t, c)) in src_t.iter().enumerate() {
        let ty = specs.get(i).map(|s| s.ty).unwrap_or(ValueType::B32);
        srcs.push(parse_src(t, *c, ty)?);
    }
    let dst_regs: Vec<(Reg, usize)> = dst_t
        .iter()
        .map(|(t, c)| {
            parse_reg(t)
                .map(|r| (r, *c))
                .ok_or((*c, format!("`{t}` is not a register")))
        })
        .collect::<Res<_>>()?;
    let is_vgpr = |s: &Src| matches!(s.op, Operand::Reg(r) if r.kind == RegKind::Vgpr);
    let implicit_vcc =
        |s: &Src| matches!(s.op, Operand::Reg(r) if r.kind == RegKind::Vcc && r.index == 0);
    // Can the 32-bit form express it?
    let e32_srcs: usize = specs
        .iter()
        .filter(|s| s.kind != OperandKind::LaneMask)
        .count();
    let e32_ok = short_forms
        && forced != Some("_e64")
        && !m.clamp
        && m.omod == 0
        && m.op_sel.is_none()
        && (info.family != Family::VOP2
            || srcs.len() < 2
            || is_vgpr(&srcs[1])
            || info.has(flags::LITERAL_OPERAND))
        && (info.family != Family::VOPC || srcs.len() < 2 || is_vgpr(&srcs[1]))
        && srcs
            .iter()
            .take(e32_srcs)
            .all(|s| !s.neg && !s.abs && !s.sext)
        && srcs.iter().skip(e32_srcs).all(implicit_vcc)
        && dst_regs
            .iter()
            .skip(if info.family == Family::VOPC { 0 } else { 1 })
            .all(|(r, _)| r.kind == RegKind::Vcc);
    let mut f = Fields::default();
    let mut lit = Lit(None);
    if short_forms && (sdwa || dpp) {
        return short_ext(info, &dst_regs, &srcs, m, sdwa);
    }
    if short_forms && (e32_ok || info.vop3_opcode.is_none()) {
        let (layout, enc): (&[Slot], u32) = match info.family {
            Family::VOP1 => (layout::VOP1, 0x3f),
            Family::VOP2 => (layout::VOP2, 0),
            _ => (layout::VOPC, 0x3e),
        };
        f.set(Field::Enc, enc);
        f.set(Field::Op, u32::from(info.opcode));
        if info.family != Family::VOPC {
            if let Some((r, _)) = dst_regs.first() {
                f.set(Field::Vdst, u32::from(r.index));
            }
        }
        let mut order: Vec<&Src> = srcs
            .iter()
            .take(e32_srcs.max(if info.has(flags::LITERAL_OPERAND) {
                3
            } else {
                0
            }))
            .collect();
        if info.has(flags::LITERAL_OPERAND) {
            // fmamk: src0, K, vsrc1; fmaak: src0, vsrc1, K.
            let k_at = if info.mnemonic.contains("mk") { 1 } else { 2 };
            let k = order
                .get(k_at)
                .ok_or((col0, "missing literal operand".to_string()))?;
            match k.op {
                Operand::Literal(v) => lit.0 = Some(v),
                Operand::InlineInt(v) => lit.0 = Some(v as i32 as u32),
                Operand::InlineFloat { bits, .. } => lit.0 = Some(bits as u32),
                _ => return Err((k.col, "expected a constant".into())),
            }
            order.remove(k_at);
        }
        if let Some(s0) = order.first() {
            f.set(Field::Src0, lit.code(&s0.op, s0.col)?);
        }
        if let Some(s1) = order.get(1) {
            match s1.op {
                Operand::Reg(r) if r.kind == RegKind::Vgpr => {
                    f.set(Field::Vsrc1, u32::from(r.index))
                }
                _ => {
                    return Err((
                        s1.col,
                        "the second source of a 32-bit VOP must be a VGPR".into(),
                    ))
                }
            }
        }
        return finish(&[layout], &f, 1, lit.0, col0);
    }
    // VOP3 / VOP3P.
    let vop3p = info.family == Family::VOP3P;
    f.set(Field::Enc, if vop3p { 0x33 } else { 0x35 });
    f.set(
        Field::Op,
        u32::from(if vop3p {
            info.opcode
        } else {
            info.vop3_opcode.unwrap_or(info.opcode)
        }),
    );
    if let Some((r, _)) = dst_regs.first() {
        f.set(
            Field::Vdst,
            u32::from(operand::encode_src(&Operand::Reg(*r)) & 0xff),
        );
    }
    if info.has(flags::VOP3B) {
        if let Some((r, _)) = dst_regs.get(1) {
            f.set(
                Field::Sdst,
                u32::from(operand::encode_src(&Operand::Reg(*r))),
            );
        }
    }
    let mut neg = 0;
    let mut abs = 0;
    // Unused source fields hold inline 0, as the hardware rows and LLVM's assembler write them.
    f.set(Field::Src1, 128);
    f.set(Field::Src2, 128);
    for (i, s) in srcs.iter().enumerate().take(3) {
        let fl = [Field::Src0, Field::Src1, Field::Src2][i];
        f.set(fl, lit.code(&s.op, s.col)?);
        neg |= u32::from(s.neg) << i;
        abs |= u32::from(s.abs) << i;
    }
    if srcs.len() > 3 {
        return Err((srcs[3].col, "too many operands".into()));
    }
    f.set(Field::Clamp, u32::from(m.clamp));
    let n = specs.len().min(3) as u32;
    if vop3p {
        f.set(Field::NegLo, m.neg_lo | neg);
        f.set(Field::NegHi, m.neg_hi);
        f.set(Field::OpSel, m.op_sel.unwrap_or(0));
        let mix = info.mnemonic.starts_with("v_fma_mix");
        let hi = m.op_sel_hi.unwrap_or(if mix { 0 } else { (1 << n) - 1 });
        f.set(Field::OpSelHi, hi & 3);
        f.set(Field::OpSelHi2, (hi >> 2) & 1);
        return finish(&[layout::VOP3P], &f, 2, lit.0, col0);
    }
    f.set(Field::Neg, neg);
    f.set(Field::Omod, m.omod);
    if !info.has(flags::VOP3B) {
        f.set(Field::Abs, abs);
        // op_sel lists the sources, then the destination.
        let os = m.op_sel.unwrap_or(0);
        f.set(Field::OpSel, (os & ((1 << n) - 1)) | (((os >> n) & 1) << 3));
    }
    finish(
        &[if info.has(flags::VOP3B) {
            layout::VOP3B
        } else {
            layout::VOP3
        }],
        &f,
        2,
        lit.0,
        col0,
    )
}

pub(super) fn short_ext(
    info: &'static OpInfo,
    dst: &[(Reg, usize)],
    srcs: &[Src],
    m: &Mods,
    sdwa: bool,
) -> Res<Vec<u32>> {
    let mut f = Fields::default();
    let (layout, enc): (&[Slot], u32) = match info.family {
        Family::VOP1 => (layout::VOP1, 0x3f),
        Family::VOP2 => (layout::VOP2, 0),
        _ => (layout::VOPC, 0x3e),
    };
    let col0 = srcs.first().map(|s| s.col).unwrap_or(0);
    f.set(Field::Enc, enc);
    f.set(Field::Op, u32::from(info.opcode));
    if info.family != Family::VOPC {
        if let Some((r, _)) = dst.first() {
            f.set(Field::Vdst, u32::from(r.index));
        }
    }
    let s0 = srcs.first().ok_or((col0, "missing source".to_string()))?;
    let reg_code = |s: &Src| -> Res<(u32, bool)> {
        match s.op {
            Operand::Reg(r) if r.kind == RegKind::Vgpr => Ok((u32::from(r.index), false)),
            Operand::Reg(_)
            | Operand::InlineInt(_)
            | Operand::InlineFloat { .. }
            | Operand::Special(_)
                if sdwa =>
            {
                Ok((u32::from(operand::encode_src(&s.op)), true))
            }
            _ => Err((s.col, "SDWA/DPP sources must be registers".into())),
        }
    };
    let (c0, sg0) = reg_code(s0)?;
    f.set(Field::Src0Neg, u32::from(s0.neg));
    f.set(Field::Src0Abs, u32::from(s0.abs));
    if let Some(s1) = srcs.get(1).filter(|_| info.family != Family::VOP1) {
        let (c1, sg1) = reg_code(s1)?;
        f.set(Field::Vsrc1, c1);
        f.set(Field::S1, u32::from(sg1));
        f.set(Field::Src1Neg, u32::from(s1.neg));
        f.set(Field::Src1Abs, u32::from(s1.abs));
        f.set(Field::Src1Sext, u32::from(s1.sext));
    }
    if sdwa {
        f.set(Field::Src0, u32::from(operand::SDWA));
        f.set(Field::SdwaSrc0, c0);
        f.set(Field::S0, u32::from(sg0));
        f.set(Field::Src0Sext, u32::from(s0.sext));
        f.set(Field::Src0Sel, m.src0_sel.unwrap_or(6));
        f.set(Field::Src1Sel, m.src1_sel.unwrap_or(6));
        let ext = if info.family == Family::VOPC {
            if let Some((r, _)) = dst
                .first()
                .filter(|(r, _)| !(r.kind == RegKind::Vcc && r.index == 0))
            {
                f.set(Field::Sd, 1);
                f.set(
                    Field::SdwaSdst,
                    u32::from(operand::encode_src(&Operand::Reg(*r))),
                );
            }
            layout::SDWA_VOPC
        } else {
            f.set(Field::DstSel, m.dst_sel.unwrap_or(6));
            f.set(Field::DstUnused, m.dst_unused.unwrap_or(0));
            f.set(Field::SdwaClamp, u32::from(m.clamp));
            f.set(Field::SdwaOmod, m.omod);
            layout::SDWA
        };
        return finish(&[layout, ext], &f, 2, None, col0);
    }
    f.set(Field::DppSrc0, c0);
    if let Some(sel) = m.dpp8 {
        f.set(
            Field::Src0,
            u32::from(if m.fi {
                operand::DPP8_FI
            } else {
                operand::DPP8
            }),
        );
        f.set(Field::Dpp8Sel, sel);
        return finish(&[layout, layout::DPP8], &f, 2, None, col0);
    }
    f.set(Field::Src0, u32::from(operand::DPP16));
    f.set(Field::DppCtrl, m.dpp_ctrl.unwrap_or(0xe4));
    f.set(Field::RowMask, m.row_mask.unwrap_or(0xf));
    f.set(Field::BankMask, m.bank_mask.unwrap_or(0xf));
    f.set(Field::BoundCtrl, u32::from(m.bound_ctrl));
    f.set(Field::Fi, u32::from(m.fi));
    finish(&[layout, layout::DPP16], &f, 2, None, col0)
}
