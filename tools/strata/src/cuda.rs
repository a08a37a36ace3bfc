//! `strata run --mode graph --target cuda`: a model compiled for the GPU
//! this runs on and run by the CUDA executor (`strata-cuda`), and CUDA
//! artifacts run by `strata run model.strata`.

use std::path::Path;

use strata_cuda::{CudaError, CudaModel, DeviceInfo, GpuKernel};
use strata_recipe::{Recipe, Target};
use strata_runtime::compiled::{lower, CompileError};
use strata_runtime::interp::run_function;
use strata_runtime::Tensor;

use crate::{
    check_against_eager, check_graph_inputs, check_tolerance, compare_outputs, compile_error,
    prepare, write_outputs, DriverError, Prepared, RunOptions,
};

/// The device `o.device`, or the "no CUDA device" error.
fn device(model: &Path, o: &RunOptions<'_>) -> Result<DeviceInfo, DriverError> {
    strata_cuda::probe(o.device)
        .map_err(|e| DriverError::Message(format!("{}: error: {e}", model.display())))
}

/// The recipe target for `device`: sm_90 from compute capability 9.0 on,
/// else sm_80 from 8.0 on.
fn target_for(device: &DeviceInfo) -> Result<Target, DriverError> {
    match device.capability {
        c if c >= (9, 0) => Ok(Target::Sm90),
        c if c >= (8, 0) => Ok(Target::Sm80),
        (major, minor) => Err(DriverError::Message(format!(
            "device {} is sm_{major}{minor}: strata's GPU targets are sm_80 and sm_90",
            device.name
        ))),
    }
}

fn run_error(model: &Path) -> impl Fn(CudaError) -> DriverError + '_ {
    move |e| DriverError::Message(format!("{}: error: {e}", model.display()))
}

/// Run `model` in graph mode on the CUDA device `o.device`.
pub(crate) fn run(
    model: &Path,
    inputs: &[String],
    output_dir: Option<&Path>,
    o: &RunOptions<'_>,
) -> Result<(), DriverError> {
    // Look for the device first: without one there is nothing to compile for.
    let device = device(model, o)?;
    let device_target = target_for(&device)?;
    let mut recipe = match o.recipe {
        Some(path) => crate::recipe::load(path)?,
        None => Recipe::default(),
    };
    crate::custom::check_contracts(&recipe)?;
    recipe.codegen.target = match recipe.codegen.target {
        Target::Host => device_target,
        Target::Sm90 if device_target == Target::Sm80 => {
            return Err(DriverError::Message(format!(
                "the recipe's codegen.target is sm_90; device {} is sm_{}{}",
                device.name, device.capability.0, device.capability.1
            )))
        }
        t => t,
    };
    let Prepared {
        mut ctx,
        module,
        func,
        args,
        in_names,
        out_names,
        expected,
    } = prepare(model, inputs, o.expects, o.seed, o.dims, o.function)?;
    check_graph_inputs(&ctx, model, func, &in_names, &args)?;
    let eager = if o.check {
        Some(
            run_function(&ctx, func, args.clone())
                .map_err(|e| DriverError::Message(e.to_string()))?,
        )
    } else {
        None
    };
    let shapes: Vec<Vec<usize>> = args.iter().map(|t| t.shape().to_vec()).collect();
    lower(&mut ctx, module, o.function, &shapes, &recipe.pipeline())
        .map_err(|e| compile_error(&ctx, e))?;
    let ptx = strata_lowering::nvptx_to_llvm::kernels_ptx(&ctx, module)
        .map_err(|e| compile_error(&ctx, CompileError::Gpu(e)))?;
    let threads = strata_cuda::gpu_kernels(&ctx, module).map_err(run_error(model))?;
    let kernels: Vec<GpuKernel> = ptx
        .into_iter()
        .filter_map(|(name, ptx)| {
            let threads = threads.iter().find(|(n, _)| *n == name)?.1;
            Some(GpuKernel { name, ptx, threads })
        })
        .collect();
    let plan = strata_runtime::plan::read_plan(&ctx, module, o.function)
        .map_err(|e| compile_error(&ctx, e.into()))?;
    let mut cuda = CudaModel::new(plan, &kernels, recipe.codegen.target.name(), o.device)
        .map_err(run_error(model))?;
    let outputs = run_model(&mut cuda, &args, o.cuda_graph).map_err(run_error(model))?;
    if let Some(eager) = eager {
        let tolerance_of = |dtype| check_tolerance(Some(&recipe), o.tolerance, dtype);
        check_against_eager(&out_names, &outputs, &eager, &tolerance_of)?;
    }
    write_outputs(&out_names, &outputs, output_dir, o.print)?;
    compare_outputs(&out_names, &outputs, &expected, o.tolerance)
}

/// Run `model` on `args`, replaying a CUDA graph when `graph`.
pub(crate) fn run_model(
    model: &mut CudaModel,
    args: &[Tensor],
    graph: bool,
) -> Result<Vec<Tensor>, CudaError> {
    if graph {
        model.run_graph(args)
    } else {
        model.run(args)
    }
}
