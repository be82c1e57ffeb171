//! Dispatch: how a batch's rows become dispatches and submits, and the command buffer that
//! runs them.
//!
//! Every job (one kernel and its rows) is cut into dispatches of at most
//! `maxComputeWorkGroupCount[0] * wave` rows; each dispatch's rows lie contiguously in the
//! input and output buffers at offsets aligned to `minStorageBufferOffsetAlignment`, bound
//! through dynamic storage-buffer descriptors. One submit is one command buffer and one fence.

use anyhow::{bail, Context};
use ash::vk;

use super::exec::{Executor, PipelineId, FENCE_TIMEOUT, PUSH_BYTES};

/// The dispatches of one submit and the descriptor ranges they bind.
pub(super) struct Dispatches {
    pub(super) list: Vec<Dispatch>,
    pub(super) in_range: u64,
    pub(super) out_range: u64,
    /// The buffer bound as outputs instead of the mapped output buffer (device-local outputs
    /// of hashed runs), if any.
    pub(super) out_buffer: Option<vk::Buffer>,
    /// The descriptor set bound at set 1 (native images, `images`) with each pipeline's own
    /// layout, if any.
    pub(super) set1: Option<vk::DescriptorSet>,
}

/// One dispatch of a batch: a slice of a job's rows.
#[derive(Clone, Copy)]
pub(super) struct Dispatch {
    pub(super) job: usize,
    pub(super) first_row: usize,
    pub(super) rows: usize,
    pub(super) in_offset: u64,
    pub(super) out_offset: u64,
}

impl Executor {
    /// Places the dispatches `parts` (job, first row, rows) in the input and output buffers at
    /// aligned offsets, growing the buffers as needed.
    pub(super) fn layout_dispatches(
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
            out_buffer: None,
            set1: None,
        })
    }

    /// Records `dispatches` (the i-th with `pipelines[i]` and the push constants `push` gives
    /// it) into one command buffer, submits it and waits for its fence.
    pub(super) fn execute(
        &mut self,
        dispatches: &Dispatches,
        pipelines: &[PipelineId],
        push: impl Fn(&Dispatch) -> [u32; 3],
    ) -> anyhow::Result<()> {
        self.execute_staged(&dispatches.list, dispatches, pipelines, push, None)
    }

    /// [`Self::execute`] of the dispatches `list` (laid out by `dispatches`), with a
    /// compute-to-compute barrier before dispatch `barrier_at` (a second stage that reads what
    /// the first wrote).
    pub(super) fn execute_staged(
        &mut self,
        list: &[Dispatch],
        dispatches: &Dispatches,
        pipelines: &[PipelineId],
        push: impl Fn(&Dispatch) -> [u32; 3],
        barrier_at: Option<usize>,
    ) -> anyhow::Result<()> {
        if list.is_empty() {
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
                buffer: dispatches.out_buffer.unwrap_or(output.buffer),
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
            self.begin_commands()?;
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
            for (i, (d, id)) in list.iter().zip(pipelines).enumerate() {
                if barrier_at == Some(i) {
                    let stage = [vk::MemoryBarrier::default()
                        .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                        .dst_access_mask(vk::AccessFlags::SHADER_READ)];
                    dev.cmd_pipeline_barrier(
                        self.cmd,
                        vk::PipelineStageFlags::COMPUTE_SHADER,
                        vk::PipelineStageFlags::COMPUTE_SHADER,
                        vk::DependencyFlags::empty(),
                        &stage,
                        &[],
                        &[],
                    );
                }
                let pipe = &self.pipelines[id.0];
                if bound != Some(pipe.pipeline) {
                    dev.cmd_bind_pipeline(self.cmd, vk::PipelineBindPoint::COMPUTE, pipe.pipeline);
                    bound = Some(pipe.pipeline);
                }
                let offsets = [d.in_offset as u32, d.out_offset as u32];
                // Each pipeline's own layout: `self.layout`, or one with the same set 0 and
                // push constants plus a set 1 of images.
                let sets = [self.set, dispatches.set1.unwrap_or_default()];
                let count = if pipe.images > 0 && dispatches.set1.is_some() {
                    2
                } else {
                    1
                };
                dev.cmd_bind_descriptor_sets(
                    self.cmd,
                    vk::PipelineBindPoint::COMPUTE,
                    pipe.layout,
                    0,
                    &sets[..count],
                    &offsets,
                );
                let words = push(d);
                let mut bytes = [0u8; PUSH_BYTES as usize];
                for (b, w) in bytes.chunks_exact_mut(4).zip(words) {
                    b.copy_from_slice(&w.to_ne_bytes());
                }
                dev.cmd_push_constants(
                    self.cmd,
                    pipe.layout,
                    vk::ShaderStageFlags::COMPUTE,
                    0,
                    &bytes,
                );
                dev.cmd_dispatch(self.cmd, (d.rows as u32).div_ceil(pipe.wave), 1, 1);
            }
            self.host_read_barrier(
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::AccessFlags::SHADER_WRITE,
            );
            dev.end_command_buffer(self.cmd)
                .context("vkEndCommandBuffer")?;
        }
        let what = format!("{} dispatches", list.len());
        self.submit_and_wait(&what)
    }

    /// Submits the recorded command buffer and waits for its fence (at most
    /// [`FENCE_TIMEOUT`]); `what` names the work in the errors.
    pub(super) fn submit_and_wait(&self, what: &str) -> anyhow::Result<()> {
        let dev = &self.device;
        // SAFETY: the command buffer was recorded and ended on this device; the fence is
        // unsignalled (reset after every wait) and belongs to this device.
        unsafe {
            let cmds = [self.cmd];
            let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
            dev.queue_submit(self.queue, &submit, self.fence)
                .with_context(|| format!("vkQueueSubmit ({what})"))?;
            let waited = dev.wait_for_fences(&[self.fence], true, FENCE_TIMEOUT.as_nanos() as u64);
            if let Err(e) = waited {
                // The fence may still be pending; wait for the device before reusing anything.
                let _ = dev.device_wait_idle();
                let _ = dev.reset_fences(&[self.fence]);
                return Err(e)
                    .with_context(|| format!("waiting for {what} (timeout {FENCE_TIMEOUT:?})"));
            }
            dev.reset_fences(&[self.fence]).context("vkResetFences")?;
        }
        Ok(())
    }
}

