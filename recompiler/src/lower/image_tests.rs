//! Image lowering tests on the CPU model of a wave: bodies assembled by the project's
//! assembler (the same words llvm-mc-19 -mcpu=gfx1030 gives); expected values worked out here
//! from the rules of `lower::image` and the conversions of `lower::mem_format` (exact decimal
//! fractions, bit patterns), or from the reference notes where a rule cites them.

use super::*;
use crate::wave::{run_wave_mem, sgprs_in, WaveInput, WaveOutput, MEM_BASE};
use rdnaprobe_isa::assemble;

/// A linear T# in s[24:31]: `fmt` the image format, `ty` its TYPE, `w` x `h`, word4 `d`
/// (DEPTH, or PITCH - 1), `max_mip` (LAST_LEVEL too), the texels at byte `off` of the region.
pub(super) fn tsharp(
    fmt: u32,
    ty: u32,
    w: u32,
    h: u32,
    d: u32,
    max_mip: u32,
    off: u64,
) -> [u32; 8] {
    let base = MEM_BASE + off;
    [
        (base >> 8) as u32,
        (base >> 40) as u32 | fmt << 20 | ((w - 1) & 3) << 30,
        (w - 1) >> 2 | (h - 1) << 14,
        image_desc::DST_SEL_XYZW | max_mip << 16 | ty << 28,
        d,
        max_mip << 4,
        0,
        0,
    ]
}

/// s_in with the T# `t` at s24 (s0..s23 zero).
pub(super) fn s_in(t: [u32; 8]) -> Vec<u32> {
    let mut s = vec![0; 24];
    s.extend(t);
    s
}

/// Runs `text` as one wave32 (lanes' in0..in5 from `lanes`, every lane active) on the region
/// `mem`, lowered for the SGPR inputs `s` and a region of 4096 bytes.
pub(super) fn run(
    text: &str,
    s: &[u32],
    lanes: impl Fn(u32) -> [u32; 6],
    mem: &[u32],
) -> (WaveOutput, Vec<u32>) {
    run_in(text, s, lanes, mem, 4096)
}

/// [`run`] lowered for a region of `bytes` bytes.
pub(super) fn run_in(
    text: &str,
    s: &[u32],
    lanes: impl Fn(u32) -> [u32; 6],
    mem: &[u32],
    bytes: u32,
) -> (WaveOutput, Vec<u32>) {
    let k = lower_img_in(text, s, bytes).unwrap_or_else(|e| panic!("{text}: {e}"));
    k.validate().expect("valid");
    let lanes = (0..32).map(lanes).collect();
    let mut input = WaveInput::new(lanes, u64::MAX, vec![]);
    input.sgprs = sgprs_in(s);
    run_wave_mem(&k, &input, mem)
}

pub(super) fn lower_img(text: &str, s: &[u32]) -> Result<crate::ir::Kernel, LowerError> {
    lower_img_in(text, s, 4096)
}

/// [`lower_img`] for a region of `bytes` bytes.
pub(super) fn lower_img_in(
    text: &str,
    s: &[u32],
    bytes: u32,
) -> Result<crate::ir::Kernel, LowerError> {
    let words = assemble(text).expect("assembles");
    lower_wave_words_sgprs(
        &words,
        FloatMode::DEFAULT,
        Wave::W32,
        Target::Gfx1030,
        bytes,
        Some(&sgprs_in(s)),
    )
}

pub(super) fn mem(dwords: &[(usize, u32)]) -> Vec<u32> {
    let mut m = vec![0; 1024];
    for &(i, d) in dwords {
        m[i] = d;
    }
    m
}

