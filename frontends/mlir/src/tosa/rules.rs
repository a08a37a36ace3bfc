//! The conversion rules: each TOSA op's `graph` ops.

use strata_ir::Value;

use super::table::{ONE_TO_ONE, REDUCTIONS, SHAPE_OPS};
use super::text::{is_bool, is_float, numbers, static_shape};
use super::{Importer, Node, Res, Slot};

impl Importer<'_> {
    /// Convert one op; its results in order.
    pub(super) fn convert(&mut self, node: &Node) -> Res<Vec<Slot>> {
        let loc = node.loc;
        let name = node.name.as_str();
        if let Some(&(_, to)) = ONE_TO_ONE.iter().find(|(t, _)| *t == name) {
            let operands = (0..node.operands.len())
                .map(|i| self.operand(node, i))
                .collect::<Res<Vec<Value>>>()?;
            return Ok(vec![Slot::Tensor(self.build(to, operands, vec![], loc)?)]);
        }
        if let Some(&(_, to)) = REDUCTIONS.iter().find(|(t, _)| *t == name) {
            let x = self.operand(node, 0)?;
            let axes = self.const_i64(&[self.int(node, "axis")?], loc)?;
            let keep = self.ctx.bool_attr(true);
            let r = self.build(to, vec![x, axes], vec![("keepdims", keep)], loc)?;
            return Ok(vec![Slot::Tensor(r)]);
        }
        if SHAPE_OPS.contains(&name) {
            let shapes = (0..node.operands.len())
                .map(|i| self.shape(node, i))
                .collect::<Res<Vec<Vec<i64>>>>()?;
            return Ok(vec![Slot::Shape(shape_arithmetic(name, &shapes)?)]);
        }
        let out = match name {
            "tosa.const" | "arith.constant" | "tosa.const_shape" | "tensor.cast" | "tosa.dim"
            | "tosa.slice_shape" => self.values(node)?,
            "tosa.mul" | "tosa.negate" | "tosa.clamp" | "tosa.cast" | "tosa.matmul" => {
                self.arithmetic(node)?
            }
            "tosa.argmax" | "tosa.reduce_all" | "tosa.reduce_any" => self.reductions(node)?,
            "tosa.transpose" | "tosa.reshape" | "tosa.concat" | "tosa.slice" | "tosa.tile"
            | "tosa.pad" | "tosa.reverse" | "tosa.gather" => self.data_movement(node)?,
            "tosa.conv2d" | "tosa.depthwise_conv2d" => self.convolution(node)?,
            "tosa.conv3d" => self.convolution_3d(node)?,
            "tosa.scatter" => self.scatter(node)?,
            "tosa.logical_left_shift"
            | "tosa.logical_right_shift"
            | "tosa.arithmetic_right_shift" => self.shift(node)?,
            "tosa.transpose_conv2d" => self.transposed_convolution(node)?,
            "tosa.avg_pool2d" | "tosa.max_pool2d" => self.pool(node)?,
            "tosa.resize" => self.resize(node)?,
            "tosa.fft2d" | "tosa.rfft2d" => return self.fft(node),
            _ => return Err(format!("'{name}' has no counterpart in the graph dialect")),
        };
        Ok(vec![out])
    }

    /// Constants and the values that pass through: `tosa.const`, `arith.constant`, shapes, `tensor.cast`, `tosa.dim`.
    fn values(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let name = node.name.as_str();
        Ok(match name {
            "tosa.const" | "arith.constant" => {
                let key = if name == "tosa.const" {
                    "values"
                } else {
                    "value"
                };
                if let Some((ty, bytes, splat)) = &node.raw {
                    let attr = if *splat {
                        self.ctx.dense_splat_attr(*ty, bytes.clone())
                    } else {
                        self.ctx.dense_elements_attr(*ty, bytes.clone())
                    };
                    let attr = attr.ok_or("a constant whose bytes do not fit its type")?;
                    return Ok(Slot::Tensor(self.constant(attr, loc)?));
                }
                let text = self.attr(node, key)?.to_string();
                let attr = self.parse_attr(&text)?;
                let v = self.constant(attr, loc)?;
                if let Some(values) = numbers(&text).filter(|v| v.len() <= 64) {
                    self.known.insert(v, values);
                }
                Slot::Tensor(v)
            }
            "tosa.const_shape" => Slot::Shape(self.ints(node, "values")?),
            "tensor.cast" => {
                let x = self.operand(node, 0)?;
                Slot::Tensor(self.build("graph.identity", vec![x], vec![], loc)?)
            }
            "tosa.dim" => {
                let x = self.operand(node, 0)?;
                let shape = static_shape(self.ctx, self.ctx.value_type(x))
                    .ok_or("the dim of a tensor of unknown shape")?;
                let axis = self.int(node, "axis")?;
                let d = usize::try_from(axis)
                    .ok()
                    .and_then(|a| shape.get(a))
                    .ok_or_else(|| format!("axis {axis} of a rank-{} tensor", shape.len()))?;
                Slot::Shape(vec![*d])
            }
            "tosa.slice_shape" => {
                let shape = self.shape(node, 0)?;
                let [start, size] = [1, 2].map(|i| {
                    let v = self.operand(node, i).ok()?;
                    match self.known.get(&v)?.as_slice() {
                        [x] => Some(*x as i64),
                        _ => None,
                    }
                });
                let (Some(start), Some(size)) = (start, size) else {
                    return Err("a start or size that is not one constant integer".into());
                };
                let part = usize::try_from(start)
                    .ok()
                    .zip(usize::try_from(size).ok())
                    .and_then(|(s, n)| shape.get(s..s.checked_add(n)?));
                let part = part.ok_or_else(|| {
                    format!(
                        "a slice [{start}, +{size}) of a shape of {} dims",
                        shape.len()
                    )
                })?;
                Slot::Shape(part.to_vec())
            }
            _ => return Err(format!("'{name}' is not values")),
        })
    }

    /// The arithmetic that is more than one `graph` op or checks its operands: `mul` (its shift), `negate` and `matmul` (their zero points), `clamp`, `cast`.
    fn arithmetic(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let name = node.name.as_str();
        Ok(match name {
            "tosa.mul" => {
                let (a, b) = (self.operand(node, 0)?, self.operand(node, 1)?);
                if node.operands.len() > 2 {
                    self.require_zero(node, 2, "shift")?;
                }
                Slot::Tensor(self.build("graph.mul", vec![a, b], vec![], loc)?)
            }
            "tosa.negate" => {
                let x = self.operand(node, 0)?;
                for i in 1..node.operands.len() {
                    self.require_zero(node, i, "zero point")?;
                }
                Slot::Tensor(self.build("graph.neg", vec![x], vec![], loc)?)
            }
            "tosa.clamp" => {
                let x = self.operand(node, 0)?;
                let min = self.attr(node, "min_val")?.to_string();
                let max = self.attr(node, "max_val")?.to_string();
                let lo = self.scalar_like(&min, x, loc)?;
                let hi = self.scalar_like(&max, x, loc)?;
                let segments = self.segments(&[1, 1, 1]);
                let props = vec![("operandSegmentSizes", segments)];
                Slot::Tensor(self.build("graph.clip", vec![x, lo, hi], props, loc)?)
            }
            "tosa.cast" => {
                let x = self.operand(node, 0)?;
                let to = self.ctx.type_kind(self.declared(node)?).element_type();
                let to = to.ok_or("a result that is not a tensor")?;
                let from = self.element_type(x)?;
                // TOSA rounds a float to the nearest integer (ties to even)
                // where `graph.cast` truncates, as ONNX's Cast does.
                let x = if is_float(self.ctx, from)
                    && !is_float(self.ctx, to)
                    && !is_bool(self.ctx, to)
                {
                    self.build("graph.round", vec![x], vec![], loc)?
                } else {
                    x
                };
                Slot::Tensor(self.build_typed("graph.cast", vec![x], vec![], Some(to), loc)?)
            }
            "tosa.matmul" => {
                let (a, b) = (self.operand(node, 0)?, self.operand(node, 1)?);
                for i in 2..node.operands.len() {
                    self.require_zero(node, i, "zero point")?;
                }
                Slot::Tensor(self.build("graph.matmul", vec![a, b], vec![], loc)?)
            }
            _ => return Err(format!("'{name}' is not arithmetic")),
        })
    }

    /// `argmax` and the boolean reductions.
    fn reductions(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let name = node.name.as_str();
        Ok(match name {
            "tosa.argmax" => {
                let x = self.operand(node, 0)?;
                let i64t = self.ctx.integer_type(64);
                let axis = self.ctx.integer_attr(i64t, self.int(node, "axis")?.into());
                let keep = self.ctx.bool_attr(false);
                let r = self.build(
                    "graph.argmax",
                    vec![x],
                    vec![("axis", axis), ("keepdims", keep)],
                    loc,
                )?;
                // graph's indices are i64, TOSA declares its own type.
                let to = self.ctx.type_kind(self.declared(node)?).element_type();
                let to = to.ok_or("a result that is not a tensor")?;
                Slot::Tensor(self.build_typed("graph.cast", vec![r], vec![], Some(to), loc)?)
            }
            "tosa.reduce_all" | "tosa.reduce_any" => {
                // Over booleans as i32: all is a minimum, any a maximum.
                let x = self.operand(node, 0)?;
                let i32t = self.ctx.integer_type(32);
                let i1 = self.ctx.integer_type(1);
                let wide = self.build_typed("graph.cast", vec![x], vec![], Some(i32t), loc)?;
                let axes = self.const_i64(&[self.int(node, "axis")?], loc)?;
                let keep = self.ctx.bool_attr(true);
                let op = if name == "tosa.reduce_all" {
                    "graph.reduce_min"
                } else {
                    "graph.reduce_max"
                };
                let r = self.build(op, vec![wide, axes], vec![("keepdims", keep)], loc)?;
                Slot::Tensor(self.build_typed("graph.cast", vec![r], vec![], Some(i1), loc)?)
            }
            _ => return Err(format!("'{name}' is not reductions")),
        })
    }

    /// Ops that move data: transposes, reshapes, slices, pads, gathers.
    fn data_movement(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let name = node.name.as_str();
        Ok(match name {
            "tosa.transpose" => {
                let x = self.operand(node, 0)?;
                let perms = self.ints(node, "perms")?;
                Slot::Tensor(self.transpose(x, &perms, loc)?)
            }
            "tosa.reshape" => {
                let x = self.operand(node, 0)?;
                let shape = self.shape(node, 1)?;
                Slot::Tensor(self.reshape(x, &shape, loc)?)
            }
            "tosa.concat" => {
                let inputs = (0..node.operands.len())
                    .map(|i| self.operand(node, i))
                    .collect::<Res<Vec<Value>>>()?;
                let axis = self.int(node, "axis")?;
                let i64t = self.ctx.integer_type(64);
                let axis = self.ctx.integer_attr(i64t, axis.into());
                Slot::Tensor(self.build("graph.concat", inputs, vec![("axis", axis)], loc)?)
            }
            "tosa.slice" => {
                let x = self.operand(node, 0)?;
                let start = self.shape(node, 1)?;
                let size = self.shape(node, 2)?;
                if start.len() != size.len() {
                    return Err("start and size differ in length".into());
                }
                let ends: Vec<i64> = start.iter().zip(&size).map(|(s, n)| s + n).collect();
                let axes: Vec<i64> = (0..start.len() as i64).collect();
                let starts = self.const_i64(&start, loc)?;
                let ends = self.const_i64(&ends, loc)?;
                let axes = self.const_i64(&axes, loc)?;
                let segments = self.segments(&[1, 1, 1, 1, 0]);
                let props = vec![("operandSegmentSizes", segments)];
                Slot::Tensor(self.build("graph.slice", vec![x, starts, ends, axes], props, loc)?)
            }
            "tosa.tile" => {
                let x = self.operand(node, 0)?;
                let multiples = self.shape(node, 1)?;
                // A tile that repeats only dims of size 1 is a broadcast
                // (what TOSA producers write for one): `graph.expand`.
                let dims = static_shape(self.ctx, self.ctx.value_type(x));
                let broadcast = dims.as_ref().filter(|d| {
                    d.len() == multiples.len()
                        && d.iter().zip(&multiples).all(|(&n, &m)| m == 1 || n == 1)
                });
                if let Some(dims) = broadcast {
                    let out: Vec<i64> = dims.iter().zip(&multiples).map(|(n, m)| n * m).collect();
                    let shape = self.const_i64(&out, loc)?;
                    Slot::Tensor(self.build("graph.expand", vec![x, shape], vec![], loc)?)
                } else {
                    let repeats = self.const_i64(&multiples, loc)?;
                    Slot::Tensor(self.build("graph.tile", vec![x, repeats], vec![], loc)?)
                }
            }
            "tosa.pad" => {
                let x = self.operand(node, 0)?;
                // TOSA: [before_0, after_0, before_1, ...]; graph (ONNX):
                // every axis's before, then every axis's after.
                let padding = self.shape(node, 1)?;
                let pads: Vec<i64> = padding
                    .iter()
                    .step_by(2)
                    .chain(padding.iter().skip(1).step_by(2))
                    .copied()
                    .collect();
                let pads = self.const_i64(&pads, loc)?;
                let mut operands = vec![x, pads];
                if node.operands.len() > 2 {
                    let value = self.operand(node, 2)?;
                    operands.push(self.reshape(value, &[], loc)?);
                }
                let mode = self.ctx.string_attr("constant");
                let segments = self.segments(&[1, 1, operands.len() as i32 - 2, 0]);
                let props = vec![("mode", mode), ("operandSegmentSizes", segments)];
                Slot::Tensor(self.build("graph.pad", operands, props, loc)?)
            }
            "tosa.reverse" => {
                let x = self.operand(node, 0)?;
                let axis = self.int(node, "axis")?;
                let starts = self.const_i64(&[-1], loc)?;
                let ends = self.const_i64(&[i64::MIN], loc)?;
                let axes = self.const_i64(&[axis], loc)?;
                let steps = self.const_i64(&[-1], loc)?;
                let segments = self.segments(&[1, 1, 1, 1, 1]);
                let props = vec![("operandSegmentSizes", segments)];
                let operands = vec![x, starts, ends, axes, steps];
                Slot::Tensor(self.build("graph.slice", operands, props, loc)?)
            }
            "tosa.gather" => {
                // values [N, K, C], indices [N, W] -> [N, W, C]: each row's
                // index repeated over C, gathered along K.
                let values = self.operand(node, 0)?;
                let indices = self.operand(node, 1)?;
                let out = static_shape(self.ctx, self.declared(node)?)
                    .ok_or("a gather of unknown shape")?;
                let [n, w, c] = out[..] else {
                    return Err("a gather result that is not [N, W, C]".into());
                };
                let column = self.reshape(indices, &[n, w, 1], loc)?;
                let shape = self.const_i64(&[n, w, c], loc)?;
                let wide = self.build("graph.expand", vec![column, shape], vec![], loc)?;
                let i64t = self.ctx.integer_type(64);
                let axis = self.ctx.integer_attr(i64t, 1);
                Slot::Tensor(self.build(
                    "graph.gather_elements",
                    vec![values, wide],
                    vec![("axis", axis)],
                    loc,
                )?)
            }
            _ => return Err(format!("'{name}' is not data movement")),
        })
    }

    /// `tosa.scatter`: `values_in [N, K, C]` with row `indices[n, w]` of
    /// batch `n` replaced by `input[n, w]`, as `graph.scatter_elements`
    /// along K with each index repeated over C.
    fn scatter(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let values = self.operand(node, 0)?;
        let indices = self.operand(node, 1)?;
        let input = self.operand(node, 2)?;
        let shape = static_shape(self.ctx, self.ctx.value_type(input))
            .ok_or("a scatter input of unknown shape")?;
        let [n, w, c] = shape[..] else {
            return Err("a scatter input that is not [N, W, C]".into());
        };
        let column = self.reshape(indices, &[n, w, 1], loc)?;
        let shape = self.const_i64(&[n, w, c], loc)?;
        let wide = self.build("graph.expand", vec![column, shape], vec![], loc)?;
        let i64t = self.ctx.integer_type(64);
        let axis = self.ctx.integer_attr(i64t, 1);
        let r = self.build(
            "graph.scatter_elements",
            vec![values, wide, input],
            vec![("axis", axis)],
            loc,
        )?;
        Ok(Slot::Tensor(r))
    }

    /// The shifts of signed integers, through `graph.bit_shift` of their
    /// bits as unsigned ones: left and logical right as they are; an
    /// arithmetic right shift of a negative `x` is `!((!x) >> s)`.
    fn shift(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let x = self.operand(node, 0)?;
        let amount = self.operand(node, 1)?;
        let arithmetic = node.name == "tosa.arithmetic_right_shift";
        if arithmetic && self.attr(node, "round")? == "true" {
            return Err("a rounding arithmetic shift (round = true) has no graph form".into());
        }
        let elem = self.element_type(x)?;
        let width = match self.ctx.type_kind(elem) {
            strata_ir::TypeKind::Integer { width, .. } => *width,
            _ => return Err("a shift of a non-integer".into()),
        };
        let unsigned = self.ctx.unsigned_integer_type(width);
        let direction = self
            .ctx
            .string_attr(if node.name == "tosa.logical_left_shift" {
                "left"
            } else {
                "right"
            });
        let mut e = self.emit(loc);
        let s = e.op("graph.bitcast", &[amount], &[], 1, Some(unsigned))?[0];
        let (negative, source) = if arithmetic {
            let zero = e.scalar_like(x, 0.0)?;
            let negative = e.bin("graph.less", x, zero)?;
            let inverted = e.un("graph.not", x)?;
            let source = e.op1("graph.where", &[negative, inverted, x], &[])?;
            (Some(negative), source)
        } else {
            (None, x)
        };
        let bits = e.op("graph.bitcast", &[source], &[], 1, Some(unsigned))?[0];
        let shifted = e.op1("graph.bit_shift", &[bits, s], &[("direction", direction)])?;
        let mut r = e.op("graph.bitcast", &[shifted], &[], 1, Some(elem))?[0];
        if let Some(negative) = negative {
            let inverted = e.un("graph.not", r)?;
            r = e.op1("graph.where", &[negative, inverted, r], &[])?;
        }
        Ok(Slot::Tensor(r))
    }

    /// `tosa.conv2d` (NHWC input, OHWI weight) and `tosa.depthwise_conv2d`
    /// (weight `[KH, KW, C, M]`) as `graph.conv2d` in the `nhwc` layout.
    fn convolution(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let x = self.operand(node, 0)?;
        let mut weight = self.operand(node, 1)?;
        let bias = self.operand(node, 2)?;
        for i in 3..node.operands.len() {
            self.require_zero(node, i, "zero point")?;
        }
        let pad = self.ints(node, "pad")?;
        let [top, bottom, left, right] = pad[..] else {
            return Err("'pad' is not [top, bottom, left, right]".into());
        };
        let stride = self.ints(node, "stride")?;
        let dilation = self.ints(node, "dilation")?;
        let mut group = 1;
        if node.name == "tosa.depthwise_conv2d" {
            let shape = static_shape(self.ctx, self.ctx.value_type(weight))
                .ok_or("a depthwise weight of unknown shape")?;
            let [kh, kw, c, m] = shape[..] else {
                return Err("a depthwise weight that is not [KH, KW, C, M]".into());
            };
            // [KH, KW, C, M] -> [C, M, KH, KW] -> [C * M, KH, KW, 1]: output
            // channel c * M + m, one input channel per group.
            let t = self.transpose(weight, &[2, 3, 0, 1], loc)?;
            weight = self.reshape(t, &[c * m, kh, kw, 1], loc)?;
            group = c;
        }
        let i64t = self.ctx.integer_type(64);
        let props = vec![
            ("strides", self.i64_array(&stride)),
            ("pads", self.i64_array(&[top, left, bottom, right])),
            ("dilations", self.i64_array(&dilation)),
            ("group", self.ctx.integer_attr(i64t, group.into())),
            ("layout", self.ctx.string_attr("nhwc")),
        ];
        let r = self.build("graph.conv2d", vec![x, weight, bias], props, loc)?;
        Ok(Slot::Tensor(r))
    }

    /// `tosa.transpose_conv2d` (NHWC input, weight `[OC, KH, KW, IC]`,
    /// `out_pad = [top, bottom, left, right]` added to the full output, a
    /// negative one cropping it) as the convolution it equals, which graph
    /// mode compiles: the input dilated by the stride (zeros between its
    /// rows and columns), padded by `K - 1 + out_pad` on each side, and
    /// convolved at stride 1 with the weight flipped in space.
    fn transposed_convolution(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let x = self.operand(node, 0)?;
        let weight = self.operand(node, 1)?;
        let bias = self.operand(node, 2)?;
        for i in 3..node.operands.len() {
            self.require_zero(node, i, "zero point")?;
        }
        let out_pad = self.ints(node, "out_pad")?;
        let [top, bottom, left, right] = out_pad[..] else {
            return Err("'out_pad' is not [top, bottom, left, right]".into());
        };
        let stride = self.ints(node, "stride")?;
        let [sy, sx] = stride[..] else {
            return Err("'stride' is not [y, x]".into());
        };
        let xs =
            static_shape(self.ctx, self.ctx.value_type(x)).ok_or("an input of unknown shape")?;
        let ws = static_shape(self.ctx, self.ctx.value_type(weight))
            .ok_or("a weight of unknown shape")?;
        let (&[n, h, w, c], &[_, kh, kw, _]) = (&xs[..], &ws[..]) else {
            return Err("an input or weight that is not rank 4".into());
        };
        let pads = [kh - 1 + top, kw - 1 + left, kh - 1 + bottom, kw - 1 + right];
        if pads.iter().any(|&p| p < 0) {
            return Err(
                "an out_pad that crops more than the kernel overlaps has no graph form".into(),
            );
        }
        // Zeros between rows and columns: [N, H, 1, W, 1, C] padded to
        // [N, H, sy, W, sx, C], merged, and the trailing zeros cut.
        let dilated = if sy == 1 && sx == 1 {
            x
        } else {
            let split = self.reshape(x, &[n, h, 1, w, 1, c], loc)?;
            let zeros = self.const_i64(&[0, 0, 0, 0, 0, 0, 0, 0, sy - 1, 0, sx - 1, 0], loc)?;
            let mode = self.ctx.string_attr("constant");
            let segments = self.segments(&[1, 1, 0, 0]);
            let spread = self.build(
                "graph.pad",
                vec![split, zeros],
                vec![("mode", mode), ("operandSegmentSizes", segments)],
                loc,
            )?;
            let merged = self.reshape(spread, &[n, h * sy, w * sx, c], loc)?;
            let starts = self.const_i64(&[0, 0], loc)?;
            let ends = self.const_i64(&[(h - 1) * sy + 1, (w - 1) * sx + 1], loc)?;
            let axes = self.const_i64(&[1, 2], loc)?;
            let segments = self.segments(&[1, 1, 1, 1, 0]);
            self.build(
                "graph.slice",
                vec![merged, starts, ends, axes],
                vec![("operandSegmentSizes", segments)],
                loc,
            )?
        };
        // The weight flipped along KH and KW (slices with step -1).
        let starts = self.const_i64(&[-1, -1], loc)?;
        let ends = self.const_i64(&[i64::MIN, i64::MIN], loc)?;
        let axes = self.const_i64(&[1, 2], loc)?;
        let steps = self.const_i64(&[-1, -1], loc)?;
        let segments = self.segments(&[1, 1, 1, 1, 1]);
        let flipped = self.build(
            "graph.slice",
            vec![weight, starts, ends, axes, steps],
            vec![("operandSegmentSizes", segments)],
            loc,
        )?;
        let props = vec![
            ("pads", self.i64_array(&pads)),
            ("layout", self.ctx.string_attr("nhwc")),
        ];
        let r = self.build("graph.conv2d", vec![dilated, flipped, bias], props, loc)?;
        Ok(Slot::Tensor(r))
    }

    /// `tosa.avg_pool2d` and `tosa.max_pool2d` (NHWC) in the `nhwc` layout.
    /// TOSA's average divides by the number of elements inside the input
    /// (padding not counted).
    fn pool(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let x = self.operand(node, 0)?;
        for i in 1..node.operands.len() {
            self.require_zero(node, i, "zero point")?;
        }
        let kernel = self.ints(node, "kernel")?;
        let stride = self.ints(node, "stride")?;
        let pad = self.ints(node, "pad")?;
        let [top, bottom, left, right] = pad[..] else {
            return Err("'pad' is not [top, bottom, left, right]".into());
        };
        let mut props = vec![
            ("kernel_shape", self.i64_array(&kernel)),
            ("strides", self.i64_array(&stride)),
            ("pads", self.i64_array(&[top, left, bottom, right])),
            ("layout", self.ctx.string_attr("nhwc")),
        ];
        let op = if node.name == "tosa.avg_pool2d" {
            props.push(("count_include_pad", self.ctx.bool_attr(false)));
            "graph.avg_pool2d"
        } else {
            "graph.max_pool2d"
        };
        Ok(Slot::Tensor(self.build(op, vec![x], props, loc)?))
    }
}

