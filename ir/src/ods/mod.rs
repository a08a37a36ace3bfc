//! Declarative operation definitions, in the spirit of MLIR's ODS.
//!
//! An [`OpSpec`] describes one operation kind: its operands, results,
//! attributes, regions and successors with their constraints, its traits,
//! an optional declarative assembly format and its hooks (verifier, folder,
//! canonicalization patterns). The `#[op]` attribute macro of
//! `strata-ir-macros` writes the spec and typed accessors from a struct
//! declaration; [`OpSpec::definition`] turns it into the registry's
//! [`OpDefinition`], whose verifier checks every declared constraint with
//! MLIR's messages and whose parser and printer interpret the format.
//!
//! ```ignore
//! /// Integer addition with two's-complement wraparound.
//! #[op("arith.addi", traits(Pure, Commutative, SameOperandsAndResultType),
//!      format = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)")]
//! pub struct AddIOp {
//!     lhs: Operand<SignlessIntegerOrIndexLike>,
//!     rhs: Operand<SignlessIntegerOrIndexLike>,
//!     #[default = "#arith.overflow<none>"]
//!     overflowFlags: Attr<IntegerOverflowAttr>,
//!     result: Result<SignlessIntegerOrIndexLike>,
//! }
//! ```

pub mod constraints;
pub mod format;
mod typed;
mod verify;

use std::sync::OnceLock;

pub use constraints::EnumSpec;
pub use typed::{infer_created, InferError, TypedOp};
pub use verify::{has_declared_shape, verify_op};

use crate::context::{Attribute, Context, Operation, Type};
use crate::dialect::{
    CanonicalizeFn, FoldFn, OpDefinition, OpTraits, ParseFn, PrintFn, ResultNamesFn, VerifyFn,
};
use crate::ir::{OperationState, Value};

/// A constraint on the type of an operand or result.
#[derive(Clone, Copy)]
pub struct TypeConstraint {
    /// How verifier messages name it: "signless-integer-like".
    pub summary: &'static str,
    /// Whether a type satisfies it.
    pub check: fn(&Context, Type) -> bool,
    /// The one type it allows, when it allows one (ODS's buildable types,
    /// e.g. `I1`): an assembly format may then leave the type out.
    pub build: Option<fn(&mut Context) -> Type>,
}

/// A named type constraint usable in `Operand<C>` (implemented by the
/// `type_constraint!` macro).
pub trait TypeConstraintDef {
    /// The constraint.
    const CONSTRAINT: TypeConstraint;
}

