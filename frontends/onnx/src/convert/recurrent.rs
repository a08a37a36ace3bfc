//! `RNN`, `GRU` and `LSTM`, unrolled over a static sequence length into
//! graph ops (matrix products, gate slices, activations, `where` for
//! `sequence_lens`), or over a dynamic one a `graph.scan` whose body is
//! one step, as the ONNX definitions compute them: every
//! direction, the activations with their `activation_alpha`/`_beta`,
//! `clip`, `sequence_lens`, initial states, LSTM's peepholes and
//! `input_forget`, GRU's `linear_before_reset`, both layouts.
//!
//! The input's projection `X Wᵀ` is one product for all steps; each step
//! adds `H Rᵀ` and the biases, slices the gates (RNN 1, GRU `z r h`, LSTM
//! `i o f c`) and updates the state. A step past a batch row's sequence
//! length keeps that row's state and outputs zeros; the reverse direction
//! walks from the last step, so each row starts at its own last element.

use strata_dialects::graph::shape::{tensor_type, Dim, Shape};
use strata_ir::{AttrKind, Location, Type, Value};

use super::attrs::Attrs;
use super::build::scalar_attr;
use super::{ConvertError, Importer, Res};
use crate::proto::NodeProto;

/// The recurrent ops.
pub(super) const OPS: &[(&str, super::Convert)] =
    &[("RNN", recurrent), ("GRU", recurrent), ("LSTM", recurrent)];

fn recurrent(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    im.convert_recurrent(node, a, loc)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Rnn,
    Gru,
    Lstm,
}

/// One direction's weights: `Wᵀ` `[I, G*H]`, `Rᵀ` `[H, G*H]`, the input and
/// recurrent biases `[G*H]`, the peepholes `[3*H]` (LSTM).
struct Weights {
    rt: Value,
    wb: Option<Value>,
    rb: Option<Value>,
    p: Option<Value>,
}

/// What one step of a cell computes with: its kind, one direction's
/// weights and activations, and the node's attributes.
struct Cell<'a> {
    kind: Kind,
    weights: &'a Weights,
    act: &'a [Act],
    clip: Option<f64>,
    lbr: bool,
    input_forget: bool,
    hidden: i64,
}

/// An activation with its parameters.
#[derive(Clone)]
struct Act {
    name: String,
    alpha: Option<f64>,
    beta: Option<f64>,
}

