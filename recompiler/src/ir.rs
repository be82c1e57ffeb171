//! The typed, per-lane IR that both the CPU model (`interp`, and `wave` for whole waves) and
//! the SPIR-V backend (`spirv`) execute. A [`Kernel`] is a dataflow graph of one lane's
//! expressions. Under the lane contract it is pure: one straight-line body, no memory. Under the
//! wave contract it may also hold
//! - control flow: [`Block`]s that each own a range of the expressions, end in a
//!   [`Terminator`] and carry register values between them in variables ([`Expr::Var`]);
//! - memory and the other lanes: the LDS and memory-region accesses (one expression,
//!   [`Expr::Mem`], with its [`Space`]), ballots and cross-lane reads, which run in program
//!   order on every lane of the wave in uniform control flow.
//!
//! Every RDNA2 semantic rule (denormal flushing, directed rounding, NaN quieting, clamp/omod,
//! FP16_OVFL, ...) is built by the lowering out of the primitive operations below, so that a
//! backend never relies on a driver's float-controls modes. The only operations whose bits a
//! backend may legitimately approximate are the ones [`FloatUn::is_approximate`] names; the
//! lowering uses none of them (nor `Div` or `Sqrt`, which Vulkan does not round exactly): the
//! transcendental instructions are software sequences of exact operations (`builder::transcend`).
//!
//! The doc of each operation below says what bits it returns; [`crate::eval`] is the one
//! executable definition of those bits (NaN bits included), which the CPU model runs and the
//! SPIR-V backend reproduces. Native float operations follow one NaN rule (see `eval`): the
//! first NaN operand in operand order, quieted; otherwise an invalid operation gives the
//! default NaN (f32 0xffc00000, f64 0xfff8000000000000, RDNA2's own); otherwise the IEEE 754
//! result rounded to nearest even with denormals kept.
//!
//! Invariants (checked by [`Kernel::validate`]):
//! - an expression only refers to expressions with smaller handles (topological order);
//! - operand types match the operation's signature given by [`Kernel::ty`];
//! - native float arithmetic is IEEE 754 binary32/binary64 with round-to-nearest-even, no
//!   contraction, and denormals kept on inputs and outputs (the lowering keeps the f32 path
//!   away from denormals where a driver might flush them: see docs/semantics.md).

use std::fmt;

mod blocks;
pub mod cfg;
pub mod known_bits;
pub mod structure;
mod text;
mod validate;
pub use blocks::{Block, Terminator};

/// A value type. f16 values travel as `U32` bit patterns (low 16 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    U32,
    U64,
    F32,
    F64,
}

/// Index of an expression in [`Kernel::exprs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Handle(pub u32);

impl Handle {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

/// Integer binary operations, on `U32` or `U64` operands of the same type (shift amounts are
/// the same type as the value and are taken modulo the width). Results have the operands' type.
/// Bits: [`crate::eval::int_bin32`], [`crate::eval::int_bin64`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntBin {
    /// `a + b` modulo 2^width.
    Add,
    /// `a - b` modulo 2^width.
    Sub,
    /// Low half of the product (`a * b` modulo 2^width).
    Mul,
    /// High half of the unsigned product.
    MulHiU,
    /// High half of the signed (two's complement) product.
    MulHiS,
    /// Unsigned division rounded toward zero; x / 0 = all ones (defined here, whatever SPIR-V
    /// says).
    DivU,
    /// Unsigned remainder; x % 0 = x.
    RemU,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// `a << (b % width)`, zeros shifted in.
    Shl,
    /// `a >> (b % width)`, zeros shifted in.
    ShrU,
    /// `a >> (b % width)`, copies of the sign bit shifted in.
    ShrS,
}

/// Integer unary operations on `U32` or `U64`; the result has the operand's type. Bits:
/// [`crate::eval::int_un32`], [`crate::eval::int_un64`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntUn {
    /// Bitwise complement.
    Not,
    /// Two's complement negation (`0 - a` modulo 2^width).
    Neg,
    /// Number of set bits (result has the operand's type).
    Popcount,
    /// Bit order reversed (bit i goes to bit width-1-i).
    BitReverse,
    /// Index of the most significant set bit, or all ones for 0 (SPIR-V FindUMsb).
    FindMsbU,
    /// Index of the least significant set bit, or all ones for 0.
    FindLsb,
}

