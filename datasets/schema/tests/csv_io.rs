//! Reading and writing schema v1 CSV: round trips, error locations, atomic writes, manifests.

use std::path::PathBuf;

use rdnaprobe_dataset::{
    dataset_to_bytes, manifest_path, parse_dataset, read_dataset, sha256_hex, verify,
    write_dataset, AtomicFile, Dataset, DatasetError, Manifest, ManifestProducer, ModeCells,
    Reader, Row, V1_COLUMNS,
};

fn header(extra: &[&str]) -> String {
    let mut cols: Vec<&str> = V1_COLUMNS.to_vec();
    cols.extend_from_slice(extra);
    cols.join(",")
}

const ROW: &str = "\"v_add_f32 v10, v4, v5\",0xd503000a 0x00020b04,32,1,,0,3,0,0,0,\
0x3f800000,0x00000001,0x00000000,0x00000000,0x00000000,0x00000000,0x3f800000,,,,,,,,,,,,,,,,\
gfx1036,src,\"a note, with comma\"";

fn tmp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "rdnaprobe-dataset-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sample_row() -> Row {
    Row {
        instruction: "v_add_f32 v10, v4, v5".into(),
        encoding: vec![0xd503000a, 0x00020b04],
        wave: Some(32),
        mode: ModeCells {
            ieee: Some(1),
            dx10_clamp: None,
            denorm32: Some(0),
            denorm16: Some(3),
            round32: Some(0),
            round16: Some(0),
            fp16_overflow: Some(0),
        },
        inputs: [0x3f800000, 1, 0, 0, 0, 0],
        outputs: {
            let mut o = [None; 16];
            o[0] = Some(0x3f800000);
            o
        },
        gfx: "gfx1036".into(),
        source: "src".into(),
        note: "a note, with comma".into(),
        extra: vec![],
    }
}

#[test]
fn parses_a_row_with_unstated_mode_and_uncaptured_outputs() {
    let text = format!("{}\n{ROW}\n", header(&[]));
    let ds = parse_dataset(text.as_bytes(), "t.csv").unwrap();
    assert_eq!(ds.rows, vec![sample_row()]);
    assert!(ds.extra_columns.is_empty());
}

#[test]
fn round_trip_is_byte_identical() {
    let text = format!("{}\n{ROW},r0,x\n{ROW},r1,\n", header(&["row_id", "tag"]));
    let ds = parse_dataset(text.as_bytes(), "t.csv").unwrap();
    assert_eq!(ds.extra_columns, vec!["row_id", "tag"]);
    assert_eq!(ds.rows[1].extra, vec!["r1", ""]);
    let out = dataset_to_bytes(&ds).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), text);
}

#[test]
fn hex_is_normalised_to_0x_percent_08x() {
    let row = ROW.replacen("0x00000001", "0X1", 1);
    let text = format!("{}\n{row}\n", header(&[]));
    let ds = parse_dataset(text.as_bytes(), "t.csv").unwrap();
    assert_eq!(ds.rows[0].inputs[1], 1);
    let out = String::from_utf8(dataset_to_bytes(&ds).unwrap()).unwrap();
    assert!(out.contains(",0x3f800000,0x00000001,"), "{out}");
}

#[test]
fn hex_cells_are_the_printf_spelling() {
    let words = [0, 1, 0x0a0b_0c0d, 0x8000_0000, 0xdead_beef, u32::MAX];
    for w in words {
        assert_eq!(rdnaprobe_dataset::hex(w), format!("{w:#010x}"));
    }
    let joined = words.map(|w| format!("0x{w:08x}")).join(" ");
    assert_eq!(rdnaprobe_dataset::encoding_cell(&words), joined);
    assert_eq!(rdnaprobe_dataset::encoding_cell(&[]), "n/a");
    for w in words {
        assert_eq!(rdnaprobe_dataset::parse_hex(&format!("0x{w:x}")), Ok(w));
        assert_eq!(rdnaprobe_dataset::parse_hex(&format!("0X{w:08X}")), Ok(w));
    }
    let digits = "expected 1 to 8 hex digits after 0x (a 32-bit dword)";
    for bad in ["0x", "0x123456789", "0x+1", "0x12g4", "0x 1"] {
        assert_eq!(
            rdnaprobe_dataset::parse_hex(bad).unwrap_err(),
            digits,
            "{bad}"
        );
    }
    assert!(rdnaprobe_dataset::parse_hex("12")
        .unwrap_err()
        .contains("0x-prefixed"));
}

