//! The memory region in the wave module: the wave's region is a slice of the output storage
//! buffer (after the LDS words), filled from the input buffer before the body; what it holds
//! after the body is the region's contents (no copy back).
//!
//! [`Expr::Mem`](crate::ir::Expr::Mem) gives the bits of `crate::wave`: every lane turns its
//! 64-bit address into an offset in the region and checks that the access's bytes lie inside;
//! a `Read` is done by every lane at once after a barrier; every other operation is serialised
//! as the LDS's are (lanes publish offset, data and activity in workgroup arrays, lane 0
//! applies the operation for lane 0, 1, ..., and each lane takes its old value after a
//! barrier). An access reads the one or two dwords that hold its bytes as one 64-bit value,
//! so any byte address and width 1, 2 or 4 works the same way. Barriers here order storage
//! memory too (UniformMemory semantics).

use rspirv::spirv::{StorageClass, Word};

use super::fence::{self, Guard};
use super::wave::WaveIo;
use super::{build_err, Emitter, SpirvError};
use crate::ir::{LdsOp, Ty};
use crate::wave::MEM_BASE;

/// The region's place in the output buffer and the arrays of the serialised operations.
#[derive(Clone, Copy)]
pub(super) struct MemVars {
    /// The output buffer variable and the index of the region's first word in it.
    pub(super) out_var: Word,
    pub(super) base: Word,
    pub(super) dwords: u32,
    /// Per lane: offset, data, active, old value, compare value, and the high halves of
    /// data, compare value and old value of a 64-bit atomic.
    xa: Word,
    xd: Word,
    xe: Word,
    xr: Word,
    xc: Word,
    xdh: Word,
    xch: Word,
    xrh: Word,
    /// A Private u32 loop counter for the copy.
    index: Word,
}

