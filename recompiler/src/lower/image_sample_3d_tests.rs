//! 3D sampling (rule image-sample-3d) on the CPU model of a wave: a trilinear-in-space value
//! worked out by hand from the 8-bit weights, point sampling at texel centres against the
//! texels' bits, a depth-1 3D image against the 2D image of the same texels bit for bit,
//! MIP_FILTER linear between two levels' 8-tap sets, and the LOD's third axis.

use super::image_desc::Tsharp;
use super::image_tests::{mem, run, run_in, s_in, tsharp};

/// s_in with the T# `t` at s24 and the S# `s` at s[4:7].
fn with_sampler(t: [u32; 8], s: [u32; 4]) -> Vec<u32> {
    let mut v = s_in(t);
    v[4..8].copy_from_slice(&s);
    v
}

/// An S#: CLAMP_X/Y `mode`, CLAMP_Z `z`, XY_MAG/MIN_FILTER `filter`, MIP_FILTER `mip`, MAX_LOD
/// 15.0.
fn ssharp(mode: u32, z: u32, filter: u32, mip: u32) -> [u32; 4] {
    [
        mode | mode << 3 | z << 6,
        (15 * 256) << 12,
        filter << 20 | filter << 22 | mip << 26,
        0,
    ]
}

/// A region of `dwords` dwords holding every level and slice of the 4-byte-texel T# `t` (at
/// byte 0): `value(level, x, y, z)`.
fn texels(t: &[u32; 8], dwords: usize, value: impl Fn(usize, u32, u32, u32) -> u32) -> Vec<u32> {
    let d = Tsharp::decode(t).expect("T#");
    let mut m = vec![0u32; dwords];
    for (k, lv) in d.levels.iter().enumerate() {
        for z in 0..lv.depth {
            for y in 0..lv.height {
                for x in 0..lv.width {
                    let at =
                        u64::from(z) * d.slice_bytes + lv.offset + u64::from(y * lv.pitch + x) * 4;
                    m[(at / 4) as usize] = value(k, x, y, z);
                }
            }
        }
    }
    m
}

/// Runs `text` as one wave32 on `mem`, a region of `mem.len() * 4` bytes (larger than
/// `run`'s 4096).
fn run_big(text: &str, s: &[u32], lanes: impl Fn(u32) -> [u32; 6], mem: &[u32]) -> Vec<[u32; 16]> {
    run_in(text, s, lanes, mem, (mem.len() * 4) as u32).0.lanes
}

const SAMPLE_LZ_3D: &str =
    "image_sample_lz v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_3D";

#[test]
fn a_3d_sample_blends_eight_texels_with_8_bit_weights() {
    // a 2 x 2 x 2 R8_UNORM image (format 1, TYPE 10, DEPTH 1): slices 512 bytes apart, rows
    // 256. Slice 0: 0, 255 / 51, 204; slice 1: 102, 153 / 255, 0
    let t = tsharp(1, 10, 2, 2, 1, 0, 0);
    let m = mem(&[(0, 0xff00), (64, 0xcc33), (128, 0x9966), (192, 0x00ff)]);
    let s = with_sampler(t, ssharp(2, 2, 1, 0));
    // u = 0.55: x = f32(1.1) - 0.5 = 0.6 -> weights 102, 154; v = 0.5: 128, 128;
    // w = 0.3: z = f32(0.6) - 0.5 = 0.10000002 -> w1 = round(25.6) = 26, w0 = 230
    let (u, v, w) = (0.55f32, 0.5f32, 0.3f32);
    let lanes = |_| [u.to_bits(), v.to_bits(), w.to_bits(), 0, 0, 0];
    let (out, _) = run(SAMPLE_LZ_3D, &s, lanes, &m);
    let c = |q: u32| f64::from(q as f32 / 255.0);
    let texel = [[[0, 255], [51, 204]], [[102, 153], [255, 0]]];
    let (wx, wy, wz) = ([102.0, 154.0], [128.0, 128.0], [230.0, 26.0]);
    // x fastest, then y, then z: every product exact, the sum in f64 in that order
    let mut sum = 0.0f64;
    for k in 0..2 {
        for j in 0..2 {
            for i in 0..2 {
                sum += wx[i] * wy[j] * wz[k] * c(texel[k][j][i]);
            }
        }
    }
    let want = (sum / 16_777_216.0) as f32;
    assert_eq!(out.lanes[0][0], want.to_bits());
    // by hand: slice 0 averages 154 and 143.6 (of 256), slice 1 133.2 and 102; then 230 : 26
    let by_hand = (230.0 * (154.0 + 143.6) / 512.0 + 26.0 * (133.2 + 102.0) / 512.0) / 256.0;
    assert!(
        (f64::from(want) - by_hand).abs() < 1e-6,
        "{want} against {by_hand}"
    );
    // point: texel (floor 1.1, floor 1.0, floor 0.6) = (1, 1, 0): 204
    let s = with_sampler(t, ssharp(2, 2, 0, 0));
    let (out, _) = run(SAMPLE_LZ_3D, &s, lanes, &m);
    assert_eq!(out.lanes[0][0], (204.0f32 / 255.0).to_bits());
    // CLAMP_Z border (6, opaque white): w = 1.5 is slice 3, outside; w = 0.9 blends slice 1
    // with the border (z = 1.3: 179 of slice 1, 77 of white)
    let mut b = ssharp(2, 6, 0, 0);
    b[3] = 2 << 30;
    let lanes = |l: u32| {
        let w = if l == 0 { 1.5f32 } else { 0.25 };
        [u.to_bits(), v.to_bits(), w.to_bits(), 0, 0, 0]
    };
    let (out, _) = run(SAMPLE_LZ_3D, &with_sampler(t, b), lanes, &m);
    assert_eq!(out.lanes[0][0], 1.0f32.to_bits(), "the border colour");
    assert_eq!(out.lanes[1][0], (204.0f32 / 255.0).to_bits());
    b[2] = 1 << 20 | 1 << 22;
    let lanes = |_| {
        [
            0.75f32.to_bits(),
            0.75f32.to_bits(),
            0.9f32.to_bits(),
            0,
            0,
            0,
        ]
    };
    let (out, _) = run(SAMPLE_LZ_3D, &with_sampler(t, b), lanes, &m);
    // x = y = 1.0: texel (1, 1) alone in x and y; z = f32(1.8) - 0.5 = 1.3 -> w1 = 77
    let want = (179.0 * 65536.0 * c(0) + 77.0 * 65536.0) / 16_777_216.0;
    assert_eq!(out.lanes[0][0], (want as f32).to_bits());
}

