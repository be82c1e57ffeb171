//! `rdnaprobe dispatch` as a user runs it: a kernel that writes past its buffer faults with the
//! kernel, wave, lane, address and buffer named, and leaves the other buffers alone; the block
//! defaults to the kernel's required size and must match it; a duplicated argument is refused.
//! The kernels (tests/kernels/checks.cl) are compiled by clang-19 for gfx1030 at test time.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn compile(dir: &Path, wave: u32) -> Option<PathBuf> {
    if !common::tools_or_skip(&["clang-19", "ld.lld-19"], "dispatch_checks") {
        return None;
    }
    let out = dir.join(format!("checks_w{wave}.co"));
    let mut c = Command::new("clang-19");
    c.args(["-x", "cl", "-cl-std=CL2.0", "-cl-kernel-arg-info", "-O2"])
        .args(["-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1030", "-nogpulib"])
        .arg("--ld-path=/usr/bin/ld.lld-19")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels/checks.cl"))
        .arg("-o")
        .arg(&out);
    if wave == 64 {
        c.arg("-mwavefrontsize64");
    }
    let o = c.output().expect("runs clang-19");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Some(out)
}

fn run(co: &Path, args: &[&str], out: &Path) -> Output {
    common::command(["dispatch"])
        .arg(co)
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .expect("runs rdnaprobe")
}

fn dwords(path: &Path) -> Vec<u32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn a_store_past_its_buffer_faults_and_leaves_the_next_buffer_alone() {
    let dir = tempfile::tempdir().unwrap();
    // 512 work-items write 2 KiB into a 256-byte `out`; `a` follows it in memory. The CPU model
    // faults each store outside `out`; on lavapipe they land in the guard zone after `out`
    // and are found there after the wave. Either way `a` is untouched.
    let over = "--kernel copy_plus_one --grid 512 --block 64 --arg out=zeros:256 --arg a=iota:512";
    let fits = "--kernel copy_plus_one --grid 512 --block 64 --arg out=zeros:2048 --arg a=iota:512";
    for wave in [32, 64] {
        let Some(co) = compile(dir.path(), wave) else {
            return;
        };
        for (backend, says) in [
            ("cpu", "writes 4 bytes at 0x"),
            ("vulkan:lavapipe", "a store changed the guard zone at 0x"),
        ] {
            let od = dir
                .path()
                .join(format!("over{wave}-{}", backend.replace(':', "_")));
            let o = run_words(&co, &format!("{over} --backend {backend}"), &od);
            let err = common::text(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "wave{wave} {backend}: {err}");
            assert!(err.contains(says), "{err}");
            assert!(err.contains("fault: "), "{err}");
            assert!(err.contains("past the end of `out` (256 bytes"), "{err}");
            assert!(
                err.contains("kernel copy_plus_one: workgroup [1, 0, 0] wave 0"),
                "{err}"
            );
            let a = dwords(&od.join("a.bin"));
            assert_eq!(
                a,
                (0..512).collect::<Vec<u32>>(),
                "wave{wave} {backend}: `a` changed"
            );
            let out = dwords(&od.join("out.bin"));
            assert_eq!(
                out,
                (1..=64).collect::<Vec<u32>>(),
                "wave{wave} {backend}: in range"
            );
            let manifest = std::fs::read_to_string(od.join("dispatch.json")).unwrap();
            assert!(manifest.contains("past the end of `out`"), "{manifest}");
        }
        assert!(err_free(&co, fits, &dir.path().join(format!("fits{wave}"))));
    }
}

/// `args` runs clean, and `out` holds a + 1 for 512 work-items.
fn err_free(co: &Path, args: &str, od: &Path) -> bool {
    let o = run_words(co, args, od);
    assert_eq!(o.status.code(), Some(0), "{}", common::text(&o.stderr));
    dwords(&od.join("out.bin")) == (1..=512).collect::<Vec<u32>>()
}

/// `run` with the arguments as one string, split at spaces.
fn run_words(co: &Path, args: &str, out: &Path) -> Output {
    run(co, &args.split_whitespace().collect::<Vec<_>>(), out)
}

/// `args` is exit 2 with a message containing `want`.
fn refused(co: &Path, args: &str, out: &Path, want: &str) {
    let o = run_words(co, args, out);
    let err = common::text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args}: {err}");
    assert!(err.contains(want), "{args}: {err}");
}

