//! `graph-decompose-recurrent`: expand `graph.rnn`, `graph.gru` and
//! `graph.lstm` into the `graph` ops that the compiled modes lower
//! (matrix products, gate slices, activations, `graph.where` for
//! `sequence_lens`), as the ONNX definitions compute them: every
//! direction, the activations with their parameters, `clip`,
//! `sequence_lens`, initial states, LSTM's peepholes and `input_forget`,
//! GRU's `linear_before_reset`, both layouts.
//!
//! The input's projection `X Wᵀ` is one product for all steps; each step
//! adds `H Rᵀ` and the biases, slices the gates (RNN 1, GRU `z r h`, LSTM
//! `i o f c`) and updates the state. A static sequence of at most
//! `max-unroll` steps (any static one with 0) is unrolled; a longer or
//! dynamic one is a `graph.scan` whose body is one step. A step past a
//! batch row's sequence length keeps that row's state and outputs zeros;
//! the reverse direction walks from the last step, so each row starts at
//! its own last element.
//!
//! The interpreter evaluates the ops directly (eager mode keeps them); an
//! op whose weights do not have static sizes is an error here.

use strata_dialects::graph::emit::{EmitResult, Emitter, InsertPoint};
use strata_dialects::graph::recurrent::{
    operand as group, operand_value as operand, Act, Activation, CellKind, RecurrentSpec,
};
use strata_dialects::graph::shape::{shape_of, tensor_type, Dim, Shape};
use strata_ir::pass::{Pass, Statistics};
use strata_ir::{pass, Context, Diagnostic, Operation, Type, Value, WalkOrder};

#[pass(
    name = "graph-decompose-recurrent",
    required = true,
    display_name = "GraphDecomposeRecurrent",
    summary = "Expand graph.rnn, graph.gru and graph.lstm into matrix products, gate slices and activations"
)]
pub(crate) struct GraphDecomposeRecurrent {
    #[option(
        name = "max-unroll",
        default = 0,
        description = "Longest static sequence that is unrolled (0: any); longer and dynamic ones become a graph.scan"
    )]
    max_unroll: i64,
}

impl Pass for GraphDecomposeRecurrent {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let ops: Vec<Operation> = ctx
            .nested_ops(root, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&op| CellKind::of_op_name(ctx.op_name_str(op)).is_some())
            .collect();
        for &op in &ops {
            let results = decompose(ctx, op, self.max_unroll)
                .map_err(|m| Diagnostic::op_error(ctx, op, m))?;
            let old: Vec<Value> = ctx.results(op).collect();
            for (from, to) in old.into_iter().zip(results) {
                ctx.replace_all_uses_with(from, to);
            }
            ctx.erase_op(op);
        }
        stats.add(
            "num-decomposed",
            "Number of recurrent ops decomposed",
            ops.len() as u64,
        );
        Ok(())
    }
}

/// One direction's weights: `Wᵀ` `[I, G*H]`, `Rᵀ` `[H, G*H]`, the input and
/// recurrent biases `[G*H]`, the peepholes `[3*H]` (LSTM).
struct Weights {
    rt: Value,
    wb: Option<Value>,
    rb: Option<Value>,
    p: Option<Value>,
}

/// What one step of a cell computes with: the op's spec, one direction's
/// weights and activations.
struct Cell<'a> {
    spec: &'a RecurrentSpec,
    weights: Weights,
    act: &'a [Act],
}

/// The static dimensions of `v`, if it has them.
fn static_dims(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    let (shape, _) = shape_of(ctx, ctx.value_type(v))?;
    shape.dims()?.iter().map(Dim::known).collect()
}

