//! Float rules of the builder: native float operations in the forms no driver can change
//! (a multiplication by a constant zero on the bits), integral rounding, classification on the
//! bits, NaN quieting and propagation, and exact widening between formats.

use super::{Builder, Fmt};
use crate::ir::{Convert, Expr, FloatBin, FloatCmp, FloatUn, Handle, IntBin, IntCmp, IntUn, Ty};

impl Builder {
    /// A native float binary operation, except that a multiplication with a zero factor is
    /// built on the bits: lavapipe folds `x * 0.0` to `+0.0` even for NaN, infinite and
    /// negative `x`, despite `SignedZeroInfNanPreserve` and `NoContraction`, and it does so
    /// whenever its own analysis proves a factor zero (a half of a register the body never
    /// wrote, say). A factor known to be zero here takes the bit rule alone; when neither
    /// factor is a known constant, the bit rule is selected for a zero factor at run time.
    pub fn fb(&mut self, op: FloatBin, a: Handle, b: Handle) -> Handle {
        if op == FloatBin::Mul {
            if let Some(neg) = self.const_float_zero(b) {
                return self.mul_by_zero(a, neg);
            }
            if let Some(neg) = self.const_float_zero(a) {
                return self.mul_by_zero(b, neg);
            }
            if self.known(a).is_none() && self.known(b).is_none() {
                return self.mul_zero_guarded(a, b);
            }
        }
        if matches!(op, FloatBin::Add | FloatBin::Sub) {
            // lavapipe folds `x + 0.0` to `x`, which is -0 for x = -0 where IEEE 754 gives +0
            if let Some(neg) = self.const_float_zero(b) {
                return self.add_zero(a, neg != (op == FloatBin::Sub), false);
            }
            if let Some(neg) = self.const_float_zero(a) {
                return self.add_zero(b, neg, op == FloatBin::Sub);
            }
        }
        self.push(Expr::FloatBin { op, a, b })
    }

    /// `±0 + x` (`x_negated`: `±0 - x`) on the bits, for a zero of sign `neg`: a NaN `x`
    /// quietened; a zero `x` gives -0 only when both zeros are negative; otherwise `x` (or
    /// its negation).
    fn add_zero(&mut self, x: Handle, neg: bool, x_negated: bool) -> Handle {
        let fty = self.ty(x);
        let fmt = if fty == Ty::F32 { Fmt::F32 } else { Fmt::F64 };
        let xb = self.cvt(Convert::Bitcast, x, fmt.ity());
        let nan = self.is_nan(fmt, xb);
        let q = self.orc(xb, fmt.quiet_bit());
        let v = if x_negated {
            self.xorc(xb, fmt.sign_mask())
        } else {
            xb
        };
        let z = self.is_zero(fmt, v);
        let zero = if neg {
            self.andc(v, fmt.sign_mask())
        } else {
            self.cf(fmt, 0)
        };
        let r = self.sel(z, zero, v);
        let r = self.sel(nan, q, r);
        self.cvt(Convert::Bitcast, r, fty)
    }

    /// `a * b` with the result of a zero factor selected on the bits (the first NaN factor
    /// quieted, the default NaN for `0 * inf`, else the zero of the product's sign).
    fn mul_zero_guarded(&mut self, a: Handle, b: Handle) -> Handle {
        let fty = self.ty(a);
        let fmt = if fty == Ty::F32 { Fmt::F32 } else { Fmt::F64 };
        let native = self.push(Expr::FloatBin {
            op: FloatBin::Mul,
            a,
            b,
        });
        let ab = self.cvt(Convert::Bitcast, a, fmt.ity());
        let bb = self.cvt(Convert::Bitcast, b, fmt.ity());
        let za = self.is_zero(fmt, ab);
        let zb = self.is_zero(fmt, bb);
        let ia = self.is_inf(fmt, ab);
        let ib = self.is_inf(fmt, bb);
        let i1 = self.band(za, ib);
        let i2 = self.band(zb, ia);
        let invalid = self.bor(i1, i2);
        let x = self.xor(ab, bb);
        let sign = self.andc(x, fmt.sign_mask());
        let dn = self.cf(fmt, fmt.default_nan());
        let zr = self.sel(invalid, dn, sign);
        let nb = self.is_nan(fmt, bb);
        let qb = self.orc(bb, fmt.quiet_bit());
        let zr = self.sel(nb, qb, zr);
        let na = self.is_nan(fmt, ab);
        let qa = self.orc(ab, fmt.quiet_bit());
        let zr = self.sel(na, qa, zr);
        let zr = self.cvt(Convert::Bitcast, zr, fty);
        let z = self.bor(za, zb);
        self.sel(z, zr, native)
    }

