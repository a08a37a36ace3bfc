//! The GPU form of the example models' kernels (`convert-kernel-to-nvptx`),
//! checked without a GPU two ways: every kernel's PTX is assembled by
//! ptxas for sm_80 and sm_90, and the host plan run with each GPU kernel
//! emulated on the CPU, one thread after another, computes what the
//! interpreter does. Without ptxas the assembling fails and says so, unless
//! STRATA_SKIP_CUDA_TOOLS is set (then it says "skipped").

use strata_dialects::kernel::types;
use strata_dialects::nvptx::layout::BlockedLayout;
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

/// Softmax over rows wider than a block, elementwise chains over a ragged
/// and a whole tile.
const WIDE: &str = r#"
func.func @main(%x: tensor<6x1001xf32>, %y: tensor<3x1003xf32>, %z: tensor<4096xf32>) -> (tensor<6x1001xf32>, tensor<3x1003xf32>, tensor<4096xf32>) {
  %s = graph.softmax %x {axis = -1 : i64} : (tensor<6x1001xf32>) -> tensor<6x1001xf32>
  %a = graph.exp %y : (tensor<3x1003xf32>) -> tensor<3x1003xf32>
  %b = graph.mul %a, %y : (tensor<3x1003xf32>, tensor<3x1003xf32>) -> tensor<3x1003xf32>
  %c = graph.tanh %z : (tensor<4096xf32>) -> tensor<4096xf32>
  %d = graph.add %c, %z : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<4096xf32>
  return %s, %b, %d : tensor<6x1001xf32>, tensor<3x1003xf32>, tensor<4096xf32>
}
"#;

/// f16, bf16 (batched) and f32 products with an epilogue.
const MATMULS: &str = r#"
func.func @main(%x: tensor<70x100xf16>, %w: tensor<100x72xf16>, %b: tensor<72xf16>, %p: tensor<3x33x48xbf16>, %q: tensor<3x48x40xbf16>, %f: tensor<37x50xf32>, %g: tensor<50x29xf32>) -> (tensor<70x72xf16>, tensor<3x33x40xbf16>, tensor<37x29xf32>) {
  %m = graph.matmul %x, %w : (tensor<70x100xf16>, tensor<100x72xf16>) -> tensor<70x72xf16>
  %y = graph.add %m, %b : (tensor<70x72xf16>, tensor<72xf16>) -> tensor<70x72xf16>
  %r = graph.relu %y : (tensor<70x72xf16>) -> tensor<70x72xf16>
  %bm = graph.matmul %p, %q : (tensor<3x33x48xbf16>, tensor<3x48x40xbf16>) -> tensor<3x33x40xbf16>
  %fm = graph.matmul %f, %g : (tensor<37x50xf32>, tensor<50x29xf32>) -> tensor<37x29xf32>
  return %r, %bm, %fm : tensor<70x72xf16>, tensor<3x33x40xbf16>, tensor<37x29xf32>
}
"#;

/// Module `text` parsed (named `name` in diagnostics).
fn parse_model(name: &str, text: &str) -> (strata_ir::Context, strata_ir::Operation) {
    let mut ctx = strata_ir::Context::new();
    strata_dialects::register_all(&mut ctx);
    let buffer = strata_ir::SourceBuffer::new(name, text);
    let module = strata_ir::parser::parse_source(&mut ctx, &buffer)
        .unwrap_or_else(|d| panic!("parse: {}", d[0].message));
    (ctx, module)
}

/// A tensor of `shape` holding `((37 i) % 101 - 50) / scale` at element `i`.
fn ramp(dtype: DType, shape: &[usize], scale: f64) -> Tensor {
    let n: usize = shape.iter().product();
    let values: Vec<f64> = (0..n)
        .map(|i| ((i * 37 % 101) as f64 - 50.0) / scale)
        .collect();
    Tensor::from_f64_vec(dtype, shape, &values)
}

/// WIDE's inputs, ramps divided by `scale`.
fn wide_inputs(scale: f64) -> Vec<Tensor> {
    [&[6, 1001][..], &[3, 1003], &[4096]]
        .iter()
        .map(|s| ramp(DType::F32, s, scale))
        .collect()
}

/// MATMULS' inputs.
fn matmul_inputs() -> Vec<Tensor> {
    [
        (DType::F16, &[70, 100][..]),
        (DType::F16, &[100, 72]),
        (DType::F16, &[72]),
        (DType::BF16, &[3, 33, 48]),
        (DType::BF16, &[3, 48, 40]),
        (DType::F32, &[37, 50]),
        (DType::F32, &[50, 29]),
    ]
    .iter()
    .map(|&(d, s)| ramp(d, s, 64.0))
    .collect()
}

