//! Every fact of a `graph` op lives on its declaration: the shape function
//! is attached by `#[op(..., interfaces(...))]` (an op without one does not
//! verify), and the typed attribute accessors read the declared defaults.

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
fn every_graph_op_has_a_shape_function_or_is_a_sequence_op() {
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
    // The sequence and optional ops are not tensor ops: each is checked by
    // its own verifier (`graph::sequence`), and only they lack one.
    let sequence_ops = strata_dialects::graph::sequence::SEQUENCE_OPS;
    let unexpected: Vec<&str> = missing
        .iter()
        .copied()
        .filter(|name| !sequence_ops.contains(name))
        .collect();
    assert!(
        unexpected.is_empty(),
        "graph ops without a shape function: {}",
        unexpected.join(", ")
    );
    for name in sequence_ops {
        assert!(
            graph_ops.contains(&name),
            "{name} is listed as a sequence op but not registered"
        );
        assert!(
            missing.contains(&name),
            "{name} has a shape function but is listed as a sequence op"
        );
    }
}

/// The ops of the body of the first function of `module`, in order.
fn body_ops(ctx: &Context, module: strata_ir::Operation) -> Vec<strata_ir::Operation> {
    let mut out = Vec::new();
    let mut stack = vec![module];
    while let Some(op) = stack.pop() {
        out.push(op);
        for &region in ctx.op_regions(op) {
            for block in ctx.region_blocks(region) {
                let inner: Vec<_> = ctx.block_ops(block).collect();
                stack.extend(inner.into_iter().rev());
            }
        }
    }
    out
}

#[test]
fn typed_attribute_accessors_honour_declared_defaults() {
    use strata_dialects::graph::{HardSigmoidOp, ReduceSumOp, TransposeOp};
    let mut ctx = context();
    let text = r#"func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.hard_sigmoid %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.hard_sigmoid %0 {alpha = 1.250000e-01 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.transpose %1 {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = graph.transpose %2 : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %4 = graph.reduce_sum %3 : (tensor<2x3xf32>) -> tensor<1x1xf32>
  %5 = graph.transpose %3 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %5 : tensor<3x2xf32>
}
"#;
    let module = parser::parse_source(&mut ctx, &SourceBuffer::new("t.mlir", text))
        .unwrap_or_else(|e| panic!("parse: {}", e[0].message));
    let ops = body_ops(&ctx, module);
    let sigmoids: Vec<_> = ops
        .iter()
        .filter_map(|&op| HardSigmoidOp::from_op(&ctx, op))
        .collect();
    let transposes: Vec<_> = ops
        .iter()
        .filter_map(|&op| TransposeOp::from_op(&ctx, op))
        .collect();
    let reduce = ops
        .iter()
        .find_map(|&op| ReduceSumOp::from_op(&ctx, op))
        .expect("a reduce_sum");
    // Declared defaults: alpha 0.2, beta 0.5; keepdims true.
    assert_eq!(sigmoids[0].alpha(&ctx), 0.2);
    assert_eq!(sigmoids[0].beta(&ctx), 0.5);
    assert_eq!(sigmoids[1].alpha(&ctx), 0.125);
    assert_eq!(sigmoids[1].beta(&ctx), 0.5);
    assert!(reduce.keepdims(&ctx));
    assert!(!reduce.noop_with_empty_axes(&ctx));
    // An optional attribute without a default: present or not.
    assert_eq!(transposes[0].perm(&ctx), Some(vec![1, 0]));
    assert_eq!(transposes[1].perm(&ctx), None);
    // The raw attribute stays available.
    assert!(transposes[0].perm_attr(&ctx).is_some());
    assert!(sigmoids[1].alpha_attr(&ctx).is_some());
}

#[test]
fn a_defaulted_attribute_the_op_does_not_hold_reads_as_its_default() {
    use strata_dialects::graph::{GemmOp, HardSigmoidOp};
    let mut ctx = context();
    // Created without properties (the parser and the builders fill them
    // in): the accessors fall back to the declared defaults.
    let name = ctx.ident(HardSigmoidOp::NAME);
    let loc = ctx.unknown_loc();
    let op = HardSigmoidOp(ctx.create_operation(strata_ir::OperationState::new(name, loc)));
    assert!(op.alpha_attr(&ctx).is_none());
    assert_eq!(op.alpha(&ctx), 0.2);
    assert_eq!(op.beta(&ctx), 0.5);
    let name = ctx.ident(GemmOp::NAME);
    let gemm = GemmOp(ctx.create_operation(strata_ir::OperationState::new(name, loc)));
    assert_eq!((gemm.alpha(&ctx), gemm.beta(&ctx)), (1.0, 1.0));
    assert!(!gemm.trans_a(&ctx) && !gemm.trans_b(&ctx));
}
