//! Errors of checked construction from user input (mode fields, wave sizes).

/// A value outside its field's range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContractError {
    /// A mode field or the wave size has a value outside its range.
    #[error("invalid mode field {field} = {value}: {expected}")]
    InvalidField {
        field: &'static str,
        value: u32,
        expected: &'static str,
    },
}
