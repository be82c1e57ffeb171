//! The loops of the column-wise CPU model: one per IR operation and operand width, each the
//! scalar semantics of [`crate::eval`] inlined over a column. All are `#[inline(always)]`, so
//! that they compile into the evaluator of each instruction set (`super::BatchKernel::block`)
//! with its vector width.

use crate::eval;
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, IntBin, IntCmp, IntUn};

#[inline(always)]
pub(super) fn un(d: &mut [u64], a: &[u64], f: impl Fn(u64) -> u64) {
    for (d, &x) in d.iter_mut().zip(a) {
        *d = f(x);
    }
}

#[inline(always)]
pub(super) fn bin(d: &mut [u64], a: &[u64], b: &[u64], f: impl Fn(u64, u64) -> u64) {
    for ((d, &x), &y) in d.iter_mut().zip(a).zip(b) {
        *d = f(x, y);
    }
}

#[inline(always)]
pub(super) fn tern(
    d: &mut [u64],
    a: &[u64],
    b: &[u64],
    c: &[u64],
    f: impl Fn(u64, u64, u64) -> u64,
) {
    for (((d, &x), &y), &z) in d.iter_mut().zip(a).zip(b).zip(c) {
        *d = f(x, y, z);
    }
}

/// `f(x, k)` (or `f(k, x)` when `first`) over the column `a`, `k` a scalar.
#[inline(always)]
pub(super) fn bin_k(d: &mut [u64], a: &[u64], k: u64, first: bool, f: impl Fn(u64, u64) -> u64) {
    if first {
        un(d, a, |x| f(k, x));
    } else {
        un(d, a, |x| f(x, k));
    }
}

/// One loop per operation: `$body` is instantiated with `$o` bound to each listed variant as a
/// constant, so the scalar semantics of [`crate::eval`] (inlined) fold to that operation and
/// every arm compiles to its own tight loop.
macro_rules! per_op {
    ($op:expr, $Enum:ident [$($v:ident),* $(,)?], |$o:ident| $body:expr) => {
        match $op {
            $($Enum::$v => {
                let $o = $Enum::$v;
                $body
            })*
        }
    };
}

#[inline(always)]
pub(super) fn int_bin32(op: IntBin, d: &mut [u64], a: &[u64], b: &[u64]) {
    per_op!(op, IntBin[Add, Sub, Mul, MulHiU, MulHiS, DivU, RemU, And, Or, Xor, Shl, ShrU, ShrS], |o| {
        bin(d, a, b, |x, y| u64::from(eval::int_bin32(o, x as u32, y as u32)))
    })
}

#[inline(always)]
pub(super) fn int_bin64(op: IntBin, d: &mut [u64], a: &[u64], b: &[u64]) {
    per_op!(op, IntBin[Add, Sub, Mul, MulHiU, MulHiS, DivU, RemU, And, Or, Xor, Shl, ShrU, ShrS], |o| {
        bin(d, a, b, |x, y| eval::int_bin64(o, x, y))
    })
}

#[inline(always)]
pub(super) fn int_un32(op: IntUn, d: &mut [u64], a: &[u64]) {
    per_op!(op, IntUn[Not, Neg, Popcount, BitReverse, FindMsbU, FindLsb], |o| {
        un(d, a, |x| u64::from(eval::int_un32(o, x as u32)))
    })
}

#[inline(always)]
pub(super) fn int_un64(op: IntUn, d: &mut [u64], a: &[u64]) {
    per_op!(op, IntUn[Not, Neg, Popcount, BitReverse, FindMsbU, FindLsb], |o| {
        un(d, a, |x| eval::int_un64(o, x))
    })
}

#[inline(always)]
pub(super) fn int_cmp32(op: IntCmp, d: &mut [u64], a: &[u64], b: &[u64]) {
    per_op!(op, IntCmp[Eq, Ne, LtU, LeU, GtU, GeU, LtS, LeS, GtS, GeS], |o| {
        bin(d, a, b, |x, y| u64::from(eval::int_cmp32(o, x as u32, y as u32)))
    })
}

#[inline(always)]
pub(super) fn int_cmp64(op: IntCmp, d: &mut [u64], a: &[u64], b: &[u64]) {
    per_op!(op, IntCmp[Eq, Ne, LtU, LeU, GtU, GeU, LtS, LeS, GtS, GeS], |o| {
        bin(d, a, b, |x, y| u64::from(eval::int_cmp64(o, x, y)))
    })
}

#[inline(always)]
pub(super) fn float_bin32(op: FloatBin, d: &mut [u64], a: &[u64], b: &[u64]) {
    per_op!(op, FloatBin[Add, Sub, Mul, Div], |o| {
        bin(d, a, b, |x, y| u64::from(eval::float_bin32(o, x as u32, y as u32)))
    })
}

#[inline(always)]
pub(super) fn float_bin64(op: FloatBin, d: &mut [u64], a: &[u64], b: &[u64]) {
    per_op!(op, FloatBin[Add, Sub, Mul, Div], |o| {
        bin(d, a, b, |x, y| eval::float_bin64(o, x, y))
    })
}

#[inline(always)]
pub(super) fn float_un32(op: FloatUn, d: &mut [u64], a: &[u64]) {
    per_op!(op, FloatUn[Sqrt, Floor, Ceil, Trunc, RoundEven, Exp2, Log2, InverseSqrt, Sin, Cos], |o| {
        un(d, a, |x| u64::from(eval::float_un32(o, x as u32)))
    })
}