#[test]
fn unorm_texels_load_as_exact_fractions() {
    // 8_8_8_8_UNORM 2D 4 x 2; texel (1, 1) at row 1 (pitch 64 texels = 256 bytes)
    let t = tsharp(56, 9, 4, 2, 0, 0, 0);
    let m = mem(&[(64 + 1, 0xff99_6633)]);
    let load = "image_load v[10:13], v[4:5], s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(load, &s_in(t), |l| [l % 4, l / 4, 0, 0, 0, 0], &m);
    // 0x33 = 51 = 0.2 * 255, 0x66 = 0.4, 0x99 = 0.6, 0xff = 1
    assert_eq!(
        out.lanes[5][..4],
        [0x3e4c_cccd, 0x3ecc_cccd, 0x3f19_999a, 0x3f80_0000]
    );
    assert_eq!(out.lanes[0][..4], [0; 4]);
    // x = 4 is past the width, y = 2 past the height: zero texels
    assert_eq!(
        out.lanes[4][..4],
        [0; 4],
        "x 0, y 1 is texel 64 of the region: 0"
    );
    for l in 8..32 {
        assert_eq!(out.lanes[l][..4], [0; 4], "lane {l} is out of range");
    }
}

#[test]
fn dst_sel_picks_components_and_constants_out_of_range_too() {
    // 8_UNORM 1D, DST_SEL X, 0, 0, 1: an out-of-range texel still gives W = 1
    let mut t = tsharp(1, 8, 2, 1, 0, 0, 0);
    t[3] = (t[3] & !0xfff) | 4 | 1 << 9;
    let m = mem(&[(0, 0x0000_ff33)]);
    let load = "image_load v[10:13], v4, s[24:31] dmask:0xf dim:SQ_RSRC_IMG_1D";
    let (out, _) = run(load, &s_in(t), |l| [l, 0, 0, 0, 0, 0], &m);
    assert_eq!(out.lanes[0][..4], [0x3e4c_cccd, 0, 0, 0x3f80_0000]);
    assert_eq!(out.lanes[1][..4], [0x3f80_0000, 0, 0, 0x3f80_0000]);
    assert_eq!(
        out.lanes[2][..4],
        [0, 0, 0, 0x3f80_0000],
        "x 2 is past the width"
    );
    // DMASK 0x9 returns X and W only, packed
    let load = "image_load v[10:11], v4, s[24:31] dmask:0x9 dim:SQ_RSRC_IMG_1D";
    let (out, _) = run(load, &s_in(t), |l| [l, 0, 0, 0, 0, 0], &m);
    assert_eq!(out.lanes[0][..3], [0x3e4c_cccd, 0x3f80_0000, 0]);
}

#[test]
fn stores_convert_and_round_half_up() {
    // 8_8_8_8_UNORM 2D 2 x 1: floor(clamp(x) * 255 + 1/2)
    let t = tsharp(56, 9, 2, 1, 0, 0, 0);
    let store = "image_store v[6:9], v[4:5], s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D";
    let data = |l: u32| match l {
        0 => [0, 0, 0x3f00_0000, 0x3f80_0000, 0xbf80_0000, 0x4000_0000], // 0.5, 1, -1, 2
        1 => [1, 0, 0x3e4c_cccd, 0x7fc0_0000, 0, 0x3b80_0000],           // 0.2, NaN, 0, 1/256
        _ => [5, 0, 0x3f80_0000, 0x3f80_0000, 0x3f80_0000, 0x3f80_0000], // out of range
    };
    let (_, m) = run(store, &s_in(t), data, &mem(&[]));
    assert_eq!(m[0], 0xff00_ff80);
    assert_eq!(m[1], 0x0100_0033);
    assert!(m[2..].iter().all(|&d| d == 0));
}

#[test]
fn a_two_component_store_takes_its_second_component_from_w() {
    // 8_8_UINT: Y comes from the W slot (notes: StoreTexel, gfx1035)
    let t = tsharp(18, 9, 1, 1, 0, 0, 0);
    let store = "image_store v[6:9], v[4:5], s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D";
    let (_, m) = run(
        store,
        &s_in(t),
        |l| {
            if l == 0 {
                [0, 0, 1, 2, 3, 4]
            } else {
                [9, 9, 0, 0, 0, 0]
            }
        },
        &mem(&[]),
    );
    assert_eq!(m[0], 0x0401);
    // without W in DMASK it is refused
    let e = lower_img(
        "image_store v[6:7], v[4:5], s[24:31] dmask:0x3 dim:SQ_RSRC_IMG_2D",
        &s_in(t),
    )
    .unwrap_err();
    assert!(e.to_string().contains("without data slot W"), "{e}");
}

