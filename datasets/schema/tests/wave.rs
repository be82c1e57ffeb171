//! The wave contract's columns: grouping rows into waves, uniform cells, and errors that name
//! the file, line and column.

use rdnaprobe_dataset::{
    group_waves, parse_dataset, DatasetError, WaveCol, WaveLayout, WaveOutputs, V1_COLUMNS,
};

const WAVE_COLS: &str = "wave_id,lane,exec_in,s_in,lds_in,lds_bytes,s_out,exec_out,scc_out";

fn header() -> String {
    format!("{},{WAVE_COLS}", V1_COLUMNS.join(","))
}

/// A row of `v_mov_b32 v10, v4` with in0 = `in0` and the wave cells `wave`.
fn row(in0: u32, wave: &str) -> String {
    format!(
        "v_mov_b32 v10 v4,0x7e140304,32,,,,,,,,0x{in0:08x},0x0,0x0,0x0,0x0,0x0,{},gfx1030,,,{wave}",
        ",".repeat(15)
    )
}

fn dataset(rows: &[String]) -> String {
    let mut s = header();
    for r in rows {
        s.push('\n');
        s.push_str(r);
    }
    s.push('\n');
    s
}

#[test]
fn rows_group_into_waves_with_their_uniform_cells() {
    let text = dataset(&[
        row(1, "a,0,0x5,0x11 0x22,0x1,,,,"),
        row(2, "a,2,,,,,,,"),
        row(3, "a,,0x5,0x11 0x22,,,,,"),
        row(4, "b,3,,,,1024,,,"),
    ]);
    let ds = parse_dataset(text.as_bytes(), "w.csv").unwrap();
    let layout = WaveLayout::from_columns(&ds.extra_columns).expect("a wave dataset");
    assert!(layout.has(WaveCol::SOut) && !layout.has(WaveCol::MemIn));
    let waves = group_waves(&ds.rows, &layout).unwrap();
    assert_eq!(waves.len(), 2);
    assert_eq!((waves[0].start, waves[0].end), (0, 3));
    assert_eq!(
        waves[0].lanes,
        vec![0, 2, 3],
        "an empty lane follows the previous one"
    );
    assert_eq!(waves[0].inputs.exec, Some(5));
    assert_eq!(waves[0].inputs.exec_mask(32), 5);
    assert_eq!(&waves[0].inputs.sgprs[..3], &[0x11, 0x22, 0]);
    assert_eq!(
        waves[0].inputs.lds.len(),
        512 / 4,
        "lds_in rounds up to 512 bytes"
    );
    assert_eq!(waves[0].inputs.lds[0], 1);
    assert_eq!(waves[1].lanes, vec![3]);
    assert_eq!(waves[1].inputs.exec_mask(32), 0xffff_ffff);
    assert_eq!(waves[1].inputs.lds, vec![0; 256]);
}

#[test]
fn a_v1_dataset_has_no_wave_layout() {
    let ds = parse_dataset(format!("{}\n", V1_COLUMNS.join(",")).as_bytes(), "v1.csv").unwrap();
    assert!(WaveLayout::from_columns(&ds.extra_columns).is_none());
    assert!(WaveLayout::from_columns(&["my_note".to_string()]).is_none());
}

fn error_of(rows: &[String]) -> String {
    match parse_dataset(dataset(rows).as_bytes(), "w.csv") {
        Err(e @ DatasetError::Cell { .. }) => e.to_string(),
        other => panic!("expected a cell error, got {other:?}"),
    }
}

