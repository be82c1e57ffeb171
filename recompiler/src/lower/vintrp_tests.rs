//! Interpolation and run-time-M0 relative moves on the CPU model of a whole wave: expected
//! values worked out here from the parameter layout (`vintrp`) and the window rule
//! (`movrel`), with operands whose sums are exact.

use super::*;
use crate::wave::{run_wave, WaveInput, WaveOutput};
use rdnaprobe_isa::assemble;

/// The words of `text`: the project's assembler for each line, or for a line `@ W W ...` the
/// hex words themselves (the interpolation operands are not in the assembler; these words are
/// llvm-mc-19's for gfx1030, written beside them).
fn body_words(text: &str) -> Vec<u32> {
    text.lines()
        .flat_map(|line| match line.trim().strip_prefix('@') {
            Some(ws) => ws
                .split_whitespace()
                .take_while(|w| w.starts_with("0x"))
                .map(|w| u32::from_str_radix(&w[2..], 16).expect("hex word"))
                .collect(),
            None => assemble(line).expect("assembles"),
        })
        .collect()
}

fn run(
    text: &str,
    wave: Wave,
    in0: impl Fn(u32) -> u32,
    sgprs: [u32; 16],
    lds: Vec<u32>,
) -> WaveOutput {
    let words = body_words(text);
    let k = lower_wave_words(&words, FloatMode::DEFAULT, wave, Target::Gfx1030).expect("lowers");
    k.validate().expect("valid kernel");
    let lanes = (0..wave.lanes()).map(|l| [in0(l), l, 0, 0, 0, 0]).collect();
    let mut input = WaveInput::new(lanes, u64::MAX, lds);
    input.sgprs = crate::wave::sgprs_in(&sgprs);
    run_wave(&k, &input)
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// The LDS dword of channel `chan` of parameter `k` (0 P0, 1 P10, 2 P20) of attribute `attr`
/// of primitive `prim` among `n`, parameters from byte `offset`.
fn slot(offset: u32, n: u32, attr: u32, prim: u32, k: u32, chan: u32) -> usize {
    (offset / 4 + (attr * n + prim) * 12 + 4 * k + chan) as usize
}

/// M0 with new primitives at `quads` and the parameters at byte `offset`.
fn m0(quads: &[u32], offset: u32) -> u32 {
    quads.iter().fold(offset, |m, q| m | 1 << (15 + q))
}

#[test]
fn f32_interpolation_reads_each_quads_primitive() {
    // wave32: quads 2 and 5 start primitives 1 and 2; attribute 1, channel z (2)
    let (off, n) = (128, 3);
    let prim = |l: u32| match l / 4 {
        0 | 1 => 0,
        2..=4 => 1,
        _ => 2,
    };
    let mut lds = vec![0u32; 256];
    for p in 0..n {
        lds[slot(off, n, 1, p, 0, 2)] = f(p as f32 + 1.0);
        lds[slot(off, n, 1, p, 1, 2)] = f(2.0 * (p as f32 + 1.0));
        lds[slot(off, n, 1, p, 2, 2)] = f(0.5);
    }
    let t = "s_mov_b32 m0, s0\n\
             @ 0xc8280604 v_interp_p1_f32_e32 v10, v4, attr1.z\n\
             @ 0xc8290604 v_interp_p2_f32_e32 v10, v4, attr1.z\n\
             @ 0xc82e0600 v_interp_mov_f32_e32 v11, p10, attr1.z";
    let i = |l: u32| 0.25 * l as f32;
    let out = run(
        t,
        Wave::W32,
        |l| f(i(l)),
        [
            m0(&[2, 5], off),
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        ],
        lds,
    );
    for l in 0..32 {
        let p = prim(l) as f32;
        let p1 = 2.0 * (p + 1.0) * i(l) + (p + 1.0);
        let p2 = 0.5 * i(l) + p1;
        assert_eq!(out.lanes[l as usize][0], f(p2), "lane {l}");
        assert_eq!(out.lanes[l as usize][1], f(2.0 * (p + 1.0)), "lane {l}");
    }
}

#[test]
fn a_parameter_read_past_the_lds_gives_zero() {
    let t = "s_mov_b32 m0, s0\n\
             @ 0xc82a0002 v_interp_mov_f32_e32 v10, p0, attr0.x\n\
             @ 0xd600000b 0x00020800 v_interp_p1_f32_e64 v11, v4, attr0.x";
    let out = run(
        t,
        Wave::W32,
        |_| f(1.0),
        [m0(&[], 0x1000), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        vec![7; 64],
    );
    assert_eq!(out.lanes[3][0], 0);
    assert_eq!(out.lanes[3][1], 0);
}

#[test]
fn f16_interpolation_selects_the_half() {
    // one primitive; attribute 0 channel x: P0 = (lo 1.0, hi 3.0), P10 = (lo 2.0, hi 4.0),
    // P20 = (lo 0.5, hi 0.25); I = J = 0.5
    let mut lds = vec![0u32; 16];
    lds[0] = 0x4200_3c00;
    lds[4] = 0x4400_4000;
    lds[8] = 0x3400_3800;
    let t = "s_mov_b32 m0, 0\n\
             @ 0xd742000a 0x00020800 v_interp_p1ll_f16 v10, v4, attr0.x\n\
             @ 0xd742000b 0x00020900 v_interp_p1ll_f16 v11, v4, attr0.x high\n\
             @ 0xd743000c 0x04160900 v_interp_p1lv_f16 v12, v4, attr0.x, v5 high\n\
             @ 0xd75a000d 0x042a0900 v_interp_p2_f16 v13, v4, attr0.x, v10 high";
    let out = run(t, Wave::W32, |_| f(0.5), [0; 16], lds);
    let o = out.lanes[9];
    assert_eq!(o[0], f(2.0 * 0.5 + 1.0));
    assert_eq!(o[1], f(4.0 * 0.5 + 3.0));
    // p1lv: S2 = v5's high half; v5 = lane 9 = 0x00000009: high half +0
    assert_eq!(o[2], f(4.0 * 0.5));
    // p2: 0.25 * 0.5 + 2.0 = 2.125 as f16 (0x4040) in the low half, the high half kept (0)
    assert_eq!(o[3], 0x4040);
}

#[test]
fn interpolation_needs_the_wave_contract() {
    let words = body_words("@ 0xc8280004 v_interp_p1_f32_e32 v10, v4, attr0.x");
    let e = lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).unwrap_err();
    assert!(e.to_string().contains("wave contract"), "{e}");
}

#[test]
fn run_time_m0_indexes_the_register_file() {
    // s0 differs per wave: lane values v4.. = in0, in1, ...; M0 = s0 picks v4 + s0
    let t = "v_mov_b32 v6, 66\nv_mov_b32 v7, 77\ns_mov_b32 m0, s0\nv_movrels_b32 v10, v4\n\
             v_movreld_b32 v12, v7\nv_mov_b32 v11, v14";
    for (s0, want10, want11) in [(0, 100, 0), (1, 5, 0), (2, 66, 77), (3, 77, 0)] {
        let mut s = [0; 16];
        s[0] = s0;
        let out = run(t, Wave::W32, |_| 100, s, vec![]);
        // in1 = lane: lane 5 has v5 = 5
        let o = out.lanes[5];
        assert_eq!(o[0], want10, "m0 {s0}");
        assert_eq!(
            o[1], want11,
            "m0 {s0}: v14 = v12 + 2 written only when m0 = 2"
        );
    }
}

#[test]
fn run_time_m0_out_of_range_reads_v0_and_drops_writes() {
    let t = "v_mov_b32 v0, 55\ns_mov_b32 m0, s0\nv_movrels_b32 v10, v4\nv_mov_b32 v11, 9\n\
             v_swaprel_b32 v11, v4";
    let mut s = [0; 16];
    s[0] = 252; // v4 + 252 = v256: out of range
    let out = run(t, Wave::W32, |_| 100, s, vec![]);
    assert_eq!(out.lanes[0][0], 55);
    // swaprel: source offset M0[9:0] = 252 is out of range, so neither side is written
    assert_eq!(out.lanes[0][1], 9);
    s[0] = 0x0001_0000; // swaprel: source v4 + 0, destination v11 + 1 = v12
    let t = "s_mov_b32 m0, s0\nv_mov_b32 v12, 9\nv_swaprel_b32 v11, v4\nv_mov_b32 v13, v4";
    let out = run(t, Wave::W32, |_| 100, s, vec![]);
    assert_eq!((out.lanes[0][2], out.lanes[0][3]), (100, 9));
}

#[test]
fn run_time_m0_in_a_loop() {
    // s0 = 3 passes; each pass moves v[4 + m0] into v[10 + m0] for m0 = 2, 1, 0
    let t = "s_mov_b32 s1, 3\ns_sub_u32 s1, s1, 1\ns_mov_b32 m0, s1\nv_movrelsd_b32 v10, v4\n\
             s_cmp_lg_u32 s1, 0\ns_cbranch_scc1 -5";
    let out = run(t, Wave::W32, |l| 1000 + l, [0; 16], vec![]);
    let o = out.lanes[7];
    assert_eq!(&o[..4], &[1007, 7, 0, 0]);
}
