//! The 16-bit integer VALU ops: add/sub, shifts, v_mul_lo_u16, the 16-bit mads (16- and 32-bit
//! results), min/max/min3/max3/med3, the v_cmp/v_cmpx *_i16/*_u16 compares and
//! v_cvt_pk_i16_i32 / v_cvt_pk_u16_u32. A 16-bit source is the low half of its register (VOP3
//! op_sel picks the high half, SDWA selects); a 16-bit result writes one half of the destination
//! and keeps the other (rule: f16-keeps-high); the clamp bit saturates where an op has a range
//! to leave (rule: integer-clamp).

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::saturate;
use super::Lowerer;
use crate::builder::Builder;
use crate::ir::{Handle, IntBin, IntCmp};
use rdnaprobe_isa::Encoding;

/// Sign- or zero-extends the low 16 bits of the U32 `v`.
pub(super) fn ext16(b: &mut Builder, v: Handle, signed: bool) -> Handle {
    if signed {
        let s = b.shlc(v, 16);
        b.sarc(s, 16)
    } else {
        b.andc(v, 0xffff)
    }
}

/// rule: integer-clamp. The exact U32 value `v` saturated to the 16-bit range, as a U32
/// holding the 16-bit result in its low half: two's complement when `signed` (or when an
/// unsigned difference may be negative, `negative`), else unsigned up to 2^32 - 1.
pub(super) fn sat16(b: &mut Builder, v: Handle, signed: bool, negative: bool) -> Handle {
    let (lo, hi, lt, gt) = match (signed, negative) {
        (true, _) => (0xffff_8000u64, 0x7fffu64, IntCmp::LtS, IntCmp::GtS),
        (false, true) => (0, 0xffff, IntCmp::LtS, IntCmp::GtS),
        (false, false) => (0, 0xffff, IntCmp::LtU, IntCmp::GtU),
    };
    let below = b.icmpc(lt, v, lo);
    let above = b.icmpc(gt, v, hi);
    let clo = b.c32(lo as u32);
    let chi = b.c32(hi as u32);
    let r = b.sel(below, clo, v);
    b.sel(above, chi, r)
}

/// Refuses the float input/output modifiers, which an integer op has no meaning for, and the
/// clamp bit where no rule gives it one.
pub(super) fn int_mods(c: &Ctx, clamp_ok: bool) -> RuleResult {
    if c.mods.abs.iter().any(|&a| a) || c.mods.neg.iter().any(|&n| n) || c.mods.omod != 0 {
        return Err(RuleError::modifier(format!(
            "{}: abs/neg/omod on an integer op",
            c.op
        )));
    }
    if c.mods.clamp && !clamp_ok {
        return Err(RuleError::modifier(format!(
            "{}: clamp has no rule for this op",
            c.op
        )));
    }
    Ok(())
}

impl Lowerer {
    /// 16-bit source `i` extended to a U32: VOP3 op_sel picks the high half, SDWA selects.
    pub(super) fn src16(&mut self, c: &Ctx, i: usize, signed: bool) -> RuleResult<Handle> {
        let op = self.src_op(c, i)?;
        let mut v = self.read32(&op)?;
        if c.enc == Encoding::VOP3 && c.mods.op_sel & (1 << i) != 0 {
            v = self.b.shrc(v, 16);
        }
        if let Some(sd) = c.mods.sdwa {
            if i < 2 {
                let (sel, sext) = if i == 0 {
                    (sd.src0_sel, sd.src0_sext)
                } else {
                    (sd.src1_sel, sd.src1_sext)
                };
                v = self.sdwa_sel(v, sel, sext);
            }
        }
        Ok(ext16(&mut self.b, v, signed))
    }

    /// A 32-bit source of an op whose other sources are 16-bit: op_sel must not select it.
    fn src32_of16(&mut self, c: &Ctx, i: usize) -> RuleResult<Handle> {
        if c.enc == Encoding::VOP3 && c.mods.op_sel & (1 << i) != 0 {
            return Err(RuleError::modifier(format!(
                "{}: op_sel on the 32-bit source {i}",
                c.op
            )));
        }
        let op = self.src_op(c, i)?;
        self.read32(&op)
    }
}

