//! Shape buckets: which compiled shape serves an input shape
//! ([`resolve`], a pure function), and the proof that padding a dimension
//! up to its bucket cannot change the real rows ([`padding_safety`]).

use std::collections::{BTreeMap, HashMap};

use std::sync::Arc;
use strata_ir::{Context, Operation, TypeKind, Value};

use strata_recipe::{BudgetAction, OutsideBuckets};

use super::cache::KEYS_REMEMBERED;
use super::{Plan, PlanKey, Session, SessionError};
use crate::Tensor;

/// The symbol of each dimension of each input (`None`: static or unnamed).
pub type InputDims = Vec<Vec<Option<String>>>;

/// What serves an input shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The plan of `shapes` (each bucketed symbol at its bucket); `sizes`
    /// gives each bucketed symbol's real size and bucket.
    Bucket {
        /// The shapes to compile for.
        shapes: Vec<Vec<usize>>,
        /// Symbol -> (real size, bucket size).
        sizes: BTreeMap<String, (usize, usize)>,
    },
    /// Refused (`outside_buckets = "reject"`, or a size above the largest
    /// bucket): why.
    Reject(String),
    /// Run eagerly (`outside_buckets = "eager"`): why.
    Eager(String),
}

impl Resolution {
    /// Whether any input is padded.
    pub fn pads(&self) -> bool {
        matches!(self, Resolution::Bucket { sizes, .. } if sizes.values().any(|(r, b)| r != b))
    }
}

/// The bucket of each bucketed symbol of `shapes` (one per input, each
/// dimension named by `dims`), under `buckets` (symbol -> increasing sizes)
/// and `outside` (what a size that is not a bucket does).
pub fn resolve(
    dims: &InputDims,
    shapes: &[Vec<usize>],
    buckets: &BTreeMap<String, Vec<i64>>,
    outside: OutsideBuckets,
) -> Resolution {
    let mut sizes: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut shapes = shapes.to_vec();
    for (i, shape) in shapes.iter_mut().enumerate() {
        let Some(names) = dims.get(i) else { continue };
        for (axis, size) in shape.iter_mut().enumerate() {
            let Some(sym) = names.get(axis).and_then(Option::as_ref) else {
                continue;
            };
            let Some(list) = buckets.get(sym) else {
                continue;
            };
            let real = *size;
            if let Some(&(seen, bucket)) = sizes.get(sym) {
                if seen != real {
                    return Resolution::Reject(format!(
                        "dimension '{sym}' is {seen} in one input and {real} in another"
                    ));
                }
                *size = bucket;
                continue;
            }
            let exact = list.iter().any(|&b| usize::try_from(b) == Ok(real));
            let next = list
                .iter()
                .filter_map(|&b| usize::try_from(b).ok())
                .find(|&b| b >= real);
            let shown = || {
                let l: Vec<String> = list.iter().map(i64::to_string).collect();
                format!("[{}]", l.join(", "))
            };
            let bucket = match (exact, outside, next) {
                (true, _, _) => real,
                (false, OutsideBuckets::Pad, Some(b)) => b,
                (false, OutsideBuckets::Pad, None) => {
                    return Resolution::Reject(format!(
                        "dimension '{sym}' = {real} is above the largest bucket {}",
                        shown()
                    ))
                }
                (false, OutsideBuckets::Reject, _) => {
                    return Resolution::Reject(format!(
                        "dimension '{sym}' = {real} is not a bucket {} (capture.outside_buckets = \"reject\")",
                        shown()
                    ))
                }
                (false, OutsideBuckets::Eager, _) => {
                    return Resolution::Eager(format!(
                        "dimension '{sym}' = {real} is not a bucket {}",
                        shown()
                    ))
                }
            };
            sizes.insert(sym.clone(), (real, bucket));
            *size = bucket;
        }
    }
    Resolution::Bucket { shapes, sizes }
}

/// The padded axes of a value: axis -> the symbol padded there.
pub type Padded = BTreeMap<usize, String>;

