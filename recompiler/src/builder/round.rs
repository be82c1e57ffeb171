//! Soft-float rounding: an exact f64 value (plus the sign of an exact residual) rounded to f16
//! or f32 in each of the four rounding modes, with denormal output flushing and the tininess
//! rules, all in integer arithmetic.

use super::{Builder, Fmt, Tiny};
use crate::ir::{FloatBin, FloatCmp, Handle, IntBin, IntCmp};
use rdnaprobe_isa::Round;

impl Builder {
    /// TwoSum in f64: `(s, err)` with `s = fl(a + b)` and `a + b = s + err` exactly (for finite
    /// operands without overflow).
    pub fn two_sum(&mut self, a: Handle, b: Handle) -> (Handle, Handle) {
        let s = self.fb(FloatBin::Add, a, b);
        let bb = self.fb(FloatBin::Sub, s, a);
        let ab = self.fb(FloatBin::Sub, s, bb);
        let da = self.fb(FloatBin::Sub, a, ab);
        let db = self.fb(FloatBin::Sub, b, bb);
        let err = self.fb(FloatBin::Add, da, db);
        (s, err)
    }

    /// Rounds the f64 value `v` (+ an exact residual `resid` much smaller than one ulp of `v`,
    /// only its sign is used) to `fmt` (F16 or F32) in rounding mode `round`, and returns the
    /// bits. With `flush`, a tiny result (by `tiny`) becomes the zero of its sign. Infinite `v`
    /// gives infinity; `v` must not be NaN. Overflow gives infinity or the largest finite value
    /// as IEEE 754 says for the mode.
    ///
    /// rule: rounding (docs/semantics.md)
    pub fn round_to(
        &mut self,
        fmt: Fmt,
        v: Handle,
        resid: Option<Handle>,
        round: Round,
        flush: bool,
        tiny: Tiny,
    ) -> Handle {
        assert!(fmt != Fmt::F64, "round_to targets f16 or f32");
        let p = fmt.mbits(); // stored bits
        let emin = 1 - fmt.bias(); // unbiased exponent of the smallest normal
        let vb = self.bits_of_f64(v);
        let sign = self.bit(vb, 1 << 63);
        let e = self.shrc(vb, 52);
        let e = self.andc(e, 0x7ff);
        let m = self.andc(vb, (1 << 52) - 1);
        let mfull = self.orc(m, 1 << 52);
        // rs: +1 when the exact magnitude is above |v|, -1 below, 0 exact.
        let (r_up, r_dn) = match resid {
            Some(r) => {
                let z = self.cf64(0.0);
                let pos = self.fcmp(FloatCmp::OrdGt, r, z);
                let neg = self.fcmp(FloatCmp::OrdLt, r, z);
                // relative to the magnitude: flip for a negative v
                let up = self.sel(sign, neg, pos);
                let dn = self.sel(sign, pos, neg);
                (up, dn)
            }
            None => {
                let f = self.cb(false);
                (f, f)
            }
        };
        // magnitude-up / magnitude-down modes for this sign
        let away = match round {
            Round::NearestEven => None,
            Round::Zero => Some(self.cb(false)),
            Round::PlusInf => Some(self.bnot(sign)),
            Round::MinusInf => Some(sign),
        };
        // unbiased exponent E = e - 1023; shift = (52 - p) + max(0, emin - E)
        let base = u64::from(52 - p);
        let thr = (emin + 1023) as u64; // e below this is below the normal range
        let below = self.icmpc(IntCmp::LtU, e, thr);
        let thr_c = self.c64(thr);
        let extra = self.sub(thr_c, e);
        let zero64 = self.c64(0);
        let extra = self.sel(below, extra, zero64);
        let cap = self.c64(60);
        // extra > 60 - base, i.e. e < thr - (60 - base), compared on e itself: the same
        // predicate, but not on the select of a wrapped difference, which NVIDIA's compiler
        // (driver 580) evaluated as true for every normal result after an f64 div or sqrt.
        let extra_big = self.icmpc(IntCmp::LtU, e, thr - (60 - base));
        let shift = self.addc(extra, base);
        let shift = self.sel(extra_big, cap, shift);
        let (kept, up) = self.round_core(mfull, shift, r_up, r_dn, away);
        // assemble: bits = max(E + bias - 1, 0) << p + kept (+ up), in u64
        let ebias = self.addc(e, (fmt.bias() - 1 - 1023) as u64); // wraps for e below
        let eb = self.sel(below, zero64, ebias);
        let eb = self.shlc(eb, p);
        let mag = self.add(eb, kept);
        let one = self.c64(1);
        let mag_up = self.add(mag, one);
        let mag_r = self.sel(up.0, mag_up, mag);
        // magnitude-down with an exact part below: one less (rem == 0 && r_dn handled in core)
        let mag_dn = self.sub(mag, one);
        let mag_r = self.sel(up.1, mag_dn, mag_r);
        // overflow
        let inf = fmt.exp_mask();
        let over = self.icmpc(IntCmp::GeU, mag_r, inf);
        let over_val = match away {
            None => self.c64(inf),
            Some(a) => {
                let i = self.c64(inf);
                let mx = self.c64(fmt.max_finite());
                self.sel(a, i, mx)
            }
        };
        let mag_r = self.sel(over, over_val, mag_r);
        // flush of tiny results
        let mag_r = if flush {
            let is_tiny = match tiny {
                Tiny::Result => self.icmpc(IntCmp::LtU, mag_r, 1 << p),
                Tiny::BeforeRounding => {
                    let b = self.icmpc(IntCmp::LtU, e, thr);
                    // exactly the smallest normal with a residual below counts as tiny
                    let exact_min = self.andc(vb, (1 << 63) - 1);
                    let is_min = self.eqc(exact_min, thr << 52);
                    let t = self.band(is_min, r_dn);
                    self.bor(b, t)
                }
                Tiny::AfterRounding => {
                    // round at full precision with an unbounded exponent
                    let sh = self.c64(base);
                    let (k2, up2) = self.round_core(mfull, sh, r_up, r_dn, away);
                    let k2u = self.add(k2, one);
                    let k2r = self.sel(up2.0, k2u, k2);
                    // carried to 2^(p+1): the exponent grows by one
                    let carried = self.icmpc(IntCmp::GeU, k2r, 2 << p);
                    let k2d = self.sub(k2, one);
                    let k2r = self.sel(up2.1, k2d, k2r);
                    let dropped = self.icmpc(IntCmp::LtU, k2r, 1 << p);
                    let thr_m1 = thr - 1;
                    let is_below = self.icmpc(IntCmp::LtU, e, thr);
                    let just = self.eqc(e, thr_m1);
                    let rescued = self.band(just, carried);
                    let nres = self.bnot(rescued);
                    let t = self.band(is_below, nres);
                    // exactly 2^emin with the exact value below (magnitude-down) is tiny too
                    let at_min = self.eqc(e, thr);
                    let d2 = self.band(at_min, dropped);
                    self.bor(t, d2)
                }
            };
            let nz = self.nec(mag_r, 0);
            let t = self.band(is_tiny, nz);
            let z = self.c64(0);
            self.sel(t, z, mag_r)
        } else {
            mag_r
        };
        // zero and infinity inputs
        let e_zero = self.eqc(e, 0);
        let m_zero = self.eqc(m, 0);
        let is_zero = self.band(e_zero, m_zero);
        let z = self.c64(0);
        let mag_r = self.sel(is_zero, z, mag_r);
        let e_inf = self.eqc(e, 0x7ff);
        let i = self.c64(inf);
        let mag_r = self.sel(e_inf, i, mag_r);
        let mag32 = self.trunc64(mag_r);
        let sbit = self.c32(fmt.sign_mask() as u32);
        let zero32 = self.c32(0);
        let s = self.sel(sign, sbit, zero32);
        self.or(mag32, s)
    }