/// A scalar 16-bit integer op, and whether it reads its 16-bit sources as signed: what the
/// dispatch passes for each opcode it routes to [`op`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Int16 {
    pub op: I16,
    pub signed: bool,
}

/// The computation of an [`Int16`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum I16 {
    Add,
    Sub,
    MulLo,
    Mad,
    /// v_mad_u32_u16 / v_mad_i32_i16: a 32-bit addend and result.
    MadWide,
    /// The shifts take the amount from src0 (`lshlrev`): the shift op.
    ShiftRev(IntBin),
    Min,
    Max,
    Min3,
    Max3,
    Med3,
}

/// The scalar 16-bit integer ops (their opcodes are routed here by the dispatch).
pub(super) fn op(l: &mut Lowerer, c: &Ctx, Int16 { op, signed: sg }: Int16) -> RuleResult {
    // the VOP2-born forms (llvm-mc-19 for gfx1030 takes neither clamp nor op_sel on them)
    let (vop2_born, three) = match op {
        I16::ShiftRev(_) | I16::MulLo | I16::Min | I16::Max => (true, false),
        I16::Add | I16::Sub => (false, false),
        I16::Mad | I16::MadWide | I16::Min3 | I16::Max3 | I16::Med3 => (false, true),
    };
    let wide = op == I16::MadWide;
    int_mods(c, !vop2_born)?;
    if vop2_born && c.mods.op_sel != 0 {
        return Err(RuleError::modifier(format!(
            "{}: op_sel has no rule for this op",
            c.op
        )));
    }
    let x = l.src16(c, 0, sg)?;
    let y = l.src16(c, 1, sg)?;
    let z = if wide {
        Some(l.src32_of16(c, 2)?)
    } else if three {
        Some(l.src16(c, 2, sg)?)
    } else {
        None
    };
    let z = || z.ok_or_else(|| RuleError::operand(format!("{}: missing source 2", c.op)));
    let (lt, gt) = if sg {
        (IntCmp::LtS, IntCmp::GtS)
    } else {
        (IntCmp::LtU, IntCmp::GtU)
    };
    let b = &mut l.b;
    let r = match op {
        I16::MadWide => {
            if c.enc == Encoding::VOP3 && c.mods.op_sel & 8 != 0 {
                return Err(RuleError::modifier(format!(
                    "{}: op_sel on the 32-bit destination",
                    c.op
                )));
            }
            // the 16-bit product is exact in 32 bits; the sum wraps (or saturates with clamp)
            let p = b.ib(IntBin::Mul, x, y);
            let r = if c.mods.clamp {
                // rule: integer-clamp
                let (p64, z64) = if sg {
                    let p64 = saturate::sext64(b, p, 32);
                    (p64, saturate::sext64(b, z()?, 32))
                } else {
                    (b.zext(p), b.zext(z()?))
                };
                let s = b.add(p64, z64);
                saturate::saturate(b, s, sg)
            } else {
                b.add(p, z()?)
            };
            return l.write_result(c.inst, r);
        }
        I16::Add => b.add(x, y),
        I16::Sub => b.sub(x, y),
        I16::MulLo => b.ib(IntBin::Mul, x, y),
        I16::Mad => {
            let p = b.ib(IntBin::Mul, x, y);
            b.add(p, z()?)
        }
        I16::ShiftRev(shift) => {
            // D = S1 shifted by S0[3:0]
            let sh = b.andc(x, 15);
            b.ib(shift, y, sh)
        }
        I16::Min => {
            let k = b.icmp(lt, x, y);
            b.sel(k, x, y)
        }
        I16::Max => {
            let k = b.icmp(gt, x, y);
            b.sel(k, x, y)
        }
        I16::Min3 | I16::Max3 => {
            let cmp = if op == I16::Min3 { lt } else { gt };
            let k = b.icmp(cmp, x, y);
            let t = b.sel(k, x, y);
            let z = z()?;
            let k2 = b.icmp(cmp, t, z);
            b.sel(k2, t, z)
        }
        I16::Med3 => med3(b, lt, x, y, z()?),
    };
    // rule: integer-clamp: add, sub and the mads saturate their exact 32-bit value; the
    // min3/max3/med3 results are in range already
    let r = if c.mods.clamp {
        let negative = op == I16::Sub && !sg;
        sat16(b, r, sg, negative)
    } else {
        r
    };
    // rule: f16-keeps-high
    l.write16(c, r)
}

