//! `graph` exe mode on the CPU: a model compiled into one plan of
//! JIT-compiled kernels on one arena, run in process.
//!
//! [`compile`] specializes a function to its input shapes and runs
//! [`HOST_PIPELINE`]; [`CompiledModel::from_kernel_module`] turns
//! the resulting host plan into steps and compiles its kernels with LLVM;
//! [`CompiledModel::run`] checks the inputs against the shapes the plan was
//! compiled for, runs the launches on a thread pool, and returns the
//! outputs.

use std::time::Instant;

use strata_ir::pass::{OpPassManager, PassRegistry};
use strata_ir::{AttrKind, Context, Diagnostic, Operation, TypeKind, Value};
use strata_lowering::kernel_to_host::HostKernels;
use strata_lowering::llvm::{launch, HostKernel};

use crate::interp::dtype_of;
use crate::tensor::{DType, Tensor};

/// The passes from `graph` to the host plan, in MLIR's pipeline syntax.
///
/// With static shapes, `canonicalize` folds `graph.shape_of` to constants
/// and `graph-fold-constants` what depends on them (shape computations);
/// after the conversion `canonicalize` cleans the kernels' index arithmetic.
/// This is the pipeline of the default recipe (`recipes/default.toml`).
///
/// Kernel selection: f32 and f64 contractions are library matrix products
/// (the `gemm` crate's register-blocked, cache-blocked GEMM), several times
/// faster on the host than the generated contraction kernels; their
/// epilogues run as separate kernels. `HOST_PIPELINE_GENERATED` keeps
/// every contraction a generated kernel.
pub const HOST_PIPELINE: &str = "builtin.module(graph-infer-shapes,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes,convert-graph-to-tensor,tensor-fuse,convert-tensor-to-kernel{library-gemm=true},canonicalize,cse)";

/// [`HOST_PIPELINE`] with generated kernels only.
pub const HOST_PIPELINE_GENERATED: &str = "builtin.module(graph-infer-shapes,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes,convert-graph-to-tensor,tensor-fuse,convert-tensor-to-kernel,canonicalize,cse)";

/// Why a model did not compile.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// A pass or the kernel generator rejected the IR (each diagnostic is located).
    #[error("{}", .0.first().map(|d| d.message.as_str()).unwrap_or("compilation failed"))]
    Diagnostics(Vec<Diagnostic>),
    /// LLVM could not compile the kernels.
    #[error(transparent)]
    Host(#[from] strata_lowering::kernel_to_host::HostError),
    /// The host plan is not what the executor runs.
    #[error("invalid host plan: {0}")]
    Plan(String),
    /// The function cannot be specialized to the given input shapes.
    #[error("cannot compile for these inputs: {0}")]
    Inputs(String),
}

/// Why a compiled model did not run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("custom op '{op}': {message}")]
    Custom { op: String, message: String },
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

#[derive(Clone, Debug)]
pub(crate) struct Spec {
    pub shape: Vec<usize>,
    pub dtype: DType,
}

/// Where a buffer of the plan lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Buf {
    Input(usize),
    Arena(usize),
    Const(usize),
}

/// What one step of the plan runs.
enum Work {
    /// A compiled kernel on a grid.
    Kernel(HostKernel, [i64; 3]),
    /// A library matrix product (`kernel.gemm`).
    Gemm(Gemm),
    /// A registered custom op's implementation (`kernel.custom_call`).
    Custom(CustomCall),
}

/// A `kernel.custom_call`: the implementation, its config (attribute
/// text, parsed for each call), and the specs of its buffers (the first
/// `num_inputs` are inputs).
#[derive(Clone)]
pub(crate) struct CustomCall {
    pub op: String,
    pub kernel: crate::interp::CustomKernel,
    pub config: Option<String>,
    pub num_inputs: usize,
    pub specs: Vec<Spec>,
}

struct Launch {
    work: Work,
    name: String,
    args: Vec<Buf>,
    /// Whether the step is worth spreading over threads (small steps run
    /// on the calling thread: a pool's fork and join costs more than they do).
    parallel: bool,
}

