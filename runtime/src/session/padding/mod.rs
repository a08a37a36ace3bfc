//! The proof that padding a bucketed dimension up to its bucket cannot
//! change the real values ([`padding_safety`]), and the masks that some
//! ops need for it ([`insert_masks`]).

mod recurrent;
mod rules;
mod shapes;
mod sized;

use std::collections::{BTreeMap, HashMap};

use strata_ir::{Context, Operation, Value};

pub use recurrent::SequenceLens;
use rules::dims_of;
use shapes::{Fact, Facts};

/// The padded axes of a value: axis -> the symbol padded there.
pub type Padded = BTreeMap<usize, String>;

/// Where padding would mix into real values: the op, its location and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsafe {
    /// The op's name.
    pub op: String,
    /// Its location.
    pub location: String,
    /// The padded dimension and what the op does with it.
    pub message: String,
}

impl std::fmt::Display for Unsafe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: '{}' op {}: padding a bucketed dimension is not proven safe here",
            self.location, self.op, self.message
        )
    }
}

/// A place where a plan masks padded positions: operand `operand` of
/// `op` becomes `where(position < length, x, fill)` along `axis`, the
/// length being the real size of `sym`, an input of the plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Mask {
    /// The op whose operand is masked.
    pub op: Operation,
    /// Which operand.
    pub operand: usize,
    /// The padded axis of that operand.
    pub axis: usize,
    /// The symbol padded there.
    pub sym: String,
    /// What padded positions become: `-inf` before a softmax (they then
    /// weigh 0), `0` before a contraction (they then add 0).
    pub fill: f64,
}

/// What [`padding_safety`] proves: the padded axes of each result of the
/// function (to slice them back) and the masks that keep padding apart
/// where an op mixes a padded axis (a softmax over the keys of an
/// attention, the product that contracts them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Proof {
    /// The padded axes of each result.
    pub results: Vec<Padded>,
    /// The masks to insert.
    pub masks: Vec<Mask>,
    /// The recurrent layers that run with the real length of their padded
    /// sequence as `sequence_lens`.
    pub sequence_lens: Vec<SequenceLens>,
}

impl Proof {
    /// The symbols whose real sizes the masks read, sorted: the extra
    /// inputs of a masked plan, in this order.
    pub fn lengths(&self) -> Vec<String> {
        let mut syms: Vec<String> = self
            .masks
            .iter()
            .map(|m| m.sym.clone())
            .chain(self.sequence_lens.iter().map(|l| l.sym.clone()))
            .collect();
        syms.sort();
        syms.dedup();
        syms
    }

    /// What a plan keeps of the proof.
    pub fn padding(&self) -> Padding {
        Padding {
            results: self.results.clone(),
            lengths: self.lengths(),
        }
    }
}

/// How a compiled plan of padded shapes is run: the padded axes of each
/// result (sliced back to the real sizes) and the symbols whose real sizes
/// it takes as extra `i64` inputs after the model's own, in this order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Padding {
    /// The padded axes of each result.
    pub results: Vec<Padded>,
    /// The real-size inputs the plan's masks read.
    pub lengths: Vec<String>,
}

/// Follows the padded axes of `func`'s arguments (`padded`: input index ->
/// axis -> symbol) through its body, op by op. Each op must keep padded
/// positions apart from real ones (elementwise ops, those that broadcast
/// their operands, matmul outside its contracted axis, softmax and norms
/// along other axes, transpose, gather of padded indices, reshapes that
/// keep the padded axes whole). A softmax along a padded axis, and a
/// product that contracts one padded in both operands, are masked (see
/// [`Mask`]).
///
/// Sizes read from padded values are followed too ([`shapes`]): the
/// elements of a `shape_of` and what shape arithmetic makes of them, so
/// that a `reshape`, `expand`, `slice`, `range` or `constant_of_shape`
/// sized by a padded dimension is padded along the axis it sizes, and
/// positions computed from sizes (`row * seq + column` into a flattened
/// value) are checked to pick the same elements as in the real run. A size
/// that becomes data (a mean divided by the length) is refused, as is any
/// other use of a padded value.
pub fn padding_safety(
    ctx: &Context,
    func: Operation,
    padded: &BTreeMap<usize, Padded>,
) -> Result<Proof, Unsafe> {
    let Some(body) = ctx
        .op_regions(func)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return Ok(Proof::default());
    };
    let mut facts = Facts::default();
    for (i, a) in ctx.block_args(body).enumerate() {
        if let Some(p) = padded.get(&i).filter(|p| !p.is_empty()) {
            for (&axis, sym) in p {
                if let Some(&n) = dims_of(ctx, a).as_ref().and_then(|d| d.get(axis)) {
                    facts.bucket.insert(sym.clone(), n);
                }
            }
            facts.padded.insert(a, p.clone());
        }
    }
    let mut results = Vec::new();
    let mut masks = Vec::new();
    let mut sequence_lens = Vec::new();
    for op in ctx.block_ops(body) {
        let name = ctx.op_name_str(op).to_string();
        let operands: Vec<Value> = ctx.operands(op).collect();
        let refuse = |message: String| Unsafe {
            op: name.clone(),
            location: strata_ir::diagnostics::describe_location(ctx, ctx.op_loc(op)),
            message,
        };
        if name == "func.return" {
            if let Some(why) = operands.iter().find_map(|&v| facts.opaque(v)) {
                return Err(refuse(format!("returns a value that {why}")));
            }
            results = operands
                .iter()
                .map(|v| facts.padded.get(v).cloned().unwrap_or_default())
                .collect();
            continue;
        }
        // Ops with regions see padded values from above: refused when
        // one is used inside (nothing follows padding through them).
        let inner = ctx
            .op_regions(op)
            .iter()
            .flat_map(|&r| ctx.collect_ops(r, strata_ir::WalkOrder::PreOrder))
            .flat_map(|o| ctx.operands(o).collect::<Vec<_>>())
            .find(|&v| facts.reached(v));
        if inner.is_some() {
            return Err(refuse(
                "uses a padded value inside its region, where the proof does not follow padding"
                    .into(),
            ));
        }
        if operands.iter().all(|&v| !facts.reached(v)) {
            // Small integer values are evaluated all the same: shape
            // arithmetic mixes them with sizes read from padded values.
            let mut fact = sized::static_positions(ctx, op, &facts).unwrap_or_default();
            if let Some(Ok(elems)) = shapes::evaluate(ctx, op, &facts) {
                fact.sizes = Some(elems);
            }
            facts.record(ctx, op, vec![fact]);
            continue;
        }
        if let Some(r) = recurrent::rule(ctx, op, &facts) {
            let (out, lens) = r.map_err(refuse)?;
            if let Some(sym) = lens {
                sequence_lens.push(SequenceLens { op, sym });
            }
            facts.record(ctx, op, out);
            continue;
        }
        let out = rule(ctx, op, &facts, &mut masks).map_err(refuse)?;
        facts.record(ctx, op, out);
    }
    Ok(Proof {
        results,
        masks,
        sequence_lens,
    })
}