impl Importer<'_> {
    pub(super) fn convert_recurrent(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let kind = match node.op_type() {
            "RNN" => Kind::Rnn,
            "GRU" => Kind::Gru,
            _ => Kind::Lstm,
        };
        let gates = match kind {
            Kind::Rnn => 1,
            Kind::Gru => 3,
            Kind::Lstm => 4,
        };
        let layout = a.int("layout").unwrap_or(0);
        if !matches!(layout, 0 | 1) {
            return Err(format!("layout {layout}: expected 0 or 1").into());
        }
        let mut x = self.req(node, 0)?;
        if layout == 1 {
            x = self.permute(x, &[1, 0, 2], loc)?;
        }
        let statics = |d: Option<Vec<Dim>>| d?.iter().map(Dim::known).collect::<Option<Vec<i64>>>();
        let xs = self
            .dims_of(x)
            .filter(|d| d.len() == 3)
            .ok_or("needs a 3-D input")?;
        // A static sequence is unrolled; a dynamic one is a graph.scan.
        let (steps, batch) = (xs[0].known(), xs[1].known());
        let w = self.req(node, 1)?;
        let ws = statics(self.dims_of(w))
            .filter(|d| d.len() == 3)
            .ok_or("needs a 3-D W of static sizes")?;
        let hidden = a.int("hidden_size").unwrap_or(ws[1] / gates);
        if ws[1] != gates * hidden {
            return Err(format!(
                "W has {} rows, expected {gates} * hidden_size {hidden}",
                ws[1]
            )
            .into());
        }
        let direction = a.string("direction").unwrap_or_else(|| "forward".into());
        let reverse: Vec<bool> = match direction.as_str() {
            "forward" => vec![false],
            "reverse" => vec![true],
            "bidirectional" => vec![false, true],
            other => {
                return Err(format!(
                    "direction '{other}': expected forward, reverse or bidirectional"
                )
                .into())
            }
        };
        let acts = activations(kind, a, reverse.len())?;
        let clip = a.float("clip").map(f64::from);
        let lbr = a.int("linear_before_reset").unwrap_or(0) != 0;
        let input_forget = a.int("input_forget").unwrap_or(0) != 0;
        // The sequence lengths as i64, compared with each step's index.
        let lens = match self.input(node, 4)? {
            Some(l) => {
                let i64t = self.ctx.integer_type(64);
                Some(self.cast_to(l, i64t, loc)?)
            }
            None => None,
        };
        let state = |im: &mut Self, i: usize| -> Res<Option<Value>> {
            match im.input(node, i)? {
                Some(s) if layout == 1 => Ok(Some(im.permute(s, &[1, 0, 2], loc)?)),
                s => Ok(s),
            }
        };
        let (h0, c0) = (state(self, 5)?, state(self, 6)?);
        let r = self.req(node, 2)?;
        let (b, p) = (self.input(node, 3)?, self.input(node, 7)?);
        let mut ys = Vec::new();
        let mut hs = Vec::new();
        let mut cs = Vec::new();
        for (d, &rev) in reverse.iter().enumerate() {
            let d = d as i64;
            let gh = gates * hidden;
            let wt = self.direction_matrix(w, d, &[gh, ws[2]], loc)?;
            let rt = self.direction_matrix(r, d, &[gh, hidden], loc)?;
            let (wb, rb) = match b {
                Some(b) => {
                    let bd = self.pick(b, 0, d, loc)?;
                    (
                        Some(self.take(bd, 0, 0, gh, loc)?),
                        Some(self.take(bd, 0, gh, 2 * gh, loc)?),
                    )
                }
                None => (None, None),
            };
            let p = match p {
                Some(p) if kind == Kind::Lstm => Some(self.pick(p, 0, d, loc)?),
                _ => None,
            };
            let weights = Weights { rt, wb, rb, p };
            // X Wᵀ for every step at once: [T, B, G*H].
            let xw = self.bin("graph.matmul", x, wt, loc)?;
            let zeros = match batch {
                Some(batch) => self.zeros(x, &[batch, hidden], loc)?,
                None => self.zeros_like_batch(x, hidden, loc)?,
            };
            let mut h = match h0 {
                Some(s) => self.pick(s, 0, d, loc)?,
                None => zeros,
            };
            let mut c = match c0 {
                Some(s) => self.pick(s, 0, d, loc)?,
                None => zeros,
            };
            let cell = Cell {
                kind,
                weights: &weights,
                act: &acts[d as usize],
                clip,
                lbr,
                input_forget,
                hidden,
            };
            let Some(steps) = steps else {
                let (y, h, c) = self.scan_direction(&cell, xw, h, c, lens, rev, loc)?;
                ys.push(self.unsqueeze(y, &[1], loc)?);
                hs.push(self.unsqueeze(h, &[0], loc)?);
                cs.push(self.unsqueeze(c, &[0], loc)?);
                continue;
            };
            let mut outputs: Vec<Option<Value>> = vec![None; steps as usize];
            let order: Vec<i64> = if rev {
                (0..steps).rev().collect()
            } else {
                (0..steps).collect()
            };
            for t in order {
                let xt = self.pick(xw, 0, t, loc)?;
                let (hn, cn) = self.step(&cell, xt, h, c, loc)?;
                let (hn, cn, y) = match lens {
                    Some(l) => {
                        let tc = self.const_i64_scalar(t, loc)?;
                        self.within_length(tc, l, (hn, cn), (h, c), loc)?
                    }
                    None => (hn, cn, hn),
                };
                h = hn;
                c = cn;
                outputs[t as usize] = Some(self.unsqueeze(y, &[0, 1], loc)?);
            }
            let outputs: Vec<Value> = outputs.into_iter().flatten().collect();
            ys.push(self.concat(outputs, 0, loc)?);
            hs.push(self.unsqueeze(h, &[0], loc)?);
            cs.push(self.unsqueeze(c, &[0], loc)?);
        }
        let mut y = self.concat(ys, 1, loc)?;
        let mut yh = self.concat(hs, 0, loc)?;
        let mut yc = self.concat(cs, 0, loc)?;
        if layout == 1 {
            y = self.permute(y, &[2, 0, 1, 3], loc)?;
            yh = self.permute(yh, &[1, 0, 2], loc)?;
            yc = self.permute(yc, &[1, 0, 2], loc)?;
        }
        Ok(if kind == Kind::Lstm {
            vec![y, yh, yc]
        } else {
            vec![y, yh]
        })
    }

    /// One direction over a sequence of dynamic length: a `graph.scan` over
    /// the steps of `xw` (`[T, B, G*H]`, from the end when `reverse`) whose
    /// body is one step of the cell, carrying the hidden (and cell) state;
    /// with `lens`, the step indices are scanned too, and a step at or past
    /// a row's length keeps that row's state and outputs zeros, as the
    /// unrolled form does. Returns the outputs `[T, B, H]` (each at its own
    /// step, in either direction) and the last states.
    #[allow(clippy::too_many_arguments)]
    fn scan_direction(
        &mut self,
        cell: &Cell<'_>,
        xw: Value,
        h0: Value,
        c0: Value,
        lens: Option<Value>,
        reverse: bool,
        loc: Location,
    ) -> Res<(Value, Value, Value)> {
        let lstm = cell.kind == Kind::Lstm;
        let i64t = self.ctx.integer_type(64);
        let mut scanned = vec![xw];
        if lens.is_some() {
            let t = self.dim_scalar(xw, 0, loc)?;
            scanned.push(self.iota(t, 0, loc)?);
        }
        let mut states = vec![h0];
        if lstm {
            states.push(c0);
        }
        let (xshape, xelem) = self.shape_elem(xw)?;
        let mut slice = xshape.dims().ok_or("needs a 3-D input")?.to_vec();
        let length = slice.remove(0);
        let mut arg_types: Vec<Type> = states.iter().map(|&v| self.ctx.value_type(v)).collect();
        arg_types.push(tensor_type(self.ctx, &Shape::ranked(slice), xelem));
        if lens.is_some() {
            arg_types.push(self.ctx.tensor_type(vec![], i64t));
        }
        // The body, built in a block of its own.
        let saved = self.block;
        let region = self.ctx.create_region();
        let block = self.ctx.create_block();
        self.ctx.append_block(region, block);
        self.block = Some(block);
        let args: Vec<Value> = arg_types
            .iter()
            .map(|&ty| self.ctx.add_block_argument(block, ty, loc))
            .collect();
        let body = (|| -> Res<Vec<Value>> {
            let (h, c) = (args[0], if lstm { args[1] } else { args[0] });
            let xt = args[states.len()];
            let (hn, cn) = self.step(cell, xt, h, c, loc)?;
            let (hn, cn, y) = match lens {
                Some(l) => self.within_length(args[states.len() + 1], l, (hn, cn), (h, c), loc)?,
                None => (hn, cn, hn),
            };
            let mut yielded = vec![hn];
            if lstm {
                yielded.push(cn);
            }
            yielded.push(y);
            Ok(yielded)
        })();
        self.block = saved;
        let yielded = body?;
        let yield_op = self.create("graph.yield", yielded.clone(), vec![], vec![], loc);
        self.ctx.append_op(block, yield_op);
        let mut result_types: Vec<Type> = states.iter().map(|&v| self.ctx.value_type(v)).collect();
        let (yshape, yelem) = self.shape_elem(yielded[yielded.len() - 1])?;
        let stacked = match yshape.dims() {
            Some(d) => {
                let mut d = d.to_vec();
                d.insert(0, length);
                Shape::ranked(d)
            }
            None => Shape::unranked(),
        };
        result_types.push(tensor_type(self.ctx, &stacked, yelem));
        let dir = i64::from(reverse);
        let mut props = vec![("num_scan_inputs", self.i64_attr(scanned.len() as i64))];
        if reverse {
            let dirs = vec![dir; scanned.len()];
            props.push(("scan_input_directions", self.i64_array(&dirs)));
            props.push(("scan_output_directions", self.i64_array(&[dir])));
        }
        let mut operands = states;
        operands.extend(scanned);
        let results = self.region_op(
            "graph.scan",
            operands,
            result_types,
            props,
            vec![region],
            loc,
        );
        let (h, c) = (results[0], if lstm { results[1] } else { results[0] });
        Ok((results[results.len() - 1], h, c))
    }

    /// The states and output of step `t` (a 0-D `i64`) under the `i64`
    /// sequence lengths `lens`: a row past its length keeps its `old`
    /// states and outputs zeros; the others take the `new` ones.
    fn within_length(
        &mut self,
        t: Value,
        lens: Value,
        new: (Value, Value),
        old: (Value, Value),
        loc: Location,
    ) -> Res<(Value, Value, Value)> {
        let ((hn, cn), (h, c)) = (new, old);
        let live = self.bin("graph.less", t, lens, loc)?;
        let live = self.unsqueeze(live, &[1], loc)?;
        let zero = self.scalar_like(hn, 0.0, loc)?;
        let y = self.op1("graph.where", vec![live, hn, zero], vec![], loc)?;
        let hk = self.op1("graph.where", vec![live, hn, h], vec![], loc)?;
        let ck = self.op1("graph.where", vec![live, cn, c], vec![], loc)?;
        Ok((hk, ck, y))
    }

    /// Zeros `[B, hidden]` in `x`'s element type, `B` the dynamic batch of
    /// `x` (`[T, B, I]`).
    fn zeros_like_batch(&mut self, x: Value, hidden: i64, loc: Location) -> Res<Value> {
        let props = vec![("start", self.i64_attr(1)), ("end", self.i64_attr(2))];
        let b = self.op1("graph.shape_of", vec![x], props, loc)?;
        let h = self.const_i64(&[hidden], loc)?;
        let shape = self.concat(vec![b, h], 0, loc)?;
        let elem = self.elem(x).ok_or("operand is not a tensor")?;
        let ty = self.ctx.tensor_type(vec![1], elem);
        let zero = scalar_attr(self.ctx, ty, 0.0).ok_or("has an unsupported element type")?;
        self.op1(
            "graph.constant_of_shape",
            vec![shape],
            vec![("value", zero)],
            loc,
        )
    }

    /// One step of the cell: the new hidden state and (LSTM) cell state.
    fn step(
        &mut self,
        cell: &Cell<'_>,
        xw: Value,
        h: Value,
        c: Value,
        loc: Location,
    ) -> Res<(Value, Value)> {
        let &Cell {
            kind,
            weights: w,
            act,
            clip,
            lbr,
            input_forget,
            hidden,
        } = cell;
        let hr = self.bin("graph.matmul", h, w.rt, loc)?;
        // Gate k's part of a [B, G*H] value, of a bias [G*H].
        let gate = |im: &mut Self, v: Value, k: i64, axis: i64| {
            im.take(v, axis, k * hidden, (k + 1) * hidden, loc)
        };
        let pre = |im: &mut Self, k: i64, with_r: bool| -> Res<Value> {
            let mut v = gate(im, xw, k, 1)?;
            if with_r {
                let r = gate(im, hr, k, 1)?;
                v = im.bin("graph.add", v, r, loc)?;
            }
            for bias in [w.wb, if with_r { w.rb } else { None }]
                .into_iter()
                .flatten()
            {
                let bk = gate(im, bias, k, 0)?;
                v = im.bin("graph.add", v, bk, loc)?;
            }
            Ok(v)
        };
        let clipped = |im: &mut Self, v: Value| -> Res<Value> {
            match clip {
                Some(t) => {
                    let lo = im.scalar_like(v, -t, loc)?;
                    let hi = im.scalar_like(v, t, loc)?;
                    let seg = im.segments(&[1, 1, 1]);
                    im.op1(
                        "graph.clip",
                        vec![v, lo, hi],
                        vec![("operandSegmentSizes", seg)],
                        loc,
                    )
                }
                None => Ok(v),
            }
        };
        match kind {
            Kind::Rnn => {
                let v = pre(self, 0, true)?;
                let v = clipped(self, v)?;
                Ok((self.activate(&act[0], v, loc)?, c))
            }
            Kind::Gru => {
                let z = pre(self, 0, true)?;
                let z = clipped(self, z)?;
                let z = self.activate(&act[0], z, loc)?;
                let r = pre(self, 1, true)?;
                let r = clipped(self, r)?;
                let r = self.activate(&act[0], r, loc)?;
                let mut n = pre(self, 2, false)?;
                let rh = if lbr {
                    let mut v = gate(self, hr, 2, 1)?;
                    if let Some(rb) = w.rb {
                        let b = gate(self, rb, 2, 0)?;
                        v = self.bin("graph.add", v, b, loc)?;
                    }
                    self.bin("graph.mul", r, v, loc)?
                } else {
                    let rh = self.bin("graph.mul", r, h, loc)?;
                    let rt = self.take(w.rt, 1, 2 * hidden, 3 * hidden, loc)?;
                    let mut v = self.bin("graph.matmul", rh, rt, loc)?;
                    if let Some(rb) = w.rb {
                        let b = gate(self, rb, 2, 0)?;
                        v = self.bin("graph.add", v, b, loc)?;
                    }
                    v
                };
                n = self.bin("graph.add", n, rh, loc)?;
                let n = clipped(self, n)?;
                let n = self.activate(&act[1], n, loc)?;
                // (1 - z) * n + z * h = n + z * (h - n).
                let diff = self.bin("graph.sub", h, n, loc)?;
                let zd = self.bin("graph.mul", z, diff, loc)?;
                Ok((self.bin("graph.add", n, zd, loc)?, c))
            }
            Kind::Lstm => {
                let peep = |im: &mut Self, v: Value, k: i64, state: Value| -> Res<Value> {
                    match w.p {
                        Some(p) => {
                            let pk = gate(im, p, k, 0)?;
                            let pc = im.bin("graph.mul", pk, state, loc)?;
                            im.bin("graph.add", v, pc, loc)
                        }
                        None => Ok(v),
                    }
                };
                // W's gate order is i, o, f, c; P's is i, o, f.
                let i = pre(self, 0, true)?;
                let i = peep(self, i, 0, c)?;
                let i = clipped(self, i)?;
                let i = self.activate(&act[0], i, loc)?;
                let f = if input_forget {
                    let one = self.scalar_like(i, 1.0, loc)?;
                    self.bin("graph.sub", one, i, loc)?
                } else {
                    let f = pre(self, 2, true)?;
                    let f = peep(self, f, 2, c)?;
                    let f = clipped(self, f)?;
                    self.activate(&act[0], f, loc)?
                };
                let g = pre(self, 3, true)?;
                let g = clipped(self, g)?;
                let g = self.activate(&act[1], g, loc)?;
                let fc = self.bin("graph.mul", f, c, loc)?;
                let ig = self.bin("graph.mul", i, g, loc)?;
                let cn = self.bin("graph.add", fc, ig, loc)?;
                let o = pre(self, 1, true)?;
                let o = peep(self, o, 1, cn)?;
                let o = clipped(self, o)?;
                let o = self.activate(&act[0], o, loc)?;
                let hc = self.activate(&act[2], cn, loc)?;
                Ok((self.bin("graph.mul", o, hc, loc)?, cn))
            }
        }
    }

    /// An activation function of the recurrent ops, by its ONNX name.
    fn activate(&mut self, act: &Act, x: Value, loc: Location) -> Res<Value> {
        let alpha = |d: f64| act.alpha.unwrap_or(d);
        let beta = |d: f64| act.beta.unwrap_or(d);
        let scale = |im: &mut Self, v: Value, s: f64| -> Res<Value> {
            let s = im.scalar_like(v, s, loc)?;
            im.bin("graph.mul", v, s, loc)
        };
        match act.name.to_ascii_lowercase().as_str() {
            "sigmoid" => self.un("graph.sigmoid", x, loc),
            "tanh" => self.un("graph.tanh", x, loc),
            "relu" => self.un("graph.relu", x, loc),
            "softplus" => self.un("graph.softplus", x, loc),
            "softsign" => {
                let ax = self.un("graph.abs", x, loc)?;
                let one = self.scalar_like(x, 1.0, loc)?;
                let den = self.bin("graph.add", ax, one, loc)?;
                self.bin("graph.div", x, den, loc)
            }
            "leakyrelu" | "elu" => {
                let (name, d) = if act.name.eq_ignore_ascii_case("elu") {
                    ("graph.elu", 1.0)
                } else {
                    ("graph.leaky_relu", 0.01)
                };
                let a = self.f64_attr(alpha(d));
                self.op1(name, vec![x], vec![("alpha", a)], loc)
            }
            "hardsigmoid" => {
                let (a, b) = (self.f64_attr(alpha(0.2)), self.f64_attr(beta(0.5)));
                self.op1(
                    "graph.hard_sigmoid",
                    vec![x],
                    vec![("alpha", a), ("beta", b)],
                    loc,
                )
            }
            "affine" => {
                let ax = scale(self, x, alpha(1.0))?;
                let b = self.scalar_like(x, beta(0.0), loc)?;
                self.bin("graph.add", ax, b, loc)
            }
            "scaledtanh" => {
                let bx = scale(self, x, beta(1.0))?;
                let t = self.un("graph.tanh", bx, loc)?;
                scale(self, t, alpha(1.0))
            }
            "thresholdedrelu" => {
                let th = self.scalar_like(x, alpha(1.0), loc)?;
                let above = self.bin("graph.greater", x, th, loc)?;
                let zero = self.scalar_like(x, 0.0, loc)?;
                self.op1("graph.where", vec![above, x, zero], vec![], loc)
            }
            other => Err(ConvertError::unsupported(format!(
                "activation '{other}' is not supported"
            ))),
        }
    }

    /// Direction `d` of a `[D, rows, cols]` weight, transposed: `[cols, rows]`.
    fn direction_matrix(&mut self, w: Value, d: i64, dims: &[i64], loc: Location) -> Res<Value> {
        let wd = self.pick(w, 0, d, loc)?;
        let shape = self.const_i64(dims, loc)?;
        let wd = self.reshape(wd, shape, loc)?;
        self.permute(wd, &[1, 0], loc)
    }

    /// Element `i` of `x` along `axis`, the axis removed.
    fn pick(&mut self, x: Value, axis: i64, i: i64, loc: Location) -> Res<Value> {
        let s = self.take(x, axis, i, i + 1, loc)?;
        let axes = self.const_i64(&[axis], loc)?;
        self.op1("graph.squeeze", vec![s, axes], vec![], loc)
    }

    /// `x[start:end]` along `axis`.
    fn take(&mut self, x: Value, axis: i64, start: i64, end: i64, loc: Location) -> Res<Value> {
        let ops = vec![
            x,
            self.const_i64(&[start], loc)?,
            self.const_i64(&[end], loc)?,
            self.const_i64(&[axis], loc)?,
        ];
        let seg = self.segments(&[1, 1, 1, 1, 0]);
        self.op1("graph.slice", ops, vec![("operandSegmentSizes", seg)], loc)
    }

    fn permute(&mut self, x: Value, perm: &[i64], loc: Location) -> Res<Value> {
        let perm = self.i64_array(perm);
        self.op1("graph.transpose", vec![x], vec![("perm", perm)], loc)
    }

    fn concat(&mut self, parts: Vec<Value>, axis: i64, loc: Location) -> Res<Value> {
        if parts.len() == 1 {
            return Ok(parts[0]);
        }
        let axis = self.i64_attr(axis);
        self.op1("graph.concat", parts, vec![("axis", axis)], loc)
    }

    /// Zeros of `shape` in `like`'s element type.
    fn zeros(&mut self, like: Value, shape: &[i64], loc: Location) -> Res<Value> {
        let elem = self.elem(like).ok_or("operand is not a tensor")?;
        let scalar = self.ctx.tensor_type(vec![], elem);
        let one = scalar_attr(self.ctx, scalar, 0.0).ok_or("has an unsupported element type")?;
        let raw = match self.ctx.attr_kind(one) {
            AttrKind::DenseElements { data, .. } => data.raw.to_vec(),
            _ => return Err("has an unsupported element type".into()),
        };
        let n: i64 = shape.iter().product();
        let ty = self.ctx.tensor_type(shape.to_vec(), elem);
        let attr = self
            .ctx
            .dense_elements_attr(ty, raw.repeat(n.max(0) as usize))
            .ok_or("cannot make zeros")?;
        self.constant(attr, loc)
    }
}

