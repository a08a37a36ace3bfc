//! The values of a group's tensors at tile indices: the engine that turns
//! `tensor` ops into tile arithmetic inside one kernel.
//!
//! `value(T, E)` is the element (or tile of elements) of tensor `T` at the
//! index `E`, one index value per dimension of `T`: an `i32` scalar (the
//! same for the whole tile: a row or a batch index) or an `i32` tile. An
//! input of the group is loaded at `E`; a `tensor.map` is its body applied
//! to its inputs at `maps(E)`; a `tensor.reduce` is a `kernel.reduce` of
//! its input over the kernel's reduced tile; a `tensor.reshape` re-indexes
//! its source; the contraction of a matmul kernel is its accumulator.
//! Results are memoized per `(T, E)`, so a value used twice at one index is
//! computed once.

use std::collections::HashMap;

use strata_dialects::tensor::{MapOp, ReduceOp};
use strata_ir::affine::AffineExpr;
use strata_ir::{Block, Context, Diagnostic, Operation, Type, TypeKind, Value};

use super::builder::KernelBuilder;

pub(crate) type R<T> = Result<T, Diagnostic>;

pub(crate) fn err(ctx: &Context, op: Operation, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::op_error(ctx, op, message)
}

pub(crate) fn row_major_strides(shape: &[i64]) -> Vec<i64> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1].max(1);
    }
    s
}

/// The reduced tile of a row kernel.
pub(crate) struct RowReduction {
    /// The reduced dims of the anchor reduce's input, and its input shape.
    pub dims: Vec<i64>,
    pub input_shape: Vec<i64>,
    /// The index values of the reduced dims (tiles) and of the kept dims (scalars).
    pub reduced_index: Vec<Value>,
    pub row_index: Vec<Value>,
    /// `t < R` over the reduced tile.
    pub mask: Value,
}

/// What the group's kernel knows while evaluating values.
pub(crate) struct Group {
    /// The kernel's pointer parameter of each group input, and its shape.
    pub params: HashMap<Value, (Value, Vec<i64>)>,
    /// The ops of the group (values defined elsewhere are inputs).
    pub members: Vec<Operation>,
    pub memo: HashMap<(Value, Vec<Value>), Value>,
    /// The shapes of the gathered buffers, by kernel pointer parameter.
    pub gathered: HashMap<Value, Vec<i64>>,
    /// The mask of loads at tile indices (the kernel's tile shape).
    pub mask: Option<Value>,
    pub rows: Option<RowReduction>,
    /// The index of an elementwise kernel's domain and the linear offset
    /// it came from: a buffer of the domain's shape read at that index is
    /// read at the offset itself (contiguous).
    pub flat: Option<(Vec<Value>, Vec<i64>, Value)>,
}

fn element_type(ctx: &Context, ty: Type) -> Type {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { element, .. } => *element,
        _ => ty,
    }
}

impl Group {
    /// `value(t, e)`: see the module documentation.
    pub fn value(&mut self, b: &mut KernelBuilder<'_>, t: Value, e: &[Value]) -> R<Value> {
        let key = (t, e.to_vec());
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        let v = self.compute(b, t, e)?;
        self.memo.insert(key, v);
        Ok(v)
    }

    fn compute(&mut self, b: &mut KernelBuilder<'_>, t: Value, e: &[Value]) -> R<Value> {
        if let Some((ptr, shape)) = self.params.get(&t).cloned() {
            return self.load(b, ptr, &shape, t, e);
        }
        let Some(op) = b.ctx.defining_op(t).filter(|o| self.members.contains(o)) else {
            let loc = b.loc;
            return Err(Diagnostic::error(
                loc,
                "internal error: a value of the group has no source",
            ));
        };
        let name = b.ctx.op_name_str(op).to_string();
        match name.as_str() {
            "tensor.map" => self.map(b, op, e),
            "tensor.reduce" => self.reduce(b, op, e),
            "tensor.reshape" => self.reshape(b, op, e),
            "arith.constant" => self.splat_constant(b, op),
            _ => Err(err(
                b.ctx,
                op,
                format!("'{name}' cannot be part of this kernel"),
            )),
        }
    }

