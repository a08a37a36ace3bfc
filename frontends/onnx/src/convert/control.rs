//! Control flow: `If`, `Loop` and `Scan` as `graph.if`, `graph.loop` and
//! `graph.scan`, their subgraphs converted into the ops' regions.
//!
//! A subgraph sees the values of the graphs around it by name, as the
//! region sees the enclosing blocks' values; the names it defines do not
//! leak out. A loop-carried value's type starts as its initial value's
//! and is widened (a dimension that changes becomes `?`) until the body
//! yields values of the types it receives, at most a few rounds. Branches
//! and loops may yield and carry sequences and optionals too (their
//! element types widen the same way).

use strata_dialects::graph::infer::control::join;
use strata_dialects::graph::shape::{shape_of, tensor_type, Dim, Shape};
use strata_dialects::graph::types::{join_types, opt_element, opt_type, seq_element, seq_type};
use strata_ir::{Location, Operation, Region, Type, Value};

use super::attrs::Attrs;
use super::{Convert, ConvertError, Importer, Res};
use crate::proto::{GraphProto, NodeProto};

pub(super) const OPS: &[(&str, Convert)] = &[
    ("If", convert_if),
    ("Loop", convert_loop),
    ("Scan", convert_scan),
];

/// How many times a loop body is converted, at most, while the carried
/// values' types widen.
const WIDENING_ROUNDS: usize = 4;

/// `ty` with every tensor in it unranked (the type every value of its
/// kind and element type has).
fn unranked(ctx: &mut strata_ir::Context, ty: Type) -> Type {
    if let Some((_, elem)) = shape_of(ctx, ty) {
        return tensor_type(ctx, &Shape::unranked(), elem);
    }
    if let Some(e) = seq_element(ctx, ty) {
        let e = unranked(ctx, e);
        return seq_type(ctx, e);
    }
    if let Some(e) = opt_element(ctx, ty) {
        let e = unranked(ctx, e);
        return opt_type(ctx, e);
    }
    ty
}

/// A subgraph attribute of `node`.
pub(super) fn graph_attr<'a>(a: &Attrs<'a>, name: &str) -> Res<&'a GraphProto> {
    a.0.iter()
        .find(|attr| attr.name() == name)
        .and_then(|attr| attr.g.as_ref())
        .ok_or_else(|| ConvertError::Invalid(format!("requires the subgraph attribute '{name}'")))
}

