//! `strata compile`: a model lowered for a target, written out at the layer
//! asked for (`--stop-after`), as MLIR or as LLVM IR, or compiled into an
//! artifact (`-o model.strata`, `--emit artifact`).

use std::path::Path;

use strata_runtime::compiled::{lower, pipeline_until, STAGES};

use crate::{check_graph_inputs, compile_error, prepare, DriverError, Prepared};

/// The options of `strata compile` besides the model.
pub(crate) struct CompileOptions<'a> {
    /// `--target` (default: the recipe's `codegen.target`).
    pub target: Option<&'a str>,
    /// `--emit` (default: `artifact` for an output named `*.strata`, else
    /// `mlir`).
    pub emit: Option<&'a str>,
    pub stop_after: Option<&'a str>,
    pub output: Option<&'a Path>,
    pub inputs: &'a [String],
    pub dims: &'a [String],
    pub function: &'a str,
    pub generic: bool,
    /// `--json`: the partition as JSON (`--emit partition`).
    pub json: bool,
    /// A recipe whose pipeline replaces the default one.
    pub recipe: Option<&'a Path>,
    /// `--pass-bisect-limit`: number the optional pass steps, skip those
    /// after the N-th (negative: none).
    pub pass_bisect_limit: Option<i64>,
}

/// Lower `model` for `o.target` and write its IR.
pub(crate) fn compile(model: &Path, o: CompileOptions<'_>) -> Result<(), DriverError> {
    let recipe = match o.recipe {
        Some(path) => Some(crate::recipe::load(path)?),
        None => None,
    };
    if let Some(r) = &recipe {
        crate::custom::check_contracts(r)?;
    }
    let recipe_target = recipe.as_ref().map_or("host", |r| r.codegen.target.name());
    let target = o.target.unwrap_or(recipe_target);
    if o.target.is_some() && recipe.is_some() && target != recipe_target {
        return Err(DriverError::Message(format!(
            "--target {target}: the recipe's codegen.target is {recipe_target}"
        )));
    }
    let gpu = match target {
        "host" => None,
        "sm_80" => Some(80),
        "sm_90" => Some(90),
        other => {
            let from = if o.target.is_some() {
                "--target"
            } else {
                "the recipe's codegen.target"
            };
            return Err(DriverError::Message(format!(
                "{from} '{other}': the targets are: host, sm_80, sm_90"
            )));
        }
    };
    if o.pass_bisect_limit.is_some()
        && (gpu.is_some() || !matches!(o.emit, None | Some("mlir" | "llvm-ir")))
        || o.pass_bisect_limit.is_some()
            && o.output
                .is_some_and(|p| p.extension().is_some_and(|e| e == "strata"))
    {
        return Err(DriverError::Message(
            "--pass-bisect-limit applies to the host target's MLIR and LLVM IR output (--emit mlir, llvm-ir)".into(),
        ));
    }
    if o.emit == Some("partition") {
        return emit_partition(model, &o, &recipe.unwrap_or_default());
    }
    if let Some(sm) = gpu {
        return compile_gpu(model, &o, recipe.as_ref(), sm);
    }
    let to_artifact = o
        .output
        .is_some_and(|p| p.extension().is_some_and(|e| e == "strata"));
    let emit = o
        .emit
        .unwrap_or(if to_artifact { "artifact" } else { "mlir" });
    if emit == "artifact" {
        if o.stop_after.is_some() {
            return Err(DriverError::Message(
                "--emit artifact compiles every stage; --stop-after does not apply".into(),
            ));
        }
        let output = o.output.filter(|p| *p != Path::new("-")).ok_or_else(|| {
            DriverError::Message("--emit artifact needs an output file (-o model.strata)".into())
        })?;
        return write_artifact(model, &o, recipe.unwrap_or_default(), output);
    }
    let stage_names: Vec<&str> = STAGES.iter().map(|(n, _)| *n).chain(["host"]).collect();
    let stop = match (emit, o.stop_after) {
        ("mlir", None) => "kernel",
        ("mlir", Some("host")) => {
            return Err(DriverError::Message(
                "--stop-after host: the host stage is LLVM IR; use --emit llvm-ir".into(),
            ))
        }
        ("mlir", Some(s)) => s,
        ("llvm-ir", None | Some("host")) => "host",
        ("llvm-ir", Some(s)) => {
            return Err(DriverError::Message(format!(
                "--emit llvm-ir needs the host stage, not --stop-after {s}"
            )))
        }
        (other, _) => {
            return Err(DriverError::Message(format!(
                "--emit '{other}': expected mlir, llvm-ir, artifact or partition"
            )))
        }
    };
    if !stage_names.contains(&stop) {
        return Err(DriverError::Message(format!(
            "--stop-after '{stop}': expected one of: {}",
            stage_names.join(", ")
        )));
    }
    let pipeline_stage = if stop == "host" { "kernel" } else { stop };
    let pipeline = match &recipe {
        Some(recipe) => recipe_pipeline_until(recipe, pipeline_stage),
        None => pipeline_until(pipeline_stage).ok_or_else(|| {
            DriverError::Message(format!("internal error: no stage '{pipeline_stage}'"))
        })?,
    };
    let (ctx, module) = lowered(model, &o, &pipeline)?;
    let text = if stop == "host" {
        strata_lowering::kernel_to_host::translate_to_llvm_ir(&ctx, module, true)
            .map_err(|e| compile_error(&ctx, strata_runtime::compiled::CompileError::Host(e)))?
    } else {
        print_module(&ctx, module, o.generic)
    };
    write_text(o.output, &text)
}

