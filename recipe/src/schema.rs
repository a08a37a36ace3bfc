//! The typed recipe: one struct per section, every field with its default.
//! `docs/recipes.md` documents each key; [`crate::Recipe::canonical`]
//! writes them all.

use std::collections::BTreeMap;

/// The recipe format version this crate reads and writes.
pub const FORMAT_VERSION: i64 = 1;

/// The default element limit of constant folding (as `graph-fold-constants`).
pub const DEFAULT_FOLD_LIMIT: i64 = 4096;

/// A whole recipe. `Recipe::default()` is what the compiler uses without one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recipe {
    /// What is captured into the compiled graph.
    pub capture: Capture,
    /// Graph-level optimizations.
    pub optimize: Optimize,
    /// How kernels are generated.
    pub codegen: Codegen,
    /// How the compiled model runs.
    pub runtime: Runtime,
    /// Numerical, memory and custom-op promises.
    pub contracts: Contracts,
}

/// `[capture]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    /// Ops to capture (empty: all); op names as written.
    pub include_ops: Vec<String>,
    /// Ops left out of the compiled graph (run eagerly in hybrid mode).
    pub exclude_ops: Vec<String>,
    /// Example input shapes, one list of dimensions per shape.
    pub input_shapes: Vec<Vec<i64>>,
    /// Shape buckets by dimension symbol, each a strictly increasing list.
    pub buckets: BTreeMap<String, Vec<i64>>,
    /// What to do with a size that is not a bucket.
    pub outside_buckets: OutsideBuckets,
    /// Hybrid mode: a compiled segment of fewer ops runs eagerly with its
    /// neighbours instead (1: every segment compiles).
    pub min_segment_ops: i64,
}

impl Default for Capture {
    fn default() -> Self {
        Capture {
            include_ops: Vec::new(),
            exclude_ops: Vec::new(),
            input_shapes: Vec::new(),
            buckets: BTreeMap::new(),
            outside_buckets: OutsideBuckets::default(),
            min_segment_ops: 1,
        }
    }
}

/// `capture.outside_buckets`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutsideBuckets {
    /// Pad up to the next bucket (an error above the largest).
    #[default]
    Pad,
    /// Refuse the input.
    Reject,
    /// Run the model eagerly for that input.
    Eager,
}

/// `[optimize]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Optimize {
    /// Constant folding (`graph-fold-constants`).
    pub constant_folding: ConstantFolding,
    /// Whether the `dce` pass runs.
    pub dead_code_elimination: bool,
    /// Kernel fusion (`tensor-fuse`).
    pub fusion: Fusion,
    /// Layout policy for convolutions.
    pub layout: Layout,
    /// Whether buffers share the arena by liveness.
    pub memory_reuse: bool,
    /// Passes removed from the pipeline.
    pub disable_passes: Vec<String>,
}

impl Default for Optimize {
    fn default() -> Self {
        Optimize {
            constant_folding: ConstantFolding::default(),
            dead_code_elimination: true,
            fusion: Fusion::default(),
            layout: Layout::default(),
            memory_reuse: true,
            disable_passes: Vec::new(),
        }
    }
}

/// `optimize.constant_folding`.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstantFolding {
    /// Whether constant subgraphs are evaluated at compile time.
    pub enabled: bool,
    /// The largest operand or result (in elements) that is folded.
    pub max_elements: i64,
}

impl Default for ConstantFolding {
    fn default() -> Self {
        ConstantFolding {
            enabled: true,
            max_elements: DEFAULT_FOLD_LIMIT,
        }
    }
}

/// `optimize.fusion`.
#[derive(Clone, Debug, PartialEq)]
pub struct Fusion {
    /// Whether `tensor-fuse` runs.
    pub enabled: bool,
    /// Fewest ops a fusion group needs.
    pub min_fused_ops: i64,
    /// Most ops a fusion group may hold.
    pub max_fused_ops: i64,
    /// Ops that stay alone.
    pub never_fuse: Vec<String>,
    /// Op chains that must end in one kernel.
    pub must_fuse: Vec<Vec<String>>,
}

impl Default for Fusion {
    fn default() -> Self {
        Fusion {
            enabled: true,
            min_fused_ops: 2,
            max_fused_ops: 64,
            never_fuse: Vec::new(),
            must_fuse: Vec::new(),
        }
    }
}

/// `optimize.layout`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// Keep channels first (ONNX's layout).
    Nchw,
    /// Channels last: convolutions and pools compute NHWC
    /// (`graph-convert-conv-layout`).
    Nhwc,
    /// The compiler chooses: on the host, the model's NCHW (channels last
    /// measured no faster there).
    #[default]
    Auto,
}