impl Importer<'_> {
    /// Converts subgraph `g` into a new one-block region: `g`'s inputs are
    /// the block's arguments (of `arg_types`), its initializers constants,
    /// its nodes ops, and its outputs the operands of a `graph.yield`
    /// (`replace_first` stands in for the first output). Returns the region
    /// and the yielded values.
    pub(super) fn subgraph(
        &mut self,
        g: &GraphProto,
        arg_types: &[Type],
        replace_first: Option<bool>,
        loc: Location,
    ) -> Res<(Region, Vec<Value>)> {
        if g.input.len() != arg_types.len() {
            return Err(ConvertError::Invalid(format!(
                "has a subgraph with {} inputs, but {} are expected",
                g.input.len(),
                arg_types.len()
            )));
        }
        let saved_block = self.block;
        let saved_values = self.values.clone();
        let region = self.ctx.create_region();
        let block = self.ctx.create_block();
        self.ctx.append_block(region, block);
        self.block = Some(block);
        let result = self.subgraph_body(g, block, arg_types, replace_first, loc);
        self.block = saved_block;
        self.values = saved_values;
        result.map(|values| (region, values))
    }

    fn subgraph_body(
        &mut self,
        g: &GraphProto,
        block: strata_ir::Block,
        arg_types: &[Type],
        replace_first: Option<bool>,
        loc: Location,
    ) -> Res<Vec<Value>> {
        for (input, &ty) in g.input.iter().zip(arg_types) {
            let arg_loc = self.ctx.name_loc(input.name(), Some(loc));
            let arg = self.ctx.add_block_argument(block, ty, arg_loc);
            self.values.insert(input.name().to_string(), arg);
        }
        let outputs = self.subgraph_nodes(g, replace_first, loc)?;
        let yield_op = self.create("graph.yield", outputs.clone(), vec![], vec![], loc);
        self.ctx.append_op(block, yield_op);
        Ok(outputs)
    }

    /// Converts `g`'s initializers (to constants) and nodes into the current
    /// block, its inputs already bound; returns its outputs' values
    /// (`replace_first` stands in for the first).
    fn subgraph_nodes(
        &mut self,
        g: &GraphProto,
        replace_first: Option<bool>,
        loc: Location,
    ) -> Res<Vec<Value>> {
        for init in &g.initializer {
            let attr = crate::tensor::tensor_attr(self.ctx, init)
                .map_err(|e| e.map_message(|m| format!("initializer '{}': {m}", init.name())))?;
            let init_loc = self.ctx.name_loc(init.name(), Some(loc));
            let v = self.constant(attr, init_loc)?;
            self.values.insert(init.name().to_string(), v);
        }
        self.convert_nodes(&g.node).map_err(|(label, e)| {
            e.map_message(|m| format!("has a subgraph whose node '{label}' fails: {m}"))
        })?;
        let mut outputs = Vec::with_capacity(g.output.len());
        for (i, out) in g.output.iter().enumerate() {
            let v = match (i, replace_first) {
                (0, Some(value)) => self.const_bool(value, loc)?,
                _ => self.values.get(out.name()).copied().ok_or_else(|| {
                    ConvertError::Invalid(format!(
                        "has a subgraph whose output '{}' no node computes",
                        out.name()
                    ))
                })?,
            };
            outputs.push(v);
        }
        Ok(outputs)
    }

    /// Converts subgraph `g` in place, into the current block, as if its
    /// nodes were the caller's (a graph attribute that is a function of its
    /// inputs, as FlexAttention's `score_mod`): `inputs` stand for `g`'s
    /// inputs, outer names stay visible, and the names `g` defines are
    /// forgotten afterwards. Returns `g`'s outputs.
    pub(super) fn inline_subgraph(
        &mut self,
        g: &GraphProto,
        inputs: &[Value],
        loc: Location,
    ) -> Res<Vec<Value>> {
        if g.input.len() != inputs.len() {
            return Err(ConvertError::Invalid(format!(
                "has a subgraph with {} inputs, but {} are expected",
                g.input.len(),
                inputs.len()
            )));
        }
        let saved_values = self.values.clone();
        for (input, &v) in g.input.iter().zip(inputs) {
            self.values.insert(input.name().to_string(), v);
        }
        let result = self.subgraph_nodes(g, None, loc);
        self.values = saved_values;
        result
    }

    /// Converts a loop body whose arguments are `before`, the carried
    /// values (initially of `carried` types), then `after`, widening the
    /// carried types until the body yields what it receives (its yields
    /// from `yield_offset` on are the carried values). Returns the region,
    /// the yielded values and the carried types.
    #[allow(clippy::too_many_arguments)]
    fn loop_body(
        &mut self,
        g: &GraphProto,
        before: &[Type],
        mut carried: Vec<Type>,
        after: &[Type],
        yield_offset: usize,
        replace_first: Option<bool>,
        loc: Location,
    ) -> Res<(Region, Vec<Value>, Vec<Type>)> {
        for _ in 0..WIDENING_ROUNDS {
            let mut types = before.to_vec();
            types.extend(&carried);
            types.extend_from_slice(after);
            let (region, yielded) = self.subgraph(g, &types, replace_first, loc)?;
            let yielded = self.wrap_optional_yields(region, yielded, &carried, yield_offset, loc);
            let mut widened = false;
            for (k, ty) in carried.iter_mut().enumerate() {
                let Some(&y) = yielded.get(yield_offset + k) else {
                    break;
                };
                let yielded_ty = self.ctx.value_type(y);
                if shape_of(self.ctx, *ty).is_none() {
                    // A sequence or an optional: widened to the join.
                    let joined = join_types(self.ctx, *ty, yielded_ty).ok_or_else(|| {
                        ConvertError::Invalid(format!(
                            "carries value #{k} as {} but its body yields {}",
                            strata_ir::printer::type_to_string(self.ctx, *ty),
                            strata_ir::printer::type_to_string(self.ctx, yielded_ty)
                        ))
                    })?;
                    if joined != *ty {
                        *ty = joined;
                        widened = true;
                    }
                    continue;
                }
                let (Some((have, elem)), Some((got, yelem))) = (
                    shape_of(self.ctx, *ty),
                    shape_of(self.ctx, self.ctx.value_type(y)),
                ) else {
                    continue;
                };
                if yelem != elem {
                    return Err(ConvertError::Invalid(format!(
                        "carries value #{k} as {} but its body yields {}",
                        strata_ir::printer::type_to_string(self.ctx, *ty),
                        strata_ir::printer::type_to_string(self.ctx, self.ctx.value_type(y))
                    )));
                }
                let joined = join(&have, &got);
                if joined != have {
                    *ty = tensor_type(self.ctx, &joined, elem);
                    widened = true;
                }
            }
            if !widened {
                return Ok((region, yielded, carried));
            }
            if let Some(block) = self.ctx.region_entry_block(region) {
                self.ctx.erase_block(block);
            }
        }
        // Last resort: carried values of unknown shape always settle.
        for ty in &mut carried {
            *ty = unranked(self.ctx, *ty);
        }
        let mut types = before.to_vec();
        types.extend(&carried);
        types.extend_from_slice(after);
        let (region, yielded) = self.subgraph(g, &types, replace_first, loc)?;
        let yielded = self.wrap_optional_yields(region, yielded, &carried, yield_offset, loc);
        Ok((region, yielded, carried))
    }

    /// ONNX lets a loop carry an optional whose body yields a plain value
    /// (the optional's value): such a yield is wrapped in `graph.optional`
    /// before the region's `graph.yield`, so the carried type stays an
    /// optional.
    fn wrap_optional_yields(
        &mut self,
        region: Region,
        mut yielded: Vec<Value>,
        carried: &[Type],
        yield_offset: usize,
        loc: Location,
    ) -> Vec<Value> {
        let terminator = self
            .ctx
            .region_entry_block(region)
            .and_then(|b| self.ctx.block_last_op(b));
        let Some(terminator) = terminator else {
            return yielded;
        };
        for (k, &ty) in carried.iter().enumerate() {
            let Some(&y) = yielded.get(yield_offset + k) else {
                break;
            };
            let (Some(element), yt) = (opt_element(self.ctx, ty), self.ctx.value_type(y)) else {
                continue;
            };
            if opt_element(self.ctx, yt).is_some() {
                continue;
            }
            let Some(joined) = join_types(self.ctx, element, yt) else {
                continue;
            };
            let wrapped_ty = opt_type(self.ctx, joined);
            let wrap = self.create("graph.optional", vec![y], vec![wrapped_ty], vec![], loc);
            self.ctx.insert_op_before(terminator, wrap);
            let wrapped = self.ctx.result(wrap, 0);
            self.ctx.set_operand(terminator, yield_offset + k, wrapped);
            yielded[yield_offset + k] = wrapped;
        }
        yielded
    }

    /// Appends the op `name` with `operands`, result types and `regions` to
    /// the current block.
    pub(super) fn region_op(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        result_types: Vec<Type>,
        props: Vec<(&str, strata_ir::Attribute)>,
        regions: Vec<Region>,
        loc: Location,
    ) -> Vec<Value> {
        let ident = self.ctx.ident(name);
        let mut state = strata_ir::OperationState::new(ident, loc);
        state.operands = operands;
        state.result_types = result_types;
        state.regions = regions;
        self.set_props(&mut state, name, props);
        let op: Operation = self.ctx.create_operation(state);
        if let Some(block) = self.block {
            self.ctx.append_op(block, op);
        }
        self.ctx.results(op).collect()
    }

    /// A 0-D tensor type of `elem`.
    fn scalar_type(&mut self, bits: u32) -> Type {
        let elem = self.ctx.integer_type(bits);
        self.ctx.tensor_type(vec![], elem)
    }

    /// The element type and shape of `v`.
    pub(super) fn shape_elem(&self, v: Value) -> Res<(Shape, Type)> {
        shape_of(self.ctx, self.ctx.value_type(v))
            .ok_or_else(|| ConvertError::Invalid("takes a value that is not a tensor".into()))
    }

    /// A `graph.scan` over `scanned` (along `axes`, from the end where
    /// `reverse`) with `states`, whose body is `g`; outputs stacked along
    /// `out_axes`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn build_scan(
        &mut self,
        g: &GraphProto,
        states: Vec<Value>,
        scanned: Vec<Value>,
        axes: Vec<i64>,
        reverse: Vec<i64>,
        out_axes: Option<Vec<i64>>,
        out_reverse: Option<Vec<i64>>,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let mut slices = Vec::with_capacity(scanned.len());
        for (j, &x) in scanned.iter().enumerate() {
            let (shape, elem) = self.shape_elem(x)?;
            let dims = shape.dims().ok_or_else(|| {
                ConvertError::unsupported(format!("scanned input #{j} has an unknown rank"))
            })?;
            let axis = strata_dialects::graph::infer::norm_axis(axes[j], dims.len(), "scan axis")?;
            let mut slice = dims.to_vec();
            slice.remove(axis);
            slices.push(tensor_type(self.ctx, &Shape::ranked(slice), elem));
        }
        let state_types: Vec<Type> = states.iter().map(|&v| self.ctx.value_type(v)).collect();
        // The body's arguments: the states (widened as needed), then the slices.
        let (region, yielded, state_types) =
            self.loop_body(g, &[], state_types, &slices, 0, None, loc)?;
        if yielded.len() < states.len() {
            return Err(ConvertError::Invalid(format!(
                "has a body with {} outputs, fewer than its {} states",
                yielded.len(),
                states.len()
            )));
        }
        let outputs = yielded.len().saturating_sub(states.len());
        let length = scanned
            .first()
            .and_then(|&x| {
                let (shape, _) = self.shape_elem(x).ok()?;
                let dims = shape.dims()?.to_vec();
                let axis =
                    strata_dialects::graph::infer::norm_axis(axes[0], dims.len(), "axis").ok()?;
                Some(dims[axis].clone())
            })
            .unwrap_or(Dim::Unknown);
        let out_axes_v = out_axes.clone().unwrap_or_else(|| vec![0; outputs]);
        let mut result_types = state_types;
        for (k, &y) in yielded[states.len()..].iter().enumerate() {
            let (shape, elem) = self.shape_elem(y)?;
            let stacked = match (shape.dims(), out_axes_v.get(k)) {
                (Some(dims), Some(&axis)) => {
                    let axis = strata_dialects::graph::infer::norm_axis(
                        axis,
                        dims.len() + 1,
                        "output axis",
                    )?;
                    let mut d = dims.to_vec();
                    d.insert(axis, length.clone());
                    Shape::ranked(d)
                }
                _ => Shape::unranked(),
            };
            result_types.push(tensor_type(self.ctx, &stacked, elem));
        }
        let m = scanned.len() as i64;
        let mut props = vec![("num_scan_inputs", self.i64_attr(m))];
        if axes.iter().any(|&a| a != 0) {
            props.push(("scan_input_axes", self.i64_array(&axes)));
        }
        if reverse.iter().any(|&a| a != 0) {
            props.push(("scan_input_directions", self.i64_array(&reverse)));
        }
        if let Some(v) = out_axes.filter(|v| v.iter().any(|&a| a != 0)) {
            props.push(("scan_output_axes", self.i64_array(&v)));
        }
        if let Some(v) = out_reverse.filter(|v| v.iter().any(|&a| a != 0)) {
            props.push(("scan_output_directions", self.i64_array(&v)));
        }
        let mut operands = states;
        operands.extend(scanned);
        Ok(self.region_op(
            "graph.scan",
            operands,
            result_types,
            props,
            vec![region],
            loc,
        ))
    }
}

