//! Expressions: one IR expression becomes one or a few SPIR-V instructions, with the IR's
//! definition ([`crate::eval`]) made explicit wherever SPIR-V leaves a result undefined.

use rspirv::spirv::{GLOp, Word};

use super::interface::{Inputs, Io};
use super::mem::Lanes;
use super::{build_err, Emitter, SpirvError, INPUT_DWORDS};
use crate::ir::{Convert, Expr, FloatCmp, Handle, IntBin, IntCmp, IntUn, LdsOp, Space, Ty};

impl Emitter<'_> {
    pub(super) fn expr(&mut self, h: Handle, io: &Io) -> Result<Word, SpirvError> {
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
            Expr::FloatBin { op, a, b } => self.float_bin(op, ty, self.v(a), self.v(b))?,
            Expr::Fma { a, b, c } => self.fma(ty, [self.v(a), self.v(b), self.v(c)])?,
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
            Expr::Select { cond, a, b } => match (self.kernel.expr(a), self.kernel.expr(b)) {
                (&Expr::Const { bits: x, .. }, &Expr::Const { bits: y, .. })
                    if matches!(ty, Ty::U32 | Ty::F32) =>
                {
                    self.select_consts32(ty, self.v(cond), x as u32, y as u32)?
                }
                (&Expr::Const { .. }, _) | (_, &Expr::Const { .. })
                    if matches!(ty, Ty::U32 | Ty::F32) =>
                {
                    let (c, x, y) = (self.v(cond), self.v(a), self.v(b));
                    self.select_masked32(ty, c, x, y)?
                }
                _ => {
                    let (c, x, y) = (self.v(cond), self.v(a), self.v(b));
                    self.b.select(tid, None, c, x, y).map_err(&err)?
                }
            },
            Expr::Convert { op, a, to } => self.convert(op, self.v(a), to)?,
            Expr::Pack64 { lo, hi } => {
                let (l, hh) = (self.v(lo), self.v(hi));
                self.pack64(l, hh)?
            }
            Expr::SgprIn(i) => self.sgpr_in(io, i)?,
            Expr::ExecIn => self.exec_in(io)?,
            Expr::WaveBallot(a) => self.wave_ballot(io, self.v(a))?,
            Expr::WaveRead { value, lane } => self.wave_read(io, self.v(value), self.v(lane))?,
            Expr::Var(id) => self.var_load(id)?,
            Expr::Image(a) => self.image_access(h, &a)?,
            // One memory expression, three ways to reach its bits: the memory region
            // (`spirv::mem`), a one-operand dword of the LDS (`spirv::lds`), and every other
            // LDS access (`spirv::lds_wide`: bytes, 64 bits, two operands, faults). The value
            // each operation leaves is `spirv::mem_bits`'s, for all three.
            Expr::Mem {
                space: space @ (Space::Region | Space::RegionSwizzled),
                op,
                bytes,
                addr,
                data,
                cmp,
                active,
                ..
            } => {
                let w = self.wave_io(io, "a memory access")?;
                let args = [self.v(addr), self.v(data), self.v(active)];
                let unread = !self.read.get(h.index()).copied().unwrap_or(true);
                let dwords = bytes == 4 && self.aligned4(addr);
                if self.is_plain_store(h) {
                    self.mem_store(&w, io.lane, bytes, args, Lanes::Claims, dwords)?
                } else if space == Space::RegionSwizzled && op == LdsOp::Write && unread {
                    self.mem_store(&w, io.lane, bytes, args, Lanes::Disjoint, dwords)?
                } else {
                    let cmp = cmp.map(|c| self.v(c));
                    self.mem_op(&w, io.lane, op, bytes, args, cmp)?
                }
            }
            Expr::Mem {
                space: Space::Lds,
                op,
                bytes: 4,
                addr,
                data,
                data2: None,
                active,
                ..
            } if !LdsOp::lds_only(op) => {
                let w = self.wave_io(io, "an LDS access")?;
                let args = [self.v(addr), self.v(data), self.v(active)];
                if self.is_plain_store(h) {
                    let dwords = self.aligned4(addr);
                    self.lds_store(&w, io.lane, args, dwords)?
                } else {
                    self.lds_op(&w, io.lane, op, args)?
                }
            }
            Expr::Mem {
                space: Space::Lds,
                op,
                bytes,
                addr,
                data,
                data2,
                active,
                ..
            } => {
                let w = self.wave_io(io, "an LDS access")?;
                let ty = if bytes == 8 { Ty::U64 } else { Ty::U32 };
                let d2 = match data2 {
                    Some(h) => self.v(h),
                    None => self.constant(ty, 0),
                };
                let args = [self.v(addr), self.v(data), d2, self.v(active)];
                self.lds_wide_op(&w, io.lane, op, bytes, args)?
            }
        })
    }

    /// A 32-bit select between two constants, as `y ^ ((x ^ y) & mask)` with an all-ones or
    /// zero mask: NIR rewrites `select(c, -1.0, 0.0)` into `-b2f(c)`, which is -0.0 (not the
    /// 0x00000000 asked for) when `c` is false, and lavapipe does so on integer-typed values
    /// too (`max_i32(0, 0xbf800000)` gave 0x80000000).
    fn select_consts32(&mut self, ty: Ty, c: Word, x: u32, y: u32) -> Result<Word, SpirvError> {
        let diff = self.u32c(x ^ y);
        let base = self.u32c(y);
        self.mask_select32(ty, c, diff, base)
    }

    /// A 32-bit select with one constant arm, on the bits as [`Self::select_consts32`]: the
    /// other arm may become a constant only inside the driver (lavapipe folded
    /// `med3_i32(0, 0, x)` to 0 and then `select(c, 0xbf800000, 0)` to `-b2f(c)`, giving
    /// 0x80000000 for an inactive lane).
    fn select_masked32(&mut self, ty: Ty, c: Word, x: Word, y: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let u = self.t.u32_;
        let (x, y) = if ty == Ty::F32 {
            let xb = self.b.bitcast(u, None, x).map_err(&err)?;
            let yb = self.b.bitcast(u, None, y).map_err(&err)?;
            (xb, yb)
        } else {
            (x, y)
        };
        let diff = self.b.bitwise_xor(u, None, x, y).map_err(&err)?;
        self.mask_select32(ty, c, diff, y)
    }

    /// `base ^ (diff & (c ? ~0 : 0))` on U32 words, as `ty` (a bit cast back for F32).
    fn mask_select32(
        &mut self,
        ty: Ty,
        c: Word,
        diff: Word,
        base: Word,
    ) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let u = self.t.u32_;
        let ones = self.u32c(u32::MAX);
        let zero = self.u32c(0);
        let mask = self.b.select(u, None, c, ones, zero).map_err(&err)?;
        let d = self.b.bitwise_and(u, None, mask, diff).map_err(&err)?;
        let r = self.b.bitwise_xor(u, None, d, base).map_err(&err)?;
        Ok(if ty == Ty::F32 {
            let tf = self.ty(Ty::F32);
            self.b.bitcast(tf, None, r).map_err(&err)?
        } else {
            r
        })
    }

    /// `IntBin` (see [`crate::eval::int_bin32`]).
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
    pub(super) fn find_bit32(&mut self, op: GLOp, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (t32, tb) = (self.t.u32_, self.t.bool_);
        let zero = self.u32c(0);
        let ones = self.u32c(u32::MAX);
        let r = self.glsl(t32, op, &[x])?;
        let is0 = self.b.i_equal(tb, None, x, zero).map_err(&err)?;
        self.b.select(t32, None, is0, ones, r).map_err(&err)
    }

    /// `IntUn` (see [`crate::eval::int_un32`]); the U64 forms are in `wide`.
    fn int_un(&mut self, op: IntUn, ty: Ty, x: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let t = self.ty(ty);
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
        self.int_un64(op, x)
    }

    /// `Convert` (see [`crate::eval::convert`]); the float forms are in `float`.
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
            Convert::F32ToF64 => return self.f32_to_f64(x),
            Convert::F64ToF32 => return self.f64_to_f32(x),
            Convert::S32ToF64 => b.convert_s_to_f(t, None, x),
            Convert::U32ToF64 => b.convert_u_to_f(t, None, x),
            Convert::F64ToS32 | Convert::F64ToU32 => return self.f64_to_int(op, x),
        }
        .map_err(&err)
    }
}
