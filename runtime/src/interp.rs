//! The reference interpreter: evaluates `graph`, `func`, `arith`, `math`
//! and `scf` ops op by op on host tensors (the `eager` exe mode, and the
//! numerical oracle of every later stage).
//!
//! Scalars (`f32`, `i64`, `index`, ...) are 0-D tensors; `index` is `i64`.
//! Errors (a shape or dtype that does not fit at run time, an op the
//! interpreter cannot run) are [`InterpError`]s located at the op, never
//! panics.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use strata_dialects::graph::infer::{attr_bool, attr_f64, attr_i64, attr_i64_array, attr_str};
use strata_ir::attributes::AttrKind;
use strata_ir::float::FloatKind;
use strata_ir::types::{Signedness, TypeKind};
use strata_ir::{Attribute, Block, Context, Operation, Type, Value};

use crate::kernels::{self as k, BinaryOp, CompareOp, LogicalOp, ReduceOp, UnaryOp};
use crate::{DType, KernelError, Tensor};

/// A run-time error, located at the op that failed.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{location}: error: '{op}' op {message}")]
pub struct InterpError {
    /// The op's location (`model.onnx: node 'fc1/MatMul'`, or
    /// `file:line:col`; see `strata_ir::diagnostics::describe_location`).
    pub location: String,
    /// The op's name.
    pub op: String,
    /// What went wrong.
    pub message: String,
}

/// A custom op's reference implementation: outputs from inputs and the
/// op's `config` attribute.
pub type CustomKernel = Arc<
    dyn Fn(&Context, Option<Attribute>, &[Tensor]) -> Result<Vec<Tensor>, String> + Send + Sync,
>;

/// Reference implementations of custom ops (a context extension).
#[derive(Default)]
pub struct CustomKernels {
    kernels: HashMap<(String, i64), CustomKernel>,
}

impl CustomKernels {
    /// The kernel of `name` at `version`.
    pub fn get(&self, name: &str, version: i64) -> Option<&CustomKernel> {
        self.kernels.get(&(name.to_string(), version))
    }
}

/// A custom op: what [`register_custom_op`] needs.
pub struct CustomOp {
    /// The op's definition (name, version, summary, shape function).
    pub def: strata_dialects::graph::custom::CustomOpDef,
    /// The reference implementation.
    pub kernel: CustomKernel,
}

/// Registers a custom op with `ctx`: its shape function with the `graph`
/// dialect, its reference implementation with the interpreter.
pub fn register_custom_op(ctx: &mut Context, op: CustomOp) {
    let key = (op.def.name.clone(), op.def.version);
    strata_dialects::graph::custom::register_custom_op(ctx, op.def);
    ctx.registry_mut()
        .extension_mut::<CustomKernels>()
        .kernels
        .insert(key, op.kernel);
}

/// The interpreter's data type of an element type.
pub fn dtype_of(ctx: &Context, elem: Type) -> Option<DType> {
    match ctx.type_kind(elem) {
        TypeKind::Float(kind) => match kind {
            FloatKind::F16 => Some(DType::F16),
            FloatKind::BF16 => Some(DType::BF16),
            FloatKind::F32 => Some(DType::F32),
            FloatKind::F64 => Some(DType::F64),
            _ => None,
        },
        TypeKind::Integer { width, signedness } => {
            let unsigned = *signedness == Signedness::Unsigned;
            match (width, unsigned) {
                (1, _) => Some(DType::I1),
                (8, false) => Some(DType::I8),
                (16, false) => Some(DType::I16),
                (32, false) => Some(DType::I32),
                (64, false) => Some(DType::I64),
                (8, true) => Some(DType::U8),
                (16, true) => Some(DType::U16),
                (32, true) => Some(DType::U32),
                (64, true) => Some(DType::U64),
                _ => None,
            }
        }
        TypeKind::Index => Some(DType::I64),
        _ => None,
    }
}

/// The dtype and static shape of a type (scalars are 0-D).
fn type_info(ctx: &Context, ty: Type) -> Option<(DType, Option<Vec<i64>>)> {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { shape, element, .. } | TypeKind::Vector { shape, element, .. } => {
            Some((dtype_of(ctx, *element)?, Some(shape.clone())))
        }
        TypeKind::UnrankedTensor { element } => Some((dtype_of(ctx, *element)?, None)),
        _ => Some((dtype_of(ctx, ty)?, Some(Vec::new()))),
    }
}

/// The most iterations an `scf.for` or `scf.while` may run before the
/// interpreter stops it with an error (a loop that never ends is a bug in
/// the program, not a reason to hang).
pub const MAX_ITERATIONS: u64 = 1 << 28;

/// The largest constant (in bytes) the interpreter materializes.
pub const MAX_MATERIALIZED_BYTES: usize = 1 << 33;

/// The tensor an attribute holds (dense elements, or a scalar integer or
/// float attribute as a 0-D tensor).
pub fn attr_tensor(ctx: &Context, attr: Attribute) -> Result<Tensor, String> {
    match ctx.attr_kind(attr) {
        AttrKind::DenseElements { ty, data } => {
            let (dtype, shape) = type_info(ctx, *ty).ok_or("unsupported element type")?;
            let shape: Vec<usize> = shape
                .unwrap_or_default()
                .iter()
                .map(|&d| usize::try_from(d).map_err(|_| "dynamic constant shape".to_string()))
                .collect::<Result<_, _>>()?;
            let count = shape
                .iter()
                .try_fold(1usize, |acc, &d| acc.checked_mul(d))
                .filter(|&n| n.saturating_mul(dtype.byte_size()) <= MAX_MATERIALIZED_BYTES)
                .ok_or_else(|| {
                    format!("constant of shape {shape:?} is too large to materialize")
                })?;
            let bytes = if data.splat {
                data.raw.repeat(count)
            } else {
                data.raw.to_vec()
            };
            Tensor::from_le_bytes(dtype, &shape, &bytes).map_err(|e| e.to_string())
        }
        AttrKind::Integer { ty, value } => {
            let dtype = dtype_of(ctx, *ty).ok_or("unsupported integer type")?;
            let v = i64::try_from(*value).unwrap_or(*value as i64);
            Ok(Tensor::scalar_i64(
                dtype,
                if dtype == DType::I1 { v & 1 } else { v },
            ))
        }
        AttrKind::Float { ty, bits } => {
            let dtype = dtype_of(ctx, *ty).ok_or("unsupported float type")?;
            let v = match dtype {
                DType::F64 => f64::from_bits(*bits as u64),
                DType::F32 => f64::from(f32::from_bits(*bits as u32)),
                DType::F16 => f64::from(half::f16::from_bits(*bits as u16)),
                DType::BF16 => f64::from(half::bf16::from_bits(*bits as u16)),
                _ => return Err("unsupported float type".into()),
            };
            Ok(Tensor::scalar_f64(dtype, v))
        }
        _ => Err("unsupported constant attribute".into()),
    }
}

/// Runs the function `func` (a `func.func`) on `inputs`.
pub fn run_function(
    ctx: &Context,
    func: Operation,
    inputs: Vec<Tensor>,
) -> Result<Vec<Tensor>, InterpError> {
    run_function_with(ctx, func, inputs, Limits::default())
}

/// [`run_function`] within `limits`.
pub fn run_function_with(
    ctx: &Context,
    func: Operation,
    inputs: Vec<Tensor>,
    limits: Limits,
) -> Result<Vec<Tensor>, InterpError> {
    Interpreter {
        ctx,
        depth: 0,
        limits,
    }
    .call(func, inputs)
}