/// A `!tosa.shape` op on known shapes.
fn shape_arithmetic(name: &str, shapes: &[Vec<i64>]) -> Res<Vec<i64>> {
    let op = name.trim_start_matches("tosa.").trim_end_matches("_shape");
    if op == "concat" {
        return Ok(shapes.concat());
    }
    let unary = |f: fn(i64) -> Option<i64>| -> Res<Vec<i64>> {
        let [a] = shapes else {
            return Err(format!("'{name}' takes one shape"));
        };
        a.iter()
            .map(|&x| f(x).ok_or_else(|| format!("'{name}' of {x} is undefined")))
            .collect()
    };
    match op {
        "exp2" => return unary(|x| u32::try_from(x).ok().and_then(|x| 1i64.checked_shl(x))),
        "log2_ceil" => return unary(|x| (x > 0).then(|| 64 - i64::from((x - 1).leading_zeros()))),
        "log2_floor" => return unary(|x| (x > 0).then(|| 63 - i64::from(x.leading_zeros()))),
        _ => {}
    }
    let [a, b] = shapes else {
        return Err(format!("'{name}' takes two shapes"));
    };
    if a.len() != b.len() {
        return Err(format!(
            "'{name}' of shapes of {} and {} values",
            a.len(),
            b.len()
        ));
    }
    let f: fn(i64, i64) -> Option<i64> = match op {
        "add" => i64::checked_add,
        "sub" => i64::checked_sub,
        "mul" => i64::checked_mul,
        "div_floor" => |x, y| (y != 0).then(|| x.div_euclid(y)),
        "div_ceil" => |x, y| (y != 0).then(|| -((-x).div_euclid(y))),
        "mod" => |x, y| (y != 0).then(|| x.rem_euclid(y)),
        "max" => |x, y| Some(x.max(y)),
        "min" => |x, y| Some(x.min(y)),
        _ => return Err(format!("'{name}' is not a shape op")),
    };
    a.iter()
        .zip(b)
        .map(|(&x, &y)| f(x, y).ok_or_else(|| format!("'{name}' of {x} and {y} is undefined")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_arithmetic_on_known_shapes() {
        let s = |v: &[i64]| v.to_vec();
        assert_eq!(
            shape_arithmetic("tosa.add_shape", &[s(&[1, 2]), s(&[3, 4])]),
            Ok(s(&[4, 6]))
        );
        assert_eq!(
            shape_arithmetic("tosa.div_floor_shape", &[s(&[7, -7]), s(&[2, 2])]),
            Ok(s(&[3, -4]))
        );
        assert_eq!(
            shape_arithmetic("tosa.div_ceil_shape", &[s(&[7, 8]), s(&[2, 2])]),
            Ok(s(&[4, 4]))
        );
        assert_eq!(
            shape_arithmetic("tosa.log2_ceil_shape", &[s(&[1, 5, 8])]),
            Ok(s(&[0, 3, 3]))
        );
        assert_eq!(
            shape_arithmetic("tosa.log2_floor_shape", &[s(&[1, 5, 8])]),
            Ok(s(&[0, 2, 3]))
        );
        assert_eq!(
            shape_arithmetic("tosa.exp2_shape", &[s(&[0, 3])]),
            Ok(s(&[1, 8]))
        );
        assert_eq!(
            shape_arithmetic("tosa.concat_shape", &[s(&[1]), s(&[2, 3])]),
            Ok(s(&[1, 2, 3]))
        );
        assert!(shape_arithmetic("tosa.mod_shape", &[s(&[1]), s(&[0])]).is_err());
        assert!(shape_arithmetic("tosa.add_shape", &[s(&[1]), s(&[1, 2])]).is_err());
    }
}
