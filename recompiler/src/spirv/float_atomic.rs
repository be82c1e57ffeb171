//! The float memory atomics' bits in SPIR-V, on f32 (`U32`) or f64 (`U64`) words: the same
//! sequence as [`crate::eval`] (min/max order, flush, NaN cases; the float
//! compare-and-swap's equality).

use rspirv::spirv::Word;

use super::{build_err, Emitter, SpirvError};
use crate::ir::Ty;

impl Emitter<'_> {
    /// (sign, exponent, quiet bit, magnitude mask) constants of `ty`.
    fn float_consts(&mut self, ty: Ty) -> [Word; 5] {
        let wide = ty == Ty::U64;
        let (sign, exp, quiet) = if wide {
            (1u64 << 63, 0x7ff0_0000_0000_0000, 1u64 << 51)
        } else {
            (1 << 31, 0x7f80_0000, 1 << 22)
        };
        [0, sign, exp, quiet, sign - 1].map(|v| self.constant(ty, v))
    }

    /// `x` flushed to the zero of its sign where the exponent is 0 (when `flush`).
    pub(super) fn float_flush(&mut self, x: Word, flush: bool, ty: Ty) -> Result<Word, SpirvError> {
        if !flush {
            return Ok(x);
        }
        let err = build_err(self.at);
        let (t, tb) = (self.ty(ty), self.t.bool_);
        let [c0, sign, exp, _, _] = self.float_consts(ty);
        let b = &mut self.b;
        let e = b.bitwise_and(t, None, x, exp).map_err(&err)?;
        let zero_exp = b.i_equal(tb, None, e, c0).map_err(&err)?;
        let s = b.bitwise_and(t, None, x, sign).map_err(&err)?;
        b.select(t, None, zero_exp, s, x).map_err(&err)
    }

    /// Whether `x` is a NaN.
    pub(super) fn float_nan(&mut self, x: Word, ty: Ty) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.ty(ty), self.t.bool_);
        let [_, _, exp, _, abs] = self.float_consts(ty);
        let a = self.b.bitwise_and(t, None, x, abs).map_err(&err)?;
        self.b.u_greater_than(tb, None, a, exp).map_err(&err)
    }

    /// [`crate::eval::float_minmax`] on `ty` words.
    pub(super) fn float_minmax(
        &mut self,
        old: Word,
        d: Word,
        flush: bool,
        max: bool,
        ty: Ty,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.ty(ty), self.t.bool_);
        let [c0, sign, _, quiet, _] = self.float_consts(ty);
        let o = self.float_flush(old, flush, ty)?;
        let d = self.float_flush(d, flush, ty)?;
        let (no, nd) = (self.float_nan(o, ty)?, self.float_nan(d, ty)?);
        let b = &mut self.b;
        let snan = |b: &mut rspirv::dr::Builder, x: Word, n: Word| -> Result<Word, SpirvError> {
            let q = b.bitwise_and(t, None, x, quiet).map_err(&err)?;
            let sig = b.i_equal(tb, None, q, c0).map_err(&err)?;
            b.logical_and(tb, None, n, sig).map_err(&err)
        };
        let key = |b: &mut rspirv::dr::Builder, x: Word| -> Result<Word, SpirvError> {
            let s = b.bitwise_and(t, None, x, sign).map_err(&err)?;
            let neg = b.i_not_equal(tb, None, s, c0).map_err(&err)?;
            let inv = b.not(t, None, x).map_err(&err)?;
            let pos = b.bitwise_or(t, None, x, sign).map_err(&err)?;
            b.select(t, None, neg, inv, pos).map_err(&err)
        };
        let (so, sd) = (snan(b, o, no)?, snan(b, d, nd)?);
        let (ko, kd) = (key(b, o)?, key(b, d)?);
        let d_wins = if max {
            b.u_greater_than(tb, None, kd, ko)
        } else {
            b.u_less_than(tb, None, kd, ko)
        }
        .map_err(&err)?;
        let r = b.select(t, None, d_wins, d, o).map_err(&err)?;
        let r = b.select(t, None, nd, o, r).map_err(&err)?;
        let r = b.select(t, None, no, d, r).map_err(&err)?;
        let oq = b.bitwise_or(t, None, o, quiet).map_err(&err)?;
        let r = b.select(t, None, so, oq, r).map_err(&err)?;
        let dq = b.bitwise_or(t, None, d, quiet).map_err(&err)?;
        b.select(t, None, sd, dq, r).map_err(&err)
    }

    /// [`crate::eval::float_cmp_equal`] on `ty` words: a Bool.
    pub(super) fn float_cmp_equal(
        &mut self,
        old: Word,
        c: Word,
        flush: bool,
        ty: Ty,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.ty(ty), self.t.bool_);
        let [c0, _, _, _, abs] = self.float_consts(ty);
        let o = self.float_flush(old, flush, ty)?;
        let c = self.float_flush(c, flush, ty)?;
        let (no, nc) = (self.float_nan(o, ty)?, self.float_nan(c, ty)?);
        let b = &mut self.b;
        let same = b.i_equal(tb, None, o, c).map_err(&err)?;
        let both = b.bitwise_or(t, None, o, c).map_err(&err)?;
        let mag = b.bitwise_and(t, None, both, abs).map_err(&err)?;
        let zeros = b.i_equal(tb, None, mag, c0).map_err(&err)?;
        let eq = b.logical_or(tb, None, same, zeros).map_err(&err)?;
        let any_nan = b.logical_or(tb, None, no, nc).map_err(&err)?;
        let ordered = b.logical_not(tb, None, any_nan).map_err(&err)?;
        b.logical_and(tb, None, eq, ordered).map_err(&err)
    }

    /// Whether a compare-and-swap of `op` writes ([`crate::eval::mem_swaps`]).
    pub(super) fn mem_swaps(
        &mut self,
        op: crate::ir::LdsOp,
        old: Word,
        c: Word,
        ty: Ty,
    ) -> Result<Word, SpirvError> {
        match op {
            crate::ir::LdsOp::FCmpSwap { flush } => self.float_cmp_equal(old, c, flush, ty),
            _ => self
                .b
                .i_equal(self.t.bool_, None, old, c)
                .map_err(build_err(self.at)),
        }
    }
}
