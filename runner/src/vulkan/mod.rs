//! The Vulkan executor: runs the recompiler's SPIR-V modules on any Vulkan driver through ash,
//! with the loader (`libvulkan.so.1`) opened at run time so that the binary starts, and the
//! other backends work, on machines without Vulkan.
//!
//! Devices are chosen by driver (`lavapipe`, `nvidia`, `radv`), by index in the loader's
//! enumeration order, or, with no choice, the first discrete GPU else the first device.
//! [`Executor`] owns one logical device, a pipeline cache and persistent host-visible buffers.
//!
//! Modules: [`instance`] (loader and instance), [`device`] (what each device is and which one
//! a selector means), `exec` (the executor: the logical device, pipelines, running jobs),
//! `memory` (mapped buffers), `dispatch` (how rows become dispatches and submits),
//! `block_hash` with [`hash_module`] (the device block hash run after a kernel), and `images`
//! with `image_check` (the native images of wave modules: `Executor::image_wave_pipeline`,
//! `Executor::run_image_wave`).

mod block_hash;
#[cfg(test)]
mod cf_timing_tests;
pub mod device;
mod dispatch;
#[cfg(test)]
mod eval_tests;
mod exec;
pub mod hash_module;
mod image_check;
mod image_copy;
#[cfg(test)]
mod image_tests;
mod images;
pub mod instance;
mod memory;
#[cfg(test)]
mod tests;
mod wave;
#[cfg(test)]
mod wave_tests;

pub use block_hash::HashPipeline;
pub use device::{list_devices, DeviceInfo, DeviceSelector};
pub(crate) use exec::{create_compute, wave_layout};
pub use exec::{Executor, Job, PipelineId};
pub use image_copy::Written;
pub use images::ImageRunError;
pub(crate) use instance::{create_instance, load_entry};
pub use wave::WaveJob;

/// Where every SPIR-V module the process emits is written (`rdnaprobe --save-spirv DIR`).
static SAVE_SPIRV: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Writes every SPIR-V module the process emits from now on into `dir` (created here).
pub fn save_spirv_to(dir: &std::path::Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("--save-spirv {}: {e}", dir.display()))?;
    let _ = SAVE_SPIRV.set(dir.to_path_buf());
    Ok(())
}

/// Writes `spirv` as `DIR/<first 16 hex digits of its SHA-256>.spv` when `--save-spirv DIR` is
/// set (once per module: the name is its content's); gives the path.
pub fn save_module(spirv: &[u32]) -> anyhow::Result<Option<std::path::PathBuf>> {
    use sha2::{Digest, Sha256};
    let Some(dir) = SAVE_SPIRV.get() else {
        return Ok(None);
    };
    let bytes: Vec<u8> = spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
    let sha: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let path = dir.join(format!("{}.spv", &sha[..16]));
    if !path.exists() {
        crate::cmd::assemble::write_atomically(&path, &bytes)?;
    }
    Ok(Some(path))
}
