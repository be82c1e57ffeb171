//! SPIR-V backend: turns one IR [`Kernel`] into a Vulkan GLCompute module for one wave size,
//! built with rspirv's `dr::Builder`.
//!
//! Module interface (the lane contract on a Vulkan device):
//! - `LocalSize = (wave, 1, 1)`; one invocation per dataset row, row = `GlobalInvocationId.x`,
//!   the IR's [`Expr::LaneId`] = `LocalInvocationId.x`;
//! - descriptor set 0, binding 0: input storage buffer, a runtime array of u32 with
//!   [`INPUT_DWORDS`] words per row (in0..in5); binding 1: output storage buffer with
//!   [`OUTPUT_DWORDS`] words per row (out0..out15);
//! - push constant block `{ u32 row_count }`; invocations with `row >= row_count` do nothing.
//!
//! That is the [`Interface::LANE_CONTRACT`] every replay uses. Streaming sweeps
//! ([`emit_with`]) can instead have the module compute its inputs from the row index
//! ([`InputSource::Generated`]: no input buffer, push constants `{ u32 row_count, u32 base_lo,
//! u32 base_hi }`) and store only the output dwords that are not constants of the kernel
//! ([`Interface::outputs`]), so that a 2^32-row sweep moves 4 bytes per row instead of 88.
//!
//! Every IR operation maps to one or a few SPIR-V instructions that give the bits of the IR's
//! definition ([`crate::eval`]) on any conforming driver. Where SPIR-V leaves a result
//! undefined the module computes the definition explicitly: shift amounts are taken modulo the
//! width, `DivU` by zero gives all ones, `RemU` by zero gives the dividend,
//! `FindMsbU`/`FindLsb` of zero give all ones, `F64ToS32`/`F64ToU32` saturate, and every
//! float-valued result is followed by the NaN rule's selects (first NaN operand quieted, else
//! the default NaN for a NaN result), since SPIR-V leaves NaN bits to the driver. Float
//! arithmetic results carry `NoContraction` so that no driver fuses or reassociates them. Float-controls execution modes are emitted
//! only where [`SpirvOptions::float_controls`] says the device advertises them; the IR never
//! depends on them (see the `ir` module docs).
//!
//! Vulkan restricts some instructions to 32-bit operands (`OpBitCount`, `OpBitReverse`,
//! GLSL.std.450 `FindUMsb`/`FindILsb`, and `Exp2`/`Log2`/`Sin`/`Cos`, which have no f64 form);
//! their U64/F64 forms are built from 32-bit halves or, for the approximate transcendental
//! functions, evaluated in f32.
//!
//! A kernel lowered under the wave contract runs through [`emit_wave`] instead: one workgroup
//! per wave, cross-lane operations through workgroup memory (see `wave`), control flow as
//! structured loops and selections when the block graph is reducible (see `structured`), else
//! as a dispatcher loop (see `control`), both under a watchdog.
//!
//! Submodules: `interface` (entry point, buffers, push constants, inputs and outputs), `wave`
//! (the wave contract's module), `expr`
//! (integer, boolean and conversion expressions), `float` (native float operations and the NaN
//! rule), `wide` (64-bit helpers built from 32-bit halves).

pub mod arbitrary;
mod control;
mod expr;
mod fence;
mod float;
mod float_atomic;
mod image;
mod interface;
mod lds;
mod lds_wide;
pub use lds_wide::LDS_FAULT_STATUS;
mod mem;
mod mem_bits;
mod structured;
mod wave;
mod wide;

pub use wave::{
    emit_wave, emit_wave_dispatcher, emit_wave_mem, emit_wave_resumable, region_words,
    resume_dwords, wave_in_stride, wave_out_stride, LOOP_CUT_STATUS, SUSPENDED_STATUS,
    WAVE_IN_DWORDS, WAVE_OUT_DWORDS, WAVE_STATUS_WORD,
};

use std::collections::HashMap;

use rdnaprobe_isa::Wave;
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, Capability, Decoration, GLOp, MemoryModel, StorageClass, Word,
};

