//! Texel transfers between a wave's memory region and its native images
//! ([`super::images`]): the staging plan (each texel copy's rows in one host-visible buffer),
//! the upload before the wave (UNDEFINED -> TRANSFER_DST_OPTIMAL -> the shader's layout) and
//! the storage images' read-back after it (GENERAL -> TRANSFER_SRC_OPTIMAL), whose rows the
//! caller puts into the region ([`Written`]).

use anyhow::Context;
use ash::vk;
use rdnaprobe_recompiler::native::{NativeImage, TexelCopy};

use super::exec::Executor;
use super::image_check::{gcd, Shape};
use super::images::Resources;

/// One texel copy of an upload or read-back: the image, the copy, its staging offset and bytes.
pub(super) type Copy = (usize, TexelCopy, u64, usize);

impl Executor {
    /// Lays every texel copy of `images` out in one staging buffer (`res.staging`), filled
    /// from `region`: each copy's rows (row pitch included) at an offset that is a multiple of
    /// the texel size and of 4 (`bufferOffset` rules, depth formats included). The plan.
    pub(super) fn stage(
        &self,
        res: &mut Resources,
        images: &[NativeImage],
        region: &[u32],
    ) -> anyhow::Result<Vec<Copy>> {
        let mut plan: Vec<Copy> = vec![];
        let mut size = 0u64;
        for (i, img) in images.iter().enumerate() {
            let t = u64::from(img.texel_bytes);
            let align = t * 4 / gcd(t, 4);
            for c in img.copies.iter().filter(|c| c.width > 0 && c.rows > 0) {
                let texels = u64::from(c.rows - 1) * u64::from(c.row_pitch) + u64::from(c.width);
                size = size.div_ceil(align) * align;
                plan.push((i, *c, size, (texels * t) as usize));
                size += texels * t;
            }
        }
        if size > 0 {
            let staging = self.staging_buffer(size)?;
            let bytes: Vec<u8> = region.iter().flat_map(|w| w.to_le_bytes()).collect();
            for &(_, c, offset, len) in &plan {
                let src = &bytes[c.src as usize..c.src as usize + len];
                // SAFETY: the staging buffer holds `size` bytes, past every copy's end; no GPU
                // work uses it yet.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        src.as_ptr(),
                        staging.ptr.add(offset as usize),
                        len,
                    );
                }
            }
            res.staging = Some(staging);
        }
        Ok(plan)
    }

    /// Records and runs the upload of `plan` (image, copy, staging offset, bytes) into
    /// `res.images`, leaving every image in its shader layout ([`shader_layout`]), and waits
    /// for it.
    pub(super) fn upload(
        &self,
        res: &Resources,
        images: &[NativeImage],
        shapes: &[Shape],
        plan: &[Copy],
    ) -> anyhow::Result<()> {
        let barriers = |old, new: Option<vk::ImageLayout>, src, dst| {
            image_barriers(res, images, shapes, old, new, src, dst)
        };
        let dev = &self.device;
        // SAFETY: the previous submit's fence was waited for, so the command buffer is free;
        // every handle belongs to this device and lives in `res` past the wait below.
        unsafe {
            self.begin_commands()?;
            let to_dst = barriers(
                vk::ImageLayout::UNDEFINED,
                Some(vk::ImageLayout::TRANSFER_DST_OPTIMAL),
                vk::AccessFlags::empty(),
                vk::AccessFlags::TRANSFER_WRITE,
            );
            dev.cmd_pipeline_barrier(
                self.cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_dst,
            );
            if let Some(staging) = &res.staging {
                for (i, (&image, shape)) in res.images.iter().zip(shapes).enumerate() {
                    let regions = buffer_image_copies(plan, i, shape);
                    if !regions.is_empty() {
                        dev.cmd_copy_buffer_to_image(
                            self.cmd,
                            staging.buffer,
                            image,
                            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                            &regions,
                        );
                    }
                }
            }
            let to_read = barriers(
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                None,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
            );
            dev.cmd_pipeline_barrier(
                self.cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_read,
            );
            dev.end_command_buffer(self.cmd)
                .context("vkEndCommandBuffer")?;
        }
        self.submit_and_wait("the image upload")?;
        Ok(())
    }

    /// Copies every storage image's texel rows back into the staging buffer after the wave
    /// (GENERAL -> TRANSFER_SRC_OPTIMAL, the barrier's source the compute stage's writes) and
    /// returns them ([`Written`]); nothing without a storage image.
    pub(super) fn read_back(
        &self,
        res: &Resources,
        images: &[NativeImage],
        shapes: &[Shape],
        plan: &[Copy],
    ) -> anyhow::Result<Vec<Written>> {
        let (Some(staging), true) = (&res.staging, images.iter().any(|i| i.storage)) else {
            return Ok(vec![]);
        };
        let dev = &self.device;
        // SAFETY: the wave's fence was waited for, so the command buffer is free; every
        // handle lives in `res` past the wait below; the staging buffer holds every copy.
        unsafe {
            self.begin_commands()?;
            let to_src: Vec<_> = image_barriers(
                res,
                images,
                shapes,
                vk::ImageLayout::GENERAL,
                Some(vk::ImageLayout::TRANSFER_SRC_OPTIMAL),
                vk::AccessFlags::SHADER_WRITE,
                vk::AccessFlags::TRANSFER_READ,
            )
            .into_iter()
            .zip(images)
            .filter(|(_, img)| img.storage)
            .map(|(b, _)| b)
            .collect();
            dev.cmd_pipeline_barrier(
                self.cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_src,
            );
            for (i, (&image, shape)) in res.images.iter().zip(shapes).enumerate() {
                let regions = buffer_image_copies(plan, i, shape);
                if images[i].storage && !regions.is_empty() {
                    dev.cmd_copy_image_to_buffer(
                        self.cmd,
                        image,
                        vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                        staging.buffer,
                        &regions,
                    );
                }
            }
            self.host_read_barrier(
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_WRITE,
            );
            dev.end_command_buffer(self.cmd)
                .context("vkEndCommandBuffer")?;
        }
        self.submit_and_wait("the storage images' read-back")?;
        let mut out = vec![];
        for &(i, copy, offset, len) in plan.iter().filter(|p| images[p.0].storage) {
            // SAFETY: the read-back's fence was waited for; the range lies in the buffer.
            let bytes = unsafe {
                std::slice::from_raw_parts(staging.ptr.add(offset as usize), len).to_vec()
            };
            out.push(Written {
                copy,
                texel_bytes: images[i].texel_bytes,
                bytes,
            });
        }
        Ok(out)
    }
}