/// Integer comparisons of two `U32` or two `U64`, giving `Bool`: `U` forms compare the bits as
/// unsigned, `S` forms as two's complement. Bits: [`crate::eval::int_cmp32`],
/// [`crate::eval::int_cmp64`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntCmp {
    /// `a == b`.
    Eq,
    /// `a != b`.
    Ne,
    /// `a < b` unsigned.
    LtU,
    /// `a <= b` unsigned.
    LeU,
    /// `a > b` unsigned.
    GtU,
    /// `a >= b` unsigned.
    GeU,
    /// `a < b` signed.
    LtS,
    /// `a <= b` signed.
    LeS,
    /// `a > b` signed.
    GtS,
    /// `a >= b` signed.
    GeS,
}

/// IEEE 754 comparisons of two `F32` or two `F64`, giving `Bool`. `-0` equals `+0`;
/// denormals compare by value. An `Ord` form is false when either operand is NaN, an `Unord`
/// form true. Bits: [`crate::eval::float_cmp32`], [`crate::eval::float_cmp64`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatCmp {
    /// Neither is NaN and `a == b`.
    OrdEq,
    /// Neither is NaN and `a != b`.
    OrdNe,
    /// Neither is NaN and `a < b`.
    OrdLt,
    /// Neither is NaN and `a <= b`.
    OrdLe,
    /// Neither is NaN and `a > b`.
    OrdGt,
    /// Neither is NaN and `a >= b`.
    OrdGe,
    /// Either is NaN or `a == b`.
    UnordEq,
    /// Either is NaN or `a != b`.
    UnordNe,
    /// Either is NaN or `a < b`.
    UnordLt,
    /// Either is NaN or `a <= b`.
    UnordLe,
    /// Either is NaN or `a > b`.
    UnordGt,
    /// Either is NaN or `a >= b`.
    UnordGe,
    /// Either operand is NaN.
    Unord,
}

/// Native float binary operations on two `F32` or two `F64`: the IEEE 754 result rounded to
/// nearest even, denormals kept, under the NaN rule of the module docs (a NaN `a` wins over a
/// NaN `b`; `inf - inf`, `0 * inf`, `0 / 0`, `inf / inf` give the default NaN). Bits:
/// [`crate::eval::float_bin32`], [`crate::eval::float_bin64`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatBin {
    /// `a + b` (`x + -x` is `+0`).
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// Correctly rounded division (lowering uses it only where the result must be exact);
    /// `x / 0` for a non-zero `x` is the infinity of the quotient's sign.
    Div,
}

/// Native float unary operations on `F32` or `F64`, under the NaN rule of the module docs (a
/// NaN operand comes back quieted; a NaN result of a non-NaN operand is the default NaN). Bits:
/// [`crate::eval::float_un32`], [`crate::eval::float_un64`]; the approximate ones' values are
/// the host libm's (Rust `std`), which a driver may approximate differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatUn {
    /// Correctly rounded square root; `sqrt(-0) = -0`, a negative operand gives the default NaN.
    Sqrt,
    /// Largest integral value `<= a` (exact; the sign of a zero is kept).
    Floor,
    /// Smallest integral value `>= a` (exact; `ceil(-0.5) = -0`).
    Ceil,
    /// Integral part toward zero (exact; `trunc(-0.5) = -0`).
    Trunc,
    /// Round to nearest integer, ties to even (exact; `roundeven(-0.5) = -0`).
    RoundEven,
    /// 2^x (approximate on every driver).
    Exp2,
    /// log2(x) (approximate); a negative operand gives the default NaN.
    Log2,
    /// 1/sqrt(x) (approximate).
    InverseSqrt,
    /// sin(x) with x in radians (approximate).
    Sin,
    /// cos(x) with x in radians (approximate).
    Cos,
}

impl FloatUn {
    /// Results of these are left to the driver's approximation; the diff and the tests treat
    /// them as "approximate" rather than as deviations.
    pub fn is_approximate(self) -> bool {
        matches!(
            self,
            FloatUn::Exp2 | FloatUn::Log2 | FloatUn::InverseSqrt | FloatUn::Sin | FloatUn::Cos
        )
    }
}

