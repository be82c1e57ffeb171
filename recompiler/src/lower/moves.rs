//! Register moves that are not a plain result write: v_swap_b32 exchanges two VGPRs. The
//! M0-relative moves live in `movrel`; their tests stay here.

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use rdnaprobe_isa::{Operand, RegKind};

/// The index of a VGPR operand.
pub(super) fn vgpr_index(op: &Operand, what: &str) -> RuleResult<u16> {
    match *op {
        Operand::Reg(r) if r.kind == RegKind::Vgpr => Ok(r.index),
        _ => Err(RuleError::operand(format!("{what} is not a VGPR"))),
    }
}

/// The destination and first source operands; SDWA forms are refused.
pub(super) fn dst_src(l: &Lowerer, c: &Ctx) -> RuleResult<(Operand, Operand)> {
    if c.mods.sdwa.is_some() {
        return Err(RuleError::modifier(
            "SDWA on a register move is not modelled",
        ));
    }
    let dsts = c.inst.dsts(l.wave);
    let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
    let s = l.src_op(c, 0)?;
    Ok((d, s))
}

/// v_swap_b32: D = S0 and S0 = D, both VGPRs, under EXEC.
pub(super) fn swap(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let (d, s) = dst_src(l, c)?;
    let di = vgpr_index(&d, "the destination")?;
    let si = vgpr_index(&s, "source 0")?;
    let dv = l.vgpr_get(di);
    let sv = l.vgpr_get(si);
    l.vgpr_set(di, sv);
    l.vgpr_set(si, dv);
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
    fn a_non_constant_m0_is_refused_and_past_v255_follows_the_window_rule() {
        let lower = |t: &str| {
            let words = assemble(t).expect("assembles");
            crate::lower::lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030)
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        let e = lower("v_cmp_eq_u32 vcc_lo, v4, v5\ns_mov_b32 m0, vcc_lo\nv_movrels_b32 v10, v4");
        assert!(e.unwrap_err().contains("M0"));
        // v4 + 0xfc = v256: reads v0; a write there is dropped
        let t = "v_mov_b32 v0, 77\ns_mov_b32 m0, 0xfc\nv_movrels_b32 v10, v4";
        assert_eq!(run(t, [1; 6], 0)[0], 77);
        let t = "s_mov_b32 m0, 0xf6\nv_movreld_b32 v10, v4\nv_mov_b32 v11, v0";
        assert_eq!(run(t, [5; 6], 0)[..2], [0, 0]);
        let t = "s_mov_b32 m0, 0xf5\nv_movreld_b32 v10, v4";
        assert_eq!(run(t, [5; 6], 0)[0], 0, "v255 is written, v10 is not");
    }
}
