//! The division helpers: v_div_scale (rule: div-scale), v_div_fmas (rule: div-fmas) and
//! v_div_fixup (rule: div-fixup) in f32, and the fixup shared with f16 and f64.

use super::arithmetic::{arith, finish_f32, Arith};
use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Builder, Fmt, Tiny};
use crate::ir::{FloatBin, FloatCmp, Handle, IntCmp, Ty};
use rdnaprobe_isa::Round;

/// rule: div-scale (docs/semantics.md). S1 is the denominator, S2 the numerator; with
/// d = exponent(S2) - exponent(S1) on the biased exponent fields (255 for inf/NaN), the first
/// matching case decides: d >= 96: VCC, S0 == S1 scaled by 2^64; S1 denormal: 2^64;
/// exponent(S1) >= 253 and d <= -96: VCC, S0 == S1 scaled by 2^-64; exponent(S1) >= 253: 2^-64;
/// d <= -96: VCC, S0 != S1 scaled by 2^64; exponent(S2) <= 23: 2^64. A zero S1 or S2 gives the
/// default NaN (VCC still from the cases). Inputs are flushed with f32 input flushing; NaNs are
/// never quietened.
pub(super) fn scale_f32(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let fi = l.flush_in32();
    let s0 = l.f32_src(c, 0)?;
    let s1 = l.f32_src(c, 1)?;
    let s2 = l.f32_src(c, 2)?;
    let b = &mut l.b;
    let s0 = b.flush_if(Fmt::F32, s0, fi);
    let s1 = b.flush_if(Fmt::F32, s1, fi);
    let s2 = b.flush_if(Fmt::F32, s2, fi);
    let scale = |b: &mut Builder, x: Handle, k: i32| {
        // x * 2^k rounded to f32 (NaN, infinity and zero unchanged)
        let w = b.f32_to_f64_exact(x);
        let f = b.cf64(2f64.powi(k));
        let v = b.fb(FloatBin::Mul, w, f);
        let r = b.round_to(Fmt::F32, v, None, Round::NearestEven, false, Tiny::Result);
        let n = b.is_nan(Fmt::F32, x);
        b.sel(n, x, r)
    };
    let up = scale(b, s0, 64);
    let down = scale(b, s0, -64);
    let limits = ScaleLimits {
        d: 96,
        huge1: 253,
        tiny2: 23,
    };
    let (r, vcc) = scale_cases(b, Fmt::F32, [s0, s1, s2], up, down, limits);
    l.write_result(c.inst, r)?;
    let dsts = c.inst.dsts(l.wave);
    let sd = *dsts.get(1).ok_or(RuleError::operand(
        "v_div_scale_f32 without a mask destination",
    ))?;
    l.write_mask(&sd, vcc)
}

/// The thresholds of rule div-scale for one format: |d| (96 for f32, 768 for f64), the
/// exponent(S1) from which S1 counts as huge (253, 2045) and the exponent(S2) up to which S2
/// counts as tiny (23, 53).
#[derive(Clone, Copy)]
pub(super) struct ScaleLimits {
    pub(super) d: i64,
    pub(super) huge1: u64,
    pub(super) tiny2: u64,
}

