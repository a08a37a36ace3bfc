//! Each `graph` op's TOSA ops.

use strata_ir::Operation;

use super::{Emitter, Res, T};

/// `graph` ops that are one broadcasting TOSA op.
const BINARY: &[(&str, &str)] = &[
    ("graph.add", "tosa.add"),
    ("graph.sub", "tosa.sub"),
    ("graph.mul", "tosa.mul"),
    ("graph.max", "tosa.maximum"),
    ("graph.min", "tosa.minimum"),
    ("graph.pow", "tosa.pow"),
    ("graph.equal", "tosa.equal"),
    ("graph.greater", "tosa.greater"),
    ("graph.greater_equal", "tosa.greater_equal"),
];

/// `graph` ops that are one TOSA op of one operand.
const UNARY: &[(&str, &str)] = &[
    ("graph.abs", "tosa.abs"),
    ("graph.ceil", "tosa.ceil"),
    ("graph.floor", "tosa.floor"),
    ("graph.exp", "tosa.exp"),
    ("graph.log", "tosa.log"),
    ("graph.rsqrt", "tosa.rsqrt"),
    ("graph.reciprocal", "tosa.reciprocal"),
    ("graph.tanh", "tosa.tanh"),
    ("graph.sigmoid", "tosa.sigmoid"),
    ("graph.erf", "tosa.erf"),
    ("graph.sin", "tosa.sin"),
    ("graph.cos", "tosa.cos"),
    ("graph.neg", "tosa.negate"),
    ("graph.identity", "tosa.identity"),
];

/// Every `graph` op [`Emitter::op`] exports, sorted.
pub fn exported_ops() -> Vec<&'static str> {
    let mut ops: Vec<&str> = BINARY.iter().chain(UNARY).map(|&(g, _)| g).collect();
    ops.extend([
        "graph.and",
        "graph.argmax",
        "graph.avg_pool2d",
        "graph.batch_norm",
        "graph.cast",
        "graph.clip",
        "graph.concat",
        "graph.constant",
        "graph.conv2d",
        "graph.div",
        "graph.expand",
        "graph.flatten",
        "graph.gelu",
        "graph.gather",
        "graph.gather_nd",
        "graph.gemm",
        "graph.global_avg_pool",
        "graph.hard_sigmoid",
        "graph.layer_norm",
        "graph.less",
        "graph.less_equal",
        "graph.matmul",
        "graph.max_pool2d",
        "graph.not",
        "graph.or",
        "graph.pad",
        "graph.reduce_max",
        "graph.reduce_mean",
        "graph.reduce_min",
        "graph.reduce_prod",
        "graph.reduce_sum",
        "graph.relu",
        "graph.reshape",
        "graph.resize",
        "graph.round",
        "graph.silu",
        "graph.slice",
        "graph.softmax",
        "graph.split",
        "graph.sqrt",
        "graph.squeeze",
        "graph.tile",
        "graph.transpose",
        "graph.unsqueeze",
        "graph.where",
        "graph.xor",
    ]);
    ops.sort_unstable();
    ops
}

