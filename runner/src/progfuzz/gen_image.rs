//! progfuzz's image accesses (see [`Gen::image`]): a T# built in SGPRs by scalar moves, the
//! access at a texel index or coordinate from the input VGPRs.

use super::gen::Gen;
use rdnaprobe_recompiler::spirv::arbitrary::Rng;

/// The T# formats progfuzz's image accesses draw: (FORMAT, components, float-valued), 32_UINT,
/// 32_FLOAT, 16_FLOAT, 16_UNORM, 16_SNORM, 8_UNORM, 16_16_FLOAT, 16_16_UNORM, 5_6_5_UNORM,
/// 8_8_8_8_UNORM, 8_8_8_8_SNORM, 8_8_8_8_SRGB, 16_16_16_16_UNORM.
const IMAGE_FORMATS: [(u32, usize, bool); 13] = [
    (20, 1, false),
    (22, 1, true),
    (13, 1, true),
    (7, 1, true),
    (8, 1, true),
    (1, 1, true),
    (29, 2, true),
    (23, 2, true),
    (133, 3, true),
    (56, 4, true),
    (57, 4, true),
    (130, 4, true),
    (65, 4, true),
];

impl Gen<'_> {
    /// An image access to the memory region: a linear 1D T# of 64 texels of a format drawn from
    /// [`IMAGE_FORMATS`] at the region's start (the texels past it are out of range), built in
    /// s[40:47] by scalar moves just before the access (the lowering needs it known: only in the
    /// first block, see [`Gen::program`]), and at the texel index in v2, masked to the image or
    /// past it (loads give 0, stores write nothing there), an image_load (one or every
    /// component), an image_store (DMASK 0xf; not to sRGB or 16-bit float), on 32_UINT an
    /// image_atomic_add (with and without GLC), or on a float-valued format an image_sample_lz
    /// at any f32 coordinate (NaN, infinities, past [0, 1]) through a random S# in s[36:39]
    /// (addressing mode, point or bilinear, border colour), on a one-component one sometimes an
    /// image_sample_c_lz with a random compare function and reference, or a sample with a LOD
    /// (no suffix, `_l`, `_cl`, `_b`, `_d`, `_cd`, `_g16`; sometimes A16 and/or D16) of a
    /// two-level T# with MIP_FILTER point and a random MAX_LOD, its address dwords the input
    /// VGPRs. Lanes with equal indices
    /// write the same texel.
    pub(super) fn image(&self, rng: &mut Rng) -> Vec<String> {
        const DIM: &str = "dim:SQ_RSRC_IMG_1D";
        let (fmt, comps, float_valued) = IMAGE_FORMATS[rng.below(IMAGE_FORMATS.len())];
        let d = 10 + rng.below(13);
        let a = |rng: &mut Rng| 4 + rng.below(22);
        let wide = |n: usize, at: usize| {
            if n == 1 {
                format!("v{at}")
            } else {
                format!("v[{at}:{}]", at + n - 1)
            }
        };
        let all = (1u32 << comps) - 1;
        let load_all = format!(
            "image_load {}, v2, s[40:47] dmask:0x{all:x} {DIM}",
            wide(comps, d)
        );
        let mut prep = Vec::new();
        // a sample with a LOD reads a T# of two levels (point mipmapping): level 0's texels lie
        // past the region (it follows level 1's 256-byte row), so the level a sample picks
        // shows in what it returns
        let mip = float_valued && rng.below(4) == 0;
        let (access, store) = if mip {
            // a sample with a LOD (implicit, explicit, clamped, biased, user derivatives)
            // straight from the input VGPRs v4..v9 (special values: NaN, infinities, ...)
            // (form, bias dwords, derivative dwords, coordinate and LOD/clamp values)
            const FORMS: [(&str, usize, usize, usize); 10] = [
                ("image_sample", 0, 0, 1),
                ("image_sample_l", 0, 0, 2),
                ("image_sample_cl", 0, 0, 2),
                ("image_sample_b", 1, 0, 1),
                ("image_sample_b_cl", 1, 0, 2),
                ("image_sample_d", 0, 2, 1),
                ("image_sample_cd", 0, 2, 1),
                ("image_sample_d_g16", 0, 2, 1),
                ("image_sample_d_cl", 0, 2, 2),
                ("image_sample_cd_cl_g16", 0, 2, 2),
            ];
            let (op, bias, grads, values) = FORMS[rng.below(FORMS.len())];
            // sometimes A16 (the coordinate and LOD/clamp as f16 halves of one dword) and D16
            // (the results as f16 pairs; rule image-sample-a16-d16)
            let a16 = rng.below(4) == 0;
            let d16 = rng.below(4) == 0;
            let n = bias + grads + if a16 { values.div_ceil(2) } else { values };
            let flags = format!(
                "{}{}",
                if a16 { " a16" } else { "" },
                if d16 { " d16" } else { "" }
            );
            let out = if d16 { comps.div_ceil(2) } else { comps };
            let filter = rng.below(2) as u32;
            prep.extend([
                format!("s_mov_b32 s36, {}", rng.pick(&[0u32, 1, 2, 3])),
                format!(
                    "s_mov_b32 s37, 0x{:x}",
                    rng.pick(&[0x080u32, 0x100, 0x180, 0xf00]) << 12
                ),
                format!(
                    "s_mov_b32 s38, 0x{:x}",
                    1 << 26 | filter << 20 | filter << 22
                ),
                "s_mov_b32 s39, 0".to_string(),
            ]);
            let at = 4 + rng.below(7 - n);
            (
                format!(
                    "{op} {}, {}, s[40:47], s[36:39] dmask:0x{all:x} {DIM}{flags}",
                    wide(out, d),
                    wide(n, at)
                ),
                false,
            )
        } else if float_valued && rng.below(3) == 0 {
            // a sample at any f32 coordinate through a random S# in s[36:39]
            let mode = rng.pick(&[0u32, 1, 2, 3, 6, 7]);
            let filter = rng.below(2) as u32;
            let compare = comps == 1 && rng.below(2) == 0;
            let func = if compare { rng.below(8) as u32 } else { 0 };
            prep.extend([
                format!("v_mov_b32 v2, v{}", a(rng)),
                format!("s_mov_b32 s36, 0x{:x}", mode | func << 12),
                "s_mov_b32 s37, 0".to_string(),
                format!("s_mov_b32 s38, 0x{:x}", filter << 20 | filter << 22),
                format!("s_mov_b32 s39, 0x{:x}", (rng.below(3) as u32) << 30),
            ]);
            let access = if compare {
                // the reference (v2) before the coordinate (v3)
                prep.push(format!("v_mov_b32 v3, v{}", a(rng)));
                format!("image_sample_c_lz v{d}, v[2:3], s[40:47], s[36:39] dmask:0x1 {DIM}")
            } else {
                format!(
                    "image_sample_lz {}, v2, s[40:47], s[36:39] dmask:0x{all:x} {DIM}",
                    wide(comps, d)
                )
            };
            (access, false)
        } else {
            let mask = rng.pick(&[0x3fu32, 0x7f, 0x7]);
            prep.push(format!("v_and_b32 v2, 0x{mask:x}, v{}", a(rng)));
            match (fmt, rng.below(4)) {
                (_, 0) => (load_all, false),
                (_, 1) => (
                    format!("image_load v{d}, v2, s[40:47] dmask:0x1 {DIM}"),
                    false,
                ),
                (20, 2) => (
                    format!("image_atomic_add v{d}, v2, s[40:47] dmask:0x1 {DIM} glc"),
                    false,
                ),
                (20, _) => (
                    format!("image_atomic_add v{}, v2, s[40:47] dmask:0x1 {DIM}", a(rng)),
                    false,
                ),
                // sRGB and 16-bit float stores are refused (their encodings' rounding is not
                // measured): a load instead
                (13 | 29 | 130, _) => (load_all, false),
                // every data slot: a two-component store takes its second component from W
                _ => (
                    format!(
                        "image_store {}, v2, s[40:47] dmask:0xf {DIM}",
                        wide(4, 4 + rng.below(19))
                    ),
                    true,
                ),
            }
        };
        // DST_SEL: stores take X, Y, Z, W; loads and samples the format's components, then 1
        let dst_sel = if store || comps == 4 {
            0xfac
        } else {
            [0, 0x004, 0x02c, 0x1ac][comps] | 1 << 9
        };
        // FORMAT, and WIDTH - 1 = 63 split over word1 bits 31:30 and word2 bits 13:0
        let word1 = fmt << 20 | 3 << 30;
        let mut lines = vec![
            "s_lshr_b64 s[48:49], s[16:17], 8".to_string(),
            "s_mov_b32 s40, s48".to_string(),
            format!("s_or_b32 s41, s49, 0x{word1:08x}"),
            "s_mov_b32 s42, 15".to_string(),
            // TYPE 1D, LAST_LEVEL and (word5) MAX_MIP 1 for a mipmapped sample
            format!(
                "s_mov_b32 s43, 0x{:08x}",
                8u32 << 28 | u32::from(mip) << 16 | dst_sel
            ),
            "s_mov_b32 s44, 0".to_string(),
            format!("s_mov_b32 s45, {}", u32::from(mip) << 4),
            "s_mov_b64 s[46:47], 0".to_string(),
        ];
        lines.extend(prep);
        lines.push(access);
        lines
    }
}
