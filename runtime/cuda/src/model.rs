//! [`CudaModel`]: a host plan whose kernels are PTX, run on one CUDA
//! stream.

use std::ffi::{c_void, CString};
use std::sync::Arc;

use cudarc::driver::sys::{self, CUdeviceptr};
use cudarc::driver::{result, CudaContext, CudaGraph, CudaStream};
use strata_artifact::{Artifact, Expect};
use strata_ir::{AttrKind, Context, Operation};
use strata_runtime::artifact::{gpu_module, load_plan};
use strata_runtime::plan::{
    check_inputs, tensor_from_bytes, words_as_bytes, Buf, IndexCheck, Plan, PlanWork, Spec,
};
use strata_runtime::Tensor;

use crate::blas::{blas_calls, BlasCall};
use crate::{probe, CudaError, DeviceInfo};

/// What the CUDA executor loads: artifacts of this compiler for `sm_80`
/// or `sm_90`, any recipe, no custom ops.
pub fn cuda_expect() -> Expect {
    let mut expect = Expect::new("sm_90");
    expect.targets = vec!["sm_80".into(), "sm_90".into()];
    expect
}

/// A GPU kernel of a plan: its name, its PTX, and its threads per block.
#[derive(Clone, Debug)]
pub struct GpuKernel {
    pub name: String,
    pub ptx: String,
    pub threads: u32,
}

/// The GPU kernels of `module` (lowered by `convert-kernel-to-nvptx`) and
/// the threads per block of each (`nvptx.threads`), by name.
pub fn gpu_kernels(ctx: &Context, module: Operation) -> Result<Vec<(String, u32)>, CudaError> {
    let gpu = gpu_module(ctx, module).ok_or_else(|| {
        CudaError::Plan("the module has no GPU kernels (run convert-kernel-to-nvptx)".into())
    })?;
    let mut out = Vec::new();
    for op in ctx.nested_ops(gpu, strata_ir::WalkOrder::PreOrder) {
        if ctx.op_name_str(op) != "func.func" {
            continue;
        }
        let Some(name) = ctx.symbol_name(op) else {
            continue;
        };
        let name = String::from_utf8_lossy(name).into_owned();
        let threads = ctx
            .op_attr(op, "nvptx.threads")
            .and_then(|a| match ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => u32::try_from(*value).ok(),
                _ => None,
            })
            .filter(|t| (1..=1024).contains(t))
            .ok_or_else(|| {
                CudaError::Plan(format!(
                    "GPU kernel @{name} has no nvptx.threads between 1 and 1024"
                ))
            })?;
        out.push((name, threads));
    }
    Ok(out)
}

/// Device memory from `cuMemAlloc`, freed on drop.
struct DeviceBuffer {
    ptr: CUdeviceptr,
    bytes: usize,
}

impl DeviceBuffer {
    fn new(bytes: usize) -> Result<DeviceBuffer, CudaError> {
        // SAFETY: the context is current (bound by the caller); zero-sized
        // buffers get 256 bytes (cuMemAlloc refuses 0).
        let ptr = unsafe { result::malloc_sync(bytes.max(256))? };
        // SAFETY: `ptr` holds at least `bytes` bytes.
        unsafe { result::memset_d8_sync(ptr, 0, bytes.max(256))? };
        Ok(DeviceBuffer { ptr, bytes })
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated by `new`, freed once; an error here (a context
        // already torn down) has nothing left to free.
        let _ = unsafe { result::free_sync(self.ptr) };
    }
}

/// A loaded PTX module, unloaded on drop.
struct Module(sys::CUmodule);

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: loaded by `load_data`, unloaded once.
        let _ = unsafe { result::module::unload(self.0) };
    }
}

