//! Bad input to the `graph` exe mode through the Rust API: a plan runs only
//! on the inputs it was compiled for (count, shapes, dtypes), compilation
//! checks the shapes it is given, and an op that does not lower is a located
//! error.

use strata_ir::{parser, Context, Operation, SourceBuffer};
use strata_runtime::compiled::{compile, CompileError, RunError};
use strata_runtime::{DType, Tensor};

const PROGRAM: &str = r#"
func.func @main(%x: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %y = graph.add %x, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %z = graph.relu %y : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %z : tensor<?x4xf32>
}
"#;

fn parse(text: &str) -> (Context, Operation) {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let buffer = SourceBuffer::new("test.mlir", text);
    let module = parser::parse_source(&mut ctx, &buffer)
        .unwrap_or_else(|d| panic!("parse: {}", d[0].message));
    (ctx, module)
}

fn f32s(shape: &[usize]) -> Tensor {
    let n = shape.iter().product();
    Tensor::from_f32(shape.to_vec(), vec![0.5; n]).expect("a tensor")
}

#[test]
fn a_plan_runs_only_on_what_it_was_compiled_for() {
    let (mut ctx, module) = parse(PROGRAM);
    let model = compile(&mut ctx, module, "main", &[vec![3, 4], vec![4]], 1).expect("it compiles");
    let good = [f32s(&[3, 4]), f32s(&[4])];
    let out = model.run(&good).expect("it runs");
    assert_eq!(out[0].shape(), &[3, 4]);
    assert_eq!(out[0].to_f64_vec(), vec![1.0; 12]);

    // Too few, too many.
    for inputs in [
        &good[..1],
        &[good[0].clone(), good[1].clone(), good[1].clone()][..],
    ] {
        match model.run(inputs) {
            Err(RunError::InputCount { expected: 2, got }) => assert_eq!(got, inputs.len()),
            other => panic!("expected a count error, got {:?}", other.map(|v| v.len())),
        }
    }
    // Another batch size: the plan was compiled for 3.
    let e = model
        .run(&[f32s(&[5, 4]), f32s(&[4])])
        .expect_err("a shape error");
    assert!(matches!(e, RunError::InputMismatch { index: 0, .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "input #0 is f32 [5, 4], but the plan was compiled for f32 [3, 4]"
    );
    // Another dtype of the same shape.
    let ints = Tensor::from_f64_vec(DType::I64, &[4], &[1.0; 4]);
    let e = model
        .run(&[f32s(&[3, 4]), ints])
        .expect_err("a dtype error");
    assert_eq!(
        e.to_string(),
        "input #1 is i64 [4], but the plan was compiled for f32 [4]"
    );
}

#[test]
fn compile_checks_the_shapes_it_is_given() {
    for (shapes, message) in [
        (vec![vec![3, 4]], "@main takes 2 inputs, got 1 shapes"),
        (
            vec![vec![3, 5], vec![4]],
            "an input of type tensor<?x4xf32> cannot take shape [3, 5]",
        ),
        (
            vec![vec![3, 4], vec![4, 1]],
            "an input of type tensor<4xf32> cannot take shape [4, 1]",
        ),
    ] {
        let (mut ctx, module) = parse(PROGRAM);
        let Err(e) = compile(&mut ctx, module, "main", &shapes, 1) else {
            panic!("{shapes:?}: an error expected");
        };
        assert!(e.to_string().contains(message), "{shapes:?}: {e}");
    }
    let (mut ctx, module) = parse(PROGRAM);
    let Err(e) = compile(&mut ctx, module, "nope", &[], 1) else {
        panic!("an error expected");
    };
    assert!(e.to_string().contains("no function @nope"), "{e}");
}

#[test]
fn an_op_that_does_not_lower_is_a_located_error() {
    let text = "func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {\n  %a = graph.constant dense<1> : tensor<i64>\n  %0 = graph.cumsum %x, %a : (tensor<4x8xf32>, tensor<i64>) -> tensor<4x8xf32>\n  return %0 : tensor<4x8xf32>\n}\n";
    let (mut ctx, module) = parse(text);
    let Err(CompileError::Diagnostics(d)) = compile(&mut ctx, module, "main", &[vec![4, 8]], 1)
    else {
        panic!("diagnostics expected");
    };
    assert_eq!(
        d[0].message,
        "'graph.cumsum' op cannot be lowered to tensor yet"
    );
    let rendered = strata_ir::diagnostics::render(&ctx, &d[0], &[]);
    assert!(rendered.starts_with("test.mlir:3:8: error:"), "{rendered}");
}
