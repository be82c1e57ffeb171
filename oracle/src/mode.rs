//! The kernel's float mode and wave size, and the gfx103x targets the oracle assembles for.
//!
//! [`Mode`] mirrors the dataset's mode cells (ARCHITECTURE.md, "lane contract") with every field
//! resolved; the field values are the kernel-descriptor encodings that LLVM's `.amdhsa_*`
//! directives take, so they go into the descriptor unchanged.

use std::str::FromStr;

use crate::error::{OracleError, Result};

/// Wave size.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Wave {
    #[default]
    W32,
    W64,
}

impl Wave {
    pub fn lanes(self) -> u32 {
        match self {
            Wave::W32 => 32,
            Wave::W64 => 64,
        }
    }

    pub fn from_lanes(lanes: u32) -> Result<Wave> {
        match lanes {
            32 => Ok(Wave::W32),
            64 => Ok(Wave::W64),
            v => Err(OracleError::InvalidMode {
                field: "wave",
                value: v,
                expected: "32 or 64",
            }),
        }
    }
}

/// A fully resolved float mode plus wave size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Mode {
    /// IEEE_MODE: signalling NaN inputs are quieted and min/max follow IEEE 754-2008.
    pub ieee: bool,
    /// DX10_CLAMP: clamping turns NaN into 0.
    pub dx10_clamp: bool,
    /// FLOAT_DENORM_MODE_32: 0 flush inputs and outputs, 1 keep input denormals, 2 keep output
    /// denormals, 3 keep both.
    pub denorm32: u8,
    /// FLOAT_DENORM_MODE_16_64, same encoding; governs f16 and f64.
    pub denorm16: u8,
    /// FLOAT_ROUND_MODE_32: 0 nearest even, 1 +inf, 2 -inf, 3 toward zero.
    pub round32: u8,
    /// FLOAT_ROUND_MODE_16_64, same encoding.
    pub round16: u8,
    /// FP16_OVFL: f16 results that overflow saturate to max-normal instead of infinity.
    pub fp16_overflow: bool,
    pub wave: Wave,
}

impl Default for Mode {
    /// The defaults of LLVM's `.amdhsa_*` directives for a gfx10 compute kernel, which is also
    /// the project's replay default for unstated mode cells: IEEE and DX10 clamp on, f32
    /// denormals flushed (0), f16/f64 denormals kept (3), round to nearest even, no f16 overflow
    /// clamp; wave32.
    fn default() -> Mode {
        Mode {
            ieee: true,
            dx10_clamp: true,
            denorm32: 0,
            denorm16: 3,
            round32: 0,
            round16: 0,
            fp16_overflow: false,
            wave: Wave::W32,
        }
    }
}

impl Mode {
    /// Checks the two-bit fields (the booleans and the wave cannot be out of range).
    pub fn validate(&self) -> Result<()> {
        for (field, value, expected) in [
            (
                "denorm32",
                self.denorm32,
                "0..3 (bit 0 keeps input, bit 1 keeps output denormals)",
            ),
            (
                "denorm16",
                self.denorm16,
                "0..3 (bit 0 keeps input, bit 1 keeps output denormals)",
            ),
            (
                "round32",
                self.round32,
                "0..3 (nearest even, +inf, -inf, toward zero)",
            ),
            (
                "round16",
                self.round16,
                "0..3 (nearest even, +inf, -inf, toward zero)",
            ),
        ] {
            if value > 3 {
                return Err(OracleError::InvalidMode {
                    field,
                    value: value.into(),
                    expected,
                });
            }
        }
        Ok(())
    }

    /// The FLOAT_MODE byte of COMPUTE_PGM_RSRC1 (bits 1:0 round32, 3:2 round16, 5:4 denorm32,
    /// 7:6 denorm16), the form the dataset notes use.
    pub fn float_mode_byte(&self) -> u8 {
        (self.round32 & 3)
            | (self.round16 & 3) << 2
            | (self.denorm32 & 3) << 4
            | (self.denorm16 & 3) << 6
    }