/// What one step of the plan launches.
enum Step {
    Kernel {
        function: sys::CUfunction,
        grid: (u32, u32, u32),
        threads: u32,
        /// The device address of each argument buffer.
        args: Vec<u64>,
    },
    Blas {
        f64: bool,
        calls: Vec<BlasCall>,
        /// lhs, rhs and out.
        ptrs: [u64; 3],
    },
    /// Indices computed on the device, copied back and checked once the
    /// steps before are done (a synchronization: not in a CUDA graph).
    Check { check: IndexCheck, ptr: u64 },
}

/// cuBLAS: a handle on the model's stream, with a workspace of its own (so
/// that calls can be captured into a CUDA graph).
struct Blas {
    handle: cudarc::cublas::sys::cublasHandle_t,
    _workspace: DeviceBuffer,
}

impl Drop for Blas {
    fn drop(&mut self) {
        // SAFETY: created by `Blas::new`, destroyed once.
        let _ = unsafe { cudarc::cublas::result::destroy_handle(self.handle) };
    }
}

const BLAS_WORKSPACE_BYTES: usize = 32 << 20;

impl Blas {
    fn new(stream: &CudaStream) -> Result<Blas, CudaError> {
        let err = |e: cudarc::cublas::result::CublasError| CudaError::Blas(e.to_string());
        // SAFETY: only tries to open the library.
        if !unsafe { cudarc::cublas::sys::is_culib_present() } {
            return Err(CudaError::Blas(
                "the plan has library matrix products, and libcublas.so was not found (put its directory on LD_LIBRARY_PATH, or compile with a recipe that generates the products)".into(),
            ));
        }
        // The workspace first: a failed allocation then leaks no handle.
        let workspace = DeviceBuffer::new(BLAS_WORKSPACE_BYTES)?;
        let handle = cudarc::cublas::result::create_handle().map_err(err)?;
        let blas = Blas {
            handle,
            _workspace: workspace,
        };
        // SAFETY: the handle is live, the stream belongs to the current
        // context, the workspace outlives the handle (a field of `blas`).
        unsafe {
            cudarc::cublas::result::set_stream(handle, stream.cu_stream() as _).map_err(err)?;
            cudarc::cublas::sys::cublasSetWorkspace_v2(
                handle,
                blas._workspace.ptr as *mut c_void,
                BLAS_WORKSPACE_BYTES,
            )
            .result()
            .map_err(err)?;
        }
        Ok(blas)
    }

    /// Run `calls` on the buffers at `ptrs` (lhs, rhs, out).
    ///
    /// # Safety
    /// The buffers hold every element the calls reach ([`blas_calls`] keeps
    /// to the strides that `kernel.gemm`'s verifier checks).
    unsafe fn run(&self, f64: bool, calls: &[BlasCall], ptrs: [u64; 3]) -> Result<(), CudaError> {
        use cudarc::cublas::sys::cublasOperation_t as Op;
        let op = |t: bool| if t { Op::CUBLAS_OP_T } else { Op::CUBLAS_OP_N };
        let size = if f64 { 8 } else { 4 };
        for c in calls {
            let at = |o: &crate::BlasOperand| ptrs[o.buffer] + (o.offset as u64) * size;
            // SAFETY: upheld by the caller.
            let status = unsafe {
                if f64 {
                    cudarc::cublas::result::dgemm_strided_batched(
                        self.handle,
                        op(c.trans_a),
                        op(c.trans_b),
                        c.m,
                        c.n,
                        c.k,
                        &1.0,
                        at(&c.a) as *const f64,
                        c.a.ld,
                        c.a.stride,
                        at(&c.b) as *const f64,
                        c.b.ld,
                        c.b.stride,
                        &0.0,
                        at(&c.c) as *mut f64,
                        c.c.ld,
                        c.c.stride,
                        c.batch,
                    )
                } else {
                    cudarc::cublas::result::sgemm_strided_batched(
                        self.handle,
                        op(c.trans_a),
                        op(c.trans_b),
                        c.m,
                        c.n,
                        c.k,
                        &1.0,
                        at(&c.a) as *const f32,
                        c.a.ld,
                        c.a.stride,
                        at(&c.b) as *const f32,
                        c.b.ld,
                        c.b.stride,
                        &0.0,
                        at(&c.c) as *mut f32,
                        c.c.ld,
                        c.c.stride,
                        c.batch,
                    )
                }
            };
            status.map_err(|e| CudaError::Blas(e.to_string()))?;
        }
        Ok(())
    }
}

