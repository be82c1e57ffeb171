//! `rdnaprobe replay` of wave datasets (docs/dataset-format.md, "Wave contract"): the
//! hand-computed rows of datasets/wave/*.csv and the waves written from the reference notes
//! (datasets/notes) come back bit for bit on `cpu` and on
//! `vulkan:lavapipe` (lane outputs and the uniform outputs of each wave's first row), and a
//! bad wave cell is an error naming file, line and column, exit code 2.

mod common;

use std::path::Path;

use rdnaprobe_dataset::{read_dataset, Dataset, WaveCol, WaveLayout};

const UNIFORM_OUT: [WaveCol; 6] = WaveCol::UNIFORM_OUT;

fn replay(input: &Path, backend: &str, out: &Path) {
    let o = common::command(["replay", "-b", backend, "-o"])
        .arg(out)
        .arg(input)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::stderr(&o));
}

/// Compares a replay output with the dataset's expected cells; returns the rows compared.
fn check(expected: &Dataset, got: &Dataset, what: &str) -> usize {
    let layout = WaveLayout::from_columns(&expected.extra_columns).expect("wave dataset");
    let got_layout = WaveLayout::from_columns(&got.extra_columns).expect("wave columns kept");
    assert_eq!(expected.rows.len(), got.rows.len(), "{what}: row count");
    for (i, (e, g)) in expected.rows.iter().zip(&got.rows).enumerate() {
        let status = &g.extra[1];
        assert_eq!(status, "ok", "{what}: row {i} ({})", e.instruction);
        assert_eq!(
            e.outputs, g.outputs,
            "{what}: row {i} ({}) lane outputs",
            e.instruction
        );
        // an empty expected cell is "not captured" (a later row's, or one a wave leaves out)
        for c in UNIFORM_OUT
            .into_iter()
            .filter(|&c| layout.has(c) && !layout.cell(e, c).is_empty())
        {
            assert_eq!(
                layout.cell(e, c),
                got_layout.cell(g, c),
                "{what}: row {i} ({}) {}",
                e.instruction,
                c.name()
            );
        }
    }
    expected.rows.len()
}

#[test]
fn hand_computed_wave_rows_replay_on_cpu_and_lavapipe() {
    let dir = common::scratch_dir("wave-replay");
    let backends = common::cpu_and_lavapipe();
    // the hand-computed waves, and the waves written from the reference notes
    let mut files = common::repo_files("datasets/wave", "csv");
    files.extend(common::repo_files("datasets/notes", "csv"));
    for input in files {
        rdnaprobe_dataset::verify(&input).unwrap_or_else(|e| panic!("{e}"));
        let expected = read_dataset(&input).unwrap();
        if WaveLayout::from_columns(&expected.extra_columns).is_none() {
            continue; // a lane-contract file of datasets/notes
        }
        for backend in &backends {
            let out = dir.join(format!("{}.csv", backend.replace(':', "-")));
            replay(&input, backend, &out);
            let got = read_dataset(&out).unwrap();
            let n = check(
                &expected,
                &got,
                &format!("{} on {backend}", input.display()),
            );
            assert!(n > 0);
        }
    }
}

