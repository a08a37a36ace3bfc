//! `inline`: inline calls to symbols whose body can be copied, as MLIR's
//! Inliner pass (same options).
//!
//! A call (an op with the `call` trait and a `callee` symbol) is inlined when
//! its callee is a `callable` op in the enclosing symbol table whose body is
//! a single block ending in a `return_like` op, with matching argument and
//! result types, made only of registered ops (an unregistered op may not be
//! legal to inline, as in MLIR), the call is inside a callable, and the
//! callee cannot reach the caller through calls (recursion, direct or not). The callees are first simplified with the `default-pipeline`, and
//! private callables left without uses are erased.

use strata_ir::attributes::AttrKind;
use strata_ir::pass::{Instrumentation, ListOption, OpPassManager, Pass, PassRegistry, Statistics};
use strata_ir::symbol_table::SymbolTable;
use strata_ir::{pass, Context, Diagnostic, IrMapping, Operation, Value, WalkOrder, WalkResult};

#[pass(
    name = "inline",
    display_name = "Inliner",
    summary = "Inline function calls"
)]
pub(crate) struct Inline {
    #[option(
        name = "default-pipeline",
        default = "canonicalize",
        description = "The optimizer pipeline used for callables that do not have a dedicated optimizer pipeline in opPipelineList"
    )]
    default_pipeline: String,
    #[option(
        name = "op-pipelines",
        description = "Callable operation specific optimizer pipelines (in the form of `dialect.op(pipeline)`)"
    )]
    op_pipelines: ListOption<String>,
    #[option(
        name = "max-iterations",
        default = 4,
        description = "Maximum number of iterations when inlining within an SCC"
    )]
    max_iterations: u64,
    #[option(
        name = "inlining-threshold",
        default = 4294967295,
        description = "If the ratio between the number of the operations in the callee and the number of the operations in the caller exceeds this value (in percentage), then the callee is not inlined even if it is legal to inline it"
    )]
    inlining_threshold: u64,
}

impl Pass for Inline {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        self.optimize_callables(ctx, op)?;
        let mut inlined = 0;
        for _ in 0..self.max_iterations.max(1) {
            let count = inline_once(ctx, op);
            inlined += count;
            if count == 0 {
                break;
            }
        }
        stats.add("num-inlined-calls", "Number of inlined calls", inlined);
        let erased = erase_dead_callables(ctx, op);
        stats.add("num-dce'd", "Number of dead callables erased", erased);
        Ok(())
    }
}

impl Inline {
    /// Run the default pipeline on each callable directly in `root`.
    fn optimize_callables(&self, ctx: &mut Context, root: Operation) -> Result<(), Diagnostic> {
        let text = self.default_pipeline.trim().to_string();
        if text.is_empty() {
            return Ok(());
        }
        let mut registry = PassRegistry::default();
        crate::register_all(&mut registry);
        let callables: Vec<Operation> = SymbolTable::ops_of(ctx, root)
            .into_iter()
            .filter(|&o| ctx.op_definition(o).is_some_and(|d| d.traits.callable))
            .collect();
        for callable in callables {
            let anchor = ctx.op_name_str(callable).to_string();
            let mut pm =
                OpPassManager::parse(&registry, &format!("{anchor}({text})")).map_err(|e| {
                    Diagnostic::error(
                        ctx.op_loc(root),
                        format!("invalid default pipeline `{text}`: {}", e.message),
                    )
                })?;
            let mut instrumentation = Instrumentation::default();
            pm.run(ctx, callable, &mut instrumentation)
                .map_err(|diags| {
                    diags
                        .into_iter()
                        .next()
                        .unwrap_or_else(|| Diagnostic::error(ctx.op_loc(root), "inlining failed"))
                })?;
        }
        Ok(())
    }
}