fn err_of(text: &str) -> DatasetError {
    parse_dataset(text.as_bytes(), "bad.csv").unwrap_err()
}

#[test]
fn empty_file_is_an_error() {
    assert!(matches!(err_of(""), DatasetError::Empty { .. }));
    assert!(matches!(err_of("\n"), DatasetError::Empty { .. }));
}

#[test]
fn misordered_header_names_the_column() {
    let h = header(&[]).replacen("ieee,dx10_clamp", "dx10_clamp,ieee", 1);
    match err_of(&format!("{h}\n")) {
        DatasetError::Header {
            line,
            column,
            expected,
            found,
            ..
        } => {
            assert_eq!(
                (line, column, expected, found.as_str()),
                (1, 4, "ieee", "dx10_clamp")
            );
        }
        e => panic!("unexpected {e}"),
    }
    let short = V1_COLUMNS[..20].join(",");
    assert!(matches!(
        err_of(&format!("{short}\n")),
        DatasetError::ShortHeader { found: 20, .. }
    ));
    let dup = format!("{},note\n", header(&[]));
    assert!(matches!(
        err_of(&dup),
        DatasetError::DuplicateColumn { column: 36, .. }
    ));
}

#[test]
fn wrong_field_count_names_the_line() {
    let text = format!("{}\n{ROW}\n{ROW},extra\n", header(&[]));
    match err_of(&text) {
        DatasetError::FieldCount {
            line,
            expected,
            found,
            ..
        } => assert_eq!((line, expected, found), (3, 35, 36)),
        e => panic!("unexpected {e}"),
    }
}

fn cell_err(row: String) -> (u64, usize, String, String, String) {
    let text = format!("{}\n{ROW}\n{row}\n", header(&[]));
    match err_of(&text) {
        DatasetError::Cell {
            line,
            column,
            name,
            cell,
            ..
        } => {
            let msg = err_of(&text).to_string();
            (line, column, name, cell, msg)
        }
        e => panic!("unexpected {e}"),
    }
}

#[test]
fn bad_cells_name_line_column_and_cell() {
    let (line, column, name, cell, msg) = cell_err(ROW.replacen("0x3f800000", "1.0", 1));
    assert_eq!(
        (line, column, name.as_str(), cell.as_str()),
        (3, 11, "in0", "1.0")
    );
    assert!(msg.starts_with("bad.csv:3:11 (in0): `1.0`:"), "{msg}");

    let (_, column, name, ..) = cell_err(ROW.replacen(",32,1,,0,3", ",32,2,,0,3", 1));
    assert_eq!((column, name.as_str()), (4, "ieee"));
    let (_, column, ..) = cell_err(ROW.replacen(",32,1,,0,3", ",32,1,,4,3", 1));
    assert_eq!(column, 6);
    let (_, column, ..) = cell_err(ROW.replacen(",32,1,", ",48,1,", 1));
    assert_eq!(column, 3);
    let (_, column, _, _, msg) = cell_err(ROW.replacen("0x00020b04", "00020b04", 1));
    assert_eq!(column, 2);
    assert!(msg.contains("word 2"), "{msg}");
    let (_, column, ..) = cell_err(ROW.replacen("0xd503000a 0x00020b04", "", 1));
    assert_eq!(column, 2);
    let (_, column, ..) = cell_err(ROW.replacen(",0x00000001,", ",,", 1));
    assert_eq!(column, 12);
    let (_, column, ..) = cell_err(ROW.replacen("0x3f800000,,,", "0x3f800000,0x123456789,,", 1));
    assert_eq!(column, 18);
}

#[test]
fn line_numbers_count_crlf_and_quoted_newlines() {
    let bad = ROW.replacen("0x3f800000", "zz", 1);
    let multi = ROW.replacen("a note, with comma", "two\r\nlines", 1);
    let text = format!("{}\r\n{ROW}\r\n{multi}\r\n{bad}\r\n", header(&[]));
    match err_of(&text) {
        DatasetError::Cell { line, column, .. } => assert_eq!((line, column), (5, 11)),
        e => panic!("unexpected {e}"),
    }
}

#[test]
fn encoding_n_a_means_no_words() {
    let row = ROW.replacen("0xd503000a 0x00020b04", "n/a", 1);
    let ds = parse_dataset(format!("{}\n{row}\n", header(&[])).as_bytes(), "t").unwrap();
    assert!(ds.rows[0].encoding.is_empty());
}

