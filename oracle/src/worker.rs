//! The process-isolated worker and its watchdog.
//!
//! The GPU work runs in a child process (the `rdnaprobe` binary re-executed with its hidden
//! `oracle-worker` subcommand, or `rdnaprobe-oracle-worker`), which reads requests and writes
//! responses as JSON lines on stdin/stdout; byte payloads are hex (little-endian dwords). The
//! [`Supervisor`] gives every batch a deadline: if the child does not answer in time it is killed
//! (a hung GPU kernel cannot be interrupted otherwise) and the batch fails with
//! [`BatchError::Timeout`]; if the child dies, the batch fails with [`BatchError::Crashed`] carrying
//! the exit status and the tail of its stderr. Either way the next batch starts a fresh child.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::error::{OracleError, Result};
use crate::exec::{Batch, Executor, FakeExecutor, HipExecutor, LaneOutput, FAKE_WORKER_ENV};
use crate::hip::Hip;
use crate::protocol::{
    check_waves_done, decode_batch, decode_code_object, decode_done, encode_done,
};
pub use crate::protocol::{Request, Response};
use crate::template::INPUT_DWORDS;
use crate::wave::{WaveBatch, WaveInput, WaveResult, WaveShape};

fn write_line(out: &mut impl Write, r: &Response) -> Result<()> {
    let io = |e: std::io::Error| OracleError::Io {
        path: PathBuf::from("<stdout>"),
        source: e,
    };
    let line = serde_json::to_string(r).map_err(|e| OracleError::Protocol(e.to_string()))?;
    out.write_all(line.as_bytes()).map_err(io)?;
    out.write_all(b"\n").map_err(io)?;
    out.flush().map_err(io)
}

