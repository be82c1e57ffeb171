//! The CPU model of the wave contract: runs a [`Kernel`] over every lane of one wave at once,
//! expression by expression, so that a cross-lane expression sees the values every lane
//! computed for its operands.
//!
//! Per-lane expressions take their bits from the same scalar semantics as the per-lane
//! interpreter ([`crate::interp`]). The cross-lane ones are defined here:
//! - [`Expr::WaveBallot`]: bit `i` of the result is lane `i`'s `Bool` (`i < wave`), on every
//!   lane;
//! - [`Expr::WaveRead`]: the `value` of lane `lane % wave`.
//!
//! A kernel with control flow ([`Kernel::blocks`]) runs block by block, every lane together
//! (RDNA2 branches are wave-uniform), with a watchdog on the number of blocks executed.
//!
//! Every lane of the wave runs (lanes with no dataset row have zero inputs): a lane outside
//! EXEC still computes, as the SPIR-V module's invocations do; EXEC masking is explicit in
//! the lowering. The uniform outputs are lane 0's values, as the SPIR-V module stores them.
//!
//! The wave's memory region ([`run_wave_mem`]) is a byte array at the virtual address
//! [`MEM_BASE`]: [`Expr::Mem`] accesses whose bytes all lie in `[MEM_BASE, MEM_BASE + size)`
//! read and write it, little-endian, at any byte address; others read 0 and write nothing.

use crate::eval::{mem_apply, mem_swaps};
use crate::interp::{eval_expr, Uniform};
use crate::ir::{Expr, Kernel, LdsOp, Space};
// The wave contract's constants are the contract crate's; the model re-exports them.
pub use rdnaprobe_contract::{
    watchdog_message, CONTRACT_SGPRS, MEM_BASE, SGPR_INPUTS, WATCHDOG_BLOCKS,
};

/// A wave's state before the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveInput {
    /// in0..in5 of every lane (`wave` entries, lane order).
    pub lanes: Vec<[u32; 6]>,
    /// s0..s103 (`s_in`; s16..s23 are the contract's and read as 0 here).
    pub sgprs: [u32; SGPR_INPUTS],
    /// EXEC (a wave32 uses the low 32 bits).
    pub exec: u64,
    /// The wave's LDS before the body (its whole size; empty: no LDS).
    pub lds: Vec<u32>,
}

impl WaveInput {
    /// A wave of `lanes` (in0..in5 each) under `exec`, with `lds` and every SGPR input zero.
    pub fn new(lanes: Vec<[u32; 6]>, exec: u64, lds: Vec<u32>) -> WaveInput {
        WaveInput {
            lanes,
            sgprs: [0; SGPR_INPUTS],
            exec,
            lds,
        }
    }
}

/// The SGPR inputs s0.. from `first` (the rest 0), as [`WaveInput::sgprs`] holds them.
pub fn sgprs_in(first: &[u32]) -> [u32; SGPR_INPUTS] {
    let mut s = [0; SGPR_INPUTS];
    s[..first.len()].copy_from_slice(first);
    s
}

/// The uniform state after the body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UniformValues {
    pub sgprs: [u32; 16],
    pub exec: u64,
    pub vcc: u64,
    pub scc: bool,
}

/// A wave's results: out0..out15 of every lane and, for a kernel with uniform outputs, their
/// values; `error` when the wave did not reach its end (the watchdog).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveOutput {
    pub lanes: Vec<[u32; 16]>,
    pub uniform: Option<UniformValues>,
    pub error: Option<String>,
    /// The LDS after the body.
    pub lds: Vec<u32>,
}

/// The message of a wave that a 64-bit LDS atomic faulted (rule: lds-atomic64).
pub const LDS_FAULT: &str =
    "fault: a 64-bit LDS atomic at an address that is not a multiple of 8 (the hardware faults the wave)";

