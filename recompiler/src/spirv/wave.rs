//! The wave contract's module: one workgroup of exactly `wave` invocations runs one wave,
//! whatever the host's subgroup size (NVIDIA 32, lavapipe 8): cross-lane traffic goes through
//! a workgroup-shared array with barriers, never through subgroup operations.
//!
//! Interface (docs/dataset-format.md, "Wave contract"):
//! - `LocalSize = (wave, 1, 1)`; wave `w` = `WorkgroupId.x`, lane = `LocalInvocationId.x`;
//! - binding 0 (input, [`wave_in_stride`] words per wave): the lanes' in0..in5 (6 words per
//!   lane, lane order; lanes without a row hold zeros), then [`WAVE_IN_DWORDS`] uniform words:
//!   EXEC low, EXEC high, s0..s103 (the wave's `s_in`; s16..s23 are not read);
//! - binding 1 (output, [`wave_out_stride`] words per wave): the lanes' out0..out15, then
//!   [`WAVE_OUT_DWORDS`] uniform words stored by lane 0: s0..s15, EXEC low/high, VCC low/high,
//!   SCC (0/1) and a status word (0: ran to the end, 1: stopped by the watchdog, 2: an LDS
//!   fault, `lds_wide`);
//! - with LDS (`lds_dwords` > 0), its dwords follow the uniform input words (before the body)
//!   and the uniform output words (after it); see `lds`;
//! - with a memory region ([`emit_wave_mem`], `mem_dwords` > 0), its [`region_words`] follow
//!   the LDS words in both buffers (the region's dwords, then one claim word per byte, zero
//!   in the input, that a store's lanes use to find which of them writes each byte): the
//!   strides are [`wave_in_stride`] and [`wave_out_stride`] of `lds_dwords +
//!   region_words(mem_dwords)`, and the output buffer is then readable; see `mem`.
//!
//! Cross-lane expressions run in uniform control flow on every invocation, each one an
//! *exchange* through one of three slots of `wave` shared words, the slot of exchange `i`
//! being `i % 3` (a Private counter, the same in every invocation since they all run the same
//! exchanges): `WaveBallot(b)`: every lane ORs its bit into word `lane / 32` of the slot
//! (atomically), barrier, every lane reads the one or two mask words; `WaveRead(v, l)`:
//! `slot[lane] = v`, barrier, read `slot[l % wave]`. After its barrier, exchange `i` clears
//! words 0 and 1 of slot `(i + 2) % 3` for the ballot that may use it: every read of that
//! slot (exchange `i - 1`) came before this barrier, and every write of it (exchange `i + 2`)
//! comes after the next one. So an exchange needs one barrier, where one slot needed a second
//! barrier in front (to keep a lane from overwriting an entry another lane had not read yet)
//! and a third for a ballot's clearing; lavapipe pays for each barrier in compile time (a
//! coroutine suspend point). The module clears words 0 and 1 of slots 0 and 1 at its start.
//! Barriers are `OpControlBarrier` with Workgroup execution and memory scope and
//! AcquireRelease | WorkgroupMemory semantics.

use rspirv::spirv::{BuiltIn, Decoration, MemoryAccess, StorageClass, Word};

use super::fence::{self, Guard};
use super::interface::{Inputs, Io};
use super::lds::LdsVars;
use super::mem::MemVars;
use super::{build_err, Emitter, SpirvError, Uses};
use super::{SpirvOptions, INPUT_DWORDS, OUTPUT_DWORDS};
use crate::ir::{Handle, Kernel, Ty};
use rdnaprobe_isa::Wave;
use rspirv::binary::Assemble;

/// Uniform input words per wave: EXEC low, EXEC high, s0..s103.
pub const WAVE_IN_DWORDS: u32 = 2 + rdnaprobe_contract::SGPR_INPUTS as u32;
/// Uniform output words per wave: s0..s15, EXEC low/high, VCC low/high, SCC, status.
pub const WAVE_OUT_DWORDS: u32 = 22;
/// Index of the status word among the uniform outputs (0: the body ran to its end).
pub const WAVE_STATUS_WORD: u32 = 21;

