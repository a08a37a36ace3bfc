//! Control flow: `graph.if`, `graph.loop` and `graph.scan` (ONNX's `If`,
//! `Loop` and `Scan`), whose regions are the ONNX subgraphs, and their
//! terminator `graph.yield`.
//!
//! The regions are not isolated: like an ONNX subgraph, a region uses the
//! values of the enclosing blocks directly. A value that may change shape
//! from one iteration to the next has a dynamic (`?`) or unranked type; a
//! loop's stacked outputs have a leading `?` dimension, the trip count,
//! known only when the loop runs. `graph.if` and `graph.loop` may also
//! yield and carry sequences and optionals (a loop's stacked outputs are
//! tensors).

use strata_ir::ods::constraints::I64Attr;
use strata_ir::op;

use super::{AnyTensor, AnyValue, BoolTensor, I64ArrayAttr, IntTensor};
use crate::graph::fold::if_patterns;
use crate::graph::infer::control::{
    verify_if_regions, verify_loop_regions, verify_scan_regions, verify_yield,
};
use crate::graph::infer::{self, ShapeFunction};

/// Runs one of two regions.
///
/// The `then` region runs when `condition` (a one-element `i1` tensor) is
/// true, the `else` region otherwise; each ends in a `graph.yield` of the
/// results. The branches may yield different shapes: a result's type is
/// their join (a dimension they disagree on is `?`). On a constant
/// condition, canonicalization inlines the taken branch.
///
/// ```mlir
/// %r = graph.if %c : tensor<i1> -> (tensor<2xf32>) {
///   graph.yield %a : tensor<2xf32>
/// } else {
///   graph.yield %b : tensor<2xf32>
/// }
/// ```
#[op("graph.if",
     traits(RecursiveMemoryEffects, SingleBlock),
     format = "$condition `:` type($condition) `->` `(` type($outputs) `)` $thenRegion `else` $elseRegion attr-dict",
     verify_regions = verify_if_regions,
     canonicalize = if_patterns,
     interfaces(ShapeFunction(infer::control::infer_if)))]
pub struct IfOp {
    condition: Operand<BoolTensor>,
    outputs: VariadicResult<AnyValue>,
    thenRegion: SizedRegion<1>,
    elseRegion: SizedRegion<1>,
}

/// A loop with a trip count, a condition, carried values and stacked
/// outputs.
///
/// Runs its body while the iteration number is below `maxTripCount` and
/// the condition holds. The body's arguments are the iteration number
/// (`tensor<i64>`), the condition (`tensor<i1>`) and the carried values;
/// it yields the next condition, the next carried values, and then any
/// number of per-iteration values, which the loop stacks along a new
/// leading axis. The results are the final carried values, then the
/// stacked outputs (`tensor<?x...>`).
///
/// ```mlir
/// %sum, %all = graph.loop(%n, %true, %zero) : (tensor<i64>, tensor<i1>, tensor<f32>)
///     -> (tensor<f32>, tensor<?xf32>) {
/// ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<f32>):
///   %next = graph.add %acc, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
///   graph.yield %c, %next, %next : tensor<i1>, tensor<f32>, tensor<f32>
/// }
/// ```
#[op("graph.loop",
     traits(RecursiveMemoryEffects, SingleBlock),
     format = "`(` $maxTripCount `,` $condition (`,` $inits^)? `)` attr-dict `:` functional-type(operands, results) $body",
     verify_regions = verify_loop_regions,
     interfaces(ShapeFunction(infer::control::infer_loop)))]
pub struct LoopOp {
    maxTripCount: Operand<IntTensor>,
    condition: Operand<BoolTensor>,
    inits: Variadic<AnyValue>,
    outputs: VariadicResult<AnyValue>,
    body: SizedRegion<1>,
}

/// A loop over slices of its scanned inputs, with carried state.
///
/// The first operands are the initial states, the last `num_scan_inputs`
/// the scanned inputs. The body runs once per slice along each scanned
/// input's axis (`scan_input_axes`, default 0; `scan_input_directions` 1
/// scans from the end), on the states and one slice of each scanned input;
/// it yields the next states, then one slice of each scanned output. The
/// results are the final states, then the scanned outputs, stacked along
/// `scan_output_axes` (default 0; `scan_output_directions` 1 stacks from
/// the end).
#[op("graph.scan",
     traits(RecursiveMemoryEffects, SingleBlock),
     format = "`(` $inputs `)` attr-dict `:` functional-type(operands, results) $body",
     verify_regions = verify_scan_regions,
     interfaces(ShapeFunction(infer::control::infer_scan)))]
pub struct ScanOp {
    inputs: Variadic<AnyTensor>,
    num_scan_inputs: Attr<I64Attr>,
    scan_input_axes: OptionalAttr<I64ArrayAttr>,
    scan_input_directions: OptionalAttr<I64ArrayAttr>,
    scan_output_axes: OptionalAttr<I64ArrayAttr>,
    scan_output_directions: OptionalAttr<I64ArrayAttr>,
    outputs: VariadicResult<AnyTensor>,
    body: SizedRegion<1>,
}

/// The values a region of `graph.if`, `graph.loop` or `graph.scan`
/// produces.
#[op("graph.yield",
     traits(Pure, Terminator, ReturnLike),
     format = "attr-dict ($results^ `:` type($results))?",
     verify = verify_yield,
     interfaces(ShapeFunction(infer::control::infer_yield)))]
pub struct YieldOp {
    results: Variadic<AnyValue>,
}
