//! `convert-graph-to-tensor` against the reference interpreter: each case
//! is a graph function run by the interpreter as it is and again after the
//! lowering (the interpreter evaluates the tensor ops too); the outputs
//! must agree within the per-dtype tolerance (integers exactly).

use strata_ir::parser::parse_source;
use strata_ir::pass::{Instrumentation, OpPassManager, PassRegistry};
use strata_ir::{Context, SourceBuffer, TypeKind};
use strata_runtime::interp::{dtype_of, lookup_function, run_function};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::{DType, Tensor};

/// A small deterministic generator (64-bit LCG).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Inputs for the arguments of `func`, uniform in `[lo, hi]` (integers
/// rounded, `i1` random).
fn inputs(
    ctx: &Context,
    func: strata_ir::Operation,
    lo: f64,
    hi: f64,
    rng: &mut Rng,
) -> Vec<Tensor> {
    let region = ctx.op_regions(func)[0];
    let block = ctx.region_entry_block(region).expect("a body");
    ctx.block_args(block)
        .map(|a| {
            let TypeKind::RankedTensor { shape, element, .. } =
                ctx.type_kind(ctx.value_type(a)).clone()
            else {
                panic!("tensor arguments only");
            };
            let dtype = dtype_of(ctx, element).expect("a supported dtype");
            let shape: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
            let n: usize = shape.iter().product();
            if dtype.is_float() {
                let v: Vec<f64> = (0..n).map(|_| lo + (hi - lo) * rng.next()).collect();
                Tensor::from_f64_vec(dtype, &shape, &v)
            } else if dtype == DType::I1 {
                let v: Vec<i64> = (0..n).map(|_| (rng.next() < 0.5) as i64).collect();
                Tensor::from_i64_vec(dtype, &shape, &v)
            } else {
                let v: Vec<i64> = (0..n)
                    .map(|_| (lo + (hi - lo) * rng.next()).round() as i64)
                    .collect();
                Tensor::from_i64_vec(dtype, &shape, &v)
            }
        })
        .collect()
}

/// Runs `@main` of `text` before and after the lowering and compares.
fn check(name: &str, text: &str, lo: f64, hi: f64) -> Result<(), String> {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let buffer = SourceBuffer::new(name, text);
    let module = parse_source(&mut ctx, &buffer).map_err(|d| format!("{name}: parse: {d:?}"))?;
    strata_ir::verifier::verify(&ctx, module).map_err(|d| format!("{name}: verify: {d:?}"))?;
    let func = lookup_function(&ctx, module, "main").ok_or("no @main")?;
    let mut rng = Rng(0x5eed ^ name.len() as u64);
    let args = inputs(&ctx, func, lo, hi, &mut rng);
    let expected =
        run_function(&ctx, func, args.clone()).map_err(|e| format!("{name}: graph: {e:?}"))?;
    let mut registry = PassRegistry::default();
    strata_lowering::register_passes(&mut registry);
    let mut pm = OpPassManager::parse(&registry, "builtin.module(convert-graph-to-tensor)")
        .map_err(|e| format!("{name}: pipeline: {e:?}"))?;
    pm.run(&mut ctx, module, &mut Instrumentation::default())
        .map_err(|d| {
            let messages: Vec<&String> = d.iter().map(|d| &d.message).collect();
            format!("{name}: lowering: {messages:?}")
        })?;
    strata_ir::verifier::verify(&ctx, module).map_err(|d| format!("{name}: lowered IR: {d:?}"))?;
    let graph_left = ctx
        .nested_ops(module, strata_ir::WalkOrder::PreOrder)
        .into_iter()
        .any(|o| ctx.op_name_str(o).starts_with("graph."));
    if graph_left {
        return Err(format!("{name}: graph ops are left"));
    }
    let actual = run_function(&ctx, func, args).map_err(|e| format!("{name}: tensor: {e:?}"))?;
    for (i, (a, e)) in actual.iter().zip(&expected).enumerate() {
        allclose(a, e, Tolerance::for_dtype(e.dtype()))
            .map_err(|m| format!("{name}: output #{i}: {m}"))?;
    }
    Ok(())
}

