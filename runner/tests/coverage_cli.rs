//! `rdnaprobe coverage` end to end: the table view (one line per family and a total), the
//! JSON view (counts that add up, unlowered opcodes with a reason, spelled for the target),
//! and exit code 2 for an unknown target.

mod common;

use common::{rdnaprobe, text};

#[test]
fn table_has_one_line_per_family_and_a_total() {
    let out = rdnaprobe(["coverage"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["family", "lowered", "total"]
    );
    // 20 encoding families, then the total
    assert_eq!(lines.len(), 22, "{stdout}");
    let cells = |l: &str| -> (String, u64, u64) {
        let c: Vec<&str> = l.split_whitespace().collect();
        (
            c[0].to_string(),
            c[1].parse().unwrap(),
            c[2].parse().unwrap(),
        )
    };
    let rows: Vec<_> = lines[1..21].iter().map(|l| cells(l)).collect();
    let (all, lowered, total) = cells(lines[21]);
    assert_eq!(all, "all");
    assert_eq!(lowered, rows.iter().map(|r| r.1).sum::<u64>());
    assert_eq!(total, rows.iter().map(|r| r.2).sum::<u64>());
    let vop2 = rows.iter().find(|r| r.0 == "VOP2").expect("a VOP2 line");
    assert!(vop2.1 > 0 && vop2.1 <= vop2.2, "{vop2:?}");
    // image loads, stores, image_get_resinfo, the 16 atomics, the BY and PCK2/PCK4 loads, the
    // two packed gathers and image_gather4h, and image_sample and image_gather4 at LOD 0, an explicit LOD, the
    // derivatives' LOD and its clamp (with _c and _o forms, image_gather4_c's included), the
    // 32 user-derivative samples (_d, _cd, each with _c, _cl, _o and _g16), the 16 bias
    // forms of image_sample and image_gather4 and image_get_lod lower; MSAA, BVH and the
    // BY/PCK2/PCK4 stores do not
    let mimg = rows.iter().find(|r| r.0 == "MIMG").expect("a MIMG line");
    assert_eq!(mimg.1, 119);
}

#[test]
fn json_lists_families_and_unlowered_opcodes_with_reasons() {
    let out = rdnaprobe(["coverage", "--format", "json", "--gfx", "gfx1010"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let families = v["families"].as_array().expect("families");
    assert_eq!(families.len(), 20);
    let unlowered = v["unlowered"].as_array().expect("unlowered");
    let sum = |k: &str| -> u64 { families.iter().map(|f| f[k].as_u64().unwrap()).sum() };
    assert_eq!(sum("total") - sum("lowered"), unlowered.len() as u64);
    let gws = unlowered
        .iter()
        .find(|u| u["mnemonic"] == "ds_gws_init")
        .expect("ds_gws_init is unlowered");
    assert_eq!(gws["family"], "DS");
    assert!(gws["reason"].as_str().unwrap().contains("global wave sync"));
    // the rest of the LDS lowers under the wave contract
    assert!(!unlowered.iter().any(|u| u["mnemonic"] == "ds_read_u8"));
    // cross-lane ops lower under the wave contract
    assert!(!unlowered.iter().any(|u| u["mnemonic"] == "v_readlane_b32"));
    assert!(unlowered
        .iter()
        .all(|u| !u["reason"].as_str().unwrap().is_empty()));
    assert!(!unlowered.iter().any(|u| u["mnemonic"] == "v_add_f32"));
}

#[test]
fn unknown_target_exits_2() {
    let out = rdnaprobe(["coverage", "--gfx", "gfx900"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("gfx900"),
        "{}",
        text(&out.stderr)
    );
}
