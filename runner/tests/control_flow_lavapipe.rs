//! Bodies with branches (an if/else then a loop, nested loops left from the inner one, a loop
//! with an early continue and s_endpgm in the middle, selections and an EXEC skip inside a
//! loop, a two-entry loop that keeps the dispatcher, a loop that never ends, counted loops that
//! end at the watchdog's limit and one block past it) replay on `cpu`
//! and `vulkan:lavapipe` with the same bits in every output column and the same status, in
//! wave32 and wave64; the hand-computed results of two bodies are checked too. Without
//! lavapipe only the CPU model runs, unless `CI=true`.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use rdnaprobe_dataset::{read_dataset, Dataset};
use rdnaprobe_isa::assemble;

/// (name, body): the bodies of recompiler/tests/spirv_control.rs.
/// With `limit_*`: a counted loop whose wave runs exactly 65536 blocks (ends), then 65537 (the
/// watchdog, although the loop ends). With `fold_*`: a register's zero from before a branch
/// reaching an operation that lavapipe folds wrongly when it can see the zero (docs/backends.md,
/// "Folds the fuzzer found"): the select of -1.0 and 0.0 for lanes outside EXEC (-0.0 came
/// back), and `-0.0 + 0.0` (-0.0 came back).
const BODIES: [(&str, &str); 10] = [
    (
        "if_else_loop",
        "s_cmp_eq_u32 s0, 0\ns_cbranch_scc1 2\nv_mov_b32 v10, 1\ns_branch 1\nv_mov_b32 v10, 2\n\
         v_add_nc_u32 v11, 3, v11\nv_cmp_gt_u32 vcc_lo, 30, v11\ns_cbranch_vccnz -3",
    ),
    (
        "nested_loops",
        "v_mov_b32 v12, 0\nv_mov_b32 v11, 0\nv_add_nc_u32 v11, 1, v11\n\
         v_add_nc_u32 v10, v11, v10\nv_cmp_gt_u32 vcc_lo, 50, v10\ns_cbranch_vccz 6\n\
         v_cmp_gt_u32 vcc_lo, 4, v11\ns_cbranch_vccnz -6\nv_add_nc_u32 v12, 1, v12\n\
         v_cmp_gt_u32 vcc_lo, 3, v12\ns_cbranch_vccnz -10\nv_mov_b32 v13, 7\nv_mov_b32 v14, 9",
    ),
    (
        "continue_endpgm",
        "v_add_nc_u32 v10, v4, v10\nv_cmp_gt_u32 vcc_lo, 3, v10\ns_cbranch_vccnz -3\n\
         v_add_nc_u32 v11, 1, v11\nv_cmp_gt_u32 vcc_lo, 5, v11\ns_cbranch_vccz 2\n\
         v_mov_b32 v10, 0\ns_branch -8\ns_endpgm\nv_mov_b32 v12, 5",
    ),
    (
        "selections_in_loop",
        "s_mov_b32 s1, 4\nv_cmpx_lt_u32 1, v4\ns_cbranch_execz 1\nv_add_nc_u32 v10, 5, v10\n\
         s_mov_b32 exec_lo, -1\ns_cmp_lt_u32 s1, 2\ns_cbranch_scc0 2\nv_add_nc_u32 v11, 1, v11\n\
         s_branch 1\nv_add_nc_u32 v12, 1, v12\ns_sub_u32 s1, s1, 1\ns_cmp_eq_u32 s1, 0\n\
         s_cbranch_scc0 -12",
    ),
    (
        "two_entry_loop",
        "s_cmp_eq_u32 s0, 0\ns_cbranch_scc1 1\nv_add_nc_u32 v10, 1, v10\n\
         v_add_nc_u32 v11, 2, v11\nv_cmp_gt_u32 vcc_lo, 10, v11\ns_cbranch_vccnz -4",
    ),
    ("endless", "v_mov_b32 v10, 1\ns_branch -1"),
    (
        "fold_select",
        "s_cbranch_execnz 0\nv_mov_b32 v24, 0xbf800000",
    ),
    ("fold_add", "s_cbranch_execnz 0\nv_add_f32 v10, v4, v11"),
    (
        "limit_65536",
        "s_mov_b32 s1, 0xfffe\ns_sub_u32 s1, s1, 1\ns_cmp_eq_u32 s1, 0\ns_cbranch_scc0 -3\n\
         v_mov_b32 v10, 1",
    ),
    (
        "limit_65537",
        "s_mov_b32 s1, 0xffff\ns_sub_u32 s1, s1, 1\ns_cmp_eq_u32 s1, 0\ns_cbranch_scc0 -3\n\
         v_mov_b32 v10, 1",
    ),
];

