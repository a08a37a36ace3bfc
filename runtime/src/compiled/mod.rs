//! `graph` exe mode on the CPU: a model compiled into one plan of
//! JIT-compiled kernels on one arena, run in process.
//!
//! [`compile`] specializes a function to its input shapes and runs
//! [`HOST_PIPELINE`]; [`CompiledModel::from_kernel_module`] turns
//! the resulting host plan into steps and compiles its kernels with LLVM;
//! [`CompiledModel::run`] checks the inputs against the shapes the plan was
//! compiled for, runs the launches on its worker threads, and returns the
//! outputs.

use std::time::Instant;

use strata_ir::pass::{OpPassManager, PassRegistry};
use strata_ir::{Context, Diagnostic, Operation, TypeKind, Value};
use strata_lowering::kernel_to_host::HostKernels;
use strata_lowering::llvm::{launch, HostKernel, Parallel as LaunchParallel};

use crate::tensor::{Tensor, TensorView};
use crate::workers::{Lease, Parallel, Workers};

use crate::plan::packed::{Packed, Side};
use crate::plan::{check_views, run_custom, words_as_bytes, CustomCall, Gemm, IndexCheck};
pub(crate) use crate::plan::{read_plan, tensor_from_bytes, words, Buf, Plan, PlanWork, Spec};
pub use crate::plan::{PlanError, RunError};

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
pub const HOST_PIPELINE: &str = "builtin.module(graph-infer-shapes,graph-decompose-recurrent,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes,convert-graph-to-tensor,tensor-fuse,convert-tensor-to-kernel{library-gemm=true},canonicalize,cse)";

/// [`HOST_PIPELINE_GENERATED`], then the GPU form of the kernels
/// (`convert-kernel-to-nvptx` for sm_90): what the test suite emulates on
/// the host ([`CompiledModel::from_gpu_module_emulated`]) and assembles
/// with ptxas.
pub const GPU_PIPELINE: &str = "builtin.module(graph-infer-shapes,graph-decompose-recurrent,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes,convert-graph-to-tensor,tensor-fuse,convert-tensor-to-kernel,canonicalize,cse,convert-kernel-to-nvptx)";

/// [`HOST_PIPELINE`] with generated kernels only.
pub const HOST_PIPELINE_GENERATED: &str = "builtin.module(graph-infer-shapes,graph-decompose-recurrent,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes,convert-graph-to-tensor,tensor-fuse,convert-tensor-to-kernel,canonicalize,cse)";

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
    /// The GPU kernels could not be translated (or emulated).
    #[error(transparent)]
    Gpu(#[from] strata_lowering::nvptx_to_llvm::GpuError),
}

/// What one step of the plan runs.
enum Work {
    /// A compiled kernel on a grid.
    Kernel(HostKernel, [i64; 3]),
    /// A library matrix product (`kernel.gemm`), with its constant
    /// operands packed ahead ([`Gemm::prepack`]).
    Gemm(Gemm, [Option<Packed>; 2]),
    /// A registered custom op's implementation (`kernel.custom_call`).
    Custom(CustomCall),
    /// A gather's indices checked (`kernel.check_indices`).
    CheckIndices(IndexCheck),
}

struct Launch {
    work: Work,
    name: String,
    args: Vec<Buf>,
    /// Whether the step is worth spreading over threads (small steps run
    /// on the calling thread: handing tasks out costs more than they do).
    parallel: bool,
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
    /// Arenas free for a run: a run takes one (or allocates one) and puts
    /// it back, so that runs from several threads at once each have their
    /// own and none waits for another.
    arenas: std::sync::Mutex<Vec<Vec<u64>>>,
    constants: Vec<Vec<u64>>,
    /// The threads of parallel steps besides the running one.
    workers: Option<Workers>,
    /// Inputs compiled in as constants ([`compile_pinned`]): each run must
    /// give these values.
    pinned: Vec<(usize, Tensor)>,
    /// Milliseconds spent in LLVM (optimization and code generation).
    pub llvm_ms: f64,
}

