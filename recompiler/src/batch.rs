//! The column-wise CPU model: evaluates an [`ir::Kernel`](crate::ir::Kernel) over a block of
//! lanes at once, one expression at a time over the whole block, so that every operation is a
//! tight loop over contiguous columns that the compiler can unroll and vectorise.
//!
//! It computes exactly what the per-lane interpreter ([`crate::interp`]) computes, bit for bit:
//! both call the scalar semantics of [`crate::eval`] (NaN bits, division by zero, shift amounts
//! and out-of-range conversions included), here inlined into one loop per operation
//! ([`kernels`]). What changes is the bookkeeping: operand types are resolved once when the
//! kernel is prepared ([`BatchKernel::new`]), constants are written into their slots once per
//! [`Scratch`], a value's slot is reused once its last reader has run, and the slots are
//! reused from block to block.
//!
//! The loops are one function body compiled three times on x86-64 (baseline, AVX2+FMA,
//! AVX-512) and picked by runtime detection; the vector builds compute the same IEEE
//! operations, so they give the same bits, which the tests check on every build the CPU has.
//!
//! A [`BatchKernel`] is immutable and `Sync`; give each thread its own [`Scratch`]
//! ([`BatchKernel::scratch`]) to run disjoint rows of one kernel in parallel.

mod kernels;

use crate::eval;
use crate::ir::{Convert, Expr, FloatCmp, FloatUn, IntBin, IntCmp, IntUn, IrError};
use crate::ir::{FloatBin, Kernel, Ty};
use kernels::*;

/// Lanes evaluated together. A value slot is `BLOCK` u64 values (2 KiB), and the slots are
/// reused as values die, so a transcendental's few dozen live values and constants stay in the
/// core's L1/L2 caches.
pub const BLOCK: usize = 256;

/// One prepared expression: the [`Expr`] with its operand types resolved and its operands as
/// column indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Op {
    /// Constants are written into their column when the scratch is made; expressions that no
    /// output depends on are also `Const` (skipped).
    Const,
    Input(usize),
    /// An input dword the lane contract does not have: reads as 0, as in `interp`.
    Zero,
    LaneId,
    IntBin32(IntBin, usize, usize),
    IntBin64(IntBin, usize, usize),
    IntUn32(IntUn, usize),
    IntUn64(IntUn, usize),
    IntCmp32(IntCmp, usize, usize),
    IntCmp64(IntCmp, usize, usize),
    FloatBin32(FloatBin, usize, usize),
    FloatBin64(FloatBin, usize, usize),
    Fma32(usize, usize, usize),
    Fma64(usize, usize, usize),
    FloatUn32(FloatUn, usize),
    FloatUn64(FloatUn, usize),
    FloatCmp32(FloatCmp, usize, usize),
    FloatCmp64(FloatCmp, usize, usize),
    BoolAnd(usize, usize),
    BoolOr(usize, usize),
    BoolNot(usize),
    Select(usize, usize, usize),
    Convert(Convert, usize),
    Pack64(usize, usize),
    /// A binary operation with one constant operand, `(op, column, constant bits, the
    /// constant is the first operand)`: the constant is a scalar, not a column to load.
    IntBin32K(IntBin, usize, u64, bool),
    IntBin64K(IntBin, usize, u64, bool),
    IntCmp32K(IntCmp, usize, u64, bool),
    IntCmp64K(IntCmp, usize, u64, bool),
    FloatBin32K(FloatBin, usize, u64, bool),
    FloatBin64K(FloatBin, usize, u64, bool),
    FloatCmp32K(FloatCmp, usize, u64, bool),
    FloatCmp64K(FloatCmp, usize, u64, bool),
}

