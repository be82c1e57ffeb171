//! The builder: appends IR expressions to a [`Kernel`] and builds every RDNA2 semantic rule out
//! of IR primitives (docs/semantics.md names each rule and the function here that implements it).
//!
//! Float values travel as integer bit patterns (`U32` for f16/f32, `U64` for f64) between the
//! rules, so that no driver's denormal flushing or NaN canonicalisation can touch them. f32 and
//! f16 arithmetic is done exactly (or as value + exact error) in f64, where every f32/f16 value,
//! denormals included, is a normal number, and then rounded to the target format by
//! [`Builder::round_to`], an integer routine that implements the four rounding modes, denormal
//! output flushing and the tininess rules.

use crate::ir::{
    Convert, Expr, FloatBin, FloatCmp, FloatUn, Handle, IntBin, IntCmp, IntUn, Kernel, Ty,
};
use rdnaprobe_isa::Round;
use std::collections::HashMap;

/// A binary floating-point format the rules work on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fmt {
    F16,
    F32,
    F64,
}

impl Fmt {
    /// Number of stored mantissa bits.
    pub fn mbits(self) -> u32 {
        match self {
            Fmt::F16 => 10,
            Fmt::F32 => 23,
            Fmt::F64 => 52,
        }
    }
    pub fn ebits(self) -> u32 {
        match self {
            Fmt::F16 => 5,
            Fmt::F32 => 8,
            Fmt::F64 => 11,
        }
    }
    pub fn bias(self) -> i64 {
        (1 << (self.ebits() - 1)) - 1
    }
    /// Integer type that carries the bits.
    pub fn ity(self) -> Ty {
        if self == Fmt::F64 {
            Ty::U64
        } else {
            Ty::U32
        }
    }
    pub fn sign_mask(self) -> u64 {
        1 << (self.mbits() + self.ebits())
    }
    pub fn exp_mask(self) -> u64 {
        ((1 << self.ebits()) - 1) << self.mbits()
    }
    pub fn man_mask(self) -> u64 {
        (1 << self.mbits()) - 1
    }
    pub fn quiet_bit(self) -> u64 {
        1 << (self.mbits() - 1)
    }
    /// The default NaN RDNA2 writes for an invalid operation (negative, quiet).
    pub fn default_nan(self) -> u64 {
        self.sign_mask() | self.exp_mask() | self.quiet_bit()
    }
    pub fn one(self) -> u64 {
        (self.bias() as u64) << self.mbits()
    }
    pub fn max_finite(self) -> u64 {
        self.exp_mask() - 1
    }
}

/// When a result that is about to be flushed counts as tiny.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiny {
    /// The rounded result (bounded exponent) is a denormal.
    Result,
    /// The value rounded to the format's precision with an unbounded exponent is below the
    /// smallest normal (rule: tininess-after-rounding).
    AfterRounding,
    /// The exact value is below the smallest normal.
    BeforeRounding,
}

/// Appends expressions to a kernel; constants are shared.
#[derive(Default)]
pub struct Builder {
    pub k: Kernel,
    consts: HashMap<(Ty, u64), Handle>,
}

impl Builder {
    pub fn new() -> Builder {
        Builder::default()
    }

    pub fn push(&mut self, e: Expr) -> Handle {
        self.k.push(e)
    }
    pub fn ty(&self, h: Handle) -> Ty {
        self.k.ty(h)
    }

