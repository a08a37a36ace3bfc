//! Convolutions, pooling and the dense layers: `Conv`, `ConvTranspose`, the
//! pools (1-D and 3-D ones through the 2-D ops), `MatMul`, `Gemm`,
//! `Dropout` and `LRN`.

use strata_dialects::graph::shape::{shape_of, Dim};
use strata_ir::float::FloatKind;
use strata_ir::{Location, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::{attribute_proto::AttributeType, AttributeProto, NodeProto};
use crate::ConvertError;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("Conv", conv_or_pool),
    ("MaxUnpool", max_unpool),
    ("DeformConv", deform_conv),
    ("MaxPool", conv_or_pool),
    ("AveragePool", conv_or_pool),
    ("ConvTranspose", conv_transpose),
    ("GlobalAveragePool", global_pool),
    ("GlobalMaxPool", global_pool),
    ("LpPool", lp_pool),
    ("MatMul", matmul),
    ("Gemm", gemm),
    ("Dropout", dropout),
    ("RandomUniformLike", random_uniform_like),
    ("Bernoulli", bernoulli),
    ("LRN", lrn),
    ("Col2Im", col2im),
];

/// `Col2Im` (opset 18): `graph.col2im`, its attributes as they are.
fn col2im(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?, im.req(node, 2)?];
    let mut props = Vec::new();
    for name in ["dilations", "pads", "strides"] {
        if let Some(v) = a.ints(name) {
            props.push((name, im.i64_array(&v)));
        }
    }
    one(im.op1("graph.col2im", ops, props, loc))
}

/// `Conv`, `MaxPool` and `AveragePool`.
/// ONNX DeformConv (2-D) as `graph.deform_conv2d`: its inputs the op's
/// operands (`bias`, `mask` by keyword), `kernel_shape` checked against the
/// weight's.
fn deform_conv(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let (x, w, offset) = (im.req(node, 0)?, im.req(node, 1)?, im.req(node, 2)?);
    let (bias, mask) = (im.input(node, 3)?, im.input(node, 4)?);
    if im.rank_of(x) != Some(4) {
        return Err(ConvertError::unsupported(
            "on other than 4-D (2-D spatial) inputs is not supported",
        ));
    }
    if let (Some(k), Some(wd)) = (a.ints("kernel_shape"), im.dims_of(w)) {
        let ws: Vec<Option<i64>> = wd.iter().skip(2).map(Dim::known).collect();
        if ws
            .iter()
            .zip(&k)
            .any(|(have, &want)| have.is_some_and(|h| h != want))
        {
            return Err(format!("has kernel_shape {k:?}, but the weight is {ws:?}").into());
        }
    }
    let seg = im.segments(&[
        1,
        1,
        1,
        i32::from(bias.is_some()),
        i32::from(mask.is_some()),
    ]);
    let props = vec![
        (
            "strides",
            im.i64_array(&a.ints("strides").unwrap_or_else(|| vec![1, 1])),
        ),
        (
            "pads",
            im.i64_array(&a.ints("pads").unwrap_or_else(|| vec![0; 4])),
        ),
        (
            "dilations",
            im.i64_array(&a.ints("dilations").unwrap_or_else(|| vec![1, 1])),
        ),
        ("group", im.i64_attr(a.int("group").unwrap_or(1))),
        (
            "offset_group",
            im.i64_attr(a.int("offset_group").unwrap_or(1)),
        ),
        ("operandSegmentSizes", seg),
    ];
    let mut operands = vec![x, w, offset];
    operands.extend(bias);
    operands.extend(mask);
    one(im.op1("graph.deform_conv2d", operands, props, loc))
}

