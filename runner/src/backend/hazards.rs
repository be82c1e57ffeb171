//! Instruction and resource combinations known to hang or fault a gfx103x GPU: `hip` refuses a
//! wave that runs one unless the user passes `--allow-hazards`, so a sweep cannot take the GPU
//! down by accident (the watchdog worker still keeps a hung kernel a row error when it is
//! allowed). Each entry says where it was seen; the list is data, checked against the decoded
//! body and the T# the wave's `s_in` gives (a T# the body builds itself is not seen here).

use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::{Decoded, Family};

/// One hazard: a MIMG opcode, the image formats it hangs on (`None`: every format), why.
pub struct Hazard {
    pub family: Family,
    pub opcode: u16,
    pub formats: Option<&'static [u32]>,
    pub reason: &'static str,
}

/// The known hazards.
pub const HAZARDS: &[Hazard] = &[Hazard {
    family: Family::MIMG,
    opcode: 0x76,
    formats: Some(&[77]),
    reason: "image_store_pck2 (MIMG opcode 0x76) on a 32_32_32_32_FLOAT image (format 77) hung \
             the GPU (reference notes, the PCK2/PCK4 entry, #1314)",
}];

/// Why `words`, with the SGPR inputs `sgprs` (s0.., the wave's `s_in`), must not run on a GPU
/// without `--allow-hazards`, or `None`.
pub fn refusal(words: &[u32], sgprs: &[u32]) -> Option<String> {
    let body = rdnaprobe_isa::decode_stream(words).ok()?;
    body.iter().find_map(|d| {
        let Decoded::Inst(i) = d else { return None };
        let info = i.info();
        let h = HAZARDS
            .iter()
            .find(|h| h.family == info.family && h.opcode == info.opcode)?;
        let format = || {
            let srsrc = 4 * i.field(Field::Srsrc) as usize;
            sgprs.get(srsrc + 1).map(|w1| w1 >> 20 & 0x1ff)
        };
        let hit = match h.formats {
            None => true,
            // a T# the rows do not give (past s_in, or built by the body) may be the one
            Some(fs) => format().is_none_or(|f| fs.contains(&f)),
        };
        hit.then(|| {
            format!(
                "{}: {}; pass --allow-hazards to run it anyway (docs/oracle.md, Hazards)",
                info.mnemonic, h.reason
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t_sharp_format(fmt: u32) -> Vec<u32> {
        let mut s = vec![0u32; 16];
        s[9] = fmt << 20; // T# word1 at s[8:15]
        s
    }

    #[test]
    fn the_pck2_store_on_rgba32_float_is_refused_and_other_formats_are_not() {
        let asm = |t: &str| rdnaprobe_isa::assemble(t).unwrap();
        let words = asm("image_store v0, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm");
        // the hardware-only opcode 0x76, in the project's spelling (docs/isa.md)
        let pck2 = asm("image_store_pck2 v0, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm");
        assert_eq!(pck2[0] >> 18 & 0x7f, 0x76);
        let why = refusal(&pck2, &t_sharp_format(77)).expect("a hazard");
        assert!(
            why.contains("image_store_pck2") && why.contains("hung"),
            "{why}"
        );
        assert!(why.contains("--allow-hazards"), "{why}");
        assert_eq!(
            refusal(&pck2, &t_sharp_format(56)),
            None,
            "RGBA8 is not listed"
        );
        assert_eq!(
            refusal(&words, &t_sharp_format(77)),
            None,
            "image_store is not listed"
        );
        // a T# past s_in may be the listed one
        assert!(refusal(&pck2, &[]).is_some());
    }
}
