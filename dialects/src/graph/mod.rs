//! The `graph` dialect: framework-level ops on value-semantic tensors.
//!
//! This is where a model enters strata (the ONNX importer builds it, the
//! reference interpreter runs it in `eager` mode). Tensors are builtin
//! `tensor` types whose dynamic dimensions may carry symbolic sizes in a
//! `#graph.dims<...>` encoding (see [`shape`]); every op has a shape
//! function (see [`infer`]) that its verifier, the builders and the
//! `graph-infer-shapes` pass share. ONNX's sequences and optionals are the
//! dialect's `!graph.seq<T>` and `!graph.opt<T>` types (see [`types`]).
//! Op semantics are the ONNX operators'.

mod conv_taps;
pub mod custom;
pub mod emit;
pub mod fold;
pub mod infer;
pub mod linear_attention;
mod ops;
mod pow;
pub mod recurrent;
pub mod resize_taps;
pub mod scalar;
pub mod sequence;
pub mod shape;
pub mod shape_value;
pub mod types;

pub use ops::*;

use strata_ir::Context;

/// Register the graph dialect: its ops (each with the shape function its
/// declaration attaches) and its attribute syntax.
pub fn register(ctx: &mut Context) {
    ctx.registry_mut()
        .register_attr_parser("graph", shape::parse_graph_attr);
    ctx.registry_mut()
        .register_type_parser("graph", types::parse_graph_type);
    ctx.registry_mut()
        .register_constant_materializer("graph", fold::materialize_constant);
    strata_ir::ods::register_dialect_ops(ctx, "graph");
}
