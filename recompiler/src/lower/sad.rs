//! Byte and halfword ops on packed 32-bit sources: the sums of absolute differences
//! (v_sad_u8, v_sad_hi_u8, v_sad_u16, v_sad_u32, v_msad_u8 and the sliding-window
//! v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8, v_mqsad_u32_u8: rule: sad-window), v_lerp_u8 and
//! v_perm_b32. None of them has a rule for the clamp bit or op_sel, which are refused.

use super::error::{RuleError, RuleResult};
use super::int16::int_mods;
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::Builder;
use crate::ir::{Handle, IntBin, IntCmp};

/// Field `i` (`width` bits) of the U32 `v`, as a U32.
fn field(b: &mut Builder, v: Handle, i: u32, width: u32) -> Handle {
    let s = b.shrc(v, i * width);
    b.andc(s, (1 << width) - 1)
}

/// The unsigned distance `|x - y|` of two U32.
fn dist(b: &mut Builder, x: Handle, y: Handle) -> Handle {
    let gt = b.icmp(IntCmp::GtU, x, y);
    let d1 = b.sub(x, y);
    let d2 = b.sub(y, x);
    b.sel(gt, d1, d2)
}

/// The byte SAD of `x` against the reference `r`; `masked` skips the bytes where `r` is 0.
fn sad8(b: &mut Builder, x: Handle, r: Handle, masked: bool) -> Handle {
    let mut acc = b.c32(0);
    for i in 0..4 {
        let xb = field(b, x, i, 8);
        let rb = field(b, r, i, 8);
        let d = dist(b, xb, rb);
        let d = if masked {
            let z = b.eqc(rb, 0);
            let zero = b.c32(0);
            b.sel(z, zero, d)
        } else {
            d
        };
        acc = b.add(acc, d);
    }
    acc
}

/// The 32-bit window of the U64 `v` starting at byte `i`.
fn window(b: &mut Builder, v: Handle, i: u32) -> Handle {
    let s = b.shrc(v, 8 * i);
    b.trunc64(s)
}

/// Refuses the modifiers these ops have no rule for.
fn plain(c: &Ctx) -> RuleResult {
    int_mods(c, false)?;
    if c.mods.op_sel != 0 {
        return Err(RuleError::modifier(format!(
            "{}: op_sel has no rule for this op",
            c.op
        )));
    }
    Ok(())
}

/// The byte ops of [`op`], one per opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ByteOp {
    SadU8,
    SadHiU8,
    SadU16,
    SadU32,
    MsadU8,
    LerpU8,
    Perm,
}

/// v_sad_u8, v_sad_hi_u8, v_sad_u16, v_sad_u32, v_msad_u8, v_lerp_u8, v_perm_b32.
pub(super) fn op(l: &mut Lowerer, c: &Ctx, op: ByteOp) -> RuleResult {
    plain(c)?;
    let s = l.int_srcs(c)?;
    if s.len() < 3 {
        return Err(RuleError::operand(format!("{}: missing source", c.op)));
    }
    let (x, y, z) = (s[0], s[1], s[2]);
    let b = &mut l.b;
    let r = match op {
        ByteOp::SadU8 => {
            let d = sad8(b, x, y, false);
            b.add(d, z)
        }
        ByteOp::MsadU8 => {
            let d = sad8(b, x, y, true);
            b.add(d, z)
        }
        ByteOp::SadHiU8 => {
            let d = sad8(b, x, y, false);
            let d = b.shlc(d, 16);
            b.add(d, z)
        }
        ByteOp::SadU16 => {
            let mut acc = z;
            for i in 0..2 {
                let xh = field(b, x, i, 16);
                let yh = field(b, y, i, 16);
                let d = dist(b, xh, yh);
                acc = b.add(acc, d);
            }
            acc
        }
        ByteOp::SadU32 => {
            // the unsigned distance (Mesa ACO's ISA notes)
            let d = dist(b, x, y);
            b.add(d, z)
        }
        ByteOp::LerpU8 => {
            // each byte: (src0 + src1 + src2's bit 0 of that byte) >> 1
            let mut acc = b.c32(0);
            for i in 0..4 {
                let xb = field(b, x, i, 8);
                let yb = field(b, y, i, 8);
                let rb = field(b, z, i, 8);
                let r = b.andc(rb, 1);
                let t = b.add(xb, yb);
                let t = b.add(t, r);
                let t = b.shrc(t, 1);
                let t = b.shlc(t, 8 * i);
                acc = b.or(acc, t);
            }
            acc
        }
        ByteOp::Perm => perm(b, x, y, z),
    };
    l.write_result(c.inst, r)
}