/// Inline every inlinable call nested in `root` once; returns how many.
fn inline_once(ctx: &mut Context, root: Operation) -> u64 {
    let calls: Vec<Operation> = ctx
        .nested_ops(root, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&o| ctx.op_definition(o).is_some_and(|d| d.traits.call))
        .collect();
    let graph = CallGraph::new(ctx, root);
    let mut count = 0;
    for call in calls {
        if ctx.op_parent_block(call).is_none() {
            continue;
        }
        // Only calls inside a callable are inlined (not ones at module level).
        let Some(caller) = enclosing_callable(ctx, call) else {
            continue;
        };
        let Some(callee) = resolve_callee(ctx, call) else {
            continue;
        };
        // Callees in the caller's SCC (recursion, direct or not) are not
        // inlined, as in MLIR: that would never end.
        if graph.reaches(callee, caller) {
            continue;
        }
        if inline_call(ctx, call, callee) {
            count += 1;
        }
    }
    count
}

/// The closest `callable` op enclosing `op`.
fn enclosing_callable(ctx: &Context, op: Operation) -> Option<Operation> {
    let mut current = ctx.op_parent_op(op);
    while let Some(parent) = current {
        if ctx.op_definition(parent).is_some_and(|d| d.traits.callable) {
            return Some(parent);
        }
        current = ctx.op_parent_op(parent);
    }
    None
}

/// The callee of `call`, looked up from the nearest symbol table around it.
pub(crate) fn resolve_callee(ctx: &Context, call: Operation) -> Option<Operation> {
    let callee = ctx.op_attr_any(call, "callee")?;
    let mut scope = ctx.op_parent_op(call);
    while let Some(op) = scope {
        if ctx.is_symbol_table(op) {
            break;
        }
        scope = ctx.op_parent_op(op);
    }
    let target = SymbolTable::lookup_ref(ctx, scope?, callee)?;
    ctx.op_definition(target)
        .is_some_and(|d| d.traits.callable)
        .then_some(target)
}

/// Which callables call which (directly), to detect recursion.
struct CallGraph {
    edges: rustc_hash::FxHashMap<Operation, Vec<Operation>>,
}

impl CallGraph {
    fn new(ctx: &Context, root: Operation) -> Self {
        let mut edges: rustc_hash::FxHashMap<Operation, Vec<Operation>> = Default::default();
        for op in ctx.nested_ops(root, WalkOrder::PreOrder) {
            if !ctx.op_definition(op).is_some_and(|d| d.traits.call) {
                continue;
            }
            if let (Some(caller), Some(callee)) =
                (enclosing_callable(ctx, op), resolve_callee(ctx, op))
            {
                edges.entry(caller).or_default().push(callee);
            }
        }
        CallGraph { edges }
    }

    /// Whether `from` reaches `to` through calls (including `from == to`).
    fn reaches(&self, from: Operation, to: Operation) -> bool {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![from];
        while let Some(op) = stack.pop() {
            if op == to {
                return true;
            }
            if seen.insert(op) {
                stack.extend(self.edges.get(&op).into_iter().flatten().copied());
            }
        }
        false
    }
}

