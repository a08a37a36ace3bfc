//! ONNX import and eager execution on arbitrary bytes: a model that imports
//! and verifies runs on small inputs (unknown dimensions of size 2) within
//! tight limits; the run may fail with a located error but never panics.

#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_dialects::graph::shape::{shape_of, Dim};
use strata_ir::Context;
use strata_runtime::interp::{dtype_of, lookup_function, run_function_with, Limits};
use strata_runtime::Tensor;

fuzz_target!(|data: &[u8]| {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let Ok(module) = strata_onnx::import_bytes(&mut ctx, data, "fuzz.onnx") else {
        return;
    };
    if strata_ir::verifier::verify(&ctx, module).is_err() {
        return;
    }
    let Some(main) = lookup_function(&ctx, module, "main") else {
        return;
    };
    let Some((inputs, _)) = strata_dialects::func::function_signature(&ctx, main) else {
        return;
    };
    let mut args = Vec::new();
    for ty in inputs {
        let Some((shape, elem)) = shape_of(&ctx, ty) else { return };
        let Some(dtype) = dtype_of(&ctx, elem) else { return };
        let Some(dims) = shape.dims() else { return };
        let sizes: Vec<usize> = dims
            .iter()
            .map(|d| match d {
                Dim::Known(n) => usize::try_from(*n).unwrap_or(usize::MAX),
                _ => 2,
            })
            .collect();
        let count = sizes.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
        if count.is_none_or(|n| n > 4096) {
            return;
        }
        let n = count.unwrap_or(0);
        let values: Vec<f64> = (0..n).map(|i| (i % 7) as f64 - 3.0).collect();
        args.push(Tensor::from_f64_vec(dtype, &sizes, &values));
    }
    let limits = Limits {
        max_bytes: 1 << 24,
        max_iterations: 1 << 12,
    };
    let _ = run_function_with(&ctx, main, args, limits);
});
