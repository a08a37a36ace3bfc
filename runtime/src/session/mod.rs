//! A session: one model, one recipe, run many times.
//!
//! [`Session`] is what an embedding application (and `strata run`) holds:
//! built from a model and [`SessionOptions`] (usually
//! [`SessionOptions::from_recipe`]), it checks each run's inputs against
//! the model's signature, runs them in its exe mode and keeps what it
//! compiled. In `graph` mode a run looks its plan up in a bounded cache
//! keyed by the input shapes (and the values of the inputs a plan holds as
//! constants); a miss compiles one, which may evict the least recently used.
//! Every compile, hit, eviction and failure is an [`Event`], counted in the
//! [`Report`] and passed to [`SessionOptions::on_event`] as it happens.
//!
//! A session is `Send + Sync`: [`Session::run`] may be called from several
//! threads at once. Plans are shared; each run takes an arena of its own
//! from the plan's pool; one compile runs at a time (a thread that misses
//! while another compiles the same plan waits for it and then hits).

pub mod buckets;
mod budget;
mod cache;
pub mod cost;
mod disk;
mod events;
mod hybrid;
mod hybrid_disk;
mod inputs;
mod options;
mod padding;
mod partition;
mod state;
mod views;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use strata_ir::{Context, Diagnostic, Operation};

use crate::compiled::{self, CompileError, CompiledModel, RunError};
use crate::interp::{self, InterpError};
use crate::{Datum, Tensor};

pub use cache::PlanKey;
pub use events::{Event, EventKind, Report};
pub use hybrid::partition_of;
use inputs::datum_dims;
pub use inputs::InputSpec;
pub use options::SessionOptions;
pub(crate) use partition::{assignable, outline};
pub use partition::{IslandOp, Partition, Rules, Segment, SegmentKind};
use state::State;
pub use strata_recipe::{ExeMode, Fallback};

/// Loads the model afresh: a compile changes the module it lowers, so each
/// one starts from a new copy.
pub type Source = Arc<dyn Fn() -> Result<(Context, Operation), String> + Send + Sync>;

/// Called with each event as it happens (`strata run --log-events`).
pub type EventSink = Arc<dyn Fn(&Event) + Send + Sync>;

