//! The dispatch: every opcode of the instruction table maps to its lowering (a function of a
//! family module) or to the reason it has none. [`rule`] is one `match` with an arm per opcode
//! and no wildcard, so a new table row does not compile until it is given one; the lowering,
//! [`is_lowered`](super::is_lowered) and the coverage report all read it.

use super::arithmetic::{self, AddForm, Arith};
use super::calls::Pc;
use super::compare::{self, FCond, ICond};
use super::control::{Branch, Flow};
use super::conversion::{self, ToInt};
use super::cube::CubeOp;
use super::dot::Dot;
use super::error::RuleResult;
use super::float16::F16Arith;
use super::float64::{F64Arith, F64Op, F64Un};
use super::image::{self, Img, Op as ImgOp};
use super::image_atomic::{self, ImgAtomic};
use super::image_get_lod;
use super::image_group::{self, Group};
use super::image_sample;
use super::int16::{Int16, I16};
use super::integer::{Carry, IntOp};
use super::lds::{self, Ds};
use super::lds_wide::{self, Aop, Dw, Place};
use super::mem::{self, Vm, D16};
use super::mem_format::{self, D16Form, Typed};
use super::minmax::{self, Of3};
use super::movrel::VMovrel;
use super::operands::Ctx;
use super::packed::{self, Mix, Pk};
use super::pk_int::{Pk16, PkInt};
use super::sad::ByteOp;
use super::salu::{Sop2, Sopc};
use super::salu_unary::{ExecOp, SMovrel, Sop1, Sopk};
use super::scratch::scratch;
use super::unary::UnaryOp;
use super::vintrp::{InterpF16, InterpF32};
use super::{
    crosslane, cube, division, dot, dot_f16, float16, float16_of3, float64, float64_int, int16,
    integer, moves, movrel, pack, pk_int, sad, salu, salu_mode, salu_unary, transcendental,
    trig_preop, vintrp, Lowerer,
};
use crate::builder::Fmt;
use crate::ir::{FloatUn, IntBin, IntCmp, LdsOp};
use rdnaprobe_isa::{Opcode, Target};

/// A lowering: reads the instruction's operands through the [`Lowerer`], writes its results.
pub(super) type LowerFn = fn(&mut Lowerer, &Ctx) -> RuleResult;