/// Rows wider than a block and tiles whose size is not a multiple of a
/// run: softmax over rows of 1000 (runs of four in the block reductions,
/// the last run of each row partly outside its tile's mask), an
/// elementwise chain over 3x1003 (runs of four in the store, the
/// ragged last one per element) and over 4096 (whole runs, vector
/// stores), emulated against the interpreter.
#[test]
fn wide_rows_and_ragged_runs() {
    let inputs = wide_inputs(25.0);
    let parse = || parse_model("wide.mlir", WIDE);
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
        emulate_and_compare(&ctx, module, &inputs, &want, &format!("sm_{sm}"));
    }
}

/// Matrix products on the block: f16 and bf16 on `mma_sync` (operands
/// staged in shared memory, the accumulator in the mma layout across the
/// K loop, then through shared memory to the epilogue), f32 staged and
/// computed per element; ragged M, N and K (masked staging), a batched
/// product, and products in which the warps split the tile both ways.
#[test]
fn matmuls_on_the_block() {
    let inputs = matmul_inputs();
    let parse = || parse_model("matmuls.mlir", MATMULS);
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
        emulate_and_compare(&ctx, module, &inputs, &want, &format!("sm_{sm}"));
    }
}

/// A layout other than the default for a tile of `shape` on `warps`
/// warps: one element per thread, lanes and warps spread along the first
/// dimension first (`order = [0, 1, ...]`), where the defaults spread them
/// along the last.
fn first_dim_layout(shape: &[i64], warps: i64) -> BlockedLayout {
    let rank = shape.len();
    let (mut lanes, mut left) = (32, warps);
    let (mut tpw, mut wpc) = (vec![1; rank], vec![1; rank]);
    for d in 0..rank {
        let n = (shape[d].max(1) as u64).next_power_of_two() as i64;
        tpw[d] = if d + 1 == rank { lanes } else { lanes.min(n) };
        lanes /= tpw[d];
        let rows = ((shape[d] + tpw[d] - 1) / tpw[d]).max(1);
        let rows = (rows as u64).next_power_of_two() as i64;
        wpc[d] = if d + 1 == rank { left } else { left.min(rows) };
        left /= wpc[d];
    }
    BlockedLayout {
        size_per_thread: vec![1; rank],
        threads_per_warp: tpw,
        warps_per_cta: wpc,
        order: (0..rank).collect(),
    }
}

/// The layouts on the kernel IR's tile types are followed: after the
/// default conversion has given its tiles layouts, every blocked one (a
/// store's, a block reduction's, a carried tile's, a staged dot operand's,
/// and those of the tiles computed for them) is replaced (by a
/// first-dimension-first one with one element per thread, then by one of
/// 2-element boxes in every dimension), the conversion runs again and keeps
/// them, and the kernels, emulated, still compute what the interpreter
/// does.
#[test]
fn layouts_in_the_ir_are_followed() {
    let cases = [(WIDE, wide_inputs(64.0)), (MATMULS, matmul_inputs())];
    type Variant = fn(&[i64], i64) -> BlockedLayout;
    let variants: [(&str, Variant); 2] = [
        ("first dimension first", first_dim_layout),
        ("boxes of 2 in every dimension", boxed_layout),
    ];
    for ((model, inputs), (name, variant)) in cases
        .iter()
        .flat_map(|c| variants.iter().map(move |v| (c, v)))
    {
        let (want, mut ctx, module) = eager_and_lowered("layouts.mlir", model, inputs);
        // Replace every blocked layout the conversion gave a tile type (a
        // dot's MMA one stays), the same one for tiles of one shape and one
        // layout, which keeps the types consistent (an op's operands and
        // results that share a layout share the new one).
        let mut given = Vec::new();
        let kernels: Vec<_> = ctx
            .nested_ops(module, strata_ir::WalkOrder::PreOrder)
            .into_iter()
            .filter(|&op| ctx.op_name_str(op) == "kernel.func")
            .collect();
        let mut renamed = std::collections::HashMap::new();
        for k in kernels {
            let warps = kernel_warps(&ctx, k);
            let mut values = Vec::new();
            for op in ctx.nested_ops(k, strata_ir::WalkOrder::PreOrder) {
                values.extend(ctx.results(op));
                for &r in ctx.op_regions(op) {
                    for b in ctx.region_blocks(r) {
                        values.extend(ctx.block_args(b));
                    }
                }
            }
            for v in values {
                let ty = ctx.value_type(v);
                let Some(old) = types::encoding_of(&ctx, ty) else {
                    continue;
                };
                if BlockedLayout::from_attr(&mut ctx, old).is_none_or(|l| l.is_err()) {
                    continue;
                }
                let shape = types::tile_shape(&ctx, ty);
                let new = *renamed
                    .entry((old, shape.clone()))
                    .or_insert_with(|| variant(&shape, warps).to_attr(&mut ctx));
                let t = types::with_encoding(&mut ctx, ty, Some(new));
                ctx.set_value_type(v, t);
                given.push((v, t));
            }
        }
        assert!(!given.is_empty(), "the conversion gives tiles layouts");
        convert_again(&mut ctx, module, name);
        // The tiles' layouts are still the given ones.
        for &(v, t) in &given {
            assert_eq!(ctx.value_type(v), t, "{name}: a given layout kept");
        }
        emulate_and_compare(&ctx, module, inputs, &want, name);
    }
}

