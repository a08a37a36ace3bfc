//! The typed accessors of an op: one per operand, result, attribute (the
//! raw attribute and its value), region and successor.

use proc_macro2::{Ident, TokenStream as TokenStream2};
use quote::{format_ident, quote};

use super::parse::{Arity, FieldDecl, FieldKind, Presence};

/// The accessors of the op's fields, in declaration order.
pub(super) fn accessors(
    fields: &[FieldDecl],
    simple_operands: bool,
    simple_results: bool,
) -> Vec<TokenStream2> {
    let mut accessors = Vec::new();
    let (mut operand_index, mut result_index, mut region_index, mut successor_index) =
        (0usize, 0usize, 0usize, 0usize);
    for f in fields {
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
                operand_accessor(acc, &doc, i, arity, simple_operands)
            }
            FieldKind::Result(arity) => {
                let i = result_index;
                result_index += 1;
                result_accessor(acc, &doc, i, arity, simple_results)
            }
            FieldKind::Attr(presence) => attr_accessor(f, &doc, presence),
            FieldKind::Region { variadic } => {
                let i = region_index;
                region_index += 1;
                region_accessor(acc, &doc, i, variadic)
            }
            FieldKind::Successor { variadic } => {
                let i = successor_index;
                successor_index += 1;
                successor_accessor(acc, &doc, i, variadic)
            }
        };
        let _ = f.span;
        accessors.push(tokens);
    }
    accessors
}

fn operand_accessor(
    acc: &Ident,
    doc: &str,
    i: usize,
    arity: Arity,
    simple_operands: bool,
) -> TokenStream2 {
    let krate = quote!(::strata_ir);
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

fn result_accessor(
    acc: &Ident,
    doc: &str,
    i: usize,
    arity: Arity,
    simple_results: bool,
) -> TokenStream2 {
    let krate = quote!(::strata_ir);
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

/// The raw attribute accessor (`<name>_attr`) and the value accessor.
fn attr_accessor(f: &FieldDecl, doc: &str, presence: Presence) -> TokenStream2 {
    let krate = quote!(::strata_ir);
    let acc = &f.accessor;
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

fn region_accessor(acc: &Ident, doc: &str, i: usize, variadic: bool) -> TokenStream2 {
    let krate = quote!(::strata_ir);
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

fn successor_accessor(acc: &Ident, doc: &str, i: usize, variadic: bool) -> TokenStream2 {
    let krate = quote!(::strata_ir);
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
