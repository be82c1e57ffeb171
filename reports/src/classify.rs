//! Classifying one output dword (or one f64 pair) of a candidate against the reference.
//!
//! Classes, from the most specific (and mildest) to the worst: `exact`, `nan-payload` (both
//! NaN, bits differ), `signed-zero` (+0 against -0), `denorm-flush` (one side a denormal, the
//! other the zero of the same sign that flushing it gives), `ulp<=1`, `ulp<=k`, `wrong`. The
//! ULP distance is the distance on the ordered integer line of the type: the bit patterns
//! mapped so that integer order is float order, -0 and +0 one step apart. A NaN against a
//! number has no distance and is `wrong`. A row adds `unsupported`/`error` (the backend could
//! not run it) and `no-outputs` (no dword captured on both sides).

use std::fmt;
use std::str::FromStr;

use crate::dtype::DwordType;

/// The class of a dword or of a row. The order is severity: a row's class is its worst dword's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Exact,
    /// Neither side captured any compared dword.
    NoOutputs,
    NanPayload,
    SignedZero,
    DenormFlush,
    Ulp1,
    /// Within the configured `k` ULP (k > 1).
    UlpK,
    Wrong,
    /// The candidate (or reference) backend reported `unsupported: ...` for the row.
    Unsupported,
    /// The candidate (or reference) backend reported `error: ...` for the row.
    Error,
}

impl Class {
    pub const ALL: [Class; 10] = [
        Class::Exact,
        Class::NoOutputs,
        Class::NanPayload,
        Class::SignedZero,
        Class::DenormFlush,
        Class::Ulp1,
        Class::UlpK,
        Class::Wrong,
        Class::Unsupported,
        Class::Error,
    ];

    /// The spelling used in every output and in the known-discrepancy file.
    pub fn name(self) -> &'static str {
        match self {
            Class::Exact => "exact",
            Class::NoOutputs => "no-outputs",
            Class::NanPayload => "nan-payload",
            Class::SignedZero => "signed-zero",
            Class::DenormFlush => "denorm-flush",
            Class::Ulp1 => "ulp<=1",
            Class::UlpK => "ulp<=k",
            Class::Wrong => "wrong",
            Class::Unsupported => "unsupported",
            Class::Error => "error",
        }
    }

    /// A stable small code (the index in [`Class::ALL`]), used as a compact column.
    pub fn code(self) -> u32 {
        Class::ALL.iter().position(|c| *c == self).unwrap_or(0) as u32
    }

    pub fn from_code(code: u32) -> Option<Class> {
        Class::ALL.get(code as usize).copied()
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Class {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Class::ALL
            .iter()
            .copied()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Class::ALL.iter().map(|c| c.name()).collect();
                format!("unknown class {s:?} (one of: {})", names.join(", "))
            })
    }
}

/// The verdict on one compared value: its class and, when it has one, its ULP distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub class: Class,
    /// Distance on the ordered integer line; `None` for bit-compared types and NaN vs number.
    pub ulp: Option<u64>,
}

impl Verdict {
    const EXACT: Verdict = Verdict {
        class: Class::Exact,
        ulp: Some(0),
    };

    /// The worse of two verdicts; the larger distance is kept.
    pub fn worst(self, other: Verdict) -> Verdict {
        Verdict {
            class: self.class.max(other.class),
            ulp: match (self.ulp, other.ulp) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            },
        }
    }
}

/// Bit layout of one IEEE binary format.
#[derive(Clone, Copy)]
struct Format {
    bits: u32,
    mantissa_bits: u32,
}

const F16: Format = Format {
    bits: 16,
    mantissa_bits: 10,
};
const F32: Format = Format {
    bits: 32,
    mantissa_bits: 23,
};
const F64: Format = Format {
    bits: 64,
    mantissa_bits: 52,
};

impl Format {
    fn sign_bit(self) -> u64 {
        1 << (self.bits - 1)
    }
    fn magnitude(self, v: u64) -> u64 {
        v & (self.sign_bit() - 1)
    }
    fn exponent_mask(self) -> u64 {
        (self.sign_bit() - 1) & !((1 << self.mantissa_bits) - 1)
    }
    fn is_nan(self, v: u64) -> bool {
        let m = self.magnitude(v);
        m & self.exponent_mask() == self.exponent_mask() && m & ((1 << self.mantissa_bits) - 1) != 0
    }
    fn is_zero(self, v: u64) -> bool {
        self.magnitude(v) == 0
    }
    fn is_denormal(self, v: u64) -> bool {
        let m = self.magnitude(v);
        m != 0 && m & self.exponent_mask() == 0
    }
    /// The position of `v` on the ordered line: -0 is -1 so that +0 and -0 are one step apart.
    fn ordered(self, v: u64) -> i128 {
        let m = self.magnitude(v) as i128;
        if v & self.sign_bit() != 0 {
            -m - 1
        } else {
            m
        }
    }
}

