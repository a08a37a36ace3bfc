//! From a recipe to the pass pipeline it becomes, in MLIR's textual syntax,
//! and the list of settings that the pipeline does not act on yet.
//!
//! The whole pipeline reads in [`passes`]: the graph stage, the conversion
//! to `tensor`, fusion, the conversion to `kernel` and the host plan, and
//! the cleanup of the kernels. Only passes that exist in strata appear, and
//! only options that differ from the pass's own default are written, so the
//! default recipe gives exactly the pipeline that `graph` mode runs.

use std::fmt;

use crate::schema::*;

/// The passes `optimize.disable_passes` may remove (the conversions are
/// needed to compile at all).
pub const DISABLEABLE_PASSES: &[&str] = &[
    "canonicalize",
    "cse",
    "dce",
    "graph-eliminate-layout",
    "graph-fold-constants",
    "graph-infer-shapes",
    "tensor-fuse",
];

/// Tensor op names that `tensor-fuse{exclude}` matches.
const TENSOR_OPS: &[&str] = &["tensor.map", "tensor.reduce", "tensor.contract"];

/// One pass of a pipeline, with its options (`name=value`, sorted by name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassSpec {
    /// The pass's pipeline name, e.g. `tensor-fuse`.
    pub name: &'static str,
    /// Its options, e.g. `("max-ops", "4")`, sorted by name.
    pub options: Vec<(&'static str, String)>,
}

impl PassSpec {
    fn new(name: &'static str) -> Self {
        PassSpec {
            name,
            options: Vec::new(),
        }
    }

    /// Adds `key=value` when `value` differs from the pass's default.
    fn option<T: PartialEq + ToString>(mut self, key: &'static str, value: T, default: T) -> Self {
        if value != default {
            self.options.push((key, value.to_string()));
            self.options.sort();
        }
        self
    }
}

impl fmt::Display for PassSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)?;
        if !self.options.is_empty() {
            let options: Vec<String> = self
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            write!(f, "{{{}}}", options.join(" "))?;
        }
        Ok(())
    }
}

