//! `#[pass]`: a pass's name, description and typed options, stated once on
//! its struct.
//!
//! ```ignore
//! #[pass(name = "canonicalize", display_name = "Canonicalizer", summary = "Canonicalize operations")]
//! pub(crate) struct Canonicalize {
//!     #[option(name = "max-iterations", default = 10, description = "Max. iterations ...")]
//!     max_iterations: i64,
//!     #[option(name = "disable-patterns", description = "Labels of patterns ...")]
//!     disable_patterns: ListOption<String>,
//! }
//! ```
//!
//! Writes `Default` (each option at its default, other fields at theirs),
//! `strata_ir::pass::PassInfo` (name, display name, description, anchor,
//! the option table, setting an option from pipeline text, printing the
//! options) and `registration()`. The user writes `impl Pass` (`run`).

use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{Data, DeriveInput, Fields, Ident, Lit, LitStr, Token};

/// `key = value` pairs, values string, integer or boolean literals
/// (integers may be negative).
struct KeyValues(Vec<(Ident, Value)>);

#[derive(Clone)]
enum Value {
    Str(LitStr),
    /// Any other literal, as the text of its value (`-1`, `true`).
    Text(String, Span),
}

impl Value {
    fn text(&self) -> String {
        match self {
            Value::Str(s) => s.value(),
            Value::Text(t, _) => t.clone(),
        }
    }

    fn span(&self) -> Span {
        match self {
            Value::Str(s) => s.span(),
            Value::Text(_, span) => *span,
        }
    }
}

impl Parse for KeyValues {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut items = Vec::new();
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            let negative = input.parse::<Option<Token![-]>>()?.is_some();
            let lit: Lit = input.parse()?;
            let sign = if negative { "-" } else { "" };
            let value = match &lit {
                Lit::Str(s) if !negative => Value::Str(s.clone()),
                Lit::Int(i) => Value::Text(format!("{sign}{}", i.base10_digits()), i.span()),
                Lit::Float(f) => Value::Text(format!("{sign}{}", f.base10_digits()), f.span()),
                Lit::Bool(b) if !negative => Value::Text(b.value.to_string(), b.span),
                _ => {
                    return Err(syn::Error::new_spanned(
                        &lit,
                        "expected a string, integer or boolean literal",
                    ))
                }
            };
            items.push((key, value));
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(KeyValues(items))
    }
}

impl KeyValues {
    fn take(&mut self, key: &str) -> Option<Value> {
        let index = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(index).1)
    }

    fn take_str(&mut self, key: &str) -> syn::Result<Option<LitStr>> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::Str(s)) => Ok(Some(s)),
            Some(other) => Err(syn::Error::new(
                other.span(),
                format!("`{key}` takes a string"),
            )),
        }
    }

    fn finish(self) -> syn::Result<()> {
        match self.0.first() {
            None => Ok(()),
            Some((key, _)) => Err(syn::Error::new_spanned(
                key,
                format!("unknown argument `{key}`"),
            )),
        }
    }
}

struct OptionDecl {
    field: Ident,
    ty: syn::Type,
    name: String,
    description: LitStr,
    default: Option<String>,
}

