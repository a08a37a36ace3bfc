//! Artifacts: a compiled plan written to one file
//! ([`strata_artifact::Artifact`]) and run again without the model.
//!
//! The payload of an artifact is the module after the pipeline (the host
//! plan and its `kernel` programs, and for a GPU target their GPU form:
//! MLIR text, section [`PLAN_SECTION`]; a host artifact declares its
//! kernels there and keeps their programs in [`KERNELS_SECTION`], which
//! loading does not read) and the code of each kernel: LLVM
//! bitcode for the host (`host/<kernel>.bc`), PTX for a GPU target
//! (`ptx/<kernel>.ptx`). Loading reads the plan and checks the manifest
//! against what runs it ([`load_plan`], which needs no LLVM); the host
//! executor then JIT-compiles the bitcode, the CUDA executor (crate
//! `strata-cuda`) loads the PTX. The graph-level passes, the fusion, the
//! memory plan and the kernel generation are not run again.

use std::collections::HashMap;
#[cfg(feature = "llvm")]
use std::time::Instant;

use strata_artifact::{
    Artifact, ArtifactError, BufferEntry, BufferRef, CaptureRecord, Expect, KernelEntry, Manifest,
    Selection, TensorSpec,
};
use strata_ir::{AttrKind, Context, Operation, SourceBuffer};

#[cfg(feature = "llvm")]
use crate::compiled::{CompileError, CompiledModel};
use crate::plan::{read_plan_with, Buf, Plan, PlanError, PlanWork, Spec};

/// The payload section holding the host plan (MLIR text).
pub const PLAN_SECTION: &str = "plan.mlir";

/// The target host artifacts are compiled for.
pub const HOST_TARGET: &str = "host";

/// The discardable attribute of a `kernel.constant` whose value is in a
/// payload section (raw little-endian bytes), not in the plan's text.
pub const SECTION_ATTR: &str = "artifact.section";

/// Constants smaller than this stay in the plan's text.
#[cfg(feature = "llvm")]
const INLINE_CONSTANT_BYTES: usize = 256;

/// Moves the value of constant `op` (its `value` attribute) into a new
/// payload section named `prefix<i>` (`i` the number of sections so far)
/// when it is large: the op keeps a zero splat of the type and the
/// section's name ([`SECTION_ATTR`]). Hex text would double the bytes and
/// be slow to print and parse.
#[cfg(feature = "llvm")]
pub(crate) fn move_to_section(
    ctx: &mut Context,
    op: Operation,
    prefix: &str,
    sections: &mut Vec<(String, Vec<u8>)>,
) {
    let Some(value) = strata_ir::ods::inherent_attr(ctx, op, "value") else {
        return;
    };
    let AttrKind::DenseElements { ty, data } = ctx.attr_kind(value).clone() else {
        return;
    };
    if data.splat || data.raw.len() < INLINE_CONSTANT_BYTES {
        return;
    }
    let zeros = vec![0u8; data.raw.len()];
    let Some(splat) = ctx.dense_elements_attr(ty, zeros) else {
        return;
    };
    let name = format!("{prefix}{}", sections.len());
    sections.push((name.clone(), data.raw.to_vec()));
    ctx.set_op_property(op, "value", splat);
    let attr = ctx.string_attr(&name);
    ctx.set_op_attr(op, SECTION_ATTR, attr);
}

/// The payload section holding constant `op`'s value, when
/// [`move_to_section`] moved it there.
pub(crate) fn section_of(ctx: &Context, op: Operation) -> Option<String> {
    ctx.op_attr(op, SECTION_ATTR)
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
            _ => None,
        })
}

/// The payload section of a host artifact holding its kernels' tile
/// programs (MLIR text; `plan.mlir` declares them). Not read on load.
pub const KERNELS_SECTION: &str = "kernels.mlir";

/// The payload section holding the host kernels' shared library (machine
/// code for the CPU the manifest names).
pub const LIBRARY_SECTION: &str = "host/kernels.so";

/// The payload section holding kernel `name`'s LLVM bitcode.
pub fn code_section(name: &str) -> String {
    format!("host/{name}.bc")
}

