//! The executor: one logical Vulkan device running the recompiler's compute modules (its
//! creation, the pipelines, and running jobs through `dispatch` and `memory`).
//!
//! Layout of a batch: every job (one kernel and its rows) is cut into dispatches of at most
//! `maxComputeWorkGroupCount[0] * wave` rows; each dispatch's rows lie contiguously in two
//! persistent host-visible buffers (input: 6 u32 per row, output: 16 u32 per row) at offsets
//! aligned to `minStorageBufferOffsetAlignment`, bound through dynamic storage-buffer
//! descriptors. The whole batch is one command buffer, one queue submit and one fence. Rows of
//! a dispatch start at invocation 0, so a row's lane id is its index within the job modulo the
//! wave size, as on the hardware.

use std::collections::HashMap;
use std::time::Duration;

use anyhow::{bail, Context};
use ash::vk;
use rdnaprobe_isa::Wave;
use rdnaprobe_recompiler::spirv::{SpirvOptions, INPUT_DWORDS, OUTPUT_DWORDS};

use super::device::{DeviceInfo, DeviceSelector};
use super::dispatch::{plan_batches, plan_dispatches};
use super::images::ImageLayout;
use super::memory::{destroy_buffer, destroy_local, HostBuffer, LocalBuffer};

/// How long one batch may run before the device is considered hung.
pub(super) const FENCE_TIMEOUT: Duration = Duration::from_secs(300);
/// Largest output bytes one submit writes; bigger batches are split into several submits.
pub(super) const MAX_BATCH_OUTPUT_BYTES: u64 = 256 << 20;

pub(super) const IN_ROW_BYTES: u64 = INPUT_DWORDS as u64 * 4;
/// Push constants: `{ row_count }` for buffered inputs, `{ row_count, base_lo, base_hi }` for
/// generated ones (see `rdnaprobe_recompiler::spirv::InputSource`).
pub(super) const PUSH_BYTES: u32 = 12;
pub(super) const OUT_ROW_BYTES: u64 = OUTPUT_DWORDS as u64 * 4;

/// A compute pipeline made by [`Executor::pipeline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineId(pub(super) usize);

/// One kernel's rows.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    pub pipeline: PipelineId,
    pub inputs: &'a [[u32; 6]],
}

pub(super) struct Pipeline {
    pub(super) module: vk::ShaderModule,
    pub(super) pipeline: vk::Pipeline,
    pub(super) wave: u32,
    /// The layout it was made with: `Executor::layout`, or for a module with native images
    /// that of [`Executor::image_wave_pipeline`] (set 0 and push constants as `layout`).
    pub(super) layout: vk::PipelineLayout,
    /// The combined image samplers of its set 1 (0: no set 1).
    pub(super) images: u32,
}

/// A Vulkan device ready to run compute modules written by `rdnaprobe_recompiler::spirv`.
pub struct Executor {
    pub(super) _entry: ash::Entry,
    pub(super) instance: ash::Instance,
    pub(super) device: ash::Device,
    pub(super) info: DeviceInfo,
    pub(super) physical: vk::PhysicalDevice,
    pub(super) options: SpirvOptions,
    pub(super) memory: vk::PhysicalDeviceMemoryProperties,
    pub(super) align: u64,
    pub(super) max_groups: u32,
    pub(super) max_range: u64,
    pub(super) queue: vk::Queue,
    pub(super) command_pool: vk::CommandPool,
    pub(super) cmd: vk::CommandBuffer,
    pub(super) fence: vk::Fence,
    pub(super) set_layout: vk::DescriptorSetLayout,
    pub(super) layout: vk::PipelineLayout,
    pub(super) descriptor_pool: vk::DescriptorPool,
    pub(super) set: vk::DescriptorSet,
    pub(super) cache: vk::PipelineCache,
    pub(super) pipelines: Vec<Pipeline>,
    /// Pipelines by (words, rows per workgroup, images).
    pub(super) by_words: HashMap<(Vec<u32>, u32, u32), PipelineId>,
    /// Set-1 and pipeline layouts of modules with native images, by image count (`images`).
    /// Per binding of set 1: a storage image (true) or a combined image sampler.
    pub(super) image_layouts: HashMap<Vec<bool>, ImageLayout>,
    pub(super) input: Option<HostBuffer>,
    pub(super) output: Option<HostBuffer>,
    /// Device-local outputs of hashed runs (`block_hash`).
    pub(super) local_output: Option<LocalBuffer>,
}

