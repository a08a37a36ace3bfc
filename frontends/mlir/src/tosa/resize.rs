//! `tosa.resize` as `graph.resize`.
//!
//! TOSA samples output row `oy` at input row `(oy * d + offset) / n` (the
//! scale is `n / d`, every number an integer), and so for columns. Nearest
//! rounds that position half up; bilinear weighs the two rows around it;
//! both clamp to the input. `graph.resize` (ONNX's `Resize`) names the
//! same affine maps by a coordinate mode and a rounding: `asymmetric` is
//! `o / s` (offset 0), `half_pixel` is `(o + 0.5) / s - 0.5` (offset `(d
//! - n) / 2`), `align_corners` is `o * (I - 1) / (O - 1)` (offset 0 at
//! that scale), and a nearest rounding `floor` is half up of the position
//! less one half (offset less `n / 2`). An offset none of them gives has
//! no `graph` form and is refused.

use super::text::static_shape;
use super::{Importer, Node, Res, Slot};

/// A coordinate mode and nearest rounding of `graph.resize`, and the offset
/// (times two) it gives a TOSA axis of scale `n / d`.
const MAPS: [(&str, &str); 4] = [
    ("asymmetric", "round_prefer_ceil"),
    ("half_pixel", "round_prefer_ceil"),
    ("asymmetric", "floor"),
    ("half_pixel", "floor"),
];

fn twice_offset(map: (&str, &str), n: i64, d: i64) -> i128 {
    let (n, d) = (i128::from(n), i128::from(d));
    let coordinate = if map.0 == "half_pixel" { d - n } else { 0 };
    let rounding = if map.1 == "floor" { -n } else { 0 };
    coordinate + rounding
}

/// The first of [`MAPS`] that gives every axis `(n, d, offset)` its offset
/// (only `round_prefer_ceil` ones for bilinear, which does not round).
pub(super) fn choose_map(
    axes: &[(i64, i64, i64)],
    nearest: bool,
) -> Option<(&'static str, &'static str)> {
    MAPS.into_iter()
        .filter(|m| nearest || m.1 == "round_prefer_ceil")
        .find(|&m| {
            axes.iter()
                .all(|&(n, d, offset)| twice_offset(m, n, d) == 2 * i128::from(offset))
        })
}