    /// Shared rounding step: `kept = mfull >> shift` and whether to add one ulp (`.0`) or take
    /// one away (`.1`, magnitude-down modes with an exact value just below a kept value).
    fn round_core(
        &mut self,
        mfull: Handle,
        shift: Handle,
        r_up: Handle,
        r_dn: Handle,
        away: Option<Handle>,
    ) -> (Handle, (Handle, Handle)) {
        let kept = self.ib(IntBin::ShrU, mfull, shift);
        let one = self.c64(1);
        let lowmask = self.ib(IntBin::Shl, one, shift);
        let lowmask = self.sub(lowmask, one);
        let rem = self.and(mfull, lowmask);
        let shm1 = self.sub(shift, one);
        let half = self.ib(IntBin::Shl, one, shm1);
        let rem_nz = self.nec(rem, 0);
        let rem_z = self.bnot(rem_nz);
        match away {
            None => {
                let gt = self.icmp(IntCmp::GtU, rem, half);
                let eq = self.icmp(IntCmp::Eq, rem, half);
                let odd = self.bit(kept, 1);
                let tie_up = self.bor(r_up, odd);
                let tie_dn = self.bnot(r_dn);
                let tie = self.band(tie_up, tie_dn);
                let eq_up = self.band(eq, tie);
                let up = self.bor(gt, eq_up);
                let f = self.cb(false);
                (kept, (up, f))
            }
            Some(a) => {
                let inexact_up = self.bor(rem_nz, r_up);
                let up = self.band(a, inexact_up);
                let na = self.bnot(a);
                let d = self.band(rem_z, r_dn);
                let dn = self.band(na, d);
                (kept, (up, dn))
            }
        }
    }

    /// Rounds the exact sum `a + b` of two f64 values (each exactly representable, finite or
    /// infinite) to `fmt`. The sign of an exact zero sum follows IEEE 754 for the rounding mode.
    #[allow(clippy::too_many_arguments)]
    pub fn round_sum(
        &mut self,
        fmt: Fmt,
        a: Handle,
        b: Handle,
        round: Round,
        flush: bool,
        tiny: Tiny,
    ) -> Handle {
        let (s, err) = self.two_sum(a, b);
        let r = self.round_to(fmt, s, Some(err), round, flush, tiny);
        // exact zero: +0 unless both addends are -0 (or either is negative toward -inf)
        let z = self.cf64(0.0);
        let sz = self.fcmp(FloatCmp::OrdEq, s, z);
        let ab = self.bits_of_f64(a);
        let bb = self.bits_of_f64(b);
        let sa = self.bit(ab, 1 << 63);
        let sb = self.bit(bb, 1 << 63);
        let neg = if round == Round::MinusInf {
            self.bor(sa, sb)
        } else {
            self.band(sa, sb)
        };
        let nz = self.c32(fmt.sign_mask() as u32);
        let pz = self.c32(0);
        let zv = self.sel(neg, nz, pz);
        self.sel(sz, zv, r)
    }
}