/// Conversions between types. Bits: [`crate::eval::convert`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Convert {
    /// U32 -> U64, zero extended.
    ZextU32,
    /// U32 -> U64, sign extended.
    SextU32,
    /// U64 -> U32, low half.
    TruncU64,
    /// Bool -> U32 (0 or 1).
    BoolToU32,
    /// U32 <-> F32, U64 <-> F64 bit casts (bits unchanged, a NaN is not quieted).
    Bitcast,
    /// F32 -> F64, exact; a NaN keeps its sign and its fraction as the top fraction bits,
    /// quieted (f32 0x7f800001 -> f64 0x7ff8000020000000).
    F32ToF64,
    /// F64 -> F32, round to nearest even, denormal results kept, overflow to infinity; a NaN
    /// keeps its sign and its top 23 fraction bits, quieted.
    F64ToF32,
    /// Signed (two's complement) U32 -> F64, exact.
    S32ToF64,
    /// Unsigned U32 -> F64, exact.
    U32ToF64,
    /// F64 -> signed U32, truncated toward zero and saturated to [-2^31, 2^31 - 1]; NaN gives
    /// 0. (The lowering clamps first, so only the defined range is reached from instructions.)
    F64ToS32,
    /// F64 -> unsigned U32, truncated toward zero and saturated to [0, 2^32 - 1]; NaN gives 0.
    F64ToU32,
}

/// One expression of a kernel.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A constant of type `ty` with these bits (Bool: `bits != 0`, U32/F32: the low 32 bits,
    /// U64/F64: all 64; a NaN constant is not quieted). Bits: [`crate::eval::constant`].
    Const { ty: Ty, bits: u64 },
    /// Input dword `index` (0..6: v4..v9 of the lane), `U32`. An index past 5 reads as 0 on the
    /// CPU model and is an error for the SPIR-V backend.
    Input(u8),
    /// The lane's index within its wave (0..wave), `U32`.
    LaneId,
    /// See [`IntBin`]; `a` and `b` are both `U32` or both `U64`.
    IntBin { op: IntBin, a: Handle, b: Handle },
    /// See [`IntUn`].
    IntUn { op: IntUn, a: Handle },
    /// See [`IntCmp`].
    IntCmp { op: IntCmp, a: Handle, b: Handle },
    /// See [`FloatBin`].
    FloatBin { op: FloatBin, a: Handle, b: Handle },
    /// Fused multiply-add a * b + c with a single rounding (nearest even), denormals kept,
    /// under the NaN rule in the order a, b, c: a NaN operand wins even over an invalid product
    /// (`fma(0, inf, NaN)` is that NaN quieted); `0 * inf + c` and `inf * x - inf` otherwise give
    /// the default NaN. Bits: [`crate::eval::fma32`], [`crate::eval::fma64`].
    Fma { a: Handle, b: Handle, c: Handle },
    /// See [`FloatUn`].
    FloatUn { op: FloatUn, a: Handle },
    /// See [`FloatCmp`].
    FloatCmp { op: FloatCmp, a: Handle, b: Handle },
    /// `a && b` on `Bool` operands.
    BoolAnd(Handle, Handle),
    /// `a || b` on `Bool` operands.
    BoolOr(Handle, Handle),
    /// `!a` on a `Bool` operand.
    BoolNot(Handle),
    /// `if cond { a } else { b }`; a and b have the same type, whose bits pass unchanged (a NaN
    /// is not quieted).
    Select { cond: Handle, a: Handle, b: Handle },
    /// See [`Convert`]; `to` is the result type.
    Convert { op: Convert, a: Handle, to: Ty },
    /// Two U32 -> U64: `lo | hi << 32`.
    Pack64 { lo: Handle, hi: Handle },
    /// Wave contract: SGPR `index` (s0..s15 and s24..s103: the wave's `s_in`) before the
    /// body, `U32`, the same on every lane of the wave. Outside a wave (the lane contract) it
    /// reads as 0.
    SgprIn(u8),
    /// Wave contract: EXEC before the body, `U64` (a wave32 has the high 32 bits 0). Outside a
    /// wave it is every lane of a wave64 (all ones).
    ExecIn,
    /// Cross-lane: a `Bool` per lane -> `U64` whose bit i is lane i's value (lanes past the
    /// wave size give 0), the same on every lane. Runs on every lane of the wave in uniform
    /// control flow. Bits: [`crate::wave`].
    WaveBallot(Handle),
    /// Cross-lane: the `U32` `value` held by lane `lane % wave` (`lane` a per-lane `U32`).
    /// Runs on every lane of the wave in uniform control flow. Bits: [`crate::wave`].
    WaveRead { value: Handle, lane: Handle },
    /// Wave contract: one memory access of every lane of the wave, active lanes in ascending
    /// lane order, in program order on every lane in uniform control flow: `op` on `bytes`
    /// (1, 2, 4 or 8) little-endian bytes at `addr` in `space`, with `data` (and `data2`, the
    /// second operand of the two-operand atomics) where `active` (`Bool`) holds. It gives the
    /// bytes before the operation, zero-extended (0 for an inactive lane or an access out of
    /// range, which writes nothing); a write keeps the low `bytes` bytes of the new value. `data`,
    /// `data2`, `cmp` and the result are `U64` for `bytes` 8 and `U32` otherwise.
    /// - [`Space::Lds`]: `addr` is a `U32` byte address, any alignment; an access whose bytes
    ///   are not all inside the LDS is out of range. An 8-byte access at an address that is not
    ///   a multiple of 8 faults the wave (the reference notes' "64-bit LDS atomics" entry; an
    ///   LDS under 8 bytes has no 8-byte access in range and none faults).
    /// - [`Space::Region`]: `addr` is a `U64`; the access is in range when its bytes all lie in
    ///   the wave's region ([`rdnaprobe_contract::MEM_BASE`] and the region's size), and for 8 bytes at a
    ///   multiple of 8 (the hardware faults the wave: out of range here). With `cmp` (only for a
    ///   `Write` or `FCmpSwap`) it is a compare-and-swap: `data` is written only where the old
    ///   value equals `cmp` ([`crate::eval::mem_swaps`]).
    /// - [`Space::RegionSwizzled`]: a `Read` or `Write` of 1, 2 or 4 bytes with the bits of
    ///   [`Space::Region`], where no two lanes' bytes can overlap (see the variant).
    ///
    /// The new value is [`crate::eval::mem_apply`]'s; the access rule [`crate::wave`]'s.
    Mem {
        space: Space,
        op: LdsOp,
        bytes: u8,
        addr: Handle,
        data: Handle,
        data2: Option<Handle>,
        cmp: Option<Handle>,
        active: Handle,
    },
    /// Control flow: the value of register variable `id` when the current [`Block`] began
    /// (`U32`; every variable is 0 before the first block, and a kernel without blocks reads 0).
    Var(u16),
    /// Native images only (`crate::native`): one component of what the host's texture unit
    /// returns for `access`, as `U32` bits (an f32's, or the integer's). The CPU model has no
    /// texture unit and reads 0.
    Image(Box<ImageAccess>),
}

