//! The diff of wave datasets compares each wave's uniform outputs (`s_out`, `exec_out`,
//! `vcc_out`, `scc_out`, `lds_out`, `mem_out`) besides the lanes' `outN`: a candidate that
//! differs only in one uniform cell is not exact, the CSV names the cell (`s_out[3]`,
//! `vcc_out`, `lds_out[17]`) on the wave's first row only, and the parallel diff (fast block
//! reader and its full-reader fallback) gives what the streaming diff gives, on files of
//! several blocks built from the hand-computed rows of datasets/wave/*.csv.

mod common;

use std::path::{Path, PathBuf};

use rdnaprobe_reports::diff::{diff_files, Options};
use rdnaprobe_reports::output::write_csv_line;
use rdnaprobe_reports::pipeline::diff_paths;
use rdnaprobe_reports::{Class, RowDiff, Summary};

fn wave_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../datasets/wave")
        .join(name)
}

type Table = (csv::StringRecord, Vec<Vec<String>>);

/// `reps` copies of the dataset's rows, each copy's wave ids suffixed with its number.
fn copies(name: &str, reps: usize) -> Table {
    let mut reader = csv::Reader::from_path(wave_file(name)).expect("wave dataset");
    let header = reader.headers().expect("header").clone();
    let id = column(&header, "wave_id");
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("row")).collect();
    let mut out = Vec::new();
    for rep in 0..reps {
        for row in &rows {
            let mut cells: Vec<String> = row.iter().map(str::to_string).collect();
            cells[id] = format!("{}-{rep}", cells[id]);
            out.push(cells);
        }
    }
    (header, out)
}

fn column(header: &csv::StringRecord, name: &str) -> usize {
    header.iter().position(|c| c == name).expect("column")
}

fn write(path: &Path, (header, rows): &Table, crlf: bool) {
    common::write_csv(path, header, rows, crlf);
}

/// CSV bytes and summary of the streaming diff and of the parallel one, which must agree.
fn diff_both(reference: &Path, candidate: &Path) -> (Vec<u8>, Summary, Vec<RowDiff>) {
    let options = Options::default();
    let mut streamed = Vec::new();
    let mut rows = Vec::new();
    let s1 = diff_files(reference, candidate, &options, |d| {
        write_csv_line(&mut streamed, d);
        if d.class != Class::Exact {
            rows.push(d.clone());
        }
        Ok(())
    })
    .expect("streaming diff");
    let mut parallel = Vec::new();
    let s2 = diff_paths(
        reference,
        candidate,
        &options,
        &Vec::new,
        &|d: &RowDiff, acc: &mut Vec<u8>| write_csv_line(acc, d),
        &mut |acc: Vec<u8>| {
            parallel.extend_from_slice(&acc);
            Ok(())
        },
    )
    .expect("parallel diff");
    assert_eq!(s1, s2, "summaries");
    assert!(streamed == parallel, "the parallel diff's CSV differs");
    (streamed, s1, rows)
}

/// Index of the first row of the `n`-th wave (counting from the end) that has `cell` filled.
fn first_row_with(table: &Table, cell: &str, from_end: usize) -> usize {
    let c = column(&table.0, cell);
    let rows: Vec<usize> = (0..table.1.len())
        .filter(|&i| !table.1[i][c].trim().is_empty())
        .collect();
    rows[rows.len() - 1 - from_end]
}

/// Alters dword `dword` of the cell (all of it for a mask or SCC) on row `row`.
fn alter(table: &mut Table, row: usize, cell: &str, dword: usize) {
    let c = column(&table.0, cell);
    let text = &mut table.1[row][c];
    *text = match cell {
        "exec_out" | "vcc_out" => {
            let v = u64::from_str_radix(text.trim_start_matches("0x"), 16).unwrap();
            format!("0x{:016x}", v ^ 0x8000_0000_0000_0001)
        }
        "scc_out" => if text == "1" { "0" } else { "1" }.to_string(),
        _ => {
            let mut words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
            let v = u32::from_str_radix(words[dword].trim_start_matches("0x"), 16).unwrap();
            words[dword] = format!("0x{:08x}", v ^ 0x10);
            words.join(" ")
        }
    };
}

