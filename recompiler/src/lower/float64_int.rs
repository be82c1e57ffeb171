//! f64 <-> 32-bit integer conversions (v_cvt_f64_i32/u32, v_cvt_i32/u32_f64),
//! v_frexp_exp_i32_f64 and v_div_scale_f64 (rule: div-scale, with the f64 constants).

use super::division::{scale_cases, ScaleLimits};
use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Builder, Fmt};
use crate::ir::{Convert, FloatCmp, FloatUn, Handle, IntCmp, Ty};

/// v_cvt_f64_i32 (`signed`) and v_cvt_f64_u32: exact; the f64 result modifiers apply.
pub(super) fn f64_from_int(l: &mut Lowerer, c: &Ctx, signed: bool) -> RuleResult {
    if c.mods.sdwa.is_some() {
        return Err(RuleError::modifier(
            "SDWA on a 64-bit result is not modelled",
        ));
    }
    let x = *l
        .int_srcs(c)?
        .first()
        .ok_or(RuleError::operand("missing source 0"))?;
    let b = &mut l.b;
    let cv = if signed {
        Convert::S32ToF64
    } else {
        Convert::U32ToF64
    };
    let w = b.cvt(cv, x, Ty::F64);
    let r = b.bits_of_f64(w);
    let r = l.f64_result(c, r);
    l.write64(c, r)
}

/// v_cvt_i32_f64 (`signed`) and v_cvt_u32_f64: truncated toward zero and saturated; NaN gives
/// 0 (rule: f64-to-int). The truncation is on the bits (rule: f64-round-integral).
pub(super) fn int_from_f64(l: &mut Lowerer, c: &Ctx, signed: bool) -> RuleResult {
    let x = l.f64_src(c, 0)?;
    let b = &mut l.b;
    let f = Fmt::F64;
    // rule: f64-to-int
    let t = b.round_integral(f, FloatUn::Trunc, x);
    let t = b.f64_of(t);
    let (lo, hi, cv) = if signed {
        (-2147483648.0, 2147483647.0, Convert::F64ToS32)
    } else {
        (0.0, 4294967295.0, Convert::F64ToU32)
    };
    let lo_c = b.cf64(lo);
    let hi_c = b.cf64(hi);
    let below = b.fcmp(FloatCmp::OrdLt, t, lo_c);
    let t = b.sel(below, lo_c, t);
    let above = b.fcmp(FloatCmp::OrdGt, t, hi_c);
    let t = b.sel(above, hi_c, t);
    let nan = b.is_nan(f, x);
    let z = b.cf64(0.0);
    let t = b.sel(nan, z, t);
    let r = b.cvt(cv, t, Ty::U32);
    l.write_result(c.inst, r)
}

/// v_frexp_exp_i32_f64: the exponent of the value as 2^e * [0.5, 1) (denormals normalised, as
/// v_frexp_mant_f64 does); 0 for zero, infinity and NaN.
pub(super) fn frexp_exp_f64(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let x = l.f64_src(c, 0)?;
    let b = &mut l.b;
    let f = Fmt::F64;
    let e = biased_exp(b, x);
    let e = b.trunc64(e);
    let e = b.addc(e, (-1022i64) as u64);
    // a denormal is m * 2^-1074 with m < 2^52: its exponent is msb(m) - 1073
    let m = b.andc(x, f.man_mask());
    let mhi = b.hi32(m);
    let mlo = b.trunc64(m);
    let msb_hi = b.iu(crate::ir::IntUn::FindMsbU, mhi);
    let msb_lo = b.iu(crate::ir::IntUn::FindMsbU, mlo);
    let hi_set = b.nec(mhi, 0);
    let msb_hi = b.addc(msb_hi, 32);
    let msb = b.sel(hi_set, msb_hi, msb_lo);
    let ed = b.addc(msb, (-1073i64) as u32 as u64);
    let den = b.is_denorm(f, x);
    let e = b.sel(den, ed, e);
    let nan = b.is_nan(f, x);
    let inf = b.is_inf(f, x);
    let zero = b.is_zero(f, x);
    let special = b.bor(nan, inf);
    let special = b.bor(special, zero);
    let z = b.c32(0);
    let r = b.sel(special, z, e);
    l.write_result(c.inst, r)
}

fn biased_exp(b: &mut Builder, x: Handle) -> Handle {
    let e = b.shrc(x, 52);
    b.andc(e, 0x7ff)
}

