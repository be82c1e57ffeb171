//! Running rows of one probe kernel (and waves of one wave kernel): the [`Executor`] trait, the
//! HIP implementation, and a fake one that the watchdog tests use on machines without a GPU.

use std::collections::HashMap;

use crate::error::{OracleError, Result};
use crate::hip::{Hip, Module};
use crate::template::{
    DONE_MARK, INPUT_DWORDS, KERNARG_SIZE, KERNEL_NAME, OUTPUT_DWORDS, WORKGROUP_SIZE,
};
use crate::wave::hip::{check_code_object, HipWaveDevice};
use crate::wave::{run_waves_on, WaveBatch, WaveDevice, WaveInput, WaveResult, WaveShape};

/// Rows per dispatch: 4 Mi rows keep the per-lane byte offsets of the template (row * 64) far
/// inside 32 bits and the buffers at 96 MiB in + 256 MiB out.
pub const MAX_ROWS_PER_DISPATCH: usize = 1 << 22;
/// Code objects kept loaded per worker before the cache is emptied.
const MODULE_CACHE: usize = 256;

/// One batch: the rows of one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Sequence number given by the supervisor (fault injection in the fake executor keys on it).
    pub id: u64,
    pub device: i32,
    pub code_object: Vec<u8>,
    pub inputs: Vec<[u32; INPUT_DWORDS]>,
}

/// What one lane produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneOutput {
    pub outputs: [u32; OUTPUT_DWORDS],
    /// The template's store sequence ran for this row (see [`DONE_MARK`]).
    pub done: bool,
}

pub trait Executor {
    /// Runs every row of `batch`; one output per input row, in order.
    fn run(&mut self, batch: &Batch) -> Result<Vec<LaneOutput>>;
    /// Runs every wave of `batch` (a wave-contract kernel); one result per wave, in order.
    fn run_waves(&mut self, batch: &WaveBatch) -> Result<Vec<WaveResult>>;
}

/// Executes on a HIP device, in the current process. Use it inside the worker process only: a
/// faulting kernel can take the process down.
pub struct HipExecutor {
    hip: Hip,
    device: Option<i32>,
    modules: HashMap<Vec<u8>, Module>,
}

impl HipExecutor {
    pub fn new(hip: Hip) -> Result<HipExecutor> {
        hip.init()?;
        Ok(HipExecutor {
            hip,
            device: None,
            modules: HashMap::new(),
        })
    }

    /// Loads `code_object` unless it is loaded already, and checks it has the probe kernel.
    fn load(&mut self, code_object: &[u8]) -> Result<()> {
        if self.modules.contains_key(code_object) {
            return Ok(());
        }
        if self.modules.len() >= MODULE_CACHE {
            for (_, m) in self.modules.drain() {
                self.hip.module_unload(m)?;
            }
        }
        let module = self.hip.module_load_data(code_object)?;
        if let Err(e) = self.hip.module_get_function(&module, KERNEL_NAME) {
            let _ = self.hip.module_unload(module);
            return Err(e);
        }
        self.modules.insert(code_object.to_vec(), module);
        Ok(())
    }
}

impl Drop for HipExecutor {
    fn drop(&mut self) {
        for (_, m) in self.modules.drain() {
            // Unloading can only fail for a dead context, which the process exit cleans up.
            let _ = self.hip.module_unload(m);
        }
    }
}

impl Executor for HipExecutor {
    fn run(&mut self, batch: &Batch) -> Result<Vec<LaneOutput>> {
        self.select(batch.device)?;
        self.load(&batch.code_object)?;
        let module = &self.modules[&batch.code_object];
        let device = HipWaveDevice {
            hip: &self.hip,
            function: self.hip.module_get_function(module, KERNEL_NAME)?,
        };
        run_lanes_on(&device, &batch.inputs)
    }

    fn run_waves(&mut self, batch: &WaveBatch) -> Result<Vec<WaveResult>> {
        check_code_object(&batch.code_object, &batch.shape)?;
        self.select(batch.device)?;
        self.load(&batch.code_object)?;
        let module = &self.modules[&batch.code_object];
        let device = HipWaveDevice {
            hip: &self.hip,
            function: self.hip.module_get_function(module, KERNEL_NAME)?,
        };
        run_waves_on(&device, &batch.shape, &batch.waves)
    }
}

impl HipExecutor {
    fn select(&mut self, device: i32) -> Result<()> {
        if self.device != Some(device) {
            self.hip.set_device(device)?;
            self.device = Some(device);
        }
        Ok(())
    }
}

