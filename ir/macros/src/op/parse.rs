//! Parsing of an `#[op]` declaration: the macro's arguments (`OpArgs`) and
//! the struct's fields (`FieldDecl`).

use proc_macro2::Span;
use quote::format_ident;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{
    Data, DeriveInput, Fields, GenericArgument, Ident, LitStr, Path, PathArguments, Token, Type,
};

use super::format::check_format;

pub(super) enum ArgValue {
    Str(LitStr),
    Path(Path),
    List(Vec<Path>),
    Exprs(Vec<syn::Expr>),
}

pub(crate) struct OpArgs {
    pub(super) name: LitStr,
    pub(super) items: Vec<(Ident, ArgValue)>,
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

#[derive(Clone, Copy, PartialEq)]
pub(super) enum FieldKind {
    Operand(Arity),
    Result(Arity),
    Attr(Presence),
    Region { variadic: bool },
    Successor { variadic: bool },
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Arity {
    Single,
    Optional,
    Variadic,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Presence {
    Required,
    Optional,
    Default,
}

pub(super) struct FieldDecl {
    pub(super) name: String,
    pub(super) accessor: Ident,
    pub(super) kind: FieldKind,
    pub(super) constraint: Option<Type>,
    pub(super) default: Option<LitStr>,
    pub(super) num_blocks: Option<usize>,
    pub(super) span: Span,
}

pub(super) fn snake_case(name: &str) -> String {
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

pub(super) fn doc_lines(attrs: &[syn::Attribute]) -> Vec<String> {
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

pub(super) fn parse_field(field: &syn::Field) -> syn::Result<FieldDecl> {
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
    let (mut constraint, mut num) = match &last.arguments {
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
    // `VariadicRegion<SizedRegion<N>>`: every region of the group has N blocks.
    if matches!(kind, FieldKind::Region { variadic: true }) {
        if let Some(n) = constraint.as_ref().and_then(sized_region_blocks) {
            num = Some(n?);
            constraint = None;
        }
    }
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

/// `N` of a `SizedRegion<N>` type, if `ty` is one.
fn sized_region_blocks(ty: &Type) -> Option<syn::Result<usize>> {
    let Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != "SizedRegion" {
        return None;
    }
    match &last.arguments {
        PathArguments::AngleBracketed(args) => match args.args.first() {
            Some(GenericArgument::Const(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(n),
                ..
            }))) => Some(n.base10_parse::<usize>()),
            _ => Some(Err(syn::Error::new_spanned(
                args,
                "expected SizedRegion<N>",
            ))),
        },
        _ => Some(Err(syn::Error::new_spanned(
            last,
            "expected SizedRegion<N>",
        ))),
    }
}

pub(super) fn trait_field(path: &Path) -> syn::Result<Ident> {
    let ident = path
        .get_ident()
        .ok_or_else(|| syn::Error::new_spanned(path, "expected a trait name"))?;
    Ok(Ident::new(&snake_case(&ident.to_string()), ident.span()))
}

/// The fields of the op's struct, parsed.
pub(super) fn struct_fields(input: &DeriveInput) -> syn::Result<Vec<FieldDecl>> {
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
    named.named.iter().map(parse_field).collect()
}

/// The op's arguments other than its fields: name, traits, format, hooks
/// and interfaces.
pub(super) struct OpDecl {
    pub(super) op_name: String,
    pub(super) traits: Vec<Ident>,
    pub(super) format: Option<LitStr>,
    pub(super) all_types_match: Vec<Vec<String>>,
    pub(super) default_dialect: Option<LitStr>,
    pub(super) hooks: Vec<(String, Path)>,
    pub(super) interfaces: Vec<syn::Expr>,
}

/// The op's arguments, checked against each other and against its fields.
pub(super) fn op_decl(args: &OpArgs, fields: &[FieldDecl]) -> syn::Result<OpDecl> {
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
        check_format(&format.value(), fields).map_err(|e| syn::Error::new_spanned(format, e))?;
    }
    Ok(OpDecl {
        op_name,
        traits,
        format,
        all_types_match,
        default_dialect,
        hooks,
        interfaces,
    })
}

/// The op's doc comment as its summary (the first paragraph) and its
/// description (the rest).
pub(super) fn summary_and_description(attrs: &[syn::Attribute]) -> (String, String) {
    let docs = doc_lines(attrs);
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
    (summary, description)
}
