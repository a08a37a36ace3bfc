//! Evaluation of the scalar dialects, `arith` and `math`, on 0-D (and
//! vector) tensors.

use std::rc::Rc;

use strata_dialects::graph::infer::attr_i64;
use strata_ir::Operation;

use super::{attr_tensor, broadcast_pair, kerr, result_dtype, Interpreter};
use crate::kernels::{self as k, BinaryOp, UnaryOp};
use crate::{DType, Tensor};

impl Interpreter<'_> {
    pub(super) fn eval_scalar(
        &mut self,
        op: Operation,
        name: &str,
        x: &[Rc<Tensor>],
    ) -> Result<Vec<Tensor>, String> {
        let ctx = self.ctx;
        let x: Vec<&Tensor> = x.iter().map(|t| &**t).collect();
        let arg = |i: usize| {
            x.get(i)
                .copied()
                .ok_or_else(|| format!("expects operand #{i}"))
        };
        let bin = |b: BinaryOp| k::binary(b, arg(0)?, arg(1)?).map_err(kerr);
        let un = |u: UnaryOp| k::unary(u, arg(0)?).map_err(kerr);
        if let Some(result) = self.eval_int_arith(op, name, &x) {
            return result.map(|t| vec![t]);
        }
        let out = match name {
            "arith.constant" => {
                let v = strata_ir::ods::inherent_attr(ctx, op, "value").ok_or("has no value")?;
                attr_tensor(ctx, v)?
            }
            // The integer ops are in `eval_int_arith`.
            "arith.addf" => bin(BinaryOp::Add)?,
            "arith.subf" => bin(BinaryOp::Sub)?,
            "arith.mulf" => bin(BinaryOp::Mul)?,
            "arith.divf" => bin(BinaryOp::Div)?,
            "arith.remf" => bin(BinaryOp::Mod)?,
            // maxnumf/minnumf return the other operand of a NaN; maximumf,
            // minimumf (and the kernels) propagate it.
            "arith.maxnumf" => float_elements(arg(0)?, arg(1)?, f64::max)?,
            "arith.minnumf" => float_elements(arg(0)?, arg(1)?, f64::min)?,
            "arith.maximumf" => bin(BinaryOp::Max)?,
            "arith.minimumf" => bin(BinaryOp::Min)?,
            "arith.negf" => un(UnaryOp::Neg)?,
            "arith.select" => k::where_(arg(0)?, arg(1)?, arg(2)?).map_err(kerr)?,
            "arith.cmpi" => {
                let p = attr_i64(ctx, op, "predicate").ok_or("has no predicate")?;
                let (a, b) = (arg(0)?, arg(1)?);
                let width = width(a.dtype());
                let mask = if width == 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                // Signed predicates read i1 as 0 and -1 (true), as MLIR.
                let signed = move |v: i64| if width == 1 { -(v & 1) } else { v };
                let u = move |v: i64| (v as u64) & mask;
                // MLIR's CmpIPredicate numbering.
                let f: fn(i64, i64, &dyn Fn(i64) -> u64) -> bool = match p {
                    0 => |x, y, _| x == y,
                    1 => |x, y, _| x != y,
                    2 => |x, y, _| x < y,
                    3 => |x, y, _| x <= y,
                    4 => |x, y, _| x > y,
                    5 => |x, y, _| x >= y,
                    6 => |x, y, u| u(x) < u(y),
                    7 => |x, y, u| u(x) <= u(y),
                    8 => |x, y, u| u(x) > u(y),
                    9 => |x, y, u| u(x) >= u(y),
                    _ => return Err(format!("unknown cmpi predicate {p}")),
                };
                // Equality and the signed predicates compare signed values
                // (i1 true is -1); the unsigned ones go through `u`.
                compare_ints(a, b, |x, y| f(signed(x), signed(y), &|v| u(v)))?
            }
            "arith.cmpf" => {
                let p = attr_i64(ctx, op, "predicate").ok_or("has no predicate")?;
                // MLIR's CmpFPredicate numbering: ordered predicates are
                // false on NaN, unordered ones true.
                let f: fn(f64, f64) -> bool = match p {
                    0 => |_, _| false,
                    1 => |x, y| x == y,
                    2 => |x, y| x > y,
                    3 => |x, y| x >= y,
                    4 => |x, y| x < y,
                    5 => |x, y| x <= y,
                    6 => |x, y| x != y && !x.is_nan() && !y.is_nan(),
                    7 => |x, y| !x.is_nan() && !y.is_nan(),
                    8 => |x, y| x == y || x.is_nan() || y.is_nan(),
                    9 => |x, y| x > y || x.is_nan() || y.is_nan(),
                    10 => |x, y| x >= y || x.is_nan() || y.is_nan(),
                    11 => |x, y| x < y || x.is_nan() || y.is_nan(),
                    12 => |x, y| x <= y || x.is_nan() || y.is_nan(),
                    13 => |x, y| x != y,
                    14 => |x, y| x.is_nan() || y.is_nan(),
                    15 => |_, _| true,
                    _ => return Err(format!("unknown cmpf predicate {p}")),
                };
                compare_floats(arg(0)?, arg(1)?, f)?
            }
            "arith.extf" | "arith.truncf" | "arith.fptosi" => {
                k::cast(arg(0)?, result_dtype(self.ctx, op, 0)?).map_err(kerr)?
            }
            "math.exp" => un(UnaryOp::Exp)?,
            "math.log" => un(UnaryOp::Log)?,
            "math.log1p" => float_unary(arg(0)?, f64::ln_1p)?,
            "math.expm1" => float_unary(arg(0)?, f64::exp_m1)?,
            "math.tanh" => un(UnaryOp::Tanh)?,
            "math.erf" => un(UnaryOp::Erf)?,
            "math.sqrt" => un(UnaryOp::Sqrt)?,
            "math.rsqrt" => un(UnaryOp::Rsqrt)?,
            "math.absf" => un(UnaryOp::Abs)?,
            "math.sin" => un(UnaryOp::Sin)?,
            "math.cos" => un(UnaryOp::Cos)?,
            "math.floor" => un(UnaryOp::Floor)?,
            "math.ceil" => un(UnaryOp::Ceil)?,
            "math.roundeven" => un(UnaryOp::Round)?,
            "math.round" => float_unary(arg(0)?, f64::round)?,
            "math.trunc" => float_unary(arg(0)?, f64::trunc)?,
            "math.tan" => float_unary(arg(0)?, f64::tan)?,
            "math.atan" => float_unary(arg(0)?, f64::atan)?,
            "math.asin" => float_unary(arg(0)?, f64::asin)?,
            "math.acos" => float_unary(arg(0)?, f64::acos)?,
            "math.powf" => bin(BinaryOp::Pow)?,
            "math.fma" => {
                let m = k::binary(BinaryOp::Mul, arg(0)?, arg(1)?).map_err(kerr)?;
                k::binary(BinaryOp::Add, &m, arg(2)?).map_err(kerr)?
            }
            _ => {
                return Err(format!(
                    "cannot be evaluated: the interpreter does not know '{name}'"
                ))
            }
        };
        Ok(vec![out])
    }

    /// The integer ops of arith, on the operands' bit width (`i1` true is
    /// -1 as a signed value, as in MLIR): `None` for other ops.
    fn eval_int_arith(
        &self,
        op: Operation,
        name: &str,
        x: &[&Tensor],
    ) -> Option<Result<Tensor, String>> {
        type BinFn = fn(i64, i64, u32) -> Result<i64, String>;
        let binary: Option<BinFn> = match name {
            "arith.addi" => Some(|a, b, _| Ok(a.wrapping_add(b))),
            "arith.subi" => Some(|a, b, _| Ok(a.wrapping_sub(b))),
            "arith.muli" => Some(|a, b, _| Ok(a.wrapping_mul(b))),
            "arith.divsi" => Some(|a, b, _| nonzero(b).map(|b| a.wrapping_div(b))),
            "arith.remsi" => Some(|a, b, _| nonzero(b).map(|b| a.wrapping_rem(b))),
            "arith.ceildivsi" => Some(|a, b, _| {
                let b = nonzero(b)?;
                let q = a.wrapping_div(b);
                Ok(if a.wrapping_rem(b) != 0 && ((a < 0) == (b < 0)) {
                    q.wrapping_add(1)
                } else {
                    q
                })
            }),
            "arith.floordivsi" => Some(|a, b, _| {
                let b = nonzero(b)?;
                let q = a.wrapping_div(b);
                Ok(if a.wrapping_rem(b) != 0 && ((a < 0) != (b < 0)) {
                    q.wrapping_sub(1)
                } else {
                    q
                })
            }),
            "arith.divui" => Some(|a, b, w| {
                nonzero(unsigned(b, w) as i64).map(|_| (unsigned(a, w) / unsigned(b, w)) as i64)
            }),
            "arith.remui" => Some(|a, b, w| {
                nonzero(unsigned(b, w) as i64).map(|_| (unsigned(a, w) % unsigned(b, w)) as i64)
            }),
            "arith.andi" => Some(|a, b, _| Ok(a & b)),
            "arith.ori" => Some(|a, b, _| Ok(a | b)),
            "arith.xori" => Some(|a, b, _| Ok(a ^ b)),
            "arith.maxsi" => Some(|a, b, _| Ok(a.max(b))),
            "arith.minsi" => Some(|a, b, _| Ok(a.min(b))),
            "arith.maxui" => Some(|a, b, w| {
                Ok(if unsigned(a, w) >= unsigned(b, w) {
                    a
                } else {
                    b
                })
            }),
            "arith.minui" => Some(|a, b, w| {
                Ok(if unsigned(a, w) <= unsigned(b, w) {
                    a
                } else {
                    b
                })
            }),
            "arith.shli" => Some(|a, b, w| shift(b, w).map(|s| ((a as u64) << s) as i64)),
            "arith.shrsi" => Some(|a, b, w| shift(b, w).map(|s| a >> s)),
            "arith.shrui" => Some(|a, b, w| shift(b, w).map(|s| (unsigned(a, w) >> s) as i64)),
            _ => None,
        };
        let result_dtype = || result_dtype(self.ctx, op, 0);
        if let Some(f) = binary {
            let (a, b) = (x.first()?, x.get(1)?);
            if a.dtype().is_float() {
                return None;
            }
            let w = width(a.dtype());
            return Some(broadcast_pair(a, b).and_then(|(shape, p, q)| {
                let out = p
                    .to_i64_vec()
                    .into_iter()
                    .zip(q.to_i64_vec())
                    .map(|(p, q)| f(signed(p, w), signed(q, w), w).map(|v| signed(v, w)))
                    .collect::<Result<Vec<i64>, String>>()?;
                Ok(Tensor::from_i64_vec(a.dtype(), &shape, &out))
            }));
        }
        let a = x.first()?;
        let convert =
            |f: &dyn Fn(&Tensor, DType) -> Result<Tensor, String>| -> Result<Tensor, String> {
                f(a, result_dtype()?)
            };
        Some(match name {
            // Sign-extend (i1 true is -1), zero-extend, truncate.
            "arith.extsi" => convert(&|a, to| {
                let w = width(a.dtype());
                let v: Vec<i64> = a.to_i64_vec().into_iter().map(|v| signed(v, w)).collect();
                Ok(Tensor::from_i64_vec(to, a.shape(), &v))
            }),
            "arith.extui" | "arith.index_castui" => convert(&|a, to| {
                let w = width(a.dtype());
                let v: Vec<i64> = a
                    .to_i64_vec()
                    .into_iter()
                    .map(|v| unsigned(v, w) as i64)
                    .collect();
                Ok(Tensor::from_i64_vec(to, a.shape(), &v))
            }),
            "arith.trunci" => convert(&|a, to| {
                let w = width(to);
                let v: Vec<i64> = a.to_i64_vec().into_iter().map(|v| signed(v, w)).collect();
                Ok(Tensor::from_i64_vec(to, a.shape(), &v))
            }),
            "arith.index_cast" => convert(&|a, to| {
                let w = width(a.dtype());
                let v: Vec<i64> = a.to_i64_vec().into_iter().map(|v| signed(v, w)).collect();
                Ok(Tensor::from_i64_vec(
                    to,
                    a.shape(),
                    &signed_all(&v, width(to)),
                ))
            }),
            "arith.sitofp" => convert(&|a, to| {
                let w = width(a.dtype());
                let v: Vec<f64> = a
                    .to_i64_vec()
                    .into_iter()
                    .map(|v| signed(v, w) as f64)
                    .collect();
                Ok(Tensor::from_f64_vec(to, a.shape(), &v))
            }),
            "arith.uitofp" => convert(&|a, to| {
                let w = width(a.dtype());
                let v: Vec<f64> = a
                    .to_i64_vec()
                    .into_iter()
                    .map(|v| unsigned(v, w) as f64)
                    .collect();
                Ok(Tensor::from_f64_vec(to, a.shape(), &v))
            }),
            "arith.fptoui" => convert(&|a, to| {
                let w = width(to);
                let v: Vec<i64> = a
                    .to_f64_vec()
                    .into_iter()
                    .map(|v| signed(v as u64 as i64, w))
                    .collect();
                Ok(Tensor::from_i64_vec(to, a.shape(), &v))
            }),
            "arith.bitcast" => convert(&|a, to| bitcast(a, to)),
            _ => return None,
        })
    }
}

