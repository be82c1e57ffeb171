//! A16 and D16 samples (rule image-sample-a16-d16) on the CPU model of a wave: an A16 sample
//! equals the f32-address sample of the same (f16-exact) values bit for bit in every form
//! whose layout differs (coordinates, LOD, bias, clamp, derivatives, gathers), and a D16
//! sample's halves are the host's own f32 -> f16 rounding (the `half` crate, to nearest even)
//! of the f32 sample.

use super::image_tests::{lower_img, mem, run, s_in, tsharp};
use super::image_trilinear_tests::{float_image, ssharp, with_sampler};
use half::f16;

fn h(x: f32) -> u32 {
    let v = f16::from_f32(x);
    assert_eq!(v.to_f32(), x, "{x} is an f16");
    u32::from(v.to_bits())
}

fn pair(lo: f32, hi: f32) -> u32 {
    h(lo) | h(hi) << 16
}

/// f16-exact coordinates, different per lane (a quad steps 0.125 along u and 0.1875 along v).
fn uv(lane: u32) -> (f32, f32) {
    (
        (lane % 8) as f32 * 0.125 - 0.25,
        (lane / 8) as f32 * 0.1875 + 0.0625,
    )
}

#[test]
fn an_a16_sample_is_the_f32_sample_of_the_same_values() {
    let (t, m) = float_image();
    // trilinear, clamp to the last texel, MAX_LOD 15
    let s = with_sampler(t, ssharp(2, 1, 2, 15 * 256));
    let d = "dmask:0x1 dim:SQ_RSRC_IMG_2D";
    type Lanes = Box<dyn Fn(u32) -> [u32; 6]>;
    let cases: Vec<(String, Lanes, String, Lanes)> = vec![
        // implicit LOD from the quad's differences: (u | v)
        (
            format!("image_sample v10, v[4:5], s[24:31], s[4:7] {d}"),
            Box::new(|l| {
                let (u, v) = uv(l);
                [u.to_bits(), v.to_bits(), 0, 0, 0, 0]
            }),
            format!("image_sample v10, v4, s[24:31], s[4:7] {d} a16"),
            Box::new(|l| {
                let (u, v) = uv(l);
                [pair(u, v), 0, 0, 0, 0, 0]
            }),
        ),
        // the LOD packs after the coordinates: (u | v), (lod | -)
        (
            format!("image_sample_l v10, v[4:6], s[24:31], s[4:7] {d}"),
            Box::new(|l| {
                let (u, v) = uv(l);
                let lod = (l % 5) as f32 * 0.375;
                [u.to_bits(), v.to_bits(), lod.to_bits(), 0, 0, 0]
            }),
            format!("image_sample_l v10, v[4:5], s[24:31], s[4:7] {d} a16"),
            Box::new(|l| {
                let (u, v) = uv(l);
                let lod = (l % 5) as f32 * 0.375;
                [pair(u, v), h(lod) | 0xabcd << 16, 0, 0, 0, 0]
            }),
        ),
        // the bias keeps its dword (the f16 in bits 15:0), the clamp packs after (u | v)
        (
            format!("image_sample_b_cl v10, v[4:7], s[24:31], s[4:7] {d}"),
            Box::new(|l| {
                let (u, v) = uv(l);
                let bias = (l % 3) as f32 * 0.75 - 0.5;
                [
                    bias.to_bits(),
                    u.to_bits(),
                    v.to_bits(),
                    1.25f32.to_bits(),
                    0,
                    0,
                ]
            }),
            format!("image_sample_b_cl v10, v[4:6], s[24:31], s[4:7] {d} a16"),
            Box::new(|l| {
                let (u, v) = uv(l);
                let bias = (l % 3) as f32 * 0.75 - 0.5;
                [h(bias) | 0x7777 << 16, pair(u, v), h(1.25), 0, 0, 0]
            }),
        ),
        // the derivatives keep 32 bits (not `_g16`), the coordinates follow packed
        (
            format!("image_sample_d v10, v[4:9], s[24:31], s[4:7] {d}"),
            Box::new(|l| {
                let (u, v) = uv(l);
                let g = (l % 4) as f32 * 0.3;
                let gs = [
                    g.to_bits(),
                    0.1f32.to_bits(),
                    0.05f32.to_bits(),
                    g.to_bits(),
                ];
                [gs[0], gs[1], gs[2], gs[3], u.to_bits(), v.to_bits()]
            }),
            format!("image_sample_d v10, v[4:8], s[24:31], s[4:7] {d} a16"),
            Box::new(|l| {
                let (u, v) = uv(l);
                let g = (l % 4) as f32 * 0.3;
                let gs = [
                    g.to_bits(),
                    0.1f32.to_bits(),
                    0.05f32.to_bits(),
                    g.to_bits(),
                ];
                [gs[0], gs[1], gs[2], gs[3], pair(u, v), 0]
            }),
        ),
        // a gather: (u | v)
        (
            "image_gather4_lz v[10:13], v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D"
                .into(),
            Box::new(|l| {
                let (u, v) = uv(l);
                [u.to_bits(), v.to_bits(), 0, 0, 0, 0]
            }),
            "image_gather4_lz v[10:13], v4, s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D a16"
                .into(),
            Box::new(|l| {
                let (u, v) = uv(l);
                [pair(u, v), 0, 0, 0, 0, 0]
            }),
        ),
    ];
    for (f32_text, f32_lanes, a16_text, a16_lanes) in &cases {
        let (want, _) = run(f32_text, &s, f32_lanes, &m);
        let (got, _) = run(a16_text, &s, a16_lanes, &m);
        assert_eq!(got.lanes, want.lanes, "{a16_text}");
        // the lanes differ among themselves: the layout is not hidden by a constant image
        assert!(
            want.lanes.iter().any(|o| o[0] != want.lanes[0][0]),
            "{f32_text}"
        );
    }
}

