//! VALU statements: the operand checks llvm-mc-19 makes (operand count, kinds and widths, lane
//! masks, source modifiers, the constant bus, literals, the modifiers a form takes), the choice of
//! encoding (e32, then e64, then SDWA, as llvm-mc picks them), and the packing of VOP1/VOP2/VOPC,
//! VOP3/VOP3P, SDWA and DPP words.

use super::caps::{caps, Form, FormCaps};
use super::*;

fn width_ok(count: u8, wave: Option<Wave>) -> bool {
    match wave {
        Some(Wave::W32) => count == 1,
        Some(Wave::W64) => count == 2,
        None => count == 1 || count == 2,
    }
}

fn is_vcc(r: &Reg, wave: Option<Wave>) -> bool {
    r.kind == RegKind::Vcc && r.index == 0 && width_ok(r.count, wave)
}

/// The special sources llvm-mc-19 takes as the SGPR destination of v_readfirstlane_b32 and
/// v_readlane_b32 (an 8-bit field there): their source codes.
fn special_destination(t: &str) -> Option<u16> {
    match t {
        "src_vccz" | "vccz" => Some(251),
        "src_execz" | "execz" => Some(252),
        "src_scc" | "scc" => Some(253),
        "src_pops_exiting_wave_id" => Some(239),
        _ => None,
    }
}

