//! `rdnaprobe diff` and `rdnaprobe report` on the Parquet files `rdnaprobe export --parquet`
//! writes: the same diff CSV, table, exit code and report summary as on the CSV files, with
//! either side Parquet; a truncated Parquet file is exit 2 naming the file; a binary built
//! without the `report` feature (no polars) says it cannot read Parquet, exit 2.

mod common;

use std::path::{Path, PathBuf};

use common::{rdnaprobe, s, scratch_dir, text};

#[cfg(not(feature = "report"))]
#[test]
fn a_binary_without_polars_says_it_cannot_read_parquet() {
    let dir = scratch_dir("parquet_cli_no_polars");
    let (r, _) = pair(&dir, 10);
    let pq = dir.join("cand.data");
    std::fs::write(&pq, b"PAR1\x15\x04 not more\x00PAR1").expect("write");
    let out = rdnaprobe(["diff", &s(&r), &s(&pq)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("cand.data") && err.contains("without Parquet support"),
        "{err}"
    );
}

/// A `v_add_f32` dataset of `rows` rows and a cpu replay of it that differs on some rows.
fn pair(dir: &Path, rows: u32) -> (PathBuf, PathBuf) {
    let header = "instruction,encoding,wave,ieee,dx10_clamp,denorm32,denorm16,round32,round16,fp16_overflow,in0,in1,in2,in3,in4,in5,out0,out1,out2,out3,out4,out5,out6,out7,out8,out9,out10,out11,out12,out13,out14,out15,gfx,source,note";
    let mut r = format!("{header}\n");
    let mut c = format!("{header},backend,status\n");
    let empty = ",".repeat(15);
    for i in 0..rows {
        let (a, b) = (i.wrapping_mul(0x9e37_79b9), i.wrapping_mul(0x85eb_ca6b));
        let out = f32::from_bits(a).to_bits() ^ b.rotate_left(5);
        let got = match i % 17 {
            3 => out.wrapping_add(1),
            5 => out ^ 0x0100_0000,
            _ => out,
        };
        let ieee = i % 2;
        let common = format!(
            "\"v_add_f32 v10, v4, v5\",0x06140b04,32,{ieee},1,3,3,0,0,0,0x{a:08x},0x{b:08x},0x00000000,0x00000000,0x00000000,0x00000000"
        );
        r.push_str(&format!("{common},0x{out:08x}{empty},gfx1030,test,\n"));
        c.push_str(&format!(
            "{common},0x{got:08x}{empty},gfx1030,test,,cpu,ok\n"
        ));
    }
    let (rp, cp) = (dir.join("add.csv"), dir.join("add_cpu.csv"));
    std::fs::write(&rp, r).expect("write");
    std::fs::write(&cp, c).expect("write");
    (rp, cp)
}

#[cfg(feature = "report")]
#[test]
fn exported_parquet_diffs_and_reports_as_its_csv() {
    let dir = scratch_dir("parquet_cli");
    let (r, c) = pair(&dir, 3_000);
    let pq = dir.join("pq");
    let out = rdnaprobe(["export", "--parquet", &s(&pq), &s(&r), &s(&c)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let part = |backend: &str| {
        pq.join("datasets/instruction=v_add_f32")
            .join(format!("backend={backend}"))
            .join("part-0.parquet")
    };
    let (rq, cq) = (part("hardware"), part("cpu"));
    assert!(rq.exists() && cq.exists(), "{}", text(&out.stdout));

    let diff = |a: &Path, b: &Path, name: &str| {
        let o = dir.join(name);
        let out = rdnaprobe(["diff", &s(a), &s(b), "-o", &s(&o)]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        (std::fs::read(&o).expect("diff csv"), out.stdout)
    };
    let want = diff(&r, &c, "csv.csv");
    assert!(text(&want.1).contains("3000 rows"), "{}", text(&want.1));
    for (a, b, name) in [
        (&rq, &cq, "pq.csv"),
        (&r, &cq, "mixed1.csv"),
        (&rq, &c, "mixed2.csv"),
    ] {
        let got = diff(a, b, name);
        assert!(got.0 == want.0, "{name}: diff CSV differs");
        assert_eq!(text(&got.1), text(&want.1), "{name}: table");
    }

    let report = |inputs: [&Path; 2], name: &str| {
        let o = dir.join(name);
        let out = rdnaprobe(["report", &s(inputs[0]), &s(inputs[1]), "-o", &s(&o)]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        std::fs::read_to_string(o.join("summary.csv")).expect("summary")
    };
    let a = report([&r, &c], "report_csv");
    let b = report([&rq, &cq], "report_pq");
    assert!(a.contains("v_add_f32") && a == b, "{a}\n---\n{b}");

    let truncated = dir.join("truncated.parquet");
    let bytes = std::fs::read(&cq).expect("read");
    std::fs::write(&truncated, &bytes[..bytes.len() - 9]).expect("write");
    let out = rdnaprobe(["diff", &s(&r), &s(&truncated)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("truncated.parquet") && err.contains("truncated or corrupt"),
        "{err}"
    );
}
