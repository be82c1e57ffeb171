//! The wave kernel on a real gfx103x GPU, through comgr, the worker process and HIP: a body that
//! uses per-lane VGPRs, SGPR inputs and outputs, EXEC, VCC, SCC, the V# in s[20:23] (a load in
//! range and out of range, a store), and LDS across lanes. Expected values are computed here
//! from the ISA's rules. Without a gfx103x device the test says so and passes; with one
//! (`cargo test -p rdnaprobe-oracle --test wave_hip`) it is the hardware check of the template.

mod common;

use rdnaprobe_oracle::hip::DeviceInfo;
use rdnaprobe_oracle::wave::{WaveInput, WaveResult, WaveShape};
use rdnaprobe_oracle::worker::{Supervisor, Watchdog, WorkerCommand};
use rdnaprobe_oracle::{assemble_wave_probe, Hip, Mode, Target, Wave};

/// The body (the same words in wave32 and wave64; `vcc` is `vcc_lo` in wave32):
/// ```text
/// v_add_nc_u32 v10, v4, v5
/// v_mov_b32 v11, s0
/// s_add_u32 s1, s1, s2
/// v_lshlrev_b32 v13, 2, v255                      ; v255 = lane id (read only)
/// buffer_load_dword v12, v13, s[20:23], 0 offen   ; region[lane], 0 when out of range
/// ds_write_b32 v13, v4                            ; lds[lane] = in0
/// s_waitcnt vmcnt(0) lgkmcnt(0)
/// ds_read_b32 v14, v13 offset:4                   ; lds[lane + 1]
/// buffer_store_dword v10, v13, s[20:23], 0 offen offset:128
/// s_waitcnt vmcnt(0) lgkmcnt(0)
/// v_cmp_gt_u32 vcc, v4, v5
/// s_cmp_lt_u32 s0, s1
/// ```
const BODY: [u32; 18] = [
    0x4a14_0b04,
    0x7e16_0200,
    0x8001_0201,
    0x341b_fe82,
    0xe030_1000,
    0x8005_0c0d,
    0xd834_0000,
    0x0000_040d,
    0xbf8c_0070,
    0xd8d8_0004,
    0x0e00_000d,
    0xe070_1080,
    0x8005_0a0d,
    0xbf8c_0070,
    0x7d88_0b04,
    0xbf0a_0100,
    // Two no-ops keep the words a multiple of four (nothing depends on it).
    0xbf80_0000,
    0xbf80_0000,
];

fn gfx103x_device() -> Option<(DeviceInfo, Target)> {
    if !std::path::Path::new("/dev/kfd").exists() {
        return None;
    }
    let hip = Hip::load().ok()?;
    hip.devices()
        .ok()?
        .into_iter()
        .find_map(|d| match Target::from_arch_name(&d.arch) {
            Ok(t) if t.is_gfx103x() => Some((d, t)),
            _ => None,
        })
}

fn input(seed: u32, lanes: usize, exec_in: u64, lds_dwords: usize, mem_dwords: usize) -> WaveInput {
    let x = |k: u32| (seed ^ k).wrapping_mul(0x9e37_79b9).rotate_left(k % 29);
    WaveInput {
        lanes: (0..lanes as u32)
            .map(|l| [x(l), x(l + 1000), 0, 0, 0, 0])
            .collect(),
        s_in: std::array::from_fn(|k| x(2000 + k as u32)),
        exec_in,
        lds_in: (0..lds_dwords as u32).map(|k| x(3000 + k)).collect(),
        mem_in: (0..mem_dwords as u32).map(|k| x(4000 + k)).collect(),
        mem_bytes: 4 * mem_dwords as u32,
    }
}