/// A 4 x 3 x 5 32_FLOAT image (DEPTH 4): every texel different, a signalling NaN with a
/// payload, -0.0 and a denormal among them.
fn float_image() -> ([u32; 8], Vec<u32>) {
    let t = tsharp(22, 10, 4, 3, 4, 0, 0);
    let m = texels(&t, 1024, |_, x, y, z| match (x, y, z) {
        (1, 1, 1) => 0x7f80_1234,
        (2, 0, 3) => 0x8000_0000,
        (3, 2, 4) => 0x0000_0003,
        _ => ((z * 12 + y * 4 + x) as f32 * -0.37 + 1.9).to_bits(),
    });
    (t, m)
}

/// The texel lane `l` reads: every x, y and z among the 32 lanes.
fn at(l: u32) -> (u32, u32, u32) {
    (l % 4, (l / 4) % 3, (l + l / 12) % 5)
}

#[test]
fn point_sampling_at_texel_centres_reads_the_texel() {
    let (t, m) = float_image();
    let texel = |x: u32, y: u32, z: u32| m[(z * 192 + y * 64 + x) as usize];
    for mode in [0, 2, 6] {
        let s = with_sampler(t, ssharp(mode, mode, 0, 0));
        let (out, _) = run(
            SAMPLE_LZ_3D,
            &s,
            |l| {
                let (x, y, z) = at(l);
                let c = |i: u32, n: f32| ((i as f32 + 0.5) / n).to_bits();
                [c(x, 4.0), c(y, 3.0), c(z, 5.0), 0, 0, 0]
            },
            &m,
        );
        for l in 0..32 {
            let (x, y, z) = at(l);
            assert_eq!(
                out.lanes[l as usize][0],
                texel(x, y, z),
                "mode {mode} lane {l}"
            );
        }
    }
    // unnormalized, with the `_o` dword's z offset (bits 21:16) of +1 and wrap
    let text = "image_sample_lz_o v10, v[4:7], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_3D unorm";
    let s = with_sampler(t, ssharp(0, 0, 0, 0));
    let (out, _) = run(
        text,
        &s,
        |l| {
            let (x, y, z) = at(l);
            let c = |i: u32| (i as f32 + 0.5).to_bits();
            [1 << 16, c(x), c(y), c(z), 0, 0]
        },
        &m,
    );
    for l in 0..32 {
        let (x, y, z) = at(l);
        assert_eq!(
            out.lanes[l as usize][0],
            texel(x, y, (z + 1) % 5),
            "lane {l}"
        );
    }
}