/// Whether `name` can name an op in a pass option. A name with other
/// characters names no op (the loader warns), and would not survive the
/// pipeline's syntax.
fn op_like(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// The passes of `recipe`, in order, on `builtin.module`.
pub(crate) fn passes(recipe: &Recipe) -> Vec<PassSpec> {
    let o = &recipe.optimize;
    let g = &recipe.codegen;
    let mut passes = Vec::new();

    // graph: shapes, simplification, folding.
    passes.push(PassSpec::new("graph-infer-shapes"));
    // Recurrent layers become the ops they compute with.
    passes.push(PassSpec::new("graph-decompose-recurrent"));
    passes.push(PassSpec::new("canonicalize"));
    // Convolutions and pools compute channels last, with transposes around
    // them ...
    if o.layout == Layout::Nhwc {
        passes.push(PassSpec::new("graph-convert-conv-layout"));
    }
    // ... which, like the model's own, sink through elementwise ops and
    // cancel.
    passes.push(PassSpec::new("graph-eliminate-layout"));
    // Reduced precision: f32 ops compute in f16/bf16, sums in the
    // accumulate precision.
    if g.precision != Precision::F32 {
        let keep: Vec<&str> = g
            .keep_fp32
            .iter()
            .map(String::as_str)
            .filter(|n| op_like(n))
            .collect();
        passes.push(
            PassSpec::new("graph-convert-precision")
                .option("precision", g.precision.name(), "f16")
                .option("accumulate", g.accumulate_precision.name(), "f32")
                .option("keep-fp32", keep.join(","), String::new()),
        );
    }
    if o.constant_folding.enabled {
        passes.push(PassSpec::new("graph-fold-constants").option(
            "max-elements",
            o.constant_folding.max_elements,
            DEFAULT_FOLD_LIMIT,
        ));
    }
    if o.dead_code_elimination {
        passes.push(PassSpec::new("dce"));
    }
    passes.push(PassSpec::new("graph-infer-shapes"));
    // The chains that must end in one kernel (checked by
    // convert-tensor-to-kernel).
    if !o.fusion.must_fuse.is_empty() {
        let chains: Vec<String> = o
            .fusion
            .must_fuse
            .iter()
            .filter(|c| c.iter().all(|n| op_like(n)))
            .map(|c| c.join("+"))
            .collect();
        passes.push(PassSpec::new("graph-mark-fusion-chains").option(
            "chains",
            chains.join(","),
            String::new(),
        ));
    }

    // graph -> tensor, fusion.
    passes.push(PassSpec::new("convert-graph-to-tensor"));
    if o.fusion.enabled {
        let f = &o.fusion;
        let mut exclude: Vec<&str> = f
            .never_fuse
            .iter()
            .map(String::as_str)
            .filter(|n| TENSOR_OPS.contains(n))
            .collect();
        exclude.sort();
        exclude.dedup();
        passes.push(
            PassSpec::new("tensor-fuse")
                .option("min-ops", f.min_fused_ops, 2)
                .option("max-ops", f.max_fused_ops, 64)
                .option("exclude", exclude.join(","), String::new()),
        );
    }

    // tensor -> kernel and the host plan.
    let t = &g.tiles;
    let d = Tiles::default();
    let library = g.kernel_selection != KernelSelection::Generated;
    passes.push(
        PassSpec::new("convert-tensor-to-kernel")
            .option("block", t.block, d.block)
            .option("block-m", t.block_m, d.block_m)
            .option("block-n", t.block_n, d.block_n)
            .option("block-k", t.block_k, d.block_k)
            .option("library-gemm", library, false)
            .option("memory-reuse", o.memory_reuse, true)
            .option(
                "max-activation-bytes",
                recipe.contracts.max_activation_bytes.unwrap_or(0),
                0,
            ),
    );

    // kernel: index arithmetic cleanup.
    passes.push(PassSpec::new("canonicalize"));
    passes.push(PassSpec::new("cse"));

    // A GPU target: each kernel's thread-block form, for its compute
    // capability, with the recipe's warps per program.
    let sm = match g.target {
        Target::Host => None,
        Target::Sm80 => Some(80),
        Target::Sm90 => Some(90),
    };
    if let Some(sm) = sm {
        passes.push(
            PassSpec::new("convert-kernel-to-nvptx")
                .option("sm", sm, 90)
                .option("num-warps", g.num_warps, 0)
                .option("ptx", g.ptx_version.0 * 10 + g.ptx_version.1, 88),
        );
    }

    passes.retain(|p| !o.disable_passes.iter().any(|d| d == p.name));
    passes
}

/// `builtin.module(...)` around `passes`.
pub(crate) fn render(passes: &[PassSpec]) -> String {
    let items: Vec<String> = passes.iter().map(PassSpec::to_string).collect();
    format!("builtin.module({})", items.join(","))
}

/// A setting that differs from its default but that this compiler does not
/// act on yet: it is validated, hashed and recorded, nothing more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unapplied {
    /// The key path, e.g. `codegen.precision`.
    pub path: &'static str,
    /// Why it has no effect yet.
    pub reason: &'static str,
}

/// The settings of `recipe` that are recorded but not acted on.
pub(crate) fn unapplied(r: &Recipe) -> Vec<Unapplied> {
    let d = Recipe::default();
    let mut out = Vec::new();
    let mut note = |cond: bool, path: &'static str, reason: &'static str| {
        if cond {
            out.push(Unapplied { path, reason });
        }
    };
    // capture.include_ops, exclude_ops and min_segment_ops are read by
    // the session in hybrid mode, capture.buckets and outside_buckets in
    // graph and hybrid mode.
    note(
        r.capture.input_shapes != d.capture.input_shapes,
        "capture.input_shapes",
        "recorded; example shapes are not compiled ahead of time yet",
    );
    note(
        r.optimize.fusion.enabled
            && r.optimize.fusion.never_fuse.iter().any(|n| !TENSOR_OPS.contains(&n.as_str())),
        "optimize.fusion.never_fuse",
        "tensor-fuse excludes tensor ops only (tensor.map, tensor.reduce, tensor.contract); other names have no effect yet",
    );
    // codegen.threads, runtime.exe_mode, runtime.plan_cache_limit and
    // runtime.fallback are read by the runtime's session (`strata run`).
    note(
        r.runtime.cuda_graphs != d.runtime.cuda_graphs,
        "runtime.cuda_graphs",
        "recorded; CUDA graphs are asked for with strata run --cuda-graph",
    );
    // max_activation_bytes is checked by convert-tensor-to-kernel, the
    // tolerance by `strata run --check`, custom_ops against the registered
    // libraries by the driver.
    note(
        r.contracts.inputs != d.contracts.inputs,
        "contracts.inputs",
        "recorded; inputs are not checked against it yet",
    );
    out
}
