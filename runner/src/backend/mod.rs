//! Backends run dataset rows and return what the sixteen output dwords became.
//!
//! | name | what runs |
//! |---|---|
//! | `hip[:gfx10xx]` | the native body on an AMD GPU (oracle crate: comgr + HIP) |
//! | `vulkan[:lavapipe\|nvidia\|radv\|N]` | the recompiled SPIR-V through ash |
//! | `cpu` | the recompiler's IR, interpreted on the host |
//! | `hip-template-cpu` | `hip`'s code objects (template + body) dispatched on the CPU model |
//!
//! A backend groups rows by kernel (body words, resolved mode, wave) itself, runs every row it
//! can, and reports each row that it cannot run with a status instead of failing the batch.

use rdnaprobe_dataset::{Row, WaveLayout};

use crate::plan::backend::{BackendName, ROW_BACKENDS};

/// What happened to one row: the lane contract's status (`ok`, `unsupported: ..`, `error: ..`).
pub use rdnaprobe_dataset::Status;

/// The result of one row: out0..out15 (`None` where not produced) and a status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowResult {
    pub outputs: [Option<u32>; 16],
    pub status: Status,
}

/// Where a backend's results came from, for manifests and reports.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Producer {
    /// Backend spelled as on the command line, e.g. `vulkan:lavapipe`.
    pub backend: String,
    pub device: String,
    pub driver: String,
    pub gfx: Option<String>,
}

impl Producer {
    /// The manifest's `producer` object of a dataset these results are written to.
    pub fn manifest(&self) -> rdnaprobe_dataset::ManifestProducer {
        rdnaprobe_dataset::ManifestProducer {
            backend: self.backend.clone(),
            device: self.device.clone(),
            gfx: self.gfx.clone(),
            driver: self.driver.clone(),
            runtime: String::new(),
            rdnaprobe_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: rdnaprobe_dataset::git_commit(),
        }
    }
}

pub trait Backend {
    fn producer(&self) -> Producer;
    /// Runs `rows`; the result has one entry per row, in order.
    fn run(&mut self, rows: &[Row]) -> Vec<RowResult>;

    /// Lets the backend run what its hazard list refuses ([`hazards`]); false where the
    /// backend has no such list (only `hip` runs on a GPU that a body can hang).
    fn allow_hazards(&mut self) -> bool {
        false
    }

    /// Runs the rows of a wave dataset (docs/dataset-format.md, "Wave contract"): consecutive
    /// rows with one wave key are the lanes of one wave. `rows` holds whole waves.
    fn run_waves(&mut self, rows: &[Row], layout: &WaveLayout) -> WaveResults {
        let _ = layout;
        WaveResults::all(
            rows.len(),
            Status::Unsupported("this backend does not run wave datasets yet".into()),
        )
    }
}

pub mod cpu;
pub mod hazards;
pub mod hip;
pub mod hip_wave;
mod key;
pub mod phase;
pub mod vulkan;
pub mod wave;

pub use key::{kernel_key, KernelKey};
pub use wave::WaveResults;

/// Opens a backend from its command-line spelling (the registry: [`BackendName`]): `cpu`,
/// `vulkan`, `vulkan:lavapipe`, `vulkan:nvidia`, `vulkan:radv`, `vulkan:N`, `hip`,
/// `hip:gfx1030`.
pub fn open(spec: &str) -> anyhow::Result<Box<dyn Backend>> {
    open_images(spec, rdnaprobe_recompiler::ImagePath::Software)
}

/// [`open`] with image instructions answered by `images`: the native path is a Vulkan
/// driver's texture unit, so any other backend refuses it.
pub fn open_images(
    spec: &str,
    images: rdnaprobe_recompiler::ImagePath,
) -> anyhow::Result<Box<dyn Backend>> {
    if images == rdnaprobe_recompiler::ImagePath::Native {
        return match BackendName::parse(spec) {
            Some(BackendName::Vulkan(which)) => Ok(Box::new(vulkan::VulkanBackend::open_images(
                which.as_deref(),
                images,
            )?)),
            _ => anyhow::bail!(
                "--images native needs a Vulkan backend (a driver's texture unit), not `{spec}`"
            ),
        };
    }
    match BackendName::parse(spec) {
        Some(BackendName::Cpu) if spec == "cpu" => Ok(Box::new(cpu::CpuBackend::new())),
        Some(BackendName::Vulkan(which)) => {
            Ok(Box::new(vulkan::VulkanBackend::open(which.as_deref())?))
        }
        Some(BackendName::Hip(gfx)) => Ok(Box::new(hip::HipBackend::open(gfx.as_deref())?)),
        Some(BackendName::HipTemplateCpu(gfx)) => {
            Ok(Box::new(hip::HipBackend::cpu_model(gfx.as_deref())?))
        }
        _ => anyhow::bail!("unknown backend `{spec}`: expected {ROW_BACKENDS}"),
    }
}
