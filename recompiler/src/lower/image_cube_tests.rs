//! Cube sampling tests on the CPU model of a wave (rule image-sample-cube). The expected
//! values come from a reference written here in floating point from the ISA's cube-map table
//! (v_cubeid/sc/tc/ma's pseudocode, semantics.md "cube-map"): a tap's centre becomes a
//! direction, the direction a face and a division by the major axis, where the lowering
//! works in integer half-texels without a division; and from the notes' two measured blends.

use super::image_desc::Tsharp;
use super::image_tests::{lower_img_in, s_in, tsharp};
use crate::wave::{run_wave_mem, sgprs_in, WaveInput};

/// The ISA's v_cubeid, v_cubesc, v_cubetc and v_cubema of a direction: face, sc, tc, ma.
fn cube_isa([x, y, z]: [f64; 3]) -> (usize, f64, f64, f64) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    if az >= ax && az >= ay {
        let sc = if z < 0.0 { -x } else { x };
        (if z < 0.0 { 5 } else { 4 }, sc, -y, 2.0 * z)
    } else if ay >= ax {
        let tc = if y < 0.0 { -z } else { z };
        (if y < 0.0 { 3 } else { 2 }, x, tc, 2.0 * y)
    } else {
        let sc = if x < 0.0 { z } else { -z };
        (if x < 0.0 { 1 } else { 0 }, sc, -y, 2.0 * x)
    }
}

/// Each face's (normal, s axis, t axis): the direction of face coordinates (s, t) in [-1, 1]
/// is `normal + s * s_axis + t * t_axis` (checked against [`cube_isa`] below).
const FACES: [[[f64; 3]; 3]; 6] = [
    [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, -1.0, 0.0]],
    [[-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]],
    [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
    [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]],
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0]],
    [[0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]],
];

fn direction(face: usize, s: f64, t: f64) -> [f64; 3] {
    let [n, a, b] = FACES[face];
    [0, 1, 2].map(|k| n[k] + s * a[k] + t * b[k])
}

#[test]
fn the_face_table_inverts_the_isa_cube_ops() {
    for face in 0..6 {
        for (s, t) in [(0.25, -0.5), (-0.75, 0.125), (0.0, 0.0), (0.9, 0.9)] {
            let (f, sc, tc, ma) = cube_isa(direction(face, s, t));
            assert_eq!(
                (f, sc / (ma / 2.0).abs(), tc / (ma / 2.0).abs()),
                (face, s, t)
            );
        }
    }
}

/// The face and texel a tap `(i, j)` of `face` reads on a seamless cube of `n` x `n` faces:
/// the index clamped to one texel past the face, the tap's centre as a direction, and
/// that direction's face and texel by the ISA's ops.
fn reference_tap(face: usize, i: i64, j: i64, n: i64) -> (usize, i64, i64) {
    let centre = |k: i64| (2 * k.clamp(-1, n) + 1) as f64 / n as f64 - 1.0;
    let (f, sc, tc, ma) = cube_isa(direction(face, centre(i), centre(j)));
    let m = (ma / 2.0).abs();
    let texel = |c: f64| (((c / m + 1.0) / 2.0 * n as f64).floor() as i64).clamp(0, n - 1);
    (f, texel(sc), texel(tc))
}

/// A 4 x 4 R32_FLOAT (format 22) cube array of `cubes` cubes at region byte 0, texel
/// `(layer, j, i)` = `256 * layer + 4 * j + i`; its T# and the region.
fn cube_image(cubes: u32) -> ([u32; 8], Vec<u32>, u32) {
    let t = tsharp(22, 11, 4, 4, 6 * cubes - 1, 0, 0);
    let d = Tsharp::decode(&t).expect("decodes");
    let bytes = d.slice_bytes as u32 * 6 * cubes;
    let mut m = vec![0u32; bytes as usize / 4];
    for layer in 0..6 * cubes {
        for j in 0..4 {
            for i in 0..4 {
                let at =
                    (u64::from(layer) * d.slice_bytes) / 4 + u64::from(j * d.levels[0].pitch + i);
                m[at as usize] = value(layer, j, i).to_bits();
            }
        }
    }
    (t, m, bytes)
}

fn value(layer: u32, j: u32, i: u32) -> f32 {
    (256 * layer + 4 * j + i) as f32
}

