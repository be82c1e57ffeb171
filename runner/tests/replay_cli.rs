//! `rdnaprobe replay` on the cpu backend with the shipped datasets: output schema, row
//! counts, statuses, manifests with the defaults used for empty mode cells, and the three
//! output modes (stdout, one file, one file per input).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rdnaprobe_dataset::{manifest_path, read_dataset, verify, Manifest, V1_COLUMNS};

const BIN: &str = env!("CARGO_BIN_EXE_rdnaprobe");

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../datasets/rdna2")
        .join(name)
}

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("replay-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn replay(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(BIN).arg("replay").args(args).output().unwrap()
}

fn ok(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    err
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
    ok(&replay(&[
        log.as_os_str(),
        f64.as_os_str(),
        "-o".as_ref(),
        target.as_ref(),
    ]));
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