    /// `Some(sign)` when `h` is a float zero that follows from constants alone (a constant,
    /// or an exact computation on constants such as a widened constant register).
    fn const_float_zero(&self, h: Handle) -> Option<bool> {
        let bits = self.known(h)?;
        let fmt = match self.ty(h) {
            Ty::F32 => Fmt::F32,
            Ty::F64 => Fmt::F64,
            _ => return None,
        };
        let bits = bits & (fmt.sign_mask() | (fmt.sign_mask() - 1));
        (bits & (fmt.sign_mask() - 1) == 0).then_some(bits != 0)
    }

    /// `x * ±0` on the bits, as IEEE 754 (and the CPU model's x86 arithmetic) gives it: a NaN
    /// `x` quietened, the default NaN for an infinite `x`, otherwise the zero of the product's
    /// sign.
    fn mul_by_zero(&mut self, x: Handle, neg: bool) -> Handle {
        let fty = self.ty(x);
        let fmt = if fty == Ty::F32 { Fmt::F32 } else { Fmt::F64 };
        let xb = self.cvt(Convert::Bitcast, x, fmt.ity());
        let nan = self.is_nan(fmt, xb);
        let inf = self.is_inf(fmt, xb);
        let q = self.orc(xb, fmt.quiet_bit());
        let dn = self.cf(fmt, fmt.default_nan());
        let z = self.andc(xb, fmt.sign_mask());
        let z = if neg {
            self.xorc(z, fmt.sign_mask())
        } else {
            z
        };
        let r = self.sel(inf, dn, z);
        let r = self.sel(nan, q, r);
        self.cvt(Convert::Bitcast, r, fty)
    }
    pub fn fma(&mut self, a: Handle, b: Handle, c: Handle) -> Handle {
        self.push(Expr::Fma { a, b, c })
    }
    /// A native float unary operation, except that rounding to an integral value (floor, ceil,
    /// trunc, round-even) is built on the bits by [`Builder::round_integral`]: lavapipe's f64
    /// Floor/Ceil/Trunc/RoundEven are wrong on some inputs and flush f64 denormals.
    pub fn fu(&mut self, op: FloatUn, a: Handle) -> Handle {
        let fmt = match self.ty(a) {
            Ty::F32 => Fmt::F32,
            _ => Fmt::F64,
        };
        match op {
            FloatUn::Floor | FloatUn::Ceil | FloatUn::Trunc | FloatUn::RoundEven => {
                let ity = fmt.ity();
                let x = self.cvt(Convert::Bitcast, a, ity);
                let r = self.round_integral(fmt, op, x);
                let fty = self.ty(a);
                self.cvt(Convert::Bitcast, r, fty)
            }
            _ => self.push(Expr::FloatUn { op, a }),
        }
    }

