//! Ops of the `ai.onnx.ml` domain (classical machine learning), spelled
//! out with `graph` ops: `Binarizer`, `ArrayFeatureExtractor` and
//! `TreeEnsemble` (in [`super::tree`]); and `LabelEncoder`, a
//! `graph.label_encoder`.

use strata_ir::{Location, Value};

use super::attrs::Attrs;
use super::{one, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, super::Convert)] = &[
    ("ai.onnx.ml:Binarizer", binarizer),
    ("ai.onnx.ml:ArrayFeatureExtractor", array_feature_extractor),
    ("ai.onnx.ml:TreeEnsemble", super::tree::tree_ensemble),
    ("ai.onnx.ml:LabelEncoder", label_encoder),
];

/// Binarizer: 1 where `X > threshold` (default 0), else 0, in `X`'s type
/// (compared in f64, so that an integer `X` meets a fractional threshold).
fn binarizer(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let elem = im.elem(x).ok_or("has an input that is not a tensor")?;
    // Compared in f64: an integer input against a fractional threshold.
    let f64t = im.ctx.float_type(strata_ir::float::FloatKind::F64);
    let xf = im.cast_to(x, f64t, loc)?;
    let threshold = im.scalar(f64t, f64::from(a.float("threshold").unwrap_or(0.0)), loc)?;
    let above = im.bin("graph.greater", xf, threshold, loc)?;
    one(im.cast_to(above, elem, loc))
}

/// ArrayFeatureExtractor: the elements of `X`'s last axis at the indices
/// `Y` lists (flattened, in order), as onnxruntime reads the op: the
/// result's shape is `X`'s with the last dimension the index count, and a
/// 1-D `X` gives one row (`[1, n]`).
fn array_feature_extractor(
    im: &mut Importer,
    node: &NodeProto,
    _a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let (x, indices) = (im.req(node, 0)?, im.req(node, 1)?);
    let rank = im.rank_of(x).ok_or("needs an input of known rank")?;
    if rank == 0 {
        return Err("needs an input of rank 1 or more, got a scalar".into());
    }
    let flat_shape = im.const_i64(&[-1], loc)?;
    let flat = im.reshape(indices, flat_shape, loc)?;
    let axis = im.i64_attr(rank as i64 - 1);
    let picked = im.op1("graph.gather", vec![x, flat], vec![("axis", axis)], loc)?;
    if rank == 1 {
        return one(im.unsqueeze(picked, &[0], loc));
    }
    Ok(vec![picked])
}

/// LabelEncoder (`ai.onnx.ml` 2 to 4): `graph.label_encoder` with its
/// keys, values and default as elements attributes, from whichever of
/// `*_strings`, `*_int64s`, `*_floats` and `*_tensor` the node sets. The
/// default is `default_tensor`, else the `default_*` of the values' kind,
/// else ONNX's (`"_Unused"`, -1, -0.0).
fn label_encoder(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let keys = table_column(im, a, "keys")?.ok_or("requires keys")?;
    let (values, kind) = match table_column(im, a, "values")? {
        Some(v) => (v, column_kind(im, v)),
        None => return Err("requires values".into()),
    };
    let default = match a.get("default_tensor").and_then(|t| t.t.as_ref()) {
        Some(t) => tensor_column(im, t)?,
        None => match kind {
            ColumnKind::Strings => {
                let d = a
                    .string("default_string")
                    .unwrap_or_else(|| "_Unused".into());
                strings_attr(im, &[d], &[])
            }
            ColumnKind::Int => {
                let d = a.int("default_int64").unwrap_or(-1);
                let elem = im.ctx.integer_type(64);
                im.dense_attr(elem, &[], d.to_le_bytes().to_vec())?
            }
            ColumnKind::Float => {
                let d = a.float("default_float").unwrap_or(-0.0);
                let elem = im.ctx.float_type(strata_ir::float::FloatKind::F32);
                im.dense_attr(elem, &[], d.to_le_bytes().to_vec())?
            }
            ColumnKind::Other => {
                return Err("with values_tensor of this type needs default_tensor".into())
            }
        },
    };
    let props = vec![
        ("keys", keys),
        ("values", values),
        ("default_value", default),
    ];
    Ok(vec![im.op1("graph.label_encoder", vec![x], props, loc)?])
}