/// `[codegen]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Codegen {
    /// The machine the kernels are for.
    pub target: Target,
    /// PTX ISA version for CUDA targets, `(major, minor)`.
    pub ptx_version: (i64, i64),
    /// Compute precision of floating-point ops.
    pub precision: Precision,
    /// Precision of accumulators (matmul, convolution, reductions).
    pub accumulate_precision: Precision,
    /// Round intermediates to the compute precision where eager would.
    pub emulate_precision_casts: bool,
    /// Ops kept in f32 under a narrower precision.
    pub keep_fp32: Vec<String>,
    /// Generated kernels or library routines.
    pub kernel_selection: KernelSelection,
    /// Tile sizes of generated kernels.
    pub tiles: Tiles,
    /// Warps per program on CUDA targets.
    pub num_warps: i64,
    /// Host threads (0: one per core).
    pub threads: i64,
}

impl Default for Codegen {
    fn default() -> Self {
        Codegen {
            target: Target::Host,
            ptx_version: (8, 8),
            precision: Precision::F32,
            accumulate_precision: Precision::F32,
            emulate_precision_casts: false,
            keep_fp32: Vec::new(),
            kernel_selection: KernelSelection::Library,
            tiles: Tiles::default(),
            num_warps: 4,
            threads: 0,
        }
    }
}

/// `codegen.target`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// This machine's CPU, through LLVM's JIT.
    #[default]
    Host,
    /// NVIDIA Ampere.
    Sm80,
    /// NVIDIA Hopper.
    Sm90,
}

/// A floating-point precision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// IEEE binary32.
    #[default]
    F32,
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
}

/// `codegen.kernel_selection`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KernelSelection {
    /// Library routines where the target has one (GEMM), generated kernels elsewhere.
    #[default]
    Library,
    /// Generated kernels only.
    Generated,
    /// Per op, what is fastest for one run at the compiled shape.
    LatencyFirst,
    /// Per op, what is fastest at large batches.
    ThroughputFirst,
}

/// `[codegen.tiles]`: powers of two, as `convert-tensor-to-kernel` takes them.
#[derive(Clone, Debug, PartialEq)]
pub struct Tiles {
    /// Elements per program of an elementwise kernel.
    pub block: i64,
    /// Rows of a contraction's output tile.
    pub block_m: i64,
    /// Columns of a contraction's output tile.
    pub block_n: i64,
    /// Depth of a contraction's K step.
    pub block_k: i64,
}

impl Default for Tiles {
    fn default() -> Self {
        Tiles {
            block: 1024,
            block_m: 64,
            block_n: 64,
            block_k: 64,
        }
    }
}

/// `[runtime]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Runtime {
    /// How the model runs.
    pub exe_mode: ExeMode,
    /// Most compiled plans kept (one per shape bucket).
    pub plan_cache_limit: i64,
    /// What happens when part of the model does not compile.
    pub fallback: Fallback,
    /// Capture launches into CUDA graphs (CUDA targets).
    pub cuda_graphs: bool,
    /// Most plans a session compiles (0: no limit); a warning at 75 %.
    pub recompile_budget: i64,
    /// What a run that needs a new plan does once the budget is spent.
    pub on_budget_exhausted: BudgetAction,
    /// Where compiled plans are kept across processes (none: in memory
    /// only). Where, not what: not part of the canonical form, so not of
    /// the recipe's hash.
    pub cache_dir: Option<String>,
}

/// `runtime.on_budget_exhausted`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BudgetAction {
    /// Run the model eagerly for that input.
    #[default]
    Eager,
    /// Run the smallest compiled bucket that holds the input (shape
    /// buckets), else fail.
    NearestBucket,
    /// Fail the run.
    Error,
}

impl BudgetAction {
    /// The spelling: `eager`, `nearest-bucket` or `error`.
    pub fn name(self) -> &'static str {
        self.spelling()
    }
}

impl Default for Runtime {
    fn default() -> Self {
        Runtime {
            exe_mode: ExeMode::Graph,
            plan_cache_limit: 16,
            fallback: Fallback::Error,
            cuda_graphs: true,
            recompile_budget: 0,
            on_budget_exhausted: BudgetAction::Eager,
            cache_dir: None,
        }
    }
}

/// `runtime.exe_mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExeMode {
    /// The reference interpreter, op by op.
    Eager,
    /// The whole graph as one compiled plan.
    #[default]
    Graph,
    /// Compiled segments with eager islands.
    Hybrid,
}

/// `runtime.fallback`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fallback {
    /// A compile failure is an error.
    #[default]
    Error,
    /// The part that does not compile runs eagerly, and a report says so.
    Eager,
}

