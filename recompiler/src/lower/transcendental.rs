//! f32 unary float ops: rounding to integral values, fract, frexp and the transcendental ops
//! (exp, log, rcp, rsq, sqrt, sin, cos), with the shared rules of `unary.rs`, and the
//! revolutions-based sine and cosine that f16 uses too.

use super::arithmetic::finish_f32;
use super::error::RuleResult;
use super::operands::Ctx;
use super::unary::{Unary, UnaryOp};
use super::Lowerer;
use crate::builder::{Builder, Fmt};
use crate::ir::{Convert, FloatBin, FloatCmp, Handle, Ty};

/// sin or cos of `w` revolutions (an F64), the argument reduced exactly to [0, 1) before the
/// software sine or cosine of a turn ([`Builder::sin_cos_turns`]), the linear term near the
/// zeros ([`small_argument`]), with exact zeros at the half and whole turns (sine) and the odd
/// quarter turns (cosine). Shared by the f32 and f16 forms.
// rule: trig-revolutions (docs/semantics.md)
pub(super) fn revolutions_trig(b: &mut Builder, w: Handle, sine: bool) -> Handle {
    // d = w - round_even(w) in [-1/2, 1/2] and fr = w - floor(w) in [0, 1), both exact: fr is
    // d, or d + 1 rounded once as w - floor(w) is when d < 0
    let n = round_even_f64(b, w);
    let d = b.fb(FloatBin::Sub, w, n);
    let zero = b.cf64(0.0);
    let below = b.fcmp(FloatCmp::OrdLt, d, zero);
    let one = b.cf64(1.0);
    let up = b.fb(FloatBin::Add, d, one);
    let fr = b.sel(below, up, d);
    let four = b.cf64(4.0);
    let f4 = b.fb(FloatBin::Mul, fr, four);
    let f4r = round_even_f64(b, f4);
    let v = b.sin_cos_turns(fr, f4r, sine);
    let on_quarter = b.fcmp(FloatCmp::OrdEq, f4, f4r);
    let q4 = b.cvt(Convert::F64ToU32, f4r, Ty::U32);
    let odd = b.bit(q4, 1);
    let is_zero_pt = if sine { b.bnot(odd) } else { odd };
    let z_here = b.band(on_quarter, is_zero_pt);
    let zf = b.cf64(0.0);
    let v = b.sel(z_here, zf, v);
    small_argument(b, d, v, sine)
}

/// Beyond this magnitude every f64 is an integer (and within it, `x + ROUNDER` stays in
/// [2^52, 2^53), where the f64 spacing is 1).
const INTEGRAL: f64 = 2_251_799_813_685_248.0; // 2^51
/// 1.5 * 2^52.
const ROUNDER: f64 = 6_755_399_441_055_744.0;

/// round_even(x) of an f64 `x` as two f64 additions, which every driver rounds to nearest
/// even and must not combine (`NoContraction`): (x + 1.5 * 2^52) - 1.5 * 2^52 for |x| < 2^51,
/// `x` itself beyond (integral already, or an infinity). A zero result is +0 (also for x in
/// (-1/2, -0]), which no caller can tell apart: they use the difference x - round_even(x).
/// About a fifth of the cost of [`Builder::fu`]'s rounding on the bits.
fn round_even_f64(b: &mut Builder, x: Handle) -> Handle {
    let c = b.cf64(ROUNDER);
    let s = b.fb(FloatBin::Add, x, c);
    let r = b.fb(FloatBin::Sub, s, c);
    let hi = b.cf64(INTEGRAL);
    let lo = b.cf64(-INTEGRAL);
    let above = b.fcmp(FloatCmp::OrdGe, x, hi);
    let beneath = b.fcmp(FloatCmp::OrdLe, x, lo);
    let big = b.bor(above, beneath);
    b.sel(big, x, r)
}

/// The hardware's linear term of sin(2π·x) at the integers (0x40c90fd5, 6.2831826).
const TURN_SLOPE: f32 = f32::from_bits(0x40c9_0fd5);
/// Half the width, in turns, of the bands around the zeros where the linear term is the result.
const BAND: f64 = 1.0 / 4096.0;

