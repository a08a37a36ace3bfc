//! Ops that make tensors from attributes and sizes rather than from data:
//! `Constant`, `ConstantOfShape`, `Range` and `EyeLike`.

use strata_ir::float::FloatKind;
use strata_ir::{Attribute, Location, Type, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;
use crate::tensor::{dtype_name, element_type, tensor_attr};
use crate::ConvertError;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("Constant", constant),
    ("ConstantOfShape", constant_of_shape),
    ("Range", range),
    ("EyeLike", eye_like),
];

fn constant(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let value = im.constant_value(node)?;
    one(im.constant(value, loc))
}

fn constant_of_shape(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let s = im.req(node, 0)?;
    let props = match a.get("value").and_then(|v| v.t.as_ref()) {
        Some(t) => vec![("value", tensor_attr(im.ctx, t)?)],
        None => vec![],
    };
    one(im.op1("graph.constant_of_shape", vec![s], props, loc))
}

fn range(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?, im.req(node, 2)?];
    one(im.op1("graph.range", ops, vec![], loc))
}

fn eye_like(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // Ones where j - i == k, in the dtype given or x's.
    if im.rank_of(x) != Some(2) {
        return Err("needs a 2-D input".into());
    }
    let k = im.const_i64_scalar(a.int("k").unwrap_or(0), loc)?;
    let diff = im.diagonal_offsets(x, 2, loc)?;
    let on = im.bin("graph.equal", diff, k, loc)?;
    let elem = match a.int("dtype") {
        Some(dt) => i32::try_from(dt)
            .ok()
            .and_then(|dt| element_type(im.ctx, dt))
            .ok_or_else(|| {
                let name = i32::try_from(dt).map_or_else(|_| dt.to_string(), dtype_name);
                ConvertError::unsupported(format!("dtype {name} is not supported"))
            })?,
        None => im.elem(x).ok_or("operand is not a tensor")?,
    };
    one(im.cast_to(on, elem, loc))
}

impl Importer<'_> {
    /// A `Constant` node's value.
    fn constant_value(&mut self, node: &NodeProto) -> Res<Attribute> {
        let attr = node.attribute.first().ok_or("has no value attribute")?;
        if node.attribute.len() != 1 {
            return Err("must have exactly one value attribute".into());
        }
        let f32t = self.ctx.float_type(FloatKind::F32);
        let i64t = self.ctx.integer_type(64);
        let (ty, raw): (Type, Vec<u8>) = match attr.name() {
            "value" => {
                return tensor_attr(self.ctx, attr.t.as_ref().ok_or("'value' holds no tensor")?)
            }
            "value_float" => (
                self.ctx.tensor_type(vec![], f32t),
                attr.f().to_le_bytes().to_vec(),
            ),
            "value_floats" => (
                self.ctx.tensor_type(vec![attr.floats.len() as i64], f32t),
                attr.floats.iter().flat_map(|v| v.to_le_bytes()).collect(),
            ),
            "value_int" => (
                self.ctx.tensor_type(vec![], i64t),
                attr.i().to_le_bytes().to_vec(),
            ),
            "value_ints" => (
                self.ctx.tensor_type(vec![attr.ints.len() as i64], i64t),
                attr.ints.iter().flat_map(|v| v.to_le_bytes()).collect(),
            ),
            other => {
                return Err(ConvertError::unsupported(format!(
                    "attribute '{other}' is not supported"
                )))
            }
        };
        self.ctx
            .dense_elements_attr(ty, raw)
            .ok_or_else(|| "could not build the constant".into())
    }
}