/// Evaluates the single op `op` on `inputs` (its operands' values); ops
/// with regions and calls are not supported here.
pub fn eval_op(
    ctx: &Context,
    op: Operation,
    inputs: Vec<Tensor>,
) -> Result<Vec<Tensor>, InterpError> {
    let mut interp = Interpreter {
        ctx,
        depth: 0,
        limits: Limits::default(),
    };
    let name = ctx.op_name_str(op);
    if !ctx.op_regions(op).is_empty() || name == "func.call" {
        return Err(interp.error(op, "cannot be evaluated on its own"));
    }
    interp.eval(
        op,
        name,
        inputs.into_iter().map(Rc::new).collect(),
        &HashMap::new(),
    )
}

/// The constant folder of `graph` ops: evaluates `op` with the
/// interpreter when all its operands are constants (see
/// `strata_dialects::graph::fold`). Install it with [`install_folding`].
pub fn fold_with_interpreter(
    ctx: &mut Context,
    op: Operation,
    operands: &[Attribute],
) -> Option<Vec<Attribute>> {
    let inputs = operands
        .iter()
        .map(|&a| attr_tensor(ctx, a).ok())
        .collect::<Option<Vec<Tensor>>>()?;
    let outputs = eval_op(ctx, op, inputs).ok()?;
    let results: Vec<Value> = ctx.results(op).collect();
    let mut attrs = Vec::with_capacity(outputs.len());
    for (t, r) in outputs.iter().zip(results) {
        let ty = ctx.value_type(r);
        let (dtype, shape) = type_info(ctx, ty)?;
        let shape = shape?;
        let same = dtype == t.dtype()
            && shape.len() == t.rank()
            && shape.iter().zip(t.shape()).all(|(&d, &n)| d == n as i64);
        if !same {
            return None;
        }
        attrs.push(ctx.dense_elements_attr(ty, t.to_le_bytes())?);
    }
    Some(attrs)
}

/// Lets `canonicalize` fold `graph` ops on constants with the interpreter.
pub fn install_folding(ctx: &mut Context) {
    strata_dialects::graph::fold::install_constant_evaluator(ctx, fold_with_interpreter);
}

/// Finds the function named `name` in `module`.
pub fn lookup_function(ctx: &Context, module: Operation, name: &str) -> Option<Operation> {
    let region = *ctx.op_regions(module).first()?;
    let block = ctx.region_blocks(region).next()?;
    ctx.block_ops(block).find(|&op| {
        ctx.op_name_str(op) == "func.func"
            && strata_dialects::graph::infer::attr_str(ctx, op, "sym_name").as_deref() == Some(name)
    })
}

struct Interpreter<'c> {
    ctx: &'c Context,
    depth: usize,
    limits: Limits,
}

/// Bounds on what one run may do.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The largest tensor (in bytes) an op may create.
    pub max_bytes: usize,
    /// The most iterations of one `scf.for` or `scf.while`.
    pub max_iterations: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: MAX_MATERIALIZED_BYTES,
            max_iterations: MAX_ITERATIONS,
        }
    }
}

/// The values computed so far; shared so that operands and nested regions
/// do not copy tensors.
type Env = HashMap<Value, Rc<Tensor>>;

enum Flow {
    Continue,
    /// A terminator's operands (`func.return`, `scf.yield`, `scf.condition`).
    Exit(Vec<Tensor>),
}

fn kerr(e: KernelError) -> String {
    e.to_string()
}

fn usizes(v: &[i64], what: &str) -> Result<Vec<usize>, String> {
    v.iter()
        .map(|&x| {
            usize::try_from(x).map_err(|_| format!("{what} must not be negative, but got {x}"))
        })
        .collect()
}