#[test]
fn sint_stores_saturate_to_the_component_range() {
    // 8_8_8_8_SINT (notes: SINT storage images of 8- and 16-bit components saturate)
    let t = tsharp(61, 8, 1, 1, 0, 0, 0);
    let store = "image_store v[6:9], v4, s[24:31] dmask:0xf dim:SQ_RSRC_IMG_1D";
    let (_, m) = run(
        store,
        &s_in(t),
        |l| {
            if l == 0 {
                [0, 0, 300, (-300i32) as u32, 127, (-128i32) as u32]
            } else {
                [7, 0, 0, 0, 0, 0]
            }
        },
        &mem(&[]),
    );
    assert_eq!(m[0], 0x807f_807f);
}

#[test]
fn mip_levels_are_found_smallest_first() {
    // 32_UINT 2D 4 x 4, 3 levels: 4x4 at byte 3 * 256 (after 1x1 and 2x2), 2x2 at 256
    let t = tsharp(20, 9, 4, 4, 0, 2, 0);
    let m = mem(&[
        (64, 0x22),
        (64 + 64 + 1, 0x23),
        (0, 0x11),
        (3 * 64 + 3 * 64 + 2, 0x44),
    ]);
    let load = "image_load_mip v10, v[4:6], s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let lanes = |l| match l {
        0 => [0, 0, 1, 0, 0, 0], // level 1 (0, 0)
        1 => [1, 1, 1, 0, 0, 0], // level 1 (1, 1)
        2 => [0, 0, 2, 0, 0, 0], // level 2
        3 => [2, 3, 0, 0, 0, 0], // level 0 (2, 3)
        4 => [2, 0, 1, 0, 0, 0], // x 2 is past level 1's width
        _ => [0, 0, 3, 0, 0, 0], // past LAST_LEVEL
    };
    let (out, _) = run(load, &s_in(t), lanes, &m);
    let got: Vec<u32> = out.lanes[..6].iter().map(|o| o[0]).collect();
    assert_eq!(got, [0x22, 0x23, 0x11, 0x44, 0, 0]);
}

#[test]
fn the_t_sharp_type_decides_the_addressing() {
    // 3D DIM through a 2D T#: (x, y) when z is 0, zero otherwise (notes, gfx1036/gfx1035)
    let t = tsharp(20, 9, 2, 2, 0, 0, 0);
    let m = mem(&[(1, 7), (65, 8)]);
    let load = "image_load v10, v[4:6], s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_3D";
    let (out, _) = run(load, &s_in(t), |l| [1, l % 2, l / 2, 0, 0, 0], &m);
    assert_eq!(
        [out.lanes[0][0], out.lanes[1][0], out.lanes[2][0]],
        [7, 8, 0]
    );
    // 2D DIM through a 1D T#: y is ignored, 0xffffffff too (notes, gfx1036)
    let t = tsharp(20, 8, 2, 1, 0, 0, 0);
    let load = "image_load v10, v[4:5], s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(load, &s_in(t), |l| [1, l * 0x0800_0000 + l, 0, 0, 0, 0], &m);
    assert!(out.lanes.iter().all(|o| o[0] == 7));
    // a 3D DIM through a 2D-array T# takes z as the layer (BASE_ARRAY 1, DEPTH 2)
    let t = tsharp(20, 13, 1, 1, 2 | 1 << 16, 0, 0);
    let (out, _) = run(
        load.replace("2D", "3D")
            .replace("v[4:5]", "v[4:6]")
            .as_str(),
        &s_in(t),
        |l| [0, 0, l, 0, 0, 0],
        &mem(&[(64, 5), (128, 6)]),
    );
    assert_eq!(
        [out.lanes[0][0], out.lanes[1][0], out.lanes[2][0]],
        [5, 6, 0]
    );
    // a store through a 2D T# with a 3D DIM is not measured
    let e = lower_img(
        "image_store v6, v[4:6], s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_3D",
        &s_in(tsharp(20, 9, 2, 2, 0, 0, 0)),
    )
    .unwrap_err();
    assert!(e.to_string().contains("not measured"), "{e}");
}

