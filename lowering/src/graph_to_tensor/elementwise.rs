//! Elementwise `graph` ops as `tensor.map`: numpy broadcasting through the
//! indexing maps, and a scalar body that mirrors the reference
//! interpreter's formula (`strata_runtime::kernels::elementwise`).
//!
//! Float bodies compute in the element type, except `f16` and `bf16`,
//! which are extended to `f32` on entry and truncated on exit (the
//! interpreter computes in `f64` and rounds once).

use strata_ir::{Context, Operation, Type, Value};

use super::scalar::{cmpf, cmpi, is_float, is_half, Scalar};
use super::{broadcast_map, element_of, emit_map, shape, static_type, Plan};

/// The scalar formula of an elementwise op, with its parameters.
#[derive(Clone, Debug)]
enum Formula {
    /// A unary float or integer function, by graph op name.
    Unary(String),
    /// `leaky_relu`, `elu` (alpha).
    Alpha(String, f64),
    /// `hard_sigmoid` (alpha, beta).
    HardSigmoid(f64, f64),
    /// `gelu` (tanh approximation or not).
    Gelu(bool),
    /// A binary arithmetic or logical op, by graph op name.
    Binary(String),
    /// `mod`: `fmod` semantics or Python's.
    Mod(bool),
    /// A comparison: the float and integer predicates.
    Compare(i64, i64),
    /// `where`.
    Where,
    /// `cast`.
    Cast,
    /// `bitcast` (`arith.bitcast` of each element).
    Bitcast,
    /// `clip` with a min and/or max operand.
    Clip(bool, bool),
}

const FLOAT_UNARY: &[&str] = &[
    "graph.neg",
    "graph.abs",
    "graph.sqrt",
    "graph.rsqrt",
    "graph.reciprocal",
    "graph.exp",
    "graph.log",
    "graph.erf",
    "graph.tanh",
    "graph.sin",
    "graph.cos",
    "graph.sigmoid",
    "graph.relu",
    "graph.silu",
    "graph.softplus",
    "graph.sign",
    "graph.floor",
    "graph.ceil",
    "graph.round",
    "graph.atan",
    "graph.asin",
    "graph.acos",
];
const INT_UNARY: &[&str] = &[
    "graph.neg",
    "graph.abs",
    "graph.relu",
    "graph.sign",
    "graph.not",
];
const FLOAT_BINARY: &[&str] = &[
    "graph.add",
    "graph.sub",
    "graph.mul",
    "graph.div",
    "graph.pow",
    "graph.max",
    "graph.min",
];
const INT_BINARY: &[&str] = &[
    "graph.add",
    "graph.sub",
    "graph.mul",
    "graph.div",
    "graph.max",
    "graph.min",
    "graph.and",
    "graph.or",
    "graph.xor",
];

/// The formula of an elementwise op, `None` when this module does not lower it.
fn formula_of(ctx: &Context, op: Operation) -> Option<Result<Formula, String>> {
    use strata_dialects::graph as g;
    let name = ctx.op_name_str(op).to_string();
    let input = ctx.operands(op).next()?;
    let float = element_of(ctx, ctx.value_type(input)).is_some_and(|t| is_float(ctx, t));
    let f = match name.as_str() {
        "graph.leaky_relu" => Formula::Alpha(name.clone(), g::LeakyReluOp(op).alpha(ctx)),
        "graph.elu" => Formula::Alpha(name.clone(), g::EluOp(op).alpha(ctx)),
        "graph.hard_sigmoid" => {
            let h = g::HardSigmoidOp(op);
            Formula::HardSigmoid(h.alpha(ctx), h.beta(ctx))
        }
        "graph.gelu" => match g::GeluOp(op).approximate(ctx).as_str() {
            "none" => Formula::Gelu(false),
            "tanh" => Formula::Gelu(true),
            other => return Some(Err(format!("has an unknown approximation '{other}'"))),
        },
        "graph.mod" => Formula::Mod(g::ModOp(op).fmod(ctx) || float),
        "graph.equal" => Formula::Compare(cmpf::OEQ, cmpi::EQ),
        "graph.less" => Formula::Compare(cmpf::OLT, cmpi::SLT),
        "graph.less_equal" => Formula::Compare(cmpf::OLE, cmpi::SLE),
        "graph.greater" => Formula::Compare(cmpf::OGT, cmpi::SGT),
        "graph.greater_equal" => Formula::Compare(cmpf::OGE, cmpi::SGE),
        "graph.where" => Formula::Where,
        "graph.cast" => Formula::Cast,
        "graph.bitcast" => {
            // `arith.bitcast` needs as many bits: not `i1` (a byte in ONNX).
            let i1 = |v| {
                element_of(ctx, ctx.value_type(v))
                    .is_some_and(|t| ctx.int_or_float_bit_width(t) == Some(1))
            };
            if i1(input) || ctx.results(op).any(i1) {
                return Some(Err(
                    "reinterprets i1 (one byte in ONNX's BitCast), which does not lower".into(),
                ));
            }
            Formula::Bitcast
        }
        "graph.clip" => {
            let c = g::ClipOp(op);
            Formula::Clip(c.min(ctx).is_some(), c.max(ctx).is_some())
        }
        n if (float && FLOAT_UNARY.contains(&n)) || (!float && INT_UNARY.contains(&n)) => {
            Formula::Unary(name.clone())
        }
        n if (float && FLOAT_BINARY.contains(&n)) || (!float && INT_BINARY.contains(&n)) => {
            Formula::Binary(name.clone())
        }
        _ => return None,
    };
    Some(Ok(f))
}