#[test]
fn streaming_reader_yields_rows_then_stops_at_an_error() {
    let bad = ROW.replacen("0x3f800000", "zz", 1);
    let text = format!("{}\n{ROW}\n{ROW}\n{bad}\n{ROW}\n", header(&[]));
    let mut r = Reader::new(text.as_bytes(), "s.csv").unwrap();
    assert!(r.next().unwrap().is_ok());
    assert!(r.next().unwrap().is_ok());
    assert!(r.next().unwrap().is_err());
}

#[test]
fn atomic_write_then_verify_against_manifest() {
    let dir = tmp_dir("atomic");
    let path = dir.join("d.csv");
    let ds = Dataset {
        extra_columns: vec!["row_id".into()],
        rows: (0..5)
            .map(|i| Row {
                extra: vec![format!("r{i}")],
                inputs: [i, 0, 0, 0, 0, 0],
                ..sample_row()
            })
            .collect(),
    };
    write_dataset(&path, &ds).unwrap();
    assert_eq!(read_dataset(&path).unwrap(), ds);
    // Nothing but the dataset in the directory: the temporary file was renamed.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("d.csv")]);

    let bytes = std::fs::read(&path).unwrap();
    let m = Manifest::new_v1(
        &path,
        ManifestProducer {
            backend: "cpu".into(),
            ..ManifestProducer::default()
        },
        5,
        sha256_hex(&bytes),
    );
    m.write(&manifest_path(&path)).unwrap();
    assert_eq!(Manifest::read(&manifest_path(&path)).unwrap(), m);
    assert_eq!(verify(&path).unwrap().rows, 5);

    // A changed byte is caught.
    let mut changed = bytes.clone();
    let at = changed.len() - 3;
    changed[at] ^= 1;
    std::fs::write(&path, &changed).unwrap();
    assert!(verify(&path).unwrap_err().to_string().contains("SHA-256"));
    // A wrong row count is caught.
    std::fs::write(&path, &bytes).unwrap();
    let mut m2 = m.clone();
    m2.rows = 4;
    m2.write(&manifest_path(&path)).unwrap();
    assert!(verify(&path).unwrap_err().to_string().contains("5 rows"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn uncommitted_atomic_file_leaves_nothing_behind() {
    let dir = tmp_dir("uncommitted");
    let path = dir.join("out.csv");
    std::fs::write(&path, "old").unwrap();
    {
        let mut f = AtomicFile::create(&path).unwrap();
        std::io::Write::write_all(&mut f, b"half a fi").unwrap();
        // dropped without commit
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Deterministic fuzzing: mutated and random inputs never panic the reader. Seeded xorshift,
/// so a failure reproduces; the seed and iteration are in the panic message.
#[test]
fn random_bytes_never_panic() {
    let valid = format!("{}\n{ROW},r\n{ROW},s\n", header(&["row_id"])).into_bytes();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"0x,\"\n\r fF9n/a ";
    let mut parsed_ok = 0;
    for iter in 0..3000 {
        let mut bytes = if iter % 3 == 0 {
            (0..(next() % 200))
                .map(|_| next() as u8)
                .collect::<Vec<u8>>()
        } else {
            valid.clone()
        };
        let edits = 1 + next() % 8;
        for _ in 0..edits {
            if bytes.is_empty() {
                break;
            }
            let at = (next() as usize) % bytes.len();
            match next() % 4 {
                0 => bytes[at] = next() as u8,
                1 => bytes[at] = alphabet[(next() as usize) % alphabet.len()],
                2 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, alphabet[(next() as usize) % alphabet.len()]),
            }
        }
        let result = std::panic::catch_unwind(|| parse_dataset(&bytes, "fuzz"));
        let Ok(parsed) = result else {
            panic!("reader panicked at iteration {iter}");
        };
        // Whatever parses survives a write/read round trip unchanged.
        if let Ok(ds) = parsed {
            let again = parse_dataset(&dataset_to_bytes(&ds).unwrap(), "again").unwrap();
            assert_eq!(again, ds, "round trip at iteration {iter}");
            parsed_ok += 1;
        }
    }
    // The mutations leave a share of inputs valid, so the round trip is really exercised.
    assert!(parsed_ok > 50, "only {parsed_ok} inputs parsed");
}
