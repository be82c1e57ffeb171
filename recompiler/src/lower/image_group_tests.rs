//! Tests of the BY, PCK2/PCK4 and packed-gather loads on the CPU model of a wave (bodies from
//! the project's assembler, its documented spellings of the opcodes LLVM does not know);
//! expected values worked out here from the reference notes' rules that `lower::image_group`
//! cites.

use super::image_tests::{lower_img, mem, run, s_in, tsharp};
use super::*;
use crate::wave::{run_wave_mem, sgprs_in, WaveInput, WaveOutput};
use rdnaprobe_isa::assemble;

/// The lowering of `text` with the last instruction's DMASK set to `dmask` (the assembler
/// takes one DMASK bit for a gather; the hardware reads a multi-bit one for
/// image_gather4h_pck), for the SGPR inputs `s`.
fn lower_dmask(text: &str, dmask: u32, s: &[u32]) -> Result<crate::ir::Kernel, LowerError> {
    let mut words = assemble(text).expect("assembles");
    let at = words.len() - 2;
    words[at] = (words[at] & !0xf00) | dmask << 8;
    lower_wave_words_sgprs(
        &words,
        FloatMode::DEFAULT,
        Wave::W32,
        Target::Gfx1030,
        4096,
        Some(&sgprs_in(s)),
    )
}

/// [`run`] of `text` with the last instruction's DMASK set to `dmask` ([`lower_dmask`]).
fn run_dmask(
    text: &str,
    dmask: u32,
    s: &[u32],
    lanes: impl Fn(u32) -> [u32; 6],
    mem: &[u32],
) -> (WaveOutput, Vec<u32>) {
    let k = lower_dmask(text, dmask, s).expect("lowers");
    k.validate().expect("valid");
    let mut input = WaveInput::new((0..32).map(lanes).collect(), u64::MAX, vec![]);
    input.sgprs = sgprs_in(s);
    run_wave_mem(&k, &input, mem)
}

const ZERO: u32 = 0;
const F0_2: u32 = 0x3e4c_cccd; // 0x33 / 255
const F0_4: u32 = 0x3ecc_cccd; // 0x66 / 255
const F0_6: u32 = 0x3f19_999a; // 0x99 / 255

#[test]
fn by2_reads_the_aligned_pair_and_checks_the_unaligned_end() {
    // 8_UNORM 2D 8 x 2: row 0 bytes 00 33 66 99 cc ff 33 66
    let t = tsharp(1, 9, 8, 2, 0, 0, 0);
    let m = mem(&[(0, 0x9966_3300), (1, 0x6633_ffcc)]);
    let load = "image_load_by2 v[10:11], v[4:5], s[24:31] dmask:0x3 dim:SQ_RSRC_IMG_2D";
    let lanes = |l: u32| match l {
        0 => [0, 0, 0, 0, 0, 0],
        1 => [3, 0, 0, 0, 0, 0],           // x 3: texels 2 and 3
        2 => [7, 0, 0, 0, 0, 0],           // x + 1 = 8 is past the width
        3 => [6, 0, 0, 0, 0, 0],           // texels 6 and 7
        4 => [0, 2, 0, 0, 0, 0],           // y past the height
        _ => [0xffff_ffff, 0, 0, 0, 0, 0], // x + 1 wraps: out of range
    };
    let (out, _) = run(load, &s_in(t), lanes, &m);
    let got: Vec<[u32; 2]> = (0..6).map(|l| [out.lanes[l][0], out.lanes[l][1]]).collect();
    assert_eq!(
        got,
        [
            [ZERO, F0_2],
            [F0_4, F0_6],
            [0, 0],
            [F0_2, F0_4],
            [0, 0],
            [0, 0]
        ]
    );
}

