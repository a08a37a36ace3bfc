//! Elementwise `graph` ops as `tensor.map`: numpy broadcasting through the
//! indexing maps, and a scalar body. An op that declares its formula (a
//! [`ScalarFn`], see `strata_dialects::graph::scalar`) gets that formula
//! replayed as `arith`/`math` ops, the same tape the reference interpreter
//! evaluates: no formula is restated here. The rest (binary arithmetic,
//! comparisons, `where`, `cast`, `bitcast`, `clip`, `mod`) are one `arith`
//! op each, or a few.
//!
//! Float bodies compute in the element type, except `f16` and `bf16`,
//! which are extended to `f32` on entry and truncated on exit (the
//! interpreter computes in `f64` and rounds once).

use strata_dialects::graph::scalar::{Binary, Compare, ScalarFn, Step, Tape, Unary};
use strata_ir::{Context, Operation, Type, Value};

use super::scalar::{cmpf, cmpi, is_float, is_half, Scalar};
use super::{broadcast_map, element_of, emit_map, shape, static_type, Plan};

/// The scalar formula of an elementwise op, with its parameters.
#[derive(Clone, Debug)]
enum Formula {
    /// The formula the op declares.
    Declared(Tape),
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
    let elem = element_of(ctx, ctx.value_type(input));
    let float = elem.is_some_and(|t| is_float(ctx, t));
    if let Some(declared) = ctx.op_interface::<ScalarFn>(op) {
        let tape = declared.record(ctx, op);
        let bool_elem = !float && ctx.int_or_float_bit_width(elem?) == Some(1);
        if !float && !(declared.ints && tape.is_integer() && (declared.bools || !bool_elem)) {
            return None;
        }
        return Some(Ok(Formula::Declared(tape)));
    }
    let f = match name.as_str() {
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
        Formula::Declared(tape) => replay(s, tape, x),
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

/// The tape of a declared formula as `arith`/`math` ops on `x` (a float
/// of the body's compute type, or an integer).
fn replay(s: &mut Scalar<'_>, tape: &Tape, x: Value) -> Value {
    let ty = s.ctx.value_type(x);
    let float = is_float(s.ctx, ty);
    let mut values = vec![x];
    for step in &tape.steps {
        let v = |sv: &strata_dialects::graph::scalar::Sv| values[sv.0 as usize];
        let r = match *step {
            Step::Const(c) => s.constant(ty, c),
            Step::Unary(u, a) => replay_unary(s, u, v(&a), float),
            Step::Binary(b, p, q) => {
                let (p, q) = (v(&p), v(&q));
                s.bin(binary_op(b, float), p, q)
            }
            Step::Compare(c, p, q) => {
                let pred = match (c, float) {
                    (Compare::Lt, true) => cmpf::OLT,
                    (Compare::Le, true) => cmpf::OLE,
                    (Compare::Gt, true) => cmpf::OGT,
                    (Compare::Ge, true) => cmpf::OGE,
                    (Compare::Eq, true) => cmpf::OEQ,
                    (Compare::Lt, false) => cmpi::SLT,
                    (Compare::Le, false) => cmpi::SLE,
                    (Compare::Gt, false) => cmpi::SGT,
                    (Compare::Ge, false) => cmpi::SGE,
                    (Compare::Eq, false) => cmpi::EQ,
                };
                let (p, q) = (v(&p), v(&q));
                s.cmp(pred, p, q)
            }
            Step::Select(c, p, q) => {
                let (c, p, q) = (v(&c), v(&p), v(&q));
                s.select(c, p, q)
            }
        };
        values.push(r);
    }
    values[tape.result.0 as usize]
}

fn replay_unary(s: &mut Scalar<'_>, u: Unary, x: Value, float: bool) -> Value {
    if !float {
        let ty = s.ctx.value_type(x);
        let zero = s.int(ty, 0);
        return match u {
            Unary::Abs => {
                let n = s.bin("arith.subi", zero, x);
                let neg = s.cmp(cmpi::SLT, x, zero);
                s.select(neg, n, x)
            }
            Unary::Not => {
                let ones = s.int(ty, -1);
                s.bin("arith.xori", x, ones)
            }
            // `Neg`: the only other integer function (`Tape::is_integer`).
            _ => s.bin("arith.subi", zero, x),
        };
    }
    let name = match u {
        Unary::Neg => "arith.negf",
        Unary::Abs => "math.absf",
        Unary::Sqrt => "math.sqrt",
        Unary::Exp => "math.exp",
        Unary::Expm1 => "math.expm1",
        Unary::Log => "math.log",
        Unary::Log1p => "math.log1p",
        Unary::Erf => "math.erf",
        Unary::Tanh => "math.tanh",
        Unary::Sin => "math.sin",
        Unary::Cos => "math.cos",
        Unary::Atan => "math.atan",
        Unary::Asin => "math.asin",
        Unary::Acos => "math.acos",
        Unary::Floor => "math.floor",
        Unary::Ceil => "math.ceil",
        Unary::RoundEven => "math.roundeven",
        // Integers only: not part of a float tape (the op's constraint).
        Unary::Not => "arith.xori",
    };
    s.un(name, x)
}

fn binary_op(b: Binary, float: bool) -> &'static str {
    match (b, float) {
        (Binary::Add, true) => "arith.addf",
        (Binary::Sub, true) => "arith.subf",
        (Binary::Mul, true) => "arith.mulf",
        (Binary::Div, true) => "arith.divf",
        (Binary::Maximum, true) => "arith.maximumf",
        (Binary::Minimum, true) => "arith.minimumf",
        (Binary::Pow, true) => "math.powf",
        (Binary::Add, false) => "arith.addi",
        (Binary::Sub, false) => "arith.subi",
        (Binary::Mul, false) => "arith.muli",
        (Binary::Maximum, false) => "arith.maxsi",
        (Binary::Minimum, false) => "arith.minsi",
        // Not integer functions (`Tape::is_integer`).
        (Binary::Div | Binary::Pow, false) => "arith.divsi",
    }
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