/// The plan of an elementwise op, `None` when `op` is not one this module
/// lowers.
pub(super) fn plan(ctx: &mut Context, op: Operation) -> Option<Result<Plan, String>> {
    let formula = match formula_of(ctx, op)? {
        Ok(f) => f,
        Err(e) => return Some(Err(e)),
    };
    Some(plan_formula(ctx, op, formula))
}

fn plan_formula(ctx: &mut Context, op: Operation, formula: Formula) -> Result<Plan, String> {
    let result_type = static_type(ctx, ctx.result(op, 0))?;
    let domain = shape(ctx, result_type);
    let mut maps = Vec::new();
    let operands: Vec<Value> = ctx.operands(op).collect();
    for &v in &operands {
        static_type(ctx, v)?;
        let ty = ctx.value_type(v);
        maps.push(broadcast_map(&shape(ctx, ty), &domain));
    }
    let out = element_of(ctx, result_type).ok_or("has no element type")?;
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        emit_map(ctx, op, &maps, result_type, move |s, args| {
            body(s, &formula, args, out)
        })
    }))
}

/// The body: arguments extended to `f32` where half, the formula, the
/// result truncated back.
fn body(s: &mut Scalar<'_>, formula: &Formula, args: &[Value], out: Type) -> Value {
    if matches!(formula, Formula::Where) {
        return s.select(args[0], args[1], args[2]);
    }
    if matches!(formula, Formula::Bitcast) {
        return s.op("arith.bitcast", &[args[0]], &[], out);
    }
    if matches!(formula, Formula::Cast) {
        let from = s.ctx.value_type(args[0]);
        if is_half(s.ctx, from) && is_half(s.ctx, out) && from != out {
            let f32_type = s.ctx.float_type(strata_ir::float::FloatKind::F32);
            let wide = s.convert(args[0], f32_type);
            return s.convert(wide, out);
        }
        return s.convert(args[0], out);
    }
    let f32_type = s.ctx.float_type(strata_ir::float::FloatKind::F32);
    let args: Vec<Value> = args
        .iter()
        .map(|&a| {
            let ty = s.ctx.value_type(a);
            if is_half(s.ctx, ty) {
                s.convert(a, f32_type)
            } else {
                a
            }
        })
        .collect();
    let r = compute(s, formula, &args);
    let rt = s.ctx.value_type(r);
    if rt != out && is_float(s.ctx, out) {
        s.convert(r, out)
    } else {
        r
    }
}

