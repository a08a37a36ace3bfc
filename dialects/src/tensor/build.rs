//! Builders that create the `tensor` ops with their bodies, and accessors
//! that read their maps and domains, for the conversions.

use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::{AttrKind, Attribute, Block, Context, Location, Type, TypeKind, Value};

use crate::tensor::ops::{ContractOp, FusionOp, GenericOp, IndexOp, MapOp, ReduceOp, YieldOp};
use crate::tensor::verify::domain_sizes;

/// `[affine_map<...>, ...]`: an array attribute of the maps.
pub fn affine_map_array(ctx: &mut Context, maps: &[AffineMap]) -> Attribute {
    let items: Vec<Attribute> = maps
        .iter()
        .map(|m| ctx.intern_attr(AttrKind::AffineMap(m.clone())))
        .collect();
    ctx.array_attr(items)
}

fn element_type(ctx: &Context, ty: Type) -> Option<Type> {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { element, .. } | TypeKind::UnrankedTensor { element } => {
            Some(*element)
        }
        _ => None,
    }
}

/// Gives `region` (empty) an entry block with arguments of `types`, lets
/// `body` fill it and terminates it with a `tensor.yield` of what `body`
/// returns.
fn fill_body<F>(ctx: &mut Context, loc: Location, op: strata_ir::Operation, types: &[Type], body: F)
where
    F: FnOnce(&mut Context, Block, &[Value]) -> Vec<Value>,
{
    let Some(&region) = ctx.op_regions(op).first() else {
        return;
    };
    let block = ctx.create_block();
    ctx.append_block(region, block);
    for &ty in types {
        ctx.add_block_argument(block, ty, loc);
    }
    let args: Vec<Value> = ctx.block_args(block).collect();
    let values = body(ctx, block, &args);
    let yield_op = YieldOp::build(ctx, loc, &values);
    ctx.append_op(block, yield_op.op());
}

impl MapOp {
    /// A `tensor.map` over the domain of `result_type`'s shape, reading
    /// `inputs[k]` through `maps[k]`. `body(ctx, block, args)` appends the
    /// scalar computation to `block` (whose arguments `args` are the input
    /// elements) and returns the value to yield; the `tensor.yield` is
    /// added here. The op is detached.
    pub fn build_with_body<F>(
        ctx: &mut Context,
        loc: Location,
        inputs: &[Value],
        maps: &[AffineMap],
        result_type: Type,
        body: F,
    ) -> MapOp
    where
        F: FnOnce(&mut Context, Block, &[Value]) -> Value,
    {
        MapOp::build_gathered(ctx, loc, inputs, maps, &[], result_type, body)
    }

    /// [`MapOp::build_with_body`] with the inputs at the positions
    /// `gathered` (sorted) read whole: their maps must have no results and
    /// their block arguments are the tensors, for `tensor.extract`.
    pub fn build_gathered<F>(
        ctx: &mut Context,
        loc: Location,
        inputs: &[Value],
        maps: &[AffineMap],
        gathered: &[usize],
        result_type: Type,
        body: F,
    ) -> MapOp
    where
        F: FnOnce(&mut Context, Block, &[Value]) -> Value,
    {
        let attr = affine_map_array(ctx, maps);
        let gathered_attr = (!gathered.is_empty()).then(|| {
            let i64_type = ctx.integer_type(64);
            let items = gathered
                .iter()
                .map(|&k| ctx.integer_attr(i64_type, k as i128))
                .collect();
            ctx.array_attr(items)
        });
        let op = MapOp::build(ctx, loc, inputs, attr, gathered_attr, result_type);
        let types: Vec<Type> = inputs
            .iter()
            .enumerate()
            .filter_map(|(k, &v)| {
                let ty = ctx.value_type(v);
                if gathered.contains(&k) {
                    Some(ty)
                } else {
                    element_type(ctx, ty)
                }
            })
            .collect();
        fill_body(ctx, loc, op.op(), &types, |ctx, block, args| {
            vec![body(ctx, block, args)]
        });
        op
    }

    /// Whether input `k` is gathered (read whole, by `tensor.extract`).
    pub fn is_gathered(self, ctx: &Context, k: usize) -> bool {
        self.gathered(ctx).unwrap_or_default().contains(&(k as i64))
    }

    /// The indexing maps, one per input (empty when the attribute is
    /// missing, which the verifier rejects).
    pub fn maps(self, ctx: &Context) -> Vec<AffineMap> {
        self.indexing_maps(ctx).unwrap_or_default()
    }

