//! f32 arithmetic: add/sub, mul, fma and the legacy (DX9) forms through one exact-then-round
//! pipeline ([`arith`], shared with f16), ldexp and v_mullit_f32.

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Builder, Fmt, Tiny};
use crate::ir::{FloatBin, Handle};
use rdnaprobe_isa::Round;

/// Arithmetic kinds sharing the exact-then-round pipeline.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Arith {
    Add,
    Mul,
    Fma,
    /// DX9 multiply: a zero factor gives +0 whatever the other factor.
    MulLegacy,
    /// Fused legacy multiply-add (gfx103x v_fma_legacy_f32 / v_fmac_legacy_f32).
    FmaLegacy,
    /// Separately rounded legacy multiply-add (gfx1010/gfx1013 v_mad_legacy_f32 / v_mac_legacy_f32).
    MadLegacy,
}

/// The exact-then-round arithmetic of add/mul/fma and the legacy forms.
/// rules: nan-propagation, denormal-flush, tininess-after-rounding, legacy-zero, rounding.
#[allow(clippy::too_many_arguments)]
pub(super) fn arith(
    b: &mut Builder,
    fmt: Fmt,
    kind: Arith,
    srcs: &[Handle],
    round: Round,
    flush_in: bool,
    flush_out: bool,
    ieee: bool,
) -> Handle {
    let legacy = matches!(kind, Arith::MulLegacy | Arith::FmaLegacy | Arith::MadLegacy);
    // rule: legacy-mad: the legacy multiply-adds flush their sources in every denormal mode,
    // the fused gfx103x form too (its product and result follow the mode)
    let flush_in = flush_in || matches!(kind, Arith::MadLegacy | Arith::FmaLegacy);
    let flush_out = flush_out || kind == Arith::MadLegacy;
    let s: Vec<Handle> = srcs.iter().map(|&x| b.flush_if(fmt, x, flush_in)).collect();
    let w: Vec<Handle> = s.iter().map(|&x| b.to_f64(fmt, x)).collect();
    let dn = b.cf(fmt, fmt.default_nan());
    match kind {
        Arith::Add => {
            let (any_nan, pick) = b.first_nan(fmt, &s, ieee);
            let ia = b.is_inf(fmt, s[0]);
            let ib = b.is_inf(fmt, s[1]);
            let x = b.xor(s[0], s[1]);
            let diff = b.bit(x, fmt.sign_mask());
            let both = b.band(ia, ib);
            let invalid = b.band(both, diff);
            let v = b.round_sum(fmt, w[0], w[1], round, flush_out, Tiny::Result);
            let v = b.sel(invalid, dn, v);
            b.sel(any_nan, pick, v)
        }
        Arith::Mul | Arith::MulLegacy => {
            let (any_nan, pick) = b.first_nan(fmt, &s[..2], ieee);
            let za = b.is_zero(fmt, s[0]);
            let zb = b.is_zero(fmt, s[1]);
            let ia = b.is_inf(fmt, s[0]);
            let ib = b.is_inf(fmt, s[1]);
            let i1 = b.band(za, ib);
            let i2 = b.band(ia, zb);
            let invalid = b.bor(i1, i2);
            let p = b.fb(FloatBin::Mul, w[0], w[1]);
            let v = b.round_to(fmt, p, None, round, flush_out, Tiny::AfterRounding);
            let v = b.sel(invalid, dn, v);
            let v = b.sel(any_nan, pick, v);
            if legacy {
                // rule: legacy-zero: a zero factor gives +0 even against inf or NaN
                let z = b.bor(za, zb);
                let pz = b.cf(fmt, 0);
                b.sel(z, pz, v)
            } else {
                v
            }
        }
        Arith::Fma | Arith::FmaLegacy | Arith::MadLegacy => {
            let (any_nan, pick) = b.first_nan(fmt, &s[..3], ieee);
            let za = b.is_zero(fmt, s[0]);
            let zb = b.is_zero(fmt, s[1]);
            let ia = b.is_inf(fmt, s[0]);
            let ib = b.is_inf(fmt, s[1]);
            let zc = b.is_zero(fmt, s[2]);
            let ic = b.is_inf(fmt, s[2]);
            let i1 = b.band(za, ib);
            let i2 = b.band(ia, zb);
            let inv_prod = b.bor(i1, i2);
            let pzero = b.bor(za, zb);
            let pinf0 = b.bor(ia, ib);
            let npz = b.bnot(pzero);
            let pinf = b.band(pinf0, npz);
            let x0 = b.xor(s[0], s[1]);
            let x3 = b.xor(x0, s[2]);
            let sd = b.bit(x3, fmt.sign_mask());
            let pi_ci = b.band(pinf, ic);
            let inv_sum = b.band(pi_ci, sd);
            let mut p = b.fb(FloatBin::Mul, w[0], w[1]);
            let mut pbits_zero = pzero;
            if legacy {
                // rule: legacy-zero: the product of a zero factor is +0
                let z = b.cf64(0.0);
                p = b.sel(pzero, z, p);
            }
            if kind == Arith::MadLegacy {
                // rule: legacy-mad: the product is rounded to f32 (tiny on its exact value:
                // flushed) before the add
                let prb = b.round_to(fmt, p, None, round, true, Tiny::BeforeRounding);
                pbits_zero = b.is_zero(fmt, prb);
                let pz = b.cf(fmt, 0);
                let prb = b.sel(pzero, pz, prb);
                p = b.to_f64(fmt, prb);
            }
            let sum = b.round_sum(fmt, p, w[2], round, flush_out, Tiny::Result);
            let mul_only = b.round_to(fmt, p, None, round, flush_out, Tiny::AfterRounding);
            // rule: tininess-after-rounding: with a zero addend the fused op flushes like a
            // multiply; a zero product takes the sum's zero sign rule
            let pz = if kind == Arith::MadLegacy {
                pbits_zero
            } else {
                pzero
            };
            let npz2 = b.bnot(pz);
            let use_mul = b.band(zc, npz2);
            let v = b.sel(use_mul, mul_only, sum);
            let v = b.sel(inv_sum, dn, v);
            let v = b.sel(any_nan, pick, v);
            if legacy {
                // legacy: a zero factor hides a NaN or infinite factor; a NaN src2 still wins
                let nan_c = b.is_nan(fmt, s[2]);
                let qc = b.nan_out(fmt, s[2], ieee);
                let zsum = b.round_sum(fmt, p, w[2], round, flush_out, Tiny::Result);
                let zr = b.sel(nan_c, qc, zsum);
                let zr = b.sel(ic, s[2], zr);
                b.sel(pzero, zr, v)
            } else {
                // an invalid product gives the default NaN even when src2 is a NaN
                b.sel(inv_prod, dn, v)
            }
        }
    }
}