/// Runs the rows of a loaded lane kernel on `dev`, in dispatches of at most
/// [`MAX_ROWS_PER_DISPATCH`] rows: the input, output and done buffers and the kernel-argument
/// block of the template (`crate::template`), one lane per row in workgroups of
/// [`WORKGROUP_SIZE`]. The HIP executor and the runner's CPU model of the template both come
/// through here, so both see the same buffers.
pub fn run_lanes_on<D: WaveDevice>(
    dev: &D,
    rows: &[[u32; INPUT_DWORDS]],
) -> Result<Vec<LaneOutput>> {
    let mut out = Vec::with_capacity(rows.len());
    for chunk in rows.chunks(MAX_ROWS_PER_DISPATCH) {
        out.extend(dispatch_lanes(dev, chunk)?);
    }
    Ok(out)
}

fn dispatch_lanes<D: WaveDevice>(dev: &D, rows: &[[u32; INPUT_DWORDS]]) -> Result<Vec<LaneOutput>> {
    let n = rows.len();
    let input: Vec<u8> = rows
        .iter()
        .flatten()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    // Outputs start zeroed so that a lane that never stores leaves no stale done mark.
    let zeroed = |bytes: usize| -> Result<D::Buffer> {
        let b = dev.alloc(bytes)?;
        dev.upload(&b, &vec![0u8; bytes])?;
        Ok(b)
    };
    let d_in = dev.alloc(input.len())?;
    dev.upload(&d_in, &input)?;
    let d_out = zeroed(n * OUTPUT_DWORDS * 4)?;
    let d_done = zeroed(n * 4)?;
    let mut kernargs = [0u8; KERNARG_SIZE];
    kernargs[0..8].copy_from_slice(&dev.address(&d_in).to_le_bytes());
    kernargs[8..16].copy_from_slice(&dev.address(&d_out).to_le_bytes());
    kernargs[16..24].copy_from_slice(&dev.address(&d_done).to_le_bytes());
    kernargs[24..28].copy_from_slice(&(n as u32).to_le_bytes());
    let groups = n.div_ceil(WORKGROUP_SIZE as usize) as u32;
    dev.launch(&mut kernargs, groups, WORKGROUP_SIZE)?;
    let mut outputs = vec![0u8; n * OUTPUT_DWORDS * 4];
    let mut done = vec![0u8; n * 4];
    dev.download(&d_out, &mut outputs)?;
    dev.download(&d_done, &mut done)?;
    Ok(decode_lanes(&outputs, &done))
}

fn decode_lanes(outputs: &[u8], done: &[u8]) -> Vec<LaneOutput> {
    outputs
        .chunks_exact(OUTPUT_DWORDS * 4)
        .zip(done.chunks_exact(4))
        .map(|(o, d)| {
            let mut lane = [0u32; OUTPUT_DWORDS];
            for (dst, src) in lane.iter_mut().zip(o.chunks_exact(4)) {
                *dst = u32::from_le_bytes(src.try_into().expect("4 bytes"));
            }
            LaneOutput {
                outputs: lane,
                done: u32::from_le_bytes(d.try_into().expect("4 bytes")) == DONE_MARK,
            }
        })
        .collect()
}

/// Environment variable that puts a worker into fake mode (tests only): a comma-separated plan of
/// `ACTION@BATCH` with ACTION `hang` (sleep forever), `abort` (SIGABRT), `exit` (exit code 3) or
/// `error` (report a failure), e.g. `hang@1,abort@3`. Batches not named compute
/// [`FakeExecutor::expected`].
pub const FAKE_WORKER_ENV: &str = "RDNAPROBE_FAKE_WORKER";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FakeAction {
    Hang,
    Abort,
    Exit,
    Error,
}

/// A stand-in for the GPU that follows a fault plan.
#[derive(Clone, Debug, Default)]
pub struct FakeExecutor {
    plan: Vec<(FakeAction, u64)>,
}

