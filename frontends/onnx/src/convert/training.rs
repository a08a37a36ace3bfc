//! The optimizers of the `ai.onnx.preview.training` domain (version 1):
//! `Adagrad`, `Momentum` (standard and Nesterov) and `Adam`, each spelled
//! out with elementwise `graph` ops as ONNX defines its update.
//!
//! Every optimizer takes the learning rate `R` (a float scalar) and the
//! update count `T` (an `i64` scalar), then `n` tensors to optimize, their
//! `n` gradients and the `n` of each accumulated state; it returns the `n`
//! new tensors, then the `n` new states of each kind. The arithmetic is in
//! each tensor's own element type (ONNX's reference computes in it too).

use strata_ir::{Location, Type, Value};

use super::attrs::Attrs;
use super::{ConvertError, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, super::Convert)] = &[
    ("ai.onnx.preview.training:Adagrad", adagrad),
    ("ai.onnx.preview.training:Momentum", momentum),
    ("ai.onnx.preview.training:Adam", adam),
];

/// What every update reads: the learning rate and update count in the
/// tensor's element type, and whether this is a later update (`T > 0`).
struct Step {
    rate: Value,
    count: Value,
    later: Value,
}

/// The node's optimized tensors, `groups` values each (a tensor, its
/// gradient and its states): `n` from the input count, checked.
fn groups(node: &NodeProto, per: usize) -> Res<usize> {
    let operands = node.input.len().saturating_sub(2);
    if operands == 0 || operands % per != 0 {
        return Err(ConvertError::Invalid(format!(
            "has {} inputs: expected R, T and {per} inputs per optimized tensor",
            node.input.len()
        )));
    }
    let n = operands / per;
    if node.output.len() != n * (per - 1) {
        return Err(ConvertError::Invalid(format!(
            "has {} outputs: expected {} for {n} optimized tensors",
            node.output.len(),
            n * (per - 1)
        )));
    }
    Ok(n)
}

impl Importer<'_> {
    /// The learning rate and count of `node` in `elem`, with `T > 0`.
    fn step(&mut self, node: &NodeProto, elem: Type, loc: Location) -> Res<Step> {
        let (r, t) = (self.req(node, 0)?, self.req(node, 1)?);
        let rate = self.cast_to(r, elem, loc)?;
        let count = self.cast_to(t, elem, loc)?;
        let zero = self.scalar_like(t, 0.0, loc)?;
        let later = self.bin("graph.greater", t, zero, loc)?;
        Ok(Step { rate, count, later })
    }

    /// `x`'s element type, a float type.
    fn float_elem(&self, x: Value) -> Res<Type> {
        let elem = self
            .elem(x)
            .ok_or("has an optimized input that is not a tensor")?;
        if !strata_ir::ods::constraints::is_float(self.ctx, elem) {
            return Err("optimizes a tensor that is not of a float type".into());
        }
        Ok(elem)
    }

    /// `norm * x + g`: the gradient with the regularization term's.
    fn regularized(&mut self, x: Value, g: Value, norm: f32, loc: Location) -> Res<Value> {
        if norm == 0.0 {
            return Ok(g);
        }
        let c = self.scalar_like(x, f64::from(norm), loc)?;
        let nx = self.bin("graph.mul", c, x, loc)?;
        self.bin("graph.add", nx, g, loc)
    }

    /// `c * x` for a constant `c`.
    fn scaled(&mut self, c: f64, x: Value, loc: Location) -> Res<Value> {
        let c = self.scalar_like(x, c, loc)?;
        self.bin("graph.mul", c, x, loc)
    }
}

/// Adagrad: `r' = R / (1 + T * decay_factor)`, `g' = norm_coefficient * X
/// + G`, `H' = H + g'^2`, `X' = X - r' * g' / (sqrt(H') + epsilon)`.
fn adagrad(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let n = groups(node, 3)?;
    let decay = a.float("decay_factor").unwrap_or(0.0);
    let epsilon = a.float("epsilon").unwrap_or(0.0);
    let norm = a.float("norm_coefficient").unwrap_or(0.0);
    let (mut xs, mut hs) = (Vec::new(), Vec::new());
    for i in 0..n {
        let x = im.req(node, 2 + i)?;
        let (g, h) = (im.req(node, 2 + n + i)?, im.req(node, 2 + 2 * n + i)?);
        let elem = im.float_elem(x)?;
        let s = im.step(node, elem, loc)?;
        let decayed = im.scaled(f64::from(decay), s.count, loc)?;
        let one = im.scalar_like(x, 1.0, loc)?;
        let denominator = im.bin("graph.add", one, decayed, loc)?;
        let rate = im.bin("graph.div", s.rate, denominator, loc)?;
        let g = im.regularized(x, g, norm, loc)?;
        let g2 = im.bin("graph.mul", g, g, loc)?;
        let h_new = im.bin("graph.add", h, g2, loc)?;
        let root = im.un("graph.sqrt", h_new, loc)?;
        let eps = im.scalar_like(x, f64::from(epsilon), loc)?;
        let root = im.bin("graph.add", root, eps, loc)?;
        let step = im.bin("graph.mul", rate, g, loc)?;
        let step = im.bin("graph.div", step, root, loc)?;
        xs.push(im.bin("graph.sub", x, step, loc)?);
        hs.push(h_new);
    }
    xs.extend(hs);
    Ok(xs)
}

