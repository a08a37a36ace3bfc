//! Ops that select by index: gathers and scatters, `OneHot`,
//! `NonMaxSuppression` (the indices of the boxes kept), `NonZero`,
//! `Compress` (a `gather` of the condition's `non_zero` indices),
//! `Unique`, `RoiAlign`, `ReverseSequence` (a `gather_elements` of
//! reversed time indices), and `Trilu` (a mask of the diagonal offsets).

use strata_ir::{Location, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("Gather", gather),
    ("GatherND", gather_nd),
    ("GatherElements", gather_elements),
    ("ScatterElements", scatter),
    ("Scatter", scatter),
    ("ScatterND", scatter),
    ("OneHot", one_hot),
    ("NonMaxSuppression", non_max_suppression),
    ("NonZero", non_zero),
    ("Compress", compress),
    ("Unique", unique),
    ("RoiAlign", roi_align),
    ("ReverseSequence", reverse_sequence),
    ("Trilu", trilu),
];

fn gather(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    let axis = im.i64_attr(a.int("axis").unwrap_or(0));
    one(im.op1("graph.gather", ops, vec![("axis", axis)], loc))
}

fn gather_nd(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    let b = im.i64_attr(a.int("batch_dims").unwrap_or(0));
    one(im.op1("graph.gather_nd", ops, vec![("batch_dims", b)], loc))
}

fn gather_elements(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    let axis = im.i64_attr(a.int("axis").unwrap_or(0));
    one(im.op1("graph.gather_elements", ops, vec![("axis", axis)], loc))
}

/// `ScatterElements`, `Scatter` and `ScatterND`.
fn scatter(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let op = node.op_type();
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?, im.req(node, 2)?];
    let reduction = a.string("reduction").unwrap_or_else(|| "none".into());
    let mut props = vec![("reduction", im.ctx.string_attr(&reduction))];
    let name = if op == "ScatterND" {
        "graph.scatter_nd"
    } else {
        props.push(("axis", im.i64_attr(a.int("axis").unwrap_or(0))));
        "graph.scatter_elements"
    };
    one(im.op1(name, ops, props, loc))
}

fn one_hot(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    one(im.one_hot(node, a, x, loc))
}

fn non_max_suppression(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let (boxes, scores) = (im.req(node, 0)?, im.req(node, 1)?);
    let (m, iou, score) = (im.input(node, 2)?, im.input(node, 3)?, im.input(node, 4)?);
    let seg = im.segments(&[
        1,
        1,
        i32::from(m.is_some()),
        i32::from(iou.is_some()),
        i32::from(score.is_some()),
    ]);
    let props = vec![
        ("operandSegmentSizes", seg),
        (
            "center_point_box",
            im.bool_attr(a.int("center_point_box").unwrap_or(0) != 0),
        ),
    ];
    let ops = [boxes, scores]
        .into_iter()
        .chain(m)
        .chain(iou)
        .chain(score)
        .collect();
    one(im.op1("graph.non_max_suppression", ops, props, loc))
}

fn trilu(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // Keep x[..., i, j] where j - i >= k (upper) or <= k (lower).
    let rank = im.rank_of(x).ok_or("needs an input of known rank")?;
    if rank < 2 {
        return Err(format!("needs an input of rank 2 or more, not {rank}").into());
    }
    let k = match im.input(node, 1)? {
        Some(k) => im.scalar_i64(k, loc)?,
        None => im.const_i64_scalar(0, loc)?,
    };
    let diff = im.diagonal_offsets(x, rank, loc)?;
    let name = if a.int("upper").unwrap_or(1) != 0 {
        "graph.greater_equal"
    } else {
        "graph.less_equal"
    };
    let keep = im.bin(name, diff, k, loc)?;
    let zero = im.scalar_like(x, 0.0, loc)?;
    one(im.op1("graph.where", vec![keep, x, zero], vec![], loc))
}

impl Importer<'_> {
    /// OneHot: `values[1]` where the (wrapped) index equals the position
    /// along the new axis, `values[0]` elsewhere.
    fn one_hot(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        indices: Value,
        loc: Location,
    ) -> Res<Value> {
        let rank = self.rank_of(indices).ok_or("needs indices of known rank")?;
        let axis = a.int("axis").unwrap_or(-1);
        let axis = if axis < 0 {
            axis + rank as i64 + 1
        } else {
            axis
        };
        if !(0..=rank as i64).contains(&axis) {
            return Err(format!("axis {axis} is out of range for rank {}", rank + 1).into());
        }
        let depth = self.req(node, 1)?;
        let depth = self.scalar_i64(depth, loc)?;
        let values = self.req(node, 2)?;
        let i64t = self.ctx.integer_type(64);
        // Non-integer indices are truncated; negative ones count from depth.
        let ids = self.cast_to(indices, i64t, loc)?;
        let zero = self.const_i64_scalar(0, loc)?;
        let negative = self.bin("graph.less", ids, zero, loc)?;
        let wrapped = self.bin("graph.add", ids, depth, loc)?;
        let ids = self.op1("graph.where", vec![negative, wrapped, ids], vec![], loc)?;
        let axes = self.const_i64(&[axis], loc)?;
        let ids = self.op1("graph.unsqueeze", vec![ids, axes], vec![], loc)?;
        let positions = self.iota(depth, rank - axis as usize, loc)?;
        let on_mask = self.bin("graph.equal", ids, positions, loc)?;
        let pick = |i: i64, s: &mut Self| -> Res<Value> {
            let index = s.const_i64_scalar(i, loc)?;
            let axis = s.i64_attr(0);
            s.op1(
                "graph.gather",
                vec![values, index],
                vec![("axis", axis)],
                loc,
            )
        };
        let off = pick(0, self)?;
        let on = pick(1, self)?;
        self.op1("graph.where", vec![on_mask, on, off], vec![], loc)
    }
}