/// ONNX MaxUnpool as its reference computes it: zeros of the inferred
/// shape (`(in - 1) * stride - pads + kernel` per spatial axis), the
/// input's values written at their flat indices into it
/// (`scatter_elements` on the flattened tensors), placed at the start of
/// a tensor of `output_shape` when one is given (`pad` by the
/// difference).
fn max_unpool(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let (x, idx) = (im.req(node, 0)?, im.req(node, 1)?);
    let dims: Vec<i64> = im
        .dims_of(x)
        .and_then(|d| d.iter().map(Dim::known).collect())
        .ok_or("needs an input of static shape")?;
    let spatial = dims
        .len()
        .checked_sub(2)
        .filter(|&n| n > 0)
        .ok_or("needs an input of rank 3 or more")?;
    let kernel = a.ints("kernel_shape").ok_or("requires 'kernel_shape'")?;
    let strides = a.ints("strides").unwrap_or_else(|| vec![1; spatial]);
    let pads = a.ints("pads").unwrap_or_else(|| vec![0; 2 * spatial]);
    if kernel.len() != spatial || strides.len() != spatial || pads.len() != 2 * spatial {
        return Err(format!(
            "needs kernel_shape and strides of {spatial} entries and pads of {}",
            2 * spatial
        )
        .into());
    }
    let mut shape = dims[..2].to_vec();
    for d in 0..spatial {
        let n = i128::from(dims[d + 2] - 1) * i128::from(strides[d])
            - i128::from(pads[d])
            - i128::from(pads[d + spatial])
            + i128::from(kernel[d]);
        let n = i64::try_from(n)
            .ok()
            .filter(|&n| n >= 0)
            .ok_or_else(|| format!("gives a negative or huge size along spatial axis {d}"))?;
        shape.push(n);
    }
    let total = shape
        .iter()
        .try_fold(1i64, |acc, &d| acc.checked_mul(d))
        .ok_or("gives an output too large to represent")?;
    let zero = im.scalar_like(x, 0.0, loc)?;
    let flat_shape = im.const_i64(&[total], loc)?;
    let zeros = im.op1("graph.expand", vec![zero, flat_shape], vec![], loc)?;
    let minus_one = im.const_i64(&[-1], loc)?;
    let flat_idx = im.reshape(idx, minus_one, loc)?;
    let flat_x = im.reshape(x, minus_one, loc)?;
    let none = im.ctx.string_attr("none");
    let props = vec![("axis", im.i64_attr(0)), ("reduction", none)];
    let y = im.op1(
        "graph.scatter_elements",
        vec![zeros, flat_idx, flat_x],
        props,
        loc,
    )?;
    let inferred = im.const_i64(&shape, loc)?;
    let y = im.reshape(y, inferred, loc)?;
    let Some(out) = im.input(node, 2)? else {
        return Ok(vec![y]);
    };
    // Zeros before, the difference to output_shape after.
    let extra = im.bin("graph.sub", out, inferred, loc)?;
    let before = im.const_i64(&vec![0; dims.len()], loc)?;
    let axis = im.i64_attr(0);
    let pads = im.op1(
        "graph.concat",
        vec![before, extra],
        vec![("axis", axis)],
        loc,
    )?;
    let seg = im.segments(&[1, 1, 0, 0]);
    one(im.op1(
        "graph.pad",
        vec![y, pads],
        vec![("operandSegmentSizes", seg)],
        loc,
    ))
}

fn conv_or_pool(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let rank = im
        .req(node, 0)
        .ok()
        .and_then(|x| shape_of(im.ctx, im.ctx.value_type(x)).and_then(|(s, _)| s.rank()));
    match rank {
        Some(3) => im.convert_1d(node, loc, Importer::convert_window),
        Some(5) if node.op_type() != "Conv" => im.convert_pool_3d(node, a, loc),
        Some(5) => im.convert_conv_3d(node, a, loc),
        _ => im.convert_window(node, a, loc),
    }
}

fn conv_transpose(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let rank = im
        .req(node, 0)
        .ok()
        .and_then(|x| im.dims_of(x).map(|d| d.len()));
    match rank {
        Some(3) => im.convert_1d(node, loc, Importer::convert_conv_transpose),
        Some(5) => im.convert_conv_transpose_3d(node, a, loc),
        _ => im.convert_conv_transpose(node, a, loc),
    }
}

/// `GlobalAveragePool` and `GlobalMaxPool`.
fn global_pool(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let op = node.op_type();
    let x = im.req(node, 0)?;
    let name = if op == "GlobalMaxPool" {
        "graph.global_max_pool"
    } else {
        "graph.global_avg_pool"
    };
    one(im.op1(name, vec![x], vec![], loc))
}

