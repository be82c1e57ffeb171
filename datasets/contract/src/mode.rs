//! The float mode a kernel runs under: the MODE register fields as the kernel descriptor sets
//! them (LLVM's `.amdhsa_*` directive convention), and the same fields as a dataset row states
//! them.
//!
//! Denormal fields: bit 0 keeps input denormals, bit 1 keeps output denormals (0 flush both,
//! 1 keep in / flush out, 2 flush in / keep out, 3 keep both). Round fields: 0 nearest even,
//! 1 +inf, 2 -inf, 3 toward zero. `denorm16` and `round16` also govern f64.

use serde::{Deserialize, Serialize};

use crate::error::ContractError;

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
    /// The mode of a two-bit field (higher bits are ignored).
    pub fn from_field(v: u8) -> Round {
        match v & 3 {
            0 => Round::NearestEven,
            1 => Round::PlusInf,
            2 => Round::MinusInf,
            _ => Round::Zero,
        }
    }
}

/// One field of the float mode, in the order of the dataset's mode columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModeField {
    /// IEEE_MODE: signalling NaN inputs are quieted and min/max follow IEEE 754-2008.
    Ieee,
    /// DX10_CLAMP: clamping turns NaN into 0.
    Dx10Clamp,
    /// FLOAT_DENORM_MODE_32.
    Denorm32,
    /// FLOAT_DENORM_MODE_16_64.
    Denorm16,
    /// FLOAT_ROUND_MODE_32.
    Round32,
    /// FLOAT_ROUND_MODE_16_64.
    Round16,
    /// FP16_OVFL: f16 results that overflow saturate to max-normal instead of infinity.
    Fp16Overflow,
}

impl ModeField {
    /// Every field, in column order.
    pub const ALL: [ModeField; 7] = [
        ModeField::Ieee,
        ModeField::Dx10Clamp,
        ModeField::Denorm32,
        ModeField::Denorm16,
        ModeField::Round32,
        ModeField::Round16,
        ModeField::Fp16Overflow,
    ];

    /// The field's column name (and `.amdhsa_*` suffix-like spelling): `ieee`, `dx10_clamp`, ...
    pub fn name(self) -> &'static str {
        match self {
            ModeField::Ieee => "ieee",
            ModeField::Dx10Clamp => "dx10_clamp",
            ModeField::Denorm32 => "denorm32",
            ModeField::Denorm16 => "denorm16",
            ModeField::Round32 => "round32",
            ModeField::Round16 => "round16",
            ModeField::Fp16Overflow => "fp16_overflow",
        }
    }

    /// The field named `name`, if any.
    pub fn from_name(name: &str) -> Option<ModeField> {
        ModeField::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Largest value: 1 for the flags, 3 for the two-bit fields.
    pub fn max(self) -> u8 {
        match self {
            ModeField::Ieee | ModeField::Dx10Clamp | ModeField::Fp16Overflow => 1,
            _ => 3,
        }
    }

    /// What the field accepts, for error messages.
    pub fn expected(self) -> &'static str {
        match self {
            ModeField::Ieee | ModeField::Dx10Clamp | ModeField::Fp16Overflow => "0 or 1",
            ModeField::Denorm32 | ModeField::Denorm16 => {
                "0..3 (bit 0 keeps input, bit 1 keeps output denormals)"
            }
            ModeField::Round32 | ModeField::Round16 => {
                "0..3 (nearest even, +inf, -inf, toward zero)"
            }
        }
    }

    /// Checks a value given by a user (a flag, a spec entry, a command-line option).
    pub fn check(self, value: u32) -> Result<u8, ContractError> {
        if value <= u32::from(self.max()) {
            Ok(value as u8)
        } else {
            Err(ContractError::InvalidField {
                field: self.name(),
                value,
                expected: self.expected(),
            })
        }
    }

    /// Parses a dataset cell: empty is "not stated" (`None`), otherwise a decimal in
    /// `0..=max`; the error says what the cell may hold.
    pub fn parse_cell(self, cell: &str) -> Result<Option<u8>, String> {
        let cell = cell.trim();
        if cell.is_empty() {
            return Ok(None);
        }
        match cell.parse::<u8>() {
            Ok(v) if v <= self.max() => Ok(Some(v)),
            _ => Err(format!(
                "expected 0..={} or an empty cell (not stated)",
                self.max()
            )),
        }
    }
}