    /// An element of a group input: a load at `E` (masked when it is a tile).
    fn load(
        &mut self,
        b: &mut KernelBuilder<'_>,
        ptr: Value,
        shape: &[i64],
        t: Value,
        e: &[Value],
    ) -> R<Value> {
        let offset = match &self.flat {
            Some((fe, fs, lin)) if fe.as_slice() == e && fs.as_slice() == shape => *lin,
            _ => linearize(b, e, shape),
        };
        let element = element_type(b.ctx, b.ctx.value_type(t));
        match b.shape(offset) {
            Some(shape) => {
                let ptrs = b.addptr(ptr, offset);
                let ty = b.ctx.tensor_type(shape.clone(), element);
                let mask = self
                    .mask
                    .filter(|&m| b.shape(m).as_deref() == Some(&shape[..]));
                Ok(b.load(ptrs, mask, None, ty))
            }
            None => {
                let p = b.addptr(ptr, offset);
                Ok(b.load(p, None, None, element))
            }
        }
    }

    fn splat_constant(&mut self, b: &mut KernelBuilder<'_>, op: Operation) -> R<Value> {
        let ctx = &*b.ctx;
        let value = strata_ir::ods::inherent_attr(ctx, op, "value");
        let Some(strata_ir::AttrKind::DenseElements { ty, data }) = value.map(|a| ctx.attr_kind(a))
        else {
            return Err(err(ctx, op, "expected a dense constant"));
        };
        if !data.splat {
            return Err(err(
                ctx,
                op,
                "internal error: a non-splat constant inside a kernel",
            ));
        }
        let element = element_type(ctx, *ty);
        let raw = data.raw.clone();
        let attr = b
            .ctx
            .scalar_attr_from_le_bytes(element, &raw)
            .ok_or_else(|| err(b.ctx, op, "unsupported constant"))?;
        Ok(b.constant(attr, element))
    }

    /// An affine expression of the index values.
    pub fn eval(
        &self,
        b: &mut KernelBuilder<'_>,
        op: Operation,
        expr: &AffineExpr,
        e: &[Value],
    ) -> R<Value> {
        Ok(match expr {
            AffineExpr::Dim(d) => *e
                .get(*d as usize)
                .ok_or_else(|| err(b.ctx, op, "internal error: map dim out of range"))?,
            AffineExpr::Constant(c) => b.const_i32(*c),
            AffineExpr::Add(x, y) => {
                let (x, y) = (self.eval(b, op, x, e)?, self.eval(b, op, y, e)?);
                b.addi(x, y)
            }
            AffineExpr::Mul(x, y) => {
                let (x, y) = (self.eval(b, op, x, e)?, self.eval(b, op, y, e)?);
                b.muli(x, y)
            }
            AffineExpr::FloorDiv(x, y) | AffineExpr::Mod(x, y) | AffineExpr::CeilDiv(x, y) => {
                let Some(c) = y.as_constant().filter(|&c| c > 0) else {
                    return Err(err(b.ctx, op, "a map divides by a non-constant"));
                };
                let negative = may_be_negative(x);
                let mut x = self.eval(b, op, x, e)?;
                if matches!(expr, AffineExpr::CeilDiv(..)) {
                    let k = b.const_i32(c - 1);
                    x = b.addi(x, k);
                }
                let cv = b.const_i32(c);
                if !negative {
                    let name = if matches!(expr, AffineExpr::Mod(..)) {
                        "arith.remsi"
                    } else {
                        "arith.divsi"
                    };
                    return Ok(b.int_bin(name, x, cv));
                }
                // Affine `mod` and `floordiv` round toward negative
                // infinity; `remsi` / `divsi` toward zero: correct them
                // where the remainder is negative.
                let r = b.int_bin("arith.remsi", x, cv);
                let zero = b.const_i32(0);
                let neg = b.cmp_slt(r, zero);
                let ty = b.i32_type();
                if matches!(expr, AffineExpr::Mod(..)) {
                    let up = b.addi(r, cv);
                    b.elementwise("arith.select", &[neg, up, r], ty, vec![])
                } else {
                    let q = b.int_bin("arith.divsi", x, cv);
                    let one = b.const_i32(1);
                    let down = b.int_bin("arith.subi", q, one);
                    b.elementwise("arith.select", &[neg, down, q], ty, vec![])
                }
            }
            AffineExpr::Symbol(_) => return Err(err(b.ctx, op, "maps with symbols do not lower")),
        })
    }

