//! The other LDS accesses of [`Expr::Mem`](crate::ir::Expr::Mem) in the wave module (bytes,
//! 64 bits, two operands, the LDS-only operations), with the values of `mem_bits` (the mirror
//! of `crate::eval::mem_apply`): every operation, reads included, is serialised as the LDS atomics are
//! (`lds`): each lane publishes its address, data, second data and a state (0: nothing to
//! do, 1: in range, 2: a fault), lane 0 applies the lanes' operations in ascending order and
//! each lane takes its old value after a barrier. A 1-, 2- or 4-byte access works on the one
//! or two dwords that hold its bytes; an 8-byte one on the aligned dword pair. A fault sets
//! lane 0's fault variable, which becomes the status word ([`LDS_FAULT_STATUS`]).

use rspirv::spirv::Word;

use super::lds::LdsVars;
use super::wave::WaveIo;
use super::{build_err, Emitter, SpirvError};
use crate::ir::{LdsOp, Ty};

/// The status word of a wave that a 64-bit LDS atomic faulted.
pub const LDS_FAULT_STATUS: u32 = 2;

impl Emitter<'_> {
    /// An LDS access that [`Self::lds_op`] does not serve.
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
                let new = self.mem_new(op, old, d, Some(d2), Ty::U64)?;
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
                let new = self.mem_new(op, old, dl, Some(d2l), Ty::U32)?;
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
}