/// What a column of `LabelEncoder` holds, for its default.
enum ColumnKind {
    Strings,
    Int,
    Float,
    Other,
}

fn column_kind(im: &Importer, column: strata_ir::Attribute) -> ColumnKind {
    let elem = strata_ir::ods::constraints::attr_type(im.ctx, column)
        .and_then(|ty| strata_dialects::graph::shape::shape_of(im.ctx, ty))
        .map(|(_, e)| e);
    match elem {
        Some(e) if strata_dialects::graph::types::is_string(im.ctx, e) => ColumnKind::Strings,
        Some(e)
            if im.ctx.type_kind(e)
                == &strata_ir::TypeKind::Integer {
                    width: 64,
                    signedness: strata_ir::types::Signedness::Signless,
                } =>
        {
            ColumnKind::Int
        }
        Some(e) if im.ctx.float_kind(e) == Some(strata_ir::float::FloatKind::F32) => {
            ColumnKind::Float
        }
        _ => ColumnKind::Other,
    }
}

/// `prefix_strings`, `prefix_int64s`, `prefix_floats` or `prefix_tensor`
/// as an elements attribute, whichever the node sets.
fn table_column(im: &mut Importer, a: &Attrs, prefix: &str) -> Res<Option<strata_ir::Attribute>> {
    if let Some(t) = a
        .get(&format!("{prefix}_tensor"))
        .and_then(|t| t.t.as_ref())
    {
        return tensor_column(im, t).map(Some);
    }
    if let Some(s) = a.strings(&format!("{prefix}_strings")) {
        return Ok(Some(strings_attr(im, &s, &[s.len() as i64])));
    }
    if let Some(v) = a.ints(&format!("{prefix}_int64s")) {
        let elem = im.ctx.integer_type(64);
        let raw = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        return im.dense_attr(elem, &[v.len() as i64], raw).map(Some);
    }
    if let Some(v) = a.floats(&format!("{prefix}_floats")) {
        let elem = im.ctx.float_type(strata_ir::float::FloatKind::F32);
        let raw = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        return im.dense_attr(elem, &[v.len() as i64], raw).map(Some);
    }
    Ok(None)
}

/// A TENSOR attribute as an elements attribute, strings included.
fn tensor_column(im: &mut Importer, t: &crate::proto::TensorProto) -> Res<strata_ir::Attribute> {
    if t.data_type() == crate::proto::tensor_proto::DataType::String as i32 {
        let strings = t
            .string_data
            .iter()
            .map(|b| String::from_utf8(b.clone()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| "has a string that is not UTF-8")?;
        return Ok(strings_attr(im, &strings, &t.dims));
    }
    crate::tensor::tensor_attr(im.ctx, t)
}

/// `dense<["a", ...]> : tensor<shape x !graph.string>` (a splat when every
/// string is the same, as MLIR stores it).
fn strings_attr(im: &mut Importer, strings: &[String], shape: &[i64]) -> strata_ir::Attribute {
    let elem = strata_dialects::graph::types::string_type(im.ctx);
    let ty = im.ctx.tensor_type(shape.to_vec(), elem);
    let mut values: Vec<Box<[u8]>> = strings
        .iter()
        .map(|s| s.as_bytes().to_vec().into_boxed_slice())
        .collect();
    if values.len() > 1 && values.iter().all(|v| *v == values[0]) {
        values.truncate(1);
    }
    im.ctx
        .intern_attr(strata_ir::attributes::AttrKind::DenseStrings {
            ty,
            values: values.into(),
        })
}
