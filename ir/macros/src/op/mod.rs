//! `#[op]`: the expansion of an op declaration, one generator per part
//! (see the crate documentation for the declaration syntax).

mod accessors;
mod builders;
mod format;
mod parse;
mod spec;

use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};
use syn::DeriveInput;

use parse::{Arity, FieldKind};

pub(crate) use parse::OpArgs;

/// The items an op declaration expands to: the handle struct, its static
/// `OpSpec`, its inherent functions (`spec`, `register`, `build`, the
/// accessors), `TypedOp` and the `DeclaredOp` submission.
pub(crate) fn expand(args: OpArgs, input: DeriveInput) -> syn::Result<TokenStream2> {
    let fields = parse::struct_fields(&input)?;
    let decl = parse::op_decl(&args, &fields)?;
    let (summary, description) = parse::summary_and_description(&input.attrs);

    let krate = quote!(::strata_ir);
    let operand_variadics = fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::Operand(a) if a != Arity::Single))
        .count();
    let result_variadics = fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::Result(a) if a != Arity::Single))
        .count();
    let inherent_names = spec::inherent_names(&fields, operand_variadics, result_variadics);
    let inherent_lits = inherent_names.iter();
    let op_name = &decl.op_name;
    let interfaces = &decl.interfaces;

    let vis = &input.vis;
    let ident = &input.ident;
    let other_attrs: Vec<_> = input.attrs.iter().collect();
    let spec_static = format_ident!("__STRATA_OP_SPEC_{}", ident);
    let spec = spec::spec_static(&decl, &fields, &spec_static, &summary, &description);
    let accessors = accessors::accessors(&fields, operand_variadics == 0, result_variadics == 0);
    let builders = builders::builders(&decl, &fields, operand_variadics, result_variadics);

    Ok(quote! {
        #(#other_attrs)*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #vis struct #ident(pub #krate::Operation);

        #spec

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

            #builders

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