/// What padding makes of `op`'s results, from what it made of its
/// operands (`facts`), or why padding could reach a real value through it.
fn rule(
    ctx: &Context,
    op: Operation,
    facts: &Facts,
    masks: &mut Vec<Mask>,
) -> Result<Vec<Fact>, String> {
    if let Some(out) = sized::rule(ctx, op, facts) {
        return out;
    }
    if let Some(why) = ctx.operands(op).find_map(|v| facts.opaque(v)) {
        return Err(format!("takes a value that {why}"));
    }
    Ok(rules::op_rule(ctx, op, &facts.padded, masks)?
        .into_iter()
        .map(Fact::padded)
        .collect())
}

/// Inserts `proof`'s masks into `func` (specialized, its shapes
/// inferred): one 0-D `i64` argument per symbol of [`Proof::lengths`],
/// appended after the function's own, and before each masked operand a
/// `graph.where` that gives the positions at or past the real length the
/// mask's fill.
pub fn insert_masks(ctx: &mut Context, func: Operation, proof: &Proof) -> Result<(), String> {
    let lengths = proof.lengths();
    if lengths.is_empty() {
        return Ok(());
    }
    let body = ctx
        .op_regions(func)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
        .ok_or("the function has no body")?;
    let i64t = ctx.integer_type(64);
    let scalar = ctx.tensor_type(vec![], i64t);
    let loc = ctx.op_loc(func);
    let mut args = HashMap::new();
    for sym in &lengths {
        args.insert(sym.clone(), ctx.add_block_argument(body, scalar, loc));
    }
    // The signature: argument attributes (one empty entry per length) and
    // the function type.
    let arg_attrs = ctx.op_properties(func).and_then(|p| {
        let key = ctx.ident("arg_attrs");
        ctx.dictionary_entries(p)
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, a)| a)
    });
    if let Some(a) = arg_attrs {
        if let strata_ir::AttrKind::Array(items) = ctx.attr_kind(a) {
            let mut items = items.to_vec();
            for _ in &lengths {
                items.push(ctx.dictionary_attr(Vec::new()));
            }
            let array = ctx.array_attr(items);
            ctx.set_op_property(func, "arg_attrs", array);
        }
    }
    let types: Vec<strata_ir::Type> = ctx.block_args(body).map(|a| ctx.value_type(a)).collect();
    let results = strata_dialects::func::function_signature(ctx, func)
        .map(|(_, r)| r)
        .unwrap_or_default();
    let fn_type = ctx.function_type(types, results);
    let fn_type = ctx.type_attr(fn_type);
    ctx.set_op_property(func, "function_type", fn_type);
    for l in &proof.sequence_lens {
        recurrent::insert_lens(ctx, l, args[&l.sym])?;
    }
    for m in &proof.masks {
        let x = ctx.operand(m.op, m.operand);
        let dims = dims_of(ctx, x).ok_or("a masked operand is not a ranked tensor")?;
        let n = *dims.get(m.axis).ok_or("a masked axis is out of range")?;
        // Positions along the axis, shaped to broadcast against `x`.
        let mut shape = vec![n];
        shape.resize(dims.len() - m.axis, 1);
        let ty = ctx.tensor_type(shape, i64t);
        let raw = (0..n).flat_map(i64::to_le_bytes).collect();
        let positions = ctx
            .dense_elements_attr(ty, raw)
            .ok_or("could not build the positions of a mask")?;
        let length = args[&m.sym];
        let mut e = strata_dialects::graph::emit::Emitter::before(ctx, m.op);
        let positions = e.constant(positions)?;
        let live = e.bin("graph.less", positions, length)?;
        let fill = e.scalar_like(x, m.fill)?;
        let masked = e.op1("graph.where", &[live, x, fill], &[])?;
        ctx.set_operand(m.op, m.operand, masked);
    }
    Ok(())
}
