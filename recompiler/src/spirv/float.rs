//! Native float operations and the IR's NaN rule ([`crate::eval`]). SPIR-V leaves NaN bits to
//! the driver (which NaN operand propagates, whether it is quieted, the sign of a generated
//! NaN, what a conversion does to a payload), so every float-valued result goes through
//! [`Emitter::nan_rule`]: selects on `IsNan` of the operands, in operand order, give the first
//! NaN operand quieted on the bits; a NaN result of non-NaN operands becomes the default NaN.
//! `OpIsNan`, `OpSelect` and `OpBitcast` are exact on every conforming driver, so the bits are
//! the definition's whatever the native instruction did with the NaN.

use rspirv::spirv::{GLOp, Word};

use super::{build_err, f64_via_f32, Emitter, SpirvError};
use crate::eval::{DEFAULT_NAN32, DEFAULT_NAN64, QUIET32, QUIET64};
use crate::ir::{Convert, FloatBin, FloatUn, Ty};

impl Emitter<'_> {
    /// `FloatBin` (see [`crate::eval::float_bin32`]).
    pub(super) fn float_bin(
        &mut self,
        op: FloatBin,
        ty: Ty,
        x: Word,
        y: Word,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.ty(ty);
        let b = &mut self.b;
        let r = match op {
            FloatBin::Add => b.f_add(t, None, x, y),
            FloatBin::Sub => b.f_sub(t, None, x, y),
            FloatBin::Mul => b.f_mul(t, None, x, y),
            FloatBin::Div => b.f_div(t, None, x, y),
        }
        .map_err(&err)?;
        let r = self.no_contraction(r);
        let r = if matches!(ty, Ty::F32 | Ty::F64) && matches!(op, FloatBin::Mul | FloatBin::Div) {
            self.zero_sign(ty, x, y, r)?
        } else {
            r
        };
        self.nan_rule(ty, &[x, y], r)
    }

    /// A zero product or quotient with the sign of `x` XOR `y`, on the bits. Without
    /// `SignedZeroInfNanPreserve` a driver may give `a * 0.0` as `+0.0` when the zero is a
    /// constant (lavapipe folds it, `NoContraction` or not).
    fn zero_sign(&mut self, ty: Ty, x: Word, y: Word, r: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, t32, tb) = (self.ty(ty), self.t.u32_, self.t.bool_);
        let zero = self.constant(ty, 0);
        let sign = self.u32c(0x8000_0000);
        let is_zero = self.b.f_ord_equal(tb, None, r, zero).map_err(&err)?;
        let (xu, yu) = if ty == Ty::F64 {
            let (xw, yw) = (self.f64_words(x)?, self.f64_words(y)?);
            let b = &mut self.b;
            let xh = b.composite_extract(t32, None, xw, [1]).map_err(&err)?;
            let yh = b.composite_extract(t32, None, yw, [1]).map_err(&err)?;
            (xh, yh)
        } else {
            let xu = self.b.bitcast(t32, None, x).map_err(&err)?;
            let yu = self.b.bitcast(t32, None, y).map_err(&err)?;
            (xu, yu)
        };
        let s = self.b.bitwise_xor(t32, None, xu, yu).map_err(&err)?;
        let s = self.b.bitwise_and(t32, None, s, sign).map_err(&err)?;
        let z = if ty == Ty::F64 {
            let lo = self.u32c(0);
            self.f64_of_words(lo, s)?
        } else {
            self.b.bitcast(t, None, s).map_err(&err)?
        };
        self.b.select(t, None, is_zero, z, r).map_err(&err)
    }

    /// `Fma` (see [`crate::eval::fma32`]).
    pub(super) fn fma(&mut self, ty: Ty, args: [Word; 3]) -> Result<Word, SpirvError> {
        let t = self.ty(ty);
        let r = self.glsl(t, GLOp::Fma, &args)?;
        let r = self.no_contraction(r);
        self.nan_rule(ty, &args, r)
    }

    /// `FloatUn` (see [`crate::eval::float_un32`]).
    pub(super) fn float_un(&mut self, op: FloatUn, ty: Ty, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.ty(ty);
        let gl = match op {
            FloatUn::Sqrt => GLOp::Sqrt,
            FloatUn::Floor => GLOp::Floor,
            FloatUn::Ceil => GLOp::Ceil,
            FloatUn::Trunc => GLOp::Trunc,
            FloatUn::RoundEven => GLOp::RoundEven,
            FloatUn::Exp2 => GLOp::Exp2,
            FloatUn::Log2 => GLOp::Log2,
            FloatUn::InverseSqrt => GLOp::InverseSqrt,
            FloatUn::Sin => GLOp::Sin,
            FloatUn::Cos => GLOp::Cos,
        };
        let r = if ty == Ty::F64 && f64_via_f32(op) {
            // Approximate anyway (FloatUn::is_approximate); GLSL.std.450 has no f64 form.
            let t32 = self.t.f32_;
            let n = self.b.f_convert(t32, None, x).map_err(&err)?;
            let r = self.glsl(t32, gl, &[n])?;
            let r = self.no_contraction(r);
            self.b.f_convert(t, None, r).map_err(&err)?
        } else {
            let r = self.glsl(t, gl, &[x])?;
            self.no_contraction(r)
        };
        self.nan_rule(ty, &[x], r)
    }

    /// `F32ToF64`: `OpFConvert`, and for a NaN the definition's bits (sign, quiet, the f32
    /// fraction in the top fraction bits) built on the dwords.
    pub(super) fn f32_to_f64(&mut self, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t32, tb, t64) = (self.t.u32_, self.t.bool_, self.ty(Ty::F64));
        let r = self.b.f_convert(t64, None, x).map_err(&err)?;
        let c29 = self.u32c(29);
        let c3 = self.u32c(3);
        let sign = self.u32c(0x8000_0000);
        let frac_hi = self.u32c(0x000f_ffff);
        let exp_q = self.u32c(0x7ff8_0000);
        let b = &mut self.b;
        let u = b.bitcast(t32, None, x).map_err(&err)?;
        let lo = b.shift_left_logical(t32, None, u, c29).map_err(&err)?;
        let s = b.bitwise_and(t32, None, u, sign).map_err(&err)?;
        let f = b.shift_right_logical(t32, None, u, c3).map_err(&err)?;
        let f = b.bitwise_and(t32, None, f, frac_hi).map_err(&err)?;
        let hi = b.bitwise_or(t32, None, s, exp_q).map_err(&err)?;
        let hi = b.bitwise_or(t32, None, hi, f).map_err(&err)?;
        let nan = self.f64_of_words(lo, hi)?;
        let is_nan = self.b.is_nan(tb, None, x).map_err(&err)?;
        self.b.select(t64, None, is_nan, nan, r).map_err(&err)
    }

    /// `F64ToF32`: `OpFConvert`, and for a NaN the definition's bits (sign, quiet, the top 23
    /// fraction bits) built on the dwords.
    pub(super) fn f64_to_f32(&mut self, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t32, tb, tf) = (self.t.u32_, self.t.bool_, self.t.f32_);
        let r = self.b.f_convert(tf, None, x).map_err(&err)?;
        let w = self.f64_words(x)?;
        let c29 = self.u32c(29);
        let c3 = self.u32c(3);
        let sign = self.u32c(0x8000_0000);
        let frac_hi = self.u32c(0x000f_ffff);
        let exp_q = self.u32c(0x7fc0_0000);
        let b = &mut self.b;
        let lo = b.composite_extract(t32, None, w, [0]).map_err(&err)?;
        let hi = b.composite_extract(t32, None, w, [1]).map_err(&err)?;
        let s = b.bitwise_and(t32, None, hi, sign).map_err(&err)?;
        let f = b.bitwise_and(t32, None, hi, frac_hi).map_err(&err)?;
        let f = b.shift_left_logical(t32, None, f, c3).map_err(&err)?;
        let l = b.shift_right_logical(t32, None, lo, c29).map_err(&err)?;
        let bits = b.bitwise_or(t32, None, s, exp_q).map_err(&err)?;
        let bits = b.bitwise_or(t32, None, bits, f).map_err(&err)?;
        let bits = b.bitwise_or(t32, None, bits, l).map_err(&err)?;
        let nan = b.bitcast(tf, None, bits).map_err(&err)?;
        let is_nan = b.is_nan(tb, None, x).map_err(&err)?;
        b.select(tf, None, is_nan, nan, r).map_err(&err)
    }

    /// `F64ToS32`/`F64ToU32`: saturated on the f64 value first (NaN to 0), so that
    /// `OpConvertFToS`/`OpConvertFToU` only see values whose truncation is in range.
    pub(super) fn f64_to_int(&mut self, op: Convert, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t32, tb, t64) = (self.t.u32_, self.t.bool_, self.ty(Ty::F64));
        let (lo, hi) = if op == Convert::F64ToS32 {
            (-2_147_483_648.0f64, 2_147_483_647.0f64)
        } else {
            (0.0, 4_294_967_295.0)
        };
        let zero = self.constant(Ty::F64, 0);
        let lo = self.constant(Ty::F64, lo.to_bits());
        let hi = self.constant(Ty::F64, hi.to_bits());
        let b = &mut self.b;
        let is_nan = b.is_nan(tb, None, x).map_err(&err)?;
        let y = b.select(t64, None, is_nan, zero, x).map_err(&err)?;
        let below = b.f_ord_less_than(tb, None, y, lo).map_err(&err)?;
        let y = b.select(t64, None, below, lo, y).map_err(&err)?;
        let above = b.f_ord_greater_than(tb, None, y, hi).map_err(&err)?;
        let y = b.select(t64, None, above, hi, y).map_err(&err)?;
        if op == Convert::F64ToS32 {
            b.convert_f_to_s(t32, None, y)
        } else {
            b.convert_f_to_u(t32, None, y)
        }
        .map_err(&err)
    }

    /// The NaN rule on the native result `r` of type `ty` with operands `ops`: the first NaN
    /// operand quieted, else the default NaN if `r` is a NaN, else `r`.
    fn nan_rule(&mut self, ty: Ty, ops: &[Word], r: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.ty(ty), self.t.bool_);
        let default = if ty == Ty::F64 {
            self.constant(ty, DEFAULT_NAN64)
        } else {
            self.constant(ty, u64::from(DEFAULT_NAN32))
        };
        let r_nan = self.b.is_nan(tb, None, r).map_err(&err)?;
        let mut acc = self.b.select(t, None, r_nan, default, r).map_err(&err)?;
        for &x in ops.iter().rev() {
            let q = self.quiet(ty, x)?;
            let x_nan = self.b.is_nan(tb, None, x).map_err(&err)?;
            acc = self.b.select(t, None, x_nan, q, acc).map_err(&err)?;
        }
        Ok(acc)
    }

    /// `x` with the quiet bit set, on the bits.
    fn quiet(&mut self, ty: Ty, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, t32) = (self.ty(ty), self.t.u32_);
        if ty == Ty::F64 {
            let w = self.f64_words(x)?;
            let q = self.u32c((QUIET64 >> 32) as u32);
            let b = &mut self.b;
            let lo = b.composite_extract(t32, None, w, [0]).map_err(&err)?;
            let hi = b.composite_extract(t32, None, w, [1]).map_err(&err)?;
            let hi = b.bitwise_or(t32, None, hi, q).map_err(&err)?;
            self.f64_of_words(lo, hi)
        } else {
            let q = self.u32c(QUIET32);
            let b = &mut self.b;
            let u = b.bitcast(t32, None, x).map_err(&err)?;
            let u = b.bitwise_or(t32, None, u, q).map_err(&err)?;
            b.bitcast(t, None, u).map_err(&err)
        }
    }
}
