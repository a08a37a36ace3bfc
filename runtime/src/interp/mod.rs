//! The reference interpreter: evaluates `graph`, `func`, `arith`, `math`
//! and `scf` ops op by op on host tensors (the `eager` exe mode, and the
//! numerical oracle of every later stage).
//!
//! Scalars (`f32`, `i64`, `index`, ...) are 0-D tensors; `index` is `i64`.
//! Errors (a shape or dtype that does not fit at run time, an op the
//! interpreter cannot run) are [`InterpError`]s located at the op, never
//! panics.
//!
//! This module runs functions, blocks and calls; each `graph` op kind has
//! its own evaluation function in one table keyed by the ops' name
//! constants (`graph`, with the neural-network ops in `graph_nn` and the
//! shape and indexing ops in `graph_shape`; [`has_reference_evaluation`]
//! says whether an op has one), the `graph` control flow in
//! `graph_control`, `arith` and `math` are evaluated in `scalar`, `scf`
//! in `scf`, the sequence and optional ops in `graph_sequence`. A value
//! is a tensor, a sequence or an optional ([`Datum`]); the ops of other
//! dialects take and make tensors only.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use strata_ir::attributes::AttrKind;
use strata_ir::float::FloatKind;
use strata_ir::types::{Signedness, TypeKind};
use strata_ir::{Attribute, Block, Context, Operation, Type, Value};

use crate::kernels as k;
use crate::{DType, Datum, KernelError, Tensor};

mod graph;
mod graph_control;
mod graph_nn;
mod graph_recurrent;
mod graph_sequence;
mod graph_shape;
mod graph_strings;
mod scalar;
mod scf;
mod tensor;

