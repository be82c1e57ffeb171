//! What Vulkan allows of a native image (`rdnaprobe_recompiler::native::NativeImage`) and how
//! `images` makes it: the image and view types, the aspects, the sampler's create info. Pure
//! checks, no device: a combination Vulkan forbids (a view outside the image, a copy outside
//! a level, unnormalized coordinates with mipmapping, an arrayed cube) is bad input, reported
//! before anything is created; what a device lacks is `Executor::supports`'s question.

use anyhow::{bail, ensure};
use ash::vk;
use rdnaprobe_recompiler::native::{NativeDim, NativeImage, NativeSampler};

/// How an image is made and viewed.
pub(super) struct Shape {
    pub(super) ty: vk::ImageType,
    pub(super) view: vk::ImageViewType,
    pub(super) flags: vk::ImageCreateFlags,
    /// The view's and the copies' aspect.
    pub(super) aspect: vk::ImageAspectFlags,
    /// The layout transitions' aspects (depth and stencil of a combined format).
    pub(super) barrier_aspect: vk::ImageAspectFlags,
}

/// Checks `img` against what Vulkan allows and says how to make it.
pub(super) fn shape(img: &NativeImage) -> anyhow::Result<Shape> {
    let [w, h, d] = img.extent;
    ensure!(
        w > 0 && h > 0 && d > 0 && img.levels > 0 && img.layers > 0 && img.texel_bytes > 0,
        "empty image: extent {:?}, {} levels, {} layers, {} bytes per texel",
        img.extent,
        img.levels,
        img.layers,
        img.texel_bytes
    );
    ensure!(
        img.level_count > 0
            && img.layer_count > 0
            && img.base_level.checked_add(img.level_count) <= Some(img.levels)
            && img.base_layer.checked_add(img.layer_count) <= Some(img.layers),
        "view of levels {}+{} and layers {}+{} outside {} levels and {} layers",
        img.base_level,
        img.level_count,
        img.base_layer,
        img.layer_count,
        img.levels,
        img.layers
    );
    use vk::{ImageType as T, ImageViewType as V};
    let (ty, view) = match (img.dim, img.arrayed) {
        (NativeDim::D1, false) => (T::TYPE_1D, V::TYPE_1D),
        (NativeDim::D1, true) => (T::TYPE_1D, V::TYPE_1D_ARRAY),
        (NativeDim::D2, false) => (T::TYPE_2D, V::TYPE_2D),
        (NativeDim::D2, true) => (T::TYPE_2D, V::TYPE_2D_ARRAY),
        (NativeDim::D3, false) => (T::TYPE_3D, V::TYPE_3D),
        (NativeDim::Cube, false) => (T::TYPE_2D, V::CUBE),
        (dim @ (NativeDim::D3 | NativeDim::Cube), true) => bail!("an arrayed {dim:?} view"),
    };
    let fits = match img.dim {
        NativeDim::D1 => h == 1 && d == 1,
        NativeDim::D2 => d == 1 && (img.arrayed || img.layer_count == 1),
        NativeDim::D3 => img.layers == 1,
        NativeDim::Cube => d == 1 && w == h && img.layers % 6 == 0 && img.layer_count == 6,
    };
    let arrays_ok = img.dim != NativeDim::D1 || img.arrayed || img.layer_count == 1;
    ensure!(
        fits && arrays_ok,
        "a {:?}{} image of extent {:?} with {} layers viewing {}",
        img.dim,
        if img.arrayed { " array" } else { "" },
        img.extent,
        img.layers,
        img.layer_count
    );
    let flags = if img.dim == NativeDim::Cube {
        vk::ImageCreateFlags::CUBE_COMPATIBLE
    } else {
        vk::ImageCreateFlags::empty()
    };
    let f = vk::Format::from_raw(img.format);
    let has_depth = matches!(
        f,
        vk::Format::D16_UNORM
            | vk::Format::X8_D24_UNORM_PACK32
            | vk::Format::D32_SFLOAT
            | vk::Format::D16_UNORM_S8_UINT
            | vk::Format::D24_UNORM_S8_UINT
            | vk::Format::D32_SFLOAT_S8_UINT
    );
    let has_stencil = matches!(
        f,
        vk::Format::S8_UINT
            | vk::Format::D16_UNORM_S8_UINT
            | vk::Format::D24_UNORM_S8_UINT
            | vk::Format::D32_SFLOAT_S8_UINT
    );
    ensure!(
        img.depth == has_depth && (has_depth || !has_stencil),
        "VkFormat {} ({f:?}) for a {} image",
        img.format,
        if img.depth { "depth" } else { "color" }
    );
    let (aspect, barrier_aspect) = if img.depth {
        let both = vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL;
        let barrier = if has_stencil {
            both
        } else {
            vk::ImageAspectFlags::DEPTH
        };
        (vk::ImageAspectFlags::DEPTH, barrier)
    } else {
        (vk::ImageAspectFlags::COLOR, vk::ImageAspectFlags::COLOR)
    };
    for c in &img.copies {
        let at = |x: u32| (x >> c.level.min(31)).max(1);
        ensure!(
            c.level < img.levels
                && c.layer < img.layers
                && c.z < at(d)
                && c.width <= at(w)
                && c.rows <= at(h)
                && (c.rows <= 1 || c.row_pitch >= c.width),
            "copy {c:?} outside the image (extent {:?}, {} levels, {} layers)",
            img.extent,
            img.levels,
            img.layers
        );
    }
    check_sampler(&img.sampler, view, img)?;
    Ok(Shape {
        ty,
        view,
        flags,
        aspect,
        barrier_aspect,
    })
}

