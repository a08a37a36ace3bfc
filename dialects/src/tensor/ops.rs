//! The `#[op]` declarations of `tensor`: `map`, `index`, `reduce`,
//! `contract`, the general form `generic`, `reshape`, `fusion` and their
//! terminator `yield`.

use strata_ir::affine::AffineMap;
use strata_ir::attributes::AttrKind;
use strata_ir::ods::constraints::{AnyAttr, AnyType, I64Attr, Index, StrAttr, TypedAttr};
use strata_ir::ods::AttrSyntax;
use strata_ir::{attr_constraint, op, type_constraint, TypeKind};

use crate::tensor::verify::{
    verify_check_indices, verify_contract, verify_extract, verify_fusion, verify_generic,
    verify_index, verify_map, verify_reduce, verify_reshape, verify_yield,
};

type_constraint!(
    /// A ranked tensor of any element type.
    AnyRankedTensor, "ranked tensor of any type values", |ctx, ty| matches!(ctx.type_kind(ty), TypeKind::RankedTensor { .. })
);
type_constraint!(
    /// A ranked tensor of signless integers or floats (the operands of a
    /// contraction).
    IntOrFloatRankedTensor, "ranked tensor of signless integer or floating-point values", |ctx, ty| matches!(
        ctx.type_kind(ty),
        TypeKind::RankedTensor { element, .. }
            if strata_ir::ods::constraints::is_signless_int(ctx, *element)
                || strata_ir::ods::constraints::is_float(ctx, *element)
    )
);

attr_constraint!(
    /// An array of affine maps (`[affine_map<...>, ...]`).
    AffineMapArrayAttr, "affine map array attribute", AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        AttrKind::Array(items)
            if items.iter().all(|&a| matches!(ctx.attr_kind(a), AttrKind::AffineMap(_)))
    ),
    value: Vec<AffineMap> = |ctx, attr| match ctx.attr_kind(attr) {
        AttrKind::Array(items) => items
            .iter()
            .map(|&a| match ctx.attr_kind(a) {
                AttrKind::AffineMap(m) => Some(m.clone()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
);
attr_constraint!(
    /// An array of 64-bit integers (`[0, 2]`).
    I64ListAttr, "64-bit integer array attribute", AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        AttrKind::Array(items)
            if items.iter().all(|&a| strata_ir::ods::constraints::is_signless_int_attr(ctx, a, 64))
    ),
    value: Vec<i64> = |ctx, attr| match ctx.attr_kind(attr) {
        AttrKind::Array(items) => items
            .iter()
            .map(|&a| match ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => Some(*value as u64 as i64),
                _ => None,
            })
            .collect(),
        _ => None,
    }
);

/// Elementwise computation over an iteration domain, reading each input
/// through an affine indexing map.
///
/// The iteration domain is the result's shape. For each point `i` of it,
/// the body receives the element `inputs[k][indexing_maps[k](i)]` of each
/// input (block argument `k`, of the input's element type) and yields the
/// result's element at `i`. Each map has as many dims as the result has
/// dimensions, no symbols, and one result per dimension of its input: a
/// permutation transposes, a dropped dim or the constant `0` broadcasts,
/// `d0 * 2 + 1` reads a strided slice. For static shapes the verifier
/// checks that every map stays inside its input over the whole domain.
/// Inside the body, `tensor.index` gives the current point. `inputs` may be
/// empty (the body computes from indices and constants alone).
///
/// The inputs listed in `gathered` (sorted, unique positions) are read at
/// run-time indices instead: their indexing map has no results (`(d0, d1)
/// -> ()`), their block argument is the whole input (of the input's tensor
/// type), and the body reads its elements with `tensor.extract`. Listing
/// them keeps the dependency on the tensor an operand of the map.
#[op("tensor.map",
     traits(RecursiveMemoryEffects),
     format = "(`ins` `(` $inputs^ `:` type($inputs) `)`)? `maps` $indexing_maps (`gathered` $gathered^)? attr-dict-with-keyword $body `:` type($result)",
     verify = verify_map)]
pub struct MapOp {
    inputs: Variadic<AnyRankedTensor>,
    indexing_maps: Attr<AffineMapArrayAttr>,
    gathered: OptionalAttr<I64ListAttr>,
    result: Result<AnyRankedTensor>,
    body: SizedRegion<1>,
}

/// The element of a gathered input of the enclosing `tensor.map` at
/// run-time indices (one `index` per dimension).
///
/// `tensor` must be the block argument of an input the map lists in
/// `gathered`, and must not be empty. An index outside its dimension is
/// clamped into it (a negative one reads 0, one past the end the last
/// element), so the read never leaves the tensor; lowerings that need
/// other semantics (ONNX's negative indices) adjust the indices first, and
/// those that must refuse bad indices check them first with
/// `tensor.check_indices`.
#[op("tensor.extract",
     traits(Pure),
     format = "$tensor `[` $indices `]` attr-dict `:` type($tensor)",
     infer = infer_extract,
     verify = verify_extract)]