/// The payload section holding kernel `name`'s code for `target`: its
/// LLVM bitcode on the host ([`code_section`]), its PTX on a GPU.
pub fn code_section_for(target: &str, name: &str) -> String {
    if target == HOST_TARGET {
        code_section(name)
    } else {
        format!("ptx/{name}.ptx")
    }
}

/// What an artifact records about how it was made, besides the plan.
#[derive(Clone, Debug, Default)]
pub struct ArtifactSource {
    /// The model's file name.
    pub model: String,
    pub model_sha256: String,
    /// The compiled function.
    pub function: String,
    pub recipe_sha256: String,
    /// The recipe's canonical text.
    pub recipe: String,
    pub capture: CaptureRecord,
    /// The model's input and output names, in order.
    pub input_names: Vec<String>,
    pub output_names: Vec<String>,
    /// The implementation of each registered custom op: name to
    /// (implementation version, sha256), as
    /// [`CustomOpLibrary::implementations`](crate::custom_c::CustomOpLibrary::implementations)
    /// gives them. The manifest records those the plan calls.
    pub custom_ops: std::collections::BTreeMap<String, (String, String)>,
}

/// Why an artifact could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file is not a sound artifact, or it was refused.
    #[error(transparent)]
    Artifact(#[from] ArtifactError),
    /// The payload does not hold the plan its manifest describes.
    #[error("{path}: error: {message}")]
    Payload { path: String, message: String },
    /// The plan is not one an executor runs.
    #[error("{path}: error: {source}")]
    Plan { path: String, source: PlanError },
    /// The kernels did not compile.
    #[cfg(feature = "llvm")]
    #[error("{path}: error: {source}")]
    Compile { path: String, source: CompileError },
}

fn buffer_ref(b: Buf) -> BufferRef {
    match b {
        Buf::Input(index) => BufferRef::Input { index },
        Buf::Arena(offset) => BufferRef::Arena {
            offset: offset as u64,
        },
        Buf::Const(index) => BufferRef::Constant { index },
    }
}

fn tensor_specs(specs: &[Spec], names: &[String], fallback: &str) -> Vec<TensorSpec> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| TensorSpec {
            name: names
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("{fallback}_{i}")),
            dtype: s.dtype.name().to_string(),
            shape: s.shape.clone(),
        })
        .collect()
}

/// The manifest entries of `plan`'s steps and buffers.
fn describe(plan: &Plan, manifest: &mut Manifest) {
    manifest.kernels = plan
        .steps
        .iter()
        .map(|step| KernelEntry {
            name: step.name.clone(),
            selection: match &step.work {
                PlanWork::Kernel { callee, grid } => Selection::Generated {
                    grid: *grid,
                    code: code_section_for(&manifest.target, callee),
                },
                PlanWork::Gemm(g) => Selection::Library {
                    library: if manifest.target == HOST_TARGET {
                        "gemm".into()
                    } else {
                        "cublas".into()
                    },
                    m: g.m,
                    n: g.n,
                    k: g.k,
                    batch: g.batch.clone(),
                },
                PlanWork::Custom(c) => Selection::Custom { op: c.op.clone() },
                PlanWork::CheckIndices(c) => Selection::Check {
                    sizes: c.sizes.clone(),
                },
            },
            args: step.args.iter().map(|&b| buffer_ref(b)).collect(),
        })
        .collect();
    manifest.buffers = plan
        .allocs
        .iter()
        .map(|a| BufferEntry {
            offset: a.offset,
            bytes: a.bytes,
            live: a.live,
        })
        .collect();
    manifest.peak_activation_bytes = plan.arena_bytes as u64;
    manifest.peak_activation_bytes_unplanned = plan.unplanned_bytes as u64;
}

/// The `kernel.constant` ops of `module`'s function `func`.
fn constants(ctx: &Context, module: Operation, func: &str) -> Vec<Operation> {
    let Some(f) = crate::interp::lookup_function(ctx, module, func) else {
        return Vec::new();
    };
    ctx.nested_ops(f, strata_ir::WalkOrder::PreOrder)
        .into_iter()
        .filter(|&o| ctx.op_name_str(o) == "kernel.constant")
        .collect()
}

