//! Wave-contract lowering tests: expected values worked out by hand from the RDNA2 ISA
//! (VOPC masks, v_readlane/readfirstlane/writelane, v_permlane16/x16) and run on the CPU
//! model of a whole wave.

use super::*;
use crate::wave::{run_wave, WaveInput, WaveOutput};
use rdnaprobe_isa::assemble;

/// Runs `text` as one wave: lane `l` has in0 = `in0(l)`, in1 = `l`; `sgprs`, `exec` before.
fn wave_run(
    text: &str,
    wave: Wave,
    in0: impl Fn(u32) -> u32,
    sgprs: [u32; 16],
    exec: u64,
) -> WaveOutput {
    let words = assemble(text).expect("assembles");
    let k = lower_wave_words(&words, FloatMode::DEFAULT, wave, Target::Gfx1030).expect("lowers");
    k.validate().expect("valid kernel");
    let lanes = (0..wave.lanes()).map(|l| [in0(l), l, 0, 0, 0, 0]).collect();
    let lds = vec![];
    run_wave(
        &k,
        &WaveInput {
            lanes,
            sgprs: crate::wave::sgprs_in(&sgprs),
            exec,
            lds,
        },
    )
}

fn s(vals: &[u32]) -> [u32; 16] {
    let mut s = [0; 16];
    s[..vals.len()].copy_from_slice(vals);
    s
}

#[test]
fn vopc_writes_the_wave_mask_under_exec() {
    // lanes 6..15 have in0 > 5; EXEC holds lanes 0..15
    let out = wave_run(
        "v_cmp_lt_u32 vcc_lo, 5, v4",
        Wave::W32,
        |l| l,
        [0; 16],
        0xffff,
    );
    let u = out.uniform.unwrap();
    assert_eq!(u.vcc, 0xffc0);
    assert_eq!(u.exec, 0xffff);
    // into an SGPR, and read back per lane by v_cndmask_b32
    let t = "v_cmp_lt_u32 s4, 5, v4\nv_cndmask_b32 v10, 1, 2, s4";
    let out = wave_run(t, Wave::W32, |l| l, [0; 16], u64::MAX);
    assert_eq!(out.uniform.unwrap().sgprs[4], 0xffff_ffc0);
    assert_eq!(out.lanes[5][0], 1);
    assert_eq!(out.lanes[6][0], 2);
    // wave64: the high half lands in VCC_HI
    let out = wave_run(
        "v_cmp_lt_u32 vcc, 40, v4",
        Wave::W64,
        |l| l,
        [0; 16],
        u64::MAX,
    );
    assert_eq!(out.uniform.unwrap().vcc, !((1u64 << 41) - 1));
}

#[test]
fn v_cmpx_writes_exec_and_masks_later_writes() {
    let t = "v_cmpx_gt_u32 v4, 3\nv_mov_b32 v10, 9";
    let out = wave_run(t, Wave::W32, |l| l, [0; 16], 0xff);
    let exec = out.uniform.unwrap().exec;
    assert_eq!(exec, 0xf0, "v4 > 3: lanes 4..7 of the active 0..7");
    let v10: Vec<u32> = out.lanes.iter().map(|o| o[0]).collect();
    assert_eq!(&v10[..10], &[0, 0, 0, 0, 9, 9, 9, 9, 0, 0]);
}

#[test]
fn exec_in_masks_valu_writes() {
    let out = wave_run("v_mov_b32 v10, 7", Wave::W32, |l| l, [0; 16], 0x5);
    let v10: Vec<u32> = out.lanes.iter().take(4).map(|o| o[0]).collect();
    assert_eq!(v10, vec![7, 0, 7, 0]);
}