impl From<PlanError> for CompileError {
    fn from(e: PlanError) -> CompileError {
        CompileError::Plan(e.0)
    }
}

impl CompiledModel {
    /// The plan of host function `func` of a module lowered to kernels
    /// (after `convert-tensor-to-kernel`), with its kernels JIT-compiled;
    /// `threads` is how many threads a run uses (1: the calling thread).
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

    /// The plan of host function `func` of a module lowered to kernels and
    /// given their GPU form (`convert-kernel-to-nvptx`), each GPU kernel
    /// emulated on the host CPU one thread after another in place of the
    /// host kernel: the check of the GPU kernels on machines without a GPU
    /// (`strata_lowering::nvptx_to_llvm::emulation_bitcode`).
    pub fn from_gpu_module_emulated(
        ctx: &Context,
        module: Operation,
        func: &str,
        threads: usize,
    ) -> Result<CompiledModel, CompileError> {
        let plan = read_plan(ctx, module, func)?;
        let start = Instant::now();
        let jobs = strata_lowering::nvptx_to_llvm::emulation_bitcode(ctx, module)?;
        // Compiled as emitted, without `default<O3>` and with fast
        // instruction selection: an emulation checks what the kernels
        // compute, and compiling fast matters more.
        let jit = strata_lowering::kernel_to_host::compile_bitcode_quickly(jobs)?;
        let llvm_ms = start.elapsed().as_secs_f64() * 1e3;
        CompiledModel::from_plan(plan, jit, llvm_ms, threads)
    }

    /// The plan, made to hold `pinned` (input index and value) as
    /// constants ([`specialize_pinned`]): each run must give those values.
    pub fn with_pinned(mut self, pinned: Vec<(usize, Tensor)>) -> CompiledModel {
        self.pinned = pinned;
        self
    }

