//! Elementwise kernels: arithmetic, comparisons, logic, unary math, clip,
//! cast and select, all with NumPy broadcasting.

use super::shape::{broadcast_offsets, broadcast_shapes};
use super::{invalid, require_same_dtype, unsupported, KResult};
use crate::tensor::checked_numel;
use crate::{DType, Tensor, TensorData};
use strata_dialects::graph::scalar::{FormulaFn, Tape};

/// A broadcasting binary arithmetic op (see [`binary`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`; integers truncate toward zero, division by zero is an error.
    Div,
    /// `a ^ b`; integer exponents must be non-negative.
    Pow,
    /// Larger operand; NaN propagates.
    Max,
    /// Smaller operand; NaN propagates.
    Min,
    /// Remainder: C `fmod` for floats (sign of the dividend, ONNX `fmod=1`),
    /// sign of the divisor for integers (ONNX `fmod=0`, Python `%`).
    Mod,
}

/// A broadcasting comparison producing `i1` (see [`compare`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    /// `a == b`.
    Eq,
    /// `a != b`.
    Ne,
    /// `a < b`.
    Lt,
    /// `a <= b`.
    Le,
    /// `a > b`.
    Gt,
    /// `a >= b`.
    Ge,
}

/// A broadcasting boolean op on `i1` tensors (see [`logical`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LogicalOp {
    /// `a && b`.
    And,
    /// `a || b`.
    Or,
    /// `a != b`.
    Xor,
}

/// An elementwise unary op (see [`unary`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UnaryOp {
    /// `-x` (also integers, wrapping).
    Neg,
    /// `|x|` (also integers, wrapping).
    Abs,
    /// Square root.
    Sqrt,
    /// `1 / sqrt(x)`.
    Rsqrt,
    /// `e^x`.
    Exp,
    /// Natural logarithm.
    Log,
    /// Gauss error function.
    Erf,
    /// Hyperbolic tangent.
    Tanh,
    /// `1 / (1 + e^-x)`.
    Sigmoid,
    /// `max(x, 0)` (also integers; NaN stays NaN).
    Relu,
    /// `x * Φ(x)` with the exact normal CDF.
    GeluExact,
    /// GELU with the tanh approximation.
    GeluTanh,
    /// `x * sigmoid(x)`.
    Silu,
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// `1 / x`.
    Reciprocal,
    /// Round toward negative infinity.
    Floor,
    /// Round toward positive infinity.
    Ceil,
    /// Round to the nearest integer, halves to even.
    Round,
    /// -1, 0 or 1 (also integers; NaN stays NaN).
    Sign,
    /// `ln(1 + e^x)`, computed without overflow.
    Softplus,
    /// `x` if `x >= 0`, else `alpha * x`.
    LeakyRelu(f64),
    /// `x` if `x > 0`, else `alpha * (e^x - 1)`.
    Elu(f64),
    /// `clamp(alpha * x + beta, 0, 1)`.
    HardSigmoid {
        /// Slope.
        alpha: f64,
        /// Offset.
        beta: f64,
    },
}

/// Source offset of each output element for one broadcast operand.
enum Operand {
    Same,
    Offsets(Vec<usize>),
}

impl Operand {
    fn new(shape: &[usize], out: &[usize]) -> Operand {
        if shape == out {
            Operand::Same
        } else {
            Operand::Offsets(broadcast_offsets(shape, out))
        }
    }

    #[inline]
    fn at(&self, i: usize) -> usize {
        match self {
            Operand::Same => i,
            Operand::Offsets(o) => o[i],
        }
    }
}

/// Broadcast output shape, element count and operand maps for `a op b`.
fn broadcast_pair(a: &Tensor, b: &Tensor) -> KResult<(Vec<usize>, usize, Operand, Operand)> {
    let out = broadcast_shapes(a.shape(), b.shape())?;
    let n = checked_numel("broadcast", &out)?;
    let (ia, ib) = (Operand::new(a.shape(), &out), Operand::new(b.shape(), &out));
    Ok((out, n, ia, ib))
}

/// `a op b` with broadcasting; both operands must have the same dtype.
/// `i1` operands are rejected (use [`logical`]).
pub fn binary(op: BinaryOp, a: &Tensor, b: &Tensor) -> KResult<Tensor> {
    require_same_dtype("binary", a.dtype(), b.dtype())?;
    let dtype = a.dtype();
    let (out, n, ia, ib) = broadcast_pair(a, b)?;
    if dtype.is_float() {
        let (x, y) = (a.to_f64_vec(), b.to_f64_vec());
        let f = float_binary(op);
        let r: Vec<f64> = (0..n).map(|i| f(x[ia.at(i)], y[ib.at(i)])).collect();
        Ok(Tensor::from_parts(
            out,
            TensorData::from_f64_slice(dtype, &r),
        ))
    } else if dtype.is_int() {
        // i128 holds every signed and unsigned value exactly; results keep
        // their low bits, which is wrapping arithmetic at the dtype's width.
        let (x, y) = (a.to_i128_vec(), b.to_i128_vec());
        let r = (0..n)
            .map(|i| int_binary(op, x[ia.at(i)], y[ib.at(i)]))
            .collect::<KResult<Vec<i128>>>()?;
        Ok(Tensor::from_parts(
            out,
            TensorData::from_i128_slice(dtype, &r),
        ))
    } else {
        Err(unsupported(
            "binary",
            format!("{op:?} on {dtype} (use logical ops)"),
        ))
    }
}