/// Runs `text` (v4, v5, v6: x, y and the face coordinate) on every lane of `lanes`, 32 to a
/// wave, with the S# `samp` at s[4:7]; lane k's first `results` VGPRs from v10.
fn sample_all(
    text: &str,
    samp: [u32; 4],
    cubes: u32,
    lanes: &[[f32; 3]],
    results: usize,
) -> Vec<Vec<u32>> {
    let (t, m, bytes) = cube_image(cubes);
    let mut s = s_in(t);
    s[4..8].copy_from_slice(&samp);
    let k = lower_img_in(text, &s, bytes).unwrap_or_else(|e| panic!("{text}: {e}"));
    k.validate().expect("valid");
    let mut out = Vec::new();
    for chunk in lanes.chunks(32) {
        let ins = (0..32)
            .map(|l| {
                let [x, y, f] = chunk.get(l).copied().unwrap_or([1.5, 1.5, 0.0]);
                [x.to_bits(), y.to_bits(), f.to_bits(), 0, 0, 0]
            })
            .collect();
        let mut input = WaveInput::new(ins, u64::MAX, vec![]);
        input.sgprs = sgprs_in(&s);
        let (o, _) = run_wave_mem(&k, &input, &m);
        assert_eq!(o.error, None);
        out.extend(o.lanes[..chunk.len()].iter().map(|l| l[..results].to_vec()));
    }
    out
}

const SAMPLE: &str = "image_sample_lz v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_CUBE";

/// An S#: clamp-to-edge on x and y, XY filters `filter`, word0 `extra` or'ed in.
fn samp(filter: u32, extra: u32) -> [u32; 4] {
    [2 | 2 << 3 | extra, 0, filter << 20 | filter << 22, 0]
}

/// The face coordinate of texel `k` of a 4-texel face, at `frac` of the texel: `1 + (k + frac) / 4`.
fn at(k: i64, frac: f64) -> f32 {
    (1.0 + (k as f64 + frac) / 4.0) as f32
}

#[test]
fn point_taps_off_a_face_read_the_face_their_direction_hits() {
    let mut lanes = Vec::new();
    let mut want_seamless = Vec::new();
    let mut want_clamped = Vec::new();
    for cube in 0..2u32 {
        for face in 0..6usize {
            for j in -1..=4i64 {
                for i in -1..=4i64 {
                    lanes.push([at(i, 0.5), at(j, 0.5), (8 * cube + face as u32) as f32]);
                    let (f, ii, jj) = reference_tap(face, i, j, 4);
                    let layer = 6 * cube + f as u32;
                    want_seamless.push(value(layer, jj as u32, ii as u32).to_bits());
                    let layer = 6 * cube + face as u32;
                    let (ci, cj) = (i.clamp(0, 3) as u32, j.clamp(0, 3) as u32);
                    want_clamped.push(value(layer, cj, ci).to_bits());
                }
            }
        }
    }
    let first = |v: Vec<Vec<u32>>| v.into_iter().map(|r| r[0]).collect::<Vec<_>>();
    assert_eq!(
        first(sample_all(SAMPLE, samp(0, 0), 2, &lanes, 1)),
        want_seamless
    );
    let off = super::image_cube::DISABLE_CUBE_WRAP;
    assert_eq!(
        first(sample_all(SAMPLE, samp(0, off), 2, &lanes, 1)),
        want_clamped
    );
    // on the face the two agree; off it an edge tap reads another face
    let moved = want_seamless
        .iter()
        .zip(&want_clamped)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(moved, 2 * 6 * (36 - 16));
}

#[test]
fn bilinear_footprints_across_edges_and_corners_blend_the_faces_they_hit() {
    // coordinates in quarter texels from 1.5 texels before the face to 1.5 past it
    let steps: Vec<i64> = (-6..=22).step_by(2).collect();
    let mut lanes = Vec::new();
    let mut want = Vec::new();
    let mut want_gather = Vec::new();
    for face in 0..6usize {
        for &sy in &steps {
            for &sx in &steps {
                let (x, y) = (sx as f64 / 4.0, sy as f64 / 4.0);
                lanes.push([at(0, x), at(0, y), face as f32]);
                // texel space minus one half: taps floor and floor + 1, weights in 256ths
                let (tx, ty) = (x - 0.5, y - 0.5);
                let (i0, j0) = (tx.floor() as i64, ty.floor() as i64);
                let wx1 = ((tx - tx.floor()) * 256.0) as i64;
                let wy1 = ((ty - ty.floor()) * 256.0) as i64;
                let texel = |i: i64, j: i64| {
                    let (f, ii, jj) = reference_tap(face, i, j, 4);
                    value(f as u32, jj as u32, ii as u32)
                };
                let mut sum = 0.0;
                for (j, wy) in [(j0, 256 - wy1), (j0 + 1, wy1)] {
                    for (i, wx) in [(i0, 256 - wx1), (i0 + 1, wx1)] {
                        sum += (wx * wy) as f64 * f64::from(texel(i, j));
                    }
                }
                want.push(vec![((sum / 65536.0) as f32).to_bits()]);
                // a gather's footprint in the graphics APIs' order, unfiltered
                let (i1, j1) = (i0 + 1, j0 + 1);
                let order = [(i0, j1), (i1, j1), (i1, j0), (i0, j0)];
                want_gather.push(order.map(|(i, j)| texel(i, j).to_bits()).to_vec());
            }
        }
    }
    assert_eq!(sample_all(SAMPLE, samp(1, 0), 1, &lanes, 1), want);
    let gather =
        "image_gather4_lz v[10:13], v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_CUBE";
    assert_eq!(sample_all(gather, samp(0, 0), 1, &lanes, 4), want_gather);
}