/// The LDS as bytes, little-endian, with the access rule of an LDS [`Expr::Mem`]: `bytes` at
/// any byte address whose bytes all lie inside (out of range: reads 0, writes nothing); an
/// 8-byte access at an address that is not a multiple of 8 faults the wave (rule:
/// lds-atomic64), unless the LDS is too small for one (the SPIR-V module has no room for one
/// either).
pub(crate) struct Lds(pub(crate) Vec<u8>);

/// The `n` little-endian bytes at `a` of `mem`, or `None` when they are not all inside.
fn read_bytes(mem: &[u8], a: u64, n: usize) -> Option<u64> {
    let a = usize::try_from(a).ok()?;
    let bytes = mem.get(a..a.checked_add(n)?)?;
    let mut b = [0u8; 8];
    b[..n].copy_from_slice(bytes);
    Some(u64::from_le_bytes(b))
}

/// One lane's access of `op` on `mem` at `a` (in range: [`read_bytes`]): the old value, after
/// writing [`mem_apply`]'s new one unless the op is a read or `swap` says no.
fn access(
    mem: &mut [u8],
    op: LdsOp,
    n: usize,
    a: u64,
    d: [u64; 2],
    swap: impl Fn(u64) -> bool,
) -> u64 {
    let Some(old) = read_bytes(mem, a, n) else {
        return 0;
    };
    if op != LdsOp::Read && swap(old) {
        let new = mem_apply(op, n as u8, old, d[0], d[1]);
        let a = a as usize;
        mem[a..a + n].copy_from_slice(&new.to_le_bytes()[..n]);
    }
    old
}

/// The CPU model's 64-bit memory map: windows of virtual addresses, each backed by bytes of the
/// wave's memory region and named (a kernel argument's buffer, the kernarg segment, a
/// descriptor set, scratch ...). With a map, an access whose bytes do not all lie in one window
/// is a fault: it reads 0, writes nothing, and the wave's error names the lane, the address and
/// the nearest window; never a neighbour's bytes. Without one (the wave contract's own region)
/// the region lies at [`MEM_BASE`] and every byte of it is in range.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemMap {
    pub windows: Vec<MemWindow>,
}

/// One window of a [`MemMap`]: `bytes` bytes at the virtual address `addr`, backed by the
/// region's bytes from `at`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemWindow {
    pub addr: u64,
    pub bytes: u64,
    pub at: u64,
    pub name: String,
}

impl MemWindow {
    /// A window of the region at [`MEM_BASE`] + `at`, backed by the same bytes.
    pub fn in_region(at: u64, bytes: u64, name: impl Into<String>) -> MemWindow {
        MemWindow {
            addr: MEM_BASE + at,
            bytes,
            at,
            name: name.into(),
        }
    }
}

impl MemMap {
    /// The region offset of the `n` bytes at the virtual address `addr`, when they lie in one
    /// window.
    pub fn translate(&self, addr: u64, n: u64) -> Option<u64> {
        self.windows.iter().find_map(|w| {
            let off = addr.checked_sub(w.addr)?;
            (off.checked_add(n)? <= w.bytes).then_some(w.at + off)
        })
    }

    /// Where `addr` lies against the nearest window: "N bytes past the end of `out` (its M
    /// bytes at 0x...)" or "N bytes before ...".
    pub fn nearest(&self, addr: u64) -> String {
        let Some((w, before, d)) = self
            .windows
            .iter()
            .map(|w| {
                if addr < w.addr {
                    (w, true, w.addr - addr)
                } else {
                    (
                        w,
                        false,
                        addr.saturating_sub(w.addr.saturating_add(w.bytes)),
                    )
                }
            })
            .min_by_key(|t| t.2)
        else {
            return "no memory is mapped".to_string();
        };
        let side = if before { "before" } else { "past the end of" };
        format!(
            "{d} bytes {side} `{}` ({} bytes at {:#x})",
            w.name, w.bytes, w.addr
        )
    }
}

/// The first access of a wave outside its [`MemMap`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemFault {
    pub(crate) lane: usize,
    pub(crate) addr: u64,
    pub(crate) bytes: u8,
    pub(crate) write: bool,
}

