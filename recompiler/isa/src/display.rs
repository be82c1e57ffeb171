//! Printer: LLVM syntax, as `llvm-mc-19 -arch=amdgcn -mcpu=gfx1030 --disassemble` prints it.

use crate::decode::{Encoding, Instruction};
use crate::opcode::Opcode;
use crate::operand::{self, Operand};
use crate::table::{Family, Flags, OperandKind, ValueType};
use crate::{Target, Wave};

fn float_text(code: u16, bits: u32) -> &'static str {
    match code {
        240 => "0.5",
        241 => "-0.5",
        242 => "1.0",
        243 => "-1.0",
        244 => "2.0",
        245 => "-2.0",
        246 => "4.0",
        247 => "-4.0",
        _ if bits == 64 => "0.15915494309189532",
        _ => "0.15915494",
    }
}

/// Register classes llvm-mc checks an operand against; a code outside the class gets a comment
/// after the operand (`/*Invalid immediate*/`, `/*Invalid register, operand has 'C' register
/// class*/`). The printer shows the operand the hardware reads and the same comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SlotClass {
    /// A scalar source of `n` dwords that takes constants (SSrc): no VGPRs, no LDS direct,
    /// no wide operand starting at VCC/EXEC.
    ScalarSrc(u8),
    /// Scalar registers only (SReg): no constants either.
    ScalarReg(u8),
    /// A scalar register or LDS direct (SRegOrLds), constants allowed.
    ScalarOrLds,
    /// VGPRs only (VGPR_32 / VReg_n): no constants, no scalar registers.
    Vgpr(u8),
    /// A VGPR or LDS direct (VRegOrLds_32).
    VgprOrLds,
}

/// Operand slots whose class differs from what their family gives (position: `None` for the
/// destination, `Some(i)` for source i in printed order).
const SLOT_CLASSES: &[(Opcode, Option<usize>, SlotClass)] = &[
    (Opcode::s_movrels_b32, Some(0), SlotClass::ScalarReg(1)),
    (Opcode::s_movrels_b64, Some(0), SlotClass::ScalarReg(2)),
    (Opcode::s_setpc_b64, Some(0), SlotClass::ScalarReg(2)),
    (Opcode::s_rfe_b64, Some(0), SlotClass::ScalarReg(2)),
    (Opcode::v_readfirstlane_b32, None, SlotClass::ScalarReg(1)),
    (Opcode::v_readfirstlane_b32, Some(0), SlotClass::VgprOrLds),
    (Opcode::v_readlane_b32, Some(1), SlotClass::ScalarSrc(1)),
    (Opcode::v_writelane_b32, Some(0), SlotClass::ScalarOrLds),
    (Opcode::v_writelane_b32, Some(1), SlotClass::ScalarSrc(1)),
    (Opcode::v_swap_b32, Some(0), SlotClass::Vgpr(1)),
    (Opcode::v_swaprel_b32, Some(0), SlotClass::Vgpr(1)),
    (Opcode::v_movrels_b32, Some(0), SlotClass::Vgpr(1)),
    (Opcode::v_movrelsd_b32, Some(0), SlotClass::Vgpr(1)),
    (Opcode::v_movrelsd_2_b32, Some(0), SlotClass::Vgpr(1)),
    (Opcode::v_permlane16_b32, Some(0), SlotClass::Vgpr(1)),
    (Opcode::v_permlane16_b32, Some(1), SlotClass::ScalarSrc(1)),
    (Opcode::v_permlane16_b32, Some(2), SlotClass::ScalarSrc(1)),
    (Opcode::v_permlanex16_b32, Some(0), SlotClass::Vgpr(1)),
    (Opcode::v_permlanex16_b32, Some(1), SlotClass::ScalarSrc(1)),
    (Opcode::v_permlanex16_b32, Some(2), SlotClass::ScalarSrc(1)),
    (Opcode::v_mqsad_u32_u8, Some(2), SlotClass::Vgpr(4)),
];

/// The class of an operand slot of a row, if llvm-mc checks one there.
pub(crate) fn slot_class(op: Opcode, slot: Option<usize>) -> Option<SlotClass> {
    SLOT_CLASSES
        .iter()
        .find(|(o, p, _)| *o == op && *p == slot)
        .map(|(_, _, c)| *c)
}

