//! The scalar semantics of every IR operation: the result bits of each [`Expr`] variant for one
//! lane, NaN bits included, written down once. The per-lane interpreter ([`crate::interp`])
//! calls these functions expression by expression; the column-wise evaluator
//! ([`crate::batch`]) inlines them into one loop per operation; the SPIR-V backend
//! ([`crate::spirv`]) emits instructions that give the same bits on any conforming driver, with
//! explicit selects wherever SPIR-V leaves bits open. A random-kernel test holds the three to
//! identical bits (runner, `vulkan::eval_tests`).
//!
//! Values travel as bit patterns: `U32`/`F32` as `u32`, `U64`/`F64` as `u64`, `Bool` as `bool`.
//!
//! # The NaN rule of native float operations
//!
//! Every float-valued operation ([`FloatBin`], `Fma`, [`FloatUn`], `F32ToF64`, `F64ToF32`)
//! returns:
//! 1. if an operand is a NaN: the first NaN operand in operand order, quieted (quiet bit set,
//!    sign and the rest of the payload kept; for the conversions the payload's top bits move
//!    to the new format's top fraction bits);
//! 2. otherwise, if the IEEE 754 result is a NaN (an invalid operation: `inf - inf`,
//!    `0 * inf`, `0 / 0`, `inf / inf`, `sqrt(-1)`, ...): the default NaN [`DEFAULT_NAN32`] /
//!    [`DEFAULT_NAN64`];
//! 3. otherwise the IEEE 754 result, rounded to nearest even, denormals kept.
//!
//! The default NaN is the one RDNA2 writes for an invalid operation (negative and quiet:
//! docs/semantics.md, nan-propagation), so that a native operation of the IR and the hardware
//! instruction it stands for agree on it. The host's own NaN choices never reach a result: an
//! x86 host happens to give the same default NaN and an ARM host gives the positive one, and
//! both may commute the operands of `+` and `*`, so the rule is applied on the bits.
//!
//! The approximate unary operations ([`FloatUn::is_approximate`]: `Exp2`, `Log2`,
//! `InverseSqrt`, `Sin`, `Cos`) compute their value with the host's libm (Rust's `std`); a
//! driver may differ from it in the low bits, and the diff treats that as approximation. Their
//! NaN bits still follow the rule above whenever both sides produce a NaN.

use crate::builder::Fmt;
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, IntBin, IntCmp, IntUn, LdsOp, Ty};

/// The f32 default NaN: what an invalid operation without NaN operands returns.
pub const DEFAULT_NAN32: u32 = 0xffc0_0000;
/// The f64 default NaN.
pub const DEFAULT_NAN64: u64 = 0xfff8_0000_0000_0000;
/// The f32 quiet bit (the top fraction bit).
pub const QUIET32: u32 = 0x0040_0000;
/// The f64 quiet bit.
pub const QUIET64: u64 = 0x0008_0000_0000_0000;

/// The bits of `Const { ty, bits }`: `Bool` is `bits != 0` (as 0/1), `U32`/`F32` keep the low
/// 32 bits, `U64`/`F64` all 64.
#[inline(always)]
pub fn constant(ty: Ty, bits: u64) -> u64 {
    match ty {
        Ty::Bool => u64::from(bits != 0),
        Ty::U32 | Ty::F32 => bits & 0xffff_ffff,
        Ty::U64 | Ty::F64 => bits,
    }
}

/// `IntBin` on `U32`: wrapping arithmetic, shift amounts modulo 32, `x / 0 = 0xffffffff`,
/// `x % 0 = x`.
#[inline(always)]
pub fn int_bin32(op: IntBin, x: u32, y: u32) -> u32 {
    match op {
        IntBin::Add => x.wrapping_add(y),
        IntBin::Sub => x.wrapping_sub(y),
        IntBin::Mul => x.wrapping_mul(y),
        IntBin::MulHiU => ((u64::from(x) * u64::from(y)) >> 32) as u32,
        IntBin::MulHiS => ((i64::from(x as i32) * i64::from(y as i32)) >> 32) as u32,
        IntBin::DivU => x.checked_div(y).unwrap_or(u32::MAX),
        IntBin::RemU => x.checked_rem(y).unwrap_or(x),
        IntBin::And => x & y,
        IntBin::Or => x | y,
        IntBin::Xor => x ^ y,
        IntBin::Shl => x.wrapping_shl(y),
        IntBin::ShrU => x.wrapping_shr(y),
        IntBin::ShrS => (x as i32).wrapping_shr(y) as u32,
    }
}

