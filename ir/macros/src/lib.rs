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

mod pass;
mod pattern;

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{
    Data, DeriveInput, Fields, GenericArgument, Ident, LitStr, Path, PathArguments, Token, Type,
};

enum ArgValue {
    Str(LitStr),
    Path(Path),
    List(Vec<Path>),
    Exprs(Vec<syn::Expr>),
}

struct OpArgs {
    name: LitStr,
    items: Vec<(Ident, ArgValue)>,
}

impl Parse for OpArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name: LitStr = input.parse()?;
        let mut items = Vec::new();
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: Ident = input.parse()?;
            let value = if input.peek(Token![=]) {
                input.parse::<Token![=]>()?;
                if input.peek(LitStr) {
                    ArgValue::Str(input.parse()?)
                } else {
                    ArgValue::Path(input.parse()?)
                }
            } else if key == "interfaces" {
                let content;
                syn::parenthesized!(content in input);
                let list: Punctuated<syn::Expr, Token![,]> =
                    Punctuated::parse_terminated(&content)?;
                ArgValue::Exprs(list.into_iter().collect())
            } else {
                let content;
                syn::parenthesized!(content in input);
                let list: Punctuated<Path, Token![,]> = Punctuated::parse_terminated(&content)?;
                ArgValue::List(list.into_iter().collect())
            };
            items.push((key, value));
        }
        Ok(OpArgs { name, items })
    }
}

/// Declares an operation; see the crate documentation.
#[proc_macro_attribute]
pub fn op(attr: TokenStream, item: TokenStream) -> TokenStream {
    let args = syn::parse_macro_input!(attr as OpArgs);
    let input = syn::parse_macro_input!(item as DeriveInput);
    match expand(args, input) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

/// Declares a pass on the struct of its options: `#[pass(name = "cse",
/// summary = "...", display_name = "CSE", anchor = "func.func")]` (the
/// last two optional), each option a field with
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

#[derive(Clone, Copy, PartialEq)]
enum FieldKind {
    Operand(Arity),
    Result(Arity),
    Attr(Presence),
    Region { variadic: bool },
    Successor { variadic: bool },
}

#[derive(Clone, Copy, PartialEq)]
enum Arity {
    Single,
    Optional,
    Variadic,
}

#[derive(Clone, Copy, PartialEq)]
enum Presence {
    Required,
    Optional,
    Default,
}

struct FieldDecl {
    name: String,
    accessor: Ident,
    kind: FieldKind,
    constraint: Option<Type>,
    default: Option<LitStr>,
    num_blocks: Option<usize>,
    span: Span,
}

fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn doc_lines(attrs: &[syn::Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .map(|line| line.strip_prefix(' ').unwrap_or(&line).to_string())
        .collect()
}

fn parse_field(field: &syn::Field) -> syn::Result<FieldDecl> {
    let ident = field
        .ident
        .clone()
        .ok_or_else(|| syn::Error::new_spanned(field, "op fields must be named"))?;
    let raw = ident.to_string();
    let name = raw.strip_prefix("r#").unwrap_or(&raw).to_string();
    let accessor_name = snake_case(&name);
    let accessor = if syn::parse_str::<Ident>(&accessor_name).is_ok() {
        format_ident!("{}", accessor_name)
    } else {
        format_ident!("r#{}", accessor_name)
    };
    let Type::Path(path) = &field.ty else {
        return Err(syn::Error::new_spanned(
            &field.ty,
            "expected a field kind such as Operand<C>",
        ));
    };
    let Some(last) = path.path.segments.last() else {
        return Err(syn::Error::new_spanned(&field.ty, "expected a field kind"));
    };
    let (constraint, num) = match &last.arguments {
        PathArguments::AngleBracketed(args) => match args.args.first() {
            Some(GenericArgument::Type(ty)) => (Some(ty.clone()), None),
            Some(GenericArgument::Const(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(n),
                ..
            }))) => (None, Some(n.base10_parse::<usize>()?)),
            _ => return Err(syn::Error::new_spanned(args, "expected one type argument")),
        },
        _ => (None, None),
    };
    let mut default = None;
    for attr in &field.attrs {
        if attr.path().is_ident("default") {
            if let syn::Meta::NameValue(nv) = &attr.meta {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &nv.value
                {
                    default = Some(s.clone());
                    continue;
                }
            }
            return Err(syn::Error::new_spanned(
                attr,
                "expected #[default = \"mlir attribute\"]",
            ));
        }
    }
    let kind_name = last.ident.to_string();
    let kind = match kind_name.as_str() {
        "Operand" => FieldKind::Operand(Arity::Single),
        "Optional" => FieldKind::Operand(Arity::Optional),
        "Variadic" => FieldKind::Operand(Arity::Variadic),
        "Result" => FieldKind::Result(Arity::Single),
        "OptionalResult" => FieldKind::Result(Arity::Optional),
        "VariadicResult" => FieldKind::Result(Arity::Variadic),
        "Attr" if default.is_some() => FieldKind::Attr(Presence::Default),
        "Attr" => FieldKind::Attr(Presence::Required),
        "OptionalAttr" => FieldKind::Attr(Presence::Optional),
        "Region" | "SizedRegion" => FieldKind::Region { variadic: false },
        "VariadicRegion" => FieldKind::Region { variadic: true },
        "Successor" => FieldKind::Successor { variadic: false },
        "VariadicSuccessor" => FieldKind::Successor { variadic: true },
        other => {
            return Err(syn::Error::new_spanned(
                &last.ident,
                format!("unknown op field kind `{other}`"),
            ))
        }
    };
    let needs_constraint = matches!(
        kind,
        FieldKind::Operand(_) | FieldKind::Result(_) | FieldKind::Attr(_)
    );
    if needs_constraint && constraint.is_none() {
        return Err(syn::Error::new_spanned(
            &field.ty,
            "expected a constraint: Kind<Constraint>",
        ));
    }
    if default.is_some() && !matches!(kind, FieldKind::Attr(_)) {
        return Err(syn::Error::new_spanned(
            &field.ty,
            "#[default] applies to attributes only",
        ));
    }
    Ok(FieldDecl {
        name,
        accessor,
        kind,
        constraint,
        default,
        num_blocks: num,
        span: ident.span(),
    })
}

