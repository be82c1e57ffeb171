//! Who computes a streaming run's outputs: the CPU model (column-wise or per row) or a Vulkan
//! device.

use crate::backend::Producer;
use crate::plan::backend::BackendName;

/// Who computes outputs in a streaming run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The column-wise CPU model on every core.
    Cpu,
    /// The per-row IR interpreter on every core (the slower reference implementation; kept for
    /// cross-checks and benchmarks).
    CpuInterp,
    /// The recompiled SPIR-V on a Vulkan device (`vulkan[:which]`).
    Vulkan(Option<String>),
}

impl Engine {
    /// Parses `cpu`, `cpu:interp`, `vulkan`, `vulkan:WHICH` (names of the backend registry,
    /// [`BackendName`], that can stream).
    pub fn parse(s: &str) -> anyhow::Result<Engine> {
        Ok(match BackendName::parse(s) {
            Some(BackendName::Cpu) => Engine::Cpu,
            Some(BackendName::CpuInterp) => Engine::CpuInterp,
            Some(BackendName::Vulkan(w)) => Engine::Vulkan(w),
            Some(BackendName::Hip(_) | BackendName::HipTemplateCpu(_)) | None => anyhow::bail!(
                "streaming backend `{s}`: expected cpu, cpu:interp, vulkan or vulkan:WHICH"
            ),
        })
    }

    pub fn name(&self) -> String {
        match self {
            Engine::Cpu => "cpu".into(),
            Engine::CpuInterp => "cpu:interp".into(),
            Engine::Vulkan(None) => "vulkan".into(),
            Engine::Vulkan(Some(w)) => format!("vulkan:{w}"),
        }
    }

    pub(super) fn cpu_producer(&self) -> Producer {
        Producer {
            backend: self.name(),
            device: format!("host CPU, {} threads", rayon::current_num_threads()),
            driver: format!(
                "rdnaprobe-recompiler {} ({})",
                env!("CARGO_PKG_VERSION"),
                if *self == Engine::CpuInterp {
                    "per-row interpreter"
                } else {
                    "batch evaluator"
                }
            ),
            gfx: None,
        }
    }
}
