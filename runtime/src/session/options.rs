//! [`SessionOptions`]: how a session runs its model, usually from a recipe.

use super::{EventSink, ExeMode, Fallback, Rules};

/// How a session runs its model.
#[derive(Clone)]
pub struct SessionOptions {
    /// `eager` (the interpreter, op by op), `graph` (compiled plans) or
    /// `hybrid` (compiled segments with eager islands).
    pub exe_mode: ExeMode,
    /// The function that is the model (`main`).
    pub function: String,
    /// The pass pipeline from `graph` to the host plan.
    pub pipeline: String,
    /// Threads of each plan's pool (0: one per core).
    pub threads: usize,
    /// Most plans kept (at least 1).
    pub plan_cache_limit: usize,
    /// Whether a plan that needs input values at compile time (axes, pads,
    /// shapes that ONNX passes as inputs) compiles with the small inputs'
    /// values as constants, one plan per set of values.
    pub pin_inputs: bool,
    /// Graph and hybrid mode: shape buckets by dimension symbol (`capture.buckets`),
    /// each an increasing list of sizes.
    pub buckets: std::collections::BTreeMap<String, Vec<i64>>,
    /// What a size that is not a bucket does (`capture.outside_buckets`).
    pub outside_buckets: strata_recipe::OutsideBuckets,
    /// What padded float positions hold (0; the tests use NaN to show
    /// that padding never reaches a real value).
    pub pad_value: f64,
    /// Most plans the session compiles (0: no limit): a warning event at
    /// 75 % of it (and on a burst of compiles), then
    /// `on_budget_exhausted` for a run that needs a new plan; the plans
    /// compiled keep serving.
    pub recompile_budget: u64,
    /// What a run that needs a new plan does once the budget is spent.
    pub on_budget_exhausted: strata_recipe::BudgetAction,
    /// Record each run's span for a Chrome trace ([`Report::to_chrome_trace`]).
    pub trace: bool,
    /// Hybrid mode: which ops may compile.
    pub rules: Rules,
    /// Hybrid mode: what a segment that does not compile does (`error`, or
    /// run eagerly, with an event).
    pub fallback: Fallback,
    /// Called with each event, after the session's lock is released (in
    /// order within a thread): it may call back into the session
    /// (`report`, even `run`).
    pub on_event: Option<EventSink>,
    /// Graph mode: the plan cache on disk (`runtime.cache_dir`, else
    /// `STRATA_CACHE_DIR`), shared by every process that names it; `None`:
    /// plans are kept in memory only.
    pub cache_dir: Option<std::path::PathBuf>,
    /// The model's identity in disk cache keys: the sha256 of its file
    /// (`None`: the sha256 of the module as loaded, printed).
    pub model_sha256: Option<String>,
    /// The model's name, recorded in disk cache entries.
    pub model_name: String,
    /// The recipe's sha256, part of every disk cache key.
    pub recipe_sha256: String,
    /// The recipe's canonical text, recorded in disk cache entries.
    pub recipe: String,
}

impl Default for SessionOptions {
    /// Graph mode with the default recipe's pipeline, a thread per core,
    /// 16 plans.
    fn default() -> Self {
        SessionOptions::from_recipe(&strata_recipe::Recipe::default())
    }
}

impl std::fmt::Debug for SessionOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionOptions")
            .field("exe_mode", &self.exe_mode)
            .field("function", &self.function)
            .field("pipeline", &self.pipeline)
            .field("threads", &self.threads)
            .field("plan_cache_limit", &self.plan_cache_limit)
            .field("pin_inputs", &self.pin_inputs)
            .field("buckets", &self.buckets)
            .field("outside_buckets", &self.outside_buckets)
            .field("pad_value", &self.pad_value)
            .field("recompile_budget", &self.recompile_budget)
            .field("on_budget_exhausted", &self.on_budget_exhausted)
            .field("trace", &self.trace)
            .field("rules", &self.rules)
            .field("fallback", &self.fallback)
            .field("on_event", &self.on_event.is_some())
            .field("cache_dir", &self.cache_dir)
            .field("model_sha256", &self.model_sha256)
            .field("recipe_sha256", &self.recipe_sha256)
            .finish()
    }
}

impl SessionOptions {
    /// What `recipe` says: `runtime.exe_mode`, its pipeline,
    /// `codegen.threads`, `runtime.plan_cache_limit`, `runtime.fallback`,
    /// `capture.buckets` and `outside_buckets`, and for hybrid mode
    /// `capture.include_ops`, `exclude_ops` and `min_segment_ops`, and
    /// `runtime.cache_dir` (`STRATA_CACHE_DIR` when the recipe names none).
    pub fn from_recipe(recipe: &strata_recipe::Recipe) -> Self {
        SessionOptions {
            exe_mode: recipe.runtime.exe_mode,
            function: "main".to_string(),
            pipeline: recipe.pipeline(),
            threads: usize::try_from(recipe.codegen.threads).unwrap_or(0),
            plan_cache_limit: usize::try_from(recipe.runtime.plan_cache_limit)
                .unwrap_or(1)
                .max(1),
            pin_inputs: true,
            buckets: recipe.capture.buckets.clone(),
            outside_buckets: recipe.capture.outside_buckets,
            pad_value: 0.0,
            recompile_budget: u64::try_from(recipe.runtime.recompile_budget).unwrap_or(0),
            on_budget_exhausted: recipe.runtime.on_budget_exhausted,
            trace: false,
            rules: Rules {
                include_ops: recipe.capture.include_ops.clone(),
                exclude_ops: recipe.capture.exclude_ops.clone(),
                min_segment_ops: usize::try_from(recipe.capture.min_segment_ops)
                    .unwrap_or(1)
                    .max(1),
            },
            fallback: recipe.runtime.fallback,
            on_event: None,
            cache_dir: recipe
                .runtime
                .cache_dir
                .as_ref()
                .map(std::path::PathBuf::from)
                .or_else(|| {
                    std::env::var_os("STRATA_CACHE_DIR")
                        .filter(|d| !d.is_empty())
                        .map(std::path::PathBuf::from)
                }),
            model_sha256: None,
            model_name: String::new(),
            recipe_sha256: recipe.sha256(),
            recipe: recipe.canonical(),
        }
    }

    /// The thread count, with 0 resolved to the machine's cores.
    pub fn resolved_threads(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }
}
