//! The HIP path without an AMD GPU, through the binary. These run in a child process on
//! purpose: ROCm's runtime and Mesa's RADV both bring their own LLVM and libdrm_amdgpu, and
//! loading both into one test process crashes it (see docs/oracle.md).

mod common;

use std::path::Path;

use common::{rdnaprobe, repo_root, s, scratch_dir, shipped, stderr};

fn no_amd_gpu() -> bool {
    !Path::new("/dev/kfd").exists()
}

#[test]
fn hip_backend_without_a_gpu_exits_2_with_one_line_and_writes_nothing() {
    if !no_amd_gpu() {
        eprintln!("skipped: this machine has /dev/kfd");
        return;
    }
    let dir = scratch_dir("hip-cli");
    let out = dir.join("out.csv");
    let dataset = shipped("log.csv");
    let o = rdnaprobe(["replay", &s(&dataset), "--backend", "hip", "-o", &s(&out)]);
    let stderr = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("hip backend unavailable: "), "{stderr}");
    assert!(
        lines[0].contains("hipErrorNoDevice (100)") || lines[0].contains("libamdhip64"),
        "{stderr}"
    );
    assert!(!out.exists(), "an output was written");
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn devices_reports_hip_devices_or_the_reason_there_are_none() {
    let o = rdnaprobe(["devices", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let hip = &v["hip"];
    let devices = hip["devices"].as_array().map_or(0, |d| d.len());
    assert!(devices > 0 || hip["error"].is_string(), "{v}");
    if no_amd_gpu() {
        assert_eq!(devices, 0, "{v}");
    }
}

#[test]
fn hip_backend_on_a_wave_dataset_without_a_gpu_exits_2_with_one_line() {
    if !no_amd_gpu() {
        eprintln!("skipped: this machine has /dev/kfd");
        return;
    }
    let dataset = repo_root().join("datasets/wave/lds.csv");
    let o = rdnaprobe(["replay", &s(&dataset), "--backend", "hip"]);
    let stderr = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("hip backend unavailable: ")
            && (stderr.contains("hipErrorNoDevice (100)") || stderr.contains("libamdhip64")),
        "{stderr}"
    );
    assert!(o.stdout.is_empty(), "no rows without a device");
}

/// The binary links neither HIP nor comgr: both are opened at run time, so it starts and its
/// `cpu` and `vulkan` backends run on a machine without ROCm (docs/oracle.md).
#[test]
fn the_binary_does_not_link_rocm() {
    let out = match std::process::Command::new("llvm-readelf-19")
        .args(["--needed-libs", common::BIN])
        .output()
    {
        Ok(o) if o.status.success() => o,
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "llvm-readelf-19 is missing under CI"
            );
            eprintln!("llvm-readelf-19 missing, skipped");
            return;
        }
    };
    let needed = common::text(&out.stdout);
    assert!(needed.contains("libc.so"), "{needed}");
    for lib in ["amdhip64", "amd_comgr", "hsa-runtime", "vulkan"] {
        assert!(!needed.contains(lib), "the binary links {lib}:\n{needed}");
    }
}