/// Device times of repeated runs, in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct RunTimes {
    /// One per run: its launches, from the first to the last (CUDA events).
    pub device_ms: Vec<f64>,
}

/// A plan with its kernels loaded on a CUDA device, ready to run.
pub struct CudaModel {
    // Dropped in this order: the graph, the steps' functions with their
    // modules, cuBLAS and the buffers, then the stream and the context.
    graph: Option<CudaGraph>,
    steps: Vec<Step>,
    names: Vec<String>,
    _modules: Vec<Module>,
    blas: Option<Blas>,
    arena: DeviceBuffer,
    inputs: Vec<DeviceBuffer>,
    _constants: Vec<DeviceBuffer>,
    host_constants: Vec<Vec<u64>>,
    input_specs: Vec<Spec>,
    /// Checks of indices that are inputs: made on the host, before the copy.
    input_checks: Vec<(usize, IndexCheck)>,
    outputs: Vec<(Buf, Spec)>,
    stream: Arc<CudaStream>,
    ctx: Arc<CudaContext>,
    /// The device the model runs on.
    pub device: DeviceInfo,
}

fn grid_dims(name: &str, grid: [i64; 3]) -> Result<(u32, u32, u32), CudaError> {
    let limits = [i64::from(i32::MAX), 65535, 65535];
    if grid.iter().zip(limits).any(|(&g, l)| g < 1 || g > l) {
        return Err(CudaError::Plan(format!(
            "kernel @{name}: grid {grid:?} is over CUDA's grid limits (2^31-1, 65535, 65535)"
        )));
    }
    Ok((grid[0] as u32, grid[1] as u32, grid[2] as u32))
}