fn compute(s: &mut Scalar<'_>, formula: &Formula, args: &[Value]) -> Value {
    let x = args[0];
    let ty = s.ctx.value_type(x);
    let float = is_float(s.ctx, ty);
    match formula {
        Formula::Unary(name) if float => float_unary(s, name, x),
        Formula::Unary(name) => int_unary(s, name, x),
        Formula::Alpha(name, alpha) => {
            let zero = s.float(ty, 0.0);
            let a = s.float(ty, *alpha);
            if name == "graph.leaky_relu" {
                let ax = s.bin("arith.mulf", a, x);
                let pos = s.cmp(cmpf::OGE, x, zero);
                s.select(pos, x, ax)
            } else {
                let e = s.un("math.exp", x);
                let one = s.float(ty, 1.0);
                let em1 = s.bin("arith.subf", e, one);
                let neg = s.bin("arith.mulf", a, em1);
                let pos = s.cmp(cmpf::OGT, x, zero);
                s.select(pos, x, neg)
            }
        }
        Formula::HardSigmoid(alpha, beta) => {
            let a = s.float(ty, *alpha);
            let b = s.float(ty, *beta);
            let ax = s.bin("arith.mulf", a, x);
            let v = s.bin("arith.addf", ax, b);
            let zero = s.float(ty, 0.0);
            let one = s.float(ty, 1.0);
            let lo = s.bin("arith.maximumf", v, zero);
            s.bin("arith.minimumf", lo, one)
        }
        Formula::Gelu(tanh) => gelu(s, x, *tanh),
        Formula::Binary(name) => binary(s, name, x, args[1], float),
        Formula::Mod(fmod) => {
            if float {
                return s.bin("arith.remf", x, args[1]);
            }
            let y = args[1];
            let r = s.bin("arith.remsi", x, y);
            if *fmod {
                return r;
            }
            let zero = s.int(ty, 0);
            let nonzero = s.cmp(cmpi::NE, r, zero);
            let r_neg = s.cmp(cmpi::SLT, r, zero);
            let y_neg = s.cmp(cmpi::SLT, y, zero);
            let differ = s.bin("arith.xori", r_neg, y_neg);
            let fix = s.bin("arith.andi", nonzero, differ);
            let sum = s.bin("arith.addi", r, y);
            s.select(fix, sum, r)
        }
        Formula::Compare(fp, ip) => s.cmp(if float { *fp } else { *ip }, x, args[1]),
        Formula::Clip(has_min, has_max) => {
            let (lt, gt) = if float {
                (cmpf::OLT, cmpf::OGT)
            } else {
                (cmpi::SLT, cmpi::SGT)
            };
            let mut v = x;
            let mut next = 1;
            if *has_min {
                let lo = args[next];
                next += 1;
                let below = s.cmp(lt, v, lo);
                v = s.select(below, lo, v);
            }
            if *has_max {
                let hi = args[next];
                let above = s.cmp(gt, v, hi);
                v = s.select(above, hi, v);
            }
            v
        }
        Formula::Where | Formula::Cast | Formula::Bitcast => x,
    }
}

fn sigmoid(s: &mut Scalar<'_>, x: Value) -> Value {
    let ty = s.ctx.value_type(x);
    let zero = s.float(ty, 0.0);
    let one = s.float(ty, 1.0);
    let nx = s.un("arith.negf", x);
    let en = s.un("math.exp", nx);
    let d = s.bin("arith.addf", one, en);
    let pos = s.bin("arith.divf", one, d);
    let e = s.un("math.exp", x);
    let d2 = s.bin("arith.addf", one, e);
    let neg = s.bin("arith.divf", e, d2);
    let c = s.cmp(cmpf::OGE, x, zero);
    s.select(c, pos, neg)
}

fn float_unary(s: &mut Scalar<'_>, name: &str, x: Value) -> Value {
    let ty = s.ctx.value_type(x);
    match name {
        "graph.neg" => s.un("arith.negf", x),
        "graph.abs" => s.un("math.absf", x),
        "graph.sqrt" => s.un("math.sqrt", x),
        "graph.rsqrt" => {
            let r = s.un("math.sqrt", x);
            let one = s.float(ty, 1.0);
            s.bin("arith.divf", one, r)
        }
        "graph.reciprocal" => {
            let one = s.float(ty, 1.0);
            s.bin("arith.divf", one, x)
        }
        "graph.exp" => s.un("math.exp", x),
        "graph.log" => s.un("math.log", x),
        "graph.erf" => s.un("math.erf", x),
        "graph.tanh" => s.un("math.tanh", x),
        "graph.sin" => s.un("math.sin", x),
        "graph.cos" => s.un("math.cos", x),
        "graph.floor" => s.un("math.floor", x),
        "graph.ceil" => s.un("math.ceil", x),
        // ONNX Round: halves to even.
        "graph.round" => s.un("math.roundeven", x),
        "graph.atan" => s.un("math.atan", x),
        "graph.asin" => s.un("math.asin", x),
        "graph.acos" => s.un("math.acos", x),
        "graph.sigmoid" => sigmoid(s, x),
        "graph.silu" => {
            let g = sigmoid(s, x);
            s.bin("arith.mulf", x, g)
        }
        "graph.relu" => {
            let zero = s.float(ty, 0.0);
            let neg = s.cmp(cmpf::OLT, x, zero);
            s.select(neg, zero, x)
        }
        // log(1 + e^x) as eager computes it: x + log1p(e^-x) above 0,
        // log1p(e^x) below (exact where e^x is tiny: softplus(-20) is
        // 2.06e-9, not 0).
        "graph.softplus" => {
            let zero = s.float(ty, 0.0);
            let nx = s.un("arith.negf", x);
            let en = s.un("math.exp", nx);
            let ln1 = s.un("math.log1p", en);
            let pos = s.bin("arith.addf", x, ln1);
            let e = s.un("math.exp", x);
            let neg = s.un("math.log1p", e);
            let c = s.cmp(cmpf::OGT, x, zero);
            s.select(c, pos, neg)
        }
        // "graph.sign": keeps 0, -0 and NaN.
        _ => {
            let zero = s.float(ty, 0.0);
            let one = s.float(ty, 1.0);
            let minus = s.float(ty, -1.0);
            let lt = s.cmp(cmpf::OLT, x, zero);
            let inner = s.select(lt, minus, x);
            let gt = s.cmp(cmpf::OGT, x, zero);
            s.select(gt, one, inner)
        }
    }
}

