//! Recipes drive the compiled plan: the kernel count follows
//! `optimize.fusion.max_fused_ops`, `optimize.memory_reuse = false` gives
//! every buffer its own bytes, and `contracts.max_activation_bytes` below
//! the plan's arena is a compile error at the op of the peak; every plan
//! still computes what the interpreter does.

use strata_recipe::{Format, LoadOptions, Recipe};
use strata_runtime::compiled::{compile_with, CompileError, CompiledModel};
use strata_runtime::interp::{lookup_function, run_function};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::{npy, Tensor};

mod common;
use common::{example, import_example};

fn pipeline(recipe: &str) -> String {
    Recipe::parse(recipe, "r.toml", Format::Toml, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .recipe
        .pipeline()
}

/// The encoder example compiled by `recipe`, checked against the
/// interpreter on its example input.
fn encoder(recipe: &str) -> Result<CompiledModel, CompileError> {
    let input = npy::load(&example("encoder_input_x.npy")).expect("input");
    let load = || import_example("encoder.onnx");
    let (ctx, module) = load();
    let f = lookup_function(&ctx, module, "main").expect("@main");
    let want = run_function(&ctx, f, vec![input.clone()]).expect("eager");
    let (mut ctx, module) = load();
    let shapes = [input.shape().to_vec()];
    let model = compile_with(&mut ctx, module, "main", &shapes, 1, &pipeline(recipe))?;
    let got: Vec<Tensor> = model.run(&[input]).expect("graph");
    for (g, w) in got.iter().zip(&want) {
        allclose(g, w, Tolerance::for_dtype(w.dtype())).unwrap_or_else(|m| panic!("{m}"));
    }
    Ok(model)
}

#[test]
fn the_kernel_count_follows_max_fused_ops() {
    let mut counts = Vec::new();
    for n in [1, 2, 4, 8] {
        let recipe = format!("[optimize.fusion]\nmin_fused_ops = 1\nmax_fused_ops = {n}\n");
        let model = encoder(&recipe).unwrap_or_else(|e| panic!("{e}"));
        counts.push(model.launches());
    }
    assert!(
        counts.windows(2).all(|w| w[0] >= w[1]) && counts[0] > counts[3],
        "steps for max_fused_ops 1, 2, 4, 8: {counts:?}"
    );
    let unfused = encoder("[optimize.fusion]\nenabled = false\n").expect("compiles");
    assert_eq!(
        unfused.launches(),
        counts[0],
        "no fusion is one op per kernel"
    );
}

#[test]
fn memory_reuse_halves_the_activations() {
    let planned = encoder("").expect("compiles");
    assert_eq!(planned.unplanned_bytes() % 64, 0);
    assert!(
        2 * planned.arena_bytes() <= planned.unplanned_bytes(),
        "{} planned against {} unplanned",
        planned.arena_bytes(),
        planned.unplanned_bytes()
    );
    let own = encoder("[optimize]\nmemory_reuse = false\n").expect("compiles");
    assert_eq!(own.arena_bytes(), own.unplanned_bytes());
    assert_eq!(own.unplanned_bytes(), planned.unplanned_bytes());
}

#[test]
fn max_activation_bytes_is_a_located_error() {
    let planned = encoder("").expect("compiles");
    let limit = planned.arena_bytes() - 1;
    let Err(CompileError::Diagnostics(d)) =
        encoder(&format!("[contracts]\nmax_activation_bytes = {limit}\n"))
    else {
        panic!("a compile error expected");
    };
    assert!(
        d[0].message.contains(&format!(
            "the plan needs {} bytes of activations, more than the limit of {limit}",
            planned.arena_bytes()
        )),
        "{}",
        d[0].message
    );
    let fits = encoder(&format!(
        "[contracts]\nmax_activation_bytes = {}\n",
        planned.arena_bytes()
    ));
    assert!(fits.is_ok(), "a plan at the limit compiles");
}

#[test]
fn reduced_precision_stays_within_the_recipe_tolerance() {
    let input = npy::load(&example("encoder_input_x.npy")).expect("input");
    let (ctx, module) = import_example("encoder.onnx");
    let f = lookup_function(&ctx, module, "main").expect("@main");
    let want = run_function(&ctx, f, vec![input.clone()]).expect("eager");
    for (precision, tolerance) in [
        ("f16", Tolerance::new(1e-2, 1e-3)),
        ("bf16", Tolerance::new(5e-2, 2e-2)),
    ] {
        let recipe = format!("[codegen]\nprecision = \"{precision}\"\n");
        let (mut ctx, module) = import_example("encoder.onnx");
        let shapes = [input.shape().to_vec()];
        let model = compile_with(&mut ctx, module, "main", &shapes, 1, &pipeline(&recipe))
            .unwrap_or_else(|e| panic!("{precision}: {e}"));
        let got = model.run(std::slice::from_ref(&input)).expect("runs");
        allclose(&got[0], &want[0], tolerance).unwrap_or_else(|m| panic!("{precision}: {m}"));
        // The precision is real: the result is not the f32 one.
        assert!(
            allclose(&got[0], &want[0], Tolerance::new(1e-6, 1e-7)).is_err(),
            "{precision} computed like f32"
        );
    }
}

#[test]
fn pinned_inputs_are_constants_of_the_plan() {
    use strata_runtime::compiled::{compile_pinned, needs_input_values, RunError, HOST_PIPELINE};
    use strata_runtime::DType;
    let text = r#"
func.func @main(%x: tensor<2x3x4xf32>, %axes: tensor<1xi64>) -> tensor<2x1x4xf32> {
  %0 = graph.reduce_sum %x axes %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}"#;
    let parse = || {
        let mut ctx = strata_ir::Context::new();
        strata_dialects::register_all(&mut ctx);
        strata_runtime::interp::install_folding(&mut ctx);
        let buffer = strata_ir::SourceBuffer::new("m.mlir", text);
        let module = strata_ir::parser::parse_source(&mut ctx, &buffer).expect("parses");
        (ctx, module)
    };
    let x = Tensor::from_f64_vec(
        DType::F32,
        &[2, 3, 4],
        &(0..24).map(f64::from).collect::<Vec<_>>(),
    );
    let axes = Tensor::from_f64_vec(DType::I64, &[1], &[1.0]);
    let (mut ctx, module) = parse();
    let shapes = [vec![2, 3, 4], vec![1]];
    let err = compile_with(&mut ctx, module, "main", &shapes, 1, HOST_PIPELINE)
        .err()
        .expect("axes that are an input do not lower");
    assert!(needs_input_values(&err), "{err}");
    let (mut ctx, module) = parse();
    let f = lookup_function(&ctx, module, "main").expect("@main");
    let want = run_function(&ctx, f, vec![x.clone(), axes.clone()]).expect("eager");
    let inputs = [x.clone(), axes.clone()];
    let model = compile_pinned(
        &mut ctx,
        module,
        "main",
        &inputs,
        &[false, true],
        1,
        HOST_PIPELINE,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let got = model.run(&inputs).expect("runs");
    allclose(&got[0], &want[0], Tolerance::for_dtype(DType::F32)).unwrap_or_else(|m| panic!("{m}"));
    let other = Tensor::from_f64_vec(DType::I64, &[1], &[2.0]);
    assert!(matches!(
        model.run(&[x, other]),
        Err(RunError::Pinned { index: 1 })
    ));
}
