//! LDS in the wave module: the wave's LDS is a workgroup array of `lds_dwords` u32, filled
//! from the input buffer before the body and copied to the output buffer after it.
//!
//! A one-operand dword access of the LDS ([`Expr::Mem`](crate::ir::Expr::Mem) with
//! `Space::Lds`, 4 bytes, no second operand) gives the bits of `crate::wave`, with the values
//! of `mem_bits`: a `Read` is done by
//! every lane at once after a barrier (reads do not interact); every other operation is
//! serialised so that lanes apply it in ascending lane order: after a barrier each lane
//! publishes its address, data and activity, lane 0 applies the operation for lane 0, 1, ...
//! (no barrier inside), and after another barrier each lane takes its old value. A dword at an
//! unaligned byte address spans two array elements; an access that does not lie inside the
//! LDS reads 0 and writes nothing.

use rspirv::spirv::{StorageClass, Word};

use super::fence::{self, Guard};

/// Lanes served per iteration of a [`Emitter::lane_loop`] (a divisor of 32).
const LANES_PER_ITERATION: u32 = 4;
use super::wave::WaveIo;
use super::{build_err, Emitter, SpirvError};
use crate::ir::LdsOp;

/// The shared arrays of the LDS and of the serialised operations.
#[derive(Clone, Copy)]
pub(super) struct LdsVars {
    pub(super) lds: Word,
    /// Per lane: address, data, active, old value.
    pub(super) xa: Word,
    pub(super) xd: Word,
    pub(super) xe: Word,
    pub(super) xr: Word,
    /// Per lane, for the accesses of `lds_wide`: second data, and the high
    /// halves of data, second data and old value of a 64-bit operation.
    pub(super) xd2: Word,
    pub(super) xdh: Word,
    pub(super) xd2h: Word,
    pub(super) xrh: Word,
    /// A Private u32, 0 until an LDS access faults the wave (then the status word).
    pub(super) fault: Word,
    /// A Private u32 loop counter for the copies.
    pub(super) index: Word,
    pub(super) dwords: u32,
    /// One claim word per LDS byte for the parallel stores ([`Emitter::lds_store`]), zeroed
    /// with the LDS copy; only for an LDS of at most [`CLAIMED_LDS_DWORDS`] dwords.
    pub(super) claims: Option<Word>,
}

/// The largest LDS whose stores run in parallel: its claim words (16 bytes per LDS dword) take
/// 8 KiB of workgroup memory, which with the LDS and the lane arrays stays within the 16 KiB
/// every Vulkan driver gives a workgroup. A larger LDS is served lane by lane.
pub(super) const CLAIMED_LDS_DWORDS: u32 = 512;