/// Moves the values of the large constants of the plan into payload
/// sections (`const/<i>`, raw bytes; [`move_to_section`]).
#[cfg(feature = "llvm")]
fn move_constants(
    ctx: &mut Context,
    module: Operation,
    func: &str,
    sections: &mut Vec<(String, Vec<u8>)>,
) {
    for op in constants(ctx, module, func) {
        move_to_section(ctx, op, "const/", sections);
    }
}

/// The target a module lowered by the pipeline is compiled for: its GPU
/// module's `nvptx.target` (`sm_80`, `sm_90`), else [`HOST_TARGET`].
pub fn module_target(ctx: &Context, module: Operation) -> String {
    gpu_module(ctx, module)
        .and_then(|gpu| ctx.op_attr(gpu, "nvptx.target"))
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
            _ => None,
        })
        .unwrap_or_else(|| HOST_TARGET.to_string())
}

/// The module of `module`'s GPU kernels (`convert-kernel-to-nvptx` nests
/// one with an `nvptx.target`), if it has one.
pub fn gpu_module(ctx: &Context, module: Operation) -> Option<Operation> {
    if ctx.op_attr(module, "nvptx.target").is_some() {
        return Some(module);
    }
    let block = ctx
        .op_regions(module)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))?;
    ctx.block_ops(block).find(|&op| {
        ctx.op_name_str(op) == "builtin.module" && ctx.op_attr(op, "nvptx.target").is_some()
    })
}

/// The artifact of `module`, lowered to kernels by the pipeline (`func` its
/// host plan), made as `source` says: for the host when the module has no
/// GPU form (each kernel's optimized LLVM bitcode), else for its GPU target
/// (each kernel's PTX). The plan's large constants move into payload
/// sections (`module` keeps zero splats in their place: it is for writing
/// out, not for compiling, afterwards).
#[cfg(feature = "llvm")]
pub fn build_artifact(
    ctx: &mut Context,
    module: Operation,
    source: &ArtifactSource,
) -> Result<Artifact, CompileError> {
    let plan = crate::plan::read_plan(ctx, module, &source.function)?;
    let target = module_target(ctx, module);
    let mut manifest = Manifest::new(&target);
    manifest.model = source.model.clone();
    manifest.model_sha256 = source.model_sha256.clone();
    manifest.function = source.function.clone();
    manifest.recipe_sha256 = source.recipe_sha256.clone();
    manifest.recipe = source.recipe.clone();
    manifest.capture = source.capture.clone();
    manifest.inputs = tensor_specs(&plan.inputs, &source.input_names, "input");
    let output_specs: Vec<Spec> = plan.outputs.iter().map(|(_, s)| s.clone()).collect();
    manifest.outputs = tensor_specs(&output_specs, &source.output_names, "output");
    describe(&plan, &mut manifest);
    for step in &plan.steps {
        if let PlanWork::Custom(c) = &step.work {
            if manifest.custom_ops.iter().any(|o| o.name == c.op) {
                continue;
            }
            let (version, sha256) = source.custom_ops.get(&c.op).cloned().unwrap_or_default();
            manifest.custom_ops.push(strata_artifact::CustomOpEntry {
                name: c.op.clone(),
                version,
                sha256,
            });
        }
    }
    let mut sections = Vec::new();
    if target == HOST_TARGET {
        let native = strata_lowering::kernel_to_host::native::emit_native(ctx, module)?;
        for (name, bitcode) in native.bitcode {
            sections.push((code_section(&name), bitcode));
        }
        manifest.cpu = strata_lowering::llvm::host_cpu_name();
        match native.library {
            Ok(library) => {
                sections.push((LIBRARY_SECTION.to_string(), library));
                manifest.cpu_features = strata_lowering::llvm::host_cpu_features();
            }
            Err(why) => manifest.library_missing = why,
        }
    } else {
        for (name, ptx) in strata_lowering::nvptx_to_llvm::kernels_ptx(ctx, module)? {
            sections.push((code_section_for(&target, &name), ptx.into_bytes()));
        }
    }
    move_constants(ctx, module, &source.function, &mut sections);
    if target == HOST_TARGET {
        // The host runs the kernels' machine code (or their bitcode): their
        // tile programs are kept for people and tools, not read on load.
        let kernels = strip_kernel_bodies(ctx, module);
        sections.insert(0, (KERNELS_SECTION.to_string(), kernels.into_bytes()));
    }
    let mut text = strata_ir::printer::print_operation(ctx, module, Default::default());
    text.push('\n');
    sections.insert(0, (PLAN_SECTION.to_string(), text.into_bytes()));
    Ok(Artifact::new(manifest, sections))
}

