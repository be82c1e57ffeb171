//! Wave size of a kernel: 32 or 64 lanes, and the wave contract's SGPR inputs.

use crate::error::ContractError;

/// The SGPRs a wave dataset's `s_in` sets before the body: s0..s103 (docs/dataset-format.md,
/// "Wave contract"). s16..s23 hold the memory region's address and V#, so their dwords must be
/// zero in `s_in`.
pub const SGPR_INPUTS: usize = 104;

/// The SGPRs the contract itself sets before the body (the region's address in s[16:17], its
/// V# in s[20:23]; s18 and s19 are 0): `s_in` leaves them zero.
pub const CONTRACT_SGPRS: std::ops::Range<usize> = 16..24;

/// The virtual address of a wave's memory region on the backends that have no real one
/// (`cpu`, `vulkan`): s[16:17] and the base of the V# in s[20:23] hold it before the body.
pub const MEM_BASE: u64 = 0x0000_1000_0000_0000;

/// Blocks a wave may execute before the watchdog ends it: the CPU model and the SPIR-V
/// modules count the same.
pub const WATCHDOG_BLOCKS: u32 = 1 << 16;

/// The watchdog's message.
pub fn watchdog_message() -> String {
    format!("watchdog: more than {WATCHDOG_BLOCKS} blocks executed")
}

/// Wave size. Rows fill waves in order: row `i` of a kernel is lane `i % lanes`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Wave {
    /// Wave32, the lane contract's primary size and the default of an empty `wave` cell.
    #[default]
    W32 = 32,
    W64 = 64,
}

impl Wave {
    /// The wave size an empty `wave` cell replays as.
    pub const DEFAULT: Wave = Wave::W32;

    pub fn lanes(self) -> u32 {
        self as u32
    }

    /// Parses a lane count (32 or 64).
    pub fn from_lanes(lanes: u32) -> Result<Wave, ContractError> {
        match lanes {
            32 => Ok(Wave::W32),
            64 => Ok(Wave::W64),
            value => Err(ContractError::InvalidField {
                field: "wave",
                value,
                expected: "32 or 64",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_round_trip_and_default() {
        for w in [Wave::W32, Wave::W64] {
            assert_eq!(Wave::from_lanes(w.lanes()), Ok(w));
        }
        assert_eq!(Wave::DEFAULT.lanes(), 32);
        assert_eq!(Wave::default(), Wave::DEFAULT);
        assert!(Wave::from_lanes(16).is_err());
    }
}