fn lp_pool(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    // (sum |x|^p)^(1/p) over each window: an AveragePool of
    // |x|^p that counts padding, times the window size.
    let x = im.req(node, 0)?;
    let p = a.int("p").unwrap_or(2);
    if p < 1 {
        return Err(format!("p = {p} must be at least 1").into());
    }
    let kernel = a.ints("kernel_shape").ok_or("requires 'kernel_shape'")?;
    let window = kernel
        .iter()
        .try_fold(1i64, |acc, &k| acc.checked_mul(k).filter(|_| k > 0))
        .ok_or("needs positive kernel sizes")?;
    let elem = im.elem(x).ok_or("operand is not a tensor")?;
    let abs = im.op1("graph.abs", vec![x], vec![], loc)?;
    let exponent = im.scalar(elem, p as f64, loc)?;
    let powered = im.op1("graph.pow", vec![abs, exponent], vec![], loc)?;
    let mut pooled = node.clone();
    pooled.op_type = Some("AveragePool".into());
    let name = format!("{}#lp#{}", node.input[0], im.values.len());
    im.values.insert(name.clone(), powered);
    pooled.input[0] = name;
    pooled.attribute.retain(|attr| attr.name() != "p");
    pooled.attribute.push(crate::proto::AttributeProto {
        name: Some("count_include_pad".into()),
        r#type: Some(AttributeType::Int as i32),
        i: Some(1),
        ..Default::default()
    });
    let avg = im.convert(&pooled, loc)?;
    let avg = *avg.first().ok_or("pooling gave no result")?;
    let count = im.scalar(elem, window as f64, loc)?;
    let sum = im.op1("graph.mul", vec![avg, count], vec![], loc)?;
    let root = im.scalar(elem, 1.0 / p as f64, loc)?;
    one(im.op1("graph.pow", vec![sum, root], vec![], loc))
}

fn matmul(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    one(im.op1("graph.matmul", ops, vec![], loc))
}

fn gemm(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let mut ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    ops.extend(im.input(node, 2)?);
    let props = vec![
        (
            "alpha",
            im.f64_attr(f64::from(a.float("alpha").unwrap_or(1.0))),
        ),
        (
            "beta",
            im.f64_attr(f64::from(a.float("beta").unwrap_or(1.0))),
        ),
        ("transA", im.bool_attr(a.int("transA").unwrap_or(0) != 0)),
        ("transB", im.bool_attr(a.int("transB").unwrap_or(0) != 0)),
    ];
    one(im.op1("graph.gemm", ops, props, loc))
}

/// The element type a random op draws: its `dtype` attribute's, else its
/// input's.
fn random_dtype(im: &mut Importer, a: &Attrs, x: Value) -> Res<strata_ir::Type> {
    match a.int("dtype") {
        Some(code) => crate::tensor::element_type(im.ctx, code as i32).ok_or_else(|| {
            ConvertError::unsupported(format!(
                "dtype {} is not supported",
                crate::tensor::dtype_name(code as i32)
            ))
        }),
        None => im.elem(x).ok_or_else(|| "operand is not a tensor".into()),
    }
}

/// The seed of a random node: ONNX's float `seed` (its bits), else one of
/// the node's own, derived from its first output's name (as dropout's).
fn random_seed(node: &NodeProto, a: &Attrs) -> i64 {
    match a.float("seed") {
        Some(s) => i64::from(s.to_bits()),
        None => name_seed(node.output.first().map_or("", String::as_str)),
    }
}

/// ONNX RandomUniformLike: `graph.random_uniform_like` (strata's own
/// stream: the values are not NumPy's).
fn random_uniform_like(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let elem = random_dtype(im, a, x)?;
    let props = vec![
        ("low", im.f64_attr(a.float_or("low", 0.0))),
        ("high", im.f64_attr(a.float_or("high", 1.0))),
        ("seed", im.i64_attr(random_seed(node, a))),
    ];
    im.op(
        "graph.random_uniform_like",
        vec![x],
        props,
        1,
        Some(elem),
        loc,
    )
}

