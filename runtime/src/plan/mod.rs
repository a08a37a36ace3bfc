//! A host plan read from IR: the steps, buffers and constants of the host
//! function of a module lowered to kernels (`convert-tensor-to-kernel`).
//!
//! This is what every executor of `graph` mode runs: the CPU executor
//! ([`crate::compiled`], which JIT-compiles the kernels with LLVM) and the
//! CUDA executor (crate `strata-cuda`, which loads their PTX). Reading a
//! plan needs the IR and the dialects, never LLVM.

use strata_ir::{AttrKind, Context, Operation, TypeKind, Value};

use crate::interp::dtype_of;
use crate::tensor::{DType, Tensor, TensorView};

mod check;
mod few_rows;
mod gemm;
pub mod packed;
#[cfg(test)]
mod testing;

pub use check::{first_bad_index, IndexCheck};
pub use gemm::Gemm;

/// Why a host plan cannot be run: the IR is not a plan an executor takes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid host plan: {0}")]
pub struct PlanError(pub String);

/// Why a compiled model did not run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A gather's index out of range (a `kernel.check_indices` step), in
    /// the words eager mode uses, at the op's location.
    #[error("{location}: error: {message}")]
    Index { location: String, message: String },
    #[error("custom op '{op}': {message}")]
    Custom { op: String, message: String },
    #[error("input #{index} was compiled in as a constant, and this run gives it other values (compile again for them)")]
    Pinned { index: usize },
    #[error("expected {expected} inputs, got {got}")]
    InputCount { expected: usize, got: usize },
    #[error(
        "input #{index} is {got_dtype} {got:?}, but the plan was compiled for {dtype} {shape:?}"
    )]
    InputMismatch {
        index: usize,
        shape: Vec<usize>,
        dtype: DType,
        got: Vec<usize>,
        got_dtype: DType,
    },
}

/// The shape and dtype of a buffer of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub shape: Vec<usize>,
    pub dtype: DType,
}

impl Spec {
    /// The bytes of a buffer of this spec.
    pub fn bytes(&self) -> usize {
        self.shape.iter().product::<usize>() * self.dtype.byte_size()
    }
}

/// Where a buffer of the plan lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buf {
    /// The plan's input of this index (read in place, never written).
    Input(usize),
    /// The arena, at this byte offset.
    Arena(usize),
    /// The plan's constant of this index.
    Const(usize),
}

/// Kernel launches touching fewer bytes than this, or matrix products of
/// fewer multiply-adds, run on one thread. A launch's bytes are the sum
/// over its arguments, each counted as often as it is passed: a
/// convolution's tap map takes its input and weight once per tap, and does
/// that much more work than a map of the same buffers.
pub const PARALLEL_BYTES: u64 = 64 << 10;
pub const PARALLEL_FLOPS: u64 = 1 << 20;

/// Check `inputs` against the plan's input specs.
pub fn check_inputs(specs: &[Spec], inputs: &[Tensor]) -> Result<(), RunError> {
    let views: Vec<TensorView<'_>> = inputs.iter().map(Tensor::view).collect();
    check_views(specs, &views)
}