/// `@main` applying the unary op `op` to a `ty` tensor.
fn unary(op: &str, attrs: &str, ty: &str) -> String {
    format!(
        "func.func @main(%x: {ty}) -> {ty} {{\n  %0 = graph.{op} %x {attrs} : ({ty}) -> {ty}\n  return %0 : {ty}\n}}"
    )
}

/// `@main` applying the binary op `op` to `a` and `b`, giving `r`.
fn binary(op: &str, a: &str, b: &str, r: &str) -> String {
    format!(
        "func.func @main(%x: {a}, %y: {b}) -> {r} {{\n  %0 = graph.{op} %x, %y : ({a}, {b}) -> {r}\n  return %0 : {r}\n}}"
    )
}

fn func(args: &str, results: &str, body: &str) -> String {
    format!("func.func @main({args}) -> {results} {{\n{body}\n}}")
}

type Case = (String, String, f64, f64);

fn run_all(cases: &[Case]) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(n, t, lo, hi)| check(n, t, *lo, *hi).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn float_unary_cases(cases: &mut Vec<Case>) {
    let any = [
        "neg", "abs", "exp", "erf", "tanh", "sin", "cos", "sigmoid", "relu", "silu", "softplus",
        "sign", "identity",
    ];
    let positive = ["sqrt", "rsqrt", "reciprocal", "log"];
    // Inputs in [-4, 4] (halves included: 4 * k / 2^n hits them) and in
    // the domain [-1, 1] of the inverse sines.
    let rounding = ["floor", "ceil", "round", "atan"];
    let unit = ["asin", "acos"];
    let with_attrs = [
        ("leaky_relu", "{alpha = 0.2 : f64}"),
        ("elu", "{alpha = 0.7 : f64}"),
        ("hard_sigmoid", "{alpha = 0.3 : f64, beta = 0.4 : f64}"),
        ("gelu", ""),
        ("gelu", "{approximate = \"tanh\"}"),
    ];
    for ty in [
        "tensor<3x4xf32>",
        "tensor<3x4xf16>",
        "tensor<5xbf16>",
        "tensor<2x3xf64>",
    ] {
        for op in any {
            cases.push((format!("{op} {ty}"), unary(op, "", ty), -4.0, 4.0));
        }
        for op in positive {
            cases.push((format!("{op} {ty}"), unary(op, "", ty), 0.25, 4.0));
        }
        for op in rounding {
            cases.push((format!("{op} {ty}"), unary(op, "", ty), -4.0, 4.0));
        }
        for op in unit {
            cases.push((format!("{op} {ty}"), unary(op, "", ty), -1.0, 1.0));
        }
        for (op, attrs) in with_attrs {
            cases.push((
                format!("{op} {attrs} {ty}"),
                unary(op, attrs, ty),
                -4.0,
                4.0,
            ));
        }
    }
}

