//! The `#[op]` declarations of `scf`: `for`, `if`, `while`,
//! `index_switch`, `execute_region`, `parallel` and their terminators
//! `yield`, `condition`, `reduce` and `reduce.return`.

use strata_ir::attributes::AttrKind;
use strata_ir::interfaces::{
    LoopLike, RegionBranch, RegionInvocationBounds, RegionTerminator, Speculation,
};
use strata_ir::ods::constraints::{AnyType, Index, UnitAttr, I1};
use strata_ir::{attr_constraint, op, type_constraint, TypeKind};

attr_constraint!(
    /// An `i64` dense array (the case values).
    DenseI64ArrayAttr, "i64 dense array attribute", strata_ir::ods::AttrSyntax::IntArray(|ctx| ctx.integer_type(64)), |ctx, attr| matches!(
        ctx.attr_kind(attr),
        AttrKind::DenseArray { element, .. }
            if matches!(ctx.type_kind(*element), TypeKind::Integer { width: 64, .. })
    )
);

use crate::scf::canonicalize::{for_patterns, if_patterns, index_switch_patterns};
use crate::scf::control_flow::{
    all_operands, all_regions, at_most_once, condition_forwarded, first_region, for_entry_operands,
    for_speculatability, if_successors, loop_successors, no_entry_operands, no_leading_arguments,
    one_leading_argument, recursively_speculatable, verify_condition, verify_for,
    verify_for_regions, verify_if, verify_if_regions, verify_while, verify_while_regions,
    verify_yield, while_successors,
};
use crate::scf::execute_region::{
    execute_region_patterns, execute_region_successors, parse_execute_region, print_execute_region,
    verify_execute_region,
};
use crate::scf::forall::{
    forall_leading_arguments, forall_patterns, in_parallel_forwarded, parse_forall,
    parse_in_parallel, print_forall, print_in_parallel, verify_forall, verify_forall_regions,
    verify_in_parallel,
};
use crate::scf::index_switch::{
    index_switch_successors, parse_index_switch, print_index_switch, verify_index_switch,
};
use crate::scf::parallel::{
    parallel_leading_arguments, parallel_patterns, parse_parallel, print_parallel,
    reduce_forwarded, verify_parallel, verify_reduce, verify_reduce_regions, verify_reduce_return,
};
use crate::scf::syntax::{parse_for, parse_if, parse_while, print_for, print_if, print_while};
use crate::scf::while_loop::while_patterns;

type_constraint!(
    /// A signless integer or index (loop bounds).
    AnySignlessIntegerOrIndex, "signless integer or index", |ctx, ty| strata_ir::ods::constraints::is_signless_int_or_index(ctx, ty)
);

/// For operation.
///
/// Iterates from `lowerBound` to `upperBound` (exclusive) by `step`; the body
/// receives the induction variable and the loop-carried values (`iter_args`),
/// and yields the next values; the results are the final values.
#[op("scf.for",
     traits(RecursiveMemoryEffects, ImplicitTerminator, SingleBlock),
     all_types_match(lowerBound, upperBound, step),
     parse = parse_for,
     print = print_for,
     verify = verify_for,
     verify_regions = verify_for_regions,
     canonicalize = for_patterns,
     interfaces(RegionBranch { successors: loop_successors, entry_operands: for_entry_operands, leading_arguments: one_leading_argument },
                LoopLike { loop_regions: first_region },
                Speculation { speculatability: for_speculatability }))]
pub struct ForOp {
    lowerBound: Operand<AnySignlessIntegerOrIndex>,
    upperBound: Operand<AnySignlessIntegerOrIndex>,
    step: Operand<AnySignlessIntegerOrIndex>,
    initArgs: Variadic<AnyType>,
    unsignedCmp: OptionalAttr<UnitAttr>,
    results: VariadicResult<AnyType>,
    region: SizedRegion<1>,
}