impl Op {
    /// The columns the operation reads.
    fn operands(self) -> impl Iterator<Item = usize> {
        let (a, b, c) = match self {
            Op::Const | Op::Input(_) | Op::Zero | Op::LaneId => (None, None, None),
            Op::IntUn32(_, a)
            | Op::IntUn64(_, a)
            | Op::FloatUn32(_, a)
            | Op::FloatUn64(_, a)
            | Op::BoolNot(a)
            | Op::Convert(_, a)
            | Op::IntBin32K(_, a, _, _)
            | Op::IntBin64K(_, a, _, _)
            | Op::IntCmp32K(_, a, _, _)
            | Op::IntCmp64K(_, a, _, _)
            | Op::FloatBin32K(_, a, _, _)
            | Op::FloatBin64K(_, a, _, _)
            | Op::FloatCmp32K(_, a, _, _)
            | Op::FloatCmp64K(_, a, _, _) => (Some(a), None, None),
            Op::IntBin32(_, a, b)
            | Op::IntBin64(_, a, b)
            | Op::IntCmp32(_, a, b)
            | Op::IntCmp64(_, a, b)
            | Op::FloatBin32(_, a, b)
            | Op::FloatBin64(_, a, b)
            | Op::FloatCmp32(_, a, b)
            | Op::FloatCmp64(_, a, b)
            | Op::BoolAnd(a, b)
            | Op::BoolOr(a, b)
            | Op::Pack64(a, b) => (Some(a), Some(b), None),
            Op::Fma32(a, b, c) | Op::Fma64(a, b, c) | Op::Select(a, b, c) => {
                (Some(a), Some(b), Some(c))
            }
        };
        [a, b, c].into_iter().flatten()
    }

    /// The operation with each operand column `c` replaced by `f(c)`.
    fn map(self, f: impl Fn(usize) -> usize) -> Op {
        match self {
            Op::Const | Op::Input(_) | Op::Zero | Op::LaneId => self,
            Op::IntBin32(o, a, b) => Op::IntBin32(o, f(a), f(b)),
            Op::IntBin64(o, a, b) => Op::IntBin64(o, f(a), f(b)),
            Op::IntUn32(o, a) => Op::IntUn32(o, f(a)),
            Op::IntUn64(o, a) => Op::IntUn64(o, f(a)),
            Op::IntCmp32(o, a, b) => Op::IntCmp32(o, f(a), f(b)),
            Op::IntCmp64(o, a, b) => Op::IntCmp64(o, f(a), f(b)),
            Op::FloatBin32(o, a, b) => Op::FloatBin32(o, f(a), f(b)),
            Op::FloatBin64(o, a, b) => Op::FloatBin64(o, f(a), f(b)),
            Op::Fma32(a, b, c) => Op::Fma32(f(a), f(b), f(c)),
            Op::Fma64(a, b, c) => Op::Fma64(f(a), f(b), f(c)),
            Op::FloatUn32(o, a) => Op::FloatUn32(o, f(a)),
            Op::FloatUn64(o, a) => Op::FloatUn64(o, f(a)),
            Op::FloatCmp32(o, a, b) => Op::FloatCmp32(o, f(a), f(b)),
            Op::FloatCmp64(o, a, b) => Op::FloatCmp64(o, f(a), f(b)),
            Op::BoolAnd(a, b) => Op::BoolAnd(f(a), f(b)),
            Op::BoolOr(a, b) => Op::BoolOr(f(a), f(b)),
            Op::BoolNot(a) => Op::BoolNot(f(a)),
            Op::Select(c, a, b) => Op::Select(f(c), f(a), f(b)),
            Op::Convert(o, a) => Op::Convert(o, f(a)),
            Op::Pack64(lo, hi) => Op::Pack64(f(lo), f(hi)),
            Op::IntBin32K(o, a, k, first) => Op::IntBin32K(o, f(a), k, first),
            Op::IntBin64K(o, a, k, first) => Op::IntBin64K(o, f(a), k, first),
            Op::IntCmp32K(o, a, k, first) => Op::IntCmp32K(o, f(a), k, first),
            Op::IntCmp64K(o, a, k, first) => Op::IntCmp64K(o, f(a), k, first),
            Op::FloatBin32K(o, a, k, first) => Op::FloatBin32K(o, f(a), k, first),
            Op::FloatBin64K(o, a, k, first) => Op::FloatBin64K(o, f(a), k, first),
            Op::FloatCmp32K(o, a, k, first) => Op::FloatCmp32K(o, f(a), k, first),
            Op::FloatCmp64K(o, a, k, first) => Op::FloatCmp64K(o, f(a), k, first),
        }
    }