/// Which of an add's forms: `src0 + src1`, `src0 - src1` or `src1 - src0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AddForm {
    Add,
    Sub,
    Subrev,
}

/// v_add_f32, v_sub_f32, v_subrev_f32.
pub(super) fn add_f32(l: &mut Lowerer, c: &Ctx, form: AddForm) -> RuleResult {
    let ieee = l.mode.ieee;
    let round = l.mode.round32();
    let (fi, fo) = (l.flush_in32(), l.flush_out32());
    let mut a = l.f32_src(c, 0)?;
    let mut bb = l.f32_src(c, 1)?;
    if form == AddForm::Subrev {
        std::mem::swap(&mut a, &mut bb);
    }
    if form != AddForm::Add {
        // the hardware adds the negated subtrahend (rule: nan-propagation)
        bb = l.b.neg_bits(Fmt::F32, bb);
    }
    let r = arith(
        &mut l.b,
        Fmt::F32,
        Arith::Add,
        &[a, bb],
        round,
        fi,
        fo,
        ieee,
    );
    finish_f32(l, c, r)
}

/// v_mul_f32 (`Arith::Mul`) and v_mul_legacy_f32 (`Arith::MulLegacy`).
pub(super) fn mul_f32(l: &mut Lowerer, c: &Ctx, kind: Arith) -> RuleResult {
    let ieee = l.mode.ieee;
    let round = l.mode.round32();
    let (fi, fo) = (l.flush_in32(), l.flush_out32());
    let a = l.f32_src(c, 0)?;
    let bb = l.f32_src(c, 1)?;
    let r = arith(&mut l.b, Fmt::F32, kind, &[a, bb], round, fi, fo, ieee);
    finish_f32(l, c, r)
}