/// `IntBin` on `U64`: as [`int_bin32`] at 64 bits (shift amounts modulo 64).
#[inline(always)]
pub fn int_bin64(op: IntBin, x: u64, y: u64) -> u64 {
    match op {
        IntBin::Add => x.wrapping_add(y),
        IntBin::Sub => x.wrapping_sub(y),
        IntBin::Mul => x.wrapping_mul(y),
        IntBin::MulHiU => ((u128::from(x) * u128::from(y)) >> 64) as u64,
        IntBin::MulHiS => ((i128::from(x as i64) * i128::from(y as i64)) >> 64) as u64,
        IntBin::DivU => x.checked_div(y).unwrap_or(u64::MAX),
        IntBin::RemU => x.checked_rem(y).unwrap_or(x),
        IntBin::And => x & y,
        IntBin::Or => x | y,
        IntBin::Xor => x ^ y,
        IntBin::Shl => x.wrapping_shl(y as u32),
        IntBin::ShrU => x.wrapping_shr(y as u32),
        IntBin::ShrS => (x as i64).wrapping_shr(y as u32) as u64,
    }
}

/// `IntUn` on `U32`; `FindMsbU`/`FindLsb` of 0 give all ones.
#[inline(always)]
pub fn int_un32(op: IntUn, x: u32) -> u32 {
    match op {
        IntUn::Not => !x,
        IntUn::Neg => x.wrapping_neg(),
        IntUn::Popcount => x.count_ones(),
        IntUn::BitReverse => x.reverse_bits(),
        IntUn::FindMsbU => {
            if x == 0 {
                u32::MAX
            } else {
                31 - x.leading_zeros()
            }
        }
        IntUn::FindLsb => {
            if x == 0 {
                u32::MAX
            } else {
                x.trailing_zeros()
            }
        }
    }
}

/// `IntUn` on `U64` (counts and bit indices are `U64` too).
#[inline(always)]
pub fn int_un64(op: IntUn, x: u64) -> u64 {
    match op {
        IntUn::Not => !x,
        IntUn::Neg => x.wrapping_neg(),
        IntUn::Popcount => u64::from(x.count_ones()),
        IntUn::BitReverse => x.reverse_bits(),
        IntUn::FindMsbU => {
            if x == 0 {
                u64::MAX
            } else {
                u64::from(63 - x.leading_zeros())
            }
        }
        IntUn::FindLsb => {
            if x == 0 {
                u64::MAX
            } else {
                u64::from(x.trailing_zeros())
            }
        }
    }
}

/// `IntCmp` on `U32` (the signed forms read the bits as two's complement).
#[inline(always)]
pub fn int_cmp32(op: IntCmp, x: u32, y: u32) -> bool {
    let (sx, sy) = (x as i32, y as i32);
    match op {
        IntCmp::Eq => x == y,
        IntCmp::Ne => x != y,
        IntCmp::LtU => x < y,
        IntCmp::LeU => x <= y,
        IntCmp::GtU => x > y,
        IntCmp::GeU => x >= y,
        IntCmp::LtS => sx < sy,
        IntCmp::LeS => sx <= sy,
        IntCmp::GtS => sx > sy,
        IntCmp::GeS => sx >= sy,
    }
}

/// `IntCmp` on `U64`.
#[inline(always)]
pub fn int_cmp64(op: IntCmp, x: u64, y: u64) -> bool {
    let (sx, sy) = (x as i64, y as i64);
    match op {
        IntCmp::Eq => x == y,
        IntCmp::Ne => x != y,
        IntCmp::LtU => x < y,
        IntCmp::LeU => x <= y,
        IntCmp::GtU => x > y,
        IntCmp::GeU => x >= y,
        IntCmp::LtS => sx < sy,
        IntCmp::LeS => sx <= sy,
        IntCmp::GtS => sx > sy,
        IntCmp::GeS => sx >= sy,
    }
}