#[test]
fn s_in_reaches_s103_around_the_contracts_sgprs() {
    let mut s: Vec<String> = (0..104u32)
        .map(|k| format!("0x{:x}", if (16..24).contains(&k) { 0 } else { k + 1 }))
        .collect();
    let text = dataset(&[row(1, &format!("a,0,,{},,,,,", s.join(" ")))]);
    let ds = parse_dataset(text.as_bytes(), "w.csv").unwrap();
    let layout = WaveLayout::from_columns(&ds.extra_columns).unwrap();
    let w = &group_waves(&ds.rows, &layout).unwrap()[0];
    assert_eq!(w.inputs.sgprs.len(), 104);
    assert_eq!(
        (w.inputs.sgprs[15], w.inputs.sgprs[16], w.inputs.sgprs[24]),
        (16, 0, 25)
    );
    assert_eq!(w.inputs.sgprs[103], 104);
    s[20] = "0x5".into();
    let e = error_of(&[row(1, &format!("a,0,,{},,,,,", s.join(" ")))]);
    assert!(e.contains("dword 21: s20 is set by the contract"), "{e}");
}

#[test]
fn bad_wave_cells_name_file_line_and_column() {
    // 36 = first wave column (wave_id), 37 lane, 38 exec_in, 39 s_in.
    let e = error_of(&[row(1, "a,0,0x5,,,,,,"), row(2, "a,1,0x7,,,,,,")]);
    assert!(e.starts_with("w.csv:3:38 (exec_in): `0x7`"), "{e}");
    assert!(e.contains("line 2"), "{e}");
    let e = error_of(&[row(1, "a,4,,,,,,,"), row(2, "a,4,,,,,,,")]);
    assert!(e.starts_with("w.csv:3:37 (lane)"), "{e}");
    let e = error_of(&[row(1, "a,32,,,,,,,")]);
    assert!(e.starts_with("w.csv:2:37 (lane)"), "{e}");
    let e = error_of(&[row(1, ",0,,,,,,,")]);
    assert!(e.starts_with("w.csv:2:36 (wave_id)"), "{e}");
    let e = error_of(&[
        row(1, "a,0,,,,,,,"),
        row(2, "b,0,,,,,,,"),
        row(3, "a,1,,,,,,,"),
    ]);
    assert!(
        e.starts_with("w.csv:4:36 (wave_id)") && e.contains("consecutive"),
        "{e}"
    );
    let s17 = vec!["0x1"; 17].join(" ");
    let e = error_of(&[row(1, &format!("a,0,,{s17},,,,,"))]);
    assert!(e.starts_with("w.csv:2:39 (s_in)"), "{e}");
    assert!(e.contains("s16 is set by the contract"), "{e}");
    let s105 = vec!["0x0"; 105].join(" ");
    let e = error_of(&[row(1, &format!("a,0,,{s105},,,,,"))]);
    assert!(
        e.starts_with("w.csv:2:39 (s_in)") && e.contains("at most 104"),
        "{e}"
    );
    let e = error_of(&[row(1, "a,0,,,0x1 0x2,4,,,")]);
    assert!(
        e.starts_with("w.csv:2:40 (lds_in)") && e.contains("do not fit"),
        "{e}"
    );
    let e = error_of(&[row(1, "a,0,,,,65540,,,")]);
    assert!(e.starts_with("w.csv:2:41 (lds_bytes)"), "{e}");
    let e = error_of(&[row(1, "a,0,,,,,0x1 0x2,,")]);
    assert!(e.starts_with("w.csv:2:42 (s_out)"), "{e}");
    let e = error_of(&[row(1, "a,0,,,,,,,2")]);
    assert!(e.starts_with("w.csv:2:44 (scc_out)"), "{e}");
}

#[test]
fn outputs_are_written_on_the_first_row_only() {
    let ds = parse_dataset(dataset(&[row(1, "a,0,,,,,,,")]).as_bytes(), "w.csv").unwrap();
    let layout = WaveLayout::from_columns(&ds.extra_columns).unwrap();
    let mut first = ds.rows[0].clone();
    let out = WaveOutputs {
        sgprs: [7; 16],
        exec: 0xffff_ffff_0000_0003,
        vcc: 1,
        scc: true,
        ..WaveOutputs::default()
    };
    layout.set_outputs(&mut first, Some(&out));
    assert_eq!(layout.cell(&first, WaveCol::ExecOut), "0x0000000000000003");
    assert_eq!(layout.cell(&first, WaveCol::SccOut), "1");
    assert_eq!(
        layout
            .cell(&first, WaveCol::SOut)
            .split(' ')
            .collect::<Vec<_>>(),
        vec!["0x00000007"; 16]
    );
    layout.set_outputs(&mut first, None);
    assert_eq!(layout.cell(&first, WaveCol::ExecOut), "");
}

