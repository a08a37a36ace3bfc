//! `symbol-dce`: erase private symbols that nothing references, as MLIR's
//! SymbolDCE pass.
//!
//! Liveness starts from every operation of the anchor symbol table that is
//! not a discardable symbol (a registered symbol whose visibility is not
//! public); in a hidden table (the top level, an unnamed or a private one)
//! nested-visibility symbols start dead too, otherwise only private ones do.
//! A live operation makes live every symbol its references name, with every
//! symbol on a nested path (`@a::@b`), resolved in the enclosing table; a live
//! symbol table has its own liveness computed the same way. Dead discardable
//! symbols are then erased from every symbol table under the anchor. A live
//! operation that might be an unknown symbol table (one region, dialect
//! not registered) makes symbol uses uncomputable, and the pass fails, as MLIR's does.

use rustc_hash::FxHashSet;

use strata_ir::attributes::AttrKind;
use strata_ir::pass::{Pass, Statistics};
use strata_ir::symbol_table::SymbolTable;
use strata_ir::{pass, Attribute, Context, Diagnostic, Operation, WalkOrder, WalkResult};

#[pass(
    name = "symbol-dce",
    display_name = "SymbolDCE",
    summary = "Eliminate dead symbols"
)]
pub(crate) struct SymbolDce;

impl Pass for SymbolDce {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        if !ctx.is_symbol_table(op) {
            return Err(Diagnostic::error(
                ctx.op_loc(op),
                format!(
                    "'{}' op  was scheduled to run under SymbolDCE, but does not define a symbol table",
                    ctx.op_name_str(op)
                ),
            )
            .on_op(op));
        }
        let mut live = FxHashSet::default();
        // The anchor is hidden unless it is a nested symbol that is not
        // private (something outside may name its symbols), as in MLIR.
        let hidden = ctx.op_parent_op(op).is_none() || !ctx.is_symbol(op) || is_private(ctx, op);
        compute_liveness(ctx, op, hidden, &mut live)?;

        // Erase what stayed dead, innermost symbol tables first.
        let tables: Vec<Operation> = ctx
            .collect_ops(op, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| ctx.is_symbol_table(o))
            .collect();
        let mut erased = 0;
        for table in tables.into_iter().rev() {
            for o in SymbolTable::ops_of(ctx, table) {
                if is_discardable(ctx, o) && !live.contains(&o) {
                    ctx.erase_op(o);
                    erased += 1;
                }
            }
        }
        stats.add("num-dce'd", "Number of symbols DCE'd", erased);
        Ok(())
    }
}

fn is_private(ctx: &Context, op: Operation) -> bool {
    ctx.symbol_visibility(op) == Some(b"private")
}

/// A symbol that may be erased once nothing uses it: any registered symbol
/// that is not public (MLIR's `canDiscardOnUseEmpty`).
fn is_discardable(ctx: &Context, op: Operation) -> bool {
    ctx.is_symbol(op)
        && ctx.symbol_name(op).is_some()
        && ctx.symbol_visibility(op).is_some_and(|v| v != b"public")
}

/// Mark the live symbols of `table` and, through the live symbol tables in
/// it, of the tables nested inside (MLIR's `computeLiveness`). In a `hidden`
/// table (private, unnamed, or the top level) every discardable symbol
/// starts dead; otherwise only private ones do.
fn compute_liveness(
    ctx: &Context,
    table: Operation,
    hidden: bool,
    live: &mut FxHashSet<Operation>,
) -> Result<(), Diagnostic> {
    let mut worklist = Vec::new();
    for o in SymbolTable::ops_of(ctx, table) {
        let starts_dead = is_discardable(ctx, o) && (hidden || is_private(ctx, o));
        if !starts_dead && live.insert(o) {
            worklist.push(o);
        }
    }
    while let Some(o) = worklist.pop() {
        if ctx.is_symbol_table(o) {
            let nested_hidden = hidden || !ctx.is_symbol(o) || is_private(ctx, o);
            compute_liveness(ctx, o, nested_hidden, live)?;
        }
        let Some(uses) = symbol_uses(ctx, o) else {
            return Err(Diagnostic::error(
                ctx.op_loc(o),
                "operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses",
            )
            .on_op(o));
        };
        for reference in uses {
            // Every symbol on the path of `@a::@b` is live; references to
            // unknown symbols are ignored.
            for target in resolve_path(ctx, table, reference) {
                if live.insert(target) {
                    worklist.push(target);
                }
            }
        }
    }
    Ok(())
}

/// An op MLIR cannot see into: one region, and no registered dialect.
fn is_potentially_unknown_symbol_table(ctx: &Context, op: Operation) -> bool {
    let name = ctx.op_name_str(op);
    let dialect = name.split_once('.').map_or("", |(d, _)| d);
    ctx.op_regions(op).len() == 1 && !ctx.registry().has_dialect(dialect)
}

/// The symbol references held by `op` and the ops nested in it, without
/// entering nested symbol tables (their uses are scoped to them); `None` when
/// an op that might be an unknown symbol table is met.
fn symbol_uses(ctx: &Context, op: Operation) -> Option<Vec<Attribute>> {
    symbol_uses_by(ctx, op, |_| true)
}

/// [`symbol_uses`], counting only the references held by the ops `counts`
/// accepts (the walk still goes into the others).
pub(crate) fn symbol_uses_by(
    ctx: &Context,
    op: Operation,
    counts: impl Fn(Operation) -> bool,
) -> Option<Vec<Attribute>> {
    let mut refs = Vec::new();
    let walked = ctx.walk(op, WalkOrder::PreOrder, |o| {
        if is_potentially_unknown_symbol_table(ctx, o) {
            return WalkResult::Interrupt;
        }
        if counts(o) {
            collect_refs(ctx, ctx.op_attr_dict(o), &mut refs);
            if let Some(props) = ctx.op_properties(o) {
                collect_refs(ctx, props, &mut refs);
            }
        }
        // A symbol table is a scope of its own: its uses are not ours.
        if ctx.is_symbol_table(o) {
            WalkResult::Skip
        } else {
            WalkResult::Advance
        }
    });
    (!walked.was_interrupted()).then_some(refs)
}

/// The ops named along `reference` (`@a::@b` gives `@a` and `@a::@b`),
/// looked up from `table`; empty when any step does not resolve.
fn resolve_path(ctx: &Context, table: Operation, reference: Attribute) -> Vec<Operation> {
    let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(reference) else {
        return Vec::new();
    };
    let mut path = Vec::new();
    let Some(mut op) = SymbolTable::new(ctx, table).lookup(root) else {
        return path;
    };
    path.push(op);
    for name in nested.iter() {
        if !ctx.is_symbol_table(op) {
            return Vec::new();
        }
        match SymbolTable::new(ctx, op).lookup(name) {
            Some(next) => op = next,
            None => return Vec::new(),
        }
        path.push(op);
    }
    path
}

/// Every symbol reference inside `attr`.
fn collect_refs(ctx: &Context, attr: Attribute, out: &mut Vec<Attribute>) {
    let mut stack = vec![attr];
    while let Some(a) = stack.pop() {
        match ctx.attr_kind(a) {
            AttrKind::SymbolRef { .. } => out.push(a),
            AttrKind::Array(items) => stack.extend(items.iter().copied()),
            AttrKind::Dictionary(entries) => stack.extend(entries.iter().map(|(_, v)| *v)),
            AttrKind::Distinct { referenced, .. } => stack.push(*referenced),
            _ => {}
        }
    }
}
