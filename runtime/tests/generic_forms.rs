//! The general form computes what the named forms do: each example model
//! lowered to `tensor`, then rewritten by `tensor-generalize-named-ops`
//! (every map, reduce and contraction a `tensor.generic`) and back by
//! `tensor-specialize-generic-ops`, evaluated by the interpreter on its
//! example input at each step.

use strata_ir::{Context, Operation};
use strata_runtime::compiled::specialize;
use strata_runtime::interp::{lookup_function, run_function};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::{npy, Tensor};

mod common;
use common::{example, import_example, run_pipeline};

fn evaluate(ctx: &Context, module: Operation, input: &Tensor) -> Vec<Tensor> {
    let f = lookup_function(ctx, module, "main").expect("@main");
    run_function(ctx, f, vec![input.clone()]).unwrap_or_else(|e| panic!("{e}"))
}

fn count(ctx: &Context, module: Operation, name: &str) -> usize {
    ctx.nested_ops(module, strata_ir::WalkOrder::PreOrder)
        .into_iter()
        .filter(|&o| ctx.op_name_str(o) == name)
        .count()
}

fn check(model: &str) {
    let input = npy::load(&example(&format!("{model}_input_x.npy"))).expect("input");
    let (mut ctx, module) = import_example(&format!("{model}.onnx"));
    specialize(&mut ctx, module, "main", &[input.shape().to_vec()])
        .unwrap_or_else(|e| panic!("{model}: {e}"));
    run_pipeline(
        &mut ctx,
        module,
        "graph-infer-shapes,graph-decompose-recurrent,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes,convert-graph-to-tensor",
    );
    let named = evaluate(&ctx, module, &input);
    let contractions = count(&ctx, module, "tensor.contract");
    assert!(contractions > 0, "{model}: no contraction to generalize");
    run_pipeline(&mut ctx, module, "tensor-generalize-named-ops");
    for name in ["tensor.contract", "tensor.reduce"] {
        assert_eq!(
            count(&ctx, module, name),
            0,
            "{model}: a {name} was not generalized"
        );
    }
    let general = evaluate(&ctx, module, &input);
    for (g, n) in general.iter().zip(&named) {
        // A generic contraction rounds each partial sum to f32; the named
        // one sums in f64: the dtype's tolerance.
        allclose(g, n, Tolerance::for_dtype(n.dtype()))
            .unwrap_or_else(|m| panic!("{model}: the general form differs: {m}"));
    }
    run_pipeline(&mut ctx, module, "tensor-specialize-generic-ops,dce");
    assert_eq!(
        count(&ctx, module, "tensor.generic"),
        0,
        "{model}: a generic stayed"
    );
    assert_eq!(count(&ctx, module, "tensor.contract"), contractions);
    let back = evaluate(&ctx, module, &input);
    for (b, n) in back.iter().zip(&named) {
        assert_eq!(b, n, "{model}: specialized back, the results changed");
    }
}

#[test]
fn the_mlp_in_general_form() {
    check("mlp");
}

#[test]
fn the_encoder_in_general_form() {
    check("encoder");
}

#[test]
fn the_convnet_in_general_form() {
    check("convnet");
}