/// How an attribute is written where an assembly format names it.
#[derive(Clone, Copy)]
pub enum AttrSyntax {
    /// As any attribute, with its type (`0 : i32`).
    Generic,
    /// As any attribute whose type is implied: `5` for an `i64` (the type
    /// is added when parsing and left out when printing).
    Typed(fn(&mut Context) -> Type),
    /// A keyword standing for an integer (an enum case): `slt`.
    Keyword(&'static EnumSpec),
    /// A dialect attribute without its `#dialect.mnemonic` prefix: `<fast>`.
    Stripped(&'static EnumSpec),
    /// A dense array of integers of the element type given, as a list:
    /// `[1, 99]` for `array<i32: 1, 99>` (MLIR's `DenseI32ArrayAttr` in
    /// an assembly format).
    IntArray(fn(&mut Context) -> Type),
    /// As any attribute, of the kind the check accepts (MLIR's storage
    /// class: `StringAttr`, `FlatSymbolRefAttr`): another kind is "invalid
    /// kind of attribute specified" when parsed, and an invalid property
    /// in the generic form.
    Kind(fn(&Context, Attribute) -> bool),
}

/// A constraint on an attribute.
#[derive(Clone, Copy)]
pub struct AttrConstraint {
    /// How verifier messages name it.
    pub summary: &'static str,
    /// Whether an attribute satisfies it.
    pub check: fn(&Context, Attribute) -> bool,
    /// How an assembly format reads and writes it.
    pub syntax: AttrSyntax,
    /// Whether it is a unit attribute (a flag whose presence is the value).
    pub unit: bool,
}

/// A named attribute constraint usable in `Attr<C>`.
pub trait AttrConstraintDef {
    /// The constraint.
    const CONSTRAINT: AttrConstraint;
}

/// The Rust value that the attributes of a constraint hold (`f64` for a
/// float attribute, `Vec<i64>` for `array<i64: ...>`), for the typed
/// accessors `#[op]` generates. Defined with the `value:` clause of
/// [`attr_constraint!`](crate::attr_constraint).
pub trait AttrValue {
    /// The value type.
    type Value;
    /// The value of `attr`; `None` when `attr` does not satisfy the
    /// constraint.
    fn value(ctx: &Context, attr: Attribute) -> Option<Self::Value>;
}

/// How a declared attribute is present, for [`AttrAccess`]: marker types.
pub mod presence {
    /// `Attr<C>` without a default.
    pub struct Required;
    /// `OptionalAttr<C>`.
    pub struct Optional;
    /// `Attr<C>` with `#[default = "..."]`.
    pub struct Default;
}

/// What the typed accessor of an attribute of constraint `Self`, declared
/// with presence `P` (a [`presence`] marker), returns, and how it reads it.
///
/// For a constraint with an [`AttrValue`], a defaulted attribute reads as
/// its value (the declared default when the op holds none), others as
/// `Option` of it; for a constraint without one, as `Option<Attribute>`
/// (a defaulted one falls back to the parsed default).
/// [`attr_constraint!`](crate::attr_constraint) and
/// [`enum_attr!`](crate::enum_attr) implement it.
pub trait AttrAccess<P> {
    /// The accessor's return type.
    type Output;
    /// Reads attribute `name` of `op`; `default` is the declared default's
    /// MLIR text.
    fn get(ctx: &Context, op: Operation, name: &str, default: Option<&'static str>)
        -> Self::Output;
}

/// The inherent attribute `name` of `op`, or else the declared default
/// (`default`, as parsed when the op was registered).
pub fn attr_or_default(
    ctx: &Context,
    op: Operation,
    name: &str,
    default: Option<&'static str>,
) -> Option<Attribute> {
    inherent_attr(ctx, op, name).or_else(|| default.and_then(|t| ctx.registry().cached_default(t)))
}

/// The value of attribute `name` of `op` under constraint `C`: its own,
/// or else the declared default's (`default`, parsed when the op was
/// registered).
pub fn attr_value<C: AttrValue>(
    ctx: &Context,
    op: Operation,
    name: &str,
    default: Option<&'static str>,
) -> Option<C::Value> {
    inherent_attr(ctx, op, name)
        .and_then(|a| C::value(ctx, a))
        .or_else(|| {
            let attr = ctx.registry().cached_default(default?)?;
            C::value(ctx, attr)
        })
}

/// How many values an operand or result group holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly one.
    Single,
    /// Zero or one.
    Optional,
    /// Any number.
    Variadic,
}

/// A declared operand or result.
#[derive(Clone, Copy)]
pub struct ValueSpec {
    /// Its name in the format and in accessors.
    pub name: &'static str,
    /// How many values it holds.
    pub arity: Arity,
    /// The constraint on each value's type.
    pub constraint: TypeConstraint,
}

/// Whether an attribute must be present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrPresence {
    /// It must be present.
    Required,
    /// It may be absent.
    Optional,
    /// It takes this value (MLIR text) when absent; always materialized.
    Default(&'static str),
}

/// A declared inherent attribute (stored as a property).
#[derive(Clone, Copy)]
pub struct AttrSpec {
    /// Its name.
    pub name: &'static str,
    /// Its constraint.
    pub constraint: AttrConstraint,
    /// Whether it must be present.
    pub presence: AttrPresence,
}

/// A declared region.
#[derive(Clone, Copy)]
pub struct RegionSpec {
    /// Its name.
    pub name: &'static str,
    /// Whether it is a variadic group of regions.
    pub variadic: bool,
    /// `SizedRegion<N>`: the number of blocks it must have.
    pub num_blocks: Option<usize>,
}

/// A declared successor.
#[derive(Clone, Copy)]
pub struct SuccessorSpec {
    /// Its name.
    pub name: &'static str,
    /// Whether it is a variadic group.
    pub variadic: bool,
}

/// Infers result types from operands, attributes and regions (MLIR's
/// `InferTypeOpInterface::inferReturnTypes`); the error is reported at the op.
pub type InferFn = fn(&mut Context, &OperationState) -> Result<Vec<Type>, String>;

/// A declarative op definition.
pub struct OpSpec {
    /// Full name, `dialect.op`.
    pub name: &'static str,
    /// One-line summary.
    pub summary: &'static str,
    /// Longer description (markdown), from the doc comment.
    pub description: &'static str,
    /// Operands in order.
    pub operands: &'static [ValueSpec],
    /// Results in order.
    pub results: &'static [ValueSpec],
    /// Inherent attributes.
    pub attributes: &'static [AttrSpec],
    /// Regions in order.
    pub regions: &'static [RegionSpec],
    /// Successors in order.
    pub successors: &'static [SuccessorSpec],
    /// Traits.
    pub traits: OpTraits,
    /// The declared traits in order (snake_case), which is the order their
    /// verifiers run in.
    pub trait_order: &'static [&'static str],
    /// Groups of operands/results that must have the same type
    /// (`AllTypesMatch`), by name.
    pub all_types_match: &'static [&'static [&'static str]],
    /// Declarative assembly format, if any.
    pub format: Option<&'static str>,
    /// The compiled format (filled on first use).
    pub compiled_format: OnceLock<Result<format::Format, String>>,
    /// Hand-written parser (instead of a format).
    pub parse: Option<ParseFn>,
    /// Hand-written printer (instead of a format).
    pub print: Option<PrintFn>,
    /// Checks of ODS predicate traits (`TypesMatchWith`, `PredOpTrait`,
    /// `AllTypesMatch` written by hand), run with the declared constraints,
    /// before the native traits.
    pub verify_predicates: Option<VerifyFn>,
    /// Op-specific verification after the declared constraints and traits.
    pub verify: Option<VerifyFn>,
    /// Verification after the nested ops (MLIR's `verifyRegions`).
    pub verify_regions: Option<VerifyFn>,
    /// Checks of the symbols the op uses (`verifySymbolUses`).
    pub verify_symbol_uses: Option<crate::dialect::VerifySymbolUsesFn>,
    /// Folder.
    pub fold: Option<FoldFn>,
    /// Canonicalization patterns.
    pub canonicalize: Option<CanonicalizeFn>,
    /// Result type inference.
    pub infer_result_types: Option<InferFn>,
    /// Result name suggestions.
    pub result_names: Option<ResultNamesFn>,
    /// Default dialect of its regions.
    pub default_dialect: Option<&'static str>,
}

impl std::fmt::Debug for OpSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpSpec")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl OpSpec {
    /// A spec with nothing declared (the base of `..OpSpec::EMPTY` in a
    /// `static`; each use is a fresh value with its own format cache).
    #[allow(clippy::declare_interior_mutable_const)]
    pub const EMPTY: OpSpec = OpSpec {
        name: "",
        summary: "",
        description: "",
        operands: &[],
        results: &[],
        attributes: &[],
        regions: &[],
        successors: &[],
        traits: OpTraits::NONE,
        trait_order: &[],
        all_types_match: &[],
        format: None,
        compiled_format: OnceLock::new(),
        parse: None,
        print: None,
        verify_predicates: None,
        verify: None,
        verify_regions: None,
        verify_symbol_uses: None,
        fold: None,
        canonicalize: None,
        infer_result_types: None,
        result_names: None,
        default_dialect: None,
    };

    /// The dialect namespace.
    pub fn dialect(&self) -> &'static str {
        self.name.split_once('.').map_or("", |(d, _)| d)
    }

