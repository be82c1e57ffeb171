//! The oracle's error type. Every variant says what failed and carries the raw context: the
//! library sonames tried, the symbol or API entry point, the raw comgr/HIP status and its name.

use std::path::PathBuf;

/// Which native library an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    Comgr,
    Hip,
}

impl Library {
    /// The distribution packages that ship the library, for the one-line "install this" hint.
    pub fn package_hint(self) -> &'static str {
        match self {
            Library::Comgr => {
                "install libamd-comgr2 (Debian/Ubuntu) or ROCm's comgr package (rocm-core/comgr)"
            }
            Library::Hip => {
                "install libamdhip64-5 (Debian/Ubuntu) or ROCm's HIP runtime (hip-runtime-amd)"
            }
        }
    }
}

impl std::fmt::Display for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Library::Comgr => "libamd_comgr",
            Library::Hip => "libamdhip64",
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// None of the sonames could be loaded. Not fatal for the program: other backends still run.
    #[error("{library} not found (tried {}: {}); {}", tried.join(", "), last_error, library.package_hint())]
    LibraryNotFound {
        library: Library,
        tried: Vec<String>,
        last_error: String,
    },

    #[error("{library}: symbol `{symbol}` missing from {soname}: {message}")]
    MissingSymbol {
        library: Library,
        soname: String,
        symbol: &'static str,
        message: String,
    },

    #[error("comgr {call} failed: {name} ({code}){}", log_suffix(log))]
    Comgr {
        call: &'static str,
        code: u32,
        name: &'static str,
        log: String,
    },

    #[error("HIP {call} failed: {name} ({code})")]
    Hip {
        call: &'static str,
        code: i32,
        name: String,
    },

    /// HIP works but there is no device (hipErrorNoDevice, or a device count of zero).
    #[error("no HIP device: {reason}")]
    NoDevice { reason: String },

    #[error("no HIP device matches `{wanted}` (devices: {})", found.join(", "))]
    NoMatchingDevice { wanted: String, found: Vec<String> },

    #[error("unknown target `{0}`: expected one of gfx1030..gfx1036")]
    UnknownTarget(String),

    #[error("invalid mode field {field} = {value}: {expected}")]
    InvalidMode {
        field: &'static str,
        value: u32,
        expected: &'static str,
    },

    #[error("empty body: a probe kernel needs at least one instruction word")]
    EmptyBody,

    /// A wave's inputs do not fit the wave kernel (too many lanes, LDS or region too large).
    #[error("invalid wave: {0}")]
    InvalidWave(String),

    /// The code object is not the ELF the template produces (offset in bytes into the file).
    #[error("bad code object at byte {offset}: {message}")]
    BadElf { offset: usize, message: String },

    #[error("{0}")]
    CodeObject(String),

    #[error("worker protocol: {0}")]
    Protocol(String),

    #[error("worker process: {0}")]
    Worker(String),

    /// An executor other than HIP (the runner's CPU model of the probe kernels) could not run
    /// a batch; the message says what and where.
    #[error("{0}")]
    Executor(String),

    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl From<rdnaprobe_contract::ContractError> for OracleError {
    fn from(e: rdnaprobe_contract::ContractError) -> Self {
        match e {
            rdnaprobe_contract::ContractError::InvalidField {
                field,
                value,
                expected,
            } => OracleError::InvalidMode {
                field,
                value,
                expected,
            },
        }
    }
}

impl From<rdnaprobe_contract::UnknownTarget> for OracleError {
    fn from(e: rdnaprobe_contract::UnknownTarget) -> Self {
        OracleError::UnknownTarget(e.0)
    }
}

fn log_suffix(log: &str) -> String {
    let log = log.trim();
    if log.is_empty() {
        String::new()
    } else {
        format!(":\n{log}")
    }
}

pub type Result<T> = std::result::Result<T, OracleError>;
