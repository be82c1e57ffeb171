//! Native images (`rdnaprobe_recompiler::native`): the `VkImage`s, views and samplers a wave
//! module emitted for native images samples through descriptor set 1, made from the wave's
//! memory region, one wave at a time.
//!
//! Pipelines: [`Executor::image_wave_pipeline`] makes a wave module's pipeline with a layout
//! whose set 0 and push constants are exactly `Executor::layout`'s, plus a set 1 of `n`
//! combined image samplers or storage images (the kernel's image `i` at binding `i`; a
//! storage image for a store's `OpImageWrite`). The set-1 and pipeline layouts are cached per
//! list of binding kinds; every pipeline records the layout it was made with, and
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
//! SHADER_READ_ONLY_OPTIMAL, or GENERAL for a storage image, the last barrier's destination
//! the compute stage), and runs the wave as one dispatch of one workgroup through
//! `layout_dispatches` and `execute`, its input at the dispatch's input offset of binding 0 as
//! `run_waves` places it. A storage image is copied back after the wave (GENERAL ->
//! TRANSFER_SRC_OPTIMAL, into the staging buffer, a third submit): its texel rows are returned
//! for the caller to put in the wave's region, where the body's stores land. Nothing is cached
//! between waves (a wave's images are its own region's): everything is destroyed once the
//! wave's fence was waited for. `image_check` holds the pure checks and create infos,
//! `image_copy` the staging, the upload and the read-back.

use std::fmt;

use anyhow::{anyhow, bail, ensure, Context};
use ash::vk;
use rdnaprobe_recompiler::native::NativeImage;