#[test]
fn the_block_defaults_to_the_required_size_and_must_match_it() {
    let dir = tempfile::tempdir().unwrap();
    let Some(co) = compile(dir.path(), 32) else {
        return;
    };
    let od = dir.path().join("fixed");
    let o = run_words(
        &co,
        "--kernel fixed_block --grid 256 --arg out=zeros:1024",
        &od,
    );
    assert_eq!(o.status.code(), Some(0), "{}", common::text(&o.stderr));
    let want: Vec<u32> = (0..256u32).map(|i| ((i / 128) << 16) | (i % 128)).collect();
    assert_eq!(dwords(&od.join("out.bin")), want);
    let out = dir.path().join("refused");
    refused(
        &co,
        "--kernel fixed_block --grid 256 --block 64 --arg out=zeros:1024",
        &out,
        "was built for workgroups of 128,1,1",
    );
    refused(
        &co,
        "--kernel copy_plus_one --grid 4096 --block 2048 --arg out=zeros:16384 --arg a=iota:4096",
        &out,
        "gfx10 allows 1024",
    );
    refused(
        &co,
        "--kernel copy_plus_one --grid 64 --block 64 --arg out=zeros:256 --arg out=zeros:512 \
         --arg a=iota:64",
        &out,
        "`out` is given twice",
    );
}

/// A branch-free kernel in workgroups of several waves runs on lavapipe (each wave to its end,
/// in the workgroup's order) and equals the CPU model.
#[test]
fn a_branch_free_kernel_in_multi_wave_workgroups_runs_on_lavapipe() {
    let dir = tempfile::tempdir().unwrap();
    for (wave, block) in [(32u32, "64"), (64, "128")] {
        let Some(co) = compile(dir.path(), wave) else {
            return;
        };
        let mut outs = Vec::new();
        for backend in ["cpu", "vulkan:lavapipe"] {
            let od = dir
                .path()
                .join(format!("{wave}{}", backend.replace(':', "_")));
            let o = run(
                &co,
                &[
                    "--kernel",
                    "copy_plus_one",
                    "--grid",
                    "512",
                    "--block",
                    block,
                    "--arg",
                    "out=zeros:2048",
                    "--arg",
                    "a=random:7:2048",
                    "--backend",
                    backend,
                ],
                &od,
            );
            assert_eq!(
                o.status.code(),
                Some(0),
                "wave{wave} {backend}: {}",
                common::text(&o.stderr)
            );
            outs.push(dwords(&od.join("out.bin")));
        }
        let a = dwords(&dir.path().join(format!("{wave}cpu")).join("a.bin"));
        let want: Vec<u32> = a.iter().map(|v| v.wrapping_add(1)).collect();
        assert_eq!(outs[0], want, "wave{wave} cpu");
        assert_eq!(outs[1], want, "wave{wave} lavapipe");
    }
}

/// HIP code objects as hipcc makes them: a fat binary (`-c`: a host object whose `.hip_fatbin`
/// holds an offload bundle) and a device-only bundle, each for gfx1030 and gfx1100; dispatch
/// runs their gfx1030 entry. A bundle of two gfx103x entries needs `--gfx`.
#[test]
fn hip_fat_binaries_and_offload_bundles_run_their_gfx103x_entry() {
    if !common::tools_or_skip(&["clang-19", "clang-offload-bundler-19"], "dispatch_checks") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels/add_one.hip");
    let hip = |archs: &[&str], extra: &[&str], out: &str| {
        let path = dir.path().join(out);
        let mut c = Command::new("clang-19");
        c.args(["-x", "hip", "-nogpulib", "-nogpuinc", "-O2", "-c"]);
        for a in archs {
            c.arg(format!("--offload-arch={a}"));
        }
        let o = c
            .args(extra)
            .arg(&src)
            .arg("-o")
            .arg(&path)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        path
    };
    let fat = hip(&["gfx1030", "gfx1100"], &[], "fat.o");
    let device = hip(
        &["gfx1100", "gfx1030"],
        &["--cuda-device-only"],
        "device.bundle",
    );
    let two = hip(
        &["gfx1030", "gfx1035"],
        &["--cuda-device-only"],
        "two.bundle",
    );
    let args = |gfx: Option<&'static str>| {
        let mut v = vec![
            "--kernel",
            "add_one",
            "--grid",
            "256",
            "--block",
            "64",
            "--arg",
            "arg0=zeros:1024",
            "--arg",
            "arg1=iota:256",
        ];
        if let Some(g) = gfx {
            v.extend(["--gfx", g]);
        }
        v
    };
    let want: Vec<u32> = (1..=256).collect();
    for (co, gfx) in [(&fat, None), (&device, None), (&two, Some("gfx1035"))] {
        let od = dir
            .path()
            .join(format!("out-{}", co.file_name().unwrap().to_string_lossy()));
        let o = run(co, &args(gfx), &od);
        let err = common::text(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{}: {err}", co.display());
        assert!(
            err.contains("offload bundle entry hipv4-amdgcn-amd-amdhsa--gfx103"),
            "{err}"
        );
        assert_eq!(dwords(&od.join("arg0.bin")), want, "{}", co.display());
    }
    let o = run(&two, &args(None), &dir.path().join("two-none"));
    let err = common::text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("several gfx103x entries"), "{err}");
}
