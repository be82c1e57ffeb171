//! The `hip` backend's probe kernels on the CPU model: the code object comgr assembled (the
//! lane or wave template around a row's body), read as any other code object ([`Program`]) and
//! dispatched with [`run_cpu_in`], with the buffers, wave table and kernel-argument block the
//! HIP executor builds (the oracle's [`run_lanes_on`] and [`run_waves_on`], through a
//! [`WaveDevice`] whose memory is the dispatch's region).
//!
//! So the template's own machine code (the table and input loads, the descriptor's float mode,
//! the LDS copies, the stores and the done mark) runs on the recompiler's model, and its results
//! are decoded as the `hip` backend decodes the GPU's. docs/backends.md, `hip-template-cpu`.
//!
//! The region: the dispatch's own part (packet, queue, kernarg segment, scratch) as
//! [`abi::memory`] lays it out, then the arena of the executor's buffers, each 256-byte
//! aligned. The kernarg segment holds the launch's argument block byte for byte.

use std::cell::RefCell;

use rdnaprobe_oracle::exec::{run_lanes_on, Batch, Executor, LaneOutput};
use rdnaprobe_oracle::template::{KERNEL_NAME, WORKGROUP_SIZE};
use rdnaprobe_oracle::wave::hip::check_code_object;
use rdnaprobe_oracle::wave::{run_waves_on, WaveBatch, WaveDevice, WaveResult};
use rdnaprobe_oracle::{OracleError, Result};
use rdnaprobe_recompiler::wave::MEM_BASE;

use super::{abi, run_cpu_in, ArgValue, Dispatch, Program};

/// Alignment of the executor's buffers in the arena.
const BUFFER_ALIGN: usize = 256;

/// Runs probe-kernel batches on the CPU model, in this process.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuProbe;

fn failed(what: &str, e: impl std::fmt::Display) -> OracleError {
    OracleError::Executor(format!("{what}: {e:#}"))
}

impl Executor for CpuProbe {
    fn run(&mut self, batch: &Batch) -> Result<Vec<LaneOutput>> {
        let program = Program::load(&batch.code_object, Some(KERNEL_NAME))
            .map_err(|e| failed("reading the probe kernel", e))?;
        run_lanes_on(&CpuDevice::new(&program, WORKGROUP_SIZE)?, &batch.inputs)
    }

    fn run_waves(&mut self, batch: &WaveBatch) -> Result<Vec<WaveResult>> {
        check_code_object(&batch.code_object, &batch.shape)?;
        let program = Program::load(&batch.code_object, Some(KERNEL_NAME))
            .map_err(|e| failed("reading the wave probe kernel", e))?;
        let device = CpuDevice::new(&program, batch.shape.lanes() as u32)?;
        run_waves_on(&device, &batch.shape, &batch.waves)
    }
}

/// A buffer of the arena: byte offset and length.
#[derive(Clone, Copy, Debug)]
pub struct ArenaBuffer {
    offset: usize,
    len: usize,
}

/// One loaded probe kernel and the arena of its buffers.
struct CpuDevice<'a> {
    program: &'a Program,
    /// Where the arena starts, in bytes from [`MEM_BASE`]: the end of the dispatch's own part.
    base: u32,
    arena: RefCell<Vec<u8>>,
    /// The arena's constant buffers (`alloc_constant`: the wave table), `(offset, bytes)`.
    constant: RefCell<Vec<(usize, usize)>>,
}

