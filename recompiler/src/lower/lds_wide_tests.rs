//! Tests of the DS forms of `lds_wide` on the CPU model of a wave: words from
//! `llvm-mc-19 -mcpu=gfx1030`; expected values from the ISA's pseudocode and the reference
//! notes' rules, worked out by hand in each test.

use super::*;
use crate::wave::LDS_FAULT;
use crate::wave::{run_wave, WaveInput, WaveOutput};

/// Runs `words` as one wave32 under `mode` with in0 = 100 + lane, in1 = lane (v4, v5),
/// in2, in3 = `v67` (v6, v7) and `lds` before.
fn run(words: &[u32], mode: FloatMode, exec: u64, v67: [u32; 2], lds: Vec<u32>) -> WaveOutput {
    let k = lower_wave_words(words, mode, Wave::W32, Target::Gfx1030).expect("lowers");
    k.validate().expect("valid");
    let lanes = (0..32)
        .map(|l| [100 + l, l, v67[0], v67[1], 0, 0])
        .collect();
    run_wave(&k, &WaveInput::new(lanes, exec, lds))
}

fn run32(words: &[u32], exec: u64, lds: Vec<u32>) -> WaveOutput {
    run(words, FloatMode::DEFAULT, exec, [0, 0], lds)
}

#[test]
fn bytes_and_halves_at_any_address() {
    let words = [
        0xd878_0003,
        0x0000_0407, // ds_write_b8 v7, v4 offset:3
        0xd87c_01ff,
        0x0000_0407, // ds_write_b16 v7, v4 offset:511
        0xd8e4_0003,
        0x0a00_0007, // ds_read_i8 v10, v7 offset:3
        0xd8f0_0001,
        0x0b00_0007, // ds_read_u16 v11, v7 offset:1
        0xda8c_0003,
        0x0c00_0007, // ds_read_u8_d16_hi v12, v7 offset:3
        0xda90_0002,
        0x0d00_0007, // ds_read_i8_d16 v13, v7 offset:2
        0xda80_0005,
        0x0000_0407, // ds_write_b8_d16_hi v7, v4 offset:5
    ];
    let mut lds = vec![0; 128];
    lds[0] = 0x11a2_3344;
    lds[1] = 0x5566_7788;
    lds[127] = 0xdead_beef;
    let out = run32(&words, u64::MAX, lds);
    // lane 31 writes last: byte 3 = 131 = 0x83
    assert_eq!(out.lds[0], 0x83a2_3344);
    assert_eq!(out.lanes[0][0], 0xffff_ff83, "i8 sign-extends");
    assert_eq!(out.lanes[0][1], 0xa233, "u16 at byte 1");
    assert_eq!(
        out.lanes[0][2], 0x0083_0000,
        "d16_hi: the high half, low half kept"
    );
    assert_eq!(out.lanes[0][3], 0x0000_ffa2, "i8_d16: extended to 16 bits");
    // _d16_hi write: DATA0[31:16] of lane 31 is 0
    assert_eq!(out.lds[1], 0x5566_0088);
    assert_eq!(
        out.lds[127], 0xdead_beef,
        "bytes 511..513 are not inside 512 bytes"
    );
}

#[test]
fn two_operand_atomics() {
    let op = |w0: u32, lds0: u32| {
        // ds_X_rtn_b32 v10, v7, v4, v5: DATA0 = 100 + lane, DATA1 = lane
        let out = run32(&[w0, 0x0a05_0407], u64::MAX, vec![lds0, 0]);
        (
            out.lds[0],
            out.lanes.iter().map(|o| o[0]).collect::<Vec<_>>(),
        )
    };
    // cmpst: lane 3 compares 103 and stores 3
    let (m, r) = op(0xd8c0_0000, 103);
    assert_eq!(m, 3);
    assert_eq!((r[3], r[4]), (103, 3));
    // mskor: (old & !DATA0) | DATA1, in lane order
    let (m, r) = op(0xd8b0_0000, 0xffff_ffff);
    let mut x = 0xffff_ffffu32;
    for l in 0..32 {
        assert_eq!(r[l as usize], x, "lane {l}");
        x = (x & !(100 + l)) | l;
    }
    assert_eq!(m, x);
    // wrap: old >= DATA0 ? old - DATA0 : old + DATA1
    let (m, r) = op(0xd8d0_0000, 250);
    assert_eq!(&r[..4], &[250, 150, 49, 51]);
    assert!(m < 250);
}