/// The text of the `kernel.func`s of `module` (a file of top-level ops,
/// which parses as a module), their bodies then erased: `module` keeps
/// them as declarations, which is all a plan's launches are checked
/// against. A plan of 300 kernels is 0.1 MB of text to parse this way,
/// not 0.7 MB.
#[cfg(feature = "llvm")]
fn strip_kernel_bodies(ctx: &mut Context, module: Operation) -> String {
    let kernels: Vec<Operation> = ctx
        .op_regions(module)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
        .map(|b| ctx.block_ops(b).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|&op| ctx.op_name_str(op) == "kernel.func")
        .collect();
    let mut text = String::new();
    for &kernel in &kernels {
        text.push_str(&strata_ir::printer::print_operation(
            ctx,
            kernel,
            Default::default(),
        ));
        text.push('\n');
    }
    for kernel in kernels {
        let regions: Vec<_> = ctx.op_regions(kernel).to_vec();
        for region in regions {
            let blocks: Vec<_> = ctx.region_blocks(region).collect();
            for block in blocks.into_iter().rev() {
                ctx.erase_block(block);
            }
        }
    }
    text
}

/// An artifact's plan, read and checked against its manifest: the module
/// it was read from (in `ctx`) and the plan of its host function.
pub struct LoadedPlan {
    pub ctx: Context,
    pub module: Operation,
    pub plan: Plan,
}

impl LoadedPlan {
    /// The code of each kernel the plan launches, by name, in first-launch
    /// order: its payload section for the artifact's target.
    pub fn kernel_code<'a>(
        &self,
        artifact: &'a Artifact,
        path: &str,
    ) -> Result<Vec<(String, &'a [u8])>, LoadError> {
        let mut jobs: Vec<(String, &[u8])> = Vec::new();
        for step in &self.plan.steps {
            if let PlanWork::Kernel { callee, .. } = &step.work {
                if jobs.iter().any(|(n, _)| n == callee) {
                    continue;
                }
                let section = code_section_for(&artifact.manifest.target, callee);
                let code = artifact
                    .section(&section)
                    .ok_or_else(|| LoadError::Payload {
                        path: path.to_string(),
                        message: format!("kernel @{callee} has no code (section '{section}')"),
                    })?;
                jobs.push((callee.clone(), code));
            }
        }
        Ok(jobs)
    }
}

