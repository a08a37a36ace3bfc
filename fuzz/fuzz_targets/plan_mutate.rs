//! Mutated plans, re-sealed: an artifact whose plan (`plan.mlir`) is edited
//! and whose checksums are then recomputed, as a careless tool or an
//! attacker would, must load and run within its buffers or be refused with
//! an error; it must never read or write outside them.
//!
//! The artifact is compiled once from a small model (a gather of rows, a
//! matmul, elementwise ops, a reduction). The fuzzer's bytes choose edits
//! of the plan text that keep it mostly well formed: replace one of its
//! numbers (offsets, sizes, shapes, strides, constants) by a boundary value
//! or a small one, swap two of its numbers, or change one byte. The edited
//! artifact is loaded (with the loader's checks) and, when it loads, run on
//! the inputs it was compiled for and on bad row indices.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use strata_artifact::{Artifact, Expect};
use strata_ir::{parser, Context, SourceBuffer};
use strata_runtime::artifact::{build_artifact, ArtifactSource, HOST_TARGET, PLAN_SECTION};
use strata_runtime::compiled::{compile, CompiledModel};
use strata_runtime::{DType, Tensor};

const MODEL: &str = r#"
func.func @main(%x: tensor<4x8xf32>, %ids: tensor<3xi64>, %w: tensor<8x5xf32>) -> (tensor<3x5xf32>, tensor<3x1xf32>) {
  %g = graph.gather %x[%ids] : (tensor<4x8xf32>, tensor<3xi64>) -> tensor<3x8xf32>
  %t = graph.tanh %g : (tensor<3x8xf32>) -> tensor<3x8xf32>
  %m = graph.matmul %t, %w : (tensor<3x8xf32>, tensor<8x5xf32>) -> tensor<3x5xf32>
  %s = graph.softplus %m : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %axes = graph.constant dense<1> : tensor<1xi64>
  %r = graph.reduce_sum %s axes %axes : (tensor<3x5xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  return %s, %r : tensor<3x5xf32>, tensor<3x1xf32>
}
"#;

fn inputs(ids: [f64; 3]) -> Vec<Tensor> {
    let x: Vec<f64> = (0..32).map(|i| i as f64 / 8.0 - 2.0).collect();
    let w: Vec<f64> = (0..40).map(|i| (i % 7) as f64 / 4.0 - 0.75).collect();
    vec![
        Tensor::from_f64_vec(DType::F32, &[4, 8], &x),
        Tensor::from_f64_vec(DType::I64, &[3], &ids),
        Tensor::from_f64_vec(DType::F32, &[8, 5], &w),
    ]
}

static ARTIFACT: LazyLock<Artifact> = LazyLock::new(|| {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    strata_runtime::interp::install_folding(&mut ctx);
    let module = parser::parse_source(&mut ctx, &SourceBuffer::new("model.mlir", MODEL))
        .unwrap_or_else(|d| panic!("{}", d[0].message));
    let shapes = [vec![4, 8], vec![3], vec![8, 5]];
    compile(&mut ctx, module, "main", &shapes, 1).unwrap_or_else(|e| panic!("{e}"));
    let source = ArtifactSource {
        model: "model.mlir".into(),
        function: "main".into(),
        recipe_sha256: "0".repeat(64),
        input_names: vec!["x".into(), "ids".into(), "w".into()],
        output_names: vec!["s".into(), "r".into()],
        ..Default::default()
    };
    build_artifact(&mut ctx, module, &source).unwrap_or_else(|e| panic!("{e}"))
});

const VALUES: [&str; 14] = [
    "0",
    "1",
    "2",
    "3",
    "7",
    "64",
    "4095",
    "65536",
    "2147483647",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "-1",
];

/// The byte ranges of the plan's decimal numbers.
fn numbers(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_digit() && (i == 0 || !text[i - 1].is_ascii_alphanumeric()) {
            let start = i;
            while i < text.len() && text[i].is_ascii_digit() {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

fn mutate(plan: &[u8], data: &[u8]) -> Vec<u8> {
    let mut text = plan.to_vec();
    for edit in data.chunks(4).take(4) {
        let [kind, a, b, c] = [0, 1, 2, 3].map(|i| edit.get(i).copied().unwrap_or(0));
        let spans = numbers(&text);
        if spans.is_empty() {
            break;
        }
        let at = |hi: u8, lo: u8| (usize::from(hi) << 8 | usize::from(lo)) % spans.len();
        match kind % 3 {
            0 => {
                let (s, e) = spans[at(a, b)];
                let value = VALUES[usize::from(c) % VALUES.len()];
                text.splice(s..e, value.bytes());
            }
            1 => {
                let (s1, e1) = spans[at(a, b)];
                let (s2, e2) = spans[at(b, c)];
                if e1 <= s2 {
                    let second = text[s2..e2].to_vec();
                    let first = text[s1..e1].to_vec();
                    text.splice(s2..e2, first);
                    text.splice(s1..e1, second);
                }
            }
            _ => {
                let i = (usize::from(a) << 8 | usize::from(b)) % text.len().max(1);
                if let Some(byte) = text.get_mut(i) {
                    *byte = c;
                }
            }
        }
    }
    text
}

fuzz_target!(|data: &[u8]| {
    let original = &*ARTIFACT;
    let Some(plan) = original.section(PLAN_SECTION) else {
        return;
    };
    let plan = mutate(plan, data);
    let sections = original
        .sections()
        .map(|(name, bytes)| {
            let bytes = if name == PLAN_SECTION {
                plan.clone()
            } else {
                bytes.to_vec()
            };
            (name.to_string(), bytes)
        })
        .collect();
    let resealed = Artifact::new(original.manifest.clone(), sections).to_bytes();
    let Ok(artifact) = Artifact::from_bytes(&resealed, "fuzz.strata") else {
        return;
    };
    let Ok(model) =
        CompiledModel::from_artifact(&artifact, "fuzz.strata", &Expect::new(HOST_TARGET), 1)
    else {
        return;
    };
    for ids in [[0.0, 3.0, 1.0], [4.0, -5.0, 1e12]] {
        let _ = model.run(&inputs(ids));
    }
});
