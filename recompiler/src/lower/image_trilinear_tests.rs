//! Trilinear filtering (MIP_FILTER linear) on the CPU model of a wave: a value worked out by
//! hand from the 8-bit weights, the weight-0 cases against the one-level samples bit for bit,
//! point filtering within the levels, and the derivative forms' LOD in 1/256 steps against
//! the explicit LOD they stand for.

use super::image_desc::Tsharp;
use super::image_tests::{lower_img, run, s_in, tsharp};

/// s_in with the T# `t` at s24 and the S# `s` at s[4:7].
pub(super) fn with_sampler(t: [u32; 8], s: [u32; 4]) -> Vec<u32> {
    let mut v = s_in(t);
    v[4..8].copy_from_slice(&s);
    v
}

/// An S#: CLAMP_X/Y `mode`, XY_MAG/MIN_FILTER `filter`, MIP_FILTER `mip`, MAX_LOD `max_lod`
/// (u4.8).
pub(super) fn ssharp(mode: u32, filter: u32, mip: u32, max_lod: u32) -> [u32; 4] {
    [
        mode | mode << 3,
        max_lod << 12,
        filter << 20 | filter << 22 | mip << 26,
        0,
    ]
}

/// The region of the T# `t` (at byte 0) with every level's texels: `value(level, x, y)`, of
/// `bytes` bytes each (1 or 4).
fn texels(t: &[u32; 8], bytes: u64, value: impl Fn(usize, u32, u32) -> u32) -> Vec<u32> {
    let d = Tsharp::decode(t).expect("T#");
    let mut m = vec![0u32; 1024];
    for (k, lv) in d.levels.iter().enumerate() {
        for y in 0..lv.height {
            for x in 0..lv.width {
                let at = lv.offset + u64::from(y * lv.pitch + x) * bytes;
                let (i, sh) = ((at / 4) as usize, (at % 4) * 8);
                let v = value(k, x, y);
                if bytes == 4 {
                    m[i] = v;
                } else {
                    m[i] |= (v & 0xff) << sh;
                }
            }
        }
    }
    m
}

const SAMPLE_L_2D: &str =
    "image_sample_l v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D";

#[test]
fn trilinear_blends_two_levels_with_8_bit_weights() {
    // R8_UNORM 2D 2 x 2 with 2 levels: level 0 texels 0, 255 / 51, 204; level 1 one texel 102
    let t = tsharp(1, 9, 2, 2, 0, 1, 0);
    let m = texels(&t, 1, |k, x, y| match (k, x, y) {
        (0, 0, 0) => 0,
        (0, 1, 0) => 255,
        (0, 0, 1) => 51,
        (0, 1, 1) => 204,
        _ => 102,
    });
    let s = with_sampler(t, ssharp(2, 1, 2, 15 * 256));
    let (u, v, lod) = (0.55f32, 0.5f32, 0.3f32);
    let (out, _) = run(
        SAMPLE_L_2D,
        &s,
        |_| [u.to_bits(), v.to_bits(), lod.to_bits(), 0, 0, 0],
        &m,
    );
    // the level weight: round_even(0.3f32 * 256) = round(76.8000003) = 77 (level 1), 179
    // (level 0). Level 0 as the bilinear test: x weights 102, 154 and y 128, 128. Level 1
    // (1 x 1): x = f32(0.55) - 0.5 = 0.0500000119 -> weights 243, 13 (both the one texel
    // after the clamp), y = 0 -> weights 256, 0
    let c = |q: f64| (q as f32) as f64;
    let level0 = 154.0 * 128.0 + 102.0 * 128.0 * c(51.0 / 255.0) + 154.0 * 128.0 * c(0.8);
    let level1 = (243.0 * 256.0 + 13.0 * 256.0) * c(0.4);
    // every product and partial sum is exact in f64 (at most 50 significant bits)
    let want = (179.0 * level0 + 77.0 * level1) / 16_777_216.0;
    assert_eq!(out.lanes[0][0], (want as f32).to_bits());
    assert!((f64::from(f32::from_bits(out.lanes[0][0])) - 0.52673).abs() < 1e-5);
}

/// A 4 x 4 32_FLOAT 2D image with 3 levels, every texel different (negative, -0.0, a NaN with
/// a payload and a denormal among them), and the lanes' coordinates.
pub(super) fn float_image() -> ([u32; 8], Vec<u32>) {
    let t = tsharp(22, 9, 4, 4, 0, 2, 0);
    let m = texels(&t, 4, |k, x, y| match (k, x, y) {
        (0, 1, 1) => 0x7f80_1234, // a signalling NaN with a payload
        (0, 2, 1) => 0x8000_0000,
        (1, 1, 0) => 0x0000_0003,
        _ => {
            let i = (k as u32) * 16 + y * 4 + x;
            let v = (i as f32 * 0.37 - 2.1) * if i % 3 == 0 { -1.0 } else { 1.0 };
            v.to_bits()
        }
    });
    (t, m)
}

