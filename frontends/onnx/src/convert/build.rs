//! Building `graph` ops: creating operations with inferred result types,
//! constants, operands by input index, attribute values, and the small
//! compositions (casts, scalars, ranges, reshapes) that the conversions
//! share.

use strata_dialects::builders::build_graph_op;
use strata_dialects::graph::shape::{shape_of, Dim};
use strata_ir::attributes::AttrKind;
use strata_ir::float::FloatKind;
use strata_ir::{Attribute, Location, Operation, OperationState, Type, Value};

use super::{Importer, Res};
use crate::proto::NodeProto;

impl Importer<'_> {
    pub(super) fn create(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        result_types: Vec<Type>,
        props: Vec<(&str, Attribute)>,
        loc: Location,
    ) -> Operation {
        let ident = self.ctx.ident(name);
        let mut state = OperationState::new(ident, loc);
        state.operands = operands;
        state.result_types = result_types;
        self.set_props(&mut state, name, props);
        self.ctx.create_operation(state)
    }

    pub(super) fn create_with_regions(
        &mut self,
        name: &str,
        props: Vec<(&str, Attribute)>,
        regions: Vec<strata_ir::Region>,
        loc: Location,
    ) -> Operation {
        let ident = self.ctx.ident(name);
        let mut state = OperationState::new(ident, loc);
        state.regions = regions;
        self.set_props(&mut state, name, props);
        self.ctx.create_operation(state)
    }

    pub(super) fn set_props(
        &mut self,
        state: &mut OperationState,
        name: &str,
        props: Vec<(&str, Attribute)>,
    ) {
        if !props.is_empty() {
            let entries = props
                .into_iter()
                .map(|(k, v)| (self.ctx.ident(k), v))
                .collect();
            state.properties = Some(self.ctx.dictionary_attr(entries));
        }
        if let Some(spec) = self.ctx.registry().op_spec(name) {
            strata_ir::ods::fill_default_properties(self.ctx, spec, state);
        }
    }

    /// Creates a `graph` op at the end of the body with inferred result
    /// types (`element` gives the result's element type where the op
    /// declares it: `graph.cast`), with the dialect's own builder
    /// ([`build_graph_op`]).
    pub(super) fn op(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        props: Vec<(&str, Attribute)>,
        num_results: usize,
        element: Option<Type>,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let op = build_graph_op(self.ctx, loc, name, &operands, &props, num_results, element)
            .map_err(|e| e.message)?;
        if let Some(block) = self.block {
            self.ctx.append_op(block, op);
        }
        Ok(self.ctx.results(op).collect())
    }

    pub(super) fn op1(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        props: Vec<(&str, Attribute)>,
        loc: Location,
    ) -> Res<Value> {
        self.op(name, operands, props, 1, None, loc).map(|r| r[0])
    }

    pub(super) fn constant(&mut self, value: Attribute, loc: Location) -> Res<Value> {
        self.op1("graph.constant", vec![], vec![("value", value)], loc)
    }

    pub(super) fn const_i64(&mut self, values: &[i64], loc: Location) -> Res<Value> {
        self.const_i64_shaped(values, &[values.len() as i64], loc)
    }

    /// A constant of element type `elem` and shape `shape` holding `raw`,
    /// its elements' little-endian bytes in row-major order.
    pub(super) fn const_raw(
        &mut self,
        elem: Type,
        shape: &[i64],
        raw: Vec<u8>,
        loc: Location,
    ) -> Res<Value> {
        let attr = self.dense_attr(elem, shape, raw)?;
        self.constant(attr, loc)
    }

    /// `dense<...> : tensor<shape x elem>` of `raw`, the elements'
    /// little-endian bytes in row-major order.
    pub(super) fn dense_attr(&mut self, elem: Type, shape: &[i64], raw: Vec<u8>) -> Res<Attribute> {
        let ty = self.ctx.tensor_type(shape.to_vec(), elem);
        Ok(self
            .ctx
            .dense_elements_attr(ty, raw)
            .ok_or("could not build a constant")?)
    }

    /// An i64 constant of shape `shape` (row-major `values`).
    pub(super) fn const_i64_shaped(
        &mut self,
        values: &[i64],
        shape: &[i64],
        loc: Location,
    ) -> Res<Value> {
        let i64t = self.ctx.integer_type(64);
        let raw = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.const_raw(i64t, shape, raw, loc)
    }

    /// An f32 constant of shape `shape` (row-major `values`).
    pub(super) fn const_f32_shaped(
        &mut self,
        values: &[f32],
        shape: &[i64],
        loc: Location,
    ) -> Res<Value> {
        let f32t = self.ctx.float_type(strata_ir::float::FloatKind::F32);
        let raw = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.const_raw(f32t, shape, raw, loc)
    }

    /// An f64 constant of shape `shape` (row-major `values`).
    pub(super) fn const_f64_shaped(
        &mut self,
        values: &[f64],
        shape: &[i64],
        loc: Location,
    ) -> Res<Value> {
        let f64t = self.ctx.float_type(strata_ir::float::FloatKind::F64);
        let raw = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.const_raw(f64t, shape, raw, loc)
    }

    pub(super) fn input(&self, node: &NodeProto, i: usize) -> Res<Option<Value>> {
        match node.input.get(i) {
            None => Ok(None),
            Some(n) if n.is_empty() => Ok(None),
            Some(n) => self
                .values
                .get(n)
                .copied()
                .map(Some)
                .ok_or_else(|| format!("uses '{n}', which no node or input defines").into()),
        }
    }

    pub(super) fn req(&self, node: &NodeProto, i: usize) -> Res<Value> {
        self.input(node, i)?
            .ok_or_else(|| format!("requires input #{i}").into())
    }

    pub(super) fn elem(&self, v: Value) -> Option<Type> {
        shape_of(self.ctx, self.ctx.value_type(v)).map(|(_, e)| e)
    }

    pub(super) fn i64_attr(&mut self, v: i64) -> Attribute {
        let t = self.ctx.integer_type(64);
        self.ctx.integer_attr(t, i128::from(v))
    }

    pub(super) fn f64_attr(&mut self, v: f64) -> Attribute {
        let t = self.ctx.float_type(FloatKind::F64);
        self.ctx.float_attr(t, v)
    }

    /// A `tensor<i1>` constant.
    pub(super) fn const_bool(&mut self, v: bool, loc: Location) -> Res<Value> {
        let i1 = self.ctx.integer_type(1);
        let ty = self.ctx.tensor_type(vec![], i1);
        let attr = self
            .ctx
            .dense_elements_attr(ty, vec![u8::from(v)])
            .ok_or("could not build a constant")?;
        self.constant(attr, loc)
    }

    pub(super) fn bool_attr(&mut self, v: bool) -> Attribute {
        self.ctx.bool_attr(v)
    }

    pub(super) fn i64_array(&mut self, v: &[i64]) -> Attribute {
        let element = self.ctx.integer_type(64);
        self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: v.iter().map(|&x| x as u64).collect(),
        })
    }

    pub(super) fn segments(&mut self, sizes: &[i32]) -> Attribute {
        let element = self.ctx.integer_type(32);
        self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: sizes.iter().map(|&x| x as u32 as u64).collect(),
        })
    }

    pub(super) fn const_int(&self, v: Value) -> Option<Vec<i64>> {
        strata_dialects::graph::infer::operand_info(self.ctx, v).and_then(|i| i.value)
    }

    pub(super) fn dims_of(&self, x: Value) -> Option<Vec<Dim>> {
        shape_of(self.ctx, self.ctx.value_type(x)).and_then(|(s, _)| s.dims().map(<[Dim]>::to_vec))
    }

    /// A 0-D constant of element type `elem`.
    pub(super) fn scalar(&mut self, elem: Type, v: f64, loc: Location) -> Res<Value> {
        let ty = self.ctx.tensor_type(vec![], elem);
        let attr =
            scalar_attr(self.ctx, ty, v).ok_or("in this form is supported on f32 and f64 only")?;
        self.constant(attr, loc)
    }
}