/// rule: trig-small-argument (docs/semantics.md). Within 2^-12 of a turn from a zero of the
/// function (sine: the integers and half turns; cosine: the odd quarter turns) the result is
/// the linear term of the exact distance to that zero: 6.2831826 (0x40c90fd5) times it at
/// the integers, the f32 2π (0x40c90fdb) at the other zeros, with the sign of the slope there
/// (+0 at the zero itself); `v` elsewhere. Only exact operations: the distance d = w -
/// round_even(w), given as `d`, and the shifts by 0.5 or 0.25 are exact in f64 for an
/// f32 or f16 `w`, and so is the product of a 24-bit constant with them, so the f64 value
/// rounded by the caller is the same on every backend. A tiny negative argument keeps its
/// sign here, where `w - floor(w)` would round to 1.0.
fn small_argument(b: &mut Builder, d: Handle, v: Handle, sine: bool) -> Handle {
    let zero = b.cf64(0.0);
    let upper = b.fcmp(FloatCmp::OrdGe, d, zero);
    let in_band = |b: &mut Builder, e: Handle| {
        let lo = b.cf64(-BAND);
        let hi = b.cf64(BAND);
        let above = b.fcmp(FloatCmp::OrdGt, e, lo);
        let below = b.fcmp(FloatCmp::OrdLt, e, hi);
        b.band(above, below)
    };
    // the zero away from the integer: d - z in the upper half, d + z in the lower one
    let z = if sine { 0.5 } else { 0.25 };
    let zp = b.cf64(-z);
    let zm = b.cf64(z);
    let shift = b.sel(upper, zp, zm);
    let e = b.fb(FloatBin::Add, d, shift);
    let tau = f64::from(std::f32::consts::TAU);
    // sine: -2π at both half turns; cosine: -2π at +1/4, +2π at -1/4
    let slope = if sine {
        b.cf64(-tau)
    } else {
        let dn = b.cf64(-tau);
        let up = b.cf64(tau);
        b.sel(upper, dn, up)
    };
    let lin = b.fb(FloatBin::Mul, slope, e);
    // the zero itself is +0, whatever the slope's sign
    let at_zero = b.fcmp(FloatCmp::OrdEq, e, zero);
    let lin = b.sel(at_zero, zero, lin);
    let near = in_band(b, e);
    let v = b.sel(near, lin, v);
    if sine {
        let k = b.cf64(f64::from(TURN_SLOPE));
        let lin0 = b.fb(FloatBin::Mul, k, d);
        let near0 = in_band(b, d);
        b.sel(near0, lin0, v)
    } else {
        v
    }
}

impl Lowerer {
    /// The f32 source 0 of a unary op, flushed with input flushing (or always, `always_flush`),
    /// and the facts the rules select on.
    pub(super) fn f32_unary_input(&mut self, c: &Ctx, always_flush: bool) -> RuleResult<Unary> {
        let ieee = self.mode.ieee;
        let round = self.mode.round32();
        let (fi, fo) = (self.flush_in32(), self.flush_out32());
        let x0 = self.f32_src(c, 0)?;
        let b = &mut self.b;
        let x = b.flush_if(Fmt::F32, x0, fi || always_flush);
        Ok(Unary::new(b, Fmt::F32, x, ieee, round, fo))
    }
}

/// v_OP_f32 for the unary ops with a shared rule; the transcendentals are software sequences
/// in f64 (`builder::transcend`), rounded once.
// rule: transcendental-approximation
pub(super) fn unary_f32(l: &mut Lowerer, c: &Ctx, op: UnaryOp) -> RuleResult {
    // rule: transcendental-denormal-input: rcp, rsq, sqrt and log read a denormal as zero in
    // every mode
    let always = matches!(
        op,
        UnaryOp::Rcp | UnaryOp::Rsq | UnaryOp::Sqrt | UnaryOp::Log
    );
    let u = l.f32_unary_input(c, always)?;
    let r = u.rule(&mut l.b, op);
    finish_f32(l, c, r)
}