/// One complete float mode. `denorm16` and `round16` also govern f64.
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

    /// The value of one field (flags as 0/1).
    pub fn get(&self, field: ModeField) -> u8 {
        match field {
            ModeField::Ieee => u8::from(self.ieee),
            ModeField::Dx10Clamp => u8::from(self.dx10_clamp),
            ModeField::Denorm32 => self.denorm32,
            ModeField::Denorm16 => self.denorm16,
            ModeField::Round32 => self.round32,
            ModeField::Round16 => self.round16,
            ModeField::Fp16Overflow => u8::from(self.fp16_overflow),
        }
    }

    /// This mode with one field replaced (flags: any non-zero value is set).
    pub fn with(mut self, field: ModeField, value: u8) -> FloatMode {
        match field {
            ModeField::Ieee => self.ieee = value != 0,
            ModeField::Dx10Clamp => self.dx10_clamp = value != 0,
            ModeField::Denorm32 => self.denorm32 = value,
            ModeField::Denorm16 => self.denorm16 = value,
            ModeField::Round32 => self.round32 = value,
            ModeField::Round16 => self.round16 = value,
            ModeField::Fp16Overflow => self.fp16_overflow = value != 0,
        }
        self
    }

    /// Checks the two-bit fields (the flags cannot be out of range).
    pub fn validate(&self) -> Result<(), ContractError> {
        for field in ModeField::ALL {
            field.check(u32::from(self.get(field)))?;
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

    /// The MODE register's bits that a float mode holds (the RDNA2 ISA manual's MODE
    /// register table; LLVM's SIDefines.h FP_ROUND_* and FP_DENORM_*): 7:0 the FLOAT_MODE
    /// byte, 8 DX10_CLAMP, 9 IEEE, 23 FP16_OVFL.
    pub const MODE_REGISTER_FIELDS: u32 = 0x0080_03ff;

    /// The MODE register as this float mode sets it (its other fields 0), as s_getreg_b32
    /// of HW_REG_MODE reads it.
    pub fn mode_register(&self) -> u32 {
        u32::from(self.float_mode_byte())
            | u32::from(self.dx10_clamp) << 8
            | u32::from(self.ieee) << 9
            | u32::from(self.fp16_overflow) << 23
    }

    /// The float mode of MODE register bits `v`; bits outside
    /// [`FloatMode::MODE_REGISTER_FIELDS`] are not read.
    pub fn from_mode_register(v: u32) -> FloatMode {
        FloatMode {
            round32: (v & 3) as u8,
            round16: (v >> 2 & 3) as u8,
            denorm32: (v >> 4 & 3) as u8,
            denorm16: (v >> 6 & 3) as u8,
            dx10_clamp: v & 1 << 8 != 0,
            ieee: v & 1 << 9 != 0,
            fp16_overflow: v & 1 << 23 != 0,
        }
    }
}

impl Default for FloatMode {
    fn default() -> Self {
        FloatMode::DEFAULT
    }
}

/// The float-mode cells of a dataset row as the dataset states them: `None` is an empty cell,
/// "not stated". [`ModeCells::resolve`] is the one place that fills them in. As TOML or JSON it
/// is a table of the stated fields (`{ ieee = 0, denorm32 = 3 }`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModeCells {
    pub ieee: Option<u8>,
    pub dx10_clamp: Option<u8>,
    pub denorm32: Option<u8>,
    pub denorm16: Option<u8>,
    pub round32: Option<u8>,
    pub round16: Option<u8>,
    pub fp16_overflow: Option<u8>,
}

impl ModeCells {
    /// Every cell stated, with `mode`'s values.
    pub fn stated(mode: &FloatMode) -> ModeCells {
        let mut cells = ModeCells::default();
        for field in ModeField::ALL {
            *cells.get_mut(field) = Some(mode.get(field));
        }
        cells
    }

    /// One cell.
    pub fn get(&self, field: ModeField) -> Option<u8> {
        match field {
            ModeField::Ieee => self.ieee,
            ModeField::Dx10Clamp => self.dx10_clamp,
            ModeField::Denorm32 => self.denorm32,
            ModeField::Denorm16 => self.denorm16,
            ModeField::Round32 => self.round32,
            ModeField::Round16 => self.round16,
            ModeField::Fp16Overflow => self.fp16_overflow,
        }
    }