#[test]
fn a_3d_image_of_depth_1_samples_as_the_2d_image() {
    // 32_FLOAT 4 x 4 with 3 levels, as a 2D T# and as a 3D T# of depth 1: the same layout
    let t2 = tsharp(22, 9, 4, 4, 0, 2, 0);
    let t3 = tsharp(22, 10, 4, 4, 0, 2, 0);
    let m = texels(&t2, 1024, |k, x, y, _| match (k, x, y) {
        (0, 1, 1) => 0x7f80_1234,
        (0, 2, 1) => 0x8000_0000,
        (1, 1, 0) => 0x0000_0003,
        _ => {
            let i = (k as u32) * 16 + y * 4 + x;
            ((i as f32 * 0.37 - 2.1) * if i % 3 == 0 { -1.0 } else { 1.0 }).to_bits()
        }
    });
    let uv = |l: u32| {
        let u = (l % 8) as f32 * 0.173 - 0.31;
        let v = (l / 8) as f32 * 0.291 + 0.07;
        (u.to_bits(), v.to_bits())
    };
    // each form: (2D text, 3D text, MIP_FILTER, the LOD dword)
    let forms = [
        (
            "image_sample_lz v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            SAMPLE_LZ_3D,
            0,
            None,
        ),
        (
            "image_sample_l v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            "image_sample_l v10, v[4:7], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_3D",
            2,
            Some(0.6f32),
        ),
        (
            "image_sample v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            "image_sample v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_3D",
            1,
            None,
        ),
    ];
    // w where the second z tap weighs 0 (or the first, of a texel the addressing leaves out)
    let ws = [0.5f32, 0.5005, 0.499];
    let mut compared = 0;
    for (text2, text3, mip, lod) in forms {
        for filter in [0, 1] {
            for mode in [0, 1, 2, 3, 6, 7] {
                let lanes2 = |l: u32| {
                    let (u, v) = uv(l);
                    [u, v, lod.map_or(0, f32::to_bits), 0, 0, 0]
                };
                let (want, _) = run(
                    text2,
                    &with_sampler(t2, ssharp(mode, 0, filter, mip)),
                    lanes2,
                    &m,
                );
                for z in [0, 2, 6] {
                    for w in ws {
                        let s = with_sampler(t3, ssharp(mode, z, filter, mip));
                        let lanes3 = |l: u32| {
                            let (u, v) = uv(l);
                            [u, v, w.to_bits(), lod.map_or(0, f32::to_bits), 0, 0]
                        };
                        let (got, _) = run(text3, &s, lanes3, &m);
                        for l in 0..32 {
                            assert_eq!(
                                got.lanes[l][0], want.lanes[l][0],
                                "{text3} filter {filter} mode {mode} z {z} w {w} lane {l}"
                            );
                        }
                        compared += 1;
                    }
                }
            }
        }
    }
    assert_eq!(compared, 3 * 2 * 6 * 3 * 3);
}

const SAMPLE_L_3D: &str =
    "image_sample_l v10, v[4:7], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_3D";

#[test]
fn mip_filter_linear_blends_two_levels_of_eight_taps() {
    // 32_FLOAT 2 x 2 x 2 with 2 levels: level 0 texel 1 + x + 2y + 4z, level 1 (1 x 1 x 1) 100
    let t = tsharp(22, 10, 2, 2, 1, 1, 0);
    let m = texels(&t, 1024, |k, x, y, z| {
        let v = if k == 0 { 1 + x + 2 * y + 4 * z } else { 100 };
        (v as f32).to_bits()
    });
    let case = |filter: u32, (u, v, w): (f32, f32, f32), lod: f32| {
        let s = with_sampler(t, ssharp(2, 2, filter, 2));
        let lanes = |_| [u.to_bits(), v.to_bits(), w.to_bits(), lod.to_bits(), 0, 0];
        let (out, _) = run(SAMPLE_L_3D, &s, lanes, &m);
        f32::from_bits(out.lanes[0][0])
    };
    let centre = (0.75, 0.25, 0.75); // texel (1, 0, 1) of level 0: 6
                                     // point XY filters, linear mips: 192 of 6 and 64 of 100
    assert_eq!(case(0, centre, 0.25), (192.0 * 6.0 + 64.0 * 100.0) / 256.0);
    // bilinear at a texel centre at LOD 0: one tap of the whole weight, 2^24 * 256 = 2^32
    assert_eq!(case(1, centre, 0.0), 6.0);
    // bilinear between all eight texels (mean 4.5) and level 1 (100), half and half
    assert_eq!(case(1, (0.5, 0.5, 0.5), 0.5), (4.5 + 100.0) / 2.0);
    // a weight of 0 is MIP_FILTER point's sample bit for bit
    for lod in [0.0f32, 1.0, 0.001, 7.0] {
        for filter in [0, 1] {
            let lanes = |l: u32| {
                let c = |i: u32| (i as f32 * 0.137 - 0.2).to_bits();
                [c(l % 7), c(l % 5), c(l % 3), lod.to_bits(), 0, 0]
            };
            let (tri, _) = run(
                SAMPLE_L_3D,
                &with_sampler(t, ssharp(2, 6, filter, 2)),
                lanes,
                &m,
            );
            let (pt, _) = run(
                SAMPLE_L_3D,
                &with_sampler(t, ssharp(2, 6, filter, 1)),
                lanes,
                &m,
            );
            assert_eq!(tri.lanes, pt.lanes, "lod {lod} filter {filter}");
        }
    }
}