/// The dispatch of `groups` workgroups of `block` lanes, every explicit argument given by value
/// from `kernargs` (the block's bytes at the metadata's offsets).
fn dispatch_of(program: &Program, kernargs: &[u8], groups: u32, block: u32) -> Result<Dispatch> {
    let args = abi::explicit_args(&program.meta.args)
        .map(|a| {
            let (at, n) = (a.offset as usize, a.size as usize);
            kernargs
                .get(at..at + n)
                .map(|b| ArgValue::Value(b.to_vec()))
                .ok_or_else(|| {
                    failed(
                        "the kernel-argument block",
                        format!(
                            "{} bytes hold no argument at {at}..{}",
                            kernargs.len(),
                            at + n
                        ),
                    )
                })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Dispatch {
        grid: [groups * block, 1, 1],
        block: [block, 1, 1],
        args,
        dynamic_lds: 0,
    })
}

impl<'a> CpuDevice<'a> {
    /// The layout of the dispatch's own part depends on the workgroup size, not on the grid or
    /// the argument values, so the arena's place is known before any buffer is made.
    fn new(program: &'a Program, block: u32) -> Result<CpuDevice<'a>> {
        let zeros = vec![0u8; program.meta.kernarg_segment_size as usize];
        let d = dispatch_of(program, &zeros, 1, block)?;
        let (layout, _) = abi::memory(program, &d).map_err(|e| failed("the dispatch ABI", e))?;
        Ok(CpuDevice {
            program,
            base: layout.total,
            arena: RefCell::new(Vec::new()),
            constant: RefCell::new(Vec::new()),
        })
    }
}

impl WaveDevice for CpuDevice<'_> {
    type Buffer = ArenaBuffer;

    fn alloc(&self, bytes: usize) -> Result<ArenaBuffer> {
        let mut arena = self.arena.borrow_mut();
        let offset = arena.len().next_multiple_of(BUFFER_ALIGN);
        arena.resize(offset + bytes.next_multiple_of(4), 0);
        if u64::from(self.base) + arena.len() as u64 > u64::from(u32::MAX) {
            return Err(failed("the CPU model's region", "past 4 GiB"));
        }
        Ok(ArenaBuffer { offset, len: bytes })
    }

    fn alloc_constant(&self, bytes: usize) -> Result<ArenaBuffer> {
        let b = self.alloc(bytes)?;
        self.constant.borrow_mut().push((b.offset, b.len));
        Ok(b)
    }

    fn address(&self, buffer: &ArenaBuffer) -> u64 {
        MEM_BASE + u64::from(self.base) + buffer.offset as u64
    }

    fn upload(&self, buffer: &ArenaBuffer, data: &[u8]) -> Result<()> {
        let n = data.len().min(buffer.len);
        self.arena.borrow_mut()[buffer.offset..buffer.offset + n].copy_from_slice(&data[..n]);
        Ok(())
    }

    fn download(&self, buffer: &ArenaBuffer, out: &mut [u8]) -> Result<()> {
        let n = out.len().min(buffer.len);
        out[..n].copy_from_slice(&self.arena.borrow()[buffer.offset..buffer.offset + n]);
        Ok(())
    }

    fn launch(&self, kernargs: &mut [u8], groups: u32, block: u32) -> Result<()> {
        let program = self.program;
        let d = dispatch_of(program, kernargs, groups, block)?;
        let (mut layout, mut mem) =
            abi::memory(program, &d).map_err(|e| failed("the dispatch ABI", e))?;
        if layout.total != self.base {
            return Err(failed(
                "the dispatch ABI",
                format!(
                    "the region's own part ends at {:#x}, the arena was placed at {:#x}",
                    layout.total, self.base
                ),
            ));
        }
        // The launch's argument block, verbatim, as the packet processor copies it.
        let seg = layout.kernarg as usize / 4;
        for (i, c) in kernargs.chunks(4).enumerate() {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            mem[seg + i] = u32::from_le_bytes(w);
        }
        let arena = self.arena.borrow().clone();
        // the wave table is read-only while the kernel runs
        for &(offset, bytes) in self.constant.borrow().iter() {
            layout
                .read_only
                .push((self.base + offset as u32, bytes as u32));
        }
        layout.total = (self.base as usize + arena.len()).next_multiple_of(BUFFER_ALIGN) as u32;
        mem.resize(layout.total as usize / 4, 0);
        let at = self.base as usize / 4;
        for (dst, c) in mem[at..].iter_mut().zip(arena.chunks_exact(4)) {
            *dst = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        let out = run_cpu_in(program, &d, layout, mem).map_err(|e| failed("CPU model", e))?;
        if let Some(first) = out.errors.first() {
            return Err(failed(
                "CPU model",
                format!(
                    "{first} ({} of {} waves failed)",
                    out.errors.len(),
                    out.waves
                ),
            ));
        }
        let mut arena = self.arena.borrow_mut();
        for (c, w) in arena.chunks_exact_mut(4).zip(&out.mem[at..]) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        Ok(())
    }
}
