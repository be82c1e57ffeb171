//! What the generator draws from: a small seeded RNG, special bit patterns and the lists of
//! operations of each kind.

use crate::ir::{FloatCmp, FloatUn, IntBin, IntCmp, IntUn};

/// SplitMix64: small, seedable and good enough to pick operations.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// A random element of `items`, which must not be empty.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Interesting f32 bit patterns: zeros, denormals, one, extremes, infinities, NaNs.
pub const F32_SPECIALS: [u32; 12] = [
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x807f_ffff,
    0x3f80_0000,
    0xbf80_0000,
    0x7f7f_ffff,
    0x0080_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7f80_0001,
];

/// Interesting f64 bit patterns.
pub const F64_SPECIALS: [u64; 10] = [
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x0000_0000_0000_0001,
    0x3ff0_0000_0000_0000,
    0xc000_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x41df_ffff_ffc0_0000,
];

/// Interesting integers (as U32).
pub const U32_SPECIALS: [u32; 8] = [0, 1, 31, 32, 33, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff];

pub(super) const INT_BINS: [IntBin; 13] = [
    IntBin::Add,
    IntBin::Sub,
    IntBin::Mul,
    IntBin::MulHiU,
    IntBin::MulHiS,
    IntBin::DivU,
    IntBin::RemU,
    IntBin::And,
    IntBin::Or,
    IntBin::Xor,
    IntBin::Shl,
    IntBin::ShrU,
    IntBin::ShrS,
];
pub(super) const INT_UNS: [IntUn; 6] = [
    IntUn::Not,
    IntUn::Neg,
    IntUn::Popcount,
    IntUn::BitReverse,
    IntUn::FindMsbU,
    IntUn::FindLsb,
];
pub(super) const INT_CMPS: [IntCmp; 10] = [
    IntCmp::Eq,
    IntCmp::Ne,
    IntCmp::LtU,
    IntCmp::LeU,
    IntCmp::GtU,
    IntCmp::GeU,
    IntCmp::LtS,
    IntCmp::LeS,
    IntCmp::GtS,
    IntCmp::GeS,
];
pub(super) const FLOAT_CMPS: [FloatCmp; 13] = [
    FloatCmp::OrdEq,
    FloatCmp::OrdNe,
    FloatCmp::OrdLt,
    FloatCmp::OrdLe,
    FloatCmp::OrdGt,
    FloatCmp::OrdGe,
    FloatCmp::UnordEq,
    FloatCmp::UnordNe,
    FloatCmp::UnordLt,
    FloatCmp::UnordLe,
    FloatCmp::UnordGt,
    FloatCmp::UnordGe,
    FloatCmp::Unord,
];
pub(super) const FLOAT_UNS: [FloatUn; 10] = [
    FloatUn::Sqrt,
    FloatUn::Floor,
    FloatUn::Ceil,
    FloatUn::Trunc,
    FloatUn::RoundEven,
    FloatUn::Exp2,
    FloatUn::Log2,
    FloatUn::InverseSqrt,
    FloatUn::Sin,
    FloatUn::Cos,
];