/// Cuts jobs, given as (rows, wave), into dispatches (job, first row, rows): at most
/// `max_groups` workgroups and `max_rows` rows each, and a multiple of the wave except for a
/// job's last dispatch, so that lane ids (row index modulo wave) stay those of the whole job.
pub(super) fn plan_dispatches(
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
pub(super) fn plan_batches(
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

impl Executor {
    /// Resets the command buffer and begins a one-time recording.
    ///
    /// # Safety
    /// No pending GPU work may use the command buffer (its last submit's fence was waited for).
    pub(super) unsafe fn begin_commands(&self) -> anyhow::Result<()> {
        // SAFETY: the caller guarantees the command buffer is idle.
        unsafe {
            self.device
                .reset_command_buffer(self.cmd, vk::CommandBufferResetFlags::empty())
                .context("vkResetCommandBuffer")?;
            self.device
                .begin_command_buffer(
                    self.cmd,
                    &vk::CommandBufferBeginInfo::default()
                        .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
                )
                .context("vkBeginCommandBuffer")?;
        }
        Ok(())
    }

    /// Records a barrier that makes the `access` writes of `stage` visible to the host.
    ///
    /// # Safety
    /// The command buffer is recording ([`Self::begin_commands`]).
    pub(super) unsafe fn host_read_barrier(
        &self,
        stage: vk::PipelineStageFlags,
        access: vk::AccessFlags,
    ) {
        let to_host = [vk::MemoryBarrier::default()
            .src_access_mask(access)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: the caller guarantees the command buffer is recording.
        unsafe {
            self.device.cmd_pipeline_barrier(
                self.cmd,
                stage,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &to_host,
                &[],
                &[],
            );
        }
    }
}

#[cfg(test)]
mod plan_tests {
    use super::*;
    use crate::vulkan::exec::OUT_ROW_BYTES;

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