/// rule: div-scale, f64 form: as v_div_scale_f32 with the f64 constants. S1 is the
/// denominator, S2 the numerator; with d = exponent(S2) - exponent(S1) on the biased exponent
/// fields (2047 for inf/NaN), the first matching case decides: d >= 768: VCC, S0 == S1 scaled
/// by 2^128; S1 denormal: 2^128; exponent(S1) >= 2045 and d <= -768: VCC, S0 == S1 scaled by
/// 2^-128; exponent(S1) >= 2045: 2^-128; d <= -768: VCC, S0 != S1 scaled by 2^128;
/// exponent(S2) <= 53: 2^128. A zero S1 or S2 gives the default NaN 0xfff8000000000000 (VCC
/// still from the cases); a NaN S0 is passed through unchanged. Inputs are flushed with f64
/// input flushing (rule: f64-denormals).
pub(super) fn div_scale_f64(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let fi = l.flush_in16();
    let f = Fmt::F64;
    let s0 = l.f64_src(c, 0)?;
    let s1 = l.f64_src(c, 1)?;
    let s2 = l.f64_src(c, 2)?;
    let b = &mut l.b;
    let s0 = b.flush_if(f, s0, fi);
    let s1 = b.flush_if(f, s1, fi);
    let s2 = b.flush_if(f, s2, fi);
    let up = scale(b, s0, 128);
    let down = scale(b, s0, -128);
    let limits = ScaleLimits {
        d: 768,
        huge1: 2045,
        tiny2: 53,
    };
    let (r, vcc) = scale_cases(b, f, [s0, s1, s2], up, down, limits);
    l.write64(c, r)?;
    let dsts = c.inst.dsts(l.wave);
    let sd = *dsts.get(1).ok_or(RuleError::operand(
        "v_div_scale_f64 without a mask destination",
    ))?;
    l.write_mask(&sd, vcc)
}

