//! The f64 fused multiply-add on integer bits (rule f64-fma-exact): no native fma, which a
//! driver may leave unfused, no f64 value a driver could flush, and no float-controls rounding
//! mode a driver could ignore (rule f64-rounding-mode). add, mul and ldexp are built on it too.

use super::{Builder, Fmt};
use crate::ir::{Handle, IntBin, IntCmp, IntUn};
use rdnaprobe_isa::Round;

impl Builder {
    /// [`Builder::fma_f64_rounded`] to nearest even with denormal results kept.
    ///
    /// rule: f64-fma-exact (docs/semantics.md)
    pub fn fma_f64_bits(&mut self, a: Handle, b: Handle, c: Handle, scale: Handle) -> Handle {
        self.fma_f64_rounded(a, b, c, scale, Round::NearestEven, false)
    }

    /// The f64 fused multiply-add `a * b + c` on bits, times `2^scale` (`scale` a signed U64
    /// exponent offset, 0 for a plain fma), with one rounding in `round`, in integer
    /// arithmetic only: no native fma (a driver may leave it unfused) and no f64 value that a
    /// driver could flush. `a`, `b` and `c` must be finite and not all of `a * b` and `c` zero;
    /// infinities, NaNs and the zero-plus-zero sign are the caller's to handle. An exact zero
    /// from opposite signs is +0, or -0 toward -infinity. Overflow gives infinity, or the
    /// largest finite value where `round` rounds that sign toward zero. With `flush_out` a
    /// result whose exact value is below 2^-1022 becomes the zero of its sign (tininess before
    /// rounding).
    ///
    /// rule: f64-fma-exact (docs/semantics.md)
    /// rule: f64-rounding-mode
    /// rule: f64-denormals
    pub fn fma_f64_rounded(
        &mut self,
        a: Handle,
        b: Handle,
        c: Handle,
        scale: Handle,
        round: Round,
        flush_out: bool,
    ) -> Handle {
        let f = Fmt::F64;
        // unpack: value = m * 2^(e - 1075), denormals with e = 1
        let mut unpack = |x: Handle| {
            let s = self.sign_of(f, x);
            let e = self.shrc(x, 52);
            let e = self.andc(e, 0x7ff);
            let m = self.andc(x, f.man_mask());
            let den = self.eqc(e, 0);
            let one = self.c64(1);
            let e = self.sel(den, one, e);
            let mi = self.orc(m, 1 << 52);
            let m = self.sel(den, m, mi);
            (s, e, m)
        };
        let (sa, ea, ma) = unpack(a);
        let (sb, eb, mb) = unpack(b);
        let (sc, ec, mc) = unpack(c);
        let sp = self.bxor(sa, sb);
        let z = self.c64(0);
        // the exact product, normalised so that its top bit is bit 125
        let ph = self.ib(IntBin::MulHiU, ma, mb);
        let pl = self.ib(IntBin::Mul, ma, mb);
        let msb_p = self.msb128((ph, pl));
        let c125 = self.c64(125);
        let shp = self.sub(c125, msb_p);
        let pn = self.shl128((ph, pl), shp);
        let ep = self.add(ea, eb);
        let ep = self.addc(ep, (-2150i64) as u64);
        let ep = self.sub(ep, shp);
        let ma_z = self.eqc(ma, 0);
        let mb_z = self.eqc(mb, 0);
        let pz = self.bor(ma_z, mb_z);
        // the addend, normalised the same way (a zero addend is put far below the product)
        let msb_c = self.iu(IntUn::FindMsbU, mc);
        let shc = self.sub(c125, msb_c);
        let cn = self.shl128((z, mc), shc);
        let ecn = self.addc(ec, (-1075i64) as u64);
        let ecn = self.sub(ecn, shc);
        let cz = self.eqc(mc, 0);
        let far = self.addc(ep, (-300i64) as u64);
        let ecn = self.sel(cz, far, ecn);
        // a zero product is put far below the addend
        let near = self.addc(ecn, (-300i64) as u64);
        let ep = self.sel(pz, near, ep);
        // align the smaller one, keeping a sticky bit for what is shifted out
        let big = self.icmp(IntCmp::GeS, ep, ecn);
        let x = self.sel128(big, pn, cn);
        let y = self.sel128(big, cn, pn);
        let ex = self.sel(big, ep, ecn);
        let sx = self.sel(big, sp, sc);
        let sy = self.sel(big, sc, sp);
        let ey = self.sel(big, ecn, ep);
        let d = self.sub(ex, ey);
        let d_big = self.icmpc(IntCmp::GtU, d, 128);
        let c128 = self.c64(128);
        let d = self.sel(d_big, c128, d);
        let ys = self.shr128(y, d);
        let back = self.sub(c128, d);
        let lost = self.shl128(y, back);
        let d0 = self.eqc(d, 0);
        let lost_h = self.nec(lost.0, 0);
        let lost_l = self.nec(lost.1, 0);
        let lost_any = self.bor(lost_h, lost_l);
        let nd0 = self.bnot(d0);
        let sticky = self.band(lost_any, nd0);
        let st = self.b2u(sticky);
        let st = self.zext(st);
        let ys = (ys.0, self.or(ys.1, st));
        // add or subtract the magnitudes
        let ne = self.bxor(sx, sy);
        let same = self.bnot(ne);
        let sum = self.add128(x, ys);
        let x_lt = self.lt128(x, ys);
        let d1 = self.sub128(x, ys);
        let d2 = self.sub128(ys, x);
        let diff = self.sel128(x_lt, d2, d1);
        let sd = self.sel(x_lt, sy, sx);
        let s = self.sel128(same, sum, diff);
        let sign = self.sel(same, sx, sd);
        let s_zero = {
            let o = self.or(s.0, s.1);
            self.eqc(o, 0)
        };
        // normalise: value = s * 2^(ex + scale), top bit k, biased exponent be = k + ex + 1023
        let ex = self.add(ex, scale);
        let k = self.msb128(s);
        let be = self.add(k, ex);
        let be = self.addc(be, 1023);
        let normal = self.icmpc(IntCmp::GeS, be, 1);
        // sh = k - 52, plus 1 - be for a denormal result
        let sh = self.addc(k, (-52i64) as u64);
        let one = self.c64(1);
        let under = self.sub(one, be);
        let sh_d = self.add(sh, under);
        let sh = self.sel(normal, sh, sh_d);
        let exact = self.icmpc(IntCmp::LeS, sh, 0);
        let gone = self.icmpc(IntCmp::GtS, sh, 128);
        // exact: shift left (the value has at most 53 bits)
        let nsh = self.iu(IntUn::Neg, sh);
        let kept_exact = self.ib(IntBin::Shl, s.1, nsh);
        // inexact: keep the top bits and round on the remainder
        let shp1 = self.sel(exact, one, sh);
        let kept = self.shr128(s, shp1);
        let back = self.shl128(kept, shp1);
        let rem = self.sub128(s, back);
        // magnitude-up for this sign in a directed mode (None: to nearest even)
        let away = match round {
            Round::NearestEven => None,
            Round::Zero => Some(self.cb(false)),
            Round::PlusInf => Some(self.bnot(sign)),
            Round::MinusInf => Some(sign),
        };
        let up = match away {
            None => {
                let shm1 = self.sub(shp1, one);
                let half = self.shl128((z, one), shm1);
                let gt = self.lt128(half, rem);
                let lt = self.lt128(rem, half);
                let ngt = self.bnot(gt);
                let nlt = self.bnot(lt);
                let eq = self.band(ngt, nlt);
                let odd = self.bit(kept.1, 1);
                let tie = self.band(eq, odd);
                self.bor(gt, tie)
            }
            Some(aw) => {
                // rule: f64-rounding-mode: any discarded bit steps away from zero
                let o = self.or(rem.0, rem.1);
                let inexact = self.nec(o, 0);
                let inexact = self.bor(inexact, gone);
                self.band(aw, inexact)
            }
        };
        let upv = self.b2u(up);
        let upv = self.zext(upv);
        let rounded = self.add(kept.1, upv);
        let kept = self.sel(exact, kept_exact, rounded);
        // a value below every kept bit: zero, or the smallest denormal when stepping away
        let gone_v = match away {
            None => z,
            Some(aw) => {
                let u = self.b2u(aw);
                self.zext(u)
            }
        };
        let kept = self.sel(gone, gone_v, kept);
        // assemble: (be - 1) << 52 + kept carries into the exponent on its own
        let bm1 = self.sub(be, one);
        let eb = self.shlc(bm1, 52);
        let eb = self.sel(normal, eb, z);
        let mag = self.add(eb, kept);
        let over_e = self.icmpc(IntCmp::GeS, be, 2047);
        let over_m = self.icmpc(IntCmp::GeU, mag, f.exp_mask());
        let over = self.bor(over_e, over_m);
        let over_v = match away {
            None => self.c64(f.exp_mask()),
            Some(aw) => {
                // rule: f64-rounding-mode: toward zero for this sign, the largest finite value
                let inf = self.c64(f.exp_mask());
                let mx = self.c64(f.max_finite());
                self.sel(aw, inf, mx)
            }
        };
        let mag = self.sel(over, over_v, mag);
        // rule: f64-denormals: the exact value below 2^-1022 is tiny, before rounding
        let mag = if flush_out {
            let tiny = self.bnot(normal);
            self.sel(tiny, z, mag)
        } else {
            mag
        };
        // an exact zero from opposite signs is +0, -0 toward -infinity
        let mag = self.sel(s_zero, z, mag);
        let sign = if round == Round::MinusInf {
            self.bor(sign, s_zero)
        } else {
            let nz = self.bnot(s_zero);
            self.band(sign, nz)
        };
        let sb = self.c64(f.sign_mask());
        let sv = self.sel(sign, sb, z);
        self.or(mag, sv)
    }
}
