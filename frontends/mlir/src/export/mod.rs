//! `graph` into TOSA (MLIR 22, TOSA 1.0): the inverse of [`crate::tosa`].
//!
//! [`export`] writes each `func.func` of a `graph` module as a function of
//! TOSA ops, in MLIR's generic form, then hands the text to upstream MLIR,
//! which parses and verifies it and prints it in TOSA's own form: what
//! comes out is what upstream accepts. Shapes must be static (run
//! `graph-infer-shapes` and the constant folding first, as
//! `strata-translate --export=tosa` does).
//!
//! `graph` follows ONNX, TOSA is stricter, so most ops become a few:
//! operands of lower rank are reshaped to the result's rank (TOSA
//! broadcasts only dims of size 1), NCHW convolutions and pools are
//! transposed to NHWC around TOSA's op, a float division is a
//! multiplication by the reciprocal, a 2-D product is a 3-D `tosa.matmul`,
//! and the ops TOSA spells out (softmax, layer norm, GELU, batch norm) are
//! spelled out. An op with no rule is an error at its location.

use std::collections::HashMap;
use std::fmt::Write;

use strata_dialects::graph::infer::operand_info;
use strata_ir::printer::{attribute_to_string, type_to_string};
use strata_ir::{Context, Operation, Type, Value};

mod resample;
mod rules;

pub use rules::exported_ops;

use crate::tosa::numbers;
use crate::upstream::Upstream;
use crate::ImportError;

type Res<T> = Result<T, String>;

/// The element of a [`T`] that is a `!tosa.shape`.
const SHAPE: &str = "!tosa.shape";

/// A tensor of the exported function: its SSA name, static shape and
/// element type (as MLIR prints it).
#[derive(Clone, Debug)]
struct T {
    name: String,
    shape: Vec<i64>,
    elem: String,
}

impl T {
    fn ty(&self) -> String {
        if self.elem == SHAPE {
            return format!("!tosa.shape<{}>", self.shape[0]);
        }
        tensor_type(&self.shape, &self.elem)
    }

    fn rank(&self) -> usize {
        self.shape.len()
    }

    fn is_float(&self) -> bool {
        self.elem.starts_with('f') || self.elem == "bf16"
    }
}

fn tensor_type(shape: &[i64], elem: &str) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        let _ = write!(s, "{d}x");
    }
    s.push_str(elem);
    s.push('>');
    s
}

/// A float as an MLIR float literal (it needs a `.`).
fn float(v: f64) -> String {
    if v.is_infinite() {
        // f32's largest finite value: TOSA clamps take no infinity.
        return if v > 0.0 {
            "3.40282347E+38".into()
        } else {
            "-3.40282347E+38".into()
        };
    }
    format!("{v:.9e}")
}

struct Emitter<'c> {
    ctx: &'c Context,
    body: String,
    /// The location of the `graph` op being exported, as MLIR text: every
    /// TOSA op it becomes carries it, so that upstream's diagnostics name
    /// the source op.
    loc: String,
    values: HashMap<Value, T>,
    /// `graph.constant`s not written yet: a constant is written where a
    /// TOSA op first takes it as a tensor (shapes and axes never are).
    pending: HashMap<Value, (String, Vec<i64>, String)>,
    /// `graph.round`s whose every user is a cast from float to integer:
    /// `tosa.cast` rounds by itself, so they write nothing (and the round
    /// trip TOSA → graph → TOSA gives `tosa.cast` back).
    absorbed: std::collections::HashSet<Value>,
    next: usize,
}

/// Write the `graph` module `module` as TOSA, verified and printed by
/// upstream MLIR (`name` names the module in upstream's diagnostics).
pub fn export(ctx: &Context, module: Operation, name: &str) -> Result<String, ImportError> {
    let mut text = String::new();
    for &region in ctx.op_regions(module) {
        let Some(block) = ctx.region_entry_block(region) else {
            continue;
        };
        for func in ctx.block_ops(block) {
            text.push_str(&export_func(ctx, func)?);
        }
    }
    let upstream = Upstream::new();
    let parsed = upstream.parse(&text, name)?;
    Ok(format!("{}\n", parsed.as_operation()))
}