impl Emitter<'_> {
    /// The TOSA ops of one `graph` op; its results.
    pub(super) fn op(&mut self, op: Operation) -> Res<Vec<T>> {
        let name = self.ctx.op_name_str(op).to_string();
        if name == "graph.split" {
            return self.split(op);
        }
        let out = self.result(op)?;
        let name = name.as_str();
        if let Some(&(_, to)) = BINARY.iter().find(|(g, _)| *g == name) {
            let (a, b) = (self.operand(op, 0)?, self.operand(op, 1)?);
            return Ok(vec![self.binary(to, &a, &b, &out.shape, &out.elem)]);
        }
        if let Some(&(_, to)) = UNARY.iter().find(|(g, _)| *g == name) {
            let x = self.operand(op, 0)?;
            return Ok(vec![self.unary(to, &x)]);
        }
        let r = match name {
            "graph.and" | "graph.or" | "graph.xor" | "graph.not" | "graph.less"
            | "graph.less_equal" | "graph.div" => self.logic(op, name, &out)?,
            "graph.relu" | "graph.clip" | "graph.sqrt" | "graph.gelu" | "graph.silu"
            | "graph.cast" | "graph.where" | "graph.hard_sigmoid" => {
                self.elementwise(op, name, &out)?
            }
            "graph.gather" => self.gather(op, &out)?,
            "graph.gather_nd" => self.gather_nd(op, &out)?,
            "graph.resize" => self.resize(op, &out)?,
            "graph.round" => {
                let x = self.operand(op, 0)?;
                self.round(&x)
            }
            "graph.argmax" => {
                let x = self.operand(op, 0)?;
                let axis = self.int(op, "axis", 0).rem_euclid(x.rank() as i64) as usize;
                let mut shape = x.shape.clone();
                shape.remove(axis);
                let props = format!("axis = {axis} : i32");
                let r = self.emit("tosa.argmax", &[&x], &props, &shape, "i32");
                let r = if out.elem == "i32" {
                    r
                } else {
                    self.emit("tosa.cast", &[&r], "", &shape, &out.elem)
                };
                self.reshape(&r, &out.shape)
            }
            "graph.matmul" | "graph.gemm" => self.products(op, name, &out)?,
            "graph.reshape" | "graph.flatten" | "graph.squeeze" | "graph.unsqueeze"
            | "graph.transpose" | "graph.concat" | "graph.slice" | "graph.pad" | "graph.tile"
            | "graph.expand" => self.data_movement(op, name, &out)?,
            "graph.reduce_sum" | "graph.reduce_max" | "graph.reduce_min" | "graph.reduce_prod"
            | "graph.reduce_mean" => self.reduction(op, name, &out)?,
            "graph.softmax" | "graph.layer_norm" | "graph.batch_norm" => {
                self.normalizations(op, name, &out)?
            }
            "graph.conv2d" | "graph.max_pool2d" | "graph.avg_pool2d" | "graph.global_avg_pool" => {
                self.windows(op, name, &out)?
            }
            _ => return Err(format!("'{name}' has no TOSA form in the exporter")),
        };
        Ok(vec![r])
    }

    /// Logical and bitwise ops, the compares TOSA spells the other way
    /// round, division.
    fn logic(&mut self, op: Operation, name: &str, out: &T) -> Res<T> {
        let a = self.operand(op, 0)?;
        let boolean = a.elem == "i1";
        Ok(match name {
            "graph.not" => self.unary(
                if boolean {
                    "tosa.logical_not"
                } else {
                    "tosa.bitwise_not"
                },
                &a,
            ),
            "graph.and" | "graph.or" | "graph.xor" => {
                let b = self.operand(op, 1)?;
                let which = &name["graph.".len()..];
                let to = if boolean {
                    format!("tosa.logical_{which}")
                } else {
                    format!("tosa.bitwise_{which}")
                };
                self.binary(&to, &a, &b, &out.shape, &out.elem)
            }
            "graph.less" | "graph.less_equal" => {
                let b = self.operand(op, 1)?;
                let to = if name == "graph.less" {
                    "tosa.greater"
                } else {
                    "tosa.greater_equal"
                };
                self.binary(to, &b, &a, &out.shape, &out.elem)
            }
            _ => {
                let b = self.operand(op, 1)?;
                if a.is_float() {
                    // TOSA has no float division: a times the reciprocal of b.
                    let r = self.unary("tosa.reciprocal", &b);
                    self.binary("tosa.mul", &a, &r, &out.shape, &out.elem)
                } else {
                    self.binary("tosa.intdiv", &a, &b, &out.shape, &out.elem)
                }
            }
        })
    }

    /// Activations, clips, casts and selects.
    fn elementwise(&mut self, op: Operation, name: &str, out: &T) -> Res<T> {
        let x = self.operand(op, 0)?;
        Ok(match name {
            "graph.relu" => self.clamp(&x, 0.0, f64::INFINITY),
            "graph.clip" => {
                let bound = |e: &mut Self, i: usize, default: f64| -> Res<f64> {
                    if i >= e.ctx.num_operands(op) {
                        return Ok(default);
                    }
                    e.scalar_constant(e.ctx.operand(op, i)).ok_or_else(|| {
                        "a clip bound that is not a constant of one element".to_string()
                    })
                };
                let lo = bound(self, 1, f64::NEG_INFINITY)?;
                let hi = bound(self, 2, f64::INFINITY)?;
                self.clamp(&x, lo, hi)
            }
            "graph.sqrt" => {
                let r = self.unary("tosa.rsqrt", &x);
                self.unary("tosa.reciprocal", &r)
            }
            "graph.hard_sigmoid" => {
                let alpha = self.scalar(self.float_attr(op, "alpha", 0.2), &x.elem, x.rank());
                let beta = self.scalar(self.float_attr(op, "beta", 0.5), &x.elem, x.rank());
                let ax = self.binary("tosa.mul", &x, &alpha, &out.shape, &out.elem);
                let y = self.binary("tosa.add", &ax, &beta, &out.shape, &out.elem);
                self.clamp(&y, 0.0, 1.0)
            }
            "graph.silu" => {
                let s = self.unary("tosa.sigmoid", &x);
                self.binary("tosa.mul", &x, &s, &out.shape, &out.elem)
            }
            "graph.gelu" => self.gelu(op, &x, out)?,
            "graph.where" => {
                let (a, b) = (self.operand(op, 1)?, self.operand(op, 2)?);
                let rank = out.rank();
                let (c, a, b) = (
                    self.lift(&x, rank),
                    self.lift(&a, rank),
                    self.lift(&b, rank),
                );
                self.emit("tosa.select", &[&c, &a, &b], "", &out.shape, &out.elem)
            }
            _ => {
                // graph.cast truncates a float toward zero where tosa.cast
                // rounds: floor the non-negative values, ceil the others.
                let rounded = self.absorbed.contains(&self.ctx.operand(op, 0));
                let x = if x.is_float() && !out.is_float() && out.elem != "i1" && !rounded {
                    let zero = self.scalar(0.0, &x.elem, x.rank());
                    let ge = self.binary("tosa.greater_equal", &x, &zero, &x.shape, "i1");
                    let fl = self.unary("tosa.floor", &x);
                    let ce = self.unary("tosa.ceil", &x);
                    self.emit(
                        "tosa.select",
                        &[&ge, &fl, &ce],
                        "",
                        &x.shape,
                        &x.elem.clone(),
                    )
                } else {
                    x
                };
                self.emit("tosa.cast", &[&x], "", &out.shape, &out.elem)
            }
        })
    }

    /// The value of a one-element constant, through reshapes.
    fn scalar_constant(&self, mut v: strata_ir::Value) -> Option<f64> {
        loop {
            let d = self.ctx.defining_op(v)?;
            match self.ctx.op_name_str(d) {
                "graph.constant" => {
                    let numbers = crate::tosa::numbers(&self.attr_text(d, "value")?)?;
                    return (numbers.len() == 1).then(|| numbers[0]);
                }
                "graph.reshape" | "graph.identity" | "graph.squeeze" | "graph.unsqueeze" => {
                    v = self.ctx.operand(d, 0);
                }
                _ => return None,
            }
        }
    }

    /// Rounding to nearest, ties to even (TOSA has no round): `f =
    /// floor(x + 0.5)`, less one where `x` was a tie and `f` is odd.
    fn round(&mut self, x: &T) -> T {
        let (shape, elem, rank) = (x.shape.clone(), x.elem.clone(), x.rank());
        let half = self.scalar(0.5, &elem, rank);
        let one = self.scalar(1.0, &elem, rank);
        let t = self.binary("tosa.add", x, &half, &shape, &elem);
        let f = self.unary("tosa.floor", &t);
        let above = self.binary("tosa.sub", &f, x, &shape, &elem);
        let tie = self.binary("tosa.equal", &above, &half, &shape, "i1");
        let h = self.binary("tosa.mul", &f, &half, &shape, &elem);
        let hf = self.unary("tosa.floor", &h);
        let odd = self.binary("tosa.greater", &h, &hf, &shape, "i1");
        let both = self.binary("tosa.logical_and", &tie, &odd, &shape, "i1");
        let down = self.binary("tosa.sub", &f, &one, &shape, &elem);
        self.emit("tosa.select", &[&both, &down, &f], "", &shape, &elem)
    }

    /// `graph.gather` along `axis` as TOSA's `gather` (values `[N, K, C]`,
    /// indices `[N, W]`): the axis moved first and the other dims folded
    /// into `C`, the indices (made non-negative) flattened into `W`, and
    /// the result moved back.
    fn gather(&mut self, op: Operation, out: &T) -> Res<T> {
        let data = self.operand(op, 0)?;
        let idx = self.operand(op, 1)?;
        let r = data.rank();
        let a = self.int(op, "axis", 0).rem_euclid(r as i64) as usize;
        let k = data.shape[a];
        let (pre, post) = (data.shape[..a].to_vec(), data.shape[a + 1..].to_vec());
        let (p, q): (i64, i64) = (pre.iter().product(), post.iter().product());
        let w: i64 = idx.shape.iter().product();
        let mut perm = vec![a as i64];
        perm.extend((0..r as i64).filter(|&d| d != a as i64));
        let moved = if a == 0 {
            data.clone()
        } else {
            self.transpose(&data, &perm)
        };
        let values = self.reshape(&moved, &[1, k, p * q]);
        let idx = if idx.elem == "i32" {
            idx
        } else {
            self.emit("tosa.cast", &[&idx], "", &idx.shape.clone(), "i32")
        };
        let zero = self.scalar(0.0, "i32", idx.rank());
        let size = self.scalar(k as f64, "i32", idx.rank());
        let negative = self.binary("tosa.greater", &zero, &idx, &idx.shape.clone(), "i1");
        let wrapped = self.binary("tosa.add", &idx, &size, &idx.shape.clone(), "i32");
        let idx = self.emit(
            "tosa.select",
            &[&negative, &wrapped, &idx],
            "",
            &idx.shape.clone(),
            "i32",
        );
        let idx = self.reshape(&idx, &[1, w]);
        let g = self.emit(
            "tosa.gather",
            &[&values, &idx],
            "",
            &[1, w, p * q],
            &data.elem,
        );
        let mut shape = vec![w];
        shape.extend(&pre);
        shape.extend(&post);
        let g = self.reshape(&g, &shape);
        let g = if a == 0 {
            g
        } else {
            let mut back: Vec<i64> = (1..=a as i64).collect();
            back.push(0);
            back.extend(a as i64 + 1..r as i64);
            self.transpose(&g, &back)
        };
        Ok(self.reshape(&g, &out.shape))
    }

    /// GELU, exact (with erf) or with tanh.
    fn gelu(&mut self, op: Operation, x: &T, out: &T) -> Res<T> {
        let (shape, elem, rank) = (out.shape.clone(), out.elem.clone(), out.rank());
        let half = self.scalar(0.5, &elem, rank);
        let one = self.scalar(1.0, &elem, rank);
        let inner = if self.string(op, "approximate").as_deref() == Some("tanh") {
            let c = self.scalar((2.0 / std::f64::consts::PI).sqrt(), &elem, rank);
            let k = self.scalar(0.044715, &elem, rank);
            let x2 = self.binary("tosa.mul", x, x, &shape, &elem);
            let x3 = self.binary("tosa.mul", &x2, x, &shape, &elem);
            let kx3 = self.binary("tosa.mul", &k, &x3, &shape, &elem);
            let s = self.binary("tosa.add", x, &kx3, &shape, &elem);
            let cs = self.binary("tosa.mul", &c, &s, &shape, &elem);
            self.unary("tosa.tanh", &cs)
        } else {
            let r = self.scalar(std::f64::consts::FRAC_1_SQRT_2, &elem, rank);
            let xr = self.binary("tosa.mul", x, &r, &shape, &elem);
            self.unary("tosa.erf", &xr)
        };
        let p = self.binary("tosa.add", &one, &inner, &shape, &elem);
        let hx = self.binary("tosa.mul", &half, x, &shape, &elem);
        Ok(self.binary("tosa.mul", &hx, &p, &shape, &elem))
    }

    /// `graph.matmul` (batches broadcast as TOSA's 3-D product allows) and
    /// `graph.gemm`.
    fn products(&mut self, op: Operation, name: &str, out: &T) -> Res<T> {
        let (mut a, mut b) = (self.operand(op, 0)?, self.operand(op, 1)?);
        if name == "graph.gemm" {
            if self.flag(op, "transA") {
                a = self.transpose(&a, &[1, 0]);
            }
            if self.flag(op, "transB") {
                b = self.transpose(&b, &[1, 0]);
            }
        }
        if a.rank() < 2 || b.rank() < 2 {
            return Err("a product of vectors has no TOSA form in the exporter".into());
        }
        let (m, k) = (a.shape[a.rank() - 2], a.shape[a.rank() - 1]);
        let n = b.shape[b.rank() - 1];
        let a_batch: i64 = a.shape[..a.rank() - 2].iter().product();
        let b_batch: i64 = b.shape[..b.rank() - 2].iter().product();
        let (a3, b3) = if b_batch == 1 {
            // One right operand: every batch of `a` is rows of one product.
            (
                self.reshape(&a, &[1, a_batch * m, k]),
                self.reshape(&b, &[1, k, n]),
            )
        } else if a.shape[..a.rank() - 2] == b.shape[..b.rank() - 2] {
            (
                self.reshape(&a, &[a_batch, m, k]),
                self.reshape(&b, &[b_batch, k, n]),
            )
        } else {
            return Err(
                "a product whose batches broadcast has no TOSA form in the exporter".into(),
            );
        };
        let zp = self.zero_point(&a.elem);
        let shape = [a3.shape[0], a3.shape[1], n];
        let p = self.emit("tosa.matmul", &[&a3, &b3, &zp, &zp], "", &shape, &out.elem);
        let mut r = self.reshape(&p, &out.shape);
        if name == "graph.gemm" {
            let alpha = self.float_attr(op, "alpha", 1.0);
            let beta = self.float_attr(op, "beta", 1.0);
            if alpha != 1.0 {
                let s = self.scalar(alpha, &out.elem, out.rank());
                r = self.binary("tosa.mul", &r, &s, &out.shape, &out.elem);
            }
            if self.ctx.num_operands(op) > 2 && beta != 0.0 {
                let mut c = self.operand(op, 2)?;
                if beta != 1.0 {
                    let s = self.scalar(beta, &c.elem, c.rank());
                    c = self.binary("tosa.mul", &c, &s, &c.shape.clone(), &c.elem.clone());
                }
                r = self.binary("tosa.add", &r, &c, &out.shape, &out.elem);
            }
        }
        Ok(r)
    }

    /// Shape ops: reshapes (of every spelling), transposes, concats,
    /// slices, pads, tiles and expands.
    fn data_movement(&mut self, op: Operation, name: &str, out: &T) -> Res<T> {
        let x = self.operand(op, 0)?;
        Ok(match name {
            "graph.reshape" | "graph.flatten" | "graph.squeeze" | "graph.unsqueeze" => {
                self.reshape(&x, &out.shape)
            }
            "graph.transpose" => {
                let perm = self
                    .ints(op, "perm")
                    .unwrap_or_else(|| (0..x.rank() as i64).rev().collect());
                self.transpose(&x, &perm)
            }
            "graph.concat" => {
                let inputs = (0..self.ctx.num_operands(op))
                    .map(|i| self.operand(op, i))
                    .collect::<Res<Vec<T>>>()?;
                let axis = self.int(op, "axis", 0).rem_euclid(out.rank() as i64);
                let refs: Vec<&T> = inputs.iter().collect();
                self.emit(
                    "tosa.concat",
                    &refs,
                    &format!("axis = {axis} : i32"),
                    &out.shape,
                    &out.elem,
                )
            }
            "graph.slice" => self.slice(op, &x, out)?,
            "graph.pad" => {
                if self
                    .string(op, "mode")
                    .as_deref()
                    .is_some_and(|m| m != "constant")
                {
                    return Err("only a constant pad has a TOSA form".into());
                }
                if self.ctx.num_operands(op) > 3 {
                    return Err("a pad of some axes has no TOSA form in the exporter".into());
                }
                let pads = self.const_ints(self.ctx.operand(op, 1))?;
                let r = x.rank();
                if pads.len() != 2 * r {
                    return Err("pads that are not two per axis".into());
                }
                let padding: Vec<i64> = (0..r).flat_map(|i| [pads[i], pads[r + i]]).collect();
                let s = self.shape(&padding);
                // TOSA's pad value is a constant of one element.
                let value = if self.ctx.num_operands(op) > 2 {
                    let value = self
                        .scalar_constant(self.ctx.operand(op, 2))
                        .ok_or("a pad value that is not a constant of one element")?;
                    self.scalar(value, &x.elem, 1)
                } else {
                    self.scalar(0.0, &x.elem, 1)
                };
                self.emit("tosa.pad", &[&x, &s, &value], "", &out.shape, &out.elem)
            }
            _ => {
                // graph.tile (its repeats) and graph.expand (a broadcast:
                // TOSA has none, so a tile of the size-1 dims).
                let x = self.lift(&x, out.rank());
                let multiples: Vec<i64> = x
                    .shape
                    .iter()
                    .zip(&out.shape)
                    .map(|(&i, &o)| if i == 0 { 1 } else { o / i })
                    .collect();
                let s = self.shape(&multiples);
                self.emit("tosa.tile", &[&x, &s], "", &out.shape, &out.elem)
            }
        })
    }

    /// `graph.split`: one `tosa.slice` per result, at the sizes of the
    /// results before it.
    fn split(&mut self, op: Operation) -> Res<Vec<T>> {
        let x = self.operand(op, 0)?;
        let axis = self.int(op, "axis", 0).rem_euclid(x.rank().max(1) as i64) as usize;
        let mut offset = 0;
        let mut outs = Vec::new();
        for r in self.ctx.results(op).collect::<Vec<_>>() {
            let out = self.typed(String::new(), self.ctx.value_type(r))?;
            let mut start = vec![0; x.rank()];
            start[axis] = offset;
            offset += out.shape[axis];
            let s = self.shape(&start);
            let z = self.shape(&out.shape);
            outs.push(self.emit("tosa.slice", &[&x, &s, &z], "", &out.shape, &out.elem));
        }
        Ok(outs)
    }

    /// `graph.slice` of steps 1 (starts, ends and axes constant).
    fn slice(&mut self, op: Operation, x: &T, out: &T) -> Res<T> {
        let operand = |e: &Self, i: usize| -> Res<Option<Vec<i64>>> {
            if i >= e.ctx.num_operands(op) {
                return Ok(None);
            }
            e.const_ints(e.ctx.operand(op, i)).map(Some)
        };
        let segments = self
            .ints(op, "operandSegmentSizes")
            .unwrap_or_else(|| vec![1, 1, 1, 1, 0]);
        let index = |k: usize| -> Option<usize> {
            (segments.get(k).copied().unwrap_or(0) > 0)
                .then(|| segments[..k].iter().sum::<i64>() as usize)
        };
        let starts = operand(self, 1)?.ok_or("a slice without starts")?;
        let axes = match index(3) {
            Some(i) => operand(self, i)?.ok_or("a slice without axes")?,
            None => (0..starts.len() as i64).collect(),
        };
        let steps = match index(4) {
            Some(i) => operand(self, i)?.unwrap_or_else(|| vec![1; starts.len()]),
            None => vec![1; starts.len()],
        };
        let mut x = x.clone();
        let mut start = vec![0; x.rank()];
        let mut step = vec![1; x.rank()];
        for ((&s, &a), &st) in starts.iter().zip(&axes).zip(&steps) {
            let a = a.rem_euclid(x.rank() as i64) as usize;
            let dim = x.shape[a];
            let s = if s < 0 { s + dim } else { s };
            if st < 0 {
                // Backwards: reverse the axis, and start from the mirror.
                if st != -1 {
                    return Err(
                        "a slice with a step below -1 has no TOSA form in the exporter".into(),
                    );
                }
                let (shape, elem) = (x.shape.clone(), x.elem.clone());
                x = self.emit(
                    "tosa.reverse",
                    &[&x],
                    &format!("axis = {a} : i32"),
                    &shape,
                    &elem,
                );
                start[a] = (dim - 1 - s.min(dim - 1)).max(0);
            } else {
                start[a] = s.clamp(0, dim);
                step[a] = st;
            }
        }
        if step.iter().all(|&s| s == 1) {
            let s = self.shape(&start);
            let z = self.shape(&out.shape);
            return Ok(self.emit("tosa.slice", &[&x, &s, &z], "", &out.shape, &out.elem));
        }
        // Strided: slice `n * step` elements (padded at the end where the
        // input stops short), split each strided axis into [n, step] and
        // keep index 0 of the step.
        let span: Vec<i64> = (0..x.rank()).map(|d| out.shape[d] * step[d]).collect();
        let avail: Vec<i64> = (0..x.rank())
            .map(|d| span[d].min(x.shape[d] - start[d]))
            .collect();
        let s = self.shape(&start);
        let z = self.shape(&avail);
        let mut y = self.emit("tosa.slice", &[&x, &s, &z], "", &avail, &out.elem);
        if avail != span {
            let padding: Vec<i64> = (0..x.rank())
                .flat_map(|d| [0, span[d] - avail[d]])
                .collect();
            let p = self.shape(&padding);
            let zero = self.scalar(0.0, &out.elem, 1);
            y = self.emit("tosa.pad", &[&y, &p, &zero], "", &span, &out.elem);
        }
        let split: Vec<i64> = (0..x.rank())
            .flat_map(|d| [out.shape[d], step[d]])
            .collect();
        let y = self.reshape(&y, &split);
        let first: Vec<i64> = (0..x.rank()).flat_map(|d| [out.shape[d], 1]).collect();
        let s = self.shape(&vec![0; split.len()]);
        let z = self.shape(&first);
        let y = self.emit("tosa.slice", &[&y, &s, &z], "", &first, &out.elem);
        Ok(self.reshape(&y, &out.shape))
    }

    /// Reductions over constant axes, kept or not.
    fn reduction(&mut self, op: Operation, name: &str, out: &T) -> Res<T> {
        let x = self.operand(op, 0)?;
        let mut axes: Vec<usize> = if self.ctx.num_operands(op) > 1 {
            self.const_ints(self.ctx.operand(op, 1))?
                .iter()
                .map(|&a| a.rem_euclid(x.rank() as i64) as usize)
                .collect()
        } else {
            (0..x.rank()).collect()
        };
        axes.sort_unstable();
        axes.dedup();
        let to = match name {
            "graph.reduce_max" => "tosa.reduce_max",
            "graph.reduce_min" => "tosa.reduce_min",
            "graph.reduce_prod" => "tosa.reduce_product",
            _ => "tosa.reduce_sum",
        };
        let mut r = self.reduce(to, &x, &axes);
        if name == "graph.reduce_mean" {
            let n: i64 = axes.iter().map(|&a| x.shape[a]).product();
            let s = self.scalar(1.0 / n as f64, &x.elem, r.rank());
            r = self.binary("tosa.mul", &r, &s, &r.shape.clone(), &r.elem.clone());
        }
        Ok(self.reshape(&r, &out.shape))
    }

    /// Softmax, layer norm and batch norm, spelled out as TOSA spells them.
    fn normalizations(&mut self, op: Operation, name: &str, out: &T) -> Res<T> {
        let x = self.operand(op, 0)?;
        let (shape, elem, rank) = (out.shape.clone(), out.elem.clone(), out.rank());
        let axis =
            |e: &Self, default: i64| e.int(op, "axis", default).rem_euclid(rank as i64) as usize;
        Ok(match name {
            "graph.softmax" => {
                let a = axis(self, -1);
                let m = self.reduce("tosa.reduce_max", &x, &[a]);
                let d = self.binary("tosa.sub", &x, &m, &shape, &elem);
                let e = self.unary("tosa.exp", &d);
                let s = self.reduce("tosa.reduce_sum", &e, &[a]);
                let r = self.unary("tosa.reciprocal", &s);
                self.binary("tosa.mul", &e, &r, &shape, &elem)
            }
            "graph.layer_norm" => {
                let first = axis(self, -1);
                let axes: Vec<usize> = (first..rank).collect();
                let n: i64 = axes.iter().map(|&a| shape[a]).product();
                let inv_n = self.scalar(1.0 / n as f64, &elem, rank);
                let sum = self.reduce("tosa.reduce_sum", &x, &axes);
                let mean = self.binary("tosa.mul", &sum, &inv_n, &sum.shape.clone(), &elem);
                let d = self.binary("tosa.sub", &x, &mean, &shape, &elem);
                let d2 = self.binary("tosa.mul", &d, &d, &shape, &elem);
                let ss = self.reduce("tosa.reduce_sum", &d2, &axes);
                let var = self.binary("tosa.mul", &ss, &inv_n, &ss.shape.clone(), &elem);
                let eps = self.scalar(self.float_attr(op, "epsilon", 1e-5), &elem, rank);
                let ve = self.binary("tosa.add", &var, &eps, &var.shape.clone(), &elem);
                let inv = self.unary("tosa.rsqrt", &ve);
                let norm = self.binary("tosa.mul", &d, &inv, &shape, &elem);
                let scale = self.operand(op, 1)?;
                let mut r = self.binary("tosa.mul", &norm, &scale, &shape, &elem);
                if self.ctx.num_operands(op) > 2 {
                    let bias = self.operand(op, 2)?;
                    r = self.binary("tosa.add", &r, &bias, &shape, &elem);
                }
                r
            }
            _ => {
                // Inference batch norm over axis 1: (x - mean) * scale /
                // sqrt(var + eps) + bias, the parameters as [1, C, 1, ...].
                let mut param_shape = vec![1; rank];
                param_shape[1] = shape[1];
                let mut p = Vec::new();
                for i in 1..5 {
                    let v = self.operand(op, i)?;
                    p.push(self.reshape(&v, &param_shape));
                }
                let eps = self.scalar(self.float_attr(op, "epsilon", 1e-5), &elem, rank);
                let ve = self.binary("tosa.add", &p[3], &eps, &param_shape, &elem);
                let inv = self.unary("tosa.rsqrt", &ve);
                let k = self.binary("tosa.mul", &p[0], &inv, &param_shape, &elem);
                let d = self.binary("tosa.sub", &x, &p[2], &shape, &elem);
                let n = self.binary("tosa.mul", &d, &k, &shape, &elem);
                self.binary("tosa.add", &n, &p[1], &shape, &elem)
            }
        })
    }

    /// Convolutions and pools: NHWC as TOSA takes them, NCHW transposed
    /// around them.
    fn windows(&mut self, op: Operation, name: &str, out: &T) -> Res<T> {
        let x = self.operand(op, 0)?;
        let nchw = self.string(op, "layout").is_none_or(|l| l == "nchw");
        if name == "graph.global_avg_pool" && nchw && x.rank() >= 3 {
            // Channels first, any number of spatial axes: their sum times
            // one over their size.
            let axes: Vec<usize> = (2..x.rank()).collect();
            let s = self.reduce("tosa.reduce_sum", &x, &axes);
            let size: i64 = x.shape[2..].iter().product();
            let k = self.scalar(1.0 / size as f64, &x.elem, x.rank());
            return Ok(self.binary("tosa.mul", &s, &k, &out.shape, &out.elem));
        }
        if x.rank() != 4 {
            return Err("only 2-D windows (rank-4 tensors) have a TOSA form".into());
        }
        let x = if nchw {
            self.transpose(&x, &[0, 2, 3, 1])
        } else {
            x
        };
        let out_nhwc: Vec<i64> = if nchw {
            vec![out.shape[0], out.shape[2], out.shape[3], out.shape[1]]
        } else {
            out.shape.clone()
        };
        let (elem, e) = (out.elem.clone(), x.elem.clone());
        let pads = self.ints(op, "pads").unwrap_or_else(|| vec![0; 4]);
        let [top, left, mut bottom, mut right] = pads[..] else {
            return Err("pads that are not [top, left, bottom, right]".into());
        };
        let strides = self.ints(op, "strides").unwrap_or_else(|| vec![1, 1]);
        let dil = self.ints(op, "dilations").unwrap_or_else(|| vec![1, 1]);
        let kernel: Vec<i64> = match name {
            "graph.conv2d" => {
                let w = self.operand(op, 1)?;
                if nchw {
                    vec![w.shape[2], w.shape[3]]
                } else {
                    vec![w.shape[1], w.shape[2]]
                }
            }
            "graph.global_avg_pool" => vec![x.shape[1], x.shape[2]],
            _ => self
                .ints(op, "kernel_shape")
                .ok_or("a pool without kernel_shape")?,
        };
        // TOSA wants the padded extent to fit the strides exactly, where
        // ONNX rounds down: the rows and columns a window never reaches
        // are padding dropped from the bottom and the right.
        let mut kept = x.shape.clone();
        for (axis, after) in [(1usize, &mut bottom), (2, &mut right)] {
            let before = if axis == 1 { top } else { left };
            let span = x.shape[axis] - 1 + before + *after - (kernel[axis - 1] - 1) * dil[axis - 1];
            let extra = span.rem_euclid(strides[axis - 1]);
            let trimmed = extra.min(*after);
            *after -= trimmed;
            // The rest of the rows no window reads come off the input.
            kept[axis] -= extra - trimmed;
        }
        let x = if kept == x.shape {
            x
        } else {
            let start = self.shape(&[0, 0, 0, 0]);
            let size = self.shape(&kept);
            let e = x.elem.clone();
            self.emit("tosa.slice", &[&x, &start, &size], "", &kept, &e)
        };
        let pad = format!("pad = array<i64: {top}, {bottom}, {left}, {right}>");
        let stride = format!("stride = array<i64: {}, {}>", strides[0], strides[1]);
        let r = match name {
            "graph.conv2d" => {
                let w = self.operand(op, 1)?;
                let group = self.int(op, "group", 1);
                let props = format!(
                    "acc_type = {e}, dilation = array<i64: {}, {}>, {pad}, {stride}",
                    dil[0], dil[1]
                );
                let channels = x.shape[3];
                let m_out = out_nhwc[3];
                let bias = if self.ctx.num_operands(op) > 2 {
                    self.operand(op, 2)?
                } else {
                    let zeros = format!("dense<0.0> : tensor<{m_out}x{e}>");
                    self.constant(&zeros, &[m_out], &e)
                };
                let zp = self.zero_point(&e);
                if group == 1 {
                    let w = if nchw {
                        self.transpose(&w, &[0, 2, 3, 1])
                    } else {
                        w
                    };
                    self.emit(
                        "tosa.conv2d",
                        &[&x, &w, &bias, &zp, &zp],
                        &props,
                        &out_nhwc,
                        &elem,
                    )
                } else if group == channels {
                    // Depthwise: the weight [C * M, 1, KH, KW] (or
                    // [C * M, KH, KW, 1]) as TOSA's [KH, KW, C, M].
                    let (kh, kw) = if nchw {
                        (w.shape[2], w.shape[3])
                    } else {
                        (w.shape[1], w.shape[2])
                    };
                    let m = m_out / channels;
                    let w = self.reshape(&w, &[channels, m, kh, kw]);
                    let w = self.transpose(&w, &[2, 3, 0, 1]);
                    self.emit(
                        "tosa.depthwise_conv2d",
                        &[&x, &w, &bias, &zp, &zp],
                        &props,
                        &out_nhwc,
                        &elem,
                    )
                } else {
                    return Err(format!(
                        "a grouped convolution (group {group}) has no TOSA form"
                    ));
                }
            }
            "graph.global_avg_pool" => {
                let s = self.reduce("tosa.reduce_sum", &x, &[1, 2]);
                let k = self.scalar(1.0 / (x.shape[1] * x.shape[2]) as f64, &e, 4);
                self.binary("tosa.mul", &s, &k, &out_nhwc, &elem)
            }
            _ => {
                if self.flag(op, "ceil_mode") {
                    return Err("a pool with ceil_mode has no TOSA form in the exporter".into());
                }
                if self
                    .ints(op, "dilations")
                    .is_some_and(|d| d.iter().any(|&v| v != 1))
                {
                    return Err("a dilated pool has no TOSA form".into());
                }
                let kernel = format!("kernel = array<i64: {}, {}>", kernel[0], kernel[1]);
                if name == "graph.max_pool2d" {
                    let props = format!("{kernel}, {pad}, {stride}");
                    self.emit("tosa.max_pool2d", &[&x], &props, &out_nhwc, &elem)
                } else {
                    if self.flag(op, "count_include_pad") && pads.iter().any(|&p| p != 0) {
                        return Err("an average counting its padding has no TOSA form".into());
                    }
                    let zp = self.zero_point(&e);
                    let props = format!("acc_type = {e}, {kernel}, {pad}, {stride}");
                    self.emit("tosa.avg_pool2d", &[&x, &zp, &zp], &props, &out_nhwc, &elem)
                }
            }
        };
        Ok(if nchw {
            self.transpose(&r, &[0, 3, 1, 2])
        } else {
            r
        })
    }
}
