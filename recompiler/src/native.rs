//! Native images (`--images native`): what a kernel lowered with
//! [`crate::lower::ImagePath::Native`] asks of the host's texture unit.
//!
//! The software path (the default) lowers every image instruction to IR integer and float
//! operations that the CPU model and every Vulkan driver run alike. The native path instead
//! turns a body's samples, gathers and loads into [`crate::ir::Expr::Image`] expressions, which
//! the SPIR-V backend emits as `OpImageSampleExplicitLod`, `OpImageSampleDrefExplicitLod`,
//! `OpImageGather` and `OpImageFetch` on a combined image sampler at descriptor set 1, binding
//! `i` for the kernel's image `i` ([`crate::ir::Kernel::images`]). The runner creates each
//! image from the wave's memory region as [`NativeImage`] describes it (a `VkImage` with
//! optimal tiling, its view and a `VkSampler`), so the host driver's own filtering, LOD
//! selection, addressing and conversions answer. The CPU model has no texture unit: a kernel
//! with native images runs on Vulkan only.
//!
//! Enumerations are Vulkan's raw values (`VkFormat`, `VkComponentSwizzle`, `VkFilter`,
//! `VkSamplerMipmapMode`, `VkSamplerAddressMode`, `VkBorderColor`, `VkCompareOp`), so this
//! crate needs no Vulkan binding.

/// The image view's dimensionality (`VkImageViewType` without the array bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NativeDim {
    D1,
    D2,
    D3,
    Cube,
}

/// What the shader's image type samples as (`OpTypeImage`'s sampled type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampledType {
    Float,
    Uint,
    Sint,
}

/// A `VkSampler`'s state, from the S#.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NativeSampler {
    pub mag_filter: i32,
    pub min_filter: i32,
    pub mipmap_mode: i32,
    /// U, V, W.
    pub address: [i32; 3],
    pub border_color: i32,
    /// The depth compare op of a `_c` instruction's sampler.
    pub compare_op: Option<i32>,
    pub unnormalized: bool,
    pub min_lod: f32,
    pub max_lod: f32,
    pub lod_bias: f32,
}

impl NativeSampler {
    /// Point filtering, clamp to the edge, the view's base level only: what a fetch binds
    /// (it reads no sampler state, but a combined image sampler needs one).
    pub const POINT_CLAMP: NativeSampler = NativeSampler {
        mag_filter: 0,
        min_filter: 0,
        mipmap_mode: 0,
        address: [2; 3],
        border_color: 0,
        compare_op: None,
        unnormalized: false,
        min_lod: 0.0,
        max_lod: 0.0,
        lod_bias: 0.0,
    };
}

/// One copy of texel rows from the wave's memory region into the image: `rows` rows of
/// `width` texels, `row_pitch` texels apart, from byte `src` of the region (the texels are
/// inside the region: [`NativeImage::check`]), into `level`, array layer `layer` (a cube face
/// counts as a layer) and depth slice `z` (3D).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexelCopy {
    pub src: u64,
    pub row_pitch: u32,
    pub width: u32,
    pub rows: u32,
    pub level: u32,
    pub layer: u32,
    pub z: u32,
}

/// An image and its sampler as the T# and S# describe them, for the host to create.
#[derive(Clone, Debug, PartialEq)]
pub struct NativeImage {
    pub dim: NativeDim,
    /// An array view (1D or 2D array; a cube array is not made).
    pub arrayed: bool,
    /// Sampled with a depth reference (`_c`): the image type has Depth 1 and the format is a
    /// depth format.
    pub depth: bool,
    pub sampled: SampledType,
    pub format: i32,
    /// The view's component mapping (DST_SEL).
    pub swizzle: [i32; 4],
    /// Bytes per texel.
    pub texel_bytes: u32,
    /// Level 0's extent (depth: a 3D image's slices, else 1), the array layers (6 per cube),
    /// and the levels of the resource.
    pub extent: [u32; 3],
    pub layers: u32,
    pub levels: u32,
    /// The view's levels and layers.
    pub base_level: u32,
    pub level_count: u32,
    pub base_layer: u32,
    pub layer_count: u32,
    /// Every texel row of the resource, where it is in the region.
    pub copies: Vec<TexelCopy>,
    pub sampler: NativeSampler,
    /// A storage image (`OpImageWrite`: the body's stores): bound as a storage image (no
    /// sampler, identity swizzle) and read back into the region's texel rows after the wave.
    pub storage: bool,
}

impl NativeImage {
    /// Checks that every copy reads inside a region of `region_bytes` bytes; the error says
    /// which copy does not.
    pub fn check(&self, region_bytes: u64) -> Result<(), String> {
        for c in &self.copies {
            let rows = u64::from(c.rows.saturating_sub(1)) * u64::from(c.row_pitch);
            let end = c.src + (rows + u64::from(c.width)) * u64::from(self.texel_bytes);
            if end > region_bytes {
                return Err(format!(
                    "image texels of level {} layer {} slice {} end at byte {end} of a {region_bytes}-byte region",
                    c.level, c.layer, c.z
                ));
            }
        }
        Ok(())
    }
}
