//! Random wave programs, run on `cpu` and on `vulkan:lavapipe` through the backends' wave
//! path (dataset rows in, rows and uniform outputs out) and required to agree bit for bit:
//! straight-line VALU, VOPC masks, DPP, permlanes, readlane/writelane, EXEC changes and
//! loops bounded by construction, in wave32 and wave64 with partial EXEC. The seed and the
//! program of a disagreement are in the failure message; `RDNAPROBE_WAVE_PROGRAMS=N` runs N
//! programs (default 24). Without lavapipe it skips (fails
//! under `CI=true`).

use rdnaprobe_dataset::{Row, WaveLayout};
use rdnaprobe_isa::assemble;
use rdnaprobe_recompiler::spirv::arbitrary::Rng;

use super::cpu::CpuBackend;
use super::vulkan::VulkanBackend;
use super::{Backend, Status};

/// One random program of `pieces` pieces for a wave of `lanes` lanes.
fn program(rng: &mut Rng, lanes: u32, pieces: usize) -> String {
    let vcc = if lanes == 64 { "vcc" } else { "vcc_lo" };
    let v = |rng: &mut Rng| 4 + rng.below(10) as u32;
    let mut out = Vec::new();
    for _ in 0..pieces {
        let (d, a, b) = (v(rng), v(rng), v(rng));
        let text = match rng.below(9) {
            0 => format!("v_add_nc_u32 v{d}, v{a}, v{b}"),
            1 => format!("v_xor_b32 v{d}, v{a}, v{b}"),
            2 => format!(
                "v_mov_b32_dpp v{d}, v{a} row_shr:{} bound_ctrl:1",
                1 + rng.below(15)
            ),
            3 => format!("v_mov_b32_dpp v{d}, v{a} quad_perm:[3,1,2,0] row_mask:0x5"),
            4 => format!("v_permlanex16_b32 v{d}, v{a}, s0, s1"),
            5 => format!(
                "v_readlane_b32 s2, v{a}, {}\nv_add_nc_u32 v{d}, s2, v{d}",
                rng.below(lanes as usize)
            ),
            6 => format!("v_cmp_lt_u32 {vcc}, v{a}, v{b}\nv_cndmask_b32 v{d}, v{a}, v{b}, {vcc}"),
            7 => format!(
                "v_and_b32 v12, 7, v{a}\nv_add_nc_u32 v12, 1, v12\nv_cmp_gt_u32 {vcc}, {}, v12\n\
                 s_cbranch_vccnz -3",
                2 + rng.below(6)
            ),
            _ => format!(
                "v_cmpx_ne_u32 v{a}, {}\ns_cbranch_execz 2\nv_writelane_b32 v{d}, s3, {}",
                rng.below(4),
                rng.below(lanes as usize)
            ),
        };
        out.push(text);
    }
    out.join("\n")
}

fn rows(words: &[u32], text: &str, lanes: u32, rng: &mut Rng, id: usize) -> Vec<Row> {
    let exec = rng.next_u64() | 1;
    let s_in: Vec<String> = (0..4)
        .map(|_| format!("0x{:08x}", rng.next_u64() as u32))
        .collect();
    (0..lanes)
        .map(|lane| Row {
            instruction: text.replace('\n', "; "),
            encoding: words.to_vec(),
            wave: Some(lanes),
            inputs: std::array::from_fn(|_| match rng.below(3) {
                0 => rng.below(8) as u32,
                _ => rng.next_u64() as u32,
            }),
            gfx: "gfx1030".into(),
            extra: vec![
                format!("w{id}"),
                lane.to_string(),
                if lane == 0 {
                    format!("0x{exec:016x}")
                } else {
                    String::new()
                },
                if lane == 0 {
                    s_in.join(" ")
                } else {
                    String::new()
                },
            ],
            ..Row::default()
        })
        .collect()
}

#[test]
fn random_wave_programs_agree_on_cpu_and_lavapipe() {
    let mut gpu = match VulkanBackend::open(Some("lavapipe")) {
        Ok(b) => b,
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true") => panic!("{e:#}"),
        Err(e) => return eprintln!("skipping: {e:#}"),
    };
    let columns: Vec<String> = ["wave_id", "lane", "exec_in", "s_in"]
        .map(String::from)
        .to_vec();
    let layout = WaveLayout::from_columns(&columns).unwrap();
    let mut rng = Rng::new(2024);
    let mut all = Vec::new();
    let mut texts = Vec::new();
    let count: usize = std::env::var("RDNAPROBE_WAVE_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    for id in 0..count {
        let lanes = if id % 2 == 0 { 32 } else { 64 };
        let text = program(&mut rng, lanes, 6);
        let words = assemble(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        all.extend(rows(&words, &text, lanes, &mut rng, id));
        texts.push(text);
    }
    let cpu = CpuBackend::new().run_waves(&all, &layout);
    let vk = gpu.run_waves(&all, &layout);
    let mut ok = 0;
    for (i, row) in all.iter().enumerate() {
        let what = &texts[row.extra[0][1..].parse::<usize>().unwrap()];
        assert_eq!(cpu.rows[i], vk.rows[i], "row {i} of:\n{what}");
        assert_eq!(cpu.uniform[i], vk.uniform[i], "row {i} of:\n{what}");
        ok += usize::from(cpu.rows[i].status == Status::Ok);
    }
    let bad: Vec<_> = cpu
        .rows
        .iter()
        .filter(|r| r.status != Status::Ok)
        .map(|r| r.status.to_string())
        .collect();
    assert_eq!(
        ok,
        all.len(),
        "every program runs: {:?}",
        &bad[..bad.len().min(3)]
    );
}