/// f32 bits `x` are a NaN.
#[inline(always)]
pub fn is_nan32(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

/// f64 bits `x` are a NaN.
#[inline(always)]
pub fn is_nan64(x: u64) -> bool {
    x & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000
}

/// The NaN rule (module docs) for an f32 operation with operands `ops` whose IEEE result is `r`.
#[inline(always)]
fn nan_rule32<const N: usize>(ops: [u32; N], r: f32) -> u32 {
    for x in ops {
        if is_nan32(x) {
            return x | QUIET32;
        }
    }
    if r.is_nan() {
        DEFAULT_NAN32
    } else {
        r.to_bits()
    }
}

/// The NaN rule for an f64 operation.
#[inline(always)]
fn nan_rule64<const N: usize>(ops: [u64; N], r: f64) -> u64 {
    for x in ops {
        if is_nan64(x) {
            return x | QUIET64;
        }
    }
    if r.is_nan() {
        DEFAULT_NAN64
    } else {
        r.to_bits()
    }
}

/// `FloatBin` on `F32`: IEEE 754 binary32, nearest even, denormals kept, NaN rule.
#[inline(always)]
pub fn float_bin32(op: FloatBin, x: u32, y: u32) -> u32 {
    let (a, b) = (f32::from_bits(x), f32::from_bits(y));
    let r = match op {
        FloatBin::Add => a + b,
        FloatBin::Sub => a - b,
        FloatBin::Mul => a * b,
        FloatBin::Div => a / b,
    };
    nan_rule32([x, y], r)
}

/// `FloatBin` on `F64`.
#[inline(always)]
pub fn float_bin64(op: FloatBin, x: u64, y: u64) -> u64 {
    let (a, b) = (f64::from_bits(x), f64::from_bits(y));
    let r = match op {
        FloatBin::Add => a + b,
        FloatBin::Sub => a - b,
        FloatBin::Mul => a * b,
        FloatBin::Div => a / b,
    };
    nan_rule64([x, y], r)
}

/// `Fma` on `F32`: `a * b + c` with one rounding, NaN rule in the order a, b, c (so an invalid
/// product `0 * inf` with a NaN `c` returns `c` quieted).
#[inline(always)]
pub fn fma32(a: u32, b: u32, c: u32) -> u32 {
    let r = f32::from_bits(a).mul_add(f32::from_bits(b), f32::from_bits(c));
    nan_rule32([a, b, c], r)
}

/// `Fma` on `F64`.
#[inline(always)]
pub fn fma64(a: u64, b: u64, c: u64) -> u64 {
    let r = f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c));
    nan_rule64([a, b, c], r)
}

/// `FloatUn` on `F32`: `Sqrt` correctly rounded, the roundings exact, the approximate ones
/// from the host's libm; NaN rule.
#[inline(always)]
pub fn float_un32(op: FloatUn, x: u32) -> u32 {
    let a = f32::from_bits(x);
    let r = match op {
        FloatUn::Sqrt => a.sqrt(),
        FloatUn::Floor => a.floor(),
        FloatUn::Ceil => a.ceil(),
        FloatUn::Trunc => a.trunc(),
        FloatUn::RoundEven => a.round_ties_even(),
        FloatUn::Exp2 => a.exp2(),
        FloatUn::Log2 => a.log2(),
        FloatUn::InverseSqrt => 1.0 / a.sqrt(),
        FloatUn::Sin => a.sin(),
        FloatUn::Cos => a.cos(),
    };
    nan_rule32([x], r)
}

/// `FloatUn` on `F64`.
#[inline(always)]
pub fn float_un64(op: FloatUn, x: u64) -> u64 {
    let a = f64::from_bits(x);
    let r = match op {
        FloatUn::Sqrt => a.sqrt(),
        FloatUn::Floor => a.floor(),
        FloatUn::Ceil => a.ceil(),
        FloatUn::Trunc => a.trunc(),
        FloatUn::RoundEven => a.round_ties_even(),
        FloatUn::Exp2 => a.exp2(),
        FloatUn::Log2 => a.log2(),
        FloatUn::InverseSqrt => 1.0 / a.sqrt(),
        FloatUn::Sin => a.sin(),
        FloatUn::Cos => a.cos(),
    };
    nan_rule64([x], r)
}

