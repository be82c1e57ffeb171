//! One logical Vulkan device running the recompiler's compute modules.
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
use rdnaprobe_recompiler::spirv::{FloatControls, SpirvOptions, INPUT_DWORDS, OUTPUT_DWORDS};

use super::{DeviceInfo, DeviceSelector, Probe};

/// How long one batch may run before the device is considered hung.
const FENCE_TIMEOUT: Duration = Duration::from_secs(300);
/// Largest output bytes one submit writes; bigger batches are split into several submits.
const MAX_BATCH_OUTPUT_BYTES: u64 = 256 << 20;

const IN_ROW_BYTES: u64 = INPUT_DWORDS as u64 * 4;
/// Push constants: `{ row_count }` for buffered inputs, `{ row_count, base_lo, base_hi }` for
/// generated ones (see `rdnaprobe_recompiler::spirv::InputSource`).
const PUSH_BYTES: u32 = 12;
const OUT_ROW_BYTES: u64 = OUTPUT_DWORDS as u64 * 4;

/// A compute pipeline made by [`Executor::pipeline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineId(usize);

/// One kernel's rows.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    pub pipeline: PipelineId,
    pub inputs: &'a [[u32; 6]],
}

struct Pipeline {
    module: vk::ShaderModule,
    pipeline: vk::Pipeline,
    wave: u32,
}

/// A host-visible, host-coherent storage buffer, mapped for its whole life.
struct HostBuffer {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: u64,
    ptr: *mut u8,
}

/// The dispatches of one submit and the descriptor ranges they bind.
struct Dispatches {
    list: Vec<Dispatch>,
    in_range: u64,
    out_range: u64,
}

/// One dispatch of a batch: a slice of a job's rows.
struct Dispatch {
    job: usize,
    first_row: usize,
    rows: usize,
    in_offset: u64,
    out_offset: u64,
}

/// A Vulkan device ready to run compute modules written by `rdnaprobe_recompiler::spirv`.
pub struct Executor {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    info: DeviceInfo,
    options: SpirvOptions,
    memory: vk::PhysicalDeviceMemoryProperties,
    align: u64,
    max_groups: u32,
    max_range: u64,
    queue: vk::Queue,
    command_pool: vk::CommandPool,
    cmd: vk::CommandBuffer,
    fence: vk::Fence,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    descriptor_pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
    cache: vk::PipelineCache,
    pipelines: Vec<Pipeline>,
    by_words: HashMap<(Vec<u32>, u32), PipelineId>,
    input: Option<HostBuffer>,
    output: Option<HostBuffer>,
}

