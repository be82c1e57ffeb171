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
    pub fn fb(&mut self, op: FloatBin, a: Handle, b: Handle) -> Handle {
        self.push(Expr::FloatBin { op, a, b })
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
        let x64 = self.zext(x);
        let sign = self.andc(x64, 0x8000_0000);
        let sign = self.shlc(sign, 32);
        let e = self.shrc(x64, 23);
        let e = self.andc(e, 0xff);
        let m = self.andc(x64, 0x7f_ffff);
        // normal: exponent rebias 127 -> 1023
        let en = self.addc(e, 1023 - 127);
        let en = self.shlc(en, 52);
        let mn = self.shlc(m, 29);
        let normal = self.or(en, mn);
        let normal = self.or(normal, sign);
        // inf/nan
        let ei = self.c64(0x7ff0_0000_0000_0000);
        let special = self.or(ei, mn);
        let special = self.or(special, sign);
        // denormal: m * 2^-149, exact (m < 2^23)
        let m32 = self.andc(x, 0x7f_ffff);
        let mf = self.cvt(Convert::U32ToF64, m32, Ty::F64);
        let scale = self.cf64(2f64.powi(-149));
        let df = self.fb(FloatBin::Mul, mf, scale);
        let db = self.bits_of_f64(df);
        let db = self.or(db, sign);
        let e0 = self.eqc(e, 0);
        let emax = self.eqc(e, 0xff);
        let r = self.sel(emax, special, normal);
        let r = self.sel(e0, db, r);
        self.f64_of(r)
    }

    /// The f64 value of f16 bits (low 16 bits of `x`), exact; NaN payloads move to the top of
    /// the f64 mantissa.
    pub fn f16_to_f64_exact(&mut self, x: Handle) -> Handle {
        let x = self.andc(x, 0xffff);
        let x64 = self.zext(x);
        let sign = self.andc(x64, 0x8000);
        let sign = self.shlc(sign, 48);
        let e = self.shrc(x64, 10);
        let e = self.andc(e, 0x1f);
        let m = self.andc(x64, 0x3ff);
        let en = self.addc(e, 1023 - 15);
        let en = self.shlc(en, 52);
        let mn = self.shlc(m, 42);
        let normal = self.or(en, mn);
        let normal = self.or(normal, sign);
        let ei = self.c64(0x7ff0_0000_0000_0000);
        let special = self.or(ei, mn);
        let special = self.or(special, sign);
        let m32 = self.andc(x, 0x3ff);
        let mf = self.cvt(Convert::U32ToF64, m32, Ty::F64);
        let scale = self.cf64(2f64.powi(-24));
        let df = self.fb(FloatBin::Mul, mf, scale);
        let db = self.bits_of_f64(df);
        let db = self.or(db, sign);
        let e0 = self.eqc(e, 0);
        let emax = self.eqc(e, 0x1f);
        let r = self.sel(emax, special, normal);
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
        let extra_big = self.icmpc(IntCmp::GtU, extra, 60 - base);
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
}