/// llvm-mc's comment for an operand outside its slot's class (empty when inside).
pub(crate) fn invalid_note(op: &Operand, class: SlotClass) -> String {
    use crate::operand::{RegKind, Special};
    let constant = matches!(
        op,
        Operand::InlineInt(_) | Operand::InlineFloat { .. } | Operand::Literal(_)
    );
    let lds = matches!(op, Operand::Special(Special::LdsDirect));
    let kind = match op {
        Operand::Reg(r) => Some(r.kind),
        _ => None,
    };
    // NULL reads as zero in any class.
    let scalar = kind.is_some_and(|k| !matches!(k, RegKind::Vgpr | RegKind::Null));
    let vgpr = kind == Some(RegKind::Vgpr);
    let wide_special = matches!(op, Operand::Reg(r)
        if matches!(r.kind, RegKind::Vcc | RegKind::Exec) && r.count > 2);
    let reg = |c: String| format!("/*Invalid register, operand has '{c}' register class*/");
    let sreg = |n: u8| reg(format!("SReg_{}", 32 * u32::from(n)));
    let vreg = |n: u8| {
        reg(if n <= 1 {
            "VGPR_32".to_string()
        } else {
            format!("VReg_{}", 32 * u32::from(n))
        })
    };
    match class {
        SlotClass::ScalarSrc(n) if vgpr || lds || wide_special => sreg(n),
        SlotClass::ScalarReg(_) if constant => "/*Invalid immediate*/".into(),
        SlotClass::ScalarReg(n) if vgpr || lds => sreg(n),
        SlotClass::ScalarOrLds if vgpr => reg("SRegOrLds_32".into()),
        SlotClass::Vgpr(_) | SlotClass::VgprOrLds if constant => "/*Invalid immediate*/".into(),
        SlotClass::Vgpr(n) if scalar || lds => vreg(n),
        SlotClass::VgprOrLds if scalar => reg("VRegOrLds_32".into()),
        _ => String::new(),
    }
}

/// A literal as llvm-mc prints it. The literal prints in an inline constant's form only where
/// that constant gives the operand the same value as the literal, so that the text reads back
/// as the value the hardware reads:
/// - 32-bit operands: integers -16..=64 and the f32 inline floats (packed f16 operands take
///   the f16 floats, zero-extended; packed 16-bit integer operands the f32 ones, as llvm-mc
///   reads them);
/// - 64-bit integer operands zero-extend the literal: only 0..=64 is an inline value;
/// - f64 operands take the literal as the high dword: 0 and the f64 inline floats whose low
///   dword is zero;
/// - f16 operands read the low half, as llvm-mc prints it; 16-bit integer operands the whole
///   dword for the inline integers and f32 floats (llvm-mc's reading), else the low half in
///   hexadecimal.
///
/// Everything else prints in hexadecimal, the whole dword.
fn literal_text(v: u32, ty: ValueType) -> String {
    let inline_float = |bits: u32, value: u64| {
        (240u16..=248).find(|&c| operand::inline_float_bits(c, bits) == Some(value))
    };
    match ty {
        // 16-bit integer operands: llvm-mc reads the whole dword for the inline integers and
        // the f32 inline floats, and prints other values as the low half in hexadecimal.
        ValueType::I16 | ValueType::U16 | ValueType::B16 => match v {
            0..=64 => v.to_string(),
            0xffff_fff0..=0xffff_ffff => (v as i32).to_string(),
            _ => match inline_float(32, u64::from(v)) {
                Some(c) => float_text(c, 32).to_string(),
                None => format!("0x{:x}", v & 0xffff),
            },
        },
        ValueType::F16 => {
            let x = v & 0xffff;
            match x {
                0..=64 => x.to_string(),
                0xfff0..=0xffff => (x as u16 as i16).to_string(),
                _ => match inline_float(16, u64::from(x)) {
                    Some(c) => float_text(c, 16).to_string(),
                    None => format!("0x{x:x}"),
                },
            }
        }
        ValueType::F64 => match inline_float(64, u64::from(v) << 32) {
            _ if v == 0 => "0".to_string(),
            Some(c) => float_text(c, 64).to_string(),
            None => format!("0x{v:x}"),
        },
        ValueType::B64 | ValueType::I64 | ValueType::U64 => match v {
            0..=64 => v.to_string(),
            _ => format!("0x{v:x}"),
        },
        _ => {
            let float_bits = if ty == ValueType::PackedF16 { 16 } else { 32 };
            match v {
                0..=64 => v.to_string(),
                0xffff_fff0..=0xffff_ffff => (v as i32).to_string(),
                _ => match inline_float(float_bits, u64::from(v)) {
                    Some(c) => float_text(c, float_bits).to_string(),
                    None => format!("0x{v:x}"),
                },
            }
        }
    }
}

