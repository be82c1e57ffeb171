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
//! Every IR operation maps to one or a few SPIR-V instructions. Where SPIR-V leaves a result
//! undefined the module computes the IR's documented value explicitly: shift amounts are taken
//! modulo the width, `DivU` by zero gives all ones, `RemU` by zero gives the dividend, and
//! `FindMsbU`/`FindLsb` of zero give all ones. Float arithmetic results carry `NoContraction`
//! so that no driver fuses or reassociates them. Float-controls execution modes are emitted
//! only where [`SpirvOptions::float_controls`] says the device advertises them; the IR never
//! depends on them (see the `ir` module docs).
//!
//! Vulkan restricts some instructions to 32-bit operands (`OpBitCount`, `OpBitReverse`,
//! GLSL.std.450 `FindUMsb`/`FindILsb`, and `Exp2`/`Log2`/`Sin`/`Cos`, which have no f64 form);
//! their U64/F64 forms are built from 32-bit halves or, for the approximate transcendental
//! functions, evaluated in f32.

pub mod arbitrary;

use std::collections::HashMap;

use rdnaprobe_isa::Wave;
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, GLOp, MemoryModel, SelectionControl, StorageClass, Word,
};

use crate::ir::{
    Convert, Expr, FloatBin, FloatCmp, FloatUn, Handle, IntBin, IntCmp, IntUn, IrError,
};
use crate::ir::{Kernel, Ty};

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
}

