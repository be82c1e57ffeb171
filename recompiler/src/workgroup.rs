//! Waves run block by block, and the waves of one workgroup together: they share the LDS and
//! the memory region, and meet at barriers ([`crate::ir::Block::barrier`]).
//!
//! [`run_workgroup`] runs the waves in order, each until it reaches a barrier or its end; when
//! every wave that has not ended waits at a barrier, they all go on. So a wave sees every
//! write the others made before the barrier (RDNA2 ISA, s_barrier: "synchronize waves within
//! a threadgroup"; the LDS and memory order of the waiting waves is the order they ran). Between
//! barriers, the waves' accesses are not interleaved: a program whose result depends on how
//! they interleave (a race) gets one of its possible results, wave 0's accesses first.

use crate::interp::Uniform;
use crate::ir::{Expr, Kernel, Terminator};
use crate::wave::{
    bytes_of, dwords_of, watchdog_message, Lds, MemMap, State, UniformValues, WaveInput,
    WaveOutput, WATCHDOG_BLOCKS,
};

/// Where [`WaveRun::run`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// At the end of a block that ends at a barrier.
    Barrier,
    /// The wave ended (its exit code has run), or the watchdog or a fault stopped it.
    End,
}

/// One wave of a kernel, run block by block: [`run_wave_mem`] for a wave alone, and
/// [`crate::workgroup`] for the waves of a workgroup, which share the LDS and the memory region
/// (moved between them with [`WaveRun::swap_shared`]).
pub(crate) struct WaveRun<'k, 'i> {
    st: State<'k>,
    input: &'i WaveInput,
    block: usize,
    executed: u32,
    error: Option<String>,
    ended: bool,
}

impl<'k, 'i> WaveRun<'k, 'i> {
    pub(crate) fn new(
        kernel: &'k Kernel,
        input: &'i WaveInput,
        lds: Vec<u8>,
        mem: Vec<u8>,
    ) -> WaveRun<'k, 'i> {
        let n = input.lanes.len();
        let nvars = kernel
            .exprs
            .iter()
            .filter_map(|e| match e {
                Expr::Var(id) => Some(usize::from(*id) + 1),
                _ => None,
            })
            .chain(
                kernel
                    .blocks
                    .iter()
                    .flat_map(|b| b.stores.iter().map(|s| usize::from(s.0) + 1)),
            )
            .max()
            .unwrap_or(0);
        let mut st = State {
            kernel,
            uni: Uniform {
                sgprs: input.sgprs,
                exec: input.exec,
            },
            vals: vec![vec![0; kernel.exprs.len()]; n],
            vars: vec![vec![0; nvars]; n],
            lds: Lds(lds),
            fault: false,
            mem,
            map: None,
            mem_fault: None,
        };
        st.eval(input, 0..kernel.exprs.len(), true);
        WaveRun {
            st,
            input,
            block: 0,
            executed: 0,
            error: None,
            ended: false,
        }
    }

    /// Exchanges the wave's LDS and memory region with `lds` and `mem`.
    pub(crate) fn swap_shared(&mut self, lds: &mut Vec<u8>, mem: &mut Vec<u8>) {
        std::mem::swap(&mut self.st.lds.0, lds);
        std::mem::swap(&mut self.st.mem, mem);
    }

    /// Runs until the end of a block that ends at a barrier, or to the wave's end.
    pub(crate) fn run(&mut self) -> Stop {
        if self.ended {
            return Stop::End;
        }
        let kernel = self.st.kernel;
        let input = self.input;
        let all = 0..kernel.exprs.len();
        if kernel.blocks.is_empty() {
            self.st.eval(input, all, false);
            self.ended = true;
            return Stop::End;
        }
        while let Some(b) = kernel.blocks.get(self.block) {
            if self.executed == WATCHDOG_BLOCKS {
                self.error = Some(watchdog_message());
                break;
            }
            self.executed += 1;
            let st = &mut self.st;
            st.eval(input, b.exprs.start as usize..b.exprs.end as usize, false);
            for (vals, vars) in st.vals.iter().zip(st.vars.iter_mut()) {
                for &(id, h) in &b.stores {
                    vars[usize::from(id)] = vals[h.index()];
                }
            }
            self.block = match b.term {
                Terminator::Jump(t) => t as usize,
                Terminator::Branch { cond, then, other } => {
                    let c = st.vals.first().is_some_and(|v| v[cond.index()] != 0);
                    if c {
                        then as usize
                    } else {
                        other as usize
                    }
                }
            };
            if b.barrier && !st.fault {
                return Stop::Barrier;
            }
        }
        let exit = kernel.blocks.last().map_or(0, |b| b.exprs.end as usize);
        self.st.eval(input, exit..kernel.exprs.len(), false);
        self.ended = true;
        Stop::End
    }

