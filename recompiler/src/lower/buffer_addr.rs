//! The addressing and range check of MUBUF and MTBUF instructions (see [`super::mem`]'s
//! module docs): `base + index * stride + offset` from the V# at SRSRC, IDXEN/OFFEN VGPRs,
//! SOFFSET and the instruction's offset, checked per dword by the V#'s OOB_SELECT.
//!
//! ADD_TID_ENABLE (word3 bit 23) adds the lane's id to the index. SWIZZLE_ENABLE (word1 bit
//! 31) interleaves the lanes' records (RDNA2 ISA, "Buffer Addressing"; gfx10 fixes the element
//! size at 4 bytes, INDEX_STRIDE is word3 bits 22:21 for 8, 16, 32 or 64): with
//! `offset = voffset + inst_offset`, the byte at `base + soffset + (index / IS * stride +
//! offset / 4 * 4) * IS + index % IS * 4 + offset % 4`. This is how the private-segment V# a
//! dispatch gives a kernel (swizzled, ADD_TID, IS = 64) puts a lane's dword `k` at
//! `k * 4 * IS + lane * 4`, so lanes never share a slot. The range check of a swizzled access
//! is computed on the unswizzled index and offset, as for the other V#s (not measured).

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Handle, IntBin, IntCmp};
use rdnaprobe_isa::layout::Field;

/// Whether bit `bit` of `h` is known to be clear while lowering.
fn bit_clear(l: &Lowerer, h: Handle, bit: u32) -> bool {
    l.b.known(h).is_some_and(|w| w >> bit & 1 == 0)
}

/// A MUBUF/MTBUF instruction's V#, address and range check (see the module docs).
pub(super) struct BufferAddr {
    pub(super) vdata: u16,
    pub(super) glc: bool,
    /// Word3 of the V#.
    pub(super) word3: Handle,
    offset: Handle,
    stride: Handle,
    records: Handle,
    scaled: Handle,
    at: Handle,
    index_out: Handle,
    no_records: Handle,
    oob: [Handle; 3],
    /// For a V# that may be swizzled: whether it is, and its parts (see the module docs).
    swizzle: Option<Swizzle>,
    /// The V# is known to be swizzled with ADD_TID and an index stride of at least the wave's
    /// lanes, and the instruction takes neither an index nor an offset VGPR: every lane's
    /// dword is its own ([`crate::ir::Space::RegionSwizzled`]).
    pub(super) lanes_disjoint: bool,
}

/// The parts of a swizzled address (see the module docs).
struct Swizzle {
    on: Handle,
    /// `base + soffset`.
    base: Handle,
    /// `voffset + inst_offset`.
    offset: Handle,
    /// `(index / IS * stride) * IS + index % IS * 4`, 64 bits.
    index_part: Handle,
    /// log2(IS).
    shift: Handle,
}