#[test]
fn readlane_and_readfirstlane() {
    // s2 = 37: lane 37 % 32 = 5 in wave32
    let t = "v_readlane_b32 s1, v4, s2\nv_readfirstlane_b32 s0, v4";
    let out = wave_run(t, Wave::W32, |l| 3 * l + 1, s(&[0, 0, 37]), 0xf0);
    let u = out.uniform.unwrap();
    assert_eq!(u.sgprs[1], 16);
    assert_eq!(u.sgprs[0], 13, "first active lane is 4");
    // EXEC empty: lane 0
    let out = wave_run(t, Wave::W32, |l| 3 * l + 1, s(&[0, 0, 37]), 0);
    assert_eq!(out.uniform.unwrap().sgprs[0], 1);
    // wave64 reads a lane of the high half
    let out = wave_run(t, Wave::W64, |l| 3 * l + 1, s(&[0, 0, 40]), 1 << 50);
    let u = out.uniform.unwrap();
    assert_eq!((u.sgprs[1], u.sgprs[0]), (121, 151));
}

#[test]
fn writelane_ignores_exec() {
    let t = "v_writelane_b32 v10, s0, 3";
    let out = wave_run(t, Wave::W32, |l| l, s(&[0xabc]), 0x1);
    let v10: Vec<u32> = out.lanes.iter().take(5).map(|o| o[0]).collect();
    assert_eq!(v10, vec![0, 0, 0, 0xabc, 0]);
}

#[test]
fn permlane16_selects_within_rows_and_x16_across() {
    // selectors reverse each row of 16: lane j reads 15 - j of its row
    let t = "v_permlane16_b32 v10, v4, s0, s1";
    let out = wave_run(
        t,
        Wave::W32,
        |l| 100 + l,
        s(&[0x89ab_cdef, 0x0123_4567]),
        u64::MAX,
    );
    for l in 0..32u32 {
        let row = l & !15;
        assert_eq!(
            out.lanes[l as usize][0],
            100 + row + 15 - (l & 15),
            "lane {l}"
        );
    }
    // identity selectors across rows: lane i reads lane i ^ 16
    let t = "v_permlanex16_b32 v10, v4, s0, s1";
    let out = wave_run(
        t,
        Wave::W64,
        |l| 100 + l,
        s(&[0x7654_3210, 0xfedc_ba98]),
        u64::MAX,
    );
    for l in 0..64u32 {
        assert_eq!(out.lanes[l as usize][0], 100 + (l ^ 16), "lane {l}");
    }
}

#[test]
fn permlane16_inactive_source_keeps_or_zeroes_without_fi() {
    // every lane reads lane 0 of its row; lane 0 is inactive
    let exec = 0xffff_fffe;
    let pre = "v_mov_b32 v10, 0x55\n";
    let keep = wave_run(
        &format!("{pre}v_permlane16_b32 v10, v4, 0, 0"),
        Wave::W32,
        |l| 100 + l,
        [0; 16],
        exec,
    );
    assert_eq!(keep.lanes[1][0], 0x55, "inactive source: vdst unchanged");
    assert_eq!(keep.lanes[17][0], 116, "row 1 reads lane 16, active");
    assert_eq!(keep.lanes[0][0], 0, "lane 0 is inactive: never written");
    let bc = wave_run(
        &format!("{pre}v_permlane16_b32 v10, v4, 0, 0 op_sel:[0,1]"),
        Wave::W32,
        |l| 100 + l,
        [0; 16],
        exec,
    );
    assert_eq!(bc.lanes[1][0], 0, "bound_ctrl: 0");
    let fi = wave_run(
        &format!("{pre}v_permlane16_b32 v10, v4, 0, 0 op_sel:[1,0]"),
        Wave::W32,
        |l| 100 + l,
        [0; 16],
        exec,
    );
    assert_eq!(fi.lanes[1][0], 100, "fetch inactive reads lane 0's VGPR");
}

#[test]
fn cross_lane_ops_need_the_wave_contract() {
    let words = assemble("v_readlane_b32 s1, v4, 2").unwrap();
    let e = lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).unwrap_err();
    assert!(e.to_string().contains("wave_id"), "{e}");
}