use super::exec::{Executor, PipelineId, PUSH_BYTES};
use super::image_check::{sampler_info, shape, Shape};
use super::image_copy::{shader_layout, Copy, Written};
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
        storage: &[bool],
    ) -> anyhow::Result<PipelineId> {
        if storage.is_empty() {
            return self.pipeline_per_group(spirv, 1);
        }
        let layout = self.image_layout(storage)?;
        self.pipeline_in_layout(spirv, 1, storage.len() as u32, layout)
    }

    /// The pipeline layout with a set 1 of combined image samplers and (`storage[i]`) storage
    /// images, made once per list.
    fn image_layout(&mut self, storage: &[bool]) -> anyhow::Result<vk::PipelineLayout> {
        if let Some(l) = self.image_layouts.get(storage) {
            return Ok(l.layout);
        }
        let images = storage.len() as u32;
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
            let bindings: Vec<vk::DescriptorSetLayoutBinding> = storage
                .iter()
                .enumerate()
                .map(|(b, &st)| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b as u32)
                        .descriptor_type(descriptor_type(st))
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
                .insert(storage.to_vec(), ImageLayout { set_layout, layout });
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
    /// order. Returns the wave's first `out_words` output words and, per storage image, its
    /// texel rows after the wave ([`Written`]).
    pub fn run_image_wave(
        &mut self,
        pipeline: PipelineId,
        input: &[u32],
        out_words: usize,
        region: &[u32],
        images: &[NativeImage],
    ) -> Result<(Vec<u32>, Vec<Written>), ImageRunError> {
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
        let (set1, plan) = self.create_images(&mut res, images, &shapes, region)?;
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
        let written = self.read_back(&res, images, &shapes, &plan)?;
        drop(res);
        Ok((out, written))
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
        let linear = !img.storage
            && (s.mag_filter == vk::Filter::LINEAR.as_raw()
                || s.min_filter == vk::Filter::LINEAR.as_raw()
                || s.mipmap_mode == vk::SamplerMipmapMode::LINEAR.as_raw());
        let usage = usage(img);
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
                usage,
                shape.flags,
            );
            (features, props)
        };
        let mut missing = vec![];
        for (flag, name, needed) in [
            (
                vk::FormatFeatureFlags::SAMPLED_IMAGE,
                "SAMPLED_IMAGE",
                !img.storage,
            ),
            (
                vk::FormatFeatureFlags::STORAGE_IMAGE,
                "STORAGE_IMAGE",
                img.storage,
            ),
            (vk::FormatFeatureFlags::TRANSFER_DST, "TRANSFER_DST", true),
            (
                vk::FormatFeatureFlags::TRANSFER_SRC,
                "TRANSFER_SRC",
                img.storage,
            ),
            (
                vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR,
                "SAMPLED_IMAGE_FILTER_LINEAR",
                linear,
            ),
        ] {
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
                    "{what} as a {:?} {usage:?} image with flags {:?}: \
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
    /// them (`None` without images), and the copies' plan (image, copy, staging offset,
    /// bytes). Everything made is recorded in `res`.
    fn create_images(
        &self,
        res: &mut Resources,
        images: &[NativeImage],
        shapes: &[Shape],
        region: &[u32],
    ) -> anyhow::Result<(Option<vk::DescriptorSet>, Vec<Copy>)> {
        if images.is_empty() {
            return Ok((None, vec![]));
        }
        let storage: Vec<bool> = images.iter().map(|i| i.storage).collect();
        let Some(layout) = self.image_layouts.get(&storage) else {
            bail!("internal: no layout for the images {storage:?}");
        };
        let plan = self.stage(res, images, region)?;
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
                    .usage(usage(img))
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
                // a storage image reads no sampler (null in its descriptor)
                let sampler = if img.storage {
                    vk::Sampler::null()
                } else {
                    dev.create_sampler(&sampler_info(&img.sampler), None)
                        .with_context(|| format!("vkCreateSampler (image {i})"))?
                };
                res.samplers.push(sampler);
            }
            self.upload(res, images, shapes, &plan)?;

            let sizes: Vec<vk::DescriptorPoolSize> = [false, true]
                .into_iter()
                .map(|st| vk::DescriptorPoolSize {
                    ty: descriptor_type(st),
                    descriptor_count: storage.iter().filter(|&&s| s == st).count() as u32,
                })
                .filter(|s| s.descriptor_count > 0)
                .collect();
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
                .zip(images)
                .map(|((&image_view, &sampler), img)| {
                    [vk::DescriptorImageInfo {
                        sampler,
                        image_view,
                        image_layout: shader_layout(img),
                    }]
                })
                .collect();
            let writes: Vec<vk::WriteDescriptorSet> = infos
                .iter()
                .zip(&storage)
                .enumerate()
                .map(|(b, (info, &st))| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(b as u32)
                        .descriptor_type(descriptor_type(st))
                        .image_info(info)
                })
                .collect();
            dev.update_descriptor_sets(&writes, &[]);
            Ok((Some(set), plan))
        }
    }
}

/// The set-1 descriptor type of a storage image (`true`) or a sampled one.
fn descriptor_type(storage: bool) -> vk::DescriptorType {
    if storage {
        vk::DescriptorType::STORAGE_IMAGE
    } else {
        vk::DescriptorType::COMBINED_IMAGE_SAMPLER
    }
}

/// The usage an image is made with.
fn usage(img: &NativeImage) -> vk::ImageUsageFlags {
    if img.storage {
        vk::ImageUsageFlags::STORAGE
            | vk::ImageUsageFlags::TRANSFER_DST
            | vk::ImageUsageFlags::TRANSFER_SRC
    } else {
        vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST
    }
}

/// What one wave's images made; destroyed on drop.
pub(super) struct Resources {
    pub(super) device: ash::Device,
    pub(super) images: Vec<vk::Image>,
    pub(super) memories: Vec<vk::DeviceMemory>,
    pub(super) views: Vec<vk::ImageView>,
    pub(super) samplers: Vec<vk::Sampler>,
    pub(super) staging: Option<HostBuffer>,
    pub(super) pool: vk::DescriptorPool,
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
