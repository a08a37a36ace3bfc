//! Building sequences of `graph` ops at an insertion point: the small
//! vocabulary (constants, slices, reshapes, casts, ranges, region ops)
//! that a decomposition written in terms of other `graph` ops speaks.
//!
//! An [`Emitter`] creates each op with the result types its shape function
//! infers ([`build_graph_op`]) and places it before an anchor op (a pass
//! expanding that op) or at the end of a block (a region body being
//! built). Errors are the shape functions' messages, for the caller to
//! locate.
//!
//! ```
//! use strata_dialects::graph::emit::Emitter;
//! use strata_dialects::graph::shape::Dim;
//! use strata_ir::Context;
//!
//! let mut ctx = Context::new();
//! strata_dialects::register_all(&mut ctx);
//! let loc = ctx.unknown_loc();
//! let block = ctx.create_block();
//! let mut e = Emitter::at_end(&mut ctx, block, loc);
//! let x = e.const_i64(&[1, 2, 3, 4]).unwrap();
//! let y = e.take(x, 0, 1, 3).unwrap();
//! assert_eq!(e.dims(y), Some(vec![Dim::Known(2)]));
//! ```

use strata_ir::attributes::AttrKind;
use strata_ir::float::FloatKind;
use strata_ir::types::{Signedness, TypeKind};
use strata_ir::{
    Attribute, Block, Context, Location, Operation, OperationState, Region, Type, Value,
};

use super::shape::{shape_of, Dim};
use crate::builders::build_graph_op;

/// Where an [`Emitter`] places the ops it creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertPoint {
    /// Immediately before this op, in its block.
    Before(Operation),
    /// At the end of this block.
    End(Block),
}

/// What went wrong building an op: the shape function's message.
pub type EmitResult<T> = Result<T, String>;

/// Creates `graph` ops at an insertion point, all at one location.
pub struct Emitter<'c> {
    /// The context the ops are created in.
    pub ctx: &'c mut Context,
    /// Where the next op goes.
    pub point: InsertPoint,
    /// The location of every op created.
    pub loc: Location,
}

impl<'c> Emitter<'c> {
    /// An emitter placing ops before `anchor`, at `anchor`'s location.
    pub fn before(ctx: &'c mut Context, anchor: Operation) -> Self {
        let loc = ctx.op_loc(anchor);
        Emitter {
            ctx,
            point: InsertPoint::Before(anchor),
            loc,
        }
    }

    /// An emitter appending ops to `block`.
    pub fn at_end(ctx: &'c mut Context, block: Block, loc: Location) -> Self {
        Emitter {
            ctx,
            point: InsertPoint::End(block),
            loc,
        }
    }

    /// Place `op` (detached) at the insertion point.
    pub fn insert(&mut self, op: Operation) {
        match self.point {
            InsertPoint::Before(anchor) => self.ctx.insert_op_before(anchor, op),
            InsertPoint::End(block) => self.ctx.append_op(block, op),
        }
    }

    /// The `graph` op `name` with inferred result types (`element` gives
    /// the element type where the op declares it: `graph.cast`).
    pub fn op(
        &mut self,
        name: &str,
        operands: &[Value],
        props: &[(&str, Attribute)],
        num_results: usize,
        element: Option<Type>,
    ) -> EmitResult<Vec<Value>> {
        let op = build_graph_op(
            self.ctx,
            self.loc,
            name,
            operands,
            props,
            num_results,
            element,
        )
        .map_err(|e| format!("'{}' {}", e.op, e.message))?;
        self.insert(op);
        Ok(self.ctx.results(op).collect())
    }

    /// The one-result `graph` op `name`.
    pub fn op1(
        &mut self,
        name: &str,
        operands: &[Value],
        props: &[(&str, Attribute)],
    ) -> EmitResult<Value> {
        Ok(self.op(name, operands, props, 1, None)?[0])
    }

    /// An op with regions and given result types (`graph.scan`, `graph.if`),
    /// whose types come from its bodies rather than a shape function.
    pub fn region_op(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        result_types: Vec<Type>,
        props: &[(&str, Attribute)],
        regions: Vec<Region>,
    ) -> Vec<Value> {
        let ident = self.ctx.ident(name);
        let mut state = OperationState::new(ident, self.loc);
        state.operands = operands;
        state.result_types = result_types;
        state.regions = regions;
        if !props.is_empty() {
            let entries = props.iter().map(|&(k, v)| (self.ctx.ident(k), v)).collect();
            state.properties = Some(self.ctx.dictionary_attr(entries));
        }
        if let Some(spec) = self.ctx.registry().op_spec(name) {
            strata_ir::ods::fill_default_properties(self.ctx, spec, &mut state);
        }
        let op = self.ctx.create_operation(state);
        self.insert(op);
        self.ctx.results(op).collect()
    }

