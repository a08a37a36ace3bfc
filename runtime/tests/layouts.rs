//! `optimize.layout = "nhwc"`: convolutions and pools compiled channels
//! last compute what the interpreter computes in NCHW, over strides, pads,
//! dilations, groups (depthwise too), bias or none, max and average pools
//! (padding counted or not, `ceil_mode`), with library and generated
//! matrix products; and the transposes between them cancel.

use strata_ir::{parser, Context, SourceBuffer};
use strata_recipe::{Format, LoadOptions, Recipe};
use strata_runtime::compiled::compile_with;
use strata_runtime::interp::{lookup_function, run_function};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::Tensor;

fn pipeline(recipe: &str) -> String {
    Recipe::parse(recipe, "r.toml", Format::Toml, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .recipe
        .pipeline()
}

fn parse(text: &str) -> (Context, strata_ir::Operation) {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    strata_runtime::interp::install_folding(&mut ctx);
    let buffer = SourceBuffer::new("layout.mlir", text);
    let module = parser::parse_source(&mut ctx, &buffer)
        .unwrap_or_else(|d| panic!("parse: {}\n{text}", d[0].message));
    (ctx, module)
}

/// Deterministic values in [-1, 1) for a tensor of `shape`.
fn values(shape: &[usize], seed: u64) -> Tensor {
    let n: usize = shape.iter().product();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let v: Vec<f32> = (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect();
    Tensor::from_f32(shape.to_vec(), v).expect("tensor")
}

/// `text`'s `@main` on inputs of `shapes`: eager against the plan that
/// `recipe` compiles; returns the plan's launch count.
fn agree(text: &str, shapes: &[Vec<usize>], recipe: &str) -> usize {
    let inputs: Vec<Tensor> = shapes
        .iter()
        .enumerate()
        .map(|(i, s)| values(s, i as u64 + 1))
        .collect();
    let (ctx, module) = parse(text);
    let f = lookup_function(&ctx, module, "main").expect("@main");
    let want = run_function(&ctx, f, inputs.clone()).unwrap_or_else(|e| panic!("eager: {e}"));
    let (mut ctx, module) = parse(text);
    let model = compile_with(&mut ctx, module, "main", shapes, 1, &pipeline(recipe))
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let got = model.run(&inputs).expect("graph");
    for (g, w) in got.iter().zip(&want) {
        allclose(g, w, Tolerance::for_dtype(w.dtype()))
            .unwrap_or_else(|m| panic!("{m}\n{recipe}\n{text}"));
    }
    model.launches()
}

const NHWC: &str = "[optimize]\nlayout = \"nhwc\"\n";
const NHWC_GENERATED: &str =
    "[optimize]\nlayout = \"nhwc\"\n[codegen]\nkernel_selection = \"generated\"\n";

/// A conv's output size along one axis.
fn out(len: i64, k: i64, s: i64, d: i64, pb: i64, pe: i64) -> i64 {
    (len + pb + pe - d * (k - 1) - 1) / s + 1
}

#[test]
fn convolutions_agree() {
    // (channels, out channels, group, kernel, stride, dilation, pads, bias)
    type Case = (i64, i64, i64, i64, i64, i64, [i64; 4], bool);
    let cases: &[Case] = &[
        (3, 4, 1, 3, 1, 1, [1, 1, 1, 1], true),
        (3, 5, 1, 3, 2, 1, [1, 0, 2, 1], false),
        (4, 6, 2, 3, 1, 2, [2, 2, 2, 2], true),
        (4, 4, 4, 3, 2, 1, [1, 1, 1, 1], true),
        (6, 3, 3, 1, 1, 1, [0, 0, 0, 0], false),
        (2, 8, 1, 5, 3, 1, [0, 2, 1, 0], true),
    ];
    for &(c, m, g, k, s, d, pads, bias) in cases {
        let (h, w) = (9, 7);
        let oh = out(h, k, s, d, pads[0], pads[2]);
        let ow = out(w, k, s, d, pads[1], pads[3]);
        let (b_arg, b_use, b_ty) = if bias {
            (
                format!(", %b: tensor<{m}xf32>"),
                ", %b".to_string(),
                format!(", tensor<{m}xf32>"),
            )
        } else {
            Default::default()
        };
        let text = format!(
            "func.func @main(%x: tensor<2x{c}x{h}x{w}xf32>, %w: tensor<{m}x{cg}x{k}x{k}xf32>{b_arg}) -> tensor<2x{m}x{oh}x{ow}xf32> {{\n  \
             %0 = graph.conv2d %x, %w{b_use} {{group = {g} : i64, strides = array<i64: {s}, {s}>, dilations = array<i64: {d}, {d}>, pads = array<i64: {p0}, {p1}, {p2}, {p3}>}} : (tensor<2x{c}x{h}x{w}xf32>, tensor<{m}x{cg}x{k}x{k}xf32>{b_ty}) -> tensor<2x{m}x{oh}x{ow}xf32>\n  \
             %1 = graph.relu %0 : (tensor<2x{m}x{oh}x{ow}xf32>) -> tensor<2x{m}x{oh}x{ow}xf32>\n  \
             return %1 : tensor<2x{m}x{oh}x{ow}xf32>\n}}\n",
            cg = c / g,
            p0 = pads[0],
            p1 = pads[1],
            p2 = pads[2],
            p3 = pads[3],
        );
        let mut shapes = vec![
            vec![2, c as usize, h as usize, w as usize],
            vec![m as usize, (c / g) as usize, k as usize, k as usize],
        ];
        if bias {
            shapes.push(vec![m as usize]);
        }
        for recipe in ["", NHWC, NHWC_GENERATED] {
            agree(&text, &shapes, recipe);
        }
    }
}

#[test]
fn pools_agree() {
    // (op, kernel, stride, pads, extra attributes)
    let cases: &[(&str, i64, i64, [i64; 4], &str)] = &[
        ("max_pool2d", 2, 2, [0, 0, 0, 0], ""),
        ("max_pool2d", 3, 2, [1, 1, 1, 1], ", ceil_mode = true"),
        (
            "avg_pool2d",
            3,
            1,
            [1, 1, 1, 1],
            ", count_include_pad = true",
        ),
        ("avg_pool2d", 3, 2, [1, 0, 1, 0], ""),
        ("max_pool2d", 9, 1, [0, 0, 0, 0], ""),
    ];
    for &(op, k, s, pads, extra) in cases {
        let (h, w) = (9, 10);
        let ceil = extra.contains("ceil_mode");
        let size = |len: i64, pb: i64, pe: i64| {
            let span = len + pb + pe - k;
            if ceil {
                (span + s - 1) / s + 1
            } else {
                span / s + 1
            }
        };
        let (oh, ow) = (size(h, pads[0], pads[2]), size(w, pads[1], pads[3]));
        let text = format!(
            "func.func @main(%x: tensor<2x3x{h}x{w}xf32>) -> tensor<2x3x{oh}x{ow}xf32> {{\n  \
             %0 = graph.{op} %x {{kernel_shape = array<i64: {k}, {k}>, strides = array<i64: {s}, {s}>, pads = array<i64: {p0}, {p1}, {p2}, {p3}>{extra}}} : (tensor<2x3x{h}x{w}xf32>) -> tensor<2x3x{oh}x{ow}xf32>\n  \
             return %0 : tensor<2x3x{oh}x{ow}xf32>\n}}\n",
            p0 = pads[0],
            p1 = pads[1],
            p2 = pads[2],
            p3 = pads[3],
        );
        for recipe in ["", NHWC] {
            agree(&text, &[vec![2, 3, h as usize, w as usize]], recipe);
        }
    }
}

/// Conv, batch norm, relu, conv, residual add: the transposes between the
/// convolutions cancel, so channels last adds only the input's and the
/// output's (and folds the weights' away).
#[test]
fn a_residual_block_agrees_and_its_transposes_cancel() {
    let text = r#"
func.func @main(%x: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w = graph.constant dense<0.0625> : tensor<8x8x3x3xf32>
  %s = graph.constant dense<[1.0, 2.0, 0.5, 1.5, 1.0, 0.25, 3.0, 1.0]> : tensor<8xf32>
  %b = graph.constant dense<[0.0, 0.1, -0.2, 0.3, 0.0, 0.5, -1.0, 0.25]> : tensor<8xf32>
  %m = graph.constant dense<0.125> : tensor<8xf32>
  %v = graph.constant dense<[1.0, 2.0, 4.0, 0.5, 1.0, 1.0, 2.0, 3.0]> : tensor<8xf32>
  %0 = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v : (tensor<1x8x6x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
  %2 = graph.relu %1 : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %3 = graph.conv2d %2, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %4 = graph.add %3, %x : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %5 = graph.relu %4 : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %5 : tensor<1x8x6x6xf32>
}
"#;
    let shapes = [vec![1, 8, 6, 6]];
    let nchw = agree(text, &shapes, "[optimize]\nlayout = \"nchw\"\n");
    let nhwc = agree(text, &shapes, NHWC);
    agree(text, &shapes, NHWC_GENERATED);
    // The input's transpose, and at most one more step than NCHW's plan
    // (whose products need their epilogues to transpose).
    assert!(nhwc <= nchw + 2, "nhwc {nhwc} steps, nchw {nchw}");
    let (mut ctx, module) = parse(text);
    let passes = "builtin.module(graph-infer-shapes,canonicalize,graph-convert-conv-layout,graph-eliminate-layout,graph-fold-constants,dce)";
    run_passes(&mut ctx, module, passes);
    let printed = strata_ir::printer::print_operation(&ctx, module, Default::default());
    // The input's, into the first conv, and the second conv's result's,
    // into the residual add (which reads the NCHW input).
    assert_eq!(printed.matches("graph.transpose").count(), 2, "{printed}");
}

fn run_passes(ctx: &mut Context, module: strata_ir::Operation, pipeline: &str) {
    use strata_ir::pass::{Instrumentation, OpPassManager, PassRegistry};
    let mut registry = PassRegistry::default();
    strata_passes::register_all(&mut registry);
    strata_lowering::register_passes(&mut registry);
    let mut pm = OpPassManager::parse(&registry, pipeline)
        .unwrap_or_else(|e| panic!("{}", e.render(pipeline)));
    pm.run(ctx, module, &mut Instrumentation::default())
        .unwrap_or_else(|d| panic!("{}", d[0].message));
}
