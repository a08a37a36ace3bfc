//! `duplicate-function-elimination`: merge `func.func`s that are the same
//! but for their names, as MLIR's pass of that name.
//!
//! Two functions are the same when both have a body, their discardable
//! attributes are equal, their properties are equal but for `sym_name`,
//! and their bodies are structurally equivalent (locations ignored). The
//! first of each class in walk order stays; every symbol reference to the
//! others, anywhere in the module, is renamed to it, and the others are
//! erased.

use rustc_hash::FxHashMap;

use strata_ir::attributes::AttrKind;
use strata_ir::pass::{Pass, Statistics};
use strata_ir::{pass, Attribute, Context, Diagnostic, Operation, WalkOrder};

use crate::equivalence::Correspondence;

#[pass(
    name = "duplicate-function-elimination",
    display_name = "DuplicateFunctionEliminationPass",
    summary = "Deduplicate functions"
)]
pub(crate) struct DuplicateFunctionElimination;

impl Pass for DuplicateFunctionElimination {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let funcs: Vec<Operation> = ctx
            .collect_ops(op, WalkOrder::PostOrder)
            .into_iter()
            .filter(|&o| ctx.op_name_str(o) == "func.func")
            .collect();
        // Each function's representative: the first function it equals.
        let mut representatives: Vec<Operation> = Vec::new();
        let mut renamed: FxHashMap<Vec<u8>, Vec<u8>> = FxHashMap::default();
        let mut erased = Vec::new();
        for &func in &funcs {
            match representatives
                .iter()
                .find(|&&r| same_function(ctx, r, func))
            {
                Some(&repr) => {
                    let (Some(old), Some(new)) = (ctx.symbol_name(func), ctx.symbol_name(repr))
                    else {
                        continue;
                    };
                    renamed.insert(old.to_vec(), new.to_vec());
                    erased.push(func);
                }
                None => representatives.push(func),
            }
        }
        if erased.is_empty() {
            return Ok(());
        }
        for user in ctx.collect_ops(op, WalkOrder::PreOrder) {
            if erased.contains(&user) {
                continue;
            }
            if let Some(props) = ctx.op_properties(user) {
                let new = rename_refs(ctx, props, &renamed);
                ctx.set_op_properties(user, Some(new));
            }
            let attrs = ctx.op_attr_dict(user);
            let new = rename_refs(ctx, attrs, &renamed);
            ctx.set_op_attr_dict(user, new);
        }
        for &func in &erased {
            ctx.erase_op(func);
        }
        stats.add(
            "num-erased",
            "Number of duplicate functions erased",
            erased.len() as u64,
        );
        Ok(())
    }
}

/// MLIR's `DuplicateFuncOpEquivalenceInfo::isEqual`.
fn same_function(ctx: &Context, a: Operation, b: Operation) -> bool {
    let body = |f: Operation| ctx.op_regions(f).first().copied();
    let (Some(body_a), Some(body_b)) = (body(a), body(b)) else {
        return false;
    };
    if ctx.region_is_empty(body_a) || ctx.region_is_empty(body_b) {
        return false;
    }
    if ctx.op_attr_dict(a) != ctx.op_attr_dict(b) {
        return false;
    }
    let unnamed = |f: Operation| -> Vec<_> {
        ctx.op_properties(f)
            .map(|p| ctx.dictionary_entries(p).to_vec())
            .unwrap_or_default()
            .into_iter()
            .filter(|(name, _)| ctx.ident_str(*name) != "sym_name")
            .collect()
    };
    unnamed(a) == unnamed(b) && Correspondence::default().regions(ctx, body_a, body_b)
}

/// `attr` with every symbol reference whose root is a key of `renamed`
/// rooted at its value instead, inside arrays and dictionaries too.
fn rename_refs(
    ctx: &mut Context,
    attr: Attribute,
    renamed: &FxHashMap<Vec<u8>, Vec<u8>>,
) -> Attribute {
    match ctx.attr_kind(attr).clone() {
        AttrKind::SymbolRef { root, nested } => match renamed.get(root.as_ref()) {
            Some(new) => ctx.intern_attr(AttrKind::SymbolRef {
                root: new.clone().into_boxed_slice(),
                nested,
            }),
            None => attr,
        },
        AttrKind::Array(elements) => {
            let new: Vec<Attribute> = elements
                .iter()
                .map(|&e| rename_refs(ctx, e, renamed))
                .collect();
            if new.as_slice() == elements.as_ref() {
                attr
            } else {
                ctx.array_attr(new)
            }
        }
        AttrKind::Dictionary(entries) => {
            let new: Vec<_> = entries
                .iter()
                .map(|&(name, value)| (name, rename_refs(ctx, value, renamed)))
                .collect();
            if new.as_slice() == entries.as_ref() {
                attr
            } else {
                ctx.dictionary_attr(new)
            }
        }
        _ => attr,
    }
}