impl Executor {
    /// Opens the device `selector` names.
    pub fn open(selector: &DeviceSelector) -> anyhow::Result<Executor> {
        let entry = super::load_entry()?;
        let instance = super::create_instance(&entry)?;
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
            let pds = instance
                .enumerate_physical_devices()
                .context("vkEnumeratePhysicalDevices")?;
            let probes: Vec<Probe> = pds
                .iter()
                .enumerate()
                .map(|(i, &pd)| super::probe(&instance, i, pd))
                .collect();
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

            let float64 = probe.features.shader_float64 == vk::TRUE;
            let int64 = probe.features.shader_int64 == vk::TRUE;
            let features = vk::PhysicalDeviceFeatures::default()
                .shader_float64(float64)
                .shader_int64(int64);
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
            // RDNAPROBE_FLOAT_CONTROLS=0 emits no float-controls execution modes even where the
            // device advertises them: the IR never needs them, so this isolates driver paths.
            let fc = if std::env::var("RDNAPROBE_FLOAT_CONTROLS").is_ok_and(|v| v == "0") {
                Default::default()
            } else {
                probe.float_controls.unwrap_or_default()
            };
            let options = SpirvOptions {
                float64,
                int64,
                float_controls: FloatControls {
                    denorm_preserve_32: fc.denorm_preserve[0],
                    denorm_preserve_64: fc.denorm_preserve[1] && float64,
                    signed_zero_inf_nan_preserve_32: fc.signed_zero_inf_nan_preserve[0],
                    signed_zero_inf_nan_preserve_64: fc.signed_zero_inf_nan_preserve[1] && float64,
                    rounding_rte_32: fc.rounding_rte[0],
                    rounding_rte_64: fc.rounding_rte[1] && float64,
                },
            };

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
            let bindings = [0u32, 1].map(|b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER_DYNAMIC)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            });
            let set_layout = device
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                    None,
                )
                .context("vkCreateDescriptorSetLayout")?;
            p.objects.push(Obj::SetLayout(set_layout));
            let push = [vk::PushConstantRange::default()
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
                .offset(0)
                .size(PUSH_BYTES)];
            let set_layouts = [set_layout];
            let layout = device
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default()
                        .set_layouts(&set_layouts)
                        .push_constant_ranges(&push),
                    None,
                )
                .context("vkCreatePipelineLayout")?;
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
                input: None,
                output: None,
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
        let key = (spirv.to_vec(), wave.lanes());
        if let Some(&id) = self.by_words.get(&key) {
            return Ok(id);
        }
        // SAFETY: the module and pipeline are created on our device and kept until drop.
        unsafe {
            let module = self
                .device
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None)
                .context("vkCreateShaderModule")?;
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"main");
            let info = [vk::ComputePipelineCreateInfo::default()
                .stage(stage)
                .layout(self.layout)];
            let pipeline = match self
                .device
                .create_compute_pipelines(self.cache, &info, None)
            {
                Ok(p) => p[0],
                Err((_, e)) => {
                    self.device.destroy_shader_module(module, None);
                    return Err(e).context("vkCreateComputePipelines");
                }
            };
            let id = PipelineId(self.pipelines.len());
            self.pipelines.push(Pipeline {
                module,
                pipeline,
                wave: wave.lanes(),
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

    /// Places the dispatches `parts` (job, first row, rows) in the input and output buffers at
    /// aligned offsets, growing the buffers as needed.
    fn layout_dispatches(
        &mut self,
        parts: &[(usize, usize, usize)],
        in_row_bytes: u64,
        out_row_bytes: u64,
    ) -> anyhow::Result<Dispatches> {
        let align = |x: u64| x.div_ceil(self.align) * self.align;
        let mut list = Vec::with_capacity(parts.len());
        let (mut in_end, mut out_end) = (0u64, 0u64);
        let (mut in_range, mut out_range) = (in_row_bytes.max(4), out_row_bytes);
        for &(job, first_row, rows) in parts {
            list.push(Dispatch {
                job,
                first_row,
                rows,
                in_offset: in_end,
                out_offset: out_end,
            });
            in_range = in_range.max(rows as u64 * in_row_bytes);
            out_range = out_range.max(rows as u64 * out_row_bytes);
            in_end = align(in_end + rows as u64 * in_row_bytes);
            out_end = align(out_end + rows as u64 * out_row_bytes);
        }
        // Every dynamic offset plus the fixed range must stay inside the buffer.
        let last = list.last().map_or((0, 0), |d| (d.in_offset, d.out_offset));
        let in_size = (last.0 + in_range).max(in_end);
        let out_size = (last.1 + out_range).max(out_end);
        self.ensure_buffers(in_size, out_size)?;
        Ok(Dispatches {
            list,
            in_range,
            out_range,
        })
    }

    /// Records `dispatches` (the i-th with `pipelines[i]` and the push constants `push` gives
    /// it) into one command buffer, submits it and waits for its fence.
    fn execute(
        &mut self,
        dispatches: &Dispatches,
        pipelines: &[PipelineId],
        push: impl Fn(&Dispatch) -> [u32; 3],
    ) -> anyhow::Result<()> {
        if dispatches.list.is_empty() {
            return Ok(());
        }
        let (Some(input), Some(output)) = (&self.input, &self.output) else {
            bail!("internal: buffers missing after allocation");
        };
        // SAFETY: the fence of the previous batch was waited for, so no GPU work uses the
        // descriptor set or the command buffer; every handle belongs to this device.
        unsafe {
            let in_info = [vk::DescriptorBufferInfo {
                buffer: input.buffer,
                offset: 0,
                range: dispatches.in_range,
            }];
            let out_info = [vk::DescriptorBufferInfo {
                buffer: output.buffer,
                offset: 0,
                range: dispatches.out_range,
            }];
            let writes = [
                vk::WriteDescriptorSet::default()
                    .dst_set(self.set)
                    .dst_binding(0)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER_DYNAMIC)
                    .buffer_info(&in_info),
                vk::WriteDescriptorSet::default()
                    .dst_set(self.set)
                    .dst_binding(1)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER_DYNAMIC)
                    .buffer_info(&out_info),
            ];
            self.device.update_descriptor_sets(&writes, &[]);

            let dev = &self.device;
            dev.reset_command_buffer(self.cmd, vk::CommandBufferResetFlags::empty())
                .context("vkResetCommandBuffer")?;
            dev.begin_command_buffer(
                self.cmd,
                &vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
            .context("vkBeginCommandBuffer")?;
            let host_write = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::HOST_WRITE)
                .dst_access_mask(vk::AccessFlags::SHADER_READ)];
            dev.cmd_pipeline_barrier(
                self.cmd,
                vk::PipelineStageFlags::HOST,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &host_write,
                &[],
                &[],
            );
            let mut bound = None;
            for (d, id) in dispatches.list.iter().zip(pipelines) {
                let pipe = &self.pipelines[id.0];
                if bound != Some(pipe.pipeline) {
                    dev.cmd_bind_pipeline(self.cmd, vk::PipelineBindPoint::COMPUTE, pipe.pipeline);
                    bound = Some(pipe.pipeline);
                }
                let offsets = [d.in_offset as u32, d.out_offset as u32];
                dev.cmd_bind_descriptor_sets(
                    self.cmd,
                    vk::PipelineBindPoint::COMPUTE,
                    self.layout,
                    0,
                    &[self.set],
                    &offsets,
                );
                let words = push(d);
                let mut bytes = [0u8; PUSH_BYTES as usize];
                for (b, w) in bytes.chunks_exact_mut(4).zip(words) {
                    b.copy_from_slice(&w.to_ne_bytes());
                }
                dev.cmd_push_constants(
                    self.cmd,
                    self.layout,
                    vk::ShaderStageFlags::COMPUTE,
                    0,
                    &bytes,
                );
                dev.cmd_dispatch(self.cmd, (d.rows as u32).div_ceil(pipe.wave), 1, 1);
            }
            let to_host = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            dev.cmd_pipeline_barrier(
                self.cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &to_host,
                &[],
                &[],
            );
            dev.end_command_buffer(self.cmd)
                .context("vkEndCommandBuffer")?;
            let cmds = [self.cmd];
            let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
            dev.queue_submit(self.queue, &submit, self.fence)
                .context("vkQueueSubmit")?;
            let waited = dev.wait_for_fences(&[self.fence], true, FENCE_TIMEOUT.as_nanos() as u64);
            if let Err(e) = waited {
                // The fence may still be pending; wait for the device before reusing anything.
                let _ = dev.device_wait_idle();
                let _ = dev.reset_fences(&[self.fence]);
                return Err(e).with_context(|| {
                    format!(
                        "waiting for {} dispatches (timeout {FENCE_TIMEOUT:?})",
                        dispatches.list.len()
                    )
                });
            }
            dev.reset_fences(&[self.fence]).context("vkResetFences")?;
        }
        Ok(())
    }

    /// Makes both buffers at least this large (growing by doubling, never shrinking).
    fn ensure_buffers(&mut self, in_size: u64, out_size: u64) -> anyhow::Result<()> {
        for (is_input, need) in [(true, in_size), (false, out_size)] {
            let slot = if is_input { &self.input } else { &self.output };
            if slot.as_ref().is_some_and(|b| b.size >= need) {
                continue;
            }
            let old_size = slot.as_ref().map_or(0, |b| b.size);
            let size = need.max(old_size * 2).max(64 << 10);
            let new = self.create_buffer(size, !is_input)?;
            let slot = if is_input {
                &mut self.input
            } else {
                &mut self.output
            };
            if let Some(old) = slot.replace(new) {
                // SAFETY: no GPU work is pending (the last fence was waited for).
                unsafe { destroy_buffer(&self.device, old) };
            }
        }
        Ok(())
    }

    /// A mapped storage buffer. `readback` buffers prefer host-cached memory: the host reads
    /// every result word back, and uncached (write-combined) memory reads at a small fraction
    /// of the bus speed on discrete GPUs.
    fn create_buffer(&self, size: u64, readback: bool) -> anyhow::Result<HostBuffer> {
        // SAFETY: plain object creation on our device; freed on every error path.
        unsafe {
            let buffer = self
                .device
                .create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(size)
                        .usage(vk::BufferUsageFlags::STORAGE_BUFFER)
                        .sharing_mode(vk::SharingMode::EXCLUSIVE),
                    None,
                )
                .with_context(|| format!("vkCreateBuffer ({size} bytes)"))?;
            let req = self.device.get_buffer_memory_requirements(buffer);
            let wanted =
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
            let cached = wanted | vk::MemoryPropertyFlags::HOST_CACHED;
            let preferences: &[vk::MemoryPropertyFlags] = if readback {
                &[cached, wanted]
            } else {
                &[wanted]
            };
            let Some(type_index) = preferences.iter().find_map(|&flags| {
                (0..self.memory.memory_type_count).find(|&i| {
                    req.memory_type_bits & (1 << i) != 0
                        && self.memory.memory_types[i as usize]
                            .property_flags
                            .contains(flags)
                })
            }) else {
                self.device.destroy_buffer(buffer, None);
                bail!(
                    "{} has no host-visible coherent memory for storage buffers",
                    self.info.name
                );
            };
            let memory = match self.device.allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(req.size)
                    .memory_type_index(type_index),
                None,
            ) {
                Ok(m) => m,
                Err(e) => {
                    self.device.destroy_buffer(buffer, None);
                    return Err(e)
                        .with_context(|| format!("vkAllocateMemory ({} bytes)", req.size));
                }
            };
            let mapped = self
                .device
                .bind_buffer_memory(buffer, memory, 0)
                .and_then(|()| {
                    self.device
                        .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                });
            match mapped {
                Ok(ptr) => Ok(HostBuffer {
                    buffer,
                    memory,
                    size,
                    ptr: ptr as *mut u8,
                }),
                Err(e) => {
                    self.device.destroy_buffer(buffer, None);
                    self.device.free_memory(memory, None);
                    Err(e).context("binding or mapping buffer memory")
                }
            }
        }
    }
}