use crate::eval;
use crate::ir::{Expr, FloatUn, Handle, IrError, Kernel, Ty};

/// Input dwords per row in the input buffer (in0..in5, the lane's v4..v9).
pub const INPUT_DWORDS: u32 = 6;
/// Output dwords per row in the output buffer (out0..out15, the lane's v10..v25).
pub const OUTPUT_DWORDS: u32 = 16;
/// SPIR-V version of the emitted modules: 1.3 is the newest that Vulkan 1.1 accepts.
pub const SPIRV_VERSION: (u8, u8) = (1, 3);

/// Where a module's rows come from and which output dwords it stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Interface {
    pub inputs: InputSource,
    /// Output dwords the module stores (bit k: out k), packed in increasing order: a row of
    /// the output buffer is `outputs.count_ones()` words. Must not be 0.
    pub outputs: u16,
}

impl Interface {
    /// Inputs from binding 0, all sixteen outputs: the lane contract as replays use it.
    pub const LANE_CONTRACT: Interface = Interface {
        inputs: InputSource::Buffer,
        outputs: 0xffff,
    };

    /// Words per row in the output buffer.
    pub fn output_stride(&self) -> usize {
        self.outputs.count_ones() as usize
    }
}

/// How a module gets the six input dwords of its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputSource {
    /// Binding 0 holds [`INPUT_DWORDS`] words per row.
    Buffer,
    /// Computed from the row index `i = base + GlobalInvocationId.x` (`base` from the push
    /// constants, 64-bit): by mixed radix with in0 varying fastest, input k is
    /// `first_k + (i / (count_0 * ... * count_{k-1})) % count_k`. Needs `shaderInt64`.
    Generated([InputRange; 6]),
}

/// The values `first, first + 1, ..., first + count - 1` of one generated input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InputRange {
    pub first: u32,
    /// 1 ..= 2^32.
    pub count: u64,
}

/// What the target device supports, as far as code generation cares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpirvOptions {
    /// `shaderFloat64`: kernels with `F64` values may be emitted.
    pub float64: bool,
    /// `shaderInt64`: kernels with `U64` values may be emitted.
    pub int64: bool,
    /// Float-controls properties the device advertises (VK_KHR_shader_float_controls).
    pub float_controls: FloatControls,
    /// `shaderResourceMinLod`: native image samples may take a minimum LOD (`_cl`).
    pub min_lod: bool,
    /// `shaderStorageImageWriteWithoutFormat`: native image stores (`OpImageWrite` to a
    /// storage image of format Unknown).
    pub storage_write: bool,
    /// `shaderImageGatherExtended` and texel gather offsets covering -32..=31 (a gather's
    /// `_o` offsets: six signed bits): native gathers with a run-time `Offset`.
    pub gather_offsets: bool,
}

impl SpirvOptions {
    /// A device with 64-bit floats and integers and no float-controls guarantees: what every
    /// desktop driver (lavapipe, RADV, NVIDIA) offers at least.
    pub const DESKTOP: SpirvOptions = SpirvOptions {
        float64: true,
        int64: true,
        float_controls: FloatControls::NONE,
        min_lod: false,
        storage_write: true,
        gather_offsets: true,
    };
}

/// Float-controls guarantees a device advertises. Each `true` makes the backend declare the
/// matching execution mode for the float widths the kernel uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FloatControls {
    /// `shaderDenormPreserveFloat32`.
    pub denorm_preserve_32: bool,
    /// `shaderDenormPreserveFloat64`.
    pub denorm_preserve_64: bool,
    /// `shaderSignedZeroInfNanPreserveFloat32`.
    pub signed_zero_inf_nan_preserve_32: bool,
    /// `shaderSignedZeroInfNanPreserveFloat64`.
    pub signed_zero_inf_nan_preserve_64: bool,
    /// `shaderRoundingModeRTEFloat32`.
    pub rounding_rte_32: bool,
    /// `shaderRoundingModeRTEFloat64`.
    pub rounding_rte_64: bool,
}