fn coords(lane: u32) -> (f32, f32) {
    (
        (lane % 8) as f32 * 0.173 - 0.31,
        (lane / 8) as f32 * 0.291 + 0.07,
    )
}

#[test]
fn a_weight_of_zero_is_the_one_level_sample_bit_for_bit() {
    let (t, m) = float_image();
    // lod in 256ths: whole levels, fractions whose weight rounds to 0 (or to 256: the next
    // level), past the last level and below 0
    let lods: [f32; 9] = [
        0.0,
        1.0,
        2.0,
        1.0 + 1.0 / 1024.0,
        2.0 - 1.0 / 1024.0,
        0.5 / 256.0,
        2.5,
        9.0,
        -1.5,
    ];
    for filter in [0, 1] {
        for mode in [0, 1, 2, 6] {
            let tri = with_sampler(t, ssharp(mode, filter, 2, 15 * 256));
            let point = with_sampler(t, ssharp(mode, filter, 1, 15 * 256));
            for lod in lods {
                let lanes = |l: u32| {
                    let (u, v) = coords(l);
                    [u.to_bits(), v.to_bits(), lod.to_bits(), 0, 0, 0]
                };
                let (a, _) = run(SAMPLE_L_2D, &tri, lanes, &m);
                let (b, _) = run(SAMPLE_L_2D, &point, lanes, &m);
                for l in 0..32 {
                    assert_eq!(
                        a.lanes[l][0], b.lanes[l][0],
                        "filter {filter} mode {mode} lod {lod} lane {l}"
                    );
                }
            }
        }
    }
    // MAX_LOD 1.0 stops at level 1 as MIP_FILTER point does
    let tri = with_sampler(t, ssharp(2, 1, 2, 256));
    let point = with_sampler(t, ssharp(2, 1, 1, 256));
    let lanes = |l: u32| {
        let (u, v) = coords(l);
        [u.to_bits(), v.to_bits(), 1.75f32.to_bits(), 0, 0, 0]
    };
    let (a, _) = run(SAMPLE_L_2D, &tri, lanes, &m);
    let (b, _) = run(SAMPLE_L_2D, &point, lanes, &m);
    assert_eq!(a.lanes, b.lanes);
    // and a weight between the levels differs from both
    let lanes = |l: u32| {
        let (u, v) = coords(l);
        [u.to_bits(), v.to_bits(), 0.5f32.to_bits(), 0, 0, 0]
    };
    let (a, _) = run(SAMPLE_L_2D, &tri, lanes, &m);
    let (b, _) = run(SAMPLE_L_2D, &point, lanes, &m);
    assert_ne!(a.lanes, b.lanes);
}

#[test]
fn point_minification_with_linear_mips_blends_the_nearest_texels() {
    // 32_FLOAT 1D, 4 texels and 3 levels: level 0 1, 2, 3, 4; level 1 10, 20; level 2 100
    let t = tsharp(22, 8, 4, 1, 0, 2, 0);
    let m = texels(&t, 4, |k, x, _| {
        let v = [[1.0, 2.0, 3.0, 4.0], [10.0, 20.0, 0.0, 0.0], [100.0; 4]][k][x as usize];
        (v as f32).to_bits()
    });
    let s = with_sampler(t, ssharp(2, 0, 2, 15 * 256));
    let text = "image_sample_l v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_1D";
    let cases: [(f32, f32, f32); 6] = [
        (0.3, 0.25, (3.0 * 2.0 + 10.0) / 4.0), // texels 1 of level 0, 0 of level 1, wl 64
        (0.9, 0.5, (4.0 + 20.0) / 2.0),
        (0.9, 1.25, (3.0 * 20.0 + 100.0) / 4.0),
        (0.6, 1.0 / 3.0, (171.0 * 3.0 + 85.0 * 20.0) / 256.0), // wl = round(85.33) = 85
        (0.6, 0.0, 3.0),
        (0.1, 7.0, 100.0),
    ];
    let (out, _) = run(
        text,
        &s,
        |l| {
            let (u, lod, _) = cases[(l as usize).min(5)];
            [u.to_bits(), lod.to_bits(), 0, 0, 0, 0]
        },
        &m,
    );
    for (i, &(_, lod, want)) in cases.iter().enumerate() {
        assert_eq!(f32::from_bits(out.lanes[i][0]), want, "lod {lod}");
    }
}