fn convert_if(
    im: &mut Importer<'_>,
    node: &NodeProto,
    a: &Attrs<'_>,
    loc: Location,
) -> Res<Vec<Value>> {
    let cond = im.req(node, 0)?;
    let then_g = graph_attr(a, "then_branch")?;
    let else_g = graph_attr(a, "else_branch")?;
    let (then_r, then_v) = im.subgraph(then_g, &[], None, loc)?;
    let (else_r, else_v) = im.subgraph(else_g, &[], None, loc)?;
    if then_v.len() != else_v.len() || then_v.len() != node.output.len() {
        return Err(ConvertError::Invalid(format!(
            "has branches with {} and {} outputs for its {} outputs",
            then_v.len(),
            else_v.len(),
            node.output.len()
        )));
    }
    let mut types = Vec::with_capacity(then_v.len());
    for (k, (&t, &e)) in then_v.iter().zip(&else_v).enumerate() {
        let (tt, et) = (im.ctx.value_type(t), im.ctx.value_type(e));
        let joined = join_types(im.ctx, tt, et).ok_or_else(|| {
            ConvertError::Invalid(format!(
                "has branches whose output #{k} differ in kind or element type ({} and {})",
                strata_ir::printer::type_to_string(im.ctx, tt),
                strata_ir::printer::type_to_string(im.ctx, et)
            ))
        })?;
        types.push(joined);
    }
    Ok(im.region_op(
        "graph.if",
        vec![cond],
        types,
        vec![],
        vec![then_r, else_r],
        loc,
    ))
}

