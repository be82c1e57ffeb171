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
use crate::ir::{Expr, Handle, Kernel, LdsOp, Space, Ty};
use rdnaprobe_contract::MEM_BASE;

/// The region's place in the output buffer and the arrays of the serialised operations.
#[derive(Clone, Copy)]
pub(super) struct MemVars {
    /// The output buffer variable and the index of the region's first word in it.
    pub(super) out_var: Word,
    pub(super) base: Word,
    pub(super) dwords: u32,
    /// The index of the region's claim words in the output buffer (see [`Self::mem_store`]).
    claims: Word,
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

    /// The [`MemVars`] of a region at word `base` of `out_var`, its claim words at `claims`.
    pub(super) fn mem_vars(
        arrays: [Word; 9],
        out_var: Word,
        [base, claims]: [Word; 2],
        dwords: u32,
    ) -> MemVars {
        let [xa, xd, xe, xr, xc, xdh, xch, xrh, index] = arrays;
        MemVars {
            out_var,
            base,
            dwords,
            claims,
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

    /// Copies the region and its claim words (zeros) from the input buffer (`in_var` from word
    /// `in_base`) into their slice of the output buffer: `for (k = lane; k <
    /// region_words(dwords); k += wave)`, then a barrier.
    pub(super) fn mem_copy_in(
        &mut self,
        v: &MemVars,
        in_var: Word,
        in_base: Word,
        lane: Word,
    ) -> Result<(), SpirvError> {
        let (out_var, base) = (v.out_var, v.base);
        self.strided_loop(
            v.index,
            super::wave::region_words(v.dwords),
            lane,
            |e, k| {
                let err = build_err(None);
                let src = e.b.i_add(e.t.u32_, None, in_base, k).map_err(&err)?;
                let x = e.sb_load(in_var, src)?;
                let dst = e.b.i_add(e.t.u32_, None, base, k).map_err(&err)?;
                e.sb_store(out_var, dst, x)
            },
        )?;
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

    /// (word index of the first and last dword, bit shift) of `bytes` at region offset `off`.
    fn mem_slots(&mut self, v: &MemVars, off: Word, bytes: u8) -> Result<[Word; 3], SpirvError> {
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
        Ok([i0, i1, sh])
    }

    /// (word index of the first and last dword, the two dwords as one U64, bit shift) of
    /// `bytes` at region offset `off`.
    fn mem_window(&mut self, v: &MemVars, off: Word, bytes: u8) -> Result<[Word; 4], SpirvError> {
        let [i0, i1, sh] = self.mem_slots(v, off, bytes)?;
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
    /// Whether expression `h` is a store [`Self::mem_store`] or [`Self::lds_store`] serves: a
    /// [`LdsOp::Write`] whose value nothing reads, to the region (1, 2 or 4 bytes) or to an LDS
    /// with claim words (a dword), in a module whose claims cannot run out
    /// ([`Self::declare_store_seq`]).
    pub(super) fn is_plain_store(&self, h: Handle) -> bool {
        self.store_seq.is_some() && plain_store(self.kernel, h, &self.read, self.lds_claims)
    }

    /// Declares the Private store counter of the parallel stores when the kernel has plain
    /// stores and at most [`MAX_STORES`] of them can run in one dispatch of the module (the
    /// watchdog's block limit times the most stores in one block, plus the exit code's);
    /// otherwise every store is serialised. Call it after the LDS and the region are declared.
    pub(super) fn declare_store_seq(&mut self) {
        let k = self.kernel;
        let stores = |r: std::ops::Range<u32>| {
            r.filter(|&i| plain_store(k, Handle(i), &self.read, self.lds_claims))
                .count() as u64
        };
        let exit = k.blocks.last().map_or(0, |b| b.exprs.end);
        let tail = stores(exit..k.exprs.len() as u32);
        let most = k
            .blocks
            .iter()
            .map(|b| stores(b.exprs.clone()))
            .max()
            .unwrap_or(0);
        let bound = most * u64::from(rdnaprobe_contract::WATCHDOG_BLOCKS) + tail;
        if most + tail > 0 && bound <= MAX_STORES {
            let t = self.t.u32_;
            let pp = self.b.type_pointer(None, StorageClass::Private, t);
            let zero = self.u32c(0);
            self.store_seq = Some(self.b.variable(pp, None, StorageClass::Private, Some(zero)));
        }
    }

    /// The claim of this lane in the next parallel store, or 0 where it writes nothing
    /// (`ok` false): `seq << 7 | lane + 1`, `seq` the module's store counter, incremented.
    pub(super) fn next_claim(&mut self, lane: Word, ok: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.t.u32_;
        let seq_var = self.store_seq.ok_or_else(|| SpirvError::Unsupported {
            reason: "a parallel store without the store counter".into(),
        })?;
        let (c0, c1, c7) = (self.u32c(0), self.u32c(1), self.u32c(7));
        let b = &mut self.b;
        let seq = b.load(t, None, seq_var, None, []).map_err(&err)?;
        let seq = b.i_add(t, None, seq, c1).map_err(&err)?;
        b.store(seq_var, seq, None, []).map_err(&err)?;
        let stamp = b.shift_left_logical(t, None, seq, c7).map_err(&err)?;
        let me = b.i_add(t, None, lane, c1).map_err(&err)?;
        let claim = b.bitwise_or(t, None, stamp, me).map_err(&err)?;
        b.select(t, None, ok, claim, c0).map_err(&err)
    }

    /// Raises the claim word of each of `bytes` bytes from `first` (pointers from `ptr(k)`) to
    /// `claim` (`OpAtomicUMax`), waits at a barrier, and gives the bytes whose claim word then
    /// holds `claim` as a mask of 0xff bytes (bit 8k for byte k), a U32.
    pub(super) fn claim_bytes(
        &mut self,
        bytes: u8,
        claim: Word,
        semantics: u32,
        mut ptr: impl FnMut(&mut Self, u32) -> Result<Word, SpirvError>,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let (scope, relaxed, c0) = (self.u32c(2), self.u32c(0), self.u32c(0));
        let mut words = Vec::with_capacity(usize::from(bytes));
        for k in 0..u32::from(bytes) {
            let p = ptr(self, k)?;
            words.push(p);
            self.b
                .atomic_u_max(t, None, p, scope, relaxed, claim)
                .map_err(&err)?;
        }
        self.fence(semantics, Guard::Any)?;
        let ok = self.b.i_not_equal(tb, None, claim, c0).map_err(&err)?;
        let mut won = c0;
        for (k, p) in words.into_iter().enumerate() {
            let owner = self.b.load(t, None, p, None, []).map_err(&err)?;
            let mine = self.b.i_equal(tb, None, owner, claim).map_err(&err)?;
            let mine = self.b.logical_and(tb, None, mine, ok).map_err(&err)?;
            let byte = self.u32c(0xff << (8 * k));
            let m = self.b.select(t, None, mine, byte, c0).map_err(&err)?;
            won = self.b.bitwise_or(t, None, won, m).map_err(&err)?;
        }
        Ok(won)
    }

    /// A store ([`Self::is_plain_store`]): the lanes write at once, with the bits of the
    /// serialised form, where the last lane in lane order that writes a byte gives it its
    /// value. The store's claim is `seq << 7 | lane + 1` (`seq` counts the module's stores
    /// from 1, so a later store's claims are larger than an earlier one's); each writing lane
    /// raises the claim word of each of its bytes to its claim (`OpAtomicUMax`), and after a
    /// barrier writes the bytes whose claim word holds its own claim (`OpAtomicAnd` to clear
    /// them, `OpAtomicOr` to set them: lanes that share a dword but not a byte do not disturb
    /// each other). No loop and no lane-0 section: a driver compiles a store in the time of a
    /// few arithmetic instructions, where the serialised form's loop cost lavapipe seconds
    /// per store in real kernels' code.
    ///
    /// With `lanes` [`Lanes::Disjoint`] (a [`Space::RegionSwizzled`] store) no two lanes write
    /// the same byte, so every writing lane writes all its bytes, without claims. With
    /// `dwords` (a 4-byte store whose address is known to be a multiple of 4 on every lane:
    /// each lane writes one whole dword) the claim word of a dword's first byte stands for the
    /// dword's, and only that dword is written.
    pub(super) fn mem_store(
        &mut self,
        w: &WaveIo,
        lane: Word,
        bytes: u8,
        [addr, d, active]: [Word; 3],
        lanes: Lanes,
        dwords: bool,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, t64) = (self.t.u32_, self.ty(Ty::U64));
        let c0 = self.u32c(0);
        self.fence(fence::WORKGROUP_AND_BUFFER, Guard::Any)?;
        let Some(v) = w.mem else {
            return Ok(c0);
        };
        let (ok, off) = self.mem_offset(&v, addr, bytes, active)?;
        let won = match lanes {
            Lanes::Disjoint => {
                let all = self.u32c((u64::MAX >> (64 - 8 * u32::from(bytes))) as u32);
                self.b.select(t, None, ok, all, c0).map_err(&err)?
            }
            Lanes::Claims => {
                let claim = self.next_claim(lane, ok)?;
                let first = self.b.i_add(t, None, v.claims, off).map_err(&err)?;
                let claimed = if dwords { 1 } else { bytes };
                let won =
                    self.claim_bytes(claimed, claim, fence::WORKGROUP_AND_BUFFER, |e, k| {
                        let ck = e.u32c(k);
                        let at = e.b.i_add(t, None, first, ck).map_err(build_err(e.at))?;
                        e.sb_ptr(v.out_var, at)
                    })?;
                if dwords {
                    self.whole_dword(won)?
                } else {
                    won
                }
            }
        };
        let [i0, i1, sh] = self.mem_slots(&v, off, bytes)?;
        let b = &mut self.b;
        let won = b.u_convert(t64, None, won).map_err(&err)?;
        let mask = b.shift_left_logical(t64, None, won, sh).map_err(&err)?;
        let d64 = b.u_convert(t64, None, d).map_err(&err)?;
        let bits = b.shift_left_logical(t64, None, d64, sh).map_err(&err)?;
        let bits = b.bitwise_and(t64, None, bits, mask).map_err(&err)?;
        let (mlo, mhi) = self.split64(mask)?;
        let (blo, bhi) = self.split64(bits)?;
        // an aligned dword lies in its first dword alone
        let parts = if dwords { 1 } else { 2 };
        for (i, m, x) in [(i0, mlo, blo), (i1, mhi, bhi)].into_iter().take(parts) {
            let p = self.sb_ptr(v.out_var, i)?;
            self.write_bytes(p, m, x)?;
        }
        Ok(c0)
    }

    /// The byte mask of a whole dword (0xffff_ffff) where `won` (a byte mask) is not 0.
    pub(super) fn whole_dword(&mut self, won: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let (c0, all) = (self.u32c(0), self.u32c(u32::MAX));
        let any = self.b.i_not_equal(tb, None, won, c0).map_err(&err)?;
        self.b.select(t, None, any, all, c0).map_err(&err)
    }

    /// `*p = (*p & !mask) | bits` as `OpAtomicAnd` and `OpAtomicOr` (`bits` inside `mask`): lanes
    /// that write other bytes of the same dword do not disturb each other, and a zero mask
    /// changes nothing.
    pub(super) fn write_bytes(
        &mut self,
        p: Word,
        mask: Word,
        bits: Word,
    ) -> Result<(), SpirvError> {
        let err = build_err(self.at);
        let t = self.t.u32_;
        let (scope, relaxed) = (self.u32c(2), self.u32c(0));
        let keep = self.b.not(t, None, mask).map_err(&err)?;
        self.b
            .atomic_and(t, None, p, scope, relaxed, keep)
            .map_err(&err)?;
        self.b
            .atomic_or(t, None, p, scope, relaxed, bits)
            .map_err(&err)?;
        Ok(())
    }
}

/// How the lanes of one region store ([`Emitter::mem_store`]) share its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lanes {
    /// Lanes may write the same byte: the last in lane order wins, through claim words.
    Claims,
    /// No two lanes write the same byte ([`Space::RegionSwizzled`]).
    Disjoint,
}

/// The most stores one dispatch of a module may run with [`Emitter::mem_store`]: its claims
/// hold the store's number in 25 bits above the lane's 7.
const MAX_STORES: u64 = (1 << 25) - 1;

/// See [`Emitter::is_plain_store`]; `lds` whether the LDS has claim words.
fn plain_store(k: &Kernel, h: Handle, read: &[bool], lds: bool) -> bool {
    let store = match k.exprs.get(h.0 as usize) {
        Some(&Expr::Mem {
            space: Space::Region,
            op: LdsOp::Write,
            bytes: 1 | 2 | 4,
            cmp: None,
            ..
        }) => true,
        Some(&Expr::Mem {
            space: Space::Lds,
            op: LdsOp::Write,
            bytes: 4,
            data2: None,
            cmp: None,
            ..
        }) => lds,
        _ => false,
    };
    store && !read.get(h.0 as usize).copied().unwrap_or(true)
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
