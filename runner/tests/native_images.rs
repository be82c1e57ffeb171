//! `--images native` (docs/backends.md, "Native images"): the texture-unit campaign's 1D spec
//! through lavapipe's own texture unit. Every row runs; point samples of the float formats
//! (16_FLOAT, 32_FLOAT: no conversion to round) equal the software path's bit for bit, and those
//! of the UNORM and SNORM formats are within one f32 step (Vulkan lets a texture unit's
//! normalized conversion be that far; lavapipe's is), which holds the mapping (format, texel
//! rows, levels, addressing modes, coordinates, DST_SEL) to the model; the filtered rows are the
//! report's business, not a test's. Loads (`OpImageFetch`) of unconverted formats equal the
//! software path in and out of range. The native path on a backend without a texture unit,
//! and on a spec without images, is an error (exit 2).

mod common;

use common::{command, stderr};

fn spec(stem: &str) -> std::path::PathBuf {
    common::repo_root()
        .join("datasets/specs/images")
        .join(stem)
        .with_extension("toml")
}

/// The float formats (a point sample returns the texel's value: bit for bit), the normalized
/// ones (within one step), and the S#s (by index in the spec) that point-sample.
const FLOAT_FORMATS: [u32; 2] = [13, 22];
const NORM_FORMATS: [u32; 5] = [1, 2, 7, 8, 56];
const POINT_SAMPLERS: [u32; 4] = [0, 3, 6, 9];

/// `sweep SPEC` on lavapipe through the software path, then with `--images native`, into
/// `dir`: the two datasets.
fn sweep_both(
    dir: &std::path::Path,
    spec: &std::path::Path,
) -> (rdnaprobe_dataset::Dataset, rdnaprobe_dataset::Dataset) {
    let mut sets = vec![];
    for images in ["software", "native"] {
        let out = dir.join(format!("{images}.csv"));
        let o = command([
            "sweep",
            "--backend",
            "vulkan:lavapipe",
            "--images",
            images,
            "-o",
        ])
        .arg(&out)
        .arg(spec)
        .output()
        .unwrap();
        assert!(o.status.success(), "{images}: {}", stderr(&o));
        sets.push(rdnaprobe_dataset::read_dataset(&out).unwrap());
    }
    let native = sets.pop().unwrap();
    (sets.pop().unwrap(), native)
}

/// Writes `text` as a spec in a scratch directory named `name` and sweeps it through both
/// paths ([`sweep_both`]).
fn sweep_text_both(
    name: &str,
    text: &str,
) -> (rdnaprobe_dataset::Dataset, rdnaprobe_dataset::Dataset) {
    let dir = common::scratch_dir(name);
    let spec = dir.join("spec.toml");
    std::fs::write(&spec, text).unwrap();
    sweep_both(&dir, &spec)
}

/// Writes `text` as a spec in a scratch directory named `name`, sweeps it through both paths
/// ([`sweep_both`]) and asserts that the native path ran all `rows` rows (`ok`, labelled
/// `+native-images`) and wrote out0 as the software path did on each; the software rows.
fn same_on_both_paths(name: &str, text: &str, rows: usize) -> rdnaprobe_dataset::Dataset {
    let (soft, native) = sweep_text_both(name, text);
    let col = |name: &str| native.extra_columns.iter().position(|c| c == name).unwrap();
    assert_eq!(native.rows.len(), rows, "{name}");
    assert!(native.rows.iter().all(|r| r.extra[col("status")] == "ok"));
    assert!(native
        .rows
        .iter()
        .all(|r| r.extra[col("backend")] == "vulkan:lavapipe+native-images"));
    for (i, (a, b)) in soft.rows.iter().zip(&native.rows).enumerate() {
        assert_eq!(a.outputs[0], b.outputs[0], "{name} row {i}: {}", a.note);
    }
    soft
}

/// The distance in f32 steps of two non-NaN f32 bit patterns.
fn steps(a: u32, b: u32) -> u64 {
    let key = |v: u32| {
        if v >> 31 == 1 {
            -i64::from(v & 0x7fff_ffff)
        } else {
            i64::from(v)
        }
    };
    key(a).abs_diff(key(b))
}

