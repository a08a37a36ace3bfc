//! `strata run --check`: graph mode's outputs against eager mode's.

use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::{DType, Tensor};

use crate::DriverError;

/// The tolerance of `strata run --check` for `dtype`: the recipe's
/// `contracts.tolerance`, else `--rtol`/`--atol`, else the dtype's.
pub(crate) fn check_tolerance(
    recipe: Option<&strata_recipe::Recipe>,
    given: (Option<f64>, Option<f64>),
    dtype: DType,
) -> Tolerance {
    let by_dtype = Tolerance::for_dtype(dtype);
    let contract = recipe.map(|r| &r.contracts.tolerance);
    Tolerance::new(
        contract
            .and_then(|c| c.rtol)
            .or(given.0)
            .unwrap_or(by_dtype.rtol),
        contract
            .and_then(|c| c.atol)
            .or(given.1)
            .unwrap_or(by_dtype.atol),
    )
}

/// `strata run --check`: each graph-mode output against eager mode's,
/// within `tolerance_of` its dtype; every mismatch is reported.
pub(crate) fn check_against_eager(
    out_names: &[String],
    graph: &[Tensor],
    eager: &[Tensor],
    tolerance_of: &dyn Fn(DType) -> Tolerance,
) -> Result<(), DriverError> {
    let mut mismatches = Vec::new();
    for ((name, g), e) in out_names.iter().zip(graph).zip(eager) {
        let tol = tolerance_of(e.dtype());
        match allclose(g, e, tol) {
            Ok(()) => outln!(
                "check: {name}: graph mode matches eager mode (rtol {}, atol {})",
                tol.rtol,
                tol.atol
            ),
            Err(m) => mismatches.push(format!(
                "check: {name}: graph mode does not match eager mode (rtol {}, atol {}): {m}",
                tol.rtol, tol.atol
            )),
        }
    }
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(DriverError::Message(mismatches.join("\n")))
    }
}