impl Importer<'_> {
    /// `tosa.resize` (NHWC; scale `[y_n, y_d, x_n, x_d]`, offset and border
    /// `[y, x]`) as `graph.resize` of the whole tensor.
    pub(super) fn resize(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let x = self.operand(node, 0)?;
        let scale = self.shape(node, 1)?;
        let offset = self.shape(node, 2)?;
        let [yn, yd, xn, xd] = scale[..] else {
            return Err("'scale' is not [y_n, y_d, x_n, x_d]".into());
        };
        let [oy, ox] = offset[..] else {
            return Err("'offset' is not [y, x]".into());
        };
        if [yn, yd, xn, xd].iter().any(|&v| v <= 0) {
            return Err(format!(
                "a scale of {yn}/{yd} by {xn}/{xd}: each must be positive"
            ));
        }
        let nearest = self.attr(node, "mode")?.contains("NEAREST");
        let axes = [(yn, yd, oy), (xn, xd, ox)];
        let Some((coordinate, rounding)) = choose_map(&axes, nearest) else {
            return Err(format!(
                "an offset of [{oy}, {ox}] at a scale of {yn}/{yd} by {xn}/{xd} is neither \
                 asymmetric nor half-pixel sampling: it has no graph form"
            ));
        };
        let input =
            static_shape(self.ctx, self.ctx.value_type(x)).ok_or("an input of unknown shape")?;
        let out =
            static_shape(self.ctx, self.declared(node)?).ok_or("a result of unknown shape")?;
        let (&[n, ih, iw, c], &[_, oh, ow, _]) = (&input[..], &out[..]) else {
            return Err("an input or result that is not rank 4".into());
        };
        // Sizes when the scale is the ratio of the sizes (graph.resize then
        // derives the same scale from them), else the scales themselves.
        // (In i128: the numbers are the module's, and may be any i64.)
        let ratio = |i: i64, o: i64, n: i64, d: i64| {
            i128::from(o) * i128::from(d) == i128::from(i) * i128::from(n)
        };
        let mut exact = ratio(ih, oh, yn, yd) && ratio(iw, ow, xn, xd);
        // Asymmetric at `(O - 1) / (I - 1)` is what align_corners samples
        // (and its sizes are the output's).
        let corners = |i: i64, o: i64, n: i64, d: i64| ratio(i - 1, o - 1, n, d);
        let coordinate = if !exact
            && coordinate == "asymmetric"
            && corners(ih, oh, yn, yd)
            && corners(iw, ow, xn, xd)
        {
            exact = true;
            "align_corners"
        } else {
            coordinate
        };
        // graph.resize divides by its f32 scale: a nearest resize rounds
        // at the exact halves, where an inexact scale rounds the other way.
        let f32_exact = |n: i64, d: i64| f64::from(n as f32 / d as f32) == n as f64 / d as f64;
        if !exact && nearest && !(f32_exact(yn, yd) && f32_exact(xn, xd)) {
            return Err(format!(
                "a nearest resize at a scale of {yn}/{yd} by {xn}/{xd}, which an f32 does not \
                 hold exactly and which is not its sizes' ratio, has no exact graph form"
            ));
        }
        let mut e = self.emit(loc);
        let (operand, segments) = if exact {
            (e.const_i64(&[n, oh, ow, c])?, [1, 0, 0, 1])
        } else {
            let f32t = e.ctx.float_type(strata_ir::float::FloatKind::F32);
            let scales = [1.0, yn as f32 / yd as f32, xn as f32 / xd as f32, 1.0];
            let bytes: Vec<u8> = scales.iter().flat_map(|s| s.to_le_bytes()).collect();
            let ty = e.ctx.tensor_type(vec![4], f32t);
            let attr = e
                .ctx
                .dense_elements_attr(ty, bytes)
                .ok_or("the scales do not fit their type")?;
            (e.constant(attr)?, [1, 0, 1, 0])
        };
        let props = vec![
            (
                "mode",
                e.ctx
                    .string_attr(if nearest { "nearest" } else { "linear" }),
            ),
            (
                "coordinate_transformation_mode",
                e.ctx.string_attr(coordinate),
            ),
            ("nearest_mode", e.ctx.string_attr(rounding)),
            ("operandSegmentSizes", e.segments(&segments)),
        ];
        Ok(Slot::Tensor(e.op1(
            "graph.resize",
            &[x, operand],
            &props,
        )?))
    }
}

#[cfg(test)]
mod tests {
    use super::choose_map;

    #[test]
    fn offsets_name_their_sampling() {
        // Twice up, half-pixel: offset (2 - 4) / 2 = -1.
        assert_eq!(
            choose_map(&[(4, 2, -1), (4, 2, -1)], false),
            Some(("half_pixel", "round_prefer_ceil"))
        );
        // Twice up, nearest floor (PyTorch's nearest): offset -n / 2.
        assert_eq!(
            choose_map(&[(2, 1, -1), (2, 1, -1)], true),
            Some(("asymmetric", "floor"))
        );
        // Bilinear does not round: a floor offset is another sampling.
        assert_eq!(choose_map(&[(2, 1, -1), (2, 1, -1)], false), None);
        // An unscaled axis fits any mode the other needs.
        assert_eq!(
            choose_map(&[(1, 1, 0), (4, 2, -1)], false),
            Some(("half_pixel", "round_prefer_ceil"))
        );
        // Axes that need different modes have no graph form.
        assert_eq!(choose_map(&[(4, 2, 0), (4, 2, -1)], false), None);
        assert_eq!(choose_map(&[(3, 1, 5), (3, 1, 0)], true), None);
    }
}
