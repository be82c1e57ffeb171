//! The kernel's float mode and wave size, and the targets the oracle assembles for.
//!
//! [`Mode`] is a resolved [`FloatMode`] plus the [`Wave`]: everything the kernel descriptor
//! fixes. The field values are the kernel-descriptor encodings that LLVM's `.amdhsa_*`
//! directives take, so they go into the descriptor unchanged. The types themselves are the
//! lane contract's (`rdnaprobe-contract`).

pub use rdnaprobe_contract::{FloatMode, ModeField, Target, Wave};

use crate::error::Result;

/// A fully resolved float mode plus wave size. The default is the project's replay default
/// ([`FloatMode::DEFAULT`], [`Wave::DEFAULT`]).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Mode {
    #[serde(flatten)]
    pub float: FloatMode,
    pub wave: Wave,
}

impl Mode {
    pub fn new(float: FloatMode, wave: Wave) -> Mode {
        Mode { float, wave }
    }

    /// Checks the two-bit fields (the booleans and the wave cannot be out of range).
    pub fn validate(&self) -> Result<()> {
        Ok(self.float.validate()?)
    }

    /// The FLOAT_MODE byte of COMPUTE_PGM_RSRC1 (see [`FloatMode::float_mode_byte`]).
    pub fn float_mode_byte(&self) -> u8 {
        self.float.float_mode_byte()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::OracleError;

    #[test]
    fn validation_rejects_out_of_range() {
        let m = Mode::new(
            FloatMode {
                round16: 4,
                ..FloatMode::DEFAULT
            },
            Wave::W32,
        );
        assert!(matches!(
            m.validate(),
            Err(OracleError::InvalidMode {
                field: "round16",
                value: 4,
                ..
            })
        ));
        assert_eq!(Mode::default().float_mode_byte(), 0xc0);
        assert_eq!(Mode::default().wave, Wave::W32);
    }
}