#[test]
fn lavapipe_point_samples_agree_with_the_software_path() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let dir = common::scratch_dir("native-images");
    let (soft, native) = &sweep_both(&dir, &spec("texture_units_1d"));
    let col = |name: &str| native.extra_columns.iter().position(|c| c == name).unwrap();
    let (status, backend) = (col("status"), col("backend"));
    assert_eq!(soft.rows.len(), 6144);
    assert_eq!(native.rows.len(), 6144);
    assert!(native.rows.iter().all(|r| r.extra[status] == "ok"));
    assert!(native
        .rows
        .iter()
        .all(|r| r.extra[backend] == "vulkan:lavapipe+native-images"));
    let (mut exact, mut near) = (0, 0);
    let mut differ = 0;
    for (i, (a, b)) in soft.rows.iter().zip(&native.rows).enumerate() {
        // "image sweep texture_units_1d: format F, sampler S"
        let note: Vec<u32> = a
            .note
            .rsplit(": ")
            .next()
            .unwrap()
            .split(", ")
            .map(|w| w.rsplit(' ').next().unwrap().parse().unwrap())
            .collect();
        let point = POINT_SAMPLERS.contains(&note[1]);
        if point && FLOAT_FORMATS.contains(&note[0]) {
            assert_eq!(a.outputs[0], b.outputs[0], "row {i}: {}", a.note);
            exact += 1;
        } else if point && NORM_FORMATS.contains(&note[0]) {
            let d = steps(a.outputs[0].unwrap(), b.outputs[0].unwrap());
            assert!(d <= 1, "row {i}: {}: {d} steps", a.note);
            near += 1;
        } else if a.outputs[0] != b.outputs[0] {
            differ += 1;
        }
    }
    assert_eq!((exact, near), (2 * 4 * 64, 5 * 4 * 64));
    // lavapipe's bilinear weights are not the model's 8-bit ones: most filtered rows differ
    assert!(differ > 1000, "{differ} filtered rows differ");
}

/// A 7 x 5 x 2-layer image of 3 levels loaded by image_load_mip at coordinates, layers and
/// levels in and out of range, in formats a fetch returns unconverted (16_FLOAT, 32_UINT,
/// 32_FLOAT).
const LOADS: &str = r#"
name = "native_loads"
gfx = "gfx1030"
description = "image_load_mip in and out of range"

[body]
asm = "image_load_mip v10, v[4:7], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY unorm"

[inputs]
in0 = { values = ["0x0", "0x3", "0x6", "0x7", "0xffffffff"] }
in1 = { values = ["0x0", "0x4", "0x5"] }
in2 = { values = ["0x0", "0x1", "0x2"] }
in3 = { values = ["0x0", "0x1", "0x2", "0x3"] }

[image]
type = "2d_array"
size = [7, 5, 2]
formats = [13, 20, 22]
levels = 3
texels = "random"
seed = 5
"#;

#[test]
fn lavapipe_loads_equal_the_software_path_in_and_out_of_range() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let soft = same_on_both_paths("native-loads", LOADS, 540);
    // texels in range, not only the zeros of the ones out of range
    let read = soft.rows.iter().filter(|r| r.outputs[0] != Some(0)).count();
    assert!(read > 40, "{read} rows read a nonzero texel");
}

/// A16 and D16 (rule image-sample-a16-d16): (u | v) f16 pairs and a (LOD | unused) dword in,
/// f16 results out, point sampling of 16_FLOAT and 32_FLOAT.
const A16_D16: &str = r#"
name = "native_a16_d16"
gfx = "gfx1030"
description = "image_sample_l a16 d16, point"

[body]
asm = "image_sample_l v10, v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D a16 d16"