    /// `a name b` (a binary elementwise op).
    pub fn bin(&mut self, name: &str, a: Value, b: Value) -> EmitResult<Value> {
        self.op1(name, &[a, b], &[])
    }

    /// `name x` (a unary op without attributes).
    pub fn un(&mut self, name: &str, x: Value) -> EmitResult<Value> {
        self.op1(name, &[x], &[])
    }

    /// A `graph.constant` of `value`.
    pub fn constant(&mut self, value: Attribute) -> EmitResult<Value> {
        self.op1("graph.constant", &[], &[("value", value)])
    }

    /// A 1-D `i64` constant.
    pub fn const_i64(&mut self, values: &[i64]) -> EmitResult<Value> {
        let i64t = self.ctx.integer_type(64);
        let ty = self.ctx.tensor_type(vec![values.len() as i64], i64t);
        let raw = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let attr = self
            .ctx
            .dense_elements_attr(ty, raw)
            .ok_or("could not build an i64 constant")?;
        self.constant(attr)
    }

    /// A 0-D `i64` constant.
    pub fn const_i64_scalar(&mut self, v: i64) -> EmitResult<Value> {
        let i64t = self.ctx.integer_type(64);
        let ty = self.ctx.tensor_type(vec![], i64t);
        let attr = self
            .ctx
            .dense_elements_attr(ty, v.to_le_bytes().to_vec())
            .ok_or("could not build an i64 constant")?;
        self.constant(attr)
    }

    /// A 0-D constant of `x`'s element type.
    pub fn scalar_like(&mut self, x: Value, v: f64) -> EmitResult<Value> {
        let elem = self.elem(x)?;
        let ty = self.ctx.tensor_type(vec![], elem);
        let attr = scalar_attr(self.ctx, ty, v).ok_or("has an operand of an unsupported type")?;
        self.constant(attr)
    }

    /// Zeros of the static `shape` in `like`'s element type.
    pub fn zeros(&mut self, like: Value, shape: &[i64]) -> EmitResult<Value> {
        let elem = self.elem(like)?;
        let scalar = self.ctx.tensor_type(vec![], elem);
        let zero = scalar_attr(self.ctx, scalar, 0.0).ok_or("has an unsupported element type")?;
        let raw = match self.ctx.attr_kind(zero) {
            AttrKind::DenseElements { data, .. } => data.raw.to_vec(),
            _ => return Err("has an unsupported element type".into()),
        };
        let n: i64 = shape.iter().product();
        let ty = self.ctx.tensor_type(shape.to_vec(), elem);
        let attr = self
            .ctx
            .dense_elements_attr(ty, raw.repeat(n.max(0) as usize))
            .ok_or("could not build zeros")?;
        self.constant(attr)
    }

    /// The element type of the tensor `v`.
    pub fn elem(&self, v: Value) -> EmitResult<Type> {
        shape_of(self.ctx, self.ctx.value_type(v))
            .map(|(_, e)| e)
            .ok_or_else(|| "has an operand that is not a tensor".into())
    }

    /// The dimensions of the ranked tensor `v`.
    pub fn dims(&self, v: Value) -> Option<Vec<Dim>> {
        shape_of(self.ctx, self.ctx.value_type(v)).and_then(|(s, _)| s.dims().map(<[Dim]>::to_vec))
    }

    /// An `i64` attribute.
    pub fn i64_attr(&mut self, v: i64) -> Attribute {
        let t = self.ctx.integer_type(64);
        self.ctx.integer_attr(t, i128::from(v))
    }

    /// An `f64` attribute.
    pub fn f64_attr(&mut self, v: f64) -> Attribute {
        let t = self.ctx.float_type(FloatKind::F64);
        self.ctx.float_attr(t, v)
    }

