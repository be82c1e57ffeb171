//! The parallel diff gives what the streaming diff gives, byte for byte: the same CSV and
//! JSON rows in the same order, the same summary, the same rows left over, and the same error
//! after the same rows, on files of several blocks that are in step, reordered, with missing
//! and repeated rows, CRLF line ends, quoted cells with escapes, blank lines, bad cells, bad
//! status cells, and several files per side.

mod common;

use std::path::{Path, PathBuf};

use rdnaprobe_reports::diff::{diff_files, diff_inputs, Options};
use rdnaprobe_reports::input::Chain;
use rdnaprobe_reports::output::{row_json, write_csv_line, CsvSink, JsonSink};
use rdnaprobe_reports::pipeline::{diff_parallel, diff_paths};
use rdnaprobe_reports::{Known, RowDiff, Summary};

use common::write_csv;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The fixture's header and records, with `in5` set to the repetition number: `reps` copies of
/// the fixture's rows, all keys distinct across copies.
fn records(name: &str, reps: usize) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let mut reader = csv::Reader::from_path(fixture(name)).expect("fixture");
    let header = reader.headers().expect("header").clone();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("row")).collect();
    let mut out = Vec::new();
    for rep in 0..reps {
        for row in &rows {
            let mut cells: Vec<String> = row.iter().map(str::to_string).collect();
            cells[15] = format!("0x{rep:08x}");
            out.push(csv::StringRecord::from(cells));
        }
    }
    (header, out)
}

/// What a diff produced: CSV and JSON bytes of the rows, then the summary and leftover counts,
/// or the error text.
#[derive(Debug, PartialEq)]
struct Outcome {
    csv: Vec<u8>,
    json: Vec<u8>,
    end: Result<(Summary, u64, u64, String), String>,
}

fn streaming(refs: &[PathBuf], cands: &[PathBuf], options: &Options) -> Outcome {
    let mut csv = CsvSink::new(Vec::new()).expect("header");
    let mut json = JsonSink::new(Vec::new());
    let end = diff_inputs(
        &mut Chain::new(refs.to_vec()),
        &mut Chain::new(cands.to_vec()),
        options,
        |d| {
            csv.write(d).expect("csv");
            json.write(d).expect("json");
            Ok(())
        },
    )
    .map(|(s, l)| {
        let first = l.describe_first();
        (s, l.reference_only, l.candidate_only, first)
    })
    .map_err(|e| e.to_string());
    let mut csv = csv.finish().expect("csv");
    csv.drain(..rdnaprobe_reports::output::csv_header().len());
    let json = json.finish(&Summary::default()).expect("json");
    Outcome { csv, json, end }
}

fn fold(d: &RowDiff, acc: &mut (Vec<u8>, Vec<u8>)) {
    write_csv_line(&mut acc.0, d);
    serde_json::to_writer(&mut acc.1, &row_json(d)).expect("json");
    acc.1.push(b'\n');
}

fn parallel(refs: &[PathBuf], cands: &[PathBuf], options: &Options) -> Outcome {
    let (mut csv, mut json) = (Vec::new(), Vec::new());
    let end = diff_parallel(
        refs,
        cands,
        options,
        &|| (Vec::new(), Vec::new()),
        &fold,
        &mut |(c, j)| {
            csv.extend_from_slice(&c);
            json.extend_from_slice(&j);
            Ok(())
        },
    )
    .map(|(s, l)| {
        let first = l.describe_first();
        (s, l.reference_only, l.candidate_only, first)
    })
    .map_err(|e| e.to_string());
    let mut summary_line = Vec::new();
    serde_json::to_writer(
        &mut summary_line,
        &rdnaprobe_reports::output::summary_json(&Summary::default()),
    )
    .expect("json");
    json.extend_from_slice(&summary_line);
    json.push(b'\n');
    Outcome { csv, json, end }
}

fn same(refs: &[PathBuf], cands: &[PathBuf], options: &Options) -> Outcome {
    let a = streaming(refs, cands, options);
    let b = parallel(refs, cands, options);
    assert_eq!(a.end, b.end, "summary / error");
    assert_eq!(a.csv.len(), b.csv.len(), "CSV length");
    assert!(a.csv == b.csv, "CSV bytes differ");
    assert!(a.json == b.json, "JSON bytes differ");
    a
}

/// Rows enough for several 1 MiB blocks per file.
const REPS: usize = 1500;

#[test]
fn in_step_files_of_many_blocks() {
    let dir = tempfile::tempdir().expect("tmp");
    let (rh, rr) = records("reference.csv", REPS);
    let (ch, cr) = records("candidate.csv", REPS);
    let (r, c) = (dir.path().join("r.csv"), dir.path().join("c.csv"));
    write_csv(&r, &rh, &rr, false);
    write_csv(&c, &ch, &cr, false);
    assert!(std::fs::metadata(&r).expect("size").len() > 2 << 20);
    let out = same(
        std::slice::from_ref(&r),
        std::slice::from_ref(&c),
        &Options::default(),
    );
    let summary = out.end.expect("runs").0;
    assert_eq!(summary.rows, rr.len() as u64);
    assert!(summary.unexpected > 0);
    let known = Options {
        known: Known::load(&fixture("known.toml")).expect("known"),
        ..Options::default()
    };
    let with_known = same(&[r], &[c], &known).end.expect("runs").0;
    assert!(with_known.expected > 0);
}