    /// Parses a 0/1 flag for error-checked construction from user input.
    pub fn flag(field: &'static str, value: u32) -> Result<bool> {
        match value {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(OracleError::InvalidMode {
                field,
                value: v,
                expected: "0 or 1",
            }),
        }
    }

    /// Parses a two-bit field for error-checked construction from user input.
    pub fn two_bits(field: &'static str, value: u32) -> Result<u8> {
        if value <= 3 {
            Ok(value as u8)
        } else {
            Err(OracleError::InvalidMode {
                field,
                value,
                expected: "0..3",
            })
        }
    }
}

/// An RDNA2 target the oracle assembles for.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Target {
    Gfx1030,
    Gfx1031,
    Gfx1032,
    Gfx1033,
    Gfx1034,
    Gfx1035,
    Gfx1036,
}

impl Target {
    pub const ALL: [Target; 7] = [
        Target::Gfx1030,
        Target::Gfx1031,
        Target::Gfx1032,
        Target::Gfx1033,
        Target::Gfx1034,
        Target::Gfx1035,
        Target::Gfx1036,
    ];

    /// `gfx1030` ...
    pub fn name(self) -> &'static str {
        match self {
            Target::Gfx1030 => "gfx1030",
            Target::Gfx1031 => "gfx1031",
            Target::Gfx1032 => "gfx1032",
            Target::Gfx1033 => "gfx1033",
            Target::Gfx1034 => "gfx1034",
            Target::Gfx1035 => "gfx1035",
            Target::Gfx1036 => "gfx1036",
        }
    }

    /// The comgr/LLVM isa name, e.g. `amdgcn-amd-amdhsa--gfx1030`.
    pub fn isa_name(self) -> String {
        format!("amdgcn-amd-amdhsa--{}", self.name())
    }

    /// The ELF header's EF_AMDGPU_MACH value for this target (LLVM's ELF.h).
    pub fn elf_mach(self) -> u32 {
        match self {
            Target::Gfx1030 => 0x036,
            Target::Gfx1031 => 0x037,
            Target::Gfx1032 => 0x038,
            Target::Gfx1033 => 0x039,
            Target::Gfx1034 => 0x03e,
            Target::Gfx1035 => 0x03d,
            Target::Gfx1036 => 0x045,
        }
    }

    /// Parses a device's arch name as HIP reports it (`gfx1030`, `gfx1035:xnack-`): the part
    /// before the first `:` names the target.
    pub fn from_arch_name(arch: &str) -> Result<Target> {
        arch.split(':').next().unwrap_or("").trim().parse()
    }
}

impl FromStr for Target {
    type Err = OracleError;
    fn from_str(s: &str) -> Result<Target> {
        Target::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| OracleError::UnknownTarget(s.to_string()))
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_and_print() {
        for t in Target::ALL {
            assert_eq!(t.name().parse::<Target>().unwrap(), t);
        }
        assert_eq!(
            Target::from_arch_name("gfx1035:xnack-").unwrap(),
            Target::Gfx1035
        );
        assert!(matches!(
            "gfx1010".parse::<Target>(),
            Err(OracleError::UnknownTarget(_))
        ));
        assert!("gfx10300".parse::<Target>().is_err());
    }

    #[test]
    fn float_mode_byte_layout() {
        let m = Mode {
            round32: 1,
            round16: 2,
            denorm32: 3,
            denorm16: 0,
            ..Mode::default()
        };
        assert_eq!(m.float_mode_byte(), 0b00_11_10_01);
        assert_eq!(Mode::default().float_mode_byte(), 0xc0);
    }

    #[test]
    fn validation_rejects_out_of_range() {
        let m = Mode {
            round16: 4,
            ..Mode::default()
        };
        assert!(matches!(
            m.validate(),
            Err(OracleError::InvalidMode {
                field: "round16",
                value: 4,
                ..
            })
        ));
        assert!(Mode::flag("ieee", 2).is_err());
        assert!(Mode::two_bits("denorm32", 9).is_err());
        assert!(Wave::from_lanes(16).is_err());
        assert_eq!(Wave::from_lanes(64).unwrap(), Wave::W64);
    }
}