/// Classify one value of `format`: `reference` and `candidate` hold the format's bits.
fn classify_float(format: Format, reference: u64, candidate: u64, k: u64) -> Verdict {
    if reference == candidate {
        return Verdict::EXACT;
    }
    let (rn, cn) = (format.is_nan(reference), format.is_nan(candidate));
    if rn && cn {
        return Verdict {
            class: Class::NanPayload,
            ulp: None,
        };
    }
    if rn || cn {
        return Verdict {
            class: Class::Wrong,
            ulp: None,
        };
    }
    let distance = (format.ordered(reference) - format.ordered(candidate)).unsigned_abs() as u64;
    let ulp = Some(distance);
    let same_sign = (reference ^ candidate) & format.sign_bit() == 0;
    let class = if format.is_zero(reference) && format.is_zero(candidate) {
        Class::SignedZero
    } else if same_sign
        && ((format.is_denormal(reference) && format.is_zero(candidate))
            || (format.is_zero(reference) && format.is_denormal(candidate)))
    {
        Class::DenormFlush
    } else if distance <= 1 {
        Class::Ulp1
    } else if distance <= k {
        Class::UlpK
    } else {
        Class::Wrong
    };
    Verdict { class, ulp }
}

fn classify_bits(reference: u64, candidate: u64) -> Verdict {
    if reference == candidate {
        Verdict::EXACT
    } else {
        Verdict {
            class: Class::Wrong,
            ulp: None,
        }
    }
}

/// Classify one 32-bit output dword of type `ty` (not `F64Lo`/`F64Hi`: see [`classify_f64`]).
pub fn classify_dword(ty: DwordType, reference: u32, candidate: u32, k: u64) -> Verdict {
    let (r, c) = (u64::from(reference), u64::from(candidate));
    let lo = |v: u64| v & 0xffff;
    let hi = |v: u64| v >> 16;
    match ty {
        DwordType::F32 => classify_float(F32, r, c, k),
        DwordType::F16Lo => {
            classify_float(F16, lo(r), lo(c), k).worst(classify_bits(hi(r), hi(c)).no_ulp())
        }
        DwordType::F16Hi => {
            classify_float(F16, hi(r), hi(c), k).worst(classify_bits(lo(r), lo(c)).no_ulp())
        }
        DwordType::PackedF16 => {
            classify_float(F16, lo(r), lo(c), k).worst(classify_float(F16, hi(r), hi(c), k))
        }
        // A lone half of an f64 (the other half was not captured) has no meaningful ULP.
        // Integers of every width compare as bits, the kept upper half of a 16-bit one too.
        DwordType::F64Lo
        | DwordType::F64Hi
        | DwordType::Int
        | DwordType::Int16Lo
        | DwordType::Int64Lo
        | DwordType::Int64Hi
        | DwordType::LaneMask
        | DwordType::Unknown => classify_bits(r, c),
    }
}

/// Classify an f64 given as (low dword, high dword) pairs.
pub fn classify_f64(reference: (u32, u32), candidate: (u32, u32), k: u64) -> Verdict {
    let join = |(lo, hi): (u32, u32)| u64::from(hi) << 32 | u64::from(lo);
    classify_float(F64, join(reference), join(candidate), k)
}

