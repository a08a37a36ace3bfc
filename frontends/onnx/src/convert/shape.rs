//! Shape and data movement: reshapes, transposes, broadcasts, concatenation
//! and splitting, slicing and padding (`CenterCropPad` as a pad with
//! negative amounts), `DepthToSpace`/`SpaceToDepth`, and the `Shape` and
//! `Size` queries.

use strata_dialects::graph::shape::Dim;
use strata_ir::{Location, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("Reshape", reshape),
    ("Transpose", transpose),
    ("Expand", expand),
    ("Tile", tile),
    ("Concat", concat),
    ("Split", split),
    ("Slice", slice),
    ("Squeeze", squeeze),
    ("Unsqueeze", squeeze),
    ("Flatten", flatten),
    ("Pad", pad),
    ("CenterCropPad", center_crop_pad),
    ("DepthToSpace", depth_space),
    ("SpaceToDepth", depth_space),
    ("Shape", shape),
    ("Size", size),
];

fn reshape(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    let allowzero = im.bool_attr(a.int("allowzero").unwrap_or(0) != 0);
    one(im.op1("graph.reshape", ops, vec![("allowzero", allowzero)], loc))
}

fn transpose(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let props = match a.ints("perm") {
        Some(p) => vec![("perm", im.i64_array(&p))],
        None => vec![],
    };
    one(im.op1("graph.transpose", vec![x], props, loc))
}

fn expand(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    one(im.op1("graph.expand", ops, vec![], loc))
}

fn tile(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    one(im.op1("graph.tile", ops, vec![], loc))
}

fn concat(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = (0..node.input.len())
        .map(|i| im.req(node, i))
        .collect::<Res<Vec<_>>>()?;
    let axis = im.i64_attr(a.int("axis").ok_or("requires 'axis'")?);
    one(im.op1("graph.concat", ops, vec![("axis", axis)], loc))
}

fn split(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let split = match a.ints("split") {
        Some(v) => Some(im.const_i64(&v, loc)?),
        None => im.input(node, 1)?,
    };
    let n = node.output.len();
    if split.is_none() {
        if let Some(k) = a.int("num_outputs") {
            if k as usize != n {
                return Err(format!("has num_outputs={k} but {n} outputs").into());
            }
        }
    }
    let axis = im.i64_attr(a.int("axis").unwrap_or(0));
    im.op(
        "graph.split",
        std::iter::once(x).chain(split).collect(),
        vec![("axis", axis)],
        n,
        None,
        loc,
    )
}

fn slice(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let mut ops = vec![im.req(node, 0)?, im.req(node, 1)?, im.req(node, 2)?];
    let (axes, steps) = (im.input(node, 3)?, im.input(node, 4)?);
    let seg = im.segments(&[
        1,
        1,
        1,
        i32::from(axes.is_some()),
        i32::from(steps.is_some()),
    ]);
    ops.extend(axes);
    ops.extend(steps);
    one(im.op1("graph.slice", ops, vec![("operandSegmentSizes", seg)], loc))
}

/// `Squeeze` and `Unsqueeze`.
fn squeeze(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let op = node.op_type();
    let x = im.req(node, 0)?;
    let axes = match a.ints("axes") {
        Some(v) => Some(im.const_i64(&v, loc)?),
        None => im.input(node, 1)?,
    };
    if op == "Unsqueeze" {
        let axes = axes.ok_or("requires axes")?;
        one(im.op1("graph.unsqueeze", vec![x, axes], vec![], loc))
    } else {
        one(im.op1(
            "graph.squeeze",
            std::iter::once(x).chain(axes).collect(),
            vec![],
            loc,
        ))
    }
}

fn flatten(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let axis = im.i64_attr(a.int("axis").unwrap_or(1));
    one(im.op1("graph.flatten", vec![x], vec![("axis", axis)], loc))
}

fn pad(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let pads = im.req(node, 1)?;
    let value = im.input(node, 2)?;
    let axes = im.input(node, 3)?;
    let mode = a.string("mode").unwrap_or_else(|| "constant".into());
    let mode = im.ctx.string_attr(&mode);
    let seg = im.segments(&[1, 1, i32::from(value.is_some()), i32::from(axes.is_some())]);
    let ops = [x, pads].into_iter().chain(value).chain(axes).collect();
    one(im.op1(
        "graph.pad",
        ops,
        vec![("mode", mode), ("operandSegmentSizes", seg)],
        loc,
    ))
}