#[test]
fn reordered_missing_and_repeated_rows() {
    let dir = tempfile::tempdir().expect("tmp");
    let (rh, mut rr) = records("reference.csv", REPS);
    let (ch, mut cr) = records("candidate.csv", REPS);
    // The candidate's rows in runs of 5,000 in reverse order of the runs, one row missing,
    // one reference row repeated (its second copy pairs with nothing).
    let runs: Vec<Vec<csv::StringRecord>> = cr.chunks(5000).map(|c| c.to_vec()).collect();
    cr = runs.into_iter().rev().flatten().collect();
    cr.remove(777);
    rr.insert(15_000, rr[3].clone());
    let (r, c) = (dir.path().join("r.csv"), dir.path().join("c.csv"));
    write_csv(&r, &rh, &rr, false);
    write_csv(&c, &ch, &cr, true);
    let out = same(
        std::slice::from_ref(&r),
        std::slice::from_ref(&c),
        &Options::default(),
    );
    let (_, reference_only, candidate_only, first) = out.end.expect("runs");
    assert_eq!((reference_only, candidate_only), (2, 0));
    assert!(first.starts_with("reference row"), "{first}");
    // The two-file form turns the leftover into the same error.
    let streaming = diff_files(&r, &c, &Options::default(), |_| Ok(())).map_err(|e| e.to_string());
    let parallel = diff_paths(&r, &c, &Options::default(), &|| (), &|_, _| {}, &mut |_| {
        Ok(())
    })
    .map_err(|e| e.to_string());
    assert!(streaming.is_err());
    assert_eq!(streaming.err(), parallel.err());
}

#[test]
fn quotes_blank_lines_and_several_files() {
    let dir = tempfile::tempdir().expect("tmp");
    let (rh, mut rr) = records("reference.csv", REPS / 2);
    let (ch, cr) = records("candidate.csv", REPS / 2);
    let mut cells: Vec<String> = rr[100].iter().map(str::to_string).collect();
    cells[0] = "v_add_f32 \"quoted\", with\nnewline".into();
    rr[100] = csv::StringRecord::from(cells);
    let half = rr.len() / 2;
    let paths: Vec<PathBuf> = (0..4)
        .map(|k| dir.path().join(format!("{k}.csv")))
        .collect();
    write_csv(&paths[0], &rh, &rr[..half], false);
    write_csv(&paths[1], &rh, &rr[half..], false);
    write_csv(&paths[2], &ch, &cr[..half + 10], false);
    write_csv(&paths[3], &ch, &cr[half + 10..], false);
    // A blank line inside the second reference file.
    let text = std::fs::read_to_string(&paths[1]).expect("read");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(50, "");
    std::fs::write(&paths[1], lines.join("\n") + "\n").expect("write");
    let out = same(&paths[..2], &paths[2..], &Options::default());
    assert_eq!(out.end.expect("runs").0.rows, rr.len() as u64);
}

#[test]
fn errors_come_after_the_same_rows() {
    let dir = tempfile::tempdir().expect("tmp");
    let (rh, mut rr) = records("reference.csv", REPS);
    let (ch, mut cr) = records("candidate.csv", REPS);
    let (r, c) = (dir.path().join("r.csv"), dir.path().join("c.csv"));
    let mut cells: Vec<String> = rr[15_000].iter().map(str::to_string).collect();
    cells[12] = "0xnothex".into();
    rr[15_000] = csv::StringRecord::from(cells);
    write_csv(&r, &rh, &rr, false);
    write_csv(&c, &ch, &cr, false);
    let out = same(
        std::slice::from_ref(&r),
        std::slice::from_ref(&c),
        &Options::default(),
    );
    let err = out.end.expect_err("bad cell");
    assert!(
        err.contains(":15002") || err.contains("line 15002"),
        "{err}"
    );
    assert!(!out.csv.is_empty());
    // A bad status cell in the candidate: the error names the data row.
    let (_, fresh) = records("reference.csv", REPS);
    write_csv(&r, &rh, &fresh, false);
    let last = cr[12_345].len() - 1;
    let mut cells: Vec<String> = cr[12_345].iter().map(str::to_string).collect();
    cells[last] = "maybe".into();
    cr[12_345] = csv::StringRecord::from(cells);
    write_csv(&c, &ch, &cr, false);
    let err = same(&[r], &[c], &Options::default())
        .end
        .expect_err("bad status");
    assert!(err.contains("data row 12346"), "{err}");
}