impl Executor {
    /// Opens the device `selector` names.
    pub fn open(selector: &DeviceSelector) -> anyhow::Result<Executor> {
        let entry = super::instance::load_entry()?;
        let instance = super::instance::create_instance(&entry)?;
        // `entry` owns the loader library: the clone handed to open_on keeps it loaded, and
        // this one keeps it loaded until the instance is destroyed on the error path.
        match Self::open_on(entry.clone(), instance.clone(), selector) {
            Ok(e) => Ok(e),
            Err(err) => {
                // SAFETY: open_on destroyed whatever it created from the instance before failing;
                // the loader is still loaded through `entry`.
                unsafe { instance.destroy_instance(None) };
                drop(entry);
                Err(err)
            }
        }
    }

    fn open_on(
        entry: ash::Entry,
        instance: ash::Instance,
        selector: &DeviceSelector,
    ) -> anyhow::Result<Executor> {
        // SAFETY: every handle below is created from `instance`/`device` and destroyed in
        // reverse order, on error paths by `Partial`'s drop or by `Executor::drop`.
        unsafe {
            let (pds, probes) = super::device::probe_all(&instance)?;
            let infos: Vec<DeviceInfo> = probes.iter().map(|p| p.info.clone()).collect();
            let idx = selector.choose(&infos)?;
            let pd = pds[idx];
            let probe = &probes[idx];
            if probe.api_version < vk::API_VERSION_1_1 {
                bail!(
                    "{} supports Vulkan {} only; rdnaprobe needs 1.1",
                    probe.info.name,
                    probe.info.api_version
                );
            }
            let families = instance.get_physical_device_queue_family_properties(pd);
            let family = families
                .iter()
                .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
                .with_context(|| format!("{} has no compute queue", probe.info.name))?
                as u32;

            let (features, options) = super::device::features_and_options(probe);
            let mut extensions: Vec<*const std::ffi::c_char> = vec![];
            if probe.needs_fc_ext {
                extensions.push(ash::khr::shader_float_controls::NAME.as_ptr());
            }
            let priorities = [1.0f32];
            let queue_info = [vk::DeviceQueueCreateInfo::default()
                .queue_family_index(family)
                .queue_priorities(&priorities)];
            let device_info = vk::DeviceCreateInfo::default()
                .queue_create_infos(&queue_info)
                .enabled_features(&features)
                .enabled_extension_names(&extensions);
            let device = instance
                .create_device(pd, &device_info, None)
                .with_context(|| format!("vkCreateDevice on {}", probe.info.name))?;
            let mut p = Partial {
                device: device.clone(),
                objects: vec![],
                armed: true,
            };
            let queue = device.get_device_queue(family, 0);
            let command_pool = device
                .create_command_pool(
                    &vk::CommandPoolCreateInfo::default()
                        .queue_family_index(family)
                        .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER),
                    None,
                )
                .context("vkCreateCommandPool")?;
            p.objects.push(Obj::CommandPool(command_pool));
            let cmd = device
                .allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(command_pool)
                        .level(vk::CommandBufferLevel::PRIMARY)
                        .command_buffer_count(1),
                )
                .context("vkAllocateCommandBuffers")?[0];
            let fence = device
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .context("vkCreateFence")?;
            p.objects.push(Obj::Fence(fence));
            let (set_layout, layout) = wave_layout(&device)?;
            p.objects.push(Obj::SetLayout(set_layout));
            let set_layouts = [set_layout];
            p.objects.push(Obj::Layout(layout));
            let sizes = [vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::STORAGE_BUFFER_DYNAMIC)
                .descriptor_count(2)];
            let descriptor_pool = device
                .create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(1)
                        .pool_sizes(&sizes),
                    None,
                )
                .context("vkCreateDescriptorPool")?;
            p.objects.push(Obj::DescriptorPool(descriptor_pool));
            let set = device
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(descriptor_pool)
                        .set_layouts(&set_layouts),
                )
                .context("vkAllocateDescriptorSets")?[0];
            let cache = device
                .create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None)
                .context("vkCreatePipelineCache")?;
            p.objects.push(Obj::Cache(cache));
            p.armed = false;

            let limits = &probe.limits;
            Ok(Executor {
                memory: instance.get_physical_device_memory_properties(pd),
                align: limits.min_storage_buffer_offset_alignment.max(4),
                max_groups: limits.max_compute_work_group_count[0].max(1),
                max_range: u64::from(limits.max_storage_buffer_range),
                info: probe.info.clone(),
                physical: pd,
                options,
                _entry: entry,
                instance,
                device,
                queue,
                command_pool,
                cmd,
                fence,
                set_layout,
                layout,
                descriptor_pool,
                set,
                cache,
                pipelines: vec![],
                by_words: HashMap::new(),
                image_layouts: HashMap::new(),
                input: None,
                output: None,
                local_output: None,
            })
        }
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// What the SPIR-V backend may use on this device.
    pub fn spirv_options(&self) -> SpirvOptions {
        self.options
    }

    /// The compute pipeline for `spirv` (an `emit`ted module for `wave`), made once per module.
    pub fn pipeline(&mut self, spirv: &[u32], wave: Wave) -> anyhow::Result<PipelineId> {
        self.pipeline_per_group(spirv, wave.lanes())
    }

    /// The compute pipeline for `spirv` whose workgroups each take `unit` rows of a dispatch
    /// (the wave size for lane-contract modules, 1 for wave modules, where a row is a wave).
    pub(super) fn pipeline_per_group(
        &mut self,
        spirv: &[u32],
        unit: u32,
    ) -> anyhow::Result<PipelineId> {
        self.pipeline_in_layout(spirv, unit, 0, self.layout)
    }

    /// [`Self::pipeline_per_group`] made with `layout`, whose set 1 has `images` combined
    /// image samplers (0: `layout` is `self.layout`).
    pub(super) fn pipeline_in_layout(
        &mut self,
        spirv: &[u32],
        unit: u32,
        images: u32,
        layout: vk::PipelineLayout,
    ) -> anyhow::Result<PipelineId> {
        let key = (spirv.to_vec(), unit, images);
        if let Some(&id) = self.by_words.get(&key) {
            return Ok(id);
        }
        // Before the driver sees it: a module that never compiles is kept too.
        super::save_module(spirv)?;
        // SAFETY: the module and pipeline are created on our device and kept until drop.
        unsafe {
            let (module, pipeline) = create_compute(
                &self.device,
                self.cache,
                spirv,
                layout,
                vk::PipelineCreateFlags::empty(),
            )?;
            let id = PipelineId(self.pipelines.len());
            self.pipelines.push(Pipeline {
                module,
                pipeline,
                wave: unit,
                layout,
                images,
            });
            self.by_words.insert(key, id);
            Ok(id)
        }
    }

    /// Runs every job and returns each job's rows of sixteen output dwords, in order.
    pub fn run(&mut self, jobs: &[Job<'_>]) -> anyhow::Result<Vec<Vec<[u32; 16]>>> {
        let mut results: Vec<Vec<[u32; 16]>> = jobs
            .iter()
            .map(|j| vec![[0u32; 16]; j.inputs.len()])
            .collect();
        let mut shapes = Vec::with_capacity(jobs.len());
        for job in jobs {
            let pipe = self
                .pipelines
                .get(job.pipeline.0)
                .with_context(|| format!("unknown pipeline {:?}", job.pipeline))?;
            shapes.push((job.inputs.len(), pipe.wave));
        }
        let max_rows = (self.max_range / OUT_ROW_BYTES).min(MAX_BATCH_OUTPUT_BYTES / OUT_ROW_BYTES);
        let pending = plan_dispatches(&shapes, self.max_groups, max_rows);
        for range in plan_batches(&pending, self.align, OUT_ROW_BYTES, MAX_BATCH_OUTPUT_BYTES) {
            let parts = &pending[range];
            let pipelines: Vec<PipelineId> = parts.iter().map(|p| jobs[p.0].pipeline).collect();
            let dispatches = self.layout_dispatches(parts, IN_ROW_BYTES, OUT_ROW_BYTES)?;
            let Some(input) = &self.input else {
                bail!("internal: buffers missing after allocation");
            };
            // SAFETY: the fence of the previous batch was waited for, so no GPU work touches
            // the buffers; `layout_dispatches` sized them for every dispatch's rows.
            unsafe {
                for d in &dispatches.list {
                    let rows = &jobs[d.job].inputs[d.first_row..d.first_row + d.rows];
                    let dst = input.ptr.add(d.in_offset as usize) as *mut u32;
                    for (r, row) in rows.iter().enumerate() {
                        std::ptr::copy_nonoverlapping(row.as_ptr(), dst.add(r * 6), 6);
                    }
                }
            }
            self.execute(&dispatches, &pipelines, |d| [d.rows as u32, 0, 0])?;
            let Some(output) = &self.output else {
                bail!("internal: output buffer missing");
            };
            // SAFETY: the batch's fence was waited for; offsets are inside the buffer.
            unsafe {
                for d in &dispatches.list {
                    let src = output.ptr.add(d.out_offset as usize) as *const u32;
                    let out = &mut results[d.job][d.first_row..d.first_row + d.rows];
                    for (r, row) in out.iter_mut().enumerate() {
                        std::ptr::copy_nonoverlapping(src.add(r * 16), row.as_mut_ptr(), 16);
                    }
                }
            }
        }
        Ok(results)
    }

    /// Runs `rows` rows of a module emitted with generated inputs
    /// (`rdnaprobe_recompiler::spirv::InputSource::Generated`) and `stride` stored output
    /// dwords per row, rows `base .. base + rows` of its generator; returns `rows * stride`
    /// words. `base` must be a multiple of the wave size, so that lane ids stay those of the
    /// whole sweep. Nothing is uploaded: only the stored dwords cross the bus.
    pub fn run_generated(
        &mut self,
        pipeline: PipelineId,
        base: u64,
        rows: usize,
        stride: usize,
    ) -> anyhow::Result<Vec<u32>> {
        let wave = self
            .pipelines
            .get(pipeline.0)
            .with_context(|| format!("unknown pipeline {pipeline:?}"))?
            .wave;
        anyhow::ensure!(
            (1..=16).contains(&stride),
            "{stride} output dwords per row (expected 1..=16)"
        );
        anyhow::ensure!(
            base % u64::from(wave) == 0,
            "first row {base} is not a multiple of the wave size {wave}"
        );
        let row_bytes = stride as u64 * 4;
        let mut result = vec![0u32; rows * stride];
        let max_rows = (self.max_range / row_bytes).min(MAX_BATCH_OUTPUT_BYTES / row_bytes);
        let pending = plan_dispatches(&[(rows, wave)], self.max_groups, max_rows);
        for range in plan_batches(&pending, self.align, row_bytes, MAX_BATCH_OUTPUT_BYTES) {
            let parts = &pending[range];
            let dispatches = self.layout_dispatches(parts, 0, row_bytes)?;
            self.execute(&dispatches, &vec![pipeline; parts.len()], |d| {
                let first = base + d.first_row as u64;
                [d.rows as u32, first as u32, (first >> 32) as u32]
            })?;
            let Some(output) = &self.output else {
                bail!("internal: output buffer missing");
            };
            // SAFETY: the batch's fence was waited for; offsets are inside the buffer.
            unsafe {
                for d in &dispatches.list {
                    let words = d.rows * stride;
                    std::ptr::copy_nonoverlapping(
                        output.ptr.add(d.out_offset as usize) as *const u32,
                        result[d.first_row * stride..].as_mut_ptr(),
                        words,
                    );
                }
            }
        }
        Ok(result)
    }
}