#[test]
fn resinfo_reports_the_level_of_the_t_sharp_type() {
    // 2D 16 x 8, 4 levels, BASE_LEVEL 1
    let mut t = tsharp(22, 9, 16, 8, 0, 3, 0);
    t[3] |= 1 << 12;
    let q = "image_get_resinfo v[10:13], v4, s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(q, &s_in(t), |l| [l, 0, 0, 0, 0, 0], &mem(&[]));
    assert_eq!(out.lanes[0][..4], [8, 4, 1, 3]);
    assert_eq!(out.lanes[2][..4], [2, 1, 1, 3]);
    assert_eq!(out.lanes[9][..4], [1, 1, 1, 3]);
    // a 2D-array T# through a 3D DIM: the layer count third (notes)
    let t = tsharp(22, 13, 4, 2, 5 | 2 << 16, 0, 0);
    let q = "image_get_resinfo v[10:12], v4, s[24:31] dmask:0xe dim:SQ_RSRC_IMG_3D";
    let (out, _) = run(q, &s_in(t), |_| [0; 6], &mem(&[]));
    assert_eq!(out.lanes[0][..3], [2, 4, 1]);
}

#[test]
fn raw_pck_forms_move_texel_dwords() {
    // 8_8_UNORM: the texel is one 16-bit dword; _sgn sign-extends it, dword 1 reads 0
    let t = tsharp(14, 9, 2, 1, 0, 0, 0);
    let m = mem(&[(0, 0x9000_8001)]);
    let lanes = |l| [l, 0, 0, 0, 0, 0];
    let (out, _) = run(
        "image_load_pck v[10:11], v[4:5], s[24:31] dmask:0x3 dim:SQ_RSRC_IMG_2D",
        &s_in(t),
        lanes,
        &m,
    );
    assert_eq!(out.lanes[0][..2], [0x8001, 0]);
    assert_eq!(out.lanes[1][..2], [0x9000, 0]);
    let (out, _) = run(
        "image_load_pck_sgn v10, v[4:5], s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &s_in(t),
        lanes,
        &m,
    );
    assert_eq!(out.lanes[1][0], 0xffff_9000);
    // 32_32_UINT store_pck with DMASK 0x2: dword 1 from the data VGPR, dword 0 written as 0
    let t = tsharp(62, 9, 1, 1, 0, 0, 0);
    let (_, m) = run(
        "image_store_pck v6, v[4:5], s[24:31] dmask:0x2 dim:SQ_RSRC_IMG_2D",
        &s_in(t),
        |l| {
            if l == 0 {
                [0, 0, 0xabcd, 0, 0, 0]
            } else {
                [3, 0, 0, 0, 0, 0]
            }
        },
        &mem(&[(0, 0x1111), (1, 0x2222)]),
    );
    assert_eq!(m[..2], [0, 0xabcd]);
}

#[test]
fn srgb_loads_round_the_transfer_function_to_bf16() {
    let t = tsharp(128, 8, 4, 1, 0, 0, 0);
    let m = mem(&[(0, 0xff80_0a00)]);
    let (out, _) = run(
        "image_load v10, v4, s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_1D",
        &s_in(t),
        |l| [l, 0, 0, 0, 0, 0],
        &m,
    );
    let got: Vec<u32> = out.lanes[..4].iter().map(|o| o[0]).collect();
    assert_eq!(got, [0, 0x3b47_0000, 0x3e5d_0000, 0x3f80_0000]);
}

#[test]
fn d16_and_a16_pack_halves() {
    // 16_16_16_16_FLOAT 2D, d16: two halves per VGPR; a16: x and y in one VGPR
    let t = tsharp(71, 9, 4, 4, 0, 0, 0);
    let m = mem(&[
        (2 * 64 + 2 * 3, 0x3c00_bc00),
        (2 * 64 + 2 * 3 + 1, 0x7bff_0001),
    ]);
    let load = "image_load v[10:11], v4, s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D a16 d16";
    let (out, _) = run(
        load,
        &s_in(t),
        |l| [if l == 0 { 3 | 2 << 16 } else { 0 }, 0, 0, 0, 0, 0],
        &m,
    );
    assert_eq!(out.lanes[0][..2], [0x3c00_bc00, 0x7bff_0001]);
    // without d16 each half widens to f32
    let load = "image_load v[10:13], v4, s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D a16";
    let (out, _) = run(
        load,
        &s_in(t),
        |l| [if l == 0 { 3 | 2 << 16 } else { 0 }, 0, 0, 0, 0, 0],
        &m,
    );
    assert_eq!(
        out.lanes[0][..4],
        [0xbf80_0000, 0x3f80_0000, 0x3380_0000, 0x477f_e000]
    );
}

