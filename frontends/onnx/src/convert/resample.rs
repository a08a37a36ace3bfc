//! Resampling: `Resize`, the deprecated `Upsample` (a `Resize` with
//! asymmetric coordinates), `GridSample` and `AffineGrid`.

use strata_dialects::graph::shape::Dim;
use strata_ir::float::FloatKind;
use strata_ir::{Location, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("Resize", resize),
    ("Upsample", upsample),
    ("GridSample", grid_sample),
    ("AffineGrid", affine_grid),
];

fn resize(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // Before opset 13 roi and scales were required inputs, given
    // as empty tensors when unused: an empty one is absent.
    let present = |i: usize| -> Res<Option<Value>> {
        let v = im.input(node, i)?;
        Ok(v.filter(|&v| im.dims_of(v).as_deref() != Some(&[Dim::Known(0)][..])))
    };
    let (roi, scales, sizes) = (present(1)?, present(2)?, present(3)?);
    let seg = im.segments(&[
        1,
        i32::from(roi.is_some()),
        i32::from(scales.is_some()),
        i32::from(sizes.is_some()),
    ]);
    let mut props = vec![("operandSegmentSizes", seg)];
    for (name, default) in [
        ("mode", "nearest"),
        ("coordinate_transformation_mode", "half_pixel"),
        ("nearest_mode", "round_prefer_floor"),
        ("keep_aspect_ratio_policy", "stretch"),
    ] {
        let v = a.string(name).unwrap_or_else(|| default.into());
        props.push((name, im.ctx.string_attr(&v)));
    }
    props.push((
        "cubic_coeff_a",
        im.f64_attr(a.float("cubic_coeff_a").map_or(-0.75, f64::from)),
    ));
    props.push((
        "extrapolation_value",
        im.f64_attr(a.float("extrapolation_value").map_or(0.0, f64::from)),
    ));
    props.push((
        "exclude_outside",
        im.bool_attr(a.int("exclude_outside").unwrap_or(0) != 0),
    ));
    props.push((
        "antialias",
        im.bool_attr(a.int("antialias").unwrap_or(0) != 0),
    ));
    if let Some(axes) = a.ints("axes") {
        props.push(("axes", im.i64_array(&axes)));
    }
    let operands = [x]
        .into_iter()
        .chain(roi)
        .chain(scales)
        .chain(sizes)
        .collect();
    one(im.op1("graph.resize", operands, props, loc))
}

fn upsample(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    // The deprecated Upsample is Resize with asymmetric
    // coordinates (nearest rounding down, so integral scales
    // repeat); scales are an input from opset 9, an attribute
    // before.
    let x = im.req(node, 0)?;
    let scales = match (im.input(node, 1)?, a.floats("scales")) {
        (Some(s), _) => s,
        (None, Some(v)) => {
            let f32t = im.ctx.float_type(FloatKind::F32);
            let ty = im.ctx.tensor_type(vec![v.len() as i64], f32t);
            let raw = v.iter().flat_map(|f| f.to_le_bytes()).collect();
            let attr = im
                .ctx
                .dense_elements_attr(ty, raw)
                .ok_or("could not build the scales")?;
            im.constant(attr, loc)?
        }
        (None, None) => return Err("requires scales".into()),
    };
    let mode = a.string("mode").unwrap_or_else(|| "nearest".into());
    if !matches!(mode.as_str(), "nearest" | "linear") {
        return Err(format!("has an unknown mode '{mode}'").into());
    }
    let seg = im.segments(&[1, 0, 1, 0]);
    let props = vec![
        ("operandSegmentSizes", seg),
        ("mode", im.ctx.string_attr(&mode)),
        (
            "coordinate_transformation_mode",
            im.ctx.string_attr("asymmetric"),
        ),
        ("nearest_mode", im.ctx.string_attr("floor")),
    ];
    one(im.op1("graph.resize", vec![x, scales], props, loc))
}

fn grid_sample(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    // Opset 16 named the modes after their 2-D forms.
    let mode = match a.string("mode").as_deref() {
        None | Some("linear") | Some("bilinear") => "linear",
        Some("nearest") => "nearest",
        Some("cubic") | Some("bicubic") => "cubic",
        Some(other) => return Err(format!("has an unknown mode '{other}'").into()),
    };
    let padding = a.string("padding_mode").unwrap_or_else(|| "zeros".into());
    let props = vec![
        ("mode", im.ctx.string_attr(mode)),
        ("padding_mode", im.ctx.string_attr(&padding)),
        (
            "align_corners",
            im.bool_attr(a.int("align_corners").unwrap_or(0) != 0),
        ),
    ];
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    one(im.op1("graph.grid_sample", ops, props, loc))
}

/// `AffineGrid` (opset 20): `graph.affine_grid`.
fn affine_grid(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    let align = im.bool_attr(a.int("align_corners").unwrap_or(0) != 0);
    one(im.op1(
        "graph.affine_grid",
        ops,
        vec![("align_corners", align)],
        loc,
    ))
}
