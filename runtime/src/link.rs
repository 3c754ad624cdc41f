//! Host linking of `link=` files (docs/interop.md). The Python package
//! builds a kernel's link files (and the adapters of the interop functions
//! it declares) into one shared library (`python/pydev/_host_link.py`); here
//! that library is loaded privately (`RTLD_LOCAL`) and each function the JIT
//! module declares but does not define is registered with the engine at
//! the library's address. Registered symbols are the module's own
//! definitions for the JIT, so two kernels may link files that define the
//! same name, and no linked symbol becomes visible to the rest of the
//! process (MLIR's shared-library option loads with `RTLD_GLOBAL`, and the
//! process-wide lookup would then find the first library's definition).

use crate::capi::{JitError, Library};
use std::ffi::c_void;

/// (symbol, address) of each of `externals` (the functions a module
/// declares without defining) that one of `libraries` defines, the first
/// library that does winning.
pub fn resolve(externals: &[String], libraries: &[String]) -> Result<Vec<(String, *mut c_void)>, JitError> {
    if libraries.is_empty() {
        return Ok(vec![]);
    }
    let libs = libraries.iter().map(|p| Library::open(p)).collect::<Result<Vec<_>, _>>()?;
    Ok(externals
        .iter()
        .filter_map(|name| libs.iter().find_map(|l| l.symbol(name)).map(|p| (name.clone(), p)))
        .collect())
}
