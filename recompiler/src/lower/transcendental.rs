//! f32 unary float ops: rounding to integral values, fract, frexp and the transcendental ops
//! (exp, log, rcp, rsq, sqrt, sin, cos), with the shared rules of `unary.rs`, and the
//! revolutions-based sine and cosine that f16 uses too.

use super::arithmetic::finish_f32;
use super::operands::Ctx;
use super::unary::{Unary, UnaryOp};
use super::Lowerer;
use crate::build::{Builder, Fmt};
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, Handle, Ty};

/// sin or cos of `w` revolutions (an F64), the argument reduced exactly to [0, 1) before the
/// driver's function, with exact zeros at the half and whole turns (sine) and the odd quarter
/// turns (cosine). Shared by the f32 and f16 forms.
// rule: trig-revolutions (docs/semantics.md)
pub(super) fn revolutions_trig(b: &mut Builder, w: Handle, sine: bool) -> Handle {
    let fl = b.fu(FloatUn::Floor, w);
    let fr = b.fb(FloatBin::Sub, w, fl);
    let tp = b.cf64(std::f64::consts::TAU);
    let ang = b.fb(FloatBin::Mul, fr, tp);
    let op = if sine { FloatUn::Sin } else { FloatUn::Cos };
    let v = b.fu(op, ang);
    let four = b.cf64(4.0);
    let f4 = b.fb(FloatBin::Mul, fr, four);
    let f4r = b.fu(FloatUn::RoundEven, f4);
    let on_quarter = b.fcmp(FloatCmp::OrdEq, f4, f4r);
    let q4 = b.cvt(Convert::F64ToU32, f4r, Ty::U32);
    let odd = b.bit(q4, 1);
    let is_zero_pt = if sine { b.bnot(odd) } else { odd };
    let z_here = b.band(on_quarter, is_zero_pt);
    let zf = b.cf64(0.0);
    b.sel(z_here, zf, v)
}

impl Lowerer {
    /// The f32 source 0 of a unary op, flushed with input flushing (or always, `always_flush`),
    /// and the facts the rules select on.
    pub(super) fn f32_unary_input(&mut self, c: &Ctx, always_flush: bool) -> Result<Unary, String> {
        let ieee = self.mode.ieee;
        let round = self.mode.round32();
        let (fi, fo) = (self.flush_in32(), self.flush_out32());
        let x0 = self.f32_src(c, 0)?;
        let b = &mut self.b;
        let x = b.flush_if(Fmt::F32, x0, fi || always_flush);
        Ok(Unary::new(b, Fmt::F32, x, ieee, round, fo))
    }
}

/// v_OP_f32 for the unary ops with a shared rule; the transcendentals are computed in f64 and
/// rounded once.
// rule: transcendental-approximation
pub(super) fn unary_f32(l: &mut Lowerer, c: &Ctx, op: UnaryOp) -> Result<(), String> {
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
pub(super) fn frexp_exp_f32(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    let u = l.f32_unary_input(c, false)?;
    let r = u.frexp_exp(&mut l.b);
    l.write_result(c.inst, r)
}