    /// Rounds the float bits `x` (F32 or F64) to an integral value in the direction of `op`
    /// (Floor, Ceil, Trunc or RoundEven) with integer operations only, so that no driver's
    /// rounding or denormal flushing is involved. Zeros, infinities and NaNs come back
    /// unchanged; a result of zero keeps the sign of `x` (IEEE 754 roundToIntegral).
    ///
    /// rule: f64-round-integral (docs/semantics.md)
    pub fn round_integral(&mut self, fmt: Fmt, op: FloatUn, x: Handle) -> Handle {
        let p = u64::from(fmt.mbits());
        let bias = fmt.bias() as u64;
        let e = self.shrc(x, fmt.mbits());
        let e = self.andc(e, (1 << fmt.ebits()) - 1);
        let neg = self.sign_of(fmt, x);
        let sign = self.andc(x, fmt.sign_mask());
        let mag = self.abs_bits(fmt, x);
        let nonzero = self.nec(mag, 0);
        // |x| >= 2^p (or inf/NaN): already integral
        let integral = self.icmpc(IntCmp::GeU, e, bias + p);
        // |x| < 1
        let small = self.icmpc(IntCmp::LtU, e, bias);
        let one = self.orc(sign, fmt.one());
        let small_r = match op {
            FloatUn::Trunc => sign,
            FloatUn::Floor => {
                let up = self.band(neg, nonzero);
                self.sel(up, one, sign)
            }
            FloatUn::Ceil => {
                let pos = self.bnot(neg);
                let up = self.band(pos, nonzero);
                self.sel(up, one, sign)
            }
            _ => {
                // above one half rounds to one; exactly one half is a tie to zero (even)
                let half = self.eqc(e, bias - 1);
                let m = self.andc(x, fmt.man_mask());
                let above = self.nec(m, 0);
                let up = self.band(half, above);
                self.sel(up, one, sign)
            }
        };
        // 0 <= E < p: clear the fraction bits, then step one unit away from zero if needed
        let bias_c = self.clike(e, bias);
        let ee = self.sub(e, bias_c);
        let mm = self.clike(x, fmt.man_mask());
        let fmask = self.ib(IntBin::ShrU, mm, ee);
        let unit = self.addc(fmask, 1);
        let frac = self.and(x, fmask);
        let nf = self.iu(IntUn::Not, fmask);
        let tr = self.and(x, nf);
        let frac_nz = self.nec(frac, 0);
        let step = match op {
            FloatUn::Trunc => self.cb(false),
            FloatUn::Floor => self.band(neg, frac_nz),
            FloatUn::Ceil => {
                let pos = self.bnot(neg);
                self.band(pos, frac_nz)
            }
            _ => {
                let half = self.shrc(unit, 1);
                let gt = self.icmp(IntCmp::GtU, frac, half);
                let eq = self.icmp(IntCmp::Eq, frac, half);
                // the integer's lowest bit is the bit at `unit` (the implicit bit when E = 0,
                // which the odd exponent bias puts in the same place)
                let odd_m = self.and(tr, unit);
                let odd = self.nec(odd_m, 0);
                let tie = self.band(eq, odd);
                self.bor(gt, tie)
            }
        };
        // adding one unit to the magnitude bits carries into the exponent correctly
        let stepped = self.add(tr, unit);
        let mid = self.sel(step, stepped, tr);
        let r = self.sel(small, small_r, mid);
        self.sel(integral, x, r)
    }
    pub fn fcmp(&mut self, op: FloatCmp, a: Handle, b: Handle) -> Handle {
        self.push(Expr::FloatCmp { op, a, b })
    }