impl Verdict {
    /// The same class without a distance (bits that are not part of the value's number line).
    fn no_ulp(self) -> Verdict {
        Verdict {
            class: self.class,
            ulp: if self.class == Class::Exact {
                Some(0)
            } else {
                None
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32c(r: u32, c: u32) -> (Class, Option<u64>) {
        let v = classify_dword(DwordType::F32, r, c, 4);
        (v.class, v.ulp)
    }

    #[test]
    fn f32_classes() {
        assert_eq!(f32c(0x3f80_0000, 0x3f80_0000), (Class::Exact, Some(0)));
        assert_eq!(f32c(0x7fc0_0000, 0x7fc0_0001), (Class::NanPayload, None));
        assert_eq!(f32c(0x7fc0_0000, 0xffc0_0000), (Class::NanPayload, None));
        assert_eq!(f32c(0x0000_0000, 0x8000_0000), (Class::SignedZero, Some(1)));
        assert_eq!(
            f32c(0x0000_0001, 0x0000_0000),
            (Class::DenormFlush, Some(1))
        );
        assert_eq!(
            f32c(0x807f_ffff, 0x8000_0000),
            (Class::DenormFlush, Some(0x7f_ffff))
        );
        // A flush keeps the sign: a denormal against the opposite zero is a real difference.
        assert_eq!(f32c(0x007f_ffff, 0x8000_0000).0, Class::Wrong);
        assert_eq!(f32c(0x3f80_0000, 0x3f80_0001), (Class::Ulp1, Some(1)));
        assert_eq!(f32c(0x3f80_0000, 0x3f7f_ffff), (Class::Ulp1, Some(1)));
        assert_eq!(f32c(0x3f80_0000, 0x3f80_0004), (Class::UlpK, Some(4)));
        assert_eq!(f32c(0x3f80_0000, 0x3f80_0005), (Class::Wrong, Some(5)));
        assert_eq!(f32c(0x3f80_0000, 0x7fc0_0000), (Class::Wrong, None));
        // Across zero: smallest positive and smallest negative denormal are three steps apart.
        assert_eq!(f32c(0x0000_0001, 0x8000_0001), (Class::UlpK, Some(3)));
        // Infinity is one step above the largest finite value.
        assert_eq!(f32c(0x7f7f_ffff, 0x7f80_0000), (Class::Ulp1, Some(1)));
    }

    #[test]
    fn f16_low_half_keeps_upper_bits_exact() {
        let t = DwordType::F16Lo;
        assert_eq!(
            classify_dword(t, 0xabcd_3c00, 0xabcd_3c01, 4).class,
            Class::Ulp1
        );
        assert_eq!(
            classify_dword(t, 0xabcd_3c00, 0x0000_3c00, 4).class,
            Class::Wrong
        );
        assert_eq!(
            classify_dword(t, 0x0000_7e00, 0x0000_7e01, 4).class,
            Class::NanPayload
        );
        assert_eq!(
            classify_dword(t, 0x0000_0001, 0x0000_0000, 4).class,
            Class::DenormFlush
        );
        let hi = classify_dword(DwordType::F16Hi, 0x3c00_1234, 0x3c02_1234, 4);
        assert_eq!((hi.class, hi.ulp), (Class::UlpK, Some(2)));
    }

    #[test]
    fn packed_f16_takes_the_worse_half() {
        let v = classify_dword(DwordType::PackedF16, 0x3c00_3c00, 0x3c03_3c01, 4);
        assert_eq!((v.class, v.ulp), (Class::UlpK, Some(3)));
        let v = classify_dword(DwordType::PackedF16, 0x8000_3c00, 0x0000_3c00, 4);
        assert_eq!(v.class, Class::SignedZero);
    }

    #[test]
    fn f64_uses_both_dwords() {
        let one = (0x0000_0000, 0x3ff0_0000);
        assert_eq!(classify_f64(one, one, 4).class, Class::Exact);
        let v = classify_f64(one, (0x0000_0001, 0x3ff0_0000), 4);
        assert_eq!((v.class, v.ulp), (Class::Ulp1, Some(1)));
        // One step below 1.0 borrows across the dword boundary.
        let v = classify_f64(one, (0xffff_ffff, 0x3fef_ffff), 4);
        assert_eq!((v.class, v.ulp), (Class::Ulp1, Some(1)));
        let v = classify_f64((1, 0), (0, 0), 4);
        assert_eq!(v.class, Class::DenormFlush);
        let v = classify_f64((0, 0x7ff8_0000), (1, 0x7ff8_0000), 4);
        assert_eq!(v.class, Class::NanPayload);
    }

    #[test]
    fn integers_are_equal_or_wrong() {
        assert_eq!(classify_dword(DwordType::Int, 5, 5, 4).class, Class::Exact);
        let v = classify_dword(DwordType::Int, 5, 6, 4);
        assert_eq!((v.class, v.ulp), (Class::Wrong, None));
        assert_eq!(
            classify_dword(DwordType::LaneMask, 1, 0, 4).class,
            Class::Wrong
        );
    }

    #[test]
    fn class_names_round_trip_and_order_is_severity() {
        for c in Class::ALL {
            assert_eq!(c.name().parse::<Class>(), Ok(c));
            assert_eq!(Class::from_code(c.code()), Some(c));
        }
        assert!(Class::Exact < Class::NanPayload && Class::UlpK < Class::Wrong);
        assert!("ulp<=9".parse::<Class>().is_err());
    }
}
