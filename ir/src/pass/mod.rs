//! Passes and pass managers, driven by MLIR's textual pipeline syntax.
//!
//! A [`Pass`] transforms the operation it runs on and what is nested in it,
//! never its parent or siblings. An [`OpPassManager`] is anchored on an
//! operation name (or `any`) and holds passes and nested pass managers; a
//! nested manager runs on each operation with its anchor name directly inside
//! the regions of the operation its parent runs on, as MLIR's
//! `OpToOpPassAdaptor` does.
//!
//! Threading: passes run on one thread. The `Context` owns every
//! operation, type and attribute in arenas that are mutated without locks;
//! running sibling isolated-from-above operations in parallel would need
//! per-thread interning or locking on every type and attribute lookup, which
//! costs the single-threaded path that compile-time measurements care about
//! most (see docs/passes.md).

mod bisect;
mod instrumentation;
pub mod options;
pub mod pipeline;

use std::collections::BTreeMap;

use crate::context::{Context, Operation};
use crate::diagnostics::Diagnostic;
pub use bisect::{Bisect, BisectStep, StepKind};
pub use instrumentation::{statistics_report, Instrumentation, TraceEvent};
pub use options::{
    set_option_value, ListOption, OptionKind, PassOptionDef, PassOptionValue, PassOptions,
};
use pipeline::PipelineElement;

/// What a pass is called and which options it takes: everything but what
/// it does. `#[pass]` (`strata_ir::pass` the macro) writes it from the pass
/// struct's declaration; see [`Pass`].
pub trait PassInfo {
    /// The name used in pipelines and on the command line (`cse`).
    fn name(&self) -> &'static str;
    /// The name shown in IR dumps and reports (`CSE`); defaults to `name`.
    fn display_name(&self) -> &'static str {
        self.name()
    }
    /// One-line description for `--list-passes`.
    fn description(&self) -> &'static str;
    /// The operation this pass must run on, or `None` for any operation.
    fn anchor(&self) -> Option<&'static str> {
        None
    }
    /// Whether the pass is one the pipeline cannot do without (a
    /// conversion of the descent): `--pass-bisect-limit` never skips it nor
    /// the patterns it applies, as LLVM's opt-bisect never skips a required
    /// pass. `#[pass(required = true)]`.
    fn required(&self) -> bool {
        false
    }
    /// The declared options, in declaration order (for `--list-passes`).
    fn option_defs(&self) -> &'static [PassOptionDef] {
        &[]
    }
    /// Set the option `name` from pipeline text (`None`: given bare, as a
    /// flag), with LLVM's messages (`no such option x`, `for the --x
    /// option: ...`).
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let _ = value;
        Err(format!("no such option {name}"))
    }
    /// The options with their current values as MLIR prints them inside
    /// `{...}` (sorted by name; see [`PassOptions::render`]); empty for a
    /// pass without options.
    fn render_options(&self) -> String {
        String::new()
    }
}

/// A transformation of one operation and what is nested in it.
///
/// A pass is a struct whose fields are its options, declared with
/// `#[pass]`, which writes its [`PassInfo`] and its
/// [`PassRegistration`]; what the pass does is its `run`:
///
/// ```
/// use strata_ir::pass::{ListOption, Pass, PassInfo, PassRegistry, Statistics};
/// use strata_ir::{pass, Context, Diagnostic, Operation};
///
/// /// Counts operations.
/// #[pass(name = "count-ops", display_name = "CountOps", summary = "Count the operations")]
/// struct CountOps {
///     #[option(name = "max-depth", default = 4, description = "How deep to look")]
///     max_depth: i64,
///     #[option(name = "skip", description = "Op names not to count")]
///     skip: ListOption<String>,
/// }
///
/// impl Pass for CountOps {
///     fn run(&mut self, ctx: &mut Context, op: Operation, stats: &mut Statistics) -> Result<(), Diagnostic> {
///         let n = ctx.nested_ops(op, strata_ir::WalkOrder::PreOrder).len();
///         stats.add("num-ops", "Number of operations", n as u64);
///         Ok(())
///     }
/// }
///
/// let mut registry = PassRegistry::default();
/// registry.register(CountOps::registration());
/// let mut pass = (registry.get("count-ops").expect("registered").create)();
/// pass.set_option("max-depth", Some("2")).expect("an integer");
/// assert_eq!(pass.render_options(), "max-depth=2 ");
/// assert_eq!(
///     pass.set_option("max-depth", Some("x")).unwrap_err(),
///     "for the --max-depth option: 'x' value invalid for long argument!"
/// );
/// ```
pub trait Pass: PassInfo {
    /// Run on `op`. An error stops the pipeline and is reported.
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        statistics: &mut Statistics,
    ) -> Result<(), Diagnostic>;
}