impl FloatControls {
    pub const NONE: FloatControls = FloatControls {
        denorm_preserve_32: false,
        denorm_preserve_64: false,
        signed_zero_inf_nan_preserve_32: false,
        signed_zero_inf_nan_preserve_64: false,
        rounding_rte_32: false,
        rounding_rte_64: false,
    };

    fn any(&self) -> bool {
        *self != FloatControls::NONE
    }
}

/// Why a kernel could not be emitted.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SpirvError {
    /// The kernel breaks an IR invariant (a lowering bug, not a device limit).
    #[error("invalid IR kernel: {0}")]
    InvalidIr(#[from] IrError),
    /// The kernel reads an input dword that the lane contract does not have.
    #[error("expression {at}: input dword {index} does not exist (inputs are 0..{INPUT_DWORDS})")]
    InputIndex { at: Handle, index: u8 },
    /// The device lacks a feature the kernel needs.
    #[error("unsupported on this device: {reason}")]
    Unsupported { reason: String },
    /// An [`Interface`] that cannot be built.
    #[error("module interface: {reason}")]
    Interface { reason: String },
    /// rspirv refused an instruction sequence (a backend bug).
    #[error("SPIR-V builder failed at {at}: {message}")]
    Builder { at: String, message: String },
}

/// Emits the GLCompute module for `kernel` at wave size `wave`, as SPIR-V words, with the
/// lane contract's interface ([`Interface::LANE_CONTRACT`]).
pub fn emit(kernel: &Kernel, wave: Wave, opts: &SpirvOptions) -> Result<Vec<u32>, SpirvError> {
    emit_with(kernel, wave, opts, &Interface::LANE_CONTRACT)
}

/// Emits the module for `kernel` with the buffer interface `io`.
pub fn emit_with(
    kernel: &Kernel,
    wave: Wave,
    opts: &SpirvOptions,
    io: &Interface,
) -> Result<Vec<u32>, SpirvError> {
    kernel.validate()?;
    if !kernel.blocks.is_empty() {
        return Err(SpirvError::Unsupported {
            reason: "control flow needs the wave contract's module (spirv::emit_wave)".into(),
        });
    }
    if !kernel.images.is_empty() {
        return Err(SpirvError::Unsupported {
            reason: "native images need the wave contract's module (spirv::emit_wave)".into(),
        });
    }
    if io.outputs == 0 {
        return Err(SpirvError::Interface {
            reason: "the module must store at least one output dword".into(),
        });
    }
    let mut uses = Uses::of(kernel);
    if let InputSource::Generated(ranges) = io.inputs {
        if let Some((k, r)) = ranges
            .iter()
            .enumerate()
            .find(|(_, r)| r.count == 0 || r.count > 1 << 32)
        {
            return Err(SpirvError::Interface {
                reason: format!("generated input in{k} has {} values (1 ..= 2^32)", r.count),
            });
        }
        if !opts.int64 {
            return Err(SpirvError::Unsupported {
                reason: "generated inputs need 64-bit row indices and the device lacks \
                         shaderInt64"
                    .into(),
            });
        }
        uses.u64 = true;
    }
    if uses.f64 && !opts.float64 {
        return Err(SpirvError::Unsupported {
            reason: "the kernel computes in f64 and the device lacks shaderFloat64".into(),
        });
    }
    if uses.u64 && !opts.int64 {
        return Err(SpirvError::Unsupported {
            reason: "the kernel computes in 64-bit integers and the device lacks shaderInt64"
                .into(),
        });
    }
    let mut e = Emitter::new(kernel, wave, uses, opts);
    e.module(io)?;
    Ok(e.b.module().assemble())
}

/// Which value widths a kernel uses: they decide the capabilities and execution modes.
#[derive(Clone, Copy, Debug, Default)]
struct Uses {
    f32: bool,
    f64: bool,
    u64: bool,
}

