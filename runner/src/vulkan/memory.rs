//! Memory: the persistent host-visible buffers an executor maps once and reuses, growing by
//! doubling, the device-local output buffer of hashed runs (never mapped), and the mapped
//! staging buffers and memory-type choice of native images (`images`).

use anyhow::{bail, Context};
use ash::vk;

use super::exec::Executor;

/// A host-visible, host-coherent storage buffer, mapped for its whole life.
pub(super) struct HostBuffer {
    pub(super) buffer: vk::Buffer,
    pub(super) memory: vk::DeviceMemory,
    pub(super) size: u64,
    pub(super) ptr: *mut u8,
}

impl Executor {
    /// Makes both buffers at least this large (growing by doubling, never shrinking).
    pub(super) fn ensure_buffers(&mut self, in_size: u64, out_size: u64) -> anyhow::Result<()> {
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
        let wanted = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let cached = wanted | vk::MemoryPropertyFlags::HOST_CACHED;
        let preferences: &[vk::MemoryPropertyFlags] = if readback {
            &[cached, wanted]
        } else {
            &[wanted]
        };
        self.mapped_buffer(size, vk::BufferUsageFlags::STORAGE_BUFFER, preferences)
    }

    /// A mapped host-visible, host-coherent buffer the device copies from (texel uploads).
    pub(super) fn staging_buffer(&self, size: u64) -> anyhow::Result<HostBuffer> {
        let wanted = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        // a source for uploads, a destination for storage images' read-back
        let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
        self.mapped_buffer(size, usage, &[wanted])
    }

    /// A buffer of `usage` in host-visible memory (the first of `preferences` offered), mapped.
    fn mapped_buffer(
        &self,
        size: u64,
        usage: vk::BufferUsageFlags,
        preferences: &[vk::MemoryPropertyFlags],
    ) -> anyhow::Result<HostBuffer> {
        let (buffer, memory) =
            self.bound_buffer(size, usage, preferences, "host-visible coherent memory")?;
        // SAFETY: the memory was just bound to `buffer` and is not mapped yet; freed on error.
        unsafe {
            match self
                .device
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
            {
                Ok(ptr) => Ok(HostBuffer {
                    buffer,
                    memory,
                    size,
                    ptr: ptr as *mut u8,
                }),
                Err(e) => {
                    self.device.destroy_buffer(buffer, None);
                    self.device.free_memory(memory, None);
                    Err(e).context("vkMapMemory")
                }
            }
        }
    }

    /// The first memory type allowed by `type_bits` (a `VkMemoryRequirements`) that has all
    /// the flags of one of `preferences`, tried in order.
    pub(super) fn memory_type(
        &self,
        type_bits: u32,
        preferences: &[vk::MemoryPropertyFlags],
    ) -> Option<u32> {
        preferences.iter().find_map(|&flags| {
            (0..self.memory.memory_type_count).find(|&i| {
                type_bits & (1 << i) != 0
                    && self.memory.memory_types[i as usize]
                        .property_flags
                        .contains(flags)
            })
        })
    }

    /// A buffer of `size` bytes and `usage` bound to memory of the first of `preferences` the
    /// device offers for it (`what` names them in the error when none does).
    fn bound_buffer(
        &self,
        size: u64,
        usage: vk::BufferUsageFlags,
        preferences: &[vk::MemoryPropertyFlags],
        what: &str,
    ) -> anyhow::Result<(vk::Buffer, vk::DeviceMemory)> {
        // SAFETY: plain object creation on our device; freed on every error path.
        unsafe {
            let buffer = self
                .device
                .create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(size)
                        .usage(usage)
                        .sharing_mode(vk::SharingMode::EXCLUSIVE),
                    None,
                )
                .with_context(|| format!("vkCreateBuffer ({size} bytes)"))?;
            let req = self.device.get_buffer_memory_requirements(buffer);
            let Some(type_index) = self.memory_type(req.memory_type_bits, preferences) else {
                self.device.destroy_buffer(buffer, None);
                bail!("{} has no {what} for {usage:?} buffers", self.info.name);
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
            if let Err(e) = self.device.bind_buffer_memory(buffer, memory, 0) {
                self.device.destroy_buffer(buffer, None);
                self.device.free_memory(memory, None);
                return Err(e).context("vkBindBufferMemory");
            }
            Ok((buffer, memory))
        }
    }
}

/// A device-local storage buffer the host never maps (outputs that stay on the device).
pub(super) struct LocalBuffer {
    pub(super) buffer: vk::Buffer,
    pub(super) memory: vk::DeviceMemory,
    pub(super) size: u64,
}

impl Executor {
    /// Makes the device-local output buffer at least `need` bytes (growing by doubling).
    pub(super) fn ensure_local_output(&mut self, need: u64) -> anyhow::Result<vk::Buffer> {
        if let Some(b) = self.local_output.as_ref().filter(|b| b.size >= need) {
            return Ok(b.buffer);
        }
        let old = self.local_output.take();
        let size = need
            .max(old.as_ref().map_or(0, |b| b.size * 2))
            .max(64 << 10);
        if let Some(old) = old {
            // SAFETY: no GPU work is pending (the last fence was waited for).
            unsafe { destroy_local(&self.device, old) };
        }
        // Device-local where the device has it (the outputs never leave the device), else any
        // memory type that takes a storage buffer.
        let preferences = [
            vk::MemoryPropertyFlags::DEVICE_LOCAL,
            vk::MemoryPropertyFlags::empty(),
        ];
        let (buffer, memory) = self.bound_buffer(
            size,
            vk::BufferUsageFlags::STORAGE_BUFFER,
            &preferences,
            "memory type",
        )?;
        let new = LocalBuffer {
            buffer,
            memory,
            size,
        };
        let buffer = new.buffer;
        self.local_output = Some(new);
        Ok(buffer)
    }
}

/// # Safety
/// No pending GPU work may use `b`.
pub(super) unsafe fn destroy_local(device: &ash::Device, b: LocalBuffer) {
    // SAFETY: the caller guarantees the buffer is idle.
    unsafe {
        device.destroy_buffer(b.buffer, None);
        device.free_memory(b.memory, None);
    }
}

/// # Safety
/// No pending GPU work may use `b`.
pub(super) unsafe fn destroy_buffer(device: &ash::Device, b: HostBuffer) {
    // SAFETY: the caller guarantees the buffer is idle.
    unsafe {
        device.unmap_memory(b.memory);
        device.destroy_buffer(b.buffer, None);
        device.free_memory(b.memory, None);
    }
}