/// `--emit partition`: hybrid mode's partition of the model at the
/// inputs' shapes under `recipe` (its `graph` passes and `capture` rules),
/// as text or JSON.
fn emit_partition(
    model: &Path,
    o: &CompileOptions<'_>,
    recipe: &strata_recipe::Recipe,
) -> Result<(), DriverError> {
    let (mut ctx, module, shapes) = input_shapes(model, o)?;
    let options = strata_runtime::session::SessionOptions::from_recipe(recipe);
    let partition = strata_runtime::session::partition_of(
        &mut ctx,
        module,
        o.function,
        &shapes,
        &options.pipeline,
        &options.rules,
    )
    .map_err(|e| DriverError::Message(e.to_string()))?;
    let text = if o.json {
        format!("{:#}\n", partition.to_json())
    } else {
        partition.to_text()
    };
    write_text(o.output, &text)
}

/// `model` loaded, and the shapes of `o`'s inputs (given or made up),
/// each checked against the function's signature.
fn input_shapes(
    model: &Path,
    o: &CompileOptions<'_>,
) -> Result<(strata_ir::Context, strata_ir::Operation, Vec<Vec<usize>>), DriverError> {
    let Prepared {
        ctx,
        module,
        func,
        args,
        in_names,
        ..
    } = prepare(model, o.inputs, &[], 0, o.dims, o.function)?;
    check_graph_inputs(&ctx, model, func, &in_names, &args)?;
    let shapes = args.iter().map(|t| t.shape().to_vec()).collect();
    Ok((ctx, module, shapes))
}

/// `model` prepared for `o`'s inputs and lowered by `pipeline`.
fn lowered(
    model: &Path,
    o: &CompileOptions<'_>,
    pipeline: &str,
) -> Result<(strata_ir::Context, strata_ir::Operation), DriverError> {
    let (mut ctx, module, shapes) = input_shapes(model, o)?;
    if let Some(limit) = o.pass_bisect_limit {
        let limit = u64::try_from(limit).ok();
        ctx.set_bisect(Some(strata_ir::pass::Bisect::new(limit).echo(true)));
    }
    let lowered = lower(&mut ctx, module, o.function, &shapes, pipeline);
    ctx.set_bisect(None);
    lowered.map_err(|e| compile_error(&ctx, e))?;
    Ok((ctx, module))
}

/// The text of `module`, in the generic form when `generic`.
fn print_module(ctx: &strata_ir::Context, module: strata_ir::Operation, generic: bool) -> String {
    let options = strata_ir::printer::PrintOptions {
        generic,
        ..Default::default()
    };
    let mut text = strata_ir::printer::print_operation(ctx, module, options);
    text.push('\n');
    text
}

/// Writes `text` to `output`, or to standard output for none or `-`.
fn write_text(output: Option<&Path>, text: &str) -> Result<(), DriverError> {
    match output {
        Some(path) if path != Path::new("-") => std::fs::write(path, text)
            .map_err(|e| DriverError::Message(format!("{}: {e}", path.display()))),
        _ => {
            out!("{text}");
            Ok(())
        }
    }
}

