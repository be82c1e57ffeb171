//! Sampling tests on the CPU model of a wave: a bilinear value worked out by hand from the
//! 8-bit weights, and the S# and T# fields the model refuses (each with its kind of error).

use super::image_tests::{lower_img, mem, run, s_in, tsharp};
use super::*;

/// s_in with the T# `t` at s24 and the S# `s` at s[4:7].
fn with_sampler(t: [u32; 8], s: [u32; 4]) -> Vec<u32> {
    let mut v = s_in(t);
    v[4..8].copy_from_slice(&s);
    v
}

/// An S#: CLAMP_X/Y `mode`, XY_MAG/MIN_FILTER `filter`.
fn ssharp(mode: u32, filter: u32) -> [u32; 4] {
    [mode | mode << 3, 0, filter << 20 | filter << 22, 0]
}

const SAMPLE_2D: &str =
    "image_sample_lz v10, v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D";

#[test]
fn bilinear_blends_four_texels_with_8_bit_weights() {
    // a 2 x 2 R8_UNORM image (format 1): texels 0, 255 / 51, 204 (0, 1 / 0.2, 0.8)
    let t = tsharp(1, 9, 2, 2, 0, 0, 0);
    let m = mem(&[(0, 0xff00), (64, 0xcc33)]);
    let s = with_sampler(t, ssharp(2, 1));
    // u = 0.55 -> x = f32(1.1) - 0.5 = 0.6 (f32), frac 0.6 -> w1 = round(153.6) = 154;
    // v = 0.5 -> y = 0.5: w1 = 128
    let u = 0.55f32.to_bits();
    let v = 0.5f32.to_bits();
    let (out, _) = run(SAMPLE_2D, &s, |_| [u, v, 0, 0, 0, 0], &m);
    // the texels convert as UNORM loads do (51/255 = 0.2 and 204/255 = 0.8 rounded to f32);
    // weights x: 102 and 154, y: 128 and 128
    let c = |q: f64| (q as f32) as f64;
    let want_exact =
        (154.0 * 128.0 + 102.0 * 128.0 * c(51.0 / 255.0) + 154.0 * 128.0 * c(204.0 / 255.0))
            / 65536.0;
    assert_eq!(out.lanes[0][0], (want_exact as f32).to_bits());
    // point sampling reads texel floor(1.1) = 1 of row 1: 204/255
    let s = with_sampler(t, ssharp(2, 0));
    let (out, _) = run(SAMPLE_2D, &s, |_| [u, v, 0, 0, 0, 0], &m);
    assert_eq!(out.lanes[0][0], ((204.0f64 / 255.0) as f32).to_bits());
}

#[test]
fn what_the_model_does_not_know_is_refused_with_the_reason() {
    let t = tsharp(1, 9, 2, 2, 0, 0, 0);
    let err = |s: [u32; 4], t: [u32; 8], text: &str| {
        let e = lower_img(text, &with_sampler(t, s)).expect_err("refused");
        e.to_string()
    };
    // magnification and minification filters that differ
    let mixed = [2 | 2 << 3, 0, 1 << 20, 0];
    assert!(err(mixed, t, SAMPLE_2D).contains("XY_MAG_FILTER and XY_MIN_FILTER differ"));
    // a half-border addressing mode
    assert!(err(ssharp(4, 0), t, SAMPLE_2D).contains("half-border"));
    // the border colour table
    let table = [6 | 6 << 3, 0, 0, 3 << 30];
    assert!(err(table, t, SAMPLE_2D).contains("BORDER_COLOR_TYPE 3"));
    // an integer format (8_UINT, format 5) takes point filtering only
    let uint = tsharp(5, 9, 2, 2, 0, 0, 0);
    assert!(err(ssharp(2, 1), uint, SAMPLE_2D).contains("sampled only with point filtering"));
    assert!(lower_img(SAMPLE_2D, &with_sampler(uint, ssharp(2, 0))).is_ok());
    // the reserved MIP_FILTER 3 (linear, 2, is image_trilinear_tests')
    let reserved = [2 | 2 << 3, 0, 3 << 26, 0];
    let text = "image_sample_l v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    assert!(err(reserved, t, text).contains("MIP_FILTER 3"));
    // a cube T# through a 2D DIM (cube sampling: image_cube_tests)
    let cube = tsharp(1, 11, 2, 2, 5, 0, 0);
    assert!(err(ssharp(2, 0), cube, SAMPLE_2D).contains("DIM 2D through a CUBE T#"));
    // a gather with two components (the assembler refuses the text, as llvm-mc-19 does: the
    // word is patched)
    let text = "image_gather4_lz v[10:13], v[4:5], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let mut words = rdnaprobe_isa::assemble(text).unwrap();
    words[0] |= 0x3 << 8;
    let e = lower_wave_words_sgprs(
        &words,
        FloatMode::DEFAULT,
        Wave::W32,
        Target::Gfx1030,
        4096,
        Some(&crate::wave::sgprs_in(&with_sampler(t, ssharp(2, 0)))),
    )
    .expect_err("refused");
    assert!(
        e.to_string()
            .contains("a DMASK of other than one component"),
        "{e}"
    );
    // image_get_lod lowers (image_get_lod_tests)
    let text = "image_get_lod v[10:11], v[4:5], s[24:31], s[4:7] dmask:0x3 dim:SQ_RSRC_IMG_2D";
    assert!(lower_img(text, &with_sampler(t, ssharp(2, 0))).is_ok());
}

