//! Helpers shared by the integration tests (each test file uses some of them): running the
//! binary and reading what it printed, the repository's files and fixtures, scratch
//! directories, the sweep spec of the plan and sweep tests, and the lavapipe checks.
#![allow(dead_code)]

#[path = "../../../recompiler/tests/common/spirv_val.rs"]
pub mod spirv_val;

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_rdnaprobe");

/// `rdnaprobe ARGS` as a command, to add environment variables or a working directory.
pub fn command<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(bin());
    cmd.args(args);
    cmd
}

/// Runs `rdnaprobe ARGS` to the end; stdout and stderr are captured.
pub fn rdnaprobe<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    command(args).output().expect("rdnaprobe runs")
}

/// Runs `rdnaprobe ARGS` with the environment variables `env` added.
pub fn rdnaprobe_env<I, S>(args: I, env: &[(&str, &str)]) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = command(args);
    cmd.envs(env.iter().copied());
    cmd.output().expect("rdnaprobe runs")
}

/// Runs `rdnaprobe ARGS` with `stdin` as its standard input.
pub fn rdnaprobe_stdin<I, S>(args: I, stdin: &str) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rdnaprobe runs");
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(stdin.as_bytes()).expect("write stdin");
    drop(pipe);
    child.wait_with_output().expect("rdnaprobe finishes")
}

/// Bytes the binary printed, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// Everything the command printed: stdout, then stderr.
pub fn printed(o: &Output) -> String {
    stdout(o) + &stderr(o)
}

/// Requires exit code 0 and returns what the command said on stderr.
pub fn ok(o: &Output) -> String {
    let err = stderr(o);
    assert!(o.status.success(), "exit {:?}: {err}", o.status.code());
    err
}

/// A path as one command-line word.
pub fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A fixture of the reports crate's tests (`reports/tests/fixtures/NAME`).
pub fn fixture(name: &str) -> PathBuf {
    repo_root().join("reports/tests/fixtures").join(name)
}

/// [`fixture`] as one command-line word.
pub fn fixture_arg(name: &str) -> String {
    s(&fixture(name))
}

/// A shipped hardware dataset (`datasets/rdna2/NAME`).
pub fn shipped(name: &str) -> PathBuf {
    repo_root().join("datasets/rdna2").join(name)
}

/// The sweep spec `name` of the plan, sweep and Slurm tests: `v_add_f32` over the f32
/// specials (level 1, 36 values) x 3 values under `ieee` 0/1; `full` adds 2 random `in2` and
/// `denorm32` 0/3 (36 x 3 x 2 input rows x 4 modes = 864 rows).
pub fn add_f32_spec(name: &str, full: bool) -> String {
    let (in2, denorm32) = if full {
        ("in2 = { random = 2, seed = 99 }\n", "denorm32 = [0, 3]\n")
    } else {
        ("", "")
    };
    format!(
        r#"
name = "{name}"
gfx = "gfx1036"
[body]
words = ["0x06140b04"]
instruction = "v_add_f32 v10, v4, v5"
[inputs]
in0 = {{ special = "f32", level = 1 }}
in1 = {{ values = ["0x3f800000", "0x00000001", "0x7f800001"], type = "f32" }}
{in2}[modes]
ieee = [0, 1]
{denorm32}"#
    )
}

/// The rdnaprobe binary: `RDNAPROBE_BIN` when set (a test binary run on another machine than
/// the one that built it), else the one cargo built.
pub fn bin() -> PathBuf {
    std::env::var_os("RDNAPROBE_BIN").map_or_else(|| PathBuf::from(BIN), PathBuf::from)
}

/// The repository: `RDNAPROBE_REPO` when set, else the one the tests were built from.
pub fn repo_root() -> PathBuf {
    std::env::var_os("RDNAPROBE_REPO").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
        PathBuf::from,
    )
}

/// A fresh scratch directory `name`: under `RDNAPROBE_SCRATCH` when set, else under cargo's
/// temporary directory for integration tests.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = scratch_path(name);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// A scratch path `name` that does not exist (for a command that creates it): removed if an
/// earlier run left it, under the same root as [`scratch_dir`].
pub fn scratch_path(name: &str) -> PathBuf {
    let root = std::env::var_os("RDNAPROBE_SCRATCH")
        .map_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")), PathBuf::from);
    let path = root.join(name);
    let _ = std::fs::remove_dir_all(&path);
    path
}

/// `target/test-artifacts`, where tests keep what a person may want to look at (screenshots).
pub fn artifacts_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("test-artifacts");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// The files with extension `ext` in the repository folder `dir` (e.g. `datasets/rdna2`), sorted.
pub fn repo_files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = repo_root().join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no .{ext} files in {}", dir.display());
    v
}