/// The case chain of rule div-scale on the bits of `fmt` (sources already flushed): `up` and
/// `down` are S0 scaled up and down by the format's power of two. Returns (result, VCC); a zero
/// S1 or S2 gives the default NaN, VCC still from the cases.
pub(super) fn scale_cases(
    b: &mut Builder,
    fmt: Fmt,
    [s0, s1, s2]: [Handle; 3],
    up: Handle,
    down: Handle,
    lim: ScaleLimits,
) -> (Handle, Handle) {
    let exp = |b: &mut Builder, x: Handle| {
        let e = b.shrc(x, fmt.mbits());
        b.andc(e, (1 << fmt.ebits()) - 1)
    };
    let e1 = exp(b, s1);
    let e2 = exp(b, s2);
    let neg_d = if fmt.ity() == Ty::U32 {
        u64::from((-lim.d) as u32)
    } else {
        (-lim.d) as u64
    };
    let d = b.sub(e2, e1);
    let big = b.icmpc(IntCmp::GeS, d, lim.d as u64);
    let small = b.icmpc(IntCmp::LeS, d, neg_d);
    let den1 = b.is_denorm(fmt, s1);
    let huge1 = b.icmpc(IntCmp::GeU, e1, lim.huge1);
    let tiny2 = b.icmpc(IntCmp::LeU, e2, lim.tiny2);
    let eq01 = b.icmp(IntCmp::Eq, s0, s1);
    let t = b.cb(true);
    let f = b.cb(false);
    // the chain, evaluated from its last case to its first
    let mut r = b.sel(tiny2, up, s0);
    let mut vcc = f;
    let r6 = b.sel(eq01, s0, up);
    r = b.sel(small, r6, r);
    vcc = b.sel(small, t, vcc);
    r = b.sel(huge1, down, r);
    vcc = b.sel(huge1, f, vcc);
    let c4 = b.band(huge1, small);
    let r4 = b.sel(eq01, down, s0);
    r = b.sel(c4, r4, r);
    vcc = b.sel(c4, t, vcc);
    r = b.sel(den1, up, r);
    vcc = b.sel(den1, f, vcc);
    let r2 = b.sel(eq01, up, s0);
    r = b.sel(big, r2, r);
    vcc = b.sel(big, t, vcc);
    let z1 = b.is_zero(fmt, s1);
    let z2 = b.is_zero(fmt, s2);
    let zero = b.bor(z1, z2);
    let dnan = b.cf(fmt, fmt.default_nan());
    (b.sel(zero, dnan, r), vcc)
}

/// v_div_fmas_f32: VCC (this lane's bit) selects the scaled form.
pub(super) fn fmas_f32(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let a = l.f32_src(c, 0)?;
    let bb = l.f32_src(c, 1)?;
    let cc = l.f32_src(c, 2)?;
    let vcc_op = rdnaprobe_isa::Operand::Reg(rdnaprobe_isa::Reg {
        kind: rdnaprobe_isa::RegKind::Vcc,
        index: 0,
        count: if l.wave == rdnaprobe_isa::Wave::W64 {
            2
        } else {
            1
        },
    });
    let vcc = l.read_mask(&vcc_op)?;
    let r = div_fmas32(l, a, bb, cc, vcc);
    finish_f32(l, c, r)
}

/// v_div_fixup_f32.
pub(super) fn fixup_f32(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let a = l.f32_src(c, 0)?;
    let bb = l.f32_src(c, 1)?;
    let cc = l.f32_src(c, 2)?;
    let r = div_fixup(l, Fmt::F32, a, bb, cc);
    finish_f32(l, c, r)
}

/// rule: div-fmas: fma(S0, S1, S2), scaled by 2^64 (|S2| >= 2) or 2^-64 when VCC is set, rounded
/// once; only the result is flushed.
fn div_fmas32(l: &mut Lowerer, a: Handle, bb: Handle, cc: Handle, vcc: Handle) -> Handle {
    let ieee = l.mode.ieee;
    let fo = l.flush_out32();
    let round = l.mode.round32();
    let b = &mut l.b;
    let plain = arith(
        b,
        Fmt::F32,
        Arith::Fma,
        &[a, bb, cc],
        round,
        false,
        fo,
        ieee,
    );
    let wa = b.f32_to_f64_exact(a);
    let wb = b.f32_to_f64_exact(bb);
    let wc = b.f32_to_f64_exact(cc);
    let ec = b.shrc(cc, 23);
    let ec = b.andc(ec, 0xff);
    let big = b.icmpc(IntCmp::GeU, ec, 128);
    let up = b.cf64(2f64.powi(64));
    let dn = b.cf64(2f64.powi(-64));
    let k = b.sel(big, up, dn);
    let p = b.fb(FloatBin::Mul, wa, wb);
    let (s, err) = b.two_sum(p, wc);
    let s = b.fb(FloatBin::Mul, s, k);
    let err = b.fb(FloatBin::Mul, err, k);
    let scaled = b.round_to(Fmt::F32, s, Some(err), round, fo, Tiny::Result);
    let sp = b.is_nan(Fmt::F32, plain);
    let ia = b.is_inf(Fmt::F32, a);
    let ib = b.is_inf(Fmt::F32, bb);
    let ic = b.is_inf(Fmt::F32, cc);
    let special = b.bor(sp, ia);
    let special = b.bor(special, ib);
    let special = b.bor(special, ic);
    let zf = b.cf64(0.0);
    let zs = b.fcmp(FloatCmp::OrdEq, s, zf);
    let special = b.bor(special, zs);
    let scaled = b.sel(special, plain, scaled);
    b.sel(vcc, scaled, plain)
}