/// Text of an operand.
pub fn operand_text(op: &Operand, ty: ValueType) -> String {
    match op {
        Operand::Reg(r) => operand::reg_name(r),
        Operand::InlineInt(v) => v.to_string(),
        Operand::InlineFloat { code, .. } => float_text(*code, ty.bits()).to_string(),
        Operand::Literal(v) => literal_text(*v, ty),
        Operand::Special(s) => s.name().to_string(),
        Operand::Invalid(c) => format!("invalid_operand_{c}"),
    }
}

/// Source modifiers around an operand's text. llvm-mc writes a negated constant without
/// absolute value as `neg(c)`, so that `-` never reads as part of the number.
pub(crate) fn with_mods(text: String, neg: bool, abs: bool, constant: bool) -> String {
    let t = if abs { format!("|{text}|") } else { text };
    if neg && constant && !abs {
        format!("neg({t})")
    } else if neg {
        format!("-{t}")
    } else {
        t
    }
}

fn bits_list(v: u32, n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| ((v >> i) & 1).to_string()).collect();
    format!("[{}]", items.join(","))
}

const SEL: [&str; 8] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "invalid",
];
/// dst_unused names; the reserved value 3 prints as UNUSED_PAD in llvm-mc.
const UNUSED: [&str; 4] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD"];

fn dpp_ctrl_text(c: u32) -> Option<String> {
    Some(match c {
        0x000..=0x0ff => format!(
            "quad_perm:[{},{},{},{}]",
            c & 3,
            (c >> 2) & 3,
            (c >> 4) & 3,
            (c >> 6) & 3
        ),
        0x101..=0x10f => format!("row_shl:{}", c & 0xf),
        0x111..=0x11f => format!("row_shr:{}", c & 0xf),
        0x121..=0x12f => format!("row_ror:{}", c & 0xf),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x150..=0x15f => format!("row_share:{}", c & 0xf),
        0x160..=0x16f => format!("row_xmask:{}", c & 0xf),
        _ => return None,
    })
}

impl Instruction {
    /// The instruction as llvm-mc prints it for gfx1030 on `wave`.
    pub fn to_llvm_text(&self, wave: Wave) -> String {
        self.to_llvm_text_for(Target::Gfx1030, wave)
    }

    /// The instruction as llvm-mc prints it for `target` on `wave`.
    pub fn to_llvm_text_for(&self, target: Target, wave: Wave) -> String {
        match self.encoding {
            Encoding::VOP1
            | Encoding::VOP2
            | Encoding::VOPC
            | Encoding::VOP3
            | Encoding::VOP3P
            | Encoding::SDWA
            | Encoding::DPP16
            | Encoding::DPP8 => self.valu_text(target, wave),
            Encoding::SOP1 | Encoding::SOP2 | Encoding::SOPC => self.salu_text(wave),
            _ => self.other_text(target),
        }
    }

