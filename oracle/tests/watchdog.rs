//! The watchdog, for real: a child worker in fake mode (RDNAPROBE_FAKE_WORKER) that hangs,
//! aborts or exits on a chosen batch. The affected batch fails; the next one runs in a new child.

use std::time::{Duration, Instant};

use rdnaprobe_oracle::exec::{FakeExecutor, FAKE_WORKER_ENV};
use rdnaprobe_oracle::wave::{WaveInput, WaveShape};
use rdnaprobe_oracle::worker::{BatchError, Supervisor, Watchdog, WorkerCommand};
use rdnaprobe_oracle::Wave;

const CODE: &[u8] = b"fake code object";

fn supervisor(plan: &str, batch_deadline: Duration) -> Supervisor {
    let cmd = WorkerCommand::new(env!("CARGO_BIN_EXE_rdnaprobe-oracle-worker"))
        .env(FAKE_WORKER_ENV, plan);
    Supervisor::new(
        cmd,
        Watchdog {
            startup: Duration::from_secs(20),
            batch: batch_deadline,
            per_million_rows: Duration::ZERO,
        },
    )
}

fn rows(seed: u32, n: u32) -> Vec<[u32; 6]> {
    (0..n)
        .map(|i| [seed, i, i.wrapping_mul(0x9e37_79b9), !i, 0x8000_0000 | i, 7])
        .collect()
}

fn assert_ok(sup: &mut Supervisor, inputs: &[[u32; 6]]) {
    let out = sup.run(0, CODE, inputs).expect("batch runs");
    assert_eq!(out.len(), inputs.len());
    for (o, i) in out.iter().zip(inputs) {
        assert_eq!(*o, FakeExecutor::expected(CODE, i));
    }
}

#[test]
fn batches_flow_through_one_worker() {
    let mut sup = supervisor("", Duration::from_secs(20));
    for b in 0..3 {
        assert_ok(&mut sup, &rows(b, 100 + b * 1000));
    }
    assert_eq!(sup.restarts(), 0);
}

#[test]
fn hang_times_out_and_the_sweep_resumes() {
    let mut sup = supervisor("hang@1", Duration::from_millis(1500));
    assert_ok(&mut sup, &rows(0, 10));
    let t = Instant::now();
    let err = sup.run(0, CODE, &rows(1, 10)).unwrap_err();
    let waited = t.elapsed();
    assert!(matches!(err, BatchError::Timeout { .. }), "{err:?}");
    assert_eq!(err.to_string(), "timeout");
    assert!(
        waited >= Duration::from_millis(1500) && waited < Duration::from_secs(10),
        "{waited:?}"
    );
    assert_ok(&mut sup, &rows(2, 10));
    assert_eq!(sup.restarts(), 1);
}

#[test]
fn abort_is_a_crash_with_the_signal() {
    let mut sup = supervisor("abort@0,abort@2", Duration::from_secs(20));
    let err = sup.run(0, CODE, &rows(0, 5)).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("worker crashed: killed by signal 6 (SIGABRT)"),
        "{err}"
    );
    assert_ok(&mut sup, &rows(1, 5));
    assert!(matches!(
        sup.run(0, CODE, &rows(2, 5)),
        Err(BatchError::Crashed { .. })
    ));
    assert_ok(&mut sup, &rows(3, 5));
    assert_eq!(sup.restarts(), 2);
}

#[test]
fn exit_and_reported_errors() {
    let mut sup = supervisor("exit@1,error@2", Duration::from_secs(20));
    assert_ok(&mut sup, &rows(0, 3));
    let err = sup.run(0, CODE, &rows(1, 3)).unwrap_err();
    assert_eq!(err.to_string(), "worker crashed: exit code 3");
    let err = sup.run(0, CODE, &rows(2, 3)).unwrap_err();
    assert_eq!(
        err,
        BatchError::Failed("HIP hipModuleLaunchKernel failed: hipErrorLaunchFailure (719)".into())
    );
    assert_ok(&mut sup, &rows(3, 3));
    assert_eq!(sup.restarts(), 1, "a reported error keeps the worker");
}

#[test]
fn missing_worker_program_is_a_crash_not_a_panic() {
    let cmd = WorkerCommand::new("/nonexistent/rdnaprobe-worker");
    let mut sup = Supervisor::new(cmd, Watchdog::default());
    let err = sup.run(0, CODE, &rows(0, 1)).unwrap_err();
    assert!(
        err.to_string()
            .contains("cannot start /nonexistent/rdnaprobe-worker"),
        "{err}"
    );
}

#[test]
fn bad_plan_fails_batches_with_the_reason() {
    let mut sup = supervisor("explode@1", Duration::from_secs(20));
    let err = sup.run(0, CODE, &rows(0, 1)).unwrap_err();
    assert!(
        err.to_string()
            .contains("bad RDNAPROBE_FAKE_WORKER item `explode@1`"),
        "{err}"
    );
}

fn waves(seed: u32, n: u32, shape: WaveShape) -> Vec<WaveInput> {
    (0..n)
        .map(|w| WaveInput {
            lanes: rows(seed ^ w, shape.lanes() as u32 - w % 3),
            s_in: std::array::from_fn(|k| seed.wrapping_mul(31) ^ ((k as u32) << (w % 8))),
            exec_in: 0x0123_4567_89ab_cdef_u64.rotate_left(seed + w),
            lds_in: (0..(shape.lds_bytes / 4).min(w))
                .map(|k| k ^ seed)
                .collect(),
            mem_in: vec![seed, w],
            mem_bytes: 8 + 4 * w,
        })
        .collect()
}

#[test]
fn wave_batches_flow_and_a_hang_costs_one_batch() {
    let mut sup = supervisor("hang@1", Duration::from_millis(1500));
    for (b, shape) in [
        WaveShape {
            wave: Wave::W32,
            lds_bytes: 256,
        },
        WaveShape {
            wave: Wave::W64,
            lds_bytes: 0,
        },
        WaveShape {
            wave: Wave::W64,
            lds_bytes: 4096,
        },
    ]
    .into_iter()
    .enumerate()
    {
        let inputs = waves(b as u32, 5, shape);
        match sup.run_waves(0, CODE, shape, &inputs) {
            Err(e) if b == 1 => assert!(matches!(e, BatchError::Timeout { .. }), "{e:?}"),
            Err(e) => panic!("batch {b}: {e}"),
            Ok(out) => {
                assert_ne!(b, 1, "batch 1 hangs");
                assert_eq!(out.len(), inputs.len());
                for (o, i) in out.iter().zip(&inputs) {
                    assert_eq!(*o, FakeExecutor::expected_wave(CODE, &shape, i));
                }
            }
        }
    }
    assert_eq!(sup.restarts(), 1);
}