impl Importer<'_> {
    pub(super) fn bin(&mut self, name: &str, a: Value, b: Value, loc: Location) -> Res<Value> {
        self.op1(name, vec![a, b], vec![], loc)
    }

    pub(super) fn un(&mut self, name: &str, x: Value, loc: Location) -> Res<Value> {
        self.op1(name, vec![x], vec![], loc)
    }

    pub(super) fn reshape(&mut self, x: Value, shape: Value, loc: Location) -> Res<Value> {
        let allowzero = self.bool_attr(false);
        self.op1(
            "graph.reshape",
            vec![x, shape],
            vec![("allowzero", allowzero)],
            loc,
        )
    }

    pub(super) fn reduce_mean(&mut self, x: Value, axes: &[i64], loc: Location) -> Res<Value> {
        let axes = self.const_i64(axes, loc)?;
        let keep = self.bool_attr(true);
        self.op1(
            "graph.reduce_mean",
            vec![x, axes],
            vec![("keepdims", keep)],
            loc,
        )
    }

    pub(super) fn reduce_sum(&mut self, x: Value, axes: &[i64], loc: Location) -> Res<Value> {
        let axes = self.const_i64(axes, loc)?;
        let keep = self.bool_attr(false);
        self.op1(
            "graph.reduce_sum",
            vec![x, axes],
            vec![("keepdims", keep)],
            loc,
        )
    }

    pub(super) fn unsqueeze(&mut self, x: Value, axes: &[i64], loc: Location) -> Res<Value> {
        let axes = self.const_i64(axes, loc)?;
        self.op1("graph.unsqueeze", vec![x, axes], vec![], loc)
    }

    pub(super) fn rank_of(&self, x: Value) -> Option<usize> {
        self.dims_of(x).map(|d| d.len())
    }

    /// A 0-D constant of `x`'s element type.
    pub(super) fn scalar_like(&mut self, x: Value, v: f64, loc: Location) -> Res<Value> {
        let elem = self.elem(x).ok_or("operand is not a tensor")?;
        let ty = self.ctx.tensor_type(vec![], elem);
        let attr = scalar_attr(self.ctx, ty, v).ok_or("has an operand of an unsupported type")?;
        self.constant(attr, loc)
    }

    pub(super) fn const_i64_scalar(&mut self, v: i64, loc: Location) -> Res<Value> {
        let i64t = self.ctx.integer_type(64);
        let ty = self.ctx.tensor_type(vec![], i64t);
        let attr = self
            .ctx
            .dense_elements_attr(ty, v.to_le_bytes().to_vec())
            .ok_or("could not build a constant")?;
        self.constant(attr, loc)
    }

    pub(super) fn cast_to(&mut self, x: Value, elem: Type, loc: Location) -> Res<Value> {
        if self.elem(x) == Some(elem) {
            return Ok(x);
        }
        Ok(self.op("graph.cast", vec![x], vec![], 1, Some(elem), loc)?[0])
    }

    /// `x` cast to `elem`, saturating an 8- or 4-bit float result or not
    /// (`graph.cast`'s `saturate`).
    pub(super) fn cast_saturating(
        &mut self,
        x: Value,
        elem: Type,
        saturate: bool,
        loc: Location,
    ) -> Res<Value> {
        if saturate || self.elem(x) == Some(elem) {
            return self.cast_to(x, elem, loc);
        }
        let no = self.ctx.bool_attr(false);
        Ok(self.op(
            "graph.cast",
            vec![x],
            vec![("saturate", no)],
            1,
            Some(elem),
            loc,
        )?[0])
    }

    /// A one-element tensor (shape `[]` or `[1]`) as a 0-D `i64`.
    pub(super) fn scalar_i64(&mut self, v: Value, loc: Location) -> Res<Value> {
        let i64t = self.ctx.integer_type(64);
        let v = self.cast_to(v, i64t, loc)?;
        match self.rank_of(v) {
            Some(0) => Ok(v),
            _ => {
                let shape = self.const_i64(&[], loc)?;
                self.reshape(v, shape, loc)
            }
        }
    }

    /// Dimension `axis` of `x` as a 0-D `i64`: a constant when static.
    pub(super) fn dim_scalar(&mut self, x: Value, axis: usize, loc: Location) -> Res<Value> {
        if let Some(Dim::Known(n)) = self.dims_of(x).and_then(|d| d.get(axis).cloned()) {
            return self.const_i64_scalar(n, loc);
        }
        let props = vec![
            ("start", self.i64_attr(axis as i64)),
            ("end", self.i64_attr(axis as i64 + 1)),
        ];
        let d = self.op1("graph.shape_of", vec![x], props, loc)?;
        self.scalar_i64(d, loc)
    }

    /// `0, 1, ..., n - 1` (an `i64` range) shaped `[n, 1, ..., 1]` with
    /// `trailing` ones, to broadcast along one axis.
    pub(super) fn iota(&mut self, n: Value, trailing: usize, loc: Location) -> Res<Value> {
        let zero = self.const_i64_scalar(0, loc)?;
        let one = self.const_i64_scalar(1, loc)?;
        let r = self.op1("graph.range", vec![zero, n, one], vec![], loc)?;
        if trailing == 0 {
            return Ok(r);
        }
        let axes: Vec<i64> = (1..=trailing as i64).collect();
        let axes = self.const_i64(&axes, loc)?;
        self.op1("graph.unsqueeze", vec![r, axes], vec![], loc)
    }

    /// `j - i` for the last two dimensions `[n, m]` of a rank-`rank` `x`,
    /// as an `[n, m]` `i64` tensor.
    pub(super) fn diagonal_offsets(&mut self, x: Value, rank: usize, loc: Location) -> Res<Value> {
        let n = self.dim_scalar(x, rank - 2, loc)?;
        let m = self.dim_scalar(x, rank - 1, loc)?;
        let rows = self.iota(n, 1, loc)?;
        let cols = self.iota(m, 0, loc)?;
        self.bin("graph.sub", cols, rows, loc)
    }
}

pub(super) use strata_dialects::graph::emit::scalar_attr;