    fn valu_text(&self, target: Target, wave: Wave) -> String {
        let info = self.info;
        if self.encoding == Encoding::VOP3 && info.has(Flags::INTERP) {
            return self.vop3_interp_text(info.mnemonic_for(target));
        }
        let m = self.modifiers();
        let mut name = info.mnemonic_for(target).to_string();
        let promoted = info.vop3_opcode.is_some();
        match self.encoding {
            Encoding::VOP3 if promoted => name.push_str("_e64"),
            Encoding::VOP1 | Encoding::VOP2 | Encoding::VOPC if promoted => name.push_str("_e32"),
            Encoding::SDWA => name.push_str("_sdwa"),
            Encoding::DPP16 | Encoding::DPP8 => name.push_str("_dpp"),
            _ => {}
        }
        let mut ops: Vec<String> = self
            .dsts(wave)
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let note = match slot_class(info.op(), None) {
                    Some(c) if i == 0 => invalid_note(d, c),
                    _ => String::new(),
                };
                operand_text(d, info.result) + &note
            })
            .collect();
        let srcs = self.srcs(wave);
        let specs = &info.srcs;
        let sdwa = m.sdwa;
        let mix = info.has(Flags::FMA_MIX);
        // Integer operations take no neg/abs (the bits are ignored), except v_cndmask_b32,
        // whose sources take float modifiers.
        let float_mods = |ty: ValueType| ty.is_float() || info.op() == Opcode::v_cndmask_b32;
        let has_float_src = specs.iter().any(|sp| sp.ty.is_float());
        for (i, s) in srcs.iter().enumerate() {
            let ty = specs.get(i).map(|s| s.ty).unwrap_or(ValueType::B32);
            let constant = matches!(
                s,
                Operand::InlineInt(_) | Operand::InlineFloat { .. } | Operand::Literal(_)
            );
            let mut t = match s {
                // llvm-mc gives 16-bit integer operands no inline float constants: it prints
                // the f16 bits of the constant as a number.
                Operand::InlineFloat { bits, .. }
                    if matches!(ty, ValueType::I16 | ValueType::U16) =>
                {
                    format!("0x{bits:x}")
                }
                // llvm-mc reads v_fma_mix* literals as 16-bit operands, and prints the
                // fmamk/fmaak constant as the whole dword.
                Operand::Literal(_) if mix => operand_text(s, ValueType::F16),
                Operand::Literal(k)
                    if specs.get(i).is_some_and(|sp| sp.kind == OperandKind::Imm) =>
                {
                    format!("0x{k:x}")
                }
                _ => operand_text(s, ty),
            };
            if let (Some(sd), true) = (sdwa, i < 2) {
                if (i == 0 && sd.src0_sext) || (i == 1 && sd.src1_sext) {
                    t = format!("sext({t})");
                }
            }
            if let Some(c) = slot_class(info.op(), Some(i)) {
                t.push_str(&invalid_note(s, c));
            }
            let (neg, abs) = if i >= 3 {
                (false, false)
            } else if mix {
                // v_fma_mix*: neg_lo negates a source, neg_hi takes its absolute value.
                (m.neg_lo >> i & 1 != 0, m.neg_hi >> i & 1 != 0)
            } else if float_mods(ty) {
                (m.neg[i], m.abs[i])
            } else {
                // An integer source of an opcode with float sources shows a set neg bit as
                // llvm-mc's integer input modifier sext(); the hardware ignores it.
                if m.neg[i] && has_float_src && !matches!(self.encoding, Encoding::SDWA) {
                    t = format!("sext({t})");
                }
                (false, false)
            };
            if self.encoding == Encoding::VOP3P && !mix {
                ops.push(t);
            } else {
                ops.push(with_mods(t, neg, abs, constant));
            }
        }
        let mut out = name;
        if !ops.is_empty() {
            out.push(' ');
            out.push_str(&ops.join(", "));
        }
        let nsrc = specs
            .iter()
            .filter(|s| s.kind != OperandKind::LaneMask)
            .count()
            .min(3);
        match self.encoding {
            Encoding::VOP3 => {
                // op_sel exists only on opcodes with 16-bit operands; elsewhere the bits are ignored.
                let sixteen = info.result.bits() == 16 || specs.iter().any(|s| s.ty.bits() == 16);
                if matches!(
                    info.op(),
                    Opcode::v_permlane16_b32 | Opcode::v_permlanex16_b32
                ) {
                    // v_permlane16/x16 use op_sel bits 0 and 1 as fetch-inactive and
                    // bound-control.
                    if m.op_sel & 3 != 0 {
                        out.push_str(&format!(" op_sel:{}", bits_list(m.op_sel.into(), 2)));
                    }
                } else if m.op_sel != 0 && sixteen {
                    out.push_str(&format!(
                        " op_sel:{}",
                        bits_list(
                            u32::from(m.op_sel) & 7 | ((u32::from(m.op_sel) >> 3) << nsrc),
                            nsrc + 1
                        )
                    ));
                }
            }
            Encoding::VOP3P => {
                let mix = info.has(Flags::FMA_MIX);
                if m.op_sel != 0 {
                    out.push_str(&format!(" op_sel:{}", bits_list(m.op_sel.into(), nsrc)));
                }
                let hi_default = if mix { 0 } else { (1u32 << nsrc) - 1 };
                if u32::from(m.op_sel_hi) & ((1 << nsrc) - 1) != hi_default {
                    out.push_str(&format!(
                        " op_sel_hi:{}",
                        bits_list(m.op_sel_hi.into(), nsrc)
                    ));
                }
                if m.neg_lo != 0 && !mix {
                    out.push_str(&format!(" neg_lo:{}", bits_list(m.neg_lo.into(), nsrc)));
                }
                if m.neg_hi != 0 && !mix {
                    out.push_str(&format!(" neg_hi:{}", bits_list(m.neg_hi.into(), nsrc)));
                }
            }
            _ => {}
        }
        if m.clamp {
            out.push_str(" clamp");
        }
        match m.omod {
            1 => out.push_str(" mul:2"),
            2 => out.push_str(" mul:4"),
            3 => out.push_str(" div:2"),
            _ => {}
        }
        if let Some(sd) = sdwa {
            if info.family != Family::VOPC {
                out.push_str(&format!(
                    " dst_sel:{} dst_unused:{}",
                    SEL[sd.dst_sel as usize & 7],
                    UNUSED[sd.dst_unused as usize & 3]
                ));
            }
            out.push_str(&format!(" src0_sel:{}", SEL[sd.src0_sel as usize & 7]));
            if info.family != Family::VOP1 {
                out.push_str(&format!(" src1_sel:{}", SEL[sd.src1_sel as usize & 7]));
            }
        }
        if let Some(d) = m.dpp {
            match dpp_ctrl_text(d.dpp_ctrl.into()) {
                Some(t) => out.push_str(&format!(" {t}")),
                None => out.push_str(match d.dpp_ctrl {
                    // GFX9 controls that GFX10 dropped.
                    0x130 => " /* wave_shl is not supported starting from GFX10 */",
                    0x134 => " /* wave_rol is not supported starting from GFX10 */",
                    0x138 => " /* wave_shr is not supported starting from GFX10 */",
                    0x13c => " /* wave_ror is not supported starting from GFX10 */",
                    0x142 | 0x143 => " /* row_bcast is not supported starting from GFX10 */",
                    _ => " /* Invalid dpp_ctrl value */",
                }),
            }
            out.push_str(&format!(
                " row_mask:0x{:x} bank_mask:0x{:x}",
                d.row_mask, d.bank_mask
            ));
            if d.bound_ctrl {
                out.push_str(" bound_ctrl:1");
            }
            if d.fi {
                out.push_str(" fi:1");
            }
        }
        if let Some((lanes, fi)) = m.dpp8 {
            let l: Vec<String> = lanes.iter().map(|x| x.to_string()).collect();
            out.push_str(&format!(" dpp8:[{}]", l.join(",")));
            if fi {
                out.push_str(" fi:1");
            }
        }
        out
    }

    fn salu_text(&self, wave: Wave) -> String {
        let info = self.info;
        let mut ops: Vec<String> = self
            .dsts(wave)
            .iter()
            .map(|d| operand_text(d, info.result))
            .collect();
        for (i, (s, spec)) in self.srcs(wave).iter().zip(info.srcs.iter()).enumerate() {
            let class =
                slot_class(info.op(), Some(i)).unwrap_or(SlotClass::ScalarSrc(spec.dwords.min(2)));
            // Scalar literals print as the whole dword; a 64-bit source zero-extends it. In a
            // slot that takes no constant llvm-mc prints it in its 32-bit form.
            let ty = match (s, class) {
                (Operand::Literal(_), SlotClass::ScalarReg(_)) => ValueType::B32,
                (Operand::Literal(_), _) if spec.dwords == 2 => ValueType::B64,
                (Operand::Literal(_), _) => ValueType::B32,
                _ => spec.ty,
            };
            // A constant where only registers go prints in its 32-bit form.
            let ty = match (class, s) {
                (SlotClass::ScalarReg(_), Operand::InlineFloat { .. }) => ValueType::B32,
                _ => ty,
            };
            ops.push(operand_text(s, ty) + &invalid_note(s, class));
        }
        if ops.is_empty() {
            info.mnemonic.to_string()
        } else {
            format!("{} {}", info.mnemonic, ops.join(", "))
        }
    }
}

impl std::fmt::Display for Instruction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_llvm_text(Wave::W32))
    }
}
