//! Arguments that several subcommands take, spelled and checked once: the target (`--gfx`),
//! the wave size (`--wave`), the bound of the `ulp<=k` class (`--ulp`) and instruction words
//! in hex.

use rdnaprobe_isa::{Target, Wave};
use rdnaprobe_reports::diff::DEFAULT_ULP_K;

/// `--gfx TARGET` (the old spelling `--mcpu` is a hidden alias).
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Gfx {
    /// Target: gfx1030..gfx1036, gfx103x (the RDNA2 family), or gfx1010/gfx1013 (RDNA1).
    #[arg(
        long = "gfx",
        alias = "mcpu",
        value_name = "TARGET",
        default_value = "gfx1030",
        value_parser = target
    )]
    pub gfx: Target,
}

/// The value parser of every target flag.
pub fn target(text: &str) -> Result<Target, String> {
    text.parse()
        .map_err(|e: rdnaprobe_isa::UnknownTarget| e.to_string())
}

/// The value parser of `--images software|native`.
pub fn images(text: &str) -> Result<rdnaprobe_recompiler::ImagePath, String> {
    match text.trim() {
        "software" => Ok(rdnaprobe_recompiler::ImagePath::Software),
        "native" => Ok(rdnaprobe_recompiler::ImagePath::Native),
        other => Err(format!("`{other}`: give software or native")),
    }
}

/// A backend's label in the rows' `backend` column: the command line's spelling, marked when
/// the images are the driver's (`--images native`).
pub fn backend_label(backend: &str, images: rdnaprobe_recompiler::ImagePath) -> String {
    match images {
        rdnaprobe_recompiler::ImagePath::Software => backend.to_string(),
        rdnaprobe_recompiler::ImagePath::Native => format!("{backend}+native-images"),
    }
}

/// `--wave 32|64`.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct WaveSize {
    /// Wave size: 32 or 64.
    #[arg(long = "wave", value_name = "LANES", default_value = "32", value_parser = wave)]
    pub wave: Wave,
}

/// The value parser of every wave-size flag.
pub fn wave(text: &str) -> Result<Wave, String> {
    match text.trim() {
        "32" => Ok(Wave::W32),
        "64" => Ok(Wave::W64),
        other => Err(format!("`{other}` is not a wave size: give 32 or 64")),
    }
}

/// `--ulp K` (the old spelling `--ulp-k` is a hidden alias).
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Ulp {
    /// Bound of class `ulp<=k`: distances 2..=K are `ulp<=k`, larger ones `wrong`; K >= 1
    /// (1 leaves the class empty).
    #[arg(
        long = "ulp",
        alias = "ulp-k",
        value_name = "K",
        default_value_t = DEFAULT_ULP_K,
        value_parser = ulp_bound
    )]
    pub ulp_k: u64,
}

/// The range check of `--ulp`.
pub fn ulp_bound(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(k) if k >= 1 => Ok(k),
        Ok(_) => Err(
            "the bound must be at least 1: distances of 1 are always `ulp<=1`, \
                      and 2..=K are `ulp<=k`"
                .to_string(),
        ),
        Err(e) => Err(format!("not a whole number of ULPs: {e}")),
    }
}

/// A token of a word list that is not a 32-bit hex word, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadWord {
    /// 1-based position among the words.
    pub index: usize,
    /// 1-based column (in characters) where the token starts.
    pub column: usize,
    pub token: String,
}

impl std::fmt::Display for BadWord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "column {}: `{}` is not a 32-bit hex word (word {})",
            self.column, self.token, self.index
        )
    }
}

impl std::error::Error for BadWord {}

/// Instruction words in hex (`0x7e140304 0xabcdabcd`, `7e140304,abcdabcd`): separated by
/// whitespace or commas, `0x` optional, each at most 32 bits. An empty text is no words.
pub fn parse_words(text: &str) -> Result<Vec<u32>, BadWord> {
    let mut words = Vec::new();
    // The token being read and its column; a separator after the text ends the last one.
    let (mut token, mut start) = (String::new(), 0);
    for (column, c) in (1..).zip(text.chars().chain([' '])) {
        if !(c.is_whitespace() || c == ',') {
            if token.is_empty() {
                start = column;
            }
            token.push(c);
        } else if !token.is_empty() {
            let word = hex_word(&token).ok_or_else(|| BadWord {
                index: words.len() + 1,
                column: start,
                token: token.clone(),
            })?;
            words.push(word);
            token.clear();
        }
    }
    Ok(words)
}

fn hex_word(token: &str) -> Option<u32> {
    let digits = token
        .strip_prefix("0x")
        .or_else(|| token.strip_prefix("0X"))
        .unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_parse_with_their_position_in_errors() {
        assert_eq!(
            parse_words("0x7e140304 abcdABCD,0X1\t00000000ff").unwrap(),
            vec![0x7e14_0304, 0xabcd_abcd, 1, 0xff]
        );
        assert_eq!(parse_words("  , ").unwrap(), Vec::<u32>::new());
        let err = parse_words("0x1,  0xZZ").unwrap_err();
        assert_eq!(
            err,
            BadWord {
                index: 2,
                column: 7,
                token: "0xZZ".into()
            }
        );
        assert_eq!(
            err.to_string(),
            "column 7: `0xZZ` is not a 32-bit hex word (word 2)"
        );
        for bad in ["1ffffffff", "0x", "+1", "-1", "0x1_0", "é"] {
            assert!(parse_words(bad).is_err(), "{bad}");
        }
        // Columns count characters, not bytes.
        assert_eq!(parse_words("é 1").unwrap_err().column, 1);
        assert_eq!(parse_words("1 ü").unwrap_err().column, 3);
    }

    #[test]
    fn targets_and_ulp_bounds_are_checked() {
        assert_eq!(target("gfx1036"), Ok(Target::Gfx1036));
        assert_eq!(target("gfx103x"), Ok(Target::Gfx103x));
        assert!(target("gfx900").unwrap_err().contains("gfx900"));
        assert_eq!(ulp_bound("1"), Ok(1));
        assert_eq!(ulp_bound("16"), Ok(16));
        assert!(ulp_bound("0").unwrap_err().contains("at least 1"));
        assert!(ulp_bound("-2").is_err());
        assert!(ulp_bound("two").is_err());
    }
}