impl Interpreter<'_> {
    fn error(&self, op: Operation, message: impl Into<String>) -> InterpError {
        InterpError {
            location: strata_ir::diagnostics::describe_location(self.ctx, self.ctx.op_loc(op)),
            op: self.ctx.op_name_str(op).to_string(),
            message: message.into(),
        }
    }

    fn call(&mut self, func: Operation, inputs: Vec<Tensor>) -> Result<Vec<Tensor>, InterpError> {
        self.depth += 1;
        if self.depth > 256 {
            return Err(self.error(func, "call depth exceeds 256 (recursion?)"));
        }
        let region = *self
            .ctx
            .op_regions(func)
            .first()
            .ok_or_else(|| self.error(func, "has no body"))?;
        let block = self
            .ctx
            .region_blocks(region)
            .next()
            .ok_or_else(|| self.error(func, "is a declaration; it has no body to run"))?;
        let args: Vec<Value> = self.ctx.block_args(block).collect();
        if args.len() != inputs.len() {
            return Err(self.error(
                func,
                format!(
                    "expects {} inputs, but {} were given",
                    args.len(),
                    inputs.len()
                ),
            ));
        }
        for (i, (&arg, t)) in args.iter().zip(&inputs).enumerate() {
            self.check_type(func, self.ctx.value_type(arg), t, &format!("input #{i}"))?;
        }
        let mut env: Env = args
            .into_iter()
            .zip(inputs.into_iter().map(Rc::new))
            .collect();
        let flow = self.run_block(block, &mut env);
        self.depth -= 1;
        match flow? {
            Flow::Exit(v) => Ok(v),
            Flow::Continue => Err(self.error(func, "body ends without func.return")),
        }
    }

    /// Checks a tensor against a declared type (dtype, rank, static sizes).
    fn check_type(
        &self,
        op: Operation,
        ty: Type,
        t: &Tensor,
        what: &str,
    ) -> Result<(), InterpError> {
        let Some((dtype, shape)) = type_info(self.ctx, ty) else {
            return Ok(());
        };
        if dtype != t.dtype() {
            return Err(self.error(
                op,
                format!(
                    "{what} must have dtype {}, but has {}",
                    dtype.name(),
                    t.dtype().name()
                ),
            ));
        }
        if let Some(shape) = shape {
            let ok = shape.len() == t.rank()
                && shape
                    .iter()
                    .zip(t.shape())
                    .all(|(&d, &n)| d == strata_ir::types::DYNAMIC || d == n as i64);
            if !ok {
                return Err(self.error(
                    op,
                    format!(
                        "{what} must have shape {}, but has shape {:?}",
                        strata_ir::printer::type_to_string(self.ctx, ty),
                        t.shape()
                    ),
                ));
            }
        }
        Ok(())
    }

    fn run_block(&mut self, block: Block, env: &mut Env) -> Result<Flow, InterpError> {
        let ops: Vec<Operation> = self.ctx.block_ops(block).collect();
        for op in ops {
            let operands: Vec<Rc<Tensor>> = self
                .ctx
                .operands(op)
                .map(|v| {
                    env.get(&v)
                        .cloned()
                        .ok_or_else(|| self.error(op, "uses a value that was not computed"))
                })
                .collect::<Result<_, _>>()?;
            let name = self.ctx.op_name_str(op);
            match name {
                "func.return" | "scf.yield" | "scf.condition" => {
                    return Ok(Flow::Exit(
                        operands.into_iter().map(Rc::unwrap_or_clone).collect(),
                    ))
                }
                _ => {}
            }
            let results = self.eval(op, name, operands, env)?;
            let values: Vec<Value> = self.ctx.results(op).collect();
            if results.len() != values.len() {
                return Err(self.error(
                    op,
                    format!(
                        "produced {} results, expected {}",
                        results.len(),
                        values.len()
                    ),
                ));
            }
            for (i, (v, t)) in values.into_iter().zip(results).enumerate() {
                self.check_type(op, self.ctx.value_type(v), &t, &format!("result #{i}"))?;
                env.insert(v, Rc::new(t));
            }
        }
        Ok(Flow::Continue)
    }

    fn run_region(
        &mut self,
        op: Operation,
        index: usize,
        args: Vec<Tensor>,
        env: &Env,
    ) -> Result<Vec<Tensor>, InterpError> {
        let region = *self
            .ctx
            .op_regions(op)
            .get(index)
            .ok_or_else(|| self.error(op, format!("has no region #{index}")))?;
        let Some(block) = self.ctx.region_blocks(region).next() else {
            return Ok(Vec::new());
        };
        let mut inner = env.clone();
        let block_args: Vec<Value> = self.ctx.block_args(block).collect();
        if block_args.len() != args.len() {
            return Err(self.error(op, "region arguments do not match"));
        }
        inner.extend(block_args.into_iter().zip(args.into_iter().map(Rc::new)));
        match self.run_block(block, &mut inner)? {
            Flow::Exit(v) => Ok(v),
            Flow::Continue => Ok(Vec::new()),
        }
    }

    fn eval(
        &mut self,
        op: Operation,
        name: &str,
        x: Vec<Rc<Tensor>>,
        env: &Env,
    ) -> Result<Vec<Tensor>, InterpError> {
        let r = match name.split_once('.').map(|(d, _)| d) {
            Some("graph") => self.eval_graph(op, name, &x),
            Some("arith") | Some("math") => self.eval_scalar(op, name, &x),
            Some("scf") => return self.eval_scf(op, name, x, env),
            Some("func") if name == "func.call" => {
                let callee = strata_ir::ods::inherent_attr(self.ctx, op, "callee")
                    .and_then(|a| match self.ctx.attr_kind(a) {
                        AttrKind::SymbolRef { root, .. } => {
                            Some(String::from_utf8_lossy(root).into_owned())
                        }
                        _ => None,
                    })
                    .ok_or_else(|| self.error(op, "has no callee"))?;
                // The nearest enclosing module (the call may sit in nested
                // regions, e.g. an scf.for body).
                let mut module = self.ctx.op_parent_op(op);
                while let Some(m) = module.filter(|&m| self.ctx.op_name_str(m) != "builtin.module")
                {
                    module = self.ctx.op_parent_op(m);
                }
                let module = module.ok_or_else(|| self.error(op, "is not inside a module"))?;
                let f = lookup_function(self.ctx, module, &callee).ok_or_else(|| {
                    self.error(op, format!("calls '@{callee}', which is not defined"))
                })?;
                return self.call(f, x.into_iter().map(Rc::unwrap_or_clone).collect());
            }
            _ => Err(format!(
                "cannot be evaluated: the interpreter does not know '{name}'"
            )),
        };
        r.map_err(|m| self.error(op, m))
    }

    fn eval_scf(
        &mut self,
        op: Operation,
        name: &str,
        x: Vec<Rc<Tensor>>,
        env: &Env,
    ) -> Result<Vec<Tensor>, InterpError> {
        let x: Vec<Tensor> = x.into_iter().map(Rc::unwrap_or_clone).collect();
        let scalar_i64 = |t: &Tensor| t.to_i64_vec().first().copied();
        match name {
            "scf.if" => {
                let c = x
                    .first()
                    .and_then(scalar_i64)
                    .ok_or_else(|| self.error(op, "has no condition"))?;
                let region = if c != 0 { 0 } else { 1 };
                self.run_region(op, region, Vec::new(), env)
            }
            "scf.for" => {
                let get = |i: usize| x.get(i).and_then(scalar_i64);
                let (Some(lb), Some(ub), Some(step)) = (get(0), get(1), get(2)) else {
                    return Err(self.error(op, "has malformed bounds"));
                };
                if step <= 0 {
                    return Err(self.error(op, format!("step must be positive, but is {step}")));
                }
                let iv_dtype = x[0].dtype();
                let mut carried: Vec<Tensor> = x[3..].to_vec();
                let mut i = lb;
                let mut iterations = 0u64;
                while i < ub {
                    let mut args = vec![Tensor::scalar_i64(iv_dtype, i)];
                    args.extend(carried);
                    carried = self.run_region(op, 0, args, env)?;
                    i = i.saturating_add(step);
                    iterations += 1;
                    if iterations > self.limits.max_iterations {
                        return Err(self.error(
                            op,
                            format!("runs more than {} iterations", self.limits.max_iterations),
                        ));
                    }
                }
                Ok(carried)
            }
            "scf.while" => {
                let mut carried = x;
                for _ in 0..self.limits.max_iterations {
                    let cond = self.run_region(op, 0, carried, env)?;
                    let (c, rest) = cond
                        .split_first()
                        .ok_or_else(|| self.error(op, "before region yields nothing"))?;
                    if scalar_i64(c).unwrap_or(0) == 0 {
                        return Ok(rest.to_vec());
                    }
                    carried = self.run_region(op, 1, rest.to_vec(), env)?;
                }
                Err(self.error(
                    op,
                    format!("runs more than {} iterations", self.limits.max_iterations),
                ))
            }
            _ => Err(self.error(
                op,
                format!("cannot be evaluated: the interpreter does not know '{name}'"),
            )),
        }
    }

    fn result_dtype(&self, op: Operation, i: usize) -> Result<DType, String> {
        let v = self.ctx.results(op).nth(i).ok_or("missing result")?;
        type_info(self.ctx, self.ctx.value_type(v))
            .map(|(d, _)| d)
            .ok_or_else(|| "result has an unsupported element type".into())
    }

    fn eval_scalar(
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
                k::cast(arg(0)?, self.result_dtype(op, 0)?).map_err(kerr)?
            }
            "math.exp" => un(UnaryOp::Exp)?,
            "math.log" => un(UnaryOp::Log)?,
            "math.tanh" => un(UnaryOp::Tanh)?,
            "math.erf" => un(UnaryOp::Erf)?,
            "math.sqrt" => un(UnaryOp::Sqrt)?,
            "math.rsqrt" => un(UnaryOp::Rsqrt)?,
            "math.absf" => un(UnaryOp::Abs)?,
            "math.sin" => un(UnaryOp::Sin)?,
            "math.cos" => un(UnaryOp::Cos)?,
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
        let result_dtype = || self.result_dtype(op, 0);
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

    fn eval_graph(
        &mut self,
        op: Operation,
        name: &str,
        x: &[Rc<Tensor>],
    ) -> Result<Vec<Tensor>, String> {
        let ctx = self.ctx;
        let limits = self.limits;
        check_result_sizes(ctx, op, x, limits.max_bytes)?;
        let x: Vec<&Tensor> = x.iter().map(|t| &**t).collect();
        let arg = |i: usize| {
            x.get(i)
                .copied()
                .ok_or_else(|| format!("expects operand #{i}"))
        };
        let ints = |i: usize| -> Result<Vec<i64>, String> { Ok(arg(i)?.to_i64_vec()) };
        let bin = |b: BinaryOp| k::binary(b, arg(0)?, arg(1)?).map_err(kerr);
        let cmp = |c: CompareOp| k::compare(c, arg(0)?, arg(1)?).map_err(kerr);
        let un = |u: UnaryOp| k::unary(u, arg(0)?).map_err(kerr);
        let i64a = |n: &str| attr_i64(ctx, op, n);
        // A window attribute (kernel_shape, strides, pads, dilations).
        let window = |name: &str, default: Vec<i64>| -> Result<Vec<usize>, String> {
            usizes(&attr_i64_array(ctx, op, name).unwrap_or(default), name)
        };
        let segs = strata_dialects::graph::infer::operand_segments(ctx, op);
        // The operand of optional group `g`, given the operand segment sizes.
        let opt = |g: usize| -> Option<&Tensor> {
            match &segs {
                Some(s) => {
                    if s.get(g).copied().unwrap_or(0) == 0 {
                        None
                    } else {
                        x.get(s[..g].iter().sum::<usize>()).copied()
                    }
                }
                None => x.get(g).copied(),
            }
        };
        let reduce = |r: ReduceOp| -> Result<Tensor, String> {
            let input = arg(0)?;
            let axes = match x.get(1).copied() {
                Some(a) => a.to_i64_vec(),
                None => Vec::new(),
            };
            if axes.is_empty() && attr_bool(ctx, op, "noop_with_empty_axes") {
                return Ok(input.clone());
            }
            let keepdims = attr_bool(ctx, op, "keepdims");
            if input.dtype() == DType::I1 && matches!(r, ReduceOp::Max | ReduceOp::Min) {
                // Max and min of booleans are any and all.
                let wide = k::cast(input, DType::I32).map_err(kerr)?;
                let out = k::reduce(r, &wide, &axes, keepdims).map_err(kerr)?;
                return k::cast(&out, DType::I1).map_err(kerr);
            }
            k::reduce(r, input, &axes, keepdims).map_err(kerr)
        };
        let out = match name {
            "graph.constant" => {
                let v = strata_ir::ods::inherent_attr(ctx, op, "value").ok_or("has no value")?;
                attr_tensor(ctx, v)?
            }
            "graph.add" => bin(BinaryOp::Add)?,
            "graph.sub" => bin(BinaryOp::Sub)?,
            "graph.mul" => bin(BinaryOp::Mul)?,
            "graph.div" => bin(BinaryOp::Div)?,
            "graph.pow" => bin(BinaryOp::Pow)?,
            "graph.max" => bin(BinaryOp::Max)?,
            "graph.min" => bin(BinaryOp::Min)?,
            "graph.mod" => {
                let (a, b) = (arg(0)?, arg(1)?);
                if attr_bool(ctx, op, "fmod") && !a.dtype().is_float() {
                    // C's `%`: the sign of the dividend.
                    let (shape, x, y) = broadcast_pair(a, b)?;
                    // i128 holds signed and unsigned values alike.
                    let out = x
                        .to_i128_vec()
                        .into_iter()
                        .zip(y.to_i128_vec())
                        .map(|(p, q)| {
                            if q == 0 {
                                Err("integer remainder by zero".to_string())
                            } else {
                                Ok(p.wrapping_rem(q))
                            }
                        })
                        .collect::<Result<Vec<i128>, String>>()?;
                    Tensor::new(shape, crate::TensorData::from_i128_slice(a.dtype(), &out))
                        .map_err(kerr)?
                } else {
                    bin(BinaryOp::Mod)?
                }
            }
            "graph.and" => k::logical(LogicalOp::And, arg(0)?, arg(1)?).map_err(kerr)?,
            "graph.or" => k::logical(LogicalOp::Or, arg(0)?, arg(1)?).map_err(kerr)?,
            "graph.xor" => k::logical(LogicalOp::Xor, arg(0)?, arg(1)?).map_err(kerr)?,
            "graph.not" => k::not(arg(0)?).map_err(kerr)?,
            "graph.bit_shift" => {
                let left = attr_str(ctx, op, "direction").as_deref() == Some("left");
                k::bit_shift(arg(0)?, arg(1)?, left).map_err(kerr)?
            }
            "graph.equal" => cmp(CompareOp::Eq)?,
            "graph.less" => cmp(CompareOp::Lt)?,
            "graph.less_equal" => cmp(CompareOp::Le)?,
            "graph.greater" => cmp(CompareOp::Gt)?,
            "graph.greater_equal" => cmp(CompareOp::Ge)?,
            "graph.neg" => un(UnaryOp::Neg)?,
            "graph.abs" => un(UnaryOp::Abs)?,
            "graph.sign" => un(UnaryOp::Sign)?,
            "graph.sqrt" => un(UnaryOp::Sqrt)?,
            "graph.rsqrt" => un(UnaryOp::Rsqrt)?,
            "graph.reciprocal" => un(UnaryOp::Reciprocal)?,
            "graph.exp" => un(UnaryOp::Exp)?,
            "graph.log" => un(UnaryOp::Log)?,
            "graph.erf" => un(UnaryOp::Erf)?,
            "graph.tanh" => un(UnaryOp::Tanh)?,
            "graph.sin" => un(UnaryOp::Sin)?,
            "graph.cos" => un(UnaryOp::Cos)?,
            "graph.floor" => un(UnaryOp::Floor)?,
            "graph.round" => un(UnaryOp::Round)?,
            "graph.ceil" => un(UnaryOp::Ceil)?,
            "graph.sigmoid" => un(UnaryOp::Sigmoid)?,
            "graph.relu" => un(UnaryOp::Relu)?,
            "graph.silu" => un(UnaryOp::Silu)?,
            "graph.softplus" => un(UnaryOp::Softplus)?,
            "graph.identity" => arg(0)?.clone(),
            "graph.gelu" => match attr_str(ctx, op, "approximate").as_deref() {
                Some("tanh") => un(UnaryOp::GeluTanh)?,
                _ => un(UnaryOp::GeluExact)?,
            },
            "graph.leaky_relu" => un(UnaryOp::LeakyRelu(
                attr_f64(ctx, op, "alpha").unwrap_or(0.01),
            ))?,
            "graph.elu" => un(UnaryOp::Elu(attr_f64(ctx, op, "alpha").unwrap_or(1.0)))?,
            "graph.hard_sigmoid" => un(UnaryOp::HardSigmoid {
                alpha: attr_f64(ctx, op, "alpha").unwrap_or(0.2),
                beta: attr_f64(ctx, op, "beta").unwrap_or(0.5),
            })?,
            "graph.clip" => {
                let bound = |g: usize| opt(g).and_then(|t| t.to_f64_vec().first().copied());
                let input = arg(0)?;
                if input.dtype().is_float() {
                    k::clip(input, bound(1), bound(2)).map_err(kerr)?
                } else {
                    // Integers: clamp exactly (no round trip through f64).
                    let mut t = input.clone();
                    if let Some(lo) = opt(1) {
                        t = k::binary(BinaryOp::Max, &t, lo).map_err(kerr)?;
                    }
                    if let Some(hi) = opt(2) {
                        t = k::binary(BinaryOp::Min, &t, hi).map_err(kerr)?;
                    }
                    t
                }
            }
            "graph.cast" => k::cast(arg(0)?, self.result_dtype(op, 0)?).map_err(kerr)?,
            "graph.where" => k::where_(arg(0)?, arg(1)?, arg(2)?).map_err(kerr)?,
            "graph.matmul" => k::matmul(arg(0)?, arg(1)?).map_err(kerr)?,
            "graph.gemm" => k::gemm(
                arg(0)?,
                arg(1)?,
                x.get(2).copied(),
                attr_f64(ctx, op, "alpha").unwrap_or(1.0),
                attr_f64(ctx, op, "beta").unwrap_or(1.0),
                attr_bool(ctx, op, "transA"),
                attr_bool(ctx, op, "transB"),
            )
            .map_err(kerr)?,
            "graph.conv2d" => {
                let (strides, pads, dilations) = (
                    window("strides", vec![1, 1])?,
                    window("pads", vec![0; 4])?,
                    window("dilations", vec![1, 1])?,
                );
                let group = usize::try_from(i64a("group").unwrap_or(1))
                    .map_err(|_| "group must be positive")?;
                let (input, weight) = (arg(0)?, arg(1)?);
                // The im2col buffer can be kH * kW times the result; it holds
                // f32 (f64 for f64 inputs).
                let cols = k::conv2d_workspace(
                    input.shape(),
                    weight.shape(),
                    &strides,
                    &pads,
                    &dilations,
                    group,
                )
                .map_err(kerr)?;
                let width = if input.dtype() == DType::F64 { 8 } else { 4 };
                let bytes = cols.saturating_mul(width);
                if bytes > limits.max_bytes {
                    return Err(format!(
                        "needs an im2col buffer of {bytes} bytes, larger than the interpreter's limit of {} bytes",
                        limits.max_bytes
                    ));
                }
                k::conv2d(
                    input,
                    weight,
                    x.get(2).copied(),
                    &strides,
                    &pads,
                    &dilations,
                    group,
                )
                .map_err(kerr)?
            }
            "graph.conv_transpose2d" => {
                let params = k::ConvTransposeParams {
                    strides: window("strides", vec![1, 1])?,
                    pads: window("pads", vec![0; 4])?,
                    dilations: window("dilations", vec![1, 1])?,
                    group: usize::try_from(i64a("group").unwrap_or(1))
                        .map_err(|_| "group must be positive")?,
                    output_padding: window("output_padding", vec![0, 0])?,
                    output_shape: match attr_i64_array(ctx, op, "output_shape") {
                        Some(s) => Some(usizes(&s, "output_shape")?),
                        None => None,
                    },
                    max_bytes: limits.max_bytes,
                };
                k::conv_transpose2d(arg(0)?, arg(1)?, x.get(2).copied(), &params).map_err(kerr)?
            }
            "graph.resize" => {
                let word = |n: &str, d: &str| attr_str(ctx, op, n).unwrap_or_else(|| d.into());
                let mode = match word("mode", "nearest").as_str() {
                    "linear" => k::ResizeMode::Linear,
                    "cubic" => k::ResizeMode::Cubic,
                    _ => k::ResizeMode::Nearest,
                };
                let mut p = k::ResizeParams::new(mode);
                p.coordinate = match word("coordinate_transformation_mode", "half_pixel").as_str() {
                    "half_pixel_symmetric" => k::CoordinateMode::HalfPixelSymmetric,
                    "pytorch_half_pixel" => k::CoordinateMode::PytorchHalfPixel,
                    "align_corners" => k::CoordinateMode::AlignCorners,
                    "asymmetric" => k::CoordinateMode::Asymmetric,
                    "tf_crop_and_resize" => k::CoordinateMode::TfCropAndResize,
                    _ => k::CoordinateMode::HalfPixel,
                };
                p.nearest = match word("nearest_mode", "round_prefer_floor").as_str() {
                    "round_prefer_ceil" => k::NearestMode::RoundPreferCeil,
                    "floor" => k::NearestMode::Floor,
                    "ceil" => k::NearestMode::Ceil,
                    _ => k::NearestMode::RoundPreferFloor,
                };
                p.aspect = match word("keep_aspect_ratio_policy", "stretch").as_str() {
                    "not_larger" => k::AspectPolicy::NotLarger,
                    "not_smaller" => k::AspectPolicy::NotSmaller,
                    _ => k::AspectPolicy::Stretch,
                };
                p.cubic_a = attr_f64(ctx, op, "cubic_coeff_a").unwrap_or(-0.75);
                p.exclude_outside = attr_bool(ctx, op, "exclude_outside");
                p.extrapolation = attr_f64(ctx, op, "extrapolation_value").unwrap_or(0.0);
                p.antialias = attr_bool(ctx, op, "antialias");
                p.max_bytes = limits.max_bytes;
                let axes = attr_i64_array(ctx, op, "axes").unwrap_or_default();
                let roi = opt(1).map(|t| t.to_f64_vec());
                let (scales, sizes) = (
                    opt(2).map(|t| t.to_f64_vec()),
                    opt(3).map(|t| t.to_i64_vec()),
                );
                let target = match (&scales, &sizes) {
                    (Some(s), None) => k::ResizeTarget::Scales(s),
                    (None, Some(z)) => k::ResizeTarget::Sizes(z),
                    _ => return Err("needs exactly one of scales and sizes".into()),
                };
                k::resize(arg(0)?, &axes, target, roi.as_deref(), &p).map_err(kerr)?
            }
            "graph.dft" => {
                let length = opt(1).and_then(|t| t.to_i64_vec().first().copied());
                let axis = match opt(2) {
                    Some(t) => t.to_i64_vec().first().copied().ok_or("axis is empty")?,
                    None => i64a("axis").unwrap_or(1),
                };
                k::dft(
                    arg(0)?,
                    axis,
                    length,
                    attr_bool(ctx, op, "inverse"),
                    attr_bool(ctx, op, "onesided"),
                )
                .map_err(kerr)?
            }
            "graph.non_max_suppression" => {
                let first = |t: Option<&Tensor>| t.and_then(|t| t.to_f64_vec().first().copied());
                let max = opt(2)
                    .and_then(|t| t.to_i64_vec().first().copied())
                    .unwrap_or(0);
                k::non_max_suppression(
                    arg(0)?,
                    arg(1)?,
                    max,
                    first(opt(3)).unwrap_or(0.0),
                    first(opt(4)),
                    attr_bool(ctx, op, "center_point_box"),
                )
                .map_err(kerr)?
            }
            "graph.grid_sample" => {
                let mode = match attr_str(ctx, op, "mode").as_deref() {
                    Some("nearest") => k::GridMode::Nearest,
                    Some("cubic") => k::GridMode::Cubic,
                    _ => k::GridMode::Linear,
                };
                let padding = match attr_str(ctx, op, "padding_mode").as_deref() {
                    Some("border") => k::GridPadding::Border,
                    Some("reflection") => k::GridPadding::Reflection,
                    _ => k::GridPadding::Zeros,
                };
                let align = attr_bool(ctx, op, "align_corners");
                k::grid_sample(arg(0)?, arg(1)?, mode, padding, align).map_err(kerr)?
            }
            "graph.gather_nd" => {
                let b = usize::try_from(i64a("batch_dims").unwrap_or(0))
                    .map_err(|_| "batch_dims must not be negative")?;
                // Each index tuple selects a slice: bound the result first.
                let (data, idx) = (arg(0)?, arg(1)?);
                if let Some((&k, lead)) = idx.shape().split_last() {
                    let mut shape = lead.to_vec();
                    shape.extend(data.shape().get(b + k..).unwrap_or(&[]));
                    check_size(&shape, data.dtype(), limits.max_bytes)?;
                }
                k::gather_nd(arg(0)?, arg(1)?, b).map_err(kerr)?
            }
            "graph.gather_elements" => {
                k::gather_elements(arg(0)?, arg(1)?, i64a("axis").unwrap_or(0)).map_err(kerr)?
            }
            "graph.scatter_elements" | "graph.scatter_nd" => {
                let r = attr_str(ctx, op, "reduction").unwrap_or_else(|| "none".into());
                let r = k::ScatterReduction::parse(&r)
                    .ok_or_else(|| format!("has an unknown reduction '{r}'"))?;
                if name == "graph.scatter_nd" {
                    k::scatter_nd(arg(0)?, arg(1)?, arg(2)?, r).map_err(kerr)?
                } else {
                    let axis = i64a("axis").unwrap_or(0);
                    k::scatter_elements(arg(0)?, arg(1)?, arg(2)?, axis, r).map_err(kerr)?
                }
            }
            "graph.cumsum" | "graph.cumprod" => {
                let axis = match arg(1)?.to_i64_vec().as_slice() {
                    &[a] => a,
                    _ => return Err("axis must hold one element".into()),
                };
                (if name == "graph.cumprod" {
                    k::cumprod
                } else {
                    k::cumsum
                })(
                    arg(0)?,
                    axis,
                    attr_bool(ctx, op, "exclusive"),
                    attr_bool(ctx, op, "reverse"),
                )
                .map_err(kerr)?
            }
            "graph.top_k" => {
                let count = match arg(1)?.to_i64_vec().as_slice() {
                    &[n] => n,
                    _ => return Err("k must hold one element".into()),
                };
                let (values, indices) = k::top_k(
                    arg(0)?,
                    count,
                    i64a("axis").unwrap_or(-1),
                    attr_bool(ctx, op, "largest"),
                )
                .map_err(kerr)?;
                return Ok(vec![values, indices]);
            }
            "graph.dropout" => {
                let ratio = arg(1)?.to_f64_vec();
                let &[ratio] = ratio.as_slice() else {
                    return Err("ratio must hold one element".into());
                };
                let training = match x.get(2) {
                    Some(t) => t.to_i64_vec().first().is_some_and(|&v| v != 0),
                    None => true,
                };
                // Not training: the identity, every element kept.
                let ratio = if training { ratio } else { 0.0 };
                let seed = i64a("seed").unwrap_or(0) as u64;
                let (values, mask) = k::dropout(arg(0)?, ratio, seed).map_err(kerr)?;
                if self.ctx.results(op).count() == 2 {
                    return Ok(vec![values, mask]);
                }
                values
            }
            "graph.max_pool2d" if self.ctx.results(op).count() == 2 => {
                let (values, indices) = k::max_pool2d_with_indices(
                    arg(0)?,
                    &window("kernel_shape", vec![])?,
                    &window("strides", vec![1, 1])?,
                    &window("pads", vec![0; 4])?,
                    &window("dilations", vec![1, 1])?,
                    attr_bool(ctx, op, "ceil_mode"),
                )
                .map_err(kerr)?;
                if i64a("storage_order").unwrap_or(0) == 1 {
                    // Column-major within each H x W plane.
                    let (h, w) = match arg(0)?.shape() {
                        &[_, _, h, w] => (h as i64, w as i64),
                        _ => return Err("input must be 4-D".into()),
                    };
                    let plane = (h * w).max(1);
                    let converted: Vec<i64> = indices
                        .to_i64_vec()
                        .iter()
                        .map(|&i| {
                            let (p, r) = (i / plane, i % plane);
                            p * plane + (r % w.max(1)) * h + r / w.max(1)
                        })
                        .collect();
                    let indices = Tensor::from_i64_vec(DType::I64, indices.shape(), &converted);
                    return Ok(vec![values, indices]);
                }
                return Ok(vec![values, indices]);
            }
            "graph.max_pool2d" => k::max_pool2d(
                arg(0)?,
                &window("kernel_shape", vec![])?,
                &window("strides", vec![1, 1])?,
                &window("pads", vec![0; 4])?,
                &window("dilations", vec![1, 1])?,
                attr_bool(ctx, op, "ceil_mode"),
            )
            .map_err(kerr)?,
            "graph.avg_pool2d" => k::avg_pool2d(
                arg(0)?,
                &window("kernel_shape", vec![])?,
                &window("strides", vec![1, 1])?,
                &window("pads", vec![0; 4])?,
                &window("dilations", vec![1, 1])?,
                attr_bool(ctx, op, "ceil_mode"),
                attr_bool(ctx, op, "count_include_pad"),
            )
            .map_err(kerr)?,
            "graph.global_avg_pool" => k::global_avg_pool(arg(0)?).map_err(kerr)?,
            "graph.global_max_pool" => k::global_max_pool(arg(0)?).map_err(kerr)?,
            "graph.softmax" => k::softmax(arg(0)?, i64a("axis").unwrap_or(-1)).map_err(kerr)?,
            "graph.log_softmax" => {
                k::log_softmax(arg(0)?, i64a("axis").unwrap_or(-1)).map_err(kerr)?
            }
            "graph.layer_norm" => k::layer_norm(
                arg(0)?,
                arg(1)?,
                x.get(2).copied(),
                i64a("axis").unwrap_or(-1),
                attr_f64(ctx, op, "epsilon").unwrap_or(1e-5),
            )
            .map_err(kerr)?,
            "graph.rms_norm" => k::rms_norm(
                arg(0)?,
                arg(1)?,
                i64a("axis").unwrap_or(-1),
                attr_f64(ctx, op, "epsilon").unwrap_or(1e-5),
            )
            .map_err(kerr)?,
            "graph.batch_norm" => k::batch_norm(
                arg(0)?,
                arg(1)?,
                arg(2)?,
                arg(3)?,
                arg(4)?,
                attr_f64(ctx, op, "epsilon").unwrap_or(1e-5),
            )
            .map_err(kerr)?,
            "graph.reduce_sum" => reduce(ReduceOp::Sum)?,
            "graph.reduce_mean" => reduce(ReduceOp::Mean)?,
            "graph.reduce_max" => reduce(ReduceOp::Max)?,
            "graph.reduce_min" => reduce(ReduceOp::Min)?,
            "graph.reduce_prod" => reduce(ReduceOp::Prod)?,
            "graph.reduce_sum_square" => reduce(ReduceOp::SumSquare)?,
            "graph.reduce_l1" => reduce(ReduceOp::L1)?,
            "graph.reduce_l2" => reduce(ReduceOp::L2)?,
            "graph.reduce_log_sum_exp" => reduce(ReduceOp::LogSumExp)?,
            "graph.argmax" | "graph.argmin" => {
                let f = if name == "graph.argmax" {
                    k::argmax
                } else {
                    k::argmin
                };
                f(
                    arg(0)?,
                    i64a("axis").unwrap_or(0),
                    attr_bool(ctx, op, "keepdims"),
                    attr_bool(ctx, op, "select_last_index"),
                )
                .map_err(kerr)?
            }
            "graph.reshape" => {
                let input = arg(0)?;
                let target =
                    reshape_target(input.shape(), &ints(1)?, attr_bool(ctx, op, "allowzero"))?;
                k::reshape(input, &target).map_err(kerr)?
            }
            "graph.transpose" => {
                let input = arg(0)?;
                let perm = match attr_i64_array(ctx, op, "perm") {
                    Some(p) => usizes(&p, "perm")?,
                    None => (0..input.rank()).rev().collect(),
                };
                k::transpose(input, &perm).map_err(kerr)?
            }
            "graph.expand" => {
                let input = arg(0)?;
                let shape = usizes(&ints(1)?, "shape")?;
                let out = k::broadcast_shapes(input.shape(), &shape).map_err(kerr)?;
                check_size(&out, input.dtype(), limits.max_bytes)?;
                k::expand(input, &shape).map_err(kerr)?
            }
            "graph.tile" => {
                let input = arg(0)?;
                let repeats = usizes(&ints(1)?, "repeats")?;
                let out: Vec<usize> = input
                    .shape()
                    .iter()
                    .zip(&repeats)
                    .map(|(&d, &r)| d.saturating_mul(r))
                    .collect();
                check_size(&out, input.dtype(), limits.max_bytes)?;
                k::tile(input, &repeats).map_err(kerr)?
            }
            "graph.concat" => {
                let refs: Vec<&Tensor> = x.clone();
                k::concat(&refs, i64a("axis").ok_or("has no axis")?).map_err(kerr)?
            }
            "graph.split" => {
                let input = arg(0)?;
                let n = self.ctx.results(op).count();
                let axis = i64a("axis").unwrap_or(0);
                let rank = input.rank() as i64;
                let a = if axis < 0 { axis + rank } else { axis };
                let dim = usize::try_from(a)
                    .ok()
                    .and_then(|a| input.shape().get(a).copied())
                    .ok_or_else(|| format!("axis {axis} is out of range for rank {rank}"))?;
                let sizes = match x.get(1).copied() {
                    Some(s) => usizes(&s.to_i64_vec(), "split sizes")?,
                    None => {
                        let part = dim.div_ceil(n.max(1));
                        (0..n)
                            .map(|i| dim.saturating_sub(i * part).min(part))
                            .collect()
                    }
                };
                return k::split(input, axis, &sizes).map_err(kerr);
            }
            "graph.slice" => {
                let starts = ints(1)?;
                let ends = ints(2)?;
                let axes = match opt(3) {
                    Some(t) => t.to_i64_vec(),
                    None => (0..starts.len() as i64).collect(),
                };
                let steps = match opt(4) {
                    Some(t) => t.to_i64_vec(),
                    None => vec![1; starts.len()],
                };
                k::slice(arg(0)?, &starts, &ends, &axes, &steps).map_err(kerr)?
            }
            "graph.gather" => {
                // The indices may repeat large slices: bound the result first.
                let (data, idx) = (arg(0)?, arg(1)?);
                let axis = i64a("axis").unwrap_or(0);
                let r = data.rank() as i64;
                if let Some(a) = usize::try_from(if axis < 0 { axis + r } else { axis })
                    .ok()
                    .filter(|&a| a < data.rank())
                {
                    let mut shape = data.shape()[..a].to_vec();
                    shape.extend_from_slice(idx.shape());
                    shape.extend_from_slice(&data.shape()[a + 1..]);
                    check_size(&shape, data.dtype(), limits.max_bytes)?;
                }
                k::gather(data, idx, axis).map_err(kerr)?
            }
            "graph.squeeze" => {
                let input = arg(0)?;
                let rank = input.rank() as i64;
                let axes: Vec<usize> = match x.get(1).copied() {
                    Some(a) => a
                        .to_i64_vec()
                        .iter()
                        .map(|&a| norm(a, rank))
                        .collect::<Result<_, _>>()?,
                    None => (0..input.rank())
                        .filter(|&i| input.shape()[i] == 1)
                        .collect(),
                };
                for &a in &axes {
                    if input.shape()[a] != 1 {
                        return Err(format!(
                            "cannot squeeze dimension {a} of size {}",
                            input.shape()[a]
                        ));
                    }
                }
                let shape: Vec<usize> = (0..input.rank())
                    .filter(|i| !axes.contains(i))
                    .map(|i| input.shape()[i])
                    .collect();
                k::reshape(input, &shape).map_err(kerr)?
            }
            "graph.unsqueeze" => {
                let input = arg(0)?;
                let axes = ints(1)?;
                let rank = (input.rank() + axes.len()) as i64;
                let axes: Vec<usize> = axes
                    .iter()
                    .map(|&a| norm(a, rank))
                    .collect::<Result<_, _>>()?;
                if (1..axes.len()).any(|i| axes[..i].contains(&axes[i])) {
                    return Err(format!("axes {axes:?} repeat an axis"));
                }
                let mut rest = input.shape().iter();
                let shape: Vec<usize> = (0..rank as usize)
                    .map(|i| {
                        if axes.contains(&i) {
                            1
                        } else {
                            rest.next().copied().unwrap_or(1)
                        }
                    })
                    .collect();
                k::reshape(input, &shape).map_err(kerr)?
            }
            "graph.flatten" => {
                let input = arg(0)?;
                let rank = input.rank() as i64;
                let axis = i64a("axis").unwrap_or(1);
                let a = if axis < 0 { axis + rank } else { axis };
                if a < 0 || a > rank {
                    return Err(format!("axis {axis} is out of range for rank {rank}"));
                }
                let (outer, inner) = input.shape().split_at(a as usize);
                k::reshape(input, &[outer.iter().product(), inner.iter().product()])
                    .map_err(kerr)?
            }
            "graph.pad" => {
                let mode = match attr_str(ctx, op, "mode").as_deref().unwrap_or("constant") {
                    "constant" => k::PadMode::Constant(
                        opt(2)
                            .and_then(|t| t.to_f64_vec().first().copied())
                            .unwrap_or(0.0),
                    ),
                    "reflect" => k::PadMode::Reflect,
                    "edge" => k::PadMode::Edge,
                    "wrap" => k::PadMode::Wrap,
                    other => return Err(format!("unknown pad mode '{other}'")),
                };
                let (input, given) = (arg(0)?, ints(1)?);
                let rank = input.rank();
                // With axes, pads lists the amounts of those axes only.
                let pads = match opt(3) {
                    None => given,
                    Some(axes) => {
                        let axes = axes.to_i64_vec();
                        if given.len() != 2 * axes.len() {
                            return Err(format!(
                                "pads has {} entries but {} axes are padded",
                                given.len(),
                                axes.len()
                            ));
                        }
                        let mut full = vec![0; 2 * rank];
                        for (i, &a) in axes.iter().enumerate() {
                            let a = norm(a, rank as i64)?;
                            full[a] = given[i];
                            full[a + rank] = given[i + axes.len()];
                        }
                        full
                    }
                };
                if pads.len() == 2 * rank {
                    let out: Vec<usize> = (0..rank)
                        .map(|i| {
                            let n = input.shape()[i] as i128
                                + i128::from(pads[i])
                                + i128::from(pads[i + rank]);
                            usize::try_from(n.max(0)).unwrap_or(usize::MAX)
                        })
                        .collect();
                    check_size(&out, input.dtype(), limits.max_bytes)?;
                }
                k::pad(input, &pads, mode).map_err(kerr)?
            }
            "graph.shape_of" => {
                let shape: Vec<i64> = arg(0)?.shape().iter().map(|&d| d as i64).collect();
                let r = shape.len() as i64;
                let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
                let start = clamp(i64a("start").unwrap_or(0));
                let end = clamp(i64a("end").unwrap_or(r));
                let dims = shape.get(start..end.max(start)).unwrap_or(&[]).to_vec();
                Tensor::from_i64_vec(DType::I64, &[dims.len()], &dims)
            }
            "graph.size" => Tensor::scalar_i64(DType::I64, arg(0)?.len() as i64),
            "graph.constant_of_shape" => {
                let shape = usizes(&ints(0)?, "shape")?;
                let (dtype, v) = match strata_ir::ods::inherent_attr(ctx, op, "value") {
                    Some(a) => {
                        let t = attr_tensor(ctx, a)?;
                        (t.dtype(), t)
                    }
                    None => (DType::F32, Tensor::scalar_f64(DType::F32, 0.0)),
                };
                check_size(&shape, dtype, limits.max_bytes)?;
                let scalar = k::reshape(&v, &[]).map_err(kerr)?;
                k::expand(&scalar, &shape).map_err(kerr)?
            }
            "graph.range" => {
                let s = |i: usize| arg(i).map(|t| t.to_f64_vec().first().copied().unwrap_or(0.0));
                let dtype = self.result_dtype(op, 0)?;
                if dtype.is_float() {
                    let (start, limit, delta) = (s(0)?, s(1)?, s(2)?);
                    let n = ((limit - start) / delta).ceil();
                    if n.is_finite() && n > 0.0 {
                        check_size(
                            &[n.min(usize::MAX as f64) as usize],
                            dtype,
                            limits.max_bytes,
                        )?;
                    }
                    k::range(start, limit, delta, dtype).map_err(kerr)?
                } else {
                    let g = |i: usize| arg(i).map(|t| t.to_i64_vec().first().copied().unwrap_or(0));
                    let (start, limit, delta) = (g(0)?, g(1)?, g(2)?);
                    if delta == 0 {
                        return Err("delta cannot be 0".into());
                    }
                    let (wide_start, wide_delta) = (i128::from(start), i128::from(delta));
                    let n = ((i128::from(limit) - wide_start + wide_delta - wide_delta.signum())
                        / wide_delta)
                        .max(0);
                    check_size(
                        &[usize::try_from(n).unwrap_or(usize::MAX)],
                        dtype,
                        limits.max_bytes,
                    )?;
                    // Every value lies between start and limit, so it fits.
                    let vals: Vec<i64> = (0..n)
                        .map(|i| (wide_start + i * wide_delta) as i64)
                        .collect();
                    Tensor::from_i64_vec(dtype, &[vals.len()], &vals)
                }
            }
            "graph.attention" => {
                let (q, key) = (arg(0)?, arg(1)?);
                // The scores [..., L, S] (in f64) can be far larger than the
                // result [..., L, Ev].
                if q.rank() >= 2 && key.rank() >= 2 {
                    let (qr, kr) = (q.rank(), key.rank());
                    // The larger of each aligned batch dimension: broadcasting,
                    // and grouped-query heads repeated up to q's count.
                    let (qb, kb) = (&q.shape()[..qr - 2], &key.shape()[..kr - 2]);
                    let n = qb.len().max(kb.len());
                    let at =
                        |b: &[usize], i: usize| (i + b.len()).checked_sub(n).map_or(1, |j| b[j]);
                    let mut scores: Vec<usize> = (0..n).map(|i| at(qb, i).max(at(kb, i))).collect();
                    {
                        scores.push(q.shape()[qr - 2]);
                        scores.push(key.shape()[kr - 2]);
                        if check_size(&scores, DType::F64, limits.max_bytes).is_err() {
                            return Err(format!(
                                "needs attention scores of shape {scores:?}, larger than the interpreter's limit of {} bytes",
                                limits.max_bytes
                            ));
                        }
                    }
                }
                k::attention(
                    q,
                    key,
                    arg(2)?,
                    x.get(3).copied(),
                    attr_f64(ctx, op, "scale"),
                    attr_bool(ctx, op, "is_causal"),
                )
                .map_err(kerr)?
            }
            "graph.custom" => {
                let cname = attr_str(ctx, op, "name").ok_or("has no name")?;
                let version = i64a("version").unwrap_or(1);
                let kernel = ctx
                    .registry()
                    .extension::<CustomKernels>()
                    .and_then(|r| r.get(&cname, version))
                    .ok_or_else(|| format!("custom op '{cname}' version {version} has no registered implementation"))?;
                let config = strata_ir::ods::inherent_attr(ctx, op, "config");
                let inputs: Vec<Tensor> = x.iter().map(|&t| t.clone()).collect();
                return kernel(ctx, config, &inputs)
                    .map_err(|m| format!("custom op '{cname}': {m}"));
            }
            _ => {
                return Err(format!(
                    "cannot be evaluated: the interpreter does not know '{name}'"
                ))
            }
        };
        Ok(vec![out])
    }
}