    // ---- classification on bits (any format) ----
    pub fn sign_of(&mut self, fmt: Fmt, x: Handle) -> Handle {
        self.bit(x, fmt.sign_mask())
    }
    pub fn abs_bits(&mut self, fmt: Fmt, x: Handle) -> Handle {
        self.andc(x, fmt.sign_mask() - 1)
    }
    pub fn is_nan(&mut self, fmt: Fmt, x: Handle) -> Handle {
        let a = self.abs_bits(fmt, x);
        self.icmpc(IntCmp::GtU, a, fmt.exp_mask())
    }
    pub fn is_snan(&mut self, fmt: Fmt, x: Handle) -> Handle {
        let n = self.is_nan(fmt, x);
        let q = self.bit(x, fmt.quiet_bit());
        let nq = self.bnot(q);
        self.band(n, nq)
    }
    pub fn is_inf(&mut self, fmt: Fmt, x: Handle) -> Handle {
        let a = self.abs_bits(fmt, x);
        self.eqc(a, fmt.exp_mask())
    }
    pub fn is_zero(&mut self, fmt: Fmt, x: Handle) -> Handle {
        let a = self.abs_bits(fmt, x);
        self.eqc(a, 0)
    }
    pub fn is_denorm(&mut self, fmt: Fmt, x: Handle) -> Handle {
        let a = self.abs_bits(fmt, x);
        let nz = self.nec(a, 0);
        let small = self.icmpc(IntCmp::LeU, a, fmt.man_mask());
        self.band(nz, small)
    }
    /// Replaces a denormal by the zero of its sign (rule: denormal-flush).
    pub fn flush(&mut self, fmt: Fmt, x: Handle) -> Handle {
        let d = self.is_denorm(fmt, x);
        let z = self.andc(x, fmt.sign_mask());
        self.sel(d, z, x)
    }
    pub fn flush_if(&mut self, fmt: Fmt, x: Handle, on: bool) -> Handle {
        if on {
            self.flush(fmt, x)
        } else {
            x
        }
    }
    pub fn quiet(&mut self, fmt: Fmt, x: Handle) -> Handle {
        self.orc(x, fmt.quiet_bit())
    }
    /// f16 bits of the f32 NaN `x`: sign, quiet, payload bits 22:13 (always quiet).
    pub fn nan32_to_16(&mut self, x: Handle) -> Handle {
        let s = self.shrc(x, 16);
        let s = self.andc(s, 0x8000);
        let p = self.shrc(x, 13);
        let p = self.andc(p, 0x1ff);
        let q = self.orc(p, 0x7e00);
        self.or(q, s)
    }
    /// A NaN operand as an instruction returns it: quieted with IEEE=1, unchanged with IEEE=0
    /// (rule: snan-ieee).
    pub fn nan_out(&mut self, fmt: Fmt, x: Handle, ieee: bool) -> Handle {
        if ieee {
            self.quiet(fmt, x)
        } else {
            x
        }
    }
    pub fn neg_bits(&mut self, fmt: Fmt, x: Handle) -> Handle {
        self.xorc(x, fmt.sign_mask())
    }

    /// The first NaN of `srcs` (in operand order) as the instruction returns it, and whether
    /// any source is a NaN (rule: nan-propagation).
    pub fn first_nan(&mut self, fmt: Fmt, srcs: &[Handle], ieee: bool) -> (Handle, Handle) {
        let mut any = self.cb(false);
        let mut pick = self.cf(fmt, fmt.default_nan());
        for &s in srcs.iter().rev() {
            let n = self.is_nan(fmt, s);
            let q = self.nan_out(fmt, s, ieee);
            pick = self.sel(n, q, pick);
            any = self.bor(n, any);
        }
        (any, pick)
    }

    // ---- exact widening to f64 (no native f32/f16 op, so no driver flush) ----

    /// The f64 value of f32 bits `x`, exact for every input (denormals included). NaNs keep their
    /// payload shifted into the f64 mantissa.
    pub fn f32_to_f64_exact(&mut self, x: Handle) -> Handle {
        self.widen_exact(Fmt::F32, x)
    }

    /// The f64 value of f16 bits (low 16 bits of `x`), exact; NaN payloads move to the top of
    /// the f64 mantissa.
    pub fn f16_to_f64_exact(&mut self, x: Handle) -> Handle {
        let x = self.andc(x, 0xffff);
        self.widen_exact(Fmt::F16, x)
    }