/// The median of three (`lt` orders them).
pub(super) fn med3(b: &mut Builder, lt: IntCmp, x: Handle, y: Handle, z: Handle) -> Handle {
    let k = b.icmp(lt, x, y);
    let lo = b.sel(k, x, y);
    let hi = b.sel(k, y, x);
    let k2 = b.icmp(lt, hi, z);
    let m2 = b.sel(k2, hi, z);
    let k3 = b.icmp(lt, lo, m2);
    b.sel(k3, m2, lo)
}

/// v_cmp(x)_COND_{i16,u16}: this lane's bit of VCC (or the VOP3 destination, or EXEC for
/// v_cmpx), as the 32-bit compares write it.
pub(super) fn cmp(l: &mut Lowerer, c: &Ctx, cond: IntCmp) -> RuleResult {
    int_mods(c, false)?;
    if c.mods.op_sel != 0 {
        return Err(RuleError::modifier(format!(
            "{}: op_sel on a compare",
            c.op
        )));
    }
    // equality does not depend on the extension
    let sg = matches!(cond, IntCmp::LtS | IntCmp::LeS | IntCmp::GtS | IntCmp::GeS);
    let x = l.src16(c, 0, sg)?;
    let y = l.src16(c, 1, sg)?;
    let r = l.b.icmp(cond, x, y);
    let d = l.cmp_dst(c.inst)?;
    l.write_mask(&d, r)
}

