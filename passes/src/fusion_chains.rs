//! `graph-mark-fusion-chains`: find the op chains a recipe says must fuse
//! (`optimize.fusion.must_fuse`) and mark their ops, so that the kernel
//! lowering can check that each chain ended in one kernel.
//!
//! A chain is a list of op names (`conv2d+batch_norm+relu`, names as a
//! recipe writes them: `graph.relu`, `relu`, `BatchNormalization`). An
//! occurrence is a path of ops with those names in order, each one using a
//! result of the one before it. Every op of an occurrence gets an entry in
//! its discardable attribute [`ATTR`]: `{chain, occurrence, position}`.
//! `convert-graph-to-tensor` copies an op's entries onto the tensor ops it
//! lowers to, `tensor-fuse` keeps them on the ops it groups, and
//! `convert-tensor-to-kernel` reports a chain whose ops end in more than one
//! kernel as an error naming the chain, each op's kernels and why.

use strata_ir::pass::{ListOption, Pass, Statistics};
use strata_ir::{pass, AttrKind, Attribute, Context, Diagnostic, Operation, WalkOrder};

/// The discardable attribute that marks an op of a must-fuse chain.
pub const ATTR: &str = "strata.must_fuse";

/// One occurrence of a chain an op belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChainMark {
    /// The chain as written in the option (`conv2d+batch_norm+relu`).
    pub chain: String,
    /// Which occurrence of the chain (in program order).
    pub occurrence: i64,
    /// The op's position in the chain.
    pub position: i64,
}

/// The chain marks of `op` (empty when it has none).
pub fn marks(ctx: &Context, op: Operation) -> Vec<ChainMark> {
    let Some(attr) = ctx.op_attr(op, ATTR) else {
        return Vec::new();
    };
    let AttrKind::Array(items) = ctx.attr_kind(attr) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &item in items.iter() {
        let mut chain = None;
        let mut occurrence = None;
        let mut position = None;
        for &(key, value) in ctx.dictionary_entries(item) {
            match (ctx.ident_str(key), ctx.attr_kind(value)) {
                ("chain", AttrKind::String { value, .. }) => {
                    chain = Some(String::from_utf8_lossy(value).into_owned())
                }
                ("occurrence", AttrKind::Integer { value, .. }) => occurrence = Some(*value as i64),
                ("position", AttrKind::Integer { value, .. }) => position = Some(*value as i64),
                _ => {}
            }
        }
        if let (Some(chain), Some(occurrence), Some(position)) = (chain, occurrence, position) {
            out.push(ChainMark {
                chain,
                occurrence,
                position,
            });
        }
    }
    out
}

/// The attribute value for `marks`.
pub fn marks_attr(ctx: &mut Context, marks: &[ChainMark]) -> Attribute {
    let i64t = ctx.integer_type(64);
    let items = marks
        .iter()
        .map(|m| {
            let entries = vec![
                (ctx.ident("chain"), ctx.string_attr(&m.chain)),
                (
                    ctx.ident("occurrence"),
                    ctx.integer_attr(i64t, i128::from(m.occurrence)),
                ),
                (
                    ctx.ident("position"),
                    ctx.integer_attr(i64t, i128::from(m.position)),
                ),
            ];
            ctx.dictionary_attr(entries)
        })
        .collect();
    ctx.array_attr(items)
}

/// Adds `more` to the marks of `op`.
pub fn add_marks(ctx: &mut Context, op: Operation, more: &[ChainMark]) {
    let mut all = marks(ctx, op);
    for m in more {
        if !all.contains(m) {
            all.push(m.clone());
        }
    }
    let attr = marks_attr(ctx, &all);
    ctx.set_op_attr(op, ATTR, attr);
}

#[pass(
    name = "graph-mark-fusion-chains",
    display_name = "GraphMarkFusionChains",
    summary = "Mark the op chains that must end in one kernel (a recipe's must_fuse)"
)]
pub(crate) struct GraphMarkFusionChains {
    #[option(
        name = "chains",
        description = "Chains of op names joined by '+' (conv2d+batch_norm+relu)"
    )]
    chains: ListOption<String>,
}

impl Pass for GraphMarkFusionChains {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let funcs: Vec<Operation> = ctx
            .nested_ops(root, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| ctx.op_name_str(o) == "func.func")
            .collect();
        let mut found = 0u64;
        for text in self.chains.iter() {
            let names: Vec<&str> = text.split('+').map(str::trim).collect();
            if names.iter().any(|n| n.is_empty()) {
                return Err(Diagnostic::op_error(
                    ctx,
                    root,
                    format!("graph-mark-fusion-chains: chain '{text}' has an empty op name"),
                ));
            }
            // Names no dialect defines never match (the recipe loader warns).
            let resolved: Vec<Option<&'static str>> = names
                .iter()
                .map(|n| strata_dialects::op_names::resolve(ctx, n))
                .collect();
            let Some(resolved) = resolved.into_iter().collect::<Option<Vec<_>>>() else {
                continue;
            };
            let mut occurrence = 0i64;
            for &f in &funcs {
                for path in occurrences(ctx, f, &resolved) {
                    for (position, &op) in path.iter().enumerate() {
                        let mark = ChainMark {
                            chain: text.clone(),
                            occurrence,
                            position: position as i64,
                        };
                        add_marks(ctx, op, &[mark]);
                    }
                    occurrence += 1;
                }
            }
            found += occurrence as u64;
        }
        stats.add(
            "num-occurrences",
            "Number of chain occurrences marked",
            found,
        );
        Ok(())
    }
}

/// The paths of ops in `func` named `names` in order, each using a result
/// of the one before.
fn occurrences(ctx: &Context, func: Operation, names: &[&str]) -> Vec<Vec<Operation>> {
    let mut out = Vec::new();
    for op in ctx.nested_ops(func, WalkOrder::PreOrder) {
        if ctx.op_name_str(op) != names[0] {
            continue;
        }
        let mut path = vec![op];
        for &next in &names[1..] {
            let Some(&last) = path.last() else { break };
            let user = ctx
                .results(last)
                .flat_map(|r| ctx.uses(r).map(|u| u.op).collect::<Vec<_>>())
                .find(|&u| ctx.op_name_str(u) == next);
            match user {
                Some(u) => path.push(u),
                None => break,
            }
        }
        if path.len() == names.len() {
            out.push(path);
        }
    }
    out
}