    /// The operation with a constant operand (`konst(column)`) taken as a scalar: a binary
    /// operation with exactly one constant operand becomes its `K` form.
    fn with_const(self, konst: impl Fn(usize) -> Option<u64>) -> Op {
        let pick = |a: usize, b: usize| match (konst(a), konst(b)) {
            (None, Some(k)) => Some((a, k, false)),
            (Some(k), None) => Some((b, k, true)),
            _ => None,
        };
        let k = match self {
            Op::IntBin32(o, a, b) => pick(a, b).map(|(x, k, f)| Op::IntBin32K(o, x, k, f)),
            Op::IntBin64(o, a, b) => pick(a, b).map(|(x, k, f)| Op::IntBin64K(o, x, k, f)),
            Op::IntCmp32(o, a, b) => pick(a, b).map(|(x, k, f)| Op::IntCmp32K(o, x, k, f)),
            Op::IntCmp64(o, a, b) => pick(a, b).map(|(x, k, f)| Op::IntCmp64K(o, x, k, f)),
            Op::FloatBin32(o, a, b) => pick(a, b).map(|(x, k, f)| Op::FloatBin32K(o, x, k, f)),
            Op::FloatBin64(o, a, b) => pick(a, b).map(|(x, k, f)| Op::FloatBin64K(o, x, k, f)),
            Op::FloatCmp32(o, a, b) => pick(a, b).map(|(x, k, f)| Op::FloatCmp32K(o, x, k, f)),
            Op::FloatCmp64(o, a, b) => pick(a, b).map(|(x, k, f)| Op::FloatCmp64K(o, x, k, f)),
            _ => None,
        };
        k.unwrap_or(self)
    }
}

/// A kernel prepared for column-wise evaluation.
#[derive(Clone, Debug)]
pub struct BatchKernel {
    /// Distinguishes kernels for [`Scratch`] reuse (clones share it: they are identical).
    id: u64,
    /// Expressions of the kernel.
    exprs: usize,
    /// The evaluated operations in order, each with its destination slot; operands are slots.
    steps: Vec<(usize, Op)>,
    /// Value slots of a block (`slots x BLOCK` u64 in the scratch).
    slots: usize,
    /// (slot, value) of every constant.
    consts: Vec<(usize, u64)>,
    /// The sixteen outputs with the constant ones filled in (the others 0), and the
    /// (output, slot) pairs that vary: an output row is the template plus those.
    template: [u32; 16],
    varying: Vec<(usize, usize)>,
    /// The build of the loops that evaluates it.
    isa: Isa,
}

/// The value slots of one evaluating thread: `slots x BLOCK` u64, constants pre-filled.
#[derive(Clone, Debug)]
pub struct Scratch {
    vals: Vec<u64>,
    /// The kernel this scratch was made for (checked on every run).
    kernel: u64,
}