/// v10 of every lane after `text` with in0 = 100 + lane.
fn v10s(text: &str, wave: Wave, exec: u64) -> Vec<u32> {
    let out = wave_run(text, wave, |l| 100 + l, [0; 16], exec);
    out.lanes.iter().map(|o| o[0]).collect()
}

#[test]
fn dpp16_row_shifts_and_bound_ctrl() {
    let pre = "v_mov_b32 v10, 0x55\n";
    // row_shr:1: lane j reads j - 1 of its row; lane 0 of a row has no source
    let keep = v10s(
        &format!("{pre}v_mov_b32_dpp v10, v4 row_shr:1"),
        Wave::W32,
        u64::MAX,
    );
    let zero = v10s(
        &format!("{pre}v_mov_b32_dpp v10, v4 row_shr:1 bound_ctrl:1"),
        Wave::W32,
        u64::MAX,
    );
    for l in 0..32u32 {
        let want = if l % 16 == 0 { None } else { Some(100 + l - 1) };
        assert_eq!(keep[l as usize], want.unwrap_or(0x55), "lane {l}");
        assert_eq!(zero[l as usize], want.unwrap_or(0), "lane {l}");
    }
    // row_shl:3 on wave64: lanes 13..15 of each row have no source
    let shl = v10s(
        &format!("{pre}v_mov_b32_dpp v10, v4 row_shl:3"),
        Wave::W64,
        u64::MAX,
    );
    for l in 0..64u32 {
        let want = if l % 16 >= 13 { 0x55 } else { 100 + l + 3 };
        assert_eq!(shl[l as usize], want, "lane {l}");
    }
    // row_ror:1 wraps inside the row
    let ror = v10s("v_mov_b32_dpp v10, v4 row_ror:1", Wave::W32, u64::MAX);
    assert_eq!((ror[0], ror[1], ror[16]), (115, 100, 131));
}

#[test]
fn dpp16_permutes_and_broadcasts() {
    let qp = v10s(
        "v_mov_b32_dpp v10, v4 quad_perm:[3,2,1,0]",
        Wave::W32,
        u64::MAX,
    );
    assert_eq!(&qp[..8], &[103, 102, 101, 100, 107, 106, 105, 104]);
    let mirror = v10s("v_mov_b32_dpp v10, v4 row_mirror", Wave::W32, u64::MAX);
    assert_eq!((mirror[0], mirror[15], mirror[16]), (115, 100, 131));
    let half = v10s("v_mov_b32_dpp v10, v4 row_half_mirror", Wave::W32, u64::MAX);
    assert_eq!((half[0], half[7], half[8]), (107, 100, 115));
    let share = v10s("v_mov_b32_dpp v10, v4 row_share:5", Wave::W64, u64::MAX);
    assert_eq!((share[0], share[15], share[50]), (105, 105, 153));
    let xmask = v10s("v_mov_b32_dpp v10, v4 row_xmask:1", Wave::W32, u64::MAX);
    assert_eq!(&xmask[..4], &[101, 100, 103, 102]);
}

#[test]
fn dpp16_row_and_bank_masks_leave_lanes_unwritten() {
    let t =
        "v_mov_b32 v10, 0x55\nv_mov_b32_dpp v10, v4 quad_perm:[0,0,0,0] row_mask:0x2 bank_mask:0x5";
    let v = v10s(t, Wave::W32, u64::MAX);
    for l in 0..32u32 {
        let on = l >= 16 && matches!((l % 16) / 4, 0 | 2);
        let want = if on { 100 + (l & !3) } else { 0x55 };
        assert_eq!(v[l as usize], want, "lane {l}");
    }
}

