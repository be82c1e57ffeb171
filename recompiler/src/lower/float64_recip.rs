//! v_rcp_f64, v_rsq_f64 and v_sqrt_f64 (rule f64-reciprocal-precision). Measured: finite
//! results keep 27 significant bits (the low 26 fraction bits are zero) of an input-dependent
//! approximation: of the four finite rows, two are the plain truncation of the exact value and
//! two are one 27-bit step above it. Fitted to those rows (not measured): rcp(x) is 1/x plus
//! 5/8 of a 27-bit step, truncated to 27 bits; rsq(x) is 1/sqrt(x) truncated to 27 bits and
//! raised to the next 27-bit value; and sqrt(x) is x times that reciprocal square root,
//! truncated to 27 bits. Other inputs may differ from the hardware by several 27-bit steps
//! (the rule states the bound). The candidate comes from an f64 Newton approximation
//! ([`Builder::recip_approx`], [`Builder::rsqrt_approx`]) of the significand, and the
//! truncation from exact integer products of the 53-bit significand with 27-bit candidates, so
//! no division, square root or f64 denormal is involved.

use crate::builder::Builder;
use crate::ir::{Convert, FloatBin, Handle, IntBin, IntCmp, IntUn, Ty};

/// Which of the three reduced-precision forms.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Recip64 {
    Rcp,
    Rsq,
    Sqrt,
}

/// `(M, E)` of a positive finite non-zero f64 `x` (U64 bits, sign ignored): the 53-bit
/// significand M in [2^52, 2^53) and the exponent E (two's complement U64) with
/// x = M 2^(E - 52); denormals are normalised.
fn split(b: &mut Builder, x: Handle) -> (Handle, Handle) {
    let ef = b.shrc(x, 52);
    let ef = b.andc(ef, 0x7ff);
    let frac = b.andc(x, (1 << 52) - 1);
    let den = b.eqc(ef, 0);
    let msb = b.iu(IntUn::FindMsbU, frac);
    let c52 = b.c64(52);
    let sh = b.sub(c52, msb);
    let mden = b.ib(IntBin::Shl, frac, sh);
    let emin = b.c64(-1022i64 as u64);
    let eden = b.sub(emin, sh);
    let mnorm = b.orc(frac, 1 << 52);
    let bias = b.c64(1023);
    let enorm = b.sub(ef, bias);
    let m = b.sel(den, mden, mnorm);
    let e = b.sel(den, eden, enorm);
    (m, e)
}

/// `p * q <= 2^k` (`eq`: equal) for U64 `p` and `q` whose product is below 2^128, k >= 64.
fn product_le(b: &mut Builder, p: Handle, q: Handle, k: u32) -> (Handle, Handle) {
    let hi = b.ib(IntBin::MulHiU, p, q);
    let lo = b.ib(IntBin::Mul, p, q);
    let top = 1u64 << (k - 64);
    let below = b.icmpc(IntCmp::LtU, hi, top);
    let at = b.eqc(hi, top);
    let lo0 = b.eqc(lo, 0);
    let eq = b.band(at, lo0);
    (b.bor(below, eq), eq)
}

/// trunc(y 2^s + d) as a U64, for 0 < y 2^s + d < 2^32.
fn grid(b: &mut Builder, y: Handle, s: i32, d: f64) -> Handle {
    let k = b.cf64(2f64.powi(s));
    let mut t = b.fb(FloatBin::Mul, y, k);
    if d != 0.0 {
        let d = b.cf64(d);
        t = b.fb(FloatBin::Add, t, d);
    }
    let g = b.cvt(Convert::F64ToU32, t, Ty::U32);
    b.zext(g)
}