fn float_binary(op: BinaryOp) -> fn(f64, f64) -> f64 {
    match op {
        BinaryOp::Add => |x, y| x + y,
        BinaryOp::Sub => |x, y| x - y,
        BinaryOp::Mul => |x, y| x * y,
        BinaryOp::Div => |x, y| x / y,
        BinaryOp::Pow => f64::powf,
        BinaryOp::Max => |x, y| {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.max(y)
            }
        },
        BinaryOp::Min => |x, y| {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.min(y)
            }
        },
        BinaryOp::Mod => |x, y| x % y,
    }
}

fn int_binary(op: BinaryOp, x: i128, y: i128) -> KResult<i128> {
    Ok(match op {
        BinaryOp::Add => x.wrapping_add(y),
        BinaryOp::Sub => x.wrapping_sub(y),
        BinaryOp::Mul => x.wrapping_mul(y),
        BinaryOp::Div => {
            if y == 0 {
                return Err(invalid("binary", "integer division by zero"));
            }
            x.wrapping_div(y)
        }
        BinaryOp::Pow => {
            if y < 0 {
                return Err(invalid(
                    "binary",
                    format!("integer power with negative exponent {y}"),
                ));
            }
            wrapping_pow(x, y as u64)
        }
        BinaryOp::Max => x.max(y),
        BinaryOp::Min => x.min(y),
        BinaryOp::Mod => {
            if y == 0 {
                return Err(invalid("binary", "integer modulo by zero"));
            }
            let r = x.wrapping_rem(y);
            if r != 0 && ((r < 0) != (y < 0)) {
                r.wrapping_add(y)
            } else {
                r
            }
        }
    })
}

/// Square-and-multiply with wrapping multiplication.
fn wrapping_pow(mut base: i128, mut exp: u64) -> i128 {
    let mut acc: i128 = 1;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        exp >>= 1;
    }
    acc
}

/// `a op b` with broadcasting, as an `i1` tensor; both operands must have
/// the same dtype. Comparisons with NaN are false except `Ne`.
pub fn compare(op: CompareOp, a: &Tensor, b: &Tensor) -> KResult<Tensor> {
    require_same_dtype("compare", a.dtype(), b.dtype())?;
    let (out, n, ia, ib) = broadcast_pair(a, b)?;
    let r: Vec<bool> = if a.dtype().is_float() {
        let (x, y) = (a.to_f64_vec(), b.to_f64_vec());
        (0..n).map(|i| cmp(op, x[ia.at(i)], y[ib.at(i)])).collect()
    } else {
        let (x, y) = (a.to_i128_vec(), b.to_i128_vec());
        (0..n).map(|i| cmp(op, x[ia.at(i)], y[ib.at(i)])).collect()
    };
    Ok(Tensor::from_parts(out, TensorData::I1(r)))
}

fn cmp<T: PartialOrd>(op: CompareOp, x: T, y: T) -> bool {
    match op {
        CompareOp::Eq => x == y,
        CompareOp::Ne => x != y,
        CompareOp::Lt => x < y,
        CompareOp::Le => x <= y,
        CompareOp::Gt => x > y,
        CompareOp::Ge => x >= y,
    }
}

fn bools<'a>(op: &'static str, t: &'a Tensor) -> KResult<&'a [bool]> {
    match t.data() {
        TensorData::I1(v) => Ok(v),
        other => Err(unsupported(
            op,
            format!("dtype {} (expected i1)", other.dtype()),
        )),
    }
}