pub(super) fn convert_loop(
    im: &mut Importer<'_>,
    node: &NodeProto,
    a: &Attrs<'_>,
    loc: Location,
) -> Res<Vec<Value>> {
    let body = graph_attr(a, "body")?;
    let max_trips = match im.input(node, 0)? {
        Some(m) => m,
        None => im.const_i64_scalar(i64::MAX, loc)?,
    };
    let (cond, ignore_cond) = match im.input(node, 1)? {
        Some(c) => (c, None),
        None => {
            // Without a condition input, the body's condition is ignored.
            (im.const_bool(true, loc)?, Some(true))
        }
    };
    let mut inits = Vec::new();
    for i in 2..node.input.len() {
        inits.push(im.req(node, i)?);
    }
    let fixed = [im.scalar_type(64), im.scalar_type(1)];
    let carried: Vec<Type> = inits.iter().map(|&v| im.ctx.value_type(v)).collect();
    let (region, yielded, carried) =
        im.loop_body(body, &fixed, carried, &[], 1, ignore_cond, loc)?;
    let n = inits.len();
    if yielded.len() < n + 1 {
        return Err(ConvertError::Invalid(format!(
            "has a body with {} outputs, fewer than the condition and its {n} carried values",
            yielded.len()
        )));
    }
    let mut types = carried;
    for &y in &yielded[n + 1..] {
        let (shape, elem) = im.shape_elem(y)?;
        let stacked = match shape.dims() {
            Some(d) => {
                let mut dims = vec![Dim::Unknown];
                dims.extend(d.iter().cloned());
                Shape::ranked(dims)
            }
            None => Shape::unranked(),
        };
        types.push(tensor_type(im.ctx, &stacked, elem));
    }
    let mut operands = vec![max_trips, cond];
    operands.extend(inits);
    Ok(im.region_op("graph.loop", operands, types, vec![], vec![region], loc))
}