/// Read the plan of `artifact` (read from `path`): refused when its
/// manifest differs from `expect`; the plan parsed, its constants restored
/// from their sections, and checked against the manifest. `register`
/// registers the implementations of the custom ops it calls with the
/// context the plan is read into. Needs no LLVM: every executor loads
/// through it.
pub fn load_plan(
    artifact: &Artifact,
    path: &str,
    expect: &Expect,
    register: &dyn Fn(&mut Context),
) -> Result<LoadedPlan, LoadError> {
    artifact.check(path, expect)?;
    let payload = |message: String| LoadError::Payload {
        path: path.to_string(),
        message,
    };
    let text = artifact
        .section(PLAN_SECTION)
        .ok_or_else(|| payload(format!("the payload has no section '{PLAN_SECTION}'")))?;
    let text = std::str::from_utf8(text)
        .map_err(|_| payload(format!("section '{PLAN_SECTION}' is not UTF-8")))?;
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    register(&mut ctx);
    let buffer = SourceBuffer::new(format!("{path}:{PLAN_SECTION}"), text.to_string());
    let render = |ctx: &Context, diags: &[strata_ir::Diagnostic]| {
        diags
            .iter()
            .map(|d| strata_ir::diagnostics::render(ctx, d, std::slice::from_ref(&buffer)))
            .collect::<String>()
    };
    let module = strata_ir::parser::parse_source(&mut ctx, &buffer)
        .map_err(|d| payload(format!("the plan does not parse:\n{}", render(&ctx, &d))))?;
    strata_ir::verifier::verify(&ctx, module)
        .map_err(|d| payload(format!("the plan does not verify:\n{}", render(&ctx, &d))))?;
    let manifest = &artifact.manifest;
    // The constants whose bytes are payload sections: the plan takes them
    // from the sections (the IR keeps its zero splat).
    let mut held: HashMap<Operation, &[u8]> = HashMap::new();
    for op in constants(&ctx, module, &manifest.function) {
        let Some(section) = section_of(&ctx, op) else {
            continue;
        };
        let bytes = artifact
            .section(&section)
            .ok_or_else(|| payload(format!("a constant's section '{section}' is missing")))?;
        held.insert(op, bytes);
    }
    let external = |op: Operation| held.get(&op).copied();
    let plan = read_plan_with(&ctx, module, &manifest.function, &external).map_err(|source| {
        LoadError::Plan {
            path: path.to_string(),
            source,
        }
    })?;
    // The manifest describes this plan (both are covered by the
    // checksum; a difference is a compiler bug, not an edit).
    let mut described = Manifest::new(&manifest.target);
    describe(&plan, &mut described);
    let inputs = tensor_specs(&plan.inputs, &[], "input");
    let same_inputs = inputs.len() == manifest.inputs.len()
        && inputs
            .iter()
            .zip(&manifest.inputs)
            .all(|(a, b)| a.dtype == b.dtype && a.shape == b.shape);
    // Every custom op the plan calls is listed (and so was checked).
    for k in &manifest.kernels {
        if let Selection::Custom { op } = &k.selection {
            if !manifest.custom_ops.iter().any(|c| c.name == *op) {
                return Err(payload(format!(
                    "the plan calls custom op '{op}', which the manifest does not list"
                )));
            }
        }
    }
    // A kernel whose code the manifest places in the shared library (an
    // entry of the plan cache on disk, which keeps no bitcode) matches the
    // plan's kernel of that name and grid.
    let same_kernels = described.kernels.len() == manifest.kernels.len()
        && described
            .kernels
            .iter()
            .zip(&manifest.kernels)
            .all(|(d, m)| match (&d.selection, &m.selection) {
                (
                    Selection::Generated { grid, .. },
                    Selection::Generated {
                        grid: recorded,
                        code,
                    },
                ) if code == LIBRARY_SECTION => {
                    d.name == m.name && d.args == m.args && grid == recorded
                }
                _ => d == m,
            });
    if !same_kernels || !same_inputs {
        return Err(payload(
            "the plan does not match the manifest's kernels and inputs".into(),
        ));
    }
    // Every kernel's code is where the manifest says, whichever is run.
    for k in &manifest.kernels {
        if let Selection::Generated { code, .. } = &k.selection {
            if artifact.section(code).is_none() {
                return Err(payload(format!(
                    "kernel @{} has no code (section '{code}')",
                    k.name
                )));
            }
        }
    }
    Ok(LoadedPlan { ctx, module, plan })
}

#[cfg(feature = "llvm")]
impl CompiledModel {
    /// Run `artifact` (read from `path`): refused when its manifest differs
    /// from `expect`; its plan parsed and checked against the manifest, its
    /// kernels loaded from its shared library (or JIT-compiled from their
    /// bitcode) for a pool of `threads`.
    pub fn from_artifact(
        artifact: &Artifact,
        path: &str,
        expect: &Expect,
        threads: usize,
    ) -> Result<CompiledModel, LoadError> {
        CompiledModel::from_artifact_with(artifact, path, expect, threads, &|_| {})
    }

    /// [`CompiledModel::from_artifact`] for a plan that calls custom ops:
    /// `register` registers their implementations with the context the plan
    /// is read into (as [`CustomOpLibrary::register`](crate::custom_c::CustomOpLibrary::register)
    /// does), and `expect.custom_ops` names the same implementations.
    pub fn from_artifact_with(
        artifact: &Artifact,
        path: &str,
        expect: &Expect,
        threads: usize,
        register: &dyn Fn(&mut Context),
    ) -> Result<CompiledModel, LoadError> {
        CompiledModel::load_artifact(artifact, path, expect, threads, register).map(|(m, _)| m)
    }