fn located(ctx: &Context, op: Operation, message: String) -> ImportError {
    let loc = strata_ir::printer::location_to_string(ctx, ctx.op_loc(op));
    let location =
        crate::upstream::file_line_col(&loc).map_or(loc, |(f, l, c)| format!("{f}:{l}:{c}"));
    ImportError::Convert {
        location,
        op: ctx.op_name_str(op).to_string(),
        message,
    }
}

fn export_func(ctx: &Context, func: Operation) -> Result<String, ImportError> {
    if ctx.op_name_str(func) != "func.func" {
        return Err(located(ctx, func, "a module of functions only".into()));
    }
    let sym = ctx
        .op_attr_any(func, "sym_name")
        .map(|a| attribute_to_string(ctx, a).trim_matches('"').to_string())
        .ok_or_else(|| located(ctx, func, "a function without a name".into()))?;
    let region = ctx.op_regions(func).first().copied();
    let Some(entry) = region.and_then(|r| ctx.region_entry_block(r)) else {
        return Err(located(ctx, func, format!("@{sym} is a declaration")));
    };
    let mut e = Emitter {
        ctx,
        body: String::new(),
        loc: String::new(),
        values: HashMap::new(),
        pending: HashMap::new(),
        absorbed: Default::default(),
        next: 0,
    };
    let mut args = Vec::new();
    for (i, arg) in ctx.block_args(entry).enumerate() {
        let t = e
            .typed(format!("%arg{i}"), ctx.value_type(arg))
            .map_err(|m| located(ctx, func, m))?;
        args.push(format!("{}: {}", t.name, t.ty()));
        e.values.insert(arg, t);
    }
    let mut results = Vec::new();
    for op in ctx.block_ops(entry) {
        if ctx.op_name_str(op) == "func.return" {
            let operands: Vec<Value> = ctx.operands(op).collect();
            let outs: Vec<T> = operands
                .into_iter()
                .map(|v| e.get(v))
                .collect::<Res<_>>()
                .map_err(|m| located(ctx, op, m))?;
            let names: Vec<&str> = outs.iter().map(|t| t.name.as_str()).collect();
            let types: Vec<String> = outs.iter().map(T::ty).collect();
            let _ = writeln!(
                e.body,
                "  \"func.return\"({}) : ({}) -> ()",
                names.join(", "),
                types.join(", ")
            );
            results = types;
            continue;
        }
        if ctx.op_name_str(op) == "graph.constant" {
            let r = ctx.result(op, 0);
            let t = e
                .typed(String::new(), ctx.value_type(r))
                .map_err(|m| located(ctx, op, m))?;
            let value = e
                .attr_text(op, "value")
                .ok_or_else(|| located(ctx, op, "a constant without a value".into()))?;
            e.pending.insert(r, (value, t.shape, t.elem));
            continue;
        }
        if ctx.op_name_str(op) == "graph.round" && rounds_for_casts(ctx, op) {
            let r = ctx.result(op, 0);
            let x = e.get(ctx.operand(op, 0)).map_err(|m| located(ctx, op, m))?;
            e.values.insert(r, x);
            e.absorbed.insert(r);
            continue;
        }
        e.loc = strata_ir::printer::location_to_string(ctx, ctx.op_loc(op));
        let out = e.op(op).map_err(|m| located(ctx, op, m))?;
        for (r, t) in ctx.results(op).zip(out) {
            e.values.insert(r, t);
        }
    }
    Ok(format!(
        "func.func @{sym}({}) -> ({}) {{\n{}}}\n",
        args.join(", "),
        results.join(", "),
        e.body
    ))
}

/// Whether every user of `round`'s result casts it from float to integer.
fn rounds_for_casts(ctx: &Context, round: Operation) -> bool {
    let r = ctx.result(round, 0);
    let is_int = |v: Value| match ctx.type_kind(ctx.value_type(v)) {
        strata_ir::TypeKind::RankedTensor { element, .. } => {
            let text = type_to_string(ctx, *element);
            text.starts_with('i') && text != "i1"
                || text.starts_with("ui")
                || text.starts_with("si")
        }
        _ => false,
    };
    let mut uses = ctx.uses(r).peekable();
    uses.peek().is_some()
        && uses.all(|u| ctx.op_name_str(u.op) == "graph.cast" && is_int(ctx.result(u.op, 0)))
}

