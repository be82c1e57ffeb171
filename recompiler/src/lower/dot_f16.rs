//! The f16 dot products into an f32 accumulator: v_dot2_f32_f16 (VOP3P) and v_dot2c_f32_f16
//! (VOP2, the destination is the accumulator). Rule: dot2-f32-f16.
//!
//! The two f16 products are exact in f64, and so are the errors of the two TwoSums that add
//! them to the f32 accumulator; the last step adds those errors with rounding to odd, which
//! keeps the final f32 rounding correct in every mode (Boldo and Melquiond's correctly rounded
//! sum of three terms). So the three-term sum is rounded once, like an fma.

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Builder, Fmt, Tiny};
use crate::ir::{FloatBin, FloatCmp, Handle, IntCmp};
use rdnaprobe_isa::{Encoding, Round};

/// The rule-facts of one f16 source element: its f32 bits and its exact f64 value.
struct Elem {
    bits32: Handle,
    w: Handle,
}

/// rule: dot2-f32-f16. D = S0.lo * S1.lo + S0.hi * S1.hi + S2 (v_dot2c_f32_f16: + D), the
/// exact sum rounded once in `round32`; f16 elements flushed with `denorm16` input flushing,
/// the accumulator with `denorm32`, the result with `denorm32` output flushing (tininess after
/// rounding). A NaN element or accumulator gives the first NaN in the order S0.lo, S1.lo,
/// S0.hi, S1.hi, S2, always quieted; an invalid product or sum gives 0xffc00000. VOP3P: op_sel
/// / op_sel_hi pick the halves of S0 and S1 and neg_lo / neg_hi negate them; neg_lo[2]
/// negates the accumulator; op_sel[2] and neg_hi[2] are refused, op_sel_hi[2] is ignored
/// (assemblers write it set or clear).
/// `acc_dst`: v_dot2c_f32_f16, whose accumulator is its destination.
pub(super) fn dot2_f32_f16(l: &mut Lowerer, c: &Ctx, acc_dst: bool) -> RuleResult {
    if c.mods.omod != 0 {
        return Err(RuleError::modifier(format!(
            "{}: omod has no rule here",
            c.op
        )));
    }
    let (fi16, fi32, fo) = (l.flush_in16(), l.flush_in32(), l.flush_out32());
    let round = l.mode.round32();
    // [S0.lo, S1.lo, S0.hi, S1.hi] as f16 bits, then the accumulator as f32 bits
    let mut h = Vec::new();
    let acc = if c.enc == Encoding::VOP3P {
        if c.mods.op_sel & 4 != 0 || c.mods.neg_hi & 4 != 0 {
            return Err(RuleError::modifier(format!(
                "{}: op_sel or neg_hi on the f32 accumulator has no rule",
                c.op
            )));
        }
        for hi in [false, true] {
            for i in 0..2 {
                h.push(l.pk_src(c, i, hi)?);
            }
        }
        let a = l.read32(&l.src_op(c, 2)?)?;
        if c.mods.neg_lo & 4 != 0 {
            l.b.neg_bits(Fmt::F32, a)
        } else {
            a
        }
    } else {
        if c.mods.sdwa.is_some() || c.mods.abs.iter().chain(&c.mods.neg).any(|&m| m) {
            return Err(RuleError::modifier(format!(
                "{}: source modifiers have no rule here",
                c.op
            )));
        }
        let s0 = l.read32(&l.src_op(c, 0)?)?;
        let s1 = l.read32(&l.src_op(c, 1)?)?;
        for v in [s0, s1] {
            h.push(l.b.andc(v, 0xffff));
        }
        for v in [s0, s1] {
            h.push(l.b.shrc(v, 16));
        }
        let acc = if acc_dst {
            let dsts = c.inst.dsts(l.wave);
            *dsts.first().ok_or(RuleError::operand("no destination"))?
        } else {
            l.src_op(c, 2)?
        };
        l.read32(&acc)?
    };
    let b = &mut l.b;
    let elems: Vec<Elem> = h
        .iter()
        .map(|&x| {
            let x = b.flush_if(Fmt::F16, x, fi16);
            Elem {
                bits32: b.f16_to_f32_bits(x),
                w: b.f16_to_f64_exact(x),
            }
        })
        .collect();
    let acc = b.flush_if(Fmt::F32, acc, fi32);
    let r = dot2_sum(b, &elems, acc, round, fo);
    let r = l.f32_result(c, r);
    l.write_result(c.inst, r)
}