/// The values that replace `op`'s results, built before it.
fn decompose(ctx: &mut Context, op: Operation, max_unroll: i64) -> Result<Vec<Value>, String> {
    let spec = RecurrentSpec::of(ctx, op)?;
    let x = operand(ctx, op, group::X).ok_or("requires 'x'")?;
    let w = operand(ctx, op, group::W).ok_or("requires 'w'")?;
    let r = operand(ctx, op, group::R).ok_or("requires 'r'")?;
    let ws = static_dims(ctx, w)
        .filter(|d| d.len() == 3)
        .ok_or("is decomposed only with a 3-D 'w' of static sizes")?;
    let (b, lens, h0, c0, p) = (
        operand(ctx, op, group::B),
        operand(ctx, op, group::SEQUENCE_LENS),
        operand(ctx, op, group::INITIAL_H),
        operand(ctx, op, group::INITIAL_C),
        operand(ctx, op, group::P),
    );
    let mut e = Emitter::before(ctx, op);
    let layout1 = spec.layout == 1;
    let x = if layout1 {
        e.permute(x, &[1, 0, 2])?
    } else {
        x
    };
    let xs = e
        .dims(x)
        .filter(|d| d.len() == 3)
        .ok_or("needs a 3-D input")?;
    let (steps, batch) = (xs[0].known(), xs[1].known());
    let unrolled = steps.filter(|&t| max_unroll <= 0 || t <= max_unroll);
    // The sequence lengths as i64, compared with each step's index.
    let lens = match lens {
        Some(l) => {
            let i64t = e.ctx.integer_type(64);
            Some(e.cast_to(l, i64t)?)
        }
        None => None,
    };
    let mut state = |s: Option<Value>| -> EmitResult<Option<Value>> {
        match s {
            Some(s) if layout1 => Ok(Some(e.permute(s, &[1, 0, 2])?)),
            s => Ok(s),
        }
    };
    let (h0, c0) = (state(h0)?, state(c0)?);
    let hidden = spec.hidden;
    let gh = spec.kind.gates() * hidden;
    let (mut ys, mut hs, mut cs) = (Vec::new(), Vec::new(), Vec::new());
    for (d, &rev) in spec.reverse.iter().enumerate() {
        let di = d as i64;
        let wt = direction_matrix(&mut e, w, di, &[gh, ws[2]])?;
        let rt = direction_matrix(&mut e, r, di, &[gh, hidden])?;
        let (wb, rb) = match b {
            Some(b) => {
                let bd = e.pick(b, 0, di)?;
                (
                    Some(e.take(bd, 0, 0, gh)?),
                    Some(e.take(bd, 0, gh, 2 * gh)?),
                )
            }
            None => (None, None),
        };
        let p = match p {
            Some(p) if spec.kind == CellKind::Lstm => Some(e.pick(p, 0, di)?),
            _ => None,
        };
        let cell = Cell {
            spec: &spec,
            weights: Weights { rt, wb, rb, p },
            act: &spec.acts[d],
        };
        // X Wᵀ for every step at once: [T, B, G*H].
        let xw = e.bin("graph.matmul", x, wt)?;
        let zeros = match batch {
            Some(batch) => e.zeros(x, &[batch, hidden])?,
            None => zeros_like_batch(&mut e, x, hidden)?,
        };
        let mut h = match h0 {
            Some(s) => e.pick(s, 0, di)?,
            None => zeros,
        };
        let mut c = match c0 {
            Some(s) => e.pick(s, 0, di)?,
            None => zeros,
        };
        let Some(steps) = unrolled else {
            let (y, h, c) = scan_direction(&mut e, &cell, xw, h, c, lens, rev)?;
            ys.push(e.unsqueeze(y, &[1])?);
            hs.push(e.unsqueeze(h, &[0])?);
            cs.push(e.unsqueeze(c, &[0])?);
            continue;
        };
        let mut outputs: Vec<Option<Value>> = vec![None; steps as usize];
        let order: Vec<i64> = if rev {
            (0..steps).rev().collect()
        } else {
            (0..steps).collect()
        };
        for t in order {
            let xt = e.pick(xw, 0, t)?;
            let (hn, cn) = step(&mut e, &cell, xt, h, c)?;
            let (hn, cn, y) = match lens {
                Some(l) => {
                    let tc = e.const_i64_scalar(t)?;
                    within_length(&mut e, tc, l, (hn, cn), (h, c))?
                }
                None => (hn, cn, hn),
            };
            h = hn;
            c = cn;
            outputs[t as usize] = Some(e.unsqueeze(y, &[0, 1])?);
        }
        let outputs: Vec<Value> = outputs.into_iter().flatten().collect();
        ys.push(e.concat(&outputs, 0)?);
        hs.push(e.unsqueeze(h, &[0])?);
        cs.push(e.unsqueeze(c, &[0])?);
    }
    let mut y = e.concat(&ys, 1)?;
    let mut yh = e.concat(&hs, 0)?;
    let mut yc = e.concat(&cs, 0)?;
    if layout1 {
        y = e.permute(y, &[2, 0, 1, 3])?;
        yh = e.permute(yh, &[1, 0, 2])?;
        yc = e.permute(yc, &[1, 0, 2])?;
    }
    Ok(if spec.kind == CellKind::Lstm {
        vec![y, yh, yc]
    } else {
        vec![y, yh]
    })
}