/// What the lowering does with an opcode.
#[derive(Clone, Copy)]
pub(super) enum Rule {
    Lower(LowerFn),
    /// Control flow, which `lower::control` turns into the ends of blocks.
    Flow(Flow),
    /// No lowering, and why (the error of a body that holds the opcode).
    Unlowered(&'static str),
}
use Rule::{Lower, Unlowered};

/// The control-flow role of `op`, if any. No target changes one (a test checks it), so this
/// reads gfx1030's rules.
pub(super) fn flow(op: Opcode) -> Option<Flow> {
    match rule(op, Target::Gfx1030) {
        Rule::Flow(f) => Some(f),
        Rule::Lower(_) | Rule::Unlowered(_) => None,
    }
}

const PROGRAM_CONTROL: &str = "scalar program control: not modelled";
const SUBVECTOR: &str = "subvector loops branch: control flow";
const MESSAGE: &str =
    "messages to the shader input unit (GS, interrupts, VGPR release): not modelled";
const SCALAR_MEMORY: &str = "scalar memory: clocks and address-translation probes are not modelled";
const GWS: &str = "global wave sync: the GWS semaphores and barrier order waves of the whole \
     device (a resource outside the LDS a single wave's model holds)";
const ORDERED_COUNT: &str = "ds_ordered_count: ordered append across waves by wave launch order \
     (GDS ordered-count hardware a single wave cannot model)";
const MSAA: &str = "image_msaa_load: MSAA T#s are not modelled (gfx10 has no linear \
                    multisampled layout: the address library refuses linear MSAA surfaces; the \
                    swizzled layouts and FMASK are not modelled)";
const BVH: &str = "image_bvh*_intersect_ray: the ray tracing unit's box and triangle tests are \
     not modelled";
const BY_STORE: &str = "image: the BY stores (measured to write from the unaligned x up to the \
     end of its dword) are not measured for which data VGPR feeds which texel nor for the \
     conversion";
const PCK_STORE: &str = "image: the PCK2/PCK4 stores are not measured (opcode 0x76 on a \
     32_32_32_32_FLOAT image hung the GPU)";
const EXPORT: &str = "export: not modelled (no pixel or vertex output)";

/// A lowering that passes the opcode's per-group op to the group's function:
/// `lower!(integer::op, IntOp::Bfi)`. The function matches the op exhaustively, so an opcode
/// routed to the wrong group does not compile.
macro_rules! lower {
    ($f:path, $op:expr) => {
        Lower(|l, c| $f(l, c, $op))
    };
}

/// The lowering of a MUBUF typed access: `typed!(2, false, No)` is `buffer_load_format_xy`'s
/// (two components, a load, one per VGPR).
macro_rules! typed {
    ($n:literal, $store:literal, $d16:ident) => {
        Lower(|l, c| {
            mem_format::mubuf_format(
                l,
                c,
                Typed {
                    n: $n,
                    store: $store,
                    d16: D16Form::$d16,
                },
            )
        })
    };
}

/// The lowering of an LDS atomic: `lds_atomic!(Add, true)` is `ds_add_rtn_u32`'s
/// (`LdsOp::Add`, returning the old value).
macro_rules! lds_atomic {
    ($op:ident, $rtn:literal) => {
        Lower(|l, c| {
            lds::ds(
                l,
                c,
                Ds::Atomic {
                    op: LdsOp::$op,
                    rtn: $rtn,
                },
            )
        })
    };
}

/// The lowering of a [`lds_wide`] row: `dsw!(Dw::Permute)`.
macro_rules! dsw {
    ($what:expr) => {
        Lower(|l, c| lds_wide::ds(l, c, $what))
    };
}

/// The lowering of an LDS atomic of [`lds_wide`]: `dsa!(FMin, 8, true)` is
/// `ds_min_rtn_f64`'s.
macro_rules! dsa {
    ($op:ident $(($inner:expr))?, $bytes:literal, $rtn:literal) => {
        dsw!(Dw::Atomic {
            op: Aop::$op$(($inner))?,
            bytes: $bytes,
            rtn: $rtn,
        })
    };
}

/// The rule for `op` on `gfx`.
pub(super) fn rule(op: Opcode, gfx: Target) -> Rule {
    match op {
        Opcode::s_mov_b32 => Lower(|l, c| integer::s_mov(l, c, 1)),
        Opcode::s_mov_b64 => Lower(|l, c| integer::s_mov(l, c, 2)),
        Opcode::s_nop | Opcode::v_nop => Lower(integer::nop),
        Opcode::s_endpgm => Rule::Flow(Flow::EndWave),
        Opcode::v_mov_b32 => lower!(integer::op, IntOp::Mov),
        Opcode::v_not_b32 => lower!(integer::op, IntOp::Not),
        Opcode::v_bfrev_b32 => lower!(integer::op, IntOp::Bfrev),
        Opcode::v_ffbh_u32 => lower!(integer::op, IntOp::FfbhU),
        Opcode::v_ffbl_b32 => lower!(integer::op, IntOp::Ffbl),
        Opcode::v_ffbh_i32 => lower!(integer::op, IntOp::FfbhI),
        Opcode::v_cndmask_b32 => lower!(integer::op, IntOp::Cndmask),
        Opcode::v_mul_i32_i24 => lower!(integer::op, IntOp::MulI24),
        Opcode::v_mul_hi_i32_i24 => lower!(integer::op, IntOp::MulHiI24),
        Opcode::v_mul_u32_u24 => lower!(integer::op, IntOp::MulU24),
        Opcode::v_mul_hi_u32_u24 => lower!(integer::op, IntOp::MulHiU24),
        Opcode::v_min_i32 => lower!(integer::op, IntOp::MinMax(IntCmp::LtS)),
        Opcode::v_max_i32 => lower!(integer::op, IntOp::MinMax(IntCmp::GtS)),
        Opcode::v_min_u32 => lower!(integer::op, IntOp::MinMax(IntCmp::LtU)),
        Opcode::v_max_u32 => lower!(integer::op, IntOp::MinMax(IntCmp::GtU)),
        Opcode::v_lshrrev_b32 => lower!(integer::op, IntOp::ShiftRev(IntBin::ShrU)),
        Opcode::v_ashrrev_i32 => lower!(integer::op, IntOp::ShiftRev(IntBin::ShrS)),
        Opcode::v_lshlrev_b32 => lower!(integer::op, IntOp::ShiftRev(IntBin::Shl)),
        Opcode::v_and_b32 => lower!(integer::op, IntOp::And),
        Opcode::v_or_b32 => lower!(integer::op, IntOp::Or),
        Opcode::v_xor_b32 => lower!(integer::op, IntOp::Xor),
        Opcode::v_xnor_b32 => lower!(integer::op, IntOp::Xnor),
        Opcode::v_add_nc_u32 => lower!(integer::op, IntOp::AddU),
        Opcode::v_sub_nc_u32 => lower!(integer::op, IntOp::SubU),
        Opcode::v_subrev_nc_u32 => lower!(integer::op, IntOp::SubrevU),
        Opcode::v_add_co_ci_u32 => lower!(
            integer::op,
            IntOp::Carry(Carry {
                sub: false,
                reversed: false,
                carry_in: true
            })
        ),
        Opcode::v_sub_co_ci_u32 => lower!(
            integer::op,
            IntOp::Carry(Carry {
                sub: true,
                reversed: false,
                carry_in: true
            })
        ),
        Opcode::v_subrev_co_ci_u32 => lower!(
            integer::op,
            IntOp::Carry(Carry {
                sub: true,
                reversed: true,
                carry_in: true
            })
        ),
        Opcode::v_mad_i32_i24 => lower!(integer::op, IntOp::MadI24),
        Opcode::v_mad_u32_u24 => lower!(integer::op, IntOp::MadU24),
        Opcode::v_bfe_u32 => lower!(integer::op, IntOp::Bfe { signed: false }),
        Opcode::v_bfe_i32 => lower!(integer::op, IntOp::Bfe { signed: true }),
        Opcode::v_bfi_b32 => lower!(integer::op, IntOp::Bfi),
        Opcode::v_alignbit_b32 => lower!(integer::op, IntOp::Align { bytes: false }),
        Opcode::v_alignbyte_b32 => lower!(integer::op, IntOp::Align { bytes: true }),
        Opcode::v_min3_i32 => lower!(integer::op, IntOp::Of3(IntCmp::LtS)),
        Opcode::v_min3_u32 => lower!(integer::op, IntOp::Of3(IntCmp::LtU)),
        Opcode::v_max3_i32 => lower!(integer::op, IntOp::Of3(IntCmp::GtS)),
        Opcode::v_max3_u32 => lower!(integer::op, IntOp::Of3(IntCmp::GtU)),
        Opcode::v_med3_i32 => lower!(integer::op, IntOp::Med3 { signed: true }),
        Opcode::v_med3_u32 => lower!(integer::op, IntOp::Med3 { signed: false }),
        Opcode::v_mul_lo_u32 => lower!(integer::op, IntOp::MulLo),
        Opcode::v_mul_hi_u32 => lower!(integer::op, IntOp::MulHiU),
        Opcode::v_mul_hi_i32 => lower!(integer::op, IntOp::MulHiI),
        Opcode::v_xor3_b32 => lower!(integer::op, IntOp::Xor3),
        Opcode::v_lshlrev_b64 => lower!(integer::op, IntOp::ShiftRev64(IntBin::Shl)),
        Opcode::v_lshrrev_b64 => lower!(integer::op, IntOp::ShiftRev64(IntBin::ShrU)),
        Opcode::v_ashrrev_i64 => lower!(integer::op, IntOp::ShiftRev64(IntBin::ShrS)),
        Opcode::v_add_co_u32 => lower!(
            integer::op,
            IntOp::Carry(Carry {
                sub: false,
                reversed: false,
                carry_in: false
            })
        ),
        Opcode::v_sub_co_u32 => lower!(
            integer::op,
            IntOp::Carry(Carry {
                sub: true,
                reversed: false,
                carry_in: false
            })
        ),
        Opcode::v_subrev_co_u32 => lower!(
            integer::op,
            IntOp::Carry(Carry {
                sub: true,
                reversed: true,
                carry_in: false
            })
        ),
        Opcode::v_xad_u32 => lower!(integer::op, IntOp::Xad),
        Opcode::v_lshl_add_u32 => lower!(integer::op, IntOp::LshlAdd),
        Opcode::v_add_lshl_u32 => lower!(integer::op, IntOp::AddLshl),
        Opcode::v_bfm_b32 => lower!(integer::op, IntOp::Bfm),
        Opcode::v_bcnt_u32_b32 => lower!(integer::op, IntOp::Bcnt),
        Opcode::v_mbcnt_lo_u32_b32 => lower!(integer::op, IntOp::Mbcnt { hi: false }),
        Opcode::v_mbcnt_hi_u32_b32 => lower!(integer::op, IntOp::Mbcnt { hi: true }),
        Opcode::v_add3_u32 => lower!(integer::op, IntOp::Add3),
        Opcode::v_lshl_or_b32 => lower!(integer::op, IntOp::LshlOr),
        Opcode::v_and_or_b32 => lower!(integer::op, IntOp::AndOr),
        Opcode::v_or3_b32 => lower!(integer::op, IntOp::Or3),
        Opcode::v_sub_nc_i32 => lower!(integer::op, IntOp::SubI),
        Opcode::v_add_nc_i32 => lower!(integer::op, IntOp::AddI),
        Opcode::v_add_nc_u16 => lower!(
            int16::op,
            Int16 {
                op: I16::Add,
                signed: false
            }
        ),
        Opcode::v_add_nc_i16 => lower!(
            int16::op,
            Int16 {
                op: I16::Add,
                signed: true
            }
        ),
        Opcode::v_sub_nc_u16 => lower!(
            int16::op,
            Int16 {
                op: I16::Sub,
                signed: false
            }
        ),
        Opcode::v_sub_nc_i16 => lower!(
            int16::op,
            Int16 {
                op: I16::Sub,
                signed: true
            }
        ),
        Opcode::v_mul_lo_u16 => lower!(
            int16::op,
            Int16 {
                op: I16::MulLo,
                signed: false
            }
        ),
        Opcode::v_lshlrev_b16 => lower!(
            int16::op,
            Int16 {
                op: I16::ShiftRev(IntBin::Shl),
                signed: false
            }
        ),
        Opcode::v_lshrrev_b16 => lower!(
            int16::op,
            Int16 {
                op: I16::ShiftRev(IntBin::ShrU),
                signed: false
            }
        ),
        Opcode::v_ashrrev_i16 => lower!(
            int16::op,
            Int16 {
                op: I16::ShiftRev(IntBin::ShrS),
                signed: true
            }
        ),
        Opcode::v_mad_u16 => lower!(
            int16::op,
            Int16 {
                op: I16::Mad,
                signed: false
            }
        ),
        Opcode::v_mad_i16 => lower!(
            int16::op,
            Int16 {
                op: I16::Mad,
                signed: true
            }
        ),
        Opcode::v_mad_u32_u16 => lower!(
            int16::op,
            Int16 {
                op: I16::MadWide,
                signed: false
            }
        ),
        Opcode::v_mad_i32_i16 => lower!(
            int16::op,
            Int16 {
                op: I16::MadWide,
                signed: true
            }
        ),
        Opcode::v_min_u16 => lower!(
            int16::op,
            Int16 {
                op: I16::Min,
                signed: false
            }
        ),
        Opcode::v_min_i16 => lower!(
            int16::op,
            Int16 {
                op: I16::Min,
                signed: true
            }
        ),
        Opcode::v_max_u16 => lower!(
            int16::op,
            Int16 {
                op: I16::Max,
                signed: false
            }
        ),
        Opcode::v_max_i16 => lower!(
            int16::op,
            Int16 {
                op: I16::Max,
                signed: true
            }
        ),
        Opcode::v_min3_u16 => lower!(
            int16::op,
            Int16 {
                op: I16::Min3,
                signed: false
            }
        ),
        Opcode::v_min3_i16 => lower!(
            int16::op,
            Int16 {
                op: I16::Min3,
                signed: true
            }
        ),
        Opcode::v_max3_u16 => lower!(
            int16::op,
            Int16 {
                op: I16::Max3,
                signed: false
            }
        ),
        Opcode::v_max3_i16 => lower!(
            int16::op,
            Int16 {
                op: I16::Max3,
                signed: true
            }
        ),
        Opcode::v_med3_u16 => lower!(
            int16::op,
            Int16 {
                op: I16::Med3,
                signed: false
            }
        ),
        Opcode::v_med3_i16 => lower!(
            int16::op,
            Int16 {
                op: I16::Med3,
                signed: true
            }
        ),
        Opcode::v_cmp_eq_i16
        | Opcode::v_cmpx_eq_i16
        | Opcode::v_cmp_eq_u16
        | Opcode::v_cmpx_eq_u16 => Lower(|l, c| int16::cmp(l, c, IntCmp::Eq)),
        Opcode::v_cmp_ne_i16
        | Opcode::v_cmpx_ne_i16
        | Opcode::v_cmp_ne_u16
        | Opcode::v_cmpx_ne_u16 => Lower(|l, c| int16::cmp(l, c, IntCmp::Ne)),
        Opcode::v_cmp_lt_i16 | Opcode::v_cmpx_lt_i16 => Lower(|l, c| int16::cmp(l, c, IntCmp::LtS)),
        Opcode::v_cmp_le_i16 | Opcode::v_cmpx_le_i16 => Lower(|l, c| int16::cmp(l, c, IntCmp::LeS)),
        Opcode::v_cmp_gt_i16 | Opcode::v_cmpx_gt_i16 => Lower(|l, c| int16::cmp(l, c, IntCmp::GtS)),
        Opcode::v_cmp_ge_i16 | Opcode::v_cmpx_ge_i16 => Lower(|l, c| int16::cmp(l, c, IntCmp::GeS)),
        Opcode::v_cmp_lt_u16 | Opcode::v_cmpx_lt_u16 => Lower(|l, c| int16::cmp(l, c, IntCmp::LtU)),
        Opcode::v_cmp_le_u16 | Opcode::v_cmpx_le_u16 => Lower(|l, c| int16::cmp(l, c, IntCmp::LeU)),
        Opcode::v_cmp_gt_u16 | Opcode::v_cmpx_gt_u16 => Lower(|l, c| int16::cmp(l, c, IntCmp::GtU)),
        Opcode::v_cmp_ge_u16 | Opcode::v_cmpx_ge_u16 => Lower(|l, c| int16::cmp(l, c, IntCmp::GeU)),
        Opcode::v_cvt_pk_i16_i32 => Lower(|l, c| int16::cvt_pk(l, c, true)),
        Opcode::v_cvt_pk_u16_u32 => Lower(|l, c| int16::cvt_pk(l, c, false)),
        Opcode::v_pk_add_i16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::Add,
                signed: true
            }
        ),
        Opcode::v_pk_add_u16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::Add,
                signed: false
            }
        ),
        Opcode::v_pk_sub_i16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::Sub,
                signed: true
            }
        ),
        Opcode::v_pk_sub_u16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::Sub,
                signed: false
            }
        ),
        Opcode::v_pk_mul_lo_u16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::MulLo,
                signed: false
            }
        ),
        Opcode::v_pk_mad_i16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::Mad,
                signed: true
            }
        ),
        Opcode::v_pk_mad_u16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::Mad,
                signed: false
            }
        ),
        Opcode::v_pk_min_i16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::Min,
                signed: true
            }
        ),
        Opcode::v_pk_min_u16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::Min,
                signed: false
            }
        ),
        Opcode::v_pk_max_i16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::Max,
                signed: true
            }
        ),
        Opcode::v_pk_max_u16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::Max,
                signed: false
            }
        ),
        Opcode::v_pk_lshlrev_b16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::ShiftRev(IntBin::Shl),
                signed: false
            }
        ),
        Opcode::v_pk_lshrrev_b16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::ShiftRev(IntBin::ShrU),
                signed: false
            }
        ),
        Opcode::v_pk_ashrrev_i16 => lower!(
            pk_int::op,
            PkInt {
                op: Pk16::ShiftRev(IntBin::ShrS),
                signed: true
            }
        ),
        Opcode::v_sad_u8 => lower!(sad::op, ByteOp::SadU8),
        Opcode::v_sad_hi_u8 => lower!(sad::op, ByteOp::SadHiU8),
        Opcode::v_sad_u16 => lower!(sad::op, ByteOp::SadU16),
        Opcode::v_sad_u32 => lower!(sad::op, ByteOp::SadU32),
        Opcode::v_msad_u8 => lower!(sad::op, ByteOp::MsadU8),
        Opcode::v_lerp_u8 => lower!(sad::op, ByteOp::LerpU8),
        Opcode::v_perm_b32 => lower!(sad::op, ByteOp::Perm),
        Opcode::v_qsad_pk_u16_u8 => Lower(|l, c| sad::qsad(l, c, false, false)),
        Opcode::v_mqsad_pk_u16_u8 => Lower(|l, c| sad::qsad(l, c, true, false)),
        Opcode::v_mqsad_u32_u8 => Lower(|l, c| sad::qsad(l, c, true, true)),
        Opcode::v_dot2_i32_i16 => lower!(
            dot::dot,
            Dot {
                width: 16,
                signed: true,
                acc_dst: false
            }
        ),
        Opcode::v_dot2_u32_u16 => lower!(
            dot::dot,
            Dot {
                width: 16,
                signed: false,
                acc_dst: false
            }
        ),
        Opcode::v_dot4_i32_i8 => lower!(
            dot::dot,
            Dot {
                width: 8,
                signed: true,
                acc_dst: false
            }
        ),
        Opcode::v_dot4_u32_u8 => lower!(
            dot::dot,
            Dot {
                width: 8,
                signed: false,
                acc_dst: false
            }
        ),
        Opcode::v_dot4c_i32_i8 => lower!(
            dot::dot,
            Dot {
                width: 8,
                signed: true,
                acc_dst: true
            }
        ),
        Opcode::v_dot8_i32_i4 => lower!(
            dot::dot,
            Dot {
                width: 4,
                signed: true,
                acc_dst: false
            }
        ),
        Opcode::v_dot8_u32_u4 => lower!(
            dot::dot,
            Dot {
                width: 4,
                signed: false,
                acc_dst: false
            }
        ),
        Opcode::v_mad_u64_u32 => Lower(|l, c| dot::mad64(l, c, false)),
        Opcode::v_mad_i64_i32 => Lower(|l, c| dot::mad64(l, c, true)),
        Opcode::v_cvt_f32_i32 => Lower(|l, c| conversion::f32_from_int(l, c, true)),
        Opcode::v_cvt_f32_u32 => Lower(|l, c| conversion::f32_from_int(l, c, false)),
        Opcode::v_cvt_u32_f32 => Lower(|l, c| conversion::f32_to_int(l, c, ToInt::TruncUnsigned)),
        Opcode::v_cvt_i32_f32 => Lower(|l, c| conversion::f32_to_int(l, c, ToInt::TruncSigned)),
        Opcode::v_cvt_f16_f32 => Lower(conversion::f16_from_f32),
        Opcode::v_cvt_f32_f16 => Lower(conversion::f32_from_f16),
        Opcode::v_cvt_rpi_i32_f32 => {
            Lower(|l, c| conversion::f32_to_int(l, c, ToInt::RoundPlusHalf))
        }
        Opcode::v_cvt_flr_i32_f32 => Lower(|l, c| conversion::f32_to_int(l, c, ToInt::Floor)),
        Opcode::v_cvt_f32_f64 => Lower(conversion::f32_from_f64),
        Opcode::v_cvt_f64_f32 => Lower(conversion::f64_from_f32),
        Opcode::v_cvt_f32_ubyte0 => Lower(|l, c| conversion::f32_from_ubyte(l, c, 0)),
        Opcode::v_cvt_f32_ubyte1 => Lower(|l, c| conversion::f32_from_ubyte(l, c, 1)),
        Opcode::v_cvt_f32_ubyte2 => Lower(|l, c| conversion::f32_from_ubyte(l, c, 2)),
        Opcode::v_cvt_f32_ubyte3 => Lower(|l, c| conversion::f32_from_ubyte(l, c, 3)),
        Opcode::v_trunc_f64 => lower!(
            float64::lower_f64,
            F64Op::Unary(F64Un::Round(FloatUn::Trunc))
        ),
        Opcode::v_ceil_f64 => lower!(
            float64::lower_f64,
            F64Op::Unary(F64Un::Round(FloatUn::Ceil))
        ),
        Opcode::v_rndne_f64 => lower!(
            float64::lower_f64,
            F64Op::Unary(F64Un::Round(FloatUn::RoundEven))
        ),
        Opcode::v_floor_f64 => lower!(
            float64::lower_f64,
            F64Op::Unary(F64Un::Round(FloatUn::Floor))
        ),
        Opcode::v_rcp_f64 => lower!(float64::lower_f64, F64Op::Unary(F64Un::Rcp)),
        Opcode::v_rsq_f64 => lower!(float64::lower_f64, F64Op::Unary(F64Un::Rsq)),
        Opcode::v_sqrt_f64 => lower!(float64::lower_f64, F64Op::Unary(F64Un::Sqrt)),
        Opcode::v_frexp_mant_f64 => lower!(float64::lower_f64, F64Op::Unary(F64Un::FrexpMant)),
        Opcode::v_fract_f64 => lower!(float64::lower_f64, F64Op::Unary(F64Un::Fract)),
        Opcode::v_fma_f64 => lower!(float64::lower_f64, F64Op::Arith(F64Arith::Fma)),
        Opcode::v_div_fixup_f64 => lower!(float64::lower_f64, F64Op::DivFixup),
        Opcode::v_add_f64 => lower!(float64::lower_f64, F64Op::Arith(F64Arith::Add)),
        Opcode::v_mul_f64 => lower!(float64::lower_f64, F64Op::Arith(F64Arith::Mul)),
        Opcode::v_min_f64 => lower!(float64::lower_f64, F64Op::MinMax { max: false }),
        Opcode::v_max_f64 => lower!(float64::lower_f64, F64Op::MinMax { max: true }),
        Opcode::v_ldexp_f64 => lower!(float64::lower_f64, F64Op::Ldexp),
        Opcode::v_div_fmas_f64 => lower!(float64::lower_f64, F64Op::Arith(F64Arith::DivFmas)),
        Opcode::v_fract_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Fract)),
        Opcode::v_trunc_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Trunc)),
        Opcode::v_ceil_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Ceil)),
        Opcode::v_rndne_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Rndne)),
        Opcode::v_floor_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Floor)),
        Opcode::v_exp_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Exp)),
        Opcode::v_log_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Log)),
        Opcode::v_rcp_f32 | Opcode::v_rcp_iflag_f32 => {
            Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Rcp))
        }
        Opcode::v_rsq_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Rsq)),
        Opcode::v_sqrt_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Sqrt)),
        Opcode::v_sin_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Sin)),
        Opcode::v_cos_f32 => Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::Cos)),
        Opcode::v_frexp_exp_i32_f32 => Lower(transcendental::frexp_exp_f32),
        Opcode::v_frexp_mant_f32 => {
            Lower(|l, c| transcendental::unary_f32(l, c, UnaryOp::FrexpMant))
        }
        Opcode::v_cvt_f16_u16 => Lower(|l, c| float16::f16_from_int(l, c, false)),
        Opcode::v_cvt_f16_i16 => Lower(|l, c| float16::f16_from_int(l, c, true)),
        Opcode::v_cvt_u16_f16 => Lower(|l, c| float16::int_from_f16(l, c, false)),
        Opcode::v_cvt_i16_f16 => Lower(|l, c| float16::int_from_f16(l, c, true)),
        Opcode::v_rcp_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Rcp)),
        Opcode::v_sqrt_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Sqrt)),
        Opcode::v_rsq_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Rsq)),
        Opcode::v_log_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Log)),
        Opcode::v_exp_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Exp)),
        Opcode::v_frexp_mant_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::FrexpMant)),
        Opcode::v_frexp_exp_i16_f16 => Lower(float16::frexp_exp_f16),
        Opcode::v_floor_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Floor)),
        Opcode::v_ceil_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Ceil)),
        Opcode::v_trunc_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Trunc)),
        Opcode::v_rndne_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Rndne)),
        Opcode::v_fract_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Fract)),
        Opcode::v_sin_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Sin)),
        Opcode::v_cos_f16 => Lower(|l, c| float16::unary_f16(l, c, UnaryOp::Cos)),
        Opcode::v_sat_pk_u8_i16 => Lower(float16::sat_pk_u8_i16),
        Opcode::v_cvt_norm_i16_f16 => Lower(|l, c| float16::norm_f16(l, c, true)),
        Opcode::v_cvt_norm_u16_f16 => Lower(|l, c| float16::norm_f16(l, c, false)),
        Opcode::v_add_f32 => lower!(arithmetic::add_f32, AddForm::Add),
        Opcode::v_sub_f32 => lower!(arithmetic::add_f32, AddForm::Sub),
        Opcode::v_subrev_f32 => lower!(arithmetic::add_f32, AddForm::Subrev),
        Opcode::v_fmac_legacy_f32 => legacy_fma(gfx, true),
        Opcode::v_mul_legacy_f32 => Lower(|l, c| arithmetic::mul_f32(l, c, Arith::MulLegacy)),
        Opcode::v_mul_f32 => Lower(|l, c| arithmetic::mul_f32(l, c, Arith::Mul)),
        Opcode::v_min_f32 => Lower(|l, c| minmax::minmax_f32(l, c, false)),
        Opcode::v_max_f32 => Lower(|l, c| minmax::minmax_f32(l, c, true)),
        Opcode::v_fmac_f32 => Lower(|l, c| arithmetic::fma_f32(l, c, Arith::Fma, true)),
        Opcode::v_fmamk_f32 | Opcode::v_fmaak_f32 | Opcode::v_fma_f32 => {
            Lower(|l, c| arithmetic::fma_f32(l, c, Arith::Fma, false))
        }
        Opcode::v_add_f16 => lower!(float16::arith_f16, F16Arith::Add(AddForm::Add)),
        Opcode::v_sub_f16 => lower!(float16::arith_f16, F16Arith::Add(AddForm::Sub)),
        Opcode::v_subrev_f16 => lower!(float16::arith_f16, F16Arith::Add(AddForm::Subrev)),
        Opcode::v_mul_f16 => lower!(float16::arith_f16, F16Arith::Mul),
        Opcode::v_fmac_f16 => lower!(float16::arith_f16, F16Arith::Fmac),
        Opcode::v_fma_f16 => lower!(float16::arith_f16, F16Arith::Fma),
        Opcode::v_max_f16 => Lower(|l, c| float16::minmax_f16(l, c, true)),
        Opcode::v_min_f16 => Lower(|l, c| float16::minmax_f16(l, c, false)),
        Opcode::v_ldexp_f16 => Lower(float16::ldexp_f16),
        Opcode::v_fmamk_f16 | Opcode::v_fmaak_f16 => lower!(float16::arith_f16, F16Arith::Fma),
        Opcode::v_max3_f16 => Lower(|l, c| float16_of3::of3_f16(l, c, Of3::Max)),
        Opcode::v_min3_f16 => Lower(|l, c| float16_of3::of3_f16(l, c, Of3::Min)),
        Opcode::v_med3_f16 => Lower(|l, c| float16_of3::of3_f16(l, c, Of3::Med)),
        Opcode::v_pk_fmac_f16 => Lower(float16_of3::pk_fmac_f16),
        Opcode::v_cvt_pkrtz_f16_f32 => Lower(pack::pkrtz),
        Opcode::v_pack_b32_f16 => Lower(pack::pack_b32_f16),
        Opcode::v_cvt_pknorm_i16_f32 => Lower(|l, c| pack::pknorm_f32(l, c, true)),
        Opcode::v_cvt_pknorm_u16_f32 => Lower(|l, c| pack::pknorm_f32(l, c, false)),
        Opcode::v_cvt_off_f32_i4 => Lower(pack::cvt_off_f32_i4),
        Opcode::v_cvt_f64_i32 => Lower(|l, c| float64_int::f64_from_int(l, c, true)),
        Opcode::v_cvt_f64_u32 => Lower(|l, c| float64_int::f64_from_int(l, c, false)),
        Opcode::v_cvt_i32_f64 => Lower(|l, c| float64_int::int_from_f64(l, c, true)),
        Opcode::v_cvt_u32_f64 => Lower(|l, c| float64_int::int_from_f64(l, c, false)),
        Opcode::v_frexp_exp_i32_f64 => Lower(float64_int::frexp_exp_f64),
        Opcode::v_div_scale_f64 => Lower(float64_int::div_scale_f64),
        Opcode::v_trig_preop_f64 => Lower(trig_preop::trig_preop_f64),
        Opcode::v_swap_b32 => Lower(moves::swap),
        Opcode::v_movreld_b32 => lower!(movrel::movrel, VMovrel::Dst),
        Opcode::v_movrels_b32 => lower!(movrel::movrel, VMovrel::Src),
        Opcode::v_movrelsd_b32 => lower!(movrel::movrel, VMovrel::Both),
        Opcode::v_movrelsd_2_b32 => lower!(movrel::movrel, VMovrel::Both2),
        Opcode::v_swaprel_b32 => lower!(movrel::movrel, VMovrel::Swap),
        // no effect on a lane's registers under the lane contract
        Opcode::v_pipeflush | Opcode::v_clrexcp => Lower(integer::nop),
        Opcode::v_cmp_f_f32 | Opcode::v_cmpx_f_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::F))
        }
        Opcode::v_cmp_lt_f32 | Opcode::v_cmpx_lt_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Lt))
        }
        Opcode::v_cmp_eq_f32 | Opcode::v_cmpx_eq_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Eq))
        }
        Opcode::v_cmp_le_f32 | Opcode::v_cmpx_le_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Le))
        }
        Opcode::v_cmp_gt_f32 | Opcode::v_cmpx_gt_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Gt))
        }
        Opcode::v_cmp_lg_f32 | Opcode::v_cmpx_lg_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Lg))
        }
        Opcode::v_cmp_ge_f32 | Opcode::v_cmpx_ge_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Ge))
        }
        Opcode::v_cmp_o_f32 | Opcode::v_cmpx_o_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::O))
        }
        Opcode::v_cmp_u_f32 | Opcode::v_cmpx_u_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::U))
        }
        Opcode::v_cmp_nge_f32 | Opcode::v_cmpx_nge_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Nge))
        }
        Opcode::v_cmp_nlg_f32 | Opcode::v_cmpx_nlg_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Nlg))
        }
        Opcode::v_cmp_ngt_f32 | Opcode::v_cmpx_ngt_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Ngt))
        }
        Opcode::v_cmp_nle_f32 | Opcode::v_cmpx_nle_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Nle))
        }
        Opcode::v_cmp_neq_f32 | Opcode::v_cmpx_neq_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Neq))
        }
        Opcode::v_cmp_nlt_f32 | Opcode::v_cmpx_nlt_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Nlt))
        }
        Opcode::v_cmp_tru_f32 | Opcode::v_cmpx_tru_f32 => {
            Lower(|l, c| compare::float(l, c, Fmt::F32, FCond::Tru))
        }
        Opcode::v_cmp_f_f64 | Opcode::v_cmpx_f_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::F))
        }
        Opcode::v_cmp_lt_f64 | Opcode::v_cmpx_lt_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Lt))
        }
        Opcode::v_cmp_eq_f64 | Opcode::v_cmpx_eq_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Eq))
        }
        Opcode::v_cmp_le_f64 | Opcode::v_cmpx_le_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Le))
        }
        Opcode::v_cmp_gt_f64 | Opcode::v_cmpx_gt_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Gt))
        }
        Opcode::v_cmp_lg_f64 | Opcode::v_cmpx_lg_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Lg))
        }
        Opcode::v_cmp_ge_f64 | Opcode::v_cmpx_ge_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Ge))
        }
        Opcode::v_cmp_o_f64 | Opcode::v_cmpx_o_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::O))
        }
        Opcode::v_cmp_u_f64 | Opcode::v_cmpx_u_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::U))
        }
        Opcode::v_cmp_nge_f64 | Opcode::v_cmpx_nge_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Nge))
        }
        Opcode::v_cmp_nlg_f64 | Opcode::v_cmpx_nlg_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Nlg))
        }
        Opcode::v_cmp_ngt_f64 | Opcode::v_cmpx_ngt_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Ngt))
        }
        Opcode::v_cmp_nle_f64 | Opcode::v_cmpx_nle_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Nle))
        }
        Opcode::v_cmp_neq_f64 | Opcode::v_cmpx_neq_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Neq))
        }
        Opcode::v_cmp_nlt_f64 | Opcode::v_cmpx_nlt_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Nlt))
        }
        Opcode::v_cmp_tru_f64 | Opcode::v_cmpx_tru_f64 => {
            Lower(|l, c| compare::float(l, c, Fmt::F64, FCond::Tru))
        }
        Opcode::v_cmp_f_i32 | Opcode::v_cmpx_f_i32 | Opcode::v_cmp_f_u32 | Opcode::v_cmpx_f_u32 => {
            Lower(|l, c| compare::int(l, c, ICond::F, false))
        }
        Opcode::v_cmp_lt_i32 | Opcode::v_cmpx_lt_i32 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::LtS), false))
        }
        Opcode::v_cmp_eq_i32
        | Opcode::v_cmpx_eq_i32
        | Opcode::v_cmp_eq_u32
        | Opcode::v_cmpx_eq_u32 => Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::Eq), false)),
        Opcode::v_cmp_le_i32 | Opcode::v_cmpx_le_i32 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::LeS), false))
        }
        Opcode::v_cmp_gt_i32 | Opcode::v_cmpx_gt_i32 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::GtS), false))
        }
        Opcode::v_cmp_ne_i32
        | Opcode::v_cmpx_ne_i32
        | Opcode::v_cmp_ne_u32
        | Opcode::v_cmpx_ne_u32 => Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::Ne), false)),
        Opcode::v_cmp_ge_i32 | Opcode::v_cmpx_ge_i32 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::GeS), false))
        }
        Opcode::v_cmp_t_i32 | Opcode::v_cmpx_t_i32 | Opcode::v_cmp_t_u32 | Opcode::v_cmpx_t_u32 => {
            Lower(|l, c| compare::int(l, c, ICond::T, false))
        }
        Opcode::v_cmp_class_f32 | Opcode::v_cmpx_class_f32 => {
            Lower(|l, c| compare::class(l, c, Fmt::F32))
        }
        Opcode::v_cmp_class_f16 | Opcode::v_cmpx_class_f16 => {
            Lower(|l, c| compare::class(l, c, Fmt::F16))
        }
        Opcode::v_cmp_f_i64 | Opcode::v_cmpx_f_i64 | Opcode::v_cmp_f_u64 | Opcode::v_cmpx_f_u64 => {
            Lower(|l, c| compare::int(l, c, ICond::F, true))
        }
        Opcode::v_cmp_lt_i64 | Opcode::v_cmpx_lt_i64 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::LtS), true))
        }
        Opcode::v_cmp_eq_i64
        | Opcode::v_cmpx_eq_i64
        | Opcode::v_cmp_eq_u64
        | Opcode::v_cmpx_eq_u64 => Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::Eq), true)),
        Opcode::v_cmp_le_i64 | Opcode::v_cmpx_le_i64 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::LeS), true))
        }
        Opcode::v_cmp_gt_i64 | Opcode::v_cmpx_gt_i64 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::GtS), true))
        }
        Opcode::v_cmp_ne_i64
        | Opcode::v_cmpx_ne_i64
        | Opcode::v_cmp_ne_u64
        | Opcode::v_cmpx_ne_u64 => Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::Ne), true)),
        Opcode::v_cmp_ge_i64 | Opcode::v_cmpx_ge_i64 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::GeS), true))
        }
        Opcode::v_cmp_t_i64 | Opcode::v_cmpx_t_i64 | Opcode::v_cmp_t_u64 | Opcode::v_cmpx_t_u64 => {
            Lower(|l, c| compare::int(l, c, ICond::T, true))
        }
        Opcode::v_cmp_class_f64 | Opcode::v_cmpx_class_f64 => {
            Lower(|l, c| compare::class(l, c, Fmt::F64))
        }
        Opcode::v_cmp_lt_u32 | Opcode::v_cmpx_lt_u32 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::LtU), false))
        }
        Opcode::v_cmp_le_u32 | Opcode::v_cmpx_le_u32 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::LeU), false))
        }
        Opcode::v_cmp_gt_u32 | Opcode::v_cmpx_gt_u32 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::GtU), false))
        }
        Opcode::v_cmp_ge_u32 | Opcode::v_cmpx_ge_u32 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::GeU), false))
        }
        Opcode::v_cmp_f_f16 | Opcode::v_cmpx_f_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::F))
        }
        Opcode::v_cmp_lt_f16 | Opcode::v_cmpx_lt_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Lt))
        }
        Opcode::v_cmp_eq_f16 | Opcode::v_cmpx_eq_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Eq))
        }
        Opcode::v_cmp_le_f16 | Opcode::v_cmpx_le_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Le))
        }
        Opcode::v_cmp_gt_f16 | Opcode::v_cmpx_gt_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Gt))
        }
        Opcode::v_cmp_lg_f16 | Opcode::v_cmpx_lg_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Lg))
        }
        Opcode::v_cmp_ge_f16 | Opcode::v_cmpx_ge_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Ge))
        }
        Opcode::v_cmp_o_f16 | Opcode::v_cmpx_o_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::O))
        }
        Opcode::v_cmp_lt_u64 | Opcode::v_cmpx_lt_u64 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::LtU), true))
        }
        Opcode::v_cmp_le_u64 | Opcode::v_cmpx_le_u64 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::LeU), true))
        }
        Opcode::v_cmp_gt_u64 | Opcode::v_cmpx_gt_u64 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::GtU), true))
        }
        Opcode::v_cmp_ge_u64 | Opcode::v_cmpx_ge_u64 => {
            Lower(|l, c| compare::int(l, c, ICond::Cmp(IntCmp::GeU), true))
        }
        Opcode::v_cmp_u_f16 | Opcode::v_cmpx_u_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::U))
        }
        Opcode::v_cmp_nge_f16 | Opcode::v_cmpx_nge_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Nge))
        }
        Opcode::v_cmp_nlg_f16 | Opcode::v_cmpx_nlg_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Nlg))
        }
        Opcode::v_cmp_ngt_f16 | Opcode::v_cmpx_ngt_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Ngt))
        }
        Opcode::v_cmp_nle_f16 | Opcode::v_cmpx_nle_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Nle))
        }
        Opcode::v_cmp_neq_f16 | Opcode::v_cmpx_neq_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Neq))
        }
        Opcode::v_cmp_nlt_f16 | Opcode::v_cmpx_nlt_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Nlt))
        }
        Opcode::v_cmp_tru_f16 | Opcode::v_cmpx_tru_f16 => {
            Lower(|l, c| compare::float(l, c, Fmt::F16, FCond::Tru))
        }
        Opcode::v_fma_legacy_f32 => legacy_fma(gfx, false),
        Opcode::v_mullit_f32 => Lower(arithmetic::mullit_f32),
        Opcode::v_min3_f32 => Lower(|l, c| minmax::of3_f32(l, c, Of3::Min)),
        Opcode::v_max3_f32 => Lower(|l, c| minmax::of3_f32(l, c, Of3::Max)),
        Opcode::v_med3_f32 => Lower(|l, c| minmax::of3_f32(l, c, Of3::Med)),
        Opcode::v_div_fixup_f32 => Lower(division::fixup_f32),
        Opcode::v_div_scale_f32 => Lower(division::scale_f32),
        Opcode::v_div_fmas_f32 => Lower(division::fmas_f32),
        Opcode::v_cvt_pknorm_i16_f16 => Lower(|l, c| float16::pknorm_f16(l, c, true)),
        Opcode::v_cvt_pknorm_u16_f16 => Lower(|l, c| float16::pknorm_f16(l, c, false)),
        Opcode::v_div_fixup_f16 => Lower(float16::div_fixup_f16),
        Opcode::v_ldexp_f32 => Lower(arithmetic::ldexp_f32),
        Opcode::v_pk_fma_f16 => Lower(|l, c| packed::pk_f16(l, c, Pk::Fma)),
        Opcode::v_pk_add_f16 => Lower(|l, c| packed::pk_f16(l, c, Pk::Add)),
        Opcode::v_pk_mul_f16 => Lower(|l, c| packed::pk_f16(l, c, Pk::Mul)),
        Opcode::v_pk_min_f16 => Lower(|l, c| packed::pk_f16(l, c, Pk::Min)),
        Opcode::v_pk_max_f16 => Lower(|l, c| packed::pk_f16(l, c, Pk::Max)),
        Opcode::v_fma_mix_f32 => Lower(|l, c| packed::mix(l, c, Mix::F32)),
        Opcode::v_fma_mixlo_f16 => Lower(|l, c| packed::mix(l, c, Mix::Lo)),
        Opcode::v_fma_mixhi_f16 => Lower(|l, c| packed::mix(l, c, Mix::Hi)),
        Opcode::s_add_u32 => lower!(salu::sop2, Sop2::AddU),
        Opcode::s_sub_u32 => lower!(salu::sop2, Sop2::SubU),
        Opcode::s_add_i32 => lower!(salu::sop2, Sop2::AddI),
        Opcode::s_sub_i32 => lower!(salu::sop2, Sop2::SubI),
        Opcode::s_addc_u32 => lower!(salu::sop2, Sop2::Addc),
        Opcode::s_subb_u32 => lower!(salu::sop2, Sop2::Subb),
        Opcode::s_min_i32 => lower!(salu::sop2, Sop2::MinMax(IntCmp::LtS)),
        Opcode::s_min_u32 => lower!(salu::sop2, Sop2::MinMax(IntCmp::LtU)),
        Opcode::s_max_i32 => lower!(salu::sop2, Sop2::MinMax(IntCmp::GtS)),
        Opcode::s_max_u32 => lower!(salu::sop2, Sop2::MinMax(IntCmp::GtU)),
        Opcode::s_cselect_b32 => lower!(salu::sop2, Sop2::Cselect),
        Opcode::s_cselect_b64 => lower!(salu::sop2, Sop2::Cselect),
        Opcode::s_and_b32 => lower!(salu::sop2, Sop2::And),
        Opcode::s_and_b64 => lower!(salu::sop2, Sop2::And),
        Opcode::s_or_b32 => lower!(salu::sop2, Sop2::Or),
        Opcode::s_or_b64 => lower!(salu::sop2, Sop2::Or),
        Opcode::s_xor_b32 => lower!(salu::sop2, Sop2::Xor),
        Opcode::s_xor_b64 => lower!(salu::sop2, Sop2::Xor),
        Opcode::s_andn2_b32 => lower!(salu::sop2, Sop2::Andn2),
        Opcode::s_andn2_b64 => lower!(salu::sop2, Sop2::Andn2),
        Opcode::s_orn2_b32 => lower!(salu::sop2, Sop2::Orn2),
        Opcode::s_orn2_b64 => lower!(salu::sop2, Sop2::Orn2),
        Opcode::s_nand_b32 => lower!(salu::sop2, Sop2::Nand),
        Opcode::s_nand_b64 => lower!(salu::sop2, Sop2::Nand),
        Opcode::s_nor_b32 => lower!(salu::sop2, Sop2::Nor),
        Opcode::s_nor_b64 => lower!(salu::sop2, Sop2::Nor),
        Opcode::s_xnor_b32 => lower!(salu::sop2, Sop2::Xnor),
        Opcode::s_xnor_b64 => lower!(salu::sop2, Sop2::Xnor),
        Opcode::s_lshl_b32 => lower!(salu::sop2, Sop2::Shift(IntBin::Shl)),
        Opcode::s_lshl_b64 => lower!(salu::sop2, Sop2::Shift(IntBin::Shl)),
        Opcode::s_lshr_b32 => lower!(salu::sop2, Sop2::Shift(IntBin::ShrU)),
        Opcode::s_lshr_b64 => lower!(salu::sop2, Sop2::Shift(IntBin::ShrU)),
        Opcode::s_ashr_i32 => lower!(salu::sop2, Sop2::Shift(IntBin::ShrS)),
        Opcode::s_ashr_i64 => lower!(salu::sop2, Sop2::Shift(IntBin::ShrS)),
        Opcode::s_bfm_b32 => lower!(salu::sop2, Sop2::Bfm),
        Opcode::s_bfm_b64 => lower!(salu::sop2, Sop2::Bfm),
        Opcode::s_mul_i32 => lower!(salu::sop2, Sop2::Mul),
        Opcode::s_bfe_u32 => lower!(salu::sop2, Sop2::Bfe { signed: false }),
        Opcode::s_bfe_i32 => lower!(salu::sop2, Sop2::Bfe { signed: true }),
        Opcode::s_bfe_u64 => lower!(salu::sop2, Sop2::Bfe { signed: false }),
        Opcode::s_bfe_i64 => lower!(salu::sop2, Sop2::Bfe { signed: true }),
        Opcode::s_absdiff_i32 => lower!(salu::sop2, Sop2::Absdiff),
        Opcode::s_lshl1_add_u32 => lower!(salu::sop2, Sop2::LshlAdd(1)),
        Opcode::s_lshl2_add_u32 => lower!(salu::sop2, Sop2::LshlAdd(2)),
        Opcode::s_lshl3_add_u32 => lower!(salu::sop2, Sop2::LshlAdd(3)),
        Opcode::s_lshl4_add_u32 => lower!(salu::sop2, Sop2::LshlAdd(4)),
        Opcode::s_pack_ll_b32_b16 => lower!(
            salu::sop2,
            Sop2::Pack {
                hi0: false,
                hi1: false
            }
        ),
        Opcode::s_pack_lh_b32_b16 => lower!(
            salu::sop2,
            Sop2::Pack {
                hi0: false,
                hi1: true
            }
        ),
        Opcode::s_pack_hh_b32_b16 => lower!(
            salu::sop2,
            Sop2::Pack {
                hi0: true,
                hi1: true
            }
        ),
        Opcode::s_mul_hi_u32 => lower!(salu::sop2, Sop2::MulHiU),
        Opcode::s_mul_hi_i32 => lower!(salu::sop2, Sop2::MulHiI),
        Opcode::s_cmp_eq_i32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::Eq)),
        Opcode::s_cmp_lg_i32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::Ne)),
        Opcode::s_cmp_gt_i32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::GtS)),
        Opcode::s_cmp_ge_i32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::GeS)),
        Opcode::s_cmp_lt_i32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::LtS)),
        Opcode::s_cmp_le_i32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::LeS)),
        Opcode::s_cmp_eq_u32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::Eq)),
        Opcode::s_cmp_lg_u32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::Ne)),
        Opcode::s_cmp_gt_u32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::GtU)),
        Opcode::s_cmp_ge_u32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::GeU)),
        Opcode::s_cmp_lt_u32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::LtU)),
        Opcode::s_cmp_le_u32 => lower!(salu::sopc, Sopc::Cmp(IntCmp::LeU)),
        Opcode::s_bitcmp0_b32 => lower!(salu::sopc, Sopc::Bitcmp { set: false }),
        Opcode::s_bitcmp1_b32 => lower!(salu::sopc, Sopc::Bitcmp { set: true }),
        Opcode::s_bitcmp0_b64 => lower!(salu::sopc, Sopc::Bitcmp { set: false }),
        Opcode::s_bitcmp1_b64 => lower!(salu::sopc, Sopc::Bitcmp { set: true }),
        Opcode::s_cmp_eq_u64 => lower!(salu::sopc, Sopc::Cmp(IntCmp::Eq)),
        Opcode::s_cmp_lg_u64 => lower!(salu::sopc, Sopc::Cmp(IntCmp::Ne)),
        Opcode::s_movk_i32 => lower!(salu_unary::sopk, Sopk::Movk),
        Opcode::s_cmovk_i32 => lower!(salu_unary::sopk, Sopk::Cmovk),
        Opcode::s_cmpk_eq_i32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::Eq, true)),
        Opcode::s_cmpk_lg_i32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::Ne, true)),
        Opcode::s_cmpk_gt_i32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::GtS, true)),
        Opcode::s_cmpk_ge_i32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::GeS, true)),
        Opcode::s_cmpk_lt_i32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::LtS, true)),
        Opcode::s_cmpk_le_i32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::LeS, true)),
        Opcode::s_cmpk_eq_u32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::Eq, false)),
        Opcode::s_cmpk_lg_u32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::Ne, false)),
        Opcode::s_cmpk_gt_u32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::GtU, false)),
        Opcode::s_cmpk_ge_u32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::GeU, false)),
        Opcode::s_cmpk_lt_u32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::LtU, false)),
        Opcode::s_cmpk_le_u32 => lower!(salu_unary::sopk, Sopk::Cmp(IntCmp::LeU, false)),
        Opcode::s_addk_i32 => lower!(salu_unary::sopk, Sopk::Addk),
        Opcode::s_mulk_i32 => lower!(salu_unary::sopk, Sopk::Mulk),
        Opcode::s_cmov_b32 => lower!(salu_unary::sop1, Sop1::Cmov),
        Opcode::s_cmov_b64 => lower!(salu_unary::sop1, Sop1::Cmov),
        Opcode::s_not_b32 => lower!(salu_unary::sop1, Sop1::Not),
        Opcode::s_not_b64 => lower!(salu_unary::sop1, Sop1::Not),
        Opcode::s_wqm_b32 => lower!(salu_unary::sop1, Sop1::Wqm),
        Opcode::s_wqm_b64 => lower!(salu_unary::sop1, Sop1::Wqm),
        Opcode::s_brev_b32 => lower!(salu_unary::sop1, Sop1::Brev),
        Opcode::s_brev_b64 => lower!(salu_unary::sop1, Sop1::Brev),
        Opcode::s_bcnt0_i32_b32 => lower!(salu_unary::sop1, Sop1::Bcnt0),
        Opcode::s_bcnt0_i32_b64 => lower!(salu_unary::sop1, Sop1::Bcnt0),
        Opcode::s_bcnt1_i32_b32 => lower!(salu_unary::sop1, Sop1::Bcnt1),
        Opcode::s_bcnt1_i32_b64 => lower!(salu_unary::sop1, Sop1::Bcnt1),
        Opcode::s_ff0_i32_b32 => lower!(salu_unary::sop1, Sop1::Ff0),
        Opcode::s_ff0_i32_b64 => lower!(salu_unary::sop1, Sop1::Ff0),
        Opcode::s_ff1_i32_b32 => lower!(salu_unary::sop1, Sop1::Ff1),
        Opcode::s_ff1_i32_b64 => lower!(salu_unary::sop1, Sop1::Ff1),
        Opcode::s_flbit_i32_b32 => lower!(salu_unary::sop1, Sop1::FlbitU),
        Opcode::s_flbit_i32_b64 => lower!(salu_unary::sop1, Sop1::FlbitU),
        Opcode::s_flbit_i32 => lower!(salu_unary::sop1, Sop1::FlbitI),
        Opcode::s_flbit_i32_i64 => lower!(salu_unary::sop1, Sop1::FlbitI),
        Opcode::s_sext_i32_i8 => lower!(salu_unary::sop1, Sop1::Sext(8)),
        Opcode::s_sext_i32_i16 => lower!(salu_unary::sop1, Sop1::Sext(16)),
        Opcode::s_bitset0_b32 => lower!(salu_unary::sop1, Sop1::Bitset { set: false }),
        Opcode::s_bitset0_b64 => lower!(salu_unary::sop1, Sop1::Bitset { set: false }),
        Opcode::s_bitset1_b32 => lower!(salu_unary::sop1, Sop1::Bitset { set: true }),
        Opcode::s_bitset1_b64 => lower!(salu_unary::sop1, Sop1::Bitset { set: true }),
        Opcode::s_quadmask_b32 => lower!(salu_unary::sop1, Sop1::Quadmask),
        Opcode::s_quadmask_b64 => lower!(salu_unary::sop1, Sop1::Quadmask),
        Opcode::s_abs_i32 => lower!(salu_unary::sop1, Sop1::Abs),
        Opcode::s_bitreplicate_b64_b32 => lower!(salu_unary::sop1, Sop1::Bitreplicate),
        Opcode::s_and_saveexec_b64 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::And, false)),
        Opcode::s_or_saveexec_b64 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Or, false)),
        Opcode::s_xor_saveexec_b64 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Xor, false)),
        Opcode::s_andn2_saveexec_b64 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Andn2, false))
        }
        Opcode::s_orn2_saveexec_b64 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Orn2, false))
        }
        Opcode::s_nand_saveexec_b64 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Nand, false))
        }
        Opcode::s_nor_saveexec_b64 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Nor, false)),
        Opcode::s_xnor_saveexec_b64 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Xnor, false))
        }
        Opcode::s_andn1_saveexec_b64 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Andn1, false))
        }
        Opcode::s_orn1_saveexec_b64 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Orn1, false))
        }
        Opcode::s_andn1_wrexec_b64 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Andn1, true)),
        Opcode::s_andn2_wrexec_b64 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Andn2, true)),
        Opcode::s_and_saveexec_b32 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::And, false)),
        Opcode::s_or_saveexec_b32 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Or, false)),
        Opcode::s_xor_saveexec_b32 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Xor, false)),
        Opcode::s_andn2_saveexec_b32 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Andn2, false))
        }
        Opcode::s_orn2_saveexec_b32 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Orn2, false))
        }
        Opcode::s_nand_saveexec_b32 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Nand, false))
        }
        Opcode::s_nor_saveexec_b32 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Nor, false)),
        Opcode::s_xnor_saveexec_b32 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Xnor, false))
        }
        Opcode::s_andn1_saveexec_b32 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Andn1, false))
        }
        Opcode::s_orn1_saveexec_b32 => {
            Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Orn1, false))
        }
        Opcode::s_andn1_wrexec_b32 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Andn1, true)),
        Opcode::s_andn2_wrexec_b32 => Lower(|l, c| salu_unary::saveexec(l, c, ExecOp::Andn2, true)),
        Opcode::s_movrels_b32 => lower!(salu_unary::movrel, SMovrel::Src),
        Opcode::s_movrels_b64 => lower!(salu_unary::movrel, SMovrel::Src),
        Opcode::s_movreld_b32 => lower!(salu_unary::movrel, SMovrel::Dst),
        Opcode::s_movreld_b64 => lower!(salu_unary::movrel, SMovrel::Dst),
        Opcode::s_movrelsd_2_b32 => lower!(salu_unary::movrel, SMovrel::Both),
        Opcode::s_getreg_b32 => Lower(salu_mode::getreg),
        Opcode::s_setreg_b32 => Lower(|l, c| salu_mode::setreg(l, c, false)),
        Opcode::s_setreg_imm32_b32 => Lower(|l, c| salu_mode::setreg(l, c, true)),
        // s_version only marks the code's ISA version (rule: s-version-nop)
        Opcode::s_version
        | Opcode::s_waitcnt_vscnt
        | Opcode::s_waitcnt_vmcnt
        | Opcode::s_waitcnt_expcnt
        | Opcode::s_waitcnt_lgkmcnt => Lower(integer::nop),
        // the program counter under the wave contract (lower::calls)
        Opcode::s_call_b64 => Rule::Flow(Flow::Pc(Pc::Call)),
        Opcode::s_getpc_b64 => Rule::Flow(Flow::Pc(Pc::Get)),
        Opcode::s_setpc_b64 => Rule::Flow(Flow::Pc(Pc::Jump { link: false })),
        Opcode::s_swappc_b64 => Rule::Flow(Flow::Pc(Pc::Jump { link: true })),
        Opcode::s_rfe_b64 => Unlowered("returns from the trap handler: not modelled"),
        Opcode::s_subvector_loop_begin | Opcode::s_subvector_loop_end => Unlowered(SUBVECTOR),
        Opcode::s_waitcnt
        | Opcode::s_waitcnt_depctr
        | Opcode::s_wait_idle
        | Opcode::s_inst_prefetch
        | Opcode::s_clause
        | Opcode::s_sleep
        | Opcode::s_setprio
        | Opcode::s_icache_inv
        | Opcode::s_incperflevel
        | Opcode::s_decperflevel => Lower(integer::nop),
        Opcode::s_barrier => Rule::Flow(Flow::Barrier),
        Opcode::s_round_mode => Lower(|l, c| salu_mode::denorm_round(l, c, false)),
        Opcode::s_denorm_mode => Lower(|l, c| salu_mode::denorm_round(l, c, true)),
        Opcode::s_sethalt => Lower(salu_mode::sethalt),
        // ends the wave like s_endpgm (rule: s-setkill-ends)
        Opcode::s_setkill => Rule::Flow(Flow::EndWave),
        Opcode::s_branch => Rule::Flow(Flow::Branch(Branch::Always)),
        Opcode::s_cbranch_scc0 => Rule::Flow(Flow::Branch(Branch::Scc0)),
        Opcode::s_cbranch_scc1 => Rule::Flow(Flow::Branch(Branch::Scc1)),
        Opcode::s_cbranch_vccz => Rule::Flow(Flow::Branch(Branch::Vccz)),
        Opcode::s_cbranch_vccnz => Rule::Flow(Flow::Branch(Branch::Vccnz)),
        Opcode::s_cbranch_execz => Rule::Flow(Flow::Branch(Branch::Execz)),
        Opcode::s_cbranch_execnz => Rule::Flow(Flow::Branch(Branch::Execnz)),
        Opcode::s_cbranch_cdbgsys
        | Opcode::s_cbranch_cdbguser
        | Opcode::s_cbranch_cdbgsys_or_user
        | Opcode::s_cbranch_cdbgsys_and_user => Unlowered(PROGRAM_CONTROL),
        Opcode::s_wakeup => Lower(integer::nop),
        Opcode::s_sendmsg | Opcode::s_sendmsghalt => Unlowered(MESSAGE),
        Opcode::s_trap => Unlowered("enters the trap handler: not modelled"),
        Opcode::s_ttracedata | Opcode::s_ttracedata_imm => {
            Unlowered("thread-trace data: not modelled")
        }
        Opcode::s_endpgm_saved | Opcode::s_endpgm_ordered_ps_done => {
            Unlowered("ends the wave (context-save and pixel-ordering forms): not modelled")
        }
        Opcode::s_code_end => {
            Unlowered("marks the end of the code: executing it is an illegal instruction")
        }
        Opcode::s_gl1_inv | Opcode::s_dcache_inv => Lower(integer::nop),
        Opcode::s_memtime
        | Opcode::s_memrealtime
        | Opcode::s_atc_probe
        | Opcode::s_atc_probe_buffer => Unlowered(SCALAR_MEMORY),
        // Memory under the wave contract: lower::mem.
        Opcode::global_load_ubyte => Lower(|l, c| mem::global(l, c, Vm::load(1, false))),
        Opcode::global_load_sbyte => Lower(|l, c| mem::global(l, c, Vm::load(1, true))),
        Opcode::global_load_ushort => Lower(|l, c| mem::global(l, c, Vm::load(2, false))),
        Opcode::global_load_sshort => Lower(|l, c| mem::global(l, c, Vm::load(2, true))),
        Opcode::global_load_dword => Lower(|l, c| mem::global(l, c, Vm::dwords(1))),
        Opcode::global_load_dwordx2 => Lower(|l, c| mem::global(l, c, Vm::dwords(2))),
        Opcode::global_load_dwordx3 => Lower(|l, c| mem::global(l, c, Vm::dwords(3))),
        Opcode::global_load_dwordx4 => Lower(|l, c| mem::global(l, c, Vm::dwords(4))),
        Opcode::global_load_ubyte_d16 => {
            Lower(|l, c| mem::global(l, c, Vm::d16(1, false, D16::Lo)))
        }
        Opcode::global_load_ubyte_d16_hi => {
            Lower(|l, c| mem::global(l, c, Vm::d16(1, false, D16::Hi)))
        }
        Opcode::global_load_sbyte_d16 => Lower(|l, c| mem::global(l, c, Vm::d16(1, true, D16::Lo))),
        Opcode::global_load_sbyte_d16_hi => {
            Lower(|l, c| mem::global(l, c, Vm::d16(1, true, D16::Hi)))
        }
        Opcode::global_load_short_d16 => {
            Lower(|l, c| mem::global(l, c, Vm::d16(2, false, D16::Lo)))
        }
        Opcode::global_load_short_d16_hi => {
            Lower(|l, c| mem::global(l, c, Vm::d16(2, false, D16::Hi)))
        }
        Opcode::global_store_byte => Lower(|l, c| mem::global(l, c, Vm::store(1, 1))),
        Opcode::global_store_byte_d16_hi => Lower(|l, c| mem::global(l, c, Vm::store_hi(1))),
        Opcode::global_store_short => Lower(|l, c| mem::global(l, c, Vm::store(2, 1))),
        Opcode::global_store_short_d16_hi => Lower(|l, c| mem::global(l, c, Vm::store_hi(2))),
        Opcode::global_store_dword => Lower(|l, c| mem::global(l, c, Vm::store(4, 1))),
        Opcode::global_store_dwordx2 => Lower(|l, c| mem::global(l, c, Vm::store(4, 2))),
        Opcode::global_store_dwordx3 => Lower(|l, c| mem::global(l, c, Vm::store(4, 3))),
        Opcode::global_store_dwordx4 => Lower(|l, c| mem::global(l, c, Vm::store(4, 4))),
        Opcode::global_atomic_swap => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::Write))),
        Opcode::global_atomic_add => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::Add))),
        Opcode::global_atomic_sub => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::Sub))),
        Opcode::global_atomic_smin => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::MinI))),
        Opcode::global_atomic_umin => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::MinU))),
        Opcode::global_atomic_smax => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::MaxI))),
        Opcode::global_atomic_umax => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::MaxU))),
        Opcode::global_atomic_and => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::And))),
        Opcode::global_atomic_or => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::Or))),
        Opcode::global_atomic_xor => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::Xor))),
        Opcode::global_atomic_inc => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::Inc))),
        Opcode::global_atomic_dec => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::Dec))),
        Opcode::global_atomic_cmpswap => Lower(|l, c| mem::global(l, c, Vm::CmpSwap)),
        Opcode::global_atomic_csub => Lower(|l, c| mem::global(l, c, Vm::Atomic(LdsOp::Csub))),
        Opcode::global_atomic_fmin => {
            Lower(|l, c| mem::global(l, c, Vm::FloatAtomic { max: false }))
        }
        Opcode::global_atomic_fmax => {
            Lower(|l, c| mem::global(l, c, Vm::FloatAtomic { max: true }))
        }
        Opcode::global_atomic_swap_x2 => {
            Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::Write)))
        }
        Opcode::global_atomic_add_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::Add))),
        Opcode::global_atomic_sub_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::Sub))),
        Opcode::global_atomic_smin_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::MinI))),
        Opcode::global_atomic_umin_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::MinU))),
        Opcode::global_atomic_smax_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::MaxI))),
        Opcode::global_atomic_umax_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::MaxU))),
        Opcode::global_atomic_and_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::And))),
        Opcode::global_atomic_or_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::Or))),
        Opcode::global_atomic_xor_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::Xor))),
        Opcode::global_atomic_inc_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::Inc))),
        Opcode::global_atomic_dec_x2 => Lower(|l, c| mem::global(l, c, Vm::atomic64(LdsOp::Dec))),
        Opcode::global_atomic_cmpswap_x2 => Lower(|l, c| mem::global(l, c, Vm::cmpswap64())),
        Opcode::flat_load_ubyte => Lower(|l, c| mem::flat_seg(l, c, Vm::load(1, false))),
        Opcode::flat_load_sbyte => Lower(|l, c| mem::flat_seg(l, c, Vm::load(1, true))),
        Opcode::flat_load_ushort => Lower(|l, c| mem::flat_seg(l, c, Vm::load(2, false))),
        Opcode::flat_load_sshort => Lower(|l, c| mem::flat_seg(l, c, Vm::load(2, true))),
        Opcode::flat_load_dword => Lower(|l, c| mem::flat_seg(l, c, Vm::dwords(1))),
        Opcode::flat_load_dwordx2 => Lower(|l, c| mem::flat_seg(l, c, Vm::dwords(2))),
        Opcode::flat_load_dwordx3 => Lower(|l, c| mem::flat_seg(l, c, Vm::dwords(3))),
        Opcode::flat_load_dwordx4 => Lower(|l, c| mem::flat_seg(l, c, Vm::dwords(4))),
        Opcode::flat_load_ubyte_d16 => {
            Lower(|l, c| mem::flat_seg(l, c, Vm::d16(1, false, D16::Lo)))
        }
        Opcode::flat_load_ubyte_d16_hi => {
            Lower(|l, c| mem::flat_seg(l, c, Vm::d16(1, false, D16::Hi)))
        }
        Opcode::flat_load_sbyte_d16 => Lower(|l, c| mem::flat_seg(l, c, Vm::d16(1, true, D16::Lo))),
        Opcode::flat_load_sbyte_d16_hi => {
            Lower(|l, c| mem::flat_seg(l, c, Vm::d16(1, true, D16::Hi)))
        }
        Opcode::flat_load_short_d16 => {
            Lower(|l, c| mem::flat_seg(l, c, Vm::d16(2, false, D16::Lo)))
        }
        Opcode::flat_load_short_d16_hi => {
            Lower(|l, c| mem::flat_seg(l, c, Vm::d16(2, false, D16::Hi)))
        }
        Opcode::flat_store_byte => Lower(|l, c| mem::flat_seg(l, c, Vm::store(1, 1))),
        Opcode::flat_store_byte_d16_hi => Lower(|l, c| mem::flat_seg(l, c, Vm::store_hi(1))),
        Opcode::flat_store_short => Lower(|l, c| mem::flat_seg(l, c, Vm::store(2, 1))),
        Opcode::flat_store_short_d16_hi => Lower(|l, c| mem::flat_seg(l, c, Vm::store_hi(2))),
        Opcode::flat_store_dword => Lower(|l, c| mem::flat_seg(l, c, Vm::store(4, 1))),
        Opcode::flat_store_dwordx2 => Lower(|l, c| mem::flat_seg(l, c, Vm::store(4, 2))),
        Opcode::flat_store_dwordx3 => Lower(|l, c| mem::flat_seg(l, c, Vm::store(4, 3))),
        Opcode::flat_store_dwordx4 => Lower(|l, c| mem::flat_seg(l, c, Vm::store(4, 4))),
        Opcode::flat_atomic_swap => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::Write))),
        Opcode::flat_atomic_add => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::Add))),
        Opcode::flat_atomic_sub => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::Sub))),
        Opcode::flat_atomic_smin => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::MinI))),
        Opcode::flat_atomic_umin => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::MinU))),
        Opcode::flat_atomic_smax => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::MaxI))),
        Opcode::flat_atomic_umax => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::MaxU))),
        Opcode::flat_atomic_and => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::And))),
        Opcode::flat_atomic_or => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::Or))),
        Opcode::flat_atomic_xor => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::Xor))),
        Opcode::flat_atomic_inc => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::Inc))),
        Opcode::flat_atomic_dec => Lower(|l, c| mem::flat_seg(l, c, Vm::Atomic(LdsOp::Dec))),
        Opcode::flat_atomic_cmpswap => Lower(|l, c| mem::flat_seg(l, c, Vm::CmpSwap)),
        Opcode::flat_atomic_fmin => {
            Lower(|l, c| mem::flat_seg(l, c, Vm::FloatAtomic { max: false }))
        }
        Opcode::flat_atomic_fmax => {
            Lower(|l, c| mem::flat_seg(l, c, Vm::FloatAtomic { max: true }))
        }
        Opcode::flat_atomic_swap_x2 => {
            Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::Write)))
        }
        Opcode::flat_atomic_add_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::Add))),
        Opcode::flat_atomic_sub_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::Sub))),
        Opcode::flat_atomic_smin_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::MinI))),
        Opcode::flat_atomic_umin_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::MinU))),
        Opcode::flat_atomic_smax_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::MaxI))),
        Opcode::flat_atomic_umax_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::MaxU))),
        Opcode::flat_atomic_and_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::And))),
        Opcode::flat_atomic_or_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::Or))),
        Opcode::flat_atomic_xor_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::Xor))),
        Opcode::flat_atomic_inc_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::Inc))),
        Opcode::flat_atomic_dec_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::atomic64(LdsOp::Dec))),
        Opcode::flat_atomic_cmpswap_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::cmpswap64())),
        Opcode::buffer_load_ubyte => Lower(|l, c| mem::mubuf(l, c, Vm::load(1, false))),
        Opcode::buffer_load_sbyte => Lower(|l, c| mem::mubuf(l, c, Vm::load(1, true))),
        Opcode::buffer_load_ushort => Lower(|l, c| mem::mubuf(l, c, Vm::load(2, false))),
        Opcode::buffer_load_sshort => Lower(|l, c| mem::mubuf(l, c, Vm::load(2, true))),
        Opcode::buffer_load_dword => Lower(|l, c| mem::mubuf(l, c, Vm::dwords(1))),
        Opcode::buffer_load_dwordx2 => Lower(|l, c| mem::mubuf(l, c, Vm::dwords(2))),
        Opcode::buffer_load_dwordx3 => Lower(|l, c| mem::mubuf(l, c, Vm::dwords(3))),
        Opcode::buffer_load_dwordx4 => Lower(|l, c| mem::mubuf(l, c, Vm::dwords(4))),
        Opcode::buffer_load_ubyte_d16 => Lower(|l, c| mem::mubuf(l, c, Vm::d16(1, false, D16::Lo))),
        Opcode::buffer_load_ubyte_d16_hi => {
            Lower(|l, c| mem::mubuf(l, c, Vm::d16(1, false, D16::Hi)))
        }
        Opcode::buffer_load_sbyte_d16 => Lower(|l, c| mem::mubuf(l, c, Vm::d16(1, true, D16::Lo))),
        Opcode::buffer_load_sbyte_d16_hi => {
            Lower(|l, c| mem::mubuf(l, c, Vm::d16(1, true, D16::Hi)))
        }
        Opcode::buffer_load_short_d16 => Lower(|l, c| mem::mubuf(l, c, Vm::d16(2, false, D16::Lo))),
        Opcode::buffer_load_short_d16_hi => {
            Lower(|l, c| mem::mubuf(l, c, Vm::d16(2, false, D16::Hi)))
        }
        Opcode::buffer_store_byte => Lower(|l, c| mem::mubuf(l, c, Vm::store(1, 1))),
        Opcode::buffer_store_byte_d16_hi => Lower(|l, c| mem::mubuf(l, c, Vm::store_hi(1))),
        Opcode::buffer_store_short => Lower(|l, c| mem::mubuf(l, c, Vm::store(2, 1))),
        Opcode::buffer_store_short_d16_hi => Lower(|l, c| mem::mubuf(l, c, Vm::store_hi(2))),
        Opcode::buffer_store_dword => Lower(|l, c| mem::mubuf(l, c, Vm::store(4, 1))),
        Opcode::buffer_store_dwordx2 => Lower(|l, c| mem::mubuf(l, c, Vm::store(4, 2))),
        Opcode::buffer_store_dwordx3 => Lower(|l, c| mem::mubuf(l, c, Vm::store(4, 3))),
        Opcode::buffer_store_dwordx4 => Lower(|l, c| mem::mubuf(l, c, Vm::store(4, 4))),
        Opcode::buffer_atomic_swap => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::Write))),
        Opcode::buffer_atomic_add => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::Add))),
        Opcode::buffer_atomic_sub => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::Sub))),
        Opcode::buffer_atomic_smin => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::MinI))),
        Opcode::buffer_atomic_umin => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::MinU))),
        Opcode::buffer_atomic_smax => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::MaxI))),
        Opcode::buffer_atomic_umax => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::MaxU))),
        Opcode::buffer_atomic_and => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::And))),
        Opcode::buffer_atomic_or => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::Or))),
        Opcode::buffer_atomic_xor => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::Xor))),
        Opcode::buffer_atomic_inc => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::Inc))),
        Opcode::buffer_atomic_dec => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::Dec))),
        Opcode::buffer_atomic_cmpswap => Lower(|l, c| mem::mubuf(l, c, Vm::CmpSwap)),
        Opcode::buffer_atomic_csub => Lower(|l, c| mem::mubuf(l, c, Vm::Atomic(LdsOp::Csub))),
        Opcode::buffer_atomic_fmin => {
            Lower(|l, c| mem::mubuf(l, c, Vm::FloatAtomic { max: false }))
        }
        Opcode::buffer_atomic_fmax => Lower(|l, c| mem::mubuf(l, c, Vm::FloatAtomic { max: true })),
        Opcode::buffer_atomic_swap_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::Write))),
        Opcode::buffer_atomic_add_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::Add))),
        Opcode::buffer_atomic_sub_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::Sub))),
        Opcode::buffer_atomic_smin_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::MinI))),
        Opcode::buffer_atomic_umin_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::MinU))),
        Opcode::buffer_atomic_smax_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::MaxI))),
        Opcode::buffer_atomic_umax_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::MaxU))),
        Opcode::buffer_atomic_and_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::And))),
        Opcode::buffer_atomic_or_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::Or))),
        Opcode::buffer_atomic_xor_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::Xor))),
        Opcode::buffer_atomic_inc_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::Inc))),
        Opcode::buffer_atomic_dec_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::atomic64(LdsOp::Dec))),
        Opcode::buffer_atomic_cmpswap_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::cmpswap64())),
        Opcode::tbuffer_load_format_x => Lower(|l, c| mem::mtbuf(l, c, 1, false)),
        Opcode::tbuffer_store_format_x => Lower(|l, c| mem::mtbuf(l, c, 1, true)),
        Opcode::tbuffer_load_format_xy => Lower(|l, c| mem::mtbuf(l, c, 2, false)),
        Opcode::tbuffer_store_format_xy => Lower(|l, c| mem::mtbuf(l, c, 2, true)),
        Opcode::tbuffer_load_format_xyz => Lower(|l, c| mem::mtbuf(l, c, 3, false)),
        Opcode::tbuffer_store_format_xyz => Lower(|l, c| mem::mtbuf(l, c, 3, true)),
        Opcode::tbuffer_load_format_xyzw => Lower(|l, c| mem::mtbuf(l, c, 4, false)),
        Opcode::tbuffer_store_format_xyzw => Lower(|l, c| mem::mtbuf(l, c, 4, true)),
        Opcode::s_load_dword => Lower(|l, c| mem::smem(l, c, 1, false)),
        Opcode::s_buffer_load_dword => Lower(|l, c| mem::smem(l, c, 1, true)),
        Opcode::s_load_dwordx2 => Lower(|l, c| mem::smem(l, c, 2, false)),
        Opcode::s_buffer_load_dwordx2 => Lower(|l, c| mem::smem(l, c, 2, true)),
        Opcode::s_load_dwordx4 => Lower(|l, c| mem::smem(l, c, 4, false)),
        Opcode::s_buffer_load_dwordx4 => Lower(|l, c| mem::smem(l, c, 4, true)),
        Opcode::s_load_dwordx8 => Lower(|l, c| mem::smem(l, c, 8, false)),
        Opcode::s_buffer_load_dwordx8 => Lower(|l, c| mem::smem(l, c, 8, true)),
        Opcode::s_load_dwordx16 => Lower(|l, c| mem::smem(l, c, 16, false)),
        Opcode::s_buffer_load_dwordx16 => Lower(|l, c| mem::smem(l, c, 16, true)),
        Opcode::v_readfirstlane_b32 => Lower(crosslane::readfirstlane),
        Opcode::ds_swizzle_b32 => Lower(crosslane::ds_swizzle),
        Opcode::ds_read_b32 => Lower(|l, c| lds::ds(l, c, Ds::Read(1))),
        Opcode::ds_read_b64 => Lower(|l, c| lds::ds(l, c, Ds::Read(2))),
        Opcode::ds_write_b32 => Lower(|l, c| lds::ds(l, c, Ds::Write(1))),
        Opcode::ds_write_b64 => Lower(|l, c| lds::ds(l, c, Ds::Write(2))),
        Opcode::ds_read2_b32 => Lower(|l, c| lds::ds(l, c, Ds::Read2 { scale: 1 })),
        Opcode::ds_read2st64_b32 => Lower(|l, c| lds::ds(l, c, Ds::Read2 { scale: 64 })),
        Opcode::ds_write2_b32 => Lower(|l, c| lds::ds(l, c, Ds::Write2 { scale: 1 })),
        Opcode::ds_write2st64_b32 => Lower(|l, c| lds::ds(l, c, Ds::Write2 { scale: 64 })),
        Opcode::ds_add_u32 => lds_atomic!(Add, false),
        Opcode::ds_add_rtn_u32 => lds_atomic!(Add, true),
        Opcode::ds_sub_u32 => lds_atomic!(Sub, false),
        Opcode::ds_sub_rtn_u32 => lds_atomic!(Sub, true),
        Opcode::ds_rsub_u32 => lds_atomic!(Rsub, false),
        Opcode::ds_rsub_rtn_u32 => lds_atomic!(Rsub, true),
        Opcode::ds_inc_u32 => lds_atomic!(Inc, false),
        Opcode::ds_inc_rtn_u32 => lds_atomic!(Inc, true),
        Opcode::ds_dec_u32 => lds_atomic!(Dec, false),
        Opcode::ds_dec_rtn_u32 => lds_atomic!(Dec, true),
        Opcode::ds_min_i32 => lds_atomic!(MinI, false),
        Opcode::ds_min_rtn_i32 => lds_atomic!(MinI, true),
        Opcode::ds_max_i32 => lds_atomic!(MaxI, false),
        Opcode::ds_max_rtn_i32 => lds_atomic!(MaxI, true),
        Opcode::ds_min_u32 => lds_atomic!(MinU, false),
        Opcode::ds_min_rtn_u32 => lds_atomic!(MinU, true),
        Opcode::ds_max_u32 => lds_atomic!(MaxU, false),
        Opcode::ds_max_rtn_u32 => lds_atomic!(MaxU, true),
        Opcode::ds_and_b32 => lds_atomic!(And, false),
        Opcode::ds_and_rtn_b32 => lds_atomic!(And, true),
        Opcode::ds_or_b32 => lds_atomic!(Or, false),
        Opcode::ds_or_rtn_b32 => lds_atomic!(Or, true),
        Opcode::ds_xor_b32 => lds_atomic!(Xor, false),
        Opcode::ds_xor_rtn_b32 => lds_atomic!(Xor, true),
        Opcode::ds_wrxchg_rtn_b32 => lds_atomic!(Write, true),
        Opcode::ds_bpermute_b32 => Lower(crosslane::ds_bpermute),
        Opcode::v_readlane_b32 => Lower(crosslane::readlane),
        Opcode::v_writelane_b32 => Lower(crosslane::writelane),
        Opcode::v_permlane16_b32 => Lower(|l, c| crosslane::permlane(l, c, false)),
        Opcode::v_permlanex16_b32 => Lower(|l, c| crosslane::permlane(l, c, true)),
        Opcode::v_cvt_pk_u8_f32 => Lower(pack::cvt_pk_u8_f32),
        Opcode::v_dot2c_f32_f16 => Lower(|l, c| dot_f16::dot2_f32_f16(l, c, true)),
        Opcode::v_dot2_f32_f16 => Lower(|l, c| dot_f16::dot2_f32_f16(l, c, false)),
        Opcode::v_cubeid_f32 => lower!(cube::cube, CubeOp::Id),
        Opcode::v_cubesc_f32 => lower!(cube::cube, CubeOp::Sc),
        Opcode::v_cubetc_f32 => lower!(cube::cube, CubeOp::Tc),
        Opcode::v_cubema_f32 => lower!(cube::cube, CubeOp::Ma),
        Opcode::v_interp_p1_f32_vop3 | Opcode::v_interp_p1_f32_vintrp => {
            lower!(vintrp::interp_f32, InterpF32::P1)
        }
        Opcode::v_interp_p2_f32_vop3 | Opcode::v_interp_p2_f32_vintrp => {
            lower!(vintrp::interp_f32, InterpF32::P2)
        }
        Opcode::v_interp_mov_f32_vop3 | Opcode::v_interp_mov_f32_vintrp => {
            lower!(vintrp::interp_f32, InterpF32::Mov)
        }
        Opcode::v_interp_p1ll_f16 => lower!(vintrp::interp_f16_op, InterpF16::P1ll),
        Opcode::v_interp_p1lv_f16 => lower!(vintrp::interp_f16_op, InterpF16::P1lv),
        Opcode::v_interp_p2_f16 => lower!(vintrp::interp_f16_op, InterpF16::P2),
        Opcode::ds_mskor_b32 => dsa!(Int(LdsOp::MskOr), 4, false),
        Opcode::ds_mskor_rtn_b32 => dsa!(Int(LdsOp::MskOr), 4, true),
        Opcode::ds_cmpst_b32 => dsa!(Int(LdsOp::Cmpst), 4, false),
        Opcode::ds_cmpst_rtn_b32 => dsa!(Int(LdsOp::Cmpst), 4, true),
        Opcode::ds_cmpst_f32 => dsa!(FCmpst, 4, false),
        Opcode::ds_cmpst_rtn_f32 => dsa!(FCmpst, 4, true),
        Opcode::ds_min_f32 => dsa!(FMin, 4, false),
        Opcode::ds_min_rtn_f32 => dsa!(FMin, 4, true),
        Opcode::ds_max_f32 => dsa!(FMax, 4, false),
        Opcode::ds_max_rtn_f32 => dsa!(FMax, 4, true),
        Opcode::ds_add_f32 => dsa!(FAdd, 4, false),
        Opcode::ds_add_rtn_f32 => dsa!(FAdd, 4, true),
        Opcode::ds_wrap_rtn_b32 => dsa!(Int(LdsOp::Wrap), 4, true),
        Opcode::ds_nop => Lower(integer::nop),
        Opcode::ds_gws_sema_release_all
        | Opcode::ds_gws_init
        | Opcode::ds_gws_sema_v
        | Opcode::ds_gws_sema_br
        | Opcode::ds_gws_sema_p
        | Opcode::ds_gws_barrier => Unlowered(GWS),
        Opcode::ds_ordered_count => Unlowered(ORDERED_COUNT),
        Opcode::ds_write_b8 => dsw!(Dw::WriteSub {
            bytes: 1,
            hi: false
        }),
        Opcode::ds_write_b16 => dsw!(Dw::WriteSub {
            bytes: 2,
            hi: false
        }),
        Opcode::ds_write_b8_d16_hi => dsw!(Dw::WriteSub { bytes: 1, hi: true }),
        Opcode::ds_write_b16_d16_hi => dsw!(Dw::WriteSub { bytes: 2, hi: true }),
        Opcode::ds_read_i8 => dsw!(Dw::ReadSub {
            bytes: 1,
            signed: true,
            place: Place::Full
        }),
        Opcode::ds_read_u8 => dsw!(Dw::ReadSub {
            bytes: 1,
            signed: false,
            place: Place::Full
        }),
        Opcode::ds_read_i16 => dsw!(Dw::ReadSub {
            bytes: 2,
            signed: true,
            place: Place::Full
        }),
        Opcode::ds_read_u16 => dsw!(Dw::ReadSub {
            bytes: 2,
            signed: false,
            place: Place::Full
        }),
        Opcode::ds_read_u8_d16 => dsw!(Dw::ReadSub {
            bytes: 1,
            signed: false,
            place: Place::Lo
        }),
        Opcode::ds_read_u8_d16_hi => dsw!(Dw::ReadSub {
            bytes: 1,
            signed: false,
            place: Place::Hi
        }),
        Opcode::ds_read_i8_d16 => dsw!(Dw::ReadSub {
            bytes: 1,
            signed: true,
            place: Place::Lo
        }),
        Opcode::ds_read_i8_d16_hi => dsw!(Dw::ReadSub {
            bytes: 1,
            signed: true,
            place: Place::Hi
        }),
        Opcode::ds_read_u16_d16 => dsw!(Dw::ReadSub {
            bytes: 2,
            signed: false,
            place: Place::Lo
        }),
        Opcode::ds_read_u16_d16_hi => dsw!(Dw::ReadSub {
            bytes: 2,
            signed: false,
            place: Place::Hi
        }),
        Opcode::ds_wrxchg2_rtn_b32 => dsw!(Dw::Xchg2 { bytes: 4, scale: 1 }),
        Opcode::ds_wrxchg2st64_rtn_b32 => dsw!(Dw::Xchg2 {
            bytes: 4,
            scale: 64
        }),
        Opcode::ds_wrxchg2_rtn_b64 => dsw!(Dw::Xchg2 { bytes: 8, scale: 1 }),
        Opcode::ds_wrxchg2st64_rtn_b64 => dsw!(Dw::Xchg2 {
            bytes: 8,
            scale: 64
        }),
        Opcode::ds_append => dsw!(Dw::Append { consume: false }),
        Opcode::ds_consume => dsw!(Dw::Append { consume: true }),
        Opcode::ds_add_u64 => dsa!(Int(LdsOp::Add), 8, false),
        Opcode::ds_add_rtn_u64 => dsa!(Int(LdsOp::Add), 8, true),
        Opcode::ds_sub_u64 => dsa!(Int(LdsOp::Sub), 8, false),
        Opcode::ds_sub_rtn_u64 => dsa!(Int(LdsOp::Sub), 8, true),
        Opcode::ds_rsub_u64 => dsa!(Int(LdsOp::Rsub), 8, false),
        Opcode::ds_rsub_rtn_u64 => dsa!(Int(LdsOp::Rsub), 8, true),
        Opcode::ds_inc_u64 => dsa!(Int(LdsOp::Inc), 8, false),
        Opcode::ds_inc_rtn_u64 => dsa!(Int(LdsOp::Inc), 8, true),
        Opcode::ds_dec_u64 => dsa!(Int(LdsOp::Dec), 8, false),
        Opcode::ds_dec_rtn_u64 => dsa!(Int(LdsOp::Dec), 8, true),
        Opcode::ds_min_i64 => dsa!(Int(LdsOp::MinI), 8, false),
        Opcode::ds_min_rtn_i64 => dsa!(Int(LdsOp::MinI), 8, true),
        Opcode::ds_max_i64 => dsa!(Int(LdsOp::MaxI), 8, false),
        Opcode::ds_max_rtn_i64 => dsa!(Int(LdsOp::MaxI), 8, true),
        Opcode::ds_min_u64 => dsa!(Int(LdsOp::MinU), 8, false),
        Opcode::ds_min_rtn_u64 => dsa!(Int(LdsOp::MinU), 8, true),
        Opcode::ds_max_u64 => dsa!(Int(LdsOp::MaxU), 8, false),
        Opcode::ds_max_rtn_u64 => dsa!(Int(LdsOp::MaxU), 8, true),
        Opcode::ds_and_b64 => dsa!(Int(LdsOp::And), 8, false),
        Opcode::ds_and_rtn_b64 => dsa!(Int(LdsOp::And), 8, true),
        Opcode::ds_or_b64 => dsa!(Int(LdsOp::Or), 8, false),
        Opcode::ds_or_rtn_b64 => dsa!(Int(LdsOp::Or), 8, true),
        Opcode::ds_xor_b64 => dsa!(Int(LdsOp::Xor), 8, false),
        Opcode::ds_xor_rtn_b64 => dsa!(Int(LdsOp::Xor), 8, true),
        Opcode::ds_mskor_b64 => dsa!(Int(LdsOp::MskOr), 8, false),
        Opcode::ds_mskor_rtn_b64 => dsa!(Int(LdsOp::MskOr), 8, true),
        Opcode::ds_cmpst_b64 => dsa!(Int(LdsOp::Cmpst), 8, false),
        Opcode::ds_cmpst_rtn_b64 => dsa!(Int(LdsOp::Cmpst), 8, true),
        Opcode::ds_cmpst_f64 => dsa!(FCmpst, 8, false),
        Opcode::ds_cmpst_rtn_f64 => dsa!(FCmpst, 8, true),
        Opcode::ds_min_f64 => dsa!(FMin, 8, false),
        Opcode::ds_min_rtn_f64 => dsa!(FMin, 8, true),
        Opcode::ds_max_f64 => dsa!(FMax, 8, false),
        Opcode::ds_max_rtn_f64 => dsa!(FMax, 8, true),
        Opcode::ds_wrxchg_rtn_b64 => dsa!(Int(LdsOp::Write), 8, true),
        Opcode::ds_condxchg32_rtn_b64 => dsa!(Int(LdsOp::CondXchg), 8, true),
        Opcode::ds_write2_b64 => dsw!(Dw::Write2x64 { scale: 1 }),
        Opcode::ds_write2st64_b64 => dsw!(Dw::Write2x64 { scale: 64 }),
        Opcode::ds_read2_b64 => dsw!(Dw::Read2x64 { scale: 1 }),
        Opcode::ds_read2st64_b64 => dsw!(Dw::Read2x64 { scale: 64 }),
        Opcode::ds_write_addtid_b32 => dsw!(Dw::AddTid { write: true }),
        Opcode::ds_read_addtid_b32 => dsw!(Dw::AddTid { write: false }),
        Opcode::ds_permute_b32 => dsw!(Dw::Permute),
        Opcode::ds_write_b96 => Lower(|l, c| lds::ds(l, c, Ds::Write(3))),
        Opcode::ds_write_b128 => Lower(|l, c| lds::ds(l, c, Ds::Write(4))),
        Opcode::ds_read_b96 => Lower(|l, c| lds::ds(l, c, Ds::Read(3))),
        Opcode::ds_read_b128 => Lower(|l, c| lds::ds(l, c, Ds::Read(4))),
        Opcode::exp => Unlowered(EXPORT),
        Opcode::buffer_load_format_x => typed!(1, false, No),
        Opcode::buffer_load_format_xy => typed!(2, false, No),
        Opcode::buffer_load_format_xyz => typed!(3, false, No),
        Opcode::buffer_load_format_xyzw => typed!(4, false, No),
        Opcode::buffer_store_format_x => typed!(1, true, No),
        Opcode::buffer_store_format_xy => typed!(2, true, No),
        Opcode::buffer_store_format_xyz => typed!(3, true, No),
        Opcode::buffer_store_format_xyzw => typed!(4, true, No),
        Opcode::buffer_load_format_d16_x => typed!(1, false, Packed),
        Opcode::buffer_load_format_d16_xy => typed!(2, false, Packed),
        Opcode::buffer_load_format_d16_xyz => typed!(3, false, Packed),
        Opcode::buffer_load_format_d16_xyzw => typed!(4, false, Packed),
        Opcode::buffer_store_format_d16_x => typed!(1, true, Packed),
        Opcode::buffer_store_format_d16_xy => typed!(2, true, Packed),
        Opcode::buffer_store_format_d16_xyz => typed!(3, true, Packed),
        Opcode::buffer_store_format_d16_xyzw => typed!(4, true, Packed),
        Opcode::buffer_load_format_d16_hi_x => typed!(1, false, Hi),
        Opcode::buffer_store_format_d16_hi_x => typed!(1, true, Hi),
        Opcode::tbuffer_load_format_d16_x => {
            Lower(|l, c| mem_format::mtbuf_typed(l, c, 1, false, true))
        }
        Opcode::tbuffer_load_format_d16_xy => {
            Lower(|l, c| mem_format::mtbuf_typed(l, c, 2, false, true))
        }
        Opcode::tbuffer_load_format_d16_xyz => {
            Lower(|l, c| mem_format::mtbuf_typed(l, c, 3, false, true))
        }
        Opcode::tbuffer_load_format_d16_xyzw => {
            Lower(|l, c| mem_format::mtbuf_typed(l, c, 4, false, true))
        }
        Opcode::tbuffer_store_format_d16_x => {
            Lower(|l, c| mem_format::mtbuf_typed(l, c, 1, true, true))
        }
        Opcode::tbuffer_store_format_d16_xy => {
            Lower(|l, c| mem_format::mtbuf_typed(l, c, 2, true, true))
        }
        Opcode::tbuffer_store_format_d16_xyz => {
            Lower(|l, c| mem_format::mtbuf_typed(l, c, 3, true, true))
        }
        Opcode::tbuffer_store_format_d16_xyzw => {
            Lower(|l, c| mem_format::mtbuf_typed(l, c, 4, true, true))
        }
        Opcode::buffer_atomic_fcmpswap => Lower(|l, c| mem::mubuf(l, c, Vm::fcmpswap(false))),
        Opcode::flat_atomic_fcmpswap => Lower(|l, c| mem::flat_seg(l, c, Vm::fcmpswap(false))),
        Opcode::global_atomic_fcmpswap => Lower(|l, c| mem::global(l, c, Vm::fcmpswap(false))),
        Opcode::buffer_atomic_fcmpswap_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::fcmpswap(true))),
        Opcode::flat_atomic_fcmpswap_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::fcmpswap(true))),
        Opcode::global_atomic_fcmpswap_x2 => Lower(|l, c| mem::global(l, c, Vm::fcmpswap(true))),
        Opcode::buffer_atomic_fmin_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::fminmax64(false))),
        Opcode::buffer_atomic_fmax_x2 => Lower(|l, c| mem::mubuf(l, c, Vm::fminmax64(true))),
        Opcode::flat_atomic_fmin_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::fminmax64(false))),
        Opcode::flat_atomic_fmax_x2 => Lower(|l, c| mem::flat_seg(l, c, Vm::fminmax64(true))),
        Opcode::global_atomic_fmin_x2 => Lower(|l, c| mem::global(l, c, Vm::fminmax64(false))),
        Opcode::global_atomic_fmax_x2 => Lower(|l, c| mem::global(l, c, Vm::fminmax64(true))),
        Opcode::buffer_gl0_inv | Opcode::buffer_gl1_inv => Lower(integer::nop),
        Opcode::global_load_dword_addtid => Lower(|l, c| mem::addtid(l, c, false)),
        Opcode::global_store_dword_addtid => Lower(|l, c| mem::addtid(l, c, true)),
        Opcode::scratch_load_ubyte => Lower(|l, c| scratch(l, c, Vm::load(1, false))),
        Opcode::scratch_load_sbyte => Lower(|l, c| scratch(l, c, Vm::load(1, true))),
        Opcode::scratch_load_ushort => Lower(|l, c| scratch(l, c, Vm::load(2, false))),
        Opcode::scratch_load_sshort => Lower(|l, c| scratch(l, c, Vm::load(2, true))),
        Opcode::scratch_load_dword => Lower(|l, c| scratch(l, c, Vm::dwords(1))),
        Opcode::scratch_load_dwordx2 => Lower(|l, c| scratch(l, c, Vm::dwords(2))),
        Opcode::scratch_load_dwordx3 => Lower(|l, c| scratch(l, c, Vm::dwords(3))),
        Opcode::scratch_load_dwordx4 => Lower(|l, c| scratch(l, c, Vm::dwords(4))),
        Opcode::scratch_store_byte => Lower(|l, c| scratch(l, c, Vm::store(1, 1))),
        Opcode::scratch_store_byte_d16_hi => Lower(|l, c| scratch(l, c, Vm::store_hi(1))),
        Opcode::scratch_store_short => Lower(|l, c| scratch(l, c, Vm::store(2, 1))),
        Opcode::scratch_store_short_d16_hi => Lower(|l, c| scratch(l, c, Vm::store_hi(2))),
        Opcode::scratch_store_dword => Lower(|l, c| scratch(l, c, Vm::store(4, 1))),
        Opcode::scratch_store_dwordx2 => Lower(|l, c| scratch(l, c, Vm::store(4, 2))),
        Opcode::scratch_store_dwordx3 => Lower(|l, c| scratch(l, c, Vm::store(4, 3))),
        Opcode::scratch_store_dwordx4 => Lower(|l, c| scratch(l, c, Vm::store(4, 4))),
        Opcode::scratch_load_ubyte_d16 => Lower(|l, c| scratch(l, c, Vm::d16(1, false, D16::Lo))),
        Opcode::scratch_load_ubyte_d16_hi => {
            Lower(|l, c| scratch(l, c, Vm::d16(1, false, D16::Hi)))
        }
        Opcode::scratch_load_sbyte_d16 => Lower(|l, c| scratch(l, c, Vm::d16(1, true, D16::Lo))),
        Opcode::scratch_load_sbyte_d16_hi => Lower(|l, c| scratch(l, c, Vm::d16(1, true, D16::Hi))),
        Opcode::scratch_load_short_d16 => Lower(|l, c| scratch(l, c, Vm::d16(2, false, D16::Lo))),
        Opcode::scratch_load_short_d16_hi => {
            Lower(|l, c| scratch(l, c, Vm::d16(2, false, D16::Hi)))
        }

        Opcode::image_load => Lower(|l, c| image::image(l, c, Img::new(ImgOp::Load, false))),
        Opcode::image_load_mip => Lower(|l, c| image::image(l, c, Img::new(ImgOp::Load, true))),
        Opcode::image_load_pck => {
            Lower(|l, c| image::image(l, c, Img::new(ImgOp::LoadPck { sgn: false }, false)))
        }
        Opcode::image_load_pck_sgn => {
            Lower(|l, c| image::image(l, c, Img::new(ImgOp::LoadPck { sgn: true }, false)))
        }
        Opcode::image_load_mip_pck => {
            Lower(|l, c| image::image(l, c, Img::new(ImgOp::LoadPck { sgn: false }, true)))
        }
        Opcode::image_load_mip_pck_sgn => {
            Lower(|l, c| image::image(l, c, Img::new(ImgOp::LoadPck { sgn: true }, true)))
        }
        Opcode::image_store => Lower(|l, c| image::image(l, c, Img::new(ImgOp::Store, false))),
        Opcode::image_store_mip => Lower(|l, c| image::image(l, c, Img::new(ImgOp::Store, true))),
        Opcode::image_store_pck => {
            Lower(|l, c| image::image(l, c, Img::new(ImgOp::StorePck, false)))
        }
        Opcode::image_store_mip_pck => {
            Lower(|l, c| image::image(l, c, Img::new(ImgOp::StorePck, true)))
        }
        Opcode::image_get_resinfo => Lower(image::resinfo),
        Opcode::image_atomic_swap => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::Write)),
        Opcode::image_atomic_cmpswap => lower!(image_atomic::atomic, ImgAtomic::CmpSwap),
        Opcode::image_atomic_add => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::Add)),
        Opcode::image_atomic_sub => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::Sub)),
        Opcode::image_atomic_smin => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::MinI)),
        Opcode::image_atomic_umin => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::MinU)),
        Opcode::image_atomic_smax => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::MaxI)),
        Opcode::image_atomic_umax => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::MaxU)),
        Opcode::image_atomic_and => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::And)),
        Opcode::image_atomic_or => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::Or)),
        Opcode::image_atomic_xor => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::Xor)),
        Opcode::image_atomic_inc => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::Inc)),
        Opcode::image_atomic_dec => lower!(image_atomic::atomic, ImgAtomic::Int(LdsOp::Dec)),
        Opcode::image_atomic_fcmpswap => lower!(image_atomic::atomic, ImgAtomic::FCmpSwap),
        Opcode::image_atomic_fmin => {
            lower!(image_atomic::atomic, ImgAtomic::FMinMax { max: false })
        }
        Opcode::image_atomic_fmax => lower!(image_atomic::atomic, ImgAtomic::FMinMax { max: true }),
        Opcode::image_get_lod => Lower(image_get_lod::get_lod),
        Opcode::image_gather4h => Lower(image_group::gather4h),
        Opcode::image_msaa_load => Unlowered(MSAA),
        Opcode::image_bvh_intersect_ray | Opcode::image_bvh64_intersect_ray => Unlowered(BVH),
        Opcode::image_sample_b
        | Opcode::image_sample_b_o
        | Opcode::image_sample_b_cl
        | Opcode::image_sample_b_cl_o
        | Opcode::image_sample_c_b
        | Opcode::image_sample_c_b_o
        | Opcode::image_sample_c_b_cl
        | Opcode::image_sample_c_b_cl_o
        | Opcode::image_gather4_b
        | Opcode::image_gather4_b_o
        | Opcode::image_gather4_b_cl
        | Opcode::image_gather4_b_cl_o
        | Opcode::image_gather4_c_b
        | Opcode::image_gather4_c_b_o
        | Opcode::image_gather4_c_b_cl
        | Opcode::image_gather4_c_b_cl_o
        | Opcode::image_sample_d
        | Opcode::image_sample_d_o
        | Opcode::image_sample_d_cl
        | Opcode::image_sample_d_cl_o
        | Opcode::image_sample_c_d
        | Opcode::image_sample_c_d_o
        | Opcode::image_sample_c_d_cl
        | Opcode::image_sample_c_d_cl_o
        | Opcode::image_sample_d_g16
        | Opcode::image_sample_d_o_g16
        | Opcode::image_sample_d_cl_g16
        | Opcode::image_sample_d_cl_o_g16
        | Opcode::image_sample_c_d_g16
        | Opcode::image_sample_c_d_o_g16
        | Opcode::image_sample_c_d_cl_g16
        | Opcode::image_sample_c_d_cl_o_g16
        | Opcode::image_sample_cd
        | Opcode::image_sample_cd_o
        | Opcode::image_sample_cd_cl
        | Opcode::image_sample_cd_cl_o
        | Opcode::image_sample_c_cd
        | Opcode::image_sample_c_cd_o
        | Opcode::image_sample_c_cd_cl
        | Opcode::image_sample_c_cd_cl_o
        | Opcode::image_sample_cd_g16
        | Opcode::image_sample_cd_o_g16
        | Opcode::image_sample_cd_cl_g16
        | Opcode::image_sample_cd_cl_o_g16
        | Opcode::image_sample_c_cd_g16
        | Opcode::image_sample_c_cd_o_g16
        | Opcode::image_sample_c_cd_cl_g16
        | Opcode::image_sample_c_cd_cl_o_g16
        | Opcode::image_sample_lz
        | Opcode::image_sample_lz_o
        | Opcode::image_sample
        | Opcode::image_sample_l
        | Opcode::image_sample_cl
        | Opcode::image_sample_o
        | Opcode::image_sample_l_o
        | Opcode::image_sample_cl_o
        | Opcode::image_sample_c
        | Opcode::image_sample_c_l
        | Opcode::image_sample_c_cl
        | Opcode::image_sample_c_o
        | Opcode::image_sample_c_l_o
        | Opcode::image_sample_c_cl_o
        | Opcode::image_gather4
        | Opcode::image_gather4_l
        | Opcode::image_gather4_cl
        | Opcode::image_gather4_o
        | Opcode::image_gather4_l_o
        | Opcode::image_gather4_cl_o
        | Opcode::image_sample_c_lz
        | Opcode::image_sample_c_lz_o
        | Opcode::image_gather4_c
        | Opcode::image_gather4_c_cl
        | Opcode::image_gather4_c_l
        | Opcode::image_gather4_c_lz
        | Opcode::image_gather4_c_o
        | Opcode::image_gather4_c_cl_o
        | Opcode::image_gather4_c_l_o
        | Opcode::image_gather4_c_lz_o
        | Opcode::image_gather4_lz
        | Opcode::image_gather4_lz_o => Lower(image_sample::sample_named),
        Opcode::image_gather4h_pck => Lower(image_group::gather4h_pck),
        Opcode::image_gather8h_pck => Lower(image_group::gather8h_pck),
        Opcode::image_load_by2 => lower!(image_group::group, Group::by(2, false)),
        Opcode::image_load_by4 => lower!(image_group::group, Group::by(4, false)),
        Opcode::image_load_mip_by2 => lower!(image_group::group, Group::by(2, true)),
        Opcode::image_load_mip_by4 => lower!(image_group::group, Group::by(4, true)),
        Opcode::image_load_pck2 => lower!(image_group::group, Group::pck(2, false)),
        Opcode::image_load_pck4 => lower!(image_group::group, Group::pck(4, false)),
        Opcode::image_load_mip_pck2 => lower!(image_group::group, Group::pck(2, true)),
        Opcode::image_load_mip_pck4 => lower!(image_group::group, Group::pck(4, true)),
        Opcode::image_store_by2
        | Opcode::image_store_by4
        | Opcode::image_store_mip_by2
        | Opcode::image_store_mip_by4 => Unlowered(BY_STORE),
        Opcode::image_store_pck2
        | Opcode::image_store_pck4
        | Opcode::image_store_mip_pck2
        | Opcode::image_store_mip_pck4 => Unlowered(PCK_STORE),
    }
}

