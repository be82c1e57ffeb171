//! The f64 fused multiply-add on integer bits (rule f64-fma-exact): no native fma, which a
//! driver may leave unfused, and no f64 value a driver could flush.

use super::{Builder, Fmt};
use crate::ir::{Handle, IntBin, IntCmp, IntUn};

impl Builder {
    /// The f64 fused multiply-add `a * b + c` on bits, times `2^scale` (`scale` a signed U64
    /// exponent offset, 0 for a plain fma), with one rounding to nearest even, in integer
    /// arithmetic only: no native fma (a driver may leave it unfused) and no f64 value that a
    /// driver could flush. `a`, `b` and `c` must be finite and not all of `a * b` and `c` zero;
    /// infinities, NaNs and the zero-plus-zero sign are the caller's to handle.
    ///
    /// rule: f64-fma-exact (docs/semantics.md)
    pub fn fma_f64_bits(&mut self, a: Handle, b: Handle, c: Handle, scale: Handle) -> Handle {
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
        // inexact: keep the top bits and round to nearest even on the remainder
        let shp1 = self.sel(exact, one, sh);
        let kept = self.shr128(s, shp1);
        let back = self.shl128(kept, shp1);
        let rem = self.sub128(s, back);
        let shm1 = self.sub(shp1, one);
        let half = self.shl128((z, one), shm1);
        let gt = self.lt128(half, rem);
        let lt = self.lt128(rem, half);
        let ngt = self.bnot(gt);
        let nlt = self.bnot(lt);
        let eq = self.band(ngt, nlt);
        let odd = self.bit(kept.1, 1);
        let tie = self.band(eq, odd);
        let up = self.bor(gt, tie);
        let upv = self.b2u(up);
        let upv = self.zext(upv);
        let rounded = self.add(kept.1, upv);
        let kept = self.sel(exact, kept_exact, rounded);
        let kept = self.sel(gone, z, kept);
        // assemble: (be - 1) << 52 + kept carries into the exponent on its own
        let bm1 = self.sub(be, one);
        let eb = self.shlc(bm1, 52);
        let eb = self.sel(normal, eb, z);
        let mag = self.add(eb, kept);
        let inf = self.c64(f.exp_mask());
        let over_e = self.icmpc(IntCmp::GeS, be, 2047);
        let over_m = self.icmpc(IntCmp::GeU, mag, f.exp_mask());
        let over = self.bor(over_e, over_m);
        let mag = self.sel(over, inf, mag);
        // an exact zero from opposite signs is +0 in round to nearest
        let mag = self.sel(s_zero, z, mag);
        let nz = self.bnot(s_zero);
        let sign = self.band(sign, nz);
        let sb = self.c64(f.sign_mask());
        let sv = self.sel(sign, sb, z);
        self.or(mag, sv)
    }
}