impl MemFault {
    pub(crate) fn message(&self, map: &MemMap) -> String {
        format!(
            "fault: lane {} {} {} bytes at {:#x}, outside every buffer: {}",
            self.lane,
            if self.write { "writes" } else { "reads" },
            self.bytes,
            self.addr,
            map.nearest(self.addr)
        )
    }
}

/// The evaluation state of one wave: every lane's expression values and register variables.
pub(crate) struct State<'k> {
    pub(crate) kernel: &'k Kernel,
    pub(crate) uni: Uniform,
    /// vals[lane][expr]
    pub(crate) vals: Vec<Vec<u64>>,
    /// vars[lane][variable]
    pub(crate) vars: Vec<Vec<u64>>,
    pub(crate) lds: Lds,
    /// Set when an LDS access faulted the wave.
    pub(crate) fault: bool,
    /// The memory region's bytes.
    pub(crate) mem: Vec<u8>,
    /// The windows of the region an access may touch (none: all of it).
    pub(crate) map: Option<&'k MemMap>,
    /// The first access outside `map`.
    pub(crate) mem_fault: Option<MemFault>,
}

impl State<'_> {
    /// Evaluates the expressions `range` on every lane; leaves only when `leaves`, the others
    /// only when not.
    pub(crate) fn eval(&mut self, input: &WaveInput, range: std::ops::Range<usize>, leaves: bool) {
        let n = self.vals.len();
        for i in range {
            let e = &self.kernel.exprs[i];
            if e.is_leaf() != leaves {
                continue;
            }
            match *e {
                Expr::WaveBallot(a) => {
                    let mask = (0..n.min(64))
                        .filter(|&l| self.vals[l][a.index()] != 0)
                        .fold(0u64, |m, l| m | 1 << l);
                    for v in &mut self.vals {
                        v[i] = mask;
                    }
                }
                Expr::WaveRead { value, lane } => {
                    let read: Vec<u64> = (0..n)
                        .map(|l| {
                            let from = self.vals[l][lane.index()] as usize % n.max(1);
                            self.vals[from][value.index()]
                        })
                        .collect();
                    for (v, r) in self.vals.iter_mut().zip(read) {
                        v[i] = r;
                    }
                }
                Expr::Mem {
                    space,
                    op,
                    bytes,
                    addr,
                    data,
                    data2,
                    cmp,
                    active,
                } => {
                    let nb = usize::from(bytes);
                    for l in 0..n {
                        let v = &self.vals[l];
                        if v[active.index()] == 0 {
                            self.vals[l][i] = 0;
                            continue;
                        }
                        let a = v[addr.index()];
                        let d = [v[data.index()], data2.map_or(0, |h| v[h.index()])];
                        let c = cmp.map(|h| v[h.index()]);
                        let swap = |old| c.is_none_or(|c| mem_swaps(op, bytes, old, c));
                        let r = match space {
                            Space::Lds => {
                                if nb == 8 && a % 8 != 0 && self.lds.0.len() >= 8 {
                                    self.fault = true;
                                    0
                                } else {
                                    access(&mut self.lds.0, op, nb, a, d, swap)
                                }
                            }
                            Space::Region | Space::RegionSwizzled => {
                                let off = match self.map {
                                    Some(m) => m.translate(a, nb as u64),
                                    None => Some(a.wrapping_sub(MEM_BASE)),
                                };
                                if let Some(off) = off.filter(|_| nb != 8 || a % 8 == 0) {
                                    access(&mut self.mem, op, nb, off, d, swap)
                                } else if off.is_some() {
                                    0
                                } else {
                                    if self.mem_fault.is_none() {
                                        self.mem_fault = Some(MemFault {
                                            lane: l,
                                            addr: a,
                                            bytes,
                                            write: op != LdsOp::Read,
                                        });
                                    }
                                    0
                                }
                            }
                        };
                        self.vals[l][i] = r;
                    }
                }
                Expr::Var(id) => {
                    for (v, vars) in self.vals.iter_mut().zip(&self.vars) {
                        v[i] = vars.get(usize::from(id)).copied().unwrap_or(0);
                    }
                }
                _ => {
                    for (l, v) in self.vals.iter_mut().enumerate() {
                        v[i] = eval_expr(self.kernel, v, e, &input.lanes[l], l as u32, &self.uni);
                    }
                }
            }
        }
    }
}

