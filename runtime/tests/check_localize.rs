//! `--check`'s localization (`strata_runtime::check::localize`): the first
//! diverging op of a model whose compiled plan does not match eager mode,
//! and the pass step that introduced it.

mod common;

use strata_ir::pass::StepKind;
use strata_ir::{Context, Operation};
use strata_runtime::check::{localize, Budget, Localization, Subject, Unblamed};
use strata_runtime::compiled::HOST_PIPELINE;
use strata_runtime::kernels::Tolerance;
use strata_runtime::{DType, Tensor};

/// relu, a product and tanh, each named by its location.
const MODEL: &str = r#"
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.relu %x : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("first_relu")
  %1 = graph.matmul %0, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("the_matmul")
  %2 = graph.tanh %1 : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("last_tanh")
  return %2 : tensor<4x8xf32>
}
"#;

fn parsed() -> (Context, Operation) {
    (common::source(MODEL))().expect("the model parses")
}

/// Values whose f16 rounding is visible at a tight tolerance.
fn inputs() -> Vec<Tensor> {
    let x: Vec<f64> = (0..32).map(|i| (i as f64 * 0.37).sin() * 1.3).collect();
    let w: Vec<f64> = (0..64).map(|i| (i as f64 * 0.11).cos() * 0.7).collect();
    vec![
        Tensor::from_f64_vec(DType::F32, &[4, 8], &x),
        Tensor::from_f64_vec(DType::F32, &[8, 8], &w),
    ]
}

/// The default pipeline computing in f16, as `codegen.precision = "f16"`
/// asks.
fn f16_pipeline() -> String {
    let with = HOST_PIPELINE.replace(
        "graph-eliminate-layout,",
        "graph-eliminate-layout,graph-convert-precision{precision=f16},",
    );
    assert_ne!(
        with, HOST_PIPELINE,
        "the pipeline has graph-eliminate-layout"
    );
    with
}

fn run(pipeline: &str, tolerance: Tolerance, budget: Budget) -> Localization {
    let (mut ctx, module) = parsed();
    let inputs = inputs();
    let tolerance_of = move |_: DType| tolerance;
    let subject = Subject {
        module,
        function: "main",
        inputs: &inputs,
        pipeline,
        threads: 1,
        tolerance_of: &tolerance_of,
        budget,
        progress: &|_| {},
    };
    localize(&mut ctx, &subject)
}

#[test]
fn the_first_op_and_the_precision_pass_are_found() {
    let found = run(
        &f16_pipeline(),
        Tolerance::new(1e-6, 1e-7),
        Budget::default(),
    );
    let d = found.divergence.as_ref().expect("a divergence");
    assert_eq!(d.op, "graph.relu");
    assert_eq!(d.name, "first_relu");
    assert_eq!((d.position, d.ops_total), (1, 3));
    assert!(!d.diff.ok && d.diff.max_abs_diff > 1e-7, "{:?}", d.diff);
    let blame = found.blame.as_ref().expect("a step");
    assert_eq!(blame.step.kind, StepKind::Pass);
    assert_eq!(blame.step.name, "graph-convert-precision");
    assert!(blame.step.number <= blame.total);
    let before = blame.before.as_deref().expect("the IR without the step");
    let after = blame.after.as_deref().expect("the IR with it");
    assert!(!before.contains("f16"), "{before}");
    assert!(
        after.contains("graph.cast") && after.contains("f16"),
        "{after}"
    );
    let summary = found.summary();
    assert!(
        summary.starts_with("first divergence at node 'first_relu' (graph.relu), op 1 of 3"),
        "{summary}"
    );
    assert!(
        summary.contains("introduced by pass graph-convert-precision (application"),
        "{summary}"
    );
    // The repro: the diverging prefix alone, its function @main.
    let repro = found.repro_module.as_deref().expect("a repro module");
    assert!(
        repro.contains("@main") && repro.contains("graph.relu"),
        "{repro}"
    );
    assert!(!repro.contains("graph.tanh"), "{repro}");
    assert_eq!(found.repro_inputs, vec![0]);
    let json = found.to_json();
    assert_eq!(json["first_divergence"]["name"], "first_relu");
    assert_eq!(json["pass"]["name"], "graph-convert-precision");
    assert!(found.exhausted.is_none());
}

#[test]
fn a_spent_budget_reports_a_range_not_an_op() {
    // Exactly (next test): the last op diverges, the first probe (the
    // first op alone) matches, and the budget stops the search there.
    let found = run(
        HOST_PIPELINE,
        Tolerance::new(0.0, 0.0),
        Budget {
            compiles: 1,
            ..Budget::default()
        },
    );
    assert!(found.divergence.is_none());
    let (first, last, why) = found.op_range.clone().expect("a range");
    assert_eq!((first, last), (2, 3));
    assert!(why.contains("budget of 1 compiles"), "{why}");
    assert!(found.exhausted.is_some());
    assert!(found.summary().starts_with("first divergence among ops"));
}

#[test]
fn a_divergence_without_optional_steps_is_placed_by_stage() {
    // At a tolerance of zero, tanh as the lowering spells it out in the
    // tensor dialect differs from eager mode's (the C library's) in the
    // last bit: no optional step is to blame, and the tensor stage,
    // interpreted, already differs.
    let found = run(HOST_PIPELINE, Tolerance::new(0.0, 0.0), Budget::default());
    let d = found.divergence.as_ref().expect("a divergence");
    assert_eq!(d.name, "last_tanh");
    match &found.unblamed {
        Some(Unblamed::Required(Some(stage))) => {
            assert!(stage.contains("already diverges"), "{stage}")
        }
        other => panic!("expected a required-stage finding, got {other:?}"),
    }
    assert!(found.blame.is_none());
}