    /// `plan` with the entry points of `jit`, its compiled kernels.
    pub(crate) fn from_plan(
        plan: Plan,
        jit: HostKernels,
        llvm_ms: f64,
        threads: usize,
    ) -> Result<CompiledModel, CompileError> {
        let mut steps = Vec::with_capacity(plan.steps.len());
        let mut constants = plan.constants;
        // How each product's constant operands are packed ahead; a constant
        // that no step reads in place (and no output is) is dropped once
        // its last packed use is packed, so that its words and the packed
        // copy are not both held for long.
        let packing: Vec<[Option<Side>; 2]> = plan
            .steps
            .iter()
            .map(|step| match &step.work {
                PlanWork::Gemm(g) => {
                    g.packing([0, 1].map(|o| matches!(step.args.get(o), Some(Buf::Const(_)))))
                }
                _ => [None, None],
            })
            .collect();
        let mut packed_uses = vec![0usize; constants.len()];
        let mut read_in_place = vec![false; constants.len()];
        for (b, _) in &plan.outputs {
            if let Buf::Const(c) = *b {
                read_in_place[c] = true;
            }
        }
        for (step, sides) in plan.steps.iter().zip(&packing) {
            for (o, arg) in step.args.iter().enumerate() {
                if let Buf::Const(c) = *arg {
                    match sides.get(o).copied().flatten() {
                        Some(_) => packed_uses[c] += 1,
                        None => read_in_place[c] = true,
                    }
                }
            }
        }
        for (step, sides) in plan.steps.into_iter().zip(packing) {
            let work = match step.work {
                PlanWork::Kernel { callee, grid } => {
                    let kernel = jit.kernel(&callee).ok_or_else(|| {
                        CompileError::Plan(format!("no compiled kernel @{callee}"))
                    })?;
                    Work::Kernel(kernel, grid)
                }
                PlanWork::Gemm(g) => {
                    let mut ahead = [None, None];
                    for (o, side) in sides.iter().enumerate() {
                        if let (Some(side), Some(&Buf::Const(c))) = (side, step.args.get(o)) {
                            // SAFETY: the plan sized each constant for its
                            // memref type, which holds every element the
                            // verified strides of `kernel.gemm` reach.
                            let ptr = constants[c].as_ptr().cast::<f32>();
                            ahead[o] = Some(unsafe { g.prepack(o, *side, ptr) });
                            packed_uses[c] -= 1;
                            if packed_uses[c] == 0 && !read_in_place[c] {
                                constants[c] = Vec::new();
                            }
                        }
                    }
                    Work::Gemm(g, ahead)
                }
                PlanWork::Custom(c) => Work::Custom(c),
                PlanWork::CheckIndices(c) => Work::CheckIndices(c),
            };
            steps.push(Launch {
                work,
                name: step.name,
                args: step.args,
                parallel: step.parallel,
            });
        }
        // Fewer threads than asked for (the system refused one) still run
        // the plan: on the calling thread alone.
        let workers = if threads > 1 {
            Workers::new(threads, 16 << 20).ok()
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
            arenas: std::sync::Mutex::new(Vec::new()),
            constants,
            workers,
            pinned: Vec::new(),
            llvm_ms,
        })
    }

    /// The dtype and shape of each input, in order.
    pub fn input_specs(&self) -> &[Spec] {
        &self.inputs
    }

    /// The dtype and shape of each output, in order.
    pub fn output_specs(&self) -> Vec<&Spec> {
        self.outputs.iter().map(|(_, s)| s).collect()
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
        let views: Vec<TensorView<'_>> = inputs.iter().map(Tensor::view).collect();
        self.run_timed(&views, None)
    }

    /// [`CompiledModel::run`] on inputs held elsewhere (a NumPy array's
    /// memory), read in place: no copy is made of them.
    pub fn run_views(&self, inputs: &[TensorView<'_>]) -> Result<Vec<Tensor>, RunError> {
        self.run_timed(inputs, None)
    }

    /// Run the plan and return the time of each launch, in launch order,
    /// with the kernel's name.
    pub fn run_profiled(&self, inputs: &[Tensor]) -> Result<(Vec<Tensor>, KernelTimes), RunError> {
        let mut times = Vec::with_capacity(self.steps.len());
        let views: Vec<TensorView<'_>> = inputs.iter().map(Tensor::view).collect();
        let out = self.run_timed(&views, Some(&mut times))?;
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
        lease: Option<&Lease<'_>>,
        times: Option<&mut Vec<f64>>,
    ) -> Result<(), RunError> {
        let args: Vec<u64> = step.args.iter().map(|&b| address(b)).collect();
        let start = times.as_ref().map(|_| Instant::now());
        // SAFETY: the plan was checked when it was built: each buffer is
        // sized for its memref type, the kernels' masks keep their
        // accesses inside those (and the verifier of kernel.gemm its
        // strides), the inputs match the compiled shapes, and the arena
        // is held for the whole run.
        let lease = lease.filter(|_| step.parallel);
        match &step.work {
            Work::Kernel(kernel, grid) => unsafe {
                launch(
                    *kernel,
                    &args,
                    *grid,
                    lease.map(|l| l as &dyn LaunchParallel),
                )
            },
            Work::Gemm(g, ahead) => unsafe {
                g.run(
                    [args[0], args[1], args[2]],
                    lease.map(|l| l as &dyn Parallel),
                    [0, 1].map(|o| ahead[o].as_ref()),
                )
            },
            // SAFETY: as above: each buffer holds its spec's bytes.
            Work::Custom(c) => unsafe { run_custom(c, &args)? },
            Work::CheckIndices(c) => {
                // SAFETY: as above: the buffer holds its spec's bytes, and
                // no step writes it while this one reads.
                let bytes =
                    unsafe { std::slice::from_raw_parts(args[0] as *const u8, c.spec.bytes()) };
                c.check(bytes)?;
            }
        }
        if let (Some(t), Some(start)) = (times, start) {
            t.push(start.elapsed().as_secs_f64() * 1e3);
        }
        Ok(())
    }

    fn run_timed(
        &self,
        inputs: &[TensorView<'_>],
        mut times: Option<&mut Vec<f64>>,
    ) -> Result<Vec<Tensor>, RunError> {
        check_views(&self.inputs, inputs)?;
        for (i, pinned) in &self.pinned {
            if inputs[*i].bytes() != pinned.data().as_bytes() {
                return Err(RunError::Pinned { index: *i });
            }
        }
        // The inputs are read in place (kernels never write them: every
        // output of a launch is an arena buffer).
        let input_bytes: Vec<&[u8]> = inputs.iter().map(TensorView::bytes).collect();
        // An arena of the pool, put back when the run ends (also on an
        // error); a run that finds none free allocates its own.
        let mut arena = ArenaLease::take(&self.arenas, self.arena_words);
        let base = (arena.as_mut_ptr() as usize).div_ceil(64) * 64;
        let address = |b: Buf| -> u64 {
            match b {
                Buf::Input(i) => input_bytes[i].as_ptr() as u64,
                Buf::Arena(off) => (base + off) as u64,
                Buf::Const(c) => self.constants[c].as_ptr() as u64,
            }
        };
        // The workers, awake for this run, when a step can use them (and
        // no other run holds them).
        let lease = self
            .workers
            .as_ref()
            .filter(|_| self.steps.iter().any(|s| s.parallel))
            .and_then(Workers::lease);
        for step in &self.steps {
            self.run_step(step, &address, lease.as_ref(), times.as_deref_mut())?;
        }
        drop(lease);
        let mut out = Vec::with_capacity(self.outputs.len());
        for (b, spec) in &self.outputs {
            let n: usize = spec.shape.iter().product();
            let len = n * spec.dtype.byte_size();
            let src: &[u8] = match *b {
                Buf::Input(k) => &input_bytes[k][..len],
                // The constant's words hold at least `len` bytes.
                Buf::Const(c) => &words_as_bytes(&self.constants[c])[..len],
                // SAFETY: the buffer lies inside the arena (planned offsets and sizes).
                Buf::Arena(off) => unsafe {
                    std::slice::from_raw_parts((base + off) as *const u8, len)
                },
            };
            out.push(tensor_from_bytes(spec, src));
        }
        Ok(out)
    }
}

/// The host kernels' launches split over the plan's workers too.
impl LaunchParallel for Lease<'_> {
    fn threads(&self) -> usize {
        Parallel::threads(self)
    }

    fn for_each(&self, tasks: usize, task: &(dyn Fn(usize) + Sync)) {
        Parallel::for_each(self, tasks, task)
    }
}

