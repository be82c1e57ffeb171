//! The builder: appends IR expressions to a [`Kernel`] and builds every RDNA2 semantic rule out
//! of IR primitives (docs/semantics.md names each rule and the function here that implements it).
//!
//! Float values travel as integer bit patterns (`U32` for f16/f32, `U64` for f64) between the
//! rules, so that no driver's denormal flushing or NaN canonicalisation can touch them. f32 and
//! f16 arithmetic is done exactly (or as value + exact error) in f64, where every f32/f16 value,
//! denormals included, is a normal number, and then rounded to the target format by
//! [`Builder::round_to`], an integer routine that implements the four rounding modes, denormal
//! output flushing and the tininess rules.
//!
//! This module holds the builder API (constants, integer and boolean primitives); the float
//! rules and the soft-float library are further `impl Builder` blocks beside it: `float`
//! (native float operations with their driver-proof forms, classification, NaN handling, exact
//! widening), `round` (rounding an exact value to f16/f32 in every mode), `wide` (128-bit
//! integers as U64 pairs), `fma64` (the f64 fused multiply-add on integer bits) and
//! `transcend` (the software transcendental sequences).

mod float;
mod fma64;
mod round;
#[cfg(test)]
mod tests;
mod transcend;
mod wide;

use crate::ir::{Convert, Expr, Handle, IntBin, IntCmp, IntUn, Kernel, Ty};
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
    /// Operand values for folding, indexed by handle (only the folded expression's operands
    /// are meaningful).
    scratch: Vec<u64>,
}

impl Builder {
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Appends `e`, or the constant it evaluates to when all its operands are constants
    /// (bits by [`crate::eval`], the definition every executor follows): a driver then never
    /// sees a computation on constants, which lavapipe has been seen to fold wrongly
    /// (`max_i32(0, 0xbf800000)` folded to 0x80000000) or to fold without the sign of a zero.
    pub fn push(&mut self, e: Expr) -> Handle {
        if let Some(v) = self.fold(&e) {
            let h = self.k.push(e);
            let ty = self.k.ty(h);
            self.k.exprs.pop();
            return self.cst(ty, v);
        }
        self.k.push(e)
    }

    /// The bits of `e` when all its operands are constants and its result is exact (not an
    /// approximate operation, not a lane input, not the wave's state: its inputs, another
    /// lane, LDS or a block variable).
    fn fold(&mut self, e: &Expr) -> Option<u64> {
        match e {
            _ if !e.is_pure() => return None,
            Expr::FloatUn { op, .. } if op.is_approximate() => return None,
            _ => {}
        }
        let ops = Kernel::operands(e);
        let mut vals = Vec::with_capacity(ops.len());
        for &h in &ops {
            vals.push(self.known(h)?);
        }
        if self.scratch.len() < self.k.exprs.len() {
            self.scratch.resize(self.k.exprs.len(), 0);
        }
        for (h, v) in ops.iter().zip(vals) {
            self.scratch[h.index()] = v;
        }
        Some(crate::interp::eval_expr(
            &self.k,
            &self.scratch,
            e,
            &[0; 6],
            0,
            &crate::interp::Uniform::LANE_CONTRACT,
        ))
    }

    pub fn ty(&self, h: Handle) -> Ty {
        self.k.ty(h)
    }

    /// The bits of `h` when it is a constant.
    pub fn known(&self, h: Handle) -> Option<u64> {
        match *self.k.expr(h) {
            Expr::Const { ty, bits } => Some(crate::eval::constant(ty, bits)),
            _ => None,
        }
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
    /// A signed 32-bit `n` clamped to `[-limit, limit]`.
    pub fn clamp_s32(&mut self, n: Handle, limit: i32) -> Handle {
        let lo = self.c32((-limit) as u32);
        let hi = self.c32(limit as u32);
        let below = self.icmp(IntCmp::LtS, n, lo);
        let n = self.sel(below, lo, n);
        let above = self.icmp(IntCmp::GtS, n, hi);
        self.sel(above, hi, n)
    }
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
    pub fn f32_of(&mut self, bits: Handle) -> Handle {
        self.cvt(Convert::Bitcast, bits, Ty::F32)
    }
    pub fn bits_of_f32(&mut self, f: Handle) -> Handle {
        self.cvt(Convert::Bitcast, f, Ty::U32)
    }
    pub fn cf32(&mut self, v: f32) -> Handle {
        self.cst(Ty::F32, u64::from(v.to_bits()))
    }
}
