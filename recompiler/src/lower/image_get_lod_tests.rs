//! image_get_lod (rule image-get-lod, the model's choice) on the CPU model of a wave: the
//! footprint's LOD in 1/256 steps, clamped (X) and unclamped (Y), the DMASK slots, the
//! infinities of a flat and of an infinite footprint, and the refusals.

use super::image_tests::{lower_img, run, s_in, tsharp};

/// s_in with the T# `t` at s24 and the S# `s` at s[4:7].
fn with_sampler(t: [u32; 8], s: [u32; 4]) -> Vec<u32> {
    let mut v = s_in(t);
    v[4..8].copy_from_slice(&s);
    v
}

/// An S#: bilinear, wrap, MIP_FILTER `mip`, MAX_LOD `max_lod` (u4.8).
fn ssharp(mip: u32, max_lod: u32) -> [u32; 4] {
    [0, max_lod << 12, 1 << 20 | 1 << 22 | mip << 26, 0]
}

fn get_lod(dmask: u32, dim: &str) -> String {
    let n = dmask.count_ones();
    let vdata = if n == 1 {
        "v10".to_string()
    } else {
        format!("v[10:{}]", 9 + n)
    };
    let addr = match dim {
        "1D" => "v4",
        "2D" => "v[4:5]",
        _ => "v[4:6]",
    };
    format!(
        "image_get_lod {vdata}, {addr}, s[24:31], s[4:7] dmask:0x{dmask:x} dim:SQ_RSRC_IMG_{dim}"
    )
}

/// The lanes' (u, v) of a quad stepping 3 texels along x and 1 along y of an 8 x 8 image:
/// rho2 = 9, L = floor(128 * log2 9) = 405.
fn quad(l: u32) -> [u32; 6] {
    let q = (l / 4) as f32;
    let u = q / 32.0 + (l & 1) as f32 * 0.375;
    let v = q / 64.0 + ((l >> 1) & 1) as f32 * 0.125;
    [u.to_bits(), v.to_bits(), 0, 0, 0, 0]
}

const L405: f32 = 405.0 / 256.0;

#[test]
fn the_lod_is_the_footprints_in_256ths_clamped_in_x() {
    assert_eq!((128.0 * 9f64.log2()).floor(), 405.0);
    // 32_FLOAT 2D 8 x 8 with 4 levels: the cap is min(MAX_LOD, 3)
    let t = tsharp(22, 9, 8, 8, 0, 3, 0);
    let m = vec![0; 1024];
    let lod = |s: [u32; 4], dmask: u32| {
        let (out, _) = run(&get_lod(dmask, "2D"), &with_sampler(t, s), quad, &m);
        out.lanes
    };
    let f = |v: f32| v.to_bits();
    // every lane of every quad: X clamped, Y unclamped, both 405/256
    let lanes = lod(ssharp(2, 15 * 256), 0x3);
    for (l, lane) in lanes.iter().enumerate() {
        assert_eq!(lane[..2], [f(L405), f(L405)], "lane {l}");
    }
    // MAX_LOD 1.0 clamps X, not Y; so do point mips; MIP_FILTER none gives X = 0
    assert_eq!(lod(ssharp(2, 256), 0x3)[0][..2], [f(1.0), f(L405)]);
    assert_eq!(lod(ssharp(1, 256), 0x3)[0][..2], [f(1.0), f(L405)]);
    assert_eq!(lod(ssharp(0, 15 * 256), 0x3)[0][..2], [0, f(L405)]);
    // LAST_LEVEL - BASE_LEVEL = 1 clamps X too
    let t2 = tsharp(22, 9, 8, 8, 0, 1, 0);
    let (out, _) = run(
        &get_lod(0x3, "2D"),
        &with_sampler(t2, ssharp(2, 15 * 256)),
        quad,
        &m,
    );
    assert_eq!(out.lanes[0][..2], [f(1.0), f(L405)]);
    // DMASK picks and packs the slots X, Y, Z = 0, W = 0
    let s = ssharp(2, 256);
    assert_eq!(lod(s, 0x2)[0][0], f(L405));
    assert_eq!(lod(s, 0x5)[0][..2], [f(1.0), 0]);
    assert_eq!(lod(s, 0xf)[0][..4], [f(1.0), f(L405), 0, 0]);
    assert_eq!(lod(s, 0xc)[0][..2], [0, 0]);
}