#[test]
fn elementwise_ops_match_the_interpreter() {
    let mut cases = Vec::new();
    float_unary_cases(&mut cases);
    for op in ["neg", "abs", "relu", "sign", "not"] {
        cases.push((
            format!("{op} i32"),
            unary(op, "", "tensor<7xi32>"),
            -9.0,
            9.0,
        ));
    }
    cases.push(("not i1".into(), unary("not", "", "tensor<7xi1>"), 0.0, 1.0));
    for op in ["add", "sub", "mul", "max", "min"] {
        for (a, b, r) in [
            ("tensor<3x4xf32>", "tensor<4xf32>", "tensor<3x4xf32>"),
            ("tensor<3x1xf16>", "tensor<1x4xf16>", "tensor<3x4xf16>"),
            ("tensor<2x3x4xi32>", "tensor<3x1xi32>", "tensor<2x3x4xi32>"),
        ] {
            cases.push((format!("{op} {a} {b}"), binary(op, a, b, r), -6.0, 6.0));
        }
    }
    // Divisors without zero: positive inputs, then a negated copy.
    for op in ["div", "mod"] {
        for ty in ["f32", "i32"] {
            let body = format!(
                "  %n = graph.neg %y : (tensor<4x{ty}>) -> tensor<4x{ty}>\n  %nx = graph.neg %x : (tensor<3x4x{ty}>) -> tensor<3x4x{ty}>\n  %0 = graph.{op} %x, %y : (tensor<3x4x{ty}>, tensor<4x{ty}>) -> tensor<3x4x{ty}>\n  %1 = graph.{op} %nx, %y : (tensor<3x4x{ty}>, tensor<4x{ty}>) -> tensor<3x4x{ty}>\n  %2 = graph.{op} %x, %n : (tensor<3x4x{ty}>, tensor<4x{ty}>) -> tensor<3x4x{ty}>\n  return %0, %1, %2 : tensor<3x4x{ty}>, tensor<3x4x{ty}>, tensor<3x4x{ty}>"
            );
            let sig = format!("%x: tensor<3x4x{ty}>, %y: tensor<4x{ty}>");
            let res = format!("(tensor<3x4x{ty}>, tensor<3x4x{ty}>, tensor<3x4x{ty}>)");
            cases.push((format!("{op} {ty}"), func(&sig, &res, &body), 1.0, 9.0));
        }
    }
    cases.push((
        "pow".into(),
        binary("pow", "tensor<3x4xf32>", "tensor<4xf32>", "tensor<3x4xf32>"),
        0.5,
        2.0,
    ));
    for op in ["and", "or", "xor"] {
        let b = binary(op, "tensor<3x4xi1>", "tensor<4xi1>", "tensor<3x4xi1>");
        cases.push((op.into(), b, 0.0, 1.0));
        let i = binary(op, "tensor<3x4xi8>", "tensor<4xi8>", "tensor<3x4xi8>");
        cases.push((format!("{op} i8"), i, -9.0, 9.0));
    }
    for op in ["equal", "less", "less_equal", "greater", "greater_equal"] {
        let f = binary(op, "tensor<3x4xf32>", "tensor<4xf32>", "tensor<3x4xi1>");
        cases.push((format!("{op} f32"), f, -1.0, 1.0));
        let i = binary(op, "tensor<3x4xi64>", "tensor<3x1xi64>", "tensor<3x4xi1>");
        cases.push((format!("{op} i64"), i, -2.0, 2.0));
    }
    cases.push((
        "where".into(),
        func(
            "%c: tensor<4xi1>, %x: tensor<3x4xf32>, %y: tensor<f32>",
            "tensor<3x4xf32>",
            "  %0 = graph.where %c, %x, %y : (tensor<4xi1>, tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>\n  return %0 : tensor<3x4xf32>",
        ),
        -3.0,
        3.0,
    ));
    cases.push((
        "clip".into(),
        func(
            "%x: tensor<3x4xf32>",
            "tensor<3x4xf32>",
            "  %lo = graph.constant dense<-1.0> : tensor<f32>\n  %hi = graph.constant dense<1.5> : tensor<f32>\n  %0 = graph.clip %x min %lo max %hi : (tensor<3x4xf32>, tensor<f32>, tensor<f32>) -> tensor<3x4xf32>\n  return %0 : tensor<3x4xf32>",
        ),
        -3.0,
        3.0,
    ));
    for (from, to) in [
        ("f32", "i32"),
        ("f32", "i1"),
        ("f32", "f16"),
        ("bf16", "f16"),
        ("f16", "f64"),
        ("i32", "f32"),
        ("i32", "i8"),
        ("i8", "i64"),
        ("i1", "f32"),
        ("i1", "i32"),
        ("i32", "i1"),
    ] {
        let (a, r) = (format!("tensor<6x{from}>"), format!("tensor<6x{to}>"));
        let text = func(
            &format!("%x: {a}"),
            &r,
            &format!("  %0 = graph.cast %x : ({a}) -> {r}\n  return %0 : {r}"),
        );
        let (lo, hi) = if from == "i1" {
            (0.0, 1.0)
        } else {
            (-100.0, 100.0)
        };
        cases.push((format!("cast {from} {to}"), text, lo, hi));
    }
    run_all(&cases);
}

