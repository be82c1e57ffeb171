//! The module's interface: entry point, storage buffers, push constants, the invocation ids,
//! generated inputs and the float-controls execution modes; the body between them comes from
//! [`expr`](super::expr).

use rspirv::dr::Operand;
use rspirv::spirv::{
    BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel, FunctionControl, StorageClass,
    Word,
};

use super::{build_err, Emitter, InputRange, InputSource, Interface, SpirvError};
use super::{INPUT_DWORDS, OUTPUT_DWORDS};
use crate::ir::{Handle, Ty};

impl Emitter<'_> {
    /// The pointer type of a storage buffer: `struct { u32 data[]; }` with Block.
    pub(super) fn buffer_ptr_type(&mut self) -> Word {
        let arr = self.b.type_runtime_array(self.t.u32_);
        self.b
            .decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
        let buf = self.b.type_struct([arr]);
        self.b.decorate(buf, Decoration::Block, []);
        self.b
            .member_decorate(buf, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
        self.b.type_pointer(None, StorageClass::StorageBuffer, buf)
    }

    /// Set 0, `binding`, and a debug name for a storage buffer variable.
    pub(super) fn bind_buffer(&mut self, var: Word, binding: u32, name: &str) {
        self.b
            .decorate(var, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
        self.b
            .decorate(var, Decoration::Binding, [Operand::LiteralBit32(binding)]);
        self.b.name(var, name);
    }

    /// An Input `uvec3` variable decorated as `builtin`.
    pub(super) fn builtin_input(&mut self, builtin: BuiltIn) -> Word {
        let var = self
            .b
            .variable(self.t.ptr_in_uvec3, None, StorageClass::Input, None);
        self.b
            .decorate(var, Decoration::BuiltIn, [Operand::BuiltIn(builtin)]);
        var
    }

    /// Opens `main`: a GLCompute entry point over `inputs` with `LocalSize = (wave, 1, 1)`,
    /// the float-controls modes, and its first block.
    pub(super) fn begin_main(&mut self, inputs: [Word; 2]) -> Result<(), SpirvError> {
        let err = build_err(None);
        let fn_ty = self.b.type_function(self.t.void, []);
        let main = self
            .b
            .begin_function(self.t.void, None, FunctionControl::NONE, fn_ty)
            .map_err(&err)?;
        self.b
            .entry_point(ExecutionModel::GLCompute, main, "main", inputs);
        self.b
            .execution_mode(main, ExecutionMode::LocalSize, [self.wave.lanes(), 1, 1]);
        self.float_controls(main);
        self.b.begin_block(None).map_err(&err)?;
        Ok(())
    }

    /// The `x` component of a built-in `uvec3` input.
    pub(super) fn load_x(&mut self, var: Word) -> Result<Word, SpirvError> {
        let err = build_err(None);
        let v = self
            .b
            .load(self.t.uvec3, None, var, None, [])
            .map_err(&err)?;
        self.b
            .composite_extract(self.t.u32_, None, v, [0])
            .map_err(&err)
    }

    pub(super) fn module(&mut self, iface: &Interface) -> Result<(), SpirvError> {
        let t_u32 = self.t.u32_;
        let err = build_err(None);
        let generated = match iface.inputs {
            InputSource::Buffer => None,
            InputSource::Generated(ranges) => Some(ranges),
        };

        // Buffers: struct { u32 data[]; } with Block, shared by input and output.
        let ptr_buf = self.buffer_ptr_type();
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
            self.bind_buffer(var, binding, name);
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

        let gid_var = self.builtin_input(BuiltIn::GlobalInvocationId);
        let lid_var = self.builtin_input(BuiltIn::LocalInvocationId);

        self.begin_main([gid_var, lid_var])?;
        let row = self.load_x(gid_var)?;
        let lane = self.load_x(lid_var)?;
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
        let merge = self.if_then(in_range)?;
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
        let io = Io {
            inputs,
            lane,
            wave: None,
        };
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
        self.end_if(merge)?;
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
    pub(super) fn float_controls(&mut self, main: Word) {
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
}

/// Per-invocation values the expressions read.
pub(super) struct Io {
    pub(super) inputs: Inputs,
    pub(super) lane: Word,
    /// The wave module's uniform inputs and shared array (`None` in a lane-contract module).
    pub(super) wave: Option<super::wave::WaveIo>,
}

/// Where [`Expr::Input`] reads from.
#[derive(Clone, Copy)]
pub(super) enum Inputs {
    /// The row's words in the input buffer, from `in_base`.
    Buffer { in_var: Word, in_base: Word },
    /// Computed in the module (generated inputs).
    Values([Word; 6]),
}