pub use graph::has_reference_evaluation;

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
            FloatKind::F8E4M3FN => Some(DType::F8E4M3FN),
            FloatKind::F8E4M3FNUZ => Some(DType::F8E4M3FNUZ),
            FloatKind::F8E5M2 => Some(DType::F8E5M2),
            FloatKind::F8E5M2FNUZ => Some(DType::F8E5M2FNUZ),
            FloatKind::F4E2M1FN => Some(DType::F4E2M1),
            FloatKind::F8E8M0FNU => Some(DType::F8E8M0),
            _ => None,
        },
        TypeKind::Integer { width, signedness } => {
            let unsigned = *signedness == Signedness::Unsigned;
            match (width, unsigned) {
                (1, _) => Some(DType::I1),
                (2, false) => Some(DType::I2),
                (2, true) => Some(DType::U2),
                (4, false) => Some(DType::I4),
                (4, true) => Some(DType::U4),
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
                d => match crate::narrow::float_kind(d) {
                    Some(kind) => strata_ir::float::to_f64(kind, *bits),
                    None => return Err("unsupported float type".into()),
                },
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
    let inputs = inputs.into_iter().map(Datum::Tensor).collect();
    let outputs = run_function_values(ctx, func, inputs, limits)?;
    outputs
        .into_iter()
        .enumerate()
        .map(|(i, d)| {
            d.into_tensor().map_err(|d| InterpError {
                location: strata_ir::diagnostics::describe_location(ctx, ctx.op_loc(func)),
                op: ctx.op_name_str(func).to_string(),
                message: format!(
                    "result #{i} is a {}, not a tensor (run it with run_function_values)",
                    d.kind()
                ),
            })
        })
        .collect()
}

/// Runs `func` on inputs that may be sequences or optionals as well as
/// tensors, within `limits`.
pub fn run_function_values(
    ctx: &Context,
    func: Operation,
    inputs: Vec<Datum>,
    limits: Limits,
) -> Result<Vec<Datum>, InterpError> {
    let outputs = Interpreter {
        ctx,
        depth: 0,
        limits,
        points: Vec::new(),
    }
    .call(func, inputs.into_iter().map(Slot::from_datum).collect())?;
    Ok(outputs.into_iter().map(Slot::into_datum).collect())
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
        points: Vec::new(),
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
    /// The points of the `tensor.map`s being evaluated (innermost last),
    /// which `tensor.index` reads.
    points: Vec<Vec<i64>>,
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

/// The value of an IR value while the interpreter runs: tensors (the
/// common case) are shared so that operands and nested regions do not copy
/// them.
#[derive(Clone, Debug)]
enum Slot {
    Tensor(Rc<Tensor>),
    /// A sequence: its tensors are shared too, so that inserting into or
    /// erasing from a sequence copies no element.
    Seq(Rc<Vec<Rc<Tensor>>>),
    /// An optional.
    Other(Rc<Datum>),
}

impl Slot {
    fn from_datum(d: Datum) -> Slot {
        match d {
            Datum::Tensor(t) => Slot::Tensor(Rc::new(t)),
            Datum::Sequence(items) => Slot::Seq(Rc::new(items.into_iter().map(Rc::new).collect())),
            d => Slot::Other(Rc::new(d)),
        }
    }

    fn into_datum(self) -> Datum {
        match self {
            Slot::Tensor(t) => Datum::Tensor(Rc::unwrap_or_clone(t)),
            Slot::Seq(items) => Datum::Sequence(
                Rc::unwrap_or_clone(items)
                    .into_iter()
                    .map(Rc::unwrap_or_clone)
                    .collect(),
            ),
            Slot::Other(d) => Rc::unwrap_or_clone(d),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Slot::Tensor(_) => "tensor",
            Slot::Seq(_) => "sequence",
            Slot::Other(d) => d.kind(),
        }
    }

    /// The tensor, or a message that `what` is not one.
    fn tensor(&self, what: &str) -> Result<&Rc<Tensor>, String> {
        match self {
            Slot::Tensor(t) => Ok(t),
            other => Err(format!(
                "{what} must be a tensor, but is a {}",
                other.kind()
            )),
        }
    }

    /// [`Slot::tensor`], taken out of the slot.
    fn into_tensor(self, what: &str) -> Result<Tensor, String> {
        match self {
            Slot::Tensor(t) => Ok(Rc::unwrap_or_clone(t)),
            other => Err(format!(
                "{what} must be a tensor, but is a {}",
                other.kind()
            )),
        }
    }
}

impl From<Tensor> for Slot {
    fn from(t: Tensor) -> Slot {
        Slot::Tensor(Rc::new(t))
    }
}

/// The values computed so far.
type Env = HashMap<Value, Slot>;

enum Flow {
    Continue,
    /// A terminator's operands (`func.return`, `scf.yield`, `scf.condition`).
    Exit(Vec<Slot>),
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

    fn call(&mut self, func: Operation, inputs: Vec<Slot>) -> Result<Vec<Slot>, InterpError> {
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
        for (i, (&arg, v)) in args.iter().zip(&inputs).enumerate() {
            self.check_slot(func, self.ctx.value_type(arg), v, &format!("input #{i}"))?;
        }
        let mut env: Env = args.into_iter().zip(inputs).collect();
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
        match shape {
            Some(shape) => self.check_shape(op, ty, &shape, t.shape(), what),
            None => Ok(()),
        }
    }

    /// Checks a value's `actual` shape against the declared `shape` of its
    /// type `ty` (`DYNAMIC` sizes match any).
    fn check_shape(
        &self,
        op: Operation,
        ty: Type,
        shape: &[i64],
        actual: &[usize],
        what: &str,
    ) -> Result<(), InterpError> {
        let ok = shape.len() == actual.len()
            && shape
                .iter()
                .zip(actual)
                .all(|(&d, &n)| d == strata_ir::types::DYNAMIC || d == n as i64);
        if !ok {
            return Err(self.error(
                op,
                format!(
                    "{what} must have shape {}, but has shape {actual:?}",
                    strata_ir::printer::type_to_string(self.ctx, ty),
                ),
            ));
        }
        Ok(())
    }

    /// Checks a value against a declared type: a tensor as
    /// [`Self::check_type`]; a sequence's elements against its element
    /// type; an optional's value against its element type.
    fn check_slot(&self, op: Operation, ty: Type, v: &Slot, what: &str) -> Result<(), InterpError> {
        match v {
            Slot::Tensor(t) => self.check_tensor_value(op, ty, t, what),
            Slot::Seq(items) => self.check_sequence(op, ty, items.iter().map(|t| &**t), what),
            Slot::Other(d) => self.check_datum(op, ty, d, what),
        }
    }

    /// Checks a sequence's elements against the element type of `ty`
    /// (which must be a sequence type).
    fn check_sequence<'t>(
        &self,
        op: Operation,
        ty: Type,
        items: impl Iterator<Item = &'t Tensor>,
        what: &str,
    ) -> Result<(), InterpError> {
        let element =
            strata_dialects::graph::types::seq_element(self.ctx, ty).ok_or_else(|| {
                self.error(
                    op,
                    format!(
                        "{what} must be a {}, but is a sequence",
                        strata_ir::printer::type_to_string(self.ctx, ty)
                    ),
                )
            })?;
        for (i, t) in items.enumerate() {
            self.check_type(op, element, t, &format!("element #{i} of {what}"))?;
        }
        Ok(())
    }

    /// [`Self::check_type`] where `ty` may also be a sequence or optional
    /// type, which a tensor is not.
    fn check_tensor_value(
        &self,
        op: Operation,
        ty: Type,
        t: &Tensor,
        what: &str,
    ) -> Result<(), InterpError> {
        if (!strata_dialects::graph::types::is_tensor(self.ctx, ty)
            && type_info(self.ctx, ty).is_none())
            || strata_dialects::graph::types::is_string_tensor(self.ctx, ty)
        {
            return Err(self.error(
                op,
                format!(
                    "{what} must be a {}, but is a tensor",
                    strata_ir::printer::type_to_string(self.ctx, ty)
                ),
            ));
        }
        self.check_type(op, ty, t, what)
    }

    fn check_datum(
        &self,
        op: Operation,
        ty: Type,
        d: &Datum,
        what: &str,
    ) -> Result<(), InterpError> {
        use strata_dialects::graph::types::opt_element;
        let mismatch = || {
            self.error(
                op,
                format!(
                    "{what} must be a {}, but is a {}",
                    strata_ir::printer::type_to_string(self.ctx, ty),
                    d.kind()
                ),
            )
        };
        match d {
            Datum::Tensor(t) => self.check_tensor_value(op, ty, t, what),
            Datum::Sequence(items) => self.check_sequence(op, ty, items.iter(), what),
            Datum::Optional(inner) => {
                let element = opt_element(self.ctx, ty).ok_or_else(mismatch)?;
                match inner {
                    Some(inner) => self.check_datum(op, element, inner, what),
                    None => Ok(()),
                }
            }
            Datum::Strings(t) => {
                if !strata_dialects::graph::types::is_string_tensor(self.ctx, ty) {
                    return Err(mismatch());
                }
                match self.ctx.type_kind(ty).shape() {
                    Some(shape) => self.check_shape(op, ty, shape, t.shape(), what),
                    None => Ok(()),
                }
            }
        }
    }

    fn run_block(&mut self, block: Block, env: &mut Env) -> Result<Flow, InterpError> {
        let ops: Vec<Operation> = self.ctx.block_ops(block).collect();
        for op in ops {
            let operands: Vec<Slot> = self
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
                "func.return" | "scf.yield" | "scf.condition" | "tensor.yield" | "graph.yield" => {
                    return Ok(Flow::Exit(operands))
                }
                _ => {}
            }
            let results = self.eval_values(op, name, operands, env)?;
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
                self.check_slot(op, self.ctx.value_type(v), &t, &format!("result #{i}"))?;
                env.insert(v, t);
            }
        }
        Ok(Flow::Continue)
    }

    /// Runs region `index` of `op` on tensor arguments; its yielded values
    /// must be tensors.
    fn run_region(
        &mut self,
        op: Operation,
        index: usize,
        args: Vec<Tensor>,
        env: &Env,
    ) -> Result<Vec<Tensor>, InterpError> {
        self.run_region_shared(op, index, args.into_iter().map(Rc::new).collect(), env)
    }

    /// [`Self::run_region`] with shared arguments (a whole tensor passed
    /// to each point of a `tensor.map` is not copied).
    fn run_region_shared(
        &mut self,
        op: Operation,
        index: usize,
        args: Vec<Rc<Tensor>>,
        env: &Env,
    ) -> Result<Vec<Tensor>, InterpError> {
        let args = args.into_iter().map(Slot::Tensor).collect();
        let out = self.run_region_values(op, index, args, env)?;
        out.into_iter()
            .enumerate()
            .map(|(i, v)| {
                v.into_tensor(&format!("yielded value #{i}"))
                    .map_err(|m| self.error(op, m))
            })
            .collect()
    }

    /// Runs region `index` of `op` on `args`, with the values of `env` in
    /// scope; returns what its terminator yields.
    fn run_region_values(
        &mut self,
        op: Operation,
        index: usize,
        args: Vec<Slot>,
        env: &Env,
    ) -> Result<Vec<Slot>, InterpError> {
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
        inner.extend(block_args.into_iter().zip(args));
        match self.run_block(block, &mut inner)? {
            Flow::Exit(v) => Ok(v),
            Flow::Continue => Ok(Vec::new()),
        }
    }

    /// Evaluates `op` on values of any kind: the sequence and optional
    /// ops, control flow and calls here; every other op takes tensors.
    fn eval_values(
        &mut self,
        op: Operation,
        name: &str,
        x: Vec<Slot>,
        env: &Env,
    ) -> Result<Vec<Slot>, InterpError> {
        if graph_sequence::is_sequence_op(name) {
            return self.eval_sequence(op, name, x);
        }
        if graph_strings::is_string_op(name) {
            return graph_strings::eval(self.ctx, op, name, &x).map_err(|m| self.error(op, m));
        }
        if graph_control::is_control_flow(name) {
            return self.eval_graph_control(op, name, x, env);
        }
        if name == "func.call" {
            return self.eval_call(op, x);
        }
        let tensors = x
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                v.tensor(&format!("operand #{i}"))
                    .cloned()
                    .map_err(|m| self.error(op, m))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let out = self.eval(op, name, tensors, env)?;
        Ok(out.into_iter().map(Slot::from).collect())
    }

    fn eval_call(&mut self, op: Operation, x: Vec<Slot>) -> Result<Vec<Slot>, InterpError> {
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
        while let Some(m) = module.filter(|&m| self.ctx.op_name_str(m) != "builtin.module") {
            module = self.ctx.op_parent_op(m);
        }
        let module = module.ok_or_else(|| self.error(op, "is not inside a module"))?;
        let f = lookup_function(self.ctx, module, &callee)
            .ok_or_else(|| self.error(op, format!("calls '@{callee}', which is not defined")))?;
        self.call(f, x)
    }

    fn eval(
        &mut self,
        op: Operation,
        name: &str,
        x: Vec<Rc<Tensor>>,
        env: &Env,
    ) -> Result<Vec<Tensor>, InterpError> {
        let r = match name.split_once('.').map(|(d, _)| d) {
            Some("graph") => graph::eval(self.ctx, op, name, &x, self.limits),
            Some("arith") | Some("math") => self.eval_scalar(op, name, &x),
            Some("scf") => return self.eval_scf(op, name, x, env),
            Some("tensor") => return self.eval_tensor(op, name, x, env),
            _ => Err(format!(
                "cannot be evaluated: the interpreter does not know '{name}'"
            )),
        };
        r.map_err(|m| self.error(op, m))
    }
}

/// The dtype of result `i` of `op`.
fn result_dtype(ctx: &Context, op: Operation, i: usize) -> Result<DType, String> {
    let v = ctx.results(op).nth(i).ok_or("missing result")?;
    type_info(ctx, ctx.value_type(v))
        .map(|(d, _)| d)
        .ok_or_else(|| "result has an unsupported element type".into())
}

/// Both operands broadcast to their common shape.
fn broadcast_pair(a: &Tensor, b: &Tensor) -> Result<(Vec<usize>, Tensor, Tensor), String> {
    let shape = k::broadcast_shapes(a.shape(), b.shape()).map_err(kerr)?;
    let x = k::broadcast_to(a, &shape).map_err(kerr)?;
    let y = k::broadcast_to(b, &shape).map_err(kerr)?;
    Ok((shape, x, y))
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