/// Ops that compute each element from the elements at the same position
/// of their operands (broadcast): padding stays in its rows.
const ELEMENTWISE: &[&str] = &["graph.cast", "graph.clip", "graph.where", "graph.identity"];

/// Ops that normalize or reduce along their `axis` property and keep
/// every other axis as it is.
const ALONG_AXIS: &[&str] = &["graph.softmax", "graph.log_softmax"];

/// Ops that normalize over the axes from their `axis` property to the
/// last, keeping the shape.
const TRAILING_AXES: &[&str] = &["graph.layer_norm", "graph.rms_norm"];

fn rank(ctx: &Context, v: Value) -> Option<usize> {
    match ctx.type_kind(ctx.value_type(v)) {
        TypeKind::RankedTensor { shape, .. } => Some(shape.len()),
        _ => None,
    }
}

fn dims_of(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    match ctx.type_kind(ctx.value_type(v)) {
        TypeKind::RankedTensor { shape, .. } => Some(shape.clone()),
        _ => None,
    }
}

/// Marks `axis` padded by `sym`; another symbol there is refused.
fn mark(p: &mut Padded, axis: usize, sym: &str) -> Result<(), String> {
    match p.get(&axis) {
        Some(other) if other != sym => {
            Err(format!("pairs padded dimensions '{other}' and '{sym}'"))
        }
        _ => {
            p.insert(axis, sym.to_string());
            Ok(())
        }
    }
}

fn int_property(ctx: &Context, op: Operation, name: &str) -> Option<i64> {
    strata_dialects::graph::infer::attr_i64(ctx, op, name)
}

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
}

