//! `rdnaprobe replay` on the cpu backend with the shipped datasets: output schema, row
//! counts, statuses, manifests with the defaults used for empty mode cells, the three
//! output modes (stdout, one file, one file per input), and the one-row forms (`--asm` /
//! `--encoding` with flags, `DATASET --row ID`) that the report's repro commands use.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{ok, rdnaprobe, scratch_dir, shipped, stdout};
use rdnaprobe_dataset::{manifest_path, read_dataset, verify, Manifest, V1_COLUMNS};

fn dir(name: &str) -> PathBuf {
    scratch_dir(&format!("replay-{name}"))
}

/// `rdnaprobe replay ARGS`.
fn replay(args: &[&OsStr]) -> Output {
    rdnaprobe(std::iter::once(OsStr::new("replay")).chain(args.iter().copied()))
}

fn check_statuses(path: &Path, backend: &str) -> usize {
    let ds = read_dataset(path).unwrap();
    assert_eq!(&ds.extra_columns[..3], ["backend", "status", "row_id"]);
    for row in &ds.rows {
        assert_eq!(row.extra[0], backend);
        let s = &row.extra[1];
        assert!(
            s == "ok" || s.starts_with("unsupported: ") || s.starts_with("error: "),
            "status `{s}`"
        );
        if s == "ok" {
            // An ok row carries what the backend computed.
            assert!(row.outputs.iter().any(Option::is_some));
        }
    }
    ds.rows.len()
}

#[test]
fn replay_to_a_file_writes_outputs_manifest_and_defaults() {
    let d = dir("file");
    let out = d.join("legacy.csv");
    let input = shipped("legacy_mad_mac_f32.csv");
    let err = ok(&replay(&[
        input.as_os_str(),
        "--backend".as_ref(),
        "cpu".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]));
    assert!(err.contains("198 rows:"), "{err}");
    // legacy_mad_mac_f32 leaves dx10_clamp, denorm16, round32, round16, fp16_overflow unstated.
    for field in [
        "dx10_clamp",
        "denorm16",
        "round32",
        "round16",
        "fp16_overflow",
    ] {
        assert!(
            err.contains(&format!("{field}: empty in 198 rows, default")),
            "{field}: {err}"
        );
    }
    assert!(!err.contains("ieee: empty"), "{err}");
    assert_eq!(check_statuses(&out, "cpu"), 198);
    assert_eq!(verify(&out).unwrap().rows, 198);
    let m = Manifest::read(&manifest_path(&out)).unwrap();
    assert_eq!(m.producer.backend, "cpu");
    assert_eq!(m.defaults["denorm16"]["value"], 3);
    assert_eq!(m.defaults["denorm16"]["rows"], 198);
    assert!(!m.defaults.contains_key("ieee"));
    // The inputs other than out0..out15 are unchanged.
    let a = read_dataset(&input).unwrap();
    let b = read_dataset(&out).unwrap();
    for (x, y) in a.rows.iter().zip(&b.rows) {
        assert_eq!(
            (&x.encoding, x.inputs, x.mode, &x.note),
            (&y.encoding, y.inputs, y.mode, &y.note)
        );
        assert_eq!(x.extra[0], y.extra[2]);
    }
    let mut names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["legacy.csv", "legacy.manifest.json"],
        "no temporary file left"
    );
}

#[test]
fn replay_concatenates_to_stdout_and_splits_into_a_directory() {
    let log = shipped("log.csv");
    let f64 = shipped("f64_fma_divfmas.csv");
    let o = replay(&[
        log.as_os_str(),
        f64.as_os_str(),
        "-b".as_ref(),
        "cpu".as_ref(),
    ]);
    let err = ok(&o);
    assert!(err.contains("126 rows:"), "{err}");
    let text = String::from_utf8(o.stdout).unwrap();
    let header = text.lines().next().unwrap();
    let mut want: Vec<&str> = V1_COLUMNS.to_vec();
    want.extend(["backend", "status", "row_id"]);
    assert_eq!(header, want.join(","));
    let ds = rdnaprobe_dataset::parse_dataset(text.as_bytes(), "stdout").unwrap();
    assert_eq!(ds.rows.len(), 90 + 36);

    let d = dir("split");
    let target = format!("{}/", d.join("out").display());
    let err = ok(&replay(&[
        log.as_os_str(),
        f64.as_os_str(),
        "-o".as_ref(),
        target.as_ref(),
    ]));
    // One summary line, the default-mode notes on it once (only f64_fma_divfmas leaves
    // cells empty); -v adds a line per input.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("2 files, 126 rows: 126 ok"), "{err}");
    assert_eq!(
        err.matches("dx10_clamp: empty in 36 rows").count(),
        1,
        "{err}"
    );
    let err = ok(&replay(&[
        log.as_os_str(),
        f64.as_os_str(),
        "-o".as_ref(),
        target.as_ref(),
        "-v".as_ref(),
    ]));
    assert_eq!(err.lines().count(), 3, "{err}");
    assert_eq!(check_statuses(&d.join("out/log.csv"), "cpu"), 90);
    assert_eq!(
        check_statuses(&d.join("out/f64_fma_divfmas.csv"), "cpu"),
        36
    );
    assert!(verify(&d.join("out/log.csv")).is_ok());
}