#[test]
fn replay_output_columns_add_the_missing_uniform_outputs() {
    let cols = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let v1 = cols(&["annotation"]);
    assert_eq!(
        WaveLayout::output_columns(&v1),
        v1,
        "a lane dataset is unchanged"
    );
    assert_eq!(
        WaveLayout::output_columns(&cols(&["wave_id", "vcc_out", "mem_bytes"])),
        cols(&[
            "wave_id",
            "vcc_out",
            "mem_bytes",
            "s_out",
            "exec_out",
            "scc_out",
            "mem_out"
        ])
    );
    assert_eq!(
        WaveLayout::output_columns(&cols(&["lane", "lds_bytes", "lds_out"])),
        cols(&[
            "lane",
            "lds_bytes",
            "lds_out",
            "s_out",
            "exec_out",
            "vcc_out",
            "scc_out"
        ])
    );
}

#[test]
fn repeated_uniform_cells_read_like_empty_ones_and_keep_their_errors() {
    let first = "a,0,0x5,0x11 0x22,0x1 0x2,1024,,,";
    let repeated = dataset(&[
        row(1, first),
        row(2, "a,1,0x5,0x11 0x22,0x1 0x2,1024,,,"),
        row(3, "a,,,0x11 0x22,,1024,,,"),
        row(4, "b,0,,,,,,,"),
    ]);
    let empty = dataset(&[
        row(1, first),
        row(2, "a,1,,,,,,,"),
        row(3, "a,,,,,,,,"),
        row(4, "b,0,,,,,,,"),
    ]);
    let waves = |text: &str| {
        let ds = parse_dataset(text.as_bytes(), "w.csv").unwrap();
        let layout = WaveLayout::from_columns(&ds.extra_columns).unwrap();
        group_waves(&ds.rows, &layout).unwrap()
    };
    let got = waves(&repeated);
    assert_eq!(got, waves(&empty));
    assert_eq!(got[0].lanes, vec![0, 1, 2]);
    assert_eq!(got[0].inputs.lds.len(), 256);
    // A row that repeats every uniform cell still has its lane checked.
    let e = error_of(&[row(1, first), row(2, "a,x,0x5,0x11 0x22,0x1 0x2,1024,,,")]);
    assert!(e.starts_with("w.csv:3:37 (lane)"), "{e}");
    let e = error_of(&[row(1, first), row(2, "a,0,0x5,,,,,,")]);
    assert!(
        e.starts_with("w.csv:3:37 (lane)") && e.contains("ascend"),
        "{e}"
    );
    // Repeated contents with another size: the pair is read again, the contents blamed.
    let e = error_of(&[row(1, "a,0,,,0x1 0x2,,,,"), row(2, "a,1,,,0x1 0x2,4,,,")]);
    assert!(
        e.starts_with("w.csv:3:40 (lds_in)") && e.contains("do not fit"),
        "{e}"
    );
    // group_waves on rows that skipped the reader's checks reports a bad later lane too.
    let ds = parse_dataset(repeated.as_bytes(), "w.csv").unwrap();
    let layout = WaveLayout::from_columns(&ds.extra_columns).unwrap();
    let mut rows = ds.rows.clone();
    rows[1].extra[1] = "x".into();
    let e = group_waves(&rows, &layout).unwrap_err();
    assert!(e.starts_with("row 1: lane:"), "{e}");
}
