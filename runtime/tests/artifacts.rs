//! Host artifacts: an artifact runs as the plan it was written from, and
//! loading refuses one whose compiler version, target, recipe or custom ops
//! differ from the loader's, or whose payload does not hold its plan. (The
//! driver's refusals of truncated and edited files are in
//! test/Artifact/artifact.mlir.)

use strata_artifact::{Artifact, ArtifactError, CustomOpEntry, Expect, Mismatch};
use strata_runtime::artifact::{
    build_artifact, code_section, ArtifactSource, KernelLoad, LoadError, HOST_TARGET,
};
use strata_runtime::compiled::{compile, CompiledModel};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::npy;

mod common;
use common::{example, import_example};

/// The encoder example compiled for its example input, as an artifact
/// (read back from its bytes), with the plan compiled in process.
fn encoder() -> (Artifact, CompiledModel) {
    let input = npy::load(&example("encoder_input_x.npy")).expect("input");
    let shapes = [input.shape().to_vec()];
    let (mut ctx, module) = import_example("encoder.onnx");
    let model = compile(&mut ctx, module, "main", &shapes, 1).expect("compiles");
    let source = ArtifactSource {
        model: "encoder.onnx".into(),
        function: "main".into(),
        recipe_sha256: "0".repeat(64),
        input_names: vec!["x".into()],
        output_names: vec!["y".into()],
        ..Default::default()
    };
    let artifact = build_artifact(&mut ctx, module, &source).expect("artifact");
    let bytes = artifact.to_bytes();
    let read = Artifact::from_bytes(&bytes, "encoder.strata").expect("reads back");
    (read, model)
}

fn load(artifact: &Artifact, expect: &Expect) -> Result<CompiledModel, LoadError> {
    CompiledModel::from_artifact(artifact, "encoder.strata", expect, 1)
}

fn refused(result: Result<CompiledModel, LoadError>) -> Vec<Mismatch> {
    match result {
        Err(LoadError::Artifact(ArtifactError::Refused { mismatches, .. })) => mismatches,
        Err(other) => panic!("not a refusal: {other}"),
        Ok(_) => panic!("the artifact was not refused"),
    }
}

/// `artifact` with its manifest changed by `edit` (sections kept).
fn edited(artifact: &Artifact, edit: impl FnOnce(&mut strata_artifact::Manifest)) -> Artifact {
    let mut manifest = artifact.manifest.clone();
    edit(&mut manifest);
    let sections = artifact
        .sections()
        .map(|(n, b)| (n.to_string(), b.to_vec()))
        .collect();
    Artifact::new(manifest, sections)
}