    /// The registry entry for this op.
    pub fn definition(&'static self, inherent_attrs: &'static [&'static str]) -> OpDefinition {
        let has_format = self.format.is_some();
        let mut traits = self.traits;
        traits.num_regions =
            (!self.regions.iter().any(|r| r.variadic)).then_some(self.regions.len());
        OpDefinition {
            name: self.name,
            summary: self.summary,
            traits,
            inherent_attrs,
            verify: Some(verify_op),
            fold: self.fold,
            verify_regions: self.verify_regions,
            verify_symbol_uses: self.verify_symbol_uses,
            parse: if has_format {
                Some(format::parse_with_format)
            } else {
                self.parse
            },
            print: if has_format {
                Some(format::print_with_format)
            } else {
                self.print
            },
            result_names: self.result_names,
            default_dialect: self.default_dialect,
            canonicalize: self.canonicalize,
            spec: Some(self),
        }
    }

    /// The compiled assembly format, or why it does not compile.
    pub fn compiled_format(&'static self) -> Option<&'static Result<format::Format, String>> {
        let text = self.format?;
        Some(
            self.compiled_format
                .get_or_init(|| format::Format::compile(self, text)),
        )
    }

    fn has_variadic_operands(&self) -> bool {
        self.operands.iter().any(|o| o.arity != Arity::Single)
    }

    fn has_variadic_results(&self) -> bool {
        self.results.iter().any(|o| o.arity != Arity::Single)
    }

    /// Whether operand groups are sized by `operandSegmentSizes`.
    pub fn operand_segments(&self) -> bool {
        self.operands
            .iter()
            .filter(|o| o.arity != Arity::Single)
            .count()
            > 1
    }

    /// Whether result groups are sized by `resultSegmentSizes`.
    pub fn result_segments(&self) -> bool {
        self.results
            .iter()
            .filter(|o| o.arity != Arity::Single)
            .count()
            > 1
    }
}

/// Registers a spec (the `#[op]` macro generates a `register` that calls
/// this); the returned handle attaches the op's interfaces.
pub fn register<'c>(
    ctx: &'c mut Context,
    spec: &'static OpSpec,
    inherent: &'static [&'static str],
) -> crate::dialect::RegisteredOp<'c> {
    // Parse the defaults now, so that the printer recognizes a default value
    // however the op was built (parsed, or created by a builder).
    for attr in spec.attributes {
        default_value(ctx, attr);
    }
    ctx.registry_mut().register_op(spec.definition(inherent))
}

