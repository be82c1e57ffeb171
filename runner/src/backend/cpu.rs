//! `cpu`: the recompiler's IR interpreted on the host.

use super::{Backend, Producer, RowResult, Status};
use rdnaprobe_dataset::Row;

pub struct CpuBackend {}

impl CpuBackend {
    pub fn new() -> CpuBackend {
        CpuBackend {}
    }
}

impl Backend for CpuBackend {
    fn producer(&self) -> Producer {
        Producer { backend: "cpu".into(), ..Producer::default() }
    }
    fn run(&mut self, rows: &[Row]) -> Vec<RowResult> {
        rows.iter()
            .map(|_| RowResult { outputs: [None; 16], status: Status::Unsupported("not implemented".into()) })
            .collect()
    }
}