/// `x * 2^k` rounded to nearest even on the bits (rule: f64-fma-exact); NaN, infinity and zero
/// unchanged.
fn scale(b: &mut Builder, x: Handle, k: i64) -> Handle {
    let f = Fmt::F64;
    let one = b.c64(f.one());
    let z = b.andc(x, f.sign_mask());
    let k = b.c64(k as u64);
    let r = b.fma_f64_bits(x, one, z, k);
    let a = b.abs_bits(f, x);
    let special = b.icmpc(IntCmp::GeU, a, f.exp_mask());
    let zero = b.is_zero(f, x);
    let keep = b.bor(special, zero);
    b.sel(keep, x, r)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::{run, run_in};
    use rdnaprobe_isa::{FloatMode, Target};

    fn lo_hi(v: u64) -> (u32, u32) {
        (v as u32, (v >> 32) as u32)
    }

    fn to_f64(op: &str, x: u32) -> u64 {
        let o = run(&format!("{op} v[10:11], v4"), [x, 0, 0, 0, 0, 0], 0);
        u64::from(o[0]) | u64::from(o[1]) << 32
    }

    fn from_f64(op: &str, x: u64) -> u32 {
        let (lo, hi) = lo_hi(x);
        run(&format!("{op} v10, v[4:5]"), [lo, hi, 0, 0, 0, 0], 0)[0]
    }

    #[test]
    fn int_to_f64_is_exact() {
        let i = "v_cvt_f64_i32";
        let u = "v_cvt_f64_u32";
        assert_eq!(to_f64(i, 0), 0);
        assert_eq!(to_f64(i, 0xffff_ffff), (-1.0f64).to_bits());
        assert_eq!(to_f64(i, 0x8000_0000), (-2147483648.0f64).to_bits());
        assert_eq!(to_f64(u, 0xffff_ffff), 4294967295.0f64.to_bits());
        assert_eq!(to_f64(u, 0x8000_0000), 2147483648.0f64.to_bits());
        // clamp maps into [0, 1]
        let o = run(
            "v_cvt_f64_i32_e64 v[10:11], v4 clamp",
            [7, 0, 0, 0, 0, 0],
            0,
        );
        assert_eq!(u64::from(o[0]) | u64::from(o[1]) << 32, 1.0f64.to_bits());
    }

    #[test]
    fn f64_to_int_truncates_and_saturates() {
        let i = "v_cvt_i32_f64";
        let u = "v_cvt_u32_f64";
        assert_eq!(from_f64(i, (-2.75f64).to_bits()), (-2i32) as u32);
        assert_eq!(from_f64(i, 2.75f64.to_bits()), 2);
        assert_eq!(from_f64(i, 3e9f64.to_bits()), 0x7fff_ffff);
        assert_eq!(from_f64(i, (-3e9f64).to_bits()), 0x8000_0000);
        assert_eq!(from_f64(i, (-2147483648.9f64).to_bits()), 0x8000_0000);
        assert_eq!(from_f64(i, f64::INFINITY.to_bits()), 0x7fff_ffff);
        assert_eq!(from_f64(i, 0x7ff8_0000_0000_0000), 0);
        assert_eq!(from_f64(i, 0xfff0_0000_0000_0001), 0);
        assert_eq!(from_f64(u, (-0.9f64).to_bits()), 0);
        assert_eq!(from_f64(u, (-5.0f64).to_bits()), 0);
        assert_eq!(from_f64(u, 4294967295.5f64.to_bits()), 0xffff_ffff);
        assert_eq!(from_f64(u, 1e300f64.to_bits()), 0xffff_ffff);
        assert_eq!(from_f64(u, f64::NAN.to_bits()), 0);
        assert_eq!(from_f64(u, 1.0e-310f64.to_bits()), 0);
    }

    #[test]
    fn frexp_exp_f64_normalises_denormals() {
        let op = "v_frexp_exp_i32_f64";
        assert_eq!(from_f64(op, 1.0f64.to_bits()), 1);
        assert_eq!(from_f64(op, 0.75f64.to_bits()), 0);
        assert_eq!(from_f64(op, (-8.0f64).to_bits()), 4);
        assert_eq!(from_f64(op, f64::MAX.to_bits()), 1024);
        assert_eq!(from_f64(op, 1), (-1073i32) as u32); // 2^-1074
        assert_eq!(from_f64(op, 0x000f_ffff_ffff_ffff), (-1022i32) as u32);
        assert_eq!(from_f64(op, 0x0000_0001_0000_0000), (-1041i32) as u32); // 2^-1042
        assert_eq!(from_f64(op, 0x0010_0000_0000_0000), (-1021i32) as u32);
        assert_eq!(from_f64(op, 0x8000_0000_0000_0000), 0);
        assert_eq!(from_f64(op, f64::INFINITY.to_bits()), 0);
        assert_eq!(from_f64(op, f64::NAN.to_bits()), 0);
    }

    fn div_scale(mode: FloatMode, s0: u64, s1: u64, s2: u64) -> (u64, u32) {
        let t = "v_div_scale_f64 v[10:11], s20, v[4:5], v[6:7], v[8:9]\n\
                 v_cndmask_b32 v12, 0, 1, s20";
        let (a, b) = lo_hi(s0);
        let (c, d) = lo_hi(s1);
        let (e, f) = lo_hi(s2);
        let o = run_in(t, mode, Target::Gfx1030, [a, b, c, d, e, f], 0);
        (u64::from(o[0]) | u64::from(o[1]) << 32, o[2])
    }

    #[test]
    fn div_scale_f64_follows_the_exponent_cases() {
        let m = FloatMode::DEFAULT;
        let one = 1.0f64.to_bits();
        let two = 2.0f64.to_bits();
        // ordinary operands: unchanged, no VCC
        assert_eq!(div_scale(m, two, two, one), (two, 0));
        // a zero denominator or numerator gives the default NaN
        assert_eq!(div_scale(m, two, 0, one).0, 0xfff8_0000_0000_0000);
        assert_eq!(div_scale(m, two, two, 0).0, 0xfff8_0000_0000_0000);
        // a NaN S0 passes unchanged
        let snan = 0x7ff0_0000_0000_0001;
        assert_eq!(div_scale(m, snan, two, one), (snan, 0));
        // d >= 768 with S0 == S1: scaled up by 2^128, VCC
        let big = 2f64.powi(800).to_bits();
        let up = 2f64.powi(129).to_bits();
        assert_eq!(div_scale(m, two, two, big), (up, 1));
        // d = 767: no case (the numerator exponent is large)
        let n767 = 2f64.powi(768).to_bits();
        assert_eq!(div_scale(m, two, two, n767), (two, 0));
        // a huge denominator (exponent field >= 2045): scaled down, no VCC
        let h = 2f64.powi(1022).to_bits();
        let n300 = 2f64.powi(300).to_bits();
        assert_eq!(div_scale(m, h, h, n300), (2f64.powi(894).to_bits(), 0));
        // ... and with d <= -768: VCC, S0 == S1 scaled down
        assert_eq!(div_scale(m, h, h, one), (2f64.powi(894).to_bits(), 1));
        // a denormal denominator (kept: the default denorm16 = 3): scaled up
        let den = 0x0000_0000_0000_0003;
        let n = 2f64.powi(-300).to_bits();
        let (r, v) = div_scale(m, den, den, n);
        assert_eq!((r, v), ((3.0 * 2f64.powi(-1074 + 128)).to_bits(), 0));
        // flushed with denorm16 = 0: the denominator reads as zero
        let flush = FloatMode {
            denorm16: 0,
            ..FloatMode::DEFAULT
        };
        assert_eq!(div_scale(flush, den, den, n).0, 0xfff8_0000_0000_0000);
        // a numerator exponent field <= 53: scaled up
        let tiny = 2f64.powi(-1000).to_bits();
        let s1 = 2f64.powi(-300).to_bits();
        assert_eq!(div_scale(m, tiny, s1, tiny), (2f64.powi(-872).to_bits(), 0));
        // d <= -768 with S0 != S1: scaled up, VCC
        let dn = 2f64.powi(-800).to_bits();
        assert_eq!(div_scale(m, dn, one, dn), (2f64.powi(-672).to_bits(), 1));
        // ... and S0 == S1: unchanged, VCC
        assert_eq!(div_scale(m, one, one, dn), (one, 1));
    }
}
