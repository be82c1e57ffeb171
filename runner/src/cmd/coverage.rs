//! `rdnaprobe coverage`: how much of the instruction table the recompiler lowers, per encoding
//! family, and why each other opcode has no lowering. Both come from the lowering's dispatch
//! (one rule per opcode), so the figures cannot disagree with what `replay` can run.

use std::io::Write;
use std::process::ExitCode;

use super::TableOrJson;

use rdnaprobe_isa::{table, Family, Target};

#[derive(clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableOrJson::Table)]
    pub format: TableOrJson,
    // The target whose mnemonics and rules are reported.
    #[command(flatten)]
    pub gfx: super::args::Gfx,
}

/// Lowered and total opcodes of one family.
#[derive(Debug, PartialEq, Eq, serde::Serialize)]
pub struct FamilyCoverage {
    pub family: Family,
    pub lowered: usize,
    pub total: usize,
}

/// An opcode with no lowering.
#[derive(Debug, PartialEq, Eq, serde::Serialize)]
pub struct Unlowered {
    pub mnemonic: &'static str,
    pub family: Family,
    pub reason: &'static str,
}

#[derive(Debug, serde::Serialize)]
pub struct Coverage {
    /// Every family of the table, in encoding order.
    pub families: Vec<FamilyCoverage>,
    /// In table order (family, then opcode number).
    pub unlowered: Vec<Unlowered>,
}

/// The coverage of the table on `gfx`.
pub fn coverage(gfx: Target) -> Coverage {
    let mut families: Vec<FamilyCoverage> = Family::ALL
        .iter()
        .map(|&family| FamilyCoverage {
            family,
            lowered: 0,
            total: 0,
        })
        .collect();
    let mut unlowered = Vec::new();
    for row in &table().rows {
        let Some(f) = families.iter_mut().find(|f| f.family == row.family) else {
            continue;
        };
        f.total += 1;
        match rdnaprobe_recompiler::unlowered_reason(row.op(), gfx) {
            None => f.lowered += 1,
            Some(reason) => unlowered.push(Unlowered {
                mnemonic: row.mnemonic_for(gfx),
                family: row.family,
                reason,
            }),
        }
    }
    Coverage {
        families,
        unlowered,
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let report = coverage(args.gfx.gfx);
    super::print_report(args.format, &report, write_table)
}

fn write_table(out: &mut impl Write, c: &Coverage) -> std::io::Result<()> {
    writeln!(out, "{:<8} {:>7} {:>6}", "family", "lowered", "total")?;
    let (mut lowered, mut total) = (0, 0);
    for f in &c.families {
        writeln!(
            out,
            "{:<8} {:>7} {:>6}",
            f.family.name(),
            f.lowered,
            f.total
        )?;
        lowered += f.lowered;
        total += f.total;
    }
    writeln!(out, "{:<8} {:>7} {:>6}", "all", lowered, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_to_the_table() {
        let c = coverage(Target::Gfx1030);
        let total: usize = c.families.iter().map(|f| f.total).sum();
        let lowered: usize = c.families.iter().map(|f| f.lowered).sum();
        assert_eq!(total, table().rows.len());
        assert_eq!(total - lowered, c.unlowered.len());
        let vop2 = c
            .families
            .iter()
            .find(|f| f.family == Family::VOP2)
            .unwrap();
        assert!(vop2.lowered > 0 && vop2.lowered <= vop2.total, "{vop2:?}");
        let mimg = c
            .families
            .iter()
            .find(|f| f.family == Family::MIMG)
            .unwrap();
        // the image loads, stores, image_get_resinfo, atomics, group loads, the horizontal
        // gathers, every sample and gather4 form and image_get_lod; MSAA, BVH and the BY and
        // PCK2/PCK4 stores are not
        assert_eq!(mimg.lowered, 119, "{mimg:?}");
        assert!(!c.unlowered.iter().any(|u| u.mnemonic == "image_get_lod"));
        assert!(c.unlowered.iter().any(|u| u.mnemonic == "image_msaa_load"));
        assert!(!c.unlowered.iter().any(|u| u.mnemonic == "image_sample_lz"));
        assert!(!c.unlowered.iter().any(|u| u.mnemonic == "image_load_mip"));
        assert!(c.unlowered.iter().any(|u| u.mnemonic == "ds_gws_init"));
        assert!(!c.unlowered.iter().any(|u| u.mnemonic == "ds_read_u8"));
        assert!(!c.unlowered.iter().any(|u| u.mnemonic == "v_readlane_b32"));
        assert!(!c.unlowered.iter().any(|u| u.mnemonic == "v_add_f32"));
    }

    #[test]
    fn table_has_a_row_per_family_and_a_total() {
        let c = Coverage {
            families: vec![
                FamilyCoverage {
                    family: Family::VOP1,
                    lowered: 3,
                    total: 5,
                },
                FamilyCoverage {
                    family: Family::MIMG,
                    lowered: 0,
                    total: 2,
                },
            ],
            unlowered: vec![],
        };
        let mut out = Vec::new();
        write_table(&mut out, &c).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "family   lowered  total\n\
             VOP1           3      5\n\
             MIMG           0      2\n\
             all            3      7\n"
        );
    }
}