#[test]
fn dpp16_inactive_sources_follow_fi_and_bound_ctrl() {
    // lane 1 is inactive; row_shr:1 makes lane 2 read it
    let exec = !0b10u64 & 0xffff_ffff;
    let pre = "v_mov_b32 v10, 0x55\n";
    let keep = v10s(
        &format!("{pre}v_mov_b32_dpp v10, v4 row_shr:1"),
        Wave::W32,
        exec,
    );
    assert_eq!((keep[1], keep[2], keep[3]), (0, 0x55, 102));
    let fi = v10s(
        &format!("{pre}v_mov_b32_dpp v10, v4 row_shr:1 fi:1"),
        Wave::W32,
        exec,
    );
    assert_eq!(fi[2], 101, "fetch inactive reads lane 1's VGPR");
    let bc = v10s(
        &format!("{pre}v_mov_b32_dpp v10, v4 row_shr:1 bound_ctrl:1"),
        Wave::W32,
        exec,
    );
    assert_eq!(bc[2], 0);
}

#[test]
fn dpp_destination_equal_to_src0_keeps_unwritten_lanes() {
    // v4 += v5 from the lane below; lane 0 of each row keeps its v4
    let t = "v_add_nc_u32_dpp v4, v4, v5 row_shr:1\nv_mov_b32 v10, v4";
    let out = wave_run(t, Wave::W32, |l| 100 + l, [0; 16], u64::MAX);
    // in1 (v5) = lane
    assert_eq!(out.lanes[0][0], 100);
    assert_eq!(out.lanes[1][0], 100 + 1);
    assert_eq!(out.lanes[5][0], 104 + 5);
    assert_eq!(out.lanes[16][0], 116);
}

#[test]
fn dpp8_selects_within_groups_of_eight() {
    let v = v10s(
        "v_mov_b32_dpp v10, v4 dpp8:[7,6,5,4,3,2,1,0]",
        Wave::W64,
        u64::MAX,
    );
    for l in 0..64u32 {
        assert_eq!(v[l as usize], 100 + (l ^ 7), "lane {l}");
    }
    // an inactive source without FI reads 0; with FI its VGPR
    let exec = !1u64 & 0xffff_ffff;
    let no_fi = v10s(
        "v_mov_b32_dpp v10, v4 dpp8:[0,0,0,0,0,0,0,0]",
        Wave::W32,
        exec,
    );
    let fi = v10s(
        "v_mov_b32_dpp v10, v4 dpp8:[0,0,0,0,0,0,0,0] fi:1",
        Wave::W32,
        exec,
    );
    assert_eq!((no_fi[3], fi[3], fi[9]), (0, 100, 108));
}

/// v10 of every lane after the raw `words`, with in0 = 100 + lane, in1 = lane.
fn v10s_words(words: &[u32], wave: Wave, exec: u64) -> Vec<u32> {
    let k = lower_wave_words(words, FloatMode::DEFAULT, wave, Target::Gfx1030).expect("lowers");
    let lanes = (0..wave.lanes())
        .map(|l| [100 + l, l, 0, 0, 0, 0])
        .collect();
    let out = run_wave(&k, &WaveInput::new(lanes, exec, vec![]));
    out.lanes.iter().map(|o| o[0]).collect()
}

#[test]
fn ds_swizzle_quad_and_bitmask_modes() {
    // ds_swizzle_b32 v10, v4 offset:swizzle(QUAD_PERM,3,2,1,0) (llvm-mc)
    let qp = v10s_words(&[0xd8d4_801b, 0x0a00_0004], Wave::W32, u64::MAX);
    assert_eq!(&qp[..8], &[103, 102, 101, 100, 107, 106, 105, 104]);
    // swizzle(BITMASK_PERM,"01pip"): and 7, or 8, xor 2 within each 32 lanes
    let bm = v10s_words(&[0xd8d4_0907, 0x0a00_0004], Wave::W64, u64::MAX);
    for l in 0..64u32 {
        let src = (l & !31) | (((l & 7) | 8) ^ 2);
        assert_eq!(bm[l as usize], 100 + src, "lane {l}");
    }
    // a disabled source lane reads 0
    let part = v10s_words(
        &[0xd8d4_801b, 0x0a00_0004],
        Wave::W32,
        !0x80u64 & 0xffff_ffff,
    );
    assert_eq!((part[0], part[1]), (103, 102));
    assert_eq!(part[4], 0, "lane 4 reads disabled lane 7");
}