/// If-then-else operation.
///
/// Runs the `then` region when the condition holds, else the `else` region;
/// with results, both regions yield them (and the `else` region is required).
#[op("scf.if",
     traits(RecursiveMemoryEffects, ImplicitTerminator, SingleBlock),
     parse = parse_if,
     print = print_if,
     verify = verify_if,
     verify_regions = verify_if_regions,
     canonicalize = if_patterns,
     interfaces(RegionBranch { successors: if_successors, entry_operands: no_entry_operands, leading_arguments: no_leading_arguments },
                RegionInvocationBounds { upper_bounds: at_most_once },
                Speculation { speculatability: recursively_speculatable }))]
pub struct IfOp {
    condition: Operand<I1>,
    results: VariadicResult<AnyType>,
    thenRegion: SizedRegion<1>,
    elseRegion: Region,
}

/// A generic 'while' loop.
///
/// The `before` region computes the condition and forwards values with
/// `scf.condition`; while it holds, the `after` region runs on them and
/// yields the next values of the `before` region's arguments.
#[op("scf.while",
     traits(RecursiveMemoryEffects, SingleBlock),
     parse = parse_while,
     print = print_while,
     verify = verify_while,
     verify_regions = verify_while_regions,
     canonicalize = while_patterns,
     interfaces(RegionBranch { successors: while_successors, entry_operands: all_operands, leading_arguments: no_leading_arguments },
                LoopLike { loop_regions: all_regions }))]
pub struct WhileOp {
    inits: Variadic<AnyType>,
    results: VariadicResult<AnyType>,
    before: SizedRegion<1>,
    after: SizedRegion<1>,
}

/// Switch on an index: runs the region of the case equal to `arg` (the
/// default region when none is) and yields its values.
#[op("scf.index_switch",
     traits(RecursiveMemoryEffects, ImplicitTerminator, SingleBlock),
     parse = parse_index_switch,
     print = print_index_switch,
     verify = verify_index_switch,
     canonicalize = index_switch_patterns,
     interfaces(RegionBranch { successors: index_switch_successors, entry_operands: no_entry_operands, leading_arguments: no_leading_arguments },
                RegionInvocationBounds { upper_bounds: at_most_once }))]
pub struct IndexSwitchOp {
    arg: Operand<Index>,
    cases: Attr<DenseI64ArrayAttr>,
    results: VariadicResult<AnyType>,
    defaultRegion: SizedRegion<1>,
    caseRegions: VariadicRegion,
}

/// Operation that executes its region exactly once. The region may hold
/// several blocks (branching with `cf`); its `scf.yield`s give the results.
/// `no_inline` keeps canonicalization from inlining it into its parent.
#[op("scf.execute_region",
     traits(RecursiveMemoryEffects),
     parse = parse_execute_region,
     print = print_execute_region,
     verify = verify_execute_region,
     canonicalize = execute_region_patterns,
     interfaces(RegionBranch { successors: execute_region_successors, entry_operands: no_entry_operands, leading_arguments: no_leading_arguments }))]
pub struct ExecuteRegionOp {
    no_inline: OptionalAttr<UnitAttr>,
    results: VariadicResult<AnyType>,
    region: Region,
}

/// Parallel for operation.
///
/// A loop nest over index ranges (`lowerBound`, `upperBound`, `step`, one
/// of each per induction variable) whose iterations may run in any order;
/// the `scf.reduce` terminator combines one value per result, starting
/// from `initVals`.
#[op("scf.parallel",
     traits(RecursiveMemoryEffects, ImplicitTerminator, SingleBlock),
     parse = parse_parallel,
     print = print_parallel,
     verify = verify_parallel,
     canonicalize = parallel_patterns,
     interfaces(RegionBranch { successors: loop_successors, entry_operands: no_entry_operands, leading_arguments: parallel_leading_arguments },
                LoopLike { loop_regions: first_region }))]
pub struct ParallelOp {
    lowerBound: Variadic<Index>,
    upperBound: Variadic<Index>,
    step: Variadic<Index>,
    initVals: Variadic<AnyType>,
    results: VariadicResult<AnyType>,
    region: SizedRegion<1>,
}

type_constraint!(
    /// A ranked tensor (the shared outputs of `scf.forall`).
    AnyRankedTensor, "ranked tensor of any type values", |ctx, ty| matches!(ctx.type_kind(ty), TypeKind::RankedTensor { .. })
);