/// Momentum: `g' = norm_coefficient * X + G`, `V' = alpha * V + b * g'`
/// with `b = beta` after the first update (`T > 0`) and 1 at it; then
/// `X' = X - R * V'` (`mode = standard`) or `X' = X - R * (g' + alpha *
/// V')` (`nesterov`).
fn momentum(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let n = groups(node, 3)?;
    let alpha = a.float("alpha").ok_or("requires alpha")?;
    let beta = a.float("beta").ok_or("requires beta")?;
    let norm = a
        .float("norm_coefficient")
        .ok_or("requires norm_coefficient")?;
    let mode = a.string("mode").ok_or("requires mode")?;
    let nesterov = match mode.as_str() {
        "standard" => false,
        "nesterov" => true,
        other => {
            return Err(ConvertError::Invalid(format!(
                "has mode '{other}' (expected 'standard' or 'nesterov')"
            )))
        }
    };
    let (mut xs, mut vs) = (Vec::new(), Vec::new());
    for i in 0..n {
        let x = im.req(node, 2 + i)?;
        let (g, v) = (im.req(node, 2 + n + i)?, im.req(node, 2 + 2 * n + i)?);
        let elem = im.float_elem(x)?;
        let s = im.step(node, elem, loc)?;
        let g = im.regularized(x, g, norm, loc)?;
        let beta_c = im.scalar_like(x, f64::from(beta), loc)?;
        let one = im.scalar_like(x, 1.0, loc)?;
        let b = im.op1("graph.where", vec![s.later, beta_c, one], vec![], loc)?;
        let kept = im.scaled(f64::from(alpha), v, loc)?;
        let added = im.bin("graph.mul", b, g, loc)?;
        let v_new = im.bin("graph.add", kept, added, loc)?;
        let direction = if nesterov {
            let ahead = im.scaled(f64::from(alpha), v_new, loc)?;
            im.bin("graph.add", g, ahead, loc)?
        } else {
            v_new
        };
        let step = im.bin("graph.mul", s.rate, direction, loc)?;
        xs.push(im.bin("graph.sub", x, step, loc)?);
        vs.push(v_new);
    }
    xs.extend(vs);
    Ok(xs)
}

/// Adam: `g' = norm_coefficient * X + G`, `V' = alpha * V + (1 - alpha) *
/// g'`, `H' = beta * H + (1 - beta) * g'^2`, the rate bias-corrected after
/// the first update (`R * sqrt(1 - beta^T) / (1 - alpha^T)` for `T > 0`),
/// `X' = (1 - norm_coefficient_post) * (X - r * V' / (sqrt(H') +
/// epsilon))`.
fn adam(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let n = groups(node, 4)?;
    let alpha = f64::from(a.float("alpha").unwrap_or(0.9));
    let beta = f64::from(a.float("beta").unwrap_or(0.999));
    let epsilon = f64::from(a.float("epsilon").unwrap_or(0.0));
    let norm = a.float("norm_coefficient").unwrap_or(0.0);
    let post = f64::from(a.float("norm_coefficient_post").unwrap_or(0.0));
    let (mut xs, mut vs, mut hs) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let x = im.req(node, 2 + i)?;
        let g = im.req(node, 2 + n + i)?;
        let (v, h) = (im.req(node, 2 + 2 * n + i)?, im.req(node, 2 + 3 * n + i)?);
        let elem = im.float_elem(x)?;
        let s = im.step(node, elem, loc)?;
        let g = im.regularized(x, g, norm, loc)?;
        let kept = im.scaled(alpha, v, loc)?;
        let added = im.scaled(1.0 - alpha, g, loc)?;
        let v_new = im.bin("graph.add", kept, added, loc)?;
        let g2 = im.bin("graph.mul", g, g, loc)?;
        let kept = im.scaled(beta, h, loc)?;
        let added = im.scaled(1.0 - beta, g2, loc)?;
        let h_new = im.bin("graph.add", kept, added, loc)?;
        let root = im.un("graph.sqrt", h_new, loc)?;
        let eps = im.scalar_like(x, epsilon, loc)?;
        let root = im.bin("graph.add", root, eps, loc)?;
        // 1 - c^T for c = alpha, beta.
        let correction = |im: &mut Importer, c: f64| -> Res<Value> {
            let c = im.scalar_like(x, c, loc)?;
            let power = im.bin("graph.pow", c, s.count, loc)?;
            let one = im.scalar_like(x, 1.0, loc)?;
            im.bin("graph.sub", one, power, loc)
        };
        let beta_t = correction(im, beta)?;
        let alpha_t = correction(im, alpha)?;
        let root_beta = im.un("graph.sqrt", beta_t, loc)?;
        let corrected = im.bin("graph.mul", s.rate, root_beta, loc)?;
        let corrected = im.bin("graph.div", corrected, alpha_t, loc)?;
        let rate = im.op1("graph.where", vec![s.later, corrected, s.rate], vec![], loc)?;
        let ratio = im.bin("graph.div", v_new, root, loc)?;
        let step = im.bin("graph.mul", rate, ratio, loc)?;
        let x_new = im.bin("graph.sub", x, step, loc)?;
        let x_new = if post == 0.0 {
            x_new
        } else {
            im.scaled(1.0 - post, x_new, loc)?
        };
        xs.push(x_new);
        vs.push(v_new);
        hs.push(h_new);
    }
    xs.extend(vs);
    xs.extend(hs);
    Ok(xs)
}