/// rule: div-fixup (ISA manual V_DIV_FIXUP): S0 quotient, S1 denominator, S2 numerator.
pub(super) fn div_fixup(l: &mut Lowerer, fmt: Fmt, s0: Handle, s1: Handle, s2: Handle) -> Handle {
    let ieee = l.mode.ieee;
    let fi = match fmt {
        Fmt::F32 => l.flush_in32(),
        // f16 and f64 share the MODE register's denorm16 field
        Fmt::F16 | Fmt::F64 => l.flush_in16(),
    };
    let b = &mut l.b;
    // rule: f32-denormals: div_fixup flushes S1 and S2, keeps S0 and the result
    let s1 = b.flush_if(fmt, s1, fi);
    let s2 = b.flush_if(fmt, s2, fi);
    let x = b.xor(s1, s2);
    let sign_out = b.andc(x, fmt.sign_mask());
    let n2 = b.is_nan(fmt, s2);
    let n1 = b.is_nan(fmt, s1);
    let n0 = b.is_nan(fmt, s0);
    let z1 = b.is_zero(fmt, s1);
    let z2 = b.is_zero(fmt, s2);
    let i1 = b.is_inf(fmt, s1);
    let i2 = b.is_inf(fmt, s2);
    let dn = b.cf(fmt, fmt.default_nan());
    let inf = b.cf(fmt, fmt.exp_mask());
    let sinf = b.or(sign_out, inf);
    let a0 = b.abs_bits(fmt, s0);
    let plain = b.or(sign_out, a0);
    let mut r = plain;
    // a NaN quotient from ordinary operands becomes the signed infinity (overflow)
    r = b.sel(n0, sinf, r);
    // exponent(S2) - exponent(S1) below -(bias + mantissa bits): the signed zero (underflow)
    let sh = fmt.mbits();
    let em = fmt.exp_mask();
    let e1 = b.andc(s1, em);
    let e1 = b.shrc(e1, sh);
    let e2 = b.andc(s2, em);
    let e2 = b.shrc(e2, sh);
    let d = b.sub(e2, e1);
    let lim = -(fmt.bias() + i64::from(fmt.mbits())) as u64;
    let lim = if fmt.ity() == Ty::U32 {
        lim & 0xffff_ffff
    } else {
        lim
    };
    let under = b.icmpc(IntCmp::LtS, d, lim);
    r = b.sel(under, sign_out, r);
    // |S1| inf or S2 zero: signed zero
    let zc = b.bor(i1, z2);
    r = b.sel(zc, sign_out, r);
    // S1 zero or |S2| inf: signed infinity
    let ic = b.bor(z1, i2);
    r = b.sel(ic, sinf, r);
    let both_inf = b.band(i1, i2);
    r = b.sel(both_inf, dn, r);
    let both_zero = b.band(z1, z2);
    r = b.sel(both_zero, dn, r);
    let q1 = b.nan_out(fmt, s1, ieee);
    r = b.sel(n1, q1, r);
    let q2 = b.nan_out(fmt, s2, ieee);
    b.sel(n2, q2, r)
}
