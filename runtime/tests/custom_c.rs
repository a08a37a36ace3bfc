//! Custom ops from a shared library through the C ABI: the example library
//! (examples/custom_op_c/scaled_silu.c, built here with the system's C
//! compiler) runs in eager mode and in graph mode, and an artifact that
//! calls it loads only with the same implementation.

use std::path::{Path, PathBuf};
use std::process::Command;

use strata_artifact::{Artifact, ArtifactError, Expect, Mismatch, Selection};
use strata_ir::{Context, SourceBuffer};
use strata_runtime::artifact::{build_artifact, ArtifactSource, LoadError, HOST_TARGET};
use strata_runtime::compiled::{compile, CompiledModel};
use strata_runtime::custom_c::CustomOpLibrary;
use strata_runtime::interp::{lookup_function, run_function};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::{DType, Tensor};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Builds the example library (with `defines`) into `name`.
fn build_library(name: &str, defines: &[&str]) -> PathBuf {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-shared", "-fPIC", "-O2", "-I"])
        .arg(repo().join("runtime/include"))
        .args(defines)
        .arg(repo().join("examples/custom_op_c/scaled_silu.c"))
        .arg("-o")
        .arg(&out)
        .arg("-lm")
        .status()
        .expect("a C compiler (cc) runs");
    assert!(status.success(), "building {name} failed");
    out
}

fn model(library: &CustomOpLibrary) -> (Context, strata_ir::Operation) {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    strata_runtime::interp::install_folding(&mut ctx);
    library.register(&mut ctx);
    let path = repo().join("examples/custom_op_c/model.mlir");
    let text = std::fs::read_to_string(&path).expect("model");
    let module = strata_ir::parser::parse_source(&mut ctx, &SourceBuffer::new("model.mlir", text))
        .unwrap_or_else(|d| panic!("{}", d[0].message));
    strata_ir::verifier::verify(&ctx, module).unwrap_or_else(|d| panic!("{}", d[0].message));
    (ctx, module)
}

fn input() -> Tensor {
    let values: Vec<f64> = (0..24).map(|i| (i as f64 - 11.0) / 7.0).collect();
    Tensor::from_f64_vec(DType::F32, &[3, 8], &values)
}

/// y = silu_1.5(x * x) + x, in f64.
fn reference(x: &Tensor) -> Tensor {
    let y: Vec<f64> = x
        .to_f64_vec()
        .iter()
        .map(|&v| {
            let s = v * v;
            s / (1.0 + (-1.5 * s).exp()) + v
        })
        .collect();
    Tensor::from_f64_vec(DType::F32, x.shape(), &y)
}

