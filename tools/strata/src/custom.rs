//! `--custom-op-lib`: the custom-op libraries the driver registers, and the
//! check of a recipe's `contracts.custom_ops` against them.

use std::collections::BTreeMap;

use crate::DriverError;

/// The custom-op libraries of `--custom-op-lib`, loaded once.
static CUSTOM_OP_LIBS: std::sync::OnceLock<Vec<strata_runtime::custom_c::CustomOpLibrary>> =
    std::sync::OnceLock::new();

/// Keeps the libraries loaded for `--custom-op-lib` (once, at start-up).
pub(crate) fn set_libraries(libraries: Vec<strata_runtime::custom_c::CustomOpLibrary>) {
    let _ = CUSTOM_OP_LIBS.set(libraries);
}

/// The loaded custom-op libraries.
pub(crate) fn libraries() -> &'static [strata_runtime::custom_c::CustomOpLibrary] {
    CUSTOM_OP_LIBS.get().map_or(&[], Vec::as_slice)
}

/// Every registered custom op's implementation: name to (version, sha256).
pub(crate) fn implementations() -> BTreeMap<String, (String, String)> {
    libraries()
        .iter()
        .flat_map(|l| l.implementations())
        .collect()
}

/// The recipe's `contracts.custom_ops` against the registered
/// implementations: each op it names must be registered, with its version
/// and the sha256 of its library.
pub(crate) fn check_contracts(recipe: &strata_recipe::Recipe) -> Result<(), DriverError> {
    let registered = implementations();
    let mut problems = Vec::new();
    for (name, contract) in &recipe.contracts.custom_ops {
        match registered.get(name) {
            None => problems.push(format!(
                "contracts.custom_ops: '{name}' is not registered (give its library with --custom-op-lib)"
            )),
            Some((version, sha256)) => {
                if *version != contract.version {
                    problems.push(format!(
                        "contracts.custom_ops: '{name}' is registered at version {version}, the recipe requires {}",
                        contract.version
                    ));
                }
                if !sha256.eq_ignore_ascii_case(&contract.sha256) {
                    problems.push(format!(
                        "contracts.custom_ops: '{name}' is registered with sha256 {sha256}, the recipe requires {}",
                        contract.sha256
                    ));
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(DriverError::Message(format!(
            "error: {}",
            problems.join("\nerror: ")
        )))
    }
}
