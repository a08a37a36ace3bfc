//! ONNX import: a `.onnx` model becomes a `builtin.module` holding one
//! `func.func @main` of `graph` ops.
//!
//! - The model's inputs are the function's arguments and its outputs the
//!   returned values; their ONNX names survive as `onnx.name` argument and
//!   result attributes. Symbolic dimensions (`dim_param`) become
//!   `#graph.dims<...>` symbols.
//! - Initializers and `Constant` nodes become `graph.constant` ops (large
//!   ones print as hex blobs).
//! - Each node becomes a `graph` op located at
//!   `loc("<node name>"("model.onnx":0:0))`, with result types from the op's
//!   shape function, so that later diagnostics can name the node (the
//!   `strata` driver prints `model.onnx: node 'fc1/MatMul': error: ...`;
//!   `strata-opt`, as `mlir-opt`, prints the file position only).
//! - A node of another domain becomes a `graph.custom` op when a custom op
//!   named `domain.OpType` is registered at the domain's opset version (its
//!   attributes become the op's `config`).
//! - A model using ops that strata does not support is rejected with one
//!   error listing every unsupported op type (and the nodes using it).
//!
//! Supported: the default ONNX domain, each op from the oldest opset whose
//! definition the importer converts (13 for most; see `min_opset`); the op table is
//! [`SUPPORTED_OPS`].

mod convert;
mod tensor;

use std::collections::BTreeMap;
use std::path::Path;

use prost::Message;
use strata_ir::{Context, Operation};

pub use convert::SUPPORTED_OPS;
pub use tensor::{dtype_name, element_type, tensor_attr};

/// The ONNX protobuf messages (generated from `proto/onnx.proto`).
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod proto {
    include!(concat!(env!("OUT_DIR"), "/onnx.rs"));
}

/// Why a model could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The bytes are not an ONNX model.
    #[error("{file}: not a valid ONNX model: {source}")]
    Decode {
        /// The file.
        file: String,
        /// The protobuf error.
        source: prost::DecodeError,
    },
    /// The model uses ops strata does not support.
    #[error("{file}: unsupported ONNX ops: {}", format_unsupported(.ops))]
    Unsupported {
        /// The file.
        file: String,
        /// Each unsupported op type (`domain:Type` outside the default
        /// domain) with the names of the nodes using it.
        ops: BTreeMap<String, Vec<String>>,
    },
    /// The model is malformed.
    #[error("{file}: {}{message}", node.as_ref().map(|n| format!("node '{n}': ")).unwrap_or_default())]
    Invalid {
        /// The file.
        file: String,
        /// The node, when one is to blame.
        node: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// The model may be valid ONNX, but uses a form strata does not
    /// implement: an element type, an attribute value, a rank, a
    /// non-tensor input.
    #[error("{file}: {}{message}", node.as_ref().map(|n| format!("node '{n}': ")).unwrap_or_default())]
    NotSupported {
        /// The file.
        file: String,
        /// The node, when one is to blame.
        node: Option<String>,
        /// What strata does not support.
        message: String,
    },
}

impl ImportError {
    /// Whether the model was refused for using something strata does not
    /// implement (an op type or a form of one), rather than for being
    /// unreadable or malformed.
    pub fn is_unsupported(&self) -> bool {
        matches!(
            self,
            ImportError::Unsupported { .. } | ImportError::NotSupported { .. }
        )
    }
}

/// Why one tensor, value or node could not be converted: the kinds of
/// [`ImportError`] before the file and node are known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// The model is malformed.
    #[error("{0}")]
    Invalid(String),
    /// A form strata does not implement.
    #[error("{0}")]
    NotSupported(String),
}

impl ConvertError {
    /// A form strata does not implement.
    pub fn unsupported(message: impl Into<String>) -> ConvertError {
        ConvertError::NotSupported(message.into())
    }

    /// The same kind of error with its message rewritten by `f` (to add
    /// context such as the op type).
    pub fn map_message(self, f: impl FnOnce(String) -> String) -> ConvertError {
        match self {
            ConvertError::Invalid(m) => ConvertError::Invalid(f(m)),
            ConvertError::NotSupported(m) => ConvertError::NotSupported(f(m)),
        }
    }
}

impl From<String> for ConvertError {
    fn from(message: String) -> Self {
        ConvertError::Invalid(message)
    }
}

impl From<&str> for ConvertError {
    fn from(message: &str) -> Self {
        ConvertError::Invalid(message.to_string())
    }
}

fn format_unsupported(ops: &BTreeMap<String, Vec<String>>) -> String {
    ops.iter()
        .map(|(op, nodes)| {
            let shown: Vec<&str> = nodes.iter().take(3).map(String::as_str).collect();
            let more = if nodes.len() > 3 {
                format!(", ... ({} nodes)", nodes.len())
            } else {
                String::new()
            };
            format!("{op} (node {}{more})", shown.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Reads and imports the model at `path`; its file name is used in
/// locations.
pub fn import_file(ctx: &mut Context, path: &Path) -> Result<Operation, ImportError> {
    let bytes = std::fs::read(path).map_err(|source| ImportError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let name = file_name(path);
    import_bytes(ctx, &bytes, &name)
}

/// The name locations and errors give the model at `path`: its file
/// name.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Imports a serialized `ModelProto`; `file` names it in locations and
/// errors.
pub fn import_bytes(ctx: &mut Context, bytes: &[u8], file: &str) -> Result<Operation, ImportError> {
    let model = proto::ModelProto::decode(bytes).map_err(|source| ImportError::Decode {
        file: file.to_string(),
        source,
    })?;
    import_model(ctx, &model, file)
}

/// The signature of the model in the file at `path` (its `@main`
/// declared, with the argument and result types and names the full import
/// gives it), read without the weights or the nodes: a few milliseconds
/// for a model whose full import takes hundreds. An argument's type is the
/// full import's; a result's is the type the model declares (which the
/// full import may refine).
pub fn import_signature_file(ctx: &mut Context, path: &Path) -> Result<Operation, ImportError> {
    let file = std::fs::File::open(path).map_err(|source| ImportError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let name = file_name(path);
    let model = convert::read_signature(file).map_err(|message| ImportError::Invalid {
        file: name.clone(),
        node: None,
        message: format!("not a valid ONNX model: {message}"),
    })?;
    signature_of(ctx, &model, &name)
}

/// [`import_signature_file`] of a serialized `ModelProto`; `file` names it
/// in errors.
pub fn import_signature_bytes(
    ctx: &mut Context,
    bytes: &[u8],
    file: &str,
) -> Result<Operation, ImportError> {
    let model = convert::SignatureModel::decode(bytes).map_err(|source| ImportError::Decode {
        file: file.to_string(),
        source,
    })?;
    signature_of(ctx, &model, file)
}

fn signature_of(
    ctx: &mut Context,
    model: &convert::SignatureModel,
    file: &str,
) -> Result<Operation, ImportError> {
    importer(ctx, file).signature(model)
}

/// Imports a decoded model.
pub fn import_model(
    ctx: &mut Context,
    model: &proto::ModelProto,
    file: &str,
) -> Result<Operation, ImportError> {
    importer(ctx, file).import(model)
}

/// An importer into `ctx`, with strata's dialects registered.
fn importer<'c>(ctx: &'c mut Context, file: &str) -> convert::Importer<'c> {
    if ctx.registry().op_spec("graph.add").is_none() {
        strata_dialects::register_all(ctx);
    }
    convert::Importer::new(ctx, file)
}