/// A float comparison of two values of one type, given their order and whether either is NaN.
#[inline(always)]
fn float_cmp<T: PartialOrd>(op: FloatCmp, x: T, y: T, unordered: bool) -> bool {
    match op {
        FloatCmp::OrdEq => x == y,
        FloatCmp::OrdNe => !unordered && x != y,
        FloatCmp::OrdLt => x < y,
        FloatCmp::OrdLe => x <= y,
        FloatCmp::OrdGt => x > y,
        FloatCmp::OrdGe => x >= y,
        FloatCmp::UnordEq => unordered || x == y,
        FloatCmp::UnordNe => unordered || x != y,
        FloatCmp::UnordLt => unordered || x < y,
        FloatCmp::UnordLe => unordered || x <= y,
        FloatCmp::UnordGt => unordered || x > y,
        FloatCmp::UnordGe => unordered || x >= y,
        FloatCmp::Unord => unordered,
    }
}

/// `FloatCmp` on `F32`: IEEE 754 comparisons (`-0 == +0`); the ordered forms are false and
/// the unordered forms true when an operand is NaN.
#[inline(always)]
pub fn float_cmp32(op: FloatCmp, x: u32, y: u32) -> bool {
    let un = is_nan32(x) || is_nan32(y);
    float_cmp(op, f32::from_bits(x), f32::from_bits(y), un)
}

/// `FloatCmp` on `F64`.
#[inline(always)]
pub fn float_cmp64(op: FloatCmp, x: u64, y: u64) -> bool {
    let un = is_nan64(x) || is_nan64(y);
    float_cmp(op, f64::from_bits(x), f64::from_bits(y), un)
}

/// `BoolAnd`.
#[inline(always)]
pub fn bool_and(a: bool, b: bool) -> bool {
    a & b
}

/// `BoolOr`.
#[inline(always)]
pub fn bool_or(a: bool, b: bool) -> bool {
    a | b
}

/// `BoolNot`.
#[inline(always)]
pub fn bool_not(a: bool) -> bool {
    !a
}

/// `Select`: `a` if `cond`, else `b`, bits unchanged (a NaN is not quieted).
#[inline(always)]
pub fn select<T>(cond: bool, a: T, b: T) -> T {
    if cond {
        a
    } else {
        b
    }
}

/// `Pack64`: `lo | hi << 32`.
#[inline(always)]
pub fn pack64(lo: u32, hi: u32) -> u64 {
    u64::from(lo) | u64::from(hi) << 32
}

/// f32 bits widened to f64 bits: exact; a NaN keeps its sign and its fraction in the top
/// fraction bits, quieted.
#[inline(always)]
pub fn f32_to_f64(x: u32) -> u64 {
    if is_nan32(x) {
        let sign = u64::from(x >> 31) << 63;
        sign | 0x7ff0_0000_0000_0000 | QUIET64 | u64::from(x & 0x007f_ffff) << 29
    } else {
        f64::from(f32::from_bits(x)).to_bits()
    }
}

/// f64 bits narrowed to f32 bits: nearest even, denormal results kept, overflow to infinity;
/// a NaN keeps its sign and the top 23 fraction bits, quieted.
#[inline(always)]
pub fn f64_to_f32(x: u64) -> u32 {
    if is_nan64(x) {
        let sign = ((x >> 63) as u32) << 31;
        sign | 0x7f80_0000 | QUIET32 | ((x >> 29) as u32 & 0x007f_ffff)
    } else {
        (f64::from_bits(x) as f32).to_bits()
    }
}

/// f64 bits to a signed 32-bit integer: truncated toward zero, saturated to
/// `[-2^31, 2^31 - 1]`, NaN gives 0.
#[inline(always)]
pub fn f64_to_s32(x: u64) -> u32 {
    f64::from_bits(x) as i32 as u32
}

/// f64 bits to an unsigned 32-bit integer: truncated toward zero, saturated to
/// `[0, 2^32 - 1]`, NaN gives 0.
#[inline(always)]
pub fn f64_to_u32(x: u64) -> u32 {
    f64::from_bits(x) as u32
}

