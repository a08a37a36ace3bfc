//! Builders beyond the ones `#[op]` writes: a `func.func` with its entry
//! block, and `graph` ops with the result types their shape functions
//! infer (the `InferResultTypes` implementation behind each `graph` op's
//! `build_inferred`, and [`build_graph_op`] for an op named at run time).
//!
//! ```
//! use strata_dialects::func::{FuncOp, ReturnOp};
//! use strata_dialects::graph::ReluOp;
//! use strata_ir::{Context, ModuleOp};
//!
//! let mut ctx = Context::new();
//! strata_dialects::register_all(&mut ctx);
//! let loc = ctx.unknown_loc();
//! let f32 = ctx.float_type(strata_ir::float::FloatKind::F32);
//! let t = ctx.tensor_type(vec![2, 3], f32);
//!
//! let module = ModuleOp::build(&mut ctx, loc, None);
//! let func = FuncOp::build_with_entry_block(&mut ctx, loc, "relu", &[t], &[t]);
//! module.push(&mut ctx, func.op());
//! let entry = func.entry_block(&ctx).expect("an entry block");
//! let x = ctx.block_args(entry).next().expect("one argument");
//! let relu = ReluOp::build_inferred(&mut ctx, loc, x).expect("a tensor operand");
//! ctx.append_op(entry, relu.op());
//! let y = ctx.result(relu.op(), 0);
//! assert_eq!(ctx.value_type(y), t);
//! let ret = ReturnOp::build(&mut ctx, loc, &[y]);
//! ctx.append_op(entry, ret.op());
//! assert!(strata_ir::verifier::verify(&ctx, module.op()).is_ok());
//! ```

use strata_ir::interfaces::InferResultTypes;
use strata_ir::ods::InferError;
use strata_ir::{
    Attribute, Block, Context, Location, Operation, OperationState, Type, TypeKind, Value,
};

use crate::func::FuncOp;
use crate::graph::infer::{operand_info, result_type, OperandInfo, ResultElem, ShapeFunction};

impl FuncOp {
    /// Create `func.func @name(inputs) -> results` (detached) with an entry
    /// block whose arguments have the input types (MLIR's
    /// `FuncOp::create` followed by `addEntryBlock`); the body is left
    /// without a terminator for the caller to fill.
    pub fn build_with_entry_block(
        ctx: &mut Context,
        loc: Location,
        name: &str,
        inputs: &[Type],
        results: &[Type],
    ) -> FuncOp {
        let ty = ctx.function_type(inputs.to_vec(), results.to_vec());
        let sym_name = ctx.string_attr(name);
        let function_type = ctx.type_attr(ty);
        let func = FuncOp::build(ctx, loc, sym_name, function_type, None, None, None, None);
        func.add_entry_block(ctx);
        func
    }

    /// Add the entry block (arguments of the function type's input types,
    /// at the function's location) when the body has no block yet; returns
    /// the entry block, `None` when the function type is missing or not a
    /// function type.
    pub fn add_entry_block(self, ctx: &mut Context) -> Option<Block> {
        let region = self.body(ctx)?;
        if let Some(entry) = ctx.region_entry_block(region) {
            return Some(entry);
        }
        let (inputs, _) = crate::func::function_signature(ctx, self.op())?;
        let loc = ctx.op_loc(self.op());
        let block = ctx.create_block();
        for ty in inputs {
            ctx.add_block_argument(block, ty, loc);
        }
        ctx.append_block(region, block);
        Some(block)
    }

    /// The entry block of the body, if it has one.
    pub fn entry_block(self, ctx: &Context) -> Option<Block> {
        ctx.region_entry_block(self.body(ctx)?)
    }

    /// The entry block's arguments (the function's parameters).
    pub fn arguments(self, ctx: &Context) -> Vec<Value> {
        self.entry_block(ctx)
            .map(|b| ctx.block_args(b).collect())
            .unwrap_or_default()
    }
}