/// An op declared with `#[op]`: each declaration submits one to a
/// program-wide collection, so that a dialect registers its ops without a
/// hand-written list (see [`register_dialect_ops`]).
pub struct DeclaredOp {
    /// The op's spec.
    pub spec: fn() -> &'static OpSpec,
    /// Registers the op, with the interfaces its declaration attaches.
    pub register: fn(&mut Context),
}

inventory::collect!(DeclaredOp);

/// Every op declared with `#[op]` in the crates linked into the program,
/// sorted by name (one entry per name: a name declared twice keeps the
/// first declaration found).
pub fn declared_ops() -> Vec<&'static DeclaredOp> {
    let mut ops: Vec<&'static DeclaredOp> = inventory::iter::<DeclaredOp>.into_iter().collect();
    ops.sort_by_key(|op| (op.spec)().name);
    ops.dedup_by_key(|op| (op.spec)().name);
    ops
}

/// Registers every op declared with `#[op]` whose name is `dialect.*`, in
/// name order; returns how many it registered.
pub fn register_dialect_ops(ctx: &mut Context, dialect: &str) -> usize {
    let mut count = 0;
    for op in declared_ops() {
        let in_dialect = (op.spec)()
            .name
            .split_once('.')
            .is_some_and(|(d, _)| d == dialect);
        if in_dialect {
            (op.register)(ctx);
            count += 1;
        }
    }
    count
}

/// Sets default-valued properties that the text left out, as MLIR's
/// property storage always holds them.
pub fn fill_default_properties(ctx: &mut Context, spec: &OpSpec, state: &mut OperationState) {
    let missing: Vec<&AttrSpec> = spec
        .attributes
        .iter()
        .filter(|a| matches!(a.presence, AttrPresence::Default(_)))
        .filter(|a| {
            state.properties.is_none_or(|p| {
                !ctx.dictionary_entries(p)
                    .iter()
                    .any(|(n, _)| ctx.ident_str(*n) == a.name)
            })
        })
        .collect();
    if missing.is_empty() {
        return;
    }
    let mut entries: Vec<_> = state
        .properties
        .map(|p| ctx.dictionary_entries(p).to_vec())
        .unwrap_or_default();
    for spec in missing {
        if let Some(value) = default_value(ctx, spec) {
            let name = ctx.ident(spec.name);
            entries.push((name, value));
        }
    }
    state.properties = Some(ctx.dictionary_attr(entries));
}

/// MLIR's property conversion: an enum-typed property must hold one of the
/// enum's values, and a dense-array property an array of its element type,
/// or the op cannot be created (`invalid properties ...`).
pub fn check_properties(ctx: &Context, spec: &OpSpec, props: Attribute) -> Result<(), String> {
    for &(name, value) in ctx.dictionary_entries(props) {
        let Some(attr) = spec
            .attributes
            .iter()
            .find(|a| a.name == ctx.ident_str(name))
        else {
            continue;
        };
        let typed = matches!(
            attr.constraint.syntax,
            AttrSyntax::Keyword(_)
                | AttrSyntax::Stripped(_)
                | AttrSyntax::IntArray(_)
                | AttrSyntax::Kind(_)
        );
        if typed && !(attr.constraint.check)(ctx, value) {
            return Err(format!(
                "invalid properties {} for op {}: Invalid attribute `{}` in property conversion: {}",
                crate::printer::attribute_to_string(ctx, props),
                spec.name,
                attr.name,
                crate::printer::attribute_to_string(ctx, value)
            ));
        }
    }
    Ok(())
}