/// Copy `callee`'s body in place of `call`; false (and no change) when it
/// cannot be inlined.
fn inline_call(ctx: &mut Context, call: Operation, callee: Operation) -> bool {
    let Some(&region) = ctx.op_regions(callee).first() else {
        return false;
    };
    let mut blocks = ctx.region_blocks(region);
    let (Some(body), None) = (blocks.next(), blocks.next()) else {
        return false;
    };
    let Some(terminator) = ctx.block_last_op(body) else {
        return false;
    };
    if !ctx
        .op_definition(terminator)
        .is_some_and(|d| d.traits.return_like)
    {
        return false;
    }
    let legal = !ctx
        .walk(callee, WalkOrder::PreOrder, |o| {
            if ctx.op_definition(o).is_some() {
                WalkResult::Advance
            } else {
                WalkResult::Interrupt
            }
        })
        .was_interrupted();
    let args: Vec<Value> = ctx.operands(call).collect();
    let params: Vec<Value> = ctx.block_args(body).collect();
    let returned: Vec<Value> = ctx.operands(terminator).collect();
    let types_match = args.len() == params.len()
        && args
            .iter()
            .zip(&params)
            .all(|(a, p)| ctx.value_type(*a) == ctx.value_type(*p))
        && returned.len() == ctx.num_results(call)
        && returned
            .iter()
            .zip(ctx.results(call))
            .all(|(r, c)| ctx.value_type(*r) == ctx.value_type(c));
    if !legal || !types_match {
        return false;
    }
    let mut mapping = IrMapping::default();
    for (param, arg) in params.iter().zip(&args) {
        mapping.map_value(*param, *arg);
    }
    let body_ops: Vec<Operation> = ctx.block_ops(body).filter(|&o| o != terminator).collect();
    for op in body_ops {
        let copy = ctx.clone_op(op, &mut mapping);
        ctx.insert_op_before(call, copy);
    }
    let results: Vec<Value> = ctx.results(call).collect();
    for (result, value) in results.into_iter().zip(returned) {
        let replacement = mapping.lookup_value(value);
        ctx.replace_all_uses_with(result, replacement);
    }
    ctx.erase_op(call);
    true
}

/// Erase private callables that nothing references, in `root`'s symbol table
/// and in every symbol table nested in it. Uses are looked for in all of
/// `root` and match by any name on a reference's path, so `@inner::@f` from
/// outside keeps `@inner`'s private `@f` (as mlir-opt does).
fn erase_dead_callables(ctx: &mut Context, root: Operation) -> u64 {
    let tables: Vec<Operation> = ctx
        .collect_ops(root, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&o| ctx.is_symbol_table(o))
        .collect();
    // Innermost tables first (reverse pre-order): a table is settled before
    // its parent may erase the op that holds it.
    tables
        .into_iter()
        .rev()
        .map(|t| erase_dead_callables_in(ctx, root, t))
        .sum()
}

fn erase_dead_callables_in(ctx: &mut Context, root: Operation, table: Operation) -> u64 {
    let mut erased = 0;
    loop {
        let candidates: Vec<Operation> = SymbolTable::ops_of(ctx, table)
            .into_iter()
            .filter(|&o| ctx.op_definition(o).is_some_and(|d| d.traits.callable))
            .filter(|&o| ctx.symbol_visibility(o) == Some(b"private"))
            .collect();
        let dead: Vec<Operation> = candidates
            .into_iter()
            .filter(|&c| {
                let Some(name) = ctx.symbol_name(c).map(<[u8]>::to_vec) else {
                    return false;
                };
                !references(ctx, root, c, &name)
            })
            .collect();
        if dead.is_empty() {
            return erased;
        }
        for op in dead {
            ctx.erase_op(op);
            erased += 1;
        }
    }
}

/// Whether anything in `root` other than `symbol` itself references `name`.
fn references(ctx: &Context, root: Operation, symbol: Operation, name: &[u8]) -> bool {
    let refers = |o: Operation| {
        let mut found = false;
        let mut stack = vec![ctx.op_attr_dict(o)];
        stack.extend(ctx.op_properties(o));
        while let Some(a) = stack.pop() {
            match ctx.attr_kind(a) {
                AttrKind::SymbolRef { root, nested } => {
                    found |= &root[..] == name || nested.iter().any(|n| &n[..] == name);
                }
                AttrKind::Array(items) => stack.extend(items.iter().copied()),
                AttrKind::Dictionary(entries) => stack.extend(entries.iter().map(|(_, v)| *v)),
                _ => {}
            }
        }
        found
    };
    ctx.walk(root, WalkOrder::PreOrder, |o| {
        if o == symbol {
            // What the symbol holds does not keep it alive.
            WalkResult::Skip
        } else if o != root && refers(o) {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    })
    .was_interrupted()
}