/// [`check_inputs`] of inputs held elsewhere.
pub fn check_views(specs: &[Spec], inputs: &[TensorView<'_>]) -> Result<(), RunError> {
    if inputs.len() != specs.len() {
        return Err(RunError::InputCount {
            expected: specs.len(),
            got: inputs.len(),
        });
    }
    for (i, (t, spec)) in inputs.iter().zip(specs).enumerate() {
        if t.shape() != spec.shape.as_slice() || t.dtype() != spec.dtype {
            return Err(RunError::InputMismatch {
                index: i,
                shape: spec.shape.clone(),
                dtype: spec.dtype,
                got: t.shape().to_vec(),
                got_dtype: t.dtype(),
            });
        }
    }
    Ok(())
}

/// The tensor of `spec` whose elements are `bytes` (little-endian, as the
/// buffers hold them); an `i1` byte is true unless it is zero.
pub fn tensor_from_bytes(spec: &Spec, bytes: &[u8]) -> Tensor {
    if spec.dtype == DType::I1 {
        let values: Vec<f64> = bytes.iter().map(|&b| f64::from(u8::from(b != 0))).collect();
        return Tensor::from_f64_vec(DType::I1, &spec.shape, &values);
    }
    let n: usize = spec.shape.iter().product();
    let mut data = crate::tensor::TensorData::zeros(spec.dtype, n);
    // SAFETY: any bytes are a valid value of the other dtypes.
    unsafe { data.as_bytes_mut().copy_from_slice(bytes) };
    Tensor::from_parts(spec.shape.clone(), data)
}

/// A `kernel.custom_call`: the implementation, its config (attribute
/// text, parsed for each call), and the specs of its buffers (the first
/// `num_inputs` are inputs).
#[derive(Clone)]
pub struct CustomCall {
    pub op: String,
    pub kernel: crate::interp::CustomKernel,
    pub config: Option<String>,
    pub num_inputs: usize,
    pub specs: Vec<Spec>,
}

/// What one step of a plan read from IR runs, before its kernels are
/// compiled.
pub enum PlanWork {
    /// Kernel `callee` on a grid.
    Kernel {
        callee: String,
        grid: [i64; 3],
    },
    Gemm(Gemm),
    Custom(CustomCall),
    /// Indices checked before a kernel gathers with them.
    CheckIndices(IndexCheck),
}

pub struct PlanStep {
    pub work: PlanWork,
    pub name: String,
    pub args: Vec<Buf>,
    pub parallel: bool,
}

/// A buffer of the arena: its offset and bytes, and the first and last
/// step that touch it (the last step for an output).
pub struct Alloc {
    pub offset: u64,
    pub bytes: u64,
    pub live: Option<(usize, usize)>,
}

/// A host plan read from the host function of a module lowered to
/// kernels: its steps, buffers and constants.
pub struct Plan {
    pub inputs: Vec<Spec>,
    pub steps: Vec<PlanStep>,
    pub outputs: Vec<(Buf, Spec)>,
    pub constants: Vec<Vec<u64>>,
    /// Each `kernel.alloc`, in plan order.
    pub allocs: Vec<Alloc>,
    pub arena_bytes: usize,
    pub unplanned_bytes: usize,
}

fn spec_of(ctx: &Context, ty: strata_ir::Type) -> Result<Spec, PlanError> {
    match ctx.type_kind(ty) {
        TypeKind::MemRef { shape, element, .. } | TypeKind::RankedTensor { shape, element, .. } => {
            let dtype = dtype_of(ctx, *element).ok_or_else(|| {
                PlanError(format!(
                    "no host dtype for {}",
                    strata_ir::printer::type_to_string(ctx, *element)
                ))
            })?;
            // One element size for the planner, the kernels and the
            // runtime's copies (strata_dialects::kernel::types::element_bytes).
            let width = strata_dialects::kernel::types::element_bytes(ctx, *element);
            if width != Some(dtype.byte_size() as u64) {
                return Err(PlanError(format!(
                    "{dtype} elements take {} bytes in the runtime but {width:?} in the plan",
                    dtype.byte_size()
                )));
            }
            let bytes = strata_ir::types::checked_num_elements(shape)
                .and_then(|n| n.checked_mul(dtype.byte_size() as u64))
                .filter(|&b| b <= isize::MAX as u64 / 2);
            if bytes.is_none() {
                return Err(PlanError(format!(
                    "a buffer of shape {shape:?} and {dtype} elements is larger than memory can hold"
                )));
            }
            Ok(Spec {
                shape: shape.iter().map(|&d| d.max(0) as usize).collect(),
                dtype,
            })
        }
        _ => Err(PlanError("a buffer that is not a static memref".into())),
    }
}

/// The bytes of a constant's words.
pub fn words_as_bytes(words: &[u64]) -> &[u8] {
    // SAFETY: u64 has no padding and any byte is a valid u8; the slice
    // covers exactly the words' memory.
    unsafe { std::slice::from_raw_parts(words.as_ptr() as *const u8, words.len() * 8) }
}

pub fn words(bytes: usize) -> usize {
    bytes.div_ceil(8)
}

/// Bytes as 8-byte words (for alignment).
fn to_words(bytes: &[u8]) -> Vec<u64> {
    let mut out = vec![0u64; words(bytes.len()).max(1)];
    for (i, chunk) in bytes.chunks(8).enumerate() {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        out[i] = u64::from_le_bytes(w);
    }
    out
}

fn int_prop(ctx: &Context, op: Operation, name: &str) -> Option<i64> {
    match ctx.attr_kind(strata_ir::ods::inherent_attr(ctx, op, name)?) {
        AttrKind::Integer { value, .. } => Some(*value as i64),
        _ => None,
    }
}

/// The host plan of function `func` of a module lowered to kernels (after
/// `convert-tensor-to-kernel`), its kernels not compiled.
pub fn read_plan(ctx: &Context, module: Operation, func: &str) -> Result<Plan, PlanError> {
    read_plan_with(ctx, module, func, &|_| None)
}

/// [`read_plan`] where the bytes of some `kernel.constant`s are held
/// elsewhere: `external(op)` gives them (an artifact's payload section),
/// else the op's `value`.
pub fn read_plan_with<'a>(
    ctx: &Context,
    module: Operation,
    func: &str,
    external: &dyn Fn(Operation) -> Option<&'a [u8]>,
) -> Result<Plan, PlanError> {
    let f = crate::interp::lookup_function(ctx, module, func)
        .ok_or_else(|| PlanError(format!("no function @{func}")))?;
    let Some(block) = ctx
        .op_regions(f)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return Err(PlanError(format!("@{func} has no body")));
    };
    let mut bufs: std::collections::HashMap<Value, Buf> = std::collections::HashMap::new();
    let mut inputs = Vec::new();
    for (i, arg) in ctx.block_args(block).enumerate() {
        inputs.push(spec_of(ctx, ctx.value_type(arg))?);
        bufs.insert(arg, Buf::Input(i));
    }
    let bytes_attr = |name: &str| -> Result<usize, PlanError> {
        let value = ctx.op_attr(f, name).and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Integer { value, .. } => Some(*value),
            _ => None,
        });
        match value {
            None => Ok(0),
            Some(v) => usize::try_from(v)
                .ok()
                .filter(|&b| b <= isize::MAX as usize / 2)
                .ok_or_else(|| PlanError(format!("{name} is {v}, not a byte count"))),
        }
    };
    let arena_bytes = bytes_attr("kernel.arena_bytes")?;
    let unplanned_bytes = bytes_attr("kernel.unplanned_bytes")?;
    let mut steps = Vec::new();
    let mut constants = Vec::new();
    let mut outputs = Vec::new();
    let mut allocs: Vec<Alloc> = Vec::new();
    // The alloc each buffer value is (views are their source's).
    let mut alloc_of: std::collections::HashMap<Value, usize> = std::collections::HashMap::new();
    let touch = |allocs: &mut Vec<Alloc>,
                 alloc_of: &std::collections::HashMap<Value, usize>,
                 v: Value,
                 step: usize| {
        if let Some(&a) = alloc_of.get(&v) {
            let live = &mut allocs[a].live;
            *live = Some(live.map_or((step, step), |(first, _)| (first, step)));
        }
    };
    for op in ctx.block_ops(block) {
        let name = ctx.op_name_str(op);
        let buf_of = |v: Value| {
            bufs.get(&v)
                .copied()
                .ok_or_else(|| PlanError(format!("'{name}' uses a value that is not a buffer")))
        };
        match name {
            "arith.constant" => {}
            "kernel.alloc" => {
                let result = ctx.result(op, 0);
                let (offset, bytes) = arena_buffer(ctx, op, arena_bytes)?;
                alloc_of.insert(result, allocs.len());
                allocs.push(Alloc {
                    offset: offset as u64,
                    bytes,
                    live: None,
                });
                bufs.insert(result, Buf::Arena(offset));
            }
            "kernel.view" => {
                let b = buf_of(ctx.operand(op, 0))?;
                bufs.insert(ctx.result(op, 0), b);
                if let Some(&a) = alloc_of.get(&ctx.operand(op, 0)) {
                    alloc_of.insert(ctx.result(op, 0), a);
                }
            }
            "kernel.constant" => {
                let words = constant_words(ctx, op, external(op))?;
                bufs.insert(ctx.result(op, 0), Buf::Const(constants.len()));
                constants.push(words);
            }
            "kernel.launch" => {
                let callee =
                    strata_ir::ods::inherent_attr(ctx, op, "kernel").and_then(|a| {
                        match ctx.attr_kind(a) {
                            AttrKind::SymbolRef { root, .. } => {
                                Some(String::from_utf8_lossy(root).into_owned())
                            }
                            _ => None,
                        }
                    });
                let callee = callee.ok_or_else(|| PlanError("a launch without a kernel".into()))?;
                let launch_op = strata_dialects::kernel::LaunchOp(op);
                let grid = launch_grid(ctx, launch_op)?;
                let mut args = Vec::new();
                for a in launch_op.args(ctx) {
                    args.push(buf_of(a)?);
                    touch(&mut allocs, &alloc_of, a, steps.len());
                }
                let bytes: u64 = launch_op
                    .args(ctx)
                    .iter()
                    .map(|&a| strata_dialects::kernel::types::memref_bytes(ctx, ctx.value_type(a)))
                    .fold(0, u64::saturating_add);
                steps.push(PlanStep {
                    work: PlanWork::Kernel {
                        callee: callee.clone(),
                        grid,
                    },
                    name: callee,
                    args,
                    parallel: bytes >= PARALLEL_BYTES,
                });
            }
            "kernel.gemm" => {
                let args = ctx
                    .operands(op)
                    .map(buf_of)
                    .collect::<Result<Vec<_>, _>>()?;
                for v in ctx.operands(op) {
                    touch(&mut allocs, &alloc_of, v, steps.len());
                }
                if !matches!(args.get(2), Some(Buf::Arena(_))) {
                    return Err(PlanError(
                        "kernel.gemm writes a buffer that is not in the arena".into(),
                    ));
                }
                check_gemm_overlap(ctx, op, &bufs)?;
                steps.push(gemm_step(ctx, op, args));
            }
            "kernel.custom_call" => {
                let mut args = Vec::new();
                let mut specs = Vec::new();
                for v in ctx.operands(op) {
                    args.push(buf_of(v)?);
                    specs.push(spec_of(ctx, ctx.value_type(v))?);
                    touch(&mut allocs, &alloc_of, v, steps.len());
                }
                let step = custom_step(ctx, op, args, specs)?;
                if let PlanWork::Custom(c) = &step.work {
                    if step.args[c.num_inputs.min(step.args.len())..]
                        .iter()
                        .any(|b| !matches!(b, Buf::Arena(_)))
                    {
                        return Err(PlanError(format!(
                            "custom op '{}' writes a buffer that is not in the arena",
                            c.op
                        )));
                    }
                }
                steps.push(step);
            }
            "kernel.check_indices" => {
                let v = ctx.operand(op, 0);
                let buf = buf_of(v)?;
                let check = IndexCheck::read(ctx, op, spec_of(ctx, ctx.value_type(v))?)?;
                // Constant indices are checked once, here: a plan whose
                // constant indices fail keeps the step (every run fails).
                if let Buf::Const(c) = buf {
                    let bytes = words_as_bytes(&constants[c]);
                    if check.check(bytes).is_ok() {
                        continue;
                    }
                }
                touch(&mut allocs, &alloc_of, v, steps.len());
                steps.push(PlanStep {
                    name: "check_indices".into(),
                    work: PlanWork::CheckIndices(check),
                    args: vec![buf],
                    parallel: false,
                });
            }
            "func.return" => {
                for v in ctx.operands(op) {
                    outputs.push((buf_of(v)?, spec_of(ctx, ctx.value_type(v))?));
                    touch(&mut allocs, &alloc_of, v, steps.len().saturating_sub(1));
                }
            }
            other => return Err(PlanError(format!("'{other}' in a host plan"))),
        }
    }
    Ok(Plan {
        inputs,
        steps,
        outputs,
        constants,
        allocs,
        arena_bytes,
        unplanned_bytes,
    })
}