pub struct ExtractOp {
    tensor: Operand<AnyRankedTensor>,
    indices: Variadic<Index>,
    result: Result<AnyType>,
}

/// Checks run-time indices before a gather reads with them: its result is
/// its input, and evaluating it stops the run with `message` at the first
/// element out of range.
///
/// `%ok = tensor.check_indices %ids sizes [1000] axes [0] {message = "..."} : tensor<2x16xi64>`:
/// element `k` (in row-major order) must lie in `[-s, s)` for
/// `s = sizes[k mod n]` (ONNX's rule: a negative index counts from the
/// end), with `n` the length of `sizes` (1, or the last dimension of the
/// input: the entries of `gather_nd`'s index tuples). In `message`,
/// `{index}`, `{axis}` and `{size}` stand for the bad element, its entry
/// of `axes` (the data dimension it indexes, for the message only) and
/// its size. The op has an effect (the refusal), so it is kept when its
/// result is unused, as eager mode checks every gather it runs.
#[op("tensor.check_indices",
     all_types_match(input, result),
     format = "$input `sizes` $sizes `axes` $axes attr-dict `:` type($input)",
     verify = verify_check_indices)]
pub struct CheckIndicesOp {
    input: Operand<AnyRankedTensor>,
    sizes: Attr<I64ListAttr>,
    axes: Attr<I64ListAttr>,
    message: Attr<StrAttr>,
    result: Result<AnyRankedTensor>,
}

fn infer_extract(
    ctx: &mut strata_ir::Context,
    state: &strata_ir::OperationState,
) -> std::result::Result<Vec<strata_ir::Type>, String> {
    let Some(&t) = state.operands.first() else {
        return Err("expected a tensor operand".into());
    };
    match ctx.type_kind(ctx.value_type(t)) {
        TypeKind::RankedTensor { element, .. } => Ok(vec![*element]),
        _ => Err("expected a ranked tensor operand".into()),
    }
}

/// The current index of one dimension of the enclosing `tensor.map`'s
/// iteration domain (as `linalg.index`).
#[op("tensor.index",
     traits(Pure),
     format = "$dim attr-dict `:` type($result)",
     verify = verify_index)]
pub struct IndexOp {
    dim: Attr<I64Attr>,
    result: Result<Index>,
}

/// Reduction of the `dimensions` of a tensor with a scalar combiner.
///
/// The result has the input's shape with `dimensions` (sorted, unique)
/// removed, and its element type. Each result element starts as `init` (a
/// scalar attribute of the element type) and the body combines it with
/// every input element that maps to it: the block arguments are the input
/// element and the accumulator, and the body yields the new accumulator.
/// The order of combination is unspecified (the combiner should be
/// associative and commutative). A reshape after the op restores reduced
/// dimensions of size 1 (`keepdims`).
#[op("tensor.reduce",
     traits(RecursiveMemoryEffects),
     format = "`ins` `(` $input `:` type($input) `)` `dims` $dimensions `init` `(` $init `)` attr-dict-with-keyword $body `:` type($result)",
     verify = verify_reduce)]
pub struct ReduceOp {
    input: Operand<AnyRankedTensor>,
    dimensions: Attr<I64ListAttr>,
    init: Attr<TypedAttr>,
    result: Result<AnyRankedTensor>,
    body: SizedRegion<1>,
}

/// A contraction: matrix product, batched matrix product, or any sum of
/// products whose operands are read through projected permutations.
///
/// `indexing_maps` holds three maps over one iteration domain: the lhs,
/// rhs and output maps, each a projected permutation (every result a
/// distinct dim). The domain dims absent from the output map are the
/// reduction dims: `result[out(i)] = sum over the reduction dims of
/// lhs[lhs(i)] * rhs[rhs(i)]`. Each domain dim must have one size wherever
/// it appears. lhs, rhs and result have one element type (signless
/// integers or floats); `f16` and `bf16` products are accumulated in `f32`
/// and rounded once to the element type, wider floats and integers in the
/// element type itself (integers wrap).
#[op("tensor.contract",
     traits(Pure),
     format = "`ins` `(` $lhs `,` $rhs `:` type($lhs) `,` type($rhs) `)` `maps` $indexing_maps attr-dict `:` type($result)",
     verify = verify_contract)]
pub struct ContractOp {
    lhs: Operand<IntOrFloatRankedTensor>,
    rhs: Operand<IntOrFloatRankedTensor>,
    indexing_maps: Attr<AffineMapArrayAttr>,
    result: Result<IntOrFloatRankedTensor>,
}