/// Runs `kernel` (valid, see [`Kernel::validate`]) over the wave `input`. A kernel with blocks
/// follows its terminators (a branch condition is lane 0's); after [`WATCHDOG_BLOCKS`] blocks
/// the wave stops and `error` says so.
pub fn run_wave(kernel: &Kernel, input: &WaveInput) -> WaveOutput {
    run_wave_mem(kernel, input, &[]).0
}

/// [`run_wave`] with the wave's memory region `mem` (its whole size, dwords from byte 0 at
/// [`MEM_BASE`]); gives the region after the body too. A barrier ([`crate::ir::Block::barrier`])
/// waits for no one: the wave is alone in its workgroup.
pub fn run_wave_mem(kernel: &Kernel, input: &WaveInput, mem: &[u32]) -> (WaveOutput, Vec<u32>) {
    use crate::workgroup::{Stop, WaveRun};
    let mut w = WaveRun::new(kernel, input, bytes_of(&input.lds), bytes_of(mem));
    while w.run() == Stop::Barrier {}
    let (out, _, mem) = w.finish();
    (out, dwords_of(&mem))
}

pub(crate) fn bytes_of(d: &[u32]) -> Vec<u8> {
    d.iter().flat_map(|d| d.to_le_bytes()).collect()
}

pub(crate) fn dwords_of(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_map_translates_inside_windows_only() {
        let map = MemMap {
            windows: vec![
                MemWindow::in_region(0x100, 0x40, "a"),
                // a window elsewhere in the address space, backed after `a`
                MemWindow {
                    addr: 0xffff_8000_0000_0010,
                    bytes: 16,
                    at: 0x140,
                    name: "set 0".into(),
                },
            ],
        };
        assert_eq!(map.translate(MEM_BASE + 0x100, 4), Some(0x100));
        assert_eq!(map.translate(MEM_BASE + 0x13c, 4), Some(0x13c));
        // the last dword's bytes past the end, and the byte before the start
        assert_eq!(map.translate(MEM_BASE + 0x13e, 4), None);
        assert_eq!(map.translate(MEM_BASE + 0xff, 1), None);
        assert_eq!(map.translate(0xffff_8000_0000_0018, 8), Some(0x148));
        assert_eq!(map.translate(0xffff_8000_0000_0018, 16), None);
        assert_eq!(map.translate(u64::MAX - 2, 4), None);
        assert_eq!(
            map.nearest(MEM_BASE + 0x148),
            "8 bytes past the end of `a` (64 bytes at 0x100000000100)"
        );
        assert_eq!(
            map.nearest(0xffff_8000_0000_0000),
            "16 bytes before `set 0` (16 bytes at 0xffff800000000010)"
        );
    }
    use crate::ir::{Convert, Handle, IntBin, IntCmp, Ty, UniformOutputs};

    /// out0 = WaveRead(in0, in1), out1 = low half of ballot(in0 > 5), uniform s0 = s_in[3].
    fn kernel() -> Kernel {
        let mut k = Kernel::default();
        let in0 = k.push(Expr::Input(0));
        let in1 = k.push(Expr::Input(1));
        let read = k.push(Expr::WaveRead {
            value: in0,
            lane: in1,
        });
        let five = k.push(Expr::Const {
            ty: Ty::U32,
            bits: 5,
        });
        let gt = k.push(Expr::IntCmp {
            op: IntCmp::GtU,
            a: in0,
            b: five,
        });
        let ballot = k.push(Expr::WaveBallot(gt));
        let lo = k.push(Expr::Convert {
            op: Convert::TruncU64,
            a: ballot,
            to: Ty::U32,
        });
        let s3 = k.push(Expr::SgprIn(3));
        let exec = k.push(Expr::ExecIn);
        let t = k.push(Expr::IntCmp {
            op: IntCmp::Eq,
            a: s3,
            b: s3,
        });
        let sum = k.push(Expr::IntBin {
            op: IntBin::Add,
            a: s3,
            b: in0,
        });
        k.outputs = vec![
            read, lo, sum, read, read, read, read, read, read, read, read, read, read, read, read,
            read,
        ];
        k.uniform = Some(UniformOutputs {
            sgprs: vec![s3; 16],
            exec,
            vcc: ballot,
            scc: t,
        });
        k.validate().unwrap();
        let _ = Handle(0);
        k
    }

    #[test]
    fn ballots_and_reads_see_every_lane() {
        let k = kernel();
        let lanes: Vec<[u32; 6]> = (0..32u32).map(|l| [l, 31 - l, 0, 0, 0, 0]).collect();
        let out = run_wave(
            &k,
            &WaveInput {
                lanes,
                sgprs: sgprs_in(&[0, 0, 0, 100]),
                exec: 0xf,
                lds: vec![],
            },
        );
        for l in 0..32u32 {
            let o = out.lanes[l as usize];
            assert_eq!(o[0], 31 - l, "lane {l} reads lane 31-l's in0");
            assert_eq!(o[1], 0xffff_ffc0, "lanes 6..31 have in0 > 5");
            assert_eq!(o[2], 100 + l);
        }
        let u = out.uniform.unwrap();
        assert_eq!(u.sgprs, [100; 16]);
        assert_eq!(u.exec, 0xf);
        assert_eq!(u.vcc, 0xffff_ffc0);
        assert!(u.scc);
    }

    /// The f32 min/max of the float atomics rule ([`mem_apply`] at 4 bytes).
    fn float_atomic(old: u32, data: u32, flush: bool, max: bool) -> u32 {
        let op = if max {
            LdsOp::FMax { flush }
        } else {
            LdsOp::FMin { flush }
        };
        mem_apply(op, 4, old.into(), data.into(), 0) as u32
    }

    #[test]
    fn float_atomics_follow_the_notes_order() {
        let (one, two, qnan) = (0x3f80_0000, 0x4000_0000, 0x7fc0_0000);
        assert_eq!(float_atomic(two, one, true, false), one);
        assert_eq!(float_atomic(two, one, true, true), two);
        assert_eq!(
            float_atomic(0, 0x8000_0000, true, false),
            0x8000_0000,
            "-0 below +0"
        );
        assert_eq!(float_atomic(0x8000_0000, 0, true, true), 0, "+0 above -0");
        assert_eq!(
            float_atomic(one, 0xff80_0001, true, false),
            0xffc0_0001,
            "sNaN data"
        );
        assert_eq!(
            float_atomic(0x7f80_0001, 0xff80_0002, true, true),
            0xffc0_0002
        );
        assert_eq!(
            float_atomic(0x7f80_0001, one, true, false),
            0x7fc0_0001,
            "sNaN old"
        );
        assert_eq!(
            float_atomic(qnan, one, true, true),
            one,
            "a qNaN old value is replaced"
        );
        assert_eq!(
            float_atomic(one, qnan, true, false),
            one,
            "a qNaN data loses"
        );
        assert_eq!(
            float_atomic(1, one, true, false),
            0,
            "the flushed old value is written"
        );
        assert_eq!(float_atomic(1, one, false, false), 1, "kept with bit 0 set");
    }

    #[test]
    fn wave64_ballot_and_read_index_modulo_wave() {
        let k = kernel();
        let lanes: Vec<[u32; 6]> = (0..64u32).map(|l| [l, l + 64 + 1, 0, 0, 0, 0]).collect();
        let out = run_wave(&k, &WaveInput::new(lanes, u64::MAX, vec![]));
        assert_eq!(out.lanes[63][0], 0, "lane 63 reads lane (63 + 65) % 64 = 0");
        assert_eq!(out.lanes[10][0], 11);
        assert_eq!(out.uniform.unwrap().vcc, !0x3f);
    }
}
