//! Native images on lavapipe (`images`): a hand-written wave-interface module (set 0: input
//! and output storage buffers and 12 bytes of push constants, set 1 binding 0: a combined
//! image sampler of a 2D float image) samples a 2x2 RGBA8 image made from a memory region at
//! the coordinate its input words 0 and 1 give, and stores the four components' bits in output
//! words 0..3. Without lavapipe it skips (fails under `CI=true`).

use rdnaprobe_recompiler::native::{NativeDim, NativeImage, NativeSampler, SampledType, TexelCopy};
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, Capability, Decoration, Dim, ExecutionMode, ExecutionModel, FunctionControl,
    ImageFormat, ImageOperands, MemoryModel, StorageClass,
};

use super::tests::lavapipe;
use super::ImageRunError;

/// The sampling module: out[k] = bits of component k of
/// `textureLod(image0, vec2(in[0], in[1]), 0.0)`.
fn sample_module() -> Result<Vec<u32>, rspirv::dr::Error> {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let u32_ = b.type_int(32, 0);
    let f32_ = b.type_float(32);
    let v2 = b.type_vector(f32_, 2);
    let v4 = b.type_vector(f32_, 4);
    let arr = b.type_runtime_array(u32_);
    b.decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
    let buf = b.type_struct([arr]);
    b.decorate(buf, Decoration::Block, []);
    b.member_decorate(buf, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
    let ptr_buf = b.type_pointer(None, StorageClass::StorageBuffer, buf);
    let ptr_u32 = b.type_pointer(None, StorageClass::StorageBuffer, u32_);
    let in_var = b.variable(ptr_buf, None, StorageClass::StorageBuffer, None);
    let out_var = b.variable(ptr_buf, None, StorageClass::StorageBuffer, None);
    for (var, binding) in [(in_var, 0), (out_var, 1)] {
        b.decorate(var, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
        b.decorate(var, Decoration::Binding, [Operand::LiteralBit32(binding)]);
    }
    b.decorate(in_var, Decoration::NonWritable, []);
    let pc = b.type_struct([u32_, u32_, u32_]);
    b.decorate(pc, Decoration::Block, []);
    for m in 0..3 {
        b.member_decorate(pc, m, Decoration::Offset, [Operand::LiteralBit32(4 * m)]);
    }
    let ptr_pc = b.type_pointer(None, StorageClass::PushConstant, pc);
    b.variable(ptr_pc, None, StorageClass::PushConstant, None);
    let image = b.type_image(f32_, Dim::Dim2D, 0, 0, 0, 1, ImageFormat::Unknown, None);
    let sampled = b.type_sampled_image(image);
    let ptr_sampled = b.type_pointer(None, StorageClass::UniformConstant, sampled);
    let tex = b.variable(ptr_sampled, None, StorageClass::UniformConstant, None);
    b.decorate(tex, Decoration::DescriptorSet, [Operand::LiteralBit32(1)]);
    b.decorate(tex, Decoration::Binding, [Operand::LiteralBit32(0)]);

    let fn_ty = b.type_function(void, []);
    let main = b.begin_function(void, None, FunctionControl::NONE, fn_ty)?;
    b.entry_point(ExecutionModel::GLCompute, main, "main", []);
    b.execution_mode(main, ExecutionMode::LocalSize, [1, 1, 1]);
    b.begin_block(None)?;
    let c: Vec<u32> = (0..4).map(|k| b.constant_bit32(u32_, k)).collect();
    let lod = b.constant_bit32(f32_, 0.0f32.to_bits());
    let mut coord = vec![];
    for k in 0..2 {
        let p = b.access_chain(ptr_u32, None, in_var, [c[0], c[k]])?;
        let bits = b.load(u32_, None, p, None, [])?;
        coord.push(b.bitcast(f32_, None, bits)?);
    }
    let coord = b.composite_construct(v2, None, coord)?;
    let si = b.load(sampled, None, tex, None, [])?;
    let texel = b.image_sample_explicit_lod(
        v4,
        None,
        si,
        coord,
        ImageOperands::LOD,
        [Operand::IdRef(lod)],
    )?;
    for (k, &ck) in c.iter().enumerate() {
        let x = b.composite_extract(f32_, None, texel, [k as u32])?;
        let bits = b.bitcast(u32_, None, x)?;
        let p = b.access_chain(ptr_u32, None, out_var, [c[0], ck])?;
        b.store(p, bits, None, [])?;
    }
    b.ret()?;
    b.end_function()?;
    Ok(b.module().assemble())
}

/// Texel bytes (R, G, B, A) at (x, y) of the test image.
const TEXELS: [[[u8; 4]; 2]; 2] = [
    [[50, 100, 150, 200], [100, 200, 250, 0]],
    [[51, 102, 153, 204], [255, 0, 1, 254]],
];
/// The image's first texel is at this byte of the region; rows are 3 texels apart.
const BASE: usize = 8;
const PITCH: usize = 3;

/// A 64-byte region holding [`TEXELS`] at [`BASE`] with row pitch [`PITCH`], 9s between.
fn region() -> Vec<u32> {
    let mut bytes = [9u8; 64];
    for (y, row) in TEXELS.iter().enumerate() {
        for (x, t) in row.iter().enumerate() {
            let at = BASE + (y * PITCH + x) * 4;
            bytes[at..at + 4].copy_from_slice(t);
        }
    }
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// The 2x2 image over [`region`]: `format`, `filter` (VkFilter) for both filters,
/// CLAMP_TO_EDGE, `swizzle` (VkComponentSwizzle).
fn image(format: i32, texel_bytes: u32, filter: i32, swizzle: [i32; 4]) -> NativeImage {
    NativeImage {
        dim: NativeDim::D2,
        arrayed: false,
        depth: false,
        sampled: SampledType::Float,
        format,
        swizzle,
        texel_bytes,
        extent: [2, 2, 1],
        layers: 1,
        levels: 1,
        base_level: 0,
        level_count: 1,
        base_layer: 0,
        layer_count: 1,
        copies: vec![TexelCopy {
            src: BASE as u64,
            row_pitch: PITCH as u32,
            width: 2,
            rows: 2,
            level: 0,
            layer: 0,
            z: 0,
        }],
        sampler: NativeSampler {
            mag_filter: filter,
            min_filter: filter,
            ..NativeSampler::POINT_CLAMP
        },
        storage: false,
    }
}

const R8G8B8A8_UNORM: i32 = 37;
const R64_SFLOAT: i32 = 112;
const NEAREST: i32 = 0;
const LINEAR: i32 = 1;
const IDENTITY: [i32; 4] = [0; 4];

fn unorm(c: u8) -> f32 {
    f32::from(c) / 255.0
}

/// `got` is `want` within one ULP per component: lavapipe's UNORM8 -> float conversion
/// (`c * (1.0 / 255.0)`) is not the correctly rounded `c / 255`.
fn assert_near(got: [f32; 4], want: [f32; 4], what: &str) {
    for k in 0..4 {
        let ulps = (i64::from(got[k].to_bits() as i32) - i64::from(want[k].to_bits() as i32)).abs();
        assert!(
            ulps <= 1,
            "{what}: got {got:?}, want {want:?} ({ulps} ULP in component {k})"
        );
    }
}

#[test]
fn native_image_sampling_on_lavapipe() {
    let Some(mut exec) = lavapipe() else { return };
    let spv = sample_module().expect("assembles");
    if !crate::progfuzz::tests::spirv_val(&spv) {
        eprintln!("spirv-val is not installed: module not validated");
    }
    let pipe = exec.image_wave_pipeline(&spv, &[false]).expect("pipeline");
    assert_eq!(
        exec.image_wave_pipeline(&spv, &[false]).expect("cached"),
        pipe
    );
    let region = region();
    let sample = |exec: &mut super::Executor, img: &NativeImage, u: f32, v: f32| -> [f32; 4] {
        let out = exec
            .run_image_wave(
                pipe,
                &[u.to_bits(), v.to_bits()],
                4,
                &region,
                std::slice::from_ref(img),
            )
            .expect("runs")
            .0;
        std::array::from_fn(|k| f32::from_bits(out[k]))
    };

    // NEAREST: the texel the coordinate falls in, each component c as c / 255.
    let nearest = image(R8G8B8A8_UNORM, 4, NEAREST, IDENTITY);
    for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let (u, v) = (0.25 + 0.5 * x as f32, 0.25 + 0.5 * y as f32);
        let got = sample(&mut exec, &nearest, u, v);
        assert_near(got, TEXELS[y][x].map(unorm), &format!("texel ({x}, {y})"));
    }
    // CLAMP_TO_EDGE: (1.5, -0.5) is texel (1, 0).
    let got = sample(&mut exec, &nearest, 1.5, -0.5);
    assert_near(got, TEXELS[0][1].map(unorm), "clamped to texel (1, 0)");
    // The view's swizzle: B, G, R, ONE (ONE exactly).
    let swizzled = image(R8G8B8A8_UNORM, 4, NEAREST, [5, 4, 3, 2]);
    let [r, g, b, _] = TEXELS[0][1].map(unorm);
    let got = sample(&mut exec, &swizzled, 0.75, 0.25);
    assert_near(got, [b, g, r, 1.0], "swizzle B, G, R, ONE");
    assert_eq!(got[3], 1.0);

    // LINEAR at u = 0.5 (texel-space x 0.5: weight 1/2) and v = 0.25 (row 0's centre): the
    // mean of texels (0, 0) and (1, 0); every sum is even, so the mean is a unorm8 value.
    let linear = image(R8G8B8A8_UNORM, 4, LINEAR, IDENTITY);
    let got = sample(&mut exec, &linear, 0.5, 0.25);
    let want: [f32; 4] = std::array::from_fn(|k| {
        unorm(((u16::from(TEXELS[0][0][k]) + u16::from(TEXELS[0][1][k])) / 2) as u8)
    });
    assert_near(got, want, "linear mean of texels (0, 0) and (1, 0)");

    // A format lavapipe does not sample.
    let r64 = image(R64_SFLOAT, 8, NEAREST, IDENTITY);
    match exec.run_image_wave(pipe, &[0, 0], 4, &region, std::slice::from_ref(&r64)) {
        Err(ImageRunError::Unsupported(why)) => {
            assert!(why.contains("VkFormat 112"), "{why}");
            assert!(why.contains("SAMPLED_IMAGE"), "{why}");
        }
        other => panic!("R64_SFLOAT: {other:?}"),
    }
    // Texels past the region are bad input, reported before the format.
    let mut outside = r64;
    outside.copies[0].src = 40;
    match exec.run_image_wave(pipe, &[0, 0], 4, &region, &[outside]) {
        Err(ImageRunError::Error(e)) => assert!(format!("{e:#}").contains("region"), "{e:#}"),
        other => panic!("texels past the region: {other:?}"),
    }
    // The wrong number of images for the pipeline.
    assert!(matches!(
        exec.run_image_wave(pipe, &[0, 0], 4, &region, &[]),
        Err(ImageRunError::Error(_))
    ));
    // The executor still runs after the failures.
    let got = sample(&mut exec, &nearest, 0.25, 0.25);
    assert_near(got, TEXELS[0][0].map(unorm), "after the failures");
}