fn reduce_cases(cases: &mut Vec<Case>) {
    let ops = [
        "reduce_sum",
        "reduce_mean",
        "reduce_max",
        "reduce_min",
        "reduce_prod",
        "reduce_sum_square",
        "reduce_l1",
        "reduce_l2",
    ];
    for op in ops {
        for ty in ["f32", "f16", "i32"] {
            if ty == "i32" && op == "reduce_l2" {
                continue;
            }
            let (x, k, all) = (
                format!("tensor<3x4x5x{ty}>"),
                format!("tensor<1x4x1x{ty}>"),
                format!("tensor<{ty}>"),
            );
            let body = format!(
                "  %axes = graph.constant dense<[0, -1]> : tensor<2xi64>\n  %0 = graph.{op} %x axes %axes : ({x}, tensor<2xi64>) -> {k}\n  %1 = graph.{op} %x {{keepdims = false}} : ({x}) -> {all}\n  return %0, %1 : {k}, {all}"
            );
            let (lo, hi) = match (op, ty) {
                ("reduce_prod", "i32") => (-1.4, 1.4),
                ("reduce_prod", _) => (0.7, 1.3),
                _ => (-3.0, 3.0),
            };
            let text = func(&format!("%x: {x}"), &format!("({k}, {all})"), &body);
            cases.push((format!("{op} {ty}"), text, lo, hi));
        }
    }
}

fn nn_cases(cases: &mut Vec<Case>) {
    for op in ["softmax", "log_softmax"] {
        for (ty, axis) in [
            ("tensor<3x7xf32>", -1),
            ("tensor<2x5x3xf32>", 1),
            ("tensor<4x6xf16>", 0),
        ] {
            let attrs = format!("{{axis = {axis} : i64}}");
            cases.push((format!("{op} {ty}"), unary(op, &attrs, ty), -5.0, 5.0));
        }
    }
    cases.push(("batch_norm".into(), func(
        "%x: tensor<2x3x4x2xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>",
        "tensor<2x3x4x2xf32>",
        "  %0 = graph.batch_norm %x, %s, %b, %m, %v : (tensor<2x3x4x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x2xf32>\n  return %0 : tensor<2x3x4x2xf32>"), 0.1, 2.0));
    cases.push(("layer_norm".into(), func(
        "%x: tensor<3x4x6xf32>, %s: tensor<6xf32>, %b: tensor<4x6xf32>",
        "tensor<3x4x6xf32>",
        "  %0 = graph.layer_norm %x, %s, %b {axis = 1 : i64} : (tensor<3x4x6xf32>, tensor<6xf32>, tensor<4x6xf32>) -> tensor<3x4x6xf32>\n  return %0 : tensor<3x4x6xf32>"), -2.0, 2.0));
    cases.push(("rms_norm".into(), func(
        "%x: tensor<3x8xf16>, %s: tensor<8xf16>",
        "tensor<3x8xf16>",
        "  %0 = graph.rms_norm %x, %s : (tensor<3x8xf16>, tensor<8xf16>) -> tensor<3x8xf16>\n  return %0 : tensor<3x8xf16>"), -2.0, 2.0));
    for (a, b, r) in [
        ("tensor<3x4xf32>", "tensor<4x5xf32>", "tensor<3x5xf32>"),
        ("tensor<2x3x4xf32>", "tensor<4x5xf32>", "tensor<2x3x5xf32>"),
        (
            "tensor<1x3x4xf16>",
            "tensor<2x4x5xf16>",
            "tensor<2x3x5xf16>",
        ),
        (
            "tensor<2x1x3x4xf32>",
            "tensor<5x4x2xf32>",
            "tensor<2x5x3x2xf32>",
        ),
        ("tensor<4xf32>", "tensor<4x5xf32>", "tensor<5xf32>"),
        ("tensor<2x3x4xf32>", "tensor<4xf32>", "tensor<2x3xf32>"),
        ("tensor<4xf32>", "tensor<4xf32>", "tensor<f32>"),
        ("tensor<3x4xi32>", "tensor<4x2xi32>", "tensor<3x2xi32>"),
    ] {
        let text = binary("matmul", a, b, r);
        cases.push((format!("matmul {a} {b}"), text, -2.0, 2.0));
    }
    cases.push(("gemm".into(), func(
        "%a: tensor<4x3xf32>, %b: tensor<5x4xf32>, %c: tensor<3x1xf32>",
        "tensor<3x5xf32>",
        "  %0 = graph.gemm %a, %b, %c {transA = true, transB = true, alpha = 0.5 : f64, beta = 2.0 : f64} : (tensor<4x3xf32>, tensor<5x4xf32>, tensor<3x1xf32>) -> tensor<3x5xf32>\n  return %0 : tensor<3x5xf32>"), -2.0, 2.0));
    let plain = binary(
        "gemm",
        "tensor<3x4xf32>",
        "tensor<4x2xf32>",
        "tensor<3x2xf32>",
    );
    cases.push(("gemm plain".into(), plain, -2.0, 2.0));
}

