//! 64-bit helpers: U64 values split into and packed from U32 halves, and the U64 forms of the
//! bit operations Vulkan allows on 32-bit operands only.

use rspirv::spirv::{GLOp, Word};

use super::{build_err, Emitter, SpirvError};
use crate::ir::{IntUn, Ty};

impl Emitter<'_> {
    pub(super) fn pack64(&mut self, lo: Word, hi: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t64 = self.ty(Ty::U64);
        let c32 = self.constant(Ty::U64, 32);
        let l = self.b.u_convert(t64, None, lo).map_err(&err)?;
        let h = self.b.u_convert(t64, None, hi).map_err(&err)?;
        let hs = self.b.shift_left_logical(t64, None, h, c32).map_err(&err)?;
        self.b.bitwise_or(t64, None, hs, l).map_err(&err)
    }

    /// Splits a U64 value into (lo, hi) U32 halves.
    pub(super) fn split64(&mut self, x: Word) -> Result<(Word, Word), SpirvError> {
        let err = build_err(self.at);
        let (t32, t64) = (self.t.u32_, self.ty(Ty::U64));
        let c32 = self.constant(Ty::U64, 32);
        let lo = self.b.u_convert(t32, None, x).map_err(&err)?;
        let hs = self
            .b
            .shift_right_logical(t64, None, x, c32)
            .map_err(&err)?;
        let hi = self.b.u_convert(t32, None, hs).map_err(&err)?;
        Ok((lo, hi))
    }

    /// `IntUn` on a U64 `x` other than `Not`/`Neg`: Vulkan allows `OpBitCount`,
    /// `OpBitReverse`, `FindUMsb` and `FindILsb` only on 32-bit operands, so the halves are
    /// combined.
    pub(super) fn int_un64(&mut self, op: IntUn, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.ty(Ty::U64);
        let (t32, tb) = (self.t.u32_, self.t.bool_);
        let (lo, hi) = self.split64(x)?;
        match op {
            IntUn::Popcount => {
                let pl = self.b.bit_count(t32, None, lo).map_err(&err)?;
                let ph = self.b.bit_count(t32, None, hi).map_err(&err)?;
                let s = self.b.i_add(t32, None, pl, ph).map_err(&err)?;
                self.b.u_convert(t, None, s).map_err(&err)
            }
            IntUn::BitReverse => {
                let rl = self.b.bit_reverse(t32, None, lo).map_err(&err)?;
                let rh = self.b.bit_reverse(t32, None, hi).map_err(&err)?;
                self.pack64(rh, rl)
            }
            _ => {
                let zero32 = self.u32c(0);
                let c32 = self.u32c(32);
                let zero64 = self.constant(Ty::U64, 0);
                let ones64 = self.constant(Ty::U64, u64::MAX);
                let (near, far, far_nonzero_first) = if op == IntUn::FindMsbU {
                    // The high half decides when it has a set bit.
                    (hi, lo, true)
                } else {
                    (lo, hi, false)
                };
                let gl = if op == IntUn::FindMsbU {
                    GLOp::FindUMsb
                } else {
                    GLOp::FindILsb
                };
                let rn = self.glsl(t32, gl, &[near])?;
                let rf = self.glsl(t32, gl, &[far])?;
                let near_set = self.b.i_not_equal(tb, None, near, zero32).map_err(&err)?;
                // msb: hi set -> 32 + msb(hi), else msb(lo); lsb: lo set -> lsb(lo), else 32 + lsb(hi).
                let r32 = if far_nonzero_first {
                    let hi_idx = self.b.i_add(t32, None, rn, c32).map_err(&err)?;
                    self.b
                        .select(t32, None, near_set, hi_idx, rf)
                        .map_err(&err)?
                } else {
                    let hi_idx = self.b.i_add(t32, None, rf, c32).map_err(&err)?;
                    self.b
                        .select(t32, None, near_set, rn, hi_idx)
                        .map_err(&err)?
                };
                let r64 = self.b.u_convert(t, None, r32).map_err(&err)?;
                let is0 = self.b.i_equal(tb, None, x, zero64).map_err(&err)?;
                self.b.select(t, None, is0, ones64, r64).map_err(&err)
            }
        }
    }

    /// The (lo, hi) dwords of an F64 value, as a `uvec2` (no Int64 needed).
    pub(super) fn f64_words(&mut self, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let v2 = self.t.uvec2.unwrap_or(self.t.uvec3);
        self.b.bitcast(v2, None, x).map_err(&err)
    }

    /// The F64 value of the dwords (lo, hi).
    pub(super) fn f64_of_words(&mut self, lo: Word, hi: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let v2 = self.t.uvec2.unwrap_or(self.t.uvec3);
        let t64 = self.ty(Ty::F64);
        let w = self
            .b
            .composite_construct(v2, None, [lo, hi])
            .map_err(&err)?;
        self.b.bitcast(t64, None, w).map_err(&err)
    }
}
