//! Every fact of a `graph` op lives on its declaration: the shape function
//! is attached by `#[op(..., interfaces(...))]`, and an op without one does
//! not verify.

use strata_dialects::graph::infer::verify_shapes;
use strata_ir::dialect::OpDefinition;
use strata_ir::{diagnostics, parser, verifier, Context, SourceBuffer};

fn context() -> Context {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    ctx
}

/// The first verifier error of `text` (parsed and verified), rendered with
/// its location; `None` when it verifies.
fn first_error(ctx: &mut Context, text: &str) -> Option<String> {
    let buffer = SourceBuffer::new("t.mlir", text);
    let module = match parser::parse_source(ctx, &buffer) {
        Ok(module) => module,
        Err(errors) => return Some(diagnostics::render(ctx, &errors[0], &[buffer])),
    };
    verifier::verify(ctx, module)
        .err()
        .map(|errors| diagnostics::render(ctx, &errors[0], &[buffer]))
}

#[test]
fn a_graph_op_without_a_shape_function_does_not_verify() {
    let mut ctx = context();
    // A graph op registered by hand, with the graph verifier but no shape
    // function: before, it verified whatever its result type.
    let _ = ctx.registry_mut().register_op(OpDefinition {
        verify: Some(verify_shapes),
        ..OpDefinition::new("graph.unshaped", "an op without a shape function")
    });
    let error = first_error(
        &mut ctx,
        r#"func.func @f(%x: tensor<4xf32>) -> tensor<8xi1> {
  %0 = "graph.unshaped"(%x) : (tensor<4xf32>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}
"#,
    )
    .expect("an op without a shape function must not verify");
    assert!(
        error.contains("t.mlir:2:8: error: 'graph.unshaped' op has no shape function"),
        "{error}"
    );
}

#[test]
fn a_result_type_contradicting_the_shape_function_does_not_verify() {
    let mut ctx = context();
    let error = first_error(
        &mut ctx,
        r#"func.func @f(%x: tensor<4xf32>) -> tensor<8xi1> {
  %0 = graph.neg %x : (tensor<4xf32>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}
"#,
    )
    .expect("graph.neg of tensor<4xf32> to tensor<8xi1> must not verify");
    assert!(
        error.contains(
            "t.mlir:2:8: error: 'graph.neg' op result #0 must have element type f32, but got i1"
        ),
        "{error}"
    );
    let error = first_error(
        &mut ctx,
        r#"func.func @f(%x: tensor<4xf32>) -> tensor<8xf32> {
  %0 = graph.neg %x : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"#,
    )
    .expect("graph.neg of tensor<4xf32> to tensor<8xf32> must not verify");
    assert!(
        error.contains("'graph.neg' op result #0 has shape [8] but its inferred shape is [4]"),
        "{error}"
    );
}

#[test]
fn attaching_an_interface_to_an_unknown_op_is_an_error() {
    let mut ctx = context();
    let error = ctx
        .registry_mut()
        .attach_interface(
            "graph.ad",
            strata_dialects::graph::infer::ShapeFunction(|_, _, _| Ok(Vec::new())),
        )
        .expect_err("graph.ad is not an op");
    assert_eq!(error.op, "graph.ad");
    assert!(error.to_string().contains("'graph.ad'"), "{error}");
}

#[test]
fn every_graph_op_has_a_shape_function() {
    let ctx = context();
    let graph_ops: Vec<&str> = ctx
        .registry()
        .ops()
        .iter()
        .map(|def| def.name)
        .filter(|name| name.starts_with("graph."))
        .collect();
    assert!(!graph_ops.is_empty(), "no graph op is registered");
    let missing: Vec<&str> = graph_ops
        .iter()
        .copied()
        .filter(|name| {
            ctx.registry()
                .interface::<strata_dialects::graph::infer::ShapeFunction>(name)
                .is_none()
        })
        .collect();
    assert!(
        missing.is_empty(),
        "graph ops without a shape function: {}",
        missing.join(", ")
    );
}
