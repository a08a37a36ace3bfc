//! Building IR from Rust with the typed builders: `y = relu(x @ w + b)` as a
//! `graph` function, verified, printed and run by the reference
//! interpreter.
//!
//! Run with `cargo run -p strata-runtime --example build_ir`.

use strata_dialects::func::{FuncOp, ReturnOp};
use strata_dialects::graph::{AddOp, MatMulOp, ReluOp};
use strata_ir::float::FloatKind;
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::{verifier, Context, ModuleOp};
use strata_runtime::interp::{lookup_function, run_function};
use strata_runtime::Tensor;

type Error = Box<dyn std::error::Error>;

/// Builds the module: `func.func @main(x: 2x3, w: 3x4, b: 4) -> 2x4`.
pub fn build(ctx: &mut Context) -> Result<ModuleOp, Error> {
    let loc = ctx.file_line_col_loc("build_ir.rs", 1, 1);
    let f32 = ctx.float_type(FloatKind::F32);
    let x_type = ctx.tensor_type(vec![2, 3], f32);
    let w_type = ctx.tensor_type(vec![3, 4], f32);
    let b_type = ctx.tensor_type(vec![4], f32);
    let y_type = ctx.tensor_type(vec![2, 4], f32);

    let module = ModuleOp::build(ctx, loc, None);
    let func =
        FuncOp::build_with_entry_block(ctx, loc, "main", &[x_type, w_type, b_type], &[y_type]);
    module.push(ctx, func.op());
    let body = func.entry_block(ctx).ok_or("no entry block")?;
    let [x, w, b] = func.arguments(ctx)[..] else {
        return Err("expected three arguments".into());
    };

    // Each op infers its result type from its operands' shapes.
    let xw = MatMulOp::build_inferred(ctx, loc, x, w)?;
    ctx.append_op(body, xw.op());
    let sum = AddOp::build_inferred(ctx, loc, xw.output(ctx), b)?;
    ctx.append_op(body, sum.op());
    let y = ReluOp::build_inferred(ctx, loc, sum.output(ctx))?;
    ctx.append_op(body, y.op());
    let ret = ReturnOp::build(ctx, loc, &[y.output(ctx)]);
    ctx.append_op(body, ret.op());

    if let Err(diagnostics) = verifier::verify(ctx, module.op()) {
        let messages: Vec<String> = diagnostics.into_iter().map(|d| d.message).collect();
        return Err(messages.join("\n").into());
    }
    Ok(module)
}

/// Builds, prints and runs the function; returns `y`'s elements.
pub fn run() -> Result<Vec<f64>, Error> {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let module = build(&mut ctx)?;
    println!(
        "{}",
        print_operation(&ctx, module.op(), PrintOptions::default())
    );

    let x = Tensor::from_f32(vec![2, 3], vec![1.0, 2.0, 3.0, -1.0, -2.0, -3.0])?;
    let w = Tensor::from_f32(
        vec![3, 4],
        vec![1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0],
    )?;
    let b = Tensor::from_f32(vec![4], vec![0.5, 0.5, 0.5, -6.5])?;
    let func = lookup_function(&ctx, module.op(), "main").ok_or("no @main")?;
    let outputs = run_function(&ctx, func, vec![x, w, b])?;
    let y = outputs.first().ok_or("no output")?;
    println!("y = {:?} (shape {:?})", y.to_f64_vec(), y.shape());
    Ok(y.to_f64_vec())
}

/// The example's entry point.
pub fn main() -> Result<(), Error> {
    run().map(|_| ())
}
