//! Elementwise ops: the one-to-one unary, binary and variadic tables, the
//! elementwise ops with attributes or operand rules of their own (`Pow`,
//! `Mod`, `Clip`, `Cast`, ...), and the math functions that import as
//! compositions (`Sinh`, `IsNaN`, ...).

use strata_ir::{Location, Value};

use super::{one, scalar_attr, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;
use crate::tensor::{dtype_name, element_type};
use crate::ConvertError;

/// The unary ONNX ops that are one `graph` op without attributes.
pub(super) const UNARY: &[(&str, &str)] = &[
    ("Neg", "graph.neg"),
    ("Abs", "graph.abs"),
    ("Sign", "graph.sign"),
    ("Sqrt", "graph.sqrt"),
    ("Reciprocal", "graph.reciprocal"),
    ("Exp", "graph.exp"),
    ("Log", "graph.log"),
    ("Erf", "graph.erf"),
    ("Tanh", "graph.tanh"),
    ("Sin", "graph.sin"),
    ("Cos", "graph.cos"),
    ("Acos", "graph.acos"),
    ("Asin", "graph.asin"),
    ("Atan", "graph.atan"),
    ("Tan", "graph.tan"),
    ("Floor", "graph.floor"),
    ("Round", "graph.round"),
    ("Ceil", "graph.ceil"),
    ("Sigmoid", "graph.sigmoid"),
    ("Relu", "graph.relu"),
    ("Softplus", "graph.softplus"),
    ("Not", "graph.not"),
    ("BitwiseNot", "graph.not"),
];

/// The binary ONNX ops that are one broadcasting `graph` op without
/// attributes.
pub(super) const BINARY: &[(&str, &str)] = &[
    ("Add", "graph.add"),
    ("Sub", "graph.sub"),
    ("Mul", "graph.mul"),
    ("Div", "graph.div"),
    ("And", "graph.and"),
    ("BitwiseAnd", "graph.and"),
    ("Or", "graph.or"),
    ("BitwiseOr", "graph.or"),
    ("Xor", "graph.xor"),
    ("BitwiseXor", "graph.xor"),
    ("Less", "graph.less"),
    ("LessOrEqual", "graph.less_equal"),
    ("Greater", "graph.greater"),
    ("GreaterOrEqual", "graph.greater_equal"),
];

/// The variadic ONNX ops that are a chain of one binary `graph` op.
pub(super) const VARIADIC: &[(&str, &str)] = &[
    ("Sum", "graph.add"),
    ("Max", "graph.max"),
    ("Min", "graph.min"),
];

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("Identity", identity),
    ("Pow", pow),
    ("Mean", mean),
    ("Mod", modulo),
    ("Clip", clip),
    ("Cast", cast),
    ("CastLike", cast),
    ("BitCast", bitcast),
    ("Where", select),
    ("BitShift", bit_shift),
    ("IsNaN", is_nan),
    ("IsInf", is_inf),
    ("Sinh", sinh_cosh),
    ("Cosh", sinh_cosh),
    ("Asinh", asinh),
    ("Acosh", acosh),
    ("Atanh", atanh),
];

fn identity(im: &mut Importer, node: &NodeProto, _a: &Attrs, _loc: Location) -> Res<Vec<Value>> {
    Ok(vec![im.req(node, 0)?])
}

/// `Pow`: ONNX lets the exponent have its own type, which is cast to the
/// base's.
fn pow(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let (l, mut r) = (im.req(node, 0)?, im.req(node, 1)?);
    if im.elem(l) != im.elem(r) {
        // ONNX lets the exponent have its own type: convert it to the base's.
        let elem = im.elem(l).ok_or("operand is not a tensor")?;
        r = im.op("graph.cast", vec![r], vec![], 1, Some(elem), loc)?[0];
    }
    one(im.op1("graph.pow", vec![l, r], vec![], loc))
}

fn mean(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let n = node.input.len();
    let mut acc = im.req(node, 0)?;
    for i in 1..n {
        let next = im.req(node, i)?;
        acc = im.op1("graph.add", vec![acc, next], vec![], loc)?;
    }
    if n > 1 {
        let elem = im.elem(acc).ok_or("operand is not a tensor")?;
        let ty = im.ctx.tensor_type(vec![], elem);
        let count = scalar_attr(im.ctx, ty, n as f64).ok_or_else(|| {
            ConvertError::unsupported("Mean of non-float tensors is not supported")
        })?;
        let c = im.constant(count, loc)?;
        acc = im.op1("graph.div", vec![acc, c], vec![], loc)?;
    }
    Ok(vec![acc])
}

fn modulo(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let (l, r) = (im.req(node, 0)?, im.req(node, 1)?);
    let fmod = a.int("fmod").unwrap_or(0) != 0;
    let is_float = im.elem(l).is_some_and(|e| im.ctx.float_kind(e).is_some());
    if is_float && !fmod {
        return Err("on floats requires fmod=1".into());
    }
    let fmod = im.bool_attr(fmod);
    one(im.op1("graph.mod", vec![l, r], vec![("fmod", fmod)], loc))
}

fn clip(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let (lo, hi) = (im.input(node, 1)?, im.input(node, 2)?);
    let seg = im.segments(&[1, i32::from(lo.is_some()), i32::from(hi.is_some())]);
    let operands = std::iter::once(x).chain(lo).chain(hi).collect();
    one(im.op1(
        "graph.clip",
        operands,
        vec![("operandSegmentSizes", seg)],
        loc,
    ))
}