impl Emitter<'_> {
    fn typed(&self, name: String, ty: Type) -> Res<T> {
        let (shape, elem) = match self.ctx.type_kind(ty) {
            strata_ir::TypeKind::RankedTensor { shape, element, .. } => (shape.to_vec(), *element),
            _ => {
                return Err(format!(
                    "{} is not a ranked tensor",
                    type_to_string(self.ctx, ty)
                ))
            }
        };
        if shape.iter().any(|&d| d < 0) {
            return Err(format!(
                "{} has a dynamic dim: export needs static shapes",
                type_to_string(self.ctx, ty)
            ));
        }
        Ok(T {
            name,
            shape,
            elem: type_to_string(self.ctx, elem),
        })
    }

    fn get(&mut self, v: Value) -> Res<T> {
        if let Some((text, shape, elem)) = self.pending.remove(&v) {
            let t = self.constant(&text, &shape, &elem);
            self.values.insert(v, t);
        }
        self.values
            .get(&v)
            .cloned()
            .ok_or_else(|| "an operand defined outside the function's body".to_string())
    }

    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%t{}", self.next)
    }

    /// One TOSA op in the generic form; its result.
    fn emit(&mut self, op: &str, operands: &[&T], props: &str, shape: &[i64], elem: &str) -> T {
        let name = self.fresh();
        let names: Vec<&str> = operands.iter().map(|t| t.name.as_str()).collect();
        let types: Vec<String> = operands.iter().map(|t| t.ty()).collect();
        let props = if props.is_empty() {
            String::new()
        } else {
            format!(" <{{{props}}}>")
        };
        let out = T {
            name: name.clone(),
            shape: shape.to_vec(),
            elem: elem.to_string(),
        };
        let _ = writeln!(
            self.body,
            "  {name} = \"{op}\"({}){props} : ({}) -> {} {}",
            names.join(", "),
            types.join(", "),
            out.ty(),
            self.loc
        );
        out
    }

    /// A `!tosa.shape` constant (its name and type as an operand).
    fn shape(&mut self, values: &[i64]) -> T {
        let list: Vec<String> = values.iter().map(i64::to_string).collect();
        let n = values.len();
        let props = format!("values = dense<[{}]> : tensor<{n}xindex>", list.join(", "));
        self.emit("tosa.const_shape", &[], &props, &[n as i64], SHAPE)
    }

    fn constant(&mut self, attr_text: &str, shape: &[i64], elem: &str) -> T {
        self.emit(
            "tosa.const",
            &[],
            &format!("values = {attr_text}"),
            shape,
            elem,
        )
    }

    /// A one-element constant of `v` (zero points, shifts, pad values).
    fn scalar(&mut self, v: f64, elem: &str, rank: usize) -> T {
        let value = if elem.starts_with('f') || elem == "bf16" {
            float(v)
        } else if elem == "i1" {
            (v != 0.0).to_string()
        } else {
            (v as i64).to_string()
        };
        let shape = vec![1; rank];
        self.constant(
            &format!("dense<{value}> : {}", tensor_type(&shape, elem)),
            &shape,
            elem,
        )
    }

    fn zero_point(&mut self, elem: &str) -> T {
        self.scalar(0.0, elem, 1)
    }

    fn reshape(&mut self, x: &T, shape: &[i64]) -> T {
        if x.shape == shape {
            return x.clone();
        }
        let s = self.shape(shape);
        self.emit("tosa.reshape", &[x, &s], "", shape, &x.elem.clone())
    }

    fn transpose(&mut self, x: &T, perm: &[i64]) -> T {
        let shape: Vec<i64> = perm.iter().map(|&p| x.shape[p as usize]).collect();
        let list: Vec<String> = perm.iter().map(i64::to_string).collect();
        let props = format!("perms = array<i32: {}>", list.join(", "));
        self.emit("tosa.transpose", &[x], &props, &shape, &x.elem.clone())
    }

    /// `x` at rank `rank`, with leading dims of size 1 (TOSA broadcasts
    /// equal ranks only).
    fn lift(&mut self, x: &T, rank: usize) -> T {
        if x.rank() >= rank {
            return x.clone();
        }
        let mut shape = vec![1; rank - x.rank()];
        shape.extend(&x.shape);
        self.reshape(x, &shape)
    }

    /// A binary elementwise TOSA op with `graph`'s broadcasting.
    fn binary(&mut self, op: &str, a: &T, b: &T, shape: &[i64], elem: &str) -> T {
        let a = self.lift(a, shape.len());
        let b = self.lift(b, shape.len());
        if op == "tosa.mul" {
            let shift = self.constant("dense<0> : tensor<1xi8>", &[1], "i8");
            return self.emit(op, &[&a, &b, &shift], "", shape, elem);
        }
        self.emit(op, &[&a, &b], "", shape, elem)
    }

    fn unary(&mut self, op: &str, x: &T) -> T {
        let (shape, elem) = (x.shape.clone(), x.elem.clone());
        if op == "tosa.negate" {
            let zp = self.zero_point(&elem);
            return self.emit(op, &[x, &zp, &zp], "", &shape, &elem);
        }
        self.emit(op, &[x], "", &shape, &elem)
    }

    fn clamp(&mut self, x: &T, lo: f64, hi: f64) -> T {
        let (shape, elem) = (x.shape.clone(), x.elem.clone());
        let (lo, hi) = if x.is_float() {
            (
                format!("{} : {elem}", float(lo)),
                format!("{} : {elem}", float(hi)),
            )
        } else {
            let (min, max) = int_range(&elem);
            (
                format!("{} : {elem}", lo.max(min as f64) as i64),
                format!("{} : {elem}", hi.min(max as f64) as i64),
            )
        };
        let props = format!("max_val = {hi}, min_val = {lo}");
        self.emit("tosa.clamp", &[x], &props, &shape, &elem)
    }

    /// Reduce `x` over `axes` (sorted), kept; `op` a TOSA reduction.
    fn reduce(&mut self, op: &str, x: &T, axes: &[usize]) -> T {
        let mut r = x.clone();
        for &a in axes {
            let mut shape = r.shape.clone();
            shape[a] = 1;
            let elem = r.elem.clone();
            r = self.emit(op, &[&r], &format!("axis = {a} : i32"), &shape, &elem);
        }
        r
    }

    fn attr_text(&self, op: Operation, name: &str) -> Option<String> {
        self.ctx
            .op_attr_any(op, name)
            .map(|a| attribute_to_string(self.ctx, a))
    }

    fn ints(&self, op: Operation, name: &str) -> Option<Vec<i64>> {
        let text = self.attr_text(op, name)?;
        Some(numbers(&text)?.iter().map(|&v| v as i64).collect())
    }

    fn int(&self, op: Operation, name: &str, default: i64) -> i64 {
        self.ints(op, name)
            .and_then(|v| v.first().copied())
            .unwrap_or(default)
    }

    fn float_attr(&self, op: Operation, name: &str, default: f64) -> f64 {
        self.attr_text(op, name)
            .and_then(|t| numbers(&t))
            .and_then(|v| v.first().copied())
            .unwrap_or(default)
    }

    fn string(&self, op: Operation, name: &str) -> Option<String> {
        Some(self.attr_text(op, name)?.trim_matches('"').to_string())
    }

    fn flag(&self, op: Operation, name: &str) -> bool {
        self.attr_text(op, name)
            .is_some_and(|t| t == "true" || t.starts_with("1 "))
    }

    /// A constant integer operand's values (axes, shapes, pads).
    fn const_ints(&self, v: Value) -> Res<Vec<i64>> {
        operand_info(self.ctx, v)
            .and_then(|i| i.value)
            .ok_or_else(|| "an operand that must be a constant is not one".to_string())
    }

    fn operand(&mut self, op: Operation, i: usize) -> Res<T> {
        if i >= self.ctx.num_operands(op) {
            return Err(format!("expects operand {i}"));
        }
        self.get(self.ctx.operand(op, i))
    }

    fn result(&self, op: Operation) -> Res<T> {
        let r = self.ctx.result(op, 0);
        self.typed(String::new(), self.ctx.value_type(r))
    }
}

/// The range of an integer element type.
fn int_range(elem: &str) -> (i64, i64) {
    let bits: u32 = elem
        .trim_start_matches(['i', 'u', 's'])
        .parse()
        .unwrap_or(32);
    if elem.starts_with('u') {
        (
            0,
            if bits >= 63 {
                i64::MAX
            } else {
                (1i64 << bits) - 1
            },
        )
    } else if bits >= 64 {
        (i64::MIN, i64::MAX)
    } else {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    }
}
