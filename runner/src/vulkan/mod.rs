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
pub use exec::{Executor, Job, PipelineId};
pub use image_copy::Written;
pub use images::ImageRunError;
pub use wave::WaveJob;