/// The activations of each direction: the node's `activations` (with
/// `activation_alpha` and `activation_beta` consumed in order by those that
/// take them), or the op's defaults.
fn activations(kind: Kind, a: &Attrs, directions: usize) -> Res<Vec<Vec<Act>>> {
    let per = match kind {
        Kind::Rnn => 1,
        Kind::Gru => 2,
        Kind::Lstm => 3,
    };
    let names: Vec<String> = match a.strings("activations") {
        Some(n) if !n.is_empty() => n,
        _ => {
            let d: &[&str] = match kind {
                Kind::Rnn => &["Tanh"],
                Kind::Gru => &["Sigmoid", "Tanh"],
                Kind::Lstm => &["Sigmoid", "Tanh", "Tanh"],
            };
            d.iter()
                .cycle()
                .take(per * directions)
                .map(|s| s.to_string())
                .collect()
        }
    };
    // RNN's schema default spells two activations even for one direction.
    let names = if kind == Kind::Rnn && directions == 1 && names.len() == 2 && names[0] == names[1]
    {
        names[..1].to_vec()
    } else {
        names
    };
    if names.len() != per * directions {
        return Err(format!(
            "has {} activations, expected {}",
            names.len(),
            per * directions
        )
        .into());
    }
    let alphas = a.floats("activation_alpha").unwrap_or_default();
    let betas = a.floats("activation_beta").unwrap_or_default();
    let (mut ai, mut bi) = (0, 0);
    let mut acts = Vec::new();
    for name in names {
        let lower = name.to_ascii_lowercase();
        let takes_alpha = matches!(
            lower.as_str(),
            "leakyrelu" | "thresholdedrelu" | "scaledtanh" | "hardsigmoid" | "elu" | "affine"
        );
        let takes_beta = matches!(lower.as_str(), "scaledtanh" | "hardsigmoid" | "affine");
        let alpha = if takes_alpha {
            alphas.get(ai).map(|&v| f64::from(v))
        } else {
            None
        };
        let beta = if takes_beta {
            betas.get(bi).map(|&v| f64::from(v))
        } else {
            None
        };
        ai += usize::from(takes_alpha);
        bi += usize::from(takes_beta);
        acts.push(Act { name, alpha, beta });
    }
    Ok(acts.chunks(per).map(<[Act]>::to_vec).collect())
}
