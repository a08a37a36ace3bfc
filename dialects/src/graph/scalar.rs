//! The scalar meaning of elementwise `graph` ops, declared once on each op.
//!
//! An elementwise op whose every result element is a function of the
//! operand's element at the same place (`graph.sigmoid`, `graph.elu`, ...)
//! declares that function as a [`ScalarFn`] interface:
//!
//! ```ignore
//! #[op("graph.silu", ..., interfaces(ShapeFunction(infer::infer_same),
//!                                    ScalarFn::float(silu)))]
//! pub struct SiluOp { ... }
//!
//! fn silu(f: &mut Formula, x: Sv) -> Sv {
//!     let s = sigmoid(f, x);
//!     f.mul(x, s)
//! }
//! ```
//!
//! The formula is written against [`Formula`], a recorder of scalar
//! operations ([`Unary`], [`Binary`], [`Compare`], `select`), and recorded
//! as a [`Tape`]. Every consumer reads the same tape:
//!
//! - the reference interpreter (eager mode) evaluates it per element, in
//!   `f64` rounded once to the element type ([`Tape::eval_f64`]), or in the
//!   integer type, wrapping ([`Tape::eval_int`]);
//! - `convert-graph-to-tensor` replays it as the `arith`/`math` body of the
//!   op's `tensor.map`, which the host and the nvptx code generation lower
//!   like any other body.
//!
//! So an op's formula lives in one place, and eager and graph mode compute
//! the same expression (graph mode in the element type, or `f32` for
//! `f16`/`bf16`, with the math library's approximations).

use strata_ir::{Context, Operation};

/// A value in a formula: the operand (`Sv(0)`) or the result of an earlier
/// step of the [`Tape`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sv(pub u32);

/// A unary scalar function (the `math` op or `arith` op it lowers to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unary {
    /// `-x` (`arith.negf`; `0 - x` for integers, wrapping).
    Neg,
    /// `|x|` (`math.absf`; integers: `x < 0 ? 0 - x : x`).
    Abs,
    /// `math.sqrt`.
    Sqrt,
    /// `math.exp`.
    Exp,
    /// `e^x - 1`, exact near 0 (`math.expm1`).
    Expm1,
    /// `math.log`.
    Log,
    /// `ln(1 + x)`, exact near 0 (`math.log1p`).
    Log1p,
    /// `math.erf`.
    Erf,
    /// `math.tanh`.
    Tanh,
    /// `math.sin`.
    Sin,
    /// `math.cos`.
    Cos,
    /// `math.atan`.
    Atan,
    /// `math.asin`.
    Asin,
    /// `math.acos`.
    Acos,
    /// `math.floor`.
    Floor,
    /// `math.ceil`.
    Ceil,
    /// Round to nearest, halves to even (`math.roundeven`).
    RoundEven,
    /// Bitwise negation of an integer (`arith.xori` with all ones).
    Not,
}

/// A binary scalar function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    /// `arith.addf` / `arith.addi` (wrapping).
    Add,
    /// `arith.subf` / `arith.subi` (wrapping).
    Sub,
    /// `arith.mulf` / `arith.muli` (wrapping).
    Mul,
    /// `arith.divf` (floats only).
    Div,
    /// The larger, NaN if either is NaN (`arith.maximumf`; `arith.maxsi`).
    Maximum,
    /// The smaller, NaN if either is NaN (`arith.minimumf`; `arith.minsi`).
    Minimum,
    /// `math.powf` (floats only).
    Pow,
}

/// An ordered comparison (false when either operand is NaN), giving `i1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `==`.
    Eq,
}

/// One step of a [`Tape`]; its value is `Sv(index + 1)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// A constant, of the operand's element type.
    Const(f64),
    /// A unary function.
    Unary(Unary, Sv),
    /// A binary function.
    Binary(Binary, Sv, Sv),
    /// A comparison (an `i1`).
    Compare(Compare, Sv, Sv),
    /// `cond ? a : b`.
    Select(Sv, Sv, Sv),
}

