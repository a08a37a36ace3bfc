//! The GPU form of the example models' kernels (`convert-kernel-to-nvptx`),
//! checked without a GPU two ways: every kernel's PTX is assembled by
//! ptxas for sm_80 and sm_90, and the host plan run with each GPU kernel
//! emulated on the CPU, one thread after another, computes what the
//! interpreter does. Without ptxas the assembling fails and says so, unless
//! STRATA_SKIP_CUDA_TOOLS is set (then it says "skipped").

use strata_lowering::llvm::nvptx::{check_with_ptxas, ptxas_path, GpuTarget};
use strata_runtime::compiled::{lower, CompiledModel, HOST_PIPELINE_GENERATED};
use strata_runtime::interp::{lookup_function, run_function};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::npy;
use strata_runtime::{DType, Tensor};

mod common;
use common::{example, import_example};

/// The generated-kernels pipeline, then the GPU form for `sm`.
fn pipeline(sm: u32) -> String {
    let inner = HOST_PIPELINE_GENERATED
        .strip_prefix("builtin.module(")
        .and_then(|p| p.strip_suffix(')'))
        .expect("a module pipeline");
    format!("builtin.module({inner},convert-kernel-to-nvptx{{sm={sm}}})")
}

fn check(model: &str, input: &str) {
    let x = npy::load(&example(input)).expect("input");
    let (ctx, module) = import_example(model);
    let f = lookup_function(&ctx, module, "main").expect("@main");
    let want = run_function(&ctx, f, vec![x.clone()]).expect("eager");
    for sm in [80, 90] {
        let (mut ctx, module) = import_example(model);
        lower(
            &mut ctx,
            module,
            "main",
            &[x.shape().to_vec()],
            &pipeline(sm),
        )
        .unwrap_or_else(|e| panic!("{model}: {e}"));
        // The emulated GPU kernels compute what the interpreter does.
        let emulated = CompiledModel::from_gpu_module_emulated(&ctx, module, "main", 2)
            .unwrap_or_else(|e| panic!("{model}: {e}"));
        assert!(emulated.launches() > 0);
        let got = emulated.run(std::slice::from_ref(&x)).expect("runs");
        for (g, w) in got.iter().zip(&want) {
            allclose(g, w, Tolerance::for_dtype(w.dtype()))
                .unwrap_or_else(|m| panic!("{model} (emulated GPU kernels): {m}"));
        }
        // Their PTX assembles.
        let (ptx, target) = strata_lowering::nvptx_to_llvm::to_ptx(&ctx, module)
            .unwrap_or_else(|e| panic!("{model}: {e}"));
        assert_eq!(
            target,
            GpuTarget::parse(&format!("sm_{sm}")).expect("a target")
        );
        if ptxas_path().is_none() {
            if std::env::var_os("STRATA_SKIP_CUDA_TOOLS").is_some() {
                eprintln!("skipped: ptxas is missing and STRATA_SKIP_CUDA_TOOLS is set");
                continue;
            }
            panic!("ptxas is missing: run scripts/setup-cuda (or set STRATA_SKIP_CUDA_TOOLS=1 to skip)");
        }
        let kernels = check_with_ptxas(&ptx, target).unwrap_or_else(|e| panic!("{model}: {e}"));
        assert_eq!(kernels.len(), emulated.kernel_names().len(), "{kernels:?}");
    }
}

#[test]
fn mlp() {
    check("mlp.onnx", "mlp_input_x.npy");
}

#[test]
fn convnet() {
    check("convnet.onnx", "convnet_input_x.npy");
}

#[test]
fn encoder() {
    check("encoder.onnx", "encoder_input_x.npy");
}

/// Rows wider than a block and tiles whose size is not a multiple of a
/// run: softmax over rows of 1000 (runs of four in the block reductions,
/// the last run of each row partly outside its tile's mask), an
/// elementwise chain over 3x1003 (runs of four in the store, the
/// ragged last one per element) and over 4096 (whole runs, vector
/// stores), emulated against the interpreter.
#[test]
fn wide_rows_and_ragged_runs() {
    const MODEL: &str = r#"
func.func @main(%x: tensor<6x1001xf32>, %y: tensor<3x1003xf32>, %z: tensor<4096xf32>) -> (tensor<6x1001xf32>, tensor<3x1003xf32>, tensor<4096xf32>) {
  %s = graph.softmax %x {axis = -1 : i64} : (tensor<6x1001xf32>) -> tensor<6x1001xf32>
  %a = graph.exp %y : (tensor<3x1003xf32>) -> tensor<3x1003xf32>
  %b = graph.mul %a, %y : (tensor<3x1003xf32>, tensor<3x1003xf32>) -> tensor<3x1003xf32>
  %c = graph.tanh %z : (tensor<4096xf32>) -> tensor<4096xf32>
  %d = graph.add %c, %z : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<4096xf32>
  return %s, %b, %d : tensor<6x1001xf32>, tensor<3x1003xf32>, tensor<4096xf32>
}
"#;
    let input = |shape: &[usize]| {
        let n: usize = shape.iter().product();
        let values: Vec<f64> = (0..n)
            .map(|i| ((i * 37 % 101) as f64 - 50.0) / 25.0)
            .collect();
        Tensor::from_f64_vec(DType::F32, shape, &values)
    };
    let inputs = vec![input(&[6, 1001]), input(&[3, 1003]), input(&[4096])];
    let parse = || {
        let mut ctx = strata_ir::Context::new();
        strata_dialects::register_all(&mut ctx);
        let buffer = strata_ir::SourceBuffer::new("wide.mlir", MODEL);
        let module = strata_ir::parser::parse_source(&mut ctx, &buffer)
            .unwrap_or_else(|d| panic!("parse: {}", d[0].message));
        (ctx, module)
    };
    let (ctx, module) = parse();
    let f = lookup_function(&ctx, module, "main").expect("@main");
    let want = run_function(&ctx, f, inputs.clone()).expect("eager");
    let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
    for sm in [80, 90] {
        let (mut ctx, module) = parse();
        lower(&mut ctx, module, "main", &shapes, &pipeline(sm)).unwrap_or_else(|e| panic!("{e}"));
        let text = strata_ir::printer::print_operation(&ctx, module, Default::default());
        assert!(
            text.contains("vector.from_elements"),
            "the GPU form has vector stores"
        );
        let emulated = CompiledModel::from_gpu_module_emulated(&ctx, module, "main", 2)
            .unwrap_or_else(|e| panic!("{e}"));
        let got = emulated.run(&inputs).expect("runs");
        for (g, w) in got.iter().zip(&want) {
            allclose(g, w, Tolerance::for_dtype(w.dtype()))
                .unwrap_or_else(|m| panic!("sm_{sm} (emulated GPU kernels): {m}"));
        }
    }
}