/// The bit width of an integer dtype (`index` is `i64`).
fn width(dtype: DType) -> u32 {
    dtype.int_width().unwrap_or(64)
}

/// The low `w` bits of `v`, sign-extended (i1: 0 and -1).
fn signed(v: i64, w: u32) -> i64 {
    if w >= 64 {
        v
    } else {
        let shift = 64 - w;
        (v << shift) >> shift
    }
}

fn signed_all(v: &[i64], w: u32) -> Vec<i64> {
    v.iter().map(|&x| signed(x, w)).collect()
}

/// The low `w` bits of `v` as an unsigned number.
fn unsigned(v: i64, w: u32) -> u64 {
    if w >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << w) - 1)
    }
}

fn nonzero(b: i64) -> Result<i64, String> {
    if b == 0 {
        Err("integer division by zero".into())
    } else {
        Ok(b)
    }
}

/// A shift amount, which must be below the bit width (MLIR: poison).
fn shift(b: i64, w: u32) -> Result<u32, String> {
    match u32::try_from(b) {
        Ok(s) if s < w => Ok(s),
        _ => Err(format!("shift amount {b} is not below the bit width {w}")),
    }
}

/// `arith.bitcast` between integers and floats of one width.
fn bitcast(a: &Tensor, to: DType) -> Result<Tensor, String> {
    let bytes = a.to_le_bytes();
    if a.dtype().byte_size() != to.byte_size() || a.dtype() == DType::I1 || to == DType::I1 {
        return Err(format!(
            "cannot bitcast {} to {}",
            a.dtype().name(),
            to.name()
        ));
    }
    Tensor::from_le_bytes(to, a.shape(), &bytes).map_err(kerr)
}

