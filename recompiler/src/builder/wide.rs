//! 128-bit unsigned integers as (hi, lo) pairs of U64 values: shifts, addition, subtraction,
//! comparison, selection and the most significant set bit, for the f64 fma on integer bits.

use super::Builder;
use crate::ir::{Handle, IntBin, IntCmp, IntUn};

impl Builder {
    /// `(hi, lo) << s` for any `s` (0 from 128 on).
    pub(super) fn shl128(&mut self, (hi, lo): (Handle, Handle), s: Handle) -> (Handle, Handle) {
        self.shift128(hi, lo, s, IntBin::Shl, IntBin::ShrU)
    }
    /// `(hi, lo) >> s` (logical) for any `s` (0 from 128 on).
    pub(super) fn shr128(&mut self, (hi, lo): (Handle, Handle), s: Handle) -> (Handle, Handle) {
        let (l, h) = self.shift128(lo, hi, s, IntBin::ShrU, IntBin::Shl);
        (h, l)
    }
    /// A 128-bit shift by `s` toward `lead`, the half bits move into from `trail` (`ahead`
    /// moves a half toward `lead`, `behind` takes the carry out of `trail`); returns the new
    /// (lead, trail).
    pub(super) fn shift128(
        &mut self,
        lead: Handle,
        trail: Handle,
        s: Handle,
        ahead: IntBin,
        behind: IntBin,
    ) -> (Handle, Handle) {
        let z = self.c64(0);
        let c64 = self.c64(64);
        let ls = self.ib(ahead, lead, s);
        let back = self.sub(c64, s);
        let carry = self.ib(behind, trail, back);
        let l1 = self.or(ls, carry);
        let t1 = self.ib(ahead, trail, s);
        let s64 = self.sub(s, c64);
        let l2 = self.ib(ahead, trail, s64);
        let big = self.icmpc(IntCmp::GeU, s, 64);
        let l = self.sel(big, l2, l1);
        let t = self.sel(big, z, t1);
        let s0 = self.eqc(s, 0);
        let l = self.sel(s0, lead, l);
        let t = self.sel(s0, trail, t);
        let huge = self.icmpc(IntCmp::GeU, s, 128);
        let l = self.sel(huge, z, l);
        let t = self.sel(huge, z, t);
        (l, t)
    }
    pub(super) fn add128(
        &mut self,
        (ah, al): (Handle, Handle),
        (bh, bl): (Handle, Handle),
    ) -> (Handle, Handle) {
        let l = self.add(al, bl);
        let c = self.icmp(IntCmp::LtU, l, al);
        let c = self.b2u(c);
        let c = self.zext(c);
        let h = self.add(ah, bh);
        (self.add(h, c), l)
    }
    pub(super) fn sub128(
        &mut self,
        (ah, al): (Handle, Handle),
        (bh, bl): (Handle, Handle),
    ) -> (Handle, Handle) {
        let l = self.sub(al, bl);
        let c = self.icmp(IntCmp::LtU, al, bl);
        let c = self.b2u(c);
        let c = self.zext(c);
        let h = self.sub(ah, bh);
        (self.sub(h, c), l)
    }
    /// `a < b` as unsigned 128-bit values.
    pub(super) fn lt128(
        &mut self,
        (ah, al): (Handle, Handle),
        (bh, bl): (Handle, Handle),
    ) -> Handle {
        let hl = self.icmp(IntCmp::LtU, ah, bh);
        let he = self.icmp(IntCmp::Eq, ah, bh);
        let ll = self.icmp(IntCmp::LtU, al, bl);
        let t = self.band(he, ll);
        self.bor(hl, t)
    }
    pub(super) fn sel128(
        &mut self,
        c: Handle,
        a: (Handle, Handle),
        b: (Handle, Handle),
    ) -> (Handle, Handle) {
        (self.sel(c, a.0, b.0), self.sel(c, a.1, b.1))
    }
    /// Index of the most significant set bit of a non-zero 128-bit value (U64).
    pub(super) fn msb128(&mut self, (hi, lo): (Handle, Handle)) -> Handle {
        let mh = self.iu(IntUn::FindMsbU, hi);
        let mh = self.addc(mh, 64);
        let ml = self.iu(IntUn::FindMsbU, lo);
        let hz = self.eqc(hi, 0);
        self.sel(hz, ml, mh)
    }
}