/// `Convert { op, .. }` on the operand's bits (`Bool` as 0/1, 32-bit types zero-extended),
/// giving the result's bits in the same representation.
#[inline(always)]
pub fn convert(op: Convert, x: u64) -> u64 {
    match op {
        Convert::ZextU32 | Convert::TruncU64 => x & 0xffff_ffff,
        Convert::SextU32 => x as u32 as i32 as i64 as u64,
        Convert::BoolToU32 => x & 1,
        Convert::Bitcast => x,
        Convert::F32ToF64 => f32_to_f64(x as u32),
        Convert::F64ToF32 => u64::from(f64_to_f32(x)),
        Convert::S32ToF64 => f64::from(x as u32 as i32).to_bits(),
        Convert::U32ToF64 => f64::from(x as u32).to_bits(),
        Convert::F64ToS32 => u64::from(f64_to_s32(x)),
        Convert::F64ToU32 => u64::from(f64_to_u32(x)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_zero_and_shifts_are_defined() {
        assert_eq!(int_bin32(IntBin::DivU, 7, 0), u32::MAX);
        assert_eq!(int_bin32(IntBin::RemU, 7, 0), 7);
        assert_eq!(int_bin64(IntBin::DivU, 7, 0), u64::MAX);
        assert_eq!(int_bin32(IntBin::MulHiS, 0xffff_ffff, 2), 0xffff_ffff);
        assert_eq!(int_bin32(IntBin::ShrS, 0x8000_0000, 36), 0xf800_0000);
        assert_eq!(int_bin64(IntBin::Shl, 1, 65), 2);
        assert_eq!(int_un32(IntUn::FindMsbU, 0), u32::MAX);
        assert_eq!(int_un64(IntUn::FindLsb, 1 << 40), 40);
    }

    #[test]
    fn invalid_operations_give_the_default_nan_on_any_host() {
        let inf = 0x7f80_0000;
        let ninf = 0xff80_0000;
        assert_eq!(float_bin32(FloatBin::Add, inf, ninf), DEFAULT_NAN32);
        assert_eq!(float_bin32(FloatBin::Sub, inf, inf), DEFAULT_NAN32);
        assert_eq!(float_bin32(FloatBin::Mul, 0, ninf), DEFAULT_NAN32);
        assert_eq!(float_bin32(FloatBin::Div, 0x8000_0000, 0), DEFAULT_NAN32);
        assert_eq!(float_un32(FloatUn::Sqrt, 0xbf80_0000), DEFAULT_NAN32);
        assert_eq!(fma32(0, inf, 0x3f80_0000), DEFAULT_NAN32);
        let inf64 = 0x7ff0_0000_0000_0000;
        assert_eq!(float_bin64(FloatBin::Sub, inf64, inf64), DEFAULT_NAN64);
        assert_eq!(float_un64(FloatUn::Log2, 1 << 63 | 1 << 62), DEFAULT_NAN64);
    }

    #[test]
    fn the_first_nan_operand_wins_quieted() {
        let (snan, qnan) = (0x7f80_0001u32, 0xffc0_1234u32);
        for op in [FloatBin::Add, FloatBin::Sub, FloatBin::Mul, FloatBin::Div] {
            assert_eq!(float_bin32(op, snan, qnan), 0x7fc0_0001, "{op:?}");
            assert_eq!(float_bin32(op, qnan, snan), qnan, "{op:?}");
            assert_eq!(float_bin32(op, 0x3f80_0000, snan), 0x7fc0_0001, "{op:?}");
        }
        // An invalid product does not hide a NaN addend.
        assert_eq!(fma32(0, 0x7f80_0000, snan), 0x7fc0_0001);
        assert_eq!(fma32(0x3f80_0000, qnan, snan), qnan);
        assert_eq!(float_un32(FloatUn::Floor, snan), 0x7fc0_0001);
        assert_eq!(float_un32(FloatUn::Sin, snan), 0x7fc0_0001);
        let snan64 = 0xfff0_0000_0000_0001;
        assert_eq!(float_bin64(FloatBin::Mul, 0, snan64), 0xfff8_0000_0000_0001);
    }

    #[test]
    fn conversions_move_the_payload() {
        assert_eq!(f32_to_f64(0xff80_0001), 0xfff8_0000_2000_0000);
        assert_eq!(f64_to_f32(0x7ff0_0000_2000_0000), 0x7fc0_0001);
        assert_eq!(f64_to_f32(0x7ff0_0000_0000_0001), 0x7fc0_0000);
        assert_eq!(f32_to_f64(0x3f80_0000), 1.0f64.to_bits());
        assert_eq!(f64_to_f32(1e300f64.to_bits()), 0x7f80_0000);
        assert_eq!(f64_to_s32((-1e10f64).to_bits()), 0x8000_0000);
        assert_eq!(f64_to_s32(f64::NAN.to_bits()), 0);
        assert_eq!(f64_to_u32((-0.5f64).to_bits()), 0);
        assert_eq!(f64_to_u32(5e9f64.to_bits()), u32::MAX);
    }

    #[test]
    fn comparisons_with_nan() {
        let nan = 0x7fc0_0000;
        assert!(!float_cmp32(FloatCmp::OrdNe, nan, 0));
        assert!(float_cmp32(FloatCmp::UnordEq, nan, 0));
        assert!(float_cmp32(FloatCmp::OrdEq, 0x8000_0000, 0));
        assert!(float_cmp64(FloatCmp::Unord, 0, 0x7ff0_0000_0000_0001));
        assert!(!float_cmp64(FloatCmp::Unord, 0, 0x7ff0_0000_0000_0000));
    }
}

// ---------------------------------------------------------------------------------------------
// Memory: the value an [`Expr::Mem`](crate::ir::Expr::Mem) leaves at its address.

/// The low `bytes` bytes of a value (1, 2, 4 or 8).
pub fn width_mask(bytes: u8) -> u64 {
    match bytes {
        1 => 0xff,
        2 => 0xffff,
        4 => 0xffff_ffff,
        _ => u64::MAX,
    }
}

/// The value `op` leaves at its address of `bytes` bytes, given the `old` value there, `data`
/// and `data2` (all zero-extended; `bytes` 8 is a 64-bit operation, the others 32-bit ones
/// whose result keeps the low `bytes` bytes). The signed min/max compare the operands as
/// signed values of the operation's width; the float ops work on f32 bits, f64 for `bytes` 8.
/// [`Kernel::validate`](crate::ir::Kernel::validate) admits each op at the widths its
/// instructions have (FAdd 4 bytes, CondXchg 8); the formulas below are the op's at any width.
pub fn mem_apply(op: LdsOp, bytes: u8, old: u64, data: u64, data2: u64) -> u64 {
    let wide = bytes == 8;
    let f = if wide { Fmt::F64 } else { Fmt::F32 };
    let signed = |x: u64| {
        if wide {
            x as i64
        } else {
            i64::from(x as u32 as i32)
        }
    };
    let new = match op {
        LdsOp::Read => old,
        LdsOp::Write | LdsOp::FCmpSwap { .. } => data,
        LdsOp::Add => old.wrapping_add(data),
        LdsOp::Sub => old.wrapping_sub(data),
        LdsOp::Rsub => data.wrapping_sub(old),
        LdsOp::Inc => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        LdsOp::Dec => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
        LdsOp::MinI => signed(old).min(signed(data)) as u64,
        LdsOp::MaxI => signed(old).max(signed(data)) as u64,
        LdsOp::MinU => old.min(data),
        LdsOp::MaxU => old.max(data),
        LdsOp::And => old & data,
        LdsOp::Or => old | data,
        LdsOp::Xor => old ^ data,
        LdsOp::Csub => old.saturating_sub(data),
        LdsOp::FMin { flush } => float_minmax(f, old, data, flush, false),
        LdsOp::FMax { flush } => float_minmax(f, old, data, flush, true),
        LdsOp::MskOr => (old & !data) | data2,
        LdsOp::Cmpst => {
            if old == data {
                data2
            } else {
                old
            }
        }
        // rule: lds-float-atomics: ds_cmpst_f32/f64 compare the flushed floats
        LdsOp::FCmpst { flush } => {
            if float_cmp_equal(f, old, data, flush) {
                data2
            } else {
                old
            }
        }
        LdsOp::Wrap => {
            if old >= data {
                old.wrapping_sub(data)
            } else {
                old.wrapping_add(data2)
            }
        }
        LdsOp::FAdd { flush } => u64::from(fadd32(old as u32, data as u32, flush)),
        LdsOp::CondXchg => {
            // per dword: data's bit 31 set writes that dword of data with bit 31 cleared
            let half = |o: u64, d: u64| {
                if d & 0x8000_0000 != 0 {
                    d & 0x7fff_ffff
                } else {
                    o
                }
            };
            let lo = half(old & 0xffff_ffff, data & 0xffff_ffff);
            let hi = half(old >> 32, data >> 32);
            lo | hi << 32
        }
    };
    new & width_mask(bytes)
}

/// Whether a compare-and-swap of `bytes` writes, given the `old` value and the compare value
/// `c`: equal bits, or for [`LdsOp::FCmpSwap`] equal floats ([`float_cmp_equal`]).
pub fn mem_swaps(op: LdsOp, bytes: u8, old: u64, c: u64) -> bool {
    match op {
        LdsOp::FCmpSwap { flush } => {
            let f = if bytes == 8 { Fmt::F64 } else { Fmt::F32 };
            float_cmp_equal(f, old, c, flush)
        }
        _ => old == c,
    }
}

/// `x` (bits of `f`) flushed to the zero of its sign when `flush` and its exponent is 0.
fn flush_bits(f: Fmt, x: u64, flush: bool) -> u64 {
    if flush && x & f.exp_mask() == 0 {
        x & f.sign_mask()
    } else {
        x
    }
}

fn nan_bits(f: Fmt, x: u64) -> bool {
    x & !f.sign_mask() > f.exp_mask()
}

/// The float atomics min/max rule (`max`: the larger wins) on the bits of `f` (f32 or f64):
/// both operands are flushed to the zero of their sign when `flush` (bit 0 of the type's
/// denormal field clear: the f32 field for f32, the f16/f64 field for f64); then a
/// signalling-NaN data is stored quieted, else a signalling-NaN old value is stored quieted,
/// else a quiet-NaN old value is replaced by the data, else a quiet-NaN data loses, else the
/// ordered compare with -0 below +0 decides. The flushed value is what is written, also when
/// the old value wins. IEEE_MODE has no effect (rule: float-atomics; the reference notes' "LDS
/// float atomics" entry, whose bit rule the buffer, global and flat float atomics share,
/// measured on gfx1036 for the LDS forms).
pub fn float_minmax(f: Fmt, old: u64, data: u64, flush: bool, max: bool) -> u64 {
    let (o, d) = (flush_bits(f, old, flush), flush_bits(f, data, flush));
    let snan = |x: u64| nan_bits(f, x) && x & f.quiet_bit() == 0;
    if snan(d) {
        return d | f.quiet_bit();
    }
    if snan(o) {
        return o | f.quiet_bit();
    }
    if nan_bits(f, o) {
        return d;
    }
    if nan_bits(f, d) {
        return o;
    }
    // the ordered key: negative values reversed below the positive ones, -0 just below +0
    let all = f.sign_mask() | (f.sign_mask() - 1);
    let key = |x: u64| {
        if x & f.sign_mask() != 0 {
            !x & all
        } else {
            x | f.sign_mask()
        }
    };
    let d_wins = if max {
        key(d) > key(o)
    } else {
        key(d) < key(o)
    };
    if d_wins {
        d
    } else {
        o
    }
}

/// Whether a float compare-and-swap writes: the old value and the compare value, both
/// flushed when `flush`, are equal as floats of `f` (the two zeros equal, a NaN equal to
/// nothing). The data is then stored as given, not flushed: the notes' cmpst rule, whose
/// denormal and signalling-NaN data are not measured (rule: float-cmpswap).
pub fn float_cmp_equal(f: Fmt, old: u64, cmp: u64, flush: bool) -> bool {
    let (o, c) = (flush_bits(f, old, flush), flush_bits(f, cmp, flush));
    if nan_bits(f, o) || nan_bits(f, c) {
        return false;
    }
    o == c || (o | c) & !f.sign_mask() == 0
}

/// ds_add_f32 (rule: ds-add-f32; not measured bit for bit; the reference notes' "DS src2"
/// entry says only that it ignores IEEE_MODE and depends on the f32 denormal field): with
/// `flush` both operands and the sum are flushed to the zero of their sign; the sum is rounded
/// to nearest even; a NaN operand gives the first NaN (`old`, then `data`) quieted; an invalid
/// sum (inf - inf) gives 0x7fc00000.
pub fn fadd32(old: u32, data: u32, flush: bool) -> u32 {
    let f = Fmt::F32;
    let fl = |x: u32| flush_bits(f, u64::from(x), flush) as u32;
    let (o, d) = (fl(old), fl(data));
    if nan_bits(f, u64::from(o)) {
        return o | QUIET32;
    }
    if nan_bits(f, u64::from(d)) {
        return d | QUIET32;
    }
    let s = (f32::from_bits(o) + f32::from_bits(d)).to_bits();
    if nan_bits(f, u64::from(s)) {
        return 0x7fc0_0000;
    }
    fl(s)
}

#[cfg(test)]
#[path = "eval_mem_tests.rs"]
mod mem_tests;