#[test]
fn an_a16_array_layer_packs_with_the_lod() {
    // 2D array (TYPE 13) of 32_FLOAT, 1 x 1 texels, 3 layers (DEPTH 2), a layer every 256
    // bytes (the pitch's 64 texels): layer k holds k + 0.5
    let t = tsharp(22, 13, 1, 1, 2, 0, 0);
    let m = mem(&[
        (0, 0.5f32.to_bits()),
        (64, 1.5f32.to_bits()),
        (128, 2.5f32.to_bits()),
    ]);
    let s = with_sampler(t, ssharp(2, 0, 0, 0));
    let text =
        "image_sample_l v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY a16";
    // (u | v), (layer | lod): layer 0.75 rounds to 1, 2.0 is 2, 9 clamps to the last
    let layers = [0.75f32, 2.0, 9.0, 0.0];
    let (out, _) = run(
        text,
        &s,
        |l| {
            [
                pair(0.5, 0.5),
                pair(layers[l as usize % 4], 0.0),
                0,
                0,
                0,
                0,
            ]
        },
        &m,
    );
    let got: Vec<f32> = out.lanes[..4]
        .iter()
        .map(|o| f32::from_bits(o[0]))
        .collect();
    assert_eq!(got, [1.5, 2.5, 2.5, 0.5]);
}

#[test]
fn a_d16_sample_rounds_each_slot_to_f16_to_nearest_even() {
    // 32_32_32_32_FLOAT 1 x 1: ties to even (down and up), overflow, a NaN with a payload
    let comps: [u32; 4] = [
        (1.0f32 + 2f32.powi(-11)).to_bits(),
        (1.0f32 + 3.0 * 2f32.powi(-11)).to_bits(),
        65520.0f32.to_bits(),
        0x7f81_2345,
    ];
    let t = tsharp(77, 9, 1, 1, 0, 0, 0);
    let m = mem(&[(0, comps[0]), (1, comps[1]), (2, comps[2]), (3, comps[3])]);
    let s = with_sampler(t, ssharp(2, 0, 0, 0));
    let lanes = |_| [0.5f32.to_bits(), 0.5f32.to_bits(), 0, 0, 0, 0];
    let (plain, _) = run(
        "image_sample_lz v[10:13], v[4:5], s[24:31], s[4:7] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &s,
        lanes,
        &m,
    );
    assert_eq!(
        plain.lanes[0][..4],
        comps,
        "point sampling returns the texel"
    );
    let (d16, _) = run(
        "image_sample_lz v[10:11], v[4:5], s[24:31], s[4:7] dmask:0xf dim:SQ_RSRC_IMG_2D d16",
        &s,
        lanes,
        &m,
    );
    let f = |b: u32| u32::from(f16::from_f32(f32::from_bits(b)).to_bits());
    assert_eq!(d16.lanes[0][0], f(comps[0]) | f(comps[1]) << 16);
    assert_eq!(d16.lanes[0][0], 0x3c02_3c00);
    assert_eq!(d16.lanes[0][1] & 0xffff, 0x7c00, "65520 overflows");
    // the NaN: quieted, the payload's top bits kept (as the host's conversion does)
    assert_eq!(d16.lanes[0][1] >> 16, f(comps[3]) | 0x200);
    // an odd last slot leaves the high half of its VGPR
    let (odd, _) = run(
        "v_mov_b32 v11, 0x5a5a1234\n\
         image_sample_lz v[10:11], v[4:5], s[24:31], s[4:7] dmask:0x7 dim:SQ_RSRC_IMG_2D d16",
        &s,
        lanes,
        &m,
    );
    assert_eq!(odd.lanes[0][1], 0x5a5a_7c00);
}

#[test]
fn a_d16_bilinear_sample_is_the_f32_sample_rounded() {
    let (t, m) = float_image();
    let s = with_sampler(t, ssharp(0, 1, 0, 0));
    let lanes = |l: u32| {
        let (u, v) = uv(l);
        [u.to_bits(), v.to_bits(), 0, 0, 0, 0]
    };
    let (a, _) = run(
        "image_sample_lz v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &s,
        lanes,
        &m,
    );
    let (b, _) = run(
        "v_mov_b32 v10, 0x12340000\n\
         image_sample_lz v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D d16",
        &s,
        lanes,
        &m,
    );
    for l in 0..32 {
        let f = |x: u32| {
            let v = f32::from_bits(x);
            if v.is_nan() {
                return None;
            }
            Some(u32::from(f16::from_f32(v).to_bits()))
        };
        if let Some(x) = f(a.lanes[l][0]) {
            assert_eq!(b.lanes[l][0], x | 0x1234 << 16, "lane {l}");
        }
    }
}

#[test]
fn a_d16_sample_of_an_integer_format_is_refused() {
    let t = tsharp(5, 9, 2, 2, 0, 0, 0); // 8_UINT
    let s = with_sampler(t, ssharp(2, 0, 0, 0));
    let text = "image_sample_lz v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D d16";
    let e = lower_img(text, &s).expect_err("refused").to_string();
    assert!(e.contains("D16 of an integer format"), "{e}");
    let _ = s_in; // the T#-only builder is image_tests'
}