/// Counters a pass reports (`--mlir-pass-statistics`).
#[derive(Clone, Debug, Default)]
pub struct Statistics {
    entries: Vec<(&'static str, &'static str, u64)>,
}

impl Statistics {
    /// Add `amount` to the counter `name` (described by `description`).
    pub fn add(&mut self, name: &'static str, description: &'static str, amount: u64) {
        match self.entries.iter_mut().find(|(n, _, _)| *n == name) {
            Some(entry) => entry.2 += amount,
            None => self.entries.push((name, description, amount)),
        }
    }

    /// The counters: (name, description, value).
    pub fn entries(&self) -> &[(&'static str, &'static str, u64)] {
        &self.entries
    }
}

/// One line of the statistics report: a pipeline or pass label, its depth,
/// and its counters (name, description, value).
pub type StatisticsEntry = (String, usize, Vec<(&'static str, &'static str, u64)>);

/// How a pass is made from its name.
#[derive(Clone, Copy)]
pub struct PassRegistration {
    /// The pipeline name.
    pub name: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// Its options (for `--list-passes`).
    pub options: &'static [PassOptionDef],
    /// A fresh instance with default options.
    pub create: fn() -> Box<dyn Pass>,
}

/// The passes known by name.
#[derive(Default)]
pub struct PassRegistry {
    passes: BTreeMap<&'static str, PassRegistration>,
}

impl PassRegistry {
    /// Register a pass.
    pub fn register(&mut self, registration: PassRegistration) {
        self.passes.insert(registration.name, registration);
    }

    /// A registered pass by name.
    pub fn get(&self, name: &str) -> Option<&PassRegistration> {
        self.passes.get(name)
    }

    /// All registered passes, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = &PassRegistration> {
        self.passes.values()
    }

    /// `--list-passes`: names, descriptions and options.
    pub fn describe(&self) -> String {
        use std::fmt::Write;
        let mut out = String::from("Available Passes:\n");
        for reg in self.iter() {
            let _ = writeln!(out, "  --{:<30} - {}", reg.name, reg.description);
            for opt in reg.options {
                let _ = writeln!(
                    out,
                    "    --{:<28} - {} ({}, default: {})",
                    format!("{}=<{}>", opt.name, opt.kind.describe()),
                    opt.help,
                    opt.kind.describe(),
                    if opt.default.is_empty() {
                        "none"
                    } else {
                        opt.default
                    }
                );
                if let OptionKind::Enum(words) = opt.kind {
                    let _ = writeln!(out, "      one of: {}", words.join(", "));
                }
            }
        }
        out
    }
}

/// An error building a pass manager from pipeline text, located in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineBuildError {
    /// Byte offset in the pipeline text, when the error has a position.
    pub offset: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl PipelineBuildError {
    /// The error rendered as MLIR's textual pipeline parser does: located
    /// in the body of the anchored pipeline, with its line and a caret.
    pub fn render(&self, text: &str) -> String {
        match self.offset {
            Some(offset) => pipeline::render_error(
                text,
                &pipeline::PipelineError {
                    offset,
                    message: self.message.clone(),
                },
            ),
            None => self.message.clone(),
        }
    }
}

enum Element {
    Pass {
        pass: Box<dyn Pass>,
        statistics: Statistics,
    },
    Nested(OpPassManager),
}

/// A pipeline of passes anchored on an operation name (or `any`).
pub struct OpPassManager {
    anchor: String,
    elements: Vec<Element>,
}

impl OpPassManager {
    /// An empty pass manager for operations named `anchor` (or `any`).
    pub fn new(anchor: impl Into<String>) -> Self {
        OpPassManager {
            anchor: anchor.into(),
            elements: Vec::new(),
        }
    }

    /// The operation name this manager runs on.
    pub fn anchor(&self) -> &str {
        &self.anchor
    }