/// The placeholder result type of a `graph` op being inferred: an unranked
/// tensor of `element`.
fn placeholder(ctx: &mut Context, element: Option<Type>) -> Type {
    let element = element.unwrap_or_else(|| ctx.float_type(strata_ir::float::FloatKind::F32));
    ctx.intern_type(TypeKind::UnrankedTensor { element })
}

/// The operand information of `op`'s operands; an error names an operand
/// that is not a tensor.
fn operand_infos(ctx: &Context, op: Operation) -> Result<Vec<OperandInfo>, String> {
    ctx.operands(op)
        .enumerate()
        .map(|(i, v)| operand_info(ctx, v).ok_or_else(|| format!("operand #{i} is not a tensor")))
        .collect()
}

/// The result types `f` infers for `op`; a result whose element type is
/// the declared one (`graph.cast`) takes the element type of `op`'s result
/// as created when `declared` allows it, and is an error otherwise.
fn infer_types(
    ctx: &mut Context,
    f: &ShapeFunction,
    op: Operation,
    declared: bool,
) -> Result<Vec<Type>, String> {
    let infos = operand_infos(ctx, op)?;
    let inferred = (f.0)(ctx, op, &infos)?;
    let created: Vec<Type> = ctx.results(op).map(|r| ctx.value_type(r)).collect();
    inferred
        .iter()
        .enumerate()
        .map(|(i, inf)| {
            if inf.1 == ResultElem::Declared && !declared {
                return Err(format!(
                    "cannot infer the element type of result #{i}: build the op with its result type"
                ));
            }
            let base = match created.get(i) {
                Some(&t) => t,
                None => placeholder(ctx, None),
            };
            Ok(result_type(ctx, inf, base))
        })
        .collect()
}

/// A `graph` op's shape function infers its result types from the built
/// op (what its `build_inferred` runs).
impl InferResultTypes for ShapeFunction {
    fn infer_result_types(&self, ctx: &mut Context, op: Operation) -> Result<Vec<Type>, String> {
        infer_types(ctx, self, op, false)
    }

    fn placeholder_type(&self, ctx: &mut Context) -> Type {
        placeholder(ctx, None)
    }
}

/// Create the `graph` op `name` (detached) from its operands and
/// properties (default-valued ones filled in), with `num_results` results
/// whose types its shape function infers; `element` gives the element type
/// where the op declares it (`graph.cast`'s target). This is what the ONNX
/// importer's infer-then-build helper does, for an op named at run time;
/// with a known op kind, `XOp::build_inferred` is the typed form.
pub fn build_graph_op(
    ctx: &mut Context,
    loc: Location,
    name: &str,
    operands: &[Value],
    properties: &[(&str, Attribute)],
    num_results: usize,
    element: Option<Type>,
) -> Result<Operation, InferError> {
    let Some(spec) = ctx.registry().op_spec(name) else {
        return Err(InferError::new(name, "is not a registered op"));
    };
    let ident = ctx.ident(name);
    let mut state = OperationState::new(ident, loc);
    state.operands = operands.to_vec();
    let ty = placeholder(ctx, element);
    state.result_types = vec![ty; num_results];
    if !properties.is_empty() {
        let entries = properties.iter().map(|&(k, v)| (ctx.ident(k), v)).collect();
        state.properties = Some(ctx.dictionary_attr(entries));
    }
    strata_ir::ods::fill_default_properties(ctx, spec, &mut state);
    let op = ctx.create_operation(state);
    let Some(&f) = ctx.op_interface::<ShapeFunction>(op) else {
        ctx.erase_op(op);
        return Err(InferError::new(name, "has no shape function"));
    };
    struct WithDeclared(ShapeFunction);
    impl InferResultTypes for WithDeclared {
        fn infer_result_types(
            &self,
            ctx: &mut Context,
            op: Operation,
        ) -> Result<Vec<Type>, String> {
            infer_types(ctx, &self.0, op, true)
        }

        fn placeholder_type(&self, ctx: &mut Context) -> Type {
            placeholder(ctx, None)
        }
    }
    strata_ir::ods::infer_created(ctx, op, &WithDeclared(f))
}
