//! Finding a native library at run time: an environment override first, then the sonames of the
//! ROCm releases the oracle knows, in order. Nothing is linked at build time, so the project builds
//! and its other backends run on machines without ROCm.

use crate::error::{Library, OracleError, Result};

/// A loaded library and the name it was loaded under.
///
/// The library is never unloaded: comgr links LLVM (Debian: the shared libLLVM), whose static
/// command-line option registry aborts the process with "inconsistency in registered
/// CommandLine options" when comgr is unloaded and loaded again; HIP's runtime threads do not
/// survive dlclose either. The dynamic loader reference-counts, so loading again is cheap.
pub(crate) struct Loaded {
    pub lib: std::mem::ManuallyDrop<libloading::Library>,
    pub soname: String,
}

/// Loads the first of `env_override` (a path or soname, if the variable is set) and `sonames`
/// that the dynamic loader accepts.
pub(crate) fn open_first(library: Library, env_override: &str, sonames: &[&str]) -> Result<Loaded> {
    let mut candidates: Vec<String> = Vec::new();
    if let Some(v) = std::env::var_os(env_override) {
        if !v.is_empty() {
            candidates.push(v.to_string_lossy().into_owned());
        }
    }
    candidates.extend(sonames.iter().map(|s| s.to_string()));
    let mut last_error = String::from("no candidates");
    for name in &candidates {
        // SAFETY: loading runs the library's initialisers; comgr and HIP are ordinary shared
        // libraries whose initialisers have no preconditions.
        match unsafe { libloading::Library::new(name) } {
            Ok(lib) => {
                return Ok(Loaded {
                    lib: std::mem::ManuallyDrop::new(lib),
                    soname: name.clone(),
                })
            }
            Err(e) => last_error = e.to_string(),
        }
    }
    Err(OracleError::LibraryNotFound {
        library,
        tried: candidates,
        last_error,
    })
}

/// Resolves one symbol into a plain function pointer. `T` must be the symbol's exact C type.
pub(crate) fn sym<T: Copy>(loaded: &Loaded, library: Library, name: &'static str) -> Result<T> {
    let mut cname = Vec::with_capacity(name.len() + 1);
    cname.extend_from_slice(name.as_bytes());
    cname.push(0);
    // SAFETY: callers pass the C prototype of `name` as `T` (see the fn tables in comgr.rs and
    // hip.rs); the pointer is only used while `loaded.lib` lives, which the tables guarantee by
    // owning it.
    unsafe {
        loaded
            .lib
            .get::<T>(&cname)
            .map(|s| *s)
            .map_err(|e| OracleError::MissingSymbol {
                library,
                soname: loaded.soname.clone(),
                symbol: name,
                message: e.to_string(),
            })
    }
}
