//! Native images (`rdnaprobe_recompiler::native`): the `VkImage`s, views and samplers a wave
//! module emitted for native images samples through descriptor set 1, made from the wave's
//! memory region, one wave at a time.
//!
//! Pipelines: [`Executor::image_wave_pipeline`] makes a wave module's pipeline with a layout
//! whose set 0 and push constants are exactly `Executor::layout`'s, plus a set 1 of `n`
//! combined image samplers (the kernel's image `i` at binding `i`). The set-1 and pipeline
//! layouts are cached per `n`; every pipeline records the layout it was made with, and
//! `dispatch` binds set 0, pushes constants and binds set 1 with that layout.
//!
//! Running: [`Executor::run_image_wave`] first checks every image without creating anything:
//! its copies lie inside the region ([`NativeImage::check`]), its levels, layers, view and
//! sampler are a combination Vulkan allows (bad input: [`ImageRunError::Error`]), and the
//! device samples, copies into and, where the sampler filters linearly, filters its format
//! with optimal tiling at its extent, levels and layers (what the device lacks:
//! [`ImageRunError::Unsupported`]). Then it creates the images (device-local memory where the
//! device offers it), views, samplers and a descriptor set, uploads every texel copy from one
//! host-visible staging buffer in a first submit (UNDEFINED -> TRANSFER_DST_OPTIMAL ->
//! SHADER_READ_ONLY_OPTIMAL, the last barrier's destination the compute stage), and runs the
//! wave as one dispatch of one workgroup through `layout_dispatches` and `execute`, its input
//! at the dispatch's input offset of binding 0 as `run_waves` places it. Nothing is cached
//! between waves (a wave's images are its own region's): everything is destroyed once the
//! wave's fence was waited for. `image_check` holds the pure checks and create infos.

use std::fmt;

use anyhow::{anyhow, bail, ensure, Context};
use ash::vk;
use rdnaprobe_recompiler::native::{NativeImage, TexelCopy};

use super::exec::{Executor, PipelineId, PUSH_BYTES};
use super::image_check::{gcd, sampler_info, shape, Shape};
use super::memory::{destroy_buffer, HostBuffer};

/// Why a wave with native images did not run.
#[derive(Debug)]
pub enum ImageRunError {
    /// The device cannot create, fill or sample an image as described: the message (without
    /// an `unsupported:` prefix) names the format number and what the device lacks.
    Unsupported(String),
    /// Bad input (an image that does not fit the region or that Vulkan forbids), or any
    /// other failure.
    Error(anyhow::Error),
}

impl fmt::Display for ImageRunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageRunError::Unsupported(s) => write!(f, "unsupported: {s}"),
            ImageRunError::Error(e) => write!(f, "{e:#}"),
        }
    }
}

impl std::error::Error for ImageRunError {}

impl From<anyhow::Error> for ImageRunError {
    fn from(e: anyhow::Error) -> Self {
        ImageRunError::Error(e)
    }
}

/// The set-1 layout of `n` combined image samplers and the pipeline layout of
/// `[Executor::set_layout, it]` with `Executor::layout`'s push constants.
pub(super) struct ImageLayout {
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
}

impl Executor {
    /// The pipeline of a wave module (`rdnaprobe_recompiler::spirv::emit_wave_mem`) that
    /// samples `images` native images at set 1, bindings `0..images`; made once per module and
    /// image count. With `images == 0` it is [`Executor::wave_pipeline`].
    pub fn image_wave_pipeline(
        &mut self,
        spirv: &[u32],
        images: u32,
    ) -> anyhow::Result<PipelineId> {
        if images == 0 {
            return self.pipeline_per_group(spirv, 1);
        }
        let layout = self.image_layout(images)?;
        self.pipeline_in_layout(spirv, 1, images, layout)
    }

