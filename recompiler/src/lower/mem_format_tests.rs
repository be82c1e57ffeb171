//! Typed buffer conversions on the CPU model, exhaustively for 16-bit components: every UNORM
//! and SNORM value loads as the correctly rounded quotient (f32, and f16 for the d16 form),
//! computed here by long division, and a UNORM store of a loaded value gives the integer back.

use super::*;
use crate::wave::{run_wave_mem, WaveInput};

/// The float with `mbits` fraction bits and exponent bias `bias` nearest to `num / den`
/// (0 <= num <= den, den > 0), ties to even, by long division; denormals kept.
fn quotient(num: u64, den: u64, mbits: u32, bias: i32) -> u32 {
    if num == 0 {
        return 0;
    }
    // the largest e with 2^e <= num / den, at least the smallest normal exponent
    let mut e = 0i32;
    while u128::from(num) << 64 < u128::from(den) << (64 + e) {
        e -= 1;
    }
    let mut e = e.max(1 - bias);
    // num / den * 2^k has mbits + 1 integer bits (fewer for a denormal)
    let k = mbits as i32 - e;
    let (n, d) = (u128::from(num) << k, u128::from(den));
    let (mut m, r) = (n / d, n % d);
    if 2 * r > d || (2 * r == d && m & 1 == 1) {
        m += 1;
    }
    if m >> (mbits + 1) != 0 {
        m >>= 1;
        e += 1;
    }
    let biased = if m >> mbits == 0 { 0 } else { e + bias };
    ((biased as u32) << mbits) | (m as u32 & ((1 << mbits) - 1))
}

/// Loads every 16-bit value with `word0` (a tbuffer_load_format_xy of a 16_16 format into
/// v[10:11], `word1` its second word) and gives (value, out0/out1) for each.
fn load_all(word0: u32, word1: u32) -> Vec<(u32, u32)> {
    // v_lshlrev_b32 v6, 2, v5
    let words = [0x340c_0a82, word0, word1];
    let k = lower_wave_words_mem(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030, 128)
        .expect("lowers");
    let lanes: Vec<[u32; 6]> = (0..32).map(|l| [0, l, 0, 0, 0, 0]).collect();
    let input = WaveInput::new(lanes, u64::from(u32::MAX), vec![]);
    let mut got = Vec::new();
    for chunk in 0..1024u32 {
        let mem: Vec<u32> = (0..32)
            .map(|l| {
                let v = 64 * chunk + 2 * l;
                v | (v + 1) << 16
            })
            .collect();
        let (out, _) = run_wave_mem(&k, &input, &mem);
        for l in 0..32 {
            let v = 64 * chunk + 2 * l;
            let o = out.lanes[l as usize];
            if word1 >> 21 & 1 == 1 {
                got.push((v, o[0] & 0xffff));
                got.push((v + 1, o[0] >> 16));
            } else {
                got.push((v, o[0]));
                got.push((v + 1, o[1]));
            }
        }
    }
    got
}

fn snorm16(v: u32) -> (bool, u64) {
    let i = v as u16 as i16;
    (i < 0, u64::from(i.unsigned_abs().min(0x7fff)))
}

#[test]
fn every_unorm16_and_snorm16_loads_correctly_rounded() {
    // tbuffer_load_format_xy v[10:11], v6, s[20:23], 0 format:[BUF_FMT_16_16_UNORM] offen
    for (v, got) in load_all(0xe8b9_1000, 0x8005_0a06) {
        assert_eq!(
            got,
            quotient(u64::from(v), 0xffff, 23, 127),
            "unorm {v:#06x}"
        );
    }
    // the same for 16_16_SNORM
    for (v, got) in load_all(0xe8c1_1000, 0x8005_0a06) {
        let (neg, mag) = snorm16(v);
        let want = quotient(mag, 0x7fff, 23, 127) | u32::from(neg) << 31;
        assert_eq!(got, want, "snorm {v:#06x}");
    }
}

#[test]
fn every_unorm16_loads_as_f16_in_the_d16_form() {
    // tbuffer_load_format_d16_xy v10, v6, s[20:23], 0 format:[BUF_FMT_16_16_UNORM] offen
    for (v, got) in load_all(0xe8b9_1000, 0x8025_0a06) {
        assert_eq!(
            got,
            quotient(u64::from(v), 0xffff, 10, 15),
            "unorm {v:#06x}"
        );
    }
    for (v, got) in load_all(0xe8c1_1000, 0x8025_0a06) {
        let (neg, mag) = snorm16(v);
        let want = quotient(mag, 0x7fff, 10, 15) | u32::from(neg) << 15;
        assert_eq!(got, want, "snorm {v:#06x}");
    }
}