const MOVEMENT: &str = "  %t = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %s = graph.constant dense<[2, 5, 4]> : tensor<3xi64>
  %e = graph.expand %y, %s : (tensor<2x1x4xf32>, tensor<3xi64>) -> tensor<2x5x4xf32>
  %rs = graph.constant dense<[6, 4]> : tensor<2xi64>
  %r = graph.reshape %x, %rs : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %f = graph.flatten %x {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %a0 = graph.constant dense<[0]> : tensor<1xi64>
  %u = graph.unsqueeze %x, %a0 : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<1x2x3x4xf32>
  %a1 = graph.constant dense<[1]> : tensor<1xi64>
  %q = graph.squeeze %y axes %a1 : (tensor<2x1x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
  %c = graph.concat %x, %y, %x {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>, tensor<2x3x4xf32>) -> tensor<2x7x4xf32>
  %st = graph.constant dense<[-1, 3]> : tensor<2xi64>
  %en = graph.constant dense<[-100, 0]> : tensor<2xi64>
  %ax = graph.constant dense<[2, 1]> : tensor<2xi64>
  %sp = graph.constant dense<[-2, -1]> : tensor<2xi64>
  %sl = graph.slice %x, %st, %en axes %ax steps %sp : (tensor<2x3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x2x2xf32>
  %pads = graph.constant dense<[1, 2, 0, 1, 0, 0]> : tensor<6xi64>
  %pv = graph.constant dense<7.0> : tensor<f32>
  %p = graph.pad %x, %pads value %pv : (tensor<2x3x4xf32>, tensor<6xi64>, tensor<f32>) -> tensor<4x5x4xf32>
  %k = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %i = graph.identity %k : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %t, %e, %r, %f, %u, %q, %c, %sl, %p, %i : tensor<4x2x3xf32>, tensor<2x5x4xf32>, tensor<6x4xf32>, tensor<2x12xf32>, tensor<1x2x3x4xf32>, tensor<2x4xf32>, tensor<2x7x4xf32>, tensor<2x2x2xf32>, tensor<4x5x4xf32>, tensor<2x3xf32>";

#[test]
fn structured_ops_match_the_interpreter() {
    let mut cases = Vec::new();
    reduce_cases(&mut cases);
    nn_cases(&mut cases);
    cases.push((
        "movement".into(),
        func(
            "%x: tensor<2x3x4xf32>, %y: tensor<2x1x4xf32>",
            "(tensor<4x2x3xf32>, tensor<2x5x4xf32>, tensor<6x4xf32>, tensor<2x12xf32>, tensor<1x2x3x4xf32>, tensor<2x4xf32>, tensor<2x7x4xf32>, tensor<2x2x2xf32>, tensor<4x5x4xf32>, tensor<2x3xf32>)",
            MOVEMENT,
        ),
        -2.0,
        2.0,
    ));
    cases.push(("chain".into(), func(
        "%x: tensor<4x8xf32>, %w: tensor<8x3xf32>, %b: tensor<3xf32>",
        "tensor<4x3xf32>",
        "  %0 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>\n  %1 = graph.add %0, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>\n  %2 = graph.relu %1 : (tensor<4x3xf32>) -> tensor<4x3xf32>\n  %3 = graph.softmax %2 : (tensor<4x3xf32>) -> tensor<4x3xf32>\n  return %3 : tensor<4x3xf32>"), -1.0, 1.0));
    run_all(&cases);
}

/// `@main` applying `op {attrs}` to an `x` tensor (and `w`, `b` when given).
fn window(op: &str, attrs: &str, x: &str, w: Option<&str>, b: Option<&str>, r: &str) -> String {
    let mut args = format!("%x: {x}");
    let mut operands = "%x".to_string();
    let mut types = x.to_string();
    for (name, ty) in [("w", w), ("b", b)] {
        if let Some(ty) = ty {
            args.push_str(&format!(", %{name}: {ty}"));
            operands.push_str(&format!(", %{name}"));
            types.push_str(&format!(", {ty}"));
        }
    }
    func(
        &args,
        r,
        &format!("  %0 = graph.{op} {operands} {attrs} : ({types}) -> {r}\n  return %0 : {r}"),
    )
}

#[test]
fn window_ops_match_the_interpreter() {
    let mut cases: Vec<Case> = Vec::new();
    for (attrs, x, w, b, r) in [
        (
            "",
            "tensor<1x2x5x5xf32>",
            "tensor<3x2x3x3xf32>",
            None,
            "tensor<1x3x3x3xf32>",
        ),
        (
            "{pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}",
            "tensor<2x3x6x5xf32>",
            "tensor<4x3x3x3xf32>",
            Some("tensor<4xf32>"),
            "tensor<2x4x3x3xf32>",
        ),
        (
            "{pads = array<i64: 2, 0, 1, 1>, dilations = array<i64: 2, 1>, group = 2 : i64}",
            "tensor<1x4x5x4xf32>",
            "tensor<6x2x2x3xf32>",
            Some("tensor<6xf32>"),
            "tensor<1x6x6x3xf32>",
        ),
        (
            "{pads = array<i64: 1, 1, 1, 1>, group = 3 : i64}",
            "tensor<1x3x4x4xf16>",
            "tensor<3x1x3x3xf16>",
            None,
            "tensor<1x3x4x4xf16>",
        ),
    ] {
        let text = window("conv2d", attrs, x, Some(w), b, r);
        cases.push((format!("conv2d {attrs} {x} {w}"), text, -1.0, 1.0));
    }
    for (op, attrs, x, r) in [
        ("max_pool2d", "{kernel_shape = array<i64: 2, 2>}", "tensor<1x2x4x5xf32>", "tensor<1x2x3x4xf32>"),
        (
            "max_pool2d",
            "{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, ceil_mode = true}",
            "tensor<1x2x6x6xf16>",
            "tensor<1x2x4x4xf16>",
        ),
        (
            "max_pool2d",
            "{kernel_shape = array<i64: 2, 2>, dilations = array<i64: 2, 2>}",
            "tensor<1x1x5x5xi8>",
            "tensor<1x1x3x3xi8>",
        ),
        (
            "avg_pool2d",
            "{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}",
            "tensor<2x2x4x4xf32>",
            "tensor<2x2x4x4xf32>",
        ),
        (
            "avg_pool2d",
            "{kernel_shape = array<i64: 3, 2>, pads = array<i64: 1, 0, 1, 1>, count_include_pad = true, strides = array<i64: 2, 2>, ceil_mode = true}",
            "tensor<1x2x6x5xf32>",
            "tensor<1x2x4x3xf32>",
        ),
        ("avg_pool2d", "{kernel_shape = array<i64: 2, 2>}", "tensor<1x3x4x4xf16>", "tensor<1x3x3x3xf16>"),
        ("global_avg_pool", "", "tensor<2x3x4x5xf32>", "tensor<2x3x1x1xf32>"),
        ("global_max_pool", "", "tensor<2x3x4x5xf16>", "tensor<2x3x1x1xf16>"),
    ] {
        let text = window(op, attrs, x, None, None, r);
        cases.push((format!("{op} {attrs} {x}"), text, -9.0, 9.0));
    }
    run_all(&cases);
}

#[test]
fn gathers_match_the_interpreter() {
    let cases: Vec<Case> = vec![
        (
            "gather embedding".into(),
            func(
                "%t: tensor<10x4xf32>",
                "(tensor<2x3x4xf32>, tensor<10x2xf32>, tensor<4xf32>)",
                "  %i = graph.constant dense<[[0, 9, -1], [3, -10, 4]]> : tensor<2x3xi64>
  %0 = graph.gather %t[%i] : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %j = graph.constant dense<[1, -1]> : tensor<2xi32>
  %1 = graph.gather %t[%j] {axis = 1 : i64} : (tensor<10x4xf32>, tensor<2xi32>) -> tensor<10x2xf32>
  %k = graph.constant dense<7> : tensor<i64>
  %2 = graph.gather %t[%k] : (tensor<10x4xf32>, tensor<i64>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<10x2xf32>, tensor<4xf32>",
            ),
            -2.0,
            2.0,
        ),
        (
            "gather_elements".into(),
            func(
                "%t: tensor<3x4xf32>",
                "(tensor<2x4xf32>, tensor<3x2xf32>)",
                "  %i = graph.constant dense<[[0, 2, -1, 1], [-3, 1, 2, 0]]> : tensor<2x4xi64>
  %0 = graph.gather_elements %t[%i] : (tensor<3x4xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  %j = graph.constant dense<[[3, 0], [-1, 2], [1, -4]]> : tensor<3x2xi64>
  %1 = graph.gather_elements %t[%j] {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<3x2xf32>",
            ),
            -2.0,
            2.0,
        ),
    ];
    run_all(&cases);
}

#[test]
fn regressions_match_the_interpreter() {
    let cases: Vec<Case> = vec![
        // A pad value of shape [1] (ONNX Pad allows it) is read at [0].
        (
            "pad value [1]".into(),
            func(
                "%x: tensor<2x3xf32>, %v: tensor<1xf32>",
                "tensor<4x3xf32>",
                "  %pads = graph.constant dense<[1, 0, 1, 0]> : tensor<4xi64>\n  %0 = graph.pad %x, %pads value %v : (tensor<2x3xf32>, tensor<4xi64>, tensor<1xf32>) -> tensor<4x3xf32>\n  return %0 : tensor<4x3xf32>",
            ),
            -2.0,
            2.0,
        ),
        // Round takes halves to even.
        (
            "round halves".into(),
            func(
                "%x: tensor<8xf32>",
                "tensor<8xf32>",
                "  %c = graph.constant dense<[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49, -3.51]> : tensor<8xf32>\n  %0 = graph.round %c : (tensor<8xf32>) -> tensor<8xf32>\n  %1 = graph.add %0, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>\n  return %1 : tensor<8xf32>",
            ),
            0.0,
            0.0,
        ),
    ];
    run_all(&cases);
}

/// `@main` resizing `x` with the constant `target` (`scales` or `sizes`
/// and its value), giving `r`.
fn resize(attrs: &str, x: &str, target: (&str, &str, &str), roi: Option<&str>, r: &str) -> String {
    let (kind, value, ty) = target;
    let (roi_def, roi_use, roi_ty) = match roi {
        Some(v) => (
            format!("  %r = graph.constant dense<{v}> : tensor<8xf32>\n"),
            " roi %r",
            ", tensor<8xf32>",
        ),
        None => (String::new(), "", ""),
    };
    func(
        &format!("%x: {x}"),
        r,
        &format!(
            "{roi_def}  %t = graph.constant dense<{value}> : {ty}\n  %0 = graph.resize %x{roi_use} {kind} %t {attrs} : ({x}{roi_ty}, {ty}) -> {r}\n  return %0 : {r}"
        ),
    )
}

#[test]
fn resizes_match_the_interpreter() {
    let x = "tensor<1x2x4x4xf32>";
    let up = ("scales", "[1.0, 1.0, 2.0, 1.5]", "tensor<4xf32>");
    let down = ("sizes", "[1, 2, 3, 2]", "tensor<4xi64>");
    let (r_up, r_down) = ("tensor<1x2x8x6xf32>", "tensor<1x2x3x2xf32>");
    let mut cases: Vec<Case> = Vec::new();
    for mode in ["nearest", "linear", "cubic"] {
        for coord in [
            "half_pixel",
            "half_pixel_symmetric",
            "pytorch_half_pixel",
            "align_corners",
            "asymmetric",
        ] {
            let attrs =
                format!("{{mode = \"{mode}\", coordinate_transformation_mode = \"{coord}\"}}");
            cases.push((
                format!("resize up {attrs}"),
                resize(&attrs, x, up, None, r_up),
                -3.0,
                3.0,
            ));
            cases.push((
                format!("resize down {attrs}"),
                resize(&attrs, x, down, None, r_down),
                -3.0,
                3.0,
            ));
        }
    }
    for attrs in [
        "{nearest_mode = \"floor\"}",
        "{nearest_mode = \"ceil\", coordinate_transformation_mode = \"asymmetric\"}",
        "{nearest_mode = \"round_prefer_ceil\"}",
        "{mode = \"cubic\", cubic_coeff_a = -5.000000e-01 : f64, exclude_outside = true}",
    ] {
        cases.push((
            format!("resize {attrs}"),
            resize(attrs, x, up, None, r_up),
            -3.0,
            3.0,
        ));
    }
    // Nearest copies any dtype; f16 computes in f32; axes and a policy.
    for (attrs, x, target, r) in [
        (
            "",
            "tensor<2x3xi32>",
            ("sizes", "[4, 7]", "tensor<2xi64>"),
            "tensor<4x7xi32>",
        ),
        (
            "{mode = \"linear\", axes = array<i64: 1, 2>}",
            "tensor<1x3x4xf16>",
            ("scales", "[2.0, 0.5]", "tensor<2xf32>"),
            "tensor<1x6x2xf16>",
        ),
        (
            "{axes = array<i64: 2, 1>, keep_aspect_ratio_policy = \"not_larger\"}",
            "tensor<1x4x4xf32>",
            ("sizes", "[7, 9]", "tensor<2xi64>"),
            "tensor<1x7x7xf32>",
        ),
    ] {
        cases.push((
            format!("resize {attrs} {x}"),
            resize(attrs, x, target, None, r),
            -9.0,
            9.0,
        ));
    }
    // Crop and resize: positions outside the region extrapolate.
    let roi = "[0.0, 0.0, 0.4, 0.6, 1.0, 1.0, 1.2, 1.7]";
    for mode in ["nearest", "linear", "cubic"] {
        let attrs = format!(
            "{{mode = \"{mode}\", coordinate_transformation_mode = \"tf_crop_and_resize\", extrapolation_value = 1.000000e+01 : f64}}"
        );
        let z = ("sizes", "[1, 2, 3, 3]", "tensor<4xi64>");
        let r = "tensor<1x2x3x3xf32>";
        cases.push((
            format!("resize crop {mode}"),
            resize(&attrs, x, z, Some(roi), r),
            -3.0,
            3.0,
        ));
    }
    run_all(&cases);
}
