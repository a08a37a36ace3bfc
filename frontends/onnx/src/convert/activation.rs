//! Activations and the softmax family: `Relu`'s relatives with attributes
//! (`Gelu`, `LeakyRelu`, `Elu`, `HardSigmoid`), those that import as
//! compositions (`PRelu`, `Selu`, `HardSwish`, `Mish`, ...), and `Softmax`,
//! `LogSoftmax` and `Hardmax`.

use strata_ir::{Location, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("Gelu", gelu),
    ("LeakyRelu", leaky_relu),
    ("Elu", leaky_relu),
    ("HardSigmoid", hard_sigmoid),
    ("PRelu", prelu),
    ("Selu", selu),
    ("Celu", celu),
    ("ThresholdedRelu", thresholded_relu),
    ("HardSwish", hard_swish),
    ("Mish", mish),
    ("Swish", swish),
    ("Softsign", softsign),
    ("Shrink", shrink),
    ("Softmax", softmax),
    ("LogSoftmax", softmax),
    ("Hardmax", hardmax),
];

fn gelu(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let approx = a.string("approximate").unwrap_or_else(|| "none".into());
    let s = im.ctx.string_attr(&approx);
    one(im.op1("graph.gelu", vec![x], vec![("approximate", s)], loc))
}

/// `LeakyRelu` and `Elu`.
fn leaky_relu(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let op = node.op_type();
    let x = im.req(node, 0)?;
    let default = if op == "Elu" { 1.0 } else { 0.01 };
    let alpha = im.f64_attr(f64::from(a.float("alpha").unwrap_or(default)));
    let name = if op == "Elu" {
        "graph.elu"
    } else {
        "graph.leaky_relu"
    };
    one(im.op1(name, vec![x], vec![("alpha", alpha)], loc))
}

fn hard_sigmoid(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let alpha = im.f64_attr(f64::from(a.float("alpha").unwrap_or(0.2)));
    let beta = im.f64_attr(f64::from(a.float("beta").unwrap_or(0.5)));
    one(im.op1(
        "graph.hard_sigmoid",
        vec![x],
        vec![("alpha", alpha), ("beta", beta)],
        loc,
    ))
}

fn prelu(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // x < 0 ? slope * x : x (slope broadcasts to x).
    let slope = im.req(node, 1)?;
    let zero = im.scalar_like(x, 0.0, loc)?;
    let neg = im.bin("graph.less", x, zero, loc)?;
    let scaled = im.bin("graph.mul", x, slope, loc)?;
    one(im.op1("graph.where", vec![neg, scaled, x], vec![], loc))
}

fn selu(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let alpha = a.float_or("alpha", 1.673_263_192_176_818_8);
    let gamma = a.float_or("gamma", 1.050_701_022_148_132_3);
    let elu = im.elu(x, alpha, loc)?;
    let g = im.scalar_like(x, gamma, loc)?;
    one(im.bin("graph.mul", elu, g, loc))
}

fn celu(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), as
    // written (alpha * elu(x / alpha) only holds for alpha > 0).
    let alpha = a.float_or("alpha", 1.0);
    if alpha == 0.0 {
        return Err("with alpha = 0 is not defined".into());
    }
    let al = im.scalar_like(x, alpha, loc)?;
    let one = im.scalar_like(x, 1.0, loc)?;
    let zero = im.scalar_like(x, 0.0, loc)?;
    let pos = im.un("graph.relu", x, loc)?;
    let scaled = im.bin("graph.div", x, al, loc)?;
    let e = im.un("graph.exp", scaled, loc)?;
    let em1 = im.bin("graph.sub", e, one, loc)?;
    let neg = im.bin("graph.mul", em1, al, loc)?;
    let neg = im.bin("graph.min", neg, zero, loc)?;
    Ok(vec![im.bin("graph.add", pos, neg, loc)?])
}

