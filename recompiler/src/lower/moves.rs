//! Register moves that are not a plain result write: v_swap_b32 exchanges two VGPRs, and the
//! M0-relative moves (v_movrels/movreld/movrelsd/movrelsd_2/swaprel_b32) address a VGPR at a
//! base plus M0. Under the lane contract M0 is 0 unless the body writes it, and a body writes
//! it only with a lowered scalar move, so M0 is a lowering-time constant whenever it is built
//! from constants; an M0 computed from lane values is refused.

use super::operands::Ctx;
use super::Lowerer;
use crate::ir::Expr;
use rdnaprobe_isa::{Opcode, Operand, RegKind};

/// The index of a VGPR operand.
fn vgpr_index(op: &Operand, what: &str) -> Result<u16, String> {
    match *op {
        Operand::Reg(r) if r.kind == RegKind::Vgpr => Ok(r.index),
        _ => Err(format!("{what} is not a VGPR")),
    }
}

impl Lowerer {
    /// M0 when it is a constant at lowering time.
    fn m0_const(&mut self) -> Result<u32, String> {
        let h = self.sgpr_get(124);
        match self.b.k.exprs[h.index()] {
            Expr::Const { bits, .. } => Ok(bits as u32),
            _ => Err("M0 is not a constant at lowering time".into()),
        }
    }
}

/// The destination and first source operands; SDWA forms are refused.
fn dst_src(l: &Lowerer, c: &Ctx) -> Result<(Operand, Operand), String> {
    if c.mods.sdwa.is_some() {
        return Err("SDWA on a register move is not modelled".into());
    }
    let dsts = c.inst.dsts(l.wave);
    let d = *dsts.first().ok_or("no destination")?;
    let s = l.src_op(c, 0)?;
    Ok((d, s))
}

/// VGPR `base + offset`, refused past v255.
fn relative(base: u16, offset: u32) -> Result<u16, String> {
    let r = u32::from(base) + offset;
    if r > 255 {
        return Err(format!("M0-relative register v{r} is past v255"));
    }
    Ok(r as u16)
}

/// v_swap_b32: D = S0 and S0 = D, both VGPRs, under EXEC.
pub(super) fn swap(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    let (d, s) = dst_src(l, c)?;
    let di = vgpr_index(&d, "the destination")?;
    let si = vgpr_index(&s, "source 0")?;
    let dv = l.vgpr_get(di);
    let sv = l.vgpr_get(si);
    l.vgpr_set(di, sv);
    l.vgpr_set(si, dv);
    Ok(())
}

/// rule: movrel-m0: v_movrels_b32 (D = VGPR[S0 + M0]), v_movreld_b32 (VGPR[D + M0] = S0),
/// v_movrelsd_b32 (VGPR[D + M0] = VGPR[S0 + M0]), v_movrelsd_2_b32 (VGPR[D + M0[25:16]] =
/// VGPR[S0 + M0[9:0]]) and v_swaprel_b32 (the same two registers exchanged), with M0 a
/// lowering-time constant.
pub(super) fn movrel(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    let (d, s) = dst_src(l, c)?;
    let m0 = l.m0_const()?;
    let di = vgpr_index(&d, "the destination")?;
    let (src_off, dst_off) = match c.op {
        Opcode::v_movrels_b32 => (m0, 0),
        Opcode::v_movreld_b32 => (0, m0),
        Opcode::v_movrelsd_b32 => (m0, m0),
        _ => (m0 & 0x3ff, (m0 >> 16) & 0x3ff),
    };
    let dr = relative(di, dst_off)?;
    let v = if c.op == Opcode::v_movreld_b32 {
        l.read32(&s)?
    } else {
        let si = vgpr_index(&s, "source 0")?;
        let sr = relative(si, src_off)?;
        if c.op == Opcode::v_swaprel_b32 {
            let dv = l.vgpr_get(dr);
            let sv = l.vgpr_get(sr);
            l.vgpr_set(dr, sv);
            l.vgpr_set(sr, dv);
            return Ok(());
        }
        l.vgpr_get(sr)
    };
    l.vgpr_set(dr, v);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::run;
    use rdnaprobe_isa::{assemble, FloatMode, Target, Wave};

    #[test]
    fn swap_exchanges_two_registers() {
        let t = "v_mov_b32 v10, v4\nv_mov_b32 v11, v5\nv_swap_b32 v10, v11";
        let o = run(t, [1, 2, 0, 0, 0, 0], 0);
        assert_eq!((o[0], o[1]), (2, 1));
    }

    #[test]
    fn relative_moves_add_m0() {
        let i = [10, 11, 12, 13, 14, 15];
        // M0 = 0 under the lane contract: v_movrels reads v4 itself
        assert_eq!(run("v_movrels_b32 v10, v4", i, 0)[0], 10);
        let t = "s_mov_b32 m0, 2\nv_movrels_b32 v10, v4";
        assert_eq!(run(t, i, 0)[0], 12);
        let t = "s_mov_b32 m0, 3\nv_movreld_b32 v10, v4";
        let o = run(t, i, 0);
        assert_eq!((o[0], o[3]), (0, 10));
        let t = "s_mov_b32 m0, 1\nv_movrelsd_b32 v10, v4";
        assert_eq!(run(t, i, 0)[1], 11);
        // _2 and swaprel: source offset M0[9:0], destination offset M0[25:16]
        let t = "s_mov_b32 m0, 0x20005\nv_movrelsd_2_b32 v10, v4";
        assert_eq!(run(t, i, 0)[2], 15);
        let t = "s_mov_b32 m0, 0x10001\nv_mov_b32 v11, 7\nv_swaprel_b32 v10, v4";
        let o = run(t, i, 0);
        assert_eq!(o[1], 11); // v11 = old v5
                              // ... and v5 got the old v11: read it back through v12
        let t = "s_mov_b32 m0, 0x10001\nv_mov_b32 v11, 7\nv_swaprel_b32 v10, v4\n\
                 v_mov_b32 v12, v5";
        assert_eq!(run(t, i, 0)[2], 7);
    }

    #[test]
    fn a_non_constant_m0_or_a_register_past_v255_is_refused() {
        let lower = |t: &str| {
            let words = assemble(t).expect("assembles");
            crate::lower::lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030)
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        let e = lower("v_cmp_eq_u32 vcc_lo, v4, v5\ns_mov_b32 m0, vcc_lo\nv_movrels_b32 v10, v4");
        assert!(e.unwrap_err().contains("M0"));
        let e = lower("s_mov_b32 m0, 0x100\nv_movreld_b32 v10, v4");
        assert!(e.unwrap_err().contains("past v255"));
    }
}