/// `a op b` with broadcasting: logical on `i1` tensors, bitwise on other
/// integers (of one dtype).
pub fn logical(op: LogicalOp, a: &Tensor, b: &Tensor) -> KResult<Tensor> {
    if a.dtype().is_int() {
        require_same_dtype("logical", a.dtype(), b.dtype())?;
        let (out, n, ia, ib) = broadcast_pair(a, b)?;
        let (x, y) = (a.to_i128_vec(), b.to_i128_vec());
        // The low bits of the i128 values are the element's bits.
        let r: Vec<i128> = (0..n)
            .map(|i| {
                let (p, q) = (x[ia.at(i)], y[ib.at(i)]);
                match op {
                    LogicalOp::And => p & q,
                    LogicalOp::Or => p | q,
                    LogicalOp::Xor => p ^ q,
                }
            })
            .collect();
        return Ok(Tensor::from_parts(
            out,
            TensorData::from_i128_slice(a.dtype(), &r),
        ));
    }
    let (x, y) = (bools("logical", a)?, bools("logical", b)?);
    let (out, n, ia, ib) = broadcast_pair(a, b)?;
    let r: Vec<bool> = (0..n)
        .map(|i| {
            let (p, q) = (x[ia.at(i)], y[ib.at(i)]);
            match op {
                LogicalOp::And => p && q,
                LogicalOp::Or => p || q,
                LogicalOp::Xor => p != q,
            }
        })
        .collect();
    Ok(Tensor::from_parts(out, TensorData::I1(r)))
}

/// Negation: logical on `i1`, bitwise on other integers.
pub fn not(x: &Tensor) -> KResult<Tensor> {
    if x.dtype().is_int() {
        let r: Vec<i128> = x.to_i128_vec().into_iter().map(|v| !v).collect();
        return Ok(Tensor::from_parts(
            x.shape().to_vec(),
            TensorData::from_i128_slice(x.dtype(), &r),
        ));
    }
    let v = bools("not", x)?;
    Ok(Tensor::from_parts(
        x.shape().to_vec(),
        TensorData::I1(v.iter().map(|b| !b).collect()),
    ))
}

/// `a << b` (`left`) or `a >> b` of unsigned integers, with broadcasting;
/// a shift by the width or more gives 0.
pub fn bit_shift(a: &Tensor, b: &Tensor, left: bool) -> KResult<Tensor> {
    require_same_dtype("bit_shift", a.dtype(), b.dtype())?;
    let dtype = a.dtype();
    let width = match dtype.int_width() {
        Some(w) if dtype.is_unsigned() => w,
        _ => {
            return Err(unsupported(
                "bit_shift",
                format!("dtype {dtype} (unsigned only)"),
            ))
        }
    };
    let (out, n, ia, ib) = broadcast_pair(a, b)?;
    let (x, y) = (a.to_i128_vec(), b.to_i128_vec());
    let r: Vec<i128> = (0..n)
        .map(|i| {
            let (v, s) = (x[ia.at(i)], y[ib.at(i)]);
            if s >= i128::from(width) {
                0
            } else if left {
                v << s
            } else {
                v >> s
            }
        })
        .collect();
    Ok(Tensor::from_parts(
        out,
        TensorData::from_i128_slice(dtype, &r),
    ))
}

/// `op(x)` elementwise. Float dtypes support every op; integer dtypes
/// support `Neg`, `Abs`, `Relu` and `Sign` (wrapping); `i1` none.
pub fn unary(op: UnaryOp, x: &Tensor) -> KResult<Tensor> {
    map_scalar(x, &op.tape(), false)
}

impl UnaryOp {
    /// The tape of the `graph` op's declared formula this op evaluates
    /// (`strata_dialects::graph::formula`): the kernels restate no formula.
    pub fn tape(self) -> Tape {
        use strata_dialects::graph::formula as f;
        let (formula, params): (FormulaFn, Vec<f64>) = match self {
            UnaryOp::Neg => (f::neg, vec![]),
            UnaryOp::Abs => (f::abs, vec![]),
            UnaryOp::Sqrt => (f::sqrt, vec![]),
            UnaryOp::Rsqrt => (f::rsqrt, vec![]),
            UnaryOp::Exp => (f::exp, vec![]),
            UnaryOp::Log => (f::log, vec![]),
            UnaryOp::Erf => (f::erf, vec![]),
            UnaryOp::Tanh => (f::tanh, vec![]),
            UnaryOp::Sigmoid => (f::sigmoid, vec![]),
            UnaryOp::Relu => (f::relu, vec![]),
            UnaryOp::GeluExact => (f::gelu, vec![0.0]),
            UnaryOp::GeluTanh => (f::gelu, vec![1.0]),
            UnaryOp::Silu => (f::silu, vec![]),
            UnaryOp::Sin => (f::sin, vec![]),
            UnaryOp::Cos => (f::cos, vec![]),
            UnaryOp::Reciprocal => (f::reciprocal, vec![]),
            UnaryOp::Floor => (f::floor, vec![]),
            UnaryOp::Ceil => (f::ceil, vec![]),
            UnaryOp::Round => (f::round, vec![]),
            UnaryOp::Sign => (f::sign, vec![]),
            UnaryOp::Softplus => (f::softplus, vec![]),
            UnaryOp::LeakyRelu(alpha) => (f::leaky_relu, vec![alpha]),
            UnaryOp::Elu(alpha) => (f::elu, vec![alpha]),
            UnaryOp::HardSigmoid { alpha, beta } => (f::hard_sigmoid, vec![alpha, beta]),
        };
        Tape::record(formula, &params)
    }
}