/// One direction over the steps of `xw` (`[T, B, G*H]`, from the end when
/// `reverse`) as a `graph.scan` whose body is one step of the cell,
/// carrying the hidden (and cell) state; with `lens`, the step indices
/// are scanned too, and a step at or past a row's length keeps that row's
/// state and outputs zeros, as the unrolled form does. Returns the outputs
/// `[T, B, H]` (each at its own step, in either direction) and the last
/// states.
fn scan_direction(
    e: &mut Emitter<'_>,
    cell: &Cell<'_>,
    xw: Value,
    h0: Value,
    c0: Value,
    lens: Option<Value>,
    reverse: bool,
) -> EmitResult<(Value, Value, Value)> {
    let lstm = cell.spec.kind == CellKind::Lstm;
    let i64t = e.ctx.integer_type(64);
    let mut scanned = vec![xw];
    if lens.is_some() {
        let t = e.dim_scalar(xw, 0)?;
        scanned.push(e.iota(t)?);
    }
    let mut states = vec![h0];
    if lstm {
        states.push(c0);
    }
    let xelem = e.elem(xw)?;
    let mut slice = e.dims(xw).ok_or("needs a 3-D input")?;
    let length = slice.remove(0);
    let mut arg_types: Vec<Type> = states.iter().map(|&v| e.ctx.value_type(v)).collect();
    arg_types.push(tensor_type(e.ctx, &Shape::ranked(slice), xelem));
    if lens.is_some() {
        arg_types.push(e.ctx.tensor_type(vec![], i64t));
    }
    // The body, built in a block of its own.
    let region = e.ctx.create_region();
    let block = e.ctx.create_block();
    e.ctx.append_block(region, block);
    let args: Vec<Value> = arg_types
        .iter()
        .map(|&ty| e.ctx.add_block_argument(block, ty, e.loc))
        .collect();
    let outer = std::mem::replace(&mut e.point, InsertPoint::End(block));
    let body = (|| -> EmitResult<Vec<Value>> {
        let (h, c) = (args[0], if lstm { args[1] } else { args[0] });
        let xt = args[states.len()];
        let (hn, cn) = step(e, cell, xt, h, c)?;
        let (hn, cn, y) = match lens {
            Some(l) => within_length(e, args[states.len() + 1], l, (hn, cn), (h, c))?,
            None => (hn, cn, hn),
        };
        let mut yielded = vec![hn];
        if lstm {
            yielded.push(cn);
        }
        yielded.push(y);
        e.region_op("graph.yield", yielded.clone(), vec![], &[], vec![]);
        Ok(yielded)
    })();
    e.point = outer;
    let yielded = body?;
    let mut result_types: Vec<Type> = states.iter().map(|&v| e.ctx.value_type(v)).collect();
    let y_last = yielded[yielded.len() - 1];
    let stacked = match e.dims(y_last) {
        Some(mut d) => {
            d.insert(0, length);
            Shape::ranked(d)
        }
        None => Shape::unranked(),
    };
    let yelem = e.elem(y_last)?;
    result_types.push(tensor_type(e.ctx, &stacked, yelem));
    let mut props = vec![("num_scan_inputs", e.i64_attr(scanned.len() as i64))];
    if reverse {
        let dirs = vec![1; scanned.len()];
        props.push(("scan_input_directions", e.i64_array(&dirs)));
        props.push(("scan_output_directions", e.i64_array(&[1])));
    }
    let mut operands = states;
    operands.extend(scanned);
    let results = e.region_op("graph.scan", operands, result_types, &props, vec![region]);
    let (h, c) = (results[0], if lstm { results[1] } else { results[0] });
    Ok((results[results.len() - 1], h, c))
}

