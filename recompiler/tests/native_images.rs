//! Native images (`ImagePath::Native`): what a body's image instructions ask of the host's
//! texture unit (the kernel's images: format, view, texel rows, sampler), the refusals with
//! their reasons, and every emitted module through `spirv-val --target-env vulkan1.1`.
//! Whether a driver's answers agree with the software path is the runner's test (lavapipe).

mod common;

use rdnaprobe_isa::{assemble, FloatMode, Target, Wave};
use rdnaprobe_recompiler::ir::{Expr, ImageOp, Kernel};
use rdnaprobe_recompiler::native::{NativeDim, SampledType};
use rdnaprobe_recompiler::spirv::{emit_wave_mem, SpirvOptions};
use rdnaprobe_recompiler::wave::SGPR_INPUTS;
use rdnaprobe_recompiler::{lower_wave_words_images, ImagePath};

use common::image::s_in;
use common::spirv_val::spirv_val;

const MEM_BYTES: u32 = 1 << 16;

/// [`common::image::tsharp`] with the DST_SEL of the format's components (1, 2 or 4 of them:
/// X, Y, then 0, 0, 1).
fn tsharp(fmt: u32, ty: u32, w: u32, h: u32, d: u32, mips: u32) -> [u32; 8] {
    let dst = match fmt {
        1 | 7 | 20 => 0x204,
        56 => 0xfac,
        _ => panic!("no DST_SEL for format {fmt} in this test"),
    };
    common::image::tsharp(fmt, ty, w, h, d, mips, dst)
}

/// An S#: CLAMP_X/Y/Z `clamp`, XY_MAG/MIN_FILTER `filter`, MIP_FILTER `mip`, MAX_LOD
/// `max_lod` (4.8), DEPTH_COMPARE_FUNC `func`.
fn ssharp(clamp: u32, filter: u32, mip: u32, max_lod: u32, func: u32) -> [u32; 4] {
    [
        clamp | clamp << 3 | clamp << 6 | func << 12,
        max_lod << 12,
        filter << 20 | filter << 22 | mip << 26,
        0,
    ]
}

fn lower(text: &str, sgprs: &[u32; SGPR_INPUTS], wave: Wave) -> Result<Kernel, String> {
    let words = assemble(text).map_err(|e| format!("{text}: {e}"))?;
    lower_wave_words_images(
        &words,
        FloatMode::DEFAULT,
        wave,
        Target::Gfx1030,
        MEM_BYTES,
        Some(sgprs),
        ImagePath::Native,
    )
    .map_err(|e| e.to_string())
}

/// Lowers `text` for both wave sizes, validates the modules, returns the wave32 kernel.
fn lower_valid(text: &str, sgprs: &[u32; SGPR_INPUTS]) -> Kernel {
    let mut first = None;
    for wave in [Wave::W32, Wave::W64] {
        let k = lower(text, sgprs, wave).unwrap_or_else(|e| panic!("{e}"));
        // a device with shaderResourceMinLod (the `_cl` forms' MinLod)
        let opts = SpirvOptions {
            min_lod: true,
            ..SpirvOptions::DESKTOP
        };
        let spv = emit_wave_mem(&k, wave, 0, MEM_BYTES / 4, &opts)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        spirv_val(&spv, &format!("`{text}` ({wave:?})")).unwrap();
        first.get_or_insert(k);
    }
    first.expect("lowered")
}

