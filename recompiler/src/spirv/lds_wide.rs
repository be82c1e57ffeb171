//! [`Expr::LdsWide`](crate::ir::Expr::LdsWide) in the wave module, with the bits of
//! `crate::eval::mem_apply`: every operation, reads included, is serialised as the LDS atomics are
//! (`lds`): each lane publishes its address, data, second data and a state (0: nothing to
//! do, 1: in range, 2: a fault), lane 0 applies the lanes' operations in ascending order and
//! each lane takes its old value after a barrier. A 1-, 2- or 4-byte access works on the one
//! or two dwords that hold its bytes; an 8-byte one on the aligned dword pair. A fault sets
//! lane 0's fault variable, which becomes the status word ([`LDS_FAULT_STATUS`]).

use rspirv::spirv::{GLOp, Word};

use super::lds::LdsVars;
use super::wave::WaveIo;
use super::{build_err, Emitter, SpirvError};
use crate::ir::{LdsOp, Ty};

/// The status word of a wave that a 64-bit LDS atomic faulted.
pub const LDS_FAULT_STATUS: u32 = 2;

impl Emitter<'_> {
    /// [`Expr::LdsWide`](crate::ir::Expr::LdsWide).
    pub(super) fn lds_wide_op(
        &mut self,
        w: &WaveIo,
        lane: Word,
        op: LdsOp,
        bytes: u8,
        [a, d, d2, active]: [Word; 4],
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let wide = bytes == 8;
        let rty = if wide { Ty::U64 } else { Ty::U32 };
        let (c0, c1, c2, c7) = (self.u32c(0), self.u32c(1), self.u32c(2), self.u32c(7));
        self.barrier()?;
        let Some(v) = w.lds else {
            return Ok(self.constant(rty, 0));
        };
        if v.dwords * 4 < u32::from(bytes) {
            return Ok(self.constant(rty, 0));
        }
        // The lane's state: 2 a fault, 1 an access inside the LDS, 0 nothing.
        let last = self.u32c(4 * v.dwords - u32::from(bytes));
        let b = &mut self.b;
        let inside = b.u_less_than_equal(tb, None, a, last).map_err(&err)?;
        let ok = b.logical_and(tb, None, active, inside).map_err(&err)?;
        let mut state = b.select(t, None, ok, c1, c0).map_err(&err)?;
        if wide {
            let low = b.bitwise_and(t, None, a, c7).map_err(&err)?;
            let mis = b.i_not_equal(tb, None, low, c0).map_err(&err)?;
            let fault = b.logical_and(tb, None, active, mis).map_err(&err)?;
            state = b.select(t, None, fault, c2, state).map_err(&err)?;
        }
        let (dl, dh, d2l, d2h) = if wide {
            let (dl, dh) = self.split64(d)?;
            let (d2l, d2h) = self.split64(d2)?;
            (dl, dh, d2l, d2h)
        } else {
            (d, c0, d2, c0)
        };
        for (array, value) in [
            (v.xa, a),
            (v.xd, dl),
            (v.xdh, dh),
            (v.xd2, d2l),
            (v.xd2h, d2h),
            (v.xe, state),
        ] {
            self.wg_store(w, array, lane, value)?;
        }
        self.barrier()?;
        let merge = self.if_lane0(lane)?;
        // Not an unrolled sequence: 64 copies of the update take lavapipe's compiler tens of
        // seconds (see `lane_loop`).
        self.lane_loop(v.index, |e, ci| e.lds_wide_lane(w, &v, op, bytes, ci))?;
        self.end_if(merge)?;
        self.barrier()?;
        let rl = self.wg_load(w, v.xr, lane)?;
        if wide {
            let rh = self.wg_load(w, v.xrh, lane)?;
            self.pack64(rl, rh)
        } else {
            Ok(rl)
        }
    }

    /// Lane `ci`'s operation, applied by lane 0 (see [`Self::lds_wide_op`]).
    fn lds_wide_lane(
        &mut self,
        w: &WaveIo,
        v: &LdsVars,
        op: LdsOp,
        bytes: u8,
        ci: Word,
    ) -> Result<(), SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let wide = bytes == 8;
        let rty = if wide { Ty::U64 } else { Ty::U32 };
        let (c0, c1, c2, c3) = (self.u32c(0), self.u32c(1), self.u32c(2), self.u32c(3));
        {
            let load = |e: &mut Self, array: Word| e.wg_load(w, array, ci);
            let a = load(self, v.xa)?;
            let s = load(self, v.xe)?;
            let b = &mut self.b;
            let ok = b.i_equal(tb, None, s, c1).map_err(&err)?;
            let faulted = b.i_equal(tb, None, s, c2).map_err(&err)?;
            let f = b.load(t, None, v.fault, None, []).map_err(&err)?;
            let cf = self.u32c(LDS_FAULT_STATUS);
            let f = self.b.select(t, None, faulted, cf, f).map_err(&err)?;
            self.b.store(v.fault, f, None, []).map_err(&err)?;
            let a = self.b.select(t, None, ok, a, c0).map_err(&err)?;
            let i0 = self.b.shift_right_logical(t, None, a, c2).map_err(&err)?;
            let (dl, d2l) = (load(self, v.xd)?, load(self, v.xd2)?);
            let (old, lo_new, hi_new, i1) = if wide {
                let (dh, d2h) = (load(self, v.xdh)?, load(self, v.xd2h)?);
                let i1 = self.b.i_add(t, None, i0, c1).map_err(&err)?;
                let lo = self.wg_load(w, v.lds, i0)?;
                let hi = self.wg_load(w, v.lds, i1)?;
                let old = self.pack64(lo, hi)?;
                let d = self.pack64(dl, dh)?;
                let d2 = self.pack64(d2l, d2h)?;
                let new = self.lds_new2(op, old, d, d2, Ty::U64)?;
                let (nl, nh) = self.split64(new)?;
                let nl = self.b.select(t, None, ok, nl, lo).map_err(&err)?;
                let nh = self.b.select(t, None, ok, nh, hi).map_err(&err)?;
                (old, nl, nh, i1)
            } else {
                let cl = self.u32c(u32::from(bytes) - 1);
                let end = self.b.i_add(t, None, a, cl).map_err(&err)?;
                let i1 = self.b.shift_right_logical(t, None, end, c2).map_err(&err)?;
                let lo = self.wg_load(w, v.lds, i0)?;
                let hi = self.wg_load(w, v.lds, i1)?;
                let byte = self.b.bitwise_and(t, None, a, c3).map_err(&err)?;
                let sh = self.b.shift_left_logical(t, None, byte, c3).map_err(&err)?;
                let mask = self.u32c(crate::eval::width_mask(bytes) as u32);
                let whole = self.funnel(lo, hi, sh)?;
                let old = self.b.bitwise_and(t, None, whole, mask).map_err(&err)?;
                let new = self.lds_new2(op, old, dl, d2l, Ty::U32)?;
                let new = self.b.bitwise_and(t, None, new, mask).map_err(&err)?;
                let new = self.b.select(t, None, ok, new, old).map_err(&err)?;
                let (lo_new, hi_new) = self.lds_merge(lo, hi, sh, mask, new)?;
                (old, lo_new, hi_new, i1)
            };
            // When both dwords are one, the low one holds the whole update: store it last.
            self.wg_store(w, v.lds, i1, hi_new)?;
            self.wg_store(w, v.lds, i0, lo_new)?;
            let zero = self.constant(rty, 0);
            let r = self
                .b
                .select(self.ty(rty), None, ok, old, zero)
                .map_err(&err)?;
            if wide {
                let (rl, rh) = self.split64(r)?;
                self.wg_store(w, v.xr, ci, rl)?;
                self.wg_store(w, v.xrh, ci, rh)?;
            } else {
                self.wg_store(w, v.xr, ci, r)?;
            }
        }
        Ok(())
    }

    /// The dwords `lo` and `hi` with the `mask` bits of `new` put at bit shift `sh` of `lo`
    /// (and the bits past 32 at the bottom of `hi`; `hi` unchanged when `sh` is 0).
    fn lds_merge(
        &mut self,
        lo: Word,
        hi: Word,
        sh: Word,
        mask: Word,
        new: Word,
    ) -> Result<(Word, Word), SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let (c0, c31, c32) = (self.u32c(0), self.u32c(31), self.u32c(32));
        let b = &mut self.b;
        let m = b.shift_left_logical(t, None, mask, sh).map_err(&err)?;
        let keep = b.not(t, None, m).map_err(&err)?;
        let kept = b.bitwise_and(t, None, lo, keep).map_err(&err)?;
        let up = b.shift_left_logical(t, None, new, sh).map_err(&err)?;
        let lo_new = b.bitwise_or(t, None, kept, up).map_err(&err)?;
        let back = b.i_sub(t, None, c32, sh).map_err(&err)?;
        let back = b.bitwise_and(t, None, back, c31).map_err(&err)?;
        let mh = b.shift_right_logical(t, None, mask, back).map_err(&err)?;
        let keep_h = b.not(t, None, mh).map_err(&err)?;
        let kept_h = b.bitwise_and(t, None, hi, keep_h).map_err(&err)?;
        let down = b.shift_right_logical(t, None, new, back).map_err(&err)?;
        let hi_new = b.bitwise_or(t, None, kept_h, down).map_err(&err)?;
        let aligned = b.i_equal(tb, None, sh, c0).map_err(&err)?;
        let hi_new = b.select(t, None, aligned, hi, hi_new).map_err(&err)?;
        Ok((lo_new, hi_new))
    }

    /// The new value of `op` on `old` with `d` and `d2` of type `ty` (`U32` or `U64`): the
    /// LDS-only and 64-bit float operations here, the others [`Self::lds_new_ty`]'s.
    pub(super) fn lds_new2(
        &mut self,
        op: LdsOp,
        old: Word,
        d: Word,
        d2: Word,
        ty: Ty,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.ty(ty), self.t.bool_);
        Ok(match op {
            LdsOp::MskOr => {
                let nd = self.b.not(t, None, d).map_err(&err)?;
                let k = self.b.bitwise_and(t, None, old, nd).map_err(&err)?;
                self.b.bitwise_or(t, None, k, d2).map_err(&err)?
            }
            LdsOp::Cmpst => {
                let eq = self.b.i_equal(tb, None, old, d).map_err(&err)?;
                self.b.select(t, None, eq, d2, old).map_err(&err)?
            }
            LdsOp::Wrap => {
                let ge = self
                    .b
                    .u_greater_than_equal(tb, None, old, d)
                    .map_err(&err)?;
                let down = self.b.i_sub(t, None, old, d).map_err(&err)?;
                let up = self.b.i_add(t, None, old, d2).map_err(&err)?;
                self.b.select(t, None, ge, down, up).map_err(&err)?
            }
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
            LdsOp::FCmpst { flush } => {
                let eq = self.float_cmp_equal(old, d, flush, ty)?;
                self.b.select(t, None, eq, d2, old).map_err(&err)?
            }
            LdsOp::FMin { flush } | LdsOp::FMax { flush } if ty == Ty::U64 => {
                self.float_minmax(old, d, flush, matches!(op, LdsOp::FMax { .. }), ty)?
            }
            LdsOp::FAdd { flush } => self.fadd32(old, d, flush)?,
            _ => self.lds_new_ty(op, old, d, ty)?,
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