/// The f32 multiply-adds: v_fma_f32, v_fmamk_f32, v_fmaak_f32 and the legacy forms with three
/// sources; v_fmac_f32 and v_fmac_legacy_f32 (`accumulate`) add to the destination register.
pub(super) fn fma_f32(l: &mut Lowerer, c: &Ctx, kind: Arith, accumulate: bool) -> RuleResult {
    let ieee = l.mode.ieee;
    let round = l.mode.round32();
    let (fi, fo) = (l.flush_in32(), l.flush_out32());
    let a = l.f32_src(c, 0)?;
    let bb = l.f32_src(c, 1)?;
    let cc = if accumulate {
        // the accumulator is the destination register
        let dsts = c.inst.dsts(l.wave);
        let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
        l.read32(&d)?
    } else {
        l.f32_src(c, 2)?
    };
    let r = arith(&mut l.b, Fmt::F32, kind, &[a, bb, cc], round, fi, fo, ieee);
    finish_f32(l, c, r)
}

/// v_ldexp_f32.
pub(super) fn ldexp_f32(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let round = l.mode.round32();
    let (fi, fo) = (l.flush_in32(), l.flush_out32());
    let a = l.f32_src(c, 0)?;
    let op1 = l.src_op(c, 1)?;
    let n = l.read32(&op1)?;
    let r = ldexp(l, Fmt::F32, a, n, fi, fo, round, Tiny::Result);
    finish_f32(l, c, r)
}

/// v_mullit_f32.
pub(super) fn mullit_f32(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let r = mullit(l, c)?;
    finish_f32(l, c, r)
}

/// Applies the f32 result modifiers and writes the result.
pub(super) fn finish_f32(l: &mut Lowerer, c: &Ctx, r: Handle) -> RuleResult {
    let r = l.f32_result(c, r);
    l.write_result(c.inst, r)
}

/// rule: ldexp: the exact x * 2^n rounded once in the mode (denormal results too).
#[allow(clippy::too_many_arguments)]
pub(super) fn ldexp(
    l: &mut Lowerer,
    fmt: Fmt,
    x: Handle,
    n: Handle,
    fi: bool,
    fo: bool,
    round: Round,
    tiny: Tiny,
) -> Handle {
    let ieee = l.mode.ieee;
    let b = &mut l.b;
    let x = b.flush_if(fmt, x, fi);
    // clamp n to [-400, 400]: beyond that every finite result has already over/underflowed
    let n = b.clamp_s32(n, 400);
    let e = b.addc(n, 1023);
    let e64 = b.zext(e);
    let p = b.shlc(e64, 52);
    let p = b.f64_of(p);
    let w = b.to_f64(fmt, x);
    let v = b.fb(FloatBin::Mul, w, p);
    let r = b.round_to(fmt, v, None, round, fo, tiny);
    let nan = b.is_nan(fmt, x);
    let q = b.nan_out(fmt, x, ieee);
    let r = b.sel(nan, q, r);
    let inf = b.is_inf(fmt, x);
    let r = b.sel(inf, x, r);
    let z = b.is_zero(fmt, x);
    b.sel(z, x, r)
}

/// rule: mullit: v_mullit_f32 (the LIT helper). D = S0 * S1 unless S1 or S2 says "unlit": a
/// NaN S2 or S2 <= 0, or S1 equal to -max/-inf/NaN gives -max (0xff7fffff).
fn mullit(l: &mut Lowerer, c: &Ctx) -> RuleResult<Handle> {
    let ieee = l.mode.ieee;
    let (fi, fo) = (l.flush_in32(), l.flush_out32());
    let round = l.mode.round32();
    let a = l.f32_src(c, 0)?;
    let s1 = l.f32_src(c, 1)?;
    let s2 = l.f32_src(c, 2)?;
    let b = &mut l.b;
    let s1f = b.flush_if(Fmt::F32, s1, fi);
    let s2f = b.flush_if(Fmt::F32, s2, fi);
    let p = arith(b, Fmt::F32, Arith::MulLegacy, &[a, s1], round, fi, fo, ieee);
    let nan2 = b.is_nan(Fmt::F32, s2f);
    let neg2 = b.sign_of(Fmt::F32, s2f);
    let z2 = b.is_zero(Fmt::F32, s2f);
    let le0 = b.bor(neg2, z2);
    let n1 = b.is_nan(Fmt::F32, s1f);
    let m1 = b.eqc(s1f, 0xff7f_ffff);
    let i1 = b.eqc(s1f, 0xff80_0000);
    let bad1 = b.bor(n1, m1);
    let bad1 = b.bor(bad1, i1);
    let unlit = b.bor(nan2, le0);
    let unlit = b.bor(unlit, bad1);
    let nm = b.c32(0xff7f_ffff);
    Ok(b.sel(unlit, nm, p))
}