impl Emitter<'_> {
    /// Declares the exchange arrays (before the function begins); `None` without a region.
    pub(super) fn declare_mem(&mut self, dwords: u32) -> Option<[Word; 9]> {
        if dwords == 0 {
            return None;
        }
        let t = self.t.u32_;
        let c_lanes = self.u32c(self.wave.lanes());
        let ty = self.b.type_array(t, c_lanes);
        let ptr = self.b.type_pointer(None, StorageClass::Workgroup, ty);
        let [xa, xd, xe, xr, xc, xdh, xch, xrh] =
            [(); 8].map(|_| self.b.variable(ptr, None, StorageClass::Workgroup, None));
        let pp = self.b.type_pointer(None, StorageClass::Private, t);
        let zero = self.u32c(0);
        let index = self.b.variable(pp, None, StorageClass::Private, Some(zero));
        Some([xa, xd, xe, xr, xc, xdh, xch, xrh, index])
    }

    /// The [`MemVars`] of a region at word `base` of `out_var`.
    pub(super) fn mem_vars(arrays: [Word; 9], out_var: Word, base: Word, dwords: u32) -> MemVars {
        let [xa, xd, xe, xr, xc, xdh, xch, xrh, index] = arrays;
        MemVars {
            out_var,
            base,
            dwords,
            xa,
            xd,
            xe,
            xr,
            xc,
            xdh,
            xch,
            xrh,
            index,
        }
    }

    /// A barrier that also orders storage-buffer accesses: Workgroup scope, AcquireRelease
    /// (0x8) | UniformMemory (0x40) | WorkgroupMemory (0x100).
    pub(super) fn mem_barrier(&mut self) -> Result<(), SpirvError> {
        self.fence(fence::WORKGROUP_AND_BUFFER, Guard::Any)
    }

    /// Publishes this lane's request (`wg_store`s done by the caller), then opens the block
    /// where lane 0 alone serves every lane in order: a barrier, `if (lane == 0) {`. Returns
    /// the merge block for [`Self::lane0_end`].
    fn lane0_begin(&mut self, lane: Word) -> Result<Word, SpirvError> {
        self.mem_barrier()?;
        self.if_lane0(lane)
    }

    /// Closes [`Self::lane0_begin`]'s block: `}`, then a barrier before the lanes read back.
    fn lane0_end(&mut self, merge: Word) -> Result<(), SpirvError> {
        self.end_if(merge)?;
        self.mem_barrier()
    }

    /// Copies the region from the input buffer (`in_var` from word `in_base`) into its slice
    /// of the output buffer: `for (k = lane; k < dwords; k += wave)`, then a barrier.
    pub(super) fn mem_copy_in(
        &mut self,
        v: &MemVars,
        in_var: Word,
        in_base: Word,
        lane: Word,
    ) -> Result<(), SpirvError> {
        let (out_var, base) = (v.out_var, v.base);
        self.strided_loop(v.index, v.dwords, lane, |e, k| {
            let err = build_err(None);
            let src = e.b.i_add(e.t.u32_, None, in_base, k).map_err(&err)?;
            let x = e.sb_load(in_var, src)?;
            let dst = e.b.i_add(e.t.u32_, None, base, k).map_err(&err)?;
            e.sb_store(out_var, dst, x)
        })?;
        self.mem_barrier()
    }

    fn sb_ptr(&mut self, var: Word, i: Word) -> Result<Word, SpirvError> {
        let c0 = self.u32c(0);
        self.b
            .access_chain(self.t.ptr_sb_u32, None, var, [c0, i])
            .map_err(build_err(self.at))
    }

    fn sb_load(&mut self, var: Word, i: Word) -> Result<Word, SpirvError> {
        let p = self.sb_ptr(var, i)?;
        self.b
            .load(self.t.u32_, None, p, None, [])
            .map_err(build_err(self.at))
    }

    fn sb_store(&mut self, var: Word, i: Word, x: Word) -> Result<(), SpirvError> {
        let p = self.sb_ptr(var, i)?;
        self.b.store(p, x, None, []).map_err(build_err(self.at))
    }

    /// (in range, offset) of an access of `bytes` at `addr` (U64) by a lane where `active`.
    fn mem_offset(
        &mut self,
        v: &MemVars,
        addr: Word,
        bytes: u8,
        active: Word,
    ) -> Result<(Word, Word), SpirvError> {
        let err = build_err(self.at);
        let (t, tb, t64) = (self.t.u32_, self.t.bool_, self.ty(Ty::U64));
        let base = self.constant(Ty::U64, MEM_BASE);
        let last = self.constant(Ty::U64, u64::from(4 * v.dwords - u32::from(bytes)));
        let c0 = self.u32c(0);
        let off = self.b.i_sub(t64, None, addr, base).map_err(&err)?;
        let inside = self
            .b
            .u_less_than_equal(tb, None, off, last)
            .map_err(&err)?;
        let ok = self.b.logical_and(tb, None, active, inside).map_err(&err)?;
        let (lo, _) = self.split64(off)?;
        let off = self.b.select(t, None, ok, lo, c0).map_err(&err)?;
        Ok((ok, off))
    }

    /// (word index of the first and last dword, the two dwords as one U64, bit shift) of
    /// `bytes` at region offset `off`.
    fn mem_window(&mut self, v: &MemVars, off: Word, bytes: u8) -> Result<[Word; 4], SpirvError> {
        let err = build_err(self.at);
        let t = self.t.u32_;
        let (c2, c3, cl) = (self.u32c(2), self.u32c(3), self.u32c(u32::from(bytes) - 1));
        let b = &mut self.b;
        let i0 = b.shift_right_logical(t, None, off, c2).map_err(&err)?;
        let end = b.i_add(t, None, off, cl).map_err(&err)?;
        let i1 = b.shift_right_logical(t, None, end, c2).map_err(&err)?;
        let i0 = b.i_add(t, None, v.base, i0).map_err(&err)?;
        let i1 = b.i_add(t, None, v.base, i1).map_err(&err)?;
        let byte = b.bitwise_and(t, None, off, c3).map_err(&err)?;
        let sh = b.shift_left_logical(t, None, byte, c3).map_err(&err)?;
        let lo = self.sb_load(v.out_var, i0)?;
        let hi = self.sb_load(v.out_var, i1)?;
        let both = self.pack64(lo, hi)?;
        Ok([i0, i1, both, sh])
    }

    /// The `bytes` at bit shift `sh` of `both`, zero-extended.
    fn mem_extract(&mut self, both: Word, sh: Word, bytes: u8) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t64 = self.ty(Ty::U64);
        let x = self
            .b
            .shift_right_logical(t64, None, both, sh)
            .map_err(&err)?;
        let (lo, _) = self.split64(x)?;
        let mask = self.u32c(crate::eval::width_mask(bytes) as u32);
        self.b
            .bitwise_and(self.t.u32_, None, lo, mask)
            .map_err(&err)
    }

    /// [`Expr::Mem`](crate::ir::Expr::Mem); `cmp` for a compare-and-swap.
    pub(super) fn mem_op(
        &mut self,
        w: &WaveIo,
        lane: Word,
        op: LdsOp,
        bytes: u8,
        [addr, d, active]: [Word; 3],
        cmp: Option<Word>,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb, t64) = (self.t.u32_, self.t.bool_, self.ty(Ty::U64));
        let c0 = self.u32c(0);
        if bytes == 8 {
            return self.mem_op64(w, lane, op, [addr, d, active], cmp);
        }
        self.fence(fence::WORKGROUP_AND_BUFFER, Guard::of(op))?;
        let Some(v) = w.mem else {
            // No region: every access is out of range.
            return Ok(c0);
        };
        if op == LdsOp::Read {
            let (ok, off) = self.mem_offset(&v, addr, bytes, active)?;
            let [_, _, both, sh] = self.mem_window(&v, off, bytes)?;
            let r = self.mem_extract(both, sh, bytes)?;
            return self.b.select(t, None, ok, r, c0).map_err(&err);
        }
        let (ok, off) = self.mem_offset(&v, addr, bytes, active)?;
        let c1 = self.u32c(1);
        let on = self.b.select(t, None, ok, c1, c0).map_err(&err)?;
        let c = cmp.unwrap_or(c0);
        for (array, value) in [(v.xa, off), (v.xd, d), (v.xe, on), (v.xc, c)] {
            self.wg_store(w, array, lane, value)?;
        }
        let merge = self.lane0_begin(lane)?;
        let mask64 = self.constant(Ty::U64, crate::eval::width_mask(bytes.min(4)));
        // Lane by lane, in lane order (see `lane_loop`).
        self.lane_loop(v.index, |e, ci| {
            let load = |x: &mut Self, array: Word| x.wg_load(w, array, ci);
            let off = load(e, v.xa)?;
            let d = load(e, v.xd)?;
            let on = load(e, v.xe)?;
            let ok = e.b.i_not_equal(tb, None, on, c0).map_err(&err)?;
            let [i0, i1, both, sh] = e.mem_window(&v, off, bytes)?;
            let old = e.mem_extract(both, sh, bytes)?;
            let mut write = ok;
            if cmp.is_some() {
                let c = load(e, v.xc)?;
                let equal = e.mem_swaps(op, old, c, Ty::U32)?;
                write = e.b.logical_and(tb, None, ok, equal).map_err(&err)?;
            }
            let new = e.mem_new(op, old, d, None, Ty::U32)?;
            let new = e.b.select(t, None, write, new, old).map_err(&err)?;
            // Put the low `bytes` of `new` back at the shift; the other bits of the window
            // stay.
            let b = &mut e.b;
            let m = b.shift_left_logical(t64, None, mask64, sh).map_err(&err)?;
            let keep = b.not(t64, None, m).map_err(&err)?;
            let kept = b.bitwise_and(t64, None, both, keep).map_err(&err)?;
            let n64 = b.u_convert(t64, None, new).map_err(&err)?;
            let n64 = b.bitwise_and(t64, None, n64, mask64).map_err(&err)?;
            let n64 = b.shift_left_logical(t64, None, n64, sh).map_err(&err)?;
            let merged = b.bitwise_or(t64, None, kept, n64).map_err(&err)?;
            let (lo, hi) = e.split64(merged)?;
            // When both dwords are one, the low half is the whole new dword: store it last.
            e.sb_store(v.out_var, i1, hi)?;
            e.sb_store(v.out_var, i0, lo)?;
            let r = e.b.select(t, None, ok, old, c0).map_err(&err)?;
            e.wg_store(w, v.xr, ci, r)?;
            Ok(())
        })?;
        self.lane0_end(merge)?;
        self.wg_load(w, v.xr, lane)
    }
}