#[test]
fn atomics64_need_eight_byte_alignment() {
    // ds_add_rtn_u64 v[10:11], v7, v[4:5] (offset 0 / 4)
    let ok = run32(&[0xd980_0000, 0x0a00_0407], 0b11, vec![5, 7, 0, 0]);
    assert_eq!(ok.error, None);
    assert_eq!((ok.lanes[0][0], ok.lanes[0][1]), (5, 7));
    assert_eq!((ok.lanes[1][0], ok.lanes[1][1]), (105, 7));
    assert_eq!(&ok.lds[..2], &[5 + 100 + 101, 7 + 1]);
    let bad = run32(&[0xd980_0004, 0x0a00_0407], 0b11, vec![0; 4]);
    assert_eq!(bad.error.as_deref(), Some(LDS_FAULT));
    // an inactive lane never faults
    let none = run32(&[0xd980_0004, 0x0a00_0407], 0, vec![0; 4]);
    assert_eq!(none.error, None);
}

#[test]
fn condxchg_and_cmpst64() {
    // ds_condxchg32_rtn_b64 v[10:11], v7, v[4:5] with v[4:5] = (0x80000005, 9)
    let k = [0xd9f8_0000, 0x0a00_0407];
    let words: Vec<u32> = [0x7e08_02ff, 0x8000_0005, 0x7e0a_0289]
        .into_iter()
        .chain(k)
        .collect(); // v_mov_b32 v4, 0x80000005; v_mov_b32 v5, 9
    let out = run32(&words, 1, vec![1, 2, 3, 4]);
    assert_eq!(
        &out.lds[..2],
        &[5, 2],
        "bit 31 set writes DATA[30:0], clear keeps"
    );
    assert_eq!((out.lanes[0][0], out.lanes[0][1]), (1, 2));
    // ds_cmpst_rtn_b64 v[10:11], v7, v[4:5], v[8:9]: compare (100, 0), store (0, 0)
    let out = run32(&[0xd9c0_0000, 0x0a08_0407], 1, vec![100, 0, 0, 0]);
    assert_eq!(&out.lds[..2], &[0, 0]);
    let out = run32(&[0xd9c0_0000, 0x0a08_0407], 1, vec![100, 1, 0, 0]);
    assert_eq!(&out.lds[..2], &[100, 1], "the high dword differs");
}

#[test]
fn append_and_consume_count_active_lanes_once() {
    let m0 = 0xbefc_0390; // s_mov_b32 m0, 16
    let exec = 0xf0f0u64;
    let out = run32(
        &[m0, 0xd8f8_0008, 0x0a00_0000],
        exec,
        vec![0, 0, 0, 0, 0, 0, 5, 0],
    );
    assert_eq!(out.lds[6], 13, "M0 + 8 = byte 24 gets the 8 active lanes");
    for l in 0..32 {
        let want = if exec >> l & 1 == 1 { 5 } else { 0 };
        assert_eq!(out.lanes[l][0], want, "lane {l}");
    }
    let out = run32(
        &[m0, 0xd8f4_0008, 0x0a00_0000],
        exec,
        vec![0, 0, 0, 0, 0, 0, 5, 0],
    );
    assert_eq!(out.lds[6], 5u32.wrapping_sub(8));
}

#[test]
fn addtid_addresses_by_lane() {
    let words = [
        0xbefc_0390, // s_mov_b32 m0, 16
        0xdac0_0004,
        0x0000_0400, // ds_write_addtid_b32 v4 offset:4
        0xdac4_0004,
        0x0a00_0000, // ds_read_addtid_b32 v10 offset:4
    ];
    let out = run32(&words, u64::MAX, vec![0; 64]);
    for l in 0..32 {
        assert_eq!(out.lds[5 + l], 100 + l as u32);
        assert_eq!(out.lanes[l][0], 100 + l as u32);
    }
    assert_eq!(out.lds[4], 0);
}

#[test]
fn permute_forwards_and_the_highest_lane_wins() {
    // ds_permute_b32 v10, v5, v4: lane l sends 100 + l to lane l / 4
    let out = run32(&[0xdac8_0000, 0x0a00_0405], !(1 << 31), vec![]);
    for j in 0..32usize {
        let want = match j {
            0..=6 => 100 + 4 * j as u32 + 3,
            7 => 100 + 30, // lane 31 is inactive
            _ => 0,
        };
        let want = if j == 31 { 0 } else { want };
        assert_eq!(out.lanes[j][0], want, "lane {j}");
    }
}