attr_constraint!(
    /// The iterator types of a `tensor.generic`: an array of the strings
    /// `"parallel"` and `"reduction"`, one per domain dim.
    IteratorTypesAttr, "array of \"parallel\" and \"reduction\" strings", AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        AttrKind::Array(items) if items.iter().all(|&a| matches!(
            ctx.attr_kind(a),
            AttrKind::String { value, .. } if &value[..] == b"parallel" || &value[..] == b"reduction"
        ))
    ),
    value: Vec<bool> = |ctx, attr| match ctx.attr_kind(attr) {
        AttrKind::Array(items) => items
            .iter()
            .map(|&a| match ctx.attr_kind(a) {
                AttrKind::String { value, .. } => Some(&value[..] == b"reduction"),
                _ => None,
            })
            .collect(),
        _ => None,
    }
);

/// The general structured op (as Linalg's `linalg.generic`): a scalar body
/// applied over an iteration domain whose dims are `parallel` or
/// `reduction`, reading each input through an affine indexing map.
///
/// `indexing_maps` holds one map per input and then one for the result,
/// all over the domain (one dim per entry of `iterator_types`, no
/// symbols); each map has one result per dimension of its operand. The
/// result's map is a projected permutation of exactly the parallel dims.
/// The domain's sizes come from the operands (every dim must appear as a
/// plain `dN` result of some map, with one size wherever it does).
///
/// With `outs(%init)`, the result starts as `init` (of the result's type)
/// and, for each point `i` of the domain, the body receives the input
/// elements at `maps[k](i)` and the current result element at
/// `maps[out](i)` (the last block argument, the accumulator) and yields the
/// new one; the order over the reduction dims is unspecified. Without
/// `outs`, every dim is parallel and the body takes the input elements
/// only. Inside the body, `tensor.index` gives the current point.
///
/// The named forms are specializations: `tensor.map` (no `outs`, all
/// parallel, the identity result map), `tensor.reduce` (one input, a splat
/// `init`, the combiner as body) and `tensor.contract` (two inputs, a zero
/// `init`, `acc + lhs * rhs`). `tensor-generalize-named-ops` and
/// `tensor-specialize-generic-ops` convert between them, and the
/// conversions to kernels take the named forms.
#[op("tensor.generic",
     traits(RecursiveMemoryEffects),
     format = "(`ins` `(` $inputs^ `:` type($inputs) `)`)? (`outs` `(` $init^ `:` type($init) `)`)? `maps` $indexing_maps `iterators` $iterator_types attr-dict-with-keyword $body `:` type($result)",
     verify = verify_generic)]
pub struct GenericOp {
    inputs: Variadic<AnyRankedTensor>,
    init: Optional<AnyRankedTensor>,
    indexing_maps: Attr<AffineMapArrayAttr>,
    iterator_types: Attr<IteratorTypesAttr>,
    result: Result<AnyRankedTensor>,
    body: SizedRegion<1>,
}

/// Row-major reinterpretation of a tensor with another shape (a view).
///
/// Source and result have one element type and, when both are static, the
/// same number of elements.
#[op("tensor.reshape",
     traits(Pure),
     format = "$source attr-dict `:` type($source) `to` type($result)",
     verify = verify_reshape)]
pub struct ReshapeOp {
    source: Operand<AnyRankedTensor>,
    result: Result<AnyRankedTensor>,
}

/// A group of tensor ops that becomes one kernel.
///
/// The body is isolated from above: its block arguments stand for
/// `inputs` (one per input, of its type) and its `tensor.yield` gives the
/// results, of the results' types.
#[op("tensor.fusion",
     traits(IsolatedFromAbove, RecursiveMemoryEffects),
     format = "(`ins` `(` $inputs^ `:` type($inputs) `)`)? attr-dict-with-keyword $body (`:` type($results)^)?",
     verify = verify_fusion)]
pub struct FusionOp {
    inputs: Variadic<AnyType>,
    results: VariadicResult<AnyType>,
    body: SizedRegion<1>,
}

/// The values a `tensor.map`, `tensor.reduce`, `tensor.generic` or `tensor.fusion` body
/// produces; the parent op checks their number and types.
#[op("tensor.yield",
     traits(Pure, Terminator, ReturnLike),
     format = "attr-dict ($values^ `:` type($values))?",
     verify = verify_yield)]
pub struct YieldOp {
    values: Variadic<AnyType>,
}

/// A call of a registered custom op: `graph.custom` below the graph level.
///
/// Its implementation (registered with the runtime, in Rust or from a
/// shared library through the C ABI) computes the results from whole
/// tensors; it is never fused and becomes a `kernel.custom_call` of the
/// host plan.
#[op(
    "tensor.custom",
    format = "$name `(` $inputs `)` attr-dict `:` functional-type(operands, results)"
)]
pub struct CustomOp {
    name: Attr<StrAttr>,
    #[default = "1"]
    version: Attr<I64Attr>,
    config: OptionalAttr<AnyAttr>,
    inputs: Variadic<AnyRankedTensor>,
    outputs: VariadicResult<AnyRankedTensor>,
}
