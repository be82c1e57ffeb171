//! [`Kernel::validate`]: the IR's invariants (module docs of [`crate::ir`]), checked before a
//! kernel is run or emitted.

use super::*;

impl Kernel {
    /// Checks the invariants listed in the module docs.
    pub fn validate(&self) -> Result<(), IrError> {
        use Ty::*;
        if self.outputs.len() != 16 {
            return Err(IrError::OutputCount(self.outputs.len()));
        }
        for (i, e) in self.exprs.iter().enumerate() {
            let at = Handle(i as u32);
            for op in Kernel::operands(e) {
                if op.0 >= at.0 {
                    return Err(IrError::ForwardReference { at, operand: op });
                }
            }
            let bad = |what: String| Err(IrError::Type { at, what });
            let t = |h: Handle| self.ty(h);
            match *e {
                Expr::IntBin { a, b, .. } => {
                    if !matches!(t(a), U32 | U64) || t(a) != t(b) {
                        return bad(format!("integer op on {:?}, {:?}", t(a), t(b)));
                    }
                }
                Expr::IntUn { a, .. } => {
                    if !matches!(t(a), U32 | U64) {
                        return bad(format!("integer op on {:?}", t(a)));
                    }
                }
                Expr::IntCmp { a, b, .. } => {
                    if !matches!(t(a), U32 | U64) || t(a) != t(b) {
                        return bad(format!("integer compare on {:?}, {:?}", t(a), t(b)));
                    }
                }
                Expr::FloatBin { a, b, .. } | Expr::FloatCmp { a, b, .. } => {
                    if !matches!(t(a), F32 | F64) || t(a) != t(b) {
                        return bad(format!("float op on {:?}, {:?}", t(a), t(b)));
                    }
                }
                Expr::Fma { a, b, c } => {
                    if !matches!(t(a), F32 | F64) || t(a) != t(b) || t(a) != t(c) {
                        return bad("fma operand types differ".into());
                    }
                }
                Expr::FloatUn { a, .. } => {
                    if !matches!(t(a), F32 | F64) {
                        return bad(format!("float op on {:?}", t(a)));
                    }
                }
                Expr::BoolAnd(a, b) | Expr::BoolOr(a, b) => {
                    if t(a) != Bool || t(b) != Bool {
                        return bad("boolean op on non-Bool".into());
                    }
                }
                Expr::BoolNot(a) => {
                    if t(a) != Bool {
                        return bad("boolean op on non-Bool".into());
                    }
                }
                Expr::Select { cond, a, b } => {
                    if t(cond) != Bool || t(a) != t(b) {
                        return bad("select types".into());
                    }
                }
                Expr::Pack64 { lo, hi } => {
                    if t(lo) != U32 || t(hi) != U32 {
                        return bad("pack64 of non-U32".into());
                    }
                }
                Expr::Convert { op, a, to } => {
                    let ok = match op {
                        Convert::ZextU32 | Convert::SextU32 => t(a) == U32 && to == U64,
                        Convert::TruncU64 => t(a) == U64 && to == U32,
                        Convert::BoolToU32 => t(a) == Bool && to == U32,
                        Convert::Bitcast => matches!(
                            (t(a), to),
                            (U32, F32) | (F32, U32) | (U64, F64) | (F64, U64)
                        ),
                        Convert::F32ToF64 => t(a) == F32 && to == F64,
                        Convert::F64ToF32 => t(a) == F64 && to == F32,
                        Convert::S32ToF64 | Convert::U32ToF64 => t(a) == U32 && to == F64,
                        Convert::F64ToS32 | Convert::F64ToU32 => t(a) == F64 && to == U32,
                    };
                    if !ok {
                        return bad(format!("{op:?} from {:?} to {to:?}", t(a)));
                    }
                }
                Expr::WaveBallot(a) => {
                    if t(a) != Bool {
                        return bad("ballot of non-Bool".into());
                    }
                }
                Expr::WaveRead { value, lane } => {
                    if t(value) != U32 || t(lane) != U32 {
                        return bad("wave read of non-U32".into());
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
                    let dt = if bytes == 8 { U64 } else { U32 };
                    let at = match space {
                        Space::Lds => U32,
                        Space::Region | Space::RegionSwizzled => U64,
                    };
                    if t(addr) != at || t(data) != dt || t(active) != Bool {
                        return bad(format!(
                            "{space:?} access operands are a {at:?} address, data of the width, \
                             Bool active"
                        ));
                    }
                    if data2.is_some_and(|d| t(d) != dt) || cmp.is_some_and(|c| t(c) != dt) {
                        return bad("a second data or compare operand of another width".into());
                    }
                    if data2.is_some() != LdsOp::two_operand(op) {
                        return bad(format!("{op:?} with a second data operand: {data2:?}"));
                    }
                    let fcmp = matches!(op, LdsOp::FCmpSwap { .. });
                    let swap = matches!(op, LdsOp::Write | LdsOp::FCmpSwap { .. });
                    if (cmp.is_some() && (!swap || bytes < 4 || space == Space::Lds))
                        || (fcmp && cmp.is_none())
                    {
                        return bad("a compare-and-swap is a 4- or 8-byte region Write".into());
                    }
                    if space.is_region() && LdsOp::lds_only(op) {
                        return bad(format!("{op:?} is an LDS-only operation"));
                    }
                    let plain = matches!(op, LdsOp::Read | LdsOp::Write);
                    let float32 = matches!(op, LdsOp::FAdd { .. } | LdsOp::Csub);
                    let ok = match (space, bytes) {
                        (_, 1 | 2) => plain,
                        (Space::Lds, 4) => op != LdsOp::CondXchg,
                        (Space::Lds, 8) => !float32 && op != LdsOp::Wrap,
                        (Space::Region, 4) => true,
                        (Space::Region, 8) => op != LdsOp::Read,
                        (Space::RegionSwizzled, 4) => plain && cmp.is_none(),
                        _ => false,
                    };
                    if !ok {
                        return bad(format!("a {bytes}-byte {space:?} {op:?}"));
                    }
                }
                Expr::SgprIn(i) => {
                    if usize::from(i) >= rdnaprobe_contract::SGPR_INPUTS
                        || rdnaprobe_contract::CONTRACT_SGPRS.contains(&usize::from(i))
                    {
                        return bad(format!(
                            "SGPR input s{i} (s0..s15 and s24..s103 exist; s16..s23 are the \
                             contract's)"
                        ));
                    }
                }
                Expr::Image(ref a) => {
                    let Some(img) = self.images.get(usize::from(a.image)) else {
                        return bad(format!(
                            "image {} of a kernel with {}",
                            a.image,
                            self.images.len()
                        ));
                    };
                    let write = matches!(a.op, crate::ir::ImageOp::Write { .. });
                    if write != img.storage {
                        return bad(format!(
                            "image {}: {} a {}storage image",
                            a.image,
                            if write { "a write to" } else { "a read of" },
                            if img.storage { "" } else { "non-" }
                        ));
                    }
                    let fetch = matches!(
                        a.op,
                        crate::ir::ImageOp::Fetch(_) | crate::ir::ImageOp::Write { .. }
                    );
                    let want = if fetch { U32 } else { F32 };
                    if let Some(&c) = a.coords.iter().find(|&&c| t(c) != want) {
                        return bad(format!("image coordinate {c} is {:?}, not {want:?}", t(c)));
                    }
                    let extra = match a.op {
                        crate::ir::ImageOp::SampleLod(h) => vec![(h, F32)],
                        crate::ir::ImageOp::Fetch(h) => vec![(h, U32)],
                        crate::ir::ImageOp::SampleDref { reference, lod } => {
                            vec![(reference, F32), (lod, F32)]
                        }
                        crate::ir::ImageOp::SampleGrad {
                            ref dx,
                            ref dy,
                            min_lod,
                        } => dx
                            .iter()
                            .chain(dy)
                            .chain(min_lod.iter())
                            .map(|&h| (h, F32))
                            .collect(),
                        crate::ir::ImageOp::Gather(_) => vec![],
                        crate::ir::ImageOp::GatherOffset(_, o) => {
                            o.iter().map(|&h| (h, U32)).collect()
                        }
                        crate::ir::ImageOp::Write { ref data, active } => {
                            if data.len() != 4 {
                                return bad(format!("an image write of {} components", data.len()));
                            }
                            let mut v: Vec<(Handle, Ty)> = data.iter().map(|&h| (h, U32)).collect();
                            v.push((active, Ty::Bool));
                            v
                        }
                    };
                    if let Some(&(h, ty)) = extra.iter().find(|&&(h, ty)| t(h) != ty) {
                        return bad(format!("image operand {h} is {:?}, not {ty:?}", t(h)));
                    }
                    if a.component > 3
                        || img.depth != matches!(a.op, crate::ir::ImageOp::SampleDref { .. })
                    {
                        return bad(format!(
                            "image {}: component {} of a {}depth image",
                            a.image,
                            a.component,
                            if img.depth { "" } else { "non-" }
                        ));
                    }
                }
                Expr::Const { .. }
                | Expr::Input(_)
                | Expr::LaneId
                | Expr::ExecIn
                | Expr::Var(_) => {}
            }
        }
        for &o in &self.outputs {
            if o.index() >= self.exprs.len() || self.ty(o) != U32 {
                return Err(IrError::Type {
                    at: o,
                    what: "output is not a defined U32".into(),
                });
            }
        }
        if let Some(u) = &self.uniform {
            let want = u.sgprs.iter().map(|&h| (h, U32));
            let want = want.chain([(u.exec, U64), (u.vcc, U64), (u.scc, Bool)]);
            for (h, ty) in want {
                if h.index() >= self.exprs.len() || self.ty(h) != ty {
                    return Err(IrError::Type {
                        at: h,
                        what: format!("uniform output is not a defined {ty:?}"),
                    });
                }
            }
            if u.sgprs.len() != 16 {
                return Err(IrError::OutputCount(u.sgprs.len()));
            }
        }
        self.validate_blocks()
    }
}