    /// One cell, to fill in.
    pub fn get_mut(&mut self, field: ModeField) -> &mut Option<u8> {
        match field {
            ModeField::Ieee => &mut self.ieee,
            ModeField::Dx10Clamp => &mut self.dx10_clamp,
            ModeField::Denorm32 => &mut self.denorm32,
            ModeField::Denorm16 => &mut self.denorm16,
            ModeField::Round32 => &mut self.round32,
            ModeField::Round16 => &mut self.round16,
            ModeField::Fp16Overflow => &mut self.fp16_overflow,
        }
    }

    /// The first stated cell outside its field's range, as (field, value).
    pub fn out_of_range(&self) -> Option<(ModeField, u8)> {
        ModeField::ALL
            .into_iter()
            .find_map(|f| self.get(f).filter(|v| *v > f.max()).map(|v| (f, v)))
    }

    /// The float mode a row replays under: its stated cells, [`FloatMode::DEFAULT`]'s field for
    /// every empty one.
    pub fn resolve(&self) -> FloatMode {
        ModeField::ALL
            .into_iter()
            .fold(FloatMode::DEFAULT, |mode, field| match self.get(field) {
                Some(v) => mode.with(field, v),
                None => mode,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_cells_take_the_default_and_stated_ones_win() {
        assert_eq!(ModeCells::default().resolve(), FloatMode::DEFAULT);
        let cells = ModeCells {
            ieee: Some(0),
            denorm32: Some(3),
            round16: Some(2),
            fp16_overflow: Some(1),
            ..ModeCells::default()
        };
        let m = cells.resolve();
        assert!(!m.ieee && m.dx10_clamp && m.fp16_overflow);
        assert_eq!((m.denorm32, m.denorm16, m.round32, m.round16), (3, 3, 0, 2));
        assert_eq!(ModeCells::stated(&m).resolve(), m);
        assert_eq!(cells.out_of_range(), None);
        let bad = ModeCells {
            round32: Some(4),
            ..cells
        };
        assert_eq!(bad.out_of_range(), Some((ModeField::Round32, 4)));
    }

    #[test]
    fn mode_register_round_trips_every_float_mode() {
        for v in 0..1u32 << 10 {
            for ovfl in [0, 1 << 23] {
                let bits = v | ovfl;
                let m = FloatMode::from_mode_register(bits);
                assert_eq!(m.mode_register(), bits);
                assert_eq!(m.float_mode_byte() as u32, bits & 0xff);
            }
        }
        // bits outside the float fields are not read
        assert_eq!(
            FloatMode::from_mode_register(0xff7f_fc00),
            FloatMode::from_mode_register(0)
        );
        // f16/f64 denormals kept (7:6 = 3), DX10_CLAMP and IEEE set
        assert_eq!(FloatMode::DEFAULT.mode_register(), 0x3c0);
    }

    #[test]
    fn float_mode_byte_layout() {
        let m = FloatMode {
            round32: 1,
            round16: 2,
            denorm32: 3,
            denorm16: 0,
            ..FloatMode::DEFAULT
        };
        assert_eq!(m.float_mode_byte(), 0b00_11_10_01);
        assert_eq!(FloatMode::DEFAULT.float_mode_byte(), 0xc0);
    }

    #[test]
    fn fields_check_their_ranges() {
        assert_eq!(ModeField::Ieee.check(1), Ok(1));
        assert!(ModeField::Ieee.check(2).is_err());
        assert_eq!(ModeField::Round32.check(3), Ok(3));
        assert_eq!(
            ModeField::Denorm32.check(9),
            Err(ContractError::InvalidField {
                field: "denorm32",
                value: 9,
                expected: ModeField::Denorm32.expected(),
            })
        );
        let bad = FloatMode {
            round16: 4,
            ..FloatMode::DEFAULT
        };
        assert!(matches!(
            bad.validate(),
            Err(ContractError::InvalidField {
                field: "round16",
                value: 4,
                ..
            })
        ));
        assert_eq!(ModeField::Round16.parse_cell(" 2 "), Ok(Some(2)));
        assert_eq!(ModeField::Ieee.parse_cell(""), Ok(None));
        assert!(ModeField::Ieee.parse_cell("2").is_err());
        for f in ModeField::ALL {
            assert_eq!(ModeField::from_name(f.name()), Some(f));
        }
    }
}