/// The biased LOD's edges: 2^(r/128) for r in 0..128, each the f64 nearest the power (within
/// half an ulp of libm's exp2, which is itself within an ulp), 1.0 exactly at r = 0, rising,
/// and the square of entry r is entry 2r's neighbour (2^(2r/128)) to an ulp or two.
#[test]
fn the_bias_edges_are_the_powers_of_two_to_the_128ths() {
    use super::image_lod::EXP2_128THS;
    let t: Vec<f64> = EXP2_128THS.iter().map(|&b| f64::from_bits(b)).collect();
    assert_eq!(t[0], 1.0);
    for r in 0..128 {
        let want = (r as f64 / 128.0).exp2();
        let ulps = (t[r].to_bits() as i64 - want.to_bits() as i64).abs();
        assert!(ulps <= 1, "r = {r}: {:e} against exp2 {:e}", t[r], want);
        assert!((1.0..2.0).contains(&t[r]));
        if r > 0 {
            assert!(t[r] > t[r - 1], "rising at {r}");
        }
        if 2 * r < 128 {
            let sq = t[r] * t[r];
            let ulps = (sq.to_bits() as i64 - t[2 * r].to_bits() as i64).abs();
            assert!(ulps <= 2, "r = {r}: {sq:e} against {:e}", t[2 * r]);
        }
    }
}

/// The sampling mnemonics name their forms: every suffix in its place, and the names that are
/// not samples (the packed and plain horizontal gathers, image_get_lod) none.
#[test]
fn a_sampling_mnemonic_names_its_form() {
    use super::image_sample::{Grad, Lod, Sample};
    let form = |n: &str| Sample::of_mnemonic(n).unwrap_or_else(|| panic!("{n}"));
    let s = form("image_sample");
    assert_eq!(
        (s.gather, s.compare, s.offset, s.lod, s.grad, s.bias),
        (false, false, false, Lod::Implicit, None, false)
    );
    assert_eq!(form("image_sample_lz_o").lod, Lod::Zero);
    assert!(form("image_sample_lz_o").offset);
    assert_eq!(form("image_sample_c_l").lod, Lod::Explicit);
    assert!(form("image_sample_c_l").compare);
    let g = form("image_gather4_c_b_cl_o");
    assert_eq!(
        (g.gather, g.compare, g.bias, g.lod, g.offset, g.grad),
        (true, true, true, Lod::Clamp, true, None)
    );
    let d = form("image_sample_c_cd_cl_o_g16");
    assert_eq!(
        d.grad,
        Some(Grad {
            coarse: true,
            g16: true
        })
    );
    assert_eq!(
        (d.compare, d.lod, d.offset, d.bias),
        (true, Lod::Clamp, true, false)
    );
    assert_eq!(
        form("image_sample_d").grad,
        Some(Grad {
            coarse: false,
            g16: false
        })
    );
    assert_eq!(form("image_sample_d").lod, Lod::Implicit);
    for not in [
        "image_gather4h",
        "image_gather4h_pck",
        "image_gather8h_pck",
        "image_get_lod",
        "image_sample_b_g16",
        "image_sample_x",
    ] {
        assert!(Sample::of_mnemonic(not).is_none(), "{not}");
    }
}

/// image_sample_lz with DIM 3D through a 2D T# ignores r and reads the (u, v) texel; through a
/// 2D-array T# r is the layer (reference notes, the descriptor-dimension entry: gfx1036 and
/// gfx1035). Other forms of the pair stay refused as not measured.
#[test]
fn a_3d_dim_sample_lz_through_2d_and_2d_array_t_sharps() {
    // 32_UINT (format 20) 2 x 2, point filtering, clamp: texel (1, 0) = 7, (0, 1) = 8
    let t = tsharp(20, 9, 2, 2, 0, 0, 0);
    let m = mem(&[(1, 7), (64, 8)]);
    let s = with_sampler(t, ssharp(2, 0));
    let text = "image_sample_lz v10, v[4:6], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_3D";
    let (u0, u1) = (0.25f32.to_bits(), 0.75f32.to_bits());
    // r takes any value, NaN and infinity included: it is not read
    let rs = [0.0f32, 0.5, 7.0, -3.0, f32::NAN, f32::INFINITY];
    let (out, _) = run(
        text,
        &s,
        |l| match l % 2 {
            0 => [u1, u0, rs[l as usize % 6].to_bits(), 0, 0, 0],
            _ => [u0, u1, rs[l as usize % 6].to_bits(), 0, 0, 0],
        },
        &m,
    );
    for l in 0..12 {
        assert_eq!(out.lanes[l][0], if l % 2 == 0 { 7 } else { 8 }, "lane {l}");
    }
    // a 2D-array T# of 1 x 1 texels, layers 0..2 (DEPTH 2): r is the layer, rounded to even
    let t = tsharp(20, 13, 1, 1, 2, 0, 0);
    let m = mem(&[(0, 4), (64, 5), (128, 6)]);
    let s = with_sampler(t, ssharp(2, 0));
    let h = 0.5f32.to_bits();
    let layers = [0.0f32, 1.0, 2.0, 1.4, 1.5, 2.5];
    let (out, _) = run(
        text,
        &s,
        |l| [h, h, layers[l as usize % 6].to_bits(), 0, 0, 0],
        &m,
    );
    let got: Vec<u32> = out.lanes[..6].iter().map(|o| o[0]).collect();
    assert_eq!(got, [4, 5, 6, 5, 6, 6]);
    // with an LOD or a comparison the pair is not measured (32_FLOAT, format 22)
    let t = tsharp(22, 9, 2, 2, 0, 0, 0);
    for text in [
        "image_sample_l v10, v[4:7], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_3D",
        "image_sample_c_lz v10, v[4:7], s[24:31], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_3D",
    ] {
        let e = lower_img(text, &with_sampler(t, ssharp(2, 0))).unwrap_err();
        assert!(
            e.to_string().contains("DIM 3D through a 2D T#"),
            "{text}: {e}"
        );
    }
}