fn trait_field(path: &Path) -> syn::Result<Ident> {
    let ident = path
        .get_ident()
        .ok_or_else(|| syn::Error::new_spanned(path, "expected a trait name"))?;
    Ok(Ident::new(&snake_case(&ident.to_string()), ident.span()))
}

fn expand(args: OpArgs, input: DeriveInput) -> syn::Result<TokenStream2> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[op] applies to a struct",
        ));
    };
    let Fields::Named(named) = &data.fields else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[op] needs named fields",
        ));
    };
    let fields: Vec<FieldDecl> = named
        .named
        .iter()
        .map(parse_field)
        .collect::<syn::Result<_>>()?;
    let op_name = args.name.value();
    if !op_name.contains('.') {
        return Err(syn::Error::new_spanned(
            &args.name,
            "the op name must be `dialect.op`",
        ));
    }

    let mut traits = Vec::new();
    let mut format: Option<LitStr> = None;
    let mut all_types_match: Vec<Vec<String>> = Vec::new();
    let mut default_dialect: Option<LitStr> = None;
    let mut hooks: Vec<(String, Path)> = Vec::new();
    let mut interfaces: Vec<syn::Expr> = Vec::new();
    for (key, value) in &args.items {
        match (key.to_string().as_str(), value) {
            ("traits", ArgValue::List(list)) => {
                for path in list {
                    traits.push(trait_field(path)?);
                }
            }
            ("format", ArgValue::Str(s)) => format = Some(s.clone()),
            ("interfaces", ArgValue::Exprs(list)) => interfaces.extend(list.iter().cloned()),
            ("default_dialect", ArgValue::Str(s)) => default_dialect = Some(s.clone()),
            ("all_types_match", ArgValue::List(list)) => {
                let names = list
                    .iter()
                    .map(|p| p.get_ident().map(|i| i.to_string()))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| syn::Error::new_spanned(key, "expected value names"))?;
                all_types_match.push(names);
            }
            (
                "verify" | "verify_predicates" | "verify_regions" | "verify_symbol_uses" | "fold"
                | "canonicalize" | "infer" | "result_names" | "parse" | "print",
                ArgValue::Path(path),
            ) => hooks.push((key.to_string(), path.clone())),
            (other, _) => {
                return Err(syn::Error::new_spanned(
                    key,
                    format!("unknown or malformed op argument `{other}`"),
                ))
            }
        }
    }
    let has_hook = |name: &str| hooks.iter().any(|(k, _)| k == name);
    if format.is_some() && (has_hook("parse") || has_hook("print")) {
        return Err(syn::Error::new_spanned(
            &args.name,
            "give either a format or parse/print hooks",
        ));
    }
    if has_hook("parse") != has_hook("print") {
        return Err(syn::Error::new_spanned(
            &args.name,
            "a custom form needs both parse and print",
        ));
    }
    // Check that names used in the format and all_types_match exist.
    let value_names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    for group in &all_types_match {
        for name in group {
            if !value_names.contains(&name.as_str()) {
                return Err(syn::Error::new_spanned(
                    &args.name,
                    format!("all_types_match: no value `{name}`"),
                ));
            }
        }
    }
    if let Some(format) = &format {
        check_format(&format.value(), &fields).map_err(|e| syn::Error::new_spanned(format, e))?;
    }

    // The first paragraph of the doc comment is the summary, the rest the
    // description.
    let docs = doc_lines(&input.attrs);
    let paragraph_end = docs
        .iter()
        .position(|l| l.trim().is_empty())
        .unwrap_or(docs.len());
    let summary = docs[..paragraph_end]
        .iter()
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join(" ");
    let description = docs[paragraph_end..]
        .iter()
        .skip_while(|l| l.trim().is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");

    let krate = quote!(::strata_ir);
    let value_spec = |f: &FieldDecl, arity: Arity| {
        let name = &f.name;
        let c = &f.constraint;
        let arity = match arity {
            Arity::Single => quote!(#krate::ods::Arity::Single),
            Arity::Optional => quote!(#krate::ods::Arity::Optional),
            Arity::Variadic => quote!(#krate::ods::Arity::Variadic),
        };
        quote! {
            #krate::ods::ValueSpec {
                name: #name,
                arity: #arity,
                constraint: <#c as #krate::ods::TypeConstraintDef>::CONSTRAINT,
            }
        }
    };
    let operands: Vec<_> = fields
        .iter()
        .filter_map(|f| match f.kind {
            FieldKind::Operand(a) => Some(value_spec(f, a)),
            _ => None,
        })
        .collect();
    let results: Vec<_> = fields
        .iter()
        .filter_map(|f| match f.kind {
            FieldKind::Result(a) => Some(value_spec(f, a)),
            _ => None,
        })
        .collect();
    let attrs: Vec<_> = fields
        .iter()
        .filter_map(|f| match f.kind {
            FieldKind::Attr(p) => {
                let name = &f.name;
                let c = &f.constraint;
                let presence = match (p, &f.default) {
                    (Presence::Default, Some(d)) => quote!(#krate::ods::AttrPresence::Default(#d)),
                    (Presence::Optional, _) => quote!(#krate::ods::AttrPresence::Optional),
                    _ => quote!(#krate::ods::AttrPresence::Required),
                };
                Some(quote! {
                    #krate::ods::AttrSpec {
                        name: #name,
                        constraint: <#c as #krate::ods::AttrConstraintDef>::CONSTRAINT,
                        presence: #presence,
                    }
                })
            }
            _ => None,
        })
        .collect();
    let regions: Vec<_> = fields
        .iter()
        .filter_map(|f| match f.kind {
            FieldKind::Region { variadic } => {
                let name = &f.name;
                let blocks = match f.num_blocks {
                    Some(n) => quote!(Some(#n)),
                    None => quote!(None),
                };
                Some(quote!(#krate::ods::RegionSpec { name: #name, variadic: #variadic, num_blocks: #blocks }))
            }
            _ => None,
        })
        .collect();
    let successors: Vec<_> = fields
        .iter()
        .filter_map(|f| match f.kind {
            FieldKind::Successor { variadic } => {
                let name = &f.name;
                Some(quote!(#krate::ods::SuccessorSpec { name: #name, variadic: #variadic }))
            }
            _ => None,
        })
        .collect();
    let mut inherent_names: Vec<String> = fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::Attr(_)))
        .map(|f| f.name.clone())
        .collect();
    let operand_variadics = fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::Operand(a) if a != Arity::Single))
        .count();
    let result_variadics = fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::Result(a) if a != Arity::Single))
        .count();
    if operand_variadics > 1 {
        inherent_names.push("operandSegmentSizes".into());
    }
    if result_variadics > 1 {
        inherent_names.push("resultSegmentSizes".into());
    }
    let format_tokens = match &format {
        Some(f) => quote!(Some(#f)),
        None => quote!(None),
    };
    let dd_tokens = match &default_dialect {
        Some(d) => quote!(Some(#d)),
        None => quote!(None),
    };
    let hook = |name: &str| match hooks.iter().find(|(k, _)| k == name) {
        Some((_, path)) => quote!(Some(#path)),
        None => quote!(None),
    };
    let verify_predicates = hook("verify_predicates");
    let verify_symbol_uses = hook("verify_symbol_uses");
    let (verify, verify_regions, fold, canonicalize, infer, result_names, parse, print) = (
        hook("verify"),
        hook("verify_regions"),
        hook("fold"),
        hook("canonicalize"),
        hook("infer"),
        hook("result_names"),
        hook("parse"),
        hook("print"),
    );
    let trait_names: Vec<String> = traits.iter().map(|t| t.to_string()).collect();
    let atm_groups = all_types_match.iter().map(|g| quote!(&[#(#g),*]));

    let vis = &input.vis;
    let ident = &input.ident;
    let other_attrs: Vec<_> = input.attrs.iter().collect();
    let spec_static = format_ident!("__STRATA_OP_SPEC_{}", ident);

    // Accessors.
    let mut accessors = Vec::new();
    let (mut operand_index, mut result_index, mut region_index, mut successor_index) =
        (0usize, 0usize, 0usize, 0usize);
    let simple_operands = operand_variadics == 0;
    let simple_results = result_variadics == 0;
    for f in &fields {
        let acc = &f.accessor;
        let doc = format!(
            "The `{}` {} of the op.",
            f.name,
            match f.kind {
                FieldKind::Operand(_) => "operand",
                FieldKind::Result(_) => "result",
                FieldKind::Attr(_) => "attribute",
                FieldKind::Region { .. } => "region",
                FieldKind::Successor { .. } => "successor",
            }
        );
        let tokens = match f.kind {
            FieldKind::Operand(arity) => {
                let i = operand_index;
                operand_index += 1;
                match arity {
                    Arity::Single if simple_operands => quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> #krate::Value { ctx.operand(self.0, #i) }
                    },
                    Arity::Single => quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> Option<#krate::Value> {
                            #krate::ods::operand_group(ctx, self.0, Self::spec(), #i).first().copied()
                        }
                    },
                    Arity::Optional => quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> Option<#krate::Value> {
                            #krate::ods::operand_group(ctx, self.0, Self::spec(), #i).first().copied()
                        }
                    },
                    Arity::Variadic => quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> Vec<#krate::Value> {
                            #krate::ods::operand_group(ctx, self.0, Self::spec(), #i)
                        }
                    },
                }
            }
            FieldKind::Result(arity) => {
                let i = result_index;
                result_index += 1;
                match arity {
                    Arity::Single if simple_results => quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> #krate::Value { ctx.result(self.0, #i) }
                    },
                    Arity::Variadic => quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> Vec<#krate::Value> {
                            #krate::ods::result_group(ctx, self.0, Self::spec(), #i)
                        }
                    },
                    _ => quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> Option<#krate::Value> {
                            #krate::ods::result_group(ctx, self.0, Self::spec(), #i).first().copied()
                        }
                    },
                }
            }
            FieldKind::Attr(presence) => {
                let name = &f.name;
                let c = &f.constraint;
                let raw = format_ident!("{}_attr", acc.to_string().trim_start_matches("r#"));
                let marker = match presence {
                    Presence::Required => quote!(#krate::ods::presence::Required),
                    Presence::Optional => quote!(#krate::ods::presence::Optional),
                    Presence::Default => quote!(#krate::ods::presence::Default),
                };
                let default = match &f.default {
                    Some(d) => quote!(Some(#d)),
                    None => quote!(None),
                };
                let value_doc = format!(
                    "The value of the `{}` attribute of the op{}.",
                    f.name,
                    if f.default.is_some() {
                        " (its declared default when the op holds none)"
                    } else {
                        ""
                    }
                );
                quote! {
                    #[doc = #doc]
                    pub fn #raw(self, ctx: &#krate::Context) -> Option<#krate::Attribute> {
                        #krate::ods::inherent_attr(ctx, self.0, #name)
                    }

                    #[doc = #value_doc]
                    pub fn #acc(self, ctx: &#krate::Context) -> <#c as #krate::ods::AttrAccess<#marker>>::Output {
                        <#c as #krate::ods::AttrAccess<#marker>>::get(ctx, self.0, #name, #default)
                    }
                }
            }
            FieldKind::Region { variadic } => {
                let i = region_index;
                region_index += 1;
                if variadic {
                    quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> Vec<#krate::Region> {
                            ctx.op_regions(self.0).get(#i..).map(<[_]>::to_vec).unwrap_or_default()
                        }
                    }
                } else {
                    quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> Option<#krate::Region> {
                            ctx.op_regions(self.0).get(#i).copied()
                        }
                    }
                }
            }
            FieldKind::Successor { variadic } => {
                let i = successor_index;
                successor_index += 1;
                if variadic {
                    quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> Vec<#krate::Block> {
                            ctx.successors(self.0).skip(#i).collect()
                        }
                    }
                } else {
                    quote! {
                        #[doc = #doc]
                        pub fn #acc(self, ctx: &#krate::Context) -> Option<#krate::Block> {
                            ctx.successors(self.0).nth(#i)
                        }
                    }
                }
            }
        };
        let _ = f.span;
        accessors.push(tokens);
    }

    // Builder.
    let same_type = traits.iter().any(|t| t == "same_operands_and_result_type");
    let first_single_operand = fields
        .iter()
        .find(|f| f.kind == FieldKind::Operand(Arity::Single))
        .map(|f| f.accessor.clone());
    let infer_from_operand = same_type && first_single_operand.is_some() && result_variadics == 0;
    let mut params = Vec::new();
    let mut body = Vec::new();
    let mut segment_pushes = Vec::new();
    // What `build_inferred` takes: everything but the result types.
    let mut inferred_params = Vec::new();
    let mut inferred_body = Vec::new();
    for f in &fields {
        let acc = &f.accessor;
        let (params_before, body_before) = (params.len(), body.len());
        let is_result = matches!(f.kind, FieldKind::Result(_));
        match f.kind {
            FieldKind::Result(arity) if !infer_from_operand => {
                let p = format_ident!("{}_type", f.accessor.to_string().trim_start_matches("r#"));
                match arity {
                    Arity::Single => {
                        params.push(quote!(#p: #krate::Type));
                        body.push(quote!(state.result_types.push(#p);));
                    }
                    Arity::Optional => {
                        params.push(quote!(#p: Option<#krate::Type>));
                        body.push(quote!(state.result_types.extend(#p);));
                    }
                    Arity::Variadic => {
                        params.push(quote!(#p: &[#krate::Type]));
                        body.push(quote!(state.result_types.extend_from_slice(#p);));
                    }
                }
            }
            FieldKind::Operand(arity) => match arity {
                Arity::Single => {
                    params.push(quote!(#acc: #krate::Value));
                    body.push(quote!(state.operands.push(#acc);));
                    segment_pushes.push(quote!(1u64));
                }
                Arity::Optional => {
                    params.push(quote!(#acc: Option<#krate::Value>));
                    body.push(quote!(state.operands.extend(#acc);));
                    segment_pushes.push(quote!(#acc.is_some() as u64));
                }
                Arity::Variadic => {
                    params.push(quote!(#acc: &[#krate::Value]));
                    body.push(quote!(state.operands.extend_from_slice(#acc);));
                    segment_pushes.push(quote!(#acc.len() as u64));
                }
            },
            FieldKind::Attr(presence) => {
                let name = &f.name;
                if presence == Presence::Required {
                    params.push(quote!(#acc: #krate::Attribute));
                    body.push(quote!(props.push((ctx.ident(#name), #acc));));
                } else {
                    params.push(quote!(#acc: Option<#krate::Attribute>));
                    body.push(quote!(if let Some(value) = #acc { props.push((ctx.ident(#name), value)); }));
                }
            }
            FieldKind::Region { variadic: false } => {
                body.push(quote!(state.regions.push(ctx.create_region());));
            }
            FieldKind::Region { variadic: true } => {
                params.push(quote!(#acc: usize));
                body.push(quote!(for _ in 0..#acc { state.regions.push(ctx.create_region()); }));
            }
            FieldKind::Successor { variadic: false } => {
                params.push(quote!(#acc: #krate::Block));
                body.push(quote!(state.successors.push(#acc);));
            }
            FieldKind::Successor { variadic: true } => {
                params.push(quote!(#acc: &[#krate::Block]));
                body.push(quote!(state.successors.extend_from_slice(#acc);));
            }
            _ => {}
        }
        if !is_result {
            inferred_params.extend(params[params_before..].iter().cloned());
            inferred_body.extend(body[body_before..].iter().cloned());
        }
    }
    let result_segments_tokens = if result_variadics > 1 {
        let sizes = fields.iter().filter_map(|f| match f.kind {
            FieldKind::Result(Arity::Single) => Some(quote!(1u64)),
            FieldKind::Result(Arity::Optional) => {
                let p = format_ident!("{}_type", f.accessor.to_string().trim_start_matches("r#"));
                Some(quote!(#p.is_some() as u64))
            }
            FieldKind::Result(Arity::Variadic) => {
                let p = format_ident!("{}_type", f.accessor.to_string().trim_start_matches("r#"));
                Some(quote!(#p.len() as u64))
            }
            _ => None,
        });
        quote! {
            let sizes: Vec<u64> = vec![#(#sizes),*];
            let i32_type = ctx.integer_type(32);
            let segments = ctx.intern_attr(#krate::AttrKind::DenseArray { element: i32_type, values: sizes.into() });
            props.push((ctx.ident("resultSegmentSizes"), segments));
        }
    } else {
        quote!()
    };
    let infer_tokens = if infer_from_operand {
        let first = first_single_operand.clone();
        quote! {
            let ty = ctx.value_type(#first);
            state.result_types.push(ty);
        }
    } else {
        quote!()
    };
    let segments_tokens = if operand_variadics > 1 {
        quote! {
            let sizes: Vec<u64> = vec![#(#segment_pushes),*];
            let i32_type = ctx.integer_type(32);
            let segments = ctx.intern_attr(#krate::AttrKind::DenseArray { element: i32_type, values: sizes.into() });
            props.push((ctx.ident("operandSegmentSizes"), segments));
        }
    } else {
        quote!()
    };
    let inherent_lits = inherent_names.iter();

    // `build_inferred`: result types from the `infer` hook, or from an
    // interface that infers them from the built op (`ShapeFunction`).
    let num_results = fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::Result(_)))
        .count();
    let single_results = fields
        .iter()
        .all(|f| !matches!(f.kind, FieldKind::Result(a) if a != Arity::Single));
    let inferring_interface = interfaces.iter().find(|e| is_inferring_interface(e));
    let infer_hook = hooks.iter().find(|(k, _)| k == "infer").map(|(_, p)| p);
    let build_inferred = if num_results == 0 || result_variadics > 1 {
        quote!()
    } else if let Some(hook) = infer_hook {
        quote! {
            /// Create the op (detached) from its operands and attributes,
            /// with the result types its `infer` hook gives; default-valued
            /// attributes are set.
            #[allow(clippy::too_many_arguments, unused_mut)]
            pub fn build_inferred(
                ctx: &mut #krate::Context,
                loc: #krate::Location,
                #(#inferred_params),*
            ) -> ::std::result::Result<Self, #krate::ods::InferError> {
                let __op_ident = ctx.ident(#op_name);
                let mut state = #krate::OperationState::new(__op_ident, loc);
                let mut props: Vec<(#krate::Ident, #krate::Attribute)> = Vec::new();
                #(#inferred_body)*
                #segments_tokens
                // The hook sees the inherent attributes as the format
                // parser gives them: as attributes.
                state.attributes = props.clone();
                let types = #hook(ctx, &state)
                    .map_err(|message| #krate::ods::InferError::new(#op_name, message))?;
                state.attributes.clear();
                state.result_types = types;
                if !props.is_empty() {
                    state.properties = Some(ctx.dictionary_attr(props));
                }
                #krate::ods::fill_default_properties(ctx, Self::spec(), &mut state);
                Ok(Self(ctx.create_operation(state)))
            }
        }
    } else if let (Some(interface), true) = (inferring_interface, single_results) {
        quote! {
            /// Create the op (detached) from its operands and attributes,
            /// with the result types its inferring interface gives;
            /// default-valued attributes are set.
            #[allow(clippy::too_many_arguments, unused_mut)]
            pub fn build_inferred(
                ctx: &mut #krate::Context,
                loc: #krate::Location,
                #(#inferred_params),*
            ) -> ::std::result::Result<Self, #krate::ods::InferError> {
                let __infer = #interface;
                let __placeholder = #krate::interfaces::InferResultTypes::placeholder_type(&__infer, ctx);
                let __op_ident = ctx.ident(#op_name);
                let mut state = #krate::OperationState::new(__op_ident, loc);
                let mut props: Vec<(#krate::Ident, #krate::Attribute)> = Vec::new();
                #(#inferred_body)*
                #segments_tokens
                state.result_types = vec![__placeholder; #num_results];
                if !props.is_empty() {
                    state.properties = Some(ctx.dictionary_attr(props));
                }
                #krate::ods::fill_default_properties(ctx, Self::spec(), &mut state);
                let op = ctx.create_operation(state);
                #krate::ods::infer_created(ctx, op, &__infer).map(Self)
            }
        }
    } else {
        quote!()
    };

    Ok(quote! {
        #(#other_attrs)*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #vis struct #ident(pub #krate::Operation);

        #[allow(non_upper_case_globals)]
        static #spec_static: #krate::ods::OpSpec = #krate::ods::OpSpec {
            name: #op_name,
            summary: #summary,
            description: #description,
            operands: &[#(#operands),*],
            results: &[#(#results),*],
            attributes: &[#(#attrs),*],
            regions: &[#(#regions),*],
            successors: &[#(#successors),*],
            traits: #krate::dialect::OpTraits { #(#traits: true,)* ..#krate::dialect::OpTraits::NONE },
            trait_order: &[#(#trait_names),*],
            all_types_match: &[#(#atm_groups),*],
            format: #format_tokens,
            compiled_format: ::std::sync::OnceLock::new(),
            parse: #parse,
            print: #print,
            verify_predicates: #verify_predicates,
            verify: #verify,
            verify_regions: #verify_regions,
            verify_symbol_uses: #verify_symbol_uses,
            fold: #fold,
            canonicalize: #canonicalize,
            infer_result_types: #infer,
            result_names: #result_names,
            default_dialect: #dd_tokens,
        };

        impl #ident {
            /// The op's full name.
            pub const NAME: &'static str = #op_name;

            /// The op's declarative definition.
            pub fn spec() -> &'static #krate::ods::OpSpec {
                &#spec_static
            }

            /// Register the op with a context, with the interfaces its
            /// declaration attaches.
            pub fn register(ctx: &mut #krate::Context) {
                #[allow(unused_mut, unused_variables)]
                let mut registered = #krate::ods::register(ctx, Self::spec(), &[#(#inherent_lits),*]);
                #( registered.attach_interface(#interfaces); )*
            }

            /// `op` as this op kind, if it is one.
            pub fn from_op(ctx: &#krate::Context, op: #krate::Operation) -> Option<Self> {
                (ctx.op_name_str(op) == #op_name).then_some(Self(op))
            }

            /// The underlying operation.
            pub fn op(self) -> #krate::Operation {
                self.0
            }

            /// Create the op (detached) from its operands, attributes and
            /// result types; regions are created empty, default-valued
            /// attributes are set.
            #[allow(clippy::too_many_arguments, unused_mut)]
            pub fn build(ctx: &mut #krate::Context, loc: #krate::Location, #(#params),*) -> Self {
                let __op_ident = ctx.ident(#op_name);
                let mut state = #krate::OperationState::new(__op_ident, loc);
                let mut props: Vec<(#krate::Ident, #krate::Attribute)> = Vec::new();
                #(#body)*
                #infer_tokens
                #segments_tokens
                #result_segments_tokens
                if !props.is_empty() {
                    state.properties = Some(ctx.dictionary_attr(props));
                }
                #krate::ods::fill_default_properties(ctx, Self::spec(), &mut state);
                Self(ctx.create_operation(state))
            }

            #build_inferred

            #(#accessors)*
        }

        impl #krate::ods::TypedOp for #ident {
            const NAME: &'static str = #op_name;

            fn from_op(ctx: &#krate::Context, op: #krate::Operation) -> Option<Self> {
                (ctx.op_name_str(op) == #op_name).then_some(Self(op))
            }

            fn op(self) -> #krate::Operation {
                self.0
            }
        }

        #krate::inventory::submit! {
            #krate::ods::DeclaredOp { spec: #ident::spec, register: #ident::register }
        }
    })
}

/// Whether an interface expression is a `ShapeFunction(...)` (by its
/// leading path), the interface whose type implements
/// `strata_ir::interfaces::InferResultTypes`.
fn is_inferring_interface(expr: &syn::Expr) -> bool {
    let mut last = None;
    for token in quote!(#expr) {
        match token {
            proc_macro2::TokenTree::Ident(ident) => last = Some(ident.to_string()),
            proc_macro2::TokenTree::Punct(p) if p.as_char() == ':' => {}
            _ => break,
        }
    }
    last.as_deref() == Some("ShapeFunction")
}

/// Compile-time check of an assembly format: balanced groups, known
/// variables and directives, anchors inside groups.
fn check_format(text: &str, fields: &[FieldDecl]) -> Result<(), String> {
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    // Anchors seen in each open optional group.
    let mut anchors: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => {
                let end = text[i + 1..].find('`').ok_or("unterminated literal")?;
                i += end + 2;
            }
            b'$' => {
                let start = i + 1;
                let mut end = start;
                while end < bytes.len()
                    && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_')
                {
                    end += 1;
                }
                let name = &text[start..end];
                if !names.contains(&name) {
                    return Err(format!(
                        "format names `${name}`, which the op does not declare"
                    ));
                }
                i = end;
            }
            b'(' => {
                depth += 1;
                // `type(`, `functional-type(`: directive arguments, not a group.
                let directive = text[..i].trim_end().ends_with("type");
                anchors.push(if directive { u32::MAX } else { 0 });
                i += 1;
            }
            b')' => {
                depth -= 1;
                if depth < 0 {
                    return Err("unbalanced ')' in format".into());
                }
                match anchors.pop() {
                    Some(0) => return Err("optional group has no anchor ('^')".into()),
                    Some(n) if n != u32::MAX && n > 1 => {
                        return Err("optional group has more than one anchor ('^')".into())
                    }
                    _ => {}
                }
                i += 1;
            }
            b'^' => {
                match anchors.iter_mut().rev().find(|n| **n != u32::MAX) {
                    Some(n) => *n += 1,
                    None => return Err("'^' outside of an optional group".into()),
                }
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'-' | b'_'))
                {
                    i += 1;
                }
                let word = &text[start..i];
                if !matches!(
                    word,
                    "attr-dict"
                        | "attr-dict-with-keyword"
                        | "type"
                        | "functional-type"
                        | "operands"
                        | "results"
                        | "regions"
                        | "successors"
                ) {
                    return Err(format!("unknown format directive `{word}`"));
                }
            }
            b' ' | b'\n' | b'?' | b',' => i += 1,
            c => return Err(format!("unexpected `{}` in format", c as char)),
        }
    }
    if depth != 0 {
        return Err("unbalanced '(' in format".into());
    }
    Ok(())
}