/// Another layout than the default: boxes of 2 along every dimension of
/// even size, lanes and warps along the innermost dimension first.
fn boxed_layout(shape: &[i64], warps: i64) -> BlockedLayout {
    let rank = shape.len();
    let spt: Vec<i64> = shape
        .iter()
        .map(|&d| if d % 2 == 0 { 2 } else { 1 })
        .collect();
    let (mut lanes, mut left) = (32, warps);
    let (mut tpw, mut wpc) = (vec![1; rank], vec![1; rank]);
    for d in (0..rank).rev() {
        let boxes = (shape[d] / spt[d]).max(1);
        let n = (boxes as u64).next_power_of_two() as i64;
        tpw[d] = if d == 0 { lanes } else { lanes.min(n) };
        lanes /= tpw[d];
        let rows = ((boxes + tpw[d] - 1) / tpw[d]).max(1);
        let rows = (rows as u64).next_power_of_two() as i64;
        wpc[d] = if d == 0 { left } else { left.min(rows) };
        left /= wpc[d];
    }
    BlockedLayout {
        size_per_thread: spt,
        threads_per_warp: tpw,
        warps_per_cta: wpc,
        order: (0..rank).rev().collect(),
    }
}

/// Layout conversions go through shared memory correctly: after the
/// default conversion, the value of every tile store is converted to
/// another layout and back (`kernel.convert_layout` twice, each a write to
/// shared memory between barriers that the emulator checks for races), the
/// conversion runs again, and the kernels, emulated, still compute what
/// the interpreter does.
#[test]
fn conversions_through_shared_memory() {
    let inputs = wide_inputs(64.0);
    let (want, mut ctx, module) = eager_and_lowered("conversions.mlir", WIDE, &inputs);
    let kernels: Vec<_> = ctx
        .nested_ops(module, strata_ir::WalkOrder::PreOrder)
        .into_iter()
        .filter(|&op| ctx.op_name_str(op) == "kernel.func")
        .collect();
    let mut converted = 0;
    for k in kernels {
        let warps = kernel_warps(&ctx, k);
        let stores: Vec<_> = ctx
            .nested_ops(k, strata_ir::WalkOrder::PreOrder)
            .into_iter()
            .filter(|&op| ctx.op_name_str(op) == "kernel.store")
            .collect();
        for store in stores {
            let value = ctx.operand(store, 1);
            let ty = ctx.value_type(value);
            let Some(held) = types::encoding_of(&ctx, ty) else {
                continue;
            };
            let shape = types::tile_shape(&ctx, ty);
            let other = first_dim_layout(&shape, warps).to_attr(&mut ctx);
            if other == held {
                continue;
            }
            let mut v = value;
            for enc in [other, held] {
                let t = types::with_encoding(&mut ctx, ty, Some(enc));
                let name = ctx.ident("kernel.convert_layout");
                let mut st = strata_ir::OperationState::new(name, ctx.op_loc(store));
                st.operands = vec![v];
                st.result_types = vec![t];
                let c = ctx.create_operation(st);
                ctx.insert_op_before(store, c);
                v = ctx.result(c, 0);
            }
            ctx.set_operand(store, 1, v);
            converted += 1;
        }
    }
    assert!(converted > 0, "stores of tiles in a layout");
    convert_again(&mut ctx, module, "conversions");
    let text = strata_ir::printer::print_operation(&ctx, module, Default::default());
    assert!(
        text.contains("nvptx.shared_alloc"),
        "conversions use shared memory"
    );
    emulate_and_compare(&ctx, module, &inputs, &want, "with conversions");
}