impl Emitter<'_> {
    /// Declares the LDS arrays (before the function begins); `None` without LDS.
    pub(super) fn declare_lds(&mut self, dwords: u32) -> Option<LdsVars> {
        if dwords == 0 {
            return None;
        }
        let t = self.t.u32_;
        let array = |b: &mut rspirv::dr::Builder, n: Word| {
            let ty = b.type_array(t, n);
            let ptr = b.type_pointer(None, StorageClass::Workgroup, ty);
            b.variable(ptr, None, StorageClass::Workgroup, None)
        };
        let c_dwords = self.u32c(dwords);
        let c_lanes = self.u32c(self.wave.lanes());
        let lds = array(&mut self.b, c_dwords);
        self.b.name(lds, "lds");
        let [xa, xd, xe, xr, xd2, xdh, xd2h, xrh] = [(); 8].map(|_| array(&mut self.b, c_lanes));
        let ptr = self.b.type_pointer(None, StorageClass::Private, t);
        let zero = self.u32c(0);
        let index = self
            .b
            .variable(ptr, None, StorageClass::Private, Some(zero));
        let fault = self
            .b
            .variable(ptr, None, StorageClass::Private, Some(zero));
        let claims = (dwords <= CLAIMED_LDS_DWORDS).then(|| {
            let n = self.u32c(4 * dwords);
            array(&mut self.b, n)
        });
        self.lds_claims = claims.is_some();
        Some(LdsVars {
            lds,
            xa,
            xd,
            xe,
            xr,
            xd2,
            xdh,
            xd2h,
            xrh,
            fault,
            index,
            dwords,
            claims,
        })
    }

    pub(super) fn wg_ptr(&mut self, w: &WaveIo, array: Word, i: Word) -> Result<Word, SpirvError> {
        self.b
            .access_chain(w.ptr_wg_u32, None, array, [i])
            .map_err(build_err(self.at))
    }

    pub(super) fn wg_load(&mut self, w: &WaveIo, array: Word, i: Word) -> Result<Word, SpirvError> {
        let p = self.wg_ptr(w, array, i)?;
        self.b
            .load(self.t.u32_, None, p, None, [])
            .map_err(build_err(self.at))
    }

    pub(super) fn wg_store(
        &mut self,
        w: &WaveIo,
        array: Word,
        i: Word,
        v: Word,
    ) -> Result<(), SpirvError> {
        let p = self.wg_ptr(w, array, i)?;
        self.b.store(p, v, None, []).map_err(build_err(self.at))
    }

    /// `for (k = lane; k < dwords; k += wave) body(k)` on every invocation.
    pub(super) fn lds_copy(
        &mut self,
        w: &WaveIo,
        lane: Word,
        body: impl FnMut(&mut Self, Word) -> Result<(), SpirvError>,
    ) -> Result<(), SpirvError> {
        let Some(v) = w.lds else { return Ok(()) };
        self.strided_loop(v.index, v.dwords, lane, body)
    }

    /// `for (k = lane; k < dwords; k += wave) body(k)` on every invocation, with `k` kept
    /// in the Function variable `index`.
    pub(super) fn strided_loop(
        &mut self,
        index: Word,
        dwords: u32,
        lane: Word,
        body: impl FnMut(&mut Self, Word) -> Result<(), SpirvError>,
    ) -> Result<(), SpirvError> {
        let step = self.wave.lanes();
        self.counted_loop(index, lane, dwords, step, body)
    }

    /// `for (k = start; k < end; k += step) body(k)`, with `k` kept in the variable `index`
    /// (a real loop: unrolled copies made lavapipe's compile time grow with the wave).
    /// `for (i = 0; i < lanes; i++) body(i)` for lane 0's service of every lane, as a loop
    /// of [`LANES_PER_ITERATION`] copies of the body: a loop per lane spends lavapipe's budget
    /// of 65535 loop iterations per shader (shared between every loop; past it the loops end
    /// early and silently) within a few hundred iterations of a real kernel's loop, a copy
    /// per lane makes a module drivers take seconds to compile.
    pub(super) fn lane_loop(
        &mut self,
        index: Word,
        mut body: impl FnMut(&mut Self, Word) -> Result<(), SpirvError>,
    ) -> Result<(), SpirvError> {
        let c0 = self.u32c(0);
        let lanes = self.wave.lanes();
        self.counted_loop(index, c0, lanes, LANES_PER_ITERATION, |e, k| {
            for j in 0..LANES_PER_ITERATION {
                let cj = e.u32c(j);
                let i = e.b.i_add(e.t.u32_, None, k, cj).map_err(build_err(e.at))?;
                body(e, i)?;
            }
            Ok(())
        })
    }

    pub(super) fn counted_loop(
        &mut self,
        index: Word,
        start: Word,
        end: u32,
        step: u32,
        mut body: impl FnMut(&mut Self, Word) -> Result<(), SpirvError>,
    ) -> Result<(), SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let c_end = self.u32c(end);
        let c_step = self.u32c(step);
        self.b.store(index, start, None, []).map_err(&err)?;
        let [header, check, work, cont, merge] = [(); 5].map(|_| self.b.id());
        self.b.branch(header).map_err(&err)?;
        self.b.begin_block(Some(header)).map_err(&err)?;
        self.b
            .loop_merge(merge, cont, rspirv::spirv::LoopControl::NONE, [])
            .map_err(&err)?;
        self.b.branch(check).map_err(&err)?;
        self.b.begin_block(Some(check)).map_err(&err)?;
        let k = self.b.load(t, None, index, None, []).map_err(&err)?;
        let more = self.b.u_less_than(tb, None, k, c_end).map_err(&err)?;
        self.b
            .branch_conditional(more, work, merge, [])
            .map_err(&err)?;
        self.b.begin_block(Some(work)).map_err(&err)?;
        body(self, k)?;
        self.b.branch(cont).map_err(&err)?;
        self.b.begin_block(Some(cont)).map_err(&err)?;
        let next = self.b.i_add(t, None, k, c_step).map_err(&err)?;
        self.b.store(index, next, None, []).map_err(&err)?;
        self.b.branch(header).map_err(&err)?;
        self.b.begin_block(Some(merge)).map_err(&err)?;
        if let Some(cut) = self.loop_cut {
            // Ended before its count: a driver's loop limit, not the program.
            let k = self.b.load(t, None, index, None, []).map_err(&err)?;
            let short = self.b.u_less_than(tb, None, k, c_end).map_err(&err)?;
            let old = self.b.load(t, None, cut, None, []).map_err(&err)?;
            let status = self.u32c(super::wave::LOOP_CUT_STATUS);
            let new = self.b.select(t, None, short, status, old).map_err(&err)?;
            self.b.store(cut, new, None, []).map_err(&err)?;
        }
        Ok(())
    }

    /// (in range, first element, second element, bit shift) of a dword at byte `a`; the
    /// elements are 0 when out of range, equal when aligned.
    fn lds_slots(&mut self, v: &LdsVars, a: Word, ok: Word) -> Result<[Word; 4], SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let (c0, c1, c2, c3) = (self.u32c(0), self.u32c(1), self.u32c(2), self.u32c(3));
        let last = self.u32c((4 * v.dwords).saturating_sub(4));
        let b = &mut self.b;
        let inside = b.u_less_than_equal(tb, None, a, last).map_err(&err)?;
        let ok = b.logical_and(tb, None, ok, inside).map_err(&err)?;
        let i0 = b.shift_right_logical(t, None, a, c2).map_err(&err)?;
        let i0 = b.select(t, None, ok, i0, c0).map_err(&err)?;
        let byte = b.bitwise_and(t, None, a, c3).map_err(&err)?;
        let sh = b.shift_left_logical(t, None, byte, c3).map_err(&err)?;
        let sh = b.select(t, None, ok, sh, c0).map_err(&err)?;
        let aligned = b.i_equal(tb, None, sh, c0).map_err(&err)?;
        let i1 = b.i_add(t, None, i0, c1).map_err(&err)?;
        let i1 = b.select(t, None, aligned, i0, i1).map_err(&err)?;
        Ok([ok, i0, i1, sh])
    }

    /// The dword made of `lo` and `hi` at bit shift `sh` (0: `lo`).
    pub(super) fn funnel(&mut self, lo: Word, hi: Word, sh: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let (c0, c31, c32) = (self.u32c(0), self.u32c(31), self.u32c(32));
        let b = &mut self.b;
        let aligned = b.i_equal(tb, None, sh, c0).map_err(&err)?;
        let back = b.i_sub(t, None, c32, sh).map_err(&err)?;
        let back = b.bitwise_and(t, None, back, c31).map_err(&err)?;
        let l = b.shift_right_logical(t, None, lo, sh).map_err(&err)?;
        let h = b.shift_left_logical(t, None, hi, back).map_err(&err)?;
        let u = b.bitwise_or(t, None, l, h).map_err(&err)?;
        b.select(t, None, aligned, lo, u).map_err(&err)
    }

    /// A dword store to the LDS whose value nothing reads ([`Self::is_plain_store`]): every
    /// lane at once, the last lane in lane order giving each byte its value, by the claims of
    /// [`Self::mem_store`] in the LDS's claim words. With `dwords` (the address is known to be
    /// a multiple of 4 on every lane) a dword's first claim word stands for the dword's.
    pub(super) fn lds_store(
        &mut self,
        w: &WaveIo,
        lane: Word,
        [a, d, active]: [Word; 3],
        dwords: bool,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let c0 = self.u32c(0);
        self.fence(fence::WORKGROUP, Guard::Any)?;
        let Some(v) = w.lds else {
            return Ok(c0);
        };
        let Some(claims) = v.claims else {
            return Err(SpirvError::Unsupported {
                reason: "a parallel LDS store without claim words".into(),
            });
        };
        let [ok, i0, i1, sh] = self.lds_slots(&v, a, active)?;
        let claim = self.next_claim(lane, ok)?;
        let (c2, c3) = (self.u32c(2), self.u32c(3));
        let b = &mut self.b;
        let first = b.shift_left_logical(t, None, i0, c2).map_err(&err)?;
        let byte = b.shift_right_logical(t, None, sh, c3).map_err(&err)?;
        let first = b.i_add(t, None, first, byte).map_err(&err)?;
        let claimed = if dwords { 1 } else { 4 };
        let won = self.claim_bytes(claimed, claim, fence::WORKGROUP, |e, k| {
            let ck = e.u32c(k);
            let at = e.b.i_add(t, None, first, ck).map_err(build_err(e.at))?;
            e.wg_ptr(w, claims, at)
        })?;
        if dwords {
            let won = self.whole_dword(won)?;
            let bits = self.b.bitwise_and(t, None, d, won).map_err(&err)?;
            let p = self.wg_ptr(w, v.lds, i0)?;
            self.write_bytes(p, won, bits)?;
            return Ok(c0);
        }
        // the won bytes and the data at the byte shift: the low dword's part, and the high
        // dword's (none when aligned)
        let (c31, c32) = (self.u32c(31), self.u32c(32));
        let b = &mut self.b;
        let aligned = b.i_equal(tb, None, sh, c0).map_err(&err)?;
        let back = b.i_sub(t, None, c32, sh).map_err(&err)?;
        let back = b.bitwise_and(t, None, back, c31).map_err(&err)?;
        let mut parts = vec![];
        for x in [won, d] {
            let lo = b.shift_left_logical(t, None, x, sh).map_err(&err)?;
            let hi = b.shift_right_logical(t, None, x, back).map_err(&err)?;
            let hi = b.select(t, None, aligned, c0, hi).map_err(&err)?;
            parts.push((lo, hi));
        }
        let [(mlo, mhi), (dlo, dhi)] = [parts[0], parts[1]];
        for (i, m, x) in [(i0, mlo, dlo), (i1, mhi, dhi)] {
            let bits = self.b.bitwise_and(t, None, x, m).map_err(&err)?;
            let p = self.wg_ptr(w, v.lds, i)?;
            self.write_bytes(p, m, bits)?;
        }
        Ok(c0)
    }

    /// A one-operand dword access of the LDS.
    pub(super) fn lds_op(
        &mut self,
        w: &WaveIo,
        lane: Word,
        op: LdsOp,
        [a, d, active]: [Word; 3],
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let c0 = self.u32c(0);
        self.fence(fence::WORKGROUP, Guard::of(op))?;
        let Some(v) = w.lds else {
            // No LDS: every access is out of range.
            return Ok(c0);
        };
        if op == LdsOp::Read {
            let [ok, i0, i1, sh] = self.lds_slots(&v, a, active)?;
            let lo = self.wg_load(w, v.lds, i0)?;
            let hi = self.wg_load(w, v.lds, i1)?;
            let r = self.funnel(lo, hi, sh)?;
            return self.b.select(t, None, ok, r, c0).map_err(&err);
        }
        let c1 = self.u32c(1);
        let on = self.b.select(t, None, active, c1, c0).map_err(&err)?;
        for (array, value) in [(v.xa, a), (v.xd, d), (v.xe, on)] {
            self.wg_store(w, array, lane, value)?;
        }
        self.barrier()?;
        let merge = self.if_lane0(lane)?;
        // Lane by lane, in lane order (see `lane_loop`).
        self.lane_loop(v.index, |e, ci| {
            let a = e.wg_load(w, v.xa, ci)?;
            let d = e.wg_load(w, v.xd, ci)?;
            let on = e.wg_load(w, v.xe, ci)?;
            let on = e.b.i_not_equal(tb, None, on, c0).map_err(&err)?;
            let [ok, i0, i1, sh] = e.lds_slots(&v, a, on)?;
            let lo = e.wg_load(w, v.lds, i0)?;
            let hi = e.wg_load(w, v.lds, i1)?;
            let old = e.funnel(lo, hi, sh)?;
            let new = e.mem_new(op, old, d, None, crate::ir::Ty::U32)?;
            let wv = e.b.select(t, None, ok, new, old).map_err(&err)?;
            // Put `wv` back at the byte shift: the low `sh` bits of `lo` and the high bits of
            // `hi` stay.
            let c31 = e.u32c(31);
            let c32 = e.u32c(32);
            let b = &mut e.b;
            let aligned = b.i_equal(tb, None, sh, c0).map_err(&err)?;
            let keep = b.shift_left_logical(t, None, c1, sh).map_err(&err)?;
            let keep = b.i_sub(t, None, keep, c1).map_err(&err)?;
            let lo_keep = b.bitwise_and(t, None, lo, keep).map_err(&err)?;
            let up = b.shift_left_logical(t, None, wv, sh).map_err(&err)?;
            let lo_new = b.bitwise_or(t, None, lo_keep, up).map_err(&err)?;
            let not_keep = b.not(t, None, keep).map_err(&err)?;
            let hi_keep = b.bitwise_and(t, None, hi, not_keep).map_err(&err)?;
            let back = b.i_sub(t, None, c32, sh).map_err(&err)?;
            let back = b.bitwise_and(t, None, back, c31).map_err(&err)?;
            let down = b.shift_right_logical(t, None, wv, back).map_err(&err)?;
            let hi_new = b.bitwise_or(t, None, hi_keep, down).map_err(&err)?;
            let lo_new = b.select(t, None, aligned, wv, lo_new).map_err(&err)?;
            let hi_new = b.select(t, None, aligned, wv, hi_new).map_err(&err)?;
            e.wg_store(w, v.lds, i1, hi_new)?;
            e.wg_store(w, v.lds, i0, lo_new)?;
            let r = e.b.select(t, None, ok, old, c0).map_err(&err)?;
            e.wg_store(w, v.xr, ci, r)?;
            Ok(())
        })?;
        self.end_if(merge)?;
        self.barrier()?;
        self.wg_load(w, v.xr, lane)
    }
}
