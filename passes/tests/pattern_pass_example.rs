//! Runs examples/pattern_pass.rs (a pass declared with `#[pass]` applying a
//! `pattern!` rule) as a test, in a pipeline beside the built-in passes.

#[path = "../../examples/pattern_pass.rs"]
mod example;

const INPUT: &str = "func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.neg %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.neg %1 : (tensor<4xf32>) -> tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}";

#[test]
fn double_negations_fold_and_a_single_one_stays() {
    let out = example::run_pipeline(
        INPUT,
        "builtin.module(func.func(graph-fold-double-negation),dce)",
    )
    .expect("the pipeline runs");
    assert_eq!(
        out,
        "module {
  func.func @f(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0 = graph.neg %arg0 : (tensor<4xf32>) -> tensor<4xf32>
    return %arg0, %0 : tensor<4xf32>, tensor<4xf32>
  }
}
"
    );
}

#[test]
fn the_pass_has_its_declared_name_and_summary() {
    use strata_ir::pass::PassInfo;
    let pass = example::FoldDoubleNegation;
    assert_eq!(pass.name(), "graph-fold-double-negation");
    assert_eq!(pass.description(), "Replace graph.neg(graph.neg(x)) with x");
    let err = example::run_pipeline(INPUT, "builtin.module(graph-fold-double-negatio)")
        .expect_err("a misspelled pass is an error");
    assert!(
        err.contains("'graph-fold-double-negatio' does not refer to a registered pass"),
        "{err}"
    );
}

#[test]
fn the_example_runs() {
    example::main().expect("the example runs");
}
