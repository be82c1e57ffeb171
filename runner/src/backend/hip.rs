//! `hip[:gfx10xx]`: the native body on an AMD GPU through the oracle crate.

use super::{Backend, Producer, RowResult};
use rdnaprobe_dataset::Row;

pub struct HipBackend {}

impl HipBackend {
    pub fn open(_which: Option<&str>) -> anyhow::Result<HipBackend> {
        anyhow::bail!("hip backend not implemented yet")
    }
}

impl Backend for HipBackend {
    fn producer(&self) -> Producer {
        Producer::default()
    }
    fn run(&mut self, _rows: &[Row]) -> Vec<RowResult> {
        unimplemented!()
    }
}
