//! `-o` into a directory that does not exist: commands whose output is a directory create it;
//! commands whose output is a file fail with one line that names the path (not a doubled OS
//! error), before doing any work.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{rdnaprobe, stderr};

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

fn dataset() -> PathBuf {
    common::repo_files("datasets/rdna2", "csv").remove(0)
}

/// Exit code 2 and exactly one stderr line naming `path`.
fn one_line_error(o: &Output, path: &Path) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&path.display().to_string()), "{err}");
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn file_outputs_in_a_missing_directory_fail_with_one_line() {
    let dir = common::scratch_dir("out-missing");
    let missing = dir.join("no/such/dir");
    let spec = dir.join("spec.toml");
    std::fs::write(
        &spec,
        "name = \"t\"\ngfx = \"gfx1030\"\n[body]\nwords = [\"0x06140b04\"]\n[inputs]\nin0 = { values = [\"0x1\"] }\n",
    )
    .unwrap();
    let out = missing.join("sweep.csv");
    let o = rdnaprobe([
        os("sweep"),
        spec.as_os_str(),
        os("--backend"),
        os("cpu"),
        os("-o"),
        out.as_os_str(),
    ]);
    one_line_error(&o, &out);
    let out = missing.join("replay.csv");
    let input = dataset();
    let o = rdnaprobe([os("replay"), input.as_os_str(), os("-o"), out.as_os_str()]);
    one_line_error(&o, &out);
    let out = missing.join("diff.csv");
    let o = rdnaprobe([
        os("diff"),
        input.as_os_str(),
        input.as_os_str(),
        os("-o"),
        out.as_os_str(),
    ]);
    one_line_error(&o, &out);
    assert!(!missing.exists(), "nothing was created");
}

#[test]
fn directory_outputs_are_created() {
    let dir = common::scratch_dir("out-create");
    let input = dataset();
    let replay_dir = dir.join("a/b/");
    let o = rdnaprobe([
        os("replay"),
        input.as_os_str(),
        os("-o"),
        replay_dir.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(replay_dir.join(input.file_name().unwrap()).is_file());
    let result = dir.join("c/d");
    let o = rdnaprobe([
        os("exhaustive"),
        os("--words"),
        os("0x7e14ab04"),
        os("--input"),
        os("in0=range:0:100"),
        os("-o"),
        result.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(result.join("manifest.json").is_file());
}

#[test]
fn an_unwritable_output_says_the_os_error_once() {
    // A directory where the output file should be: the OS error appears once.
    let dir = common::scratch_dir("out-once");
    let out = dir.join("taken.csv");
    std::fs::create_dir_all(out.join("x")).unwrap();
    let input = dataset();
    let o = rdnaprobe([os("merge"), input.as_os_str(), os("-o"), out.as_os_str()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let os_error = err.rsplit(": ").next().unwrap();
    assert_eq!(err.matches(os_error).count(), 1, "{err}");
}
