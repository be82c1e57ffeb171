//! Replays every shipped dataset (datasets/rdna2/*.csv) through the binary on `cpu` and on a
//! Vulkan driver and checks that the recompiled SPIR-V gives the CPU model's bits: at least
//! 99.9% of the rows whose kernel uses no approximate operation ([`FloatUn::is_approximate`])
//! must agree on status and all sixteen outputs. Rows with approximate operations are reported
//! with their largest ULP distance per instruction, not judged.
//!
//! `vulkan:lavapipe`: without a lavapipe device the test is skipped with a message, unless
//! `CI=true`, where it fails. `vulkan:nvidia`: skipped cleanly where NVIDIA's driver is absent
//! (CI has no GPU), unless `RDNAPROBE_REQUIRE_NVIDIA=1`.
//!
//! Run on another machine than the one that built it, the test takes the binary, the
//! repository and a scratch directory from `RDNAPROBE_BIN`, `RDNAPROBE_REPO` and
//! `RDNAPROBE_SCRATCH` (scripts/device/h200-tests.sh sets them).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use rdnaprobe_dataset::{read_dataset, Row};
use rdnaprobe_isa::{FloatMode, Target, Wave};
use rdnaprobe_recompiler::ir::{Expr, FloatUn};

mod common;

/// Minimum share of non-approximate rows on which a driver must match the CPU model.
const MIN_AGREEMENT: f64 = 0.999;

fn replay(inputs: &[PathBuf], backend: &str, out: &Path) -> Vec<Row> {
    let o = common::command(["replay"])
        .args(inputs)
        .args(["--backend", backend, "-o"])
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "replay on {backend}: {}",
        common::stderr(&o)
    );
    read_dataset(out).unwrap().rows
}

/// Whether the row's kernel asks for an approximate operation (default mode, wave32: the
/// operations a body lowers to do not depend on the mode's approximation status).
fn approximate(row: &Row, cache: &mut HashMap<Vec<u32>, bool>) -> bool {
    *cache.entry(row.encoding.clone()).or_insert_with(|| {
        rdnaprobe_recompiler::lower_words(
            &row.encoding,
            FloatMode::DEFAULT,
            Wave::W32,
            Target::Gfx1030,
        )
        .is_ok_and(|k| {
            k.exprs
                .iter()
                .any(|e| matches!(e, Expr::FloatUn { op, .. } if FloatUn::is_approximate(*op)))
        })
    })
}

/// Distance in units in the last place between two f32 bit patterns (through the ordered
/// integer line; NaN against a number counts as the full distance).
fn ulp32(a: u32, b: u32) -> u64 {
    let ord = |x: u32| -> i64 {
        if x & 0x8000_0000 != 0 {
            -i64::from(x & 0x7fff_ffff)
        } else {
            i64::from(x)
        }
    };
    ord(a).abs_diff(ord(b))
}

#[test]
fn lavapipe_agrees_with_the_cpu_model_on_shipped_rows() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    agrees_with_the_cpu_model("lavapipe");
}

#[test]
fn nvidia_agrees_with_the_cpu_model_on_shipped_rows() {
    if let Err(why) = common::vulkan_driver_present("nvidia") {
        if std::env::var("RDNAPROBE_REQUIRE_NVIDIA").is_ok_and(|v| v == "1") {
            panic!("NVIDIA's driver is required (RDNAPROBE_REQUIRE_NVIDIA=1): {why}");
        }
        eprintln!("skipped: {why}");
        return;
    }
    agrees_with_the_cpu_model("nvidia");
}

fn agrees_with_the_cpu_model(driver: &str) {
    let inputs = common::repo_files("datasets/rdna2", "csv");
    let dir = common::scratch_dir(&format!("{driver}-vs-cpu"));
    let cpu = replay(&inputs, "cpu", &dir.join("cpu.csv"));
    let lvp = replay(
        &inputs,
        &format!("vulkan:{driver}"),
        &dir.join(format!("{driver}.csv")),
    );
    assert_eq!(cpu.len(), lvp.len());
    assert!(cpu.len() > 1000, "only {} rows", cpu.len());

    let mut cache = HashMap::new();
    let (mut exact_rows, mut exact_same) = (0usize, 0usize);
    let mut differ: Vec<String> = vec![];
    // instruction mnemonic -> (rows, differing rows, max ULP of out0)
    let mut approx: BTreeMap<String, (usize, usize, u64)> = BTreeMap::new();
    for (c, v) in cpu.iter().zip(&lvp) {
        assert_eq!(c.encoding, v.encoding);
        assert_eq!(c.inputs, v.inputs);
        let same = c.outputs == v.outputs && c.extra.get(1) == v.extra.get(1);
        if approximate(c, &mut cache) {
            let name = c
                .instruction
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_owned();
            let e = approx.entry(name).or_default();
            e.0 += 1;
            if !same {
                e.1 += 1;
                if let (Some(a), Some(b)) = (c.outputs[0], v.outputs[0]) {
                    e.2 = e.2.max(ulp32(a, b));
                }
            }
            continue;
        }
        exact_rows += 1;
        if same {
            exact_same += 1;
        } else if differ.len() < 40 {
            differ.push(format!(
                "{} in {:08x?}: cpu {:08x?} {:?}, {driver} {:08x?} {:?}",
                c.instruction,
                c.inputs,
                c.outputs,
                c.extra.get(1),
                v.outputs,
                v.extra.get(1)
            ));
        }
    }
    for (name, (rows, diff, ulp)) in &approx {
        eprintln!("approximate {name}: {rows} rows, {diff} differ, max {ulp} ulp (out0)");
    }
    let share = exact_same as f64 / exact_rows as f64;
    eprintln!(
        "{driver} = cpu on {exact_same} of {exact_rows} non-approximate rows ({:.3}%)",
        share * 100.0
    );
    for d in &differ {
        eprintln!("differs: {d}");
    }
    assert!(
        share >= MIN_AGREEMENT,
        "{driver} matches the CPU model on {exact_same} of {exact_rows} non-approximate rows"
    );
}