/// `model` run by the interpreter on `inputs`, and parsed again and lowered
/// for sm_80 (`lower`, the GPU form included): the results, and the
/// lowered module in its context.
fn eager_and_lowered(
    name: &str,
    model: &str,
    inputs: &[Tensor],
) -> (Vec<Tensor>, strata_ir::Context, strata_ir::Operation) {
    let (ctx, module) = parse_model(name, model);
    let f = lookup_function(&ctx, module, "main").expect("@main");
    let want = run_function(&ctx, f, inputs.to_vec()).expect("eager");
    let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
    let (mut ctx, module) = parse_model(name, model);
    lower(&mut ctx, module, "main", &shapes, &pipeline(80)).unwrap_or_else(|e| panic!("{e}"));
    (want, ctx, module)
}

/// Kernel `k`'s `num_warps` (4 when absent).
fn kernel_warps(ctx: &strata_ir::Context, k: strata_ir::Operation) -> i64 {
    match strata_ir::ods::inherent_attr(ctx, k, "num_warps").map(|a| ctx.attr_kind(a)) {
        Some(strata_ir::AttrKind::Integer { value, .. }) => *value as i64,
        _ => 4,
    }
}

/// `convert-kernel-to-nvptx{sm=80}` run again on `module` (its GPU form
/// replaced), after its kernel IR was edited.
fn convert_again(ctx: &mut strata_ir::Context, module: strata_ir::Operation, what: &str) {
    let mut registry = strata_ir::pass::PassRegistry::default();
    strata_lowering::register_passes(&mut registry);
    let pipeline = "builtin.module(convert-kernel-to-nvptx{sm=80})";
    let mut pm = strata_ir::pass::OpPassManager::parse(&registry, pipeline)
        .unwrap_or_else(|e| panic!("{}", e.render(pipeline)));
    pm.run(ctx, module, &mut Default::default())
        .unwrap_or_else(|d| panic!("{what}: {}", d[0].message));
}

/// The GPU form of `module`, emulated on `inputs`, gives `want`.
fn emulate_and_compare(
    ctx: &strata_ir::Context,
    module: strata_ir::Operation,
    inputs: &[Tensor],
    want: &[Tensor],
    what: &str,
) {
    let emulated = CompiledModel::from_gpu_module_emulated(ctx, module, "main", 2)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let got = emulated.run(inputs).expect("runs");
    for (g, w) in got.iter().zip(want) {
        allclose(g, w, Tolerance::for_dtype(w.dtype()))
            .unwrap_or_else(|m| panic!("{what} (emulated GPU kernels): {m}"));
    }
}

/// The GPU form refuses an index out of range as eager mode does: the
/// plan's `kernel.check_indices` step runs before the emulated gather
/// kernel (the CUDA executor checks input indices the same way before the
/// upload), with eager mode's message, and never reads another row.
#[test]
fn the_gpu_form_refuses_a_bad_index_as_eager_mode() {
    let text = "func.func @main(%t: tensor<5x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {\n  \
                %g = graph.gather %t[%i] : (tensor<5x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>\n  \
                return %g : tensor<3x4xf32>\n}\n";
    let table = Tensor::from_f64_vec(
        DType::F32,
        &[5, 4],
        &(0..20).map(f64::from).collect::<Vec<_>>(),
    );
    let parse = || {
        let mut ctx = strata_ir::Context::new();
        strata_dialects::register_all(&mut ctx);
        let module = strata_ir::parser::parse_source(
            &mut ctx,
            &strata_ir::SourceBuffer::new("gather.mlir", text),
        )
        .unwrap_or_else(|d| panic!("{}", d[0].message));
        (ctx, module)
    };
    let (mut ctx, module) = parse();
    lower(
        &mut ctx,
        module,
        "main",
        &[vec![5, 4], vec![3]],
        &pipeline(90),
    )
    .expect("lowers");
    let gpu = CompiledModel::from_gpu_module_emulated(&ctx, module, "main", 1).expect("loads");
    let good = Tensor::from_f64_vec(DType::I64, &[3], &[4.0, -5.0, 0.0]);
    let got = gpu.run(&[table.clone(), good]).expect("runs");
    assert_eq!(&got[0].to_f64_vec()[..4], &[16.0, 17.0, 18.0, 19.0]);
    for bad in [5.0, -6.0, 1e12] {
        let ids = Tensor::from_f64_vec(DType::I64, &[3], &[0.0, bad, 1.0]);
        let (ctx, module) = parse();
        let f = lookup_function(&ctx, module, "main").expect("@main");
        let eager = run_function(&ctx, f, vec![table.clone(), ids.clone()])
            .expect_err("eager mode refuses it")
            .to_string();
        let graph = gpu
            .run(&[table.clone(), ids])
            .expect_err("the GPU form refuses it")
            .to_string();
        let message = format!("index {bad} is out of range for dim 0 of size 5");
        assert!(eager.contains(&message), "{eager}");
        assert!(graph.contains(&message), "{graph}");
    }
}
