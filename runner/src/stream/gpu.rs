//! The GPU side of a streaming run: a thread that owns a Vulkan [`Executor`], compiles one
//! pipeline per mode up front and then runs chunks as they arrive, one dispatch batch per
//! chunk. The modules generate their inputs from the row index and store only the live output
//! dwords ([`Interface`]), so a chunk is three numbers on the way in and `rows x live` words on
//! the way out. The submission queue holds [`GPU_QUEUE`](super::GPU_QUEUE) chunks, so the device
//! has its next chunk ready while the CPU checks the previous one.
//!
//! With device hashing ([`Hashing`], `--against-digests` where the store has device hashes)
//! every chunk's kernel is followed in the same submission by the block hash
//! ([`crate::vulkan::hash_module`]); only the hash words and the blocks whose hash differs from
//! the stored one are read back.
//!
//! The executor owns mapped device memory and is not `Send`; it is created, used and dropped
//! on this thread only.

use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use rdnaprobe_isa::Wave;
use rdnaprobe_recompiler::ir::Kernel;
use rdnaprobe_recompiler::spirv::{self, Interface};

use crate::backend::Producer;
use crate::vulkan::{DeviceSelector, Executor, HashPipeline, PipelineId};

/// Device hashing of a run's blocks: the stored hashes to compare with.
pub struct Hashing {
    /// Live output dwords (the packed layout's order).
    pub live: Vec<usize>,
    /// Per mode, the stored device hash of every block.
    pub expected: Vec<Vec<u64>>,
    /// Rows of the largest chunk.
    pub chunk_rows: usize,
}

/// One chunk for the device: rows `first_row .. first_row + rows` of one mode.
pub struct Work {
    pub mode: usize,
    pub first_row: u64,
    pub rows: usize,
}

/// One chunk back from the device.
pub struct Done {
    pub mode: usize,
    pub first_row: u64,
    /// The stored output dwords, packed: `rows x interface.output_stride()` words.
    pub outputs: Vec<u32>,
    /// Time inside the executor: dispatch, fence, read back.
    pub busy: Duration,
    /// With device hashing: every block's hash and whether it differed from the stored one
    /// (only differing blocks' rows are in `outputs`, which is empty when none differs).
    pub hashed: Option<(Vec<u64>, Vec<bool>)>,
    /// Bytes read back from device-written memory.
    pub bytes_read: u64,
}

/// Compile times of the prepared kernels.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct PrepareTimes {
    pub open_s: f64,
    /// SPIR-V emission, per mode.
    pub emit_s: Vec<f64>,
    /// Pipeline creation, per mode.
    pub pipeline_s: Vec<f64>,
}

/// The running GPU thread.
pub struct GpuWorker {
    tx: Option<SyncSender<Work>>,
    rx: Receiver<anyhow::Result<Done>>,
    handle: Option<JoinHandle<()>>,
    pub producer: Producer,
    pub prepare: PrepareTimes,
}

type Ready = anyhow::Result<(Producer, PrepareTimes)>;

