//! The image sweep specs of datasets/specs/images (docs/sweeps.md, "Image sweeps"): each one
//! makes the row count it is documented to make (`--dry-run` and the written dataset), the
//! rows the model runs and those it refuses (with the reason, for the hardware to measure),
//! the same inputs on every run, and on lavapipe and through the hip backend's wave template
//! on the CPU model the same outputs as on cpu; a bad `[image]`
//! field is an error naming it, exit code 2.

mod common;

use std::path::Path;

use common::{command, stderr};

/// Spec stem, rows, rows the CPU model runs (`ok`; the rest `unsupported` with a reason).
const SPECS: [(&str, u64, u64); 8] = [
    // 7 formats x 15 DMASKs x 16 x 4 coordinates
    ("gather4h_pck_dmask", 6720, 6720),
    // 7 formats x 4 ops x 3 DMASKs x 12 x 3 (x, y); the refusals: the BY/PCK forms and masks
    // not measured
    ("by_pck_loads", 3024, 2448),
    // 7 formats x 12 S#s x 8 references x 4 u; 32_UINT is refused
    ("sample_compare_formats", 2688, 2304),
    // 2 formats x 8 S#s x 8 offsets x 5 x
    ("sample_unnorm_offsets", 640, 640),
    // 2 formats x 3 S#s x 7 x 4 x 6 faces
    ("cube_edges", 1008, 1008),
    // 5 formats x 4 ops x 2 DMASKs x 6 x 3: the BY and PCK stores are not measured
    ("by_pck_stores", 720, 0),
    // the texture-unit campaign: 8 formats x 12 S#s x 16 u x 5 v x 4 LODs, and 16 u x 4 LODs
    ("texture_units_2d", 30720, 30720),
    ("texture_units_1d", 6144, 6144),
];

fn spec(stem: &str) -> std::path::PathBuf {
    common::repo_root()
        .join("datasets/specs/images")
        .join(stem)
        .with_extension("toml")
}

fn sweep(spec: &Path, backend: &str, out: &Path) -> std::process::Output {
    command(["sweep", "--backend", backend, "-o"])
        .arg(out)
        .arg(spec)
        .output()
        .unwrap()
}

#[test]
fn every_image_spec_makes_its_rows_and_the_model_runs_or_refuses_each() {
    let shipped = common::repo_files("datasets/specs/images", "toml");
    assert_eq!(shipped.len(), SPECS.len(), "{shipped:?}");
    let dir = common::scratch_dir("image-sweeps");
    for (stem, rows, ok) in SPECS {
        let path = spec(stem);
        let o = command(["sweep", "--backend", "cpu", "-o", "unused.csv", "--dry-run"])
            .arg(&path)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert!(o.status.success(), "{stem}: {err}");
        assert!(err.contains(&format!(": {rows} rows (")), "{stem}: {err}");
        let out = dir.join(stem).with_extension("csv");
        let o = sweep(&path, "cpu", &out);
        assert!(o.status.success(), "{stem}: {}", stderr(&o));
        let checked = rdnaprobe_dataset::verify(&out).unwrap();
        assert_eq!(checked.rows, rows, "{stem}");
        let inputs = out.with_extension("inputs.csv");
        assert_eq!(
            rdnaprobe_dataset::verify(&inputs).unwrap().rows,
            rows,
            "{stem}"
        );
        let ds = rdnaprobe_dataset::read_dataset(&out).unwrap();
        let status = ds.extra_columns.iter().position(|c| c == "status").unwrap();
        let ran = ds.rows.iter().filter(|r| r.extra[status] == "ok").count() as u64;
        assert_eq!(ran, ok, "{stem}: rows the model runs");
        for r in ds.rows.iter().filter(|r| r.extra[status] != "ok") {
            assert!(
                r.extra[status].starts_with("unsupported: ") && r.extra[status].len() > 40,
                "{stem}: {}",
                r.extra[status]
            );
        }
        // the manifest names the spec
        let m = rdnaprobe_dataset::Manifest::read(&rdnaprobe_dataset::manifest_path(&out)).unwrap();
        assert!(
            m.sweep.unwrap()["spec"]["image"]["formats"].is_array(),
            "{stem}"
        );
    }
}

#[test]
fn the_inputs_are_the_same_on_every_run_and_each_backend_computes_what_cpu_does() {
    let dir = common::scratch_dir("image-sweeps-backends");
    for stem in ["gather4h_pck_dmask", "sample_unnorm_offsets"] {
        let mut outputs = Vec::new();
        // and the hip backend's wave template around each body, run on the CPU model
        // (docs/dispatch.md, hip-template-cpu), where comgr is there
        let mut backends = common::cpu_and_lavapipe();
        backends.push("hip-template-cpu:gfx1035");
        for backend in backends {
            let out = dir
                .join(format!("{stem}-{}", backend.replace(':', "-")))
                .with_extension("csv");
            let o = sweep(&spec(stem), backend, &out);
            if backend.starts_with("hip") && stderr(&o).contains("backend unavailable") {
                eprintln!("skipped {backend}: {}", stderr(&o).trim());
                continue;
            }
            assert!(o.status.success(), "{stem} {backend}: {}", stderr(&o));
            outputs.push(out);
        }
        let inputs: Vec<Vec<u8>> = outputs
            .iter()
            .map(|o| std::fs::read(o.with_extension("inputs.csv")).unwrap())
            .collect();
        assert!(inputs.windows(2).all(|w| w[0] == w[1]), "{stem}: inputs");
        let sets: Vec<_> = outputs
            .iter()
            .map(|o| rdnaprobe_dataset::read_dataset(o).unwrap())
            .collect();
        for ds in &sets[1..] {
            assert_eq!(ds.rows.len(), sets[0].rows.len());
            for (i, (a, b)) in sets[0].rows.iter().zip(&ds.rows).enumerate() {
                assert_eq!(a.outputs, b.outputs, "{stem} row {i}");
                // the region after the body (`mem_out`), the last extra column
                assert_eq!(a.extra.last(), b.extra.last(), "{stem} row {i} mem_out");
            }
        }
    }
}

#[test]
fn a_bad_image_field_is_an_error_that_names_it() {
    let dir = common::scratch_dir("image-sweeps-bad");
    let text = std::fs::read_to_string(spec("sample_unnorm_offsets")).unwrap();
    for (from, to, says) in [
        (
            "texels = \"gradient\"",
            "texels = \"noise\"",
            "image.texels `noise`",
        ),
        (
            "clamp = \"mirror\"",
            "clamp = \"mirrored\"",
            "image.sampler[2].clamp",
        ),
        (
            "formats = [1, 22]",
            "formats = [1, 999]",
            "image.formats 999",
        ),
        ("size = [5, 3]", "size = [5, 0]", "image.size"),
        (
            "in2 = { values = [\"0x3fc00000\"], type = \"f32\" }",
            "in2 = { range = [0, 4294967295] }",
            "more than the 4194304 rows one dataset holds",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, text.replace(from, to)).unwrap();
        let o = sweep(&bad, "cpu", &dir.join("bad.csv"));
        assert_eq!(o.status.code(), Some(2), "{to}");
        assert!(stderr(&o).contains(says), "{to}: {}", stderr(&o));
        assert!(!dir.join("bad.csv").exists(), "{to}: no output");
    }
}