/// v_cvt_pk_i16_i32 / v_cvt_pk_u16_u32: src0 and src1 saturated to 16 bits, src0 in the low
/// half.
pub(super) fn cvt_pk(l: &mut Lowerer, c: &Ctx, signed: bool) -> RuleResult {
    int_mods(c, false)?;
    if c.mods.op_sel != 0 {
        return Err(RuleError::modifier(format!(
            "{}: op_sel on 32-bit sources",
            c.op
        )));
    }
    let s = l.int_srcs(c)?;
    if s.len() < 2 {
        return Err(RuleError::operand(format!("{}: missing source", c.op)));
    }
    let b = &mut l.b;
    let half = |b: &mut Builder, v: Handle| {
        if signed {
            sat16(b, v, true, true)
        } else {
            let above = b.icmpc(IntCmp::GtU, v, 0xffff);
            let m = b.c32(0xffff);
            b.sel(above, m, v)
        }
    };
    let lo = half(b, s[0]);
    let lo = b.andc(lo, 0xffff);
    let hi = half(b, s[1]);
    let hi = b.shlc(hi, 16);
    let r = b.or(lo, hi);
    l.write_result(c.inst, r)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::out0;

    #[test]
    fn add_sub_wrap_and_keep_the_high_half() {
        let t = "v_mov_b32 v10, 0xabcd0000\nv_add_nc_u16 v10, v4, v5";
        assert_eq!(out0(t, 0x1_fff0, 0x20, 0), 0xabcd_0010);
        let t = "v_mov_b32 v10, 0xabcd0000\nv_sub_nc_i16 v10, v4, v5";
        assert_eq!(out0(t, 0x8000, 1, 0), 0xabcd_7fff);
        // op_sel reads the high halves and writes the high half
        let t = "v_mov_b32 v10, 0x1234\nv_add_nc_u16 v10, v4, v5 op_sel:[1,1,1]";
        assert_eq!(out0(t, 0x0003_0000, 0x0004_ffff, 0), 0x0007_1234);
    }

    #[test]
    fn add_sub_clamp_saturates() {
        assert_eq!(
            out0("v_add_nc_u16 v10, v4, v5 clamp", 0xfff0, 0x20, 0),
            0xffff
        );
        assert_eq!(out0("v_sub_nc_u16 v10, v4, v5 clamp", 3, 5, 0), 0);
        assert_eq!(
            out0("v_add_nc_i16 v10, v4, v5 clamp", 0x7ff0, 0x20, 0),
            0x7fff
        );
        assert_eq!(out0("v_sub_nc_i16 v10, v4, v5 clamp", 0x8000, 1, 0), 0x8000);
        assert_eq!(out0("v_add_nc_i16 v10, v4, v5 clamp", 0xfffe, 1, 0), 0xffff);
    }

    #[test]
    fn shifts_take_four_bits_of_src0() {
        assert_eq!(out0("v_lshlrev_b16 v10, v4, v5", 17, 0x1234, 0), 0x2468);
        assert_eq!(out0("v_lshrrev_b16 v10, v4, v5", 4, 0x8234, 0), 0x0823);
        assert_eq!(out0("v_ashrrev_i16 v10, v4, v5", 4, 0x8234, 0), 0xf823);
        // the high source half is ignored
        assert_eq!(out0("v_ashrrev_i16 v10, v4, v5", 1, 0xffff_4000, 0), 0x2000);
    }

    #[test]
    fn products_and_mads() {
        assert_eq!(out0("v_mul_lo_u16 v10, v4, v5", 0xffff, 0xffff, 0), 1);
        assert_eq!(
            out0("v_mad_u16 v10, v4, v5, v6", 300, 300, 7),
            (90_007 & 0xffff)
        );
        assert_eq!(out0("v_mad_u16 v10, v4, v5, v6 clamp", 300, 300, 7), 0xffff);
        assert_eq!(out0("v_mad_i16 v10, v4, v5, v6", 0xfffe, 3, 1), 0xfffb);
        assert_eq!(
            out0("v_mad_i16 v10, v4, v5, v6 clamp", 0x8000, 2, 0),
            0x8000
        );
        assert_eq!(
            out0("v_mad_u32_u16 v10, v4, v5, v6", 0xffff, 0xffff, 0x10),
            0xfffe_0011
        );
        assert_eq!(
            out0(
                "v_mad_u32_u16 v10, v4, v5, v6 clamp",
                0xffff,
                0xffff,
                0x2_0000
            ),
            u32::MAX
        );
        assert_eq!(
            out0("v_mad_i32_i16 v10, v4, v5, v6", 0x8000, 0x8000, u32::MAX),
            0x3fff_ffff
        );
        assert_eq!(
            out0(
                "v_mad_i32_i16 v10, v4, v5, v6 op_sel:[1,0,0,0]",
                0xfffe_0000,
                5,
                3
            ),
            (-7i32) as u32
        );
        assert_eq!(
            out0(
                "v_mad_i32_i16 v10, v4, v5, v6 clamp",
                0x8000,
                0x7fff,
                0x8000_0000
            ),
            0x8000_0000
        );
    }

    #[test]
    fn min_max_med3_by_signedness() {
        assert_eq!(out0("v_min_i16 v10, v4, v5", 0xffff, 1, 0), 0xffff);
        assert_eq!(out0("v_min_u16 v10, v4, v5", 0xffff, 1, 0), 1);
        assert_eq!(out0("v_max_i16 v10, v4, v5", 0x8000, 0x7fff, 0), 0x7fff);
        assert_eq!(out0("v_max_u16 v10, v4, v5", 0x8000, 0x7fff, 0), 0x8000);
        assert_eq!(out0("v_min3_i16 v10, v4, v5, v6", 5, 0x8000, 3), 0x8000);
        assert_eq!(out0("v_max3_u16 v10, v4, v5, v6", 5, 0x8000, 3), 0x8000);
        assert_eq!(out0("v_med3_i16 v10, v4, v5, v6", 5, 0x8000, 3), 3);
        assert_eq!(out0("v_med3_u16 v10, v4, v5, v6", 5, 0x8000, 3), 5);
    }

    #[test]
    fn compares_read_sixteen_bits() {
        let t = "v_cmp_lt_i16 vcc_lo, v4, v5\nv_cndmask_b32 v10, 0, 1, vcc_lo";
        assert_eq!(out0(t, 0x1_8000, 0, 0), 1);
        let t = "v_cmp_lt_u16 vcc_lo, v4, v5\nv_cndmask_b32 v10, 0, 1, vcc_lo";
        assert_eq!(out0(t, 0x1_8000, 0, 0), 0);
        let t = "v_cmp_eq_u16 vcc_lo, v4, v5\nv_cndmask_b32 v10, 0, 1, vcc_lo";
        assert_eq!(out0(t, 0x1_0005, 5, 0), 1);
        let x = "v_cmpx_gt_i16 v4, v5\nv_mov_b32 v10, 9";
        assert_eq!(out0(x, 1, 0xffff, 0), 9);
        assert_eq!(out0(x, 0xffff, 1, 0), 0);
        // SDWA: the high word of src0 (-1) against byte 0 of src1 (zero-extended: 0x80)
        let t = "v_cmp_lt_i16_sdwa vcc_lo, v4, v5 src0_sel:WORD_1 src1_sel:BYTE_0\n\
                 v_cndmask_b32 v10, 0, 1, vcc_lo";
        assert_eq!(out0(t, 0xffff_0005, 0x80, 0), 1);
        // sext of byte 1 of src0 (0x80: -128) against byte 0 of src1 (0x7f)
        let t = "v_cmp_lt_i16_sdwa vcc_lo, sext(v4), v5 src0_sel:BYTE_1 src1_sel:BYTE_0\n\
                 v_cndmask_b32 v10, 0, 1, vcc_lo";
        assert_eq!(out0(t, 0x8000, 0x7f, 0), 1);
        let t = "v_cmp_lt_i16_sdwa vcc_lo, v4, v5 src0_sel:BYTE_1 src1_sel:BYTE_0\n\
                 v_cndmask_b32 v10, 0, 1, vcc_lo";
        assert_eq!(out0(t, 0x8000, 0x7f, 0), 0);
    }

    #[test]
    fn modifiers_without_a_rule_are_refused() {
        use crate::lower::lower_words;
        use rdnaprobe_isa::{assemble, FloatMode, Target, Wave};
        // the clamp bit (VOP3 bit 15) set by hand on ops that have no rule for it
        for text in [
            "v_mul_lo_u16 v10, v4, v5",
            "v_min_u16 v10, v4, v5",
            "v_cvt_pk_u16_u32 v10, v4, v5",
            "v_sad_u8 v10, v4, v5, v6",
            "v_mad_u64_u32 v[10:11], s0, v4, v5, v[6:7]",
        ] {
            let mut words = assemble(text).expect("assembles");
            assert!(lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1036).is_ok());
            words[0] |= 1 << 15;
            let e = lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1036);
            assert!(e.is_err(), "{text} with clamp");
        }
        // op_sel (VOP3 bits 11..14) on an op that has none
        let mut words = assemble("v_lshlrev_b16 v10, v4, v5").expect("assembles");
        words[0] |= 1 << 11;
        assert!(lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1036).is_err());
    }

    #[test]
    fn pack_conversions_saturate() {
        let t = "v_cvt_pk_i16_i32 v10, v4, v5";
        assert_eq!(out0(t, 0x1_0000, 0xffff_0000, 0), 0x8000_7fff);
        assert_eq!(out0(t, 5, u32::MAX, 0), 0xffff_0005);
        let t = "v_cvt_pk_u16_u32 v10, v4, v5";
        assert_eq!(out0(t, 0x1_0000, 0xffff, 0), 0xffff_ffff);
        assert_eq!(out0(t, 0x8000_0000, 2, 0), 0x0002_ffff);
    }
}