impl GpuWorker {
    /// Opens `vulkan[:which]` on a new thread and compiles one pipeline per kernel, each with
    /// the buffer interface `iface`.
    pub fn spawn(
        which: Option<String>,
        kernels: &[Kernel],
        wave: Wave,
        iface: &Interface,
        hashing: Option<Hashing>,
    ) -> anyhow::Result<GpuWorker> {
        let kernels = kernels.to_vec();
        let iface = *iface;
        let (tx, work_rx) = mpsc::sync_channel::<Work>(super::GPU_QUEUE);
        let (done_tx, rx) = mpsc::channel::<anyhow::Result<Done>>();
        let (ready_tx, ready_rx) = mpsc::channel::<Ready>();
        let handle = std::thread::Builder::new()
            .name("rdnaprobe-gpu".into())
            .spawn(move || {
                let prepared = prepare(which.as_deref(), &kernels, wave, &iface, &hashing);
                let (mut exec, pipelines, hash) = match prepared {
                    Ok((exec, pipelines, hash, times)) => {
                        let info = exec.info();
                        let producer = Producer {
                            backend: format!("vulkan:{}", info.driver),
                            device: info.name.clone(),
                            driver: format!(
                                "{} {} (driver version {:#x}, Vulkan {})",
                                info.driver_name,
                                info.driver_info,
                                info.driver_version,
                                info.api_version
                            ),
                            gfx: None,
                        };
                        if ready_tx.send(Ok((producer, times))).is_err() {
                            return;
                        }
                        (exec, pipelines, hash)
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                for w in work_rx {
                    let t0 = Instant::now();
                    let stride = iface.output_stride();
                    let r = match (hash, &hashing) {
                        (Some(hash), Some(h)) => {
                            let first = w.first_row as usize / super::digest::DIGEST_ROWS;
                            let expected = h.expected[w.mode].get(first..).unwrap_or_default();
                            exec.run_generated_hashed(
                                pipelines[w.mode],
                                hash,
                                w.first_row,
                                w.rows,
                                stride,
                                expected,
                            )
                            .map(|r| (r.outputs, Some((r.hashes, r.differ)), r.bytes_read))
                        }
                        _ => exec
                            .run_generated(pipelines[w.mode], w.first_row, w.rows, stride)
                            .map(|o| {
                                let bytes = o.len() as u64 * 4;
                                (o, None, bytes)
                            }),
                    }
                    .with_context(|| format!("running mode {} rows from {}", w.mode, w.first_row));
                    let busy = t0.elapsed();
                    let failed = r.is_err();
                    let msg = r.map(|(outputs, hashed, bytes_read)| Done {
                        mode: w.mode,
                        first_row: w.first_row,
                        outputs,
                        busy,
                        hashed,
                        bytes_read,
                    });
                    if done_tx.send(msg).is_err() || failed {
                        return;
                    }
                }
            })
            .context("starting the GPU thread")?;
        let (producer, prepare) = ready_rx
            .recv()
            .map_err(|_| anyhow!("the GPU thread ended while opening the device"))??;
        Ok(GpuWorker {
            tx: Some(tx),
            rx,
            handle: Some(handle),
            producer,
            prepare,
        })
    }

    /// Queues a chunk (blocks while the queue is full).
    pub fn submit(&mut self, w: Work) -> anyhow::Result<()> {
        let tx = self.tx.as_ref().context("the GPU worker is finished")?;
        tx.send(w).map_err(|_| self.failure())
    }

    /// The next finished chunk, in submission order.
    pub fn receive(&mut self) -> anyhow::Result<Done> {
        match self.rx.recv() {
            Ok(r) => r,
            Err(_) => Err(self.failure()),
        }
    }

    fn failure(&mut self) -> anyhow::Error {
        // The thread ended early: its error (if any) is waiting in the result channel.
        match self.rx.try_recv() {
            Ok(Err(e)) => e,
            _ => anyhow!("the GPU thread stopped unexpectedly"),
        }
    }

    /// Closes the queue and waits for the thread.
    pub fn finish(mut self) -> anyhow::Result<()> {
        self.tx = None;
        if let Some(h) = self.handle.take() {
            h.join().map_err(|_| anyhow!("the GPU thread panicked"))?;
        }
        Ok(())
    }
}

impl Drop for GpuWorker {
    fn drop(&mut self) {
        self.tx = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn prepare(
    which: Option<&str>,
    kernels: &[Kernel],
    wave: Wave,
    iface: &Interface,
    hashing: &Option<Hashing>,
) -> anyhow::Result<(
    Executor,
    Vec<PipelineId>,
    Option<HashPipeline>,
    PrepareTimes,
)> {
    let t0 = Instant::now();
    let selector = DeviceSelector::parse(which)?;
    let mut exec = Executor::open(&selector)?;
    let mut times = PrepareTimes {
        open_s: t0.elapsed().as_secs_f64(),
        ..Default::default()
    };
    let opts = exec.spirv_options();
    let mut pipelines = Vec::with_capacity(kernels.len());
    for (mode, k) in kernels.iter().enumerate() {
        let t1 = Instant::now();
        let words = spirv::emit_with(k, wave, &opts, iface)
            .with_context(|| format!("emitting SPIR-V for mode {mode}"))?;
        times.emit_s.push(t1.elapsed().as_secs_f64());
        let t2 = Instant::now();
        pipelines.push(
            exec.pipeline(&words, wave)
                .with_context(|| format!("creating the pipeline for mode {mode}"))?,
        );
        times.pipeline_s.push(t2.elapsed().as_secs_f64());
    }
    let hash = match hashing {
        Some(h) => {
            let flip = std::env::var(super::check::FLIP_EVERY_ENV)
                .ok()
                .and_then(|v| v.parse::<u64>().ok())
                .filter(|&k| k > 0);
            Some(
                exec.hash_pipeline(&h.live, h.chunk_rows, flip)
                    .context("creating the block hash pipeline")?,
            )
        }
        None => None,
    };
    Ok((exec, pipelines, hash, times))
}