/// The states and output of step `t` (a 0-D `i64`) under the `i64`
/// sequence lengths `lens`: a row past its length keeps its `old` states
/// and outputs zeros; the others take the `new` ones.
fn within_length(
    e: &mut Emitter<'_>,
    t: Value,
    lens: Value,
    new: (Value, Value),
    old: (Value, Value),
) -> EmitResult<(Value, Value, Value)> {
    let ((hn, cn), (h, c)) = (new, old);
    let live = e.bin("graph.less", t, lens)?;
    let live = e.unsqueeze(live, &[1])?;
    let zero = e.scalar_like(hn, 0.0)?;
    let y = e.op1("graph.where", &[live, hn, zero], &[])?;
    let hk = e.op1("graph.where", &[live, hn, h], &[])?;
    let ck = e.op1("graph.where", &[live, cn, c], &[])?;
    Ok((hk, ck, y))
}

/// Zeros `[B, hidden]` in `x`'s element type, `B` the dynamic batch of `x`
/// (`[T, B, I]`).
fn zeros_like_batch(e: &mut Emitter<'_>, x: Value, hidden: i64) -> EmitResult<Value> {
    let b = e.shape_of(x, 1, 2)?;
    let h = e.const_i64(&[hidden])?;
    let shape = e.concat(&[b, h], 0)?;
    let elem = e.elem(x)?;
    let ty = e.ctx.tensor_type(vec![1], elem);
    let zero = strata_dialects::graph::emit::scalar_attr(e.ctx, ty, 0.0)
        .ok_or("has an unsupported element type")?;
    e.op1("graph.constant_of_shape", &[shape], &[("value", zero)])
}

/// One step of the cell: the new hidden state and (LSTM) cell state.
fn step(
    e: &mut Emitter<'_>,
    cell: &Cell<'_>,
    xw: Value,
    h: Value,
    c: Value,
) -> EmitResult<(Value, Value)> {
    let (spec, w, act) = (cell.spec, &cell.weights, cell.act);
    let hidden = spec.hidden;
    let hr = e.bin("graph.matmul", h, w.rt)?;
    // Gate k's part of a [B, G*H] value, of a bias [G*H].
    let gate = |e: &mut Emitter<'_>, v: Value, k: i64, axis: i64| {
        e.take(v, axis, k * hidden, (k + 1) * hidden)
    };
    let pre = |e: &mut Emitter<'_>, k: i64, with_r: bool| -> EmitResult<Value> {
        let mut v = gate(e, xw, k, 1)?;
        if with_r {
            let r = gate(e, hr, k, 1)?;
            v = e.bin("graph.add", v, r)?;
        }
        for bias in [w.wb, if with_r { w.rb } else { None }]
            .into_iter()
            .flatten()
        {
            let bk = gate(e, bias, k, 0)?;
            v = e.bin("graph.add", v, bk)?;
        }
        Ok(v)
    };
    let clipped = |e: &mut Emitter<'_>, v: Value| -> EmitResult<Value> {
        match spec.clip {
            Some(t) => e.clip(v, -t, t),
            None => Ok(v),
        }
    };
    match spec.kind {
        CellKind::Rnn => {
            let v = pre(e, 0, true)?;
            let v = clipped(e, v)?;
            Ok((activate(e, &act[0], v)?, c))
        }
        CellKind::Gru => {
            let z = pre(e, 0, true)?;
            let z = clipped(e, z)?;
            let z = activate(e, &act[0], z)?;
            let r = pre(e, 1, true)?;
            let r = clipped(e, r)?;
            let r = activate(e, &act[0], r)?;
            let mut n = pre(e, 2, false)?;
            let rh = if spec.linear_before_reset {
                let mut v = gate(e, hr, 2, 1)?;
                if let Some(rb) = w.rb {
                    let b = gate(e, rb, 2, 0)?;
                    v = e.bin("graph.add", v, b)?;
                }
                e.bin("graph.mul", r, v)?
            } else {
                let rh = e.bin("graph.mul", r, h)?;
                let rt = e.take(w.rt, 1, 2 * hidden, 3 * hidden)?;
                let mut v = e.bin("graph.matmul", rh, rt)?;
                if let Some(rb) = w.rb {
                    let b = gate(e, rb, 2, 0)?;
                    v = e.bin("graph.add", v, b)?;
                }
                v
            };
            n = e.bin("graph.add", n, rh)?;
            let n = clipped(e, n)?;
            let n = activate(e, &act[1], n)?;
            // (1 - z) * n + z * h = n + z * (h - n).
            let diff = e.bin("graph.sub", h, n)?;
            let zd = e.bin("graph.mul", z, diff)?;
            Ok((e.bin("graph.add", n, zd)?, c))
        }
        CellKind::Lstm => {
            let peep = |e: &mut Emitter<'_>, v: Value, k: i64, state: Value| -> EmitResult<Value> {
                match w.p {
                    Some(p) => {
                        let pk = gate(e, p, k, 0)?;
                        let pc = e.bin("graph.mul", pk, state)?;
                        e.bin("graph.add", v, pc)
                    }
                    None => Ok(v),
                }
            };
            // W's gate order is i, o, f, c; P's is i, o, f.
            let i = pre(e, 0, true)?;
            let i = peep(e, i, 0, c)?;
            let i = clipped(e, i)?;
            let i = activate(e, &act[0], i)?;
            let f = if spec.input_forget {
                let one = e.scalar_like(i, 1.0)?;
                e.bin("graph.sub", one, i)?
            } else {
                let f = pre(e, 2, true)?;
                let f = peep(e, f, 2, c)?;
                let f = clipped(e, f)?;
                activate(e, &act[0], f)?
            };
            let g = pre(e, 3, true)?;
            let g = clipped(e, g)?;
            let g = activate(e, &act[1], g)?;
            let fc = e.bin("graph.mul", f, c)?;
            let ig = e.bin("graph.mul", i, g)?;
            let cn = e.bin("graph.add", fc, ig)?;
            let o = pre(e, 1, true)?;
            let o = peep(e, o, 1, cn)?;
            let o = clipped(e, o)?;
            let o = activate(e, &act[0], o)?;
            let hc = activate(e, &act[2], cn)?;
            Ok((e.bin("graph.mul", o, hc)?, cn))
        }
    }
}