[inputs]
# (u | v): u 0.1, 0.3125, 0.5, 0.8125, 1.0, -0.2 with v 0.25 or 0.6
in0 = { values = ["0x34002e66", "0x34003500", "0x34003800", "0x34003a80", "0x38cd3c00", "0x38cdb266", "0x38cd3500", "0x38cd3a80"] }
# (LOD | unused)
in1 = { values = ["0x00000000", "0xabcd3c00"] }

[image]
type = "2d"
size = [5, 3]
formats = [13, 22]
texels = "random"
seed = 9

[[image.sampler]]
clamp = "clamp"

[[image.sampler]]
clamp = "wrap"
"#;

#[test]
fn lavapipe_a16_d16_point_samples_equal_the_software_path() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let soft = same_on_both_paths("native-a16-d16", A16_D16, 2 * 8 * 2 * 2);
    let halves: std::collections::BTreeSet<u32> = soft
        .rows
        .iter()
        .map(|r| r.outputs[0].unwrap() & 0xffff)
        .collect();
    assert!(halves.len() >= 8, "{} distinct f16 results", halves.len());
}

/// Point samples of a 4 x 4 32_32_32_32_FLOAT cube (rule image-sample-cube's face coordinates
/// in [1, 2]) at texel centres of every face: inside a face the direction through the point
/// (a cube view) and the face coordinates (the model) read the same texel. `{sampler}` is the
/// S#'s extra line.
const CUBE: &str = r#"
name = "native_cube"
gfx = "gfx1030"
description = "image_sample_lz and image_sample_l on a cube, texel centres of every face"

[body]
asm = "image_sample_lz v[10:13], v[4:6], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_CUBE"

[inputs]
# x, y: 1 + (k + 1/2) / 4
in0 = { values = ["0x3f900000", "0x3fb00000", "0x3fd00000", "0x3ff00000"], type = "f32" }
in1 = { values = ["0x3f900000", "0x3fb00000", "0x3fd00000", "0x3ff00000"], type = "f32" }
# faces 0..5
in2 = { values = ["0x00000000", "0x3f800000", "0x40000000", "0x40400000", "0x40800000", "0x40a00000"], type = "f32" }

[image]
type = "cube"
size = [4, 4, 6]
formats = [77]
texels = "random"
seed = 31

[[image.sampler]]
clamp = "clamp"
{sampler}
"#;

#[test]
fn lavapipe_cube_samples_read_the_software_paths_texels() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    // every face's 16 texel centres: 96 rows, 96 distinct texels (random 32-bit floats)
    for (name, sampler) in [
        ("native-cube", ""),
        ("native-cube-faces", "disable_cube_wrap = true"),
    ] {
        let soft = same_on_both_paths(name, &CUBE.replace("{sampler}", sampler), 96);
        let texels: std::collections::BTreeSet<u32> =
            soft.rows.iter().map(|r| r.outputs[0].unwrap()).collect();
        assert_eq!(texels.len(), 96, "{name}");
    }
}

/// image_store of 16 lanes to the 16 texels of a 4 x 4 image (one each: no two lanes write
/// one texel, whose order the host's texture unit would decide), data from 0, 1/4, 1/3, 1/2,
/// 0.999, -0.5, 1.5 ..., in 8_8_8_8_UNORM, 32_FLOAT and 32_32_32_32_FLOAT.
const STORES: &str = r#"
name = "native_stores"
gfx = "gfx1030"
description = "image_store of 4 x 4 texels, one per lane"
combine = "zip"

[body]
asm = "image_store v[6:9], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm"

