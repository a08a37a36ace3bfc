//! The type converter: how the types of values change in a conversion,
//! and how to bridge a converted value back to its old type and the other
//! way (MLIR's `TypeConverter`).
//!
//! Conversions are closures `Fn(&mut Context, Type) -> Option<Vec<Type>>`
//! tried from the last added to the first (as MLIR): `None` means "not
//! mine, ask the next one", `Some(types)` is the answer (possibly several
//! types, or none to drop the value). A type no closure answers for cannot
//! be converted. A type is legal when it converts to itself, so a converter
//! usually starts with [`TypeConverter::add_identity_conversion`].
//!
//! Materializations build the operations that convert between an original
//! type and a converted one: *source* materializations turn converted
//! values back into the original type (for users not converted yet),
//! *target* materializations turn original values into the converted type
//! (for patterns that expect converted operands). The conversion driver
//! uses `builtin.unrealized_conversion_cast` while it runs and calls these
//! closures, last added first, only for the casts still live at the end; a
//! cast that no closure replaces stays as it is (the default
//! materialization for both kinds).

use crate::context::{Context, Location, Operation, Region, Type};
use crate::ir::Value;
use crate::rewrite::conversion::rewriter::ConversionPatternRewriter;

/// A type conversion rule (see the module documentation for its answers).
pub type ConversionFn = Box<dyn Fn(&mut Context, Type) -> Option<Vec<Type>>>;

/// Builds a value of the given type from `inputs` at the rewriter's
/// insertion point (source materialization); `None` when it cannot.
pub type SourceMaterializationFn =
    Box<dyn Fn(&mut ConversionPatternRewriter<'_>, Type, &[Value], Location) -> Option<Value>>;

/// Builds a value of the given (converted) type from `inputs`, whose
/// original type is the last argument (target materialization); `None`
/// when it cannot.
pub type TargetMaterializationFn = Box<
    dyn Fn(&mut ConversionPatternRewriter<'_>, Type, &[Value], Location, Type) -> Option<Value>,
>;

/// Type conversion rules and materializations (MLIR's `TypeConverter`).
#[derive(Default)]
pub struct TypeConverter {
    conversions: Vec<ConversionFn>,
    source_materializations: Vec<SourceMaterializationFn>,
    target_materializations: Vec<TargetMaterializationFn>,
}

impl TypeConverter {
    /// A converter that converts nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a conversion rule; it is tried before the ones added earlier.
    pub fn add_conversion(
        &mut self,
        f: impl Fn(&mut Context, Type) -> Option<Vec<Type>> + 'static,
    ) -> &mut Self {
        self.conversions.push(Box::new(f));
        self
    }

    /// Add a one-to-one rule (`Some(ty)`: the type becomes `ty`).
    pub fn add_type_conversion(
        &mut self,
        f: impl Fn(&mut Context, Type) -> Option<Type> + 'static,
    ) -> &mut Self {
        self.add_conversion(move |ctx, ty| f(ctx, ty).map(|ty| vec![ty]))
    }

    /// Add the rule that keeps every type as it is (MLIR's
    /// `addConversion([](Type t) { return t; })`); add it first so that the
    /// other rules take precedence.
    pub fn add_identity_conversion(&mut self) -> &mut Self {
        self.add_conversion(|_, ty| Some(vec![ty]))
    }

    /// Add a source materialization, tried before the ones added earlier.
    pub fn add_source_materialization(
        &mut self,
        f: impl Fn(&mut ConversionPatternRewriter<'_>, Type, &[Value], Location) -> Option<Value>
            + 'static,
    ) -> &mut Self {
        self.source_materializations.push(Box::new(f));
        self
    }

    /// Add a target materialization, tried before the ones added earlier.
    pub fn add_target_materialization(
        &mut self,
        f: impl Fn(&mut ConversionPatternRewriter<'_>, Type, &[Value], Location, Type) -> Option<Value>
            + 'static,
    ) -> &mut Self {
        self.target_materializations.push(Box::new(f));
        self
    }

    /// The types `ty` converts to (`None`: it cannot be converted).
    pub fn convert_type(&self, ctx: &mut Context, ty: Type) -> Option<Vec<Type>> {
        self.conversions.iter().rev().find_map(|f| f(ctx, ty))
    }

    /// The single type `ty` converts to (`None` when it cannot be converted
    /// or converts to zero or several types).
    pub fn convert_type_one(&self, ctx: &mut Context, ty: Type) -> Option<Type> {
        match self.convert_type(ctx, ty)?.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// The concatenated conversions of `types` (`None` if one cannot be converted).
    pub fn convert_types(&self, ctx: &mut Context, types: &[Type]) -> Option<Vec<Type>> {
        let mut converted = Vec::with_capacity(types.len());
        for &ty in types {
            converted.extend(self.convert_type(ctx, ty)?);
        }
        Some(converted)
    }

    /// Whether `ty` converts to itself.
    pub fn is_legal(&self, ctx: &mut Context, ty: Type) -> bool {
        self.convert_type(ctx, ty).as_deref() == Some(&[ty][..])
    }

    /// Whether every type in `types` is legal.
    pub fn are_legal(&self, ctx: &mut Context, types: &[Type]) -> bool {
        types.iter().all(|&ty| self.is_legal(ctx, ty))
    }

    /// Whether the operand and result types of `op` are all legal.
    pub fn is_op_legal(&self, ctx: &mut Context, op: Operation) -> bool {
        let types: Vec<Type> = ctx
            .operands(op)
            .chain(ctx.results(op))
            .map(|v| ctx.value_type(v))
            .collect();
        self.are_legal(ctx, &types)
    }

    /// Whether a function signature (its input and result types) is legal
    /// (MLIR's `isSignatureLegal`).
    pub fn is_signature_legal(&self, ctx: &mut Context, inputs: &[Type], results: &[Type]) -> bool {
        self.are_legal(ctx, inputs) && self.are_legal(ctx, results)
    }

    /// Whether the argument types of every block of `region` are legal.
    pub fn is_region_legal(&self, ctx: &mut Context, region: Region) -> bool {
        let types: Vec<Type> = ctx
            .region_blocks(region)
            .flat_map(|block| ctx.block_args(block))
            .map(|v| ctx.value_type(v))
            .collect();
        self.are_legal(ctx, &types)
    }

    /// Whether a source or target materialization was added.
    pub fn has_materializations(&self) -> bool {
        !self.source_materializations.is_empty() || !self.target_materializations.is_empty()
    }

    /// Build a value of `ty` from the converted `inputs` with the source
    /// materializations, last added first (`None` when none applies).
    pub fn materialize_source(
        &self,
        rewriter: &mut ConversionPatternRewriter<'_>,
        ty: Type,
        inputs: &[Value],
        loc: Location,
    ) -> Option<Value> {
        self.source_materializations
            .iter()
            .rev()
            .find_map(|f| f(rewriter, ty, inputs, loc))
    }

    /// Build a value of the converted type `ty` from `inputs` (of original
    /// type `original`) with the target materializations, last added first.
    pub fn materialize_target(
        &self,
        rewriter: &mut ConversionPatternRewriter<'_>,
        ty: Type,
        inputs: &[Value],
        loc: Location,
        original: Type,
    ) -> Option<Value> {
        self.target_materializations
            .iter()
            .rev()
            .find_map(|f| f(rewriter, ty, inputs, loc, original))
    }
}
