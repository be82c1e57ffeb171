//! The float mode a kernel runs under: the MODE register fields as the kernel descriptor sets
//! them (LLVM's `.amdhsa_*` directive convention), shared by the recompiler and the runner.

use serde::{Deserialize, Serialize};

/// Rounding mode of a FLOAT_MODE round field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Round {
    /// 0: round to nearest, ties to even.
    NearestEven = 0,
    /// 1: toward +infinity.
    PlusInf = 1,
    /// 2: toward -infinity.
    MinusInf = 2,
    /// 3: toward zero.
    Zero = 3,
}

impl Round {
    pub fn from_field(v: u8) -> Round {
        match v & 3 {
            0 => Round::NearestEven,
            1 => Round::PlusInf,
            2 => Round::MinusInf,
            _ => Round::Zero,
        }
    }
}

/// One complete float mode. Denormal fields: bit 0 keeps input denormals, bit 1 keeps output
/// denormals (0 flush both, 1 keep in / flush out, 2 flush in / keep out, 3 keep both).
/// `denorm16` and `round16` also govern f64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FloatMode {
    pub ieee: bool,
    pub dx10_clamp: bool,
    pub denorm32: u8,
    pub denorm16: u8,
    pub round32: u8,
    pub round16: u8,
    pub fp16_overflow: bool,
}

impl FloatMode {
    /// The documented replay default for a field a dataset leaves unstated: the defaults of
    /// LLVM's `.amdhsa_*` kernel-descriptor directives for a gfx10 compute kernel
    /// (IEEE 1, DX10_CLAMP 1, f32 denormals flushed (0), f16/f64 denormals kept (3),
    /// round to nearest even, FP16_OVFL 0). docs/dataset-format.md states the same.
    pub const DEFAULT: FloatMode = FloatMode {
        ieee: true,
        dx10_clamp: true,
        denorm32: 0,
        denorm16: 3,
        round32: 0,
        round16: 0,
        fp16_overflow: false,
    };

    pub fn round32(&self) -> Round {
        Round::from_field(self.round32)
    }
    pub fn round16(&self) -> Round {
        Round::from_field(self.round16)
    }
    /// f32 input denormals are kept.
    pub fn keep_in32(&self) -> bool {
        self.denorm32 & 1 != 0
    }
    /// f32 output denormals are kept.
    pub fn keep_out32(&self) -> bool {
        self.denorm32 & 2 != 0
    }
    /// f16/f64 input denormals are kept.
    pub fn keep_in16(&self) -> bool {
        self.denorm16 & 1 != 0
    }
    /// f16/f64 output denormals are kept.
    pub fn keep_out16(&self) -> bool {
        self.denorm16 & 2 != 0
    }
}

impl Default for FloatMode {
    fn default() -> Self {
        FloatMode::DEFAULT
    }
}

/// Wave size of a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Wave {
    W32 = 32,
    W64 = 64,
}

impl Wave {
    pub fn lanes(self) -> u32 {
        self as u32
    }
}