/// An arena taken from a model's pool for one run and given back on drop.
struct ArenaLease<'a> {
    pool: &'a std::sync::Mutex<Vec<Vec<u64>>>,
    arena: Vec<u64>,
}

impl<'a> ArenaLease<'a> {
    fn take(pool: &'a std::sync::Mutex<Vec<Vec<u64>>>, words: usize) -> Self {
        let mut arena = pool
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        if arena.len() < words {
            arena.resize(words, 0);
        }
        ArenaLease { pool, arena }
    }

    fn as_mut_ptr(&mut self) -> *mut u64 {
        self.arena.as_mut_ptr()
    }
}

impl Drop for ArenaLease<'_> {
    fn drop(&mut self) {
        let arena = std::mem::take(&mut self.arena);
        self.pool
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(arena);
    }
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
        "graph-infer-shapes,graph-decompose-recurrent,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes",
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
    run_passes(ctx, module, pipeline)
}

/// [`compile_with`] for `inputs` themselves: their shapes, and the values
/// of the inputs `pin` marks, which become constants of the plan (reduction
/// axes, pads, scales and shapes that ONNX passes as inputs but a compiled
/// plan needs at compile time). The plan then runs only on those values:
/// [`CompiledModel::run`] refuses others ([`RunError::Pinned`]). A
/// `pipeline` that gives the kernels their GPU form ([`GPU_PIPELINE`])
/// runs them emulated on the host.
pub fn compile_pinned(
    ctx: &mut Context,
    module: Operation,
    func: &str,
    inputs: &[Tensor],
    pin: &[bool],
    threads: usize,
    pipeline: &str,
) -> Result<CompiledModel, CompileError> {
    let pinned = specialize_pinned(ctx, module, func, inputs, pin)?;
    run_passes(ctx, module, pipeline)?;
    Ok(from_lowered(ctx, module, func, threads)?.with_pinned(pinned))
}