fn convert_scan(
    im: &mut Importer<'_>,
    node: &NodeProto,
    a: &Attrs<'_>,
    loc: Location,
) -> Res<Vec<Value>> {
    let body = graph_attr(a, "body")?;
    let (mut inputs, m) = im.scan_inputs(node, a, 0)?;
    let scanned = inputs.split_off(inputs.len() - m);
    let axes = a.ints("scan_input_axes").unwrap_or_else(|| vec![0; m]);
    let reverse = a
        .ints("scan_input_directions")
        .unwrap_or_else(|| vec![0; m]);
    if axes.len() != m || reverse.len() != m {
        return Err(ConvertError::Invalid(
            "has scan_input_axes or scan_input_directions of the wrong length".into(),
        ));
    }
    im.build_scan(
        body,
        inputs,
        scanned,
        axes,
        reverse,
        a.ints("scan_output_axes"),
        a.ints("scan_output_directions"),
        loc,
    )
}

impl Importer<'_> {
    /// A `Scan` node's inputs from `first` on (the states, then the scanned
    /// inputs) and its `num_scan_inputs`, checked against their count.
    fn scan_inputs(
        &self,
        node: &NodeProto,
        a: &Attrs<'_>,
        first: usize,
    ) -> Res<(Vec<Value>, usize)> {
        let m = a
            .int("num_scan_inputs")
            .ok_or("requires the attribute 'num_scan_inputs'")?;
        let inputs = (first..node.input.len())
            .map(|i| self.req(node, i))
            .collect::<Res<Vec<Value>>>()?;
        let m = usize::try_from(m)
            .ok()
            .filter(|&m| m >= 1 && m <= inputs.len())
            .ok_or_else(|| format!("has num_scan_inputs {m} for its {} inputs", inputs.len()))?;
        Ok((inputs, m))
    }

    /// `Scan` at opset 8: a batch axis first (axis 0 of every input), the
    /// scan axis next, an optional `sequence_lens` input. The batch is an
    /// outer `graph.scan` over axis 0 of every input, whose body scans
    /// each batch element's slices as opset 9 does.
    pub(super) fn scan_v8(
        &mut self,
        node: &NodeProto,
        a: &Attrs<'_>,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let body = graph_attr(a, "body")?;
        let (inputs, m) = self.scan_inputs(node, a, 1)?;
        let n = inputs.len() - m;
        let reverse = a.ints("directions").unwrap_or_else(|| vec![0; m]);
        if reverse.len() != m {
            return Err(ConvertError::Invalid(
                "has directions of the wrong length".into(),
            ));
        }
        if self.input(node, 0)?.is_some() {
            return Err(ConvertError::unsupported(
                "with sequence_lens (opset 8) is not supported: every sequence must have the full length",
            ));
        }
        // The outer body: one batch element of every input.
        let mut slice_types = Vec::with_capacity(inputs.len());
        let mut batch = Dim::Unknown;
        for (j, &x) in inputs.iter().enumerate() {
            let (shape, elem) = self.shape_elem(x)?;
            let mut dims = shape
                .dims()
                .filter(|d| !d.is_empty())
                .ok_or_else(|| {
                    ConvertError::Invalid(format!("input #{} has no batch axis", j + 1))
                })?
                .to_vec();
            batch = dims.remove(0);
            slice_types.push(tensor_type(self.ctx, &Shape::ranked(dims), elem));
        }
        let saved_block = self.block;
        let region = self.ctx.create_region();
        let block = self.ctx.create_block();
        self.ctx.append_block(region, block);
        let args: Vec<Value> = slice_types
            .iter()
            .map(|&ty| self.ctx.add_block_argument(block, ty, loc))
            .collect();
        self.block = Some(block);
        let inner = self.build_scan(
            body,
            args[..n].to_vec(),
            args[n..].to_vec(),
            vec![0; m],
            reverse,
            None,
            None,
            loc,
        );
        self.block = saved_block;
        let inner = inner?;
        let yield_op = self.create("graph.yield", inner.clone(), vec![], vec![], loc);
        self.ctx.append_op(block, yield_op);
        let mut types = Vec::with_capacity(inner.len());
        for &v in &inner {
            let (shape, elem) = self.shape_elem(v)?;
            let stacked = match shape.dims() {
                Some(d) => {
                    let mut dims = vec![batch.clone()];
                    dims.extend(d.iter().cloned());
                    Shape::ranked(dims)
                }
                None => Shape::unranked(),
            };
            types.push(tensor_type(self.ctx, &stacked, elem));
        }
        let count = self.i64_attr(inputs.len() as i64);
        Ok(self.region_op(
            "graph.scan",
            inputs,
            types,
            vec![("num_scan_inputs", count)],
            vec![region],
            loc,
        ))
    }
}
