//! Memory lowering tests under the wave contract, on the CPU model of a wave: words from
//! `llvm-mc -mcpu=gfx1030`; expected values from the rules of `lower::mem` (V# range checks
//! by OOB_SELECT, exact bytes, lane order, the region's bounds).

use super::*;
use crate::wave::{run_wave_mem, WaveInput, WaveOutput};

/// Runs `words` as one wave32 with in0 = 100 + lane, in1 = lane, v6 = 0 unless set, and the
/// region `mem` (its bytes are the V#'s num_records).
fn mem_run(words: &[u32], exec: u64, mem: &[u32]) -> (WaveOutput, Vec<u32>) {
    let bytes = 4 * mem.len() as u32;
    let k = lower_wave_words_mem(words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030, bytes)
        .expect("lowers");
    k.validate().expect("valid");
    let lanes = (0..32).map(|l| [100 + l, l, 0, 0, 0, 0]).collect();
    let input = WaveInput::new(lanes, exec, vec![]);
    run_wave_mem(&k, &input, mem)
}

/// s_mov_b32 s27, WORD3; s_mov_b32 s24, s16; s_mov_b32 s25, s17; s_mov_b32 s26, RECORDS
fn vsharp(word3: u32, records: u32) -> Vec<u32> {
    assert!(records <= 64);
    vec![
        0xbe9b_03ff,
        word3,
        0xbe98_0310,
        0xbe99_0311,
        0xbe9a_0380 + records,
    ]
}

#[test]
fn oob_select_1_checks_the_index_only() {
    // buffer_load_dword v10, v5, s[24:27], 0 idxen; buffer_store_dword v4, v5, s[24:27], 0
    // idxen offset:8 (stride 0: every index addresses the base)
    let mut words = vsharp(0x1101_6fac, 2);
    words.extend([0xe030_2000, 0x8006_0a05, 0xe070_2008, 0x8006_0405]);
    let (out, mem) = mem_run(&words, u64::MAX, &[7, 8, 9, 10]);
    for l in 0..32usize {
        assert_eq!(out.lanes[l][0], if l < 2 { 7 } else { 0 }, "lane {l}");
    }
    assert_eq!(
        mem,
        [7, 8, 101, 10],
        "lanes 0 and 1 store, the highest last"
    );
}

#[test]
fn oob_select_2_checks_only_for_zero_records() {
    // buffer_load_dword v10, v6, s[24:27], 0 offen (v6 = 0)
    let load = [0xe030_1000, 0x8006_0a06];
    for (records, want) in [(0, 0), (1, 7)] {
        let mut words = vsharp(0x2101_6fac, records);
        words.extend(load);
        let (out, _) = mem_run(&words, 1, &[7, 8]);
        assert_eq!(out.lanes[0][0], want, "num_records {records}");
    }
}

#[test]
fn raw_buffer_dwords_are_checked_one_by_one_at_exact_bytes() {
    // buffer_load_dwordx2 v[10:11], v6, s[20:23], 0 offen offset:1 with v6 = 0 and a
    // 8-byte region: the first dword (bytes 1..4) is inside, the second (bytes 5..8) is not
    let (out, _) = mem_run(&[0xe034_1001, 0x8005_0a06], 1, &[0x4433_2211, 0x8877_6655]);
    assert_eq!(out.lanes[0][0], 0x5544_3322);
    assert_eq!(out.lanes[0][1], 0);
}

#[test]
fn buffer_atomics_return_old_values_in_lane_order() {
    // v_mov_b32 v10, v4; buffer_atomic_add v10, v6, s[20:23], 0 offen glc: every active lane
    // adds its in0 at byte 0 and gets the old value back in v10
    let words = [0x7e14_0304, 0xe0c8_5000, 0x8005_0a06];
    let (out, mem) = mem_run(&words, 0b1011, &[5]);
    let old: Vec<u32> = (0..4).map(|l| out.lanes[l][0]).collect();
    assert_eq!(old, [5, 105, 0, 206], "lane 2 is inactive");
    assert_eq!(mem, [5 + 100 + 101 + 103]);
}

#[test]
fn store_short_d16_hi_writes_the_high_half_at_any_byte() {
    // v_mov_b32 v4, 0xaabbccdd; v_mov_b32 v6, 4;
    // buffer_store_short_d16_hi v4, v6, s[20:23], 0 offen offset:1: bytes 5 and 6
    let words = [
        0x7e08_02ff,
        0xaabb_ccdd,
        0x7e0c_0284,
        0xe06c_1001,
        0x8005_0406,
    ];
    let (_, mem) = mem_run(&words, 1, &[1, 2, 3]);
    assert_eq!(mem, [1, 0x00aa_bb02, 3]);
    let (_, mem) = mem_run(&words, 0, &[1, 2, 3]);
    assert_eq!(mem, [1, 2, 3], "no active lane: nothing stored");
}

#[test]
fn memory_needs_the_wave_contract() {
    // global_load_dword v10, v[4:5], off
    let e = lower_words(
        &[0xdc30_8000, 0x0a7d_0004],
        FloatMode::DEFAULT,
        Wave::W32,
        Target::Gfx1030,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("needs the wave contract"), "{e}");
}

#[test]
fn a_swizzled_add_tid_vsharp_gives_each_lane_its_own_dword() {
    // the private-segment V# shape: SWIZZLE_ENABLE (s25 bit 31), ADD_TID, INDEX_STRIDE 32,
    // OOB_SELECT 3; buffer_store_dword v4, off, s[24:27], 0 offset:4, then loads of
    // offsets 4 and 0: lane l's dword 1 is at 1 * 4 * 32 + 4 * l
    let mut words = vsharp(0x31c1_6fac, 64);
    words.extend([0x8819_ff11, 0x8000_0000]);
    words.extend([0xe070_0004, 0x8006_0400, 0xe030_0004, 0x8006_0a00]);
    words.extend([0xe030_0000, 0x8006_0b00]);
    let mem: Vec<u32> = (0..64).map(|i| 0x5000 + i).collect();
    let (out, after) = mem_run(&words, u64::MAX, &mem);
    assert_eq!(out.error, None);
    for l in 0..32usize {
        assert_eq!(
            out.lanes[l][..2],
            [100 + l as u32, 0x5000 + l as u32],
            "lane {l}"
        );
        assert_eq!(after[32 + l], 100 + l as u32, "dword {}", 32 + l);
        assert_eq!(after[l], 0x5000 + l as u32, "dword {l} is not written");
    }
}
