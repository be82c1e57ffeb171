//! `rdnaprobe diff` and `rdnaprobe report` of wave replays: datasets/wave/crosslane.csv three
//! times over (distinct wave ids, several diff blocks) replayed on `cpu`, against a copy whose
//! only change is one uniform output cell of one wave. The diff exits 1 and names the cell on
//! the wave's first row; the report counts the row as unexpected.

mod common;

use std::path::Path;

use common::rdnaprobe;

fn records(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap();
    r.records()
        .map(|rec| rec.unwrap().iter().map(str::to_string).collect())
        .collect()
}

fn write(path: &Path, rows: &[Vec<String>]) {
    let mut w = csv::Writer::from_path(path).unwrap();
    for r in rows {
        w.write_record(r).unwrap();
    }
    w.flush().unwrap();
}

#[test]
fn one_altered_uniform_cell_is_found_by_diff_and_report() {
    let dir = common::scratch_dir("wave-diff-cli");
    let source = records(&common::repo_root().join("datasets/wave/crosslane.csv"));
    let id = source[0].iter().position(|c| c == "wave_id").unwrap();
    let mut big = vec![source[0].clone()];
    for rep in 0..3 {
        for row in &source[1..] {
            let mut row = row.clone();
            row[id] = format!("{}-{rep}", row[id]);
            big.push(row);
        }
    }
    let input = dir.join("waves.csv");
    write(&input, &big);
    let replayed = dir.join("cpu.csv");
    let o = common::command(["replay", "-b", "cpu", "-o"])
        .arg(&replayed)
        .arg(&input)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::stderr(&o));
    let (input, replayed) = (input.to_str().unwrap(), replayed.to_str().unwrap());

    // The replay agrees with the hand-computed rows, uniform cells included.
    let same = rdnaprobe(["diff", input, replayed]);
    assert_eq!(same.status.code(), Some(0), "{}", common::stdout(&same));

    // Alter s3 of the s_out of the second-to-last wave that has one.
    let mut rows = records(Path::new(replayed));
    let s_out = rows[0].iter().position(|c| c == "s_out").unwrap();
    let with: Vec<usize> = (1..rows.len())
        .filter(|&i| !rows[i][s_out].is_empty())
        .collect();
    let at = with[with.len() - 2];
    let mut words: Vec<String> = rows[at][s_out]
        .split_whitespace()
        .map(str::to_string)
        .collect();
    words[3] = if words[3] == "0x00000001" {
        "0x00000002".into()
    } else {
        "0x00000001".into()
    };
    rows[at][s_out] = words.join(" ");
    let altered = dir.join("altered.csv");
    write(&altered, &rows);
    let altered = altered.to_str().unwrap();

    let out = rdnaprobe([
        "diff",
        replayed,
        altered,
        "--format",
        "csv",
        "--differences-only",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(
        lines.len(),
        1,
        "only the wave's first row is blamed: {text}"
    );
    assert!(
        lines[0].contains(",wrong,") && lines[0].contains(",s_out[3],int,"),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].ends_with(&format!(",{at}")),
        "row {at}: {}",
        lines[0]
    );

    if !cfg!(feature = "report") {
        return;
    }
    let report = dir.join("report");
    let out = rdnaprobe(["report", input, altered, "-o", report.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(report.join("summary.json")).unwrap()).unwrap();
    assert_eq!(json["unexpected_rows"], 1, "{json}");
    assert_eq!(json["compared_rows"], (rows.len() - 1) as u64);
}
