//! `graph-specialize`: gives the symbolic dimensions of the functions'
//! arguments sizes (a shape bucket), so that a pipeline whose conversions
//! need static shapes runs on a model with a symbolic batch or sequence:
//! `strata-opt --pass-pipeline='builtin.module(graph-specialize{dims=batch=8},graph-infer-shapes,...)'`.

use std::collections::BTreeMap;

use strata_dialects::graph::shape::{shape_of, tensor_type, Dim, Shape};
use strata_ir::pass::{ListOption, Pass, Statistics};
use strata_ir::{pass, Context, Diagnostic, Operation, WalkOrder};

#[pass(
    name = "graph-specialize",
    display_name = "GraphSpecialize",
    summary = "Give the symbolic dimensions of function arguments sizes (SYM=N)"
)]
pub(crate) struct GraphSpecialize {
    #[option(
        name = "dims",
        description = "The size of each dimension symbol, SYM=N (batch=8,seq=16)"
    )]
    dims: ListOption<String>,
}

impl Pass for GraphSpecialize {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let mut sizes: BTreeMap<String, i64> = BTreeMap::new();
        for spec in self.dims.iter() {
            let parsed = spec
                .split_once('=')
                .and_then(|(s, n)| Some((s.trim(), n.trim().parse::<i64>().ok()?)))
                .filter(|(s, n)| !s.is_empty() && *n >= 0);
            let Some((sym, n)) = parsed else {
                return Err(Diagnostic::op_error(
                    ctx,
                    root,
                    format!("graph-specialize: '{spec}': expected SYM=N with N >= 0"),
                ));
            };
            sizes.insert(sym.to_string(), n);
        }
        let funcs: Vec<Operation> = ctx
            .nested_ops(root, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| ctx.op_name_str(o) == "func.func")
            .collect();
        let mut specialized = 0u64;
        for f in funcs {
            let Some(body) = ctx
                .op_regions(f)
                .first()
                .and_then(|&r| ctx.region_entry_block(r))
            else {
                continue;
            };
            let args: Vec<_> = ctx.block_args(body).collect();
            let mut inputs = Vec::with_capacity(args.len());
            for a in args {
                let ty = ctx.value_type(a);
                let new = match shape_of(ctx, ty) {
                    Some((shape, element)) => match shape.dims() {
                        Some(dims) => {
                            let mut changed = false;
                            let dims: Vec<Dim> = dims
                                .iter()
                                .map(|d| match d {
                                    Dim::Sym(m) if m.syms.iter().all(|s| sizes.contains_key(s)) => {
                                        changed = true;
                                        // An overflowing size stays symbolic
                                        // (reported below).
                                        m.syms
                                            .iter()
                                            .try_fold(m.coeff, |p, s| p.checked_mul(sizes[s]))
                                            .map_or_else(|| d.clone(), Dim::Known)
                                    }
                                    other => other.clone(),
                                })
                                .collect();
                            if let Some(Dim::Sym(m)) = dims.iter().find(|d| {
                                matches!(d, Dim::Sym(m) if m.syms.iter().all(|s| sizes.contains_key(s)))
                            }) {
                                return Err(Diagnostic::op_error(
                                    ctx,
                                    f,
                                    format!("graph-specialize: the size of '{m}' overflows"),
                                ));
                            }
                            if changed {
                                specialized += 1;
                                tensor_type(ctx, &Shape::ranked(dims), element)
                            } else {
                                ty
                            }
                        }
                        None => ty,
                    },
                    None => ty,
                };
                ctx.set_value_type(a, new);
                inputs.push(new);
            }
            let results = strata_dialects::func::function_signature(ctx, f)
                .map(|(_, r)| r)
                .unwrap_or_default();
            let fn_type = ctx.function_type(inputs, results);
            let attr = ctx.type_attr(fn_type);
            ctx.set_op_property(f, "function_type", attr);
        }
        stats.add(
            "num-specialized",
            "Number of arguments given static sizes",
            specialized,
        );
        Ok(())
    }
}