/// Matrix products on the block: f16 and bf16 on `mma_sync` (operands
/// staged in shared memory, the accumulator in the mma layout across the
/// K loop, then through shared memory to the epilogue), f32 staged and
/// computed per element; ragged M, N and K (masked staging), a batched
/// product, and products in which the warps split the tile both ways.
#[test]
fn matmuls_on_the_block() {
    const MODEL: &str = r#"
func.func @main(%x: tensor<70x100xf16>, %w: tensor<100x72xf16>, %b: tensor<72xf16>, %p: tensor<3x33x48xbf16>, %q: tensor<3x48x40xbf16>, %f: tensor<37x50xf32>, %g: tensor<50x29xf32>) -> (tensor<70x72xf16>, tensor<3x33x40xbf16>, tensor<37x29xf32>) {
  %m = graph.matmul %x, %w : (tensor<70x100xf16>, tensor<100x72xf16>) -> tensor<70x72xf16>
  %y = graph.add %m, %b : (tensor<70x72xf16>, tensor<72xf16>) -> tensor<70x72xf16>
  %r = graph.relu %y : (tensor<70x72xf16>) -> tensor<70x72xf16>
  %bm = graph.matmul %p, %q : (tensor<3x33x48xbf16>, tensor<3x48x40xbf16>) -> tensor<3x33x40xbf16>
  %fm = graph.matmul %f, %g : (tensor<37x50xf32>, tensor<50x29xf32>) -> tensor<37x29xf32>
  return %r, %bm, %fm : tensor<70x72xf16>, tensor<3x33x40xbf16>, tensor<37x29xf32>
}
"#;
    let input = |dtype: DType, shape: &[usize]| {
        let n: usize = shape.iter().product();
        let values: Vec<f64> = (0..n)
            .map(|i| ((i * 37 % 101) as f64 - 50.0) / 64.0)
            .collect();
        Tensor::from_f64_vec(dtype, shape, &values)
    };
    let inputs = vec![
        input(DType::F16, &[70, 100]),
        input(DType::F16, &[100, 72]),
        input(DType::F16, &[72]),
        input(DType::BF16, &[3, 33, 48]),
        input(DType::BF16, &[3, 48, 40]),
        input(DType::F32, &[37, 50]),
        input(DType::F32, &[50, 29]),
    ];
    let parse = || {
        let mut ctx = strata_ir::Context::new();
        strata_dialects::register_all(&mut ctx);
        let buffer = strata_ir::SourceBuffer::new("matmuls.mlir", MODEL);
        let module = strata_ir::parser::parse_source(&mut ctx, &buffer)
            .unwrap_or_else(|d| panic!("parse: {}", d[0].message));
        (ctx, module)
    };
    let (ctx, module) = parse();
    let f = lookup_function(&ctx, module, "main").expect("@main");
    let want = run_function(&ctx, f, inputs.clone()).expect("eager");
    let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
    for sm in [80, 90] {
        let (mut ctx, module) = parse();
        lower(&mut ctx, module, "main", &shapes, &pipeline(sm)).unwrap_or_else(|e| panic!("{e}"));
        let text = strata_ir::printer::print_operation(&ctx, module, Default::default());
        assert!(
            text.contains("nvptx.mma_sync"),
            "the f16 products run on mma_sync"
        );
        let emulated = CompiledModel::from_gpu_module_emulated(&ctx, module, "main", 2)
            .unwrap_or_else(|e| panic!("{e}"));
        let got = emulated.run(&inputs).expect("runs");
        for (g, w) in got.iter().zip(&want) {
            allclose(g, w, Tolerance::for_dtype(w.dtype()))
                .unwrap_or_else(|m| panic!("sm_{sm} (emulated GPU kernels): {m}"));
        }
    }
}