/// v_fma_legacy_f32 / v_fmac_legacy_f32 (`accumulate`): gfx1010 and gfx1013 name them
/// v_mad_legacy_f32 / v_mac_legacy_f32 and round the product separately (rule: legacy-mad);
/// gfx103x fuses them.
fn legacy_fma(gfx: Target, accumulate: bool) -> Rule {
    match (gfx.is_rdna1(), accumulate) {
        (true, false) => Lower(|l, c| arithmetic::fma_f32(l, c, Arith::MadLegacy, false)),
        (true, true) => Lower(|l, c| arithmetic::fma_f32(l, c, Arith::MadLegacy, true)),
        (false, false) => Lower(|l, c| arithmetic::fma_f32(l, c, Arith::FmaLegacy, false)),
        (false, true) => Lower(|l, c| arithmetic::fma_f32(l, c, Arith::FmaLegacy, true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::tests::run_in;
    use rdnaprobe_isa::FloatMode;

    #[test]
    fn legacy_multiply_add_follows_the_target() {
        // (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46 exactly; a separately rounded product gives 0
        let t = "v_fma_legacy_f32 v10, v4, v5, v6";
        let i = [0x3f80_0001, 0x3f80_0001, 0xbf80_0002, 0, 0, 0];
        let fused = run_in(t, FloatMode::DEFAULT, Target::Gfx1030, i, 0)[0];
        let separate = run_in(t, FloatMode::DEFAULT, Target::Gfx1010, i, 0)[0];
        assert_eq!((fused, separate), (0x2880_0000, 0));
    }

    #[test]
    fn fused_legacy_fma_flushes_its_sources_in_every_mode() {
        // denorm32 = 3 keeps f32 denormals, but not the legacy sources: a denormal factor
        // reads as zero (the legacy zero rule then gives +0), where v_fma_f32 keeps it
        let kept = FloatMode {
            denorm32: 3,
            ..FloatMode::DEFAULT
        };
        let i = [0x0000_0001, 0x7180_0000, 0, 0, 0, 0]; // 2^-149, 2^100
        let legacy = "v_fma_legacy_f32 v10, v4, v5, v6";
        let fma = "v_fma_f32 v10, v4, v5, v6";
        assert_eq!(run_in(legacy, kept, Target::Gfx1030, i, 0)[0], 0);
        assert_eq!(run_in(fma, kept, Target::Gfx1030, i, 0)[0], 0x2700_0000);
        // a denormal addend is flushed too; the denormal result of normal sources is kept
        let i = [0x3f00_0000, 0x0080_0000, 0x0000_0001, 0, 0, 0];
        assert_eq!(run_in(legacy, kept, Target::Gfx1030, i, 0)[0], 0x0040_0000);
        assert_eq!(run_in(fma, kept, Target::Gfx1030, i, 0)[0], 0x0040_0001);
        let fmac = "v_fmac_legacy_f32 v10, v4, v5";
        let i = [0x0000_0001, 0x7180_0000, 0, 0, 0, 0];
        assert_eq!(run_in(fmac, kept, Target::Gfx1030, i, 0)[0], 0);
    }

    #[test]
    fn no_target_changes_the_control_flow() {
        for op in Opcode::ALL {
            for gfx in Target::ALL {
                let f = match rule(op, gfx) {
                    Rule::Flow(f) => Some(f),
                    Rule::Lower(_) | Rule::Unlowered(_) => None,
                };
                assert_eq!(f, flow(op), "{op} on {gfx}");
            }
        }
        assert_eq!(
            flow(Opcode::s_cbranch_vccz),
            Some(Flow::Branch(Branch::Vccz))
        );
        assert_eq!(flow(Opcode::v_nop), None);
    }

    #[test]
    fn the_reason_is_the_error_of_an_unlowered_opcode() {
        let Rule::Unlowered(reason) = rule(Opcode::ds_gws_init, Target::Gfx1030) else {
            panic!("ds_gws_init has a lowering");
        };
        assert_eq!(reason, GWS);
        assert!(matches!(
            rule(Opcode::v_add_f32, Target::Gfx1030),
            Rule::Lower(_)
        ));
        assert!(matches!(
            rule(Opcode::image_msaa_load, Target::Gfx1030),
            Rule::Unlowered(MSAA)
        ));
    }
}