fn load(path: &Path) -> CustomOpLibrary {
    CustomOpLibrary::load(path).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_c_custom_op_runs_in_eager_and_graph_mode() {
    let library = load(&build_library("libscaled_silu.so", &[]));
    assert_eq!(library.ops.len(), 1);
    assert_eq!(library.ops[0].name, "example.ScaledSilu");
    assert_eq!(library.ops[0].impl_version, "1.0.0");
    assert_eq!(library.sha256.len(), 64);
    let x = input();
    let want = reference(&x);
    let (ctx, module) = model(&library);
    let f = lookup_function(&ctx, module, "main").expect("@main");
    let eager = run_function(&ctx, f, vec![x.clone()]).expect("eager");
    allclose(&eager[0], &want, Tolerance::for_dtype(DType::F32)).unwrap_or_else(|m| panic!("{m}"));

    let (mut ctx, module) = model(&library);
    let compiled = compile(&mut ctx, module, "main", &[x.shape().to_vec()], 1)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(compiled
        .kernel_names()
        .contains(&"custom op example.ScaledSilu"));
    let graph = compiled.run(std::slice::from_ref(&x)).expect("graph");
    allclose(&graph[0], &want, Tolerance::for_dtype(DType::F32)).unwrap_or_else(|m| panic!("{m}"));
}

#[test]
fn an_artifact_needs_the_implementation_it_was_compiled_against() {
    let library = load(&build_library("libscaled_silu_a.so", &[]));
    let x = input();
    let (mut ctx, module) = model(&library);
    compile(&mut ctx, module, "main", &[x.shape().to_vec()], 1).unwrap_or_else(|e| panic!("{e}"));
    let source = ArtifactSource {
        model: "model.mlir".into(),
        function: "main".into(),
        custom_ops: library.implementations(),
        ..Default::default()
    };
    let artifact = build_artifact(&mut ctx, module, &source).expect("artifact");
    let artifact = Artifact::from_bytes(&artifact.to_bytes(), "m.strata").expect("reads");
    let entry = &artifact.manifest.custom_ops[0];
    assert_eq!(
        (
            entry.name.as_str(),
            entry.version.as_str(),
            entry.sha256.as_str()
        ),
        ("example.ScaledSilu", "1.0.0", library.sha256.as_str())
    );
    assert!(artifact.manifest.kernels.iter().any(|k| k.selection
        == Selection::Custom {
            op: "example.ScaledSilu".into()
        }));

    let expect_for = |lib: &CustomOpLibrary| {
        let mut e = Expect::new(HOST_TARGET);
        e.custom_ops = lib.implementations();
        e
    };
    let run = |lib: &CustomOpLibrary| {
        CompiledModel::from_artifact_with(&artifact, "m.strata", &expect_for(lib), 1, &|ctx| {
            lib.register(ctx)
        })
    };
    let loaded = run(&library).unwrap_or_else(|e| panic!("{e}"));
    let got = loaded.run(std::slice::from_ref(&x)).expect("runs");
    allclose(&got[0], &reference(&x), Tolerance::for_dtype(DType::F32))
        .unwrap_or_else(|m| panic!("{m}"));

    // Another build of the library (another version, so other bytes).
    let other = load(&build_library(
        "libscaled_silu_b.so",
        &["-DIMPL_VERSION=\"1.0.1\""],
    ));
    assert_ne!(other.sha256, library.sha256);
    match run(&other) {
        Err(LoadError::Artifact(ArtifactError::Refused { mismatches, .. })) => {
            assert!(mismatches.contains(&Mismatch::CustomOp {
                name: "example.ScaledSilu".into(),
                field: "sha256",
                artifact: library.sha256.clone(),
                registered: other.sha256.clone(),
            }));
            assert!(mismatches.iter().any(|m| matches!(
                m,
                Mismatch::CustomOp {
                    field: "version",
                    ..
                }
            )));
        }
        Err(e) => panic!("not a refusal: {e}"),
        Ok(_) => panic!("another implementation was accepted"),
    }
    // And without the library the artifact is refused too.
    let none = CompiledModel::from_artifact(&artifact, "m.strata", &Expect::new(HOST_TARGET), 1);
    assert!(matches!(
        none,
        Err(LoadError::Artifact(ArtifactError::Refused { .. }))
    ));
}

#[test]
fn a_library_without_the_entry_point_is_an_error() {
    // A shared library that is not a custom-op library: libm.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let src = dir.join("empty.c");
    std::fs::write(&src, "int strata_not_it(void) { return 0; }\n").expect("write");
    let lib = dir.join("libempty.so");
    let status = Command::new("cc")
        .args(["-shared", "-fPIC"])
        .arg(&src)
        .arg("-o")
        .arg(&lib)
        .status()
        .expect("cc");
    assert!(status.success());
    let err = CustomOpLibrary::load(&lib)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("not a strata custom-op library"), "{err}");
    let missing = CustomOpLibrary::load(&dir.join("nope.so"))
        .err()
        .expect("missing");
    assert!(missing.to_string().contains("nope.so"));
}

/// A library that writes 0xFF into an `i1` output (the ABI asks for 0 or
/// 1): strata reads any non-zero byte as true, eagerly and in graph mode,
/// so casting the output gives 1.0, never 255.0.
#[test]
fn i1_outputs_of_a_library_are_normalized() {
    let library = load(&build_library(
        "libscaled_silu_bools.so",
        &["-DSTRATA_TEST_BAD_BOOLS"],
    ));
    let text = r#"func.func @main(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %b = graph.custom "example.Positive"(%x) : (tensor<3x8xf32>) -> tensor<3x8xi1>
  %f = graph.cast %b : (tensor<3x8xi1>) -> tensor<3x8xf32>
  return %f : tensor<3x8xf32>
}"#;
    let parse = || {
        let mut ctx = Context::new();
        strata_dialects::register_all(&mut ctx);
        library.register(&mut ctx);
        let module =
            strata_ir::parser::parse_source(&mut ctx, &SourceBuffer::new("bools.mlir", text))
                .unwrap_or_else(|d| panic!("{}", d[0].message));
        (ctx, module)
    };
    let x = input();
    let want: Vec<f64> = x
        .to_f64_vec()
        .iter()
        .map(|&v| f64::from(u8::from(v > 0.0)))
        .collect();
    let (ctx, module) = parse();
    let f = lookup_function(&ctx, module, "main").expect("@main");
    let eager = run_function(&ctx, f, vec![x.clone()]).expect("eager");
    assert_eq!(eager[0].to_f64_vec(), want);
    let (mut ctx, module) = parse();
    let compiled = compile(&mut ctx, module, "main", &[x.shape().to_vec()], 1)
        .unwrap_or_else(|e| panic!("{e}"));
    let graph = compiled.run(std::slice::from_ref(&x)).expect("graph");
    assert_eq!(graph[0].to_f64_vec(), want);
}
