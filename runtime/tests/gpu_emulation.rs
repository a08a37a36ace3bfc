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