impl BatchKernel {
    /// Prepares `kernel`; fails if it breaks an IR invariant ([`Kernel::validate`]).
    pub fn new(kernel: &Kernel) -> Result<BatchKernel, IrError> {
        kernel.validate()?;
        if !kernel.blocks.is_empty() {
            return Err(IrError::Type {
                at: crate::ir::Handle(0),
                what: "a kernel with control flow runs over a whole wave (crate::wave)".into(),
            });
        }
        let mut tys: Vec<Ty> = Vec::with_capacity(kernel.exprs.len());
        let mut ops = Vec::with_capacity(kernel.exprs.len());
        let mut consts = Vec::new();
        // The column each expression's value lives in: its own, except that a bit cast shares
        // its operand's column (the columns hold bits, so it would be a copy).
        let mut cols: Vec<usize> = Vec::with_capacity(kernel.exprs.len());
        let mut computed: std::collections::HashMap<Op, usize> = std::collections::HashMap::new();
        for (i, e) in kernel.exprs.iter().enumerate() {
            if let Expr::Convert {
                op: Convert::Bitcast,
                a,
                to,
            } = *e
            {
                cols.push(cols[a.index()]);
                tys.push(to);
                ops.push(Op::Const);
                continue;
            }
            cols.push(i);
            let ix = |h: crate::ir::Handle| cols[h.index()];
            let ty_of = |h: crate::ir::Handle| tys[h.index()];
            let (op, ty) = match *e {
                Expr::Const { ty, bits } => {
                    // columns hold bits, so equal constants of any type share one column
                    let v = eval::constant(ty, bits);
                    if let Some(&(c, _)) = consts.iter().find(|&&(_, w)| w == v) {
                        cols[i] = c;
                    } else {
                        consts.push((i, v));
                    }
                    (Op::Const, ty)
                }
                Expr::Input(n) if usize::from(n) < 6 => (Op::Input(usize::from(n)), Ty::U32),
                Expr::Input(_) => (Op::Zero, Ty::U32),
                Expr::LaneId => (Op::LaneId, Ty::U32),
                // The lane contract's uniform state: SGPRs 0, EXEC all ones; no variables.
                Expr::SgprIn(_) | Expr::Var(_) => {
                    consts.push((i, 0));
                    (Op::Const, Ty::U32)
                }
                Expr::ExecIn => {
                    consts.push((i, u64::MAX));
                    (Op::Const, Ty::U64)
                }
                Expr::Image(_) => {
                    return Err(IrError::Type {
                        at: crate::ir::Handle(i as u32),
                        what: "a native image access runs on a Vulkan driver's texture unit \
                               (crate::native), not on the CPU model"
                            .into(),
                    })
                }
                Expr::WaveBallot(_) | Expr::WaveRead { .. } | Expr::Mem { .. } => {
                    return Err(IrError::Type {
                        at: crate::ir::Handle(i as u32),
                        what: "a cross-lane operation runs over a whole wave (crate::wave), \
                               not column-wise over independent lanes"
                            .into(),
                    })
                }
                Expr::IntBin { op, a, b } => match ty_of(a) {
                    Ty::U32 => (Op::IntBin32(op, ix(a), ix(b)), Ty::U32),
                    t => (Op::IntBin64(op, ix(a), ix(b)), t),
                },
                Expr::IntUn { op, a } => match ty_of(a) {
                    Ty::U32 => (Op::IntUn32(op, ix(a)), Ty::U32),
                    t => (Op::IntUn64(op, ix(a)), t),
                },
                Expr::IntCmp { op, a, b } => match ty_of(a) {
                    Ty::U32 => (Op::IntCmp32(op, ix(a), ix(b)), Ty::Bool),
                    _ => (Op::IntCmp64(op, ix(a), ix(b)), Ty::Bool),
                },
                Expr::FloatBin { op, a, b } => match ty_of(a) {
                    Ty::F32 => (Op::FloatBin32(op, ix(a), ix(b)), Ty::F32),
                    t => (Op::FloatBin64(op, ix(a), ix(b)), t),
                },
                Expr::Fma { a, b, c } => match ty_of(a) {
                    Ty::F32 => (Op::Fma32(ix(a), ix(b), ix(c)), Ty::F32),
                    t => (Op::Fma64(ix(a), ix(b), ix(c)), t),
                },
                Expr::FloatUn { op, a } => match ty_of(a) {
                    Ty::F32 => (Op::FloatUn32(op, ix(a)), Ty::F32),
                    t => (Op::FloatUn64(op, ix(a)), t),
                },
                Expr::FloatCmp { op, a, b } => match ty_of(a) {
                    Ty::F32 => (Op::FloatCmp32(op, ix(a), ix(b)), Ty::Bool),
                    _ => (Op::FloatCmp64(op, ix(a), ix(b)), Ty::Bool),
                },
                Expr::BoolAnd(a, b) => (Op::BoolAnd(ix(a), ix(b)), Ty::Bool),
                Expr::BoolOr(a, b) => (Op::BoolOr(ix(a), ix(b)), Ty::Bool),
                Expr::BoolNot(a) => (Op::BoolNot(ix(a)), Ty::Bool),
                Expr::Select { cond, a, b } => (Op::Select(ix(cond), ix(a), ix(b)), ty_of(a)),
                Expr::Convert { op, a, to } => (Op::Convert(op, ix(a)), to),
                Expr::Pack64 { lo, hi } => (Op::Pack64(ix(lo), ix(hi)), Ty::U64),
            };
            tys.push(ty);
            // The same operation on the same columns is computed once: the lowering repeats
            // some (a value's bits tested by two rules, a conversion both sides select on).
            if op != Op::Const {
                if let Some(&j) = computed.get(&op) {
                    cols[i] = j;
                    ops.push(Op::Const);
                    continue;
                }
                computed.insert(op, i);
            }
            ops.push(op);
        }
        let mut outputs = [0usize; 16];
        for (o, h) in outputs.iter_mut().zip(&kernel.outputs) {
            *o = cols[h.index()];
        }
        // Expressions no output depends on are never evaluated (the lowering leaves some,
        // e.g. the untouched registers' zeros and flags nobody reads). Liveness follows the
        // columns: a shared column is live when any of its expressions is used.
        let mut live = vec![false; ops.len()];
        for &col in &outputs[..kernel.outputs.len().min(16)] {
            live[col] = true;
        }
        for i in (0..ops.len()).rev() {
            if live[i] {
                for col in ops[i].operands() {
                    live[col] = true;
                }
            }
        }
        for (op, l) in ops.iter_mut().zip(&live) {
            if !l {
                *op = Op::Const;
            }
        }
        let mut template = [0u32; 16];
        let mut varying = Vec::new();
        for (o, &col) in outputs.iter().enumerate() {
            match consts.iter().find(|&&(c, _)| c == col) {
                Some(&(_, v)) => template[o] = v as u32,
                None => varying.push((o, col)),
            }
        }
        // Slots: each constant keeps its own; a computed column takes a free slot and gives
        // it back after its last reader, so a block's working set is the values live at once
        // (a few dozen columns for the transcendentals instead of a few hundred) and stays in
        // the core's caches. The destination never shares a slot with an operand.
        let mut last_use = vec![0usize; ops.len()];
        for (i, op) in ops.iter().enumerate() {
            for c in op.operands() {
                last_use[c] = i;
            }
        }
        for &(_, col) in &varying {
            last_use[col] = usize::MAX;
        }
        let mut slot = vec![usize::MAX; ops.len()];
        for (k, &(col, _)) in consts.iter().enumerate() {
            slot[col] = k;
        }
        let mut slots = consts.len();
        let mut free: Vec<usize> = Vec::new();
        let mut steps = Vec::new();
        for (i, &op) in ops.iter().enumerate() {
            if op == Op::Const {
                continue;
            }
            let d = free.pop().unwrap_or_else(|| {
                slots += 1;
                slots - 1
            });
            slot[i] = d;
            let konst = |c: usize| consts.iter().find(|&&(k, _)| k == c).map(|&(_, v)| v);
            steps.push((d, op.with_const(konst).map(|c| slot[c])));
            let mut done: Vec<usize> = op
                .operands()
                .filter(|&c| last_use[c] == i && ops[c] != Op::Const)
                .collect();
            done.sort_unstable();
            done.dedup();
            free.extend(done.into_iter().map(|c| slot[c]));
        }
        for (_, col) in &mut varying {
            *col = slot[*col];
        }
        for (col, _) in &mut consts {
            *col = slot[*col];
        }
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(BatchKernel {
            id,
            exprs: ops.len(),
            steps,
            slots,
            consts,
            template,
            varying,
            isa: Isa::detected(),
        })
    }