#[test]
fn a_bad_wave_cell_is_an_error_with_its_location() {
    let dir = common::scratch_dir("wave-bad");
    let input = common::repo_root().join("datasets/wave/crosslane.csv");
    // line 3 (the second row of the first wave) repeats exec_in with another value
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(input)
        .unwrap();
    let mut records: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let col = records[0].iter().position(|c| c == "exec_in").unwrap();
    let mut cells: Vec<String> = records[2].iter().map(str::to_string).collect();
    cells[col] = "0x1".into();
    records[2] = csv::StringRecord::from(cells);
    let bad = dir.join("bad.csv");
    let mut w = csv::Writer::from_path(&bad).unwrap();
    for rec in &records {
        w.write_record(rec).unwrap();
    }
    w.flush().unwrap();
    let o = common::command(["replay", "-b", "cpu"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = common::stderr(&o);
    assert!(
        err.contains(&format!("bad.csv:3:{} (exec_in)", col + 1)),
        "{err}"
    );
}

#[test]
fn a_body_that_never_ends_is_a_row_error_on_every_backend() {
    let dir = common::scratch_dir("wave-watchdog");
    let input = dir.join("loop.csv");
    let mut text = format!("{},wave_id,lane\n", rdnaprobe_dataset::V1_COLUMNS.join(","));
    // v_mov_b32 v10, 1; s_branch -1
    for lane in 0..2 {
        text += &format!(
            "\"v_mov_b32 v10, 1; s_branch -1\",0x7e140281 0xbf82ffff,32,,,,,,,,{},{},gfx1030,,,w,{lane}\n",
            ["0x0"; 6].join(","),
            [""; 16].join(",")
        );
    }
    std::fs::write(&input, text).unwrap();
    let backends = common::cpu_and_lavapipe();
    for backend in backends {
        let out = dir.join(format!("{}.csv", backend.replace(':', "-")));
        replay(&input, backend, &out);
        let got = read_dataset(&out).unwrap();
        for row in &got.rows {
            assert_eq!(
                row.extra[1], "error: watchdog: more than 65536 blocks executed",
                "{backend}"
            );
            assert_eq!(row.outputs, [None; 16]);
        }
    }
}

#[test]
fn uniform_outputs_are_written_even_when_the_input_lacks_their_columns() {
    let dir = common::scratch_dir("wave-uniform-columns");
    let input = dir.join("bare.csv");
    let mut text = format!(
        "{},wave_id,lane,exec_in,lds_in\n",
        rdnaprobe_dataset::V1_COLUMNS.join(",")
    );
    // s_mov_b32 s3, 7
    for lane in 0..2 {
        let uniform = if lane == 0 {
            "0x3,0x00000011 0x00000022"
        } else {
            ","
        };
        text += &format!(
            "\"s_mov_b32 s3, 7\",0xbe830387,32,,,,,,,,{},{},gfx1030,,,w,{lane},{uniform}\n",
            ["0x0"; 6].join(","),
            [""; 16].join(",")
        );
    }
    std::fs::write(&input, text).unwrap();
    let out = dir.join("out.csv");
    replay(&input, "cpu", &out);
    let got = read_dataset(&out).unwrap();
    let names: Vec<&str> = got.extra_columns.iter().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "backend", "status", "wave_id", "lane", "exec_in", "lds_in", "s_out", "exec_out",
            "vcc_out", "scc_out", "lds_out"
        ],
        "no mem_out: the dataset has no memory region"
    );
    let layout = WaveLayout::from_columns(&got.extra_columns).unwrap();
    let first = &got.rows[0];
    assert_eq!(first.extra[1], "ok");
    let mut s = vec!["0x00000000"; 16];
    s[3] = "0x00000007";
    assert_eq!(layout.cell(first, WaveCol::SOut), s.join(" "));
    assert_eq!(layout.cell(first, WaveCol::ExecOut), "0x0000000000000003");
    assert_eq!(layout.cell(first, WaveCol::VccOut), "0x0000000000000000");
    assert_eq!(layout.cell(first, WaveCol::SccOut), "0");
    let mut lds = vec!["0x00000000"; 128];
    lds[0] = "0x00000011";
    lds[1] = "0x00000022";
    assert_eq!(layout.cell(first, WaveCol::LdsOut), lds.join(" "));
    for c in UNIFORM_OUT {
        assert_eq!(
            layout.cell(&got.rows[1], c),
            "",
            "{} on the second row",
            c.name()
        );
    }
}

#[test]
fn an_image_body_runs_for_each_wave_s_in_and_a_bad_t_sharp_is_a_row_error() {
    let dir = common::scratch_dir("wave-images");
    let input = dir.join("img.csv");
    let mut text = format!(
        "{},wave_id,lane,s_in,mem_in\n",
        rdnaprobe_dataset::V1_COLUMNS.join(",")
    );
    // the T# in s[8:15], relocated by the region's address; image_load v10, v4, s[8:15]
    // dmask:0x1 dim:SQ_RSRC_IMG_1D (llvm-mc-19 -mcpu=gfx1030)
    let body =
        "\"s_lshr_b64 s[40:41], s[16:17], 8; s_add_u32 s8, s8, s40; s_addc_u32 s9, s9, s41; \
                image_load v10, v4, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D\",\
                0x90a88810 0x80082808 0x82092909 0xf0000100 0x00020a04";
    // 4-texel 1D T#s: 32_UINT, 8_8_8_8_UNORM, and TYPE 0 (no image type)
    let tsharp = |word1: u32, word3: u32| {
        let mut s = vec![0u32; 8];
        s.extend([0, word1, 0, word3, 0, 0, 0, 0]);
        s.iter()
            .map(|d| format!("0x{d:08x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let waves = [
        ("u32", tsharp(0xc140_0000, 0x8000_0fac)),
        ("unorm", tsharp(0xc380_0000, 0x8000_0fac)),
        ("bad", tsharp(0xc140_0000, 0x0000_0fac)),
    ];
    for (id, s_in) in &waves {
        for lane in 0..5u32 {
            let uniform = if lane == 0 {
                format!("{s_in},0x000000ff 0x00000033 0x00000066 0x00000000")
            } else {
                ",".into()
            };
            text += &format!(
                "{body},32,,,,,,,,0x{lane:08x},0x0,0x0,0x0,0x0,0x0,{},gfx1030,,,{id},{lane},{uniform}\n",
                [""; 16].join(",")
            );
        }
    }
    std::fs::write(&input, text).unwrap();
    let backends = common::cpu_and_lavapipe();
    for backend in backends {
        let out = dir.join(format!("{}.csv", backend.replace(':', "-")));
        replay(&input, backend, &out);
        let got = read_dataset(&out).unwrap();
        let out0: Vec<Option<u32>> = got.rows.iter().map(|r| r.outputs[0]).collect();
        // one body, two kernels: the texels as 32-bit integers, then as 8-bit UNORM X
        assert_eq!(
            out0[..5],
            [Some(0xff), Some(0x33), Some(0x66), Some(0), Some(0)],
            "{backend}"
        );
        let unorm = [0x3f80_0000, 0x3e4c_cccd, 0x3ecc_cccd, 0, 0].map(Some);
        assert_eq!(out0[5..10], unorm, "{backend}");
        for row in &got.rows[10..] {
            assert_eq!(
                row.extra[1],
                "error: word 3: image_load: T# word3 TYPE 0 is not an image type (8..15)",
                "{backend}"
            );
        }
    }
}