fn thresholded_relu(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let alpha = im.scalar_like(x, a.float_or("alpha", 1.0), loc)?;
    let zero = im.scalar_like(x, 0.0, loc)?;
    let keep = im.bin("graph.greater", x, alpha, loc)?;
    one(im.op1("graph.where", vec![keep, x, zero], vec![], loc))
}

fn hard_swish(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let alpha = im.f64_attr(1.0 / 6.0);
    let beta = im.f64_attr(0.5);
    let hs = im.op1(
        "graph.hard_sigmoid",
        vec![x],
        vec![("alpha", alpha), ("beta", beta)],
        loc,
    )?;
    one(im.bin("graph.mul", x, hs, loc))
}

fn mish(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let sp = im.un("graph.softplus", x, loc)?;
    let t = im.un("graph.tanh", sp, loc)?;
    one(im.bin("graph.mul", x, t, loc))
}

fn swish(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let alpha = im.scalar_like(x, a.float_or("alpha", 1.0), loc)?;
    let ax = im.bin("graph.mul", x, alpha, loc)?;
    let s = im.un("graph.sigmoid", ax, loc)?;
    one(im.bin("graph.mul", x, s, loc))
}

fn softsign(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let one = im.scalar_like(x, 1.0, loc)?;
    let abs = im.un("graph.abs", x, loc)?;
    let den = im.bin("graph.add", abs, one, loc)?;
    Ok(vec![im.bin("graph.div", x, den, loc)?])
}

fn shrink(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // x < -lambd ? x + bias : (x > lambd ? x - bias : 0)
    let lambd = a.float_or("lambd", 0.5);
    let bias = a.float_or("bias", 0.0);
    let lo = im.scalar_like(x, -lambd, loc)?;
    let hi = im.scalar_like(x, lambd, loc)?;
    let b = im.scalar_like(x, bias, loc)?;
    let zero = im.scalar_like(x, 0.0, loc)?;
    let below = im.bin("graph.less", x, lo, loc)?;
    let above = im.bin("graph.greater", x, hi, loc)?;
    let up = im.bin("graph.add", x, b, loc)?;
    let down = im.bin("graph.sub", x, b, loc)?;
    let inner = im.op1("graph.where", vec![above, down, zero], vec![], loc)?;
    one(im.op1("graph.where", vec![below, up, inner], vec![], loc))
}

/// `Softmax` and `LogSoftmax`.
fn softmax(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let op = node.op_type();
    let x = im.req(node, 0)?;
    let axis = im.i64_attr(a.int("axis").unwrap_or(-1));
    let name = if op == "Softmax" {
        "graph.softmax"
    } else {
        "graph.log_softmax"
    };
    one(im.op1(name, vec![x], vec![("axis", axis)], loc))
}

fn hardmax(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // 1 at the first maximum along the axis, 0 elsewhere.
    let rank = im.rank_of(x).ok_or("needs an input of known rank")?;
    let axis = a.int("axis").unwrap_or(-1);
    let axis = if axis < 0 { axis + rank as i64 } else { axis };
    if !(0..rank as i64).contains(&axis) {
        return Err(format!("axis {axis} is out of range for rank {rank}").into());
    }
    let props = vec![
        ("axis", im.i64_attr(axis)),
        ("keepdims", im.bool_attr(true)),
    ];
    let arg = im.op1("graph.argmax", vec![x], props, loc)?;
    let n = im.dim_scalar(x, axis as usize, loc)?;
    let positions = im.iota(n, rank - axis as usize - 1, loc)?;
    let at = im.bin("graph.equal", arg, positions, loc)?;
    let elem = im.elem(x).ok_or("operand is not a tensor")?;
    one(im.cast_to(at, elem, loc))
}

impl Importer<'_> {
    fn elu(&mut self, x: Value, alpha: f64, loc: Location) -> Res<Value> {
        let alpha = self.f64_attr(alpha);
        self.op1("graph.elu", vec![x], vec![("alpha", alpha)], loc)
    }
}