/// Input words per wave of a `wave`-lane module with `lds_dwords` of LDS.
pub fn wave_in_stride(wave: Wave, lds_dwords: u32) -> u32 {
    wave.lanes() * INPUT_DWORDS + WAVE_IN_DWORDS + lds_dwords
}

/// Words a memory region of `mem_dwords` takes in a wave module's input and output buffers:
/// its dwords, then a claim word per byte ([`emit_wave_mem`]; zero in the input).
pub fn region_words(mem_dwords: u32) -> u32 {
    5 * mem_dwords
}

/// Output words per wave of a `wave`-lane module with `lds_dwords` of LDS.
pub fn wave_out_stride(wave: Wave, lds_dwords: u32) -> u32 {
    wave.lanes() * OUTPUT_DWORDS + WAVE_OUT_DWORDS + lds_dwords
}

/// What the wave's expressions read besides the lane's inputs.
#[derive(Clone, Copy)]
pub(super) struct WaveIo {
    in_var: Word,
    /// Index of the wave's first uniform input word.
    uni_base: Word,
    /// The exchange slots (see the module docs).
    shared: Word,
    /// Private u32: exchanges run so far.
    exchanges: Word,
    pub(super) ptr_wg_u32: Word,
    pub(super) lds: Option<LdsVars>,
    pub(super) mem: Option<MemVars>,
}

/// Slots of `wave` shared words that cross-lane exchanges rotate through (module docs).
const EXCHANGE_SLOTS: u32 = 3;

/// The status word of a wave in which a counted loop of the module ended before its count:
/// the driver stopped it (lavapipe ends a shader's loops after 65535 iterations in all).
pub const LOOP_CUT_STATUS: u32 = 3;

/// Emits the wave module for `kernel` with `lds_dwords` of LDS (see the module docs).
pub fn emit_wave(
    kernel: &Kernel,
    wave: Wave,
    lds_dwords: u32,
    opts: &SpirvOptions,
) -> Result<Vec<u32>, SpirvError> {
    emit_wave_mem(kernel, wave, lds_dwords, 0, opts)
}

/// [`emit_wave`] for a wave with a memory region of `mem_dwords` (see the module docs).
pub fn emit_wave_mem(
    kernel: &Kernel,
    wave: Wave,
    lds_dwords: u32,
    mem_dwords: u32,
    opts: &SpirvOptions,
) -> Result<Vec<u32>, SpirvError> {
    emit(kernel, wave, lds_dwords, mem_dwords, opts, Form::Structured)
}

/// [`emit_wave_mem`] with the blocks of a body under the block dispatcher even when they
/// could be structured (the lowering every body with blocks had before; for comparisons).
pub fn emit_wave_dispatcher(
    kernel: &Kernel,
    wave: Wave,
    lds_dwords: u32,
    mem_dwords: u32,
    opts: &SpirvOptions,
) -> Result<Vec<u32>, SpirvError> {
    emit(kernel, wave, lds_dwords, mem_dwords, opts, Form::Dispatcher)
}

/// The status word of a resumable module's wave that stopped at a barrier: its state is in
/// the resume words, and a later dispatch of the same module goes on from there.
pub const SUSPENDED_STATUS: u32 = 4;

/// Words of a resumable module's state ([`emit_wave_resumable`]): the next block, the
/// watchdog's block count, then per lane (lane order) the register variables of `kernel`.
pub fn resume_dwords(kernel: &Kernel, wave: Wave) -> u32 {
    2 + wave.lanes() * super::control::register_vars(kernel).len() as u32
}

