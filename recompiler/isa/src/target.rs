//! Targets the crate accepts: RDNA2 (gfx1030..gfx1036) and the RDNA1 parts whose rows the
//! datasets carry (gfx1010, gfx1013).

/// A GPU target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
}

/// A target name that is not a supported gfx10 target.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown target `{0}`: expected gfx1010, gfx1013 or gfx1030..gfx1036")]
pub struct UnknownTarget(pub String);

impl Target {
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
        }
    }

    /// RDNA1 (GFX10.1): legacy mad/mac names; everything else reads the GFX10.3 table.
    pub fn is_rdna1(self) -> bool {
        matches!(self, Target::Gfx1010 | Target::Gfx1013)
    }
}

impl std::str::FromStr for Target {
    type Err = UnknownTarget;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Target::ALL
            .into_iter()
            .find(|x| x.name() == t)
            .ok_or_else(|| UnknownTarget(s.to_string()))
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
