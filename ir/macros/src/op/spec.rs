//! The op's static `OpSpec`: its operands, results, attributes, regions
//! and successors, traits, format and hooks.

use proc_macro2::{Ident, TokenStream as TokenStream2};
use quote::quote;

use super::parse::{Arity, FieldDecl, FieldKind, OpDecl, Presence};

/// The specs of an op's fields, by kind, in declaration order.
struct FieldSpecs {
    operands: Vec<TokenStream2>,
    results: Vec<TokenStream2>,
    attrs: Vec<TokenStream2>,
    regions: Vec<TokenStream2>,
    successors: Vec<TokenStream2>,
}

fn field_specs(fields: &[FieldDecl]) -> FieldSpecs {
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
    FieldSpecs {
        operands,
        results,
        attrs,
        regions,
        successors,
    }
}

/// The names of the op's inherent attributes: its declared attributes and
/// the segment sizes of several variadic operand or result groups.
pub(super) fn inherent_names(
    fields: &[FieldDecl],
    operand_variadics: usize,
    result_variadics: usize,
) -> Vec<String> {
    let mut inherent_names: Vec<String> = fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::Attr(_)))
        .map(|f| f.name.clone())
        .collect();
    if operand_variadics > 1 {
        inherent_names.push("operandSegmentSizes".into());
    }
    if result_variadics > 1 {
        inherent_names.push("resultSegmentSizes".into());
    }
    inherent_names
}

/// The `static` holding the op's `OpSpec`.
pub(super) fn spec_static(
    decl: &OpDecl,
    fields: &[FieldDecl],
    spec_static: &Ident,
    summary: &str,
    description: &str,
) -> TokenStream2 {
    let krate = quote!(::strata_ir);
    let OpDecl {
        op_name,
        traits,
        format,
        all_types_match,
        default_dialect,
        hooks,
        ..
    } = decl;
    let FieldSpecs {
        operands,
        results,
        attrs,
        regions,
        successors,
    } = field_specs(fields);
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
    quote! {
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
    }
}