/// An SGPR tuple starts on an even register (four-aligned from four dwords).
fn aligned(r: &Reg) -> bool {
    let a = match r.count {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    !matches!(r.kind, RegKind::Sgpr | RegKind::Ttmp) || r.index % a == 0
}

fn reg_shape(r: &Reg, dwords: u8, col: usize, t: &str) -> Res<()> {
    // `null` stands for a register of any width.
    if r.count != dwords && r.kind != RegKind::Null {
        return Err((
            col,
            format!(
                "`{t}` is {} dword(s); the operand is {dwords} dword(s)",
                r.count
            ),
        ));
    }
    if !aligned(r) {
        return Err((col, format!("`{t}`: misaligned scalar register tuple")));
    }
    Ok(())
}

fn lane_mask(r: &Reg, col: usize, t: &str, wave: Option<Wave>) -> Res<()> {
    // llvm-mc-19 takes any scalar register of the mask's width, M0, NULL and EXEC included
    // (as a source, EXEC is assembled with a note that the operand class excludes it).
    let kind_ok = matches!(
        r.kind,
        RegKind::Sgpr | RegKind::Vcc | RegKind::Ttmp | RegKind::Null | RegKind::Exec | RegKind::M0
    );
    if !kind_ok || !width_ok(r.count, wave) || !aligned(r) {
        let w = match wave {
            Some(Wave::W32) => "one SGPR (wave32)",
            Some(Wave::W64) => "an SGPR pair (wave64)",
            None => "an SGPR or an SGPR pair",
        };
        return Err((col, format!("`{t}`: a lane mask is {w}")));
    }
    Ok(())
}

fn is_vgpr(s: &Src) -> bool {
    matches!(s.op, Operand::Reg(r) if r.kind == RegKind::Vgpr)
}

/// A scalar value read through the constant bus (SGPRs, VCC, M0, EXEC, TTMPs, the special
/// sources but LDS_DIRECT; not `null`), as a key that is equal for the same value.
fn scalar_key(op: &Operand) -> Option<(u8, u16, u8)> {
    match op {
        Operand::Reg(r) => match r.kind {
            RegKind::Vgpr | RegKind::Null => None,
            RegKind::Vcc => Some((1, r.index, r.count)),
            k => Some((k as u8 + 2, r.index, r.count)),
        },
        // LDS_DIRECT is read through the LDS, not the constant bus (llvm-mc-19 counts it so).
        Operand::Special(crate::operand::Special::LdsDirect) => None,
        Operand::Special(s) => Some((20, *s as u16, 1)),
        _ => None,
    }
}

/// The row's sources: a VALU word has at most three (the table rows of VOP3P opcodes whose
/// probe text carries `op_sel_hi:[...]` list more).
fn specs_of(info: &OpInfo) -> &[table::OperandSpec] {
    &info.srcs[..info.srcs.len().min(3)]
}

pub(super) fn valu(
    info: &'static OpInfo,
    forced: Option<&str>,
    ops: &[(String, usize)],
    m: &Mods,
    wave: Option<Wave>,
) -> Res<Vec<u32>> {
    let specs = specs_of(info);
    let nd = if info.family == Family::VOPC && info.has(Flags::CMPX) {
        0
    } else {
        info.dsts.len()
    };
    let want = nd + specs.len();
    if ops.len() < want {
        return Err((
            0,
            format!(
                "too few operands: {} takes {want}, got {}",
                info.mnemonic,
                ops.len()
            ),
        ));
    }
    if let Some((t, c)) = ops.get(want) {
        return Err((
            *c,
            format!(
                "unexpected operand `{t}`: {} takes {want} operands",
                info.mnemonic
            ),
        ));
    }
    let mut dsts = Vec::new();
    for (spec, (t, c)) in info.dsts.iter().zip(&ops[..nd]) {
        let special = matches!(spec.kind, OperandKind::Sgpr)
            .then(|| special_destination(t))
            .flatten();
        let r = match special {
            // Held as the SGPR code it encodes as (the 8-bit VALU destination field).
            Some(code) => Reg {
                kind: RegKind::Sgpr,
                index: code,
                count: 1,
            },
            None => parse_reg(t).ok_or((*c, format!("`{t}` is not a register")))?,
        };
        match spec.kind {
            OperandKind::LaneMask => lane_mask(&r, *c, t, wave)?,
            OperandKind::Vgpr if r.kind != RegKind::Vgpr => {
                return Err((*c, format!("`{t}`: the destination is a VGPR")))
            }
            OperandKind::Sgpr if r.kind == RegKind::Vgpr => {
                return Err((*c, format!("`{t}`: the destination is a scalar register")))
            }
            _ => reg_shape(&r, spec.dwords, *c, t)?,
        }
        dsts.push((r, *c));
    }
    let mut srcs = Vec::new();
    for (spec, (t, c)) in specs.iter().zip(&ops[nd..]) {
        let mut s = parse_src(t, *c, spec.ty)?;
        // v_fma_mix* literals are 16-bit (see `check`): a negative one is its 16-bit pattern.
        if let Operand::Literal(v) = s.op {
            if info.has(Flags::FMA_MIX) && v >= 0xffff_8000 {
                s.op = Operand::Literal(v & 0xffff);
            }
        }
        match (spec.kind, &s.op) {
            (OperandKind::LaneMask, Operand::Reg(r)) if !s.neg && !s.abs && !s.sext => {
                lane_mask(r, *c, t, wave)?
            }
            (OperandKind::LaneMask, _) => {
                return Err((
                    *c,
                    format!(
                        "`{t}`: a lane mask operand (carry-in, condition) is a scalar register"
                    ),
                ))
            }
            (
                OperandKind::Imm,
                Operand::Literal(_) | Operand::InlineInt(_) | Operand::InlineFloat { .. },
            ) => {}
            (OperandKind::Imm, _) => return Err((*c, format!("`{t}`: expected a constant"))),
            (OperandKind::Mem, _) => {}
            (_, Operand::Reg(r)) => reg_shape(r, spec.dwords, *c, t)?,
            _ => {}
        }
        srcs.push(s);
    }
    let caps = caps(info);
    let dpp16_mods =
        m.dpp_ctrl.is_some() || m.row_mask.is_some() || m.bank_mask.is_some() || m.bound_ctrl;
    let sdwa_mods = m.dst_sel.is_some()
        || m.dst_unused.is_some()
        || m.src0_sel.is_some()
        || m.src1_sel.is_some();
    let candidates: &[Form] = match forced {
        Some("_e32") => &[Form::E32],
        Some("_e64") => &[Form::E64],
        Some("_sdwa") => &[Form::Sdwa],
        Some(_) if m.dpp8.is_some() => &[Form::Dpp8],
        Some(_) => &[Form::Dpp],
        None if m.dpp8.is_some() => &[Form::Dpp8],
        None if dpp16_mods => &[Form::Dpp],
        None if sdwa_mods => &[Form::Sdwa],
        None => &[Form::E32, Form::E64, Form::Sdwa],
    };
    let mut err: Option<(usize, String)> = None;
    for &f in candidates {
        let Some(fc) = caps.form(f) else { continue };
        match check(info, f, fc, &dsts, &srcs, m, wave) {
            Ok(()) => {
                return match f {
                    Form::E32 => pack_e32(info, &dsts, &srcs),
                    Form::E64 => pack_e64(info, &dsts, &srcs, m),
                    _ => short_ext(info, &dsts, &srcs, m, f == Form::Sdwa),
                }
            }
            Err(e) if err.is_none() || f == Form::E64 => err = Some(e),
            Err(_) => {}
        }
    }
    Err(err.unwrap_or_else(|| {
        let names: Vec<&str> = candidates.iter().map(|f| f.name()).collect();
        (
            0,
            format!("{} has no {} encoding", info.mnemonic, names.join("/")),
        )
    }))
}

/// Whether form `f` can encode the statement, as llvm-mc-19 decides it.
fn check(
    info: &'static OpInfo,
    f: Form,
    fc: &FormCaps,
    dsts: &[(Reg, usize)],
    srcs: &[Src],
    m: &Mods,
    wave: Option<Wave>,
) -> Res<()> {
    let col0 = srcs.first().map(|s| s.col).unwrap_or(0);
    let name = f.name();
    let deny = |what: &str| {
        Err((
            col0,
            format!("{} ({name}) does not take {what}", info.mnemonic),
        ))
    };
    let e32 = f == Form::E32;
    let e64 = f == Form::E64;
    let vop3p = info.family == Family::VOP3P;
    if m.clamp && (e32 || !fc.clamp) {
        return deny("clamp");
    }
    if m.omod != 0 && (e32 || !fc.omod) {
        return deny("an output modifier (mul/div)");
    }
    if m.op_sel.is_some() && !(e64 && fc.op_sel) {
        return deny("op_sel");
    }
    if m.op_sel_hi.is_some() && !(e64 && vop3p && fc.op_sel_hi) {
        return deny("op_sel_hi");
    }
    if m.neg_lo.is_some() && !(e64 && vop3p && fc.neg_lo) {
        return deny("neg_lo");
    }
    if m.neg_hi.is_some() && !(e64 && vop3p && fc.neg_hi) {
        return deny("neg_hi");
    }
    if f != Form::Sdwa
        && (m.dst_sel.is_some()
            || m.dst_unused.is_some()
            || m.src0_sel.is_some()
            || m.src1_sel.is_some())
    {
        return deny("SDWA selects");
    }
    if f == Form::Sdwa
        && info.family == Family::VOPC
        && (m.dst_sel.is_some() || m.dst_unused.is_some())
    {
        return deny("dst_sel/dst_unused");
    }
    if f == Form::Sdwa && info.dsts.is_empty() && (m.dst_sel.is_some() || m.dst_unused.is_some()) {
        return deny("dst_sel/dst_unused");
    }
    if f == Form::Sdwa && info.srcs.is_empty() && m.src0_sel.is_some() {
        return deny("src0_sel");
    }
    if f == Form::Sdwa && info.family == Family::VOP1 && m.src1_sel.is_some() {
        return deny("src1_sel");
    }
    if f != Form::Dpp
        && (m.dpp_ctrl.is_some() || m.row_mask.is_some() || m.bank_mask.is_some() || m.bound_ctrl)
    {
        return deny("DPP controls");
    }
    if f == Form::Dpp && m.dpp_ctrl.is_none() {
        return deny("DPP without a control (quad_perm, row_shl ...)");
    }
    if f != Form::Dpp8 && m.dpp8.is_some() {
        return deny("dpp8");
    }
    if m.fi && !matches!(f, Form::Dpp | Form::Dpp8) {
        return deny("fi");
    }
    // Destinations: outside VOP3 a lane-mask destination is VCC (SDWA VOPC may name an SGPR).
    for (d, (r, c)) in info.dsts.iter().zip(dsts) {
        if d.kind == OperandKind::LaneMask
            && !e64
            && (f != Form::Sdwa || info.family != Family::VOPC)
            && !is_vcc(r, wave)
        {
            return Err((
                *c,
                format!("the {name} encoding writes VCC; use _e64 for another destination"),
            ));
        }
    }
    // The VGPR-only second source of the 32-bit encodings (fmamk: the third).
    let vsrc1 = if info.srcs.get(1).is_some_and(|s| s.kind == OperandKind::Imm) {
        2
    } else {
        1
    };
    // LDS_DIRECT: src0 only, and not in the SDWA encoding or the reversed-operand opcodes
    // (v_subrev_*, v_lshlrev_* ..., v_movrels*), as llvm-mc-19 checks it.
    let rev = info.has(Flags::NO_LDS_DIRECT);
    // v_permlane16/x16: op_sel holds fi and bound_ctrl in its first two bits only.
    let permlane = matches!(
        info.op(),
        Opcode::v_permlane16_b32 | Opcode::v_permlanex16_b32
    );
    if permlane && m.op_sel.is_some_and(|o| o > 3) {
        return Err((col0, "invalid op_sel operand".into()));
    }
    for (i, s) in srcs.iter().enumerate() {
        if s.op == Operand::Special(crate::operand::Special::LdsDirect) {
            if i > 0 {
                return Err((s.col, "lds_direct may be used as src0 only".into()));
            }
            if rev || f == Form::Sdwa {
                return Err((
                    s.col,
                    "lds_direct cannot be used with this instruction".into(),
                ));
            }
        }
    }
    let mut literals: Vec<u32> = Vec::new();
    let mut bus: Vec<(u8, u16, u8)> = Vec::new();
    if matches!(info.op(), Opcode::v_div_fmas_f32 | Opcode::v_div_fmas_f64) {
        // The implicit read is the VCC pair: `vcc` named again counts once, `vcc_lo` twice.
        bus.push((1, 0, 2));
    }
    let limit = if info.has(Flags::ONE_CONSTANT) { 1 } else { 2 };
    for (i, (spec, s)) in specs_of(info).iter().zip(srcs).enumerate() {
        match spec.kind {
            OperandKind::LaneMask => {
                if let Operand::Reg(r) = s.op {
                    if !e64 && !is_vcc(&r, wave) {
                        return Err((
                            s.col,
                            format!(
                                "the {name} encoding reads VCC; use _e64 for another lane mask"
                            ),
                        ));
                    }
                }
            }
            OperandKind::Imm => {
                let v = match s.op {
                    Operand::Literal(v) => v,
                    Operand::InlineInt(v) => v as i32 as u32,
                    Operand::InlineFloat { bits, .. } => bits as u32,
                    _ => 0,
                };
                if spec.ty.bits() == 16 && v > 0xffff && v < 0xffff_8000 {
                    return Err((s.col, format!("constant 0x{v:x} does not fit 16 bits")));
                }
                if !literals.contains(&v) {
                    literals.push(v);
                }
                continue;
            }
            OperandKind::Mem => continue,
            _ => {}
        }
        if spec.kind != OperandKind::LaneMask {
            if e32 && (s.neg || s.abs || s.sext) {
                return Err((s.col, "the e32 encoding has no source modifiers".into()));
            }
            if e32
                && i == vsrc1
                && matches!(info.family, Family::VOP2 | Family::VOPC)
                && !is_vgpr(s)
            {
                return Err((
                    s.col,
                    "the second source of the e32 encoding is a VGPR".into(),
                ));
            }
            if let Some(sc) = fc.srcs.get(i).copied().flatten() {
                let (ok, what) = match s.op {
                    Operand::Reg(r) if r.kind == RegKind::Vgpr => (sc.vgpr, "a VGPR"),
                    // LDS_DIRECT goes where a VGPR or an SGPR does, and in the VGPR-only
                    // source of v_readfirstlane_b32 (llvm-mc-19's VRegOrLds_32).
                    Operand::Special(crate::operand::Special::LdsDirect) => (
                        sc.vgpr && (sc.sgpr || info.op() == Opcode::v_readfirstlane_b32),
                        "LDS_DIRECT",
                    ),
                    Operand::Reg(_) | Operand::Special(_) => (sc.sgpr, "a scalar register"),
                    Operand::InlineInt(_) | Operand::InlineFloat { .. } => {
                        (sc.inline, "an inline constant")
                    }
                    Operand::Literal(_) => (sc.literal, "a literal"),
                    Operand::Invalid(_) => (false, "this operand"),
                };
                if !ok {
                    return Err((
                        s.col,
                        format!("source {i} of {} ({name}) cannot be {what}", info.mnemonic),
                    ));
                }
                for (on, allowed, what) in [
                    (s.neg, sc.neg, "neg"),
                    (s.abs, sc.abs, "abs"),
                    (s.sext, sc.sext, "sext"),
                ] {
                    if on && !allowed {
                        return Err((
                            s.col,
                            format!("source {i} of {} ({name}) takes no {what}", info.mnemonic),
                        ));
                    }
                }
            } else if matches!(f, Form::Dpp | Form::Dpp8) && !is_vgpr(s) {
                return Err((s.col, "DPP sources are VGPRs".into()));
            }
        }
        if let Operand::Literal(v) = s.op {
            let ty = specs_of(info)[i].ty;
            if ty.bits() == 64 && (s.neg || s.abs) {
                return Err((s.col, "no neg/abs on a literal of a 64-bit operand".into()));
            }
            // v_fma_mix* sources are f16 or f32 by op_sel_hi; llvm-mc-19 takes 16-bit literals.
            let bits16 = ty.bits() == 16 || info.has(Flags::FMA_MIX);
            if bits16 && v > 0xffff && v < 0xffff_8000 {
                return Err((
                    s.col,
                    format!("literal 0x{v:x} does not fit a 16-bit operand"),
                ));
            }
            if matches!(f, Form::Sdwa | Form::Dpp | Form::Dpp8) {
                return Err((s.col, format!("the {name} encoding takes no literal")));
            }
            if !literals.contains(&v) {
                literals.push(v);
            }
            if literals.len() > 1 {
                return Err((s.col, "only one literal constant per instruction".into()));
            }
        }
        if let Some(k) = scalar_key(&s.op) {
            if !bus.contains(&k) {
                bus.push(k);
            }
        }
        if bus.len() + literals.len().min(1) > limit && !matches!(f, Form::Dpp | Form::Dpp8) {
            return Err((
                s.col,
                format!(
                    "constant bus: {} reads at most {limit} scalar value(s) (SGPRs and literal)",
                    info.mnemonic
                ),
            ));
        }
    }
    if literals.len() > 1 {
        return Err((col0, "only one literal constant per instruction".into()));
    }
    Ok(())
}

fn pack_e32(info: &'static OpInfo, dsts: &[(Reg, usize)], srcs: &[Src]) -> Res<Vec<u32>> {
    let col0 = srcs.first().map(|s| s.col).unwrap_or(0);
    let mut f = Fields::default();
    let mut lit = Lit(None);
    let (layout, enc): (&[Slot], u32) = match info.family {
        Family::VOP1 => (layout::VOP1, 0x3f),
        Family::VOP2 => (layout::VOP2, 0),
        _ => (layout::VOPC, 0x3e),
    };
    f.set(Field::Enc, enc);
    f.set(Field::Op, u32::from(info.opcode));
    if info.family != Family::VOPC {
        if let Some((r, _)) = dsts.first() {
            // A VGPR's index, or an SGPR's code (v_readfirstlane_b32 writes an SGPR).
            f.set(
                Field::Vdst,
                u32::from(operand::encode_src(&Operand::Reg(*r)) & 0xff),
            );
        }
    }
    let mut order: Vec<&Src> = info
        .srcs
        .iter()
        .zip(srcs)
        .filter(|(s, _)| s.kind != OperandKind::LaneMask)
        .map(|(_, s)| s)
        .collect();
    if info.has(Flags::LITERAL_OPERAND) {
        // fmamk: src0, K, vsrc1; fmaak: src0, vsrc1, K (the row's `imm` source).
        let k_at = info
            .srcs
            .iter()
            .filter(|s| s.kind != OperandKind::LaneMask)
            .position(|s| s.kind == OperandKind::Imm)
            .unwrap_or(2);
        let k = order
            .get(k_at)
            .ok_or((col0, "missing literal operand".to_string()))?;
        lit.0 = Some(match k.op {
            Operand::Literal(v) => v,
            Operand::InlineInt(v) => v as i32 as u32,
            Operand::InlineFloat { bits, .. } => bits as u32,
            _ => return Err((k.col, "expected a constant".into())),
        });
        order.remove(k_at);
    }
    if let Some(s0) = order.first() {
        f.set(Field::Src0, lit.code(&s0.op, s0.col)?);
    }
    if let Some(s1) = order.get(1) {
        match s1.op {
            Operand::Reg(r) if r.kind == RegKind::Vgpr => f.set(Field::Vsrc1, u32::from(r.index)),
            _ => {
                return Err((
                    s1.col,
                    "the second source of the e32 encoding is a VGPR".into(),
                ))
            }
        }
    }
    finish(&[layout], &f, 1, lit.0, col0)
}

fn pack_e64(info: &'static OpInfo, dsts: &[(Reg, usize)], srcs: &[Src], m: &Mods) -> Res<Vec<u32>> {
    let col0 = srcs.first().map(|s| s.col).unwrap_or(0);
    let mut f = Fields::default();
    let mut lit = Lit(None);
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
    if let Some((r, _)) = dsts.first() {
        f.set(
            Field::Vdst,
            u32::from(operand::encode_src(&Operand::Reg(*r)) & 0xff),
        );
    } else if info.family == Family::VOPC {
        // v_cmpx_*_e64 writes EXEC; llvm-mc-19 puts exec_lo (126) in the destination field.
        f.set(Field::Vdst, 126);
    }
    if info.has(Flags::VOP3B) {
        if let Some((r, _)) = dsts.get(1) {
            f.set(
                Field::Sdst,
                u32::from(operand::encode_src(&Operand::Reg(*r))),
            );
        }
    }
    let mut neg = 0;
    let mut abs = 0;
    // Unused source fields stay 0, as llvm-mc-19 (LLVM 19.1.7) writes them; the decoder keeps
    // whatever an unused field holds (hardware rows with inline 0, code 0x80, decode the same).
    for (i, s) in srcs.iter().enumerate().take(3) {
        let fl = [Field::Src0, Field::Src1, Field::Src2][i];
        f.set(fl, lit.code(&s.op, s.col)?);
        neg |= u32::from(s.neg) << i;
        abs |= u32::from(s.abs) << i;
    }
    f.set(Field::Clamp, u32::from(m.clamp));
    let n = specs_of(info).len() as u32;
    if vop3p {
        f.set(Field::NegLo, m.neg_lo.unwrap_or(0) | neg);
        // v_fma_mix* keep the sources' abs bits where the other VOP3P words have neg_hi.
        let mix = info.has(Flags::FMA_MIX);
        f.set(
            Field::NegHi,
            m.neg_hi.unwrap_or(0) | if mix { abs } else { 0 },
        );
        // op_sel bits past the sources are not encoded (llvm-mc-19 drops them too).
        f.set(Field::OpSel, m.op_sel.unwrap_or(0) & ((1 << n) - 1));
        // op_sel_hi defaults to all ones (unused sources too), v_fma_mix* to zero.
        let hi = m.op_sel_hi.unwrap_or(if mix { 0 } else { 7 });
        f.set(Field::OpSelHi, hi & 3);
        f.set(Field::OpSelHi2, (hi >> 2) & 1);
        return finish(&[layout::VOP3P], &f, 2, lit.0, col0);
    }
    f.set(Field::Neg, neg);
    f.set(Field::Omod, m.omod);
    if !info.has(Flags::VOP3B) {
        f.set(Field::Abs, abs);
        // op_sel lists the sources, then the destination.
        let os = m.op_sel.unwrap_or(0);
        f.set(Field::OpSel, (os & ((1 << n) - 1)) | (((os >> n) & 1) << 3));
    }
    finish(
        &[if info.has(Flags::VOP3B) {
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

fn short_ext(
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
    let Some(s0) = srcs.first() else {
        // v_nop: an all-zero SDWA word; DPP8 the selects, DPP16 the control and masks, as
        // llvm-mc-19 writes them.
        if let (false, Some(sel)) = (sdwa, m.dpp8) {
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
        if sdwa {
            f.set(Field::Src0, u32::from(operand::SDWA));
            return finish(&[layout], &f, 2, None, col0);
        }
        // DPP16: the control and masks, with no source.
        f.set(Field::Src0, u32::from(operand::DPP16));
        f.set(Field::DppCtrl, m.dpp_ctrl.unwrap_or(0xe4));
        f.set(Field::RowMask, m.row_mask.unwrap_or(0xf));
        f.set(Field::BankMask, m.bank_mask.unwrap_or(0xf));
        f.set(Field::BoundCtrl, u32::from(m.bound_ctrl));
        f.set(Field::Fi, u32::from(m.fi));
        return finish(&[layout, layout::DPP16], &f, 2, None, col0);
    };
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
    let s1 = info
        .srcs
        .iter()
        .zip(srcs)
        .skip(1)
        .find(|(spec, _)| spec.kind != OperandKind::LaneMask)
        .map(|(_, s)| s);
    if let Some(s1) = s1.filter(|_| info.family != Family::VOP1) {
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
        // VOP1 has no second source: its src1_sel field stays 0.
        if info.family != Family::VOP1 {
            f.set(Field::Src1Sel, m.src1_sel.unwrap_or(6));
        }
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
            // dst_unused defaults to UNUSED_PRESERVE, as llvm-mc-19 writes it.
            f.set(Field::DstUnused, m.dst_unused.unwrap_or(2));
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