attr_constraint!(
    /// MLIR's `DeviceMappingArrayAttr`: an array of device mapping
    /// attributes (`#gpu.thread<x>`, ...). strata has none of them, so only
    /// the empty array satisfies it.
    DeviceMappingArrayAttr, "Device Mapping array attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        AttrKind::Array(items) if items.is_empty()
    )
);

/// Evaluate a block in parallel.
///
/// A multi-dimensional loop whose iterations may run in parallel; each
/// bound is an integer or an index value (`staticLowerBound`, ... hold the
/// integers, with MLIR's dynamic marker where a value of
/// `dynamicLowerBound`, ... stands). `outputs` are tensors the iterations
/// share; the `scf.forall.in_parallel` terminator holds the ops that write
/// into them.
#[op("scf.forall",
     traits(RecursiveMemoryEffects, ImplicitTerminator, SingleBlock),
     parse = parse_forall,
     print = print_forall,
     verify = verify_forall,
     verify_regions = verify_forall_regions,
     canonicalize = forall_patterns,
     interfaces(RegionBranch { successors: loop_successors, entry_operands: no_entry_operands, leading_arguments: forall_leading_arguments },
                LoopLike { loop_regions: first_region }))]
pub struct ForallOp {
    dynamicLowerBound: Variadic<Index>,
    dynamicUpperBound: Variadic<Index>,
    dynamicStep: Variadic<Index>,
    staticLowerBound: Attr<DenseI64ArrayAttr>,
    staticUpperBound: Attr<DenseI64ArrayAttr>,
    staticStep: Attr<DenseI64ArrayAttr>,
    outputs: Variadic<AnyRankedTensor>,
    mapping: OptionalAttr<DeviceMappingArrayAttr>,
    results: VariadicResult<AnyType>,
    region: SizedRegion<1>,
}

/// Terminates a `forall` block.
///
/// Its region holds the ops that combine each iteration's values into the
/// loop's shared outputs (`ParallelCombiningOpInterface` ops).
#[op("scf.forall.in_parallel",
     traits(Pure, Terminator, NoTerminator, SingleBlock, GraphRegion),
     parse = parse_in_parallel,
     print = print_in_parallel,
     verify = verify_in_parallel,
     interfaces(RegionTerminator { forwarded: in_parallel_forwarded }))]
pub struct InParallelOp {
    region: SizedRegion<1>,
}

/// Reduce operation for `scf.parallel`: the terminator of its body, with
/// one operand and one reduction region (two arguments of the operand's
/// type, ending in `scf.reduce.return`) per result.
#[op("scf.reduce",
     traits(Terminator, RecursiveMemoryEffects),
     format = "(`(` $operands^ `:` type($operands) `)`)? $reductions attr-dict",
     verify = verify_reduce,
     verify_regions = verify_reduce_regions,
     interfaces(RegionTerminator { forwarded: reduce_forwarded }))]
pub struct ReduceOp {
    operands: Variadic<AnyType>,
    reductions: VariadicRegion<SizedRegion<1>>,
}

/// Terminator of a reduction region of `scf.reduce`: the combined value.
#[op("scf.reduce.return",
     traits(Pure, Terminator),
     format = "$result attr-dict `:` type($result)",
     verify = verify_reduce_return)]
pub struct ReduceReturnOp {
    result: Operand<AnyType>,
}

/// Loop yield and termination operation: the values a region of `scf.for`,
/// `scf.if` or `scf.while` produces.
#[op("scf.yield",
     traits(Pure, Terminator, ReturnLike),
     format = "attr-dict ($results^ `:` type($results))?",
     verify = verify_yield)]
pub struct YieldOp {
    results: Variadic<AnyType>,
}

/// Loop continuation condition of `scf.while`: whether to run the `after`
/// region, and the values forwarded to it (or to the results).
#[op("scf.condition",
     traits(Pure, Terminator),
     format = "`(` $condition `)` attr-dict ($args^ `:` type($args))?",
     verify = verify_condition,
     interfaces(RegionTerminator { forwarded: condition_forwarded }))]
pub struct ConditionOp {
    condition: Operand<I1>,
    args: Variadic<AnyType>,
}
