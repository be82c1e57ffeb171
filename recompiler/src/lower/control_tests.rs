//! Control-flow lowering tests under the wave contract, run on the CPU model of a wave:
//! a counted loop on VCC, s_endpgm and s_setkill in the middle, EXEC-driven skips, the
//! watchdog on a body that never ends, and branch targets outside the body.

use super::*;
use crate::wave::{run_wave, watchdog_message, WaveInput, WaveOutput};
use rdnaprobe_isa::assemble;

fn wave_run(text: &str, wave: Wave, exec: u64) -> WaveOutput {
    let words = assemble(text).expect("assembles");
    let k = lower_wave_words(&words, FloatMode::DEFAULT, wave, Target::Gfx1030).expect("lowers");
    k.validate().expect("valid kernel");
    assert!(!k.blocks.is_empty(), "`{text}` has blocks");
    let lanes = (0..wave.lanes()).map(|l| [l, 0, 0, 0, 0, 0]).collect();
    run_wave(&k, &WaveInput::new(lanes, exec, vec![]))
}

const COUNTED: &str = "v_mov_b32 v10, v4
v_add_nc_u32 v10, 1, v10
v_cmp_gt_u32 vcc_lo, 5, v10
s_cbranch_vccnz -3";

#[test]
fn a_counted_loop_runs_until_vcc_is_empty() {
    // v10 = lane, then +1 until every active lane holds at least 5: the lowest lane needs 5
    let out = wave_run(COUNTED, Wave::W32, u64::MAX);
    assert_eq!(out.error, None);
    for l in 0..32u32 {
        assert_eq!(out.lanes[l as usize][0], l + 5, "lane {l}");
    }
    assert_eq!(out.uniform.unwrap().vcc, 0);
    // lanes 0..3 inactive: the lowest active lane is 4, one pass
    let out = wave_run(COUNTED, Wave::W32, 0xffff_fff0);
    assert_eq!(out.lanes[4][0], 5);
    assert_eq!(out.lanes[0][0], 0, "inactive lanes are not written");
}

#[test]
fn s_endpgm_in_the_middle_ends_the_wave() {
    let out = wave_run(
        "v_mov_b32 v10, 1\ns_endpgm\nv_mov_b32 v10, 2",
        Wave::W64,
        u64::MAX,
    );
    assert!(out.lanes.iter().all(|o| o[0] == 1));
}

#[test]
fn s_setkill_ends_the_wave_for_any_immediate() {
    for imm in [0, 1, 0xffff] {
        let text = format!("v_mov_b32 v10, 1\ns_setkill {imm}\nv_mov_b32 v10, 2\nv_mov_b32 v11, 3");
        let out = wave_run(&text, Wave::W32, u64::MAX);
        assert!(
            out.lanes.iter().all(|o| o[..2] == [1, 0]),
            "s_setkill {imm}"
        );
    }
}

#[test]
fn the_lane_contract_stops_at_the_end_of_the_wave() {
    for end in ["s_endpgm", "s_setkill 1"] {
        let words = assemble(&format!("v_mov_b32 v10, 1\n{end}\nv_mov_b32 v10, 2")).unwrap();
        let k = lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).unwrap();
        assert_eq!(crate::interp::run(&k, [0; 6], 0)[0], 1, "{end}");
    }
}

#[test]
fn execz_skips_and_execnz_falls_through() {
    // no lane has v4 > 100: EXEC becomes 0 and the move is skipped
    let t = "v_cmpx_lt_u32 100, v4\ns_cbranch_execz 1\nv_mov_b32 v11, 7\nv_mov_b32 v10, 3";
    let out = wave_run(t, Wave::W32, u64::MAX);
    assert_eq!(out.uniform.unwrap().exec, 0);
    assert!(out.lanes.iter().all(|o| o[1] == 0 && o[0] == 0));
    let t = "v_cmpx_lt_u32 20, v4\ns_cbranch_execnz 1\nv_mov_b32 v11, 7\nv_mov_b32 v10, 3";
    let out = wave_run(t, Wave::W64, u64::MAX);
    assert_eq!(out.uniform.unwrap().exec, !((1u64 << 21) - 1));
    assert_eq!(
        (out.lanes[21][0], out.lanes[21][1]),
        (3, 0),
        "branch taken: no v11"
    );
    assert_eq!(out.lanes[20][0], 0);
}

#[test]
fn a_body_that_never_ends_is_stopped_by_the_watchdog() {
    let out = wave_run("v_mov_b32 v10, 1\ns_branch -1", Wave::W32, u64::MAX);
    assert_eq!(out.error, Some(watchdog_message()));
}

