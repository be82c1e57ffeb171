//! Software transcendental sequences (rule transcendental-software): reciprocal, reciprocal
//! square root, log2, exp2 and the sine and cosine of a turn, built only from operations every
//! Vulkan driver must round exactly (f64 add, sub and mul, which the SPIR-V backend marks
//! `NoContraction`, integer operations, selects and the integral roundings on the bits), so
//! that the CPU model and every driver compute the same bits. No GLSL.std.450 function and no
//! native division or square root is involved.
//!
//! The approximations work on f64 values that stay normal (no driver may flush them) and are
//! accurate to about 2^-50. [`Builder::settle24`] then turns an approximation of a reciprocal,
//! square root or reciprocal square root of an f32 or f16 value into a value that rounds
//! exactly as the true result does in every rounding mode, with exact residual tests.

use super::Builder;
use crate::ir::{Convert, Expr, FloatBin, FloatCmp, FloatUn, Handle, IntCmp, Ty};

/// Seed of the reciprocal on the f64 bits (within 12.5% of 1/a).
const RECIP_MAGIC: u64 = 0x7fde_6238_22fc_16e6;
/// Seed of the reciprocal square root on the f64 bits (within 3.5% of 1/sqrt(a)).
const RSQRT_MAGIC: u64 = 0x5fe6_eb50_c7b5_37a9;
/// The f64 mantissa field of sqrt(2): log2's argument is reduced to [sqrt(1/2), sqrt(2)].
const SQRT2_FRACTION: u64 = 0x6_a09e_667f_3bcc;

/// `2 / ((2k + 1) ln 2)`, k = 0..10: log2(m) = s * sum(c_k s^2k) with s = (m - 1) / (m + 1).
fn log2_coeffs() -> Vec<f64> {
    (0..10)
        .map(|k| 2.0 / ((2 * k + 1) as f64 * std::f64::consts::LN_2))
        .collect()
}

/// `ln(2)^k / k!`, k = 0..14: 2^f for |f| <= 1/2.
fn exp2_coeffs() -> Vec<f64> {
    let mut c = vec![1.0];
    for k in 1..14 {
        let prev = c[k - 1];
        c.push(prev * std::f64::consts::LN_2 / k as f64);
    }
    c
}

/// `(-1)^k (2 pi)^(2k + odd) / (2k + odd)!`, k = 0..9: sine (odd) or cosine of 2 pi t as a
/// polynomial in t^2 (times t for the sine).
fn turn_coeffs(odd: bool) -> Vec<f64> {
    let tau = std::f64::consts::TAU;
    (0..9)
        .map(|k: i32| {
            let n = 2 * k + i32::from(odd);
            let fact: f64 = (1..=n).map(f64::from).product();
            let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
            sign * tau.powi(n) / fact
        })
        .collect()
}

impl Builder {
    fn fadd(&mut self, a: Handle, b: Handle) -> Handle {
        self.fb(FloatBin::Add, a, b)
    }
    fn fsub(&mut self, a: Handle, b: Handle) -> Handle {
        self.fb(FloatBin::Sub, a, b)
    }
    /// A product inside a sequence. [`Builder::fb`] guards every product of two unknown
    /// factors against a driver that proves one of them zero; here both factors are
    /// intermediate values of the sequence, and a zero a driver could prove would be a constant
    /// this builder folds first (then `fb`'s constant rule applies). The guard would more than
    /// double the size of every sequence.
    fn fmul(&mut self, a: Handle, b: Handle) -> Handle {
        if self.known(a).is_some() || self.known(b).is_some() {
            return self.fb(FloatBin::Mul, a, b);
        }
        self.push(Expr::FloatBin {
            op: FloatBin::Mul,
            a,
            b,
        })
    }

    /// `c[0] + z (c[1] + z (c[2] + ...))` in f64.
    fn horner(&mut self, z: Handle, c: &[f64]) -> Handle {
        let (last, rest) = c.split_last().expect("coefficients");
        let mut acc = self.cf64(*last);
        for &k in rest.iter().rev() {
            let t = self.fmul(acc, z);
            let kk = self.cf64(k);
            acc = self.fadd(t, kk);
        }
        acc
    }