/// What one step of a plan read from IR runs, before its kernels are
/// compiled.
pub(crate) enum PlanWork {
    /// Kernel `callee` on a grid.
    Kernel {
        callee: String,
        grid: [i64; 3],
    },
    Gemm(Gemm),
    Custom(CustomCall),
}

pub(crate) struct PlanStep {
    pub work: PlanWork,
    pub name: String,
    pub args: Vec<Buf>,
    pub parallel: bool,
}

/// A buffer of the arena: its offset and bytes, and the first and last
/// step that touch it (the last step for an output).
pub(crate) struct Alloc {
    pub offset: u64,
    pub bytes: u64,
    pub live: Option<(usize, usize)>,
}

/// A host plan read from the host function of a module lowered to
/// kernels: its steps, buffers and constants.
pub(crate) struct Plan {
    pub inputs: Vec<Spec>,
    pub steps: Vec<PlanStep>,
    pub outputs: Vec<(Buf, Spec)>,
    pub constants: Vec<Vec<u64>>,
    /// Each `kernel.alloc`, in plan order.
    pub allocs: Vec<Alloc>,
    pub arena_bytes: usize,
    pub unplanned_bytes: usize,
}

/// Steps touching fewer bytes than this (their largest buffer), or matrix
/// products of fewer multiply-adds, run on one thread.
const PARALLEL_BYTES: u64 = 64 << 10;
const PARALLEL_FLOPS: u64 = 1 << 20;

/// A batched strided matrix product (see `kernel.gemm`); strides in elements.
pub(crate) struct Gemm {
    f64: bool,
    pub batch: Vec<i64>,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    strides: [Vec<i64>; 3],
}

impl Gemm {
    /// Run on `lhs`, `rhs`, `out` (element pointers), splitting the batches
    /// and the rows or columns over `pool`'s threads.
    ///
    /// # Safety
    /// The pointers must hold every element the strides reach (the verifier
    /// of `kernel.gemm` checks it against the buffers' types).
    unsafe fn run(&self, ptrs: [u64; 3], pool: Option<&rayon::ThreadPool>) {
        let batches: i64 = self.batch.iter().product();
        let threads = pool.map_or(1, |p| p.current_num_threads()).max(1);
        // Panels: enough tasks for the threads, at least 16 rows or columns
        // each. Each panel packs its slice of one operand and all of the
        // other, so split the dim of the larger operand: rows (of `lhs`)
        // when `lhs` is the larger, else columns (of `rhs`).
        let by_rows = self.m * self.k >= self.k * self.n;
        let extent = if by_rows { self.m } else { self.n };
        let panels =
            ((threads * 2).div_ceil(batches.max(1) as usize)).clamp(1, extent.div_ceil(16).max(1));
        let per = extent.div_ceil(panels);
        let task = move |t: usize| {
            let (bi, panel) = (t / panels, t % panels);
            let p0 = panel * per;
            let len = per.min(extent.saturating_sub(p0));
            if len == 0 {
                return;
            }
            let (r0, m, c0, n) = if by_rows {
                (p0, len, 0, self.n)
            } else {
                (0, self.m, p0, len)
            };
            // The batch's element offset in each operand.
            let mut offsets = [0i64; 3];
            let mut rest = bi as i64;
            for d in (0..self.batch.len()).rev() {
                let i = rest % self.batch[d];
                rest /= self.batch[d];
                for (o, s) in offsets.iter_mut().zip(&self.strides) {
                    *o += i * s[d];
                }
            }
            let nb = self.batch.len();
            let st = |o: usize, j: usize| self.strides[o][nb + j] as isize;
            offsets[0] += r0 as i64 * self.strides[0][nb];
            offsets[2] += r0 as i64 * self.strides[2][nb];
            offsets[1] += c0 as i64 * self.strides[1][nb + 1];
            offsets[2] += c0 as i64 * self.strides[2][nb + 1];
            let strides: [[isize; 2]; 3] = [0, 1, 2].map(|o| [st(o, 0), st(o, 1)]);
            // SAFETY: upheld by the caller; panels write disjoint blocks.
            unsafe {
                if self.f64 {
                    product::<f64>(ptrs, offsets, [m, n, self.k], strides);
                } else {
                    product::<f32>(ptrs, offsets, [m, n, self.k], strides);
                }
            }
        };
        let tasks = batches.max(1) as usize * panels;
        match pool {
            Some(pool) if tasks > 1 => pool.scope(|s| {
                for t in 0..tasks {
                    s.spawn(move |_| task(t));
                }
            }),
            _ => (0..tasks).for_each(task),
        }
    }
}