/// The magnitude's bits of op(x) for a positive finite non-zero `x` (U64 bits; the sign is
/// the caller's, as are zeros, infinities, NaNs and negative square roots). Results beyond the
/// f64 range are infinity (rcp of a denormal below 2^-1024); results below 2^-1022 (rcp of
/// x >= 2^1022) are zero: neither is measured.
pub(super) fn recip64(b: &mut Builder, x: Handle, op: Recip64) -> Handle {
    let (m, e) = split(b, x);
    let frac = b.andc(m, (1 << 52) - 1);
    if op == Recip64::Rcp {
        // 1/x = (1/m) 2^-E with m = M 2^-52 in [1, 2), 1/m in (1/2, 1]
        let ones = b.c64(1023 << 52);
        let mb = b.or(frac, ones);
        let mf = b.f64_of(mb);
        let y = b.recip_approx(mf, 4);
        // G = trunc((1/m + (5/8) 2^-27) 2^27), in [2^26, 2^27]: 1/m is in (1/2, 1], where a
        // 27-bit step is 2^-27, and 1/m + (5/8) 2^-27 < 1 + 2^-26 truncates to 1 at the top
        let g0 = grid(b, y, 27, 0.625);
        // 1/m + (5/8) 2^-27 >= G 2^-27  <=>  M (8G - 5) <= 2^82
        let le = |b: &mut Builder, g: Handle| {
            let g8 = b.shlc(g, 3);
            let q = b.addc(g8, (-5i64) as u64);
            product_le(b, m, q, 82)
        };
        let g = floor_of(b, g0, le);
        let fb = value_bits(b, g, 1022);
        let top = b.c64(1 << 27);
        let carry = b.icmp(IntCmp::Eq, g, top);
        let carry = b.cvt(Convert::BoolToU32, carry, Ty::U32);
        let carry = b.zext(carry);
        // exponent 1022 + carry - E in [1, 2046], else infinity or zero
        let ee = b.shlc(e, 52);
        let r = b.sub(fb, ee);
        let c1022 = b.c64(1022);
        let er = b.sub(c1022, e);
        let er = b.add(er, carry);
        let over = b.icmpc(IntCmp::GtS, er, 2046);
        let under = b.icmpc(IntCmp::LeS, er, 0);
        let inf = b.c64(0x7ff0_0000_0000_0000);
        let zero = b.c64(0);
        let r = b.sel(over, inf, r);
        return b.sel(under, zero, r);
    }
    // x = m 2^(2h) with m = M 2^(s - 52) in [1, 4), s = E mod 2
    let s = b.andc(e, 1);
    let ms = b.ib(IntBin::Shl, m, s);
    let es = b.sub(e, s);
    let h = b.sarc(es, 1);
    let sbit = b.shlc(s, 52);
    let ones = b.c64(1023 << 52);
    let mb = b.or(frac, ones);
    let mb = b.add(mb, sbit);
    let mf = b.f64_of(mb);
    let r = b.rsqrt_approx(mf);
    let hh = b.shlc(h, 52);
    // 1/sqrt(m) in (1/2, 1]: 1/sqrt(m) >= G 2^-27 <=> (M << s) G^2 <= 2^106
    let g0 = grid(b, r, 27, 0.0);
    let le = |b: &mut Builder, g: Handle| {
        let gg = b.ib(IntBin::Mul, g, g);
        product_le(b, ms, gg, 106)
    };
    let g = floor_of(b, g0, le);
    let (fb, _) = step_up(b, g);
    if op == Recip64::Rsq {
        return b.sub(fb, hh);
    }
    // sqrt(x) = m rsq(m) 2^h: the rsq result in 2^-27 units is G + 1, or G + 2 past 1.0
    let top = b.c64(1 << 27);
    let at_top = b.icmp(IntCmp::Eq, g, top);
    let one = b.c64(1);
    let two = b.c64(2);
    let inc = b.sel(at_top, two, one);
    let gr = b.add(g, inc);
    // P = (M << s) G' is m rsq(m) 2^79, in [2^79, 2^81): its top 27 bits, truncated
    let hi = b.ib(IntBin::MulHiU, ms, gr);
    let lo = b.ib(IntBin::Mul, ms, gr);
    let big = b.icmpc(IntCmp::GeU, hi, 1 << 16);
    let t53 = shr128(b, hi, lo, 53);
    let t54 = shr128(b, hi, lo, 54);
    let t = b.sel(big, t54, t53);
    let fb = value_bits(b, t, 1023);
    let bump = b.c64(1 << 52);
    let zero = b.c64(0);
    let bump = b.sel(big, bump, zero);
    let fb = b.add(fb, bump);
    b.add(fb, hh)
}

/// (hi, lo) >> k for 0 < k < 64, when the result fits 64 bits.
fn shr128(b: &mut Builder, hi: Handle, lo: Handle, k: u32) -> Handle {
    let h = b.shlc(hi, 64 - k);
    let l = b.shrc(lo, k);
    b.or(h, l)
}

/// The largest grid point G with G <= the exact result, from `g0`, the truncation of an
/// approximation within one grid step of it, and `le(G)`: (result >= G, result == G).
fn floor_of(
    b: &mut Builder,
    g0: Handle,
    le: impl Fn(&mut Builder, Handle) -> (Handle, Handle),
) -> Handle {
    let one = b.c64(1);
    let g1 = b.add(g0, one);
    let gm = b.sub(g0, one);
    let (c1, _) = le(b, g1);
    let (c0, _) = le(b, g0);
    let g = b.sel(c0, g0, gm);
    b.sel(c1, g1, g)
}

/// The f64 bits of one 27-bit step above G 2^-27 (G in [2^26, 2^27]: a value in (1/2, 1]),
/// with the exponent field of (1/2, 1) for the caller to adjust, and the exponent carry (1
/// when the result reaches 1.0, where the step is 2^-26).
fn step_up(b: &mut Builder, g: Handle) -> (Handle, Handle) {
    let one = b.c64(1);
    let g1 = b.add(g, one);
    let below = value_bits(b, g1, 1022);
    let top = b.c64(1 << 27);
    let at_top = b.icmp(IntCmp::Eq, g, top);
    let above = b.c64((1023 << 52) | (1 << 26));
    let fb = b.sel(at_top, above, below);
    let carry = b.icmp(IntCmp::GeU, g1, top);
    let carry = b.cvt(Convert::BoolToU32, carry, Ty::U32);
    (fb, b.zext(carry))
}

/// The f64 bits of G 2^-26 (G in [2^26, 2^27]) with the exponent field `base` for G = 2^26:
/// `base + 1` at G = 2^27 by the carry out of the fraction.
fn value_bits(b: &mut Builder, g: Handle, base: u64) -> Handle {
    let lead = b.c64(1 << 26);
    let f = b.sub(g, lead);
    let f = b.shlc(f, 26);
    b.addc(f, base << 52)
}