/// `strata compile --target sm_80|sm_90`: the module after `stage`
/// (`nvptx` by default) as MLIR, with `--emit ptx -o DIR` the PTX of every
/// kernel (`DIR/<kernel>.ptx`) and the plan (`DIR/plan.mlir`), or with
/// `-o model.strata` the CUDA artifact that `strata-run` runs.
fn compile_gpu(
    model: &Path,
    o: &CompileOptions<'_>,
    recipe: Option<&strata_recipe::Recipe>,
    sm: u32,
) -> Result<(), DriverError> {
    let to_artifact = o
        .output
        .is_some_and(|p| p.extension().is_some_and(|e| e == "strata"));
    let emit = o
        .emit
        .unwrap_or(if to_artifact { "artifact" } else { "mlir" });
    // Without a recipe, the default one for this target.
    let recipe = recipe.cloned().unwrap_or_else(|| {
        let mut r = strata_recipe::Recipe::default();
        r.codegen.target = if sm == 80 {
            strata_recipe::Target::Sm80
        } else {
            strata_recipe::Target::Sm90
        };
        r
    });
    let stop = match (emit, o.stop_after) {
        ("artifact", None | Some("nvptx")) => {
            let output = o.output.filter(|p| *p != Path::new("-")).ok_or_else(|| {
                DriverError::Message(
                    "--emit artifact needs an output file (-o model.strata)".into(),
                )
            })?;
            return write_artifact(model, o, recipe, output);
        }
        ("artifact", Some(_)) => {
            return Err(DriverError::Message(
                "--emit artifact compiles every stage; --stop-after does not apply".into(),
            ))
        }
        ("ptx", None | Some("nvptx")) | ("mlir", None) => "nvptx",
        ("ptx", Some(s)) => {
            return Err(DriverError::Message(format!(
                "--emit ptx needs the nvptx stage, not --stop-after {s}"
            )))
        }
        ("mlir", Some("host")) => {
            return Err(DriverError::Message(format!(
            "--stop-after host: the target is sm_{sm}; the stages are graph, tensor, kernel, nvptx"
        )))
        }
        ("mlir", Some(s)) => s,
        (other, _) => {
            return Err(DriverError::Message(format!(
                "--emit '{other}' for sm_{sm}: expected mlir, ptx or artifact"
            )))
        }
    };
    if !["graph", "tensor", "kernel", "nvptx"].contains(&stop) {
        return Err(DriverError::Message(format!(
            "--stop-after '{stop}': expected one of: graph, tensor, kernel, nvptx"
        )));
    }
    let pipeline = recipe_pipeline_until(&recipe, stop);
    let (ctx, module) = lowered(model, o, &pipeline)?;
    let text = print_module(&ctx, module, o.generic);
    if emit == "mlir" {
        return write_text(o.output, &text);
    }
    let dir = o.output.filter(|p| *p != Path::new("-")).ok_or_else(|| {
        DriverError::Message("--emit ptx needs an output directory (-o DIR)".into())
    })?;
    let kernels = strata_lowering::nvptx_to_llvm::kernels_ptx(&ctx, module)
        .map_err(|e| compile_error(&ctx, strata_runtime::compiled::CompileError::Gpu(e)))?;
    std::fs::create_dir_all(dir)
        .map_err(|e| DriverError::Message(format!("{}: {e}", dir.display())))?;
    let write = |name: &str, body: &str| {
        let path = dir.join(name);
        std::fs::write(&path, body)
            .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))
    };
    write("plan.mlir", &text)?;
    for (name, ptx) in &kernels {
        write(&format!("{name}.ptx"), ptx)?;
    }
    eprintln!(
        "wrote {} kernel(s) (sm_{sm}) and plan.mlir to {}",
        kernels.len(),
        dir.display()
    );
    Ok(())
}

/// The part of `recipe`'s pipeline that ends with `stage`: the graph passes
/// (before `convert-graph-to-tensor`), then through fusion (before
/// `convert-tensor-to-kernel`), or all of it.
fn recipe_pipeline_until(recipe: &strata_recipe::Recipe, stage: &str) -> String {
    let passes = recipe.passes();
    let before = |name: &str| {
        passes
            .iter()
            .position(|p| p.name == name)
            .unwrap_or(passes.len())
    };
    let end = match stage {
        "graph" => before("convert-graph-to-tensor"),
        "tensor" => before("convert-tensor-to-kernel"),
        "kernel" => before("convert-kernel-to-nvptx"),
        _ => passes.len(),
    };
    let items: Vec<String> = passes[..end].iter().map(ToString::to_string).collect();
    format!("builtin.module({})", items.join(","))
}

/// Compile `model` with `recipe` into the artifact at `output`.
fn write_artifact(
    model: &Path,
    o: &CompileOptions<'_>,
    recipe: strata_recipe::Recipe,
    output: &Path,
) -> Result<(), DriverError> {
    let bytes = std::fs::read(model)
        .map_err(|e| DriverError::Message(format!("{}: {e}", model.display())))?;
    let Prepared {
        mut ctx,
        module,
        func,
        args,
        in_names,
        out_names,
        ..
    } = prepare(model, o.inputs, &[], 0, o.dims, o.function)?;
    check_graph_inputs(&ctx, model, func, &in_names, &args)?;
    let shapes: Vec<Vec<usize>> = args.iter().map(|t| t.shape().to_vec()).collect();
    drop(args);
    lower(&mut ctx, module, o.function, &shapes, &recipe.pipeline())
        .map_err(|e| compile_error(&ctx, e))?;
    let capture = &recipe.capture;
    let source = strata_runtime::artifact::ArtifactSource {
        model: model.file_name().map_or_else(
            || model.display().to_string(),
            |f| f.to_string_lossy().into_owned(),
        ),
        model_sha256: strata_artifact::sha256_hex(&bytes),
        function: o.function.to_string(),
        recipe_sha256: recipe.sha256(),
        recipe: recipe.canonical(),
        capture: strata_artifact::CaptureRecord {
            include_ops: capture.include_ops.clone(),
            exclude_ops: capture.exclude_ops.clone(),
            buckets: capture.buckets.clone(),
            outside_buckets: capture.outside_buckets.name().to_string(),
        },
        input_names: in_names,
        output_names: out_names,
        custom_ops: crate::custom::implementations(),
    };
    let artifact = strata_runtime::artifact::build_artifact(&mut ctx, module, &source)
        .map_err(|e| compile_error(&ctx, e))?;
    artifact
        .write(output)
        .map_err(|e| DriverError::Message(e.to_string()))
}