    /// Number of passes and nested managers directly in this manager.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Whether the manager holds nothing.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// Add a pass; a pass restricted to another operation is an error.
    pub fn add_pass(&mut self, pass: Box<dyn Pass>) -> Result<(), String> {
        if let Some(anchor) = pass.anchor() {
            if anchor != self.anchor && self.anchor != "any" {
                return Err(format!(
                    "can't add pass '{}' restricted to '{anchor}' on a PassManager intended to run on '{}', did you intend to nest?",
                    pass.display_name(),
                    self.anchor
                ));
            }
        }
        self.elements.push(Element::Pass {
            pass,
            statistics: Statistics::default(),
        });
        Ok(())
    }

    /// Add a nested manager for operations named `anchor` and return it.
    pub fn nest(&mut self, anchor: impl Into<String>) -> &mut OpPassManager {
        self.elements
            .push(Element::Nested(OpPassManager::new(anchor)));
        match self.elements.last_mut() {
            Some(Element::Nested(pm)) => pm,
            _ => unreachable!("just pushed a nested pass manager"),
        }
    }

    /// Build from MLIR pipeline text: `builtin.module(func.func(cse),canonicalize{max-iterations=3})`.
    pub fn parse(registry: &PassRegistry, text: &str) -> Result<OpPassManager, PipelineBuildError> {
        let elements = pipeline::parse_pipeline(text).map_err(|e| PipelineBuildError {
            offset: Some(e.offset),
            message: e.message,
        })?;
        match elements.as_slice() {
            [PipelineElement::Nested {
                anchor, elements, ..
            }] => {
                // An empty anchor is `any`, as in MLIR.
                let anchor = if anchor.is_empty() { "any" } else { anchor.as_str() };
                let mut pm = OpPassManager::new(anchor);
                pm.add_elements(registry, elements)?;
                Ok(pm)
            }
            _ => Err(PipelineBuildError {
                offset: None,
                message: "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'".into(),
            }),
        }
    }

    /// Add the passes and nested managers of parsed pipeline text.
    pub fn add_elements(
        &mut self,
        registry: &PassRegistry,
        elements: &[PipelineElement],
    ) -> Result<(), PipelineBuildError> {
        for element in elements {
            match element {
                PipelineElement::Pass {
                    name,
                    options,
                    offset,
                } => {
                    let pass = create_pass(registry, name, options.as_deref(), *offset)?;
                    self.add_pass(pass).map_err(|message| PipelineBuildError {
                        offset: None,
                        message,
                    })?;
                }
                PipelineElement::Nested {
                    anchor, elements, ..
                } => {
                    let anchor = if anchor.is_empty() {
                        "any"
                    } else {
                        anchor.as_str()
                    };
                    self.nest(anchor).add_elements(registry, elements)?
                }
            }
        }
        Ok(())
    }

    /// The pipeline on one line, as MLIR prints it (options with their values).
    pub fn to_text(&self) -> String {
        pipeline::print_pipeline(&[self.to_element()])
    }

    /// The pipeline as MLIR's crash reproducer records it (top-level passes
    /// separated by `, `).
    pub fn to_reproducer_text(&self) -> String {
        match self.to_element() {
            PipelineElement::Nested { elements, .. } => {
                pipeline::print_reproducer_pipeline(&self.anchor, &elements)
            }
            element => pipeline::print_pipeline(&[element]),
        }
    }

    /// The pipeline as `--dump-pass-pipeline` prints it.
    pub fn to_pretty_text(&self) -> String {
        pipeline::print_pipeline_pretty(&[self.to_element()])
    }

    fn to_element(&self) -> PipelineElement {
        PipelineElement::Nested {
            anchor: self.anchor.clone(),
            elements: self
                .elements
                .iter()
                .map(|e| match e {
                    Element::Pass { pass, .. } => PipelineElement::Pass {
                        name: pass.name().to_string(),
                        options: Some(pass.render_options()).filter(|o| !o.is_empty()),
                        offset: 0,
                    },
                    Element::Nested(pm) => pm.to_element(),
                })
                .collect(),
            offset: 0,
        }
    }