/// Whether `rdnaprobe devices` lists a Vulkan device of `driver` (as `vulkan:DRIVER` names it).
pub fn vulkan_driver_present(driver: &str) -> Result<(), String> {
    let o = Command::new(bin())
        .args(["devices", "--format", "json"])
        .output()
        .map_err(|e| e.to_string())?;
    let devices: serde_json::Value = serde_json::from_slice(&o.stdout).map_err(|e| {
        format!(
            "`rdnaprobe devices --format json` printed no JSON ({e}): {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )
    })?;
    let found = devices["vulkan"]["devices"]
        .as_array()
        .is_some_and(|l| l.iter().any(|d| d["driver"] == driver));
    if found {
        Ok(())
    } else {
        Err(format!(
            "no {driver} device in `rdnaprobe devices`: {devices}"
        ))
    }
}

/// `Some(reason)` when lavapipe is missing and the test should be skipped (after saying so);
/// under `CI=true` a missing lavapipe is a failure instead.
pub fn skip_without_lavapipe() -> Option<String> {
    let why = vulkan_driver_present("lavapipe").err()?;
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("lavapipe is required under CI=true: {why}");
    }
    eprintln!("skipped: {why} (set CI=true to make this a failure)");
    Some(why)
}

/// The backends a cpu-vs-lavapipe test runs on: `cpu`, and `vulkan:lavapipe` unless
/// [`skip_without_lavapipe`] skips it.
pub fn cpu_and_lavapipe() -> Vec<&'static str> {
    let mut backends = vec!["cpu"];
    if skip_without_lavapipe().is_none() {
        backends.push("vulkan:lavapipe");
    }
    backends
}

/// Runs `rdnaprobe exhaustive` for `body` over `inputs` (`inN=GEN`) in `modes` and `wave` on
/// lavapipe against the CPU model, in a scratch directory named after `name`, and requires
/// exit 0, `rows` rows (rows x modes) and no mismatching row. `what` names the run in a failure.
pub fn exhaustive_on_lavapipe_agrees(
    name: &str,
    body: &str,
    inputs: &[&str],
    modes: &str,
    wave: &str,
    rows: u64,
) {
    let out = scratch_dir(name);
    let mut cmd = Command::new(bin());
    cmd.args([
        "exhaustive",
        "--asm",
        body,
        "--wave",
        wave,
        "--modes",
        modes,
    ]);
    for i in inputs {
        cmd.args(["--input", i]);
    }
    cmd.args(["--backend", "vulkan:lavapipe", "--reference", "cpu"])
        .args(["--threads", "2", "-o"])
        .arg(&out);
    let o = cmd.output().expect("run rdnaprobe exhaustive");
    let what = format!("{body} (wave{wave}, {modes}, {inputs:?})");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{what}: {stderr}");
    let manifest = std::fs::read(out.join("manifest.json")).expect("manifest.json");
    let m: serde_json::Value = serde_json::from_slice(&manifest).expect("manifest parses");
    assert_eq!(m["rows"], rows, "{what}");
    assert_eq!(m["mismatches"]["total"], 0, "{what}: {}", m["mismatches"]);
}

/// Runs `rdnaprobe ARGS` with stdout a pipe that is closed after the first bytes (as `| head
/// -c 100` would), and returns how it ended. Its output must be larger than a pipe's buffer
/// (64 KiB) for the close to hit a write.
pub fn rdnaprobe_into_closed_pipe<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    use std::io::Read;
    let mut child = command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rdnaprobe runs");
    let mut first = [0u8; 100];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("the first 100 bytes");
    // The read end is closed here; the command's next write fails with EPIPE.
    child.wait_with_output().expect("rdnaprobe finishes")
}

/// Runs `rdnaprobe ARGS` with its stderr a pipe whose read end is closed before the command
/// starts, so every write to stderr fails with EPIPE; stdout is captured.
pub fn rdnaprobe_with_stderr_closed<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    // The write end of a pipe whose only reader has exited: `true`'s stdin (std::io::pipe
    // needs Rust 1.87, past the workspace's rust-version).
    let mut reader = std::process::Command::new("true")
        .stdin(Stdio::piped())
        .spawn()
        .expect("`true` runs");
    let writer = reader.stdin.take().expect("the pipe's write end");
    reader.wait().expect("`true` ends");
    command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(writer))
        .output()
        .expect("rdnaprobe runs")
}

/// Whether every tool of `tools` runs (`--version`): under CI they must (scripts/setup
/// installs them) and the run fails; elsewhere a missing one skips the test, said on stderr.
pub fn tools_or_skip(tools: &[&str], test: &str) -> bool {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|t| {
            !Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} missing under CI (scripts/setup installs them)",
        missing.join(", ")
    );
    eprintln!("{test}: {} missing, skipped", missing.join(", "));
    false
}