    fn map(&mut self, b: &mut KernelBuilder<'_>, op: Operation, e: &[Value]) -> R<Value> {
        let map = MapOp(op);
        let maps = map.maps(b.ctx);
        let inputs: Vec<Value> = b.ctx.operands(op).collect();
        let mut args = Vec::with_capacity(inputs.len());
        for (k, (input, m)) in inputs.iter().zip(&maps).enumerate() {
            if map.is_gathered(b.ctx, k) {
                // Read whole: the body's `tensor.extract` loads from the buffer.
                let Some((ptr, shape)) = self.params.get(input).cloned() else {
                    return Err(err(
                        b.ctx,
                        op,
                        "a gathered input must be an input of its kernel",
                    ));
                };
                self.gathered.insert(ptr, shape);
                args.push(ptr);
                continue;
            }
            let domain =
                strata_dialects::tensor::shape_of(b.ctx, b.ctx.result(op, 0)).unwrap_or_default();
            let mut sub = Vec::with_capacity(m.results.len());
            for r in &m.results {
                fits_i32(b.ctx, op, r, &domain)?;
                sub.push(self.eval(b, op, r, e)?);
            }
            args.push(self.value(b, *input, &sub)?);
        }
        let Some(block) = map.body_block(b.ctx) else {
            return Err(err(b.ctx, op, "a map needs a body"));
        };
        self.apply_body(b, block, &args, e)
    }

    /// Clone `block`'s ops on `args` (scalars or tiles), `tensor.index d`
    /// reading `e[d]`; returns the yielded value.
    pub fn apply_body(
        &mut self,
        b: &mut KernelBuilder<'_>,
        block: Block,
        args: &[Value],
        e: &[Value],
    ) -> R<Value> {
        let mut mapping: HashMap<Value, Value> = HashMap::new();
        for (a, &v) in b
            .ctx
            .block_args(block)
            .collect::<Vec<_>>()
            .into_iter()
            .zip(args)
        {
            mapping.insert(a, v);
        }
        let ops: Vec<Operation> = b.ctx.block_ops(block).collect();
        for op in ops {
            let name = b.ctx.op_name_str(op).to_string();
            if name == "tensor.yield" || name == "kernel.yield" {
                let y = b.ctx.operand(op, 0);
                return mapping
                    .get(&y)
                    .copied()
                    .ok_or_else(|| err(b.ctx, op, "internal error: yield of an unknown value"));
            }
            if name == "tensor.index" {
                let d = strata_ir::ods::inherent_attr(b.ctx, op, "dim")
                    .and_then(|a| match b.ctx.attr_kind(a) {
                        strata_ir::AttrKind::Integer { value, .. } => Some(*value as usize),
                        _ => None,
                    })
                    .unwrap_or(0);
                let ix = *e
                    .get(d)
                    .ok_or_else(|| err(b.ctx, op, "tensor.index out of range"))?;
                let index = b.ctx.index_type();
                let v = b.elementwise("arith.index_cast", &[ix], index, vec![]);
                mapping.insert(b.ctx.result(op, 0), v);
                continue;
            }
            if name == "tensor.extract" {
                let v = self.extract(b, op, &mapping)?;
                mapping.insert(b.ctx.result(op, 0), v);
                continue;
            }
            if b.ctx.num_results(op) != 1 || !b.ctx.op_regions(op).is_empty() {
                return Err(err(
                    b.ctx,
                    op,
                    format!("'{name}' in a body does not lower to a kernel"),
                ));
            }
            let mut operands = Vec::new();
            for o in b.ctx.operands(op).collect::<Vec<_>>() {
                let v = match mapping.get(&o) {
                    Some(&v) => v,
                    // A scalar constant from outside the body (canonicalize
                    // hoists them): rebuilt in the kernel.
                    None => match b
                        .ctx
                        .defining_op(o)
                        .filter(|&d| b.ctx.op_name_str(d) == "arith.constant")
                    {
                        Some(d) => {
                            let ty = b.ctx.value_type(o);
                            let props = b.ctx.op_properties(d);
                            let new = b.op("arith.constant", &[], &[ty], vec![]);
                            b.ctx.set_op_properties(new, props);
                            let v = b.ctx.result(new, 0);
                            mapping.insert(o, v);
                            v
                        }
                        None => return Err(err(b.ctx, op, "a body uses a value from outside")),
                    },
                };
                operands.push(v);
            }
            let result = b.ctx.result(op, 0);
            let element = b.ctx.value_type(result);
            let props = b.ctx.op_properties(op);
            let v = if operands.is_empty() {
                let new = b.op(&name, &[], &[element], vec![]);
                b.ctx.set_op_properties(new, props);
                b.ctx.result(new, 0)
            } else {
                let v = b.elementwise(&name, &operands, element, vec![]);
                if let Some(def) = b.ctx.defining_op(v) {
                    b.ctx.set_op_properties(def, props);
                }
                v
            };
            mapping.insert(result, v);
        }
        Err(Diagnostic::error(b.loc, "a body has no yield"))
    }

