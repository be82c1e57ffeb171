//! Scalar f16 instructions: arithmetic, min/max, ldexp, div_fixup, the unary ops and the
//! conversions to and from 16-bit integers (packed f16 lives in `packed.rs`).

use super::arithmetic::{arith, AddForm, Arith};
use super::division::div_fixup;
use super::error::{RuleError, RuleResult};
use super::minmax::minmax;
use super::operands::Ctx;
use super::unary::{Unary, UnaryOp};
use super::Lowerer;
use crate::builder::{Builder, Fmt, Tiny};
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, Handle, IntCmp, Ty};

/// v_add_f16, v_sub_f16, v_subrev_f16 (`Arith::Add`), v_mul_f16 (`Arith::Mul`), v_fma_f16,
/// v_fmamk_f16, v_fmaak_f16 and v_fmac_f16 (`Arith::Fma`; fmac adds to the destination's low
/// half; the literal K of fmamk/fmaak is read as the f16 in its low 16 bits).
/// The scalar f16 arithmetic of [`arith_f16`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum F16Arith {
    Add(AddForm),
    Mul,
    /// v_fma_f16, v_fmamk_f16, v_fmaak_f16: three sources.
    Fma,
    /// v_fmac_f16: the destination's low half is the addend.
    Fmac,
}

pub(super) fn arith_f16(l: &mut Lowerer, c: &Ctx, op: F16Arith) -> RuleResult {
    let kind = match op {
        F16Arith::Add(_) => Arith::Add,
        F16Arith::Mul => Arith::Mul,
        F16Arith::Fma | F16Arith::Fmac => Arith::Fma,
    };
    let ieee = l.mode.ieee;
    let round = l.mode.round16();
    let (fi, fo) = (l.flush_in16(), l.flush_out16());
    let mut a = l.f16_src(c, 0)?;
    let mut bb = l.f16_src(c, 1)?;
    let mut srcs = vec![];
    if op == F16Arith::Add(AddForm::Subrev) {
        std::mem::swap(&mut a, &mut bb);
    }
    if matches!(op, F16Arith::Add(AddForm::Sub | AddForm::Subrev)) {
        bb = l.b.neg_bits(Fmt::F16, bb);
    }
    srcs.push(a);
    srcs.push(bb);
    if op == F16Arith::Fma {
        // fmamk: S0 * K + S1, fmaak: S0 * S1 + K (the decoder orders the sources so)
        srcs.push(l.f16_src(c, 2)?);
    } else if op == F16Arith::Fmac {
        let dsts = c.inst.dsts(l.wave);
        let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
        let acc = l.read32(&d)?;
        srcs.push(l.b.andc(acc, 0xffff));
    }
    // rule: scalar-f16-denormals: flushing follows denorm16 at every rounding mode
    let r = arith(&mut l.b, Fmt::F16, kind, &srcs, round, fi, fo, ieee);
    let si = l.any_inf(Fmt::F16, &srcs);
    let r = l.f16_finish(c, r, si);
    l.write16(c, r)
}

/// v_min_f16 and v_max_f16 (`max`).
pub(super) fn minmax_f16(l: &mut Lowerer, c: &Ctx, max: bool) -> RuleResult {
    let ieee = l.mode.ieee;
    let (fi, fo) = (l.flush_in16(), l.flush_out16());
    let a = l.f16_src(c, 0)?;
    let bb = l.f16_src(c, 1)?;
    let a = l.b.flush_if(Fmt::F16, a, fi);
    let bb = l.b.flush_if(Fmt::F16, bb, fi);
    let r = minmax(&mut l.b, Fmt::F16, a, bb, max, ieee);
    let r = l.b.flush_if(Fmt::F16, r, fo);
    let r = l.f16_result(c, r);
    l.write16(c, r)
}

