//! Tensor-level programs through `convert-tensor-to-kernel`, the host JIT
//! and the plan executor, against values computed here.

use strata_ir::pass::{Instrumentation, OpPassManager, PassRegistry};
use strata_ir::{parser, Context, SourceBuffer};
use strata_runtime::compiled::CompiledModel;
use strata_runtime::Tensor;

const PROGRAM: &str = r#"
func.func @main(%x: tensor<5x100xf32>, %w: tensor<100x40xf32>, %b: tensor<40xf32>) -> (tensor<5x100xf32>, tensor<5x40xf32>) {
  %m = tensor.reduce ins(%x : tensor<5x100xf32>) dims [1] init(0xFF800000 : f32) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    tensor.yield %r : f32
  } : tensor<5xf32>
  %e = tensor.map ins(%x, %m : tensor<5x100xf32>, tensor<5xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] {
  ^bb0(%a: f32, %mx: f32):
    %d = arith.subf %a, %mx : f32
    %ex = math.exp %d : f32
    tensor.yield %ex : f32
  } : tensor<5x100xf32>
  %s = tensor.reduce ins(%e : tensor<5x100xf32>) dims [1] init(0.0 : f32) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    tensor.yield %r : f32
  } : tensor<5xf32>
  %sm = tensor.map ins(%e, %s : tensor<5x100xf32>, tensor<5xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] {
  ^bb0(%a: f32, %t: f32):
    %q = arith.divf %a, %t : f32
    tensor.yield %q : f32
  } : tensor<5x100xf32>
  %mm = tensor.contract ins(%x, %w : tensor<5x100xf32>, tensor<100x40xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<5x40xf32>
  %y = tensor.map ins(%mm, %b : tensor<5x40xf32>, tensor<40xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] {
  ^bb0(%a: f32, %bias: f32):
    %z = arith.addf %a, %bias : f32
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %z, %zero : f32
    tensor.yield %relu : f32
  } : tensor<5x40xf32>
  return %sm, %y : tensor<5x100xf32>, tensor<5x40xf32>
}
"#;

fn lower(text: &str, pipeline: &str) -> (Context, strata_ir::Operation) {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let buffer = SourceBuffer::new("test.mlir", text);
    let module = parser::parse_source(&mut ctx, &buffer)
        .unwrap_or_else(|d| panic!("parse: {}", d[0].message));
    let mut registry = PassRegistry::default();
    strata_passes::register_all(&mut registry);
    strata_lowering::register_passes(&mut registry);
    let mut pm = OpPassManager::parse(&registry, pipeline)
        .unwrap_or_else(|e| panic!("{}", e.render(pipeline)));
    pm.run(&mut ctx, module, &mut Instrumentation::default())
        .unwrap_or_else(|d| panic!("lowering: {}", d[0].message));
    if let Err(d) = strata_ir::verifier::verify(&ctx, module) {
        let text = strata_ir::printer::print_operation(&ctx, module, Default::default());
        panic!(
            "verify: {:?}\n{text}",
            d.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
    }
    (ctx, module)
}

#[test]
fn softmax_and_a_matmul_with_an_epilogue() {
    check(PROGRAM, "builtin.module(convert-tensor-to-kernel)", 6);
}

#[test]
fn fused_softmax_and_matmul_epilogue() {
    // Softmax's four ops become one row kernel, the bias and relu join the matmul.
    check(
        PROGRAM,
        "builtin.module(tensor-fuse,convert-tensor-to-kernel)",
        2,
    );
}

fn check(program: &str, pipeline: &str, kernels: usize) {
    let (ctx, module) = lower(program, pipeline);
    let model = CompiledModel::from_kernel_module(&ctx, module, "main", 2)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(model.launches(), kernels, "{:?}", model.kernel_names());
    let x: Vec<f32> = (0..500)
        .map(|i| ((i * 13) % 17) as f32 * 0.25 - 2.0)
        .collect();
    let w: Vec<f32> = (0..4000)
        .map(|i| ((i * 7) % 19) as f32 * 0.05 - 0.45)
        .collect();
    let b: Vec<f32> = (0..40).map(|i| i as f32 * 0.1 - 2.0).collect();
    let inputs = vec![
        Tensor::from_f32(vec![5, 100], x.clone()).expect("x"),
        Tensor::from_f32(vec![100, 40], w.clone()).expect("w"),
        Tensor::from_f32(vec![40], b.clone()).expect("b"),
    ];
    let out = model.run(&inputs).unwrap_or_else(|e| panic!("{e}"));
    let sm = out[0].to_f64_vec();
    for r in 0..5 {
        let row = &x[r * 100..(r + 1) * 100];
        let m = row.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        let s: f32 = row.iter().map(|v| (v - m).exp()).sum();
        for c in 0..100 {
            let want = f64::from((row[c] - m).exp() / s);
            assert!((sm[r * 100 + c] - want).abs() < 1e-6, "softmax ({r}, {c})");
        }
    }
    let y = out[1].to_f64_vec();
    for i in 0..5 {
        for j in 0..40 {
            let dot: f32 = (0..100).map(|k| x[i * 100 + k] * w[k * 40 + j]).sum();
            let want = f64::from((dot + b[j]).max(0.0));
            assert!(
                (y[i * 40 + j] - want).abs() < 1e-4,
                "matmul ({i}, {j}): {} vs {want}",
                y[i * 40 + j]
            );
        }
    }
    // A shape the plan was not compiled for is an error, not a wrong result.
    let bad = vec![
        Tensor::from_f32(vec![4, 100], vec![0.0; 400]).expect("x"),
        inputs[1].clone(),
        inputs[2].clone(),
    ];
    let Err(e) = model.run(&bad) else {
        panic!("a shape error expected");
    };
    assert!(e.to_string().contains("compiled for f32 [5, 100]"), "{e}");
}