    /// `1/a` for a positive normal f64 `a` whose reciprocal is normal too: a seed on the bits
    /// (within 2^-3) and `steps` Newton steps `y (2 - a y)`, each doubling the correct bits:
    /// four give about 2^-48, five about 2^-51 (the f64 rounding).
    pub fn recip_approx(&mut self, a: Handle, steps: usize) -> Handle {
        let ab = self.bits_of_f64(a);
        let magic = self.c64(RECIP_MAGIC);
        let yb = self.sub(magic, ab);
        let mut y = self.f64_of(yb);
        let two = self.cf64(2.0);
        for _ in 0..steps {
            let ay = self.fmul(a, y);
            let e = self.fsub(two, ay);
            y = self.fmul(y, e);
        }
        y
    }

    /// `1/sqrt(a)` for a positive normal f64 `a`: a seed on the bits (within 2^-4.8) and
    /// three Newton steps `y (3/2 - a/2 y^2)`, within about 2^-34: enough for the rounding
    /// decisions of [`Builder::settle24`] and of the 27-bit f64 results, which are exact.
    pub fn rsqrt_approx(&mut self, a: Handle) -> Handle {
        let ab = self.bits_of_f64(a);
        let magic = self.c64(RSQRT_MAGIC);
        let half = self.shrc(ab, 1);
        let yb = self.sub(magic, half);
        let mut y = self.f64_of(yb);
        let h = self.cf64(0.5);
        let h = self.fmul(a, h);
        let three_halves = self.cf64(1.5);
        for _ in 0..3 {
            let yy = self.fmul(y, y);
            let t = self.fmul(h, yy);
            let u = self.fsub(three_halves, t);
            y = self.fmul(y, u);
        }
        y
    }

    /// A value that rounds like the exact positive result `r` to 24 significant bits (and so to
    /// f32 and f16, denormals included, whose grids are coarser) in every rounding mode, given
    /// `y` within a quarter of a 24-bit ulp of `r` and `side(g)`, an f64 whose sign is exactly
    /// that of `r - g` (zero when equal) for `g` of at most 25 significant bits near `r`.
    /// The result is `r` itself when `r` has 24 bits, else the quarter or three-quarter point
    /// between the 24-bit neighbour and the midpoint on the side where `r` lies.
    pub fn settle24(
        &mut self,
        y: Handle,
        side: &mut dyn FnMut(&mut Builder, Handle) -> Handle,
    ) -> Handle {
        let yb = self.bits_of_f64(y);
        let qb = self.addc(yb, 1 << 28);
        let qb = self.andc(qb, !((1u64 << 29) - 1));
        let q = self.f64_of(qb);
        let eb = self.andc(qb, 0x7ff << 52);
        let e23 = self.c64(23 << 52);
        let ub = self.sub(eb, e23);
        let u = self.f64_of(ub);
        let mant = self.andc(qb, (1 << 52) - 1);
        let bottom = self.eqc(mant, 0);
        let half = self.cf64(0.5);
        let hu = self.fmul(u, half);
        // the 24-bit spacing below q halves at the bottom of a binade
        let d = self.sel(bottom, hu, u);
        let hd = self.fmul(d, half);
        let zero = self.cf64(0.0);
        let s = side(self, q);
        let above = self.fcmp(FloatCmp::OrdGt, s, zero);
        let below = self.fcmp(FloatCmp::OrdLt, s, zero);
        let mid_up = self.fadd(q, hu);
        let s_up = side(self, mid_up);
        let past_up = self.fcmp(FloatCmp::OrdGt, s_up, zero);
        let mid_dn = self.fsub(q, hd);
        let s_dn = side(self, mid_dn);
        let past_dn = self.fcmp(FloatCmp::OrdLt, s_dn, zero);
        let quarter = self.cf64(0.25);
        let three = self.cf64(0.75);
        let ku = self.sel(past_up, three, quarter);
        let ou = self.fmul(u, ku);
        let z_up = self.fadd(q, ou);
        let kd = self.sel(past_dn, three, quarter);
        let od = self.fmul(d, kd);
        let z_dn = self.fsub(q, od);
        let z = self.sel(above, z_up, q);
        self.sel(below, z_dn, z)
    }