#[test]
fn by4_and_two_component_by2_convert_component_by_component() {
    // 8_UINT 8 x 1: four texels from x & ~3
    let t = tsharp(5, 9, 8, 1, 0, 0, 0);
    let m = mem(&[(0, 0x0403_0201), (1, 0x0807_0605)]);
    let load = "image_load_by4 v[10:13], v[4:5], s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(load, &s_in(t), |l| [4 + l, 0, 0, 0, 0, 0], &m);
    assert_eq!(out.lanes[0][..4], [5, 6, 7, 8]);
    assert_eq!(out.lanes[1][..4], [0; 4], "x 5: 5 + 3 is past the width");
    // 8_8_UINT: texel 0 then texel 1, X before Y
    let t = tsharp(18, 9, 2, 1, 0, 0, 0);
    let load = "image_load_by2 v[10:13], v[4:5], s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(load, &s_in(t), |l| [l, 0, 0, 0, 0, 0], &m);
    assert_eq!(out.lanes[0][..4], [1, 2, 3, 4]);
    assert_eq!(
        out.lanes[1][..4],
        [0; 4],
        "x 1: 1 + 1 is past the width of 2"
    );
}

#[test]
fn groups_wider_than_a_dword_and_other_pck_masks_write_zeros() {
    // 32_UINT BY2: zeros over a preset VGPR
    let t = tsharp(20, 9, 4, 1, 0, 0, 0);
    let body = "v_mov_b32 v10, 0x5a5a\nv_mov_b32 v12, 0x5a5a\n\
                image_load_by2 v[10:11], v[4:5], s[24:31] dmask:0x3 dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(body, &s_in(t), |_| [0; 6], &mem(&[(0, 1), (1, 2)]));
    assert_eq!(out.lanes[0][..3], [0, 0, 0x5a5a]);
    // 16_UNORM PCK2: the two raw texels in one dword; DMASK 0x3 gives zeros
    let t = tsharp(7, 9, 4, 1, 0, 0, 0);
    let m = mem(&[(0, 0x2222_1111), (1, 0x4444_3333)]);
    let load = "image_load_pck2 v10, v[4:5], s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(load, &s_in(t), |l| [l, 0, 0, 0, 0, 0], &m);
    let got: Vec<u32> = (0..4).map(|l| out.lanes[l][0]).collect();
    // x 3: 3 + 1 is past the width
    assert_eq!(got, [0x2222_1111, 0x2222_1111, 0x4444_3333, 0]);
    let body = "v_mov_b32 v10, 0x5a5a\nv_mov_b32 v11, 0x5a5a\n\
                image_load_pck2 v[10:11], v[4:5], s[24:31] dmask:0x3 dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(body, &s_in(t), |_| [0; 6], &m);
    assert_eq!(out.lanes[0][..2], [0, 0]);
}

#[test]
fn unmeasured_group_forms_are_refused() {
    let t1 = tsharp(1, 8, 8, 1, 0, 0, 0);
    let e = lower_img(
        "image_load_by2 v[10:11], v4, s[24:31] dmask:0x3 dim:SQ_RSRC_IMG_1D",
        &s_in(t1),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("2D images through DIM 2D only"),
        "{e}"
    );
    let t = tsharp(1, 9, 8, 1, 0, 0, 0);
    let e = lower_img(
        "image_load_by2 v10, v[4:5], s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &s_in(t),
    )
    .unwrap_err();
    assert!(e.to_string().contains("DMASK 0x1"), "{e}");
    let e = lower_img(
        "image_store_by2 v[10:11], v[4:5], s[24:31] dmask:0x3 dim:SQ_RSRC_IMG_2D",
        &s_in(t),
    )
    .unwrap_err();
    assert!(e.to_string().contains("not measured"), "{e}");
}