#[test]
fn ds_bpermute_reads_lane_addr_over_4() {
    // ds_bpermute_b32 v10, v5, v4 offset:4 (llvm-mc); v5 = lane
    let v = v10s_words(&[0xdacc_0004, 0x0a00_0405], Wave::W32, u64::MAX);
    for l in 0..32u32 {
        assert_eq!(v[l as usize], 100 + ((l + 4) / 4) % 32, "lane {l}");
    }
}

#[test]
fn dpp_move_onto_its_own_source_permutes() {
    // clang's cross-lane builtins: `v_mov_b32_dpp v7, v7 dpp8:[...]` (RDNA2 ISA 6.2.2: the
    // destination is written with lane sel[i]'s src0, whatever register it is)
    for wave in [Wave::W32, Wave::W64] {
        let n = wave.lanes() as usize;
        let t = "v_mov_b32_dpp v4, v4 dpp8:[7,6,5,4,3,2,1,0]\nv_mov_b32 v10, v4";
        let out = wave_run(t, wave, |l| 0x100 + l, [0; 16], u64::MAX);
        for l in 0..n {
            assert_eq!(out.lanes[l][0], 0x100 + (l as u32 ^ 7), "dpp8 lane {l}");
        }
        let t = "v_mov_b32_dpp v4, v4 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf\n\
                 v_mov_b32 v10, v4";
        let out = wave_run(t, wave, |l| 0x100 + l, [0; 16], u64::MAX);
        for l in 0..n {
            assert_eq!(
                out.lanes[l][0],
                0x100 + (l as u32 ^ 3),
                "quad_perm lane {l}"
            );
        }
        // row_shr:1 bound_ctrl:1: lane 0 of each row reads 0
        let t = "v_mov_b32_dpp v4, v4 row_shr:1 bound_ctrl:1\nv_mov_b32 v10, v4";
        let out = wave_run(t, wave, |l| 0x100 + l, [0; 16], u64::MAX);
        for l in 0..n {
            let want = if l % 16 == 0 { 0 } else { 0x100 + l as u32 - 1 };
            assert_eq!(out.lanes[l][0], want, "row_shr lane {l}");
        }
    }
}

#[test]
fn dpp_permutes_src0_only_when_src1_names_the_same_register() {
    // clang's reductions: `v_add_nc_u32_dpp v4, v4, v4 row_shr:1 bound_ctrl:1`: src0 from
    // the lane below (0 in lane 0 of a row), src1 this lane's v4
    let t = "v_add_nc_u32_dpp v4, v4, v4 row_shr:1 bound_ctrl:1\nv_mov_b32 v10, v4";
    for wave in [Wave::W32, Wave::W64] {
        let out = wave_run(t, wave, |l| 0x100 + l, [0; 16], u64::MAX);
        for l in 0..wave.lanes() {
            let below = if l % 16 == 0 { 0 } else { 0x100 + l - 1 };
            assert_eq!(out.lanes[l as usize][0], below + 0x100 + l, "lane {l}");
        }
    }
    assert_eq!(
        wave_run(t, Wave::W32, |l| 0x100 + l, [0; 16], u64::MAX).lanes[1][0],
        0x201
    );
}

#[test]
fn cndmask_takes_float_source_modifiers() {
    // v_cndmask_b32_e64 v10, |v4|, v5, s0 and -v4: with s0 = 0 every lane selects src0
    let f = |_| 0xc040_0000; // -3.0
    let out = wave_run(
        "v_cndmask_b32_e64 v10, |v4|, v5, s0\nv_cndmask_b32_e64 v11, -v4, v5, s0\n\
         v_cndmask_b32_e64 v12, v5, -|v4|, s1",
        Wave::W32,
        f,
        s(&[0, u32::MAX]),
        u64::MAX,
    );
    for o in &out.lanes {
        assert_eq!(o[..3], [0x4040_0000, 0x4040_0000, 0xc040_0000]);
    }
}