/// `f` applied to every element of a float tensor, computed in `f64` and
/// rounded to the tensor's dtype.
pub fn map_float(x: &Tensor, f: impl FnMut(f64) -> f64) -> KResult<Tensor> {
    if !x.dtype().is_float() {
        return Err(unsupported("map_float", format!("{}", x.dtype())));
    }
    let r: Vec<f64> = x.to_f64_vec().into_iter().map(f).collect();
    Ok(Tensor::from_parts(
        x.shape().to_vec(),
        TensorData::from_f64_slice(x.dtype(), &r),
    ))
}

/// The formula `tape` at every element of `x` (the evaluation of an op
/// declared with a `ScalarFn`): floats in `f64`, rounded once to the
/// dtype; integers in `i128`, wrapped to the dtype (unsigned values are
/// never negative, so `abs` and `relu` are the identity); `i1` as 0 and 1,
/// the low bit kept, where `allow_bools` allows it. An integer tensor whose
/// formula has no integer meaning is an error.
pub fn map_scalar(x: &Tensor, tape: &Tape, allow_bools: bool) -> KResult<Tensor> {
    let dtype = x.dtype();
    let shape = x.shape().to_vec();
    if dtype.is_float() {
        let mut scratch = Vec::with_capacity(tape.steps.len() + 1);
        return map_float(x, |v| tape.eval_f64(v, &mut scratch));
    }
    if !tape.is_integer() || !(dtype.is_int() || (allow_bools && dtype == DType::I1)) {
        return Err(unsupported("unary", format!("this function on {dtype}")));
    }
    let mut scratch = Vec::with_capacity(tape.steps.len() + 1);
    let mut eval = |v: i128| tape.eval_int(v, &mut scratch).unwrap_or(0);
    if dtype == DType::I1 {
        let v = bools("unary", x)?;
        let r = v.iter().map(|&b| eval(i128::from(b)) & 1 != 0).collect();
        return Ok(Tensor::from_parts(shape, TensorData::I1(r)));
    }
    let r: Vec<i128> = x.to_i128_vec().into_iter().map(eval).collect();
    Ok(Tensor::from_parts(
        shape,
        TensorData::from_i128_slice(dtype, &r),
    ))
}

/// Clamps `x` to `[min, max]` (either bound optional). If `min > max` every
/// element becomes `max` (ONNX). NaN elements stay NaN. For integer dtypes
/// the bounds round inward (`ceil(min)`, `floor(max)`).
pub fn clip(x: &Tensor, min: Option<f64>, max: Option<f64>) -> KResult<Tensor> {
    let dtype = x.dtype();
    let shape = x.shape().to_vec();
    if dtype.is_float() {
        let r: Vec<f64> = x
            .to_f64_vec()
            .into_iter()
            .map(|mut v| {
                if let Some(lo) = min {
                    if v < lo {
                        v = lo;
                    }
                }
                if let Some(hi) = max {
                    if v > hi {
                        v = hi;
                    }
                }
                v
            })
            .collect();
        Ok(Tensor::from_parts(
            shape,
            TensorData::from_f64_slice(dtype, &r),
        ))
    } else if dtype.is_int() {
        let lo = min.map(|m| m.ceil() as i128);
        let hi = max.map(|m| m.floor() as i128);
        let r: Vec<i128> = x
            .to_i128_vec()
            .into_iter()
            .map(|mut v| {
                if let Some(lo) = lo {
                    v = v.max(lo);
                }
                if let Some(hi) = hi {
                    v = v.min(hi);
                }
                v
            })
            .collect();
        Ok(Tensor::from_parts(
            shape,
            TensorData::from_i128_slice(dtype, &r),
        ))
    } else {
        Err(unsupported("clip", format!("dtype {dtype}")))
    }
}

/// Converts `x` to `to`. Float to integer truncates toward zero and
/// saturates, NaN becomes 0; anything to `i1` is `v != 0` (NaN is true);
/// integer to integer wraps; to float rounds to nearest (`i64` to
/// `f16`/`bf16` goes through `f64`, so rounds twice).
pub fn cast(x: &Tensor, to: DType) -> KResult<Tensor> {
    cast_saturating(x, to, false)
}