/// What an [`Expr::Image`] asks of image `image` of [`Kernel::images`].
#[derive(Clone, Debug, PartialEq)]
pub struct ImageAccess {
    pub image: u8,
    pub op: ImageOp,
    /// The coordinates, `F32` (normalised, or texels with an unnormalised sampler; an array's
    /// layer last), `U32` for [`ImageOp::Fetch`] and [`ImageOp::Write`].
    pub coords: Vec<Handle>,
    /// Which of the four components: 0..=3 (0 for [`ImageOp::SampleDref`]).
    pub component: u8,
}

/// The texture-unit operation of an [`ImageAccess`].
#[derive(Clone, Debug, PartialEq)]
pub enum ImageOp {
    /// `OpImageSampleExplicitLod` with `Lod` (an `F32`).
    SampleLod(Handle),
    /// `OpImageSampleExplicitLod` with `Grad`: d/dx then d/dy, one `F32` per coordinate
    /// (the array layer excluded), and with `MinLod` (an `F32`, the `_cl` clamp: needs
    /// shaderResourceMinLod) where given.
    SampleGrad {
        dx: Vec<Handle>,
        dy: Vec<Handle>,
        min_lod: Option<Handle>,
    },
    /// `OpImageSampleDrefExplicitLod` with the reference (`F32`) and `Lod` (`F32`).
    SampleDref { reference: Handle, lod: Handle },
    /// `OpImageGather` of component 0..=3 (LOD 0, the view's base level).
    Gather(u8),
    /// `OpImageGather` of component 0..=3 with the `Offset` operand: the texel offsets x and
    /// y (`U32` holding signed values; the ImageGatherExtended capability).
    GatherOffset(u8, [Handle; 2]),
    /// `OpImageFetch` with `Lod` (a `U32` level of the view).
    Fetch(Handle),
    /// `OpImageWrite` of the texel's four components (`U32` bits of the image's sampled type)
    /// at the view's base level, where `active` (`Bool`) holds, on a storage image
    /// ([`crate::native::NativeImage::storage`]). Its value is 0; it is a side effect.
    Write { data: Vec<Handle>, active: Handle },
}