    /// `tensor.extract` of a gathered buffer: each index cast to `i32`
    /// and clamped into its dimension, then a load at the linear offset
    /// (always in bounds).
    fn extract(
        &mut self,
        b: &mut KernelBuilder<'_>,
        op: Operation,
        mapping: &HashMap<Value, Value>,
    ) -> R<Value> {
        let operands: Vec<Value> = b.ctx.operands(op).collect();
        let mut mapped = Vec::with_capacity(operands.len());
        for o in &operands {
            mapped.push(
                *mapping
                    .get(o)
                    .ok_or_else(|| err(b.ctx, op, "a body uses a value from outside"))?,
            );
        }
        let ptr = mapped[0];
        let shape = self
            .gathered
            .get(&ptr)
            .cloned()
            .ok_or_else(|| err(b.ctx, op, "extracts from a tensor that is not gathered"))?;
        let i32t = b.i32_type();
        let mut e = Vec::with_capacity(shape.len());
        for (&ix, &n) in mapped[1..].iter().zip(&shape) {
            let i = b.elementwise("arith.index_cast", &[ix], i32t, vec![]);
            let zero = b.const_i32(0);
            let last = b.const_i32((n - 1).max(0));
            let lo = b.int_bin("arith.maxsi", i, zero);
            e.push(b.int_bin("arith.minsi", lo, last));
        }
        let offset = linearize(b, &e, &shape);
        let element = b.ctx.value_type(b.ctx.result(op, 0));
        let ptrs = b.addptr(ptr, offset);
        Ok(match b.shape(offset) {
            Some(tile) => {
                let ty = b.ctx.tensor_type(tile, element);
                b.load(ptrs, None, None, ty)
            }
            None => b.load(ptrs, None, None, element),
        })
    }

    fn reshape(&mut self, b: &mut KernelBuilder<'_>, op: Operation, e: &[Value]) -> R<Value> {
        let src = b.ctx.operand(op, 0);
        let out_shape =
            strata_dialects::tensor::shape_of(b.ctx, b.ctx.result(op, 0)).unwrap_or_default();
        let src_shape = strata_dialects::tensor::shape_of(b.ctx, src).unwrap_or_default();
        // Linearize in the result's shape, then split in the source's.
        let lin = linearize(b, e, &out_shape);
        let sub = delinearize(b, lin, &src_shape);
        self.value(b, src, &sub)
    }

    fn reduce(&mut self, b: &mut KernelBuilder<'_>, op: Operation, e: &[Value]) -> R<Value> {
        let red = ReduceOp(op);
        let input = red.input(b.ctx);
        let dims = red.dimensions(b.ctx).unwrap_or_default();
        let input_shape = strata_dialects::tensor::shape_of(b.ctx, input).unwrap_or_default();
        let Some(rows) = &self.rows else {
            return Err(err(
                b.ctx,
                op,
                "a reduction cannot be part of an elementwise kernel",
            ));
        };
        if rows.dims != dims || rows.input_shape != input_shape || e != rows.row_index.as_slice() {
            return Err(err(
                b.ctx,
                op,
                "a reduction in a fusion group must reduce the same dims of the same shape, at the kernel's row",
            ));
        }
        // The input at (row, reduced tile).
        let mut full = Vec::with_capacity(input_shape.len());
        let (mut ri, mut ki) = (0, 0);
        for d in 0..input_shape.len() as i64 {
            if dims.contains(&d) {
                full.push(rows.reduced_index[ri]);
                ri += 1;
            } else {
                full.push(rows.row_index[ki]);
                ki += 1;
            }
        }
        let mask = rows.mask;
        let x = self.value(b, input, &full)?;
        let init = red
            .init(b.ctx)
            .ok_or_else(|| err(b.ctx, op, "a reduce needs an init value"))?;
        let element = element_type(b.ctx, b.ctx.value_type(input));
        let init_v = b.constant(init, element);
        let shape = b.shape(mask).unwrap_or_default();
        let x = b.as_tile(x, &shape);
        let init_tile = b.splat(init_v, &shape);
        let tile_ty = b.ctx.value_type(x);
        let x = b.value("arith.select", &[mask, x, init_tile], tile_ty, vec![]);
        let Some(body) = red.body_block(b.ctx) else {
            return Err(err(b.ctx, op, "a reduce needs a body"));
        };
        // kernel.reduce with the body as combiner, then combine with init.
        let i32t = b.i32_type();
        let axis = b.ctx.integer_attr(i32t, 0);
        let kred = b.op_with_regions("kernel.reduce", &[x], &[element], vec![("axis", axis)], 1);
        let region = b.ctx.op_regions(kred)[0];
        let comb = b.ctx.create_block();
        b.ctx.append_block(region, comb);
        let loc = b.loc;
        let a0 = b.ctx.add_block_argument(comb, element, loc);
        let a1 = b.ctx.add_block_argument(comb, element, loc);
        let outer = b.block;
        b.block = comb;
        let c = self.apply_body(b, body, &[a0, a1], &[])?;
        b.op("kernel.yield", &[c], &[], vec![]);
        b.block = outer;
        let reduced = b.ctx.result(kred, 0);
        self.apply_body(b, body, &[reduced, init_v], &[])
    }
}