/// An elementwise comparison of integers, with broadcasting.
fn compare_ints(a: &Tensor, b: &Tensor, f: impl Fn(i64, i64) -> bool) -> Result<Tensor, String> {
    let (shape, x, y) = broadcast_pair(a, b)?;
    let out = x
        .to_i64_vec()
        .into_iter()
        .zip(y.to_i64_vec())
        .map(|(p, q)| f(p, q))
        .collect();
    Tensor::from_bool(shape, out).map_err(kerr)
}

/// An elementwise comparison of floats, with broadcasting.
fn compare_floats(a: &Tensor, b: &Tensor, f: fn(f64, f64) -> bool) -> Result<Tensor, String> {
    let (shape, x, y) = broadcast_pair(a, b)?;
    let out = x
        .to_f64_vec()
        .into_iter()
        .zip(y.to_f64_vec())
        .map(|(p, q)| f(p, q))
        .collect();
    Tensor::from_bool(shape, out).map_err(kerr)
}

/// An elementwise float function with broadcasting, rounded once to the
/// operands' dtype.
/// `f` of each element of the float tensor `a` (computed in `f64`,
/// rounded to the element type).
fn float_unary(a: &Tensor, f: fn(f64) -> f64) -> Result<Tensor, String> {
    if !a.dtype().is_float() {
        return Err(format!(
            "expects a float operand, but got {}",
            a.dtype().name()
        ));
    }
    let out: Vec<f64> = a.to_f64_vec().into_iter().map(f).collect();
    Ok(Tensor::from_f64_vec(a.dtype(), a.shape(), &out))
}

fn float_elements(a: &Tensor, b: &Tensor, f: fn(f64, f64) -> f64) -> Result<Tensor, String> {
    if a.dtype() != b.dtype() || !a.dtype().is_float() {
        return Err(format!(
            "expects float operands of one dtype, but got {} and {}",
            a.dtype().name(),
            b.dtype().name()
        ));
    }
    let (shape, x, y) = broadcast_pair(a, b)?;
    let out: Vec<f64> = x
        .to_f64_vec()
        .into_iter()
        .zip(y.to_f64_vec())
        .map(|(p, q)| f(p, q))
        .collect();
    Ok(Tensor::from_f64_vec(a.dtype(), &shape, &out))
}
