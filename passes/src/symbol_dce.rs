//! `symbol-dce`: erase private symbols that nothing references, as MLIR's
//! SymbolDCE pass.
//!
//! Public symbols (no `sym_visibility`, or `"public"`) and every operation
//! that is not a symbol are live; a symbol referenced (through a symbol
//! reference attribute, anywhere in a live operation) by something live is
//! live. Private and nested symbols that stay dead are erased. An operation
//! with regions whose kind is unknown might be a symbol table, so symbol uses
//! cannot be computed and the pass fails, as MLIR's does.

use rustc_hash::FxHashSet;

use strata_ir::attributes::AttrKind;
use strata_ir::pass::{Pass, PassRegistration, Statistics};
use strata_ir::symbol_table::VISIBILITY_ATTR_NAME;
use strata_ir::{Attribute, Context, Diagnostic, Operation};

use crate::dce::nested_ops;

pub(crate) fn registration() -> PassRegistration {
    PassRegistration {
        name: "symbol-dce",
        description: "Eliminate dead symbols",
        options: &[],
        create: || Box::new(SymbolDce),
    }
}

struct SymbolDce;

impl Pass for SymbolDce {
    fn name(&self) -> &'static str {
        "symbol-dce"
    }

    fn display_name(&self) -> &'static str {
        "SymbolDCE"
    }

    fn description(&self) -> &'static str {
        "Eliminate dead symbols"
    }

    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let all = nested_ops(ctx, op);
        for &inner in &all {
            if ctx.op_definition(inner).is_none() && !ctx.op_regions(inner).is_empty() {
                return Err(Diagnostic::error(
                    ctx.op_loc(inner),
                    "operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses",
                )
                .on_op(inner));
            }
        }
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
        // Symbols directly in the table, by name.
        let symbols: Vec<(Vec<u8>, Operation)> =
            strata_ir::symbol_table::SymbolTable::ops_of(ctx, op)
                .into_iter()
                .filter_map(|o| ctx.symbol_name(o).map(|n| (n.to_vec(), o)))
                .collect();
        let is_private = |o: Operation| {
            ctx.op_attr_any(o, VISIBILITY_ATTR_NAME)
                .is_some_and(|v| !matches!(ctx.attr_kind(v), AttrKind::String { value, .. } if &value[..] == b"public"))
        };
        let mut live: FxHashSet<Operation> = FxHashSet::default();
        let mut worklist: Vec<Operation> = Vec::new();
        for &(_, o) in &symbols {
            if !is_private(o) {
                worklist.push(o);
            }
        }
        for o in strata_ir::symbol_table::SymbolTable::ops_of(ctx, op) {
            if !ctx.is_symbol(o) || ctx.symbol_name(o).is_none() {
                worklist.push(o);
            }
        }
        while let Some(o) = worklist.pop() {
            if !live.insert(o) {
                continue;
            }
            let mut refs = Vec::new();
            for inner in std::iter::once(o).chain(nested_ops(ctx, o)) {
                collect_refs(ctx, ctx.op_attr_dict(inner), &mut refs);
                if let Some(props) = ctx.op_properties(inner) {
                    collect_refs(ctx, props, &mut refs);
                }
            }
            for name in refs {
                if let Some(&(_, target)) = symbols.iter().find(|(n, _)| *n == name) {
                    worklist.push(target);
                }
            }
        }
        let mut erased = 0;
        for (_, o) in symbols {
            if !live.contains(&o) {
                ctx.erase_op(o);
                erased += 1;
            }
        }
        stats.add("num-dce'd", "Number of symbols DCE'd", erased);
        Ok(())
    }
}

/// Root names of every symbol reference inside `attr`.
fn collect_refs(ctx: &Context, attr: Attribute, out: &mut Vec<Vec<u8>>) {
    let mut stack = vec![attr];
    while let Some(a) = stack.pop() {
        match ctx.attr_kind(a) {
            AttrKind::SymbolRef { root, .. } => out.push(root.to_vec()),
            AttrKind::Array(items) => stack.extend(items.iter().copied()),
            AttrKind::Dictionary(entries) => stack.extend(entries.iter().map(|(_, v)| *v)),
            AttrKind::Distinct { referenced, .. } => stack.push(*referenced),
            _ => {}
        }
    }
}