    /// The same kernel evaluated by the portable build of the loops even where a vector
    /// instruction set is detected: the reference the vector builds are compared with.
    pub fn portable(mut self) -> BatchKernel {
        self.isa = Isa::Portable;
        self
    }

    /// Number of expressions (value columns).
    pub fn len(&self) -> usize {
        self.exprs
    }

    pub fn is_empty(&self) -> bool {
        self.exprs == 0
    }

    /// Operations evaluated per lane: the expressions that are not constants, bit casts,
    /// repeats of an earlier operation or unused by the outputs (the cost measure of
    /// docs/performance.md).
    pub fn evaluated(&self) -> usize {
        self.steps.len()
    }

    /// Fresh value columns for this kernel, constants filled in.
    pub fn scratch(&self) -> Scratch {
        let mut vals = vec![0u64; self.slots.max(1) * BLOCK];
        for &(col, v) in &self.consts {
            vals[col * BLOCK..(col + 1) * BLOCK].fill(v);
        }
        Scratch {
            vals,
            kernel: self.id,
        }
    }

    /// Runs the kernel for `inputs.len()` lanes. Row `i` is dataset row `first_row + i` and runs
    /// as lane `(first_row + i) % wave` of its wave (rows fill waves in order, as on every
    /// backend). `out` must have one entry per input row; the sixteen output dwords of row `i`
    /// go to `out[i]`.
    ///
    /// A scratch made for another kernel is rebuilt here, so a mix-up costs time, never bits.
    pub fn run(
        &self,
        scratch: &mut Scratch,
        inputs: &[[u32; 6]],
        first_row: u64,
        wave: u32,
        out: &mut [[u32; 16]],
    ) {
        if scratch.kernel != self.id || scratch.vals.len() < self.slots * BLOCK {
            *scratch = self.scratch();
        }
        let wave = u64::from(wave.max(1));
        let n_rows = inputs.len().min(out.len());
        let mut start = 0;
        while start < n_rows {
            let n = BLOCK.min(n_rows - start);
            self.block(
                &mut scratch.vals,
                &inputs[start..start + n],
                first_row + start as u64,
                wave,
            );
            let rows = &mut out[start..start + n];
            rows.fill(self.template);
            for &(o, col) in &self.varying {
                let column = &scratch.vals[col * BLOCK..col * BLOCK + n];
                for (row, &v) in rows.iter_mut().zip(column) {
                    row[o] = v as u32;
                }
            }
            start += n;
        }
    }

