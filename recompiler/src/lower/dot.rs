//! The integer dot products (v_dot2_i32_i16, v_dot2_u32_u16, v_dot4_i32_i8, v_dot4_u32_u8,
//! v_dot4c_i32_i8, v_dot8_i32_i4, v_dot8_u32_u4) and the 64-bit mads v_mad_u64_u32 /
//! v_mad_i64_i32 with their carry-out (rule: mad64-carry).

use super::error::{RuleError, RuleResult};
use super::int16::int_mods;
use super::operands::Ctx;
use super::saturate;
use super::Lowerer;
use crate::builder::Builder;
use crate::ir::{Handle, IntBin, IntCmp};
use rdnaprobe_isa::Encoding;

/// Field `i` of `width` bits of the U32 `v`, extended to a U64.
fn field64(b: &mut Builder, v: Handle, i: u32, width: u32, signed: bool) -> Handle {
    let s = b.shrc(v, i * width);
    if signed {
        saturate::sext64(b, s, width)
    } else {
        let s = b.andc(s, (1 << width) - 1);
        b.zext(s)
    }
}

/// The integer dot products: the sum of the products of the `width`-bit fields of src0 and
/// src1, plus src2 (v_dot4c_i32_i8: plus the destination), wrapping; the clamp bit saturates
/// the exact sum (rule: integer-clamp).
/// An integer dot product: the field `width` in bits, `signed` fields, and whether the
/// destination is the accumulator (v_dot4c_i32_i8) instead of src2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Dot {
    pub width: u32,
    pub signed: bool,
    pub acc_dst: bool,
}

pub(super) fn dot(l: &mut Lowerer, c: &Ctx, dot: Dot) -> RuleResult {
    int_mods(c, true)?;
    let Dot {
        width,
        signed,
        acc_dst,
    } = dot;
    let two = width == 16;
    if c.enc == Encoding::VOP3P {
        // op_sel / op_sel_hi pick the halves of the packed 16-bit sources of the dot2 forms
        // (the VOP3P rule); on the 32-bit accumulator and on the 8- and 4-bit forms only the
        // two values assemblers write (op_sel clear; op_sel_hi all clear or all set) are taken
        let hi_bits = if two { 0b100 } else { 0b111 };
        let sel_bits = if two { 0b100 } else { 0b111 };
        let his = c.mods.op_sel_hi & hi_bits;
        if c.mods.op_sel & sel_bits != 0 || (his != 0 && his != hi_bits) {
            return Err(RuleError::modifier(format!(
                "{}: op_sel/op_sel_hi have no rule here",
                c.op
            )));
        }
        if c.mods.neg_lo != 0 || c.mods.neg_hi != 0 {
            return Err(RuleError::modifier(format!(
                "{}: neg_lo/neg_hi on an integer op",
                c.op
            )));
        }
    }
    let mut s = l.int_srcs(c)?;
    if s.len() < 2 {
        return Err(RuleError::operand(format!("{}: missing source", c.op)));
    }
    if two && c.enc == Encoding::VOP3P {
        // rebuild each packed source from the halves op_sel (low) and op_sel_hi (high) pick
        for (i, v) in s.iter_mut().take(2).enumerate() {
            let b = &mut l.b;
            let half = |b: &mut Builder, sel: u8| {
                if sel & (1 << i) != 0 {
                    b.shrc(*v, 16)
                } else {
                    b.andc(*v, 0xffff)
                }
            };
            let lo = half(b, c.mods.op_sel);
            let lo = b.andc(lo, 0xffff);
            let hi = half(b, c.mods.op_sel_hi);
            let hi = b.shlc(hi, 16);
            *v = b.or(lo, hi);
        }
    }
    let acc = if acc_dst {
        let dsts = c.inst.dsts(l.wave);
        let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
        l.read32(&d)?
    } else {
        *s.get(2)
            .ok_or_else(|| RuleError::operand(format!("{}: missing source 2", c.op)))?
    };
    let b = &mut l.b;
    let mut sum = if signed {
        saturate::sext64(b, acc, 32)
    } else {
        b.zext(acc)
    };
    for i in 0..32 / width {
        let x = field64(b, s[0], i, width, signed);
        let y = field64(b, s[1], i, width, signed);
        let p = b.ib(IntBin::Mul, x, y);
        sum = b.add(sum, p);
    }
    let r = if c.mods.clamp {
        saturate::saturate(b, sum, signed)
    } else {
        b.trunc64(sum)
    };
    l.write_result(c.inst, r)
}