impl CudaModel {
    /// Load `plan` with `kernels` (the PTX of each kernel it launches,
    /// compiled for `target`) on device `ordinal`: check each launch
    /// against its kernel's PTX signature ([`crate::check_plan`], before
    /// any device is looked for), probe for the device, check that it runs
    /// `target`, load the PTX, allocate the arena, the inputs and the
    /// constants.
    pub fn new(
        plan: Plan,
        kernels: &[GpuKernel],
        target: &str,
        ordinal: usize,
    ) -> Result<CudaModel, CudaError> {
        crate::check_plan(&plan, kernels)?;
        let device = probe(ordinal)?;
        if !device.runs(target) {
            return Err(CudaError::Target {
                target: target.to_string(),
                device: device.name.clone(),
                major: device.capability.0,
                minor: device.capability.1,
            });
        }
        let ctx = CudaContext::new(ordinal)?;
        // One stream, no cross-stream events: the plan orders its launches.
        // SAFETY: every buffer of the model is used on `stream` only.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream()?;
        let arena = DeviceBuffer::new(plan.arena_bytes)?;
        let inputs = plan
            .inputs
            .iter()
            .map(|s| DeviceBuffer::new(s.bytes()))
            .collect::<Result<Vec<_>, _>>()?;
        let mut constants = Vec::with_capacity(plan.constants.len());
        for words in &plan.constants {
            let buffer = DeviceBuffer::new(words.len() * 8)?;
            // SAFETY: the buffer holds the constant's words.
            unsafe { result::memcpy_htod_sync(buffer.ptr, words)? };
            constants.push(buffer);
        }
        let address = |b: Buf| -> u64 {
            match b {
                Buf::Input(i) => inputs[i].ptr,
                Buf::Arena(offset) => arena.ptr + offset as u64,
                Buf::Const(c) => constants[c].ptr,
            }
        };
        let mut modules: Vec<Module> = Vec::new();
        let mut functions: Vec<(String, sys::CUfunction, u32)> = Vec::new();
        let mut blas = None;
        let mut steps = Vec::with_capacity(plan.steps.len());
        let mut names = Vec::with_capacity(plan.steps.len());
        let mut input_checks = Vec::new();
        for step in &plan.steps {
            if let (PlanWork::CheckIndices(c), [Buf::Input(i)]) = (&step.work, step.args.as_slice())
            {
                input_checks.push((*i, c.clone()));
                continue;
            }
            let args: Vec<u64> = step.args.iter().map(|&b| address(b)).collect();
            let work = match &step.work {
                PlanWork::Kernel { callee, grid } => {
                    if !functions.iter().any(|(n, _, _)| n == callee) {
                        let k = kernels.iter().find(|k| k.name == *callee).ok_or_else(|| {
                            CudaError::Plan(format!("no PTX for kernel @{callee}"))
                        })?;
                        let (module, function) = load_kernel(k)?;
                        modules.push(module);
                        functions.push((callee.clone(), function, k.threads));
                    }
                    let (_, function, threads) = functions
                        .iter()
                        .find(|(n, _, _)| n == callee)
                        .ok_or_else(|| CudaError::Plan(format!("kernel @{callee} not loaded")))?;
                    Step::Kernel {
                        function: *function,
                        grid: grid_dims(callee, *grid)?,
                        threads: *threads,
                        args,
                    }
                }
                PlanWork::Gemm(g) => {
                    if blas.is_none() {
                        blas = Some(Blas::new(&stream)?);
                    }
                    let calls = blas_calls(g).map_err(|e| {
                        CudaError::Plan(format!("{}: cuBLAS cannot run it: {e}", step.name))
                    })?;
                    if args.len() != 3 {
                        return Err(CudaError::Plan(format!("{}: not 3 operands", step.name)));
                    }
                    Step::Blas {
                        f64: g.f64,
                        calls,
                        ptrs: [args[0], args[1], args[2]],
                    }
                }
                PlanWork::CheckIndices(c) => Step::Check {
                    check: c.clone(),
                    ptr: args[0],
                },
                PlanWork::Custom(c) => {
                    return Err(CudaError::Plan(format!(
                        "custom op '{}' has a host implementation only: the CUDA executor does not run custom ops",
                        c.op
                    )))
                }
            };
            steps.push(work);
            names.push(step.name.clone());
        }
        // The zeroing and the constants' copies ran on the NULL stream,
        // which the model's (non-blocking) stream does not wait for.
        ctx.synchronize()?;
        Ok(CudaModel {
            graph: None,
            steps,
            names,
            _modules: modules,
            blas,
            arena,
            inputs,
            _constants: constants,
            host_constants: plan.constants,
            input_specs: plan.inputs,
            input_checks,
            outputs: plan.outputs,
            stream,
            ctx,
            device,
        })
    }