#[test]
fn branch_targets_must_be_instructions_of_the_body() {
    let words = assemble("s_branch 5\nv_mov_b32 v10, 1").unwrap();
    let e = lower_wave_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).unwrap_err();
    assert!(e.to_string().contains("branch target word 6"), "{e}");
    // the end of the body is the exit
    let words = assemble("s_branch 1\nv_mov_b32 v10, 1").unwrap();
    assert!(lower_wave_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).is_ok());
    // the lane contract has no control flow
    let e = lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).unwrap_err();
    assert!(e.to_string().contains("wave contract"), "{e}");
}

#[test]
fn calls_return_to_the_instruction_after_each_call_site() {
    // one callee (words 5-6: v10 += v4) called from words 0 and 2
    let t = "s_call_b64 s[4:5], 4
v_add_nc_u32 v11, 1, v11
s_call_b64 s[4:5], 2
v_mov_b32 v12, 7
s_endpgm
v_add_nc_u32 v10, v4, v10
s_setpc_b64 s[4:5]";
    for wave in [Wave::W32, Wave::W64] {
        let out = wave_run(t, wave, u64::MAX);
        assert_eq!(out.error, None);
        for (l, o) in out.lanes.iter().enumerate() {
            assert_eq!(o[..3], [2 * l as u32, 1, 7], "lane {l}");
        }
        // the link of the second call: the word after it
        let s = out.uniform.unwrap().sgprs;
        let link = crate::lower::calls::CODE_BASE + 12;
        assert_eq!((s[4], s[5]), (link as u32, (link >> 32) as u32));
    }
}

#[test]
fn getpc_and_swappc_give_the_address_of_the_next_word() {
    // s[0:1] = PC + 4 of word 0; + 20 is word 6; s_swappc links word 4
    let t = "s_getpc_b64 s[0:1]
s_add_u32 s0, s0, 20
s_addc_u32 s1, s1, 0
s_swappc_b64 s[2:3], s[0:1]
v_mov_b32 v11, 5
s_endpgm
v_mov_b32 v10, v4
s_sub_u32 s6, s2, s0
v_mov_b32 v12, s6
s_setpc_b64 s[2:3]";
    let out = wave_run(t, Wave::W32, u64::MAX);
    assert_eq!(out.error, None);
    for (l, o) in out.lanes.iter().enumerate() {
        assert_eq!(o[..3], [l as u32, 5, (16 - 24) as u32], "lane {l}");
    }
    // a null destination jumps without a link (s_setpc_b64)
    let t = "s_getpc_b64 s[0:1]
s_add_u32 s0, s0, 12
s_swappc_b64 null, s[0:1]
v_mov_b32 v11, 5
v_mov_b32 v10, 3";
    let out = wave_run(t, Wave::W32, u64::MAX);
    assert!(out.lanes.iter().all(|o| o[..2] == [3, 0]));
}

#[test]
fn a_jump_outside_the_body_is_stopped_by_the_watchdog() {
    let out = wave_run(
        "s_getpc_b64 s[0:1]\ns_add_u32 s0, s0, 2\ns_setpc_b64 s[0:1]",
        Wave::W32,
        u64::MAX,
    );
    assert_eq!(out.error, Some(watchdog_message()));
    // the end of the body is the exit
    let out = wave_run(
        "s_getpc_b64 s[0:1]\ns_add_u32 s0, s0, 12\ns_setpc_b64 s[0:1]\nv_mov_b32 v10, 1",
        Wave::W32,
        u64::MAX,
    );
    assert_eq!(out.error, None);
    assert!(out.lanes.iter().all(|o| o[0] == 0));
    // the lane contract has no code address
    let words = assemble("s_getpc_b64 s[0:1]").unwrap();
    let e = lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).unwrap_err();
    assert!(e.to_string().contains("wave contract"), "{e}");
}

#[test]
fn a_call_keeps_private_dwords_0_and_1() {
    // -O0 code keeps its frame at s33 = 0: store v4 to private dwords 0 and 1, call a callee
    // that returns at once, load both back (the words are llvm-mc-19's: the assembler has no
    // scratch forms)
    let store = |off: u32| [0xdc70_4000 | off, 0x0021_0400];
    let load = |off: u32, vdst: u32| [0xdc30_4000 | off, 0x0021_0000 | vdst << 24];
    let mut words = Vec::new();
    words.extend(store(0));
    words.extend(store(4));
    words.extend(assemble("s_call_b64 s[4:5], 5").unwrap());
    words.extend(load(0, 10));
    words.extend(load(4, 11));
    words.extend(assemble("s_endpgm\ns_setpc_b64 s[4:5]").unwrap());
    let k = lower_wave_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).unwrap();
    let lanes = (0..32).map(|l| [0x1000 + l, 0, 0, 0, 0, 0]).collect();
    let out = run_wave(&k, &WaveInput::new(lanes, u64::MAX, vec![]));
    assert_eq!(out.error, None);
    for (l, o) in out.lanes.iter().enumerate() {
        assert_eq!(o[..2], [0x1000 + l as u32; 2], "lane {l}");
    }
}