#[inline(always)]
pub(super) fn float_un64(op: FloatUn, d: &mut [u64], a: &[u64]) {
    per_op!(op, FloatUn[Sqrt, Floor, Ceil, Trunc, RoundEven, Exp2, Log2, InverseSqrt, Sin, Cos], |o| {
        un(d, a, |x| eval::float_un64(o, x))
    })
}

#[inline(always)]
pub(super) fn float_cmp32(op: FloatCmp, d: &mut [u64], a: &[u64], b: &[u64]) {
    per_op!(op, FloatCmp[OrdEq, OrdNe, OrdLt, OrdLe, OrdGt, OrdGe, UnordEq, UnordNe, UnordLt, UnordLe, UnordGt, UnordGe, Unord], |o| {
        bin(d, a, b, |x, y| u64::from(eval::float_cmp32(o, x as u32, y as u32)))
    })
}

#[inline(always)]
pub(super) fn float_cmp64(op: FloatCmp, d: &mut [u64], a: &[u64], b: &[u64]) {
    per_op!(op, FloatCmp[OrdEq, OrdNe, OrdLt, OrdLe, OrdGt, OrdGe, UnordEq, UnordNe, UnordLt, UnordLe, UnordGt, UnordGe, Unord], |o| {
        bin(d, a, b, |x, y| u64::from(eval::float_cmp64(o, x, y)))
    })
}

#[inline(always)]
pub(super) fn convert(op: Convert, d: &mut [u64], a: &[u64]) {
    if op == Convert::Bitcast {
        d.copy_from_slice(a);
        return;
    }
    per_op!(op, Convert[ZextU32, SextU32, TruncU64, BoolToU32, Bitcast, F32ToF64, F64ToF32, S32ToF64, U32ToF64, F64ToS32, F64ToU32], |o| {
        un(d, a, |x| eval::convert(o, x))
    })
}

#[inline(always)]
pub(super) fn int_bin32_k(op: IntBin, d: &mut [u64], a: &[u64], k: u64, first: bool) {
    per_op!(op, IntBin[Add, Sub, Mul, MulHiU, MulHiS, DivU, RemU, And, Or, Xor, Shl, ShrU, ShrS], |o| {
        bin_k(d, a, k, first, |x, y| u64::from(eval::int_bin32(o, x as u32, y as u32)))
    })
}

#[inline(always)]
pub(super) fn int_bin64_k(op: IntBin, d: &mut [u64], a: &[u64], k: u64, first: bool) {
    per_op!(op, IntBin[Add, Sub, Mul, MulHiU, MulHiS, DivU, RemU, And, Or, Xor, Shl, ShrU, ShrS], |o| {
        bin_k(d, a, k, first, |x, y| eval::int_bin64(o, x, y))
    })
}

#[inline(always)]
pub(super) fn int_cmp32_k(op: IntCmp, d: &mut [u64], a: &[u64], k: u64, first: bool) {
    per_op!(op, IntCmp[Eq, Ne, LtU, LeU, GtU, GeU, LtS, LeS, GtS, GeS], |o| {
        bin_k(d, a, k, first, |x, y| u64::from(eval::int_cmp32(o, x as u32, y as u32)))
    })
}

#[inline(always)]
pub(super) fn int_cmp64_k(op: IntCmp, d: &mut [u64], a: &[u64], k: u64, first: bool) {
    per_op!(op, IntCmp[Eq, Ne, LtU, LeU, GtU, GeU, LtS, LeS, GtS, GeS], |o| {
        bin_k(d, a, k, first, |x, y| u64::from(eval::int_cmp64(o, x, y)))
    })
}

#[inline(always)]
pub(super) fn float_bin32_k(op: FloatBin, d: &mut [u64], a: &[u64], k: u64, first: bool) {
    per_op!(op, FloatBin[Add, Sub, Mul, Div], |o| {
        bin_k(d, a, k, first, |x, y| u64::from(eval::float_bin32(o, x as u32, y as u32)))
    })
}

#[inline(always)]
pub(super) fn float_bin64_k(op: FloatBin, d: &mut [u64], a: &[u64], k: u64, first: bool) {
    per_op!(op, FloatBin[Add, Sub, Mul, Div], |o| {
        bin_k(d, a, k, first, |x, y| eval::float_bin64(o, x, y))
    })
}

#[inline(always)]
pub(super) fn float_cmp32_k(op: FloatCmp, d: &mut [u64], a: &[u64], k: u64, first: bool) {
    per_op!(op, FloatCmp[OrdEq, OrdNe, OrdLt, OrdLe, OrdGt, OrdGe, UnordEq, UnordNe, UnordLt, UnordLe, UnordGt, UnordGe, Unord], |o| {
        bin_k(d, a, k, first, |x, y| u64::from(eval::float_cmp32(o, x as u32, y as u32)))
    })
}

#[inline(always)]
pub(super) fn float_cmp64_k(op: FloatCmp, d: &mut [u64], a: &[u64], k: u64, first: bool) {
    per_op!(op, FloatCmp[OrdEq, OrdNe, OrdLt, OrdLe, OrdGt, OrdGe, UnordEq, UnordNe, UnordLt, UnordLe, UnordGt, UnordGe, Unord], |o| {
        bin_k(d, a, k, first, |x, y| u64::from(eval::float_cmp64(o, x, y)))
    })
}
