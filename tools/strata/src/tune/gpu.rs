//! A trial for a GPU target (`sm_80`, `sm_90`): the candidate lowered to
//! the nvptx stage, every kernel's PTX assembled by `ptxas`, and, on a
//! CUDA device that runs the target, the plan run by the CUDA executor,
//! checked against eager mode and timed. Without a device the candidate
//! is a `run_error` that says it compiled: a machine with a GPU times it
//! (its fingerprint differs, so `--resume` there runs it again).

use std::cell::RefCell;
use std::collections::BTreeMap;

use strata_cuda::{CudaModel, GpuKernel};
use strata_lowering::llvm::nvptx::{check_with_ptxas, ptxas_path, GpuTarget};
use strata_runtime::compiled::lower;
use strata_runtime::kernels::allclose;
use strata_runtime::Tensor;

use super::log::State;
use super::trial::{Job, Outcome};
use crate::{check_tolerance, load_checked, new_context};

/// What runs a compiled candidate once more (for the timing).
pub(crate) type Runner = Box<dyn Fn() -> Result<(), String>>;

/// The GPU device's name, for the fingerprint: `None` without one.
pub(crate) fn device_name() -> Option<String> {
    strata_cuda::probe(0).ok().map(|d| d.name)
}

/// Compiles `recipe` (a GPU target's) and, on a device, checks its first
/// run; the outcome and what times it.
pub(crate) fn first_run(
    job: &Job,
    recipe: &strata_recipe::Recipe,
    args: &[Tensor],
    out_names: &[String],
    expected: &BTreeMap<String, (String, Tensor)>,
) -> (Outcome, Option<Runner>) {
    let target = recipe.codegen.target.name();
    let started = std::time::Instant::now();
    let compiled = (|| -> Result<(Vec<GpuKernel>, strata_runtime::plan::Plan, usize), String> {
        let mut ctx = new_context();
        let module = load_checked(&mut ctx, &job.model, None, None).map_err(|e| e.to_string())?;
        let shapes: Vec<Vec<usize>> = args.iter().map(|t| t.shape().to_vec()).collect();
        lower(&mut ctx, module, &job.function, &shapes, &recipe.pipeline())
            .map_err(|e| e.to_string())?;
        let ptx =
            strata_lowering::nvptx_to_llvm::kernels_ptx(&ctx, module).map_err(|e| e.to_string())?;
        // Every kernel through NVIDIA's assembler, where it is installed.
        if let (Some(_), Some(gpu)) = (ptxas_path(), GpuTarget::parse(target)) {
            for (name, text) in &ptx {
                check_with_ptxas(text, gpu).map_err(|e| format!("ptxas refused @{name}: {e}"))?;
            }
        }
        let threads = strata_cuda::gpu_kernels(&ctx, module).map_err(|e| e.to_string())?;
        let kernels: Vec<GpuKernel> = ptx
            .into_iter()
            .filter_map(|(name, ptx)| {
                let threads = threads.iter().find(|(n, _)| *n == name)?.1;
                Some(GpuKernel { name, ptx, threads })
            })
            .collect();
        let plan = strata_runtime::plan::read_plan(&ctx, module, &job.function)
            .map_err(|e| e.to_string())?;
        let count = kernels.len();
        Ok((kernels, plan, count))
    })();
    let compile_ms = started.elapsed().as_secs_f64() * 1e3;
    let (kernels, plan, count) = match compiled {
        Ok(c) => c,
        Err(e) => return (failed(State::CompileError, e), None),
    };
    let checked = if ptxas_path().is_some() {
        "its PTX assembled by ptxas"
    } else {
        "ptxas not installed: its PTX unchecked"
    };
    let device = match strata_cuda::probe(0) {
        Ok(d) if d.runs(target) => d,
        Ok(d) => {
            let why = format!("device {} does not run {target}", d.name);
            return (failed(State::RunError, why), None);
        }
        Err(e) => {
            let why = format!("{e}; the candidate compiled for {target} ({count} kernels, {checked}): a machine with a GPU times it");
            return (failed(State::RunError, why), None);
        }
    };
    let model = match CudaModel::new(plan, &kernels, target, device.ordinal) {
        Ok(m) => RefCell::new(m),
        Err(e) => return (failed(State::RunError, e.to_string()), None),
    };
    let outputs = match model.borrow_mut().run(args) {
        Ok(o) => o,
        Err(e) => return (failed(State::RunError, e.to_string()), None),
    };
    for (name, got) in out_names.iter().zip(&outputs) {
        let Some((_, want)) = expected.get(name) else {
            continue;
        };
        let tol = check_tolerance(Some(recipe), (None, None), want.dtype());
        if let Err(m) = allclose(got, want, tol) {
            let why = format!(
                "{name}: does not match eager mode (rtol {}, atol {}): {m}",
                tol.rtol, tol.atol
            );
            return (failed(State::WrongAnswer, why), None);
        }
    }
    let args = args.to_vec();
    let graphs = recipe.runtime.cuda_graphs;
    let runner: Runner = Box::new(move || {
        let mut m = model.borrow_mut();
        let ran = if graphs {
            m.run_graph(&args)
        } else {
            m.run(&args)
        };
        ran.map(|_| ()).map_err(|e| e.to_string())
    });
    let outcome = Outcome {
        state: State::Ok,
        message: format!("{} on {}", target, device.name),
        compile_ms: Some(compile_ms),
        kernels: Some(count),
        arena_bytes: None,
        samples_ms: Vec::new(),
    };
    (outcome, Some(runner))
}

fn failed(state: State, message: String) -> Outcome {
    Outcome {
        state,
        message,
        compile_ms: None,
        kernels: None,
        arena_bytes: None,
        samples_ms: Vec::new(),
    }
}

/// Whether `path`'s recipe is for a GPU target.
pub(crate) fn is_gpu(recipe: &strata_recipe::Recipe) -> bool {
    recipe.codegen.target.name() != "host"
}
