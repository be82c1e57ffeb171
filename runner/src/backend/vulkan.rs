//! `vulkan[:lavapipe|nvidia|radv|N]`: recompiled SPIR-V run through ash.

use super::{Backend, Producer, RowResult};
use rdnaprobe_dataset::Row;

pub struct VulkanBackend {}

impl VulkanBackend {
    pub fn open(_which: Option<&str>) -> anyhow::Result<VulkanBackend> {
        anyhow::bail!("vulkan backend not implemented yet")
    }
}

impl Backend for VulkanBackend {
    fn producer(&self) -> Producer {
        Producer::default()
    }
    fn run(&mut self, _rows: &[Row]) -> Vec<RowResult> {
        unimplemented!()
    }
}