#[test]
fn tfe_leaves_the_status_vgpr() {
    let t = tsharp(20, 8, 1, 1, 0, 0, 0);
    let load =
        "v_mov_b32 v11, 0x5a5a\nimage_load v[10:11], v4, s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_1D tfe";
    let (out, _) = run(load, &s_in(t), |_| [0; 6], &mem(&[(0, 9)]));
    assert_eq!(out.lanes[0][..2], [9, 0x5a5a]);
}

#[test]
fn nsa_addresses_name_one_vgpr_each() {
    let t = tsharp(20, 10, 2, 2, 1, 0, 0); // 3D 2 x 2 x 2
    let m = mem(&[(2 * 64 + 64 + 1, 0x77)]);
    let load = "image_load v10, [v6, v4, v5], s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_3D";
    let (out, _) = run(load, &s_in(t), |_| [1, 1, 1, 0, 0, 0], &m);
    assert_eq!(out.lanes[0][0], 0x77, "x = v6, y = v4, z = v5");
}

#[test]
fn bad_descriptors_are_input_errors_and_unmodelled_ones_unsupported() {
    let load = "image_load v10, v4, s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_1D";
    let mut t = tsharp(20, 8, 1, 1, 0, 0, 0);
    t[1] &= !(0x1ff << 20);
    let e = lower_img(load, &s_in(t)).unwrap_err();
    assert!(e.is_bad_input(), "{e}");
    assert!(e.to_string().contains("FORMAT 0"), "{e}");
    let mut t = tsharp(20, 8, 1, 1, 0, 0, 0);
    t[3] |= 24 << 20;
    let e = lower_img(load, &s_in(t)).unwrap_err();
    assert!(
        !e.is_bad_input() && e.to_string().contains("SW_64KB_Z_X"),
        "{e}"
    );
    // a T# the kernel reads at run time is refused
    let words = assemble(load).unwrap();
    let e = lower_wave_words_mem(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030, 64)
        .unwrap_err();
    assert!(e.to_string().contains("must be known when lowering"), "{e}");
    assert!(specialises_on_sgprs(&words));
    assert!(!specialises_on_sgprs(
        &assemble("v_mov_b32 v10, v4").unwrap()
    ));
}

#[test]
fn a_body_builds_the_base_from_the_region_address() {
    // T# base field 0x1 (256 bytes into the region) plus s[16:17] >> 8
    let mut t = tsharp(20, 8, 1, 1, 0, 0, 0);
    t[0] = 1;
    t[1] &= !0xff;
    let body = "s_lshr_b64 s[40:41], s[16:17], 8\ns_add_u32 s24, s24, s40\n\
                s_addc_u32 s25, s25, s41\nimage_load v10, v4, s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_1D";
    let (out, _) = run(body, &s_in(t), |_| [0; 6], &mem(&[(64, 0x99)]));
    assert_eq!(out.lanes[0][0], 0x99);
}

#[test]
fn sgprs_past_s15_reach_the_body_at_run_time() {
    let words = assemble("s_mov_b32 s0, s40\nv_mov_b32 v10, s99").unwrap();
    let k = lower_wave_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).unwrap();
    k.validate().unwrap();
    let mut input = WaveInput::new(vec![[0; 6]; 32], u64::MAX, vec![]);
    input.sgprs[40] = 0x40;
    input.sgprs[99] = 0x99;
    let out = crate::wave::run_wave(&k, &input);
    assert_eq!(out.lanes[3][0], 0x99);
    assert_eq!(out.uniform.unwrap().sgprs[0], 0x40);
}