/// What the body must produce, from the ISA's rules.
fn expected(shape: &WaveShape, w: &WaveInput) -> WaveResult {
    let lanes = shape.lanes();
    let mask = if lanes == 64 { u64::MAX } else { 0xffff_ffff };
    let exec = w.exec_in & mask;
    let on = |l: usize| exec >> l & 1 == 1;
    let in0 = |l: usize| w.lanes.get(l).map_or(0, |i| i[0]);
    let in1 = |l: usize| w.lanes.get(l).map_or(0, |i| i[1]);
    let mut lds = w.lds_in.clone();
    lds.resize((shape.lds_bytes / 4) as usize, 0);
    let lds_before = lds.clone();
    for l in (0..lanes).filter(|l| on(*l)) {
        lds[l] = in0(l);
    }
    let region = |k: usize| w.mem_in.get(k).copied().unwrap_or(0);
    let mut mem: Vec<u32> = (0..(w.mem_bytes as usize).div_ceil(4))
        .map(region)
        .collect();
    let mut out = vec![[0u32; 16]; lanes];
    let mut vcc = 0u64;
    for (l, o) in out.iter_mut().enumerate().filter(|(l, _)| on(*l)) {
        o[0] = in0(l).wrapping_add(in1(l));
        o[1] = w.s_in[0];
        o[2] = if 4 * l < w.mem_bytes as usize {
            region(l)
        } else {
            0
        };
        o[3] = 4 * l as u32;
        let next = l + 1;
        o[4] = if next < lanes && on(next) {
            in0(next)
        } else {
            lds_before.get(next).copied().unwrap_or(0)
        };
        if 128 + 4 * l < w.mem_bytes as usize {
            mem[32 + l] = o[0];
        }
        if in0(l) > in1(l) {
            vcc |= 1 << l;
        }
    }
    let mut s_out = w.s_in;
    s_out[1] = s_out[1].wrapping_add(s_out[2]);
    WaveResult {
        lanes: out,
        s_out,
        exec_out: exec,
        vcc_out: vcc,
        scc_out: s_out[0] < s_out[1],
        lds_out: lds,
        mem_out: mem,
        done: true,
    }
}

#[test]
fn wave_kernel_on_hardware() {
    let Some((device, target)) = gfx103x_device() else {
        eprintln!("skipping wave_kernel_on_hardware: no gfx103x HIP device");
        return;
    };
    let comgr = common::comgr_or_skip("wave_kernel_on_hardware").expect("comgr with a GPU");
    let cmd = WorkerCommand::new(env!("CARGO_BIN_EXE_rdnaprobe-oracle-worker"));
    let mut sup = Supervisor::new(cmd, Watchdog::default());
    for wave in [Wave::W32, Wave::W64] {
        let lanes = wave.lanes() as usize;
        let shape = WaveShape {
            wave,
            lds_bytes: 4 * (lanes as u32 + 8),
        };
        let mode = Mode::new(Default::default(), wave);
        let k = assemble_wave_probe(&comgr, target, &mode, &shape, &BODY).unwrap();
        let all = if lanes == 64 { u64::MAX } else { 0xffff_ffff };
        let waves = vec![
            input(1, lanes, all, lanes + 8, lanes + 40),
            input(2, lanes - 3, 0x5a5a_5a5a_a5a5_a5a5, 4, 7),
            input(3, 1, 0, 0, 0),
            input(4, lanes, 0xffff_0000_0000_ffff, lanes / 2, 40),
        ];
        let got = sup
            .run_waves(device.index, &k.code_object, shape, &waves)
            .unwrap_or_else(|e| panic!("{target} wave{lanes}: {e}"));
        for (i, (w, g)) in waves.iter().zip(&got).enumerate() {
            assert_eq!(*g, expected(&shape, w), "{target} wave{lanes} wave {i}");
        }
    }
}

/// The hand-encoded body is the listing above (llvm-mc disassembles it), so the expectations
/// describe what the GPU will run.
#[test]
fn body_words_are_the_documented_instructions() {
    let mc = "llvm-mc-19";
    let bytes: Vec<String> = BODY
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("0x{b:02x}"))
        .collect();
    let mut child = match std::process::Command::new(mc)
        .args(["-disassemble", "-arch=amdgcn", "-mcpu=gfx1030"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            assert!(!common::on_ci(), "{mc} is required on CI: {e}");
            eprintln!("skipping body_words_are_the_documented_instructions: {mc}: {e}");
            return;
        }
    };
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(bytes.join(" ").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let got: Vec<String> = text
        .lines()
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with('.'))
        .collect();
    let want = [
        "v_add_nc_u32_e32 v10, v4, v5",
        "v_mov_b32_e32 v11, s0",
        "s_add_u32 s1, s1, s2",
        "v_lshlrev_b32_e32 v13, 2, v255",
        "buffer_load_dword v12, v13, s[20:23], 0 offen",
        "ds_write_b32 v13, v4",
        "s_waitcnt vmcnt(0) lgkmcnt(0)",
        "ds_read_b32 v14, v13 offset:4",
        "buffer_store_dword v10, v13, s[20:23], 0 offen offset:128",
        "s_waitcnt vmcnt(0) lgkmcnt(0)",
        "v_cmp_gt_u32_e32 vcc_lo, v4, v5",
        "s_cmp_lt_u32 s0, s1",
        "s_nop 0",
        "s_nop 0",
    ];
    assert_eq!(got, want, "{text}");
}