#[test]
fn an_artifact_runs_as_the_plan_it_was_written_from() {
    let (artifact, model) = encoder();
    let m = &artifact.manifest;
    assert_eq!(m.target, HOST_TARGET);
    assert_eq!(m.kernels.len(), model.launches());
    assert_eq!(m.peak_activation_bytes, model.arena_bytes() as u64);
    assert_eq!(
        m.peak_activation_bytes_unplanned,
        model.unplanned_bytes() as u64
    );
    assert_eq!(m.inputs[0].name, "x");
    assert_eq!(m.outputs[0].name, "y");
    assert!(m.buffers.iter().all(|b| b.live.is_some()));
    // The weights are raw payload sections, not hex in the plan's text.
    let constants: usize = artifact
        .sections()
        .filter(|(n, _)| n.starts_with("const/"))
        .map(|(_, b)| b.len())
        .sum();
    let plan = String::from_utf8_lossy(artifact.section("plan.mlir").expect("plan")).into_owned();
    assert!(constants > 0 && plan.contains(strata_runtime::artifact::SECTION_ATTR));
    // The plan declares the kernels; their tile programs are a section of
    // their own, which parses and verifies.
    let kernels = String::from_utf8_lossy(
        artifact
            .section(strata_runtime::artifact::KERNELS_SECTION)
            .expect("kernels"),
    )
    .into_owned();
    let generated = m
        .kernels
        .iter()
        .filter(|k| matches!(k.selection, strata_artifact::Selection::Generated { .. }))
        .count();
    assert!(generated > 0);
    assert_eq!(kernels.matches("kernel.func @").count(), generated);
    assert_eq!(plan.matches("kernel.func @").count(), generated);
    let with_body = |text: &str| {
        text.lines()
            .filter(|l| l.trim_start().starts_with("kernel.func @") && l.ends_with('{'))
            .count()
    };
    assert_eq!((with_body(&plan), with_body(&kernels)), (0, generated));
    let mut ctx = strata_ir::Context::new();
    strata_dialects::register_all(&mut ctx);
    let module = strata_ir::parser::parse_source(
        &mut ctx,
        &strata_ir::SourceBuffer::new("kernels.mlir", kernels.clone()),
    )
    .unwrap_or_else(|d| panic!("{}", d[0].message));
    strata_ir::verifier::verify(&ctx, module).unwrap_or_else(|d| panic!("{}", d[0].message));
    let longest_hex = plan
        .split('"')
        .filter(|t| t.starts_with("0x"))
        .map(str::len)
        .max()
        .unwrap_or(0);
    assert!(
        longest_hex < 2 * 256 + 2,
        "a constant of {longest_hex} hex digits in the plan"
    );
    assert!(!m.cpu.is_empty());
    let loaded = load(&artifact, &Expect::new(HOST_TARGET)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.kernel_names(), model.kernel_names());
    let input = npy::load(&example("encoder_input_x.npy")).expect("input");
    let want = npy::load(&example("encoder_expected_y.npy")).expect("reference");
    let got = loaded.run(std::slice::from_ref(&input)).expect("runs");
    let direct = model.run(&[input]).expect("runs");
    allclose(&got[0], &want, Tolerance::for_dtype(want.dtype())).unwrap_or_else(|m| panic!("{m}"));
    assert_eq!(got[0].data().as_bytes(), direct[0].data().as_bytes());
}

#[test]
fn machine_code_runs_on_its_cpu_and_bitcode_on_another() {
    let (artifact, model) = encoder();
    let section = strata_runtime::artifact::LIBRARY_SECTION;
    assert!(artifact
        .section(section)
        .is_some_and(|b| b.starts_with(b"\x7fELF")));
    assert!(!artifact.manifest.cpu_features.is_empty());
    let input = npy::load(&example("encoder_input_x.npy")).expect("input");
    let direct = model.run(std::slice::from_ref(&input)).expect("runs");
    let expect = Expect::new(HOST_TARGET);
    let run = |a: &Artifact| {
        let (m, how) = CompiledModel::load_artifact(a, "encoder.strata", &expect, 1, &|_| {})
            .unwrap_or_else(|e| panic!("{e}"));
        let got = m.run(std::slice::from_ref(&input)).expect("runs");
        assert_eq!(got[0].data().as_bytes(), direct[0].data().as_bytes());
        how
    };
    assert_eq!(run(&artifact), KernelLoad::Library);
    // Made for other CPU features: code is generated from the bitcode.
    let other = edited(&artifact, |m| m.cpu_features = "+sse2".into());
    let KernelLoad::Bitcode(why) = run(&other) else {
        panic!("the library ran on another CPU");
    };
    assert!(why.contains("other features"), "{why}");
    // No library (no linker where it was made).
    let sections = artifact
        .sections()
        .filter(|(n, _)| *n != section)
        .map(|(n, b)| (n.to_string(), b.to_vec()))
        .collect();
    let mut manifest = artifact.manifest.clone();
    manifest.library_missing = "cannot run the linker 'cc'".into();
    let KernelLoad::Bitcode(why) = run(&Artifact::new(manifest, sections)) else {
        panic!("no library to load");
    };
    assert!(
        why.contains("no machine code: cannot run the linker"),
        "{why}"
    );
}

#[test]
fn another_compiler_version_is_refused() {
    let (artifact, _) = encoder();
    let other = edited(&artifact, |m| m.compiler_version = "0.0.1".into());
    let mismatches = refused(load(&other, &Expect::new(HOST_TARGET)));
    assert_eq!(
        mismatches,
        vec![Mismatch::CompilerVersion {
            artifact: "0.0.1".into(),
            running: strata_artifact::COMPILER_VERSION.into()
        }]
    );
}

