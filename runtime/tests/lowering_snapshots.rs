//! Snapshots of the IR after every stage of graph mode's pipeline, for the
//! example models at fixed shapes: the graph after import and shape
//! inference, the tensor IR after `convert-graph-to-tensor` and after
//! `tensor-fuse`, the kernels and host plan after `convert-tensor-to-kernel`,
//! the unoptimized LLVM IR of the first kernel, the GPU form of the kernels
//! (`convert-kernel-to-nvptx` for sm_90) and the PTX of the first.
//!
//! The stages together are [`HOST_PIPELINE`], which a test checks. Review a
//! change with `cargo insta review`, or rewrite the snapshots with
//! `INSTA_UPDATE=always cargo test -p strata-runtime --test
//! lowering_snapshots` and read the diff.

use strata_ir::printer::{print_operation, PrintOptions};
use strata_runtime::compiled::{specialize, HOST_PIPELINE};

mod common;
use common::{import_example, run_pipeline};

/// The stages of [`HOST_PIPELINE`], each snapshotted after it runs.
const STAGES: [(&str, &str); 4] = [
    (
        "graph",
        "graph-infer-shapes,graph-decompose-recurrent,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes",
    ),
    ("tensor", "convert-graph-to-tensor"),
    ("fused", "tensor-fuse"),
    (
        "kernel",
        "convert-tensor-to-kernel{library-gemm=true},canonicalize,cse",
    ),
];

#[test]
fn the_stages_are_the_host_pipeline() {
    let joined: Vec<&str> = STAGES.iter().map(|(_, p)| *p).collect();
    assert_eq!(
        format!("builtin.module({})", joined.join(",")),
        HOST_PIPELINE
    );
}

/// The `define` of function `name` in LLVM IR `text`.
fn llvm_function<'a>(text: &'a str, name: &str) -> &'a str {
    let start = text
        .find(&format!("define void @{name}("))
        .unwrap_or_else(|| panic!("no @{name} in the LLVM IR"));
    let end = text[start..]
        .find("\n}\n")
        .map_or(text.len(), |e| start + e + 3);
    &text[start..end]
}

/// Snapshot every stage of `file` compiled for `shapes`.
fn snapshot_stages(file: &str, shapes: &[Vec<usize>]) {
    let (mut ctx, module) = import_example(file);
    specialize(&mut ctx, module, "main", shapes).unwrap_or_else(|e| panic!("{file}: {e}"));
    let stem = file.trim_end_matches(".onnx");
    for (stage, pipeline) in STAGES {
        run_pipeline(&mut ctx, module, pipeline);
        let text = print_operation(&ctx, module, PrintOptions::default());
        insta::assert_snapshot!(format!("{stem}_{stage}"), text);
    }
    let kernels = strata_lowering::kernel_to_host::kernel_funcs(&ctx, module);
    let first = kernels.first().expect("at least one kernel");
    let name = strata_lowering::kernel_to_host::kernel_name(&ctx, *first);
    let llvm = strata_lowering::kernel_to_host::translate_to_llvm_ir(&ctx, module, false)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    insta::assert_snapshot!(format!("{stem}_llvm"), llvm_function(&llvm, &name));
    // The GPU form of the kernels (sm_90), and the PTX of the first.
    run_pipeline(&mut ctx, module, "convert-kernel-to-nvptx{sm=90}");
    let gpu = strata_lowering::nvptx_to_llvm::gpu_module(&ctx, module);
    insta::assert_snapshot!(
        format!("{stem}_nvptx"),
        print_operation(&ctx, gpu, PrintOptions::default())
    );
    let ptx = strata_lowering::nvptx_to_llvm::kernels_ptx(&ctx, module)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let (first_name, first_ptx) = ptx.first().expect("a GPU kernel");
    assert_eq!(*first_name, name);
    insta::assert_snapshot!(format!("{stem}_ptx"), first_ptx);
}

#[test]
fn mlp_stages() {
    snapshot_stages("mlp.onnx", &[vec![2, 16]]);
}

#[test]
fn encoder_stages() {
    snapshot_stages("encoder.onnx", &[vec![2, 8, 32]]);
}

#[test]
fn convnet_stages() {
    snapshot_stages("convnet.onnx", &[vec![2, 3, 16, 16]]);
}
