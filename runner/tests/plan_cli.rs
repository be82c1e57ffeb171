//! `rdnaprobe plan`: shard ranges that tile the sweep, and `--estimate` from a measured local
//! sample (bytes per row taken from the sample's real output) or a given rate.

mod common;

use std::path::Path;

use common::{add_f32_spec, command, ok, stdout};

// 36 x 3 input rows x 2 modes = 216 rows.

fn plan(dir: &Path, extra: &[&str]) -> String {
    let o = command(["plan"])
        .arg(dir.join("spec.toml"))
        .args(extra)
        .output()
        .expect("plan");
    ok(&o);
    stdout(&o)
}

#[test]
fn shards_and_estimates() {
    let dir = common::scratch_dir("plan-cli");
    std::fs::write(dir.join("spec.toml"), add_f32_spec("plan_test", false)).expect("spec");
    let out = plan(&dir, &["--shards", "4"]);
    assert!(out.contains("216 rows in 4 shard(s)"), "{out}");
    for range in [
        "rows 0..54 (54)",
        "rows 54..108",
        "rows 108..162",
        "rows 162..216",
    ] {
        assert!(out.contains(range), "{range}: {out}");
    }
    // A given rate: 216 rows at 0.06 rows/s is one device hour.
    let out = plan(
        &dir,
        &["--shards", "2", "--estimate", "--rows-per-s", "0.06"],
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("estimate:"))
        .expect("estimate line");
    assert!(
        line.contains("= 1.000 device hours = 3600.0 device seconds (0.500 h wall per shard"),
        "{line}"
    );
    // The output size comes from the sample's file: a sweep row of this spec is ~300 bytes.
    let bytes: f64 = line
        .rsplit_once('(')
        .and_then(|(_, b)| b.strip_suffix(" B/row)"))
        .and_then(|b| b.parse().ok())
        .expect("bytes per row");
    assert!((150.0..600.0).contains(&bytes), "{line}");
    // Measured here: the rate is positive and named.
    let out = plan(&dir, &["--estimate"]);
    assert!(out.contains("measured: 216 rows in"), "{out}");
}