/// The worker side: answers requests from `input` on `output` until EOF or `shutdown`.
/// `make_executor` is called on the first batch, so a worker that never gets work never touches
/// the GPU; if it fails, every batch gets that failure.
pub fn serve(
    input: impl BufRead,
    mut output: impl Write,
    make_executor: impl FnOnce() -> Result<Box<dyn Executor>>,
) -> Result<()> {
    write_line(
        &mut output,
        &Response::Ready {
            pid: std::process::id(),
        },
    )?;
    let mut make = Some(make_executor);
    let mut exec: Option<std::result::Result<Box<dyn Executor>, String>> = None;
    for line in input.lines() {
        let line = line.map_err(|e| OracleError::Io {
            path: PathBuf::from("<stdin>"),
            source: e,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let req: Request = serde_json::from_str(&line)
            .map_err(|e| OracleError::Protocol(format!("bad request: {e}")))?;
        let id = match &req {
            Request::Shutdown => break,
            Request::Run { id, .. } | Request::RunWaves { id, .. } => *id,
        };
        if exec.is_none() {
            let f = make.take().expect("executor is made once");
            exec = Some(f().map_err(|e| e.to_string()));
        }
        let response = match exec.as_mut().expect("set above") {
            Err(e) => Err(e.clone()),
            Ok(x) => answer(x.as_mut(), req).map_err(|e| e.to_string()),
        }
        .unwrap_or_else(|error| Response::Failed { id, error });
        write_line(&mut output, &response)?;
    }
    Ok(())
}

/// Decodes and runs one `run` or `run_waves` request.
fn answer(x: &mut dyn Executor, req: Request) -> Result<Response> {
    match req {
        Request::Run {
            id,
            device,
            code_object,
            inputs,
        } => Ok(encode_done(
            id,
            &x.run(&decode_batch(id, device, &code_object, &inputs)?)?,
        )),
        Request::RunWaves {
            id,
            device,
            code_object,
            shape,
            waves,
        } => {
            let batch = WaveBatch {
                id,
                device,
                code_object: decode_code_object(&code_object)?,
                shape,
                waves,
            };
            Ok(Response::WavesDone {
                id,
                waves: x.run_waves(&batch)?,
            })
        }
        Request::Shutdown => Err(OracleError::Protocol("shutdown is not a batch".into())),
    }
}

/// The worker's entry point for a binary: stdin/stdout, the fake executor when
/// [`FAKE_WORKER_ENV`] is set, HIP otherwise.
pub fn serve_stdio() -> Result<()> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    let fake = std::env::var(FAKE_WORKER_ENV).ok();
    serve(stdin, stdout, move || match fake {
        Some(plan) => Ok(Box::new(FakeExecutor::from_plan(&plan)?) as Box<dyn Executor>),
        None => Ok(Box::new(HipExecutor::new(Hip::load()?)?) as Box<dyn Executor>),
    })
}

/// How to start the worker process.
#[derive(Clone, Debug)]
pub struct WorkerCommand {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub envs: Vec<(OsString, OsString)>,
}

impl WorkerCommand {
    pub fn new(program: impl Into<PathBuf>) -> WorkerCommand {
        WorkerCommand {
            program: program.into(),
            args: Vec::new(),
            envs: Vec::new(),
        }
    }
    pub fn arg(mut self, a: impl Into<OsString>) -> WorkerCommand {
        self.args.push(a.into());
        self
    }
    pub fn env(mut self, k: impl Into<OsString>, v: impl Into<OsString>) -> WorkerCommand {
        self.envs.push((k.into(), v.into()));
        self
    }
}

/// Deadlines of the watchdog.
#[derive(Clone, Copy, Debug)]
pub struct Watchdog {
    /// Time for the child to start and say `ready`.
    pub startup: Duration,
    /// Time for a batch, plus `per_million_rows` for every million rows.
    pub batch: Duration,
    pub per_million_rows: Duration,
}

impl Default for Watchdog {
    fn default() -> Watchdog {
        Watchdog {
            startup: Duration::from_secs(60),
            batch: Duration::from_secs(20),
            per_million_rows: Duration::from_secs(5),
        }
    }
}

impl Watchdog {
    pub fn deadline(&self, rows: usize) -> Duration {
        self.batch + self.per_million_rows.mul_f64(rows as f64 / 1e6)
    }
}

/// Why a batch produced no rows. The row status is `error: <Display>`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    #[error("timeout")]
    Timeout { after: Duration },
    #[error("worker crashed: {status}{}", if stderr.is_empty() { String::new() } else { format!(" ({stderr})") })]
    Crashed { status: String, stderr: String },
    /// The worker answered with an error (HIP failure, bad code object ...).
    #[error("{0}")]
    Failed(String),
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

const STDERR_TAIL_LINES: usize = 8;

/// Runs batches in a child process, restarting it after a hang or a crash.
pub struct Supervisor {
    command: WorkerCommand,
    watchdog: Watchdog,
    running: Option<Running>,
    next_id: u64,
    starts: u32,
}

impl Supervisor {
    pub fn new(command: WorkerCommand, watchdog: Watchdog) -> Supervisor {
        Supervisor {
            command,
            watchdog,
            running: None,
            next_id: 0,
            starts: 0,
        }
    }

    /// How many times a worker was started after the first.
    pub fn restarts(&self) -> u32 {
        self.starts.saturating_sub(1)
    }

    /// Runs one batch; `id` is assigned here (0, 1, 2, ... per supervisor).
    pub fn run(
        &mut self,
        device: i32,
        code_object: &[u8],
        inputs: &[[u32; INPUT_DWORDS]],
    ) -> std::result::Result<Vec<LaneOutput>, BatchError> {
        let batch = Batch {
            id: self.next_id,
            device,
            code_object: code_object.to_vec(),
            inputs: inputs.to_vec(),
        };
        self.next_id += 1;
        let line = serde_json::to_string(&Request::run(&batch));
        let deadline = self.watchdog.deadline(batch.inputs.len());
        match self.exchange(batch.id, line, deadline)? {
            Response::Done { outputs, done, .. } => {
                decode_done(batch.inputs.len(), &outputs, &done)
                    .map_err(|e| BatchError::Failed(e.to_string()))
            }
            other => Err(unexpected(&other, batch.id)),
        }
    }

    /// Runs one batch of waves of the wave kernel `code_object` (assembled for `shape`); the
    /// deadline counts every lane of every wave as a row.
    pub fn run_waves(
        &mut self,
        device: i32,
        code_object: &[u8],
        shape: WaveShape,
        waves: &[WaveInput],
    ) -> std::result::Result<Vec<WaveResult>, BatchError> {
        let batch = WaveBatch {
            id: self.next_id,
            device,
            code_object: code_object.to_vec(),
            shape,
            waves: waves.to_vec(),
        };
        self.next_id += 1;
        let line = serde_json::to_string(&Request::run_waves(&batch));
        let deadline = self.watchdog.deadline(waves.len() * shape.lanes());
        match self.exchange(batch.id, line, deadline)? {
            Response::WavesDone { waves, .. } => {
                check_waves_done(&batch, &waves).map_err(|e| BatchError::Failed(e.to_string()))?;
                Ok(waves)
            }
            other => Err(unexpected(&other, batch.id)),
        }
    }

    /// Sends one request line and returns the answer to batch `id` (a `failed` answer is
    /// [`BatchError::Failed`]); a hang or a crash discards the worker.
    fn exchange(
        &mut self,
        id: u64,
        line: serde_json::Result<String>,
        deadline: Duration,
    ) -> std::result::Result<Response, BatchError> {
        let line = line.map_err(|e| BatchError::Failed(e.to_string()))?;
        let result = self.try_exchange(&line, deadline);
        if matches!(
            result,
            Err(BatchError::Timeout { .. }) | Err(BatchError::Crashed { .. })
        ) {
            self.discard();
        }
        match result? {
            Response::Failed { id: got, error } if got == id => Err(BatchError::Failed(error)),
            Response::Done { id: got, .. } | Response::WavesDone { id: got, .. } if got != id => {
                Err(BatchError::Failed(format!(
                    "worker protocol: answer to batch {got} instead of {id}"
                )))
            }
            other => Ok(other),
        }
    }

    fn try_exchange(
        &mut self,
        line: &str,
        deadline: Duration,
    ) -> std::result::Result<Response, BatchError> {
        if self.running.is_none() {
            self.starts += 1;
            let started = self.start()?;
            self.running = Some(started);
        }
        let running = self.running.as_mut().expect("started above");
        let sent = running
            .stdin
            .write_all(line.as_bytes())
            .and_then(|_| running.stdin.write_all(b"\n"))
            .and_then(|_| running.stdin.flush());
        if sent.is_err() {
            return Err(self.crashed());
        }
        self.next_response(deadline)
    }

    fn next_response(&mut self, deadline: Duration) -> std::result::Result<Response, BatchError> {
        let running = self.running.as_mut().expect("running");
        match running.lines.recv_timeout(deadline) {
            Ok(Ok(line)) => serde_json::from_str(&line).map_err(|e| {
                BatchError::Failed(format!("worker protocol: bad response line: {e}"))
            }),
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
            Err(RecvTimeoutError::Timeout) => Err(BatchError::Timeout { after: deadline }),
        }
    }

    fn start(&mut self) -> std::result::Result<Running, BatchError> {
        let fail = |what: String| BatchError::Crashed {
            status: what,
            stderr: String::new(),
        };
        let mut cmd = Command::new(&self.command.program);
        cmd.args(&self.command.args)
            .envs(self.command.envs.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| {
            fail(format!(
                "cannot start {}: {e}",
                self.command.program.display()
            ))
        })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let stop = line.is_err();
                if tx.send(line).is_err() || stop {
                    break;
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail_w = Arc::clone(&tail);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr)
                .lines()
                .map_while(std::result::Result::ok)
            {
                let mut t = tail_w.lock().unwrap_or_else(|p| p.into_inner());
                if t.len() == STDERR_TAIL_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        self.running = Some(Running {
            child,
            stdin,
            lines: rx,
            stderr_tail: tail,
        });
        match self.next_response(self.watchdog.startup) {
            Ok(Response::Ready { .. }) => Ok(self.running.take().expect("set above")),
            Ok(other) => {
                self.discard();
                Err(fail(format!("worker did not start: first line {other:?}")))
            }
            Err(BatchError::Timeout { after }) => {
                self.discard();
                Err(fail(format!(
                    "worker sent nothing within {after:?} of starting"
                )))
            }
            Err(e) => {
                self.discard();
                Err(e)
            }
        }
    }

    /// The child is gone (or its pipes are): collect its exit status and stderr tail.
    fn crashed(&mut self) -> BatchError {
        let Some(mut r) = self.running.take() else {
            return BatchError::Crashed {
                status: "worker not running".into(),
                stderr: String::new(),
            };
        };
        // The pipes closed; give the process a moment to be reaped, then make sure it is gone.
        let mut status = None;
        for _ in 0..50 {
            if let Ok(Some(s)) = r.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let status = match status {
            Some(s) => describe_exit(s),
            None => {
                let _ = r.child.kill();
                let _ = r.child.wait();
                "closed its output and was killed".into()
            }
        };
        // Let the stderr reader drain what the dead process wrote.
        std::thread::sleep(Duration::from_millis(50));
        let stderr = r
            .stderr_tail
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .cloned()
            .collect::<Vec<_>>()
            .join(" | ");
        BatchError::Crashed { status, stderr }
    }

    /// Kills and reaps the child, if any.
    fn discard(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        if let Some(r) = self.running.as_mut() {
            let line = serde_json::to_string(&Request::Shutdown).unwrap_or_default();
            let _ = writeln!(r.stdin, "{line}");
            let _ = r.stdin.flush();
            for _ in 0..25 {
                if let Ok(Some(_)) = r.child.try_wait() {
                    self.running = None;
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        self.discard();
    }
}

fn unexpected(r: &Response, id: u64) -> BatchError {
    BatchError::Failed(format!(
        "worker protocol: unexpected response {r:?} to batch {id}"
    ))
}

fn describe_exit(s: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            let name = match sig {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                _ => "",
            };
            return format!("killed by signal {sig}{name}");
        }
    }
    match s.code() {
        Some(c) => format!("exit code {c}"),
        None => "terminated".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serve_round_trips_batches_in_process() {
        let batch = Batch {
            id: 4,
            device: 0,
            code_object: vec![1, 2, 3],
            inputs: vec![[1, 2, 3, 4, 5, 6], [7; 6]],
        };
        let mut input = serde_json::to_string(&Request::run(&batch)).unwrap();
        input.push('\n');
        input.push_str("{\"op\":\"shutdown\"}\n");
        let mut out = Vec::new();
        serve(input.as_bytes(), &mut out, || {
            Ok(Box::new(FakeExecutor::default()) as Box<dyn Executor>)
        })
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<Response> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(matches!(lines[0], Response::Ready { .. }));
        let Response::Done { id, outputs, done } = &lines[1] else {
            panic!("{:?}", lines[1])
        };
        assert_eq!(*id, 4);
        let lanes = decode_done(2, outputs, done).unwrap();
        assert_eq!(lanes[1], FakeExecutor::expected(&[1, 2, 3], &[7; 6]));
        assert_eq!(
            lanes[0],
            FakeExecutor::expected(&[1, 2, 3], &[1, 2, 3, 4, 5, 6])
        );
    }

    #[test]
    fn serve_round_trips_wave_batches() {
        let shape = WaveShape {
            wave: crate::mode::Wave::W64,
            lds_bytes: 8,
        };
        let batch = WaveBatch {
            id: 9,
            device: 0,
            code_object: vec![5; 11],
            shape,
            waves: vec![
                WaveInput {
                    lanes: vec![[1, 2, 3, 4, 5, 6]; 3],
                    s_in: [7; 16],
                    exec_in: 0x8000_0000_0000_0001,
                    lds_in: vec![9],
                    mem_in: vec![1, 2],
                    mem_bytes: 12,
                },
                WaveInput::default(),
            ],
        };
        let input = format!(
            "{}\n",
            serde_json::to_string(&Request::run_waves(&batch)).unwrap()
        );
        let mut out = Vec::new();
        serve(input.as_bytes(), &mut out, || {
            Ok(Box::new(FakeExecutor::default()) as Box<dyn Executor>)
        })
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let line = text.lines().nth(1).unwrap();
        let Response::WavesDone { id, waves } = serde_json::from_str(line).unwrap() else {
            panic!("{line}")
        };
        assert_eq!(id, 9);
        check_waves_done(&batch, &waves).unwrap();
        for (w, i) in waves.iter().zip(&batch.waves) {
            assert_eq!(
                *w,
                FakeExecutor::expected_wave(&batch.code_object, &shape, i)
            );
        }
        assert_eq!(waves[0].lds_out, [9, 0]);
        assert_eq!(waves[0].mem_out, [1, 2, 0]);
        assert!(check_waves_done(&batch, &waves[..1]).is_err());
    }

    #[test]
    fn bad_payloads_are_errors() {
        assert!(decode_batch(0, 0, "zz", "").is_err());
        assert!(decode_batch(0, 0, "", "0102").is_err());
        assert!(decode_batch(0, 0, "", &"00".repeat(4 * 5)).is_err());
        assert!(decode_done(1, "", "").is_err());
    }

    #[test]
    fn executor_failure_reaches_every_batch() {
        let batch = Batch {
            id: 0,
            device: 0,
            code_object: vec![],
            inputs: vec![[0; 6]],
        };
        let input = format!(
            "{}\n",
            serde_json::to_string(&Request::run(&batch)).unwrap()
        );
        let mut out = Vec::new();
        serve(input.as_bytes(), &mut out, || {
            Err(OracleError::NoDevice {
                reason: "test".into(),
            })
        })
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("\"op\":\"failed\"") && text.contains("no HIP device: test"),
            "{text}"
        );
    }
}