/// Refuses an indexing map expression that a kernel's `i32` index
/// arithmetic cannot compute exactly: it, or a term of it, takes values
/// outside `i32` over the domain (the verifier bounds maps in wider
/// arithmetic, so such a map is valid `tensor` IR).
fn fits_i32(ctx: &Context, op: Operation, expr: &AffineExpr, domain: &[i64]) -> R<()> {
    let range =
        strata_dialects::tensor::affine_expr_range(expr, domain).map_err(|m| err(ctx, op, m))?;
    let inside =
        range.is_some_and(|(lo, hi)| lo >= i128::from(i32::MIN) && hi <= i128::from(i32::MAX));
    if !inside {
        return Err(err(
            ctx,
            op,
            format!("has an indexing map term '{expr}' whose values over the domain {domain:?} do not fit the kernel's 32-bit index arithmetic"),
        ));
    }
    match expr {
        AffineExpr::Add(x, y)
        | AffineExpr::Mul(x, y)
        | AffineExpr::Mod(x, y)
        | AffineExpr::FloorDiv(x, y)
        | AffineExpr::CeilDiv(x, y) => {
            fits_i32(ctx, op, x, domain)?;
            fits_i32(ctx, op, y, domain)
        }
        AffineExpr::Dim(_) | AffineExpr::Symbol(_) | AffineExpr::Constant(_) => Ok(()),
    }
}

/// Whether an affine expression of (non-negative) dims may be negative:
/// when it holds a negative constant.
fn may_be_negative(e: &AffineExpr) -> bool {
    match e {
        AffineExpr::Constant(c) => *c < 0,
        AffineExpr::Dim(_) | AffineExpr::Symbol(_) => false,
        AffineExpr::Add(a, b)
        | AffineExpr::Mul(a, b)
        | AffineExpr::Mod(a, b)
        | AffineExpr::FloorDiv(a, b)
        | AffineExpr::CeilDiv(a, b) => may_be_negative(a) || may_be_negative(b),
    }
}

/// The row-major index of `shape` whose linear index is `lin`.
pub(crate) fn delinearize(b: &mut KernelBuilder<'_>, lin: Value, shape: &[i64]) -> Vec<Value> {
    let strides = row_major_strides(shape);
    let mut out = Vec::with_capacity(shape.len());
    for (d, &s) in strides.iter().enumerate() {
        if shape[d] == 1 {
            out.push(b.const_i32(0));
            continue;
        }
        let mut ix = lin;
        if s != 1 {
            let sv = b.const_i32(s);
            ix = b.int_bin("arith.divsi", ix, sv);
        }
        if d != 0 {
            let size = b.const_i32(shape[d]);
            ix = b.int_bin("arith.remsi", ix, size);
        }
        out.push(ix);
    }
    out
}

/// The linear row-major offset of index `e` in `shape`.
pub(crate) fn linearize(b: &mut KernelBuilder<'_>, e: &[Value], shape: &[i64]) -> Value {
    let mut lin: Option<Value> = None;
    for (d, s) in row_major_strides(shape).into_iter().enumerate() {
        if shape[d] == 1 {
            continue;
        }
        let term = if s == 1 {
            e[d]
        } else {
            let sv = b.const_i32(s);
            b.muli(e[d], sv)
        };
        lin = Some(match lin {
            Some(l) => b.addi(l, term),
            None => term,
        });
    }
    lin.unwrap_or_else(|| b.const_i32(0))
}