    // ---- constants ----
    pub fn cst(&mut self, ty: Ty, bits: u64) -> Handle {
        if let Some(&h) = self.consts.get(&(ty, bits)) {
            return h;
        }
        let h = self.k.push(Expr::Const { ty, bits });
        self.consts.insert((ty, bits), h);
        h
    }
    pub fn c32(&mut self, v: u32) -> Handle {
        self.cst(Ty::U32, u64::from(v))
    }
    pub fn c64(&mut self, v: u64) -> Handle {
        self.cst(Ty::U64, v)
    }
    pub fn cf64(&mut self, v: f64) -> Handle {
        self.cst(Ty::F64, v.to_bits())
    }
    pub fn cb(&mut self, v: bool) -> Handle {
        self.cst(Ty::Bool, u64::from(v))
    }
    /// An integer constant of the type carrying `fmt`'s bits.
    pub fn cf(&mut self, fmt: Fmt, v: u64) -> Handle {
        self.cst(fmt.ity(), v)
    }
    /// A constant of the same integer type as `like`.
    pub fn clike(&mut self, like: Handle, v: u64) -> Handle {
        let t = self.ty(like);
        self.cst(t, v)
    }

    // ---- integer ----
    pub fn ib(&mut self, op: IntBin, a: Handle, b: Handle) -> Handle {
        self.push(Expr::IntBin { op, a, b })
    }
    pub fn add(&mut self, a: Handle, b: Handle) -> Handle {
        self.ib(IntBin::Add, a, b)
    }
    pub fn sub(&mut self, a: Handle, b: Handle) -> Handle {
        self.ib(IntBin::Sub, a, b)
    }
    pub fn and(&mut self, a: Handle, b: Handle) -> Handle {
        self.ib(IntBin::And, a, b)
    }
    pub fn or(&mut self, a: Handle, b: Handle) -> Handle {
        self.ib(IntBin::Or, a, b)
    }
    pub fn xor(&mut self, a: Handle, b: Handle) -> Handle {
        self.ib(IntBin::Xor, a, b)
    }
    pub fn andc(&mut self, a: Handle, m: u64) -> Handle {
        let c = self.clike(a, m);
        self.and(a, c)
    }
    pub fn orc(&mut self, a: Handle, m: u64) -> Handle {
        let c = self.clike(a, m);
        self.or(a, c)
    }
    pub fn xorc(&mut self, a: Handle, m: u64) -> Handle {
        let c = self.clike(a, m);
        self.xor(a, c)
    }
    pub fn addc(&mut self, a: Handle, m: u64) -> Handle {
        let c = self.clike(a, m);
        self.add(a, c)
    }
    pub fn shlc(&mut self, a: Handle, s: u32) -> Handle {
        let c = self.clike(a, u64::from(s));
        self.ib(IntBin::Shl, a, c)
    }
    pub fn shrc(&mut self, a: Handle, s: u32) -> Handle {
        let c = self.clike(a, u64::from(s));
        self.ib(IntBin::ShrU, a, c)
    }
    pub fn sarc(&mut self, a: Handle, s: u32) -> Handle {
        let c = self.clike(a, u64::from(s));
        self.ib(IntBin::ShrS, a, c)
    }
    pub fn iu(&mut self, op: IntUn, a: Handle) -> Handle {
        self.push(Expr::IntUn { op, a })
    }
    pub fn icmp(&mut self, op: IntCmp, a: Handle, b: Handle) -> Handle {
        self.push(Expr::IntCmp { op, a, b })
    }
    pub fn icmpc(&mut self, op: IntCmp, a: Handle, v: u64) -> Handle {
        let c = self.clike(a, v);
        self.icmp(op, a, c)
    }
    pub fn eqc(&mut self, a: Handle, v: u64) -> Handle {
        self.icmpc(IntCmp::Eq, a, v)
    }
    pub fn nec(&mut self, a: Handle, v: u64) -> Handle {
        self.icmpc(IntCmp::Ne, a, v)
    }
    pub fn sel(&mut self, cond: Handle, a: Handle, b: Handle) -> Handle {
        if a == b {
            return a;
        }
        self.push(Expr::Select { cond, a, b })
    }
    pub fn band(&mut self, a: Handle, b: Handle) -> Handle {
        self.push(Expr::BoolAnd(a, b))
    }
    pub fn bor(&mut self, a: Handle, b: Handle) -> Handle {
        self.push(Expr::BoolOr(a, b))
    }
    /// Exclusive or of two `Bool`s.
    pub fn bxor(&mut self, a: Handle, b: Handle) -> Handle {
        let na = self.bnot(a);
        let nb = self.bnot(b);
        let x = self.band(a, nb);
        let y = self.band(na, b);
        self.bor(x, y)
    }
    pub fn bnot(&mut self, a: Handle) -> Handle {
        self.push(Expr::BoolNot(a))
    }
    pub fn cvt(&mut self, op: Convert, a: Handle, to: Ty) -> Handle {
        self.push(Expr::Convert { op, a, to })
    }
    pub fn b2u(&mut self, b: Handle) -> Handle {
        self.cvt(Convert::BoolToU32, b, Ty::U32)
    }
    pub fn zext(&mut self, a: Handle) -> Handle {
        self.cvt(Convert::ZextU32, a, Ty::U64)
    }
    pub fn trunc64(&mut self, a: Handle) -> Handle {
        self.cvt(Convert::TruncU64, a, Ty::U32)
    }
    pub fn pack64(&mut self, lo: Handle, hi: Handle) -> Handle {
        self.push(Expr::Pack64 { lo, hi })
    }
    pub fn hi32(&mut self, a: Handle) -> Handle {
        let s = self.shrc(a, 32);
        self.trunc64(s)
    }
    /// Bit test: `(a & m) != 0`.
    pub fn bit(&mut self, a: Handle, m: u64) -> Handle {
        let x = self.andc(a, m);
        self.nec(x, 0)
    }

