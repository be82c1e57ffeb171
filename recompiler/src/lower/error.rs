//! Why one instruction has no lowering: the typed reason a rule gives up, which
//! [`LowerError::Unsupported`](super::LowerError::Unsupported) carries as its source.
//!
//! The kinds say whose the gap is. [`Operand`](RuleError::Operand) is the body's: the decoded
//! instruction does not have the operands its rule reads or writes. [`BadInput`](RuleError::BadInput)
//! is the row's: a value the instruction reads is one it cannot take (a T# field no image
//! has), which a replay reports as the row's error. The others are the model's:
//! a modifier or form that has no rule for the opcode, an instruction or mode the model leaves
//! out, a case no hardware row has measured (and no document settles), or an opcode the
//! dispatch gives no lowering at all.

use std::borrow::Cow;

/// The reason a rule does not lower an instruction. The message is what the user reads after
/// the word offset and mnemonic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// An operand the rule reads or writes is missing or of another kind (`no destination`,
    /// `DPP src0 is not a VGPR`).
    #[error("{0}")]
    Operand(Cow<'static, str>),
    /// A modifier, or a modifier on this form, without a rule for the opcode (op_sel, clamp,
    /// omod, abs/neg, SDWA, DPP controls).
    #[error("{0}")]
    Modifier(Cow<'static, str>),
    /// An instruction, operand source or mode the model leaves out (TFE, messages, traps, the
    /// LDS form of a load).
    #[error("{0}")]
    NotModelled(Cow<'static, str>),
    /// A case no hardware row has measured and the documents leave open, so no rule is
    /// claimed for it.
    #[error("{0}")]
    NotMeasured(Cow<'static, str>),
    /// The opcode has no lowering at all: the dispatch's reason.
    #[error("{0}")]
    Unlowered(&'static str),
    /// A value the instruction reads, known when lowering, is not valid for it (a T# field
    /// no image has: `T# word3 TYPE 0 is not an image type (8..15)`).
    #[error("{0}")]
    BadInput(Cow<'static, str>),
}

impl RuleError {
    pub(crate) fn operand(why: impl Into<Cow<'static, str>>) -> Self {
        Self::Operand(why.into())
    }

    pub(crate) fn modifier(why: impl Into<Cow<'static, str>>) -> Self {
        Self::Modifier(why.into())
    }

    pub(crate) fn not_modelled(why: impl Into<Cow<'static, str>>) -> Self {
        Self::NotModelled(why.into())
    }

    pub(crate) fn not_measured(why: impl Into<Cow<'static, str>>) -> Self {
        Self::NotMeasured(why.into())
    }

    pub(crate) fn bad_input(why: impl Into<Cow<'static, str>>) -> Self {
        Self::BadInput(why.into())
    }

    /// The same error with its message's leading `from` replaced by `to` (a shared rule's
    /// `memory:` read as `image:` where an image instruction uses it).
    pub(crate) fn retitled(self, from: &str, to: &str) -> Self {
        let re = |c: Cow<'static, str>| -> Cow<'static, str> {
            match c.strip_prefix(from) {
                Some(rest) => format!("{to}{rest}").into(),
                None => c,
            }
        };
        match self {
            Self::Operand(c) => Self::Operand(re(c)),
            Self::Modifier(c) => Self::Modifier(re(c)),
            Self::NotModelled(c) => Self::NotModelled(re(c)),
            Self::NotMeasured(c) => Self::NotMeasured(re(c)),
            Self::BadInput(c) => Self::BadInput(re(c)),
            Self::Unlowered(r) => Self::Unlowered(r),
        }
    }
}

/// What a rule returns.
pub(crate) type RuleResult<T = ()> = Result<T, RuleError>;
