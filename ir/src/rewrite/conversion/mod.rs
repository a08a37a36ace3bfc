//! Dialect conversion, as MLIR's `DialectConversion.h`: rewrite the
//! operations of a region until they are all legal for a target.
//!
//! - [`ConversionTarget`]: which operations and dialects are legal, illegal
//!   or dynamically legal.
//! - [`TypeConverter`]: how types change, and how converted values are
//!   bridged to unconverted users (materializations).
//! - [`ConversionPattern`]: a rewrite that receives its root's operands as
//!   already converted; collected in a [`ConversionPatternSet`] and frozen
//!   into a [`FrozenConversionPatternSet`].
//! - [`ConversionPatternRewriter`]: records every change so that a failed
//!   pattern, or a failed conversion, is rolled back and leaves the IR as
//!   it was.
//! - [`apply_partial_conversion`], [`apply_full_conversion`],
//!   [`apply_analysis_conversion`]: the drivers; and
//!   [`reconcile_unrealized_casts`], which the `reconcile-unrealized-casts`
//!   pass runs.
//!
//! While the conversion runs, a value replaced by one of another type is
//! bridged with a `builtin.unrealized_conversion_cast` for the users not
//! converted yet, and a pattern whose operand has an unconverted type gets
//! it through such a cast (both created right after the value's
//! definition). At the end, casts that round-trip are folded, dead ones are
//! erased, and the rest are replaced by the type converter's
//! materializations, or stay as they are.
//!
//! What is not done (yet): one-to-many conversions of operands and block
//! arguments (a type converter may answer several types, but adaptors and
//! [`ConversionPatternRewriter::convert_region_types`] handle one-to-one
//! conversions only), folding during legalization, the legalization-depth
//! cost model that MLIR uses to order patterns (patterns are tried by
//! benefit only), block creation, moves and erasure through the rewriter,
//! and walking blocks in dominance order (blocks are visited in region
//! order).
//!
//! ```
//! use strata_ir::rewrite::conversion::{
//!     apply_partial_conversion, ConversionPatternSet, ConversionTarget, TypeConverter,
//! };
//! use strata_ir::{parser, printer, testing, Context, OperationState, SourceBuffer};
//!
//! let mut ctx = Context::new();
//! testing::register_test_dialect(&mut ctx);
//! ctx.set_allow_unregistered_dialects(true);
//! let text = r#"
//!   %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
//!   %1 = "test.addi"(%0, %0) : (i32, i32) -> i32
//!   "test.effect"(%1) : (i32) -> ()
//! "#;
//! let module = parser::parse_source(&mut ctx, &SourceBuffer::new("in.mlir", text)).expect("parses");
//!
//! // test.addi is illegal; foo.add on i64 is what the target wants.
//! let mut target = ConversionTarget::new();
//! target.add_illegal_op("test.addi").add_legal_dialect("foo");
//! let mut converter = TypeConverter::new();
//! converter
//!     .add_identity_conversion()
//!     .add_type_conversion(|ctx, ty| (ty == ctx.integer_type(32)).then(|| ctx.integer_type(64)));
//! let mut patterns = ConversionPatternSet::new();
//! patterns.add_fn(Some("test.addi"), 1, |op, operands, rewriter| {
//!     let ctx = rewriter.ctx_mut();
//!     let i64 = ctx.integer_type(64);
//!     let mut state = OperationState::new(ctx.ident("foo.add"), ctx.op_loc(op));
//!     state.operands = operands.to_vec();
//!     state.result_types = vec![i64];
//!     rewriter.replace_op_with_new(op, state);
//!     true
//! });
//! let patterns = patterns.freeze(&mut ctx);
//! apply_partial_conversion(&mut ctx, module, &target, &patterns, Some(&converter)).expect("converts");
//!
//! let out = printer::print_operation(&ctx, module, Default::default());
//! assert!(out.contains("unrealized_conversion_cast %0 : i32 to i64"));
//! assert!(out.contains(r#""foo.add"(%1, %1) : (i64, i64) -> i64"#));
//! assert!(out.contains("unrealized_conversion_cast %2 : i64 to i32"));
//! ```

mod driver;
mod pattern;
mod reconcile;
mod rewriter;
mod target;
mod type_converter;

pub use pattern::{
    ConversionPattern, ConversionPatternSet, FnPattern, FrozenConversionPatternSet, PatternFn,
};
pub use reconcile::reconcile_unrealized_casts;
pub use rewriter::ConversionPatternRewriter;
pub use target::{ConversionTarget, Legality, LegalityFn};
pub use type_converter::{
    ConversionFn, SourceMaterializationFn, TargetMaterializationFn, TypeConverter,
};

use crate::context::{Context, Operation};
use crate::diagnostics::Diagnostic;
use driver::Mode;

/// Convert as many operations in `root` (itself included) as possible;
/// fails, leaving the IR unchanged, only when an operation explicitly
/// illegal could not be legalized ("failed to legalize operation 'x' that
/// was explicitly marked illegal", at that operation).
pub fn apply_partial_conversion(
    ctx: &mut Context,
    root: Operation,
    target: &ConversionTarget,
    patterns: &FrozenConversionPatternSet,
    type_converter: Option<&TypeConverter>,
) -> Result<(), Diagnostic> {
    driver::run(ctx, root, target, patterns, type_converter, Mode::Partial).map(|_| ())
}

/// Convert every operation in `root` (itself included) to a legal one;
/// fails, leaving the IR unchanged, at the first operation that could not
/// be legalized ("failed to legalize operation 'x'").
pub fn apply_full_conversion(
    ctx: &mut Context,
    root: Operation,
    target: &ConversionTarget,
    patterns: &FrozenConversionPatternSet,
    type_converter: Option<&TypeConverter>,
) -> Result<(), Diagnostic> {
    driver::run(ctx, root, target, patterns, type_converter, Mode::Full).map(|_| ())
}

/// The operations in `root` (itself included) that are legal or could be
/// legalized, in pre-order; the IR is left unchanged.
pub fn apply_analysis_conversion(
    ctx: &mut Context,
    root: Operation,
    target: &ConversionTarget,
    patterns: &FrozenConversionPatternSet,
    type_converter: Option<&TypeConverter>,
) -> Vec<Operation> {
    driver::run(ctx, root, target, patterns, type_converter, Mode::Analysis).unwrap_or_default()
}