/// Both operands broadcast to their common shape.
fn broadcast_pair(a: &Tensor, b: &Tensor) -> Result<(Vec<usize>, Tensor, Tensor), String> {
    let shape = k::broadcast_shapes(a.shape(), b.shape()).map_err(kerr)?;
    let x = k::broadcast_to(a, &shape).map_err(kerr)?;
    let y = k::broadcast_to(b, &shape).map_err(kerr)?;
    Ok((shape, x, y))
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

/// Runs `op`'s shape function on the concrete operand shapes (and the
/// values of small integer operands) and refuses, before any kernel runs,
/// a result larger than `max_bytes`: broadcasting, gathers and shapes
/// computed from values can ask for far more than the operands hold. A
/// shape function that rejects the operands is left to the kernel, which
/// reports the problem in its own words.
fn check_result_sizes(
    ctx: &Context,
    op: Operation,
    operands: &[Rc<Tensor>],
    max_bytes: usize,
) -> Result<(), String> {
    use strata_dialects::graph::infer::{infer_with, OperandInfo};
    use strata_dialects::graph::shape::{Dim, Shape};
    let infos: Option<Vec<OperandInfo>> = ctx
        .operands(op)
        .zip(operands)
        .map(|(v, t)| {
            let (_, elem) = strata_dialects::graph::shape::shape_of(ctx, ctx.value_type(v))?;
            let small = t.dtype().is_int() && t.rank() <= 1 && t.len() <= 1024;
            let value = small.then(|| t.to_i64_vec());
            Some(OperandInfo {
                shape: Shape::of(&t.shape().iter().map(|&d| d as i64).collect::<Vec<_>>()),
                elem,
                sizes: value
                    .as_ref()
                    .map(|v| v.iter().map(|&d| Dim::Known(d)).collect()),
                value,
            })
        })
        .collect();
    let Some(infos) = infos else {
        return Ok(());
    };
    let Some(Ok(results)) = infer_with(ctx, op, &infos) else {
        return Ok(());
    };
    for ((shape, _), r) in results.iter().zip(ctx.results(op)) {
        let Some(dims) = shape.dims() else { continue };
        let Some(dims) = dims
            .iter()
            .map(|d| d.known().and_then(|n| usize::try_from(n).ok()))
            .collect::<Option<Vec<usize>>>()
        else {
            continue;
        };
        let dtype = type_info(ctx, ctx.value_type(r)).map_or(DType::F64, |(d, _)| d);
        check_size(&dims, dtype, max_bytes)?;
    }
    Ok(())
}

/// Refuses to create a tensor of `shape` larger than `max_bytes`.
fn check_size(shape: &[usize], dtype: DType, max_bytes: usize) -> Result<(), String> {
    let ok = shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .is_some_and(|n| n.saturating_mul(dtype.byte_size()) <= max_bytes);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "result of shape {shape:?} is larger than the interpreter's limit of {max_bytes} bytes"
        ))
    }
}