/// An activation in `graph` ops.
fn activate(e: &mut Emitter<'_>, act: &Act, x: Value) -> EmitResult<Value> {
    let scale = |e: &mut Emitter<'_>, v: Value, s: f64| -> EmitResult<Value> {
        let s = e.scalar_like(v, s)?;
        e.bin("graph.mul", v, s)
    };
    match act.f {
        Activation::Sigmoid => e.un("graph.sigmoid", x),
        Activation::Tanh => e.un("graph.tanh", x),
        Activation::Relu => e.un("graph.relu", x),
        Activation::Softplus => e.un("graph.softplus", x),
        Activation::Softsign => {
            let ax = e.un("graph.abs", x)?;
            let one = e.scalar_like(x, 1.0)?;
            let den = e.bin("graph.add", ax, one)?;
            e.bin("graph.div", x, den)
        }
        Activation::LeakyRelu => {
            let a = e.f64_attr(act.alpha);
            e.op1("graph.leaky_relu", &[x], &[("alpha", a)])
        }
        Activation::Elu => {
            let a = e.f64_attr(act.alpha);
            e.op1("graph.elu", &[x], &[("alpha", a)])
        }
        Activation::HardSigmoid => {
            let (a, b) = (e.f64_attr(act.alpha), e.f64_attr(act.beta));
            e.op1("graph.hard_sigmoid", &[x], &[("alpha", a), ("beta", b)])
        }
        Activation::Affine => {
            let ax = scale(e, x, act.alpha)?;
            let b = e.scalar_like(x, act.beta)?;
            e.bin("graph.add", ax, b)
        }
        Activation::ScaledTanh => {
            let bx = scale(e, x, act.beta)?;
            let t = e.un("graph.tanh", bx)?;
            scale(e, t, act.alpha)
        }
        Activation::ThresholdedRelu => {
            let th = e.scalar_like(x, act.alpha)?;
            let above = e.bin("graph.greater", x, th)?;
            let zero = e.scalar_like(x, 0.0)?;
            e.op1("graph.where", &[above, x, zero], &[])
        }
    }
}

/// Direction `d` of a `[D, rows, cols]` weight, transposed: `[cols, rows]`.
fn direction_matrix(e: &mut Emitter<'_>, w: Value, d: i64, dims: &[i64]) -> EmitResult<Value> {
    let wd = e.pick(w, 0, d)?;
    let shape = e.const_i64(dims)?;
    let wd = e.reshape(wd, shape)?;
    e.permute(wd, &[1, 0])
}