/// rule: mad64-carry. v_mad_u64_u32 / v_mad_i64_i32: src0 * src1 + the 64-bit src2, the
/// 64-bit result in the destination pair and bit 64 of the exact sum (unsigned: the carry
/// out; signed: the sign of the sign-extended sum) in this lane's bit of the SGPR
/// destination.
pub(super) fn mad64(l: &mut Lowerer, c: &Ctx, signed: bool) -> RuleResult {
    int_mods(c, false)?;
    let x = l.read32(&l.src_op(c, 0)?)?;
    let y = l.read32(&l.src_op(c, 1)?)?;
    let z = l.read64(&l.src_op(c, 2)?, false)?;
    let b = &mut l.b;
    let (x, y) = if signed {
        (saturate::sext64(b, x, 32), saturate::sext64(b, y, 32))
    } else {
        (b.zext(x), b.zext(y))
    };
    // the product is exact in 64 bits
    let p = b.ib(IntBin::Mul, x, y);
    let s = b.add(p, z);
    let carry = if signed {
        // the 65-bit sum's sign: the wrapped sum's, unless the add overflowed
        let sp = b.icmpc(IntCmp::LtS, p, 0);
        let sz = b.icmpc(IntCmp::LtS, z, 0);
        let ss = b.icmpc(IntCmp::LtS, s, 0);
        let same = b.bxor(sp, sz);
        let same = b.bnot(same);
        let flip = b.bxor(sp, ss);
        let over = b.band(same, flip);
        b.sel(over, sp, ss)
    } else {
        b.icmp(IntCmp::LtU, s, z)
    };
    let lo = b.trunc64(s);
    let hi = b.hi32(s);
    let dsts = c.inst.dsts(l.wave);
    let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
    let cd = *dsts
        .get(1)
        .ok_or(RuleError::operand("carry destination missing"))?;
    l.write_vdst(&d, &[lo, hi])?;
    l.write_mask(&cd, carry)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::{out0, run};

    #[test]
    fn dot_products_sum_fields() {
        // -1 * 3 + 2 * 4 + 10
        assert_eq!(
            out0(
                "v_dot2_i32_i16 v10, v4, v5, v6",
                0x0002_ffff,
                0x0004_0003,
                10
            ),
            15
        );
        assert_eq!(
            out0(
                "v_dot2_u32_u16 v10, v4, v5, v6",
                0x0002_ffff,
                0x0004_0003,
                10
            ),
            0x3_000f
        );
        // bytes: -1*1 + 2*2 + -128*-128 + 127*1
        let (a, b) = (0x7f80_02ff, 0x0180_0201);
        assert_eq!(out0("v_dot4_i32_i8 v10, v4, v5, v6", a, b, 0), 16514);
        assert_eq!(
            out0("v_dot4_u32_u8 v10, v4, v5, v6", a, b, 0),
            255 + 4 + 128 * 128 + 127
        );
        // nibbles of 0xf...: -1 * -1 * 8 = 8; unsigned 15 * 15 * 8
        assert_eq!(
            out0("v_dot8_i32_i4 v10, v4, v5, v6", u32::MAX, u32::MAX, 1),
            9
        );
        assert_eq!(
            out0("v_dot8_u32_u4 v10, v4, v5, v6", u32::MAX, u32::MAX, 1),
            1801
        );
        // wraps without clamp, saturates with it
        let t = "v_dot2_i32_i16 v10, v4, v5, v6";
        assert_eq!(out0(t, 0x8000_8000, 0x8000_8000, 0x7fff_ffff), u32::MAX);
        let t = "v_dot2_u32_u16 v10, v4, v5, v6";
        assert_eq!(out0(t, 0xffff_ffff, 0xffff_ffff, 0), 0xfffc_0002);
        let t = "v_dot2_u32_u16 v10, v4, v5, v6 clamp";
        assert_eq!(out0(t, 0xffff_ffff, 0xffff_ffff, 0), u32::MAX);
        let t = "v_dot4_i32_i8 v10, v4, v5, v6 clamp";
        assert_eq!(out0(t, 0x8080_8080, 0x7f7f_7f7f, 0x8000_0000), 0x8000_0000);
    }

    #[test]
    fn dot2_sources_follow_op_sel() {
        // op_sel_hi clear: both elements read the low halves: 2 * (3 * 5) + 1
        let t = "v_dot2_i32_i16 v10, v4, v5, v6 op_sel_hi:[0,0,0]";
        assert_eq!(out0(t, 0x0007_0003, 0x0009_0005, 1), 31);
        // op_sel on src0 only: src0.hi * src1.lo + src0.hi * src1.hi + 1
        let t = "v_dot2_i32_i16 v10, v4, v5, v6 op_sel:[1,0,0]";
        assert_eq!(out0(t, 0x0007_0003, 0x0009_0005, 1), 7 * 5 + 7 * 9 + 1);
        // the 8-bit form reads the same with either assembler default
        let t = "v_dot4_u32_u8 v10, v4, v5, v6 op_sel_hi:[0,0,0]";
        assert_eq!(out0(t, 0x0102_0304, 0x0101_0101, 0), 10);
    }

    #[test]
    fn mad64_writes_the_pair_and_the_carry() {
        let t = "v_mad_u64_u32 v[10:11], s0, v4, v5, v[6:7]\nv_cndmask_b32_e64 v12, 0, 1, s0";
        let o = run(t, [u32::MAX, u32::MAX, 5, 0, 0, 0], 0);
        assert_eq!((o[0], o[1], o[2]), (6, 0xffff_fffe, 0));
        let o = run(t, [u32::MAX, u32::MAX, 0, 2, 0, 0], 0);
        // (2^32 - 1)^2 + 2^33 = 2^64 + 1
        assert_eq!((o[0], o[1], o[2]), (1, 0, 1));
        let t = "v_mad_i64_i32 v[10:11], s0, v4, v5, v[6:7]\nv_cndmask_b32_e64 v12, 0, 1, s0";
        let o = run(t, [u32::MAX, 3, 1, 0, 0, 0], 0);
        // -3 + 1 = -2: negative, the sign bit is the carry-out
        assert_eq!((o[0], o[1], o[2]), (0xffff_fffe, u32::MAX, 1));
        let o = run(t, [u32::MAX, 3, 5, 0, 0, 0], 0);
        assert_eq!((o[0], o[1], o[2]), (2, 0, 0));
        // i32::MIN^2 + i64::MAX overflows to a negative wrapped sum; the exact sum is positive
        let o = run(
            t,
            [0x8000_0000, 0x8000_0000, u32::MAX, 0x7fff_ffff, 0, 0],
            0,
        );
        assert_eq!((o[0], o[1], o[2]), (u32::MAX, 0xbfff_ffff, 0));
        // two negatives whose wrapped sum is positive: the exact sum is negative
        let o = run(t, [0x8000_0000, 0x7fff_ffff, 0, 0x8000_0000, 0, 0], 0);
        assert_eq!(o[2], 1);
    }
}