fn norm(a: i64, rank: i64) -> Result<usize, String> {
    let n = if a < 0 { a + rank } else { a };
    if n < 0 || n >= rank {
        return Err(format!("axis {a} is out of range for rank {rank}"));
    }
    Ok(n as usize)
}

/// The concrete target shape of a reshape (ONNX's `0` and `-1`).
pub fn reshape_target(
    input: &[usize],
    target: &[i64],
    allowzero: bool,
) -> Result<Vec<usize>, String> {
    let total: usize = input.iter().product();
    let mut out = Vec::with_capacity(target.len());
    let mut infer = None;
    for (i, &t) in target.iter().enumerate() {
        out.push(match t {
            -1 => {
                if infer.replace(i).is_some() {
                    return Err("shape has more than one -1".into());
                }
                1
            }
            0 if !allowzero => *input.get(i).ok_or_else(|| {
                format!(
                    "shape copies dimension {i} but the input has rank {}",
                    input.len()
                )
            })?,
            t if t < 0 => return Err(format!("shape has the invalid size {t}")),
            t => t as usize,
        });
    }
    if let Some(i) = infer {
        let known = out
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
            .ok_or_else(|| format!("shape {target:?} is too large"))?;
        if known == 0 || !total.is_multiple_of(known) {
            return Err(format!("cannot reshape {input:?} into {target:?}"));
        }
        out[i] = total / known;
    }
    Ok(out)
}