/// [`emit_wave_mem`] for a wave that shares its workgroup with others: the module runs the
/// wave until the end of a block that ends at an `s_barrier` and stops there with status
/// [`SUSPENDED_STATUS`], its state in [`resume_dwords`] words after the memory region's
/// [`region_words`] in the output buffer; the same words in the input buffer are where it
/// starts (all zero: at the beginning). The host runs the waves of a workgroup in turn, each
/// until it waits at a barrier, the LDS and the memory region of one the next one's input:
/// the order [`crate::workgroup::run_workgroup`] runs them in on the CPU model. The input and
/// output strides are [`wave_in_stride`] and [`wave_out_stride`] of `lds_dwords +
/// region_words(mem_dwords) + resume_dwords`.
pub fn emit_wave_resumable(
    kernel: &Kernel,
    wave: Wave,
    lds_dwords: u32,
    mem_dwords: u32,
    opts: &SpirvOptions,
) -> Result<Vec<u32>, SpirvError> {
    let exit = kernel.blocks.last().map_or(0, |b| b.exprs.end) as usize;
    if kernel.exprs[exit..]
        .iter()
        .any(|e| matches!(e, crate::ir::Expr::Mem { .. }))
    {
        return Err(SpirvError::Unsupported {
            reason: "a memory access in the exit code of a resumable wave".into(),
        });
    }
    emit(kernel, wave, lds_dwords, mem_dwords, opts, Form::Resumable)
}

/// How the module runs a body with blocks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Structured where the block graph allows, else the dispatcher.
    Structured,
    /// Always the dispatcher.
    Dispatcher,
    /// The dispatcher, stopping at barriers with its state saved ([`emit_wave_resumable`]).
    Resumable,
}

fn emit(
    kernel: &Kernel,
    wave: Wave,
    lds_dwords: u32,
    mem_dwords: u32,
    opts: &SpirvOptions,
    form: Form,
) -> Result<Vec<u32>, SpirvError> {
    if lds_dwords > 65536 / 4 {
        return Err(SpirvError::Interface {
            reason: format!("{lds_dwords} LDS dwords (at most 16384)"),
        });
    }
    kernel.validate()?;
    let uses = Uses::of(kernel);
    if uses.f64 && !opts.float64 {
        return Err(SpirvError::Unsupported {
            reason: "the kernel computes in f64 and the device lacks shaderFloat64".into(),
        });
    }
    let min_lod = kernel.exprs.iter().any(|e| {
        matches!(e, crate::ir::Expr::Image(a)
            if matches!(a.op, crate::ir::ImageOp::SampleGrad { min_lod: Some(_), .. }))
    });
    let gather_offsets = kernel.exprs.iter().any(|e| {
        matches!(e, crate::ir::Expr::Image(a) if matches!(a.op, crate::ir::ImageOp::GatherOffset(..)))
    });
    if gather_offsets && !opts.gather_offsets {
        return Err(SpirvError::Unsupported {
            reason: "a native gather's `_o` offsets are a run-time Offset and the device lacks \
                     shaderImageGatherExtended or texel gather offsets of -32..=31"
                .into(),
        });
    }
    if kernel.images.iter().any(|i| i.storage) && !opts.storage_write {
        return Err(SpirvError::Unsupported {
            reason: "a native image store writes a storage image without a format and the \
                     device lacks shaderStorageImageWriteWithoutFormat"
                .into(),
        });
    }
    if min_lod && !opts.min_lod {
        return Err(SpirvError::Unsupported {
            reason: "a native `_cl` sample takes a minimum LOD and the device lacks \
                     shaderResourceMinLod"
                .into(),
        });
    }
    if uses.u64 && !opts.int64 {
        return Err(SpirvError::Unsupported {
            reason: "the kernel computes in 64-bit integers (wave masks) and the device lacks \
                     shaderInt64"
                .into(),
        });
    }
    let mut e = Emitter::new(kernel, wave, uses, opts);
    e.dispatcher = form != Form::Structured;
    let resume = match form {
        Form::Resumable if !kernel.blocks.is_empty() => resume_dwords(kernel, wave),
        _ => 0,
    };
    e.wave_module(lds_dwords, mem_dwords, resume)?;
    Ok(e.b.module().assemble())
}