/// v_ldexp_f16: the exponent operand is a signed 16-bit integer.
pub(super) fn ldexp_f16(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let (fi, fo) = (l.flush_in16(), l.flush_out16());
    let a = l.f16_src(c, 0)?;
    let op1 = l.src_op(c, 1)?;
    let n = l.read32(&op1)?;
    let n = l.b.shlc(n, 16);
    let n = l.b.sarc(n, 16);
    let r16 = l.round16_kept();
    // rule: ldexp-f16: a flushed result is tiny on its exact value
    let r = super::arithmetic::ldexp(l, Fmt::F16, a, n, fi, fo, r16, Tiny::BeforeRounding);
    let ai = l.b.is_inf(Fmt::F16, a);
    let r = l.f16_finish(c, r, ai);
    l.write16(c, r)
}

/// v_div_fixup_f16.
pub(super) fn div_fixup_f16(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let a = l.f16_src(c, 0)?;
    let bb = l.f16_src(c, 1)?;
    let cc = l.f16_src(c, 2)?;
    let r = div_fixup(l, Fmt::F16, a, bb, cc);
    // FP16_OVFL keeps the infinity written for a zero denominator or an infinite
    // numerator and clamps any other infinite quotient
    let b = &mut l.b;
    let z1 = b.is_zero(Fmt::F16, bb);
    let i2 = b.is_inf(Fmt::F16, cc);
    let keep = b.bor(z1, i2);
    let r = l.f16_finish(c, r, keep);
    l.write16(c, r)
}

/// v_cvt_f16_i16 (`signed`) and v_cvt_f16_u16.
pub(super) fn f16_from_int(l: &mut Lowerer, c: &Ctx, signed: bool) -> RuleResult {
    let fo = l.flush_out16();
    let op = l.src_op(c, 0)?;
    let x = l.read32(&op)?;
    let b = &mut l.b;
    let x = if signed {
        let s = b.shlc(x, 16);
        b.sarc(s, 16)
    } else {
        b.andc(x, 0xffff)
    };
    let cv = if signed {
        Convert::S32ToF64
    } else {
        Convert::U32ToF64
    };
    let w = b.cvt(cv, x, Ty::F64);
    let r16 = l.round16_kept();
    let r = l.b.round_to(Fmt::F16, w, None, r16, fo, Tiny::Result);
    let f = l.b.cb(false);
    let r = l.f16_finish(c, r, f);
    l.write16(c, r)
}

/// v_cvt_i16_f16 (`signed`) and v_cvt_u16_f16: truncated and saturated; NaN gives 0.
pub(super) fn int_from_f16(l: &mut Lowerer, c: &Ctx, signed: bool) -> RuleResult {
    let fi = l.flush_in16();
    let x = l.f16_src(c, 0)?;
    let b = &mut l.b;
    let x = b.flush_if(Fmt::F16, x, fi);
    let w = b.f16_to_f64_exact(x);
    let t = b.fu(FloatUn::Trunc, w);
    let (lo, hi) = if signed {
        (-32768.0, 32767.0)
    } else {
        (0.0, 65535.0)
    };
    let r = clamp_to_int(b, t, lo, hi);
    let nan = b.is_nan(Fmt::F16, x);
    let z = b.c32(0);
    let r = b.sel(nan, z, r);
    l.write16(c, r)
}

/// v_cvt_norm_i16_f16 (`signed`) and v_cvt_norm_u16_f16.
pub(super) fn norm_f16(l: &mut Lowerer, c: &Ctx, signed: bool) -> RuleResult {
    let x = l.f16_src(c, 0)?;
    let r = norm16(l, x, signed);
    l.write16(c, r)
}

/// v_cvt_pknorm_i16_f16 (`signed`) and v_cvt_pknorm_u16_f16: two sources, one per half.
pub(super) fn pknorm_f16(l: &mut Lowerer, c: &Ctx, signed: bool) -> RuleResult {
    let x = l.f16_src(c, 0)?;
    let y = l.f16_src(c, 1)?;
    let a = norm16(l, x, signed);
    let bb = norm16(l, y, signed);
    let a = l.b.andc(a, 0xffff);
    let bb = l.b.shlc(bb, 16);
    let v = l.b.or(a, bb);
    l.write_result(c.inst, v)
}