#[test]
fn bad_input_is_an_error_with_its_location_and_no_output() {
    let d = dir("bad");
    let input = d.join("bad.csv");
    let text = std::fs::read_to_string(shipped("log.csv")).unwrap();
    let broken = text.replacen(",0x3fa00000,", ",3fa00000,", 1);
    assert_ne!(broken, text);
    std::fs::write(&input, broken).unwrap();
    let out = d.join("out.csv");
    let o = replay(&[input.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.csv:3:11 (in0): `3fa00000`"), "{err}");
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        1,
        "no temporary file left"
    );
}

/// `cmd` split into words as a POSIX shell does for the repro commands (bare words and
/// single-quoted words, `'\''` for a quote).
fn shell_words(cmd: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in cmd.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            '\\' if !quoted => {}
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

fn stdout_of(o: &Output) -> String {
    ok(o);
    stdout(o)
}

#[test]
fn one_row_from_flags_prints_what_the_body_writes() {
    let o = replay(&[
        "--asm".as_ref(),
        "v_add_f32 v10, v4, v5".as_ref(),
        "--in0".as_ref(),
        "0x3f800000".as_ref(),
        "--in1".as_ref(),
        "0x40000000".as_ref(),
        "--mode".as_ref(),
        "round32=3".as_ref(),
    ]);
    let out = stdout_of(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "v_add_f32 v10, v4, v5 [0x06140b04] ieee=1 clamp=1 d32=0 d16=3 r32=3 r16=0 ovf=0 w32 on cpu",
            "  in0=0x3f800000 in1=0x40000000",
            "  out0=0x40400000",
            "  status ok",
        ],
        "{out}"
    );
    // The same body as words.
    let o = replay(&[
        "--encoding".as_ref(),
        "0x06140b04".as_ref(),
        "--in0".as_ref(),
        "0x3f800000".as_ref(),
        "--in1".as_ref(),
        "0x40000000".as_ref(),
    ]);
    assert!(stdout_of(&o).contains("  out0=0x40400000\n"));
}

#[test]
fn one_dataset_row_and_its_repro_command_give_the_replay_outputs() {
    let input = shipped("log.csv");
    let ds = read_dataset(&input).unwrap();
    let d = dir("one-row");
    let all = d.join("all.csv");
    ok(&replay(&[
        input.as_os_str(),
        "-o".as_ref(),
        all.as_os_str(),
    ]));
    let replayed = read_dataset(&all).unwrap();
    let row_id = ds.extra_columns.iter().position(|c| c == "row_id").unwrap();
    for k in [0usize, 17, 89] {
        let row = &ds.rows[k];
        let cpu = replayed.rows[k].outputs[0].expect("out0");
        let want_line = format!(
            "  out0=0x{cpu:08x}  dataset 0x{:08x}{}",
            row.outputs[0].unwrap(),
            if Some(cpu) == row.outputs[0] {
                ""
            } else {
                "  (differs)"
            }
        );
        // By row_id, and by data row number.
        let by_id = stdout_of(&replay(&[
            input.as_os_str(),
            "--row".as_ref(),
            row.extra[row_id].as_ref(),
        ]));
        assert!(
            by_id.starts_with(&format!("data row {}: ", k + 1)),
            "{by_id}"
        );
        assert!(
            by_id.lines().any(|l| l == want_line),
            "{want_line}\n{by_id}"
        );
        let by_number = stdout_of(&replay(&[
            input.as_os_str(),
            "--row".as_ref(),
            (k + 1).to_string().as_ref(),
        ]));
        assert_eq!(by_number, by_id);
        // The report's repro command runs the same experiment.
        let cmd = rdnaprobe_reports::format::repro_command(row, "cpu");
        let words = shell_words(&cmd);
        assert_eq!(&words[..2], ["rdnaprobe", "replay"], "{cmd}");
        let o = rdnaprobe(&words[1..]);
        let out = stdout_of(&o);
        assert!(
            out.lines().any(|l| l == format!("  out0=0x{cpu:08x}")),
            "{cmd}\n{out}"
        );
    }
}

#[test]
fn one_row_errors_are_exit_2_and_say_what_is_wrong() {
    let log = shipped("log.csv");
    for (args, says) in [
        (
            vec!["--asm", "v_add_f32 v10, v4, v5", "--mode", "ieee=2"],
            "--mode ieee=2: expected 0..=1",
        ),
        (
            vec!["--asm", "v_add_f32 v10, v4, v5", "--mode", "fast=1"],
            "no field `fast`",
        ),
        (
            vec!["--asm", "v_add_f32 v10, v4, v5", "--in0", "12"],
            "--in0 `12`",
        ),
        (vec!["--asm", "v_bogus_f32 v10"], "--asm `v_bogus_f32 v10`"),
        (
            vec![log.to_str().unwrap(), "--row", "nosuch"],
            "no row nosuch",
        ),
        (vec![log.to_str().unwrap(), "--row", "91"], "90 data rows"),
        (vec![log.to_str().unwrap(), "--in0", "0x1"], "--asm"),
    ] {
        let o = rdnaprobe(std::iter::once("replay").chain(args.iter().copied()));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_closed_pipe_ends_the_replay_quietly() {
    // Some 1,000 rows of CSV on stdout, many times what a pipe holds.
    let input = shipped("vop1_float_unary.csv");
    let o = common::rdnaprobe_into_closed_pipe([OsStr::new("replay"), input.as_os_str()]);
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("error") && !err.contains("panicked"), "{err}");
}

#[test]
fn a_closed_stderr_changes_neither_the_output_nor_the_exit_code() {
    let d = dir("closed-stderr");
    let out = d.join("legacy.csv");
    let input = shipped("legacy_mad_mac_f32.csv");
    let args = [
        OsStr::new("replay"),
        input.as_os_str(),
        "--backend".as_ref(),
        "cpu".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ];
    // The replay writes its summary and default-mode notes to stderr; they are lost.
    let o = common::rdnaprobe_with_stderr_closed(args);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(check_statuses(&out, "cpu"), 198);
    // An error still exits 2 (not a panic's 101) when its line cannot be written.
    let bad = common::rdnaprobe_with_stderr_closed([
        OsStr::new("replay"),
        d.join("missing.csv").as_os_str(),
    ]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
}