/// The rounded sum of `e[0] * e[1] + e[2] * e[3] + acc` with the special cases selected.
fn dot2_sum(b: &mut Builder, e: &[Elem], acc: Handle, round: Round, fo: bool) -> Handle {
    let f = Fmt::F32;
    let wc = b.f32_to_f64_exact(acc);
    let p1 = b.fb(FloatBin::Mul, e[0].w, e[1].w);
    let p2 = b.fb(FloatBin::Mul, e[2].w, e[3].w);
    // finite: the sum rounded once (products exact, TwoSum errors exact, round to odd)
    let (s1, e1) = b.two_sum(p1, p2);
    let (s2, e2) = b.two_sum(s1, wc);
    let t = round_to_odd_sum(b, e1, e2);
    let (s3, e3) = b.two_sum(s2, t);
    let zero = b.cf64(0.0);
    let naive = b.fb(FloatBin::Add, s1, wc);
    let nb = b.bits_of_f64(naive);
    let mag = b.andc(nb, !Fmt::F64.sign_mask());
    let finite = b.icmpc(IntCmp::LtU, mag, Fmt::F64.exp_mask());
    let v = b.sel(finite, s3, zero);
    let r = b.round_to(f, v, Some(e3), round, fo, Tiny::Result);
    // an exact zero: -0 when every term is negative (toward -inf: when any is)
    let s3z = b.fcmp(FloatCmp::OrdEq, s3, zero);
    let e3z = b.fcmp(FloatCmp::OrdEq, e3, zero);
    let exact_zero = b.band(s3z, e3z);
    let signs: Vec<Handle> = [p1, p2, wc]
        .iter()
        .map(|&x| {
            let xb = b.bits_of_f64(x);
            b.bit(xb, 1 << 63)
        })
        .collect();
    let neg = if round == Round::MinusInf {
        let any = b.bor(signs[0], signs[1]);
        b.bor(any, signs[2])
    } else {
        let all = b.band(signs[0], signs[1]);
        b.band(all, signs[2])
    };
    let nz = b.c32(0x8000_0000);
    let pz = b.c32(0);
    let zv = b.sel(neg, nz, pz);
    let r = b.sel(exact_zero, zv, r);
    // an infinite term: the naive f64 sum is that infinity, or NaN for an invalid operation
    let naive_nan = b.fcmp(FloatCmp::Unord, naive, naive);
    let dn = b.c32(f.default_nan() as u32);
    let sign = b.shrc(nb, 32);
    let sign = b.trunc64(sign);
    let sign = b.andc(sign, 0x8000_0000);
    let inf = b.orc(sign, 0x7f80_0000);
    let special = b.sel(naive_nan, dn, inf);
    let r = b.sel(finite, r, special);
    // NaN operands: the first in S0.lo, S1.lo, S0.hi, S1.hi, S2 order, always quieted
    let srcs = [e[0].bits32, e[1].bits32, e[2].bits32, e[3].bits32, acc];
    let (any_nan, pick) = b.first_nan(f, &srcs, true);
    b.sel(any_nan, pick, r)
}