impl SpirvOptions {
    /// A device with 64-bit floats and integers and no float-controls guarantees: what every
    /// desktop driver (lavapipe, RADV, NVIDIA) offers at least.
    pub const DESKTOP: SpirvOptions = SpirvOptions {
        float64: true,
        int64: true,
        float_controls: FloatControls::NONE,
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
            // F64 transcendental functions are evaluated in f32.
            if let Expr::FloatUn { op, .. } = kernel.exprs[i] {
                if f64_via_f32(op) {
                    u.f32 = true;
                }
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
    /// The expression being emitted, for error context.
    at: Option<Handle>,
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
            at: None,
        }
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
        let bits = match ty {
            Ty::Bool => u64::from(bits != 0),
            Ty::U32 | Ty::F32 => bits & 0xffff_ffff,
            Ty::U64 | Ty::F64 => bits,
        };
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

    fn module(&mut self, iface: &Interface) -> Result<(), SpirvError> {
        let t_u32 = self.t.u32_;
        let err = build_err(None);
        let generated = match iface.inputs {
            InputSource::Buffer => None,
            InputSource::Generated(ranges) => Some(ranges),
        };

        // Buffers: struct { u32 data[]; } with Block, shared by input and output.
        let arr = self.b.type_runtime_array(t_u32);
        self.b
            .decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
        let buf = self.b.type_struct([arr]);
        self.b.decorate(buf, Decoration::Block, []);
        self.b
            .member_decorate(buf, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
        let ptr_buf = self.b.type_pointer(None, StorageClass::StorageBuffer, buf);
        let mut buffers = vec![];
        let in_var = generated.is_none().then(|| {
            let v = self
                .b
                .variable(ptr_buf, None, StorageClass::StorageBuffer, None);
            buffers.push((v, 0, "inputs"));
            v
        });
        let out_var = self
            .b
            .variable(ptr_buf, None, StorageClass::StorageBuffer, None);
        buffers.push((out_var, 1, "outputs"));
        for (var, binding, name) in buffers {
            self.b
                .decorate(var, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
            self.b
                .decorate(var, Decoration::Binding, [Operand::LiteralBit32(binding)]);
            self.b.name(var, name);
        }
        if let Some(v) = in_var {
            self.b.decorate(v, Decoration::NonWritable, []);
        }
        self.b.decorate(out_var, Decoration::NonReadable, []);

        // Push constants: struct { u32 row_count; } or, with generated inputs,
        // struct { u32 row_count; u32 base_lo; u32 base_hi; }.
        let members = if generated.is_some() { 3 } else { 1 };
        let pc = self.b.type_struct(vec![t_u32; members]);
        self.b.decorate(pc, Decoration::Block, []);
        for m in 0..members as u32 {
            self.b
                .member_decorate(pc, m, Decoration::Offset, [Operand::LiteralBit32(4 * m)]);
        }
        let ptr_pc = self.b.type_pointer(None, StorageClass::PushConstant, pc);
        let pc_var = self
            .b
            .variable(ptr_pc, None, StorageClass::PushConstant, None);
        self.b.name(pc_var, "push");

        let gid_var = self
            .b
            .variable(self.t.ptr_in_uvec3, None, StorageClass::Input, None);
        let lid_var = self
            .b
            .variable(self.t.ptr_in_uvec3, None, StorageClass::Input, None);
        self.b.decorate(
            gid_var,
            Decoration::BuiltIn,
            [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
        );
        self.b.decorate(
            lid_var,
            Decoration::BuiltIn,
            [Operand::BuiltIn(BuiltIn::LocalInvocationId)],
        );

        let fn_ty = self.b.type_function(self.t.void, []);
        let main = self
            .b
            .begin_function(self.t.void, None, FunctionControl::NONE, fn_ty)
            .map_err(&err)?;
        self.b
            .entry_point(ExecutionModel::GLCompute, main, "main", [gid_var, lid_var]);
        self.b
            .execution_mode(main, ExecutionMode::LocalSize, [self.wave.lanes(), 1, 1]);
        self.float_controls(main);

        self.b.begin_block(None).map_err(&err)?;
        let gid = self
            .b
            .load(self.t.uvec3, None, gid_var, None, [])
            .map_err(&err)?;
        let row = self
            .b
            .composite_extract(t_u32, None, gid, [0])
            .map_err(&err)?;
        let lid = self
            .b
            .load(self.t.uvec3, None, lid_var, None, [])
            .map_err(&err)?;
        let lane = self
            .b
            .composite_extract(t_u32, None, lid, [0])
            .map_err(&err)?;
        let c0 = self.u32c(0);
        let mut push = Vec::with_capacity(members);
        for m in 0..members as u32 {
            let cm = self.u32c(m);
            let ptr = self
                .b
                .access_chain(self.t.ptr_pc_u32, None, pc_var, [cm])
                .map_err(&err)?;
            push.push(self.b.load(t_u32, None, ptr, None, []).map_err(&err)?);
        }
        let in_range = self
            .b
            .u_less_than(self.t.bool_, None, row, push[0])
            .map_err(&err)?;
        let body = self.b.id();
        let merge = self.b.id();
        self.b
            .selection_merge(merge, SelectionControl::NONE)
            .map_err(&err)?;
        self.b
            .branch_conditional(in_range, body, merge, [])
            .map_err(&err)?;

        self.b.begin_block(Some(body)).map_err(&err)?;
        let inputs = match (in_var, generated) {
            (Some(in_var), _) => {
                let c_in = self.u32c(INPUT_DWORDS);
                let in_base = self.b.i_mul(t_u32, None, row, c_in).map_err(&err)?;
                Inputs::Buffer { in_var, in_base }
            }
            (None, Some(ranges)) => Inputs::Values(self.generated_inputs(&ranges, row, &push)?),
            (None, None) => unreachable!("an input buffer is declared unless inputs are generated"),
        };
        let stride = self.u32c(iface.output_stride() as u32);
        let out_base = self.b.i_mul(t_u32, None, row, stride).map_err(&err)?;
        let io = Io { inputs, lane };
        for i in 0..self.kernel.exprs.len() {
            let h = Handle(i as u32);
            self.at = Some(h);
            let id = self.expr(h, &io)?;
            self.values.push(id);
        }
        self.at = None;
        let stored = (0..OUTPUT_DWORDS as usize).filter(|k| iface.outputs & (1 << k) != 0);
        for (slot, k) in stored.enumerate() {
            let out = self.kernel.outputs[k];
            let cs = self.u32c(slot as u32);
            let idx = self.b.i_add(t_u32, None, out_base, cs).map_err(&err)?;
            let ptr = self
                .b
                .access_chain(self.t.ptr_sb_u32, None, out_var, [c0, idx])
                .map_err(&err)?;
            self.b
                .store(ptr, self.values[out.index()], None, [])
                .map_err(&err)?;
        }
        self.b.branch(merge).map_err(&err)?;

        self.b.begin_block(Some(merge)).map_err(&err)?;
        self.b.ret().map_err(&err)?;
        self.b.end_function().map_err(&err)?;
        Ok(())
    }

    /// The six input values of row `base + row` (`push` = row_count, base_lo, base_hi), by
    /// mixed radix over `ranges`, in0 fastest. Counts that are powers of two become masks and
    /// shifts; single-value inputs are constants.
    fn generated_inputs(
        &mut self,
        ranges: &[InputRange; 6],
        row: Word,
        push: &[Word],
    ) -> Result<[Word; 6], SpirvError> {
        let err = build_err(None);
        let (t32, t64) = (self.t.u32_, self.ty(Ty::U64));
        let b = &mut self.b;
        let lo = b.u_convert(t64, None, push[1]).map_err(&err)?;
        let hi = b.u_convert(t64, None, push[2]).map_err(&err)?;
        let c32 = self.constant(Ty::U64, 32);
        let b = &mut self.b;
        let hi = b.shift_left_logical(t64, None, hi, c32).map_err(&err)?;
        let base = b.bitwise_or(t64, None, hi, lo).map_err(&err)?;
        let row64 = b.u_convert(t64, None, row).map_err(&err)?;
        let mut index = b.i_add(t64, None, base, row64).map_err(&err)?;
        let mut values = [0; 6];
        for (v, r) in values.iter_mut().zip(ranges) {
            if r.count == 1 {
                *v = self.u32c(r.first);
                continue;
            }
            let (digit, rest) = if r.count.is_power_of_two() {
                let mask = self.constant(Ty::U64, r.count - 1);
                let shift = self.constant(Ty::U64, u64::from(r.count.trailing_zeros()));
                let b = &mut self.b;
                (
                    b.bitwise_and(t64, None, index, mask).map_err(&err)?,
                    b.shift_right_logical(t64, None, index, shift)
                        .map_err(&err)?,
                )
            } else {
                let count = self.constant(Ty::U64, r.count);
                let b = &mut self.b;
                (
                    b.u_mod(t64, None, index, count).map_err(&err)?,
                    b.u_div(t64, None, index, count).map_err(&err)?,
                )
            };
            index = rest;
            let first = self.u32c(r.first);
            let b = &mut self.b;
            let digit = b.u_convert(t32, None, digit).map_err(&err)?;
            *v = b.i_add(t32, None, first, digit).map_err(&err)?;
        }
        Ok(values)
    }

    /// Declares the float-controls execution modes the device advertises, for the widths used.
    fn float_controls(&mut self, main: Word) {
        let fc = self.opts.float_controls;
        if !fc.any() {
            return;
        }
        let widths = [(32u32, self.uses.f32), (64u32, self.uses.f64)];
        let modes = [
            (
                Capability::DenormPreserve,
                ExecutionMode::DenormPreserve,
                [fc.denorm_preserve_32, fc.denorm_preserve_64],
            ),
            (
                Capability::SignedZeroInfNanPreserve,
                ExecutionMode::SignedZeroInfNanPreserve,
                [
                    fc.signed_zero_inf_nan_preserve_32,
                    fc.signed_zero_inf_nan_preserve_64,
                ],
            ),
            (
                Capability::RoundingModeRTE,
                ExecutionMode::RoundingModeRTE,
                [fc.rounding_rte_32, fc.rounding_rte_64],
            ),
        ];
        let mut declared_ext = false;
        for (cap, mode, supported) in modes {
            let mut declared_cap = false;
            for ((width, used), ok) in widths.iter().zip(supported) {
                if !(*used && ok) {
                    continue;
                }
                if !declared_ext {
                    self.b.extension("SPV_KHR_float_controls");
                    declared_ext = true;
                }
                if !declared_cap {
                    self.b.capability(cap);
                    declared_cap = true;
                }
                self.b.execution_mode(main, mode, [*width]);
            }
        }
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

    fn expr(&mut self, h: Handle, io: &Io) -> Result<Word, SpirvError> {
        let err = build_err(Some(h));
        let ty = self.kernel.ty(h);
        let tid = self.ty(ty);
        let tb = self.t.bool_;
        Ok(match self.kernel.expr(h).clone() {
            Expr::Const { ty, bits } => self.constant(ty, bits),
            Expr::Input(index) => {
                if u32::from(index) >= INPUT_DWORDS {
                    return Err(SpirvError::InputIndex { at: h, index });
                }
                match io.inputs {
                    Inputs::Values(v) => v[usize::from(index)],
                    Inputs::Buffer { in_var, in_base } => {
                        let c0 = self.u32c(0);
                        let ci = self.u32c(u32::from(index));
                        let idx = self.b.i_add(self.t.u32_, None, in_base, ci).map_err(&err)?;
                        let ptr = self
                            .b
                            .access_chain(self.t.ptr_sb_u32, None, in_var, [c0, idx])
                            .map_err(&err)?;
                        self.b
                            .load(self.t.u32_, None, ptr, None, [])
                            .map_err(&err)?
                    }
                }
            }
            Expr::LaneId => io.lane,
            Expr::IntBin { op, a, b } => self.int_bin(op, ty, self.v(a), self.v(b))?,
            Expr::IntUn { op, a } => self.int_un(op, ty, self.v(a))?,
            Expr::IntCmp { op, a, b } => {
                let (x, y) = (self.v(a), self.v(b));
                let bd = &mut self.b;
                match op {
                    IntCmp::Eq => bd.i_equal(tb, None, x, y),
                    IntCmp::Ne => bd.i_not_equal(tb, None, x, y),
                    IntCmp::LtU => bd.u_less_than(tb, None, x, y),
                    IntCmp::LeU => bd.u_less_than_equal(tb, None, x, y),
                    IntCmp::GtU => bd.u_greater_than(tb, None, x, y),
                    IntCmp::GeU => bd.u_greater_than_equal(tb, None, x, y),
                    IntCmp::LtS => bd.s_less_than(tb, None, x, y),
                    IntCmp::LeS => bd.s_less_than_equal(tb, None, x, y),
                    IntCmp::GtS => bd.s_greater_than(tb, None, x, y),
                    IntCmp::GeS => bd.s_greater_than_equal(tb, None, x, y),
                }
                .map_err(&err)?
            }
            Expr::FloatBin { op, a, b } => {
                let (x, y) = (self.v(a), self.v(b));
                let bd = &mut self.b;
                let id = match op {
                    FloatBin::Add => bd.f_add(tid, None, x, y),
                    FloatBin::Sub => bd.f_sub(tid, None, x, y),
                    FloatBin::Mul => bd.f_mul(tid, None, x, y),
                    FloatBin::Div => bd.f_div(tid, None, x, y),
                }
                .map_err(&err)?;
                self.no_contraction(id)
            }
            Expr::Fma { a, b, c } => {
                let args = [self.v(a), self.v(b), self.v(c)];
                let id = self.glsl(tid, GLOp::Fma, &args)?;
                self.no_contraction(id)
            }
            Expr::FloatUn { op, a } => self.float_un(op, ty, self.v(a))?,
            Expr::FloatCmp { op, a, b } => {
                let (x, y) = (self.v(a), self.v(b));
                let bd = &mut self.b;
                match op {
                    FloatCmp::OrdEq => bd.f_ord_equal(tb, None, x, y),
                    FloatCmp::OrdNe => bd.f_ord_not_equal(tb, None, x, y),
                    FloatCmp::OrdLt => bd.f_ord_less_than(tb, None, x, y),
                    FloatCmp::OrdLe => bd.f_ord_less_than_equal(tb, None, x, y),
                    FloatCmp::OrdGt => bd.f_ord_greater_than(tb, None, x, y),
                    FloatCmp::OrdGe => bd.f_ord_greater_than_equal(tb, None, x, y),
                    FloatCmp::UnordEq => bd.f_unord_equal(tb, None, x, y),
                    FloatCmp::UnordNe => bd.f_unord_not_equal(tb, None, x, y),
                    FloatCmp::UnordLt => bd.f_unord_less_than(tb, None, x, y),
                    FloatCmp::UnordLe => bd.f_unord_less_than_equal(tb, None, x, y),
                    FloatCmp::UnordGt => bd.f_unord_greater_than(tb, None, x, y),
                    FloatCmp::UnordGe => bd.f_unord_greater_than_equal(tb, None, x, y),
                    FloatCmp::Unord => {
                        // OpUnordered needs the Kernel capability; build it from IsNan.
                        let nx = bd.is_nan(tb, None, x).map_err(&err)?;
                        let ny = bd.is_nan(tb, None, y).map_err(&err)?;
                        bd.logical_or(tb, None, nx, ny)
                    }
                }
                .map_err(&err)?
            }
            Expr::BoolAnd(a, b) => {
                let (x, y) = (self.v(a), self.v(b));
                self.b.logical_and(tb, None, x, y).map_err(&err)?
            }
            Expr::BoolOr(a, b) => {
                let (x, y) = (self.v(a), self.v(b));
                self.b.logical_or(tb, None, x, y).map_err(&err)?
            }
            Expr::BoolNot(a) => {
                let x = self.v(a);
                self.b.logical_not(tb, None, x).map_err(&err)?
            }
            Expr::Select { cond, a, b } => {
                let (c, x, y) = (self.v(cond), self.v(a), self.v(b));
                self.b.select(tid, None, c, x, y).map_err(&err)?
            }
            Expr::Convert { op, a, to } => self.convert(op, self.v(a), to)?,
            Expr::Pack64 { lo, hi } => {
                let (l, hh) = (self.v(lo), self.v(hi));
                self.pack64(l, hh)?
            }
        })
    }

    fn pack64(&mut self, lo: Word, hi: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t64 = self.ty(Ty::U64);
        let c32 = self.constant(Ty::U64, 32);
        let l = self.b.u_convert(t64, None, lo).map_err(&err)?;
        let h = self.b.u_convert(t64, None, hi).map_err(&err)?;
        let hs = self.b.shift_left_logical(t64, None, h, c32).map_err(&err)?;
        self.b.bitwise_or(t64, None, hs, l).map_err(&err)
    }

    /// Splits a U64 value into (lo, hi) U32 halves.
    fn split64(&mut self, x: Word) -> Result<(Word, Word), SpirvError> {
        let err = build_err(self.at);
        let (t32, t64) = (self.t.u32_, self.ty(Ty::U64));
        let c32 = self.constant(Ty::U64, 32);
        let lo = self.b.u_convert(t32, None, x).map_err(&err)?;
        let hs = self
            .b
            .shift_right_logical(t64, None, x, c32)
            .map_err(&err)?;
        let hi = self.b.u_convert(t32, None, hs).map_err(&err)?;
        Ok((lo, hi))
    }

    fn int_bin(&mut self, op: IntBin, ty: Ty, x: Word, y: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.ty(ty);
        let tb = self.t.bool_;
        let width: u64 = if ty == Ty::U64 { 64 } else { 32 };
        let ones = self.constant(ty, u64::MAX);
        let zero = self.constant(ty, 0);
        let one = self.constant(ty, 1);
        let mask = self.constant(ty, width - 1);
        let b = &mut self.b;
        Ok(match op {
            IntBin::Add => b.i_add(t, None, x, y).map_err(&err)?,
            IntBin::Sub => b.i_sub(t, None, x, y).map_err(&err)?,
            IntBin::Mul => b.i_mul(t, None, x, y).map_err(&err)?,
            IntBin::MulHiU | IntBin::MulHiS => {
                let pair = if ty == Ty::U64 {
                    self.t.pair64.unwrap_or(self.t.pair32)
                } else {
                    self.t.pair32
                };
                let r = if op == IntBin::MulHiU {
                    b.u_mul_extended(pair, None, x, y)
                } else {
                    b.s_mul_extended(pair, None, x, y)
                }
                .map_err(&err)?;
                b.composite_extract(t, None, r, [1]).map_err(&err)?
            }
            IntBin::DivU | IntBin::RemU => {
                // Division by zero is undefined in SPIR-V: divide by 1 instead and pick the
                // IR's value (x / 0 = all ones, x % 0 = x) afterwards.
                let is0 = b.i_equal(tb, None, y, zero).map_err(&err)?;
                let safe = b.select(t, None, is0, one, y).map_err(&err)?;
                if op == IntBin::DivU {
                    let q = b.u_div(t, None, x, safe).map_err(&err)?;
                    b.select(t, None, is0, ones, q).map_err(&err)?
                } else {
                    let r = b.u_mod(t, None, x, safe).map_err(&err)?;
                    b.select(t, None, is0, x, r).map_err(&err)?
                }
            }
            IntBin::And => b.bitwise_and(t, None, x, y).map_err(&err)?,
            IntBin::Or => b.bitwise_or(t, None, x, y).map_err(&err)?,
            IntBin::Xor => b.bitwise_xor(t, None, x, y).map_err(&err)?,
            IntBin::Shl | IntBin::ShrU | IntBin::ShrS => {
                // Shifts by >= width are undefined in SPIR-V; the IR takes them modulo width.
                let amt = b.bitwise_and(t, None, y, mask).map_err(&err)?;
                match op {
                    IntBin::Shl => b.shift_left_logical(t, None, x, amt),
                    IntBin::ShrU => b.shift_right_logical(t, None, x, amt),
                    _ => b.shift_right_arithmetic(t, None, x, amt),
                }
                .map_err(&err)?
            }
        })
    }

    /// FindUMsb / FindILsb of a U32 with all ones for 0 made explicit.
    fn find_bit32(&mut self, op: GLOp, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t32, tb) = (self.t.u32_, self.t.bool_);
        let zero = self.u32c(0);
        let ones = self.u32c(u32::MAX);
        let r = self.glsl(t32, op, &[x])?;
        let is0 = self.b.i_equal(tb, None, x, zero).map_err(&err)?;
        self.b.select(t32, None, is0, ones, r).map_err(&err)
    }

    fn int_un(&mut self, op: IntUn, ty: Ty, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.ty(ty);
        let (t32, tb) = (self.t.u32_, self.t.bool_);
        match op {
            IntUn::Not => return self.b.not(t, None, x).map_err(&err),
            IntUn::Neg => return self.b.s_negate(t, None, x).map_err(&err),
            _ => {}
        }
        if ty == Ty::U32 {
            return match op {
                IntUn::Popcount => self.b.bit_count(t, None, x).map_err(&err),
                IntUn::BitReverse => self.b.bit_reverse(t, None, x).map_err(&err),
                IntUn::FindMsbU => self.find_bit32(GLOp::FindUMsb, x),
                _ => self.find_bit32(GLOp::FindILsb, x),
            };
        }
        // U64: Vulkan allows these only on 32-bit operands; combine the halves.
        let (lo, hi) = self.split64(x)?;
        match op {
            IntUn::Popcount => {
                let pl = self.b.bit_count(t32, None, lo).map_err(&err)?;
                let ph = self.b.bit_count(t32, None, hi).map_err(&err)?;
                let s = self.b.i_add(t32, None, pl, ph).map_err(&err)?;
                self.b.u_convert(t, None, s).map_err(&err)
            }
            IntUn::BitReverse => {
                let rl = self.b.bit_reverse(t32, None, lo).map_err(&err)?;
                let rh = self.b.bit_reverse(t32, None, hi).map_err(&err)?;
                self.pack64(rh, rl)
            }
            _ => {
                let zero32 = self.u32c(0);
                let c32 = self.u32c(32);
                let zero64 = self.constant(Ty::U64, 0);
                let ones64 = self.constant(Ty::U64, u64::MAX);
                let (near, far, far_nonzero_first) = if op == IntUn::FindMsbU {
                    // The high half decides when it has a set bit.
                    (hi, lo, true)
                } else {
                    (lo, hi, false)
                };
                let gl = if op == IntUn::FindMsbU {
                    GLOp::FindUMsb
                } else {
                    GLOp::FindILsb
                };
                let rn = self.glsl(t32, gl, &[near])?;
                let rf = self.glsl(t32, gl, &[far])?;
                let near_set = self.b.i_not_equal(tb, None, near, zero32).map_err(&err)?;
                // msb: hi set -> 32 + msb(hi), else msb(lo); lsb: lo set -> lsb(lo), else 32 + lsb(hi).
                let r32 = if far_nonzero_first {
                    let hi_idx = self.b.i_add(t32, None, rn, c32).map_err(&err)?;
                    self.b
                        .select(t32, None, near_set, hi_idx, rf)
                        .map_err(&err)?
                } else {
                    let hi_idx = self.b.i_add(t32, None, rf, c32).map_err(&err)?;
                    self.b
                        .select(t32, None, near_set, rn, hi_idx)
                        .map_err(&err)?
                };
                let r64 = self.b.u_convert(t, None, r32).map_err(&err)?;
                let is0 = self.b.i_equal(tb, None, x, zero64).map_err(&err)?;
                self.b.select(t, None, is0, ones64, r64).map_err(&err)
            }
        }
    }

    fn float_un(&mut self, op: FloatUn, ty: Ty, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.ty(ty);
        let gl = match op {
            FloatUn::Sqrt => GLOp::Sqrt,
            FloatUn::Floor => GLOp::Floor,
            FloatUn::Ceil => GLOp::Ceil,
            FloatUn::Trunc => GLOp::Trunc,
            FloatUn::RoundEven => GLOp::RoundEven,
            FloatUn::Exp2 => GLOp::Exp2,
            FloatUn::Log2 => GLOp::Log2,
            FloatUn::InverseSqrt => GLOp::InverseSqrt,
            FloatUn::Sin => GLOp::Sin,
            FloatUn::Cos => GLOp::Cos,
        };
        if ty == Ty::F64 && f64_via_f32(op) {
            // Approximate anyway (FloatUn::is_approximate); GLSL.std.450 has no f64 form.
            let t32 = self.t.f32_;
            let n = self.b.f_convert(t32, None, x).map_err(&err)?;
            let r = self.glsl(t32, gl, &[n])?;
            let r = self.no_contraction(r);
            return self.b.f_convert(t, None, r).map_err(&err);
        }
        let r = self.glsl(t, gl, &[x])?;
        Ok(self.no_contraction(r))
    }

    fn convert(&mut self, op: Convert, x: Word, to: Ty) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.ty(to);
        let b = &mut self.b;
        match op {
            Convert::ZextU32 | Convert::TruncU64 => b.u_convert(t, None, x),
            Convert::SextU32 => b.s_convert(t, None, x),
            Convert::BoolToU32 => {
                let one = self.u32c(1);
                let zero = self.u32c(0);
                self.b.select(t, None, x, one, zero)
            }
            Convert::Bitcast => b.bitcast(t, None, x),
            Convert::F32ToF64 | Convert::F64ToF32 => b.f_convert(t, None, x),
            Convert::S32ToF64 => b.convert_s_to_f(t, None, x),
            Convert::U32ToF64 => b.convert_u_to_f(t, None, x),
            Convert::F64ToS32 => b.convert_f_to_s(t, None, x),
            Convert::F64ToU32 => b.convert_f_to_u(t, None, x),
        }
        .map_err(&err)
    }
}

/// Per-invocation values the expressions read.
struct Io {
    inputs: Inputs,
    lane: Word,
}

/// Where [`Expr::Input`] reads from.
#[derive(Clone, Copy)]
enum Inputs {
    /// The row's words in the input buffer, from `in_base`.
    Buffer { in_var: Word, in_base: Word },
    /// Computed in the module (generated inputs).
    Values([Word; 6]),
}