/// The default value of a default-valued attribute.
pub fn default_value(ctx: &mut Context, spec: &AttrSpec) -> Option<Attribute> {
    let AttrPresence::Default(text) = spec.presence else {
        return None;
    };
    if let Some(value) = ctx.registry().cached_default(text) {
        return Some(value);
    }
    let value = crate::parser::parse_attribute(ctx, text).ok()?;
    ctx.registry_mut().cache_default(text, value);
    Some(value)
}

/// The inherent attribute `name` of `op` (a property or, failing that, a
/// discardable attribute of that name).
pub fn inherent_attr(ctx: &Context, op: Operation, name: &str) -> Option<Attribute> {
    if let Some(props) = ctx.op_properties(op) {
        if let Some(&(_, value)) = ctx
            .dictionary_entries(props)
            .iter()
            .find(|(n, _)| ctx.ident_str(*n) == name)
        {
            return Some(value);
        }
    }
    ctx.op_attr(op, name)
}

/// The sizes of an op's operand (or result) groups, from the declared
/// arities and the segment-size property when there is one.
pub fn group_sizes(
    ctx: &Context,
    op: Operation,
    groups: &[ValueSpec],
    total: usize,
    segment_attr: &str,
) -> Result<Vec<usize>, String> {
    let variadic = groups.iter().filter(|g| g.arity != Arity::Single).count();
    if variadic > 1 {
        let Some(attr) = inherent_attr(ctx, op, segment_attr) else {
            return Err(format!("requires attribute '{segment_attr}'"));
        };
        let sizes: Vec<usize> = match ctx.attr_kind(attr) {
            crate::AttrKind::DenseArray { values, .. } => {
                values.iter().map(|&v| v as i32 as usize).collect()
            }
            _ => {
                return Err(format!(
                    "attribute '{segment_attr}' must be a dense i32 array"
                ))
            }
        };
        if sizes.len() != groups.len() {
            return Err(format!(
                "'{segment_attr}' attribute for specifying {} segments must have {} elements, but got {}",
                if segment_attr.starts_with("operand") { "operand" } else { "result" },
                groups.len(),
                sizes.len()
            ));
        }
        let sum: usize = sizes.iter().sum();
        if sum != total {
            return Err(format!(
                "{} count ({total}) does not match with the total size ({sum}) specified in attribute '{segment_attr}'",
                if segment_attr.starts_with("operand") { "operand" } else { "result" },
            ));
        }
        return Ok(sizes);
    }
    let fixed = groups.len() - variadic;
    let rest = total.saturating_sub(fixed);
    Ok(groups
        .iter()
        .map(|g| if g.arity == Arity::Single { 1 } else { rest })
        .collect())
}

/// The start index and length of group `index` (empty past the last group).
pub fn group_range(sizes: &[usize], index: usize) -> std::ops::Range<usize> {
    let start: usize = sizes.iter().take(index).sum();
    start..start + sizes.get(index).copied().unwrap_or(0)
}

/// The values of operand group `index` of `op`.
pub fn operand_group(ctx: &Context, op: Operation, spec: &OpSpec, index: usize) -> Vec<Value> {
    let total = ctx.num_operands(op);
    let sizes = group_sizes(ctx, op, spec.operands, total, "operandSegmentSizes")
        .unwrap_or_else(|_| vec![0; spec.operands.len()]);
    group_range(&sizes, index)
        .filter(|&i| i < total)
        .map(|i| ctx.operand(op, i))
        .collect()
}

/// The values of result group `index` of `op`.
pub fn result_group(ctx: &Context, op: Operation, spec: &OpSpec, index: usize) -> Vec<Value> {
    let total = ctx.num_results(op);
    let sizes = group_sizes(ctx, op, spec.results, total, "resultSegmentSizes")
        .unwrap_or_else(|_| vec![0; spec.results.len()]);
    group_range(&sizes, index)
        .filter(|&i| i < total)
        .map(|i| ctx.result(op, i))
        .collect()
}