pub(crate) fn expand(attr: TokenStream2, input: DeriveInput) -> syn::Result<TokenStream2> {
    let mut args: KeyValues = syn::parse2(attr)?;
    let name = args
        .take_str("name")?
        .ok_or_else(|| syn::Error::new(Span::call_site(), "#[pass] needs `name = \"...\"`"))?;
    let summary = args
        .take_str("summary")?
        .ok_or_else(|| syn::Error::new(Span::call_site(), "#[pass] needs `summary = \"...\"`"))?;
    let display_name = args.take_str("display_name")?;
    let anchor = args.take_str("anchor")?;
    let required = match args.take("required") {
        None => false,
        Some(Value::Text(t, _)) if t == "true" || t == "false" => t == "true",
        Some(other) => {
            return Err(syn::Error::new(
                other.span(),
                "`required` takes `true` or `false`",
            ))
        }
    };
    args.finish()?;

    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "a #[pass] struct cannot be generic",
        ));
    }
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[pass] applies to a struct",
        ));
    };
    let mut item = input.clone();
    let Data::Struct(item_data) = &mut item.data else {
        unreachable!("checked above");
    };

    // The fields: options (their #[option] removed from the output) and
    // plain state.
    let unit = matches!(data.fields, Fields::Unit);
    if let Fields::Unnamed(fields) = &data.fields {
        return Err(syn::Error::new_spanned(
            fields,
            "#[pass] needs named fields (or none)",
        ));
    }
    let (options, others) = parse_options(item_data)?;
    check_unique_names(&options)?;

    let krate = quote!(::strata_ir);
    let ident = &input.ident;
    let vis = &input.vis;
    let table = format_ident!("__STRATA_PASS_OPTIONS_{}", ident);
    let pass_name = name.value();
    let display = display_name.map_or(pass_name.clone(), |d| d.value());
    let summary_text = summary.value();
    let anchor_tokens = match &anchor {
        Some(a) => quote!(Some(#a)),
        None => quote!(None),
    };

    let defs = options.iter().map(|o| {
        let (n, ty, help) = (&o.name, &o.ty, &o.description);
        let default = o.default.clone().unwrap_or_default();
        quote! {
            #krate::pass::PassOptionDef {
                name: #n,
                help: #help,
                kind: <#ty as #krate::pass::PassOptionValue>::KIND,
                default: #default,
            }
        }
    });
    let inits = options.iter().map(|o| {
        let (field, ty) = (&o.field, &o.ty);
        match &o.default {
            Some(text) => quote! {
                #field: <#ty as #krate::pass::PassOptionValue>::parse_option(#text)
                    .unwrap_or_default()
            },
            None => quote!(#field: ::core::default::Default::default()),
        }
    });
    let other_inits = others
        .iter()
        .map(|f| quote!(#f: ::core::default::Default::default()));
    let construct = if unit {
        quote!(#ident)
    } else {
        quote!(#ident { #(#inits,)* #(#other_inits,)* })
    };
    let setters = options.iter().map(|o| {
        let (n, field) = (&o.name, &o.field);
        quote!(#n => #krate::pass::set_option_value(&mut self.#field, name, value),)
    });
    // Printed sorted by name, as MLIR does.
    let mut sorted: Vec<&OptionDecl> = options.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let renders = sorted.iter().map(|o| {
        let (n, field, ty) = (&o.name, &o.field, &o.ty);
        quote!(<#ty as #krate::pass::PassOptionValue>::render_option(&self.#field, #n))
    });
    let registration_doc =
        format!("How `{pass_name}` is registered: its name, description, options and constructor.");

    Ok(quote! {
        #item

        #[allow(non_upper_case_globals)]
        static #table: &[#krate::pass::PassOptionDef] = &[#(#defs),*];

        impl ::core::default::Default for #ident {
            fn default() -> Self {
                #construct
            }
        }

        impl #krate::pass::PassInfo for #ident {
            fn name(&self) -> &'static str {
                #pass_name
            }

            fn display_name(&self) -> &'static str {
                #display
            }

            fn description(&self) -> &'static str {
                #summary_text
            }

            fn anchor(&self) -> Option<&'static str> {
                #anchor_tokens
            }

            fn required(&self) -> bool {
                #required
            }

            fn option_defs(&self) -> &'static [#krate::pass::PassOptionDef] {
                #table
            }

            #[allow(unused_variables)]
            fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
                match name {
                    #(#setters)*
                    _ => Err(format!("no such option {name}")),
                }
            }

            fn render_options(&self) -> String {
                let items: &[String] = &[#(#renders),*];
                items.join(" ")
            }
        }

        impl #ident {
            #[doc = #registration_doc]
            #vis fn registration() -> #krate::pass::PassRegistration {
                #krate::pass::PassRegistration {
                    name: #pass_name,
                    description: #summary_text,
                    options: #table,
                    create: || ::std::boxed::Box::new(<#ident as ::core::default::Default>::default()),
                }
            }
        }
    })
}

/// The struct's options (their `#[option]` attributes removed from
/// `item_data`) and its other fields, the plain state.
fn parse_options(item_data: &mut syn::DataStruct) -> syn::Result<(Vec<OptionDecl>, Vec<Ident>)> {
    let mut options = Vec::new();
    let mut others = Vec::new();
    for field in item_data.fields.iter_mut() {
        let Some(ident) = field.ident.clone() else {
            continue;
        };
        let mut decl = None;
        let mut error = None;
        field.attrs.retain(|a| {
            if !a.path().is_ident("option") {
                return true;
            }
            match a.parse_args::<KeyValues>() {
                Ok(kv) => decl = Some(kv),
                Err(e) => error = Some(e),
            }
            false
        });
        if let Some(e) = error {
            return Err(e);
        }
        match decl {
            Some(mut kv) => {
                let option_name = kv
                    .take_str("name")?
                    .map(|s| s.value())
                    .unwrap_or_else(|| ident.to_string().replace('_', "-"));
                let description = kv.take_str("description")?.ok_or_else(|| {
                    syn::Error::new_spanned(&ident, "#[option] needs `description = \"...\"`")
                })?;
                let default = kv.take("default").map(|v| v.text());
                kv.finish()?;
                options.push(OptionDecl {
                    field: ident,
                    ty: field.ty.clone(),
                    name: option_name,
                    description,
                    default,
                });
            }
            None => others.push(ident),
        }
    }
    Ok((options, others))
}

/// An error for the second of two options with the same name.
fn check_unique_names(options: &[OptionDecl]) -> syn::Result<()> {
    for (i, a) in options.iter().enumerate() {
        if options[..i].iter().any(|b| b.name == a.name) {
            return Err(syn::Error::new_spanned(
                &a.field,
                format!("two options are named `{}`", a.name),
            ));
        }
    }
    Ok(())
}