    // ---- native floats ----
    pub fn f64_of(&mut self, bits: Handle) -> Handle {
        self.cvt(Convert::Bitcast, bits, Ty::F64)
    }
    pub fn bits_of_f64(&mut self, f: Handle) -> Handle {
        self.cvt(Convert::Bitcast, f, Ty::U64)
    }
    /// A native float binary operation, except that a multiplication by a constant zero is
    /// built on the bits: lavapipe folds `x * 0.0` to `+0.0` even for NaN, infinite and
    /// negative `x`, despite `SignedZeroInfNanPreserve`.
    pub fn fb(&mut self, op: FloatBin, a: Handle, b: Handle) -> Handle {
        if op == FloatBin::Mul {
            if let Some(neg) = self.const_float_zero(b) {
                return self.mul_by_zero(a, neg);
            }
            if let Some(neg) = self.const_float_zero(a) {
                return self.mul_by_zero(b, neg);
            }
        }
        self.push(Expr::FloatBin { op, a, b })
    }

    /// `Some(sign)` when `h` is a constant float zero (directly or as a bit cast constant).
    fn const_float_zero(&self, h: Handle) -> Option<bool> {
        let bits = match *self.k.expr(h) {
            Expr::Const {
                ty: Ty::F32 | Ty::F64,
                bits,
            } => bits,
            Expr::Convert {
                op: Convert::Bitcast,
                a,
                to: Ty::F32 | Ty::F64,
            } => match *self.k.expr(a) {
                Expr::Const { bits, .. } => bits,
                _ => return None,
            },
            _ => return None,
        };
        let fmt = if self.ty(h) == Ty::F32 {
            Fmt::F32
        } else {
            Fmt::F64
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

    // ---- 128-bit integers as (hi, lo) U64 pairs ----
    /// `(hi, lo) << s` for any `s` (0 from 128 on).
    fn shl128(&mut self, (hi, lo): (Handle, Handle), s: Handle) -> (Handle, Handle) {
        self.shift128(hi, lo, s, IntBin::Shl, IntBin::ShrU)
    }
    /// `(hi, lo) >> s` (logical) for any `s` (0 from 128 on).
    fn shr128(&mut self, (hi, lo): (Handle, Handle), s: Handle) -> (Handle, Handle) {
        let (l, h) = self.shift128(lo, hi, s, IntBin::ShrU, IntBin::Shl);
        (h, l)
    }
    /// A 128-bit shift by `s` toward `lead`, the half bits move into from `trail` (`ahead`
    /// moves a half toward `lead`, `behind` takes the carry out of `trail`); returns the new
    /// (lead, trail).
    fn shift128(
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
    fn add128(
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
    fn sub128(
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
    fn lt128(&mut self, (ah, al): (Handle, Handle), (bh, bl): (Handle, Handle)) -> Handle {
        let hl = self.icmp(IntCmp::LtU, ah, bh);
        let he = self.icmp(IntCmp::Eq, ah, bh);
        let ll = self.icmp(IntCmp::LtU, al, bl);
        let t = self.band(he, ll);
        self.bor(hl, t)
    }
    fn sel128(&mut self, c: Handle, a: (Handle, Handle), b: (Handle, Handle)) -> (Handle, Handle) {
        (self.sel(c, a.0, b.0), self.sel(c, a.1, b.1))
    }
    /// Index of the most significant set bit of a non-zero 128-bit value (U64).
    fn msb128(&mut self, (hi, lo): (Handle, Handle)) -> Handle {
        let mh = self.iu(IntUn::FindMsbU, hi);
        let mh = self.addc(mh, 64);
        let ml = self.iu(IntUn::FindMsbU, lo);
        let hz = self.eqc(hi, 0);
        self.sel(hz, ml, mh)
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp;

    /// Builds a kernel computing `f` of inputs and returns its first output for `inputs`.
    fn eval1(f: impl Fn(&mut Builder, [Handle; 3]) -> Handle, inputs: [u32; 3]) -> u32 {
        let mut b = Builder::new();
        let i = [
            b.push(Expr::Input(0)),
            b.push(Expr::Input(1)),
            b.push(Expr::Input(2)),
        ];
        let r = f(&mut b, i);
        let z = b.c32(0);
        let mut outs = vec![z; 16];
        outs[0] = r;
        b.k.outputs = outs;
        b.k.validate().expect("valid");
        interp::run(&b.k, [inputs[0], inputs[1], inputs[2], 0, 0, 0], 0)[0]
    }

    fn kernel1(f: impl Fn(&mut Builder, [Handle; 3]) -> Handle) -> Kernel {
        let mut b = Builder::new();
        let i = [
            b.push(Expr::Input(0)),
            b.push(Expr::Input(1)),
            b.push(Expr::Input(2)),
        ];
        let r = f(&mut b, i);
        let z = b.c32(0);
        let mut outs = vec![z; 16];
        outs[0] = r;
        b.k.outputs = outs;
        b.k.validate().expect("valid");
        b.k
    }

    #[test]
    fn f16_widening_is_exact_for_every_half() {
        let k = kernel1(|b, i| b.f16_to_f32_bits(i[0]));
        let k64 = kernel1(|b, i| {
            let f = b.f16_to_f64_exact(i[0]);
            let bits = b.bits_of_f64(f);
            b.hi32(bits)
        });
        for h in 0..=0xffffu32 {
            let want = half::f16::from_bits(h as u16).to_f32();
            let got = interp::run(&k, [h | 0xabcd_0000, 0, 0, 0, 0, 0], 0)[0];
            if want.is_nan() {
                assert!(f32::from_bits(got).is_nan(), "{h:#x}");
                assert_eq!(got & 0x3f_ffff, (h & 0x1ff) << 13, "{h:#x} payload");
            } else {
                assert_eq!(got, want.to_bits(), "{h:#x}");
                let got64 = interp::run(&k64, [h, 0, 0, 0, 0, 0], 0)[0];
                assert_eq!(got64, (f64::from(want).to_bits() >> 32) as u32, "{h:#x}");
            }
        }
    }

    /// Exact reference: round the f64 `v` (exact) to f16 in a mode, via integer arithmetic on
    /// a scaled value (independent of `round_to`'s construction).
    fn ref_round_f16(v: f64, round: Round) -> u16 {
        if v == 0.0 {
            return if v.is_sign_negative() { 0x8000 } else { 0 };
        }
        let neg = v < 0.0;
        let a = v.abs();
        // candidates: the two f16 values around a, from half's conversion neighbours
        let mut lo = 0u16;
        let mut hi = 0x7c00u16;
        // binary search the largest finite half <= a
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if half::f16::from_bits(mid).to_f64() <= a {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let lv = half::f16::from_bits(lo).to_f64();
        let hv = if hi == 0x7c00 {
            65536.0
        } else {
            half::f16::from_bits(hi).to_f64()
        };
        let pick_hi = if lv == a {
            false
        } else {
            match round {
                Round::NearestEven => {
                    let d1 = a - lv;
                    let d2 = hv - a;
                    d2 < d1 || (d1 == d2 && lo & 1 == 1)
                }
                Round::Zero => false,
                Round::PlusInf => !neg,
                Round::MinusInf => neg,
            }
        };
        let m = if pick_hi { hi } else { lo };
        m | if neg { 0x8000 } else { 0 }
    }

    #[test]
    fn round_to_f16_matches_reference_all_modes() {
        // sums of pairs of f16 values (exact in f64) cover ties, denormals and overflow
        let modes = [
            Round::NearestEven,
            Round::PlusInf,
            Round::MinusInf,
            Round::Zero,
        ];
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for &mode in &modes {
            let k = kernel1(|b, i| {
                let x = b.f16_to_f64_exact(i[0]);
                let y = b.f16_to_f64_exact(i[1]);
                // x * y + tiny: use the exact product (22 bits) as the value
                let p = b.fb(FloatBin::Mul, x, y);
                b.round_to(Fmt::F16, p, None, mode, false, Tiny::Result)
            });
            for _ in 0..20000 {
                let r = next();
                let x = (r & 0x7fff) as u32 & !0x7c00 | ((r >> 16) as u32 & 0x7800);
                let y = ((r >> 32) & 0xffff) as u32;
                let (xf, yf) = (
                    half::f16::from_bits(x as u16).to_f64(),
                    half::f16::from_bits(y as u16).to_f64(),
                );
                if !xf.is_finite() || !yf.is_finite() {
                    continue;
                }
                let want = ref_round_f16(xf * yf, mode);
                let got = interp::run(&k, [x, y, 0, 0, 0, 0], 0)[0];
                assert_eq!(got, u32::from(want), "{x:#x} * {y:#x} in {mode:?}");
            }
        }
    }

    #[test]
    fn round_to_f32_matches_native_nearest_even() {
        let k = kernel1(|b, i| {
            let x = b.f32_to_f64_exact(i[0]);
            let y = b.f32_to_f64_exact(i[1]);
            let c = b.f32_to_f64_exact(i[2]);
            let p = b.fb(FloatBin::Mul, x, y);
            b.round_sum(Fmt::F32, p, c, Round::NearestEven, false, Tiny::Result)
        });
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for n in 0..50000u32 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = seed as u32;
            let y = (seed >> 32) as u32;
            // bias exponents toward the denormal range for half of the cases
            let (x, y) = if n % 2 == 0 {
                (x & 0x9fff_ffff, y & 0xa07f_ffff | 0x1f00_0000)
            } else {
                (x, y)
            };
            let c = x.rotate_left(7) & 0x80ff_ffff;
            let (xf, yf, cf) = (f32::from_bits(x), f32::from_bits(y), f32::from_bits(c));
            let want = xf.mul_add(yf, cf);
            if !want.is_finite() || !(xf * yf).is_finite() {
                continue;
            }
            let got = interp::run(&k, [x, y, c, 0, 0, 0], 0)[0];
            assert_eq!(got, want.to_bits(), "{x:#x} * {y:#x} + {c:#x}");
        }
    }

    #[test]
    fn tininess_after_rounding_mul_boundary() {
        // docs/semantics.md f32-denormals: 0x3f7ffffe * 0x00800001 gives 0x00800000 and
        // 0x3f7fffff * 0x00800000 gives zero when flushing.
        let f = |b: &mut Builder, i: [Handle; 3]| {
            let x = b.f32_to_f64_exact(i[0]);
            let y = b.f32_to_f64_exact(i[1]);
            let p = b.fb(FloatBin::Mul, x, y);
            b.round_to(
                Fmt::F32,
                p,
                None,
                Round::NearestEven,
                true,
                Tiny::AfterRounding,
            )
        };
        assert_eq!(eval1(f, [0x3f7f_fffe, 0x0080_0001, 0]), 0x0080_0000);
        assert_eq!(eval1(f, [0x3f7f_ffff, 0x0080_0000, 0]), 0);
        assert_eq!(eval1(f, [0xbf7f_ffff, 0x0080_0000, 0]), 0x8000_0000);
    }

    /// A kernel of three f64 inputs (in0/in1, in2/in3, in4/in5) whose f64 result is out0/out1.
    fn kernel64(f: impl Fn(&mut Builder, [Handle; 3]) -> Handle) -> Kernel {
        let mut b = Builder::new();
        let mut i = vec![];
        for n in 0..3u8 {
            let lo = b.push(Expr::Input(2 * n));
            let hi = b.push(Expr::Input(2 * n + 1));
            i.push(b.pack64(lo, hi));
        }
        let r = f(&mut b, [i[0], i[1], i[2]]);
        let lo = b.trunc64(r);
        let hi = b.hi32(r);
        let z = b.c32(0);
        let mut outs = vec![z; 16];
        outs[0] = lo;
        outs[1] = hi;
        b.k.outputs = outs;
        b.k.validate().expect("valid");
        b.k
    }

    fn run64(k: &Kernel, x: [u64; 3]) -> u64 {
        let ins = [
            x[0] as u32,
            (x[0] >> 32) as u32,
            x[1] as u32,
            (x[1] >> 32) as u32,
            x[2] as u32,
            (x[2] >> 32) as u32,
        ];
        let o = interp::run(k, ins, 0);
        u64::from(o[0]) | (u64::from(o[1]) << 32)
    }

    /// Interesting f64 bit patterns: zeros, denormals, boundaries, integers and halves.
    fn f64_cases() -> Vec<u64> {
        let mut v: Vec<u64> = vec![
            0,
            1,
            0x000f_ffff_ffff_ffff,
            0x0010_0000_0000_0000,
            0x3fe0_0000_0000_0000,
            0x3fe0_0000_0000_0001,
            0x3fdf_ffff_ffff_ffff,
            0x3ff0_0000_0000_0000,
            0x3ff8_0000_0000_0000,
            0x4004_0000_0000_0000,
            0x400c_0000_0000_0000,
            0x4330_0000_0000_0000,
            0x432f_ffff_ffff_ffff,
            0x4242_db6c_0000_000b,
            0x7fef_ffff_ffff_ffff,
        ];
        // a deterministic spread over all exponents
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..400 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.push(x & 0x7fff_ffff_ffff_ffff);
        }
        let neg: Vec<u64> = v.iter().map(|b| b | 1 << 63).collect();
        v.extend(neg);
        v
    }

    #[test]
    fn round_integral_matches_std_for_f64() {
        type Reference = fn(f64) -> f64;
        let ops: [(FloatUn, Reference); 4] = [
            (FloatUn::Floor, f64::floor),
            (FloatUn::Ceil, f64::ceil),
            (FloatUn::Trunc, f64::trunc),
            (FloatUn::RoundEven, f64::round_ties_even),
        ];
        for (op, reference) in ops {
            let k = kernel64(|b, i| {
                let f = b.f64_of(i[0]);
                let r = b.fu(op, f);
                b.bits_of_f64(r)
            });
            assert!(!k.exprs.iter().any(|e| matches!(e, Expr::FloatUn { .. })));
            for x in f64_cases() {
                if f64::from_bits(x).is_nan() {
                    continue;
                }
                let want = reference(f64::from_bits(x)).to_bits();
                let got = run64(&k, [x, 0, 0]);
                assert_eq!(got, want, "{op:?}({x:#018x})");
            }
        }
    }

    #[test]
    fn fma_f64_bits_matches_std_mul_add() {
        let k = kernel64(|b, i| {
            let z = b.c64(0);
            b.fma_f64_bits(i[0], i[1], i[2], z)
        });
        let cases = f64_cases();
        let mut checked = 0;
        for (n, &a) in cases.iter().enumerate() {
            for (m, &bb) in cases.iter().enumerate().skip(n % 17).step_by(17) {
                let c = cases[(n * 31 + m * 17) % cases.len()];
                // also an addend that nearly cancels the product, when the product is finite
                let p = f64::from_bits(a) * f64::from_bits(bb);
                let cancel = if p.is_finite() { (-p).to_bits() } else { c };
                for c in [c, cancel] {
                    let (fa, fb, fc) = (f64::from_bits(a), f64::from_bits(bb), f64::from_bits(c));
                    let finite = fa.is_finite() && fb.is_finite() && fc.is_finite();
                    if !finite || (fa * fb == 0.0 && fc == 0.0) {
                        continue;
                    }
                    let want = fa.mul_add(fb, fc);
                    if want.is_nan() {
                        continue;
                    }
                    let got = run64(&k, [a, bb, c]);
                    assert_eq!(got, want.to_bits(), "fma({a:#018x}, {bb:#018x}, {c:#018x})");
                    checked += 1;
                }
            }
        }
        assert!(checked > 30_000, "{checked}");
    }

    #[test]
    fn fma_f64_bits_scales_within_the_rounding() {
        let k = kernel64(|b, i| {
            let s = b.c64((-128i64) as u64);
            b.fma_f64_bits(i[0], i[1], i[2], s)
        });
        let cases = f64_cases();
        for (n, &a) in cases.iter().enumerate().step_by(3) {
            let bb = cases[(n * 7 + 1) % cases.len()];
            let c = cases[(n * 13 + 5) % cases.len()];
            let (fa, fb, fc) = (f64::from_bits(a), f64::from_bits(bb), f64::from_bits(c));
            let k128 = 2f64.powi(-128);
            // exact scaling of a and c, then one rounding: valid while a * 2^-128 stays normal
            let sa = fa * k128;
            let sc = fc * k128;
            if !(fa.is_finite() && fb.is_finite() && fc.is_finite())
                || sa.abs() < f64::MIN_POSITIVE
                || sc.abs() < f64::MIN_POSITIVE
                || fa * fb == 0.0
            {
                continue;
            }
            let want = sa.mul_add(fb, sc);
            if want.is_nan() || want.is_infinite() {
                continue;
            }
            assert_eq!(
                run64(&k, [a, bb, c]),
                want.to_bits(),
                "{a:#x} {bb:#x} {c:#x}"
            );
        }
    }

    #[test]
    fn multiplying_by_a_constant_zero_is_built_on_the_bits() {
        for zero in [0.0f64, -0.0] {
            for swap in [false, true] {
                let k = kernel64(|b, i| {
                    let x = b.f64_of(i[0]);
                    let z = b.cf64(zero);
                    let p = if swap {
                        b.fb(FloatBin::Mul, z, x)
                    } else {
                        b.fb(FloatBin::Mul, x, z)
                    };
                    b.bits_of_f64(p)
                });
                assert!(!k.exprs.iter().any(|e| matches!(e, Expr::FloatBin { .. })));
                let mut cases = f64_cases();
                cases.extend([
                    0x7ff0_0000_0000_0000,
                    0xfff0_0000_0000_0000,
                    0x7ff0_0000_0000_0001,
                ]);
                for x in cases {
                    let want = (f64::from_bits(x) * zero).to_bits();
                    assert_eq!(run64(&k, [x, 0, 0]), want, "{x:#018x} * {zero}");
                }
            }
        }
    }
}
