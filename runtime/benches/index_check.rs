//! The cost of graph mode's index checks (`kernel.check_indices`, issue 32):
//! the same compiled gather plan with and without its check step, run side
//! by side (alternating, after a warm-up), medians of the runs and the
//! ratio (checked / unchecked; 1.00 is free). The plans are identical but
//! for the one step, which the unchecked variant has removed from the
//! kernel module before it is JIT-compiled; outputs are compared first.
//!
//! `cargo bench -p strata-runtime --bench index_check [-- --runs N --threads T]`

use std::time::Instant;

use strata_ir::{parser, Context, SourceBuffer, WalkOrder};
use strata_runtime::compiled::{lower, CompiledModel, HOST_PIPELINE};
use strata_runtime::{DType, Tensor};

/// A case: its name, the function, and its inputs.
struct Case {
    name: &'static str,
    text: String,
    inputs: Vec<Tensor>,
}

fn ids(n: usize, bound: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % bound as u64) as f64
        })
        .collect()
}

fn table(rows: usize, cols: usize) -> Tensor {
    let v: Vec<f64> = (0..rows * cols).map(|i| (i % 97) as f64 / 97.0).collect();
    Tensor::from_f64_vec(DType::F32, &[rows, cols], &v)
}

/// `graph.gather` of `n` rows of a `rows` x `cols` f32 table.
fn gather(name: &'static str, rows: usize, cols: usize, n: usize) -> Case {
    let text = format!(
        "func.func @main(%t: tensor<{rows}x{cols}xf32>, %i: tensor<{n}xi64>) -> tensor<{n}x{cols}xf32> {{\n  \
         %g = graph.gather %t[%i] : (tensor<{rows}x{cols}xf32>, tensor<{n}xi64>) -> tensor<{n}x{cols}xf32>\n  \
         return %g : tensor<{n}x{cols}xf32>\n}}\n"
    );
    let inputs = vec![
        table(rows, cols),
        Tensor::from_f64_vec(DType::I64, &[n], &ids(n, rows, 7)),
    ];
    Case { name, text, inputs }
}

/// `graph.gather_elements` along axis 1 of a `rows` x `cols` table.
fn gather_elements(name: &'static str, rows: usize, cols: usize) -> Case {
    let text = format!(
        "func.func @main(%t: tensor<{rows}x{cols}xf32>, %i: tensor<{rows}x{cols}xi64>) -> tensor<{rows}x{cols}xf32> {{\n  \
         %g = graph.gather_elements %t[%i] {{axis = 1 : i64}} : (tensor<{rows}x{cols}xf32>, tensor<{rows}x{cols}xi64>) -> tensor<{rows}x{cols}xf32>\n  \
         return %g : tensor<{rows}x{cols}xf32>\n}}\n"
    );
    let inputs = vec![
        table(rows, cols),
        Tensor::from_f64_vec(DType::I64, &[rows, cols], &ids(rows * cols, cols, 11)),
    ];
    Case { name, text, inputs }
}

/// The case compiled for `threads`, with its index checks or without.
fn compile(case: &Case, threads: usize, checked: bool) -> CompiledModel {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let module = parser::parse_source(&mut ctx, &SourceBuffer::new("bench.mlir", &case.text))
        .unwrap_or_else(|d| panic!("{}", d[0].message));
    let shapes: Vec<Vec<usize>> = case.inputs.iter().map(|t| t.shape().to_vec()).collect();
    lower(&mut ctx, module, "main", &shapes, HOST_PIPELINE).unwrap_or_else(|e| panic!("{e}"));
    let checks: Vec<_> = ctx
        .collect_ops(module, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&op| ctx.op_name_str(op) == "kernel.check_indices")
        .collect();
    assert!(
        !checks.is_empty(),
        "{}: the plan has no index check",
        case.name
    );
    if !checked {
        for op in checks {
            ctx.erase_op(op);
        }
    }
    CompiledModel::from_kernel_module(&ctx, module, "main", threads)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let runs = arg("--runs", 31);
    let threads = arg("--threads", 1);
    let cases = [
        gather("embedding 32000x256, 8192 ids", 32000, 256, 8192),
        gather("narrow rows 100000x4, 65536 ids", 100_000, 4, 65536),
        gather_elements("gather_elements 512x512, axis 1", 512, 512),
    ];
    println!("| case | checked (ms) | unchecked (ms) | checked / unchecked |");
    println!("|---|---:|---:|---:|");
    for case in &cases {
        let checked = compile(case, threads, true);
        let unchecked = compile(case, threads, false);
        let a = checked.run(&case.inputs).unwrap_or_else(|e| panic!("{e}"));
        let b = unchecked
            .run(&case.inputs)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a[0].to_f64_vec(), b[0].to_f64_vec(), "{}", case.name);
        for _ in 0..3 {
            let _ = checked.run(&case.inputs);
            let _ = unchecked.run(&case.inputs);
        }
        let (mut tc, mut tu) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let t = Instant::now();
            let _ = checked.run(&case.inputs);
            tc.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let _ = unchecked.run(&case.inputs);
            tu.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let (c, u) = (median(&mut tc), median(&mut tu));
        println!("| {} | {c:.3} | {u:.3} | {:.2} |", case.name, c / u);
    }
}