#[test]
fn the_3d_lod_sums_the_three_axes() {
    // 32_FLOAT 8 x 8 x 8 with 4 levels (30720 bytes); a quad steps 3 texels along w across x
    // and 1 along v down y: rho2 = 9, L = floor(128 log2 9) = 405
    let t = tsharp(22, 10, 8, 8, 7, 3, 0);
    let m = texels(&t, 8192, |k, x, y, z| {
        ((k as u32 * 512 + z * 64 + y * 8 + x) as f32 * 0.125 - 3.0).to_bits()
    });
    let s = with_sampler(t, ssharp(0, 0, 1, 2));
    let uvw = |l: u32| {
        let q = (l / 4) as f32;
        let u = q / 32.0 + 0.01;
        let v = q / 64.0 + ((l >> 1) & 1) as f32 * 0.125;
        let w = q / 16.0 + (l & 1) as f32 * 0.375;
        (u.to_bits(), v.to_bits(), w.to_bits())
    };
    let explicit = run_big(
        SAMPLE_L_3D,
        &s,
        |l| {
            let (u, v, w) = uvw(l);
            [u, v, w, (405.0f32 / 256.0).to_bits(), 0, 0]
        },
        &m,
    );
    let one = run_big(
        SAMPLE_L_3D,
        &s,
        |l| {
            let (u, v, w) = uvw(l);
            [u, v, w, 1.0f32.to_bits(), 0, 0]
        },
        &m,
    );
    assert_ne!(explicit, one, "between levels 1 and 2");
    let implicit = "image_sample v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_3D";
    let got = run_big(
        implicit,
        &s,
        |l| {
            let (u, v, w) = uvw(l);
            [u, v, w, 0, 0, 0]
        },
        &m,
    );
    assert_eq!(got, explicit);
    // user derivatives: d/dx (0, 0, 3/8), d/dy 0, one per axis and direction
    let d = "image_sample_d v10, [v4, v4, v5, v4, v4, v4, v6, v7, v8], s[24:31], s[4:7] \
             dmask:0x1 dim:SQ_RSRC_IMG_3D";
    let got = run_big(
        d,
        &s,
        |l| {
            let (u, v, w) = uvw(l);
            [0, 0.375f32.to_bits(), u, v, w, 0]
        },
        &m,
    );
    assert_eq!(got, explicit);
    // `_g16`: per direction (dsdx | dtdx) then (drdx | pad): 0.375 is f16 0x3600
    let g16 = "image_sample_d_g16 v10, [v4, v9, v4, v4, v6, v7, v8], s[24:31], s[4:7] \
               dmask:0x1 dim:SQ_RSRC_IMG_3D";
    let got = run_big(
        g16,
        &s,
        |l| {
            let (u, v, w) = uvw(l);
            [0, 0, u, v, w, 0x3600]
        },
        &m,
    );
    assert_eq!(got, explicit);
}

#[test]
fn a_3d_gather_and_a_3d_dim_through_a_cube_are_refused() {
    use super::image_tests::lower_img;
    let t = tsharp(1, 10, 2, 2, 1, 0, 0);
    let text = "image_gather4_lz v[10:13], v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_3D";
    let e = lower_img(text, &with_sampler(t, ssharp(2, 2, 1, 0))).expect_err("refused");
    assert!(e.to_string().contains("a gather's footprint is 2D"), "{e}");
    // CLAMP_Z's half-border mode is refused on a 3D image, ignored on a 2D one
    let e = lower_img(SAMPLE_LZ_3D, &with_sampler(t, ssharp(2, 4, 1, 0))).expect_err("refused");
    assert!(
        e.to_string().contains("half-border addressing mode 4"),
        "{e}"
    );
    let t2 = tsharp(1, 9, 2, 2, 0, 0, 0);
    let text = "image_sample_lz v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    assert!(lower_img(text, &with_sampler(t2, ssharp(2, 4, 1, 0))).is_ok());
    // a 3D DIM through a cube T# (cube sampling: image_cube_tests)
    let cube = tsharp(1, 11, 2, 2, 5, 0, 0);
    let e = lower_img(SAMPLE_LZ_3D, &with_sampler(cube, ssharp(2, 2, 0, 0))).expect_err("refused");
    assert!(e.to_string().contains("DIM 3D through a CUBE T#"), "{e}");
}