/// `Cast` and `CastLike`.
fn cast(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let op = node.op_type();
    let x = im.req(node, 0)?;
    let elem = if op == "Cast" {
        let to = a.int("to").ok_or("requires 'to'")?;
        element_type(im.ctx, to as i32).ok_or_else(|| {
            ConvertError::unsupported(format!("to {} is not supported", dtype_name(to as i32)))
        })?
    } else {
        let like = im.req(node, 1)?;
        im.elem(like).ok_or("operand is not a tensor")?
    };
    // `saturate` (opset 19) matters for 8- and 4-bit float results only.
    let saturate = a.int("saturate").unwrap_or(1) != 0;
    let mut attrs = if saturate {
        vec![]
    } else {
        vec![("saturate", im.ctx.bool_attr(false))]
    };
    // `round_mode` (opset 24) matters for FLOAT8E8M0 results only.
    if let Some(mode) = a.string("round_mode").filter(|m| m != "up") {
        if !matches!(mode.as_str(), "down" | "nearest") {
            return Err(format!("has an unknown round_mode '{mode}'").into());
        }
        attrs.push(("round_mode", im.ctx.string_attr(&mode)));
    }
    im.op("graph.cast", vec![x], attrs, 1, Some(elem), loc)
}

/// `BitCast`: the bits of each element as `to`'s type (as wide).
fn bitcast(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let to = a.int("to").ok_or("requires 'to'")?;
    let elem = element_type(im.ctx, to as i32).ok_or_else(|| {
        ConvertError::unsupported(format!("to {} is not supported", dtype_name(to as i32)))
    })?;
    im.op("graph.bitcast", vec![x], vec![], 1, Some(elem), loc)
}

fn select(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?, im.req(node, 2)?];
    one(im.op1("graph.where", ops, vec![], loc))
}

fn bit_shift(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    let direction = match a.string("direction").as_deref() {
        Some("LEFT") => "left",
        Some("RIGHT") => "right",
        other => return Err(format!("has an unknown direction {other:?}").into()),
    };
    let direction = im.ctx.string_attr(direction);
    one(im.op1("graph.bit_shift", ops, vec![("direction", direction)], loc))
}

fn is_nan(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // NaN is the only value not equal to itself.
    let eq = im.bin("graph.equal", x, x, loc)?;
    one(im.un("graph.not", eq, loc))
}

fn is_inf(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let pos = a.int("detect_positive").unwrap_or(1) != 0;
    let neg = a.int("detect_negative").unwrap_or(1) != 0;
    let pinf = im.scalar_like(x, f64::INFINITY, loc)?;
    let ninf = im.scalar_like(x, f64::NEG_INFINITY, loc)?;
    let is_pos = im.bin("graph.equal", x, pinf, loc)?;
    let is_neg = im.bin("graph.equal", x, ninf, loc)?;
    Ok(vec![match (pos, neg) {
        (true, true) => im.bin("graph.or", is_pos, is_neg, loc)?,
        (true, false) => is_pos,
        (false, true) => is_neg,
        // Nothing detected: no value is both.
        (false, false) => im.bin("graph.and", is_pos, is_neg, loc)?,
    }])
}

/// `Sinh` and `Cosh`.
fn sinh_cosh(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let op = node.op_type();
    // (e^x -+ e^-x) / 2
    let e = im.un("graph.exp", x, loc)?;
    let nx = im.un("graph.neg", x, loc)?;
    let en = im.un("graph.exp", nx, loc)?;
    let name = if op == "Sinh" {
        "graph.sub"
    } else {
        "graph.add"
    };
    let sum = im.bin(name, e, en, loc)?;
    let half = im.scalar_like(x, 0.5, loc)?;
    one(im.bin("graph.mul", sum, half, loc))
}

fn asinh(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // sign(x) * log(|x| + sqrt(x^2 + 1)): odd, so negative x
    // does not cancel in the sum.
    let one = im.scalar_like(x, 1.0, loc)?;
    let ax = im.un("graph.abs", x, loc)?;
    let sq = im.bin("graph.mul", x, x, loc)?;
    let inner = im.bin("graph.add", sq, one, loc)?;
    let root = im.un("graph.sqrt", inner, loc)?;
    let sum = im.bin("graph.add", ax, root, loc)?;
    let l = im.un("graph.log", sum, loc)?;
    let sign = im.un("graph.sign", x, loc)?;
    Ok(vec![im.bin("graph.mul", sign, l, loc)?])
}

fn acosh(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // log(x + sqrt(x^2 - 1)), for x >= 1.
    let one = im.scalar_like(x, 1.0, loc)?;
    let sq = im.bin("graph.mul", x, x, loc)?;
    let inner = im.bin("graph.sub", sq, one, loc)?;
    let root = im.un("graph.sqrt", inner, loc)?;
    let sum = im.bin("graph.add", x, root, loc)?;
    Ok(vec![im.un("graph.log", sum, loc)?])
}

fn atanh(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // log((1 + x) / (1 - x)) / 2
    let one = im.scalar_like(x, 1.0, loc)?;
    let num = im.bin("graph.add", one, x, loc)?;
    let den = im.bin("graph.sub", one, x, loc)?;
    let q = im.bin("graph.div", num, den, loc)?;
    let l = im.un("graph.log", q, loc)?;
    let half = im.scalar_like(x, 0.5, loc)?;
    Ok(vec![im.bin("graph.mul", l, half, loc)?])
}