/// v_perm_b32: each selector byte of `sel` picks a byte of {src0, src1} (src1 the low dword):
/// 0..7 that byte, 8..11 the sign of byte 1, 3, 5 or 7 spread over the byte, 12 zero, 13 and
/// up 0xff.
fn perm(b: &mut Builder, s0: Handle, s1: Handle, sel: Handle) -> Handle {
    let data = b.pack64(s1, s0);
    let mut acc = b.c32(0);
    for i in 0..4 {
        let s = field(b, sel, i, 8);
        let k = b.andc(s, 7);
        let k = b.shlc(k, 3);
        let k = b.zext(k);
        let byte = b.ib(IntBin::ShrU, data, k);
        let byte = b.trunc64(byte);
        let byte = b.andc(byte, 0xff);
        // sign bit of byte 2 * (s & 3) + 1: bit 16 * (s & 3) + 15
        let j = b.andc(s, 3);
        let j = b.shlc(j, 4);
        let j = b.addc(j, 15);
        let j = b.zext(j);
        let sb = b.ib(IntBin::ShrU, data, j);
        let sb = b.trunc64(sb);
        let sb = b.andc(sb, 1);
        let zero = b.c32(0);
        let ff = b.c32(0xff);
        let neg = b.nec(sb, 0);
        let sign = b.sel(neg, ff, zero);
        let lt8 = b.icmpc(IntCmp::LtU, s, 8);
        let lt12 = b.icmpc(IntCmp::LtU, s, 12);
        let is12 = b.eqc(s, 12);
        let v = b.sel(is12, zero, ff);
        let v = b.sel(lt12, sign, v);
        let v = b.sel(lt8, byte, v);
        let v = b.shlc(v, 8 * i);
        acc = b.or(acc, v);
    }
    acc
}