    /// One block through the widest evaluator this CPU runs: the same loops compiled for AVX2
    /// where it is detected (the vector forms of the same IEEE operations give the same bits),
    /// the portable build otherwise or when [`BatchKernel::portable`] asked for it.
    fn block(&self, vals: &mut [u64], inputs: &[[u32; 6]], first_row: u64, wave: u64) {
        match self.isa {
            Isa::Portable => self.block_portable(vals, inputs, first_row, wave),
            // SAFETY: `Isa::Avx512` is only chosen where `Isa::detected` found every extension
            // `block_avx512` enables on this CPU.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { self.block_avx512(vals, inputs, first_row, wave) },
            // SAFETY: as above, for `block_avx2`.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { self.block_avx2(vals, inputs, first_row, wave) },
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    fn block_avx512(&self, vals: &mut [u64], inputs: &[[u32; 6]], first_row: u64, wave: u64) {
        self.block_portable(vals, inputs, first_row, wave);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    fn block_avx2(&self, vals: &mut [u64], inputs: &[[u32; 6]], first_row: u64, wave: u64) {
        self.block_portable(vals, inputs, first_row, wave);
    }

    /// The evaluator itself, inlined into each instruction set's copy.
    #[inline(always)]
    fn block_portable(&self, vals: &mut [u64], inputs: &[[u32; 6]], first_row: u64, wave: u64) {
        let n = inputs.len();
        for &(dst, op) in &self.steps {
            let (before, rest) = vals.split_at_mut(dst * BLOCK);
            let (d, after) = rest.split_at_mut(BLOCK);
            let d = &mut d[..n];
            let c = |h: usize| {
                if h < dst {
                    &before[h * BLOCK..h * BLOCK + n]
                } else {
                    let h = h - dst - 1;
                    &after[h * BLOCK..h * BLOCK + n]
                }
            };
            match op {
                Op::Const => {}
                Op::Input(k) => {
                    for (d, inp) in d.iter_mut().zip(inputs) {
                        *d = u64::from(inp[k]);
                    }
                }
                Op::Zero => d.fill(0),
                Op::LaneId => {
                    for (r, d) in d.iter_mut().enumerate() {
                        *d = (first_row + r as u64) % wave;
                    }
                }
                Op::IntBin32(op, a, b) => int_bin32(op, d, c(a), c(b)),
                Op::IntBin64(op, a, b) => int_bin64(op, d, c(a), c(b)),
                Op::IntUn32(op, a) => int_un32(op, d, c(a)),
                Op::IntUn64(op, a) => int_un64(op, d, c(a)),
                Op::IntCmp32(op, a, b) => int_cmp32(op, d, c(a), c(b)),
                Op::IntCmp64(op, a, b) => int_cmp64(op, d, c(a), c(b)),
                Op::FloatBin32(op, a, b) => float_bin32(op, d, c(a), c(b)),
                Op::FloatBin64(op, a, b) => float_bin64(op, d, c(a), c(b)),
                Op::Fma32(a, b, cc) => tern(d, c(a), c(b), c(cc), |x, y, z| {
                    u64::from(eval::fma32(x as u32, y as u32, z as u32))
                }),
                Op::Fma64(a, b, cc) => tern(d, c(a), c(b), c(cc), eval::fma64),
                Op::FloatUn32(op, a) => float_un32(op, d, c(a)),
                Op::FloatUn64(op, a) => float_un64(op, d, c(a)),
                Op::FloatCmp32(op, a, b) => float_cmp32(op, d, c(a), c(b)),
                Op::FloatCmp64(op, a, b) => float_cmp64(op, d, c(a), c(b)),
                Op::BoolAnd(a, b) => bin(d, c(a), c(b), |x, y| {
                    u64::from(eval::bool_and(x != 0, y != 0))
                }),
                Op::BoolOr(a, b) => bin(d, c(a), c(b), |x, y| {
                    u64::from(eval::bool_or(x != 0, y != 0))
                }),
                Op::BoolNot(a) => un(d, c(a), |x| u64::from(eval::bool_not(x != 0))),
                Op::Select(cond, a, b) => {
                    tern(d, c(cond), c(a), c(b), |s, x, y| eval::select(s != 0, x, y))
                }
                Op::Convert(op, a) => convert(op, d, c(a)),
                Op::Pack64(lo, hi) => bin(d, c(lo), c(hi), |l, h| eval::pack64(l as u32, h as u32)),
                Op::IntBin32K(op, a, k, first) => int_bin32_k(op, d, c(a), k, first),
                Op::IntBin64K(op, a, k, first) => int_bin64_k(op, d, c(a), k, first),
                Op::IntCmp32K(op, a, k, first) => int_cmp32_k(op, d, c(a), k, first),
                Op::IntCmp64K(op, a, k, first) => int_cmp64_k(op, d, c(a), k, first),
                Op::FloatBin32K(op, a, k, first) => float_bin32_k(op, d, c(a), k, first),
                Op::FloatBin64K(op, a, k, first) => float_bin64_k(op, d, c(a), k, first),
                Op::FloatCmp32K(op, a, k, first) => float_cmp32_k(op, d, c(a), k, first),
                Op::FloatCmp64K(op, a, k, first) => float_cmp64_k(op, d, c(a), k, first),
            }
        }
    }
}

/// The builds of the column loops: one function body (`BatchKernel::block_portable`) compiled
/// for the baseline target and, on x86-64, for AVX2+FMA and for AVX-512. The vector forms of
/// the same IEEE operations give the same bits (fused multiply-add included: `mul_add` is one
/// rounding on every build), so the choice only changes the speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Isa {
    /// Every build this CPU runs, the widest last.
    fn available() -> Vec<Isa> {
        #[allow(unused_mut)]
        let mut v = vec![Isa::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 = has!("avx2")
                && has!("fma")
                && has!("bmi1")
                && has!("bmi2")
                && has!("lzcnt")
                && has!("popcnt");
            if avx2 {
                v.push(Isa::Avx2);
                if has!("avx512f") && has!("avx512vl") && has!("avx512dq") && has!("avx512bw") {
                    v.push(Isa::Avx512);
                }
            }
        }
        v
    }

    /// The widest build this CPU runs (detected once).
    fn detected() -> Isa {
        static BEST: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| *Isa::available().last().unwrap_or(&Isa::Portable))
    }
}

#[cfg(test)]
mod tests;