    /// 1/a for a positive normal f64 `a` with at most 24 significant bits, settled
    /// ([`Builder::settle24`]): the side of a candidate g is 1 - a g, exact (a g has at most
    /// 49 bits and is within a factor 2 of 1).
    pub fn recip_settled(&mut self, a: Handle) -> Handle {
        let y = self.recip_approx(a, 4);
        let one = self.cf64(1.0);
        self.settle24(y, &mut |b, g| {
            let ag = b.fmul(a, g);
            b.fsub(one, ag)
        })
    }

    /// sqrt(a) for a positive normal f64 `a` with at most 24 significant bits, settled: the
    /// side of g is a - g^2, exact (g^2 has at most 50 bits and is close to a).
    pub fn sqrt_settled(&mut self, a: Handle) -> Handle {
        let r = self.rsqrt_approx(a);
        let y = self.fmul(a, r);
        self.settle24(y, &mut |b, g| {
            let gg = b.fmul(g, g);
            b.fsub(a, gg)
        })
    }

    /// 1/sqrt(a) for a positive normal f64 `a` with at most 24 significant bits, settled: the
    /// side of g is 1 - a g^2, whose sign is exact: g^2 (at most 50 bits) is split into a
    /// 27-bit head and the rest, each product with `a` is exact, 1 - a head is exact (within a
    /// factor 2 of 1) and the last subtraction is correctly rounded, so it keeps the sign.
    pub fn rsqrt_settled(&mut self, a: Handle) -> Handle {
        let y = self.rsqrt_approx(a);
        let one = self.cf64(1.0);
        self.settle24(y, &mut |b, g| {
            let gg = b.fmul(g, g);
            let ggb = b.bits_of_f64(gg);
            let hb = b.andc(ggb, !((1u64 << 26) - 1));
            let head = b.f64_of(hb);
            let tail = b.fsub(gg, head);
            let ah = b.fmul(a, head);
            let t1 = b.fsub(one, ah);
            let at = b.fmul(a, tail);
            b.fsub(t1, at)
        })
    }

    /// log2(a) for a positive normal f64 `a` with at most 24 significant bits (an f32 or f16
    /// value): the exponent plus s * P(s^2), s = (m - 1) / (m + 1) for the significand m
    /// reduced to [sqrt(1/2), sqrt(2)] (m - 1 and m + 1 exact, the quotient by
    /// [`Builder::recip_approx`]). Exact for powers of two; elsewhere within about 2^-49 of the
    /// logarithm, relative to it near 1.
    pub fn log2_approx(&mut self, a: Handle) -> Handle {
        let ab = self.bits_of_f64(a);
        let mant = self.andc(ab, (1 << 52) - 1);
        let big = self.icmpc(IntCmp::GtU, mant, SQRT2_FRACTION);
        let e_hi = self.c64(1022 << 52);
        let e_lo = self.c64(1023 << 52);
        let ef = self.sel(big, e_hi, e_lo);
        let mb = self.or(mant, ef);
        let m = self.f64_of(mb);
        let eraw = self.shrc(ab, 52);
        let eraw = self.trunc64(eraw);
        let carry = self.b2u(big);
        let e = self.add(eraw, carry);
        let bias = self.c32(1023);
        let e = self.sub(e, bias);
        let ef = self.cvt(Convert::S32ToF64, e, Ty::F64);
        let one = self.cf64(1.0);
        let num = self.fsub(m, one);
        let den = self.fadd(m, one);
        let r = self.recip_approx(den, 5);
        let s = self.fmul(num, r);
        let z = self.fmul(s, s);
        let p = self.horner(z, &log2_coeffs());
        let v = self.fmul(s, p);
        self.fadd(ef, v)
    }