fn image_ops(k: &Kernel) -> Vec<(&ImageOp, u8)> {
    k.exprs
        .iter()
        .filter_map(|e| match e {
            Expr::Image(a) => Some((&a.op, a.component)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_sample_becomes_one_image_with_its_format_levels_rows_and_sampler() {
    // 8_8_8_8_UNORM (format 56) 2D, 4 x 2, three levels; bilinear, point mips, MAX_LOD 2,
    // wrap
    let t = tsharp(56, 9, 4, 2, 0, 2);
    let s = ssharp(0, 1, 1, 2 << 8, 0);
    let k = lower_valid(
        "image_sample_l v[10:13], v[4:6], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &s_in(t, s),
    );
    assert_eq!(k.images.len(), 1);
    let img = &k.images[0];
    assert_eq!(
        (img.dim, img.arrayed, img.depth),
        (NativeDim::D2, false, false)
    );
    assert_eq!((img.format, img.sampled), (37, SampledType::Float)); // R8G8B8A8_UNORM
    assert_eq!(img.swizzle, [3, 4, 5, 6]); // R, G, B, A
    assert_eq!((img.extent, img.levels, img.texel_bytes), ([4, 2, 1], 3, 4));
    assert_eq!((img.base_level, img.level_count), (0, 3));
    // the linear layout: the smallest level first, rows 256 bytes apart
    let rows: Vec<(u32, u64, u32, u32)> = img
        .copies
        .iter()
        .map(|c| (c.level, c.src, c.width, c.rows))
        .collect();
    assert_eq!(rows, vec![(0, 512, 4, 2), (1, 256, 2, 1), (2, 0, 1, 1)]);
    assert!(img.copies.iter().all(|c| c.row_pitch == 64));
    let smp = img.sampler;
    assert_eq!((smp.mag_filter, smp.min_filter, smp.mipmap_mode), (1, 1, 0));
    assert_eq!(
        (smp.address, smp.max_lod, smp.compare_op),
        ([0; 3], 2.0, None)
    );
    let ops = image_ops(&k);
    assert_eq!(ops.len(), 4);
    assert!(ops
        .iter()
        .enumerate()
        .all(|(i, (op, c))| matches!(op, ImageOp::SampleLod(_)) && usize::from(*c) == i));
}

#[test]
fn each_form_maps_to_its_instruction_and_validates() {
    let t2 = tsharp(1, 9, 4, 4, 0, 0);
    let point = ssharp(2, 0, 0, 0, 0);
    // a plain sample takes the quad's differences as Grad
    let k = lower_valid(
        "image_sample v10, v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &s_in(t2, point),
    );
    assert!(
        matches!(image_ops(&k)[..], [(ImageOp::SampleGrad { ref dx, ref dy, min_lod: None }, 0)] if dx.len() == 2 && dy.len() == 2)
    );
    // a gather of component Y (DMASK 0x2) writes four VGPRs
    let t4 = tsharp(56, 9, 4, 4, 0, 0);
    let k = lower_valid(
        "image_gather4_lz v[10:13], v[4:5], s[8:15], s[0:3] dmask:0x2 dim:SQ_RSRC_IMG_2D",
        &s_in(t4, point),
    );
    assert_eq!(image_ops(&k).len(), 4);
    assert!(image_ops(&k)
        .iter()
        .all(|(op, _)| **op == ImageOp::Gather(1)));
    // a compare on 16_UNORM (format 7) samples a D16_UNORM image with the compare op
    let t16 = tsharp(7, 9, 4, 4, 0, 0);
    let k = lower_valid(
        "image_sample_c_lz v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &s_in(t16, ssharp(2, 1, 0, 0, 3)),
    );
    assert_eq!((k.images[0].format, k.images[0].depth), (124, true));
    assert_eq!(k.images[0].sampler.compare_op, Some(3));
    assert!(matches!(
        image_ops(&k)[..],
        [(ImageOp::SampleDref { .. }, 0)]
    ));
    // a cube: a cube view sampled by a direction (vec3), or with DISABLE_CUBE_WRAP (S# word0
    // bit 28) a 2D array view of its faces; a gather of a cube too
    let cube = tsharp(56, 11, 4, 4, 5, 0);
    let text = "image_sample_l v[10:13], v[4:7], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_CUBE";
    let k = lower_valid(text, &s_in(cube, point));
    assert_eq!(
        (k.images[0].dim, k.images[0].arrayed),
        (NativeDim::Cube, false)
    );
    assert!(matches!(image_ops(&k)[0], (ImageOp::SampleLod(_), 0)));
    let mut faces = point;
    faces[0] |= 1 << 28;
    let k = lower_valid(text, &s_in(cube, faces));
    assert_eq!(
        (k.images[0].dim, k.images[0].arrayed),
        (NativeDim::D2, true)
    );
    assert_eq!(k.images[0].layer_count, 6);
    let k = lower_valid(
        "image_gather4_lz v[10:13], v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_CUBE",
        &s_in(cube, point),
    );
    assert!(image_ops(&k)
        .iter()
        .all(|(op, _)| **op == ImageOp::Gather(0)));
    // a gather's `_o` offsets: a run-time Offset (x in bits 5:0, y in 13:8 of the first dword)
    let gather_o =
        "image_gather4_lz_o v[10:13], v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let k = lower_valid(gather_o, &s_in(tsharp(1, 9, 4, 4, 0, 0), point));
    assert_eq!(image_ops(&k).len(), 4);
    assert!(image_ops(&k)
        .iter()
        .all(|(op, _)| matches!(op, ImageOp::GatherOffset(0, _))));
    let k = lower(gather_o, &s_in(tsharp(1, 9, 4, 4, 0, 0), point), Wave::W32).unwrap();
    let opts = SpirvOptions {
        gather_offsets: false,
        ..SpirvOptions::DESKTOP
    };
    let e = emit_wave_mem(&k, Wave::W32, 0, MEM_BYTES / 4, &opts).unwrap_err();
    assert!(e.to_string().contains("shaderImageGatherExtended"), "{e}");
    // loads: a 2D array's layer (3 layers from BASE_ARRAY 0) and a 1D image's level
    let ta = tsharp(20, 13, 4, 4, 2, 0);
    let k = lower_valid(
        "image_load v[10:11], v[4:6], s[8:15] dmask:0x9 dim:SQ_RSRC_IMG_2D_ARRAY unorm",
        &s_in(ta, [0; 4]),
    );
    assert_eq!(k.images[0].layers, 3);
    assert_eq!(k.images[0].copies.len(), 3);
    assert_eq!(k.images[0].sampled, SampledType::Uint); // 32_UINT
    let t1 = tsharp(1, 8, 16, 1, 0, 2);
    let k = lower_valid(
        "image_load_mip v10, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm",
        &s_in(t1, [0; 4]),
    );
    assert_eq!((k.images[0].dim, k.images[0].levels), (NativeDim::D1, 3));
    assert!(matches!(image_ops(&k)[..], [(ImageOp::Fetch(_), 0)]));
    // `_d` takes the address's derivatives as Grad (2D: dsdx, dtdx, dsdy, dtdy before u, v);
    // `_cd_g16` packs them (s | t per direction) and reads the quad's first lane's
    for (text, n, clamp) in [
        (
            "image_sample_d v10, v[4:9], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            2,
            false,
        ),
        (
            "image_sample_cd_g16 v10, v[4:7], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            2,
            false,
        ),
        (
            "image_sample_d v10, v[4:7], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_1D_ARRAY",
            1,
            false,
        ),
        // a bias scales the quad's gradients
        (
            "image_sample_b v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            2,
            false,
        ),
        // `_cl` and `_b_cl`: the clamp as MinLod
        (
            "image_sample_cl v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            2,
            true,
        ),
        (
            "image_sample_b_cl v10, v[4:7], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            2,
            true,
        ),
        // A16 and D16: the coordinates packed, the result an f16
        (
            "image_sample_d v10, v[4:8], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D a16 d16",
            2,
            false,
        ),
    ] {
        let t = if text.contains("1D_ARRAY") {
            tsharp(1, 12, 4, 1, 1, 0)
        } else {
            t2
        };
        let k = lower_valid(text, &s_in(t, point));
        assert!(
            matches!(image_ops(&k)[..], [(ImageOp::SampleGrad { ref dx, ref dy, min_lod }, 0)] if dx.len() == n && dy.len() == n && min_lod.is_some() == clamp),
            "{text}"
        );
    }
    // two samples of one image and sampler share the binding
    let k = lower_valid(
        "image_sample_lz v10, v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D\n\
         image_sample_lz v11, v[6:7], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &s_in(t2, point),
    );
    assert_eq!((k.images.len(), image_ops(&k).len()), (1, 2));
}

#[test]
fn what_the_host_api_cannot_express_is_refused_with_the_reason() {
    let point = ssharp(2, 0, 0, 0, 0);
    let refused =
        |text: &str, t: [u32; 8], s: [u32; 4]| lower(text, &s_in(t, s), Wave::W32).expect_err(text);
    // a cube's fetch, a cube array sampled across faces, a cube's LOD from derivatives
    let cube = tsharp(1, 11, 4, 4, 5, 0);
    let e = refused(
        "image_load v10, v[4:6], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_CUBE unorm",
        cube,
        point,
    );
    assert!(e.contains("a fetch of a cube view"), "{e}");
    let e = refused(
        "image_sample_lz v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_CUBE",
        tsharp(1, 11, 4, 4, 11, 0),
        point,
    );
    assert!(e.contains("a cube array"), "{e}");
    let e = refused(
        "image_sample v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_CUBE",
        cube,
        point,
    );
    assert!(e.contains("cube sample's LOD from derivatives"), "{e}");
    let t8 = tsharp(1, 9, 4, 4, 0, 0);
    let e = refused(
        "image_sample_c_lz v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        t8,
        ssharp(2, 0, 0, 0, 1),
    );
    assert!(e.contains("compare on a colour format"), "{e}");
    let e = refused(
        "image_sample_lz v10, v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        t8,
        ssharp(3, 0, 0, 0, 0),
    );
    assert!(e.contains("mirror-once"), "{e}");
    // unnormalized coordinates with wrap: Vulkan allows clamping modes only
    let e = refused(
        "image_sample_lz v10, v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm",
        t8,
        ssharp(0, 0, 0, 0, 0),
    );
    assert!(
        e.contains("unnormalized coordinates with an addressing mode"),
        "{e}"
    );
    let e = refused(
        "image_sample_o v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        t8,
        point,
    );
    assert!(e.contains("not mapped"), "{e}");
    // a `_cl` sample emits only for a device with shaderResourceMinLod
    let k = lower(
        "image_sample_cl v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &s_in(t8, point),
        Wave::W32,
    )
    .unwrap();
    let e = emit_wave_mem(&k, Wave::W32, 0, MEM_BYTES / 4, &SpirvOptions::DESKTOP).unwrap_err();
    assert!(e.to_string().contains("shaderResourceMinLod"), "{e}");
    let e = refused(
        "image_gather4_b v[10:13], v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        t8,
        point,
    );
    assert!(
        e.contains("a bias or clamp is mapped for a plain sample only"),
        "{e}"
    );
    // a store to a T# the body also reads natively: two host images of the same texels
    let e = refused(
        "image_store v[10:13], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n\
         image_load v14, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm",
        tsharp(56, 9, 4, 4, 0, 0),
        point,
    );
    assert!(e.contains("another native image"), "{e}");
    // a store through a DST_SEL other than X,Y,Z,W, and without a component's data slot
    let mut swapped = tsharp(56, 9, 4, 4, 0, 0);
    swapped[3] = (swapped[3] & !0xfff) | 0xfa5;
    let e = refused(
        "image_store v[10:13], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm",
        swapped,
        point,
    );
    assert!(e.contains("DST_SEL"), "{e}");
    let e = refused(
        "image_store v[10:12], v[4:5], s[8:15] dmask:0x7 dim:SQ_RSRC_IMG_2D unorm",
        tsharp(56, 9, 4, 4, 0, 0),
        point,
    );
    assert!(e.contains("without data slot 3"), "{e}");
    // store_mip stays on the software path (a storage view has one level)
    let k = lower_valid(
        "image_store_mip v[10:13], v[4:6], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm",
        &s_in(tsharp(56, 9, 4, 4, 0, 1), point),
    );
    assert!(image_ops(&k).is_empty());
    assert!(k.exprs.iter().any(|e| matches!(e, Expr::Mem { .. })));
}

#[test]
fn a_store_writes_a_storage_image_of_its_components() {
    let point = ssharp(2, 0, 0, 0, 0);
    // 8_8_8_8_UNORM: the four data VGPRs (v6..v9: the inputs in2..in5), X..W; 32_32_FLOAT
    // (format 64, DST_SEL X,Y,Z,W): X from v6 and its second component from W (v7), 0 after
    for (fmt, dmask, want) in [
        (56, 0xf, [Some(2u8), Some(3), Some(4), Some(5)]),
        (64, 0x9, [Some(2), Some(3), None, None]),
    ] {
        let text = format!(
            "image_store v[6:{}], v[4:5], s[8:15] dmask:{dmask:#x} dim:SQ_RSRC_IMG_2D unorm",
            5 + u32::count_ones(dmask)
        );
        let t = common::image::tsharp(fmt, 9, 4, 4, 0, 0, 0xfac);
        let k = lower_valid(&text, &s_in(t, point));
        assert_eq!(k.images.len(), 1);
        let img = &k.images[0];
        assert!(img.storage && img.level_count == 1, "{img:?}");
        assert_eq!(img.swizzle, [0; 4]);
        let writes: Vec<_> = k
            .exprs
            .iter()
            .filter_map(|e| match e {
                Expr::Image(a) => match &a.op {
                    ImageOp::Write { data, .. } => Some(data.clone()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        assert_eq!(writes.len(), 1, "{text}");
        // each component: the input its data VGPR holds, or the constant 0
        let got: Vec<Option<u8>> = writes[0]
            .iter()
            .map(|&h| match k.exprs[h.index()] {
                Expr::Input(i) => Some(i),
                Expr::Const { bits: 0, .. } => None,
                ref e => panic!("{text}: a texel component {e:?}"),
            })
            .collect();
        assert_eq!(got, want, "{text}");
        // no software write of the texels
        assert!(
            !k.exprs.iter().any(|e| matches!(e, Expr::Mem { .. })),
            "{text}"
        );
    }
    // a device without shaderStorageImageWriteWithoutFormat gets `unsupported`
    let k = lower(
        "image_store v[10:13], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm",
        &s_in(tsharp(56, 9, 4, 4, 0, 0), point),
        Wave::W32,
    )
    .unwrap();
    let opts = SpirvOptions {
        storage_write: false,
        ..SpirvOptions::DESKTOP
    };
    let e = emit_wave_mem(&k, Wave::W32, 0, MEM_BYTES / 4, &opts).unwrap_err();
    assert!(
        e.to_string()
            .contains("shaderStorageImageWriteWithoutFormat"),
        "{e}"
    );
}