/// A recorded formula: the steps and which value is the result.
#[derive(Clone, Debug, PartialEq)]
pub struct Tape {
    /// The steps, in order; step `i` defines `Sv(i + 1)`.
    pub steps: Vec<Step>,
    /// The result.
    pub result: Sv,
}

/// The recorder a formula is written against.
pub struct Formula<'p> {
    steps: Vec<Step>,
    params: &'p [f64],
}

/// A formula: the result for the operand `x`.
pub type FormulaFn = fn(&mut Formula<'_>, Sv) -> Sv;

/// The scalar function of an elementwise `graph` op, declared with the op
/// (`interfaces(ScalarFn::float(sigmoid))`); see the module documentation.
#[derive(Clone, Copy)]
pub struct ScalarFn {
    /// The formula.
    pub formula: FormulaFn,
    /// The op's attributes the formula reads as [`Formula::param`]s.
    pub params: fn(&Context, Operation) -> Vec<f64>,
    /// Whether the formula also holds for integer elements (it then uses
    /// only `Neg`, `Abs`, `Not`, `Add`, `Sub`, `Mul`, `Maximum`,
    /// `Minimum`, comparisons and `select`).
    pub ints: bool,
    /// Whether it also holds for `i1` elements, as integers of one bit.
    pub bools: bool,
}

fn no_params(_: &Context, _: Operation) -> Vec<f64> {
    Vec::new()
}

impl ScalarFn {
    /// A formula for float elements, without parameters.
    pub const fn float(formula: FormulaFn) -> Self {
        ScalarFn {
            formula,
            params: no_params,
            ints: false,
            bools: false,
        }
    }

    /// A formula that holds for float and integer elements (not `i1`).
    pub const fn any(formula: FormulaFn) -> Self {
        ScalarFn {
            formula,
            params: no_params,
            ints: true,
            bools: false,
        }
    }

    /// A formula of integer and `i1` elements (bitwise).
    pub const fn bitwise(formula: FormulaFn) -> Self {
        ScalarFn {
            formula,
            params: no_params,
            ints: true,
            bools: true,
        }
    }

    /// A float formula whose [`Formula::param`]s are read from the op.
    pub const fn with_params(
        formula: FormulaFn,
        params: fn(&Context, Operation) -> Vec<f64>,
    ) -> Self {
        ScalarFn {
            formula,
            params,
            ints: false,
            bools: false,
        }
    }

    /// The tape of `op` (its parameters read from its attributes).
    pub fn record(&self, ctx: &Context, op: Operation) -> Tape {
        Tape::record(self.formula, &(self.params)(ctx, op))
    }
}

impl Tape {
    /// Records `formula` with `params`.
    pub fn record(formula: FormulaFn, params: &[f64]) -> Tape {
        let mut f = Formula {
            steps: Vec::new(),
            params,
        };
        let result = formula(&mut f, Sv(0));
        Tape {
            steps: f.steps,
            result,
        }
    }

    /// Whether every step has an integer meaning: whether
    /// [`Tape::eval_int`] evaluates it (it evaluates every step whatever
    /// the operand, so one evaluation decides).
    pub fn is_integer(&self) -> bool {
        self.eval_int(0, &mut Vec::new()).is_some()
    }

    /// The formula at `x`, in `f64`; `scratch` is reused between calls.
    pub fn eval_f64(&self, x: f64, scratch: &mut Vec<f64>) -> f64 {
        scratch.clear();
        scratch.push(x);
        for step in &self.steps {
            let v = |s: &Sv, scratch: &[f64]| scratch[s.0 as usize];
            let r = match step {
                Step::Const(c) => *c,
                Step::Unary(u, a) => u.eval_f64(v(a, scratch)),
                Step::Binary(b, a, c) => b.eval_f64(v(a, scratch), v(c, scratch)),
                Step::Compare(p, a, c) => f64::from(u8::from(p.eval(v(a, scratch), v(c, scratch)))),
                Step::Select(c, a, b) => {
                    if v(c, scratch) != 0.0 {
                        v(a, scratch)
                    } else {
                        v(b, scratch)
                    }
                }
            };
            scratch.push(r);
        }
        scratch[self.result.0 as usize]
    }

    /// The formula at the integer `x`, in `i128` (the caller wraps the
    /// result to the element type); `None` where a step has no integer
    /// meaning (see [`Tape::is_integer`]).
    pub fn eval_int(&self, x: i128, scratch: &mut Vec<i128>) -> Option<i128> {
        scratch.clear();
        scratch.push(x);
        for step in &self.steps {
            let v = |s: &Sv, scratch: &[i128]| scratch[s.0 as usize];
            let r = match step {
                Step::Const(c) if c.fract() == 0.0 => *c as i128,
                Step::Const(_) => return None,
                Step::Unary(u, a) => {
                    let a = v(a, scratch);
                    match u {
                        Unary::Neg => a.wrapping_neg(),
                        Unary::Abs => a.wrapping_abs(),
                        Unary::Not => !a,
                        _ => return None,
                    }
                }
                Step::Binary(b, a, c) => {
                    let (a, c) = (v(a, scratch), v(c, scratch));
                    match b {
                        Binary::Add => a.wrapping_add(c),
                        Binary::Sub => a.wrapping_sub(c),
                        Binary::Mul => a.wrapping_mul(c),
                        Binary::Maximum => a.max(c),
                        Binary::Minimum => a.min(c),
                        Binary::Div | Binary::Pow => return None,
                    }
                }
                Step::Compare(p, a, c) => {
                    let (a, c) = (v(a, scratch), v(c, scratch));
                    i128::from(match p {
                        Compare::Lt => a < c,
                        Compare::Le => a <= c,
                        Compare::Gt => a > c,
                        Compare::Ge => a >= c,
                        Compare::Eq => a == c,
                    })
                }
                Step::Select(c, a, b) => {
                    if v(c, scratch) != 0 {
                        v(a, scratch)
                    } else {
                        v(b, scratch)
                    }
                }
            };
            scratch.push(r);
        }
        Some(scratch[self.result.0 as usize])
    }
}

impl Unary {
    /// The function in `f64` (the reference for every lowering of it).
    pub fn eval_f64(self, x: f64) -> f64 {
        match self {
            Unary::Neg => -x,
            Unary::Abs => x.abs(),
            Unary::Sqrt => x.sqrt(),
            Unary::Exp => x.exp(),
            Unary::Expm1 => x.exp_m1(),
            Unary::Log => x.ln(),
            Unary::Log1p => x.ln_1p(),
            Unary::Erf => libm::erf(x),
            Unary::Tanh => x.tanh(),
            Unary::Sin => x.sin(),
            Unary::Cos => x.cos(),
            Unary::Atan => x.atan(),
            Unary::Asin => x.asin(),
            Unary::Acos => x.acos(),
            Unary::Floor => x.floor(),
            Unary::Ceil => x.ceil(),
            Unary::RoundEven => x.round_ties_even(),
            // Integers only (`Tape::is_integer`); a float has no bits to
            // flip here.
            Unary::Not => f64::NAN,
        }
    }
}

impl Binary {
    /// The function in `f64`.
    pub fn eval_f64(self, a: f64, b: f64) -> f64 {
        match self {
            Binary::Add => a + b,
            Binary::Sub => a - b,
            Binary::Mul => a * b,
            Binary::Div => a / b,
            Binary::Maximum => nan_or(a, b, |a, b| {
                if a > b || (a == b && b.is_sign_negative()) {
                    a
                } else {
                    b
                }
            }),
            Binary::Minimum => nan_or(a, b, |a, b| {
                if a < b || (a == b && a.is_sign_negative()) {
                    a
                } else {
                    b
                }
            }),
            Binary::Pow => a.powf(b),
        }
    }
}

/// NaN if either operand is NaN, else `f(a, b)` (`-0 < +0` in `f`).
fn nan_or(a: f64, b: f64, f: fn(f64, f64) -> f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        f(a, b)
    }
}