/// `out = lhs * rhs` for an `m x n x k` block: `ptrs` the operands' element
/// pointers (lhs, rhs, out), `offsets` the block's element offsets in them,
/// `strides` each operand's row and column strides.
///
/// # Safety
/// As [`Gemm::run`]: every element the offsets and strides reach is inside
/// its buffer, and no other thread writes the output block.
unsafe fn product<T>(
    ptrs: [u64; 3],
    offsets: [i64; 3],
    [m, n, k]: [usize; 3],
    strides: [[isize; 2]; 3],
) where
    T: Copy + From<f32> + 'static,
{
    // SAFETY: upheld by the caller.
    unsafe {
        let e = |o: usize| (ptrs[o] as *mut T).offset(offsets[o] as isize);
        let [l, r, d] = strides;
        gemm::gemm(
            m,
            n,
            k,
            e(2),
            d[1],
            d[0],
            false,
            e(0),
            l[1],
            l[0],
            e(1),
            r[1],
            r[0],
            T::from(0.0),
            T::from(1.0),
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

/// The time of each launch of a run, in milliseconds, with its kernel.
pub type KernelTimes = Vec<(String, f64)>;

/// A compiled plan, ready to run.
pub struct CompiledModel {
    _jit: HostKernels,
    steps: Vec<Launch>,
    inputs: Vec<Spec>,
    outputs: Vec<(Buf, Spec)>,
    arena_words: usize,
    arena_bytes: usize,
    unplanned_bytes: usize,
    arena: std::sync::Mutex<Vec<u64>>,
    constants: Vec<Vec<u64>>,
    pool: Option<rayon::ThreadPool>,
    /// Milliseconds spent in LLVM (optimization and code generation).
    pub llvm_ms: f64,
}

fn spec_of(ctx: &Context, ty: strata_ir::Type) -> Result<Spec, CompileError> {
    match ctx.type_kind(ty) {
        TypeKind::MemRef { shape, element, .. } | TypeKind::RankedTensor { shape, element, .. } => {
            let dtype = dtype_of(ctx, *element).ok_or_else(|| {
                CompileError::Plan(format!(
                    "no host dtype for {}",
                    strata_ir::printer::type_to_string(ctx, *element)
                ))
            })?;
            Ok(Spec {
                shape: shape.iter().map(|&d| d.max(0) as usize).collect(),
                dtype,
            })
        }
        _ => Err(CompileError::Plan(
            "a buffer that is not a static memref".into(),
        )),
    }
}

fn words(bytes: usize) -> usize {
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
pub(crate) fn read_plan(
    ctx: &Context,
    module: Operation,
    func: &str,
) -> Result<Plan, CompileError> {
    let f = crate::interp::lookup_function(ctx, module, func)
        .ok_or_else(|| CompileError::Plan(format!("no function @{func}")))?;
    let Some(block) = ctx
        .op_regions(f)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return Err(CompileError::Plan(format!("@{func} has no body")));
    };
    let mut bufs: std::collections::HashMap<Value, Buf> = std::collections::HashMap::new();
    let mut inputs = Vec::new();
    for (i, arg) in ctx.block_args(block).enumerate() {
        inputs.push(spec_of(ctx, ctx.value_type(arg))?);
        bufs.insert(arg, Buf::Input(i));
    }
    let bytes_attr = |name: &str| {
        ctx.op_attr(f, name)
            .and_then(|a| match ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => Some(*value as usize),
                _ => None,
            })
            .unwrap_or(0)
    };
    let arena_bytes = bytes_attr("kernel.arena_bytes");
    let unplanned_bytes = bytes_attr("kernel.unplanned_bytes");
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
            bufs.get(&v).copied().ok_or_else(|| {
                CompileError::Plan(format!("'{name}' uses a value that is not a buffer"))
            })
        };
        match name {
            "arith.constant" => {}
            "kernel.alloc" => {
                let offset = int_prop(ctx, op, "offset").unwrap_or(0).max(0) as usize;
                let result = ctx.result(op, 0);
                let bytes = strata_lowering::tensor_to_kernel::plan::memref_bytes(
                    ctx,
                    ctx.value_type(result),
                );
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
                let spec = spec_of(ctx, ctx.value_type(ctx.result(op, 0)))?;
                let value = strata_ir::ods::inherent_attr(ctx, op, "value");
                let Some(AttrKind::DenseElements { data, .. }) = value.map(|a| ctx.attr_kind(a))
                else {
                    return Err(CompileError::Plan("a constant without dense data".into()));
                };
                let n: usize = spec.shape.iter().product();
                let bytes = if data.splat {
                    data.raw.repeat(n)
                } else {
                    data.raw.to_vec()
                };
                bufs.insert(ctx.result(op, 0), Buf::Const(constants.len()));
                constants.push(to_words(&bytes));
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
                let callee =
                    callee.ok_or_else(|| CompileError::Plan("a launch without a kernel".into()))?;
                let launch_op = strata_dialects::kernel::LaunchOp(op);
                let mut grid = [1i64; 3];
                for (i, g) in launch_op.grid(ctx).iter().enumerate().take(3) {
                    let def = ctx.defining_op(*g);
                    grid[i] = def
                        .and_then(|d| int_prop(ctx, d, "value"))
                        .ok_or_else(|| CompileError::Plan("grid sizes must be constants".into()))?;
                }
                let mut args = Vec::new();
                for a in launch_op.args(ctx) {
                    args.push(buf_of(a)?);
                    touch(&mut allocs, &alloc_of, a, steps.len());
                }
                let bytes = launch_op
                    .args(ctx)
                    .iter()
                    .map(|&a| {
                        strata_lowering::tensor_to_kernel::plan::memref_bytes(
                            ctx,
                            ctx.value_type(a),
                        )
                    })
                    .max()
                    .unwrap_or(0);
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
                let g = strata_dialects::kernel::GemmOp(op);
                let element = ctx
                    .type_kind(ctx.value_type(ctx.operand(op, 0)))
                    .element_type();
                let f64 = element.and_then(|e| ctx.float_kind(e))
                    == Some(strata_ir::float::FloatKind::F64);
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
                let args = ctx
                    .operands(op)
                    .map(buf_of)
                    .collect::<Result<Vec<_>, _>>()?;
                for v in ctx.operands(op) {
                    touch(&mut allocs, &alloc_of, v, steps.len());
                }
                let name = format!(
                    "gemm {}x{}x{} (batch {:?})",
                    gemm.m, gemm.k, gemm.n, gemm.batch
                );
                let flops = (gemm.m * gemm.n * gemm.k) as u64
                    * gemm.batch.iter().product::<i64>().max(1) as u64;
                steps.push(PlanStep {
                    work: PlanWork::Gemm(gemm),
                    name,
                    args,
                    parallel: flops >= PARALLEL_FLOPS,
                });
            }
            "kernel.custom_call" => {
                let call = strata_dialects::kernel::CustomCallOp(op);
                let op_name = call.name(ctx).unwrap_or_default();
                let version = call.version(ctx);
                let kernel = ctx
                    .registry()
                    .extension::<crate::interp::CustomKernels>()
                    .and_then(|k| k.get(&op_name, version))
                    .cloned()
                    .ok_or_else(|| {
                        CompileError::Plan(format!(
                            "custom op '{op_name}' (version {version}) has no registered implementation"
                        ))
                    })?;
                let config = strata_ir::ods::inherent_attr(ctx, op, "config")
                    .map(|a| strata_ir::printer::attribute_to_string(ctx, a));
                let mut args = Vec::new();
                let mut specs = Vec::new();
                for v in ctx.operands(op) {
                    args.push(buf_of(v)?);
                    specs.push(spec_of(ctx, ctx.value_type(v))?);
                    touch(&mut allocs, &alloc_of, v, steps.len());
                }
                steps.push(PlanStep {
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
                });
            }
            "func.return" => {
                for v in ctx.operands(op) {
                    outputs.push((buf_of(v)?, spec_of(ctx, ctx.value_type(v))?));
                    touch(&mut allocs, &alloc_of, v, steps.len().saturating_sub(1));
                }
            }
            other => return Err(CompileError::Plan(format!("'{other}' in a host plan"))),
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

impl CompiledModel {
    /// The plan of host function `func` of a module lowered to kernels
    /// (after `convert-tensor-to-kernel`), with its kernels JIT-compiled;
    /// `threads` is the size of the thread pool (1: the calling thread).
    pub fn from_kernel_module(
        ctx: &Context,
        module: Operation,
        func: &str,
        threads: usize,
    ) -> Result<CompiledModel, CompileError> {
        let plan = read_plan(ctx, module, func)?;
        let start = Instant::now();
        let jit = strata_lowering::kernel_to_host::compile(ctx, module)?;
        let llvm_ms = start.elapsed().as_secs_f64() * 1e3;
        CompiledModel::from_plan(plan, jit, llvm_ms, threads)
    }

    /// `plan` with the entry points of `jit`, its compiled kernels.
    pub(crate) fn from_plan(
        plan: Plan,
        jit: HostKernels,
        llvm_ms: f64,
        threads: usize,
    ) -> Result<CompiledModel, CompileError> {
        let mut steps = Vec::with_capacity(plan.steps.len());
        for step in plan.steps {
            let work = match step.work {
                PlanWork::Kernel { callee, grid } => {
                    let kernel = jit.kernel(&callee).ok_or_else(|| {
                        CompileError::Plan(format!("no compiled kernel @{callee}"))
                    })?;
                    Work::Kernel(kernel, grid)
                }
                PlanWork::Gemm(g) => Work::Gemm(g),
                PlanWork::Custom(c) => Work::Custom(c),
            };
            steps.push(Launch {
                work,
                name: step.name,
                args: step.args,
                parallel: step.parallel,
            });
        }
        let pool = if threads > 1 {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .stack_size(16 << 20)
                .build()
                .ok()
        } else {
            None
        };
        Ok(CompiledModel {
            _jit: jit,
            steps,
            inputs: plan.inputs,
            outputs: plan.outputs,
            arena_words: words(plan.arena_bytes) + 8,
            arena_bytes: plan.arena_bytes,
            unplanned_bytes: plan.unplanned_bytes,
            arena: std::sync::Mutex::new(Vec::new()),
            constants: plan.constants,
            pool,
            llvm_ms,
        })
    }

    /// Kernels launched per run.
    pub fn launches(&self) -> usize {
        self.steps.len()
    }

    /// Bytes of the planned arena (the activations of a run).
    pub fn arena_bytes(&self) -> usize {
        self.arena_bytes
    }

    /// Bytes the activations would take without reuse (every buffer its
    /// own).
    pub fn unplanned_bytes(&self) -> usize {
        self.unplanned_bytes
    }

    /// The kernels in launch order.
    pub fn kernel_names(&self) -> Vec<&str> {
        self.steps.iter().map(|s| s.name.as_str()).collect()
    }

    /// Run the plan on `inputs` (the shapes and dtypes it was compiled for).
    pub fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, RunError> {
        self.run_timed(inputs, None)
    }

    /// Run the plan and return the time of each launch, in launch order,
    /// with the kernel's name.
    pub fn run_profiled(&self, inputs: &[Tensor]) -> Result<(Vec<Tensor>, KernelTimes), RunError> {
        let mut times = Vec::with_capacity(self.steps.len());
        let out = self.run_timed(inputs, Some(&mut times))?;
        let named = self
            .steps
            .iter()
            .map(|s| s.name.clone())
            .zip(times)
            .collect();
        Ok((out, named))
    }

    /// Run one step on its buffers (`address` of each), timing it into
    /// `times` when asked.
    fn run_step(
        &self,
        step: &Launch,
        address: &dyn Fn(Buf) -> u64,
        times: Option<&mut Vec<f64>>,
    ) -> Result<(), RunError> {
        let args: Vec<u64> = step.args.iter().map(|&b| address(b)).collect();
        let start = times.as_ref().map(|_| Instant::now());
        // SAFETY: the plan was checked when it was built: each buffer is
        // sized for its memref type, the kernels' masks keep their
        // accesses inside those (and the verifier of kernel.gemm its
        // strides), the inputs match the compiled shapes, and the arena
        // is held for the whole run.
        let pool = self.pool.as_ref().filter(|_| step.parallel);
        match &step.work {
            Work::Kernel(kernel, grid) => unsafe { launch(*kernel, &args, *grid, pool) },
            Work::Gemm(g) => unsafe { g.run([args[0], args[1], args[2]], pool) },
            // SAFETY: as above: each buffer holds its spec's bytes.
            Work::Custom(c) => unsafe { run_custom(c, &args)? },
        }
        if let (Some(t), Some(start)) = (times, start) {
            t.push(start.elapsed().as_secs_f64() * 1e3);
        }
        Ok(())
    }

    fn run_timed(
        &self,
        inputs: &[Tensor],
        mut times: Option<&mut Vec<f64>>,
    ) -> Result<Vec<Tensor>, RunError> {
        if inputs.len() != self.inputs.len() {
            return Err(RunError::InputCount {
                expected: self.inputs.len(),
                got: inputs.len(),
            });
        }
        for (i, (t, spec)) in inputs.iter().zip(&self.inputs).enumerate() {
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
        // The inputs are read in place (kernels never write them: every
        // output of a launch is an arena buffer).
        let input_bytes: Vec<&[u8]> = inputs.iter().map(|t| t.data().as_bytes()).collect();
        // One arena per model, reused across runs (runs on one model take turns).
        let mut arena = self
            .arena
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if arena.len() < self.arena_words {
            arena.resize(self.arena_words, 0);
        }
        let base = (arena.as_mut_ptr() as usize).div_ceil(64) * 64;
        let address = |b: Buf| -> u64 {
            match b {
                Buf::Input(i) => input_bytes[i].as_ptr() as u64,
                Buf::Arena(off) => (base + off) as u64,
                Buf::Const(c) => self.constants[c].as_ptr() as u64,
            }
        };
        let run_steps = |mut times: Option<&mut Vec<f64>>| -> Result<(), RunError> {
            for step in &self.steps {
                self.run_step(step, &address, times.as_deref_mut())?;
            }
            Ok(())
        };
        // With a pool, the whole plan runs on one of its threads: a parallel
        // step then forks from inside the pool (work stealing), not from
        // outside it (a wake-up of the pool per step, tens of microseconds).
        // A plan without a parallel step stays on the calling thread.
        match self
            .pool
            .as_ref()
            .filter(|_| self.steps.iter().any(|s| s.parallel))
        {
            Some(pool) => pool.install(|| run_steps(times.as_deref_mut()))?,
            None => run_steps(times)?,
        }
        let mut out = Vec::with_capacity(self.outputs.len());
        for (b, spec) in &self.outputs {
            let n: usize = spec.shape.iter().product();
            let len = n * spec.dtype.byte_size();
            let src: &[u8] = match *b {
                Buf::Input(k) => &input_bytes[k][..len],
                Buf::Const(c) => {
                    let w = &self.constants[c];
                    // SAFETY: the constant holds at least `len` bytes (its words).
                    unsafe { std::slice::from_raw_parts(w.as_ptr() as *const u8, len) }
                }
                // SAFETY: the buffer lies inside the arena (planned offsets and sizes).
                Buf::Arena(off) => unsafe {
                    std::slice::from_raw_parts((base + off) as *const u8, len)
                },
            };
            let mut data = crate::tensor::TensorData::zeros(spec.dtype, n);
            // SAFETY: `i1` buffers hold 0 or 1 in each byte (LLVM stores of `i1`).
            unsafe { data.as_bytes_mut().copy_from_slice(src) };
            out.push(Tensor::from_parts(spec.shape.clone(), data));
        }
        Ok(out)
    }
}

/// Run custom op call `c` on its buffers (`ptrs`, in its specs' order):
/// copy the inputs into tensors, call the implementation, check its
/// outputs against the specs and copy them into the output buffers.
///
/// # Safety
/// Each pointer addresses a buffer of its spec's bytes; the output buffers
/// are not read or written by anything else during the call.
unsafe fn run_custom(c: &CustomCall, ptrs: &[u64]) -> Result<(), RunError> {
    let fail = |message: String| RunError::Custom {
        op: c.op.clone(),
        message,
    };
    let bytes_of = |s: &Spec| s.shape.iter().product::<usize>() * s.dtype.byte_size();
    let mut inputs = Vec::with_capacity(c.num_inputs);
    for (spec, &p) in c.specs.iter().zip(ptrs).take(c.num_inputs) {
        let n: usize = spec.shape.iter().product();
        let mut data = crate::tensor::TensorData::zeros(spec.dtype, n);
        // SAFETY: upheld by the caller; `i1` buffers hold 0 or 1 per byte.
        unsafe {
            let src = std::slice::from_raw_parts(p as *const u8, bytes_of(spec));
            data.as_bytes_mut().copy_from_slice(src);
        }
        inputs.push(Tensor::from_parts(spec.shape.clone(), data));
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

/// Specialize `func` of `module` to `shapes` (one per input), lower it to a
/// host plan with [`HOST_PIPELINE`] and compile it. `module` is changed in
/// place (it holds the host plan and the kernels afterwards).
pub fn compile(
    ctx: &mut Context,
    module: Operation,
    func: &str,
    shapes: &[Vec<usize>],
    threads: usize,
) -> Result<CompiledModel, CompileError> {
    compile_with(ctx, module, func, shapes, threads, HOST_PIPELINE)
}

/// [`compile`] with another pipeline from `graph` to the host plan (such
/// as [`HOST_PIPELINE_GENERATED`]).
pub fn compile_with(
    ctx: &mut Context,
    module: Operation,
    func: &str,
    shapes: &[Vec<usize>],
    threads: usize,
    pipeline: &str,
) -> Result<CompiledModel, CompileError> {
    lower(ctx, module, func, shapes, pipeline)?;
    CompiledModel::from_kernel_module(ctx, module, func, threads)
}

/// The stages of [`HOST_PIPELINE`], in order: each stage's name (the layer
/// its IR is in afterwards) and its passes. `strata compile --stop-after`
/// runs a prefix of them.
pub const STAGES: [(&str, &str); 3] = [
    (
        "graph",
        "graph-infer-shapes,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes",
    ),
    ("tensor", "convert-graph-to-tensor,tensor-fuse"),
    (
        "kernel",
        "convert-tensor-to-kernel{library-gemm=true},canonicalize,cse",
    ),
];

/// The pipeline of [`STAGES`] up to and including `stage`, or `None` for a
/// name that is not a stage.
pub fn pipeline_until(stage: &str) -> Option<String> {
    let end = STAGES.iter().position(|(name, _)| *name == stage)?;
    let passes: Vec<&str> = STAGES[..=end].iter().map(|(_, p)| *p).collect();
    Some(format!("builtin.module({})", passes.join(",")))
}

/// Specialize `func` of `module` to `shapes` (one per input) and run
/// `pipeline` on the module: [`compile_with`] before the host code.
pub fn lower(
    ctx: &mut Context,
    module: Operation,
    func: &str,
    shapes: &[Vec<usize>],
    pipeline: &str,
) -> Result<(), CompileError> {
    specialize(ctx, module, func, shapes)?;
    crate::interp::install_folding(ctx);
    let mut registry = PassRegistry::default();
    strata_passes::register_all(&mut registry);
    strata_lowering::register_passes(&mut registry);
    let mut pm = OpPassManager::parse(&registry, pipeline)
        .map_err(|e| CompileError::Plan(e.render(pipeline)))?;
    let mut instrumentation = strata_ir::pass::Instrumentation::default();
    pm.run(ctx, module, &mut instrumentation).map_err(|diags| {
        // The inputs are static here: a shape still dynamic comes from values.
        let diags = diags
            .into_iter()
            .map(|d| {
                if d.message.contains("has a dynamic shape") {
                    let loc = d.loc;
                    d.with_note(
                        loc,
                        "the inputs have static shapes here: this shape depends on the values of a tensor (a shape computed at run time), which a compiled plan cannot take",
                    )
                } else {
                    d
                }
            })
            .collect();
        CompileError::Diagnostics(diags)
    })
}

/// Give `func`'s arguments the static `shapes` (one per argument; a
/// dynamic dimension takes any size, a static one must match), and its
/// type the new argument types: the first step of [`compile`].
pub fn specialize(
    ctx: &mut Context,
    module: Operation,
    func: &str,
    shapes: &[Vec<usize>],
) -> Result<(), CompileError> {
    let f = crate::interp::lookup_function(ctx, module, func)
        .ok_or_else(|| CompileError::Inputs(format!("no function @{func}")))?;
    let Some(block) = ctx
        .op_regions(f)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return Err(CompileError::Inputs(format!("@{func} has no body")));
    };
    let args: Vec<Value> = ctx.block_args(block).collect();
    if args.len() != shapes.len() {
        return Err(CompileError::Inputs(format!(
            "@{func} takes {} inputs, got {} shapes",
            args.len(),
            shapes.len()
        )));
    }
    let mut types = Vec::new();
    for (a, s) in args.iter().zip(shapes) {
        let ty = ctx.value_type(*a);
        let TypeKind::RankedTensor { shape, element, .. } = ctx.type_kind(ty).clone() else {
            return Err(CompileError::Inputs("inputs must be ranked tensors".into()));
        };
        let ok =
            shape.len() == s.len() && shape.iter().zip(s).all(|(&d, &g)| d < 0 || d as usize == g);
        if !ok {
            return Err(CompileError::Inputs(format!(
                "an input of type {} cannot take shape {s:?}",
                strata_ir::printer::type_to_string(ctx, ty)
            )));
        }
        let t = ctx.tensor_type(s.iter().map(|&d| d as i64).collect(), element);
        ctx.set_value_type(*a, t);
        types.push(t);
    }
    let results = strata_dialects::func::function_signature(ctx, f)
        .map(|(_, r)| r)
        .unwrap_or_default();
    let fn_type = ctx.function_type(types, results);
    let attr = ctx.type_attr(fn_type);
    set_property(ctx, f, "function_type", attr);
    Ok(())
}

/// Set (or replace) the property `name` of `op`.
fn set_property(ctx: &mut Context, op: Operation, name: &str, value: strata_ir::Attribute) {
    let key = ctx.ident(name);
    let mut entries: Vec<_> = ctx
        .op_properties(op)
        .map(|p| ctx.dictionary_entries(p).to_vec())
        .unwrap_or_default();
    entries.retain(|(k, _)| *k != key);
    entries.push((key, value));
    let dict = ctx.dictionary_attr(entries);
    ctx.set_op_properties(op, Some(dict));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stages_make_the_host_pipeline() {
        assert_eq!(pipeline_until("kernel").as_deref(), Some(HOST_PIPELINE));
        assert_eq!(
            pipeline_until("graph").as_deref(),
            Some("builtin.module(graph-infer-shapes,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes)")
        );
        assert_eq!(pipeline_until("host"), None);
    }
}