impl Uses {
    fn of(kernel: &Kernel) -> Uses {
        let mut u = Uses::default();
        for i in 0..kernel.exprs.len() {
            match kernel.ty(Handle(i as u32)) {
                Ty::F32 => u.f32 = true,
                Ty::F64 => u.f64 = true,
                Ty::U64 => u.u64 = true,
                Ty::Bool | Ty::U32 => {}
            }
            match kernel.exprs[i] {
                // F64 transcendental functions are evaluated in f32.
                Expr::FloatUn { op, .. } if f64_via_f32(op) => u.f32 = true,
                // ds_add_f32 adds in f64 (spirv::lds_wide).
                Expr::Mem {
                    op: crate::ir::LdsOp::FAdd { .. },
                    ..
                } => {
                    u.f32 = true;
                    u.f64 = true;
                }
                _ => {}
            }
        }
        u
    }
}

/// GLSL.std.450 defines these for 16- and 32-bit floats only.
fn f64_via_f32(op: FloatUn) -> bool {
    matches!(
        op,
        FloatUn::Exp2 | FloatUn::Log2 | FloatUn::Sin | FloatUn::Cos
    )
}

fn build_err(at: Option<Handle>) -> impl Fn(rspirv::dr::Error) -> SpirvError {
    move |e| SpirvError::Builder {
        at: at.map_or_else(
            || "module scaffolding".to_string(),
            |h| format!("expression {h}"),
        ),
        message: format!("{e:?}"),
    }
}

struct Types {
    void: Word,
    bool_: Word,
    u32_: Word,
    f32_: Word,
    u64_: Option<Word>,
    f64_: Option<Word>,
    uvec3: Word,
    /// The two dwords of an f64 (`OpBitcast` between `f64` and `uvec2` needs no Int64).
    uvec2: Option<Word>,
    /// `{u32, u32}` for the extended multiplications.
    pair32: Word,
    pair64: Option<Word>,
    ptr_sb_u32: Word,
    ptr_pc_u32: Word,
    ptr_in_uvec3: Word,
}

struct Emitter<'k> {
    b: Builder,
    kernel: &'k Kernel,
    wave: Wave,
    uses: Uses,
    opts: SpirvOptions,
    glsl: Word,
    t: Types,
    consts: HashMap<(Ty, u64), Word>,
    /// SPIR-V id of each IR expression, in order.
    values: Vec<Word>,
    /// Control flow: the Private variable of each register variable (see `control`).
    vars: HashMap<u16, Word>,
    /// The expression being emitted, for error context.
    at: Option<Handle>,
    /// Blocks go under the dispatcher even when their graph is reducible (see `control`).
    dispatcher: bool,
    /// The opaque zero of a structured body (see `structured`).
    zero: Option<Word>,
    /// A Private u32 that a counted loop sets when it ended before its count: the driver
    /// stopped it (see [`wave::LOOP_CUT_STATUS`]).
    loop_cut: Option<Word>,
    /// A resumable module's Private u32: set at the end of a barrier's block, it ends the
    /// dispatcher's loop there (see [`wave::SUSPENDED_STATUS`]).
    suspended: Option<Word>,
    /// Per expression, whether anything reads its value ([`Kernel::read_values`]).
    read: Vec<bool>,
    /// The Private store counter of the parallel stores (see `mem`), when they are used.
    store_seq: Option<Word>,
    /// The LDS has claim words for the parallel stores (see `lds`).
    lds_claims: bool,
    /// The known bits of each expression ([`Kernel::expr_bits`]), computed at the first store
    /// that asks: a store to an address known to be a multiple of 4 on every lane claims and
    /// writes whole dwords.
    bits: std::cell::OnceCell<Vec<crate::ir::known_bits::Bits>>,
    /// Native images (see `image`): each binding's objects, declared at first use, and the
    /// last access, whose other components reuse its result.
    image_vars: Vec<Option<image::ImageVar>>,
    last_image: Option<image::LastAccess>,
}