/// Cuts jobs, given as (rows, wave), into dispatches (job, first row, rows): at most
/// `max_groups` workgroups and `max_rows` rows each, and a multiple of the wave except for a
/// job's last dispatch, so that lane ids (row index modulo wave) stay those of the whole job.
fn plan_dispatches(
    jobs: &[(usize, u32)],
    max_groups: u32,
    max_rows: u64,
) -> Vec<(usize, usize, usize)> {
    let mut out = vec![];
    for (j, &(len, wave)) in jobs.iter().enumerate() {
        let wave = u64::from(wave.max(1));
        let by_groups = u64::from(max_groups.max(1)) * wave;
        let per = (by_groups.min(max_rows) / wave).max(1) * wave;
        let per = usize::try_from(per).unwrap_or(usize::MAX);
        let mut first = 0;
        while first < len {
            let rows = per.min(len - first);
            out.push((j, first, rows));
            first += rows;
        }
    }
    out
}

/// Groups consecutive dispatches into submits whose aligned output stays within `cap` bytes
/// (a single dispatch larger than `cap` still gets a submit of its own).
fn plan_batches(
    parts: &[(usize, usize, usize)],
    align: u64,
    row_bytes: u64,
    cap: u64,
) -> Vec<std::ops::Range<usize>> {
    let mut out = vec![];
    let mut start = 0;
    while start < parts.len() {
        let mut end = start;
        let mut bytes = 0u64;
        while end < parts.len() {
            let add = parts[end].2 as u64 * row_bytes + align;
            if end > start && bytes + add > cap {
                break;
            }
            bytes += add;
            end += 1;
        }
        out.push(start..end);
        start = end;
    }
    out
}