/// v_sat_pk_u8_i16: each signed 16-bit half saturated to an unsigned byte.
pub(super) fn sat_pk_u8_i16(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let op = l.src_op(c, 0)?;
    let x = l.read32(&op)?;
    let b = &mut l.b;
    let mut out = b.c32(0);
    for h in 0..2 {
        let v = b.shlc(x, 16 - 16 * h);
        let v = b.sarc(v, 16);
        let z = b.c32(0);
        let ff = b.c32(255);
        let neg = b.icmpc(IntCmp::LtS, v, 0);
        let big = b.icmpc(IntCmp::GtS, v, 255);
        let v = b.sel(neg, z, v);
        let v = b.sel(big, ff, v);
        let v = b.shlc(v, 8 * h);
        out = b.or(out, v);
    }
    l.write_result(c.inst, out)
}

fn clamp_to_int(b: &mut Builder, t: Handle, lo: f64, hi: f64) -> Handle {
    let lo_c = b.cf64(lo);
    let hi_c = b.cf64(hi);
    let below = b.fcmp(FloatCmp::OrdLt, t, lo_c);
    let t = b.sel(below, lo_c, t);
    let above = b.fcmp(FloatCmp::OrdGt, t, hi_c);
    let t = b.sel(above, hi_c, t);
    b.cvt(Convert::F64ToS32, t, Ty::U32)
}

/// rule: cvt-norm: f16 to a normalised 16-bit integer: clamp to [-1, 1] ([0, 1]), scale by
/// 32767 (65535), round to nearest even; NaN gives 0.
fn norm16(l: &mut Lowerer, x: Handle, signed: bool) -> Handle {
    let fi = l.flush_in16();
    let b = &mut l.b;
    let x = b.flush_if(Fmt::F16, x, fi);
    let w = b.f16_to_f64_exact(x);
    let nan = b.is_nan(Fmt::F16, x);
    norm16_of(b, w, nan, signed)
}

/// The cvt-norm rule on a source widened exactly to f64 (`w`), `nan` when the source is a NaN:
/// clamp, select 0 for a NaN, scale (exact in f64), round to nearest even, as a U32.
pub(super) fn norm16_of(b: &mut Builder, w: Handle, nan: Handle, signed: bool) -> Handle {
    let (lo, k) = if signed {
        (-1.0, 32767.0)
    } else {
        (0.0, 65535.0)
    };
    let lo_c = b.cf64(lo);
    let one = b.cf64(1.0);
    let below = b.fcmp(FloatCmp::OrdLt, w, lo_c);
    let w = b.sel(below, lo_c, w);
    let above = b.fcmp(FloatCmp::OrdGt, w, one);
    let w = b.sel(above, one, w);
    let z = b.cf64(0.0);
    let w = b.sel(nan, z, w);
    let kc = b.cf64(k);
    let s = b.fb(FloatBin::Mul, w, kc);
    let r = b.fu(FloatUn::RoundEven, s);
    b.cvt(Convert::F64ToS32, r, Ty::U32)
}

/// The f16 source 0 of a unary op, flushed (rule: f16-unary-denormals: a denormal input is
/// flushed with denorm16 bit 0 clear), the facts the rules select on, and the unflushed input.
fn unary_input(l: &mut Lowerer, c: &Ctx) -> RuleResult<(Unary, Handle)> {
    let ieee = l.mode.ieee;
    let (fi, fo) = (l.flush_in16(), l.flush_out16());
    let round = l.mode.round16();
    let x0 = l.f16_src(c, 0)?;
    let b = &mut l.b;
    let x = b.flush_if(Fmt::F16, x0, fi);
    Ok((Unary::new(b, Fmt::F16, x, ieee, round, fo), x0))
}

/// v_OP_f16 for the unary ops with a shared rule: computed exactly (or as closely as f64
/// allows) and rounded once to f16.
pub(super) fn unary_f16(l: &mut Lowerer, c: &Ctx, op: UnaryOp) -> RuleResult {
    let (u, x0) = unary_input(l, c)?;
    let r = u.rule(&mut l.b, op);
    let si = l.b.is_inf(Fmt::F16, x0);
    let r = l.f16_finish(c, r, si);
    l.write16(c, r)
}

/// v_frexp_exp_i16_f16.
pub(super) fn frexp_exp_f16(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let (u, _) = unary_input(l, c)?;
    let r = u.frexp_exp(&mut l.b);
    l.write16(c, r)
}