impl ImageAccess {
    /// Every operand, in order.
    pub fn operands(&self) -> Vec<Handle> {
        let mut v = self.coords.clone();
        match &self.op {
            ImageOp::SampleLod(h) | ImageOp::Fetch(h) => v.push(*h),
            ImageOp::SampleGrad { dx, dy, min_lod } => {
                v.extend(dx.iter().chain(dy).chain(min_lod.iter()))
            }
            ImageOp::SampleDref { reference, lod } => v.extend([*reference, *lod]),
            ImageOp::Gather(_) => {}
            ImageOp::GatherOffset(_, o) => v.extend(o),
            ImageOp::Write { data, active } => v.extend(data.iter().chain([active])),
        }
        v
    }
}

/// Where an [`Expr::Mem`] goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// The workgroup's LDS.
    Lds,
    /// The wave's memory region (global, flat, buffer, scalar and scratch accesses).
    Region,
    /// The wave's memory region through a MUBUF access whose lanes' bytes are disjoint by
    /// its addressing: a swizzled V# with ADD_TID, an index stride of at least the wave's
    /// lanes, no index or offset VGPR (one offset for the whole wave) and at most 4 bytes per
    /// access put lane `i`'s bytes at `i * 4 + offset % 4` in one row of 4-byte elements
    /// (the private segment's V# as a dispatch sets it up, which -O0 code spills through).
    /// The same bits as [`Space::Region`]; a backend may store the lanes' bytes without an
    /// order among the lanes.
    RegionSwizzled,
}

impl Space {
    /// Whether the space is the wave's memory region (either form).
    pub fn is_region(self) -> bool {
        matches!(self, Space::Region | Space::RegionSwizzled)
    }
}

/// What an [`Expr::Mem`] does with the `old` bytes at its address and its `data`; every form
/// but `Read` writes the new value. Bits: [`crate::eval::mem_apply`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LdsOp {
    Read,
    /// `data`.
    Write,
    /// `old + data`.
    Add,
    /// `old - data`.
    Sub,
    /// `data - old`.
    Rsub,
    /// `old >= data ? 0 : old + 1`.
    Inc,
    /// `old == 0 || old > data ? data : old - 1`.
    Dec,
    MinI,
    MaxI,
    MinU,
    MaxU,
    And,
    Or,
    Xor,
    /// `old >= data ? old - data : 0` (the clamped subtract of `*_atomic_csub`).
    Csub,
    /// The float atomics rule on f32 bits, the smaller (`FMin`) or larger (`FMax`) of `old` and
    /// `data`, denormals flushed first when `flush`: [`crate::wave::float_atomic`].
    FMin {
        flush: bool,
    },
    FMax {
        flush: bool,
    },
    /// A float compare-and-swap (only in a region [`Expr::Mem`] with `cmp`): `data`, written
    /// where the old value and `cmp` are equal floats, both flushed first when `flush`:
    /// [`crate::eval::mem_swaps`].
    FCmpSwap {
        flush: bool,
    },
    /// `(old & !data) | data2` (ds_mskor).
    MskOr,
    /// `old == data ? data2 : old` (ds_cmpst: `data` is the compare value).
    Cmpst,
    /// ds_cmpst_f32/f64: the float atomics rule's compare of the flushed `old` and `data`
    /// (zeros equal, NaN never equal) stores `data2` as given: [`crate::eval::mem_apply`].
    FCmpst {
        flush: bool,
    },
    /// `old >= data ? old - data : old + data2` (ds_wrap_rtn_b32).
    Wrap,
    /// ds_add_f32: `old + data` in f32, operands and sum flushed when `flush`:
    /// [`crate::eval::fadd32`].
    FAdd {
        flush: bool,
    },
    /// ds_condxchg32_rtn_b64, per dword `i` of the 64 bits: `data` bit 31 of dword `i` set
    /// writes that dword of `data` with bit 31 cleared, else keeps `old`'s.
    CondXchg,
}