/// [`cast`], except that with `saturate`, values out of the range of a
/// narrow float `to` (`f8*`, `f4E2M1FN`) and ±Inf become its largest finite
/// value of their sign instead of NaN or Inf (ONNX's `Cast` to float8 with
/// `saturate`, its default).
pub fn cast_saturating(x: &Tensor, to: DType, saturate: bool) -> KResult<Tensor> {
    if x.dtype() == to {
        return Ok(x.clone());
    }
    // ui64 values of 2^63 and more must not read as negative.
    let data = if saturate && to.is_narrow_float() {
        TensorData::from_f64_slice_saturating(to, &x.to_f64_vec())
    } else if x.dtype().is_float() || (x.dtype() == DType::U64 && to.is_float()) {
        TensorData::from_f64_slice(to, &x.to_f64_vec())
    } else {
        TensorData::from_i64_slice(to, &x.to_i64_vec())
    };
    Ok(Tensor::from_parts(x.shape().to_vec(), data))
}

/// `x` cast to `f8E8M0FNU` as ONNX's reference does (see
/// [`crate::narrow::encode_e8m0`]).
pub fn cast_e8m0(x: &Tensor, saturate: bool, mode: crate::narrow::RoundMode) -> KResult<Tensor> {
    let bytes = x
        .to_f64_vec()
        .into_iter()
        .map(|v| crate::narrow::encode_e8m0(v, saturate, mode))
        .collect();
    Ok(Tensor::from_parts(
        x.shape().to_vec(),
        TensorData::Narrow(DType::F8E8M0, bytes),
    ))
}

/// Reinterprets each element's bits as `to`, which must have as many
/// (ONNX's `BitCast`; `i1` counts as its byte, read back as `v != 0`).
pub fn bitcast(x: &Tensor, to: DType) -> KResult<Tensor> {
    let bits = |d: DType| match d {
        DType::I1 => 8,
        DType::F4E2M1 => 4,
        d if d.is_narrow() && !d.is_float() => d.int_width().unwrap_or(8) as usize,
        d => d.byte_size() * 8,
    };
    if bits(x.dtype()) != bits(to) {
        return Err(invalid(
            "bitcast",
            format!(
                "{} and {to} have different widths ({} and {} bits)",
                x.dtype(),
                bits(x.dtype()),
                bits(to)
            ),
        ));
    }
    Tensor::from_le_bytes(to, x.shape(), &x.to_le_bytes())
}