impl Proof {
    /// The symbols whose real sizes the masks read, sorted: the extra
    /// inputs of a masked plan, in this order.
    pub fn lengths(&self) -> Vec<String> {
        let mut syms: Vec<String> = self.masks.iter().map(|m| m.sym.clone()).collect();
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
/// their operands, matmul outside its
/// contracted axis, softmax and norms along other axes, transpose, gather
/// of padded indices). A softmax along a padded axis, and a product that
/// contracts one padded in both operands, are masked (see [`Mask`]); any
/// other use of a padded value is refused.
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
    let mut of: HashMap<Value, Padded> = HashMap::new();
    for (i, a) in ctx.block_args(body).enumerate() {
        if let Some(p) = padded.get(&i).filter(|p| !p.is_empty()) {
            of.insert(a, p.clone());
        }
    }
    let mut results = Vec::new();
    let mut masks = Vec::new();
    for op in ctx.block_ops(body) {
        let name = ctx.op_name_str(op).to_string();
        let operands: Vec<Value> = ctx.operands(op).collect();
        if name == "func.return" {
            results = operands
                .iter()
                .map(|v| of.get(v).cloned().unwrap_or_default())
                .collect();
            continue;
        }
        if operands.iter().all(|v| !of.contains_key(v)) {
            continue;
        }
        let out = op_rule(ctx, op, &of, &mut masks).map_err(|message| Unsafe {
            op: name.clone(),
            location: strata_ir::diagnostics::describe_location(ctx, ctx.op_loc(op)),
            message,
        })?;
        for (r, p) in ctx.results(op).zip(out) {
            if !p.is_empty() {
                of.insert(r, p);
            }
        }
    }
    Ok(Proof { results, masks })
}

/// The padded axes of `op`'s results, from those of its operands (`of`),
/// or why padding could reach real values through it. The masks it needs
/// go to `masks`.
fn op_rule(
    ctx: &Context,
    op: Operation,
    of: &HashMap<Value, Padded>,
    masks: &mut Vec<Mask>,
) -> Result<Vec<Padded>, String> {
    let name = ctx.op_name_str(op).to_string();
    let operands: Vec<Value> = ctx.operands(op).collect();
    let first_padded = || {
        operands
            .iter()
            .find_map(|v| of.get(v))
            .and_then(|p| p.values().next().cloned())
            .unwrap_or_default()
    };
    let broadcasting = ctx
        .op_definition(op)
        .is_some_and(|d| d.traits.results_broadcastable_shape || d.traits.elementwise);
    let out = if broadcasting
        || ctx
            .op_interface::<strata_dialects::graph::scalar::ScalarFn>(op)
            .is_some()
        || ELEMENTWISE.contains(&name.as_str())
    {
        let results: Vec<Value> = ctx.results(op).collect();
        let out_rank = results.first().and_then(|&r| rank(ctx, r)).unwrap_or(0);
        let mut p = Padded::new();
        for v in &operands {
            let (Some(r), Some(pv)) = (rank(ctx, *v), of.get(v)) else {
                continue;
            };
            for (&axis, sym) in pv {
                let at = (axis + out_rank)
                    .checked_sub(r)
                    .ok_or_else(|| format!("broadcasts dimension '{sym}' oddly"))?;
                mark(&mut p, at, sym)?;
            }
        }
        // Every operand with a padded axis must be padded there by the
        // same symbol, or broadcast from size 1: a padded operand
        // meeting a real size (or another symbol) would pair padded
        // positions with real ones.
        for v in &operands {
            let Some(d) = dims_of(ctx, *v) else { continue };
            let pv = of.get(v);
            for (&at, sym) in &p {
                let Some(axis) = (at + d.len()).checked_sub(out_rank) else {
                    continue;
                };
                let same = pv.and_then(|pv| pv.get(&axis)) == Some(sym);
                if !same && d[axis] != 1 {
                    return Err(format!(
                        "pairs dimension '{sym}' with a dimension it does not pad ({})",
                        d[axis]
                    ));
                }
            }
        }
        vec![p; results.len()]
    } else if name == "graph.matmul" {
        matmul_rule(ctx, op, &operands, of, masks)?
    } else if name == "graph.gemm" {
        gemm_rule(ctx, op, &operands, of)?
    } else if name == "graph.reshape" {
        // Padded axes must lie in a leading run of dimensions that the
        // reshape keeps as they are.
        let dims = |v: Value| match ctx.type_kind(ctx.value_type(v)) {
            TypeKind::RankedTensor { shape, .. } => shape.clone(),
            _ => Vec::new(),
        };
        let (from, to) = (dims(operands[0]), dims(ctx.result(op, 0)));
        let kept = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        let pv = of.get(&operands[0]).cloned().unwrap_or_default();
        if let Some((_, sym)) = pv.iter().find(|(&a, _)| a >= kept) {
            return Err(format!(
                "merges or splits dimension '{sym}' ({from:?} to {to:?})"
            ));
        }
        if operands[1..].iter().any(|v| of.contains_key(v)) {
            return Err(format!(
                "takes a shape computed from dimension '{}'",
                first_padded()
            ));
        }
        vec![pv]
    } else if name == "graph.transpose" {
        // No perm: the axes reversed.
        let perm =
            strata_dialects::graph::infer::attr_i64_array(ctx, op, "perm").unwrap_or_else(|| {
                let r = rank(ctx, operands[0]).unwrap_or(0) as i64;
                (0..r).rev().collect()
            });
        let pv = of.get(&operands[0]).cloned().unwrap_or_default();
        let mut p = Padded::new();
        for (out_axis, &from) in perm.iter().enumerate() {
            if let Some(sym) = usize::try_from(from).ok().and_then(|f| pv.get(&f)) {
                p.insert(out_axis, sym.clone());
            }
        }
        vec![p]
    } else if ALONG_AXIS.contains(&name.as_str()) || TRAILING_AXES.contains(&name.as_str()) {
        let x = operands[0];
        let r = rank(ctx, x).unwrap_or(0) as i64;
        let axis = int_property(ctx, op, "axis").unwrap_or(-1);
        let axis = usize::try_from(if axis < 0 { axis + r } else { axis }).unwrap_or(0);
        let pv = of.get(&x).cloned().unwrap_or_default();
        for (&a, sym) in &pv {
            if TRAILING_AXES.contains(&name.as_str()) && a >= axis {
                return Err(format!("normalizes over dimension '{sym}'"));
            }
            if a == axis {
                // Padded positions become -inf: exp gives them weight 0.
                masks.push(Mask {
                    op,
                    operand: 0,
                    axis: a,
                    sym: sym.clone(),
                    fill: f64::NEG_INFINITY,
                });
            }
        }
        if operands[1..].iter().any(|v| of.contains_key(v)) {
            return Err(format!(
                "takes a padded parameter (dimension '{}')",
                first_padded()
            ));
        }
        vec![pv]
    } else if name == "graph.gather" {
        let (data, indices) = (operands[0], operands[1]);
        let axis = int_property(ctx, op, "axis").unwrap_or(0);
        let rd = rank(ctx, data).unwrap_or(0) as i64;
        let axis = usize::try_from(if axis < 0 { axis + rd } else { axis }).unwrap_or(0);
        let ri = rank(ctx, indices).unwrap_or(0);
        let mut p = Padded::new();
        if let Some(pd) = of.get(&data) {
            for (&a, sym) in pd {
                if a == axis {
                    return Err(format!("gathers along dimension '{sym}'"));
                }
                p.insert(if a < axis { a } else { a + ri - 1 }, sym.clone());
            }
        }
        if let Some(pi) = of.get(&indices) {
            for (&a, sym) in pi {
                p.insert(axis + a, sym.clone());
            }
        }
        vec![p]
    } else {
        return Err(format!(
            "takes a value padded along dimension '{}', and nothing proves the padding stays apart",
            first_padded()
        ));
    };
    Ok(out)
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

/// `t` grown to `shape` along its padded axes (at their ends), floats
/// filled with `fill`, integers and booleans with 0 (a valid index).
pub(crate) fn pad_to(t: &Tensor, shape: &[usize], fill: f64) -> Result<Tensor, SessionError> {
    if t.shape() == shape {
        return Ok(t.clone());
    }
    let rank = t.rank();
    let mut pads = vec![0i64; 2 * rank];
    for (axis, (&have, &want)) in t.shape().iter().zip(shape).enumerate() {
        pads[rank + axis] = i64::try_from(want.saturating_sub(have)).unwrap_or(0);
    }
    let value = if t.dtype().is_float() { fill } else { 0.0 };
    crate::kernels::pad(t, &pads, crate::kernels::PadMode::Constant(value))
        .map_err(|e| SessionError::Bucket(format!("padding an input: {e}")))
}

/// The padding of each bucket's shapes, or why padding is not safe
/// ([`Session::padding_for`]).
pub(crate) type Paddings = HashMap<Vec<Vec<usize>>, Result<Padding, String>>;

impl Session {
    /// The axes of each input that a bucket may pad: those named by a
    /// symbol that has buckets.
    fn bucketed_axes(&self) -> BTreeMap<usize, Padded> {
        self.input_dims
            .iter()
            .enumerate()
            .map(|(i, names)| {
                let axes = names
                    .iter()
                    .enumerate()
                    .filter_map(|(a, s)| {
                        s.as_ref()
                            .filter(|s| self.options.buckets.contains_key(*s))
                            .map(|s| (a, s.clone()))
                    })
                    .collect();
                (i, axes)
            })
            .collect()
    }

    /// Whether padding the bucketed axes of a plan for `shapes` leaves the
    /// real values alone (see [`padding_safety`]): the padded axes of each
    /// result, or why padding is refused (a run that needs padding then
    /// fails with it; one at a bucket's exact size runs). The proof runs on
    /// the function specialized and its shapes inferred, before any
    /// folding: a size read from a padded value (`shape_of`) would fold
    /// into a constant that hides where it came from.
    fn check_padding(
        &self,
        shapes: &[Vec<usize>],
    ) -> Result<Result<Padding, String>, SessionError> {
        let padded = self.bucketed_axes();
        if padded.values().all(BTreeMap::is_empty) {
            return Ok(Ok(Padding::default()));
        }
        let (mut ctx, module) = (self.source)().map_err(SessionError::Load)?;
        let func = self.shaped(&mut ctx, module, shapes)?;
        Ok(padding_safety(&ctx, func, &padded)
            .map(|p| p.padding())
            .map_err(|u| u.to_string()))
    }

    /// [`Session::check_padding`] for `shapes`, kept for the session's
    /// buckets (at most [`KEYS_REMEMBERED`] shape lists): the request that
    /// needs padding, the disk cache and the compile of a bucket ask it
    /// once, where each would load and specialize the model.
    pub(crate) fn padding_for(
        &self,
        shapes: &[Vec<usize>],
    ) -> Result<Result<Padding, String>, SessionError> {
        if self.options.buckets.is_empty() {
            return self.check_padding(shapes);
        }
        if let Some(v) = super::lock(&self.paddings).get(shapes) {
            return Ok(v.clone());
        }
        let verdict = self.check_padding(shapes)?;
        let mut kept = super::lock(&self.paddings);
        if kept.len() >= KEYS_REMEMBERED {
            kept.clear();
        }
        kept.insert(shapes.to_vec(), verdict.clone());
        Ok(verdict)
    }

    /// `module`'s function specialized to `shapes`, its shapes inferred.
    fn shaped(
        &self,
        ctx: &mut Context,
        module: Operation,
        shapes: &[Vec<usize>],
    ) -> Result<Operation, SessionError> {
        super::hybrid::specialized(
            ctx,
            module,
            &self.options.function,
            shapes,
            "builtin.module(graph-infer-shapes)",
        )
    }

    /// Specializes `module` to `shapes` and inserts the masks that padding
    /// its bucketed axes needs ([`insert_masks`]), which must read the
    /// real sizes of `lengths` (those [`Session::check_padding`] found).
    pub(crate) fn mask_padding(
        &self,
        ctx: &mut Context,
        module: Operation,
        shapes: &[Vec<usize>],
        lengths: &[String],
    ) -> Result<(), SessionError> {
        let func = self.shaped(ctx, module, shapes)?;
        let proof = padding_safety(ctx, func, &self.bucketed_axes())
            .map_err(|u| SessionError::Compile(u.to_string()))?;
        if proof.lengths() != lengths {
            return Err(SessionError::Compile(format!(
                "the masks of a padded plan read {:?}, where {lengths:?} were expected",
                proof.lengths()
            )));
        }
        insert_masks(ctx, func, &proof)
            .map_err(|e| SessionError::Compile(format!("masking the padding of a bucket: {e}")))
    }

    /// The smallest cached plan whose shapes hold `target`: larger only
    /// along bucketed axes, equal along the others (`nearest-bucket`).
    fn nearest_plan(&self, target: &[Vec<usize>]) -> Option<(Arc<Plan>, Vec<Vec<usize>>)> {
        let bucketed = self.bucketed_axes();
        let holds = |key: &PlanKey| {
            key.pinned.is_empty()
                && key.shapes.len() == target.len()
                && key
                    .shapes
                    .iter()
                    .zip(target)
                    .enumerate()
                    .all(|(i, (have, want))| {
                        have.len() == want.len()
                            && have.iter().zip(want).enumerate().all(|(a, (&h, &w))| {
                                let padded = bucketed.get(&i).is_some_and(|p| p.contains_key(&a));
                                if padded {
                                    h >= w
                                } else {
                                    h == w
                                }
                            })
                    })
        };
        let mut state = self.state();
        let best = state
            .cache
            .entries()
            .map(|(k, _)| k)
            .filter(|k| holds(k))
            .min_by_key(|k| {
                k.shapes
                    .iter()
                    .map(|s| s.iter().product::<usize>())
                    .sum::<usize>()
            })
            .cloned()?;
        let plan = state.cache.get(&best)?;
        Some((plan, best.shapes))
    }

    /// Graph mode with buckets: the input shapes resolved to a bucket, the
    /// inputs padded to it, the plan of the bucket run, and each result
    /// sliced back to the real sizes.
    pub(crate) fn run_bucketed(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, SessionError> {
        let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
        let resolution = resolve(
            &self.input_dims,
            &shapes,
            &self.options.buckets,
            self.options.outside_buckets,
        );
        let (target, sizes) = match resolution {
            Resolution::Reject(m) => return Err(SessionError::Bucket(m)),
            Resolution::Eager(m) => {
                self.note_outside_buckets(&shapes, m);
                return self.run_eagerly(inputs.to_vec());
            }
            Resolution::Bucket { shapes, sizes } => (shapes, sizes),
        };
        let pad = |shapes: &[Vec<usize>]| -> Result<Vec<Tensor>, SessionError> {
            inputs
                .iter()
                .zip(shapes)
                .map(|(t, s)| pad_to(t, s, self.options.pad_value))
                .collect()
        };
        // A request that needs padding to a bucket where padding is not
        // proven safe fails before that bucket's plan is compiled.
        if target != shapes {
            if let Err(why) = self.padding_for(&target)? {
                return Err(SessionError::Compile(why));
            }
        }
        let mut padded = pad(&target)?;
        let plan = match self.plan_for(&padded) {
            Err(SessionError::Budget(why)) => match self.options.on_budget_exhausted {
                BudgetAction::Eager => return self.run_eagerly(inputs.to_vec()),
                BudgetAction::Error => return Err(SessionError::Budget(why)),
                BudgetAction::NearestBucket => {
                    let (plan, shapes) = self.nearest_plan(&target).ok_or_else(|| {
                        SessionError::Budget(format!(
                            "{why}, and no compiled bucket holds the shapes {target:?}"
                        ))
                    })?;
                    padded = pad(&shapes)?;
                    plan
                }
            },
            other => other?,
        };
        self.count_padding(inputs, &padded);
        let Plan::Compiled(model, _, padding) = plan.as_ref() else {
            return Err(SessionError::Load(
                "shape buckets run in graph mode only".into(),
            ));
        };
        let pads = padded
            .iter()
            .zip(inputs)
            .any(|(p, t)| p.shape() != t.shape());
        let exact = Padding::default();
        let padding = match padding {
            Ok(padding) => padding,
            Err(why) if pads => return Err(SessionError::Compile(why.clone())),
            Err(_) => &exact,
        };
        // The real size of each symbol the plan's masks read.
        for sym in &padding.lengths {
            let &(real, _) = sizes.get(sym).ok_or_else(|| {
                SessionError::Bucket(format!("no size for the masked dimension '{sym}'"))
            })?;
            let real = i64::try_from(real)
                .map_err(|_| SessionError::Bucket(format!("dimension '{sym}' is too large")))?;
            padded.push(Tensor::scalar_i64(crate::DType::I64, real));
        }
        let slices = &padding.results;
        let outputs = model.run(&padded)?;
        outputs
            .into_iter()
            .enumerate()
            .map(|(i, mut t)| {
                for (&axis, sym) in slices.get(i).into_iter().flatten() {
                    let real = sizes.get(sym).map_or(t.shape()[axis], |&(r, _)| r);
                    if real != t.shape()[axis] {
                        let end = i64::try_from(real).unwrap_or(i64::MAX);
                        let axis = i64::try_from(axis).unwrap_or(0);
                        t = crate::kernels::slice(&t, &[0], &[end], &[axis], &[1])
                            .map_err(|e| SessionError::Bucket(format!("slicing a result: {e}")))?;
                    }
                }
                Ok(t)
            })
            .collect()
    }
}

/// `graph.matmul`: a contracted axis padded in both operands by the same
/// symbol is masked to zeros in both (the padded terms add 0); padded in
/// one only, it is refused. Batch axes must not meet a real size.
fn matmul_rule(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    of: &HashMap<Value, Padded>,
    masks: &mut Vec<Mask>,
) -> Result<Vec<Padded>, String> {
    let (a, b) = (operands[0], operands[1]);
    let (ra, rb) = (rank(ctx, a).unwrap_or(0), rank(ctx, b).unwrap_or(0));
    let out_rank = rank(ctx, ctx.result(op, 0)).unwrap_or(0);
    // out = [batch..., M (if a is 2-D+), N (if b is 2-D+)].
    let batch_rank = out_rank
        .checked_sub(usize::from(ra >= 2) + usize::from(rb >= 2))
        .ok_or_else(|| String::from("has an unexpected result rank"))?;
    // The contracted axis of each operand, and the symbol padding it.
    let (ka, kb) = (ra.saturating_sub(1), rb.saturating_sub(2));
    let contracted = |v: Value, k: usize| of.get(&v).and_then(|p| p.get(&k)).cloned();
    match (contracted(a, ka), contracted(b, kb)) {
        (None, None) => {}
        (Some(sa), Some(sb)) if sa == sb => {
            for (operand, axis) in [(0, ka), (1, kb)] {
                masks.push(Mask {
                    op,
                    operand,
                    axis,
                    sym: sa.clone(),
                    fill: 0.0,
                });
            }
        }
        (Some(sym), _) | (None, Some(sym)) => {
            return Err(format!(
                "contracts dimension '{sym}' with a dimension it does not pad"
            ))
        }
    }
    let mut p = Padded::new();
    if let Some(pa) = of.get(&a) {
        for (&axis, sym) in pa {
            if axis == ka {
                continue;
            }
            // A batch axis (aligned right), or M.
            let at = if axis + 2 == ra {
                Some(batch_rank)
            } else {
                (axis + batch_rank).checked_sub(ra - 2)
            };
            let at = at.ok_or_else(|| format!("broadcasts dimension '{sym}'"))?;
            mark(&mut p, at, sym)?;
        }
    }
    if let Some(pb) = of.get(&b) {
        for (&axis, sym) in pb {
            if axis == kb {
                continue;
            }
            let at = if axis + 1 == rb {
                Some(out_rank - 1)
            } else {
                (axis + batch_rank).checked_sub(rb - 2)
            };
            let at = at.ok_or_else(|| format!("broadcasts dimension '{sym}'"))?;
            mark(&mut p, at, sym)?;
        }
    }
    // A padded batch axis must not meet a real size in the other
    // operand (see the broadcasting ops).
    for (v, r) in [(a, ra), (b, rb)] {
        if r < 3 {
            continue;
        }
        let Some(d) = dims_of(ctx, v) else { continue };
        for (&at, sym) in p.iter().filter(|(&at, _)| at < batch_rank) {
            let Some(axis) = (at + r - 2).checked_sub(batch_rank) else {
                continue;
            };
            let same = of.get(&v).and_then(|pv| pv.get(&axis)) == Some(sym);
            if !same && d[axis] != 1 {
                return Err(format!(
                    "pairs dimension '{sym}' with a batch dimension it does not pad"
                ));
            }
        }
    }
    Ok(vec![p])
}

/// `graph.gemm`: as a matmul of 2-D operands, with a bias padded only
/// along the product's own padded axes.
fn gemm_rule(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    of: &HashMap<Value, Padded>,
) -> Result<Vec<Padded>, String> {
    // op(a) is [M, K], op(b) is [K, N]; c broadcasts to [M, N].
    let attr = strata_dialects::graph::infer::attr_bool;
    let (ta, tb) = (attr(ctx, op, "transA"), attr(ctx, op, "transB"));
    let mut p = Padded::new();
    if let Some(pa) = of.get(&operands[0]) {
        for (&axis, sym) in pa {
            if (axis == 1) != ta {
                return Err(format!("contracts dimension '{sym}'"));
            }
            mark(&mut p, 0, sym)?;
        }
    }
    if let Some(pb) = of.get(&operands[1]) {
        for (&axis, sym) in pb {
            if (axis == 0) != tb {
                return Err(format!("contracts dimension '{sym}'"));
            }
            mark(&mut p, 1, sym)?;
        }
    }
    if let Some(pc) = operands.get(2).and_then(|c| of.get(c)) {
        let rc = rank(ctx, operands[2]).unwrap_or(0);
        for (&axis, sym) in pc {
            // c's padding must be the product's own (M or N).
            let at = (axis + 2).checked_sub(rc);
            if at.and_then(|at| p.get(&at)) != Some(sym) {
                return Err(format!(
                    "adds a bias padded along dimension '{sym}' that the product does not pad"
                ));
            }
        }
    }
    Ok(vec![p])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims() -> InputDims {
        vec![vec![Some("batch".into()), None]]
    }

    fn buckets() -> BTreeMap<String, Vec<i64>> {
        BTreeMap::from([("batch".to_string(), vec![1, 4, 16])])
    }

    #[test]
    fn a_size_goes_to_its_bucket() {
        let r = resolve(&dims(), &[vec![3, 8]], &buckets(), OutsideBuckets::Pad);
        assert_eq!(
            r,
            Resolution::Bucket {
                shapes: vec![vec![4, 8]],
                sizes: BTreeMap::from([("batch".to_string(), (3, 4))]),
            }
        );
        assert!(r.pads());
        let exact = resolve(&dims(), &[vec![16, 8]], &buckets(), OutsideBuckets::Reject);
        assert!(!exact.pads());
        assert!(matches!(exact, Resolution::Bucket { ref shapes, .. } if shapes == &[vec![16, 8]]));
        // Size 1 is a bucket like any other.
        let one = resolve(&dims(), &[vec![1, 8]], &buckets(), OutsideBuckets::Pad);
        assert!(matches!(one, Resolution::Bucket { ref shapes, .. } if shapes == &[vec![1, 8]]));
    }

    #[test]
    fn outside_the_buckets() {
        assert_eq!(
            resolve(&dims(), &[vec![17, 8]], &buckets(), OutsideBuckets::Pad),
            Resolution::Reject(
                "dimension 'batch' = 17 is above the largest bucket [1, 4, 16]".into()
            )
        );
        assert_eq!(
            resolve(&dims(), &[vec![3, 8]], &buckets(), OutsideBuckets::Reject),
            Resolution::Reject(
                "dimension 'batch' = 3 is not a bucket [1, 4, 16] (capture.outside_buckets = \"reject\")".into()
            )
        );
        assert_eq!(
            resolve(&dims(), &[vec![3, 8]], &buckets(), OutsideBuckets::Eager),
            Resolution::Eager("dimension 'batch' = 3 is not a bucket [1, 4, 16]".into())
        );
    }

    #[test]
    fn a_symbol_has_one_size() {
        let two = vec![vec![Some("batch".into())], vec![Some("batch".into())]];
        let r = resolve(&two, &[vec![3], vec![3]], &buckets(), OutsideBuckets::Pad);
        assert!(
            matches!(r, Resolution::Bucket { ref shapes, .. } if shapes == &[vec![4], vec![4]])
        );
        let bad = resolve(&two, &[vec![3], vec![2]], &buckets(), OutsideBuckets::Pad);
        assert!(matches!(bad, Resolution::Reject(_)));
    }

    #[test]
    fn unbucketed_dims_keep_their_size() {
        let r = resolve(
            &dims(),
            &[vec![3, 8]],
            &BTreeMap::new(),
            OutsideBuckets::Reject,
        );
        assert!(
            matches!(r, Resolution::Bucket { ref shapes, ref sizes } if shapes == &[vec![3, 8]] && sizes.is_empty())
        );
    }
}