/// rule: sad-window. v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8 (four 16-bit fields) and
/// v_mqsad_u32_u8 (four 32-bit fields): field i is the byte SAD of the window of the 64-bit
/// src0 at byte i against src1 (the masked forms skip zero reference bytes), plus field i of
/// src2, wrapping in the field.
/// `masked` skips zero reference bytes; `wide` is v_mqsad_u32_u8's 32-bit fields.
pub(super) fn qsad(l: &mut Lowerer, c: &Ctx, masked: bool, wide: bool) -> RuleResult {
    plain(c)?;
    let data = l.read64(&l.src_op(c, 0)?, false)?;
    let r = l.read32(&l.src_op(c, 1)?)?;
    let acc = l.read(&l.src_op(c, 2)?, if wide { 4 } else { 2 }, false)?;
    let b = &mut l.b;
    let mut sums = Vec::new();
    for i in 0..4 {
        let w = window(b, data, i);
        sums.push(sad8(b, w, r, masked));
    }
    let out = if wide {
        (0..4).map(|i| b.add(sums[i], acc[i])).collect::<Vec<_>>()
    } else {
        let mut out = Vec::new();
        for d in 0..2 {
            let mut v = b.c32(0);
            for h in 0..2 {
                let a = field(b, acc[d], h as u32, 16);
                let s = b.add(sums[2 * d + h], a);
                let s = b.andc(s, 0xffff);
                let s = b.shlc(s, 16 * h as u32);
                v = b.or(v, s);
            }
            out.push(v);
        }
        out
    };
    let dsts = c.inst.dsts(l.wave);
    let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
    l.write_vdst(&d, &out)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::{out0, run};

    #[test]
    fn byte_and_word_sads() {
        // |1-4| + |2-3| + |3-2| + |4-1| = 8
        assert_eq!(
            out0("v_sad_u8 v10, v4, v5, v6", 0x0403_0201, 0x0102_0304, 7),
            15
        );
        assert_eq!(
            out0("v_sad_hi_u8 v10, v4, v5, v6", 0x0403_0201, 0x0102_0304, 7),
            0x0008_0007
        );
        assert_eq!(
            out0("v_sad_u8 v10, v4, v5, v6", 0xff00_00ff, 0x00ff_ff00, 0),
            1020
        );
        // the masked form skips the zero reference bytes (bytes 0 and 3 here)
        assert_eq!(
            out0("v_msad_u8 v10, v4, v5, v6", 0xff00_00ff, 0x00ff_ff00, 1),
            511
        );
        assert_eq!(
            out0("v_sad_u16 v10, v4, v5, v6", 0x0001_ffff, 0xffff_0001, 2),
            0x1_fffe
        );
        // the unsigned distance; the sum wraps
        assert_eq!(
            out0("v_sad_u32 v10, v4, v5, v6", 0x8000_0000, 0x7fff_ffff, 0),
            1
        );
        assert_eq!(out0("v_sad_u32 v10, v4, v5, v6", 0, u32::MAX, 2), 1);
    }

    #[test]
    fn lerp_rounds_by_the_low_bit_of_src2() {
        let t = "v_lerp_u8 v10, v4, v5, v6";
        assert_eq!(out0(t, 0xff01_0203, 0xff02_0204, 0x0100_0101), 0xff01_0204);
        assert_eq!(out0(t, 0xff01_0203, 0xff02_0204, 0xfe00_fe00), 0xff01_0203);
    }

    #[test]
    fn perm_selects_bytes_signs_and_constants() {
        let t = "v_perm_b32 v10, v4, v5, v6";
        // bytes 7..0 of {v4, v5} = 88 77 66 55 44 33 22 11
        let (s0, s1) = (0x8877_6655, 0x4433_2211);
        assert_eq!(out0(t, s0, s1, 0x0007_0304), 0x1188_4455);
        assert_eq!(out0(t, s0, s1, 0x0c0d_ff0c), 0x00ff_ff00);
        // 8: sign of byte 1 (0x22: +), 9: byte 3 (0x44: +), 10: byte 5 (0x66: +), 11: byte 7
        assert_eq!(out0(t, s0, s1, 0x0b0a_0908), 0xff00_0000);
        assert_eq!(out0(t, 0x0000_8000, 0x8000_8000, 0x0b0a_0908), 0x00ff_ffff);
    }

    #[test]
    fn quad_sads_slide_a_window() {
        // src0 = bytes 0..7 = 1..8; ref bytes 1,1,1,1
        let t = "v_qsad_pk_u16_u8 v[10:11], v[4:5], v6, v[8:9]";
        let o = run(
            t,
            [0x0403_0201, 0x0807_0605, 0x0101_0101, 0, 0xffff_0001, 0],
            0,
        );
        // windows 1234 -> 6, 2345 -> 10, 3456 -> 14, 4567 -> 18; the high field of v8 wraps
        assert_eq!((o[0], o[1]), (0x0009_0007, 0x0012_000e));
        let t = "v_mqsad_pk_u16_u8 v[10:11], v[4:5], v6, v[8:9]";
        let o = run(t, [0x0403_0201, 0x0807_0605, 0x0100_0100, 0, 0, 0], 0);
        // reference bytes 1 and 3 only: windows 1234 -> 1 + 3, 2345 -> 2 + 4, ...
        assert_eq!((o[0], o[1]), (0x0006_0004, 0x000a_0008));
        let t = "v_mqsad_u32_u8 v[10:13], v[4:5], v6, v[6:9]";
        let o = run(
            t,
            [0x0403_0201, 0x0807_0605, 0x0100_0100, 0, 0, u32::MAX],
            0,
        );
        // src2 = v6..v9 = 0x01000100, 0, 0, 0xffffffff
        assert_eq!(o[..4], [0x0100_0104, 6, 8, 9]);
    }
}