/// Why a session could not be made or a run failed.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The model could not be loaded.
    #[error("{0}")]
    Load(String),
    /// The model has no such function.
    #[error("the model has no function @{0}")]
    NoFunction(String),
    /// The recompile budget is spent and `on_budget_exhausted` is `error`
    /// (or `nearest-bucket` found no bucket that holds the input).
    #[error("recompile budget spent: {0}")]
    Budget(String),
    /// The input shapes have no bucket (`capture.outside_buckets`).
    #[error("no shape bucket: {0}")]
    Bucket(String),
    /// An input does not fit the model.
    #[error("input '{name}' {message}")]
    Input {
        /// The input's name.
        name: String,
        /// What is wrong with it.
        message: String,
    },
    /// The plan cache directory cannot be made or written to.
    #[error("{path}: error: cannot use it as the plan cache directory: {message}")]
    CacheDir {
        /// The directory.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The model did not compile for these inputs (located diagnostics,
    /// rendered).
    #[error("{0}")]
    Compile(String),
    /// A compiled plan refused the inputs or failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The interpreter refused the inputs or failed (eager mode).
    #[error(transparent)]
    Eager(#[from] InterpError),
}

/// Compiles within [`BURST_RUNS`] runs that make a burst (a warning event).
const BURST_COMPILES: usize = 4;
/// The window of a burst, in runs.
const BURST_RUNS: u64 = 16;

/// Events a session keeps for its report (the oldest go first; every
/// event still reaches [`SessionOptions::on_event`] and the counts).
pub const EVENTS_KEPT: usize = 4096;

/// A cached plan.
pub(crate) enum Plan {
    /// One compiled plan of the whole function (graph mode, or hybrid
    /// mode without an island: then with its partition).
    /// The third field: how the plan runs padded shapes (the padded axes
    /// of each result, the real sizes its masks read), or why padding is
    /// refused.
    Compiled(
        Box<CompiledModel>,
        Option<Partition>,
        Result<buckets::Padding, String>,
    ),
    /// Compiled segments and eager islands, and how the plan runs padded
    /// shapes (as for `Compiled`).
    Hybrid(Box<partition::HybridPlan>, Result<buckets::Padding, String>),
    /// Hybrid mode where every op is an island: the function runs as in
    /// eager mode.
    Eager(Partition),
}

impl Plan {
    fn arena_bytes(&self) -> usize {
        match self {
            Plan::Compiled(c, _, _) => c.arena_bytes(),
            Plan::Hybrid(h, _) => h.arena_bytes(),
            Plan::Eager(_) => 0,
        }
    }

    /// The launches (kernels, library products, custom calls) of one run.
    fn launches(&self) -> usize {
        match self {
            Plan::Compiled(c, _, _) => c.launches(),
            Plan::Hybrid(h, _) => h.launches(),
            Plan::Eager(_) => 0,
        }
    }

    /// The partition, in hybrid mode.
    fn partition(&self) -> Option<&Partition> {
        match self {
            Plan::Compiled(_, p, _) => p.as_ref(),
            Plan::Hybrid(h, _) => Some(&h.partition),
            Plan::Eager(p) => Some(p),
        }
    }
}

/// A model ready to run many times (see the [module docs](self)).
pub struct Session {
    options: SessionOptions,
    threads: usize,
    source: Source,
    /// The model's function as loaded, for eager mode (and for hybrid
    /// mode when every op is an island, shapes outside the buckets, a spent
    /// budget): loaded when first needed in graph mode.
    eager: Mutex<Option<Arc<(Context, Operation)>>>,
    /// A loaded module that no compile has taken yet (graph mode).
    spare: Mutex<Option<(Context, Operation)>>,
    inputs: Vec<InputSpec>,
    /// The symbol of each input dimension (for buckets).
    input_dims: buckets::InputDims,
    outputs: Vec<String>,
    state: Mutex<State>,
    compiling: Mutex<()>,
    /// The padding of each bucket's shapes, or why it is not safe
    /// ([`Session::padding_for`]).
    paddings: Mutex<buckets::Paddings>,
    started: Instant,
    /// Graph mode with a cache directory: the plan cache on disk.
    disk: Option<disk::DiskCache>,
}

fn micros(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Session {
    /// A session over the model `source` loads.
    pub fn new(source: Source, options: SessionOptions) -> Result<Session, SessionError> {
        let (ctx, module) = source().map_err(SessionError::Load)?;
        Session::from_loaded(ctx, module, source, options)
    }

    /// A session over `module` (loaded in `ctx`), which `source` can load
    /// again.
    pub fn from_loaded(
        ctx: Context,
        module: Operation,
        source: Source,
        options: SessionOptions,
    ) -> Result<Session, SessionError> {
        Session::build(ctx, module, source, options, true)
    }

    /// A session that knows the model by its signature only: `module`
    /// declares the function (`strata_onnx::import_signature_file`), and
    /// `source` loads the model when a run first needs it (a compile, an
    /// eager run). A plan found in the disk cache never does: a warm start
    /// does not import the model. The disk cache's key needs the model's
    /// hash, so `options.model_sha256` must be given.
    pub fn from_signature(
        ctx: Context,
        module: Operation,
        source: Source,
        options: SessionOptions,
    ) -> Result<Session, SessionError> {
        if options.model_sha256.is_none() {
            return Err(SessionError::Load(
                "a session made from a signature needs the model's sha256".into(),
            ));
        }
        Session::build(ctx, module, source, options, false)
    }

    /// [`Session::from_loaded`], or with `whole = false`
    /// [`Session::from_signature`].
    fn build(
        ctx: Context,
        module: Operation,
        source: Source,
        options: SessionOptions,
        whole: bool,
    ) -> Result<Session, SessionError> {
        let func = interp::lookup_function(&ctx, module, &options.function)
            .ok_or_else(|| SessionError::NoFunction(options.function.clone()))?;
        let (arg_types, result_types) = strata_dialects::func::function_signature(&ctx, func)
            .ok_or_else(|| {
                SessionError::Load(format!("@{} has no function type", options.function))
            })?;
        let names = io_names(&ctx, func, "arg_attrs", "input", arg_types.len());
        let inputs = names
            .into_iter()
            .zip(&arg_types)
            .map(|(name, &ty)| InputSpec::of(&ctx, name, ty))
            .collect();
        let outputs = io_names(&ctx, func, "res_attrs", "output", result_types.len());
        let input_dims = arg_types
            .iter()
            .map(|&ty| {
                strata_dialects::graph::shape::shape_of(&ctx, ty)
                    .and_then(|(shape, _)| shape.dims().map(<[_]>::to_vec))
                    .unwrap_or_default()
                    .into_iter()
                    .map(|d| match d {
                        strata_dialects::graph::shape::Dim::Sym(m)
                            if m.coeff == 1 && m.syms.len() == 1 =>
                        {
                            m.syms.first().cloned()
                        }
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        // Graph mode keeps the model as loaded for the shapes it runs
        // eagerly (outside the buckets), else lends it to the first compile.
        let eager_outside = !options.buckets.is_empty()
            && options.outside_buckets == strata_recipe::OutsideBuckets::Eager;
        let disk = match (&options.cache_dir, options.exe_mode) {
            (Some(dir), ExeMode::Graph | ExeMode::Hybrid) => {
                let model_sha256 = options.model_sha256.clone().unwrap_or_else(|| {
                    let text =
                        strata_ir::printer::print_operation(&ctx, module, Default::default());
                    strata_artifact::sha256_hex(text.as_bytes())
                });
                Some(disk::DiskCache::open(
                    dir,
                    &model_sha256,
                    &options.recipe_sha256,
                    &options.pipeline,
                    &options.function,
                )?)
            }
            _ => None,
        };
        let (eager, spare) = match options.exe_mode {
            _ if !whole => (None, None),
            ExeMode::Eager | ExeMode::Hybrid => (Some((ctx, func)), None),
            ExeMode::Graph if eager_outside => (Some((ctx, func)), None),
            ExeMode::Graph => (None, Some((ctx, module))),
        };
        Ok(Session {
            threads: options.resolved_threads(),
            state: Mutex::new(State::new(options.plan_cache_limit)),
            options,
            source,
            eager: Mutex::new(eager.map(Arc::new)),
            spare: Mutex::new(spare),
            inputs,
            input_dims,
            outputs,
            compiling: Mutex::new(()),
            paddings: Mutex::new(HashMap::new()),
            started: Instant::now(),
            disk,
        })
    }

    /// The exe mode.
    pub fn exe_mode(&self) -> ExeMode {
        self.options.exe_mode
    }

    /// The threads of each plan's pool.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The model's inputs.
    pub fn inputs(&self) -> &[InputSpec] {
        &self.inputs
    }

    /// The model's output names.
    pub fn output_names(&self) -> &[String] {
        &self.outputs
    }

    /// Runs the model on `inputs` (one tensor per input, in order).
    pub fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, SessionError> {
        self.spanned(|| self.run_traced(inputs))
    }

    /// `run`, kept as a span of the trace when the session traces.
    fn spanned<T>(&self, run: impl FnOnce() -> Result<T, SessionError>) -> Result<T, SessionError> {
        let start = Instant::now();
        let result = run();
        if self.options.trace {
            let span = events::Span {
                at_us: micros(self.started.elapsed().saturating_sub(start.elapsed())),
                us: micros(start.elapsed()),
                ok: result.is_ok(),
            };
            let mut state = self.state();
            if state.spans.len() == EVENTS_KEPT {
                state.spans.pop_front();
            }
            state.spans.push_back(span);
        }
        result
    }

    fn run_traced(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, SessionError> {
        self.state().runs += 1;
        self.check_inputs(inputs)?;
        if self.options.exe_mode == ExeMode::Eager {
            return self.run_eagerly(inputs.to_vec());
        }
        if !self.options.buckets.is_empty() {
            return self.run_bucketed(inputs);
        }
        let plan = match self.plan_for(inputs) {
            Err(SessionError::Budget(_))
                if self.options.on_budget_exhausted == strata_recipe::BudgetAction::Eager =>
            {
                return self.run_eagerly(inputs.to_vec());
            }
            other => other?,
        };
        match plan.as_ref() {
            Plan::Compiled(plan, _, _) => Ok(plan.run(inputs)?),
            Plan::Hybrid(plan, _) => plan
                .run(inputs.iter().cloned().map(Datum::Tensor).collect())?
                .into_iter()
                .enumerate()
                .map(|(i, d)| match d {
                    Datum::Tensor(t) => Ok(t),
                    _ => Err(SessionError::Load(format!(
                        "output {} is not a tensor: use run_values",
                        self.outputs.get(i).map_or("?", String::as_str)
                    ))),
                })
                .collect(),
            Plan::Eager(_) => self.run_eagerly(inputs.to_vec()),
        }
    }

    fn run_eagerly(&self, inputs: Vec<Tensor>) -> Result<Vec<Tensor>, SessionError> {
        let model = self.eager_model()?;
        Ok(interp::run_function(&model.0, model.1, inputs)?)
    }

    /// The model as loaded, for the interpreter (loaded on first use).
    fn eager_model(&self) -> Result<Arc<(Context, Operation)>, SessionError> {
        let mut slot = lock(&self.eager);
        if let Some(m) = slot.as_ref() {
            return Ok(Arc::clone(m));
        }
        let (ctx, module) = (self.source)().map_err(SessionError::Load)?;
        let func = interp::lookup_function(&ctx, module, &self.options.function)
            .ok_or_else(|| SessionError::NoFunction(self.options.function.clone()))?;
        let model = Arc::new((ctx, func));
        *slot = Some(Arc::clone(&model));
        Ok(model)
    }

    /// [`Session::run`] for inputs and outputs that may be sequences,
    /// optionals or strings, which eager and hybrid mode take (hybrid
    /// mode runs the ops that use them in eager islands; graph mode takes
    /// tensors only).
    pub fn run_values(&self, inputs: Vec<Datum>) -> Result<Vec<Datum>, SessionError> {
        if self.options.exe_mode == ExeMode::Hybrid {
            return self.spanned(|| self.run_hybrid_values(inputs));
        }
        if self.options.exe_mode == ExeMode::Eager {
            let model = self.eager_model()?;
            let (ctx, func) = (&model.0, &model.1);
            self.state().runs += 1;
            self.check_count(inputs.len())?;
            for (spec, d) in self.inputs.iter().zip(&inputs) {
                if let Datum::Tensor(t) = d {
                    spec.check(t)?;
                }
            }
            return Ok(interp::run_function_values(
                ctx,
                *func,
                inputs,
                Default::default(),
            )?);
        }
        let mut tensors = Vec::with_capacity(inputs.len());
        for (i, d) in inputs.into_iter().enumerate() {
            match d {
                Datum::Tensor(t) => tensors.push(t),
                _ => {
                    return Err(SessionError::Input {
                        name: self
                            .inputs
                            .get(i)
                            .map_or_else(|| format!("#{i}"), |s| s.name.clone()),
                        message: "is not a tensor, which graph mode needs".into(),
                    })
                }
            }
        }
        Ok(self.run(&tensors)?.into_iter().map(Datum::Tensor).collect())
    }

    /// Plans compiled so far (cheaper than [`Session::report`]).
    pub fn compile_count(&self) -> u64 {
        self.state().compiles
    }

    /// What the session did so far.
    pub fn report(&self) -> Report {
        let s = self.state();
        Report {
            exe_mode: self.options.exe_mode,
            runs: s.runs,
            compiles: s.compiles,
            compile_ms: s.compile_ms,
            hits: s.hits,
            misses: s.misses,
            evictions: s.evictions,
            disk_hits: s.disk_hits,
            disk_writes: s.disk_writes,
            disk_rejected: s.disk_rejected,
            failed_again: s.failed_again,
            cache_dir: self
                .options
                .cache_dir
                .clone()
                .filter(|_| self.disk.is_some()),
            plans: s.cache.len(),
            cache_arena_bytes: s.cache.plans().map(Plan::arena_bytes).sum(),
            cache_launches: s.cache.plans().map(Plan::launches).sum(),
            partitions: s
                .cache
                .entries()
                .filter_map(|(k, p)| p.partition().map(|p| (k.describe(), p.clone())))
                .collect(),
            events: s.events.iter().cloned().collect(),
            spans: s.spans.iter().cloned().collect(),
            events_dropped: s.events_dropped,
            padding_waste: if s.padded_elements == 0 {
                0.0
            } else {
                s.padded_elements as f64 / (s.real_elements + s.padded_elements) as f64
            },
        }
    }

    fn check_count(&self, given: usize) -> Result<(), SessionError> {
        if given != self.inputs.len() {
            let names: Vec<&str> = self.inputs.iter().map(|s| s.name.as_str()).collect();
            return Err(SessionError::Input {
                name: names.join(", "),
                message: format!(
                    "expected {} input(s) ({}), got {given}",
                    self.inputs.len(),
                    names.join(", ")
                ),
            });
        }
        Ok(())
    }

    fn check_inputs(&self, inputs: &[Tensor]) -> Result<(), SessionError> {
        self.check_count(inputs.len())?;
        self.inputs
            .iter()
            .zip(inputs)
            .try_for_each(|(spec, t)| spec.check(t))
    }

    fn event(&self, state: &mut State, kind: EventKind, key: &PlanKey, reason: String, ms: f64) {
        self.event_at(state, kind, key, reason, ms, "memory");
    }

    /// [`Session::event`] at cache `level` (`memory` or `disk`).
    fn event_at(
        &self,
        state: &mut State,
        kind: EventKind,
        key: &PlanKey,
        reason: String,
        ms: f64,
        level: &'static str,
    ) {
        self.push_event(
            state,
            Event {
                kind,
                key: key.describe(),
                reason,
                ms,
                level,
                at_us: u64::try_from(self.started.elapsed().as_micros()).unwrap_or(u64::MAX),
                pinned: key
                    .pinned
                    .iter()
                    .filter_map(|(i, _)| self.inputs.get(*i).map(|s| s.name.clone()))
                    .collect(),
            },
        );
    }

    fn push_event(&self, state: &mut State, event: Event) {
        if self.options.on_event.is_some() {
            state.outbox.push(event.clone());
        }
        if state.events.len() == EVENTS_KEPT {
            state.events.pop_front();
            state.events_dropped += 1;
        }
        state.events.push_back(event);
    }

    /// The key of a plan for `inputs`: their shapes, and the values of the
    /// inputs `pin` marks (those a plan for these shapes holds).
    fn key(&self, inputs: &[Tensor], pin: Option<&[bool]>) -> PlanKey {
        let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
        self.key_at(&shapes, inputs, pin)
    }

    /// The key of inputs of `shapes`; `pin` marks those of `inputs` held
    /// as constants.
    fn key_at(&self, shapes: &[Vec<usize>], inputs: &[Tensor], pin: Option<&[bool]>) -> PlanKey {
        PlanKey {
            shapes: shapes.to_vec(),
            pinned: pin.map_or_else(Vec::new, |pin| {
                inputs
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| pin.get(i).copied().unwrap_or(false))
                    .map(|(i, t)| (i, t.data().as_bytes().to_vec()))
                    .collect()
            }),
        }
    }

    /// The plan for `inputs`: from the cache, or compiled (one compile at
    /// a time; a run that waited for another's compile looks again).
    fn plan_for(&self, inputs: &[Tensor]) -> Result<Arc<Plan>, SessionError> {
        let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
        self.plan_at(shapes, inputs)
    }

    /// [`Session::plan_for`] inputs of `shapes`. `inputs` are the tensors
    /// when every input is one (graph mode holds some of their values as
    /// constants); hybrid mode's values that are not all tensors give none
    /// (and `shapes` has no dimensions for a sequence or an optional).
    fn plan_at(
        &self,
        shapes: Vec<Vec<usize>>,
        inputs: &[Tensor],
    ) -> Result<Arc<Plan>, SessionError> {
        let lookup = |state: &mut State| {
            let key = self.key_at(&shapes, inputs, state.cache.pinned_inputs(&shapes));
            let plan = state.cache.get(&key);
            if plan.is_some() {
                state.hits += 1;
                self.event(state, EventKind::Hit, &key, String::new(), 0.0);
            }
            (key, plan)
        };
        let remembered = |state: &mut State, key: &PlanKey| {
            let error = state.cache.failure(key)?.to_string();
            state.failed_again += 1;
            Some(SessionError::Compile(error))
        };
        {
            let mut state = self.state();
            let (key, plan) = lookup(&mut state);
            if let Some(plan) = plan {
                return Ok(plan);
            }
            if let Some(e) = remembered(&mut state, &key) {
                return Err(e);
            }
        }
        let _compiling = lock(&self.compiling);
        let (key, pin) = {
            let mut state = self.state();
            let (key, plan) = lookup(&mut state);
            if let Some(plan) = plan {
                return Ok(plan);
            }
            if let Some(e) = remembered(&mut state, &key) {
                return Err(e);
            }
            let pin = state.cache.pinned_inputs(&shapes).map(<[bool]>::to_vec);
            (key, pin)
        };
        let start = Instant::now();
        let notes = std::cell::RefCell::new(Vec::new());
        // A plan on disk is loaded, not compiled: not a miss, and not
        // counted against the recompile budget.
        let hybrid = self.options.exe_mode == ExeMode::Hybrid;
        // Hybrid mode looks on disk for each compiled segment as it goes.
        let from_disk = if hybrid {
            None
        } else {
            self.look_on_disk(&shapes, inputs, pin.as_deref(), &notes)
        };
        let reason = {
            let mut state = self.state();
            if from_disk.is_none() && !hybrid {
                state.misses += 1;
                if let Some(why) = self.budget_spent(&mut state, &key) {
                    return Err(SessionError::Budget(why));
                }
            }
            state.cache.miss_reason(&key)
        };
        let compiled = if let Some(found) = from_disk {
            Ok(found)
        } else if hybrid {
            let must_compile = || {
                let mut state = self.state();
                state.misses += 1;
                match self.budget_spent(&mut state, &key) {
                    Some(why) => Err(SessionError::Budget(why)),
                    None => Ok(()),
                }
            };
            let made = self.padding_for(&shapes).and_then(|padding| {
                let lengths = padding.as_ref().map_or(&[][..], |p| &p.lengths[..]);
                let made = self.compile_hybrid(&shapes, lengths, &key, &notes, &must_compile)?;
                Ok((made, padding))
            });
            match made {
                Err(e @ SessionError::Budget(_)) => return Err(e),
                Ok(((made, fell_back, origin), padding)) => {
                    let plan = match made {
                        hybrid::Compiled::Whole(c, p) => Plan::Compiled(c, Some(p), padding),
                        hybrid::Compiled::Split(h) => Plan::Hybrid(h, padding),
                        hybrid::Compiled::Eager(p) => Plan::Eager(p),
                    };
                    let mut state = self.state();
                    for message in fell_back {
                        self.event(&mut state, EventKind::Fallback, &key, message, 0.0);
                    }
                    Ok((plan, None, origin))
                }
                Err(e) => Err((e, None)),
            }
        } else {
            match self.padding_for(&shapes) {
                Ok(padding) => {
                    let lengths = padding.as_ref().map_or(&[][..], |p| &p.lengths[..]);
                    match self.compile(&shapes, inputs, pin, lengths, &notes) {
                        Ok((plan, pinned, origin)) => Ok((
                            Plan::Compiled(Box::new(plan), None, padding),
                            pinned,
                            origin,
                        )),
                        Err((SessionError::Compile(text), tried)) => {
                            let text = self.with_every_island(text, &shapes);
                            Err((SessionError::Compile(text), tried))
                        }
                        Err(e) => Err(e),
                    }
                }
                Err(e) => Err((e, None)),
            }
        };
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let mut state = self.state();
        let mut reason = reason.to_string();
        for note in notes.into_inner() {
            match note.kind {
                EventKind::DiskRejected => {
                    state.disk_rejected += 1;
                    reason = "corrupt".into();
                }
                EventKind::DiskWrite => state.disk_writes += 1,
                _ => {}
            }
            let (kind, key, why) = (note.kind, note.key, note.reason);
            self.event_at(&mut state, kind, &key, why, note.ms, "disk");
        }
        let (plan, pinned, origin) = match compiled {
            Ok(c) => c,
            Err((e, tried)) => {
                // Remembered only when the error cannot depend on input
                // values the key does not hold (a compile with the values
                // of other inputs as constants may fail where these work).
                if let SessionError::Compile(text) = &e {
                    if tried.is_none() || !key.pinned.is_empty() {
                        state.cache.remember_failure(key.clone(), text.clone());
                    }
                }
                // The key of the last attempt: with the values it held.
                let key = match tried {
                    Some(pin) if key.pinned.is_empty() => self.key_at(&shapes, inputs, Some(&pin)),
                    _ => key,
                };
                self.event(
                    &mut state,
                    EventKind::CompileFailed,
                    &key,
                    e.to_string(),
                    ms,
                );
                return Err(e);
            }
        };
        let key = match pinned {
            Some(pin) if key.pinned.is_empty() => {
                let key = self.key_at(&shapes, inputs, Some(&pin));
                state.cache.set_pinned_inputs(shapes, pin);
                key
            }
            _ => key,
        };
        let plan = Arc::new(plan);
        match origin {
            disk::Origin::Compiled => {
                state.compiles += 1;
                state.compile_ms += ms;
                let level = if self.disk.is_some() {
                    "disk"
                } else {
                    "memory"
                };
                self.event_at(&mut state, EventKind::Compile, &key, reason, ms, level);
                self.budget_warnings(&mut state, &key);
            }
            disk::Origin::Disk { ms, reason } => {
                state.disk_hits += 1;
                self.event_at(&mut state, EventKind::Hit, &key, reason, ms, "disk");
            }
        }
        for gone in state.cache.insert(key, Arc::clone(&plan)) {
            state.evictions += 1;
            self.event(&mut state, EventKind::Evict, &gone, String::new(), 0.0);
        }
        Ok(plan)
    }

    /// A module to compile: the one loaded when the session was made, the
    /// first time, then a fresh load.
    fn take_module(&self) -> Result<(Context, Operation), SessionError> {
        match lock(&self.spare).take() {
            Some(m) => Ok(m),
            None => (self.source)().map_err(SessionError::Load),
        }
    }

    /// Compiles a plan for `inputs` (of `shapes`). With `pin`, the inputs
    /// it marks are constants of the plan. Without, a compile that needs
    /// input values tries again with the small integer inputs as constants,
    /// then with every small input ([`compiled::pinnable`]). Returns the
    /// inputs the plan holds (on failure: those the last attempt held).
    /// With `lengths`, the plan masks the padding of its buckets and takes
    /// the real size of each of these symbols after the inputs
    /// ([`Session::mask_padding`]).
    fn compile(
        &self,
        shapes: &[Vec<usize>],
        inputs: &[Tensor],
        pin: Option<Vec<bool>>,
        lengths: &[String],
        notes: &std::cell::RefCell<Vec<disk::DiskNote>>,
    ) -> Attempt {
        let (function, pipeline) = (&self.options.function, &self.options.pipeline);
        let ints: Vec<bool> = inputs
            .iter()
            .map(|t| t.dtype().is_int() && compiled::pinnable(t))
            .collect();
        let all: Vec<bool> = inputs.iter().map(compiled::pinnable).collect();
        // The real sizes the masks read are inputs of the plan: any value
        // stands for them while it compiles (they are never constants).
        let mut with_lengths = inputs.to_vec();
        let mut shapes_with_lengths = shapes.to_vec();
        for _ in lengths {
            with_lengths.push(Tensor::scalar_i64(crate::DType::I64, 0));
            shapes_with_lengths.push(Vec::new());
        }
        let (inputs, shapes) = (&with_lengths[..], &shapes_with_lengths[..]);
        let attempt = |pin: Option<&[bool]>| -> Result<CompiledModel, Failure> {
            let (mut ctx, module) = self.take_module().map_err(Failure::Load)?;
            if !lengths.is_empty() {
                let model_shapes = &shapes[..shapes.len() - lengths.len()];
                self.mask_padding(&mut ctx, module, model_shapes, lengths)
                    .map_err(Failure::Load)?;
            }
            let pin: Option<Vec<bool>> = pin.map(|p| {
                let mut p = p.to_vec();
                p.resize(inputs.len(), false);
                p
            });
            let pin = pin.as_deref();
            if let Some(disk) = &self.disk {
                return self
                    .compile_to_disk(disk, &mut ctx, module, inputs, pin, notes)
                    .map_err(|e| Failure::Compile(Box::new((ctx, e))));
            }
            let result = match pin {
                Some(pin) => compiled::compile_pinned(
                    &mut ctx,
                    module,
                    function,
                    inputs,
                    pin,
                    self.threads,
                    pipeline,
                ),
                None => compiled::compile_with(
                    &mut ctx,
                    module,
                    function,
                    shapes,
                    self.threads,
                    pipeline,
                ),
            };
            result.map_err(|e| Failure::Compile(Box::new((ctx, e))))
        };
        let fail = |f: Failure, pin: Option<Vec<bool>>| {
            let e = match f {
                Failure::Load(e) => e,
                Failure::Compile(b) => SessionError::Compile(render_compile_error(&b.0, b.1)),
            };
            (e, pin)
        };
        let origin = disk::Origin::Compiled;
        if let Some(pin) = pin {
            return match attempt(Some(&pin)) {
                Ok(plan) => Ok((plan, Some(pin), origin)),
                Err(f) => Err(fail(f, Some(pin))),
            };
        }
        let mut last = match attempt(None) {
            Ok(plan) => return Ok((plan, None, origin)),
            Err(f) => (f, None),
        };
        for pin in [ints, all] {
            let retry =
                matches!(&last.0, Failure::Compile(b) if compiled::needs_input_values(&b.1));
            if !self.options.pin_inputs || !retry {
                break;
            }
            if !pin.contains(&true) || last.1.as_ref() == Some(&pin) {
                continue;
            }
            match attempt(Some(&pin)) {
                Ok(plan) => return Ok((plan, Some(pin), disk::Origin::Compiled)),
                Err(f) => last = (f, Some(pin)),
            }
        }
        Err(fail(last.0, last.1))
    }
}

/// A compiled plan and the inputs it holds as constants, or why it did not
/// compile and the inputs the last attempt held.
type Attempt =
    Result<(CompiledModel, Option<Vec<bool>>, disk::Origin), (SessionError, Option<Vec<bool>>)>;

/// Why one compile attempt failed.
enum Failure {
    /// The model could not be loaded again.
    Load(SessionError),
    /// It did not compile (the diagnostics refer to this context).
    Compile(Box<(Context, CompileError)>),
}

/// A compile error as text: each diagnostic (and note) on its own line,
/// `location: severity: message`.
pub fn render_compile_error(ctx: &Context, e: CompileError) -> String {
    match e {
        CompileError::Diagnostics(d) => render_diagnostics(ctx, &d),
        CompileError::Host(h) => match h.diagnostic() {
            Some(d) => render_diagnostics(ctx, std::slice::from_ref(d)),
            None => h.to_string(),
        },
        other => other.to_string(),
    }
}

/// `diags` as `location: severity: message` lines, notes included (a
/// follow-up error attached as a note is still an error).
pub fn render_diagnostics(ctx: &Context, diags: &[Diagnostic]) -> String {
    let mut lines = Vec::new();
    for d in diags {
        for (i, part) in std::iter::once(d).chain(&d.notes).enumerate() {
            let severity = match (i, part.severity) {
                (_, strata_ir::Severity::Error) => "error",
                (0, strata_ir::Severity::Warning) => "warning",
                (0, strata_ir::Severity::Remark) => "remark",
                (0, _) => "error",
                _ => "note",
            };
            let location = strata_ir::diagnostics::describe_location(ctx, part.loc);
            lines.push(format!("{location}: {severity}: {}", part.message));
        }
    }
    lines.join("\n")
}

/// The `onnx.name` of each argument (`key` = `arg_attrs`) or result
/// (`res_attrs`) of `func`, else `<fallback>_<i>`.
pub fn io_names(
    ctx: &Context,
    func: Operation,
    key: &str,
    fallback: &str,
    count: usize,
) -> Vec<String> {
    let attrs = strata_ir::ods::inherent_attr(ctx, func, key);
    (0..count)
        .map(|i| {
            attrs
                .and_then(|a| match ctx.attr_kind(a) {
                    strata_ir::AttrKind::Array(items) => items.get(i).copied(),
                    _ => None,
                })
                .and_then(|d| {
                    ctx.dictionary_entries(d)
                        .iter()
                        .find(|(k, _)| ctx.ident_str(*k) == "onnx.name")
                        .and_then(|(_, v)| match ctx.attr_kind(*v) {
                            strata_ir::AttrKind::String { value, .. } => {
                                Some(String::from_utf8_lossy(value).into_owned())
                            }
                            _ => None,
                        })
                })
                .unwrap_or_else(|| format!("{fallback}_{i}"))
        })
        .collect()
}