fn int_unary(s: &mut Scalar<'_>, name: &str, x: Value) -> Value {
    let ty = s.ctx.value_type(x);
    let zero = s.int(ty, 0);
    match name {
        "graph.neg" => s.bin("arith.subi", zero, x),
        "graph.abs" => {
            let n = s.bin("arith.subi", zero, x);
            let neg = s.cmp(cmpi::SLT, x, zero);
            s.select(neg, n, x)
        }
        "graph.relu" => s.bin("arith.maxsi", x, zero),
        "graph.not" => {
            let ones = s.int(ty, -1);
            s.bin("arith.xori", x, ones)
        }
        // "graph.sign"
        _ => {
            let one = s.int(ty, 1);
            let minus = s.int(ty, -1);
            let lt = s.cmp(cmpi::SLT, x, zero);
            let inner = s.select(lt, minus, zero);
            let gt = s.cmp(cmpi::SGT, x, zero);
            s.select(gt, one, inner)
        }
    }
}

fn gelu(s: &mut Scalar<'_>, x: Value, tanh: bool) -> Value {
    let ty = s.ctx.value_type(x);
    let half = s.float(ty, 0.5);
    let one = s.float(ty, 1.0);
    let inner = if tanh {
        let c = s.float(ty, (2.0 / std::f64::consts::PI).sqrt());
        let k = s.float(ty, 0.044715);
        let x2 = s.bin("arith.mulf", x, x);
        let x3 = s.bin("arith.mulf", x2, x);
        let kx3 = s.bin("arith.mulf", k, x3);
        let sum = s.bin("arith.addf", x, kx3);
        let arg = s.bin("arith.mulf", c, sum);
        s.un("math.tanh", arg)
    } else {
        let r2 = s.float(ty, std::f64::consts::SQRT_2);
        let arg = s.bin("arith.divf", x, r2);
        s.un("math.erf", arg)
    };
    let p = s.bin("arith.addf", one, inner);
    let hx = s.bin("arith.mulf", half, x);
    s.bin("arith.mulf", hx, p)
}

fn binary(s: &mut Scalar<'_>, name: &str, x: Value, y: Value, float: bool) -> Value {
    let op = match (name, float) {
        ("graph.add", true) => "arith.addf",
        ("graph.sub", true) => "arith.subf",
        ("graph.mul", true) => "arith.mulf",
        ("graph.div", true) => "arith.divf",
        ("graph.pow", true) => "math.powf",
        ("graph.max", true) => "arith.maximumf",
        ("graph.min", true) => "arith.minimumf",
        ("graph.add", false) => "arith.addi",
        ("graph.sub", false) => "arith.subi",
        ("graph.mul", false) => "arith.muli",
        ("graph.div", false) => "arith.divsi",
        ("graph.max", false) => "arith.maxsi",
        ("graph.min", false) => "arith.minsi",
        ("graph.and", _) => "arith.andi",
        ("graph.or", _) => "arith.ori",
        _ => "arith.xori",
    };
    s.bin(op, x, y)
}