impl LdsOp {
    /// Whether `op` exists only in the LDS: a second data operand, or an op no memory
    /// instruction has.
    pub fn lds_only(op: LdsOp) -> bool {
        match op {
            LdsOp::MskOr
            | LdsOp::Cmpst
            | LdsOp::FCmpst { .. }
            | LdsOp::Wrap
            | LdsOp::FAdd { .. }
            | LdsOp::CondXchg => true,
            LdsOp::Read
            | LdsOp::Write
            | LdsOp::Add
            | LdsOp::Sub
            | LdsOp::Rsub
            | LdsOp::Inc
            | LdsOp::Dec
            | LdsOp::MinI
            | LdsOp::MaxI
            | LdsOp::MinU
            | LdsOp::MaxU
            | LdsOp::And
            | LdsOp::Or
            | LdsOp::Xor
            | LdsOp::Csub
            | LdsOp::FMin { .. }
            | LdsOp::FMax { .. }
            | LdsOp::FCmpSwap { .. } => false,
        }
    }

    /// Whether `op` reads `data2` (the two-operand atomics).
    pub fn two_operand(op: LdsOp) -> bool {
        matches!(
            op,
            LdsOp::MskOr | LdsOp::Cmpst | LdsOp::FCmpst { .. } | LdsOp::Wrap
        )
    }
}

impl Expr {
    /// A one-operand dword access of the LDS (`ds_read_b32`, `ds_add_u32`, ...).
    pub fn lds(op: LdsOp, addr: Handle, data: Handle, active: Handle) -> Expr {
        Expr::Mem {
            space: Space::Lds,
            op,
            bytes: 4,
            addr,
            data,
            data2: None,
            cmp: None,
            active,
        }
    }

    /// Whether the expression has no operands and the same value wherever it is evaluated
    /// (a constant or an input): a kernel with blocks may use it from any block.
    pub fn is_leaf(&self) -> bool {
        matches!(
            self,
            Expr::Const { .. } | Expr::Input(_) | Expr::LaneId | Expr::SgprIn(_) | Expr::ExecIn
        )
    }

    /// Whether the value depends only on the expression's operands: a function of their bits
    /// (a constant's is its own). False for the lane's inputs and index and for the wave's
    /// state (its inputs, other lanes, LDS, memory, block variables): the lowering may fold a
    /// pure expression of constants, never one of these. Exhaustive, so that a new kind of
    /// expression has to say which it is.
    pub fn is_pure(&self) -> bool {
        match self {
            Expr::Const { .. }
            | Expr::IntBin { .. }
            | Expr::IntUn { .. }
            | Expr::IntCmp { .. }
            | Expr::FloatBin { .. }
            | Expr::Fma { .. }
            | Expr::FloatUn { .. }
            | Expr::FloatCmp { .. }
            | Expr::BoolAnd(..)
            | Expr::BoolOr(..)
            | Expr::BoolNot(_)
            | Expr::Select { .. }
            | Expr::Convert { .. }
            | Expr::Pack64 { .. } => true,
            Expr::Input(_)
            | Expr::LaneId
            | Expr::SgprIn(_)
            | Expr::ExecIn
            | Expr::WaveBallot(_)
            | Expr::WaveRead { .. }
            | Expr::Mem { .. }
            | Expr::Var(_)
            | Expr::Image(_) => false,
        }
    }

    /// Whether the expression reads other lanes' values: a kernel with one runs as a whole
    /// wave ([`crate::wave`]), never one lane at a time.
    pub fn is_cross_lane(&self) -> bool {
        matches!(
            self,
            Expr::WaveBallot(_) | Expr::WaveRead { .. } | Expr::Mem { .. }
        )
    }
}

/// The wave contract's uniform outputs of a kernel: s0..s15, EXEC, VCC (`U64`) and SCC
/// (`Bool`) after the body. Every lane computes them (they are uniform by construction); the
/// executors take lane 0's.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformOutputs {
    /// Sixteen `U32`.
    pub sgprs: Vec<Handle>,
    pub exec: Handle,
    pub vcc: Handle,
    pub scc: Handle,
}