#[test]
fn gather4h_pck_reads_the_clamped_window_of_the_row() {
    // 8_UINT 2D 8 x 3: texel (x, y) = 0x10 y + x
    let t = tsharp(5, 9, 8, 3, 0, 0, 0);
    let row = |y: u32| [0x0302_0100 + 0x1010_1010 * y, 0x0706_0504 + 0x1010_1010 * y];
    let (r0, r1) = (row(0), row(1));
    let m = mem(&[(0, r0[0]), (1, r0[1]), (64, r1[0]), (65, r1[1])]);
    let g = "image_gather4h_pck v[10:13], v[4:5], s[24:31], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let lanes = |l: u32| match l {
        0 => [0x3f00_0000, 0, 0, 0, 0, 0], // u 0.5: 4 - 0.5 -> 3: columns 2..5
        1 => [0, 0, 0, 0, 0, 0],           // u 0: -1: columns 0, 0, 0, 1
        2 => [0x3f80_0000, 0, 0, 0, 0, 0], // u 1: 7: columns 6, 7, 7, 7
        3 => [0x3f00_0000, 0x3f00_0000, 0, 0, 0, 0], // v 0.5: row 1
        4 => [0x3f00_0000, 0xbe80_0000, 0, 0, 0, 0], // v -0.25: row -1 reads row 0
        _ => [0x3f00_0000, 0x3f80_0000, 0, 0, 0, 0], // v 1: row 3 is past the height
    };
    let (out, _) = run(g, &s_in(t), lanes, &m);
    let got: Vec<u32> = (0..6).map(|l| out.lanes[l][0]).collect();
    assert_eq!(
        got,
        [
            0x0504_0302,
            0x0100_0000,
            0x0707_0706,
            0x1514_1312,
            0x0504_0302,
            0
        ]
    );
    // 8_8_8_8_UINT, DMASK 0x5: bit 0 gives stream word 0 (texel 2), bit 2 word 2 (texel 4)
    let t = tsharp(60, 9, 8, 1, 0, 0, 0);
    let m: Vec<(usize, u32)> = (0..8).map(|x| (x, 0xab00 | x as u32)).collect();
    let g = "image_gather4h_pck v[10:13], v[4:5], s[24:31], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let (out, _) = run_dmask(g, 5, &s_in(t), |_| [0x3f00_0000, 0, 0, 0, 0, 0], &mem(&m));
    assert_eq!(out.lanes[0][..2], [0xab02, 0xab04]);
    // 32_32_UINT texels are wider than 32 bits: zeros
    let t = tsharp(62, 9, 8, 1, 0, 0, 0);
    let body = format!("v_mov_b32 v11, 0x5a5a\n{g}");
    let (out, _) = run_dmask(
        &body,
        5,
        &s_in(t),
        |_| [0x3f00_0000, 0, 0, 0, 0, 0],
        &mem(&m),
    );
    assert_eq!(out.lanes[0][..2], [0, 0]);
}

#[test]
fn gather8h_pck_writes_zeros_to_its_registers() {
    let t = tsharp(56, 9, 4, 4, 0, 0, 0);
    let body = "v_mov_b32 v10, 0x5a5a\nv_mov_b32 v12, 0x5a5a\nv_mov_b32 v13, 0x5a5a\n\
                image_gather8h_pck v[10:12], v[4:5], s[24:31] dmask:0xb dim:SQ_RSRC_IMG_2D";
    let (out, _) = run(body, &s_in(t), |_| [0; 6], &mem(&[(0, 0x1234_5678)]));
    assert_eq!(out.lanes[0][..4], [0, 0, 0, 0x5a5a]);
}

#[test]
fn gather4h_converts_the_dmask_component_of_the_pck_window() {
    // 8_UNORM 2D 8 x 2: row 0 bytes 00 33 66 99 cc ff 33 66 (the model's choice: the window
    // of image_gather4h_pck, each texel converted as a gather converts it)
    let t = tsharp(1, 9, 8, 2, 0, 0, 0);
    let m = mem(&[(0, 0x9966_3300), (1, 0x6633_ffcc)]);
    let g = "image_gather4h v[10:13], v[4:5], s[24:31], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let lanes = |l: u32| match l {
        0 => [0x3f00_0000, 0, 0, 0, 0, 0],           // u 0.5: columns 2..5
        1 => [0, 0, 0, 0, 0, 0],                     // u 0: columns 0, 0, 0, 1
        _ => [0x3f00_0000, 0x3f80_0000, 0, 0, 0, 0], // v 1: row 2 is past the height
    };
    let (out, _) = run(g, &s_in(t), lanes, &m);
    let got: Vec<[u32; 4]> = (0..3)
        .map(|l| [0, 1, 2, 3].map(|k| out.lanes[l][k]))
        .collect();
    assert_eq!(
        got,
        [
            [F0_4, F0_6, 0x3f4c_cccd, 0x3f80_0000],
            [ZERO, ZERO, ZERO, F0_2],
            [0, 0, 0, 0]
        ]
    );
    // two DMASK bits: refused, not guessed
    let e = lower_dmask(g, 3, &s_in(t)).unwrap_err().to_string();
    assert!(e.contains("DMASK of other than one component"), "{e}");
}
