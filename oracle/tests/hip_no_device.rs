//! On a machine without an AMD GPU, HIP must say so with a named error, and the worker must turn
//! that into a failed batch, not a crash.

use rdnaprobe_oracle::hip::HIP_ERROR_NO_DEVICE;
use rdnaprobe_oracle::wave::{WaveInput, WaveShape};
use rdnaprobe_oracle::worker::{BatchError, Supervisor, Watchdog, WorkerCommand};
use rdnaprobe_oracle::{Hip, OracleError, Wave};

fn has_amd_gpu() -> bool {
    std::path::Path::new("/dev/kfd").exists()
}

#[test]
fn hip_reports_no_device_by_name() {
    if has_amd_gpu() {
        eprintln!("skipping hip_reports_no_device_by_name: /dev/kfd exists");
        return;
    }
    let hip = match Hip::load() {
        Ok(h) => h,
        Err(e @ OracleError::LibraryNotFound { .. }) => {
            // Also a clean "no device" outcome; the message must name the sonames it tried.
            assert!(e.to_string().contains("libamdhip64.so.5"), "{e}");
            eprintln!("libamdhip64 absent: {e}");
            return;
        }
        Err(e) => panic!("unexpected: {e}"),
    };
    let err = hip.device_count().unwrap_err();
    let text = err.to_string();
    eprintln!("{text}");
    match err {
        OracleError::NoDevice { reason } => {
            assert!(
                reason.contains(&format!("hipErrorNoDevice ({HIP_ERROR_NO_DEVICE})"))
                    || reason.contains("0 devices"),
                "{reason}"
            )
        }
        other => panic!("expected NoDevice, got {other:?}"),
    }
    // hipInit fails with a named error too (hipErrorInvalidDevice on ROCm 5.2 without /dev/kfd).
    if let Err(e) = hip.init() {
        assert!(
            matches!(
                e,
                OracleError::Hip {
                    call: "hipInit",
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("hipError"), "{e}");
    }
}

#[test]
fn real_worker_fails_batches_cleanly_without_a_device() {
    if has_amd_gpu() {
        eprintln!("skipping real_worker_fails_batches_cleanly_without_a_device: /dev/kfd exists");
        return;
    }
    let cmd = WorkerCommand::new(env!("CARGO_BIN_EXE_rdnaprobe-oracle-worker"));
    let mut sup = Supervisor::new(cmd, Watchdog::default());
    for _ in 0..2 {
        match sup.run(0, b"not an elf", &[[0; 6]]) {
            Err(BatchError::Failed(msg)) => {
                assert!(
                    msg.contains("hipError") || msg.contains("not found"),
                    "{msg}"
                );
            }
            other => panic!("expected a failed batch, got {other:?}"),
        }
    }
    assert_eq!(sup.restarts(), 0, "a failed batch keeps the worker");
    // Wave batches too: the same named HIP error, no crash.
    let shape = WaveShape {
        wave: Wave::W32,
        lds_bytes: 0,
    };
    match sup.run_waves(0, b"not an elf", shape, &[WaveInput::default()]) {
        Err(BatchError::Failed(msg)) => {
            assert!(
                msg.contains("hipError") || msg.contains("not found"),
                "{msg}"
            );
        }
        other => panic!("expected a failed wave batch, got {other:?}"),
    }
    assert_eq!(sup.restarts(), 0);
}