/// The plan of host function `func` of `module` after the pipeline: its
/// kernels compiled for the host, or, when the pipeline gave them their GPU
/// form, emulated on the host.
pub fn from_lowered(
    ctx: &Context,
    module: Operation,
    func: &str,
    threads: usize,
) -> Result<CompiledModel, CompileError> {
    let gpu = strata_lowering::nvptx_to_llvm::gpu_module(ctx, module);
    if ctx.op_attr(gpu, "nvptx.target").is_some() {
        CompiledModel::from_gpu_module_emulated(ctx, module, func, threads)
    } else {
        CompiledModel::from_kernel_module(ctx, module, func, threads)
    }
}

/// Specialize `func` of `module` to the shapes of `inputs`, the inputs
/// `pin` marks replaced by constants of their values: [`compile_pinned`]
/// before the pipeline. Returns the pinned inputs (index and value), which
/// a plan compiled from the module must be given
/// ([`CompiledModel::with_pinned`]).
pub fn specialize_pinned(
    ctx: &mut Context,
    module: Operation,
    func: &str,
    inputs: &[Tensor],
    pin: &[bool],
) -> Result<Vec<(usize, Tensor)>, CompileError> {
    let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
    specialize(ctx, module, func, &shapes)?;
    let f = crate::interp::lookup_function(ctx, module, func)
        .ok_or_else(|| CompileError::Inputs(format!("no function @{func}")))?;
    let block = ctx
        .op_regions(f)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
        .ok_or_else(|| CompileError::Inputs(format!("@{func} has no body")))?;
    let args: Vec<Value> = ctx.block_args(block).collect();
    let mut pinned = Vec::new();
    for (i, (&arg, t)) in args.iter().zip(inputs).enumerate() {
        if !pin.get(i).copied().unwrap_or(false) {
            continue;
        }
        let ty = ctx.value_type(arg);
        let value = ctx
            .dense_elements_attr(ty, t.data().as_bytes().to_vec())
            .ok_or_else(|| CompileError::Inputs(format!("input #{i} cannot be a constant")))?;
        let loc = ctx.op_loc(f);
        let constant = strata_dialects::graph::fold::build_constant(ctx, value, ty, loc);
        match ctx.block_ops(block).next() {
            Some(first) => ctx.insert_op_before(first, constant),
            None => ctx.append_op(block, constant),
        }
        let c = ctx.result(constant, 0);
        ctx.replace_all_uses_with(arg, c);
        pinned.push((i, t.clone()));
    }
    Ok(pinned)
}

/// Whether [`compile_pinned`] should pin input `t` when a compile needs
/// input values: a small tensor of integers (at most 64 elements: axes,
/// pads, starts, shapes) or of floats (at most 8: resize scales, range
/// bounds), the operands ONNX passes as inputs and the lowering reads as
/// constants.
pub fn pinnable(t: &Tensor) -> bool {
    let n: usize = t.shape().iter().product();
    (t.dtype().is_int() && n <= 64) || (t.dtype().is_float() && n <= 8)
}

/// Whether `e` is a compile error that constants for some inputs would
/// avoid (an operand the lowering needs at compile time, or a shape that
/// depends on values).
pub fn needs_input_values(e: &CompileError) -> bool {
    match e {
        CompileError::Diagnostics(d) => d.iter().any(|d| {
            d.message.contains("that are not a constant")
                || d.message.contains("that is not a constant")
                || d.message.contains("has a dynamic shape")
        }),
        _ => false,
    }
}

