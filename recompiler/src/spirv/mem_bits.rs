//! The value a memory operation leaves, on SPIR-V words: the one mirror of
//! [`crate::eval::mem_apply`] that every memory emitter uses (`mem` for the memory region,
//! `lds` for a one-operand LDS dword, `lds_wide` for the other LDS accesses). The emitters
//! differ in where the bits live and how lanes are serialised; the bits of each operation are
//! defined here once, on `U32` or `U64` words (the float forms on f32 or f64 bits by the
//! type), with the float-atomic pieces of `float_atomic`.

use rspirv::spirv::{GLOp, Word};

use super::{build_err, Emitter, SpirvError};
use crate::ir::{LdsOp, Ty};

impl Emitter<'_> {
    /// The new value of `op` on `old` with `d` and, for the two-operand operations (the
    /// validator gives them one), `d2`, of type `ty` ([`crate::eval::mem_apply`]; the caller
    /// keeps the access's width).
    pub(super) fn mem_new(
        &mut self,
        op: LdsOp,
        old: Word,
        d: Word,
        d2: Option<Word>,
        ty: Ty,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.ty(ty), self.t.bool_);
        let second = || {
            d2.ok_or_else(|| SpirvError::Unsupported {
                reason: format!("{op:?} without its second data operand"),
            })
        };
        Ok(match op {
            LdsOp::Read => old,
            LdsOp::Write | LdsOp::FCmpSwap { .. } => d,
            LdsOp::Add => self.b.i_add(t, None, old, d).map_err(&err)?,
            LdsOp::Sub => self.b.i_sub(t, None, old, d).map_err(&err)?,
            LdsOp::Rsub => self.b.i_sub(t, None, d, old).map_err(&err)?,
            LdsOp::Inc => {
                let (c0, c1) = (self.constant(ty, 0), self.constant(ty, 1));
                let b = &mut self.b;
                let wrap = b.u_greater_than_equal(tb, None, old, d).map_err(&err)?;
                let up = b.i_add(t, None, old, c1).map_err(&err)?;
                b.select(t, None, wrap, c0, up).map_err(&err)?
            }
            LdsOp::Dec => {
                let (c0, c1) = (self.constant(ty, 0), self.constant(ty, 1));
                let b = &mut self.b;
                let z = b.i_equal(tb, None, old, c0).map_err(&err)?;
                let above = b.u_greater_than(tb, None, old, d).map_err(&err)?;
                let wrap = b.logical_or(tb, None, z, above).map_err(&err)?;
                let down = b.i_sub(t, None, old, c1).map_err(&err)?;
                b.select(t, None, wrap, d, down).map_err(&err)?
            }
            LdsOp::MinI | LdsOp::MaxI | LdsOp::MinU | LdsOp::MaxU => {
                let b = &mut self.b;
                let less = match op {
                    LdsOp::MinI | LdsOp::MaxI => b.s_less_than(tb, None, old, d),
                    _ => b.u_less_than(tb, None, old, d),
                }
                .map_err(&err)?;
                let (x, y) = if matches!(op, LdsOp::MinI | LdsOp::MinU) {
                    (old, d)
                } else {
                    (d, old)
                };
                b.select(t, None, less, x, y).map_err(&err)?
            }
            LdsOp::And => self.b.bitwise_and(t, None, old, d).map_err(&err)?,
            LdsOp::Or => self.b.bitwise_or(t, None, old, d).map_err(&err)?,
            LdsOp::Xor => self.b.bitwise_xor(t, None, old, d).map_err(&err)?,
            LdsOp::Csub => {
                let c0 = self.constant(ty, 0);
                let b = &mut self.b;
                let ge = b.u_greater_than_equal(tb, None, old, d).map_err(&err)?;
                let diff = b.i_sub(t, None, old, d).map_err(&err)?;
                b.select(t, None, ge, diff, c0).map_err(&err)?
            }
            LdsOp::FMin { flush } => self.float_minmax(old, d, flush, false, ty)?,
            LdsOp::FMax { flush } => self.float_minmax(old, d, flush, true, ty)?,
            LdsOp::MskOr => {
                let d2 = second()?;
                let b = &mut self.b;
                let nd = b.not(t, None, d).map_err(&err)?;
                let k = b.bitwise_and(t, None, old, nd).map_err(&err)?;
                b.bitwise_or(t, None, k, d2).map_err(&err)?
            }
            LdsOp::Cmpst => {
                let d2 = second()?;
                let eq = self.b.i_equal(tb, None, old, d).map_err(&err)?;
                self.b.select(t, None, eq, d2, old).map_err(&err)?
            }
            // rule: lds-float-atomics: ds_cmpst_f32/f64 compare the flushed floats
            LdsOp::FCmpst { flush } => {
                let d2 = second()?;
                let eq = self.float_cmp_equal(old, d, flush, ty)?;
                self.b.select(t, None, eq, d2, old).map_err(&err)?
            }
            LdsOp::Wrap => {
                let d2 = second()?;
                let b = &mut self.b;
                let ge = b.u_greater_than_equal(tb, None, old, d).map_err(&err)?;
                let down = b.i_sub(t, None, old, d).map_err(&err)?;
                let up = b.i_add(t, None, old, d2).map_err(&err)?;
                b.select(t, None, ge, down, up).map_err(&err)?
            }
            LdsOp::FAdd { flush } => self.fadd32(old, d, flush)?,
            LdsOp::CondXchg => {
                // Per dword: DATA with bit 31 cleared where DATA's bit 31 is set, else the
                // whole old dword.
                let half = |e: &mut Self, dword: u64| -> Result<Word, SpirvError> {
                    let bit = dword & !(dword >> 1);
                    let (cb, cw, cd) = (
                        e.constant(ty, bit),
                        e.constant(ty, dword),
                        e.constant(ty, dword & !bit),
                    );
                    let c0 = e.constant(ty, 0);
                    let s = e.b.bitwise_and(t, None, d, cb).map_err(&err)?;
                    let set = e.b.i_not_equal(tb, None, s, c0).map_err(&err)?;
                    let dv = e.b.bitwise_and(t, None, d, cd).map_err(&err)?;
                    let ov = e.b.bitwise_and(t, None, old, cw).map_err(&err)?;
                    e.b.select(t, None, set, dv, ov).map_err(&err)
                };
                let lo = half(self, 0xffff_ffff)?;
                let hi = half(self, 0xffff_ffff_0000_0000)?;
                self.b.bitwise_or(t, None, lo, hi).map_err(&err)?
            }
        })
    }

    /// [`crate::eval::fadd32`] on the bits. The sum is taken in f64 on operands widened
    /// exactly on the bits and narrowed on the bits below 2^-126, so no driver's f32 denormal
    /// handling (NVIDIA flushes f32 denormals in `OpFAdd` and `OpFConvert`) reaches it: the f64
    /// sum of two f32 values rounds to f32 as the f32 sum does (53 >= 2 * 24 + 2).
    fn fadd32(&mut self, old: Word, d: Word, flush: bool) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.t.u32_;
        let o = self.float_flush(old, flush, Ty::U32)?;
        let d = self.float_flush(d, flush, Ty::U32)?;
        let (no, nd) = (self.float_nan(o, Ty::U32)?, self.float_nan(d, Ty::U32)?);
        let (quiet, dnan) = (self.u32c(0x0040_0000), self.u32c(0x7fc0_0000));
        let (wo, wd) = (self.f32_bits_to_f64(o)?, self.f32_bits_to_f64(d)?);
        let t64 = self.ty(Ty::F64);
        let sum = self.b.f_add(t64, None, wo, wd).map_err(&err)?;
        let sum = self.no_contraction(sum);
        let tb = self.t.bool_;
        let ns = self.b.is_nan(tb, None, sum).map_err(&err)?;
        let s = self.f64_to_f32_bits(sum)?;
        let s = self.float_flush(s, flush, Ty::U32)?;
        let b = &mut self.b;
        let r = b.select(t, None, ns, dnan, s).map_err(&err)?;
        let dq = b.bitwise_or(t, None, d, quiet).map_err(&err)?;
        let r = b.select(t, None, nd, dq, r).map_err(&err)?;
        let oq = b.bitwise_or(t, None, o, quiet).map_err(&err)?;
        b.select(t, None, no, oq, r).map_err(&err)
    }

    /// The exact f64 of f32 bits `u` (`U32`, not a NaN): a denormal or zero as its fraction
    /// times 2^-149 (an exact conversion of an integer below 2^23 and an exact scaling), a
    /// normal or infinite value by `OpFConvert`.
    fn f32_bits_to_f64(&mut self, u: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb, tf, t64) = (self.t.u32_, self.t.bool_, self.t.f32_, self.ty(Ty::F64));
        let (exp, frac, sign, zero) = (
            self.u32c(0x7f80_0000),
            self.u32c(0x007f_ffff),
            self.u32c(0x8000_0000),
            self.u32c(0),
        );
        let scale = self.constant(Ty::F64, (-149f64).exp2().to_bits());
        let b = &mut self.b;
        let e = b.bitwise_and(t, None, u, exp).map_err(&err)?;
        let small = b.i_equal(tb, None, e, zero).map_err(&err)?;
        let m = b.bitwise_and(t, None, u, frac).map_err(&err)?;
        let m = b.convert_u_to_f(t64, None, m).map_err(&err)?;
        let den = b.f_mul(t64, None, m, scale).map_err(&err)?;
        let neg_den = b.f_negate(t64, None, den).map_err(&err)?;
        let sb = b.bitwise_and(t, None, u, sign).map_err(&err)?;
        let neg = b.i_not_equal(tb, None, sb, zero).map_err(&err)?;
        let den = b.select(t64, None, neg, neg_den, den).map_err(&err)?;
        let f = b.bitcast(tf, None, u).map_err(&err)?;
        let wide = b.f_convert(t64, None, f).map_err(&err)?;
        let r = b.select(t64, None, small, den, wide).map_err(&err)?;
        Ok(self.no_contraction(r))
    }

    /// The f32 bits of f64 `x` (not a NaN) rounded to nearest even: below 2^-126 in magnitude
    /// as `|x| * 2^149` rounded to an integer (the denormal's fraction; 2^23 is the smallest
    /// normal), otherwise by `OpFConvert`.
    fn f64_to_f32_bits(&mut self, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb, tf, t64) = (self.t.u32_, self.t.bool_, self.t.f32_, self.ty(Ty::F64));
        let tiny = self.constant(Ty::F64, (-126f64).exp2().to_bits());
        let scale = self.constant(Ty::F64, 149f64.exp2().to_bits());
        let sign = self.u32c(0x8000_0000);
        let w = self.f64_words(x)?;
        let a = self.glsl(t64, GLOp::FAbs, &[x])?;
        let b = &mut self.b;
        let hi = b.composite_extract(t, None, w, [1]).map_err(&err)?;
        let sb = b.bitwise_and(t, None, hi, sign).map_err(&err)?;
        let is_tiny = b.f_ord_less_than(tb, None, a, tiny).map_err(&err)?;
        let scaled = b.f_mul(t64, None, a, scale).map_err(&err)?;
        let scaled = self.no_contraction(scaled);
        let rounded = self.glsl(t64, GLOp::RoundEven, &[scaled])?;
        let b = &mut self.b;
        let m = b.convert_f_to_u(t, None, rounded).map_err(&err)?;
        let den = b.bitwise_or(t, None, m, sb).map_err(&err)?;
        let n = b.f_convert(tf, None, x).map_err(&err)?;
        let n = b.bitcast(t, None, n).map_err(&err)?;
        b.select(t, None, is_tiny, den, n).map_err(&err)
    }
}