/// A `kernel.gemm` whose output (in the arena) overlaps an operand would
/// have threads read what others write: refused.
fn check_gemm_overlap(
    ctx: &Context,
    op: Operation,
    bufs: &std::collections::HashMap<Value, Buf>,
) -> Result<(), PlanError> {
    let span = |v: Value| match bufs.get(&v) {
        Some(Buf::Arena(o)) => {
            let bytes = strata_dialects::kernel::types::memref_bytes(ctx, ctx.value_type(v));
            Some((*o as u64, (*o as u64).saturating_add(bytes)))
        }
        _ => None,
    };
    let out = span(ctx.operand(op, 2));
    for i in 0..2 {
        if let (Some((a, b)), Some((c, d))) = (out, span(ctx.operand(op, i))) {
            if a < d && c < b {
                return Err(PlanError(
                    "kernel.gemm writes a buffer that overlaps one it reads".into(),
                ));
            }
        }
    }
    Ok(())
}

/// The step of a `kernel.gemm` on `args`.
fn gemm_step(ctx: &Context, op: Operation, args: Vec<Buf>) -> PlanStep {
    let g = strata_dialects::kernel::GemmOp(op);
    let element = ctx
        .type_kind(ctx.value_type(ctx.operand(op, 0)))
        .element_type();
    let f64 = element.and_then(|e| ctx.float_kind(e)) == Some(strata_ir::float::FloatKind::F64);
    let size = |v: Option<i64>| v.unwrap_or(0).max(0) as usize;
    let gemm = Gemm {
        f64,
        batch: g.batch(ctx).unwrap_or_default(),
        m: size(g.m(ctx)),
        n: size(g.n(ctx)),
        k: size(g.k(ctx)),
        strides: [
            g.lhs_strides(ctx).unwrap_or_default(),
            g.rhs_strides(ctx).unwrap_or_default(),
            g.out_strides(ctx).unwrap_or_default(),
        ],
    };
    let name = format!(
        "gemm {}x{}x{} (batch {:?})",
        gemm.m, gemm.k, gemm.n, gemm.batch
    );
    let flops =
        (gemm.m * gemm.n * gemm.k) as u64 * gemm.batch.iter().product::<i64>().max(1) as u64;
    PlanStep {
        work: PlanWork::Gemm(gemm),
        name,
        args,
        parallel: flops >= PARALLEL_FLOPS,
    }
}