#[test]
fn the_derivative_forms_take_the_lod_in_256ths_of_a_level() {
    // 32_FLOAT 2D 8 x 8 with 4 levels; a quad steps 3 texels along x and 1 along y: rho2 = 9,
    // lod = log2(3) = 1.58496, in 256ths floor(405.75) = 405
    let t = tsharp(22, 9, 8, 8, 0, 3, 0);
    let m = texels(&t, 4, |k, x, y| {
        ((k as u32 * 64 + y * 8 + x) as f32 * 0.125 - 3.0).to_bits()
    });
    let s = with_sampler(t, ssharp(0, 1, 2, 15 * 256));
    let uv = |l: u32| {
        let q = (l / 4) as f32;
        let u = q / 32.0 + (l & 1) as f32 * 0.375;
        let v = q / 64.0 + ((l >> 1) & 1) as f32 * 0.125;
        (u.to_bits(), v.to_bits())
    };
    let explicit = |lod: f32| {
        let (out, _) = run(
            SAMPLE_L_2D,
            &s,
            |l| {
                let (u, v) = uv(l);
                [u, v, lod.to_bits(), 0, 0, 0]
            },
            &m,
        );
        out.lanes
    };
    let steps = (128.0 * 9f64.log2()).floor();
    assert_eq!(steps, 405.0);
    let want = explicit((steps / 256.0) as f32);
    assert_ne!(want, explicit(1.0), "between levels 1 and 2");
    let implicit = "image_sample v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(
        implicit,
        &s,
        |l| {
            let (u, v) = uv(l);
            [u, v, 0, 0, 0, 0]
        },
        &m,
    );
    assert_eq!(out.lanes, want);
    // the user derivatives: d/dx (3/8, 0), d/dy (0, 1/8)
    let d = "image_sample_d v10, v[4:9], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(
        d,
        &s,
        |l| {
            let (u, v) = uv(l);
            [0.375f32.to_bits(), 0, 0, 0.125f32.to_bits(), u, v]
        },
        &m,
    );
    assert_eq!(out.lanes, want);
    // a bias of 0.25 adds 64 steps
    let b = "image_sample_b v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(
        b,
        &s,
        |l| {
            let (u, v) = uv(l);
            [0.25f32.to_bits(), u, v, 0, 0, 0]
        },
        &m,
    );
    assert_eq!(out.lanes, explicit(469.0 / 256.0));
    // a clamp above the LOD wins, one below it does not
    let cl = "image_sample_cl v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    for (clamp, lod) in [(1.9f32, 1.9f32), (1.2, 405.0 / 256.0)] {
        let (out, _) = run(
            cl,
            &s,
            |l| {
                let (u, v) = uv(l);
                [u, v, clamp.to_bits(), 0, 0, 0]
            },
            &m,
        );
        assert_eq!(out.lanes, explicit(lod), "clamp {clamp}");
    }
    // a flat quad (rho2 = 0) reads level 0 alone
    let (out, _) = run(implicit, &s, |_| [0x3e00_0000, 0x3e00_0000, 0, 0, 0, 0], &m);
    let (lz, _) = run(
        "image_sample_lz v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &s,
        |_| [0x3e00_0000, 0x3e00_0000, 0, 0, 0, 0],
        &m,
    );
    assert_eq!(out.lanes, lz.lanes);
}

#[test]
fn compare_then_filter_on_both_levels() {
    // 32_FLOAT 1D, 2 levels: level 0 0.2, 0.6; level 1 0.9. Bilinear, compare `<` (1): the
    // reference 0.5 passes texels above it
    let t = tsharp(22, 8, 2, 1, 0, 1, 0);
    let m = texels(&t, 4, |k, x, _| {
        [[0.2f32, 0.6], [0.9, 0.9]][k][x as usize].to_bits()
    });
    let mut s = ssharp(2, 1, 2, 15 * 256);
    s[0] |= 1 << 12;
    let text = "image_sample_c_l v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_1D";
    // u = 0.5: level 0 x = 0.5 -> taps 0 and 1 at 128 each (results 0, 1); level 1 x = 0
    // -> the one texel (result 1). lod 0.25: wl 64
    let (out, _) = run(
        text,
        &with_sampler(t, s),
        |_| {
            [
                0.5f32.to_bits(),
                0.5f32.to_bits(),
                0.25f32.to_bits(),
                0,
                0,
                0,
            ]
        },
        &m,
    );
    let want = (192.0 * 128.0 * 256.0 + 64.0 * 65536.0) / 16_777_216.0;
    assert_eq!(f32::from_bits(out.lanes[0][0]), want as f32);
}

#[test]
fn mip_filter_3_is_refused_and_linear_lowers() {
    let t = tsharp(1, 9, 2, 2, 0, 1, 0);
    let e = lower_img(SAMPLE_L_2D, &with_sampler(t, ssharp(2, 1, 3, 256))).expect_err("3");
    assert!(e.to_string().contains("MIP_FILTER 3 (reserved)"), "{e}");
    for text in [
        SAMPLE_L_2D,
        "image_sample v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        "image_sample_c_b_cl_o v10, v[4:9], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        "image_sample_cd_g16 v10, v[4:7], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        "image_gather4_l v[10:13], v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
    ] {
        let r = lower_img(text, &with_sampler(t, ssharp(2, 1, 2, 256)));
        assert!(r.is_ok(), "{text}: {:?}", r.err());
    }
}
