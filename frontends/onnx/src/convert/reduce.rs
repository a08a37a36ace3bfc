//! Reductions along axes: the `Reduce*` ops, `ArgMax` and `ArgMin`, the
//! cumulative sums and products, and `TopK`.

use strata_ir::{Location, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("ReduceSum", reduce),
    ("ReduceMean", reduce),
    ("ReduceMax", reduce),
    ("ReduceMin", reduce),
    ("ReduceProd", reduce),
    ("ReduceSumSquare", reduce),
    ("ReduceL1", reduce),
    ("ReduceL2", reduce),
    ("ReduceLogSumExp", reduce),
    ("ReduceLogSum", reduce_log_sum),
    ("ArgMax", arg_extremum),
    ("ArgMin", arg_extremum),
    ("CumSum", cumulative),
    ("CumProd", cumulative),
    ("Det", det),
    ("TopK", top_k),
];

/// The `Reduce*` ops that are one `graph` op each (all but `ReduceLogSum`).
fn reduce(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let op = node.op_type();
    let name = match op {
        "ReduceSum" => "graph.reduce_sum",
        "ReduceMean" => "graph.reduce_mean",
        "ReduceMax" => "graph.reduce_max",
        "ReduceMin" => "graph.reduce_min",
        "ReduceProd" => "graph.reduce_prod",
        "ReduceSumSquare" => "graph.reduce_sum_square",
        "ReduceL1" => "graph.reduce_l1",
        "ReduceL2" => "graph.reduce_l2",
        _ => "graph.reduce_log_sum_exp",
    };
    let x = im.req(node, 0)?;
    // Axes became an input in opset 13 (ReduceSum) or 18 (the others).
    let axes = match a.ints("axes") {
        Some(v) => Some(im.const_i64(&v, loc)?),
        None => im.input(node, 1)?,
    };
    let props = vec![
        (
            "keepdims",
            im.bool_attr(a.int("keepdims").unwrap_or(1) != 0),
        ),
        (
            "noop_with_empty_axes",
            im.bool_attr(a.int("noop_with_empty_axes").unwrap_or(0) != 0),
        ),
    ];
    one(im.op1(name, std::iter::once(x).chain(axes).collect(), props, loc))
}

fn reduce_log_sum(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let axes = match a.ints("axes") {
        Some(v) => Some(im.const_i64(&v, loc)?),
        None => im.input(node, 1)?,
    };
    let props = vec![
        (
            "keepdims",
            im.bool_attr(a.int("keepdims").unwrap_or(1) != 0),
        ),
        (
            "noop_with_empty_axes",
            im.bool_attr(a.int("noop_with_empty_axes").unwrap_or(0) != 0),
        ),
    ];
    let operands = std::iter::once(x).chain(axes).collect();
    let sum = im.op1("graph.reduce_sum", operands, props, loc)?;
    one(im.un("graph.log", sum, loc))
}

/// `ArgMax` and `ArgMin`.
fn arg_extremum(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let op = node.op_type();
    let x = im.req(node, 0)?;
    let props = vec![
        ("axis", im.i64_attr(a.int("axis").unwrap_or(0))),
        (
            "keepdims",
            im.bool_attr(a.int("keepdims").unwrap_or(1) != 0),
        ),
        (
            "select_last_index",
            im.bool_attr(a.int("select_last_index").unwrap_or(0) != 0),
        ),
    ];
    let name = if op == "ArgMax" {
        "graph.argmax"
    } else {
        "graph.argmin"
    };
    one(im.op1(name, vec![x], props, loc))
}

/// `CumSum` and `CumProd`.
fn cumulative(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let op = node.op_type();
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    let props = vec![
        (
            "exclusive",
            im.bool_attr(a.int("exclusive").unwrap_or(0) != 0),
        ),
        ("reverse", im.bool_attr(a.int("reverse").unwrap_or(0) != 0)),
    ];
    let name = if op == "CumProd" {
        "graph.cumprod"
    } else {
        "graph.cumsum"
    };
    one(im.op1(name, ops, props, loc))
}

fn top_k(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    // `sorted = 0` allows any order: the sorted one is as good.
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    let props = vec![
        ("axis", im.i64_attr(a.int("axis").unwrap_or(-1))),
        ("largest", im.bool_attr(a.int("largest").unwrap_or(1) != 0)),
    ];
    im.op("graph.top_k", ops, props, 2, None, loc)
}

/// `Det`: the determinant of each square matrix in the last two dims.
fn det(im: &mut Importer, node: &NodeProto, _: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    one(im.op1("graph.det", vec![x], vec![], loc))
}