    /// 2^w for a finite f64 `w`: clamped to [-160, 130] (beyond every f32 and f16 result),
    /// n = round_even(w), 2^(w - n) by a degree-13 polynomial (|w - n| <= 1/2, exact), times
    /// 2^n built on the bits. Exact for integers; elsewhere within about 2^-51.
    pub fn exp2_approx(&mut self, w: Handle) -> Handle {
        let lo = self.cf64(-160.0);
        let hi = self.cf64(130.0);
        let under = self.fcmp(FloatCmp::OrdLt, w, lo);
        let w1 = self.sel(under, lo, w);
        let over = self.fcmp(FloatCmp::OrdGt, w1, hi);
        let w2 = self.sel(over, hi, w1);
        let n = self.fu(FloatUn::RoundEven, w2);
        let f = self.fsub(w2, n);
        let p = self.horner(f, &exp2_coeffs());
        let ni = self.cvt(Convert::F64ToS32, n, Ty::U32);
        let bias = self.c32(1023);
        let be = self.add(ni, bias);
        let be = self.zext(be);
        let pb = self.shlc(be, 52);
        let pw = self.f64_of(pb);
        self.fmul(p, pw)
    }

    /// sin(2 pi fr) (or cos) for `fr` in [0, 1] (exact turns), given the quarter turn
    /// `qn` = round_even(4 fr): t = fr - qn/4 in [-1/8, 1/8] (exact), then the sine or cosine
    /// polynomial of t by the quadrant. Within about 2^-52 of the function (relative near the
    /// zeros at the quarter turns).
    pub fn sin_cos_turns(&mut self, fr: Handle, qn: Handle, sine: bool) -> Handle {
        let quarter = self.cf64(0.25);
        let qq = self.fmul(qn, quarter);
        let t = self.fsub(fr, qq);
        let qi = self.cvt(Convert::F64ToU32, qn, Ty::U32);
        // cos(2 pi x) = sin(2 pi (x + 1/4))
        let qi = if sine { qi } else { self.addc(qi, 1) };
        let tt = self.fmul(t, t);
        let sp = self.horner(tt, &turn_coeffs(true));
        let sp = self.fmul(t, sp);
        let cp = self.horner(tt, &turn_coeffs(false));
        let odd = self.bit(qi, 1);
        let neg = self.bit(qi, 2);
        let v = self.sel(odd, cp, sp);
        let vb = self.bits_of_f64(v);
        let nb = self.xorc(vb, 1 << 63);
        let nv = self.f64_of(nb);
        self.sel(neg, nv, v)
    }
}

#[cfg(test)]
mod tests {
    use super::{exp2_coeffs, log2_coeffs, turn_coeffs};

    fn horner(z: f64, c: &[f64]) -> f64 {
        c.iter().rev().fold(0.0, |acc, &k| acc * z + k)
    }

    #[test]
    fn the_polynomials_follow_the_functions() {
        for i in 0..=64 {
            let f = -0.5 + f64::from(i) / 64.0;
            let e = horner(f, &exp2_coeffs());
            assert!((e / f.exp2() - 1.0).abs() < 1e-15, "exp2({f})");
            let t = -0.125 + f64::from(i) / 256.0;
            let s = t * horner(t * t, &turn_coeffs(true));
            let c = horner(t * t, &turn_coeffs(false));
            let x = std::f64::consts::TAU * t;
            assert!((s - x.sin()).abs() <= 1e-15 * x.sin().abs().max(1e-300));
            assert!((c - x.cos()).abs() < 1e-15);
            let m = std::f64::consts::FRAC_1_SQRT_2 + f64::from(i) / 64.0 * 0.7;
            let s = (m - 1.0) / (m + 1.0);
            let l = s * horner(s * s, &log2_coeffs());
            assert!((l - m.log2()).abs() <= 1e-15 * m.log2().abs().max(1e-300));
        }
    }
}