    /// The iteration domain: the result's shape.
    pub fn domain(self, ctx: &Context) -> Vec<i64> {
        crate::tensor::shape_of(ctx, self.result(ctx)).unwrap_or_default()
    }

    /// The body's block.
    pub fn body_block(self, ctx: &Context) -> Option<Block> {
        self.body(ctx).and_then(|r| ctx.region_entry_block(r))
    }

    /// The value the body yields.
    pub fn yielded(self, ctx: &Context) -> Option<Value> {
        yielded(ctx, self.body_block(ctx)?).first().copied()
    }
}

fn yielded(ctx: &Context, block: Block) -> Vec<Value> {
    ctx.block_last_op(block)
        .filter(|&t| ctx.op_name_str(t) == YieldOp::NAME)
        .map(|t| ctx.operands(t).collect())
        .unwrap_or_default()
}

/// The type of reducing `dims` of `input_type`: its shape without them.
pub fn reduced_type(ctx: &mut Context, input_type: Type, dims: &[i64]) -> Option<Type> {
    let TypeKind::RankedTensor { shape, element, .. } = ctx.type_kind(input_type).clone() else {
        return None;
    };
    let kept: Vec<i64> = shape
        .iter()
        .enumerate()
        .filter(|(i, _)| !dims.contains(&(*i as i64)))
        .map(|(_, &s)| s)
        .collect();
    Some(ctx.tensor_type(kept, element))
}

impl ReduceOp {
    /// A `tensor.reduce` of `dims` (sorted, unique) of `input`, starting
    /// from `init` (a scalar attribute of the element type).
    /// `body(ctx, block, element, accumulator)` appends the combiner to
    /// `block` and returns the new accumulator; the `tensor.yield` is added
    /// here. The result type is [`reduced_type`]. `None` when `input` is not
    /// a ranked tensor. The op is detached.
    pub fn build_with_body<F>(
        ctx: &mut Context,
        loc: Location,
        input: Value,
        dims: &[i64],
        init: Attribute,
        body: F,
    ) -> Option<ReduceOp>
    where
        F: FnOnce(&mut Context, Block, Value, Value) -> Value,
    {
        let input_type = ctx.value_type(input);
        let element = element_type(ctx, input_type)?;
        let result_type = reduced_type(ctx, input_type, dims)?;
        let i64_type = ctx.integer_type(64);
        let items: Vec<Attribute> = dims
            .iter()
            .map(|&d| ctx.integer_attr(i64_type, d as i128))
            .collect();
        let dims_attr = ctx.array_attr(items);
        let op = ReduceOp::build(ctx, loc, input, dims_attr, init, result_type);
        fill_body(
            ctx,
            loc,
            op.op(),
            &[element, element],
            |ctx, block, args| vec![body(ctx, block, args[0], args[1])],
        );
        Some(op)
    }

    /// The body's block.
    pub fn body_block(self, ctx: &Context) -> Option<Block> {
        self.body(ctx).and_then(|r| ctx.region_entry_block(r))
    }

    /// The value the body yields (the new accumulator).
    pub fn yielded(self, ctx: &Context) -> Option<Value> {
        yielded(ctx, self.body_block(ctx)?).first().copied()
    }
}

impl ContractOp {
    /// A `tensor.contract` of `lhs` and `rhs` with the lhs, rhs and output
    /// maps. The op is detached.
    pub fn build_with_maps(
        ctx: &mut Context,
        loc: Location,
        lhs: Value,
        rhs: Value,
        maps: &[AffineMap; 3],
        result_type: Type,
    ) -> ContractOp {
        let attr = affine_map_array(ctx, maps);
        ContractOp::build(ctx, loc, lhs, rhs, attr, result_type)
    }

    /// The lhs, rhs and output maps (empty when the attribute is missing).
    pub fn maps(self, ctx: &Context) -> Vec<AffineMap> {
        self.indexing_maps(ctx).unwrap_or_default()
    }

    /// The reduction dims: the domain dims absent from the output map.
    pub fn reduction_dims(self, ctx: &Context) -> Vec<u32> {
        let maps = self.maps(ctx);
        let Some(out) = maps.get(2) else {
            return Vec::new();
        };
        (0..out.num_dims)
            .filter(|d| !out.results.contains(&AffineExpr::Dim(*d)))
            .collect()
    }