/// Run `pipeline` on `module`, whose function is specialized already.
pub(crate) fn run_passes(
    ctx: &mut Context,
    module: Operation,
    pipeline: &str,
) -> Result<(), CompileError> {
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

/// Erases the functions of `module` that `f` does not reach through symbol
/// references (calls): graph mode compiles one function, and another one
/// in the file (with ops that do not lower) must not stop it.
fn drop_unreached_functions(ctx: &mut Context, module: Operation, f: Operation) {
    let functions: Vec<Operation> = ctx
        .op_regions(module)
        .iter()
        .flat_map(|&r| ctx.region_blocks(r).collect::<Vec<_>>())
        .flat_map(|b| ctx.block_ops(b).collect::<Vec<_>>())
        .filter(|&op| ctx.op_name_str(op) == "func.func")
        .collect();
    let name_of = |op: Operation| ctx.symbol_name(op).map(<[u8]>::to_vec);
    let mut reached = vec![f];
    let mut i = 0;
    while i < reached.len() {
        let mut names: Vec<Vec<u8>> = Vec::new();
        for op in ctx.nested_ops(reached[i], strata_ir::WalkOrder::PreOrder) {
            let mut attrs: Vec<strata_ir::Attribute> = Vec::new();
            if let Some(p) = ctx.op_properties(op) {
                attrs.extend(ctx.dictionary_entries(p).iter().map(|&(_, a)| a));
            }
            let d = ctx.op_attr_dict(op);
            attrs.extend(ctx.dictionary_entries(d).iter().map(|&(_, a)| a));
            // Symbol references, also inside arrays and dictionaries.
            while let Some(a) = attrs.pop() {
                match ctx.attr_kind(a) {
                    strata_ir::AttrKind::SymbolRef { root, .. } => names.push(root.to_vec()),
                    strata_ir::AttrKind::Array(items) => attrs.extend(items.iter().copied()),
                    strata_ir::AttrKind::Dictionary(entries) => {
                        attrs.extend(entries.iter().map(|&(_, v)| v))
                    }
                    _ => {}
                }
            }
        }
        for &g in &functions {
            if !reached.contains(&g) && name_of(g).is_some_and(|n| names.contains(&n)) {
                reached.push(g);
            }
        }
        i += 1;
    }
    for g in functions {
        if !reached.contains(&g) {
            ctx.erase_op(g);
        }
    }
}

/// Give `func`'s arguments the static `shapes` (one per argument; a
/// dynamic dimension takes any size, a static one must match), and its
/// type the new argument types: the first step of [`compile`]. The
/// functions `func` does not call are erased. An argument that is not a
/// tensor (a sequence, an optional), given no dimensions, keeps its type:
/// hybrid mode runs the ops that use it eagerly.
pub fn specialize(
    ctx: &mut Context,
    module: Operation,
    func: &str,
    shapes: &[Vec<usize>],
) -> Result<(), CompileError> {
    let f = crate::interp::lookup_function(ctx, module, func)
        .ok_or_else(|| CompileError::Inputs(format!("no function @{func}")))?;
    drop_unreached_functions(ctx, module, f);
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
        let kind = ctx.type_kind(ty).clone();
        let TypeKind::RankedTensor { shape, element, .. } = kind else {
            let tensor = matches!(kind, TypeKind::UnrankedTensor { .. });
            if s.is_empty() && !tensor {
                types.push(ty);
                continue;
            }
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
    ctx.set_op_property(f, "function_type", attr);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stages_make_the_host_pipeline() {
        assert_eq!(pipeline_until("kernel").as_deref(), Some(HOST_PIPELINE));
        assert_eq!(
            pipeline_until("graph").as_deref(),
            Some("builtin.module(graph-infer-shapes,graph-decompose-recurrent,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes)")
        );
        assert_eq!(pipeline_until("host"), None);
    }
}