fn check_one_altered(name: &str, reps: usize, cell: &str, dword: usize, want: &str) {
    let dir = tempfile::tempdir().expect("tmp");
    let reference = copies(name, reps);
    let r = dir.path().join("reference.csv");
    write(&r, &reference, false);
    assert!(
        std::fs::metadata(&r).unwrap().len() > 3 << 19,
        "several blocks"
    );
    // Identical: every row exact.
    let (_, same, _) = diff_both(&r, &r);
    assert_eq!(same.count(Class::Exact), same.rows);

    let at = first_row_with(&reference, cell, 2);
    let mut cand = reference.clone();
    alter(&mut cand, at, cell, dword);
    for crlf in [false, true] {
        let c = dir.path().join(format!("candidate-{crlf}.csv"));
        write(&c, &cand, crlf);
        let (text, summary, rows) = diff_both(&r, &c);
        assert_eq!(summary.rows, reference.1.len() as u64);
        assert_eq!(summary.unexpected, 1, "{name} {cell}: one row differs");
        assert_eq!(summary.count(Class::Wrong), 1);
        assert_eq!(rows.len(), 1);
        let d = &rows[0];
        assert_eq!(d.reference.index, at as u64 + 1, "the wave's first row");
        let worst = d.worst().expect("a compared value");
        assert_eq!(rdnaprobe_reports::uniform::name(worst), want);
        let json = rdnaprobe_reports::output::row_json(d);
        let named: Vec<&serde_json::Value> = json["dwords"]
            .as_array()
            .expect("dwords")
            .iter()
            .filter(|v| v["out"] == want)
            .collect();
        assert_eq!(named.len(), 1, "{json}");
        assert_eq!(named[0]["class"], "wrong");
        let line = String::from_utf8(text)
            .unwrap()
            .lines()
            .find(|l| l.contains(",wrong,"))
            .expect("the wrong row")
            .to_string();
        assert!(line.contains(&format!(",{want},")), "{line}");
    }
}

/// Repeats every wave's uniform output cells on its other rows (the contract allows it).
fn repeat_uniform(table: &mut Table) {
    let cols: Vec<usize> = rdnaprobe_reports::uniform::COLUMNS
        .iter()
        .filter_map(|c| table.0.iter().position(|h| h == *c))
        .collect();
    let (id, enc) = (column(&table.0, "wave_id"), 1);
    for i in 1..table.1.len() {
        let (prev, row) = table.1.split_at_mut(i);
        let prev = &prev[i - 1];
        let row = &mut row[0];
        if prev[id] == row[id] && prev[enc] == row[enc] {
            for &c in &cols {
                row[c] = prev[c].clone();
            }
        }
    }
}

#[test]
fn repeated_uniform_cells_blame_only_the_waves_first_row() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut reference = copies("crosslane.csv", 4);
    // A wave's first row, found before the cells are repeated.
    let at = first_row_with(&reference, "vcc_out", 40);
    repeat_uniform(&mut reference);
    let r = dir.path().join("reference.csv");
    write(&r, &reference, false);
    let id = column(&reference.0, "wave_id");
    let mut cand = reference.clone();
    // Every row of that wave carries the altered mask, as the contract requires.
    let mut i = at;
    while i < cand.1.len() && cand.1[i][id] == reference.1[at][id] {
        alter(&mut cand, i, "vcc_out", 0);
        i += 1;
    }
    assert!(i - at > 1, "a wave of several rows");
    let c = dir.path().join("candidate.csv");
    write(&c, &cand, false);
    let (_, summary, rows) = diff_both(&r, &c);
    assert_eq!(summary.unexpected, 1);
    assert_eq!(rows[0].reference.index, at as u64 + 1);
}

#[test]
fn an_altered_sgpr_output_is_caught_on_the_waves_first_row() {
    check_one_altered("crosslane.csv", 4, "s_out", 3, "s_out[3]");
}

#[test]
fn an_altered_vcc_mask_is_caught() {
    check_one_altered("crosslane.csv", 4, "vcc_out", 0, "vcc_out");
}

#[test]
fn an_altered_scc_is_caught() {
    check_one_altered("crosslane.csv", 4, "scc_out", 0, "scc_out");
}

#[test]
fn an_altered_lds_dword_is_caught() {
    check_one_altered("lds.csv", 17, "lds_out", 17, "lds_out[17]");
}