impl Emitter<'_> {
    /// A 64-bit atomic of [`Expr::Mem`](crate::ir::Expr::Mem) (`bytes` 8): serialised like
    /// the others on the two dwords at an 8-byte aligned offset (an unaligned one is out of
    /// range).
    fn mem_op64(
        &mut self,
        w: &WaveIo,
        lane: Word,
        op: LdsOp,
        [addr, d, active]: [Word; 3],
        cmp: Option<Word>,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let (c0, c1, c2, c7) = (self.u32c(0), self.u32c(1), self.u32c(2), self.u32c(7));
        self.fence(fence::WORKGROUP_AND_BUFFER, Guard::of(op))?;
        let v = match w.mem {
            Some(v) if v.dwords >= 2 => v,
            // No room for a 64-bit access: every one is out of range.
            _ => return Ok(self.constant(Ty::U64, 0)),
        };
        let (ok, off) = self.mem_offset(&v, addr, 8, active)?;
        let low = self.b.bitwise_and(t, None, off, c7).map_err(&err)?;
        let aligned = self.b.i_equal(tb, None, low, c0).map_err(&err)?;
        let ok = self.b.logical_and(tb, None, ok, aligned).map_err(&err)?;
        let off = self.b.select(t, None, ok, off, c0).map_err(&err)?;
        let on = self.b.select(t, None, ok, c1, c0).map_err(&err)?;
        let (dl, dh) = self.split64(d)?;
        let zero64 = self.constant(Ty::U64, 0);
        let (cl, ch) = self.split64(cmp.unwrap_or(zero64))?;
        for (array, value) in [
            (v.xa, off),
            (v.xd, dl),
            (v.xdh, dh),
            (v.xe, on),
            (v.xc, cl),
            (v.xch, ch),
        ] {
            self.wg_store(w, array, lane, value)?;
        }
        let merge = self.lane0_begin(lane)?;
        let t64 = self.ty(Ty::U64);
        // Lane by lane, in lane order (see `lane_loop`).
        self.lane_loop(v.index, |e, ci| {
            let load = |x: &mut Self, array: Word| x.wg_load(w, array, ci);
            let off = load(e, v.xa)?;
            let (dl, dh) = (load(e, v.xd)?, load(e, v.xdh)?);
            let on = load(e, v.xe)?;
            let ok = e.b.i_not_equal(tb, None, on, c0).map_err(&err)?;
            let i0 = e.b.shift_right_logical(t, None, off, c2).map_err(&err)?;
            let i0 = e.b.i_add(t, None, v.base, i0).map_err(&err)?;
            let i1 = e.b.i_add(t, None, i0, c1).map_err(&err)?;
            let lo = e.sb_load(v.out_var, i0)?;
            let hi = e.sb_load(v.out_var, i1)?;
            let old = e.pack64(lo, hi)?;
            let d = e.pack64(dl, dh)?;
            let mut write = ok;
            if cmp.is_some() {
                let (cl, ch) = (load(e, v.xc)?, load(e, v.xch)?);
                let c = e.pack64(cl, ch)?;
                let equal = e.mem_swaps(op, old, c, Ty::U64)?;
                write = e.b.logical_and(tb, None, ok, equal).map_err(&err)?;
            }
            let new = e.mem_new(op, old, d, None, Ty::U64)?;
            let new = e.b.select(t64, None, write, new, old).map_err(&err)?;
            let (nl, nh) = e.split64(new)?;
            e.sb_store(v.out_var, i0, nl)?;
            e.sb_store(v.out_var, i1, nh)?;
            let r = e.b.select(t64, None, ok, old, zero64).map_err(&err)?;
            let (rl, rh) = e.split64(r)?;
            for (array, value) in [(v.xr, rl), (v.xrh, rh)] {
                e.wg_store(w, array, ci, value)?;
            }
            Ok(())
        })?;
        self.lane0_end(merge)?;
        let rl = self.wg_load(w, v.xr, lane)?;
        let rh = self.wg_load(w, v.xrh, lane)?;
        self.pack64(rl, rh)
    }
}