/// The step of a `kernel.custom_call` on `args` (of `specs`), with the
/// implementation registered with `ctx`.
fn custom_step(
    ctx: &Context,
    op: Operation,
    args: Vec<Buf>,
    specs: Vec<Spec>,
) -> Result<PlanStep, PlanError> {
    let call = strata_dialects::kernel::CustomCallOp(op);
    let op_name = call.name(ctx).unwrap_or_default();
    let version = call.version(ctx);
    let kernel = ctx
        .registry()
        .extension::<crate::interp::CustomKernels>()
        .and_then(|k| k.get(&op_name, version))
        .cloned()
        .ok_or_else(|| {
            PlanError(format!(
                "custom op '{op_name}' (version {version}) has no registered implementation"
            ))
        })?;
    let config = strata_ir::ods::inherent_attr(ctx, op, "config")
        .map(|a| strata_ir::printer::attribute_to_string(ctx, a));
    Ok(PlanStep {
        work: PlanWork::Custom(CustomCall {
            op: op_name.clone(),
            kernel,
            config,
            num_inputs: call.num_inputs(ctx).unwrap_or(0).max(0) as usize,
            specs,
        }),
        name: format!("custom op {op_name}"),
        args,
        parallel: false,
    })
}
/// Run custom op call `c` on its buffers (`ptrs`, in its specs' order):
/// copy the inputs into tensors, call the implementation, check its
/// outputs against the specs and copy them into the output buffers.
///
/// # Safety
/// Each pointer addresses a buffer of its spec's bytes; the output buffers
/// are not read or written by anything else during the call.
pub unsafe fn run_custom(c: &CustomCall, ptrs: &[u64]) -> Result<(), RunError> {
    let fail = |message: String| RunError::Custom {
        op: c.op.clone(),
        message,
    };
    let bytes_of = |s: &Spec| s.shape.iter().product::<usize>() * s.dtype.byte_size();
    let mut inputs = Vec::with_capacity(c.num_inputs);
    for (spec, &p) in c.specs.iter().zip(ptrs).take(c.num_inputs) {
        // SAFETY: upheld by the caller.
        let src = unsafe { std::slice::from_raw_parts(p as *const u8, bytes_of(spec)) };
        inputs.push(tensor_from_bytes(spec, src));
    }
    let mut ctx = Context::new();
    let config = match &c.config {
        Some(text) => Some(
            strata_ir::parser::parse_attribute(&mut ctx, text)
                .map_err(|d| fail(format!("config '{text}': {}", d.message)))?,
        ),
        None => None,
    };
    let outputs = (c.kernel)(&ctx, config, &inputs).map_err(fail)?;
    let out_specs = &c.specs[c.num_inputs.min(c.specs.len())..];
    if outputs.len() != out_specs.len() {
        return Err(fail(format!(
            "the implementation returned {} outputs, the op has {}",
            outputs.len(),
            out_specs.len()
        )));
    }
    for ((t, spec), &p) in outputs
        .iter()
        .zip(out_specs)
        .zip(&ptrs[c.num_inputs.min(ptrs.len())..])
    {
        if t.dtype() != spec.dtype || t.shape() != spec.shape.as_slice() {
            return Err(fail(format!(
                "the implementation returned {} {:?}, the op's type is {} {:?}",
                t.dtype(),
                t.shape(),
                spec.dtype,
                spec.shape
            )));
        }
        let src = t.data().as_bytes();
        // SAFETY: upheld by the caller; `src` has the spec's bytes.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), p as *mut u8, src.len()) };
    }
    Ok(())
}