#[test]
fn a_unorm_store_of_a_loaded_value_gives_it_back() {
    // tbuffer_load_format_xy v[10:11] (16_16_UNORM) from the region's first half, then
    // tbuffer_store_format_xy v[10:11] to the second (offset:128)
    let words = [
        0x340c_0a82,
        0xe8b9_1000,
        0x8005_0a06,
        0xe8bd_1080,
        0x8005_0a06,
    ];
    let k = lower_wave_words_mem(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030, 256)
        .expect("lowers");
    let lanes: Vec<[u32; 6]> = (0..32).map(|l| [0, l, 0, 0, 0, 0]).collect();
    let input = WaveInput::new(lanes, u64::from(u32::MAX), vec![]);
    for chunk in 0..1024u32 {
        let first: Vec<u32> = (0..32)
            .map(|l| (64 * chunk + 2 * l) | (64 * chunk + 2 * l + 1) << 16)
            .collect();
        let mem: Vec<u32> = first.iter().copied().chain([0; 32]).collect();
        let (_, after) = run_wave_mem(&k, &input, &mem);
        assert_eq!(after[32..], first[..], "chunk {chunk}");
    }
}

/// The MUBUF D16 format loads (opcodes 128-135, the opcode's bit 7 in word0 bit 25) pack two
/// 16-bit components to a VGPR, low half first (RDNA2 ISA, D16 buffer loads). With a
/// 16_16_16_16_FLOAT V# the components are already f16, so the VGPRs hold the memory's halves
/// as they are; `_d16_xyz` fills v10 and the low half of v11 and keeps v11's high half. The
/// non-D16 load of the same V# writes four VGPRs, each component widened to f32.
#[test]
fn mubuf_d16_format_loads_pack_halves() {
    let body = |load: &str| {
        let text = format!(
            "v_lshlrev_b32 v6, 3, v5\nv_mov_b32 v11, 0xbeef0000\nv_mov_b32 v12, 0x12345678\n\
             s_mov_b32 s24, s20\ns_mov_b32 s25, s21\ns_mov_b32 s26, s22\n\
             s_mov_b32 s27, 0x31047fac\n{load}"
        );
        let words = rdnaprobe_isa::assemble(&text).expect("assembles");
        lower_wave_words_mem(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030, 256)
            .expect("lowers")
    };
    let lanes: Vec<[u32; 6]> = (0..32).map(|l| [0, l, 0, 0, 0, 0]).collect();
    let input = WaveInput::new(lanes, u64::from(u32::MAX), vec![]);
    // f16 halves: 1.0, -2.0, 0.5 + lane, and a NaN payload
    let mem: Vec<u32> = (0..32u32)
        .flat_map(|l| [0xc000_3c00, 0x7e01_0000 | (0x3800 + l)])
        .collect();
    let (xyzw, _) = run_wave_mem(
        &body("buffer_load_format_d16_xyzw v[10:11], v6, s[24:27], 0 offen"),
        &input,
        &mem,
    );
    let (xyz, _) = run_wave_mem(
        &body("buffer_load_format_d16_xyz v[10:11], v6, s[24:27], 0 offen"),
        &input,
        &mem,
    );
    let (wide, _) = run_wave_mem(
        &body("buffer_load_format_xyzw v[10:13], v6, s[24:27], 0 offen"),
        &input,
        &mem,
    );
    for l in 0..32usize {
        let (d0, d1) = (mem[2 * l], mem[2 * l + 1]);
        assert_eq!(
            xyzw.lanes[l][..3],
            [d0, d1, 0x1234_5678],
            "d16_xyzw lane {l}"
        );
        assert_eq!(
            xyz.lanes[l][..3],
            [d0, 0xbeef_0000 | (d1 & 0xffff), 0x1234_5678],
            "d16_xyz lane {l}"
        );
        let f32_of = |h: u32| half::f16::from_bits(h as u16).to_f32().to_bits();
        assert_eq!(wide.lanes[l][0], f32_of(d0 & 0xffff), "xyzw lane {l}");
        assert_eq!(wide.lanes[l][1], f32_of(d0 >> 16), "xyzw lane {l}");
        assert_eq!(wide.lanes[l][2], f32_of(d1 & 0xffff), "xyzw lane {l}");
    }
}