impl Drop for Executor {
    fn drop(&mut self) {
        // SAFETY: waiting for idle first makes every object unused; each is destroyed once.
        unsafe {
            let _ = self.device.device_wait_idle();
            if let Some(b) = self.local_output.take() {
                destroy_local(&self.device, b);
            }
            for b in [self.input.take(), self.output.take()]
                .into_iter()
                .flatten()
            {
                destroy_buffer(&self.device, b);
            }
            for p in self.pipelines.drain(..) {
                self.device.destroy_pipeline(p.pipeline, None);
                self.device.destroy_shader_module(p.module, None);
            }
            self.destroy_image_layouts();
            self.device.destroy_pipeline_cache(self.cache, None);
            self.device
                .destroy_descriptor_pool(self.descriptor_pool, None);
            self.device.destroy_pipeline_layout(self.layout, None);
            self.device
                .destroy_descriptor_set_layout(self.set_layout, None);
            self.device.destroy_fence(self.fence, None);
            self.device.destroy_command_pool(self.command_pool, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// Objects created while opening, destroyed (with the device) if opening fails half-way.
enum Obj {
    CommandPool(vk::CommandPool),
    Fence(vk::Fence),
    SetLayout(vk::DescriptorSetLayout),
    Layout(vk::PipelineLayout),
    DescriptorPool(vk::DescriptorPool),
    Cache(vk::PipelineCache),
}

struct Partial {
    device: ash::Device,
    objects: Vec<Obj>,
    /// Cleared once the `Executor` owns everything.
    armed: bool,
}

impl Drop for Partial {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        // SAFETY: nothing was submitted; objects are destroyed in reverse creation order.
        unsafe {
            for o in self.objects.drain(..).rev() {
                match o {
                    Obj::CommandPool(x) => self.device.destroy_command_pool(x, None),
                    Obj::Fence(x) => self.device.destroy_fence(x, None),
                    Obj::SetLayout(x) => self.device.destroy_descriptor_set_layout(x, None),
                    Obj::Layout(x) => self.device.destroy_pipeline_layout(x, None),
                    Obj::DescriptorPool(x) => self.device.destroy_descriptor_pool(x, None),
                    Obj::Cache(x) => self.device.destroy_pipeline_cache(x, None),
                }
            }
            self.device.destroy_device(None);
        }
    }
}

/// The layout of every module the recompiler emits: set 0 with the input and output storage
/// buffers (bindings 0 and 1, dynamic offsets), and [`PUSH_BYTES`] of push constants.
pub(crate) fn wave_layout(
    device: &ash::Device,
) -> anyhow::Result<(vk::DescriptorSetLayout, vk::PipelineLayout)> {
    let bindings = [0u32, 1].map(|b| {
        vk::DescriptorSetLayoutBinding::default()
            .binding(b)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER_DYNAMIC)
            .descriptor_count(1)
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
    });
    // SAFETY: plain object creation on a live device; on failure the set layout is destroyed.
    unsafe {
        let set_layout = device
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
            .context("vkCreateDescriptorSetLayout")?;
        let push = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .offset(0)
            .size(PUSH_BYTES)];
        let set_layouts = [set_layout];
        match device.create_pipeline_layout(
            &vk::PipelineLayoutCreateInfo::default()
                .set_layouts(&set_layouts)
                .push_constant_ranges(&push),
            None,
        ) {
            Ok(layout) => Ok((set_layout, layout)),
            Err(e) => {
                device.destroy_descriptor_set_layout(set_layout, None);
                Err(anyhow::anyhow!("vkCreatePipelineLayout: {e}"))
            }
        }
    }
}

/// A shader module of `spirv` (entry point `main`) and its compute pipeline in `layout`, made
/// with `flags`; on failure the module is destroyed again.
///
/// # Safety
/// `device`, `cache` and `layout` are live objects of one device; the caller destroys the
/// module and the pipeline.
pub(crate) unsafe fn create_compute(
    device: &ash::Device,
    cache: vk::PipelineCache,
    spirv: &[u32],
    layout: vk::PipelineLayout,
    flags: vk::PipelineCreateFlags,
) -> anyhow::Result<(vk::ShaderModule, vk::Pipeline)> {
    // SAFETY: as the caller promises; the create infos live across the calls.
    unsafe {
        let module = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None)
            .context("vkCreateShaderModule")?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let info = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(layout)
            .flags(flags)];
        match device.create_compute_pipelines(cache, &info, None) {
            Ok(p) => Ok((module, p[0])),
            Err((_, e)) => {
                device.destroy_shader_module(module, None);
                Err(e).context("vkCreateComputePipelines")
            }
        }
    }
}