[inputs]
in0 = { values = ["0x00000000", "0x00000001", "0x00000002", "0x00000003", "0x00000000", "0x00000001", "0x00000002", "0x00000003", "0x00000000", "0x00000001", "0x00000002", "0x00000003", "0x00000000", "0x00000001", "0x00000002", "0x00000003"] }
in1 = { values = ["0x00000000", "0x00000000", "0x00000000", "0x00000000", "0x00000001", "0x00000001", "0x00000001", "0x00000001", "0x00000002", "0x00000002", "0x00000002", "0x00000002", "0x00000003", "0x00000003", "0x00000003", "0x00000003"] }
in2 = { values = ["0x00000000", "0x3e800000", "0x3f333333", "0x3f7fbe77", "0x3f4ccccd", "0x3f0ccccd", "0x3f000000", "0x3e4ccccd", "0x3fc00000", "0x3dfbe76d", "0x3ee66666", "0x3f800000", "0x3eaaaaab", "0xbf000000", "0x3a83126f", "0x3f666666"], type = "f32" }
in3 = { values = ["0x3e4ccccd", "0x3fc00000", "0x3dfbe76d", "0x3ee66666", "0x3f800000", "0x3eaaaaab", "0xbf000000", "0x3a83126f", "0x3f666666", "0x00000000", "0x3e800000", "0x3f333333", "0x3f7fbe77", "0x3f4ccccd", "0x3f0ccccd", "0x3f000000"], type = "f32" }
in4 = { values = ["0x3a83126f", "0x3f666666", "0x00000000", "0x3e800000", "0x3f333333", "0x3f7fbe77", "0x3f4ccccd", "0x3f0ccccd", "0x3f000000", "0x3e4ccccd", "0x3fc00000", "0x3dfbe76d", "0x3ee66666", "0x3f800000", "0x3eaaaaab", "0xbf000000"], type = "f32" }
in5 = { values = ["0x3f0ccccd", "0x3f000000", "0x3e4ccccd", "0x3fc00000", "0x3dfbe76d", "0x3ee66666", "0x3f800000", "0x3eaaaaab", "0xbf000000", "0x3a83126f", "0x3f666666", "0x00000000", "0x3e800000", "0x3f333333", "0x3f7fbe77", "0x3f4ccccd"], type = "f32" }

[image]
type = "2d"
size = [4, 4]
formats = [56, 22, 77]
texels = "random"
seed = 3
"#;

#[test]
fn lavapipe_native_stores_write_the_software_paths_texels() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let (soft, native) = sweep_text_both("native-stores", STORES);
    let col = |d: &rdnaprobe_dataset::Dataset, name: &str| {
        d.extra_columns.iter().position(|c| c == name).unwrap()
    };
    let (m, w) = (col(&soft, "mem_out"), col(&soft, "wave_id"));
    let words = |s: &str| -> Vec<u32> {
        s.split_whitespace()
            .map(|w| u32::from_str_radix(w.trim_start_matches("0x"), 16).unwrap())
            .collect()
    };
    let mut waves = 0;
    for (a, b) in soft.rows.iter().zip(&native.rows) {
        assert_eq!(b.extra[col(&native, "status")], "ok");
        let (ma, mb) = (&a.extra[m], &b.extra[col(&native, "mem_out")]);
        if ma.is_empty() {
            continue;
        }
        waves += 1;
        let (wa, wb) = (words(ma), words(mb));
        assert_eq!(wa.len(), wb.len());
        let changed = wa.iter().zip(&wb).filter(|(x, y)| x != y).count();
        if a.extra[w].starts_with("f56_") {
            // UNORM: the host converts (Vulkan allows other roundings than the model's half
            // up): every byte within one code
            for (x, y) in wa.iter().zip(&wb) {
                for k in 0..4 {
                    let (p, q) = ((x >> (8 * k)) as u8, (y >> (8 * k)) as u8);
                    assert!(p.abs_diff(q) <= 1, "{}: {x:08x} vs {y:08x}", a.extra[w]);
                }
            }
        } else {
            assert_eq!(changed, 0, "{}: the float texels", a.extra[w]);
        }
    }
    assert_eq!(waves, 3);
    // the stores changed the region: the software path's texels are not the wave's input
    let inputs = col(&soft, "mem_in");
    let first = soft.rows.iter().find(|r| !r.extra[m].is_empty()).unwrap();
    assert_ne!(words(&first.extra[inputs]), words(&first.extra[m]));
}