/// A wave dataset: every body, wave32 and wave64, s0 = 0 and 1; in0 = lane % 4 + 1, but -0.0
/// in every third lane of `fold_*` bodies, which run the s0 = 1 wave with a partial EXEC.
fn dataset() -> String {
    let mut text = format!(
        "{},wave_id,lane,s_in,exec_in\n",
        rdnaprobe_dataset::V1_COLUMNS.join(",")
    );
    for (name, body) in BODIES {
        for wave in [32u32, 64] {
            let body = if wave == 64 {
                body.replace("vcc_lo", "vcc")
                    .replace("s_mov_b32 exec_lo", "s_mov_b64 exec")
                    .replace("exec_lo", "exec")
            } else {
                body.to_string()
            };
            let words = assemble(&body).unwrap_or_else(|e| panic!("{name}: {e}"));
            let enc: Vec<String> = words.iter().map(|w| format!("{w:#010x}")).collect();
            for s0 in 0..2 {
                for lane in 0..wave {
                    let fold = name.starts_with("fold_");
                    let mut ins = vec!["0x00000000".to_string(); 6];
                    let in0 = if fold && lane % 3 == 0 {
                        0x8000_0000
                    } else {
                        lane % 4 + 1
                    };
                    ins[0] = format!("{in0:#010x}");
                    let (s_in, exec) = match (lane, fold && s0 == 1) {
                        (0, true) => (format!("{s0:#010x}"), "0xd5fff8e7d5fff8e7"),
                        (0, false) => (format!("{s0:#010x}"), ""),
                        _ => (String::new(), ""),
                    };
                    let _ = writeln!(
                        text,
                        "\"{name}\",{},{wave},,,,,,,,{},{},gfx1030,,,{name}-{wave}-{s0},{lane},\
                         {s_in},{exec}",
                        enc.join(" "),
                        ins.join(","),
                        [""; 16].join(","),
                    );
                }
            }
        }
    }
    text
}

fn replay(input: &Path, backend: &str, out: &Path) -> Dataset {
    let o = common::command(["replay", "-b", backend, "-o"])
        .arg(out)
        .arg(input)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::stderr(&o));
    read_dataset(out).unwrap()
}

/// Row `i`'s lane outputs as numbers (0 for an empty cell).
fn outs(d: &Dataset, i: usize) -> Vec<u32> {
    d.rows[i].outputs.iter().map(|o| o.unwrap_or(0)).collect()
}

#[test]
fn branching_bodies_agree_on_cpu_and_lavapipe() {
    let dir = common::scratch_dir("control-flow");
    let input = dir.join("control.csv");
    std::fs::write(&input, dataset()).unwrap();
    let cpu = replay(&input, "cpu", &dir.join("cpu.csv"));
    let col = |name: &str| cpu.extra_columns.iter().position(|c| c == name).unwrap();
    let (status_col, wave_col, backend_col) = (col("status"), col("wave_id"), col("backend"));
    let status = |d: &Dataset, i: usize| d.rows[i].extra[status_col].clone();
    let mut hand = 0;
    for i in 0..cpu.rows.len() {
        let wave = &cpu.rows[i].extra[wave_col];
        let s = status(&cpu, i);
        if wave.starts_with("endless") || wave.starts_with("limit_65537") {
            assert_eq!(s, "error: watchdog: more than 65536 blocks executed");
            continue;
        }
        assert_eq!(s, "ok", "{wave}");
        let o = outs(&cpu, i);
        if wave.starts_with("nested_loops") {
            assert_eq!(o[..5], [30, 4, 3, 7, 9], "{wave}");
            hand += 1;
        }
        if wave.starts_with("fold_add") && cpu.rows[i].inputs[0] == 0x8000_0000 {
            assert_eq!(o[0], 0, "{wave}: -0.0 + 0.0 is +0.0");
            hand += 1;
        }
        if wave.starts_with("limit_65536") {
            assert_eq!(o[0], 1, "{wave}");
            hand += 1;
        }
        if wave.starts_with("if_else_loop") {
            let v10 = if wave.ends_with("-0") { 2 } else { 1 };
            assert_eq!(o[..2], [v10, 30], "{wave}");
            hand += 1;
        }
    }
    assert_eq!(hand, 6 * (32 + 64) + 2 * (11 + 22));
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let gpu = replay(&input, "vulkan:lavapipe", &dir.join("lavapipe.csv"));
    assert_eq!(cpu.rows.len(), gpu.rows.len());
    assert_eq!(cpu.extra_columns, gpu.extra_columns);
    for i in 0..cpu.rows.len() {
        let (c, g) = (&cpu.rows[i], &gpu.rows[i]);
        let what = &c.extra[wave_col];
        assert_eq!(c.outputs, g.outputs, "{what} row {i}");
        for (k, (a, b)) in c.extra.iter().zip(&g.extra).enumerate() {
            if k != backend_col {
                let name = &cpu.extra_columns[k];
                assert_eq!(a, b, "{what} row {i}: {name}");
            }
        }
    }
}