    /// Load CUDA artifact `artifact` (read from `path`) on device
    /// `ordinal`, refused when its manifest differs from `expect` (as
    /// [`cuda_expect`] makes it, or with a recipe's hash). The artifact is
    /// read and checked before the device is looked for, so a bad file is
    /// reported on a machine without a GPU too.
    pub fn from_artifact(
        artifact: &Artifact,
        path: &str,
        expect: &Expect,
        ordinal: usize,
    ) -> Result<CudaModel, CudaError> {
        let loaded = load_plan(artifact, path, expect, &|_| {})?;
        let threads = gpu_kernels(&loaded.ctx, loaded.module)?;
        let mut kernels = Vec::new();
        for (name, code) in loaded.kernel_code(artifact, path)? {
            let ptx = String::from_utf8(code.to_vec())
                .map_err(|_| CudaError::Plan(format!("the PTX of @{name} is not UTF-8")))?;
            let threads = threads
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| *t)
                .ok_or_else(|| CudaError::Plan(format!("no GPU kernel @{name} in the plan")))?;
            kernels.push(GpuKernel { name, ptx, threads });
        }
        let target = artifact.manifest.target.clone();
        CudaModel::new(loaded.plan, &kernels, &target, ordinal)
    }

    /// The steps in launch order (kernel names; library products).
    pub fn step_names(&self) -> &[String] {
        &self.names
    }

    /// Copy `inputs` to the device (they must match the plan's inputs).
    fn upload(&self, inputs: &[Tensor]) -> Result<(), CudaError> {
        check_inputs(&self.input_specs, inputs)?;
        for (i, check) in &self.input_checks {
            check.check(inputs[*i].data().as_bytes())?;
        }
        self.ctx.bind_to_thread()?;
        for (t, buffer) in inputs.iter().zip(&self.inputs) {
            let bytes = t.data().as_bytes();
            debug_assert_eq!(bytes.len(), buffer.bytes);
            // SAFETY: the buffer holds the input's bytes (checked above);
            // the stream is synchronized before `bytes` is dropped.
            unsafe { result::memcpy_htod_async(buffer.ptr, bytes, self.stream.cu_stream())? };
        }
        Ok(())
    }

    /// Launch every step on the stream.
    fn launch(&self) -> Result<(), CudaError> {
        for step in &self.steps {
            match step {
                Step::Kernel {
                    function,
                    grid,
                    threads,
                    args,
                } => {
                    let mut values = args.clone();
                    let mut params: Vec<*mut c_void> = values
                        .iter_mut()
                        .map(|v| v as *mut u64 as *mut c_void)
                        .collect();
                    // SAFETY: each kernel takes one pointer per buffer of its
                    // launch, in order, and its masks keep its accesses in
                    // those buffers (sized by their memref types).
                    unsafe {
                        result::launch_kernel(
                            *function,
                            *grid,
                            (*threads, 1, 1),
                            0,
                            self.stream.cu_stream(),
                            &mut params,
                        )?
                    };
                }
                Step::Blas { f64, calls, ptrs } => {
                    let blas = self
                        .blas
                        .as_ref()
                        .ok_or_else(|| CudaError::Blas("cuBLAS is not loaded".into()))?;
                    // SAFETY: the buffers are the step's, sized for its strides.
                    unsafe { blas.run(*f64, calls, *ptrs)? };
                }
                Step::Check { check, ptr } => {
                    let mut bytes = vec![0u8; check.spec.bytes()];
                    // SAFETY: the buffer holds the spec's bytes; the
                    // stream is synchronized before `bytes` is read.
                    unsafe {
                        result::memcpy_dtoh_async(&mut bytes[..], *ptr, self.stream.cu_stream())?
                    };
                    self.stream.synchronize()?;
                    check.check(&bytes)?;
                }
            }
        }
        Ok(())
    }

    /// Copy the outputs back, once the stream is done.
    fn download(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, CudaError> {
        let mut out = Vec::with_capacity(self.outputs.len());
        let mut bytes = Vec::new();
        for (b, spec) in &self.outputs {
            let len = spec.bytes();
            bytes.clear();
            bytes.resize(len, 0u8);
            match *b {
                Buf::Input(i) => bytes.copy_from_slice(&inputs[i].data().as_bytes()[..len]),
                Buf::Const(c) => {
                    bytes.copy_from_slice(&words_as_bytes(&self.host_constants[c])[..len])
                }
                // SAFETY: the output lies in the arena (planned offsets).
                Buf::Arena(offset) => unsafe {
                    result::memcpy_dtoh_async(
                        &mut bytes[..],
                        self.arena.ptr + offset as u64,
                        self.stream.cu_stream(),
                    )?;
                    self.stream.synchronize()?;
                },
            }
            out.push(tensor_from_bytes(spec, &bytes));
        }
        self.stream.synchronize()?;
        Ok(out)
    }

    /// Run the plan on `inputs`: copy them in, launch every step, copy the
    /// outputs back.
    pub fn run(&mut self, inputs: &[Tensor]) -> Result<Vec<Tensor>, CudaError> {
        self.upload(inputs)?;
        self.launch()?;
        self.download(inputs)
    }

    /// [`CudaModel::run`] with the launches replayed from a CUDA graph,
    /// captured on the first call (a plan has one shape: one graph).
    pub fn run_graph(&mut self, inputs: &[Tensor]) -> Result<Vec<Tensor>, CudaError> {
        self.upload(inputs)?;
        self.ensure_graph()?;
        self.replay()?;
        self.download(inputs)
    }

    fn ensure_graph(&mut self) -> Result<(), CudaError> {
        if self.graph.is_some() {
            return Ok(());
        }
        if self.steps.iter().any(|s| matches!(s, Step::Check { .. })) {
            return Err(CudaError::Plan(
                "the plan checks indices computed on the device, which needs a synchronization a CUDA graph cannot hold: run it without a CUDA graph".into(),
            ));
        }
        // One plain run first: cuBLAS and lazily loaded kernels initialize
        // outside the capture (inside it they may invalidate it).
        self.launch()?;
        self.stream.synchronize()?;
        self.stream
            .begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)?;
        let launched = self.launch();
        let graph = self.stream.end_capture(sys::CUgraphInstantiate_flags(0));
        // A failed launch invalidates the capture: report the launch's error.
        launched?;
        self.graph = graph?;
        Ok(())
    }

    fn replay(&self) -> Result<(), CudaError> {
        match &self.graph {
            Some(graph) => Ok(graph.launch()?),
            // An empty plan captures no graph.
            None => Ok(()),
        }
    }

    /// Run the plan `runs` times on `inputs` (copied in once), timing each
    /// run's launches on the device; `graph` replays a CUDA graph instead.
    pub fn time(
        &mut self,
        inputs: &[Tensor],
        runs: usize,
        graph: bool,
    ) -> Result<RunTimes, CudaError> {
        self.upload(inputs)?;
        if graph {
            self.ensure_graph()?;
        }
        let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let start = self.ctx.new_event(flags)?;
        let end = self.ctx.new_event(flags)?;
        let mut times = RunTimes::default();
        for _ in 0..runs {
            start.record(&self.stream)?;
            if graph {
                self.replay()?;
            } else {
                self.launch()?;
            }
            end.record(&self.stream)?;
            end.synchronize()?;
            times.device_ms.push(f64::from(start.elapsed_ms(&end)?));
        }
        Ok(times)
    }
}

impl Drop for CudaModel {
    fn drop(&mut self) {
        // The fields' drops (modules, buffers, cuBLAS) run after this with
        // the model's context current and its work finished.
        let _ = self.ctx.bind_to_thread();
        let _ = self.stream.synchronize();
    }
}

/// Load kernel `k`'s PTX as a module and find its entry point.
fn load_kernel(k: &GpuKernel) -> Result<(Module, sys::CUfunction), CudaError> {
    let ptx = CString::new(k.ptx.as_bytes())
        .map_err(|_| CudaError::Plan(format!("the PTX of @{} holds a NUL byte", k.name)))?;
    let name = CString::new(k.name.as_bytes())
        .map_err(|_| CudaError::Plan(format!("kernel name {:?} holds a NUL byte", k.name)))?;
    // SAFETY: `ptx` is NUL-terminated text; the driver compiles it (and
    // reports bad PTX as an error).
    let module = Module(unsafe { result::module::load_data(ptx.as_ptr() as *const c_void)? });
    // SAFETY: the module is loaded; a missing name is an error.
    let function = unsafe { result::module::get_function(module.0, name)? };
    Ok((module, function))
}