impl Compare {
    /// The ordered comparison in `f64`.
    pub fn eval(self, a: f64, b: f64) -> bool {
        match self {
            Compare::Lt => a < b,
            Compare::Le => a <= b,
            Compare::Gt => a > b,
            Compare::Ge => a >= b,
            Compare::Eq => a == b,
        }
    }
}

impl Formula<'_> {
    fn push(&mut self, step: Step) -> Sv {
        self.steps.push(step);
        Sv(self.steps.len() as u32)
    }

    /// A constant of the operand's element type.
    pub fn c(&mut self, value: f64) -> Sv {
        self.push(Step::Const(value))
    }

    /// The op's `i`-th parameter as a constant (NaN when it has none).
    pub fn param(&mut self, i: usize) -> Sv {
        let value = self.param_value(i);
        self.c(value)
    }

    /// The value of the op's `i`-th parameter while recording (for a
    /// formula that depends on an attribute's choice, not its value).
    pub fn param_value(&self, i: usize) -> f64 {
        self.params.get(i).copied().unwrap_or(f64::NAN)
    }

    /// A unary function.
    pub fn unary(&mut self, f: Unary, x: Sv) -> Sv {
        self.push(Step::Unary(f, x))
    }

    /// A binary function.
    pub fn binary(&mut self, f: Binary, a: Sv, b: Sv) -> Sv {
        self.push(Step::Binary(f, a, b))
    }

    /// An ordered comparison.
    pub fn compare(&mut self, p: Compare, a: Sv, b: Sv) -> Sv {
        self.push(Step::Compare(p, a, b))
    }

    /// `cond ? a : b`.
    pub fn select(&mut self, cond: Sv, a: Sv, b: Sv) -> Sv {
        self.push(Step::Select(cond, a, b))
    }
}