/// # Safety
/// No pending GPU work may use `b`.
unsafe fn destroy_buffer(device: &ash::Device, b: HostBuffer) {
    // SAFETY: the caller guarantees the buffer is idle.
    unsafe {
        device.unmap_memory(b.memory);
        device.destroy_buffer(b.buffer, None);
        device.free_memory(b.memory, None);
    }
}

impl Drop for Executor {
    fn drop(&mut self) {
        // SAFETY: waiting for idle first makes every object unused; each is destroyed once.
        unsafe {
            let _ = self.device.device_wait_idle();
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

#[cfg(test)]
mod plan_tests {
    use super::*;

    #[test]
    fn dispatches_respect_limits_and_waves() {
        // 100 rows of wave 32 with at most 2 groups per dispatch: 64 + 36.
        assert_eq!(
            plan_dispatches(&[(100, 32)], 2, u64::MAX),
            vec![(0, 0, 64), (0, 64, 36)]
        );
        // A row cap that is not a multiple of the wave rounds down to one.
        assert_eq!(
            plan_dispatches(&[(100, 64), (0, 32), (3, 32)], 65535, 100),
            vec![(0, 0, 64), (0, 64, 36), (2, 0, 3)]
        );
        // A cap below one wave still makes progress, one wave at a time.
        assert_eq!(
            plan_dispatches(&[(40, 32)], 1, 1),
            vec![(0, 0, 32), (0, 32, 8)]
        );
    }

    #[test]
    fn batches_split_at_the_output_cap() {
        let parts = [(0, 0, 10), (0, 10, 10), (1, 0, 10), (2, 0, 1000)];
        let per = 10 * OUT_ROW_BYTES + 256;
        assert_eq!(
            plan_batches(&parts, 256, OUT_ROW_BYTES, 2 * per),
            vec![0..2, 2..3, 3..4]
        );
        assert_eq!(
            plan_batches(&parts, 256, OUT_ROW_BYTES, u64::MAX),
            vec![0..4]
        );
        assert!(plan_batches(&[], 256, OUT_ROW_BYTES, 1).is_empty());
    }
}
