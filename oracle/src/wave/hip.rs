//! The HIP [`WaveDevice`]: device buffers from `hipMalloc`, one kernel launch per dispatch.

use crate::elf::CodeObject;
use crate::error::{OracleError, Result};
use crate::hip::{DeviceBuffer, Function, Hip};
use crate::template::KERNEL_NAME;

use super::exec::WaveDevice;
use super::template::WaveShape;

/// A loaded wave kernel on the current HIP device.
pub struct HipWaveDevice<'a> {
    pub hip: &'a Hip,
    pub function: Function<'a>,
}

impl<'a> WaveDevice for HipWaveDevice<'a> {
    type Buffer = DeviceBuffer<'a>;

    fn alloc(&self, bytes: usize) -> Result<DeviceBuffer<'a>> {
        self.hip.alloc(bytes)
    }
    fn address(&self, buffer: &DeviceBuffer<'a>) -> u64 {
        buffer.ptr() as u64
    }
    fn upload(&self, buffer: &DeviceBuffer<'a>, data: &[u8]) -> Result<()> {
        buffer.upload(data)
    }
    fn download(&self, buffer: &DeviceBuffer<'a>, out: &mut [u8]) -> Result<()> {
        buffer.download(out)
    }
    fn launch(&self, kernargs: &mut [u8], groups: u32, block: u32) -> Result<()> {
        self.hip.launch(self.function, groups, block, kernargs)?;
        self.hip.synchronize()
    }
}

/// Checks that `code_object`'s kernel descriptor is a wave kernel of `shape`: its wave size and
/// LDS allocation decide the buffer sizes, so a mismatch would read the wrong memory.
pub fn check_code_object(code_object: &[u8], shape: &WaveShape) -> Result<()> {
    let elf = CodeObject::parse(code_object)?;
    let kd = elf.kernel_descriptor(KERNEL_NAME)?;
    let lanes = if kd.wave32() { 32 } else { 64 };
    if lanes != shape.lanes() || kd.group_segment_fixed_size != shape.lds_alloc() {
        return Err(OracleError::InvalidWave(format!(
            "code object is wave{lanes} with {} LDS bytes; the batch is wave{} with {}",
            kd.group_segment_fixed_size,
            shape.lanes(),
            shape.lds_alloc()
        )));
    }
    Ok(())
}