    /// Run on `op`, which must be named as this manager's anchor.
    pub fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        instrumentation: &mut Instrumentation,
    ) -> Result<(), Vec<Diagnostic>> {
        if self.anchor != "any" && ctx.op_name_str(op) != self.anchor {
            let message = format!(
                "can't run '{}' pass manager on '{}' op",
                self.anchor,
                ctx.op_name_str(op)
            );
            return Err(vec![Diagnostic::error(ctx.op_loc(op), message)]);
        }
        instrumentation.clear_failed_pass();
        self.run_on(ctx, op, instrumentation, 0)
    }

    fn run_on(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        instrumentation: &mut Instrumentation,
        depth: usize,
    ) -> Result<(), Vec<Diagnostic>> {
        for element in &mut self.elements {
            // The element's address names this pass (or pipeline) instance
            // in the timing report while the manager runs.
            let key = std::ptr::from_ref::<Element>(element) as usize;
            match element {
                Element::Pass { pass, statistics } => {
                    if !ctx.bisect_begin_pass(pass.name(), pass.required(), op) {
                        continue;
                    }
                    let result =
                        instrumentation.run_pass(ctx, op, pass.as_mut(), statistics, key, depth);
                    ctx.bisect_end_pass(op);
                    result?;
                }
                Element::Nested(pm) => {
                    let targets: Vec<Operation> = ctx
                        .op_regions(op)
                        .iter()
                        .flat_map(|&r| ctx.region_blocks(r))
                        .flat_map(|b| ctx.block_ops(b))
                        .filter(|&o| pm.matches(ctx, o))
                        .collect();
                    if targets.is_empty() {
                        continue;
                    }
                    // A pass may only run on an op it cannot see past (MLIR's rule).
                    for &target in &targets {
                        let problem = match ctx.op_definition(target) {
                            None => Some("trying to schedule a pass on an unregistered operation"),
                            Some(d) if !d.traits.isolated_from_above => Some(
                                "trying to schedule a pass on an operation not marked as 'IsolatedFromAbove'",
                            ),
                            Some(_) => None,
                        };
                        if let Some(problem) = problem {
                            let message = format!("'{}' op {problem}", ctx.op_name_str(target));
                            return Err(vec![
                                Diagnostic::error(ctx.op_loc(target), message).on_op(target)
                            ]);
                        }
                    }
                    let label = format!("'{}' Pipeline", pm.anchor);
                    let scope = instrumentation.begin_scope(key, &label, depth);
                    let mut result = Ok(());
                    for target in targets {
                        result = pm.run_on(ctx, target, instrumentation, depth + 1);
                        if result.is_err() {
                            break;
                        }
                    }
                    instrumentation.end_scope(scope);
                    result?;
                }
            }
        }
        Ok(())
    }

    fn matches(&self, ctx: &Context, op: Operation) -> bool {
        if self.anchor == "any" {
            return ctx
                .op_definition(op)
                .is_some_and(|d| d.traits.isolated_from_above);
        }
        ctx.op_name_str(op) == self.anchor
    }

    /// The statistics of every pass, in pipeline order, for the report.
    pub fn statistics(&self) -> Vec<StatisticsEntry> {
        let mut out = Vec::new();
        self.collect_statistics(0, &mut out);
        out
    }

    fn collect_statistics(&self, depth: usize, out: &mut Vec<StatisticsEntry>) {
        out.push((format!("'{}' Pipeline", self.anchor), depth, Vec::new()));
        for element in &self.elements {
            match element {
                Element::Pass { pass, statistics } => out.push((
                    pass.display_name().to_string(),
                    depth + 1,
                    statistics.entries().to_vec(),
                )),
                Element::Nested(pm) => pm.collect_statistics(depth + 1, out),
            }
        }
    }
}

fn create_pass(
    registry: &PassRegistry,
    name: &str,
    options: Option<&str>,
    offset: usize,
) -> Result<Box<dyn Pass>, PipelineBuildError> {
    let Some(registration) = registry.get(name) else {
        return Err(PipelineBuildError {
            offset: Some(offset),
            message: format!("'{name}' does not refer to a registered pass or pass pipeline"),
        });
    };
    let mut pass = (registration.create)();
    if let Some(text) = options.filter(|t| !t.trim().is_empty()) {
        let failed = |why: String| PipelineBuildError {
            offset: None,
            message: format!(
                "{why}\n\nfailed to add `{name}` with options `{}`\n",
                text.trim()
            ),
        };
        for (key, value) in pipeline::split_options(text) {
            pass.set_option(&key, value.as_deref()).map_err(|why| {
                failed(if why.starts_with("no such option") {
                    format!("<Pass-Options-Parser>: {why}")
                } else {
                    why
                })
            })?;
        }
    }
    Ok(pass)
}