impl FakeExecutor {
    /// Parses a plan as in [`FAKE_WORKER_ENV`]; an empty string is a plan without faults.
    pub fn from_plan(plan: &str) -> Result<FakeExecutor> {
        let mut out = Vec::new();
        for item in plan.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let bad = || {
                OracleError::Protocol(format!(
                    "bad {FAKE_WORKER_ENV} item `{item}`: expected ACTION@BATCH"
                ))
            };
            let (action, id) = item.split_once('@').ok_or_else(bad)?;
            let action = match action {
                "hang" => FakeAction::Hang,
                "abort" => FakeAction::Abort,
                "exit" => FakeAction::Exit,
                "error" => FakeAction::Error,
                _ => return Err(bad()),
            };
            out.push((action, id.parse().map_err(|_| bad())?));
        }
        Ok(FakeExecutor { plan: out })
    }

    /// What a fake run returns for a row: `out[k] = in[k % 6]` rotated left by k, xor the code
    /// object's length, so tests see inputs, row order and the kernel travel through the protocol.
    pub fn expected(code_object: &[u8], input: &[u32; INPUT_DWORDS]) -> LaneOutput {
        let mut outputs = [0u32; OUTPUT_DWORDS];
        for (k, o) in outputs.iter_mut().enumerate() {
            *o = input[k % INPUT_DWORDS].rotate_left(k as u32) ^ code_object.len() as u32;
        }
        LaneOutput {
            outputs,
            done: true,
        }
    }
}

impl FakeExecutor {
    /// Carries out the plan's action for batch `id`, if any.
    fn act(&self, id: u64) -> Result<()> {
        let action = self.plan.iter().find(|(_, b)| *b == id).map(|(a, _)| *a);
        match action {
            Some(FakeAction::Hang) => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
            Some(FakeAction::Abort) => std::process::abort(),
            Some(FakeAction::Exit) => std::process::exit(3),
            Some(FakeAction::Error) => Err(OracleError::Hip {
                call: "hipModuleLaunchKernel",
                code: 719,
                name: "hipErrorLaunchFailure".into(),
            }),
            None => Ok(()),
        }
    }

    /// What a fake run returns for a wave: each lane as [`FakeExecutor::expected`] (absent lanes
    /// as zero inputs), s_out = s_in xor the code object's length, EXEC kept, VCC = !EXEC, SCC =
    /// (EXEC != 0), LDS and region unchanged (zero-extended to their sizes).
    pub fn expected_wave(code_object: &[u8], shape: &WaveShape, input: &WaveInput) -> WaveResult {
        let mask = if shape.lanes() == 64 {
            u64::MAX
        } else {
            0xffff_ffff
        };
        let exec = input.exec_in & mask;
        let padded = |v: &[u32], bytes: u32| {
            let mut v = v.to_vec();
            v.resize((bytes as usize).div_ceil(4), 0);
            v
        };
        WaveResult {
            lanes: (0..shape.lanes())
                .map(|l| {
                    let i = input.lanes.get(l).copied().unwrap_or([0; INPUT_DWORDS]);
                    FakeExecutor::expected(code_object, &i).outputs
                })
                .collect(),
            s_out: input.s_in.map(|x| x ^ code_object.len() as u32),
            exec_out: exec,
            vcc_out: !exec & mask,
            scc_out: exec != 0,
            lds_out: padded(&input.lds_in, shape.lds_bytes),
            mem_out: padded(&input.mem_in, input.mem_bytes),
            done: true,
        }
    }
}

impl Executor for FakeExecutor {
    fn run(&mut self, batch: &Batch) -> Result<Vec<LaneOutput>> {
        self.act(batch.id)?;
        Ok(batch
            .inputs
            .iter()
            .map(|i| FakeExecutor::expected(&batch.code_object, i))
            .collect())
    }

    fn run_waves(&mut self, batch: &WaveBatch) -> Result<Vec<WaveResult>> {
        self.act(batch.id)?;
        Ok(batch
            .waves
            .iter()
            .map(|w| FakeExecutor::expected_wave(&batch.code_object, &batch.shape, w))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fake_plan_parses_and_rejects() {
        let f = FakeExecutor::from_plan("hang@1, abort@3,error@0").unwrap();
        assert_eq!(
            f.plan,
            vec![
                (FakeAction::Hang, 1),
                (FakeAction::Abort, 3),
                (FakeAction::Error, 0)
            ]
        );
        assert!(FakeExecutor::from_plan("boom@1").is_err());
        assert!(FakeExecutor::from_plan("hang").is_err());
        assert!(FakeExecutor::from_plan("hang@x").is_err());
    }

    #[test]
    fn lanes_decode_with_done_mark() {
        let mut out = vec![0u8; 2 * OUTPUT_DWORDS * 4];
        out[4..8].copy_from_slice(&7u32.to_le_bytes());
        let mut done = vec![0u8; 8];
        done[..4].copy_from_slice(&DONE_MARK.to_le_bytes());
        let lanes = decode_lanes(&out, &done);
        assert_eq!(lanes.len(), 2);
        assert_eq!(lanes[0].outputs[1], 7);
        assert!(lanes[0].done && !lanes[1].done);
    }
}