#[test]
fn the_notes_two_cube_compare_blends_are_8_bit_weights_across_a_face_edge() {
    // measured on gfx1035 (4 x 4 R32_FLOAT cube, face 0, reference 0.1, bilinear): texel
    // coordinates (3.9, 2.5) give 0.6016 and (1.5, 0.1) give 0.3984, the texels not given.
    // Here face 0 holds 0..15 and every other face 256 and more, and the reference is 200:
    // LESS (reference < texel) passes on the other faces only, GREATER on face 0 only.
    let text = "image_sample_c_lz v10, v[4:7], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_CUBE";
    let (t, m, bytes) = cube_image(1);
    let mut s = s_in(t);
    let run = |s: &mut Vec<u32>, func: u32, extra: u32, reference: f32, x: f64, y: f64| {
        s[4..8].copy_from_slice(&samp(1, extra | func << 12));
        let k = lower_img_in(text, s, bytes).expect("lowers");
        let lane = [
            reference.to_bits(),
            ((1.0 + x / 4.0) as f32).to_bits(),
            ((1.0 + y / 4.0) as f32).to_bits(),
            0,
            0,
            0,
        ];
        let mut input = WaveInput::new(vec![lane; 32], u64::MAX, vec![]);
        input.sgprs = sgprs_in(s);
        run_wave_mem(&k, &input, &m).0.lanes[0][0]
    };
    // at (3.9, 2.5) the taps are texel (3, 2) of face 0 (weight 154) and the first texel
    // across face 0's +s edge (weight 102); y = 2.5 is a texel centre (one row)
    let other_passes = run(&mut s, 1, 0, 200.0, 3.9, 2.5);
    assert_eq!(f32::from_bits(other_passes), 102.0 / 256.0);
    // with GREATER (4), reference 200: face 0 passes, the others (256..) fail
    let own_passes = run(&mut s, 4, 0, 200.0, 3.9, 2.5);
    assert_eq!(f32::from_bits(own_passes), 154.0 / 256.0);
    assert_eq!(format!("{:.4}", f32::from_bits(own_passes)), "0.6016");
    // (1.5, 0.1): texel (1, 0) weight 154 and the row above it on the face across the -t
    // edge, weight 102
    let other_passes = run(&mut s, 1, 0, 200.0, 1.5, 0.1);
    assert_eq!(format!("{:.4}", f32::from_bits(other_passes)), "0.3984");
    // DISABLE_CUBE_WRAP: the per-face clamp, both taps on face 0
    let off = super::image_cube::DISABLE_CUBE_WRAP;
    assert_eq!(run(&mut s, 4, off, 200.0, 3.9, 2.5), 1f32.to_bits());
    assert_eq!(run(&mut s, 1, off, 200.0, 1.5, 0.1), 0);
}

#[test]
fn what_a_cube_sample_does_not_model_is_refused() {
    let err = |t: [u32; 8], samp: [u32; 4], text: &str| {
        let mut s = s_in(t);
        s[4..8].copy_from_slice(&samp);
        lower_img_in(text, &s, 1 << 16)
            .expect_err("refused")
            .to_string()
    };
    let square = tsharp(22, 11, 4, 2, 5, 0, 0);
    assert!(err(square, samp(0, 0), SAMPLE).contains("not square"));
    let five = tsharp(22, 11, 4, 4, 4, 0, 0);
    assert!(err(five, samp(0, 0), SAMPLE).contains("not whole cubes"));
    // a plain sample with mip levels to choose from takes its LOD from derivatives
    let mips = tsharp(22, 11, 4, 4, 5, 2, 0);
    let point_mips = [2 | 2 << 3, (3 * 256) << 12, 1 << 26, 0];
    let text = "image_sample v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_CUBE";
    assert!(err(mips, point_mips, text).contains("LOD from derivatives"));
    // an explicit LOD is modelled
    let text = "image_sample_l v10, v[4:7], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_CUBE";
    let mut s = s_in(mips);
    s[4..8].copy_from_slice(&point_mips);
    assert!(lower_img_in(text, &s, 1 << 16).is_ok());
    // unnormalized coordinates
    let text = "image_sample_lz v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_CUBE unorm";
    let cube = tsharp(22, 11, 4, 4, 5, 0, 0);
    assert!(err(cube, samp(0, 0), text).contains("unnormalized"));
}
