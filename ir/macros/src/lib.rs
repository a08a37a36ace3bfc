//! `#[op]`: one declaration per operation, in the spirit of MLIR's ODS.
//!
//! ```ignore
//! /// Integer addition.
//! ///
//! /// Longer description, copied into the dialect's docs page.
//! #[op("arith.addi",
//!      traits(Pure, Commutative, SameOperandsAndResultType, Elementwise),
//!      format = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)",
//!      fold = fold_addi)]
//! pub struct AddIOp {
//!     lhs: Operand<SignlessIntegerOrIndexLike>,
//!     rhs: Operand<SignlessIntegerOrIndexLike>,
//!     #[default = "#arith.overflow<none>"]
//!     overflowFlags: Attr<IntegerOverflowAttr>,
//!     result: Result<SignlessIntegerOrIndexLike>,
//! }
//! ```
//!
//! The struct becomes a `Copy` handle around an `Operation` with typed
//! accessors (snake_case of the declared names), a `build` function, a
//! static `OpSpec` and `register`; the op is also submitted to the
//! program's collection of declared ops (`strata_ir::ods::DeclaredOp`),
//! from which its dialect registers it. Field kinds: `Operand<C>`, `Optional<C>`,
//! `Variadic<C>` (operands); `Result<C>`, `OptionalResult<C>`,
//! `VariadicResult<C>` (results); `Attr<C>` (required, or defaulted with
//! `#[default = "mlir text"]`), `OptionalAttr<C>`; `Region`,
//! `SizedRegion<N>`, `VariadicRegion`; `Successor`, `VariadicSuccessor`.
//! `C` names a type or attribute constraint (`strata_ir::ods::constraints`).
//!
//! Op arguments: the name, then `traits(...)` (fields of `OpTraits` in
//! CamelCase), `format = "..."`, `all_types_match(a, b, ...)`,
//! `default_dialect = "..."`, `interfaces(Expr, ...)` (values of op
//! interface types, attached to the op when it is registered, e.g.
//! `interfaces(ShapeFunction(infer_arith))`), and hooks given as paths: `verify`,
//! `verify_predicates`,
//! `verify_regions`, `verify_symbol_uses`, `fold`, `canonicalize`, `infer`, `result_names`,
//! `parse`, `print`. A format is checked when the crate compiles.
//!
//! `#[pass(name = "...", summary = "...")]` declares a pass on the struct
//! of its options (see the `pass` module): name, description, option
//! table, option parsing and printing, and its registration.
//!
//! `pattern! { Name: (RootOp (InnerOp $x)) => (NewOp $x) if cond; }`
//! declares rewrite patterns (see the `pattern` module).

mod op;
mod pass;
mod pattern;

use proc_macro::TokenStream;
use syn::DeriveInput;

/// Declares an operation; see the crate documentation.
#[proc_macro_attribute]
pub fn op(attr: TokenStream, item: TokenStream) -> TokenStream {
    let args = syn::parse_macro_input!(attr as op::OpArgs);
    let input = syn::parse_macro_input!(item as DeriveInput);
    match op::expand(args, input) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

/// Declares a pass on the struct of its options: `#[pass(name = "cse",
/// summary = "...", display_name = "CSE", anchor = "func.func",
/// required = true)]` (the last three optional; `required`: the pass is
/// never skipped by `--pass-bisect-limit`, as a lowering the pipeline
/// cannot do without), each option a field with
/// `#[option(name = "max-iterations", default = 10, description = "...")]`
/// (`name` defaults to the field's, `-` for `_`; without `default` the
/// type's default). Writes `Default`, `strata_ir::pass::PassInfo` and
/// `registration()`; the pass implements `strata_ir::pass::Pass` (`run`).
#[proc_macro_attribute]
pub fn pass(attr: TokenStream, item: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(item as DeriveInput);
    match pass::expand(attr.into(), input) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

/// Declares rewrite patterns, one unit struct implementing
/// `strata_ir::rewrite::RewritePattern` per rule:
/// `Name: (RootOp {attr: $a} $x (InnerOp $y) (const $c) _) => (NewOp $x $y) if condition;`
/// (see `docs/passes.md`, "Declarative patterns").
#[proc_macro]
pub fn pattern(input: TokenStream) -> TokenStream {
    let rules = syn::parse_macro_input!(input as pattern::Rules);
    match pattern::expand(rules) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}