    /// The size of each domain dim (`strata_ir::types::DYNAMIC` when
    /// dynamic), `None` when the op does not verify.
    pub fn domain_sizes(self, ctx: &Context) -> Option<Vec<i64>> {
        let maps = self.maps(ctx);
        let shapes: Vec<Vec<i64>> = [self.lhs(ctx), self.rhs(ctx), self.result(ctx)]
            .iter()
            .map(|&v| crate::tensor::shape_of(ctx, v))
            .collect::<Option<_>>()?;
        domain_sizes(&maps, &shapes).ok()
    }
}

impl FusionOp {
    /// A `tensor.fusion` of `inputs`: `body(ctx, block, args)` fills the
    /// isolated body (whose arguments stand for the inputs) and returns the
    /// values to yield, which give the result types. The op is detached.
    pub fn build_with_body<F>(
        ctx: &mut Context,
        loc: Location,
        inputs: &[Value],
        body: F,
    ) -> FusionOp
    where
        F: FnOnce(&mut Context, Block, &[Value]) -> Vec<Value>,
    {
        let types: Vec<Type> = inputs.iter().map(|&v| ctx.value_type(v)).collect();
        let block = ctx.create_block();
        for &ty in &types {
            ctx.add_block_argument(block, ty, loc);
        }
        let args: Vec<Value> = ctx.block_args(block).collect();
        let values = body(ctx, block, &args);
        let result_types: Vec<Type> = values.iter().map(|&v| ctx.value_type(v)).collect();
        let yield_op = YieldOp::build(ctx, loc, &values);
        ctx.append_op(block, yield_op.op());
        let op = FusionOp::build(ctx, loc, inputs, &result_types);
        if let Some(&region) = ctx.op_regions(op.op()).first() {
            ctx.append_block(region, block);
        }
        op
    }

    /// The body's block.
    pub fn body_block(self, ctx: &Context) -> Option<Block> {
        self.body(ctx).and_then(|r| ctx.region_entry_block(r))
    }
}

impl IndexOp {
    /// `tensor.index <dim> : index`, detached.
    pub fn build_dim(ctx: &mut Context, loc: Location, dim: i64) -> IndexOp {
        let i64_type = ctx.integer_type(64);
        let attr = ctx.integer_attr(i64_type, dim as i128);
        let index_type = ctx.index_type();
        IndexOp::build(ctx, loc, attr, index_type)
    }
}

impl GenericOp {
    /// A `tensor.generic` of `inputs` (and `init`, with `outs`) through
    /// `maps` (one per input, then the result's), with the dims flagged in
    /// `reduction` reductions. `body(ctx, block, args)` appends the scalar
    /// computation to `block` (its arguments: the input elements, then the
    /// accumulator with `init`) and returns the value to yield. Detached.
    #[allow(clippy::too_many_arguments)]
    pub fn build_with_body<F>(
        ctx: &mut Context,
        loc: Location,
        inputs: &[Value],
        init: Option<Value>,
        maps: &[AffineMap],
        reduction: &[bool],
        result_type: Type,
        body: F,
    ) -> GenericOp
    where
        F: FnOnce(&mut Context, Block, &[Value]) -> Value,
    {
        let maps_attr = affine_map_array(ctx, maps);
        let items: Vec<Attribute> = reduction
            .iter()
            .map(|&r| ctx.string_attr(if r { "reduction" } else { "parallel" }))
            .collect();
        let iterators = ctx.array_attr(items);
        let op = GenericOp::build(ctx, loc, inputs, init, maps_attr, iterators, result_type);
        let mut types: Vec<Type> = inputs
            .iter()
            .filter_map(|&v| element_type(ctx, ctx.value_type(v)))
            .collect();
        if init.is_some() {
            types.extend(element_type(ctx, result_type));
        }
        fill_body(ctx, loc, op.op(), &types, |ctx, block, args| {
            vec![body(ctx, block, args)]
        });
        op
    }

    /// The indexing maps (inputs', then the result's).
    pub fn maps(self, ctx: &Context) -> Vec<AffineMap> {
        self.indexing_maps(ctx).unwrap_or_default()
    }

    /// For each domain dim, whether it is a reduction.
    pub fn reductions(self, ctx: &Context) -> Vec<bool> {
        self.iterator_types(ctx).unwrap_or_default()
    }

    /// The body's block.
    pub fn body_block(self, ctx: &Context) -> Option<Block> {
        self.body(ctx).and_then(|r| ctx.region_entry_block(r))
    }
}