fn non_zero(im: &mut Importer, node: &NodeProto, _: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    one(im.op1("graph.non_zero", vec![x], vec![], loc))
}

/// `Compress`: the slices of the input along `axis` (of the flattened
/// input without one) where the 1-D condition holds, as a `gather` of the
/// condition's `non_zero` indices (a condition shorter than the axis
/// selects among the first slices only, as ONNX says).
fn compress(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let (x, cond) = (im.req(node, 0)?, im.req(node, 1)?);
    if im.rank_of(cond) != Some(1) {
        return Err("requires a condition of known rank 1".to_string().into());
    }
    let picked = im.op1("graph.non_zero", vec![cond], vec![], loc)?;
    let flat = im.const_i64(&[-1], loc)?;
    let indices = im.reshape(picked, flat, loc)?;
    let (input, axis) = match a.int("axis") {
        Some(axis) => (x, axis),
        None => (im.reshape(x, flat, loc)?, 0),
    };
    let axis = im.i64_attr(axis);
    one(im.op1(
        "graph.gather",
        vec![input, indices],
        vec![("axis", axis)],
        loc,
    ))
}

fn unique(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let mut props = vec![("sorted", im.bool_attr(a.int("sorted").unwrap_or(1) != 0))];
    if let Some(axis) = a.int("axis") {
        props.push(("axis", im.i64_attr(axis)));
    }
    im.op("graph.unique", vec![x], props, 4, None, loc)
}

/// `RoiAlign`: `coordinate_transformation_mode` came at opset 16; before,
/// regions were not shifted by half a pixel (`output_half_pixel`).
fn roi_align(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?, im.req(node, 2)?];
    let default_mode = if im.opset >= 16 {
        "half_pixel"
    } else {
        "output_half_pixel"
    };
    let half_pixel = match a
        .string("coordinate_transformation_mode")
        .as_deref()
        .unwrap_or(default_mode)
    {
        "half_pixel" => true,
        "output_half_pixel" => false,
        m => return Err(format!("has the unknown coordinate_transformation_mode '{m}'").into()),
    };
    let mode = a.string("mode").unwrap_or_else(|| "avg".into());
    let props = vec![
        ("mode", im.ctx.string_attr(&mode)),
        (
            "output_height",
            im.i64_attr(a.int("output_height").unwrap_or(1)),
        ),
        (
            "output_width",
            im.i64_attr(a.int("output_width").unwrap_or(1)),
        ),
        (
            "sampling_ratio",
            im.i64_attr(a.int("sampling_ratio").unwrap_or(0)),
        ),
        (
            "spatial_scale",
            im.f64_attr(a.float_or("spatial_scale", 1.0)),
        ),
        ("half_pixel", im.bool_attr(half_pixel)),
    ];
    one(im.op1("graph.roi_align", ops, props, loc))
}

/// `ReverseSequence`: each batch entry's first `sequence_lens[b]` steps
/// along `time_axis` reversed, the rest kept; a `gather_elements` along the
/// time axis of `t < len ? len - 1 - t : t`, built on `[T, B]` (or `[B, T]`)
/// and expanded to the input's shape.
fn reverse_sequence(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let (x, lens) = (im.req(node, 0)?, im.req(node, 1)?);
    let rank = im.rank_of(x).ok_or("needs an input of known rank")?;
    let (time, batch) = (
        a.int("time_axis").unwrap_or(0),
        a.int("batch_axis").unwrap_or(1),
    );
    if rank < 2 || !matches!((time, batch), (0, 1) | (1, 0)) {
        return Err(format!(
            "needs time_axis and batch_axis 0 and 1 (in either order) of an input of rank 2 or more, not {time} and {batch} of rank {rank}"
        )
        .into());
    }
    let i64t = im.ctx.integer_type(64);
    let lens = im.cast_to(lens, i64t, loc)?;
    let t_len = im.dim_scalar(x, time as usize, loc)?;
    // Steps along the time axis, lengths along the batch axis.
    let (steps, lens) = if time == 0 {
        (im.iota(t_len, 1, loc)?, im.unsqueeze(lens, &[0], loc)?)
    } else {
        (im.iota(t_len, 0, loc)?, im.unsqueeze(lens, &[1], loc)?)
    };
    let unit = im.const_i64_scalar(1, loc)?;
    let last = im.bin("graph.sub", lens, unit, loc)?;
    let reversed = im.bin("graph.sub", last, steps, loc)?;
    let inside = im.bin("graph.less", steps, lens, loc)?;
    let index = im.op1("graph.where", vec![inside, reversed, steps], vec![], loc)?;
    let index = if rank > 2 {
        let trailing: Vec<i64> = (2..rank as i64).collect();
        im.unsqueeze(index, &trailing, loc)?
    } else {
        index
    };
    let shape = im.op1("graph.shape_of", vec![x], vec![], loc)?;
    let index = im.op1("graph.expand", vec![index, shape], vec![], loc)?;
    let axis = im.i64_attr(time);
    one(im.op1(
        "graph.gather_elements",
        vec![x, index],
        vec![("axis", axis)],
        loc,
    ))
}