/// A lowered body for one lane: expressions in topological order and the sixteen outputs
/// (v10..v25 after the body, each `U32`); a body lowered under the wave contract also has its
/// uniform outputs.
///
/// A kernel with `blocks` has control flow: execution starts at block 0 and follows the
/// terminators; the expressions after the last block's range are the exit code, evaluated
/// once the exit is reached, and the outputs are among them. An expression that is not a leaf
/// ([`Expr::is_leaf`]) is used only inside its own block (or the exit code).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kernel {
    pub exprs: Vec<Expr>,
    pub outputs: Vec<Handle>,
    pub uniform: Option<UniformOutputs>,
    pub blocks: Vec<Block>,
    /// The native images its [`Expr::Image`] expressions read (empty on the software path).
    pub images: Vec<crate::native::NativeImage>,
}

/// A broken IR invariant, found by [`Kernel::validate`].
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum IrError {
    #[error("expression {at} refers to {operand}, which is not defined before it")]
    ForwardReference { at: Handle, operand: Handle },
    #[error("expression {at}: {what}")]
    Type { at: Handle, what: String },
    #[error("kernel has {0} outputs, expected 16")]
    OutputCount(usize),
}

impl Kernel {
    /// Appends `e` and returns its handle.
    pub fn push(&mut self, e: Expr) -> Handle {
        let h = Handle(self.exprs.len() as u32);
        self.exprs.push(e);
        h
    }

    pub fn expr(&self, h: Handle) -> &Expr {
        &self.exprs[h.index()]
    }

    /// The type of expression `h` (assumes `h`'s operands are already well typed).
    pub fn ty(&self, h: Handle) -> Ty {
        match self.expr(h) {
            Expr::Const { ty, .. } => *ty,
            Expr::Input(_) | Expr::LaneId => Ty::U32,
            Expr::IntBin { a, .. } | Expr::IntUn { a, .. } => self.ty(*a),
            Expr::IntCmp { .. } | Expr::FloatCmp { .. } => Ty::Bool,
            Expr::BoolAnd(..) | Expr::BoolOr(..) | Expr::BoolNot(..) => Ty::Bool,
            Expr::FloatBin { a, .. } | Expr::Fma { a, .. } | Expr::FloatUn { a, .. } => self.ty(*a),
            Expr::Select { a, .. } => self.ty(*a),
            Expr::Convert { to, .. } => *to,
            Expr::Pack64 { .. } => Ty::U64,
            Expr::SgprIn(_) | Expr::WaveRead { .. } | Expr::Var(_) | Expr::Image(_) => Ty::U32,
            Expr::Mem { bytes: 8, .. } => Ty::U64,
            Expr::Mem { .. } => Ty::U32,
            Expr::ExecIn | Expr::WaveBallot(_) => Ty::U64,
        }
    }

    /// Operands of an expression, in order.
    pub fn operands(e: &Expr) -> Vec<Handle> {
        match *e {
            Expr::Const { .. } | Expr::Input(_) | Expr::LaneId => vec![],
            Expr::SgprIn(_) | Expr::ExecIn | Expr::Var(_) => vec![],
            Expr::WaveBallot(a) => vec![a],
            Expr::WaveRead { value, lane } => vec![value, lane],
            Expr::Mem {
                addr,
                data,
                data2,
                cmp,
                active,
                ..
            } => [addr, data]
                .into_iter()
                .chain(data2)
                .chain(cmp)
                .chain([active])
                .collect(),
            Expr::IntBin { a, b, .. }
            | Expr::IntCmp { a, b, .. }
            | Expr::FloatBin { a, b, .. }
            | Expr::FloatCmp { a, b, .. }
            | Expr::BoolAnd(a, b)
            | Expr::BoolOr(a, b) => vec![a, b],
            Expr::Pack64 { lo, hi } => vec![lo, hi],
            Expr::IntUn { a, .. }
            | Expr::FloatUn { a, .. }
            | Expr::BoolNot(a)
            | Expr::Convert { a, .. } => vec![a],
            Expr::Fma { a, b, c } => vec![a, b, c],
            Expr::Select { cond, a, b } => vec![cond, a, b],
            Expr::Image(ref a) => a.operands(),
        }
    }
}