    /// [`CompiledModel::from_artifact_with`], saying how the kernels were
    /// made ready: the artifact's shared library loaded when it was made for
    /// this CPU (a load, no code generation), else code generated from its
    /// bitcode.
    pub fn load_artifact(
        artifact: &Artifact,
        path: &str,
        expect: &Expect,
        threads: usize,
        register: &dyn Fn(&mut Context),
    ) -> Result<(CompiledModel, KernelLoad), LoadError> {
        let loaded = load_plan(artifact, path, expect, register)?;
        CompiledModel::from_loaded_plan(artifact, path, loaded, threads)
    }

    /// [`CompiledModel::load_artifact`] once [`load_plan`] has read the
    /// plan of `artifact`: its kernels' code made ready (the shared
    /// library loaded, else code generated from the bitcode).
    pub fn from_loaded_plan(
        artifact: &Artifact,
        path: &str,
        loaded: LoadedPlan,
        threads: usize,
    ) -> Result<(CompiledModel, KernelLoad), LoadError> {
        if artifact.manifest.target != HOST_TARGET {
            return Err(LoadError::Payload {
                path: path.to_string(),
                message: format!(
                    "the artifact is compiled for {}: the host executor runs {HOST_TARGET} artifacts (run it with the CUDA runtime, strata-run)",
                    artifact.manifest.target
                ),
            });
        }
        let compile_error = |source: CompileError| LoadError::Compile {
            path: path.to_string(),
            source,
        };
        let start = Instant::now();
        let (jit, load) = match host_library(artifact, &loaded.plan) {
            Ok(kernels) => (kernels, KernelLoad::Library),
            Err(why) => {
                // Every kernel's bitcode, which an entry of the plan cache
                // on disk (machine code for this CPU only) may not keep.
                let code = loaded.kernel_code(artifact, path)?;
                let jobs = code
                    .into_iter()
                    .map(|(name, code)| (name, code.to_vec()))
                    .collect();
                let jit = strata_lowering::kernel_to_host::compile_bitcode(jobs, true)
                    .map_err(|e| compile_error(CompileError::Host(e)))?;
                (jit, KernelLoad::Bitcode(why))
            }
        };
        let llvm_ms = start.elapsed().as_secs_f64() * 1e3;
        let model =
            CompiledModel::from_plan(loaded.plan, jit, llvm_ms, threads).map_err(compile_error)?;
        Ok((model, load))
    }
}

/// How the kernels of a host artifact were made ready to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelLoad {
    /// Its shared library was loaded: no code was generated.
    Library,
    /// Code was generated from its bitcode, and why the library was not
    /// used (none in the artifact, made for another CPU, refused by the
    /// dynamic loader).
    Bitcode(String),
}

/// The kernels of `plan` from the shared library of `artifact`, when it has
/// one made for this CPU; else why not.
#[cfg(feature = "llvm")]
fn host_library(
    artifact: &Artifact,
    plan: &Plan,
) -> Result<strata_lowering::kernel_to_host::HostKernels, String> {
    let manifest = &artifact.manifest;
    let Some(library) = artifact.section(LIBRARY_SECTION) else {
        return Err(if manifest.library_missing.is_empty() {
            "the artifact holds no machine code".to_string()
        } else {
            format!(
                "the artifact holds no machine code: {}",
                manifest.library_missing
            )
        });
    };
    let (cpu, features) = (
        strata_lowering::llvm::host_cpu_name(),
        strata_lowering::llvm::host_cpu_features(),
    );
    if manifest.cpu != cpu || manifest.cpu_features != features {
        return Err(format!(
            "its machine code is for CPU {} with other features; this is {cpu}",
            manifest.cpu
        ));
    }
    let mut names: Vec<String> = Vec::new();
    for step in &plan.steps {
        if let PlanWork::Kernel { callee, .. } = &step.work {
            if !names.contains(callee) {
                names.push(callee.clone());
            }
        }
    }
    // SAFETY: the library is covered by the artifact's checksum, checked
    // when it was read, and was made by `emit_native` for this CPU.
    unsafe { strata_lowering::kernel_to_host::native::load_library(library, &names) }
}