    /// Widens the f32 or f16 bits in `x` (U32, upper bits clear) to an F64 on the bits: normals
    /// rebias the exponent, infinities and NaNs keep the mantissa at the top of the f64 one, and
    /// denormals become mantissa * 2^(1 - bias - mbits), exact in f64.
    fn widen_exact(&mut self, fmt: Fmt, x: Handle) -> Handle {
        let (mbits, ebits) = (fmt.mbits(), fmt.ebits());
        let emax = (1u64 << ebits) - 1;
        let mmask = (1u64 << mbits) - 1;
        let x64 = self.zext(x);
        let sign = self.andc(x64, fmt.sign_mask());
        let sign = self.shlc(sign, 63 - (mbits + ebits));
        let e = self.shrc(x64, mbits);
        let e = self.andc(e, emax);
        let m = self.andc(x64, mmask);
        // normal: exponent rebias to 1023
        let en = self.addc(e, (1023 - fmt.bias()) as u64);
        let en = self.shlc(en, 52);
        let mn = self.shlc(m, 52 - mbits);
        let normal = self.or(en, mn);
        let normal = self.or(normal, sign);
        // inf/nan
        let ei = self.c64(0x7ff0_0000_0000_0000);
        let special = self.or(ei, mn);
        let special = self.or(special, sign);
        // denormal: m * 2^(1 - bias - mbits), exact (m < 2^mbits)
        let m32 = self.andc(x, mmask);
        let mf = self.cvt(Convert::U32ToF64, m32, Ty::F64);
        let scale = self.cf64(2f64.powi(1 - fmt.bias() as i32 - mbits as i32));
        let df = self.fb(FloatBin::Mul, mf, scale);
        let db = self.bits_of_f64(df);
        let db = self.or(db, sign);
        let e0 = self.eqc(e, 0);
        let is_max = self.eqc(e, emax);
        let r = self.sel(is_max, special, normal);
        let r = self.sel(e0, db, r);
        self.f64_of(r)
    }

    /// Exact f64 value of the bits of `fmt`.
    pub fn to_f64(&mut self, fmt: Fmt, x: Handle) -> Handle {
        match fmt {
            Fmt::F16 => self.f16_to_f64_exact(x),
            Fmt::F32 => self.f32_to_f64_exact(x),
            Fmt::F64 => self.f64_of(x),
        }
    }

    /// f32 value of f16 bits, exact, as f32 bits (NaN: payload moved, quiet bit kept as is).
    pub fn f16_to_f32_bits(&mut self, x: Handle) -> Handle {
        let x = self.andc(x, 0xffff);
        let sign = self.andc(x, 0x8000);
        let sign = self.shlc(sign, 16);
        let e = self.shrc(x, 10);
        let e = self.andc(e, 0x1f);
        let m = self.andc(x, 0x3ff);
        let en = self.addc(e, 127 - 15);
        let en = self.shlc(en, 23);
        let mn = self.shlc(m, 13);
        let normal = self.or(en, mn);
        let ei = self.c32(0x7f80_0000);
        let special = self.or(ei, mn);
        // denormal: normalise with the index of the top bit (m in 1..1023)
        let msb = self.iu(IntUn::FindMsbU, m); // 0..9
        let sh = self.c32(23);
        let sh = self.sub(sh, msb);
        let mm = self.ib(IntBin::Shl, m, sh);
        let mm = self.andc(mm, 0x7f_ffff);
        // value = 2^(msb-24): biased exponent msb - 24 + 127
        let ed = self.addc(msb, 103);
        let ed = self.shlc(ed, 23);
        let den = self.or(ed, mm);
        let m0 = self.eqc(m, 0);
        let zero = self.c32(0);
        let den = self.sel(m0, zero, den);
        let e0 = self.eqc(e, 0);
        let emax = self.eqc(e, 0x1f);
        let r = self.sel(emax, special, normal);
        let r = self.sel(e0, den, r);
        self.or(r, sign)
    }
}