/// The arena offset and bytes of `kernel.alloc` `op`, which must lie
/// inside the arena of `arena_bytes`, 16-byte aligned (the GPU kernels'
/// pointer parameters promise 16 bytes: their vector accesses need it).
fn arena_buffer(
    ctx: &Context,
    op: Operation,
    arena_bytes: usize,
) -> Result<(usize, u64), PlanError> {
    let bytes =
        strata_dialects::kernel::types::memref_bytes(ctx, ctx.value_type(ctx.result(op, 0)));
    let offset = int_prop(ctx, op, "offset")
        .and_then(|o| usize::try_from(o).ok())
        .filter(|&o| {
            o % 16 == 0
                && o.checked_add(bytes as usize)
                    .is_some_and(|end| end <= arena_bytes)
        })
        .ok_or_else(|| {
            PlanError(format!(
                "a buffer of {bytes} bytes at offset {:?} does not lie (16-byte aligned) in the arena of {arena_bytes} bytes",
                int_prop(ctx, op, "offset")
            ))
        })?;
    Ok((offset, bytes))
}

/// The elements of `kernel.constant` `op` as 8-byte words, from `held`
/// (its raw bytes, kept outside the IR) or its value: they must be
/// exactly its buffer's elements (`i1`: bytes 0 and 1).
fn constant_words(
    ctx: &Context,
    op: Operation,
    held: Option<&[u8]>,
) -> Result<Vec<u64>, PlanError> {
    let spec = spec_of(ctx, ctx.value_type(ctx.result(op, 0)))?;
    let n: usize = spec.shape.iter().product();
    let repeated;
    let bytes: &[u8] = if let Some(held) = held {
        held
    } else {
        let value = strata_ir::ods::inherent_attr(ctx, op, "value");
        let Some(AttrKind::DenseElements { data, .. }) = value.map(|a| ctx.attr_kind(a)) else {
            return Err(PlanError("a constant without dense data".into()));
        };
        if data.splat {
            repeated = data.raw.repeat(n);
            &repeated
        } else {
            &data.raw
        }
    };
    if bytes.len() != n * spec.dtype.byte_size()
        || (spec.dtype == DType::I1 && bytes.iter().any(|&b| b > 1))
    {
        return Err(PlanError(format!(
            "a constant of {} bytes for a buffer of {n} {} elements",
            bytes.len(),
            spec.dtype
        )));
    }
    Ok(to_words(bytes))
}

/// The grid of `launch`: constant sizes, positive, with an `i64` product.
fn launch_grid(
    ctx: &Context,
    launch: strata_dialects::kernel::LaunchOp,
) -> Result<[i64; 3], PlanError> {
    let mut grid = [1i64; 3];
    for (i, g) in launch.grid(ctx).iter().enumerate().take(3) {
        let def = ctx.defining_op(*g);
        grid[i] = def
            .and_then(|d| int_prop(ctx, d, "value"))
            .ok_or_else(|| PlanError("grid sizes must be constants".into()))?;
    }
    let programs = grid
        .iter()
        .try_fold(1i64, |n, &g| (g > 0).then(|| n.checked_mul(g)).flatten());
    if programs.is_none() {
        return Err(PlanError(format!(
            "grid {grid:?}: sizes must be positive and their product an i64"
        )));
    }
    Ok(grid)
}
