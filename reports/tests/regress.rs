//! `regress` on crafted files: one row per change class (fixed, regressed, changed-but-equal-
//! class, same, new, gone), counted per instruction x mode; and two backends of one file.

use std::path::{Path, PathBuf};

use rdnaprobe_reports::regress::{regress, Change, Side};
use rdnaprobe_reports::Options;

const HEADER: &str = "instruction,encoding,wave,ieee,dx10_clamp,denorm32,denorm16,round32,round16,fp16_overflow,in0,in1,in2,in3,in4,in5,out0,out1,out2,out3,out4,out5,out6,out7,out8,out9,out10,out11,out12,out13,out14,out15,gfx,source,note";

/// A v_add_f32 row with inputs (a, 0) and out0 `out`; `tail` appends backend/status cells.
fn row(a: u32, out: u32, round: u8, tail: &str) -> String {
    format!(
        "\"v_add_f32 v10, v4, v5\",0x06140b04,32,1,1,3,3,{round},0,0,0x{a:08x},0x00000000,0x00000000,0x00000000,0x00000000,0x00000000,0x{out:08x},,,,,,,,,,,,,,,,gfx1036,test,{tail}"
    )
}

fn write(dir: &Path, name: &str, header_extra: &str, rows: &[String]) -> PathBuf {
    let path = dir.join(name);
    let mut text = format!("{HEADER}{header_extra}\n");
    for r in rows {
        text.push_str(r);
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

fn side(label: &str, files: Vec<PathBuf>, backend: Option<&str>) -> Side {
    Side {
        label: label.into(),
        files,
        backend: backend.map(str::to_string),
    }
}

const ONE: u32 = 0x3f80_0000;

#[test]
fn every_change_class_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    // Hardware: a + 0 = a. Rows keyed by in0.
    let hw: Vec<String> = [1u32, 2, 3, 4, 5, 6]
        .iter()
        .map(|k| row(ONE + k * 16, ONE + k * 16, 0, ""))
        .collect();
    let reference = write(dir.path(), "hw.csv", "", &hw);
    let b = |k: u32, d: i64, backend: &str| {
        let v = (i64::from(ONE + k * 16) + d) as u32;
        row(ONE + k * 16, v, 0, &format!(",{backend},ok"))
    };
    // 1 regressed (exact -> 1 ulp), 2 fixed (wrong -> exact), 3 changed (+1 -> -1 ulp),
    // 4 same, 5 new (NEW only), 6 gone (OLD only).
    let old = write(
        dir.path(),
        "old.csv",
        ",backend,status",
        &[
            b(1, 0, "cpu"),
            b(2, 1000, "cpu"),
            b(3, 1, "cpu"),
            b(4, 0, "cpu"),
            b(6, 0, "cpu"),
        ],
    );
    let new = write(
        dir.path(),
        "new.csv",
        ",backend,status",
        &[
            b(1, 1, "cpu"),
            b(2, 0, "cpu"),
            b(3, -1, "cpu"),
            b(4, 0, "cpu"),
            b(5, 0, "cpu"),
        ],
    );
    let r = regress(
        &[reference],
        &side("old", vec![old], None),
        &side("new", vec![new], None),
        &Options::default(),
    )
    .unwrap();
    for (name, n) in [
        ("fixed", 1),
        ("regressed", 1),
        ("changed", 1),
        ("same", 1),
        ("new", 1),
        ("gone", 1),
    ] {
        assert_eq!(r.totals[name], n, "{name}: {:?}", r.totals);
    }
    assert_eq!(r.groups.len(), 1);
    let g = &r.groups[0];
    assert_eq!(g.instruction, "v_add_f32");
    assert!(
        g.mode.starts_with("ieee=1 clamp=1 d32=3 d16=3 r32=0"),
        "{}",
        g.mode
    );
    assert_eq!((g.fixed, g.regressed, g.changed), (1, 1, 1));
    assert_eq!(r.regressed(), 1);
    let first = &r.examples[0];
    assert_eq!(first.change, Change::Regressed);
    assert_eq!(first.old, "exact");
    assert_eq!(first.new, "ulp<=1 (1 ulp)");
    assert!(first.repro.contains("0x3f800010"), "{}", first.repro);
    let mut table = Vec::new();
    rdnaprobe_reports::regress::write_table(&mut table, &r).unwrap();
    let table = String::from_utf8(table).unwrap();
    assert!(table.contains("REGRESSED"), "{table}");
}

#[test]
fn groups_by_mode_and_reads_two_backends_of_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let hw = vec![row(ONE, ONE, 0, ""), row(ONE, ONE, 3, "")];
    let reference = write(dir.path(), "hw.csv", "", &hw);
    // One file, two backends: cpu exact in both modes; lavapipe 1 ulp off in round-toward-zero.
    let both = write(
        dir.path(),
        "both.csv",
        ",backend,status",
        &[
            row(ONE, ONE, 0, ",cpu,ok"),
            row(ONE, ONE, 3, ",cpu,ok"),
            row(ONE, ONE, 0, ",vulkan:lavapipe,ok"),
            row(ONE, ONE + 1, 3, ",vulkan:lavapipe,ok"),
        ],
    );
    let r = regress(
        std::slice::from_ref(&reference),
        &side("both", vec![both.clone()], Some("cpu")),
        &side("both", vec![both.clone()], Some("vulkan:lavapipe")),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(r.totals["regressed"], 1);
    assert_eq!(r.totals["same"], 1);
    assert_eq!(r.groups.len(), 1, "only the r32=3 group moved");
    assert!(r.groups[0].mode.contains("r32=3"), "{}", r.groups[0].mode);
    assert_eq!(r.old_backends, vec!["cpu", "vulkan:lavapipe"]);
    // The other way round it is a fix, and nothing regressed.
    let back = regress(
        std::slice::from_ref(&reference),
        &side("both", vec![both.clone()], Some("vulkan:lavapipe")),
        &side("both", vec![both.clone()], Some("cpu")),
        &Options::default(),
    )
    .unwrap();
    assert_eq!((back.totals["fixed"], back.regressed()), (1, 0));
    // A backend the file does not hold is an error naming the ones it does.
    let err = regress(
        &[reference],
        &side("both", vec![both.clone()], Some("vulkan:nvidia")),
        &side("both", vec![both], Some("cpu")),
        &Options::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("vulkan:nvidia") && err.contains("cpu"),
        "{err}"
    );
}