fn center_crop_pad(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // One `pad` whose negative amounts crop: the difference to
    // the target size split with the smaller half first.
    let dims = im.dims_of(x).ok_or("needs an input of known rank")?;
    let shape = im.req(node, 1)?;
    let i64t = im.ctx.integer_type(64);
    let shape = im.cast_to(shape, i64t, loc)?;
    let rank = dims.len() as i64;
    let axes: Vec<usize> = a
        .ints("axes")
        .unwrap_or_else(|| (0..rank).collect())
        .iter()
        .map(|&ax| {
            let n = if ax < 0 { ax + rank } else { ax };
            usize::try_from(n)
                .ok()
                .filter(|&n| n < dims.len())
                .ok_or_else(|| format!("axis {ax} is out of range for rank {rank}").into())
        })
        .collect::<Res<_>>()?;
    // Constant targets on static axes give constant pads.
    let static_axes = axes.iter().all(|&ax| dims[ax].known().is_some());
    let pads = match im.const_int(shape).filter(|_| static_axes) {
        Some(target) => {
            if axes.len() != target.len() {
                return Err(format!("has {} sizes for {} axes", target.len(), axes.len()).into());
            }
            let mut pads = vec![0i64; 2 * dims.len()];
            for (&ax, &t) in axes.iter().zip(&target) {
                let d = dims[ax].known().ok_or("needs static sizes on its axes")?;
                if t < 0 {
                    return Err(format!("shape has the negative size {t}").into());
                }
                // Truncating halves: the smaller part first.
                let diff = t - d;
                pads[ax] = diff / 2;
                pads[ax + dims.len()] = diff - diff / 2;
            }
            im.const_i64(&pads, loc)?
        }
        None => {
            // The same at run time: diff / 2 (graph.div truncates).
            let zero = im.const_i64(&[0], loc)?;
            let mut begins = vec![zero; dims.len()];
            let mut ends = vec![zero; dims.len()];
            let two = im.const_i64(&[2], loc)?;
            for (i, &ax) in axes.iter().enumerate() {
                let at = im.const_i64(&[i as i64], loc)?;
                let axis = im.i64_attr(0);
                let t = im.op1("graph.gather", vec![shape, at], vec![("axis", axis)], loc)?;
                let props = vec![
                    ("start", im.i64_attr(ax as i64)),
                    ("end", im.i64_attr(ax as i64 + 1)),
                ];
                let d = im.op1("graph.shape_of", vec![x], props, loc)?;
                let diff = im.bin("graph.sub", t, d, loc)?;
                let begin = im.bin("graph.div", diff, two, loc)?;
                begins[ax] = begin;
                ends[ax] = im.bin("graph.sub", diff, begin, loc)?;
            }
            let axis = im.i64_attr(0);
            let parts = [begins, ends].concat();
            im.op1("graph.concat", parts, vec![("axis", axis)], loc)?
        }
    };
    let seg = im.segments(&[1, 1, 0, 0]);
    let mode = im.ctx.string_attr("constant");
    one(im.op1(
        "graph.pad",
        vec![x, pads],
        vec![("mode", mode), ("operandSegmentSizes", seg)],
        loc,
    ))
}

/// `DepthToSpace` and `SpaceToDepth`.
fn depth_space(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    one(im.depth_space(node, a, x, loc))
}

fn shape(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let mut props = vec![("start", im.i64_attr(a.int("start").unwrap_or(0)))];
    if let Some(end) = a.int("end") {
        props.push(("end", im.i64_attr(end)));
    }
    one(im.op1("graph.shape_of", vec![x], props, loc))
}

fn size(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    one(im.op1("graph.size", vec![x], vec![], loc))
}

impl Importer<'_> {
    /// DepthToSpace (DCR or CRD) and SpaceToDepth on NCHW: a reshape to 6-D,
    /// a transpose, and a reshape back. Needs static C, H and W.
    fn depth_space(&mut self, node: &NodeProto, a: &Attrs, x: Value, loc: Location) -> Res<Value> {
        let b = a.int("blocksize").ok_or("requires 'blocksize'")?;
        let dims = self.dims_of(x).ok_or("needs an input of known rank")?;
        let [_, Dim::Known(c), Dim::Known(h), Dim::Known(w)] = dims.as_slice() else {
            return Err("needs a 4-D NCHW input with static C, H and W".into());
        };
        let (c, h, w) = (*c, *h, *w);
        let too_large = || format!("blocksize {b} is too large for [{c}, {h}, {w}]");
        if b <= 0 {
            return Err(format!("blocksize {b} must be positive").into());
        }
        let bb = b.checked_mul(b).ok_or_else(too_large)?;
        let (first, perm, last) = if node.op_type() == "DepthToSpace" {
            if c % bb != 0 {
                return Err(format!("channels {c} are not a multiple of blocksize^2").into());
            }
            let cb = c / bb;
            let crd = a.string("mode").is_some_and(|m| m == "CRD");
            let (first, perm) = if crd {
                (vec![0, cb, b, b, h, w], vec![0, 1, 4, 2, 5, 3])
            } else {
                (vec![0, b, b, cb, h, w], vec![0, 3, 4, 1, 5, 2])
            };
            let hb = h.checked_mul(b).ok_or_else(too_large)?;
            let wb = w.checked_mul(b).ok_or_else(too_large)?;
            (first, perm, vec![0, cb, hb, wb])
        } else {
            if h % b != 0 || w % b != 0 {
                return Err(format!("H {h} and W {w} are not multiples of blocksize {b}").into());
            }
            let cbb = c.checked_mul(bb).ok_or_else(too_large)?;
            (
                vec![0, c, h / b, b, w / b, b],
                vec![0, 3, 5, 1, 2, 4],
                vec![0, cbb, h / b, w / b],
            )
        };
        let first = self.const_i64(&first, loc)?;
        let six = self.reshape(x, first, loc)?;
        let perm = self.i64_array(&perm);
        let moved = self.op1("graph.transpose", vec![six], vec![("perm", perm)], loc)?;
        let last = self.const_i64(&last, loc)?;
        self.reshape(moved, last, loc)
    }
}