macro_rules! unary_methods {
    ($($name:ident => $f:ident),* $(,)?) => {
        impl Formula<'_> {
            $(
                #[doc = concat!("[`Unary::", stringify!($f), "`].")]
                pub fn $name(&mut self, x: Sv) -> Sv {
                    self.unary(Unary::$f, x)
                }
            )*
        }
    };
}

unary_methods!(
    neg => Neg, abs => Abs, sqrt => Sqrt, exp => Exp, expm1 => Expm1,
    log => Log, log1p => Log1p, erf => Erf, tanh => Tanh, sin => Sin,
    cos => Cos, atan => Atan, asin => Asin, acos => Acos, floor => Floor,
    ceil => Ceil, round_even => RoundEven, not => Not,
);

macro_rules! binary_methods {
    ($($name:ident => $kind:ident :: $f:ident),* $(,)?) => {
        impl Formula<'_> {
            $(
                #[doc = concat!("[`", stringify!($kind), "::", stringify!($f), "`].")]
                pub fn $name(&mut self, a: Sv, b: Sv) -> Sv {
                    self.push(Step::$kind($kind::$f, a, b))
                }
            )*
        }
    };
}

binary_methods!(
    add => Binary::Add, sub => Binary::Sub, mul => Binary::Mul,
    div => Binary::Div, maximum => Binary::Maximum,
    minimum => Binary::Minimum, pow => Binary::Pow,
    lt => Compare::Lt, le => Compare::Le, gt => Compare::Gt,
    ge => Compare::Ge, eq => Compare::Eq,
);

#[cfg(test)]
mod tests {
    use super::*;

    fn softplus(f: &mut Formula<'_>, x: Sv) -> Sv {
        let zero = f.c(0.0);
        let e = f.exp(x);
        let l = f.log1p(e);
        let pos = f.gt(x, zero);
        f.select(pos, x, l)
    }

    #[test]
    fn a_tape_evaluates_in_f64_and_in_integers() {
        let tape = Tape::record(softplus, &[]);
        let mut scratch = Vec::new();
        assert_eq!(tape.eval_f64(3.0, &mut scratch), 3.0);
        assert_eq!(tape.eval_f64(-20.0, &mut scratch), (-20f64).exp().ln_1p());
        assert!(tape.eval_f64(f64::NAN, &mut scratch).is_nan());
        assert!(!tape.is_integer());
        let relu = Tape::record(
            |f, x| {
                let zero = f.c(0.0);
                f.maximum(x, zero)
            },
            &[],
        );
        assert!(relu.is_integer());
        assert_eq!(relu.eval_int(-5, &mut Vec::new()), Some(0));
        assert_eq!(tape.eval_int(1, &mut Vec::new()), None);
    }
}
