//! The wave contract on hardware: a probe kernel that runs whole waves (per-lane VGPRs, uniform
//! SGPRs, EXEC/VCC/SCC, LDS and a memory region), and the executor side that packs waves into
//! the kernel's buffers and unpacks what they produced.
//!
//! - [`template`]: the kernel source, its wave-table layout and reserved registers;
//! - [`exec`]: [`WaveInput`] / [`WaveResult`], packing and the dispatch over a [`WaveDevice`];
//! - [`hip`]: the HIP [`WaveDevice`].
//!
//! The lane contract's kernel (`crate::template`) is untouched: lane datasets keep using it.

pub mod exec;
#[cfg(test)]
mod fake_device;
pub mod hip;
pub mod template;

pub use exec::{run_waves_on, WaveDevice, WaveInput, WaveResult};
pub use template::{wave_kernel_source, WaveShape};

/// One batch of waves for one wave kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveBatch {
    /// Sequence number given by the supervisor.
    pub id: u64,
    pub device: i32,
    pub code_object: Vec<u8>,
    /// The shape the code object was assembled for (checked against its descriptor on HIP).
    pub shape: WaveShape,
    pub waves: Vec<WaveInput>,
}
