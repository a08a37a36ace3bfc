//! The builders of an op: `build` (from operands, attributes and result
//! types) and `build_inferred` (result types inferred).

use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};

use super::parse::{Arity, FieldDecl, FieldKind, OpDecl, Presence};

/// `build` and, where the op can infer its result types, `build_inferred`.
pub(super) fn builders(
    decl: &OpDecl,
    fields: &[FieldDecl],
    operand_variadics: usize,
    result_variadics: usize,
) -> TokenStream2 {
    let krate = quote!(::strata_ir);
    let OpDecl {
        op_name, traits, ..
    } = decl;
    let same_type = traits.iter().any(|t| t == "same_operands_and_result_type");
    let first_single_operand = fields
        .iter()
        .find(|f| f.kind == FieldKind::Operand(Arity::Single))
        .map(|f| f.accessor.clone());
    let infer_from_operand = same_type && first_single_operand.is_some() && result_variadics == 0;
    let BuildParts {
        params,
        body,
        segment_pushes,
        inferred_params,
        inferred_body,
    } = build_parts(fields, infer_from_operand);
    let result_segments_tokens = result_segments(fields, result_variadics);
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
    let build_inferred = build_inferred(
        decl,
        fields,
        result_variadics,
        &inferred_params,
        &inferred_body,
        &segments_tokens,
    );
    quote! {
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
    }
}

/// The parameters and statements of `build`, and those of `build_inferred`
/// (everything but the result types).
struct BuildParts {
    params: Vec<TokenStream2>,
    body: Vec<TokenStream2>,
    segment_pushes: Vec<TokenStream2>,
    inferred_params: Vec<TokenStream2>,
    inferred_body: Vec<TokenStream2>,
}

fn build_parts(fields: &[FieldDecl], infer_from_operand: bool) -> BuildParts {
    let krate = quote!(::strata_ir);
    let mut params = Vec::new();
    let mut body = Vec::new();
    let mut segment_pushes = Vec::new();
    // What `build_inferred` takes: everything but the result types.
    let mut inferred_params = Vec::new();
    let mut inferred_body = Vec::new();
    for f in fields {
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
    BuildParts {
        params,
        body,
        segment_pushes,
        inferred_params,
        inferred_body,
    }
}

/// The statements setting `resultSegmentSizes`, for several variadic
/// result groups.
fn result_segments(fields: &[FieldDecl], result_variadics: usize) -> TokenStream2 {
    let krate = quote!(::strata_ir);
    if result_variadics > 1 {
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
    }
}

/// `build_inferred`: result types from the `infer` hook, or from an
/// interface that infers them from the built op (`ShapeFunction`).
fn build_inferred(
    decl: &OpDecl,
    fields: &[FieldDecl],
    result_variadics: usize,
    inferred_params: &[TokenStream2],
    inferred_body: &[TokenStream2],
    segments_tokens: &TokenStream2,
) -> TokenStream2 {
    let krate = quote!(::strata_ir);
    let OpDecl {
        op_name,
        hooks,
        interfaces,
        ..
    } = decl;
    let num_results = fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::Result(_)))
        .count();
    let single_results = fields
        .iter()
        .all(|f| !matches!(f.kind, FieldKind::Result(a) if a != Arity::Single));
    let inferring_interface = interfaces.iter().find(|e| is_inferring_interface(e));
    let infer_hook = hooks.iter().find(|(k, _)| k == "infer").map(|(_, p)| p);
    if num_results == 0 || result_variadics > 1 {
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
    }
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