#[test]
fn flat_small_and_infinite_footprints() {
    let t = tsharp(22, 9, 8, 8, 0, 3, 0);
    let m = vec![0; 1024];
    let s = with_sampler(t, ssharp(2, 15 * 256));
    let text = get_lod(0x3, "2D");
    let f = |v: f32| v.to_bits();
    // a flat quad: rho2 = 0, Y = -infinity, X = 0
    let (out, _) = run(&text, &s, |_| [0x3e00_0000, 0x3e00_0000, 0, 0, 0, 0], &m);
    assert_eq!(out.lanes[0][..2], [0, f(f32::NEG_INFINITY)]);
    // half a texel a lane: rho2 = 1/4, L = -256, Y = -1.0, X = 0
    let half = |l: u32| {
        let u = (l & 1) as f32 / 16.0;
        let v = ((l >> 1) & 1) as f32 / 16.0;
        [u.to_bits(), v.to_bits(), 0, 0, 0, 0]
    };
    let (out, _) = run(&text, &s, half, &m);
    assert_eq!(out.lanes[0][..2], [0, f(-1.0)]);
    // 2 texels along x: rho2 = 4, L = 256 exactly (the edge 2^1 is reached)
    let two = |l: u32| [((l & 1) as f32 / 4.0).to_bits(), 0, 0, 0, 0, 0];
    let (out, _) = run(&text, &s, two, &m);
    assert_eq!(out.lanes[0][..2], [f(1.0), f(1.0)]);
    // an infinite difference: Y = +infinity, X the cap (3); infinities in both lanes: a NaN
    // difference, Y = -infinity, X = 0
    let inf = f(f32::INFINITY);
    let (out, _) = run(
        &text,
        &s,
        |l| [if l & 1 == 1 { inf } else { 0 }, 0, 0, 0, 0, 0],
        &m,
    );
    assert_eq!(out.lanes[0][..2], [f(3.0), inf]);
    let (out, _) = run(&text, &s, |_| [inf, 0, 0, 0, 0, 0], &m);
    assert_eq!(out.lanes[0][..2], [0, f(f32::NEG_INFINITY)]);
}

#[test]
fn other_dims_take_their_axes() {
    let m = vec![0; 1024];
    let f = |v: f32| v.to_bits();
    // 1D, 16 texels: 3 texels a lane along x -> 405 / 256 (y has no axis)
    let t = tsharp(22, 8, 16, 1, 0, 4, 0);
    let lanes = |l: u32| [((l & 1) as f32 * 3.0 / 16.0).to_bits(), 0, 0, 0, 0, 0];
    let (out, _) = run(
        &get_lod(0x3, "1D"),
        &with_sampler(t, ssharp(2, 15 * 256)),
        lanes,
        &m,
    );
    assert_eq!(out.lanes[0][..2], [f(L405), f(L405)]);
    // 3D 4 x 4 x 8 (one level): 3 texels along w a lane; X clamps to 0 levels past the base
    let t = tsharp(22, 10, 4, 4, 7, 0, 0);
    let lanes = |l: u32| [0, 0, ((l & 1) as f32 * 3.0 / 8.0).to_bits(), 0, 0, 0];
    let (out, _) = run(
        &get_lod(0x3, "3D"),
        &with_sampler(t, ssharp(2, 15 * 256)),
        lanes,
        &m,
    );
    assert_eq!(out.lanes[0][..2], [0, f(L405)]);
    // unnormalized coordinates: 3 texels along y of a 2D array
    let t = tsharp(22, 13, 8, 8, 3, 2, 0);
    let text = "image_get_lod v[10:11], v[4:6], s[24:31], s[4:7] dmask:0x3 \
                dim:SQ_RSRC_IMG_2D_ARRAY unorm";
    let lanes = |l: u32| [0, ((((l >> 1) & 1) * 3) as f32).to_bits(), 0, 0, 0, 0];
    let (out, _) = run(text, &with_sampler(t, ssharp(2, 15 * 256)), lanes, &m);
    assert_eq!(out.lanes[0][..2], [f(L405), f(L405)]);
}

#[test]
fn what_changes_the_lod_and_is_not_modelled_is_refused() {
    let t = tsharp(22, 9, 8, 8, 0, 3, 0);
    let text = get_lod(0x3, "2D");
    let err = |s: [u32; 4], t: [u32; 8], text: &str| {
        lower_img(text, &with_sampler(t, s))
            .expect_err("refused")
            .to_string()
    };
    let mut aniso = ssharp(2, 256);
    aniso[0] |= 2 << 9;
    assert!(err(aniso, t, &text).contains("anisotropic"));
    let mut bias = ssharp(2, 256);
    bias[2] |= 0x40;
    assert!(err(bias, t, &text).contains("LOD_BIAS"));
    assert!(err(ssharp(3, 256), t, &text).contains("MIP_FILTER 3"));
    let cube = tsharp(22, 11, 8, 8, 5, 0, 0);
    let e = err(
        ssharp(2, 256),
        cube,
        "image_get_lod v[10:11], v[4:6], s[24:31], s[4:7] dmask:0x3 dim:SQ_RSRC_IMG_CUBE",
    );
    assert!(e.contains("image_get_lod: a CUBE T#"), "{e}");
    // a mixed XY filter and the half-border modes do not enter the LOD
    let mut mixed = ssharp(2, 256);
    mixed[0] |= 4 | 4 << 3;
    mixed[2] &= !(3 << 20);
    assert!(lower_img(&text, &with_sampler(t, mixed)).is_ok());
}
