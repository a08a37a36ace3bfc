//! Ops of the `ai.onnx.ml` domain (classical machine learning), spelled
//! out with `graph` ops: `Binarizer`, `ArrayFeatureExtractor` and
//! `TreeEnsemble` (in [`super::tree`]).

use strata_ir::{Location, Value};

use super::attrs::Attrs;
use super::{one, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, super::Convert)] = &[
    ("ai.onnx.ml:Binarizer", binarizer),
    ("ai.onnx.ml:ArrayFeatureExtractor", array_feature_extractor),
    ("ai.onnx.ml:TreeEnsemble", super::tree::tree_ensemble),
];

/// Binarizer: 1 where `X > threshold` (default 0), else 0, in `X`'s type.
fn binarizer(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let elem = im.elem(x).ok_or("has an input that is not a tensor")?;
    let threshold = im.scalar_like(x, f64::from(a.float("threshold").unwrap_or(0.0)), loc)?;
    let above = im.bin("graph.greater", x, threshold, loc)?;
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