/// The sampler's enumerations are Vulkan's core values, and unnormalized coordinates come
/// with what Vulkan requires of them.
fn check_sampler(
    s: &NativeSampler,
    view: vk::ImageViewType,
    img: &NativeImage,
) -> anyhow::Result<()> {
    ensure!(
        (0..=1).contains(&s.mag_filter)
            && (0..=1).contains(&s.min_filter)
            && (0..=1).contains(&s.mipmap_mode)
            && s.address.iter().all(|a| (0..=4).contains(a))
            && (0..=5).contains(&s.border_color)
            && s.compare_op.is_none_or(|c| (0..=7).contains(&c))
            && img.swizzle.iter().all(|c| (0..=6).contains(c)),
        "sampler or swizzle outside Vulkan's core values: {s:?}, swizzle {:?}",
        img.swizzle
    );
    if s.unnormalized {
        let clamp = |a: i32| {
            a == vk::SamplerAddressMode::CLAMP_TO_EDGE.as_raw()
                || a == vk::SamplerAddressMode::CLAMP_TO_BORDER.as_raw()
        };
        ensure!(
            s.min_filter == s.mag_filter
                && s.mipmap_mode == vk::SamplerMipmapMode::NEAREST.as_raw()
                && s.min_lod == 0.0
                && s.max_lod == 0.0
                && clamp(s.address[0])
                && clamp(s.address[1])
                && s.compare_op.is_none()
                && matches!(
                    view,
                    vk::ImageViewType::TYPE_1D | vk::ImageViewType::TYPE_2D
                )
                && img.level_count == 1
                && img.layer_count == 1,
            "unnormalized coordinates with {s:?} on a {view:?} view of {} levels",
            img.level_count
        );
    }
    Ok(())
}

/// The `VkSamplerCreateInfo` of `s` (anisotropy off).
pub(super) fn sampler_info(s: &NativeSampler) -> vk::SamplerCreateInfo<'static> {
    let [u, v, w] = s.address.map(vk::SamplerAddressMode::from_raw);
    vk::SamplerCreateInfo::default()
        .mag_filter(vk::Filter::from_raw(s.mag_filter))
        .min_filter(vk::Filter::from_raw(s.min_filter))
        .mipmap_mode(vk::SamplerMipmapMode::from_raw(s.mipmap_mode))
        .address_mode_u(u)
        .address_mode_v(v)
        .address_mode_w(w)
        .mip_lod_bias(s.lod_bias)
        .anisotropy_enable(false)
        .max_anisotropy(1.0)
        .compare_enable(s.compare_op.is_some())
        .compare_op(vk::CompareOp::from_raw(s.compare_op.unwrap_or(0)))
        .min_lod(s.min_lod)
        .max_lod(s.max_lod)
        .border_color(vk::BorderColor::from_raw(s.border_color))
        .unnormalized_coordinates(s.unnormalized)
}

pub(super) fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
