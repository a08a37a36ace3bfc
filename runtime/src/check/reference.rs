//! `--check-reference f64`: the model run eagerly in f64, to say which
//! of graph mode and eager mode is further from the exact result.
//!
//! The reference is the model with every `f32` widened to `f64` (the
//! values, the function's signature, the constants), run by the
//! interpreter on the inputs widened the same way. Its outputs, compared
//! with each side's, say whether graph mode's divergence is an error (it
//! is further from exact than eager mode) or eager mode's own rounding.

use strata_ir::float::FloatKind;
use strata_ir::WalkOrder;
use strata_ir::{AttrKind, Attribute, Context, IrMapping, Operation, Type, TypeKind};

use super::Diff;
use crate::kernels::Tolerance;
use crate::{interp, DType, Tensor};

/// How far each side's output is from the f64 reference.
#[derive(Clone, Debug)]
pub struct Closeness {
    pub name: String,
    /// max |graph - reference| and max |eager - reference|.
    pub graph: f64,
    pub eager: f64,
}

impl Closeness {
    /// `graph`, `eager` or `tie` (within a tenth of the larger).
    pub fn closer(&self) -> &'static str {
        let (g, e) = (self.graph, self.eager);
        if (g - e).abs() <= 0.1 * g.max(e) {
            "tie"
        } else if g < e {
            "graph"
        } else {
            "eager"
        }
    }

    /// One line for a person.
    pub fn line(&self) -> String {
        let verdict = match self.closer() {
            "tie" => "both sides are as far from exact",
            "graph" => "graph mode is closer to exact: eager mode's own rounding is most of the difference",
            _ => "graph mode is further from exact than eager mode: the difference is graph mode's error",
        };
        format!(
            "against an f64 reference, {}: graph mode max|d| {:.3e}, eager mode max|d| {:.3e}: {verdict}",
            self.name, self.graph, self.eager
        )
    }
}

fn widen_type(ctx: &mut Context, ty: Type) -> Type {
    if ctx.float_kind(ty) == Some(FloatKind::F32) {
        return ctx.float_type(FloatKind::F64);
    }
    match ctx.type_kind(ty).clone() {
        TypeKind::RankedTensor { shape, element, .. }
            if ctx.float_kind(element) == Some(FloatKind::F32) =>
        {
            let f64 = ctx.float_type(FloatKind::F64);
            ctx.tensor_type(shape, f64)
        }
        TypeKind::Function { inputs, results } => {
            let inputs = inputs.into_iter().map(|t| widen_type(ctx, t)).collect();
            let results = results.into_iter().map(|t| widen_type(ctx, t)).collect();
            ctx.function_type(inputs, results)
        }
        _ => ty,
    }
}

/// `attr` widened, if it is f32 data or a type with f32 in it.
fn widen_attr(ctx: &mut Context, attr: Attribute) -> Option<Attribute> {
    match ctx.attr_kind(attr).clone() {
        AttrKind::DenseElements { ty, .. } => {
            let wide = widen_type(ctx, ty);
            if wide == ty {
                return None;
            }
            let t = interp::attr_tensor(ctx, attr).ok()?;
            let values = Tensor::from_f64_vec(DType::F64, t.shape(), &t.to_f64_vec());
            ctx.dense_elements_attr(wide, values.data().as_bytes().to_vec())
        }
        AttrKind::Type(ty) => {
            let wide = widen_type(ctx, ty);
            (wide != ty).then(|| ctx.type_attr(wide))
        }
        _ => None,
    }
}

/// A copy of `module` computing in f64 where it computed in f32.
fn widened(ctx: &mut Context, module: Operation) -> Operation {
    let mut mapping = IrMapping::default();
    let copy = ctx.clone_op(module, &mut mapping);
    for op in ctx.nested_ops(copy, WalkOrder::PreOrder) {
        for v in ctx.results(op).collect::<Vec<_>>() {
            let ty = ctx.value_type(v);
            let wide = widen_type(ctx, ty);
            ctx.set_value_type(v, wide);
        }
        let blocks: Vec<_> = ctx
            .op_regions(op)
            .to_vec()
            .into_iter()
            .flat_map(|r| ctx.region_blocks(r).collect::<Vec<_>>())
            .collect();
        for b in blocks {
            for v in ctx.block_args(b).collect::<Vec<_>>() {
                let ty = ctx.value_type(v);
                let wide = widen_type(ctx, ty);
                ctx.set_value_type(v, wide);
            }
        }
        if let Some(props) = ctx.op_properties(op) {
            for (name, a) in ctx.dictionary_entries(props).to_vec() {
                if let Some(w) = widen_attr(ctx, a) {
                    let name = ctx.ident_str(name).to_string();
                    ctx.set_op_property(op, &name, w);
                }
            }
        }
        let dict = ctx.op_attr_dict(op);
        for (name, a) in ctx.dictionary_entries(dict).to_vec() {
            if let Some(w) = widen_attr(ctx, a) {
                let name = ctx.ident_str(name).to_string();
                ctx.set_op_attr(op, &name, w);
            }
        }
    }
    copy
}

/// `function` of `module` run eagerly in f64 on `inputs` (f32 inputs
/// widened); the outputs, or why there are none.
pub fn f64_reference(
    ctx: &mut Context,
    module: Operation,
    function: &str,
    inputs: &[Tensor],
) -> Result<Vec<Tensor>, String> {
    let copy = widened(ctx, module);
    let result = (|| {
        let f = interp::lookup_function(ctx, copy, function)
            .ok_or_else(|| format!("no function @{function}"))?;
        strata_ir::verifier::verify(ctx, copy).map_err(|d| {
            format!(
                "the model widened to f64 is not valid: {}",
                d.first().map_or("", |d| d.message.as_str())
            )
        })?;
        let wide: Vec<Tensor> = inputs
            .iter()
            .map(|t| {
                if t.dtype() == DType::F32 {
                    Tensor::from_f64_vec(DType::F64, t.shape(), &t.to_f64_vec())
                } else {
                    t.clone()
                }
            })
            .collect();
        interp::run_function(ctx, f, wide).map_err(|e| e.to_string())
    })();
    ctx.erase_op(copy);
    result
}

/// Each output of `graph` and `eager` against the f64 `reference`.
pub fn closeness(
    names: &[String],
    graph: &[Tensor],
    eager: &[Tensor],
    reference: &[Tensor],
) -> Vec<Closeness> {
    let exact = Tolerance::new(0.0, 0.0);
    let as_f64 = |t: &Tensor| Tensor::from_f64_vec(DType::F64, t.shape(), &t.to_f64_vec());
    names
        .iter()
        .zip(graph.iter().zip(eager).zip(reference))
        .filter(|(_, ((g, _), r))| g.dtype().is_float() && r.dtype().is_float())
        .map(|(name, ((g, e), r))| {
            let r = as_f64(r);
            Closeness {
                name: name.clone(),
                graph: Diff::of(&as_f64(g), &r, exact).max_abs_diff,
                eager: Diff::of(&as_f64(e), &r, exact).max_abs_diff,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closer_side_is_named_and_near_ties_are_ties() {
        let c = |graph, eager| Closeness {
            name: "y".into(),
            graph,
            eager,
        };
        assert_eq!(c(1e-3, 1e-7).closer(), "eager");
        assert_eq!(c(1e-8, 1e-6).closer(), "graph");
        assert_eq!(c(1.0e-6, 1.05e-6).closer(), "tie");
        assert!(c(1e-3, 1e-7).line().contains("graph mode's error"));
    }
}
