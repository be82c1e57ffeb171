//! GPU targets: the RDNA2 chips (gfx1030..gfx1036), the RDNA1 chips whose rows the datasets
//! carry (gfx1010, gfx1013), and `gfx103x`, the family name a row's `gfx` cell may give to say
//! "the gfx103x semantics" (every RDNA2 chip computes the same bits).

/// A GPU target, or the gfx103x family.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Target {
    Gfx1010,
    Gfx1013,
    Gfx1030,
    Gfx1031,
    Gfx1032,
    Gfx1033,
    Gfx1034,
    Gfx1035,
    Gfx1036,
    /// The gfx103x family: the semantics every RDNA2 chip shares.
    Gfx103x,
}

/// A target name that is not a supported gfx10 target.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown target `{0}`: expected gfx1010, gfx1013, gfx1030..gfx1036 or gfx103x")]
pub struct UnknownTarget(pub String);

impl Target {
    /// The target a row with an empty `gfx` cell replays as.
    pub const DEFAULT: Target = Target::Gfx1030;

    /// Every chip (the family name is not a chip).
    pub const ALL: [Target; 9] = [
        Target::Gfx1010,
        Target::Gfx1013,
        Target::Gfx1030,
        Target::Gfx1031,
        Target::Gfx1032,
        Target::Gfx1033,
        Target::Gfx1034,
        Target::Gfx1035,
        Target::Gfx1036,
    ];

    /// The RDNA2 chips.
    pub const GFX103X: [Target; 7] = [
        Target::Gfx1030,
        Target::Gfx1031,
        Target::Gfx1032,
        Target::Gfx1033,
        Target::Gfx1034,
        Target::Gfx1035,
        Target::Gfx1036,
    ];

    /// `gfx1030` ..., `gfx103x` for the family.
    pub fn name(self) -> &'static str {
        match self {
            Target::Gfx1010 => "gfx1010",
            Target::Gfx1013 => "gfx1013",
            Target::Gfx1030 => "gfx1030",
            Target::Gfx1031 => "gfx1031",
            Target::Gfx1032 => "gfx1032",
            Target::Gfx1033 => "gfx1033",
            Target::Gfx1034 => "gfx1034",
            Target::Gfx1035 => "gfx1035",
            Target::Gfx1036 => "gfx1036",
            Target::Gfx103x => "gfx103x",
        }
    }

    /// RDNA1 (GFX10.1): legacy mad/mac names; everything else reads the GFX10.3 table.
    pub fn is_rdna1(self) -> bool {
        matches!(self, Target::Gfx1010 | Target::Gfx1013)
    }

    /// An RDNA2 chip or the gfx103x family.
    pub fn is_gfx103x(self) -> bool {
        !self.is_rdna1()
    }

    /// Whether a request for `self` is met by `chip`: equal, or `self` is the gfx103x family
    /// and `chip` one of its chips.
    pub fn covers(self, chip: Target) -> bool {
        self == chip || (self == Target::Gfx103x && chip.is_gfx103x())
    }

    /// The comgr/LLVM isa name, e.g. `amdgcn-amd-amdhsa--gfx1030`; the family assembles for
    /// LLVM's generic target `gfx10-3-generic`.
    pub fn isa_name(self) -> String {
        match self {
            Target::Gfx103x => "amdgcn-amd-amdhsa--gfx10-3-generic".to_string(),
            chip => format!("amdgcn-amd-amdhsa--{}", chip.name()),
        }
    }

    /// The ELF header's EF_AMDGPU_MACH value (LLVM's ELF.h).
    pub fn elf_mach(self) -> u32 {
        match self {
            Target::Gfx1010 => 0x033,
            Target::Gfx1013 => 0x042,
            Target::Gfx1030 => 0x036,
            Target::Gfx1031 => 0x037,
            Target::Gfx1032 => 0x038,
            Target::Gfx1033 => 0x039,
            Target::Gfx1034 => 0x03e,
            Target::Gfx1035 => 0x03d,
            Target::Gfx1036 => 0x045,
            Target::Gfx103x => 0x053,
        }
    }

    /// Parses a device's arch name as HIP reports it (`gfx1030`, `gfx1035:xnack-`): the part
    /// before the first `:` names the chip. The family name is not a device.
    pub fn from_arch_name(arch: &str) -> Result<Target, UnknownTarget> {
        let name = arch.split(':').next().unwrap_or("");
        Target::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| UnknownTarget(arch.to_string()))
    }

    /// The target of a row's `gfx` cell: empty is [`Target::DEFAULT`].
    pub fn from_cell(cell: &str) -> Result<Target, UnknownTarget> {
        if cell.trim().is_empty() {
            Ok(Target::DEFAULT)
        } else {
            cell.parse()
        }
    }
}

impl std::str::FromStr for Target {
    type Err = UnknownTarget;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        Target::ALL
            .into_iter()
            .chain([Target::Gfx103x])
            .find(|x| x.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| UnknownTarget(s.to_string()))
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print() {
        for t in Target::ALL.into_iter().chain([Target::Gfx103x]) {
            assert_eq!(t.name().parse::<Target>(), Ok(t));
            assert_eq!(t.to_string(), t.name());
        }
        assert_eq!("GFX1031".parse::<Target>(), Ok(Target::Gfx1031));
        assert!("gfx10300".parse::<Target>().is_err());
        assert!("gfx1100".parse::<Target>().is_err());
        assert_eq!(Target::from_cell(" "), Ok(Target::DEFAULT));
        assert_eq!(Target::from_cell("gfx103x"), Ok(Target::Gfx103x));
    }

    #[test]
    fn the_family_covers_its_chips_only() {
        for t in Target::GFX103X {
            assert!(Target::Gfx103x.covers(t));
            assert!(t.covers(t) && t.is_gfx103x());
        }
        assert!(!Target::Gfx103x.covers(Target::Gfx1010));
        assert!(!Target::Gfx1030.covers(Target::Gfx1031));
        assert!(Target::Gfx1013.is_rdna1() && !Target::Gfx103x.is_rdna1());
    }

    #[test]
    fn arch_names_name_chips() {
        assert_eq!(
            Target::from_arch_name("gfx1035:xnack-"),
            Ok(Target::Gfx1035)
        );
        assert!(Target::from_arch_name("gfx103x").is_err());
        assert_eq!(Target::Gfx1030.isa_name(), "amdgcn-amd-amdhsa--gfx1030");
    }
}