/// image_gather4_lz_o of an 8 x 8 32_FLOAT image of random texels: offsets (0, 0), (1, 0),
/// (-1, 2), (3, -3) and the six-bit range's ends (-32, 31), (31, -32), clamped and wrapped.
const GATHER_OFFSETS: &str = r#"
name = "native_gather_offsets"
gfx = "gfx1030"
description = "image_gather4_lz_o on an 8 x 8 32_FLOAT image, offsets in the six-bit range"

[body]
asm = "image_gather4_lz_o v[10:13], v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D"

[inputs]
in0 = { values = ["0x00000000", "0x00000001", "0x0000023f", "0x00003d03", "0x00001f20", "0x0000201f"] }
in1 = { values = ["0x3e4ccccd", "0x3ee66666", "0x3f4ccccd"], type = "f32" }
in2 = { values = ["0x3e99999a", "0x3f333333"], type = "f32" }

[image]
type = "2d"
size = [8, 8]
formats = [22]
texels = "random"
seed = 41

[[image.sampler]]
clamp = "clamp"
[[image.sampler]]
clamp = "wrap"
"#;

#[test]
fn lavapipe_gather_offsets_equal_the_software_path() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let (soft, native) = sweep_text_both("native-gather-offsets", GATHER_OFFSETS);
    assert_eq!(native.rows.len(), 72);
    let status = native
        .extra_columns
        .iter()
        .position(|c| c == "status")
        .unwrap();
    let mut texels = std::collections::BTreeSet::new();
    for (i, (a, b)) in soft.rows.iter().zip(&native.rows).enumerate() {
        assert_eq!(b.extra[status], "ok", "row {i}");
        // the four texels of the footprint, unfiltered: the same bits
        assert_eq!(a.outputs[..4], b.outputs[..4], "row {i}: {}", a.note);
        texels.extend(a.outputs[..4].iter().flatten().copied());
    }
    // the offsets move the footprint: many of the image's 64 texels are gathered
    assert!(texels.len() >= 40, "{} distinct texels", texels.len());
}

/// A level-selection case: `head` (name, body and inputs) on an 8 x 8 32_FLOAT 2D image of 3
/// random levels (`seed`), sampled with clamping, point filtering, the nearest level and
/// MAX_LOD 2, so each level a sample reads shows in its value.
fn level_spec(head: &str, seed: u32) -> String {
    format!(
        "{head}
[image]
type = \"2d\"
size = [8, 8]
formats = [22]
levels = 3
texels = \"random\"
seed = {seed}

[[image.sampler]]
clamp = \"clamp\"
mip = \"point\"
max_lod = 2.0
"
    )
}

/// image_sample_d with derivatives of half a texel, 2 and 4 texels along x (LOD -1, 1 and 2,
/// away from the levels' edges), nearest level, point sampling of 32_FLOAT.
const DERIVS: &str = r#"
name = "native_derivatives"
gfx = "gfx1030"
description = "image_sample_d, LOD from the derivatives, nearest level"

[body]
asm = "image_sample_d v10, v[4:9], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D"

[inputs]
# dsdx: 0.0625, 0.25, 0.5 of an 8-texel image
in0 = { values = ["0x3d800000", "0x3e800000", "0x3f000000"], type = "f32" }
in1 = { values = ["0x00000000"], type = "f32" }
in2 = { values = ["0x00000000"], type = "f32" }
in3 = { values = ["0x00000000"], type = "f32" }
# u, v: texel centres
in4 = { values = ["0x3d800000", "0x3ea00000", "0x3f100000"], type = "f32" }
in5 = { values = ["0x3e400000", "0x3f300000"], type = "f32" }

"#;

#[test]
fn lavapipe_derivative_samples_read_the_software_paths_levels() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let soft = same_on_both_paths("native-derivatives", &level_spec(DERIVS, 12), 18);
    // the three LODs read three different levels at the same coordinates
    let at_lod = |k: usize| soft.rows[k * 6].outputs[0];
    assert!(at_lod(0) != at_lod(1) && at_lod(1) != at_lod(2));
}