    /// The pipeline layout with a set 1 of `images` combined image samplers, made once.
    fn image_layout(&mut self, images: u32) -> anyhow::Result<vk::PipelineLayout> {
        if let Some(l) = self.image_layouts.get(&images) {
            return Ok(l.layout);
        }
        // SAFETY: plain queries and object creation on our device; the layouts are destroyed
        // in `destroy_image_layouts` (the set layout here if the pipeline layout fails).
        unsafe {
            let limits = self
                .instance
                .get_physical_device_properties(self.physical)
                .limits;
            let most = limits
                .max_per_stage_descriptor_samplers
                .min(limits.max_per_stage_descriptor_sampled_images)
                .min(limits.max_descriptor_set_samplers)
                .min(limits.max_descriptor_set_sampled_images);
            ensure!(
                images <= most,
                "{images} images in one module; {} binds at most {most}",
                self.info.name
            );
            let bindings: Vec<vk::DescriptorSetLayoutBinding> = (0..images)
                .map(|b| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b)
                        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                })
                .collect();
            let set_layout = self
                .device
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                    None,
                )
                .context("vkCreateDescriptorSetLayout (images)")?;
            let push = [vk::PushConstantRange::default()
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
                .offset(0)
                .size(PUSH_BYTES)];
            let set_layouts = [self.set_layout, set_layout];
            let layout = match self.device.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&set_layouts)
                    .push_constant_ranges(&push),
                None,
            ) {
                Ok(l) => l,
                Err(e) => {
                    self.device.destroy_descriptor_set_layout(set_layout, None);
                    return Err(e).context("vkCreatePipelineLayout (images)");
                }
            };
            self.image_layouts
                .insert(images, ImageLayout { set_layout, layout });
            Ok(layout)
        }
    }

    /// Destroys the cached image layouts.
    ///
    /// # Safety
    /// No pending GPU work or recording command buffer may use them.
    pub(super) unsafe fn destroy_image_layouts(&mut self) {
        for (_, l) in self.image_layouts.drain() {
            // SAFETY: the caller guarantees the layouts are unused; each is destroyed once.
            unsafe {
                self.device.destroy_pipeline_layout(l.layout, None);
                self.device
                    .destroy_descriptor_set_layout(l.set_layout, None);
            }
        }
    }

    /// Runs one wave of an [`Executor::image_wave_pipeline`] pipeline (one workgroup, push
    /// constants `[1, 0, 0]`): `input` is the wave's module input words (as `run_waves` takes
    /// them), `region` the wave's memory region (the texels' source: [`TexelCopy::src`] is a
    /// byte offset into it, little-endian words), `images` the kernel's images in binding
    /// order. Returns the wave's first `out_words` output words.
    pub fn run_image_wave(
        &mut self,
        pipeline: PipelineId,
        input: &[u32],
        out_words: usize,
        region: &[u32],
        images: &[NativeImage],
    ) -> Result<Vec<u32>, ImageRunError> {
        let pipe = self
            .pipelines
            .get(pipeline.0)
            .with_context(|| format!("unknown pipeline {pipeline:?}"))?;
        if pipe.wave != 1 || pipe.images as usize != images.len() {
            return Err(anyhow!(
                "pipeline {pipeline:?} takes {} images per {} rows, not {} per wave",
                pipe.images,
                pipe.wave,
                images.len()
            )
            .into());
        }
        let (in_bytes, out_bytes) = (input.len() as u64 * 4, out_words as u64 * 4);
        if out_words == 0 || in_bytes > self.max_range || out_bytes > self.max_range {
            return Err(anyhow!(
                "{} input and {out_words} output words per wave (each 1..={} bytes)",
                input.len(),
                self.max_range
            )
            .into());
        }
        let region_bytes = region.len() as u64 * 4;
        let mut shapes = Vec::with_capacity(images.len());
        for (i, img) in images.iter().enumerate() {
            img.check(region_bytes)
                .map_err(|e| anyhow!("image {i}: {e}"))?;
            shapes.push(shape(img).with_context(|| format!("image {i}"))?);
        }
        for (i, (img, shape)) in images.iter().zip(&shapes).enumerate() {
            self.supports(img, shape).map_err(|e| match e {
                ImageRunError::Unsupported(s) => {
                    ImageRunError::Unsupported(format!("image {i}: {s}"))
                }
                ImageRunError::Error(e) => ImageRunError::Error(e.context(format!("image {i}"))),
            })?;
        }

        let mut res = Resources {
            device: self.device.clone(),
            images: vec![],
            memories: vec![],
            views: vec![],
            samplers: vec![],
            staging: None,
            pool: vk::DescriptorPool::null(),
        };
        let set1 = self.create_images(&mut res, images, &shapes, region)?;
        let mut dispatches = self.layout_dispatches(&[(0, 0, 1)], in_bytes, out_bytes)?;
        dispatches.set1 = set1;
        let (Some(buf), Some(d)) = (&self.input, dispatches.list.first()) else {
            return Err(anyhow!("internal: buffers missing after allocation").into());
        };
        // SAFETY: no GPU work is pending (the upload's fence was waited for); the buffer holds
        // the dispatch's `in_bytes` at its offset.
        unsafe {
            let dst = buf.ptr.add(d.in_offset as usize) as *mut u32;
            std::ptr::copy_nonoverlapping(input.as_ptr(), dst, input.len());
        }
        self.execute(&dispatches, &[pipeline], |d| [d.rows as u32, 0, 0])?;
        let (Some(output), Some(d)) = (&self.output, dispatches.list.first()) else {
            return Err(anyhow!("internal: output buffer missing").into());
        };
        // SAFETY: the wave's fence was waited for; the range is inside the buffer.
        let out = unsafe {
            let src = output.ptr.add(d.out_offset as usize) as *const u32;
            std::slice::from_raw_parts(src, out_words).to_vec()
        };
        drop(res);
        Ok(out)
    }

    /// Whether the device makes and samples `img` as `shape` says; `Unsupported` says what
    /// the device lacks.
    fn supports(&self, img: &NativeImage, shape: &Shape) -> Result<(), ImageRunError> {
        let unsupported = ImageRunError::Unsupported;
        let s = &img.sampler;
        if s.address
            .contains(&vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE.as_raw())
        {
            return Err(unsupported(format!(
                "VkFormat {}: address mode MIRROR_CLAMP_TO_EDGE needs \
                 VK_KHR_sampler_mirror_clamp_to_edge, which the executor does not enable",
                img.format
            )));
        }
        let format = vk::Format::from_raw(img.format);
        let linear = s.mag_filter == vk::Filter::LINEAR.as_raw()
            || s.min_filter == vk::Filter::LINEAR.as_raw()
            || s.mipmap_mode == vk::SamplerMipmapMode::LINEAR.as_raw();
        // SAFETY: plain queries of our physical device.
        let (features, props) = unsafe {
            let features = self
                .instance
                .get_physical_device_format_properties(self.physical, format)
                .optimal_tiling_features;
            let props = self.instance.get_physical_device_image_format_properties(
                self.physical,
                format,
                shape.ty,
                vk::ImageTiling::OPTIMAL,
                vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
                shape.flags,
            );
            (features, props)
        };
        let mut missing = vec![];
        for (flag, name) in [
            (vk::FormatFeatureFlags::SAMPLED_IMAGE, "SAMPLED_IMAGE"),
            (vk::FormatFeatureFlags::TRANSFER_DST, "TRANSFER_DST"),
            (
                vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR,
                "SAMPLED_IMAGE_FILTER_LINEAR",
            ),
        ] {
            let needed = linear || flag != vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR;
            if needed && !features.contains(flag) {
                missing.push(name);
            }
        }
        let name = &self.info.name;
        let what = format!("VkFormat {} ({format:?})", img.format);
        if !missing.is_empty() {
            return Err(unsupported(format!(
                "{what} lacks the optimal-tiling format features {} on {name}",
                missing.join(" | ")
            )));
        }
        let props = match props {
            Ok(p) => p,
            Err(vk::Result::ERROR_FORMAT_NOT_SUPPORTED) => {
                return Err(unsupported(format!(
                    "{what} as a {:?} SAMPLED | TRANSFER_DST image with flags {:?}: \
                     vkGetPhysicalDeviceImageFormatProperties gave \
                     VK_ERROR_FORMAT_NOT_SUPPORTED on {name}",
                    shape.ty, shape.flags
                )))
            }
            Err(e) => {
                return Err(anyhow::Error::from(e)
                    .context(format!("vkGetPhysicalDeviceImageFormatProperties ({what})"))
                    .into())
            }
        };
        let m = props.max_extent;
        let [w, h, d] = img.extent;
        if w > m.width || h > m.height || d > m.depth {
            return Err(unsupported(format!(
                "{what}: extent {w}x{h}x{d} exceeds {}x{}x{} on {name}",
                m.width, m.height, m.depth
            )));
        }
        if img.levels > props.max_mip_levels || img.layers > props.max_array_layers {
            return Err(unsupported(format!(
                "{what}: {} levels and {} layers exceed {} and {} on {name}",
                img.levels, img.layers, props.max_mip_levels, props.max_array_layers
            )));
        }
        Ok(())
    }

    /// Creates the images, fills them from `region`, and the set-1 descriptor set that binds
    /// them (`None` without images). Everything made is recorded in `res`.
    fn create_images(
        &self,
        res: &mut Resources,
        images: &[NativeImage],
        shapes: &[Shape],
        region: &[u32],
    ) -> anyhow::Result<Option<vk::DescriptorSet>> {
        if images.is_empty() {
            return Ok(None);
        }
        let Some(layout) = self.image_layouts.get(&(images.len() as u32)) else {
            bail!("internal: no layout for {} images", images.len());
        };
        // Staging: each copy's texel rows (row pitch included), at an offset that is a
        // multiple of the texel size and of 4 (`bufferOffset` rules, depth formats included).
        let mut plan: Vec<(usize, TexelCopy, u64, usize)> = vec![];
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
        let dev = &self.device;
        // SAFETY: object creation on our device; every object is recorded in `res`, which
        // destroys it once no GPU work uses it.
        unsafe {
            for (i, (img, shape)) in images.iter().zip(shapes).enumerate() {
                let format = vk::Format::from_raw(img.format);
                let [width, height, depth] = img.extent;
                let info = vk::ImageCreateInfo::default()
                    .flags(shape.flags)
                    .image_type(shape.ty)
                    .format(format)
                    .extent(vk::Extent3D {
                        width,
                        height,
                        depth,
                    })
                    .mip_levels(img.levels)
                    .array_layers(img.layers)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .tiling(vk::ImageTiling::OPTIMAL)
                    .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST)
                    .sharing_mode(vk::SharingMode::EXCLUSIVE)
                    .initial_layout(vk::ImageLayout::UNDEFINED);
                let image = dev
                    .create_image(&info, None)
                    .with_context(|| format!("vkCreateImage (image {i}, VkFormat {format:?})"))?;
                res.images.push(image);
                let req = dev.get_image_memory_requirements(image);
                let preferences = [
                    vk::MemoryPropertyFlags::DEVICE_LOCAL,
                    vk::MemoryPropertyFlags::empty(),
                ];
                let type_index = self
                    .memory_type(req.memory_type_bits, &preferences)
                    .with_context(|| {
                        format!("{} has no memory type for image {i}", self.info.name)
                    })?;
                let memory = dev
                    .allocate_memory(
                        &vk::MemoryAllocateInfo::default()
                            .allocation_size(req.size)
                            .memory_type_index(type_index),
                        None,
                    )
                    .with_context(|| format!("vkAllocateMemory (image {i}, {} bytes)", req.size))?;
                res.memories.push(memory);
                dev.bind_image_memory(image, memory, 0)
                    .context("vkBindImageMemory")?;
                let [r, g, b, a] = img.swizzle.map(vk::ComponentSwizzle::from_raw);
                let view = dev
                    .create_image_view(
                        &vk::ImageViewCreateInfo::default()
                            .image(image)
                            .view_type(shape.view)
                            .format(format)
                            .components(vk::ComponentMapping { r, g, b, a })
                            .subresource_range(vk::ImageSubresourceRange {
                                aspect_mask: shape.aspect,
                                base_mip_level: img.base_level,
                                level_count: img.level_count,
                                base_array_layer: img.base_layer,
                                layer_count: img.layer_count,
                            }),
                        None,
                    )
                    .with_context(|| format!("vkCreateImageView (image {i})"))?;
                res.views.push(view);
                let sampler = dev
                    .create_sampler(&sampler_info(&img.sampler), None)
                    .with_context(|| format!("vkCreateSampler (image {i})"))?;
                res.samplers.push(sampler);
            }
            self.upload(res, shapes, &plan)?;

            let sizes = [vk::DescriptorPoolSize {
                ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                descriptor_count: images.len() as u32,
            }];
            res.pool = dev
                .create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(1)
                        .pool_sizes(&sizes),
                    None,
                )
                .context("vkCreateDescriptorPool (images)")?;
            let set_layouts = [layout.set_layout];
            let set = dev
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(res.pool)
                        .set_layouts(&set_layouts),
                )
                .context("vkAllocateDescriptorSets (images)")?[0];
            let infos: Vec<[vk::DescriptorImageInfo; 1]> = res
                .views
                .iter()
                .zip(&res.samplers)
                .map(|(&image_view, &sampler)| {
                    [vk::DescriptorImageInfo {
                        sampler,
                        image_view,
                        image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                    }]
                })
                .collect();
            let writes: Vec<vk::WriteDescriptorSet> = infos
                .iter()
                .enumerate()
                .map(|(b, info)| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(b as u32)
                        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                        .image_info(info)
                })
                .collect();
            dev.update_descriptor_sets(&writes, &[]);
            Ok(Some(set))
        }
    }

    /// Records and runs the upload of `plan` (image, copy, staging offset, bytes) into
    /// `res.images`, leaving every image in SHADER_READ_ONLY_OPTIMAL, and waits for it.
    fn upload(
        &self,
        res: &Resources,
        shapes: &[Shape],
        plan: &[(usize, TexelCopy, u64, usize)],
    ) -> anyhow::Result<()> {
        let barriers = |old, new, src, dst| -> Vec<vk::ImageMemoryBarrier<'static>> {
            res.images
                .iter()
                .zip(shapes)
                .map(|(&image, shape)| {
                    vk::ImageMemoryBarrier::default()
                        .src_access_mask(src)
                        .dst_access_mask(dst)
                        .old_layout(old)
                        .new_layout(new)
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
        };
        let dev = &self.device;
        // SAFETY: the previous submit's fence was waited for, so the command buffer is free;
        // every handle belongs to this device and lives in `res` past the wait below.
        unsafe {
            dev.reset_command_buffer(self.cmd, vk::CommandBufferResetFlags::empty())
                .context("vkResetCommandBuffer")?;
            dev.begin_command_buffer(
                self.cmd,
                &vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
            .context("vkBeginCommandBuffer")?;
            let to_dst = barriers(
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
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
                    let regions: Vec<vk::BufferImageCopy> = plan
                        .iter()
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
                        .collect();
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
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::AccessFlags::SHADER_READ,
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
}

/// What one wave's images made; destroyed on drop.
struct Resources {
    device: ash::Device,
    images: Vec<vk::Image>,
    memories: Vec<vk::DeviceMemory>,
    views: Vec<vk::ImageView>,
    samplers: Vec<vk::Sampler>,
    staging: Option<HostBuffer>,
    pool: vk::DescriptorPool,
}

impl Drop for Resources {
    fn drop(&mut self) {
        // SAFETY: dropped once the wave's fence was waited for, or with nothing submitted (a
        // failed wait waits for the device first), so no GPU work uses these; each is
        // destroyed once (null handles are allowed).
        unsafe {
            let dev = &self.device;
            dev.destroy_descriptor_pool(self.pool, None);
            for &s in &self.samplers {
                dev.destroy_sampler(s, None);
            }
            for &v in &self.views {
                dev.destroy_image_view(v, None);
            }
            for &i in &self.images {
                dev.destroy_image(i, None);
            }
            for &m in &self.memories {
                dev.free_memory(m, None);
            }
            if let Some(b) = self.staging.take() {
                destroy_buffer(dev, b);
            }
        }
    }
}