/// v_frexp_exp_i32_f32: an integer result, no result modifiers.
pub(super) fn frexp_exp_f32(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let u = l.f32_unary_input(c, false)?;
    let r = u.frexp_exp(&mut l.b);
    l.write_result(c.inst, r)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::run;

    /// round_even_f64 against the host's round-ties-even on both sides of each boundary: the
    /// ties, the 2^51 switch, huge values, zeros and infinities.
    #[test]
    fn two_additions_round_to_even_integers() {
        use crate::builder::Builder;
        use crate::ir::Expr;
        let mut b = Builder::new();
        let lo = b.push(Expr::Input(0));
        let hi = b.push(Expr::Input(1));
        let bits = b.pack64(lo, hi);
        let x = b.f64_of(bits);
        let r = super::round_even_f64(&mut b, x);
        let rb = b.bits_of_f64(r);
        let (rlo, rhi) = (b.trunc64(rb), b.hi32(rb));
        let mut k = b.k;
        k.outputs = vec![rlo; 16];
        k.outputs[1] = rhi;
        let p51 = 2f64.powi(51);
        let values = [
            0.5,
            1.5,
            2.5,
            -0.5,
            -1.5,
            -2.5,
            0.49999999999999994,
            -0.7,
            3.75,
            -3.25,
            p51 - 0.5,
            p51 - 1.5,
            -p51 + 0.5,
            -p51 - 1.0,
            p51,
            2f64.powi(52) + 1.0,
            1e300,
            -1e300,
            1e-300,
            -1e-300,
            0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for v in values {
            let vb = v.to_bits();
            let out = crate::interp::run(&k, [vb as u32, (vb >> 32) as u32, 0, 0, 0, 0], 0);
            let got = f64::from_bits(u64::from(out[0]) | u64::from(out[1]) << 32);
            let want = v.round_ties_even();
            // zeros compare equal whatever their sign: the callers only take x - round(x)
            assert_eq!(got, want, "round_even({v:e})");
        }
    }

    fn sin(x: u32) -> u32 {
        run("v_sin_f32 v10, v4", [x, 0, 0, 0, 0, 0], 0)[0]
    }

    fn cos(x: u32) -> u32 {
        run("v_cos_f32 v10, v4", [x, 0, 0, 0, 0, 0], 0)[0]
    }

    #[test]
    fn small_sine_arguments_take_the_hardware_slope() {
        // the seed fact: 2^-20 turns gives 6.2831826 * 2^-20 (f64 2π would give 0x36c90fdb)
        assert_eq!(sin(0x3580_0000), 0x36c9_0fd5);
        assert_eq!(sin(0xb580_0000), 0xb6c9_0fd5);
        // just below 2^-12 of a turn: (2^24 - 1) * 2^-36 * 0x40c90fd5 rounded once
        assert_eq!(sin(0x397f_ffff), 0x3ac9_0fd4);
        // the distance to the nearest integer: 1 - 2^-24 is -2^-24 from 1
        assert_eq!(sin(0x3f7f_ffff), 0xb4c9_0fd5);
        // zeros keep their rules: ±0 in, the same zero out; integers give +0
        assert_eq!(sin(0x8000_0000), 0x8000_0000);
        assert_eq!(sin(0xbf80_0000), 0);
    }

    #[test]
    fn a_tiny_negative_sine_argument_keeps_its_sign() {
        // -2^-60 - floor(-2^-60) rounds to 1.0 in f64; the distance to 0 does not
        assert_eq!(sin(0xa180_0000), 0xa2c9_0fd5);
    }

    #[test]
    fn the_other_zeros_take_the_f32_two_pi() {
        // sin(0.5 + 2^-20) = -sin(2π 2^-20): -0x40c90fdb * 2^-20
        assert_eq!(sin(0x3f00_0010), 0xb6c9_0fdb);
        // cos(0.25 + 2^-20) = -sin(2π 2^-20); cos(-0.25 + 2^-20) = +sin(2π 2^-20)
        assert_eq!(cos(0x3e80_0020), 0xb6c9_0fdb);
        assert_eq!(cos(0xbe7f_ffc0), 0x36c9_0fdb);
        // the zeros themselves stay +0
        assert_eq!(sin(0x3f00_0000), 0);
        assert_eq!(cos(0x3e80_0000), 0);
        assert_eq!(cos(0xbe80_0000), 0);
    }

    #[test]
    fn the_band_is_open_at_two_to_the_minus_twelve() {
        // 2^-12 - 2^-24 past the half turn is inside: -0x40c90fdb times it, rounded once
        assert_eq!(sin(0x3f00_0fff), 0xbac9_034a);
        // 2^-12 past it is outside: the software -sin(2π 2^-12), not the linear term
        // 0xbac90fdb (the sine rounds to 0xbac90fd5)
        assert_eq!(sin(0x3f00_1000), 0xbac9_0fd5);
        // cosine is not linear at the integers
        assert_eq!(cos(0x3580_0000), 0x3f80_0000);
    }
}
