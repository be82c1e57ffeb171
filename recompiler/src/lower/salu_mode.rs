//! The MODE register: s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 of HW_REG_MODE,
//! s_denorm_mode and s_round_mode, and s_sethalt's no-op form.
//!
//! The float mode is constant at lowering time, so a MODE write changes the [`FloatMode`] the
//! following instructions are lowered under, from that instruction on. A write must therefore
//! know its value while lowering: an immediate, a literal, or an SGPR that holds a constant of
//! the body. MODE's float fields are [`FloatMode::mode_register`]'s: bits 1:0 f32 round, 3:2
//! f16/f64 round, 5:4 f32 denormals, 7:6 f16/f64 denormals, 8 DX10_CLAMP, 9 IEEE, 23
//! FP16_OVFL. The other fields (LOD_CLAMPED, DEBUG,
//! EXCP_EN, VSKIP, CSP, ...) read as 0; a write that would set one is unsupported, since they
//! change what the wave does (exceptions, skipped vector instructions) beyond the float rules.
//!
//! HW_REG_FLAT_SCR_LO/HI (20, 21; gfx10 names FLAT_SCRATCH only through them) hold the wave's
//! flat-scratch base, which every kernel that sets up flat scratch writes first (clang's -O0
//! code and calls). They are read and written as 32-bit registers; the model's scratch
//! instructions address a lane's private memory by offset alone, so the base changes nothing
//! else.

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::operand::decode_sdst;
use rdnaprobe_isa::symbolic::HwRegField;
use rdnaprobe_isa::FloatMode;

/// HW_REG_MODE's hardware-register id.
const HW_REG_MODE: u32 = 1;
/// HW_REG_FLAT_SCR_LO's id; HW_REG_FLAT_SCR_HI is the next.
const HW_REG_FLAT_SCR_LO: u32 = 20;
/// Where the lowering keeps FLAT_SCR_LO/HI in its scalar map: gfx9's operand codes of
/// flat_scratch_lo/hi, which a gfx10 operand cannot name.
const FLAT_SCR_CODE: u16 = 102;

/// The registers a hwreg operand may name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HwReg {
    Mode,
    /// FLAT_SCR_LO (0) or FLAT_SCR_HI (1).
    FlatScratch(u16),
}

/// The hwreg(id, offset, size) operand of a SOPK immediate: the register, the offset and a
/// mask of the bits it names.
fn hwreg(c: &Ctx) -> RuleResult<(HwReg, u32, u32)> {
    let HwRegField { id, offset, size } = HwRegField::decode(c.inst.field(Field::Simm16));
    let reg = match id {
        HW_REG_MODE => HwReg::Mode,
        HW_REG_FLAT_SCR_LO => HwReg::FlatScratch(0),
        21 => HwReg::FlatScratch(1),
        _ => {
            return Err(RuleError::not_modelled(format!(
                "hardware register {id}: not modelled (HW_REG_MODE 1, FLAT_SCR_LO/HI 20/21)"
            )))
        }
    };
    let mask = (((1u64 << size) - 1) << offset) as u32;
    Ok((reg, offset, mask))
}

/// Installs the MODE bits `v` for the instructions that follow.
fn set_mode(l: &mut Lowerer, v: u32) -> RuleResult {
    let other = v & !FloatMode::MODE_REGISTER_FIELDS;
    if other != 0 {
        return Err(RuleError::not_modelled(format!(
            "MODE bits {other:#010x} outside the float fields: not modelled"
        )));
    }
    l.mode = FloatMode::from_mode_register(v);
    Ok(())
}

/// s_getreg_b32: `D = MODE[offset + size - 1 : offset]`.
pub(super) fn getreg(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    // rule: mode-register: MODE's field layout and writes that change the following rules
    let (reg, offset, mask) = hwreg(c)?;
    let v = match reg {
        HwReg::Mode => l.b.c32((l.mode.mode_register() & mask) >> offset),
        HwReg::FlatScratch(half) => {
            let v = l.sgpr_get(FLAT_SCR_CODE + half);
            let v = l.b.andc(v, u64::from(mask));
            l.b.shrc(v, offset)
        }
    };
    let d = decode_sdst(c.inst.field(Field::Sdst) as u16, 1);
    l.write_sreg(&d, &[v])
}

/// s_setreg_b32 / s_setreg_imm32_b32: `MODE[offset + size - 1 : offset] = S0[size - 1 : 0]`.
/// `imm32`: s_setreg_imm32_b32, whose value is its literal.
pub(super) fn setreg(l: &mut Lowerer, c: &Ctx, imm32: bool) -> RuleResult {
    // rule: mode-register
    let (reg, offset, mask) = hwreg(c)?;
    if let HwReg::FlatScratch(half) = reg {
        let value = match c.inst.literal() {
            Some(v) if imm32 => l.b.c32(v),
            None if imm32 => {
                return Err(RuleError::operand("s_setreg_imm32_b32 without its literal"))
            }
            _ => {
                let s = decode_sdst(c.inst.field(Field::Sdst) as u16, 1);
                l.read32(&s)?
            }
        };
        let code = FLAT_SCR_CODE + half;
        let old = l.sgpr_get(code);
        let keep = l.b.andc(old, u64::from(!mask));
        let moved = l.b.shlc(value, offset);
        let moved = l.b.andc(moved, u64::from(mask));
        let v = l.b.or(keep, moved);
        l.sgpr_init(code, v);
        return Ok(());
    }
    let value = if imm32 {
        c.inst
            .literal()
            .ok_or(RuleError::operand("s_setreg_imm32_b32 without its literal"))?
    } else {
        let s = decode_sdst(c.inst.field(Field::Sdst) as u16, 1);
        let h = l.read32(&s)?;
        l.constant_of(h).ok_or(RuleError::not_modelled(
            "the value is not a constant of the body: the float mode after it is unknown while \
             lowering",
        ))? as u32
    };
    let old = l.mode.mode_register();
    set_mode(l, old & !mask | value << offset & mask)
}

/// s_denorm_mode (`imm[3:0]` to MODE bits 7:4) and s_round_mode (`imm[3:0]` to bits 3:0).
/// `denorm`: s_denorm_mode, else s_round_mode.
pub(super) fn denorm_round(l: &mut Lowerer, c: &Ctx, denorm: bool) -> RuleResult {
    // rule: mode-register
    let imm = c.inst.field(Field::Simm16) & 0xf;
    let old = l.mode.mode_register();
    let v = if denorm {
        old & !0xf0 | imm << 4
    } else {
        old & !0xf | imm
    };
    set_mode(l, v)
}

/// s_sethalt: with bit 0 of the immediate clear it does nothing.
pub(super) fn sethalt(_l: &mut Lowerer, c: &Ctx) -> RuleResult {
    // rule: s-sethalt-resume: SIMM16[0] clear is a no-op; only that bit is read
    if c.inst.field(Field::Simm16) & 1 != 0 {
        return Err(RuleError::not_modelled("halts the wave (SIMM16[0] set)"));
    }
    Ok(())
}