impl BufferAddr {
    pub(super) fn new(l: &mut Lowerer, c: &Ctx) -> RuleResult<BufferAddr> {
        let f = |field| c.inst.field(field);
        if f(Field::Tfe) != 0 {
            return Err(RuleError::not_modelled(
                "memory: TFE (partially resident textures) is not modelled",
            ));
        }
        let [offen, idxen, glc] = [Field::Offen, Field::Idxen, Field::Glc].map(|x| f(x) != 0);
        let [vaddr, vdata, soffset] =
            [Field::Vaddr, Field::Vdata, Field::Soffset].map(|x| f(x) as u16);
        // SRSRC names an SGPR quad: s[4 * SRSRC .. 4 * SRSRC + 3]
        let srsrc = (f(Field::Srsrc) * 4) as u16;
        if srsrc > 100 {
            return Err(RuleError::operand(format!(
                "memory: SRSRC s{srsrc} is not an SGPR quad"
            )));
        }
        let v: Vec<Handle> = (0..4).map(|i| l.sgpr_get(srsrc + i)).collect();
        let b = &mut l.b;
        let hi16 = b.andc(v[1], 0xffff);
        let base = b.pack64(v[0], hi16);
        let stride = b.shrc(v[1], 16);
        let stride = b.andc(stride, 0x3fff);
        let records = v[2];
        let oob = b.shrc(v[3], 28);
        let oob = b.andc(oob, 3);
        let mut index = if idxen { l.vgpr_get(vaddr) } else { l.b.c32(0) };
        if !bit_clear(l, v[3], 23) {
            // ADD_TID_ENABLE
            let b = &mut l.b;
            let tid = b.shrc(v[3], 23);
            let tid = b.andc(tid, 1);
            let on = b.nec(tid, 0);
            let zero = b.c32(0);
            let add = b.sel(on, l.lane, zero);
            index = l.b.add(index, add);
        }
        let voffset = if offen {
            l.vgpr_get(vaddr + u16::from(idxen))
        } else {
            l.b.c32(0)
        };
        let s = l.scalar_src(soffset)?;
        let b = &mut l.b;
        let unswizzled = b.addc(voffset, u64::from(f(Field::Offset)));
        let offset = b.add(unswizzled, s);
        let (i64_, s64) = (b.zext(index), b.zext(stride));
        let scaled = b.ib(IntBin::Mul, i64_, s64);
        let at = b.add(base, scaled);
        let index_out = b.icmp(IntCmp::GeU, index, records);
        let no_records = b.eqc(records, 0);
        let oob = [b.eqc(oob, 0), b.eqc(oob, 1), b.eqc(oob, 2)];
        let swizzle = if bit_clear(l, v[1], 31) {
            None
        } else {
            let b = &mut l.b;
            let on = b.shrc(v[1], 31);
            let on = b.nec(on, 0);
            let is = b.shrc(v[3], 21);
            let is = b.andc(is, 3);
            let shift = b.addc(is, 3);
            let msb = b.ib(IntBin::ShrU, index, shift);
            let one = b.c32(1);
            let lsb_mask = b.ib(IntBin::Shl, one, shift);
            let lsb_mask = b.addc(lsb_mask, u64::from(u32::MAX));
            let lsb = b.and(index, lsb_mask);
            let (msb, lsb) = (b.zext(msb), b.zext(lsb));
            let rec = b.ib(IntBin::Mul, msb, s64);
            let shift64 = b.zext(shift);
            let rec = b.ib(IntBin::Shl, rec, shift64);
            let lane = b.shlc(lsb, 2);
            let index_part = b.add(rec, lane);
            let s64 = b.zext(s);
            let base = b.add(base, s64);
            Some(Swizzle {
                on,
                base,
                offset: unswizzled,
                index_part,
                shift: shift64,
            })
        };
        let (w1, w3) = (l.known_bits(v[1]), l.known_bits(v[3]));
        let stride_known = (w3.zero | w3.one) >> 21 & 3 == 3;
        let index_stride = 8 << (w3.one >> 21 & 3);
        let lanes_disjoint = !offen
            && !idxen
            && w1.is_one(31)
            && w3.is_one(23)
            && stride_known
            && index_stride >= l.wave.lanes();
        Ok(BufferAddr {
            lanes_disjoint,
            vdata,
            glc,
            word3: v[3],
            offset,
            stride,
            records,
            scaled,
            at,
            index_out,
            no_records,
            oob,
            swizzle,
        })
    }

    /// The address of the access at byte `k` of the data and its range check.
    pub(super) fn at(&self, l: &mut Lowerer, k: u32) -> (Handle, Option<Handle>) {
        let b = &mut l.b;
        let off = b.addc(self.offset, u64::from(k));
        let off64 = b.zext(off);
        let end = b.add(self.scaled, off64);
        let rec64 = b.zext(self.records);
        let raw_out = b.icmp(IntCmp::GeU, end, rec64);
        let past_stride = b.icmp(IntCmp::GeU, off, self.stride);
        let structured_out = b.bor(self.index_out, past_stride);
        let [oob0, oob1, oob2] = self.oob;
        let o = b.sel(oob2, self.no_records, raw_out);
        let o = b.sel(oob1, self.index_out, o);
        let o = b.sel(oob0, structured_out, o);
        let ok = b.bnot(o);
        let mut a = b.add(self.at, off64);
        if let Some(z) = &self.swizzle {
            let off = b.addc(z.offset, u64::from(k));
            let off = b.zext(off);
            let lsb = b.andc(off, 3);
            let msb = b.andc(off, !3);
            let msb = b.ib(IntBin::Shl, msb, z.shift);
            let within = b.add(msb, lsb);
            let rel = b.add(z.index_part, within);
            let swizzled = b.add(z.base, rel);
            a = b.sel(z.on, swizzled, a);
        }
        (a, Some(ok))
    }
}