#[test]
fn wide_reads_writes_and_exchanges() {
    let words = [
        0xd938_0201,
        0x0008_0407, // ds_write2_b64 v7, v[4:5], v[8:9] offset0:1 offset1:2
        0xd9dc_0201,
        0x0a00_0007, // ds_read2_b64 v[10:13], v7 offset0:1 offset1:2
        0xd8b8_0201,
        0x0e05_0407, // ds_wrxchg2_rtn_b32 v[14:15], v7, v4, v5 offset0:1 offset1:2
        0xdbfc_0000,
        0x1000_0007, // ds_read_b128 v[16:19], v7
    ];
    let out = run(&words, FloatMode::DEFAULT, 1, [0, 0], vec![0; 16]);
    // write2_b64: (100, 0) at byte 8, (v8, v9) = (0, 0) at byte 16
    assert_eq!(&out.lanes[0][..4], &[100, 0, 0, 0]);
    // wrxchg2: old dwords 1 and 2, then 100 and 0 written there
    assert_eq!(&out.lanes[0][4..6], &[0, 100]);
    assert_eq!(&out.lanes[0][6..10], &[0, 100, 0, 0]);
    assert_eq!(&out.lds[..5], &[0, 100, 0, 0, 0]);
}

#[test]
fn float_atomics_follow_the_mode() {
    // ds_min_rtn_f32 v10, v7, v4 with v7 = 0: DATA0 = 100 + lane (positive denormals)
    let w = [0xd8c8_0000, 0x0a00_0407];
    let keep = FloatMode {
        denorm32: 3,
        ..FloatMode::DEFAULT
    };
    let flush = FloatMode {
        denorm32: 0,
        ..FloatMode::DEFAULT
    };
    let out = run(&w, keep, 1, [0, 0], vec![0x3f80_0000]);
    assert_eq!(out.lds[0], 100, "a kept denormal is below 1.0");
    let out = run(&w, flush, 1, [0, 0], vec![0x3f80_0000]);
    assert_eq!(out.lds[0], 0, "flushed to +0, which is below 1.0");
    // ds_add_rtn_f32: 1.0 + 1.0
    let add = [0x7e08_02f2, 0xd954_0000, 0x0a00_0407]; // v_mov_b32 v4, 1.0
    let out = run(&add, flush, 1, [0, 0], vec![0x3f80_0000]);
    assert_eq!((out.lds[0], out.lanes[0][0]), (0x4000_0000, 0x3f80_0000));
    // ds_max_rtn_f64 v[10:11], v7, v[4:5] with (100, 0): a denormal f64, flushed by
    // denorm16 = 0 and kept by 3
    let w = [0xd9cc_0000, 0x0a00_0407];
    let out = run(
        &w,
        FloatMode {
            denorm16: 3,
            ..FloatMode::DEFAULT
        },
        1,
        [0, 0],
        vec![0, 0],
    );
    assert_eq!(&out.lds[..2], &[100, 0]);
    let out = run(
        &w,
        FloatMode {
            denorm16: 0,
            ..FloatMode::DEFAULT
        },
        1,
        [0, 0],
        vec![0, 0],
    );
    assert_eq!(&out.lds[..2], &[0, 0]);
}

#[test]
fn swizzle_rotate_and_fft_modes() {
    // the RDNA2 ISA's DS_SWIZZLE_B32 pseudocode, lane j of each group of 32
    let rotate = |off: u32, j: u32| {
        let (mask, r) = (off & 31, (off >> 5) & 31);
        let r = if off & 0x400 != 0 { 32 - r } else { r };
        (j & mask) | ((j + r) & !mask & 31)
    };
    let fft = |off: u32, j: u32| {
        let mask = off & 31;
        let rev = (0..5).fold(0, |acc, b| acc | ((j >> b) & 1) << (4 - b));
        (rev >> mask.count_ones()) | (j & mask)
    };
    let exec = !(1u64 << 9);
    for off in [0xc060u32, 0xc460, 0xc063, 0xe000, 0xe005] {
        // ds_swizzle_b32 v10, v4 offset:off
        let out = run32(&[0xd8d4_0000 | off, 0x0a00_0004], exec, vec![]);
        for j in 0..32u32 {
            let from = if off >= 0xe000 {
                fft(off, j)
            } else {
                rotate(off, j)
            };
            let want = match (j, from) {
                (9, _) => 0,
                (_, 9) => 0,
                _ => 100 + from,
            };
            assert_eq!(out.lanes[j as usize][0], want, "offset {off:#x} lane {j}");
        }
    }
}