/// ONNX Bernoulli as its function body: a uniform draw shaped as the
/// probabilities, `draw < p`, cast to `dtype` (the input's type without
/// one).
fn bernoulli(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let p = im.req(node, 0)?;
    let float = im.elem(p).ok_or("operand is not a tensor")?;
    let props = vec![("seed", im.i64_attr(random_seed(node, a)))];
    let u = im
        .op(
            "graph.random_uniform_like",
            vec![p],
            props,
            1,
            Some(float),
            loc,
        )?
        .remove(0);
    let below = im.bin("graph.less", u, p, loc)?;
    let elem = random_dtype(im, a, p)?;
    im.op("graph.cast", vec![below], vec![], 1, Some(elem), loc)
}

fn dropout(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let with_mask = node.output.get(1).is_some_and(|o| !o.is_empty());
    // training_mode: absent or a constant false is inference (the
    // identity); a constant true or a run-time value needs the op.
    let training = im.input(node, 2)?;
    let constant = training.map(|t| {
        im.const_int(t)
            .map(|v| v.first().copied().unwrap_or(0) != 0)
    });
    if matches!(constant, Some(Some(true) | None)) {
        let ratio = match im.input(node, 1)? {
            Some(r) => r,
            None => {
                let f32 = im.ctx.float_type(FloatKind::F32);
                im.scalar(f32, 0.5, loc)?
            }
        };
        // Without a seed (ONNX: "auto-generated"), each node gets its
        // own, derived from its first output's name, so two dropouts
        // neither share a mask nor fold into one.
        let first = node.output.first().map_or("", String::as_str);
        let seed = a.int("seed").unwrap_or_else(|| name_seed(first));
        let props = vec![("seed", im.i64_attr(seed))];
        let mut operands = vec![x, ratio];
        if constant == Some(None) {
            operands.extend(training);
        }
        let results = if with_mask { 2 } else { 1 };
        return im.op("graph.dropout", operands, props, results, None, loc);
    }
    if !with_mask {
        return Ok(vec![x]);
    }
    // In inference the mask keeps everything: all true, shaped as x.
    let shape = im.op1("graph.shape_of", vec![x], vec![], loc)?;
    let i1 = im.ctx.integer_type(1);
    let ty = im.ctx.tensor_type(vec![1], i1);
    let one = im
        .ctx
        .dense_elements_attr(ty, vec![1])
        .ok_or("could not build the mask")?;
    let mask = im.op1(
        "graph.constant_of_shape",
        vec![shape],
        vec![("value", one)],
        loc,
    )?;
    if im.opset < 10 {
        // Before opset 10 the mask has the input's type (ones).
        let elem = im.elem(x).ok_or("operand is not a tensor")?;
        return Ok(vec![x, im.cast_to(mask, elem, loc)?]);
    }
    Ok(vec![x, mask])
}

fn lrn(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // x / (bias + alpha / size * sum of x^2 over `size` channels
    // around each)^beta; the channel window sum is an avg_pool2d
    // (counting padding) over [N, 1, C, rest], times size.
    let size = a.int("size").ok_or("requires 'size'")?;
    if size < 1 {
        return Err(format!("size {size} must be positive").into());
    }
    let (alpha, beta, bias) = (
        a.float_or("alpha", 1e-4),
        a.float_or("beta", 0.75),
        a.float_or("bias", 1.0),
    );
    let dims = im.dims_of(x).ok_or("needs an input of known rank")?;
    let c = match dims.get(1).and_then(Dim::known) {
        Some(c) if dims.len() >= 3 => c,
        _ => return Err("needs an input [N, C, ...] with a static C".into()),
    };
    let sq = im.bin("graph.mul", x, x, loc)?;
    let target = im.const_i64(&[0, 1, c, -1], loc)?;
    let planes = im.reshape(sq, target, loc)?;
    let (before, after) = ((size - 1) / 2, size - 1 - (size - 1) / 2);
    let props = vec![
        ("kernel_shape", im.i64_array(&[size, 1])),
        ("pads", im.i64_array(&[before, 0, after, 0])),
        ("count_include_pad", im.bool_attr(true)),
    ];
    let avg = im.op1("graph.avg_pool2d", vec![planes], props, loc)?;
    let shape = im.op1("graph.shape_of", vec![x], vec![], loc)?;
    let avg = im.reshape(avg, shape, loc)?;
    // alpha / size * (avg * size) = alpha * avg.
    let al = im.scalar_like(x, alpha, loc)?;
    let scaled = im.bin("graph.mul", avg, al, loc)?;
    let b = im.scalar_like(x, bias, loc)?;
    let base = im.bin("graph.add", scaled, b, loc)?;
    let be = im.scalar_like(x, beta, loc)?;
    let den = im.bin("graph.pow", base, be, loc)?;
    one(im.bin("graph.div", x, den, loc))
}