/// `x + y` rounded to odd in f64: the round-to-nearest sum, moved toward zero by one ulp when
/// it rounded away from zero, with its last bit set when inexact (`x`, `y` finite, no f64
/// denormal results).
fn round_to_odd_sum(b: &mut Builder, x: Handle, y: Handle) -> Handle {
    let (t, te) = b.two_sum(x, y);
    let zero = b.cf64(0.0);
    let exact = b.fcmp(FloatCmp::OrdEq, te, zero);
    let tb = b.bits_of_f64(t);
    let teb = b.bits_of_f64(te);
    let diff = b.xor(tb, teb);
    let away = b.bit(diff, 1 << 63);
    let one = b.c64(1);
    let down = b.sub(tb, one);
    let tr = b.sel(away, down, tb);
    let odd = b.orc(tr, 1);
    let odd = b.f64_of(odd);
    b.sel(exact, t, odd)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::{out0, run_in};
    use rdnaprobe_isa::{FloatMode, Target};

    const T: &str = "v_dot2_f32_f16 v10, v4, v5, v6";

    #[test]
    fn sums_the_products_and_the_accumulator() {
        // 1.0 * 2.0 + 3.0 * 0.5 + 0.25 = 3.75
        assert_eq!(out0(T, 0x4200_3c00, 0x3800_4000, 0x3e80_0000), 0x4070_0000);
        // the dot2c form accumulates into the destination
        let t = "v_mov_b32 v10, 0x3e800000\nv_dot2c_f32_f16 v10, v4, v5";
        assert_eq!(out0(t, 0x4200_3c00, 0x3800_4000, 0), 0x4070_0000);
        // op_sel_hi clear on the f16 sources: both products read the low halves
        let t = "v_dot2_f32_f16 v10, v4, v5, v6 op_sel_hi:[0,0,1]";
        assert_eq!(out0(t, 0x4200_3c00, 0x3800_4000, 0), 0x4080_0000);
        // neg_lo negates the low products and the accumulator
        let t = "v_dot2_f32_f16 v10, v4, v5, v6 neg_lo:[1,0,1]";
        // -2.0 + 1.5 - 0.25
        assert_eq!(out0(t, 0x4200_3c00, 0x3800_4000, 0x3e80_0000), 0xbf40_0000);
    }

    #[test]
    fn rounds_the_three_terms_once() {
        // 1.0 * 1.0 + 2^-24 * 2^-24 (f16 denormal 1 times itself: 2^-48) + 2^-24: the exact
        // sum lies just above the tie 1 + 2^-24, so it rounds up to 1 + 2^-23 (two roundings
        // would give the tie and round to even, 1.0)
        let r = out0(T, 0x0001_3c00, 0x0001_3c00, 0x3380_0000);
        assert_eq!(r, 0x3f80_0001);
        // toward zero the same sum gives 1.0
        let m = FloatMode {
            round32: 3,
            ..FloatMode::DEFAULT
        };
        let o = run_in(
            T,
            m,
            Target::Gfx1036,
            [0x0001_3c00, 0x0001_3c00, 0x3380_0000, 0, 0, 0],
            0,
        );
        assert_eq!(o[0], 0x3f80_0000);
    }

    #[test]
    fn specials_follow_the_rule() {
        // inf * 0 is invalid: the default NaN
        assert_eq!(out0(T, 0x0000_7c00, 0x0000_0000, 0), 0xffc0_0000);
        // inf - inf is invalid
        assert_eq!(out0(T, 0x3c00_7c00, 0x3c00_3c00, 0xff80_0000), 0xffc0_0000);
        // an infinite product wins over a finite accumulator
        assert_eq!(out0(T, 0x0000_fc00, 0x0000_3c00, 0x3f80_0000), 0xff80_0000);
        // a signaling f32 accumulator comes back quieted; an f16 NaN element wins over it
        assert_eq!(out0(T, 0, 0, 0x7f81_2345), 0x7fc1_2345);
        assert_eq!(out0(T, 0x0000_7d01, 0, 0x7f81_2345), 0x7fe0_2000);
        // exact zero: +0 unless all terms are negative
        assert_eq!(out0(T, 0x3c00_3c00, 0xbc00_3c00, 0), 0);
        assert_eq!(out0(T, 0x8000_8000, 0x0000_0000, 0x8000_0000), 0x8000_0000);
    }

    #[test]
    fn denormals_follow_both_fields() {
        // f16 denormal 2^-24 times 1.0 plus 0: kept by default, flushed with denorm16 = 0
        assert_eq!(out0(T, 0x0001, 0x3c00, 0), 0x3380_0000);
        let m = FloatMode {
            denorm16: 0,
            ..FloatMode::DEFAULT
        };
        let o = run_in(T, m, Target::Gfx1036, [0x0001, 0x3c00, 0, 0, 0, 0], 0);
        assert_eq!(o[0], 0);
        // an f32 denormal accumulator is flushed with denorm32 = 0 (the default), kept with 3
        assert_eq!(out0(T, 0, 0, 1), 0);
        let m = FloatMode {
            denorm32: 3,
            ..FloatMode::DEFAULT
        };
        let o = run_in(T, m, Target::Gfx1036, [0, 0, 1, 0, 0, 0], 0);
        assert_eq!(o[0], 1);
    }
}