/// image_sample_b on quads whose v steps 2 texels a lane (LOD 2 from the quad's
/// differences) with biases -2, -1 and 0: levels 0, 1 and 2 (nearest level, 32_FLOAT, point).
const BIAS: &str = r#"
name = "native_bias"
gfx = "gfx1030"
description = "image_sample_b, the quad's LOD plus the bias, nearest level"

[body]
asm = "image_sample_b v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D"

[inputs]
in0 = { values = ["0xc0000000", "0xbf800000", "0x00000000"], type = "f32" }
# u
in1 = { values = ["0x3e400000", "0x3f300000"], type = "f32" }
# v, the fastest: a quad's four lanes 0.0625, 0.3125, 0.5625, 0.8125
in2 = { values = ["0x3d800000", "0x3ea00000", "0x3f100000", "0x3f500000"], type = "f32" }

"#;

#[test]
fn lavapipe_biased_samples_read_the_software_paths_levels() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let soft = same_on_both_paths("native-bias", &level_spec(BIAS, 13), 24);
    // the three biases read three levels at the same coordinates
    let at = |k: usize| soft.rows[k * 8].outputs[0];
    assert!(at(0) != at(1) && at(1) != at(2) && at(0) != at(2));
}

/// image_sample_cl with the quad's coordinates equal (no footprint: the LOD is the clamp, a
/// minimum LOD) and clamps 0, 1, 2 and 1: levels 0, 1, 2 (nearest level, 32_FLOAT, point).
const CLAMP: &str = r#"
name = "native_clamp"
gfx = "gfx1030"
description = "image_sample_cl, the clamp as the minimum LOD, nearest level"

[body]
asm = "image_sample_cl v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D"

[inputs]
in0 = { values = ["0x3e400000", "0x3f300000"], type = "f32" }
in1 = { values = ["0x3d800000", "0x3f100000"], type = "f32" }
# the clamp, the fastest
in2 = { values = ["0x00000000", "0x3f800000", "0x40000000", "0x3f800000"], type = "f32" }

"#;

#[test]
fn lavapipe_clamped_samples_read_the_software_paths_levels() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let (soft, native) = &sweep_text_both("native-clamp", &level_spec(CLAMP, 14));
    let status = native
        .extra_columns
        .iter()
        .position(|c| c == "status")
        .unwrap();
    assert_eq!(native.rows.len(), 16);
    // lavapipe of Debian 12 (Mesa 22.3) lacks shaderResourceMinLod: every row says so, the
    // software path's rows stand; a driver with it must read the software path's levels
    if native.rows.iter().all(|r| r.extra[status] != "ok") {
        for r in &native.rows {
            let s = &r.extra[status];
            assert!(s.contains("lacks shaderResourceMinLod"), "{s}");
        }
        assert!(soft.rows.iter().all(|r| r.extra[status] == "ok"));
        return;
    }
    assert!(native.rows.iter().all(|r| r.extra[status] == "ok"));
    for (i, (a, b)) in soft.rows.iter().zip(&native.rows).enumerate() {
        assert_eq!(a.outputs[0], b.outputs[0], "row {i}: {}", a.note);
    }
    // the clamps 0, 1, 2 read three levels at the same coordinates
    let at = |k: usize| soft.rows[k].outputs[0];
    assert!(at(0) != at(1) && at(1) != at(2) && at(0) != at(2));
}

#[test]
fn native_images_need_a_vulkan_backend_and_an_image_spec() {
    let dir = common::scratch_dir("native-images-bad");
    let plain = common::repo_root().join("datasets/specs/f32_add_denormals.toml");
    for (backend, images, spec, says) in [
        (
            "cpu",
            "native",
            spec("texture_units_1d"),
            "--images native needs a Vulkan backend",
        ),
        ("cpu", "native", plain, "no [image] table"),
        (
            "cpu",
            "hardware",
            spec("texture_units_1d"),
            "give software or native",
        ),
    ] {
        let o = command(["sweep", "--backend", backend, "--images", images, "-o"])
            .arg(dir.join("x.csv"))
            .arg(&spec)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{says}");
        assert!(stderr(&o).contains(says), "{says}: {}", stderr(&o));
    }
}