impl Importer<'_> {
    pub(super) fn convert_window(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let op = node.op_type();
        let x = self.req(node, 0)?;
        let with_indices = op == "MaxPool" && node.output.get(1).is_some_and(|o| !o.is_empty());
        let storage_order = a.int("storage_order").unwrap_or(0);
        if !matches!(storage_order, 0 | 1) {
            return Err(format!("storage_order {storage_order} is not defined").into());
        }
        let input_shape = shape_of(self.ctx, self.ctx.value_type(x)).map(|(s, _)| s);
        let kernel: Vec<i64> = match (op, a.ints("kernel_shape")) {
            (_, Some(k)) => k,
            ("Conv", None) => {
                let w = self.req(node, 1)?;
                let ws = shape_of(self.ctx, self.ctx.value_type(w))
                    .and_then(|(s, _)| s.dims().map(<[Dim]>::to_vec));
                ws.and_then(|d| {
                    d.get(2..)
                        .map(|k| k.iter().map(Dim::known).collect::<Option<Vec<_>>>())
                })
                .flatten()
                .ok_or("needs static kernel dimensions")?
            }
            _ => return Err("requires 'kernel_shape'".into()),
        };
        if kernel.len() != 2 {
            return Err(ConvertError::unsupported(format!(
                "in {}-D is not supported (1-D, 2-D and 3-D only)",
                kernel.len()
            )));
        }
        let strides = a.ints("strides").unwrap_or_else(|| vec![1, 1]);
        let dilations = a.ints("dilations").unwrap_or_else(|| vec![1, 1]);
        let auto_pad = a.string("auto_pad").unwrap_or_else(|| "NOTSET".into());
        let pads = match auto_pad.as_str() {
            "NOTSET" => a.ints("pads").unwrap_or_else(|| vec![0; 4]),
            "VALID" => vec![0; 4],
            "SAME_UPPER" | "SAME_LOWER" => {
                let dims = input_shape
                    .as_ref()
                    .and_then(|s| s.dims().map(<[Dim]>::to_vec))
                    .filter(|d| d.len() == 4)
                    .ok_or("with auto_pad=SAME needs a 4-D input")?;
                let mut pads = vec![0; 4];
                for i in 0..2 {
                    let n = dims[2 + i]
                        .known()
                        .ok_or("with auto_pad=SAME needs static spatial sizes")?;
                    let s = *strides.get(i).ok_or("has too few strides")?;
                    let d = *dilations.get(i).ok_or("has too few dilations")?;
                    if s < 1 || d < 1 || kernel[i] < 1 {
                        return Err("kernel sizes, strides and dilations must be positive".into());
                    }
                    // In i128: the attributes may be anything.
                    let (n, s, d, k) = (
                        i128::from(n),
                        i128::from(s),
                        i128::from(d),
                        i128::from(kernel[i]),
                    );
                    let out = (n + s - 1) / s;
                    let total = ((out - 1) * s + d * (k - 1) + 1 - n).max(0);
                    let total = i64::try_from(total)
                        .map_err(|_| "with auto_pad=SAME needs padding too large to represent")?;
                    let (small, large) = (total / 2, total - total / 2);
                    if auto_pad == "SAME_UPPER" {
                        pads[i] = small;
                        pads[i + 2] = large;
                    } else {
                        pads[i] = large;
                        pads[i + 2] = small;
                    }
                }
                pads
            }
            other => return Err(format!("has an unknown auto_pad '{other}'").into()),
        };
        let mut props = vec![
            ("strides", self.i64_array(&strides)),
            ("pads", self.i64_array(&pads)),
        ];
        match op {
            "Conv" => {
                props.push(("dilations", self.i64_array(&dilations)));
                props.push(("group", self.i64_attr(a.int("group").unwrap_or(1))));
                let mut ops = vec![x, self.req(node, 1)?];
                ops.extend(self.input(node, 2)?);
                Ok(vec![self.op1("graph.conv2d", ops, props, loc)?])
            }
            "MaxPool" => {
                props.push(("kernel_shape", self.i64_array(&kernel)));
                props.push(("dilations", self.i64_array(&dilations)));
                props.push((
                    "ceil_mode",
                    self.bool_attr(a.int("ceil_mode").unwrap_or(0) != 0),
                ));
                props.push(("storage_order", self.i64_attr(storage_order)));
                let results = if with_indices { 2 } else { 1 };
                self.op("graph.max_pool2d", vec![x], props, results, None, loc)
            }
            _ => {
                props.push(("dilations", self.i64_array(&dilations)));
                props.push(("kernel_shape", self.i64_array(&kernel)));
                props.push((
                    "ceil_mode",
                    self.bool_attr(a.int("ceil_mode").unwrap_or(0) != 0),
                ));
                props.push((
                    "count_include_pad",
                    self.bool_attr(a.int("count_include_pad").unwrap_or(0) != 0),
                ));
                Ok(vec![self.op1("graph.avg_pool2d", vec![x], props, loc)?])
            }
        }
    }

    /// A 3-D MaxPool or AveragePool as two 2-D ones: a box window is
    /// separable (the maximum, the sum and the count of real or padded
    /// positions all factor over the axes), so pool over (H, W) with the
    /// depth folded into the channels, then over D with H and W flattened.
    pub(super) fn convert_pool_3d(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        if node.output.get(1).is_some_and(|o| !o.is_empty()) {
            return Err(ConvertError::unsupported(
                "with an indices output is not supported",
            ));
        }
        let x = self.req(node, 0)?;
        let dims = self.dims_of(x).ok_or("needs a ranked input")?;
        let known: Option<Vec<i64>> = dims[1..].iter().map(Dim::known).collect();
        let Some(&[c, d, h, w]) = known.as_deref() else {
            return Err("in 3-D needs static channel and spatial sizes".into());
        };
        let three = |name: &str, default: i64| -> Res<Vec<i64>> {
            let v = a.ints(name).unwrap_or_else(|| vec![default; 3]);
            if v.len() != 3 {
                return Err(format!("{name} {v:?} must have 3 entries in 3-D").into());
            }
            Ok(v)
        };
        let kernel = a.ints("kernel_shape").ok_or("requires 'kernel_shape'")?;
        if kernel.len() != 3 {
            return Err(format!("kernel_shape {kernel:?} must have 3 entries in 3-D").into());
        }
        let strides = three("strides", 1)?;
        let dilations = three("dilations", 1)?;
        let pads = a.ints("pads").unwrap_or_else(|| vec![0; 6]);
        if pads.len() != 6 {
            return Err(format!("pads {pads:?} must have 6 entries in 3-D").into());
        }
        let with =
            |node: &NodeProto, input: &str, k: [i64; 2], s: [i64; 2], dl: [i64; 2], p: [i64; 4]| {
                let mut n = node.clone();
                n.input = vec![input.to_string()];
                n.output.truncate(1);
                n.attribute.retain(|at| {
                    !matches!(at.name(), "kernel_shape" | "strides" | "dilations" | "pads")
                });
                for (name, v) in [
                    ("kernel_shape", k.to_vec()),
                    ("strides", s.to_vec()),
                    ("dilations", dl.to_vec()),
                    ("pads", p.to_vec()),
                ] {
                    n.attribute.push(AttributeProto {
                        name: Some(name.into()),
                        r#type: Some(AttributeType::Ints as i32),
                        ints: v,
                        ..Default::default()
                    });
                }
                n
            };
        // Over (H, W), depth folded into the channels.
        let shape = self.const_i64(&[0, c * d, h, w], loc)?;
        let folded = self.op1("graph.reshape", vec![x, shape], vec![], loc)?;
        let name = format!("{}#hw", node.output.first().map_or("", |o| o.as_str()));
        self.values.insert(name.clone(), folded);
        let hw = with(
            node,
            &name,
            [kernel[1], kernel[2]],
            [strides[1], strides[2]],
            [dilations[1], dilations[2]],
            [pads[1], pads[2], pads[4], pads[5]],
        );
        let r = self.convert_window(&hw, &Attrs(&hw.attribute), loc)?[0];
        let rd = self.dims_of(r).ok_or("needs a ranked result")?;
        let (Some(Dim::Known(h2)), Some(Dim::Known(w2))) = (rd.get(2).cloned(), rd.get(3).cloned())
        else {
            return Err("in 3-D needs static spatial sizes".into());
        };
        // Over D, height and width flattened.
        let shape = self.const_i64(&[0, c, d, h2 * w2], loc)?;
        let flat = self.op1("graph.reshape", vec![r, shape], vec![], loc)?;
        let name = format!("{}#d", node.output.first().map_or("", |o| o.as_str()));
        self.values.insert(name.clone(), flat);
        let dn = with(
            node,
            &name,
            [kernel[0], 1],
            [strides[0], 1],
            [dilations[0], 1],
            [pads[0], 0, pads[3], 0],
        );
        let r = self.convert_window(&dn, &Attrs(&dn.attribute), loc)?[0];
        let d2 = match self.dims_of(r).and_then(|v| v.get(2).cloned()) {
            Some(Dim::Known(d2)) => d2,
            _ => return Err("in 3-D needs static spatial sizes".into()),
        };
        let shape = self.const_i64(&[0, c, d2, h2, w2], loc)?;
        Ok(vec![self.op1(
            "graph.reshape",
            vec![r, shape],
            vec![],
            loc,
        )?])
    }

    /// A 1-D Conv, ConvTranspose, MaxPool or AveragePool as the 2-D op
    /// (`convert_2d`) on inputs with a unit height: unsqueeze dimension 2,
    /// widen the window attributes, convert, squeeze it again.
    pub(super) fn convert_1d<F>(
        &mut self,
        node: &NodeProto,
        loc: Location,
        convert_2d: F,
    ) -> Res<Vec<Value>>
    where
        F: FnOnce(&mut Self, &NodeProto, &Attrs, Location) -> Res<Vec<Value>>,
    {
        let axis2 = self.const_i64(&[2], loc)?;
        let mut lifted = node.clone();
        // Data and weights get a unit height; the bias stays 1-D.
        for i in 0..node.input.len().min(2) {
            if node.input[i].is_empty() {
                continue;
            }
            let v = self.req(node, i)?;
            let u = self.op1("graph.unsqueeze", vec![v, axis2], vec![], loc)?;
            let name = format!("{}#unsqueezed", node.input[i]);
            self.values.insert(name.clone(), u);
            lifted.input[i] = name;
        }
        for attr in &mut lifted.attribute {
            match attr.name() {
                "kernel_shape" | "strides" | "dilations" => attr.ints.insert(0, 1),
                "output_padding" => attr.ints.insert(0, 0),
                // ConvTranspose's, spatial or full: the unit height goes
                // before the width.
                "output_shape" => {
                    let at = attr.ints.len().saturating_sub(1);
                    attr.ints.insert(at, 1);
                }
                "pads" => {
                    if attr.ints.len() != 2 {
                        return Err(
                            format!("pads {:?} must have 2 entries in 1-D", attr.ints).into()
                        );
                    }
                    attr.ints = vec![0, attr.ints[0], 0, attr.ints[1]];
                }
                _ => {}
            }
        }
        let out = convert_2d(self, &lifted, &Attrs(&lifted.attribute), loc)?;
        let mut squeezed = Vec::with_capacity(out.len());
        for v in out {
            squeezed.push(self.op1("graph.squeeze", vec![v, axis2], vec![], loc)?);
        }
        Ok(squeezed)
    }

    /// ConvTranspose on NCHW: `auto_pad` and an `output_shape` become explicit
    /// pads (or the op's `output_shape`), as the ONNX reference computes them.
    pub(super) fn convert_conv_transpose(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let x = self.req(node, 0)?;
        let w = self.req(node, 1)?;
        let dims = self.dims_of(x).ok_or("needs an input of known rank")?;
        match dims.len() {
            4 => {}
            n if n > 4 => {
                return Err(ConvertError::unsupported(format!(
                    "in {}-D is not supported (1-D, 2-D and 3-D only)",
                    n - 2
                )))
            }
            n => return Err(format!("needs a 3-D or 4-D input, not {n}-D").into()),
        }
        let kernel: Vec<i64> = match a.ints("kernel_shape") {
            Some(k) => k,
            None => self
                .dims_of(w)
                .and_then(|d| {
                    d.get(2..)
                        .map(|k| k.iter().map(Dim::known).collect::<Option<Vec<_>>>())
                })
                .flatten()
                .ok_or("needs static kernel dimensions")?,
        };
        if kernel.len() != 2 {
            return Err(ConvertError::unsupported(format!(
                "in {}-D is not supported (1-D, 2-D and 3-D only)",
                kernel.len()
            )));
        }
        let strides = a.ints("strides").unwrap_or_else(|| vec![1, 1]);
        let dilations = a.ints("dilations").unwrap_or_else(|| vec![1, 1]);
        let output_padding = a.ints("output_padding").unwrap_or_else(|| vec![0, 0]);
        if strides.len() != 2 || dilations.len() != 2 || output_padding.len() != 2 {
            return Err("needs 2 strides, dilations and output paddings".into());
        }
        // output_shape may list every dimension or the spatial ones.
        let output_shape = a
            .ints("output_shape")
            .map(|s| s[s.len().saturating_sub(2)..].to_vec());
        let auto_pad = a.string("auto_pad").unwrap_or_else(|| "NOTSET".into());
        let pads = match (auto_pad.as_str(), a.ints("pads")) {
            ("NOTSET", Some(p)) => p,
            ("NOTSET" | "VALID", _) => vec![0; 4],
            ("SAME_UPPER" | "SAME_LOWER", _) => {
                let mut pads = vec![0; 4];
                for i in 0..2 {
                    // total = stride * (in - 1) + output_padding
                    //         + (kernel - 1) * dilation + 1 - out,
                    // and out defaults to in * stride.
                    let (s, d, k, op) = (
                        i128::from(strides[i]),
                        i128::from(dilations[i]),
                        i128::from(kernel[i]),
                        i128::from(output_padding[i]),
                    );
                    let total = match &output_shape {
                        None => op + (k - 1) * d + 1 - s,
                        Some(out) => {
                            let n = dims[2 + i].known().ok_or(
                                "with output_shape and auto_pad needs static spatial sizes",
                            )?;
                            s * (i128::from(n) - 1) + op + (k - 1) * d + 1 - i128::from(out[i])
                        }
                    };
                    let total =
                        i64::try_from(total).map_err(|_| "needs padding too large to represent")?;
                    if total < 0 {
                        return Err(ConvertError::unsupported(format!(
                            "with auto_pad={auto_pad} and a kernel smaller than its stride needs negative padding, which is not supported"
                        )));
                    }
                    let (small, large) = (total.div_euclid(2), total - total.div_euclid(2));
                    if auto_pad == "SAME_UPPER" {
                        pads[i] = small;
                        pads[i + 2] = large;
                    } else {
                        pads[i] = large;
                        pads[i + 2] = small;
                    }
                }
                pads
            }
            (other, _) => return Err(format!("has an unknown auto_pad '{other}'").into()),
        };
        if pads.len() != 4 || pads.iter().any(|&p| p < 0) {
            return Err(format!("pads {pads:?} must be 4 sizes that are not negative").into());
        }
        let mut props = vec![
            ("strides", self.i64_array(&strides)),
            ("pads", self.i64_array(&pads)),
            ("dilations", self.i64_array(&dilations)),
            ("group", self.i64_attr(a.int("group").unwrap_or(1))),
            ("output_padding", self.i64_array(&output_padding)),
        ];
        if let Some(shape) = &output_shape {
            props.push(("output_shape", self.i64_array(shape)));
        }
        let mut ops = vec![x, w];
        ops.extend(self.input(node, 2)?);
        Ok(vec![self.op1("graph.conv_transpose2d", ops, props, loc)?])
    }
}

/// A seed derived from `name` (64-bit FNV-1a): stable across runs and
/// machines, different for different names.
fn name_seed(name: &str) -> i64 {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    hash as i64
}