/// `[contracts]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Contracts {
    /// Tolerances of graph-against-eager checks (unset: per dtype).
    pub tolerance: Tolerance,
    /// Custom ops by name: the version and implementation hash required.
    pub custom_ops: BTreeMap<String, CustomOp>,
    /// The most activation bytes (arena) the compiled model may use.
    pub max_activation_bytes: Option<i64>,
    /// Declared constraints on the inputs, by input name.
    pub inputs: BTreeMap<String, InputConstraint>,
}

/// `contracts.tolerance`; an unset bound is the per-dtype default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tolerance {
    /// Relative tolerance.
    pub rtol: Option<f64>,
    /// Absolute tolerance.
    pub atol: Option<f64>,
}

/// One entry of `contracts.custom_ops`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomOp {
    /// The version required, e.g. `1.2.3`.
    pub version: String,
    /// The sha256 (lowercase hex) of the implementation.
    pub sha256: String,
}

/// One entry of `contracts.inputs`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputConstraint {
    /// The element type required (e.g. `f32`), if any.
    pub dtype: Option<String>,
    /// The shape required, if any: a size or a symbol per dimension.
    pub shape: Option<Vec<Dim>>,
}

/// One dimension of a declared input shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    /// A fixed size.
    Fixed(i64),
    /// A symbolic size shared by the inputs that name it (e.g. `batch`).
    Symbol(String),
}

/// A string spelling of an enum value, and back.
pub(crate) trait Spelled: Sized + Copy + PartialEq + 'static {
    /// Every value with its canonical spelling first, then accepted aliases.
    const SPELLINGS: &'static [(&'static str, Self)];

    /// The canonical spelling.
    fn spelling(self) -> &'static str {
        Self::SPELLINGS
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("?", |(s, _)| s)
    }
}

impl Spelled for OutsideBuckets {
    const SPELLINGS: &'static [(&'static str, Self)] = &[
        ("pad", Self::Pad),
        ("reject", Self::Reject),
        ("eager", Self::Eager),
    ];
}

impl Spelled for Layout {
    const SPELLINGS: &'static [(&'static str, Self)] = &[
        ("nchw", Self::Nchw),
        ("nhwc", Self::Nhwc),
        ("auto", Self::Auto),
    ];
}

impl Spelled for Target {
    const SPELLINGS: &'static [(&'static str, Self)] = &[
        ("host", Self::Host),
        ("sm_80", Self::Sm80),
        ("sm_90", Self::Sm90),
    ];
}

impl Spelled for Precision {
    const SPELLINGS: &'static [(&'static str, Self)] = &[
        ("f32", Self::F32),
        ("f16", Self::F16),
        ("bf16", Self::Bf16),
        ("fp32", Self::F32),
        ("fp16", Self::F16),
    ];
}

impl Spelled for KernelSelection {
    const SPELLINGS: &'static [(&'static str, Self)] = &[
        ("library", Self::Library),
        ("generated", Self::Generated),
        ("latency_first", Self::LatencyFirst),
        ("throughput_first", Self::ThroughputFirst),
    ];
}

impl Spelled for ExeMode {
    const SPELLINGS: &'static [(&'static str, Self)] = &[
        ("eager", Self::Eager),
        ("graph", Self::Graph),
        ("hybrid", Self::Hybrid),
    ];
}

impl ExeMode {
    /// The spelling: `eager`, `graph` or `hybrid`.
    pub fn name(self) -> &'static str {
        self.spelling()
    }

    /// The mode spelled `name`, if any.
    pub fn from_name(name: &str) -> Option<ExeMode> {
        Self::SPELLINGS
            .iter()
            .find(|(s, _)| *s == name)
            .map(|&(_, m)| m)
    }
}

impl Spelled for BudgetAction {
    const SPELLINGS: &'static [(&'static str, Self)] = &[
        ("eager", Self::Eager),
        ("nearest-bucket", Self::NearestBucket),
        ("error", Self::Error),
    ];
}

impl Spelled for Fallback {
    const SPELLINGS: &'static [(&'static str, Self)] =
        &[("error", Self::Error), ("eager", Self::Eager)];
}

impl Precision {
    /// Whether an accumulator of precision `self` holds every value of
    /// `compute` (f32 holds f16 and bf16; f16 and bf16 do not hold each other).
    pub fn holds(self, compute: Precision) -> bool {
        self == compute || self == Precision::F32
    }

    /// The canonical spelling (`f32`, `f16`, `bf16`).
    pub fn name(self) -> &'static str {
        self.spelling()
    }
}

/// The element types `contracts.inputs.*.dtype` accepts.
pub const DTYPES: &[&str] = &[
    "f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64",
];

impl Target {
    /// The canonical spelling (`host`, `sm_80`, `sm_90`).
    pub fn name(self) -> &'static str {
        self.spelling()
    }
}

impl OutsideBuckets {
    /// The canonical spelling (`pad`, `reject`, `eager`).
    pub fn name(self) -> &'static str {
        self.spelling()
    }
}
