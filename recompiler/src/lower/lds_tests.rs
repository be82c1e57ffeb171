//! LDS lowering tests under the wave contract, on the CPU model of a wave: words from
//! `llvm-mc -mcpu=gfx1030` (the project's assembler has no DS modifiers); expected values from
//! the rule of the LDS `Expr::Mem` (lane order, byte addresses, out-of-range accesses).

use super::*;
use crate::wave::{run_wave, WaveInput, WaveOutput};

/// Runs `words` as one wave32 with in0 = 100 + lane, in1 = lane and `lds` before.
fn lds_run(words: &[u32], exec: u64, lds: Vec<u32>) -> WaveOutput {
    let k =
        lower_wave_words(words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).expect("lowers");
    k.validate().expect("valid");
    let lanes = (0..32).map(|l| [100 + l, l, 0, 0, 0, 0]).collect();
    run_wave(&k, &WaveInput::new(lanes, exec, lds))
}

#[test]
fn lanes_exchange_values_through_lds() {
    let words = [
        0x340a_0a82, // v_lshlrev_b32 v5, 2, v5
        0xd834_0000,
        0x0000_0405, // ds_write_b32 v5, v4
        0x3a0c_0a84, // v_xor_b32 v6, 4, v5
        0xd8d8_0000,
        0x0a00_0006, // ds_read_b32 v10, v6
    ];
    let out = lds_run(&words, u64::MAX, vec![0; 128]);
    for l in 0..32u32 {
        assert_eq!(out.lanes[l as usize][0], 100 + (l ^ 1), "lane {l}");
        assert_eq!(out.lds[l as usize], 100 + l);
    }
    assert_eq!(out.lds[32], 0);
}

#[test]
fn atomics_apply_in_ascending_lane_order() {
    let words = [
        0x7e10_0281, // v_mov_b32 v8, 1
        0x7e0e_0280, // v_mov_b32 v7, 0
        0xd880_0000,
        0x0a00_0807, // ds_add_rtn_u32 v10, v7, v8
    ];
    let exec = 0xf0f0u64;
    let out = lds_run(&words, exec, vec![0; 128]);
    let mut rank = 0;
    for l in 0..32u32 {
        if exec >> l & 1 == 1 {
            assert_eq!(
                out.lanes[l as usize][0], rank,
                "lane {l} sees the lanes below it"
            );
            rank += 1;
        } else {
            assert_eq!(
                out.lanes[l as usize][0], 0,
                "inactive lane {l} is not written"
            );
        }
    }
    assert_eq!(out.lds[0], 8);
}

#[test]
fn unaligned_and_out_of_range_accesses() {
    let words = [
        0x7e0e_0280, // v_mov_b32 v7, 0
        0xd8d8_0001,
        0x0a00_0007, // ds_read_b32 v10, v7 offset:1
        0xd8d8_01fd,
        0x0b00_0007, // ds_read_b32 v11, v7 offset:509
    ];
    let mut lds = vec![0; 128];
    lds[0] = 0x1122_3344;
    lds[1] = 0x5566_7788;
    lds[127] = 0xffff_ffff;
    let out = lds_run(&words, u64::MAX, lds.clone());
    assert_eq!(out.lanes[3][0], 0x8811_2233, "bytes 1..5, little-endian");
    assert_eq!(
        out.lanes[3][1], 0,
        "bytes 509..513 are not all inside 512 bytes"
    );
    assert_eq!(out.lds, lds, "reads leave the LDS as it was");
    // no LDS at all: every access is out of range
    let out = lds_run(&words, u64::MAX, vec![]);
    assert_eq!(out.lanes[0][0], 0);
}

#[test]
fn wide_and_two_address_forms() {
    let words = [
        0x7e0e_0280, // v_mov_b32 v7, 0
        0xd934_0000,
        0x0000_0407, // ds_write_b64 v7, v[4:5]
        0xd8dc_0301,
        0x0a00_0007, // ds_read2_b32 v[10:11], v7 offset0:1 offset1:3
    ];
    let out = lds_run(&words, u64::MAX, vec![0; 128]);
    // every lane writes address 0: the highest lane (31) is last
    assert_eq!(&out.lds[..4], &[131, 31, 0, 0]);
    assert_eq!((out.lanes[0][0], out.lanes[0][1]), (31, 0));
}

#[test]
fn lds_needs_the_wave_contract() {
    let e = lower_words(
        &[0xd8d8_0000, 0x0a00_0006],
        FloatMode::DEFAULT,
        Wave::W32,
        Target::Gfx1030,
    )
    .unwrap_err();
    assert!(e.to_string().contains("wave contract"), "{e}");
}
