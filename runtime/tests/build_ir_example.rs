//! Runs examples/build_ir.rs (typed builders, verifier, printer, reference
//! interpreter) as a test.

#[path = "../../examples/build_ir.rs"]
mod example;

use strata_ir::printer::{print_operation, PrintOptions};

#[test]
fn build_ir_example_builds_the_expected_function() {
    let mut ctx = strata_ir::Context::new();
    strata_dialects::register_all(&mut ctx);
    let module = example::build(&mut ctx).expect("builds and verifies");
    assert_eq!(
        print_operation(&ctx, module.op(), PrintOptions::default()),
        "module {
  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<4xf32>) -> tensor<2x4xf32> {
    %0 = graph.matmul %arg0, %arg1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %1 = graph.add %0, %arg2 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %2 = graph.relu %1 : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %2 : tensor<2x4xf32>
  }
}
"
    );
}

#[test]
fn build_ir_example_runs() {
    // relu([[1, 2, 3, 6], [-1, -2, -3, -6]] + [0.5, 0.5, 0.5, -6.5])
    let y = example::run().expect("runs");
    assert_eq!(y, [1.5, 2.5, 3.5, 0.0, 0.0, 0.0, 0.0, 0.0]);
    assert!(example::main().is_ok());
}