/// Selects `x` where `cond` is true and `y` elsewhere, broadcasting all
/// three; `cond` must be `i1` and `x`, `y` must share a dtype.
pub fn where_(cond: &Tensor, x: &Tensor, y: &Tensor) -> KResult<Tensor> {
    let c = bools("where", cond)?;
    require_same_dtype("where", x.dtype(), y.dtype())?;
    let out = broadcast_shapes(&broadcast_shapes(cond.shape(), x.shape())?, y.shape())?;
    let n = checked_numel("where", &out)?;
    let (ic, ix, iy) = (
        Operand::new(cond.shape(), &out),
        Operand::new(x.shape(), &out),
        Operand::new(y.shape(), &out),
    );
    let y_base = x.len();
    let picks: Vec<usize> = (0..n)
        .map(|i| {
            if c[ic.at(i)] {
                ix.at(i)
            } else {
                y_base + iy.at(i)
            }
        })
        .collect();
    let both = TensorData::concat(&[x.data(), y.data()]);
    Ok(Tensor::from_parts(out, both.select(&picks)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KernelError;

    fn f32s(shape: &[usize], v: &[f32]) -> Tensor {
        Tensor::from_f32(shape.to_vec(), v.to_vec()).unwrap()
    }
    fn i32s(shape: &[usize], v: &[i32]) -> Tensor {
        Tensor::from_i32(shape.to_vec(), v.to_vec()).unwrap()
    }

    #[test]
    fn binary_broadcasts() {
        let a = f32s(&[2, 1], &[1.0, 2.0]);
        let b = f32s(&[3], &[10.0, 20.0, 30.0]);
        let r = binary(BinaryOp::Add, &a, &b).unwrap();
        assert_eq!(r.shape(), &[2, 3]);
        assert_eq!(r.to_f64_vec(), vec![11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
        let s = binary(BinaryOp::Sub, &b, &Tensor::scalar_f64(DType::F32, 1.0)).unwrap();
        assert_eq!(s.to_f64_vec(), vec![9.0, 19.0, 29.0]);
        assert!(binary(BinaryOp::Add, &a, &f32s(&[3, 1], &[0.0; 3])).is_err());
    }

    #[test]
    fn binary_requires_same_dtype() {
        let err = binary(BinaryOp::Add, &f32s(&[1], &[1.0]), &i32s(&[1], &[1])).unwrap_err();
        assert!(matches!(err, KernelError::DTypeMismatch { .. }));
    }

    #[test]
    fn integer_semantics() {
        let a = i32s(&[4], &[7, -7, 7, -7]);
        let b = i32s(&[4], &[2, 2, -2, -2]);
        assert_eq!(
            binary(BinaryOp::Div, &a, &b).unwrap().to_i64_vec(),
            vec![3, -3, -3, 3]
        );
        assert_eq!(
            binary(BinaryOp::Mod, &a, &b).unwrap().to_i64_vec(),
            vec![1, 1, -1, -1]
        );
        let z = i32s(&[1], &[0]);
        assert!(matches!(
            binary(BinaryOp::Div, &a, &z),
            Err(KernelError::InvalidArgument { .. })
        ));
        assert!(binary(BinaryOp::Mod, &a, &z).is_err());
        let big = i32s(&[1], &[i32::MAX]);
        let one = i32s(&[1], &[1]);
        assert_eq!(
            binary(BinaryOp::Add, &big, &one).unwrap().to_i64_vec(),
            vec![i32::MIN as i64]
        );
        let min = i32s(&[1], &[i32::MIN]);
        let neg1 = i32s(&[1], &[-1]);
        assert_eq!(
            binary(BinaryOp::Div, &min, &neg1).unwrap().to_i64_vec(),
            vec![i32::MIN as i64]
        );
        let p = binary(BinaryOp::Pow, &i32s(&[2], &[3, -2]), &i32s(&[2], &[4, 3])).unwrap();
        assert_eq!(p.to_i64_vec(), vec![81, -8]);
        assert!(binary(BinaryOp::Pow, &one, &neg1).is_err());
        let i8s = Tensor::from_i8(vec![1], vec![100]).unwrap();
        assert_eq!(
            binary(BinaryOp::Mul, &i8s, &i8s).unwrap().to_i64_vec(),
            vec![16]
        );
    }

    #[test]
    fn float_mod_max_min() {
        let a = f32s(&[3], &[5.5, -5.5, f32::NAN]);
        let b = f32s(&[3], &[2.0, 2.0, 1.0]);
        let m = binary(BinaryOp::Mod, &a, &b).unwrap().to_f64_vec();
        assert_eq!(&m[..2], &[1.5, -1.5]);
        let mx = binary(BinaryOp::Max, &a, &b).unwrap().to_f64_vec();
        assert_eq!(&mx[..2], &[5.5, 2.0]);
        assert!(mx[2].is_nan());
        let mn = binary(BinaryOp::Min, &a, &b).unwrap().to_f64_vec();
        assert_eq!(&mn[..2], &[2.0, -5.5]);
    }

    #[test]
    fn f16_rounds_once() {
        let a = Tensor::from_f64_vec(DType::F16, &[1], &[1.0]);
        let b = Tensor::from_f64_vec(DType::F16, &[1], &[3.0]);
        let r = binary(BinaryOp::Div, &a, &b).unwrap();
        assert_eq!(
            r.data(),
            &TensorData::F16(vec![half::f16::from_f64(1.0 / 3.0)])
        );
    }

    #[test]
    fn compare_and_logical() {
        let a = f32s(&[3], &[1.0, 2.0, f32::NAN]);
        let b = f32s(&[1], &[2.0]);
        let lt = compare(CompareOp::Lt, &a, &b).unwrap();
        assert_eq!(lt.data(), &TensorData::I1(vec![true, false, false]));
        let ne = compare(CompareOp::Ne, &a, &a).unwrap();
        assert_eq!(ne.data(), &TensorData::I1(vec![false, false, true]));
        let ge = compare(CompareOp::Ge, &i32s(&[2], &[1, 5]), &i32s(&[], &[3])).unwrap();
        assert_eq!(ge.data(), &TensorData::I1(vec![false, true]));
        let p = Tensor::from_bool(vec![2, 1], vec![true, false]).unwrap();
        let q = Tensor::from_bool(vec![2], vec![true, false]).unwrap();
        let x = logical(LogicalOp::Xor, &p, &q).unwrap();
        assert_eq!(x.data(), &TensorData::I1(vec![false, true, true, false]));
        let and = logical(LogicalOp::And, &p, &q).unwrap();
        assert_eq!(and.data(), &TensorData::I1(vec![true, false, false, false]));
        let or = logical(LogicalOp::Or, &p, &q).unwrap();
        assert_eq!(or.data(), &TensorData::I1(vec![true, true, true, false]));
        assert_eq!(not(&q).unwrap().data(), &TensorData::I1(vec![false, true]));
        assert!(not(&a).is_err());
        assert!(logical(LogicalOp::And, &a, &a).is_err());
    }

    #[test]
    fn unary_float_values() {
        let x = Tensor::from_f64(vec![3], vec![-1.0, 0.0, 2.0]).unwrap();
        let close = |op: UnaryOp, want: [f64; 3]| {
            let got = unary(op, &x).unwrap().to_f64_vec();
            for (g, w) in got.iter().zip(want) {
                assert!(
                    *g == w || (g - w).abs() < 1e-12,
                    "{op:?}: {got:?} vs {want:?}"
                );
            }
        };
        close(UnaryOp::Relu, [0.0, 0.0, 2.0]);
        close(
            UnaryOp::Sigmoid,
            [0.2689414213699951, 0.5, 0.8807970779778823],
        );
        close(UnaryOp::Erf, [-0.8427007929497149, 0.0, 0.9953222650189527]);
        close(
            UnaryOp::GeluExact,
            [-0.15865525393145707, 0.0, 1.9544997361036416],
        );
        close(
            UnaryOp::GeluTanh,
            [-0.15880800939172324, 0.0, 1.9545976940877752],
        );
        close(
            UnaryOp::Silu,
            [-0.2689414213699951, 0.0, 1.7615941559557646],
        );
        close(
            UnaryOp::Softplus,
            [
                0.31326168751822286,
                std::f64::consts::LN_2,
                2.1269280110429727,
            ],
        );
        close(UnaryOp::LeakyRelu(0.1), [-0.1, 0.0, 2.0]);
        close(UnaryOp::Elu(2.0), [2.0 * ((-1.0f64).exp() - 1.0), 0.0, 2.0]);
        close(
            UnaryOp::HardSigmoid {
                alpha: 0.2,
                beta: 0.5,
            },
            [0.3, 0.5, 0.9],
        );
        close(UnaryOp::Sign, [-1.0, 0.0, 1.0]);
        close(UnaryOp::Reciprocal, [-1.0, f64::INFINITY, 0.5]);
        let big = Tensor::from_f64(vec![2], vec![1000.0, -1000.0]).unwrap();
        assert_eq!(
            unary(UnaryOp::Softplus, &big).unwrap().to_f64_vec(),
            vec![1000.0, 0.0]
        );
        assert_eq!(
            unary(UnaryOp::Sigmoid, &big).unwrap().to_f64_vec(),
            vec![1.0, 0.0]
        );
    }

    #[test]
    fn unary_integers() {
        let x = Tensor::from_i8(vec![3], vec![-128, -3, 5]).unwrap();
        assert_eq!(
            unary(UnaryOp::Neg, &x).unwrap().to_i64_vec(),
            vec![-128, 3, -5]
        );
        assert_eq!(
            unary(UnaryOp::Abs, &x).unwrap().to_i64_vec(),
            vec![-128, 3, 5]
        );
        assert_eq!(
            unary(UnaryOp::Relu, &x).unwrap().to_i64_vec(),
            vec![0, 0, 5]
        );
        assert_eq!(
            unary(UnaryOp::Sign, &x).unwrap().to_i64_vec(),
            vec![-1, -1, 1]
        );
        assert!(matches!(
            unary(UnaryOp::Exp, &x),
            Err(KernelError::Unsupported { .. })
        ));
        let b = Tensor::from_bool(vec![1], vec![true]).unwrap();
        assert!(unary(UnaryOp::Neg, &b).is_err());
    }

    #[test]
    fn clip_cast_where() {
        let x = f32s(&[4], &[-2.0, 0.5, 3.0, f32::NAN]);
        let c = clip(&x, Some(0.0), Some(1.0)).unwrap().to_f64_vec();
        assert_eq!(&c[..3], &[0.0, 0.5, 1.0]);
        assert!(c[3].is_nan());
        let inverted = clip(&x, Some(2.0), Some(1.0)).unwrap().to_f64_vec();
        assert_eq!(&inverted[..3], &[1.0, 1.0, 1.0]);
        let ci = clip(&i32s(&[3], &[-5, 0, 9]), None, Some(4.0)).unwrap();
        assert_eq!(ci.to_i64_vec(), vec![-5, 0, 4]);

        let f = f32s(&[5], &[-1.7, 1.7, 1e10, f32::NAN, 0.0]);
        assert_eq!(
            cast(&f, DType::I32).unwrap().to_i64_vec(),
            vec![-1, 1, i32::MAX as i64, 0, 0]
        );
        let b = cast(&f, DType::I1).unwrap();
        assert_eq!(
            b.data(),
            &TensorData::I1(vec![true, true, true, true, false])
        );
        let w = cast(&i32s(&[1], &[300]), DType::I8).unwrap();
        assert_eq!(w.to_i64_vec(), vec![44]);
        assert_eq!(
            cast(&b, DType::F32).unwrap().to_f64_vec(),
            vec![1.0, 1.0, 1.0, 1.0, 0.0]
        );

        let cond = Tensor::from_bool(vec![2, 1], vec![true, false]).unwrap();
        let a = i32s(&[3], &[1, 2, 3]);
        let z = i32s(&[], &[0]);
        let r = where_(&cond, &a, &z).unwrap();
        assert_eq!(r.shape(), &[2, 3]);
        assert_eq!(r.to_i64_vec(), vec![1, 2, 3, 0, 0, 0]);
        assert!(where_(&a, &a, &a).is_err());
        assert!(where_(&cond, &a, &f32s(&[1], &[0.0])).is_err());
    }

    #[test]
    fn unsigned_and_narrow_integers() {
        let big = u64::MAX - 1; // reads as -2 through to_i64_vec
        let a = Tensor::from_u64(vec![3], vec![big, 7, 1 << 63]).unwrap();
        let b = Tensor::from_u64(vec![3], vec![3, 2, 1]).unwrap();
        let as_u64 = |t: Tensor| match t.data() {
            TensorData::U64(v) => v.clone(),
            other => panic!("{other:?}"),
        };
        // Unsigned division, order and remainder, not signed ones.
        assert_eq!(
            as_u64(binary(BinaryOp::Div, &a, &b).unwrap()),
            vec![big / 3, 3, 1 << 63]
        );
        assert_eq!(
            as_u64(binary(BinaryOp::Mod, &a, &b).unwrap()),
            vec![big % 3, 1, 0]
        );
        assert_eq!(
            as_u64(binary(BinaryOp::Max, &a, &b).unwrap()),
            vec![big, 7, 1 << 63]
        );
        assert_eq!(
            compare(CompareOp::Gt, &a, &b).unwrap().data(),
            &TensorData::I1(vec![true, true, true])
        );
        // Wrapping at the dtype's width.
        let c = Tensor::from_u8(vec![2], vec![250, 3]).unwrap();
        let d = Tensor::from_u8(vec![2], vec![10, 5]).unwrap();
        assert_eq!(
            binary(BinaryOp::Add, &c, &d).unwrap().data(),
            &TensorData::U8(vec![4, 8])
        );
        assert_eq!(
            binary(BinaryOp::Sub, &c, &d).unwrap().data(),
            &TensorData::U8(vec![240, 254])
        );
        let s = Tensor::from_i16(vec![2], vec![i16::MAX, -3]).unwrap();
        let one = Tensor::from_i16(vec![1], vec![1]).unwrap();
        assert_eq!(
            binary(BinaryOp::Add, &s, &one).unwrap().data(),
            &TensorData::I16(vec![i16::MIN, -2])
        );
        // Abs and relu are the identity on unsigned values.
        assert_eq!(
            as_u64(unary(UnaryOp::Abs, &a).unwrap()),
            vec![big, 7, 1 << 63]
        );
        assert_eq!(
            as_u64(unary(UnaryOp::Relu, &a).unwrap()),
            vec![big, 7, 1 << 63]
        );
        assert_eq!(
            as_u64(clip(&a, Some(5.0), None).unwrap()),
            vec![big, 7, 1 << 63]
        );
        // ui64 to float is unsigned; float to unsigned saturates at 0.
        assert_eq!(
            cast(&a, DType::F64).unwrap().to_f64_vec(),
            vec![big as f64, 7.0, (1u64 << 63) as f64]
        );
        assert_eq!(
            cast(&f32s(&[2], &[-3.0, 300.0]), DType::U8).unwrap().data(),
            &TensorData::U8(vec![0, 255])
        );
        assert_eq!(
            cast(&i32s(&[1], &[-1]), DType::U16).unwrap().data(),
            &TensorData::U16(vec![u16::MAX])
        );
    }

    #[test]
    fn bitwise_ops_and_shifts() {
        let a = Tensor::from_u8(vec![3], vec![0b1100, 255, 1]).unwrap();
        let b = Tensor::from_u8(vec![3], vec![0b1010, 15, 7]).unwrap();
        let bits = |t: Tensor| t.to_i64_vec();
        assert_eq!(
            bits(logical(LogicalOp::And, &a, &b).unwrap()),
            vec![8, 15, 1]
        );
        assert_eq!(
            bits(logical(LogicalOp::Or, &a, &b).unwrap()),
            vec![14, 255, 7]
        );
        assert_eq!(
            bits(logical(LogicalOp::Xor, &a, &b).unwrap()),
            vec![6, 240, 6]
        );
        assert_eq!(bits(not(&a).unwrap()), vec![243, 0, 254]);
        let s = Tensor::from_i32(vec![2], vec![-1, 5]).unwrap();
        assert_eq!(bits(not(&s).unwrap()), vec![0, -6]);
        let n = Tensor::from_u8(vec![3], vec![1, 4, 8]).unwrap();
        assert_eq!(bits(bit_shift(&a, &n, true).unwrap()), vec![24, 240, 0]);
        assert_eq!(bits(bit_shift(&a, &n, false).unwrap()), vec![6, 15, 0]);
        assert!(bit_shift(&s, &s, true).is_err());
    }
}