impl Emitter<'_> {
    fn wave_module(
        &mut self,
        lds_dwords: u32,
        mem_dwords: u32,
        resume_dwords: u32,
    ) -> Result<(), SpirvError> {
        let t_u32 = self.t.u32_;
        let err = build_err(None);
        let lanes = self.wave.lanes();

        let ptr_buf = self.buffer_ptr_type();
        let in_var = self
            .b
            .variable(ptr_buf, None, StorageClass::StorageBuffer, None);
        let out_var = self
            .b
            .variable(ptr_buf, None, StorageClass::StorageBuffer, None);
        for (var, binding, name) in [(in_var, 0, "inputs"), (out_var, 1, "outputs")] {
            self.bind_buffer(var, binding, name);
        }
        self.b.decorate(in_var, Decoration::NonWritable, []);
        let ptr_private = self.b.type_pointer(None, StorageClass::Private, t_u32);
        let c0 = self.u32c(0);
        self.loop_cut = Some(
            self.b
                .variable(ptr_private, None, StorageClass::Private, Some(c0)),
        );
        if resume_dwords > 0 {
            self.suspended =
                Some(
                    self.b
                        .variable(ptr_private, None, StorageClass::Private, Some(c0)),
                );
        }
        if mem_dwords == 0 {
            self.b.decorate(out_var, Decoration::NonReadable, []);
        } else {
            // The region lives in this buffer and its words pass between the wave's
            // invocations (copied in by every lane, then read and written by others): without
            // Coherent a driver may serve an invocation's loads from a cache that another
            // invocation's stores, made visible by the barriers, never reach.
            self.b.decorate(out_var, Decoration::Coherent, []);
        }

        let c_slots = self.u32c(EXCHANGE_SLOTS * lanes);
        let shared_ty = self.b.type_array(t_u32, c_slots);
        let ptr_shared = self
            .b
            .type_pointer(None, StorageClass::Workgroup, shared_ty);
        let ptr_wg_u32 = self.b.type_pointer(None, StorageClass::Workgroup, t_u32);
        let shared = self
            .b
            .variable(ptr_shared, None, StorageClass::Workgroup, None);
        self.b.name(shared, "cross_lane");
        let exchanges = self
            .b
            .variable(ptr_private, None, StorageClass::Private, Some(c0));
        self.b.name(exchanges, "exchanges");

        let wg_var = self.builtin_input(BuiltIn::WorkgroupId);
        let lid_var = self.builtin_input(BuiltIn::LocalInvocationId);

        self.declare_vars();
        let lds = self.declare_lds(lds_dwords);
        let mem_arrays = self.declare_mem(mem_dwords);
        self.declare_store_seq();
        self.declare_images()?;
        self.begin_main([wg_var, lid_var])?;
        let w = self.load_x(wg_var)?;
        let lane = self.load_x(lid_var)?;
        let region = region_words(mem_dwords);
        let extra = lds_dwords + region + resume_dwords;
        let c_in_stride = self.u32c(wave_in_stride(self.wave, extra));
        let c_out_stride = self.u32c(wave_out_stride(self.wave, extra));
        let c6 = self.u32c(INPUT_DWORDS);
        let c16 = self.u32c(OUTPUT_DWORDS);
        let c_in_lanes = self.u32c(lanes * INPUT_DWORDS);
        let c_out_lanes = self.u32c(lanes * OUTPUT_DWORDS);
        let b = &mut self.b;
        let in_wave = b.i_mul(t_u32, None, w, c_in_stride).map_err(&err)?;
        let in_lane = b.i_mul(t_u32, None, lane, c6).map_err(&err)?;
        let in_base = b.i_add(t_u32, None, in_wave, in_lane).map_err(&err)?;
        let uni_base = b.i_add(t_u32, None, in_wave, c_in_lanes).map_err(&err)?;
        let out_wave = b.i_mul(t_u32, None, w, c_out_stride).map_err(&err)?;
        let out_lane = b.i_mul(t_u32, None, lane, c16).map_err(&err)?;
        let out_base = b.i_add(t_u32, None, out_wave, out_lane).map_err(&err)?;
        let uni_out = b.i_add(t_u32, None, out_wave, c_out_lanes).map_err(&err)?;

        let mem = match mem_arrays {
            Some(arrays) => {
                let c = self.u32c(WAVE_OUT_DWORDS + lds_dwords);
                let base = self.b.i_add(t_u32, None, uni_out, c).map_err(&err)?;
                let c = self.u32c(mem_dwords);
                let claims = self.b.i_add(t_u32, None, base, c).map_err(&err)?;
                Some(Self::mem_vars(arrays, out_var, [base, claims], mem_dwords))
            }
            None => None,
        };
        let io = Io {
            inputs: Inputs::Buffer { in_var, in_base },
            lane,
            wave: Some(WaveIo {
                in_var,
                uni_base,
                shared,
                exchanges,
                ptr_wg_u32,
                lds,
                mem,
            }),
        };
        let w = io.wave.expect("set above");
        // Words 0 and 1 of slots 0 and 1 start at zero for the first two exchanges' ballots.
        let c1 = self.u32c(1);
        let pair = self.b.bitwise_and(t_u32, None, lane, c1).map_err(&err)?;
        let c_lanes = self.u32c(lanes);
        let second = self.b.i_add(t_u32, None, pair, c_lanes).map_err(&err)?;
        for word in [pair, second] {
            self.clear_shared(&w, word)?;
        }
        self.barrier()?;
        if let Some(v) = lds {
            self.lds_copy(&w, lane, |e, k| {
                let at =
                    e.b.i_add(t_u32, None, uni_base, k)
                        .map_err(build_err(None))?;
                let x = e.load_word(in_var, at, WAVE_IN_DWORDS)?;
                let p =
                    e.b.access_chain(ptr_wg_u32, None, v.lds, [k])
                        .map_err(build_err(None))?;
                e.b.store(p, x, None, []).map_err(build_err(None))?;
                // the dword's four claim words start at zero
                if let Some(claims) = v.claims {
                    let c4 = e.u32c(4);
                    let at = e.b.i_mul(t_u32, None, k, c4).map_err(build_err(None))?;
                    for j in 0..4 {
                        let cj = e.u32c(j);
                        let i = e.b.i_add(t_u32, None, at, cj).map_err(build_err(None))?;
                        let p =
                            e.b.access_chain(ptr_wg_u32, None, claims, [i])
                                .map_err(build_err(None))?;
                        let zero = e.u32c(0);
                        e.b.store(p, zero, None, []).map_err(build_err(None))?;
                    }
                }
                Ok(())
            })?;
        }
        if let Some(v) = mem {
            let c = self.u32c(WAVE_IN_DWORDS + lds_dwords);
            let in_region = self.b.i_add(t_u32, None, uni_base, c).map_err(&err)?;
            self.mem_copy_in(&v, in_var, in_region, lane)?;
        }
        let resume = if let Some(suspended) = self.suspended {
            let c = self.u32c(WAVE_IN_DWORDS + lds_dwords + region);
            let at = self.b.i_add(t_u32, None, uni_base, c).map_err(&err)?;
            self.resume_state(in_var, at, lane, true)?;
            let c = self.u32c(WAVE_OUT_DWORDS + lds_dwords + region);
            Some((
                suspended,
                self.b.i_add(t_u32, None, uni_out, c).map_err(&err)?,
            ))
        } else {
            None
        };
        let status = if self.kernel.blocks.is_empty() {
            for i in 0..self.kernel.exprs.len() {
                let h = Handle(i as u32);
                self.at = Some(h);
                let id = self.expr(h, &io)?;
                self.values.push(id);
            }
            self.at = None;
            self.u32c(0)
        } else {
            self.cfg_body(&io)?
        };
        // A fault outranks the watchdog: the wave stopped at it. A loop the driver ended
        // early outranks both: nothing after it is the program's.
        let mut status = status;
        if let Some((suspended, at)) = resume {
            self.resume_state(out_var, at, lane, false)?;
            status = self.status_unless_zero(suspended, status)?;
        }
        for var in [lds.map(|v| v.fault), self.loop_cut].into_iter().flatten() {
            status = self.status_unless_zero(var, status)?;
        }
        for k in 0..OUTPUT_DWORDS as usize {
            let v = self.v(self.kernel.outputs[k]);
            self.store_word(out_var, out_base, k as u32, v)?;
        }
        if let Some(v) = lds {
            self.barrier()?;
            self.lds_copy(&w, lane, |e, k| {
                let p =
                    e.b.access_chain(ptr_wg_u32, None, v.lds, [k])
                        .map_err(build_err(None))?;
                let x =
                    e.b.load(t_u32, None, p, None, [])
                        .map_err(build_err(None))?;
                let at =
                    e.b.i_add(t_u32, None, uni_out, k)
                        .map_err(build_err(None))?;
                e.store_word(out_var, at, WAVE_OUT_DWORDS, x)
            })?;
        }

        // Uniform outputs: lane 0 stores them.
        let c0 = self.u32c(0);
        let merge = self.if_lane0(lane)?;
        let mut words: Vec<Word> = Vec::with_capacity(WAVE_OUT_DWORDS as usize);
        match self.kernel.uniform.clone() {
            Some(u) => {
                for &s in &u.sgprs {
                    words.push(self.v(s));
                }
                for m in [u.exec, u.vcc] {
                    let (lo, hi) = self.split64(self.v(m))?;
                    words.extend([lo, hi]);
                }
                let (one, zero) = (self.u32c(1), self.u32c(0));
                let scc = self.v(u.scc);
                words.push(self.b.select(t_u32, None, scc, one, zero).map_err(&err)?);
            }
            None => words.resize(WAVE_STATUS_WORD as usize, c0),
        }
        words.push(status);
        for (k, v) in words.into_iter().enumerate() {
            self.store_word(out_var, uni_out, k as u32, v)?;
        }
        self.end_if(merge)?;
        self.b.ret().map_err(&err)?;
        self.b.end_function().map_err(&err)?;
        Ok(())
    }

    /// Moves the dispatcher's state between its Private variables and the resume words at
    /// `base` of the buffer `var` ([`resume_dwords`]): loads them when `load`, else stores
    /// them (the block and count words by lane 0).
    fn resume_state(
        &mut self,
        var: Word,
        base: Word,
        lane: Word,
        load: bool,
    ) -> Result<(), SpirvError> {
        let err = build_err(None);
        let t = self.t.u32_;
        let ids = super::control::register_vars(self.kernel);
        let c_n = self.u32c(ids.len() as u32);
        let c2 = self.u32c(2);
        let lane_words = self.b.i_mul(t, None, lane, c_n).map_err(&err)?;
        let lane_words = self.b.i_add(t, None, lane_words, c2).map_err(&err)?;
        let lane_base = self.b.i_add(t, None, base, lane_words).map_err(&err)?;
        let dispatcher = [super::control::BLOCK_VAR, super::control::COUNT_VAR];
        if load {
            for (k, id) in dispatcher.into_iter().enumerate() {
                let x = self.load_word(var, base, k as u32)?;
                let p = self.var_ptr(id)?;
                self.b.store(p, x, None, []).map_err(&err)?;
            }
            for (k, &id) in ids.iter().enumerate() {
                let x = self.load_word(var, lane_base, k as u32)?;
                let p = self.var_ptr(id)?;
                self.b.store(p, x, None, []).map_err(&err)?;
            }
            return Ok(());
        }
        for (k, &id) in ids.iter().enumerate() {
            let x = self.var_load(id)?;
            self.store_word(var, lane_base, k as u32, x)?;
        }
        let merge = self.if_lane0(lane)?;
        for (k, id) in dispatcher.into_iter().enumerate() {
            let x = self.var_load(id)?;
            self.store_word(var, base, k as u32, x)?;
        }
        self.end_if(merge)
    }

    /// A pointer to word `base + k` of the storage buffer `var`.
    fn word_ptr(&mut self, var: Word, base: Word, k: u32) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (c0, ck) = (self.u32c(0), self.u32c(k));
        let idx = self.b.i_add(self.t.u32_, None, base, ck).map_err(&err)?;
        self.b
            .access_chain(self.t.ptr_sb_u32, None, var, [c0, idx])
            .map_err(&err)
    }

    /// Stores `v` at word `base + k` of the storage buffer `var`.
    fn store_word(&mut self, var: Word, base: Word, k: u32, v: Word) -> Result<(), SpirvError> {
        let ptr = self.word_ptr(var, base, k)?;
        self.b.store(ptr, v, None, []).map_err(build_err(self.at))
    }

    /// Loads word `base + k` of the storage buffer `var`.
    fn load_word(&mut self, var: Word, base: Word, k: u32) -> Result<Word, SpirvError> {
        let ptr = self.word_ptr(var, base, k)?;
        self.b
            .load(self.t.u32_, None, ptr, None, [])
            .map_err(build_err(self.at))
    }

    pub(super) fn wave_io(&self, io: &Io, what: &str) -> Result<WaveIo, SpirvError> {
        io.wave.ok_or_else(|| SpirvError::Unsupported {
            reason: format!("{what} needs the wave contract's module (spirv::emit_wave)"),
        })
    }

    /// A zero that the driver cannot see at compile time: the difference of two volatile
    /// loads of the same input word (a driver neither merges volatile loads nor bounds what
    /// they read). See `structured`.
    pub(super) fn opaque_zero(&mut self, io: &Io) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let w = self.wave_io(io, "control flow")?;
        let t = self.t.u32_;
        let ptr = self.word_ptr(w.in_var, w.uni_base, 0)?;
        let volatile = Some(MemoryAccess::VOLATILE);
        let a = self.b.load(t, None, ptr, volatile, []).map_err(&err)?;
        let b = self.b.load(t, None, ptr, volatile, []).map_err(&err)?;
        self.b.i_sub(t, None, a, b).map_err(&err)
    }

    /// [`Expr::SgprIn`](crate::ir::Expr::SgprIn).
    pub(super) fn sgpr_in(&mut self, io: &Io, index: u8) -> Result<Word, SpirvError> {
        let Some(w) = io.wave else {
            return Ok(self.u32c(0));
        };
        self.load_word(w.in_var, w.uni_base, 2 + u32::from(index))
    }

    /// [`Expr::ExecIn`](crate::ir::Expr::ExecIn).
    pub(super) fn exec_in(&mut self, io: &Io) -> Result<Word, SpirvError> {
        let Some(w) = io.wave else {
            return Ok(self.constant(Ty::U64, u64::MAX));
        };
        let lo = self.load_word(w.in_var, w.uni_base, 0)?;
        let hi = self.load_word(w.in_var, w.uni_base, 1)?;
        self.pack64(lo, hi)
    }

    /// A workgroup barrier before code that may write (see [`super::fence`]).
    pub(super) fn barrier(&mut self) -> Result<(), SpirvError> {
        self.fence(fence::WORKGROUP, Guard::Any)
    }

    /// Starts an exchange: the index of its slot's first word, the counter advanced.
    fn exchange_slot(&mut self, w: &WaveIo) -> Result<(Word, Word), SpirvError> {
        let err = build_err(self.at);
        let t = self.t.u32_;
        let one = self.u32c(1);
        let seq = self.b.load(t, None, w.exchanges, None, []).map_err(&err)?;
        let next = self.b.i_add(t, None, seq, one).map_err(&err)?;
        self.b.store(w.exchanges, next, None, []).map_err(&err)?;
        let base = self.slot_base(seq)?;
        Ok((seq, base))
    }

    /// The first shared word of exchange `n`'s slot: `(n % 3) * wave`.
    fn slot_base(&mut self, n: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.t.u32_;
        let (three, lanes) = (self.u32c(EXCHANGE_SLOTS), self.u32c(self.wave.lanes()));
        let slot = self.b.u_mod(t, None, n, three).map_err(&err)?;
        self.b.i_mul(t, None, slot, lanes).map_err(&err)
    }

    /// Ends exchange `seq` after its barrier: clears words 0 and 1 of the slot two ahead.
    fn exchange_done(&mut self, w: &WaveIo, lane: Word, seq: Word) -> Result<(), SpirvError> {
        let err = build_err(self.at);
        let t = self.t.u32_;
        let (one, two) = (self.u32c(1), self.u32c(2));
        let ahead = self.b.i_add(t, None, seq, two).map_err(&err)?;
        let base = self.slot_base(ahead)?;
        let pair = self.b.bitwise_and(t, None, lane, one).map_err(&err)?;
        let word = self.b.i_add(t, None, base, pair).map_err(&err)?;
        self.clear_shared(w, word)
    }

    /// An atomic store of 0 into shared word `index` (several lanes may clear the same word).
    fn clear_shared(&mut self, w: &WaveIo, index: Word) -> Result<(), SpirvError> {
        let (scope, relaxed, zero) = (self.u32c(2), self.u32c(0), self.u32c(0));
        let p = self.wg_shared_ptr(w, index)?;
        self.b
            .atomic_store(p, scope, relaxed, zero)
            .map_err(build_err(self.at))
    }

    /// The status held in the Private u32 `var` when it is not 0, else `status`.
    fn status_unless_zero(&mut self, var: Word, status: Word) -> Result<Word, SpirvError> {
        let err = build_err(None);
        let (t, c0) = (self.t.u32_, self.u32c(0));
        let v = self.b.load(t, None, var, None, []).map_err(&err)?;
        let set = self
            .b
            .i_not_equal(self.t.bool_, None, v, c0)
            .map_err(&err)?;
        self.b.select(t, None, set, v, status).map_err(&err)
    }

    fn wg_shared_ptr(&mut self, w: &WaveIo, index: Word) -> Result<Word, SpirvError> {
        self.b
            .access_chain(w.ptr_wg_u32, None, w.shared, [index])
            .map_err(build_err(self.at))
    }

    fn shared_load(&mut self, w: &WaveIo, index: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let ptr = self
            .b
            .access_chain(w.ptr_wg_u32, None, w.shared, [index])
            .map_err(&err)?;
        self.b.load(self.t.u32_, None, ptr, None, []).map_err(&err)
    }

    /// [`Expr::WaveBallot`](crate::ir::Expr::WaveBallot).
    pub(super) fn wave_ballot(&mut self, io: &Io, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let w = self.wave_io(io, "a ballot")?;
        let (one, zero) = (self.u32c(1), self.u32c(0));
        let t = self.t.u32_;
        let bit = self.b.select(t, None, x, one, zero).map_err(&err)?;
        // Atomic ORs into the slot's first one or two words, not a loop over the lanes:
        // lavapipe ends a shader's loops after 65535 iterations in all
        // (LP_MAX_TGSI_LOOP_ITERATIONS, shared between every loop), and a loop per ballot spent
        // that within a few hundred iterations of a real kernel's loop; unrolled, it was 4
        // instructions per lane for every ballot.
        let (c31, c5) = (self.u32c(31), self.u32c(5));
        let (scope, relaxed) = (self.u32c(2), self.u32c(0));
        let (seq, base) = self.exchange_slot(&w)?;
        let b = &mut self.b;
        let word = b.shift_right_logical(t, None, io.lane, c5).map_err(&err)?;
        let word = b.i_add(t, None, base, word).map_err(&err)?;
        let sh = b.bitwise_and(t, None, io.lane, c31).map_err(&err)?;
        let bits = b.shift_left_logical(t, None, bit, sh).map_err(&err)?;
        let p = self.wg_shared_ptr(&w, word)?;
        self.b
            .atomic_or(t, None, p, scope, relaxed, bits)
            .map_err(&err)?;
        self.barrier()?;
        let lo = self.shared_load(&w, base)?;
        let hi = if self.wave.lanes() == 64 {
            let at = self.b.i_add(t, None, base, one).map_err(&err)?;
            self.shared_load(&w, at)?
        } else {
            zero
        };
        self.exchange_done(&w, io.lane, seq)?;
        self.pack64(lo, hi)
    }

    /// [`Expr::WaveRead`](crate::ir::Expr::WaveRead).
    pub(super) fn wave_read(&mut self, io: &Io, v: Word, from: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let w = self.wave_io(io, "a cross-lane read")?;
        let t = self.t.u32_;
        let (seq, base) = self.exchange_slot(&w)?;
        let mine = self.b.i_add(t, None, base, io.lane).map_err(&err)?;
        let p = self.wg_shared_ptr(&w, mine)?;
        self.b.store(p, v, None, []).map_err(&err)?;
        self.barrier()?;
        let mask = self.u32c(self.wave.lanes() - 1);
        let idx = self.b.bitwise_and(t, None, from, mask).map_err(&err)?;
        let idx = self.b.i_add(t, None, base, idx).map_err(&err)?;
        let r = self.shared_load(&w, idx)?;
        self.exchange_done(&w, io.lane, seq)?;
        Ok(r)
    }
}
