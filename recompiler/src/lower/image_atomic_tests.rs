//! Image atomic tests on the CPU model of a wave (bodies from the project's assembler, the
//! words llvm-mc-19 -mcpu=gfx1030 gives); expected values worked out here from the rules of
//! `lower::image_atomic`: the buffer atomics' operations on the texel's raw bits, lanes in
//! ascending order.

use super::image_tests::{lower_img, mem, run, s_in, tsharp};
use super::*;

#[test]
fn contending_lanes_apply_in_lane_order_and_glc_returns_the_old_value() {
    // 32_UINT 1D, 4 texels; every lane adds lane + 1 to texel lane % 2
    let t = tsharp(20, 8, 4, 1, 0, 0, 0);
    let add = "image_atomic_add v6, v4, s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm glc";
    let (_, m) = run(
        add,
        &s_in(t),
        |l| [l % 2, 0, l + 1, 0, 0, 0],
        &mem(&[(0, 100)]),
    );
    // texel 0 gets lanes 0, 2, 4, .. (+1, +3, +5, ..), texel 1 lanes 1, 3, .. (+2, +4, ..)
    assert_eq!(m[0], 100 + (1..=31).step_by(2).sum::<u32>());
    assert_eq!(m[1], (2..=32).step_by(2).sum::<u32>());
    // the old values, in v6 (moved to out0): 100, 101, 104 on texel 0, 0, 2, 6 on texel 1
    let body = format!("{add}\nv_mov_b32 v10, v6");
    let (out, _) = run(
        &body,
        &s_in(t),
        |l| [l % 2, 0, l + 1, 0, 0, 0],
        &mem(&[(0, 100)]),
    );
    let got: Vec<u32> = (0..6).map(|l| out.lanes[l][0]).collect();
    assert_eq!(got, [100, 0, 101, 2, 104, 6]);
}

#[test]
fn without_glc_the_data_vgpr_keeps_its_value() {
    let t = tsharp(21, 8, 4, 1, 0, 0, 0);
    let body = "image_atomic_smax v6, v4, s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm\n\
                v_mov_b32 v10, v6";
    // 32_SINT: smax compares the raw bits as signed: -5 < 3
    let (out, m) = run(
        body,
        &s_in(t),
        |l| [0, 0, if l == 0 { 3 } else { (-5i32) as u32 }, 0, 0, 0],
        &mem(&[(0, (-7i32) as u32)]),
    );
    assert_eq!(out.lanes[0][0], 3);
    assert_eq!(m[0], 3);
}

#[test]
fn cmpswap_writes_where_the_old_value_equals_the_compare_value() {
    // 32_FLOAT texels: the integer compare-and-swap acts on the raw bits (+0 and -0 differ)
    let t = tsharp(22, 8, 2, 1, 0, 0, 0);
    let body = "image_atomic_cmpswap v[6:7], v4, s[24:31] dmask:0x3 dim:SQ_RSRC_IMG_1D unorm glc\n\
                v_mov_b32 v10, v6\nv_mov_b32 v11, v7";
    let lanes = |l: u32| match l {
        0 => [0, 0, 0x3f80_0000, 0x8000_0000, 0, 0], // compare -0 with +0: no swap
        1 => [1, 0, 0x4000_0000, 0x1234, 0, 0],      // compare equal: swap
        _ => [2, 0, 9, 9, 0, 0],                     // x 2 is out of range: 0 returns
    };
    let (out, m) = run(body, &s_in(t), lanes, &mem(&[(1, 0x1234)]));
    assert_eq!(m[..3], [0, 0x4000_0000, 0]);
    assert_eq!(out.lanes[0][..2], [0, 0x8000_0000]);
    assert_eq!(out.lanes[1][..2], [0x1234, 0x1234]);
    assert_eq!(out.lanes[2][..2], [0, 9]);
}

#[test]
fn sixty_four_bit_atomics_act_on_32_32_texels() {
    // 32_32_UINT 2D 2 x 1: add carries into the high dword; cmpswap compares 64 bits
    let t = tsharp(62, 9, 2, 1, 0, 0, 0);
    let add = "image_atomic_add v[6:7], v[4:5], s[24:31] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm glc\n\
               v_mov_b32 v10, v6\nv_mov_b32 v11, v7";
    let (out, m) = run(
        add,
        &s_in(t),
        |l| {
            if l < 2 {
                [0, 0, 1, 0, 0, 0]
            } else {
                [5, 0, 1, 1, 0, 0]
            }
        },
        &mem(&[(0, 0xffff_ffff), (1, 7)]),
    );
    assert_eq!(m[..2], [1, 8]);
    assert_eq!(out.lanes[1][..2], [0, 8]);
    let cas =
        "image_atomic_cmpswap v[6:9], v[4:5], s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D unorm glc\n\
               v_mov_b32 v10, v6\nv_mov_b32 v11, v7";
    let lanes = |l: u32| match l {
        0 => [1, 0, 0xaaaa, 0xbbbb, 5, 6], // texel 1 holds (5, 6): swapped
        1 => [1, 0, 1, 2, 5, 6],           // now it holds (0xaaaa, 0xbbbb): kept
        _ => [9, 0, 0, 0, 0, 0],
    };
    let (out, m) = run(cas, &s_in(t), lanes, &mem(&[(2, 5), (3, 6)]));
    assert_eq!(m[2..4], [0xaaaa, 0xbbbb]);
    assert_eq!(out.lanes[0][..2], [5, 6]);
    assert_eq!(out.lanes[1][..2], [0xaaaa, 0xbbbb]);
}

#[test]
fn float_atomics_follow_the_float_atomics_rule() {
    // fmin of -0 and +0 is -0; a signalling-NaN data operand is stored quieted
    let t = tsharp(22, 8, 2, 1, 0, 0, 0);
    let body = "image_atomic_fmin v6, v4, s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm glc";
    let lanes = |l: u32| match l {
        0 => [0, 0, 0x8000_0000, 0, 0, 0],
        1 => [1, 0, 0x7f80_0001, 0, 0, 0],
        _ => [2, 0, 0, 0, 0, 0],
    };
    let (_, m) = run(body, &s_in(t), lanes, &mem(&[(0, 0), (1, 0x3f80_0000)]));
    assert_eq!(m[..2], [0x8000_0000, 0x7fc0_0001]);
}

#[test]
fn unmeasured_widths_formats_and_masks_are_refused() {
    let t64 = tsharp(62, 8, 2, 1, 0, 0, 0);
    for op in ["inc", "dec", "fmin"] {
        let e = lower_img(
            &format!("image_atomic_{op} v[6:7], v4, s[24:31] dmask:0x3 dim:SQ_RSRC_IMG_1D unorm"),
            &s_in(t64),
        )
        .unwrap_err();
        assert!(
            matches!(&e, LowerError::Unsupported { reason: RuleError::NotMeasured(r), .. } if r.contains("64-bit")),
            "{op}: {e}"
        );
    }
    // a 32-bit atomic on an 8_8_8_8 texel, and one on a 32_32 texel
    for fmt in [56, 62] {
        let e = lower_img(
            "image_atomic_add v6, v4, s[24:31] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm",
            &s_in(tsharp(fmt, 8, 2, 1, 0, 0, 0)),
        )
        .unwrap_err();
        assert!(e.to_string().contains("only 32_UINT"), "{fmt}: {e}");
    }
}