    /// The wave's outputs, LDS and memory region.
    pub(crate) fn finish(self) -> (WaveOutput, Vec<u8>, Vec<u8>) {
        let WaveRun { st, mut error, .. } = self;
        if st.fault {
            error = Some(crate::wave::LDS_FAULT.to_string());
        }
        if let (Some(f), Some(map), None) = (&st.mem_fault, st.map, &error) {
            error = Some(f.message(map));
        }
        let kernel = st.kernel;
        let vals = &st.vals;
        let lanes = vals
            .iter()
            .map(|v| {
                let mut out = [0u32; 16];
                for (o, h) in out.iter_mut().zip(&kernel.outputs) {
                    *o = v[h.index()] as u32;
                }
                out
            })
            .collect();
        let uniform = kernel.uniform.as_ref().zip(vals.first()).map(|(u, v)| {
            let mut sgprs = [0u32; 16];
            for (s, h) in sgprs.iter_mut().zip(&u.sgprs) {
                *s = v[h.index()] as u32;
            }
            UniformValues {
                sgprs,
                exec: v[u.exec.index()],
                vcc: v[u.vcc.index()],
                scc: v[u.scc.index()] != 0,
            }
        });
        let lds = dwords_of(&st.lds.0);
        (
            WaveOutput {
                lanes,
                uniform,
                error,
                lds,
            },
            st.lds.0,
            st.mem,
        )
    }
}

/// Runs the waves `waves` of one workgroup of `kernel` (see the module docs). The LDS before the
/// body is `lds` (the workgroup's, shared), the memory region `mem`. Gives each wave's outputs
/// (their `lds` is the LDS after every wave ended), and the region after the workgroup.
pub fn run_workgroup(
    kernel: &Kernel,
    waves: &[WaveInput],
    lds: &[u32],
    mem: &[u32],
) -> (Vec<WaveOutput>, Vec<u32>) {
    run_workgroup_mapped(kernel, waves, lds, mem, None)
}

/// [`run_workgroup`] where the waves may touch only the windows of `map` of the region: an
/// access outside them faults the wave (its error names the lane, the address and the nearest
/// window) and touches nothing.
pub fn run_workgroup_mapped(
    kernel: &Kernel,
    waves: &[WaveInput],
    lds: &[u32],
    mem: &[u32],
    map: Option<&MemMap>,
) -> (Vec<WaveOutput>, Vec<u32>) {
    let mut lds = bytes_of(lds);
    let mut mem = bytes_of(mem);
    let mut runs: Vec<WaveRun> = waves
        .iter()
        .map(|w| {
            let mut r = WaveRun::new(kernel, w, Vec::new(), Vec::new());
            r.st.map = map;
            r
        })
        .collect();
    loop {
        let mut waiting = 0;
        for r in &mut runs {
            r.swap_shared(&mut lds, &mut mem);
            let stop = r.run();
            r.swap_shared(&mut lds, &mut mem);
            waiting += usize::from(stop == Stop::Barrier);
        }
        if waiting == 0 {
            break;
        }
    }
    let shared = dwords_of(&lds);
    let outs = runs
        .into_iter()
        .map(|r| {
            let (mut out, _, _) = r.finish();
            out.lds.clone_from(&shared);
            out
        })
        .collect();
    (outs, dwords_of(&mem))
}