/// One storage image's texel rows after a wave: `bytes` holds the rows of `copy` as the
/// region lays them out from `copy.src` (`row_pitch` texels apart; the bytes between a row's
/// end and the next row's start are not the image's and stay as they were).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub copy: TexelCopy,
    pub texel_bytes: u32,
    pub bytes: Vec<u8>,
}

impl Written {
    /// Puts the texel rows of every `written` copy into `region` (little-endian words, the
    /// copies' source region), in order, converting the region to bytes and back once.
    pub fn apply_all(written: &[Written], region: &mut [u32]) {
        if written.is_empty() {
            return;
        }
        let mut bytes: Vec<u8> = region.iter().flat_map(|w| w.to_le_bytes()).collect();
        for w in written {
            w.apply(&mut bytes);
        }
        for (w, c) in region.iter_mut().zip(bytes.chunks_exact(4)) {
            *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
    }

    /// Puts the rows into `region` (bytes of the copy's source region).
    fn apply(&self, region: &mut [u8]) {
        let t = self.texel_bytes as usize;
        let (pitch, width) = (
            self.copy.row_pitch as usize * t,
            self.copy.width as usize * t,
        );
        for r in 0..self.copy.rows as usize {
            let (from, to) = (r * pitch, self.copy.src as usize + r * pitch);
            if from + width <= self.bytes.len() && to + width <= region.len() {
                region[to..to + width].copy_from_slice(&self.bytes[from..from + width]);
            }
        }
    }
}

/// The layout the shader uses an image in: GENERAL for a storage image.
pub(super) fn shader_layout(img: &NativeImage) -> vk::ImageLayout {
    if img.storage {
        vk::ImageLayout::GENERAL
    } else {
        vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
    }
}

/// A barrier per image of `res` from `old` to `new` (`None`: the image's [`shader_layout`]).
fn image_barriers(
    res: &Resources,
    images: &[NativeImage],
    shapes: &[Shape],
    old: vk::ImageLayout,
    new: Option<vk::ImageLayout>,
    src: vk::AccessFlags,
    dst: vk::AccessFlags,
) -> Vec<vk::ImageMemoryBarrier<'static>> {
    res.images
        .iter()
        .zip(shapes)
        .zip(images)
        .map(|((&image, shape), img)| {
            vk::ImageMemoryBarrier::default()
                .src_access_mask(src)
                .dst_access_mask(dst)
                .old_layout(old)
                .new_layout(new.unwrap_or_else(|| shader_layout(img)))
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(vk::ImageSubresourceRange {
                    aspect_mask: shape.barrier_aspect,
                    base_mip_level: 0,
                    level_count: vk::REMAINING_MIP_LEVELS,
                    base_array_layer: 0,
                    layer_count: vk::REMAINING_ARRAY_LAYERS,
                })
        })
        .collect()
}

/// The buffer-image copies of image `i` of `plan`.
fn buffer_image_copies(plan: &[Copy], i: usize, shape: &Shape) -> Vec<vk::BufferImageCopy> {
    plan.iter()
        .filter(|p| p.0 == i)
        .map(|&(_, c, offset, _)| vk::BufferImageCopy {
            buffer_offset: offset,
            buffer_row_length: if c.row_pitch >= c.width {
                c.row_pitch
            } else {
                0
            },
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: shape.aspect,
                mip_level: c.level,
                base_array_layer: c.layer,
                layer_count: 1,
            },
            image_offset: vk::Offset3D {
                x: 0,
                y: 0,
                z: c.z as i32,
            },
            image_extent: vk::Extent3D {
                width: c.width,
                height: c.rows,
                depth: 1,
            },
        })
        .collect()
}