    /// An `array<i64: ...>` attribute.
    pub fn i64_array(&mut self, v: &[i64]) -> Attribute {
        let element = self.ctx.integer_type(64);
        self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: v.iter().map(|&x| x as u64).collect(),
        })
    }

    /// An `operandSegmentSizes` attribute.
    pub fn segments(&mut self, sizes: &[i32]) -> Attribute {
        let element = self.ctx.integer_type(32);
        self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: sizes.iter().map(|&x| x as u32 as u64).collect(),
        })
    }

    /// `x` cast to element type `elem` (`x` itself when it has it).
    pub fn cast_to(&mut self, x: Value, elem: Type) -> EmitResult<Value> {
        if self.elem(x)? == elem {
            return Ok(x);
        }
        Ok(self.op("graph.cast", &[x], &[], 1, Some(elem))?[0])
    }

    /// `x` reshaped to the 1-D `i64` `shape`.
    pub fn reshape(&mut self, x: Value, shape: Value) -> EmitResult<Value> {
        let allowzero = self.ctx.bool_attr(false);
        self.op1("graph.reshape", &[x, shape], &[("allowzero", allowzero)])
    }

    /// `x` with unit dimensions inserted at `axes`.
    pub fn unsqueeze(&mut self, x: Value, axes: &[i64]) -> EmitResult<Value> {
        let axes = self.const_i64(axes)?;
        self.op1("graph.unsqueeze", &[x, axes], &[])
    }

    /// `x` with its dimensions permuted.
    pub fn permute(&mut self, x: Value, perm: &[i64]) -> EmitResult<Value> {
        let perm = self.i64_array(perm);
        self.op1("graph.transpose", &[x], &[("perm", perm)])
    }

    /// `parts` concatenated along `axis` (the one part itself).
    pub fn concat(&mut self, parts: &[Value], axis: i64) -> EmitResult<Value> {
        if let [one] = parts {
            return Ok(*one);
        }
        let axis = self.i64_attr(axis);
        self.op1("graph.concat", parts, &[("axis", axis)])
    }

    /// `x[start:end]` along `axis`.
    pub fn take(&mut self, x: Value, axis: i64, start: i64, end: i64) -> EmitResult<Value> {
        let operands = [
            x,
            self.const_i64(&[start])?,
            self.const_i64(&[end])?,
            self.const_i64(&[axis])?,
        ];
        let seg = self.segments(&[1, 1, 1, 1, 0]);
        self.op1("graph.slice", &operands, &[("operandSegmentSizes", seg)])
    }

    /// Element `i` of `x` along `axis`, the axis removed.
    pub fn pick(&mut self, x: Value, axis: i64, i: i64) -> EmitResult<Value> {
        let s = self.take(x, axis, i, i + 1)?;
        let axes = self.const_i64(&[axis])?;
        self.op1("graph.squeeze", &[s, axes], &[])
    }

    /// `x` clipped to `[lo, hi]` (scalars of `x`'s element type).
    pub fn clip(&mut self, x: Value, lo: f64, hi: f64) -> EmitResult<Value> {
        let lo = self.scalar_like(x, lo)?;
        let hi = self.scalar_like(x, hi)?;
        let seg = self.segments(&[1, 1, 1]);
        self.op1("graph.clip", &[x, lo, hi], &[("operandSegmentSizes", seg)])
    }

    /// Dimensions `start..end` of `x` as a 1-D `i64` tensor.
    pub fn shape_of(&mut self, x: Value, start: i64, end: i64) -> EmitResult<Value> {
        let props = [("start", self.i64_attr(start)), ("end", self.i64_attr(end))];
        self.op1("graph.shape_of", &[x], &props)
    }

    /// Dimension `axis` of `x` as a 0-D `i64`: a constant when static.
    pub fn dim_scalar(&mut self, x: Value, axis: usize) -> EmitResult<Value> {
        if let Some(Dim::Known(n)) = self.dims(x).and_then(|d| d.get(axis).cloned()) {
            return self.const_i64_scalar(n);
        }
        let d = self.shape_of(x, axis as i64, axis as i64 + 1)?;
        let scalar = self.const_i64(&[])?;
        self.reshape(d, scalar)
    }

    /// `0, 1, ..., n - 1` (an `i64` range of the 0-D `n`).
    pub fn iota(&mut self, n: Value) -> EmitResult<Value> {
        let zero = self.const_i64_scalar(0)?;
        let one = self.const_i64_scalar(1)?;
        self.op1("graph.range", &[zero, n, one], &[])
    }
}

/// A constant of type `ty` (a tensor of one element) holding `v`: floats
/// round to nearest, integers truncate toward zero and saturate, `i1` is
/// `v != 0`; `None` for other element types.
pub fn scalar_attr(ctx: &mut Context, ty: Type, v: f64) -> Option<Attribute> {
    let elem = ctx.type_kind(ty).element_type()?;
    let raw = match ctx.type_kind(elem) {
        TypeKind::Float(kind) => match kind {
            FloatKind::F16 => half::f16::from_f64(v).to_le_bytes().to_vec(),
            FloatKind::BF16 => half::bf16::from_f64(v).to_le_bytes().to_vec(),
            FloatKind::F32 => (v as f32).to_le_bytes().to_vec(),
            FloatKind::F64 => v.to_le_bytes().to_vec(),
            _ => return None,
        },
        TypeKind::Integer { width: 1, .. } => vec![u8::from(v != 0.0)],
        &TypeKind::Integer { width, signedness } if matches!(width, 8 | 16 | 32 | 64) => {
            // Saturate at the type's bounds (NaN becomes 0), then keep the
            // low bytes.
            let bits = width - 1;
            let bytes = if signedness == Signedness::Unsigned {
                let max = if width == 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                ((v.max(0.0) as u64).min(max)).to_le_bytes()
            } else {
                let (lo, hi) = (-(1i128 << bits), (1i128 << bits) - 1);
                ((v as i128).clamp(lo, hi) as i64).to_le_bytes()
            };
            bytes[..width as usize / 8].to_vec()
        }
        _ => return None,
    };
    ctx.dense_elements_attr(ty, raw)
}