impl<'k> Emitter<'k> {
    fn new(kernel: &'k Kernel, wave: Wave, uses: Uses, opts: &SpirvOptions) -> Emitter<'k> {
        let mut b = Builder::new();
        b.set_version(SPIRV_VERSION.0, SPIRV_VERSION.1);
        b.capability(Capability::Shader);
        if uses.f64 {
            b.capability(Capability::Float64);
        }
        if uses.u64 {
            b.capability(Capability::Int64);
        }
        let glsl = b.ext_inst_import("GLSL.std.450");
        b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);

        let void = b.type_void();
        let bool_ = b.type_bool();
        let u32_ = b.type_int(32, 0);
        let f32_ = b.type_float(32);
        let u64_ = uses.u64.then(|| b.type_int(64, 0));
        let f64_ = uses.f64.then(|| b.type_float(64));
        let uvec3 = b.type_vector(u32_, 3);
        let uvec2 = uses.f64.then(|| b.type_vector(u32_, 2));
        let pair32 = b.type_struct([u32_, u32_]);
        let pair64 = u64_.map(|t| b.type_struct([t, t]));
        let ptr_sb_u32 = b.type_pointer(None, StorageClass::StorageBuffer, u32_);
        let ptr_pc_u32 = b.type_pointer(None, StorageClass::PushConstant, u32_);
        let ptr_in_uvec3 = b.type_pointer(None, StorageClass::Input, uvec3);
        let t = Types {
            void,
            bool_,
            u32_,
            f32_,
            u64_,
            f64_,
            uvec3,
            uvec2,
            pair32,
            pair64,
            ptr_sb_u32,
            ptr_pc_u32,
            ptr_in_uvec3,
        };
        Emitter {
            b,
            kernel,
            wave,
            uses,
            opts: *opts,
            glsl,
            t,
            consts: HashMap::new(),
            values: Vec::with_capacity(kernel.exprs.len()),
            vars: HashMap::new(),
            at: None,
            dispatcher: false,
            zero: None,
            loop_cut: None,
            suspended: None,
            read: kernel.read_values(),
            store_seq: None,
            lds_claims: false,
            bits: std::cell::OnceCell::new(),
            image_vars: vec![],
            last_image: None,
        }
    }

    /// Whether `h` is known to be a multiple of 4 on every lane.
    fn aligned4(&self, h: Handle) -> bool {
        let bits = self.bits.get_or_init(|| self.kernel.expr_bits());
        bits.get(h.index()).is_some_and(|b| b.zero & 3 == 3)
    }

    fn ty(&self, ty: Ty) -> Word {
        match ty {
            Ty::Bool => self.t.bool_,
            Ty::U32 => self.t.u32_,
            Ty::F32 => self.t.f32_,
            // `Uses::of` saw every expression type, so these exist whenever asked for.
            Ty::U64 => self.t.u64_.unwrap_or(self.t.u32_),
            Ty::F64 => self.t.f64_.unwrap_or(self.t.f32_),
        }
    }

    /// A deduplicated constant of type `ty` with bits `bits` (Bool: nonzero is true).
    fn constant(&mut self, ty: Ty, bits: u64) -> Word {
        let bits = eval::constant(ty, bits);
        if let Some(&id) = self.consts.get(&(ty, bits)) {
            return id;
        }
        let tid = self.ty(ty);
        let id = match ty {
            Ty::Bool if bits != 0 => self.b.constant_true(tid),
            Ty::Bool => self.b.constant_false(tid),
            Ty::U32 | Ty::F32 => self.b.constant_bit32(tid, bits as u32),
            Ty::U64 | Ty::F64 => self.b.constant_bit64(tid, bits),
        };
        self.consts.insert((ty, bits), id);
        id
    }

    fn u32c(&mut self, v: u32) -> Word {
        self.constant(Ty::U32, u64::from(v))
    }

    fn v(&self, h: Handle) -> Word {
        self.values[h.index()]
    }

    fn no_contraction(&mut self, id: Word) -> Word {
        self.b.decorate(id, Decoration::NoContraction, []);
        id
    }

    fn glsl(&mut self, ty: Word, op: GLOp, args: &[Word]) -> Result<Word, SpirvError> {
        let operands: Vec<Operand> = args.iter().map(|&a| Operand::IdRef(a)).collect();
        self.b
            .ext_inst(ty, None, self.glsl, op as u32, operands)
            .map_err(build_err(self.at))
    }
}