#[test]
fn another_target_is_refused() {
    let (artifact, _) = encoder();
    let gpu = edited(&artifact, |m| m.target = "sm_90".into());
    let mismatches = refused(load(&gpu, &Expect::new(HOST_TARGET)));
    assert_eq!(
        mismatches,
        vec![Mismatch::Target {
            artifact: "sm_90".into(),
            running: "host".into()
        }]
    );
    // And a loader for another target refuses a host artifact.
    refused(load(&artifact, &Expect::new("sm_80")));
}

#[test]
fn another_recipe_is_refused() {
    let (artifact, _) = encoder();
    let mut expect = Expect::new(HOST_TARGET);
    expect.recipe_sha256 = Some("1".repeat(64));
    let text = load(&artifact, &expect).err().expect("refused").to_string();
    assert!(
        text.contains("recipe: compiled with recipe sha256 0000"),
        "{text}"
    );
    expect.recipe_sha256 = Some("0".repeat(64));
    load(&artifact, &expect).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn custom_ops_must_be_registered_with_the_same_implementation() {
    let (artifact, _) = encoder();
    let with_op = edited(&artifact, |m| {
        m.custom_ops.push(CustomOpEntry {
            name: "example.op".into(),
            version: "1.0.0".into(),
            sha256: "a".repeat(64),
        })
    });
    let mut expect = Expect::new(HOST_TARGET);
    assert_eq!(
        refused(load(&with_op, &expect)),
        vec![Mismatch::CustomOpMissing {
            name: "example.op".into()
        }]
    );
    expect
        .custom_ops
        .insert("example.op".into(), ("1.0.0".into(), "b".repeat(64)));
    let text = load(&with_op, &expect).err().expect("refused").to_string();
    assert!(
        text.contains("custom op 'example.op': compiled against sha256 aaaa"),
        "{text}"
    );
}

#[test]
fn a_payload_that_does_not_hold_the_plan_is_refused() {
    let (artifact, _) = encoder();
    // A kernel's code removed (the file's checksums are consistent: this is
    // an artifact written wrong, not one edited).
    let first = artifact
        .manifest
        .kernels
        .iter()
        .find_map(|k| match &k.selection {
            strata_artifact::Selection::Generated { code, .. } => Some(code.clone()),
            _ => None,
        })
        .expect("a generated kernel");
    let sections = artifact
        .sections()
        .filter(|(n, _)| *n != first)
        .map(|(n, b)| (n.to_string(), b.to_vec()))
        .collect();
    let missing = Artifact::new(artifact.manifest.clone(), sections);
    let text = load(&missing, &Expect::new(HOST_TARGET))
        .err()
        .expect("refused")
        .to_string();
    assert!(text.contains("has no code"), "{text}");
    assert!(first.starts_with("host/") && first == code_section(&first[5..first.len() - 3]));
    // A plan whose buffers do not fit its arena (a consistent file, written
    // wrong): refused before anything runs.
    let plan = String::from_utf8_lossy(artifact.section("plan.mlir").expect("plan")).into_owned();
    let arena = artifact.manifest.peak_activation_bytes;
    let small = plan.replace(
        &format!("kernel.arena_bytes = {arena} : i64"),
        "kernel.arena_bytes = 64 : i64",
    );
    assert_ne!(small, plan, "the plan records its arena");
    let sections = artifact
        .sections()
        .map(|(n, b)| {
            let b = if n == "plan.mlir" {
                small.as_bytes().to_vec()
            } else {
                b.to_vec()
            };
            (n.to_string(), b)
        })
        .collect();
    let shrunk = Artifact::new(artifact.manifest.clone(), sections);
    let text = load(&shrunk, &Expect::new(HOST_TARGET))
        .err()
        .expect("refused")
        .to_string();
    assert!(text.contains("in the arena of 64 bytes"), "{text}");
    // A manifest whose kernels are not the plan's.
    let wrong = edited(&artifact, |m| {
        m.kernels.pop();
    });
    let text = load(&wrong, &Expect::new(HOST_TARGET))
        .err()
        .expect("refused")
        .to_string();
    assert!(text.contains("does not match the manifest"), "{text}");
}
