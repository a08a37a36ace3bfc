//! TOSA (MLIR 22, TOSA 1.0) into the `graph` dialect.
//!
//! [`import`] walks each `func.func` of an upstream module in order and
//! converts each op by its name ([`convert`]): an elementwise op is one
//! `graph` op, the others a few (a convolution's weight reordered, a
//! slice's ends computed, a reduction's kept axis). TOSA's tensors are
//! NHWC with OHWI weights; `graph.conv2d` and the pools take that layout
//! as it is (`layout = "nhwc"`). `!tosa.shape` values (`tosa.const_shape`)
//! are known at import and become the `i64` constants the `graph` ops take.
//!
//! Every converted op's result type is checked against the type the TOSA
//! op declares; a static type that differs is an error at the op. [`OPS`]
//! lists what converts: [`coverage`] says which of MLIR 22's TOSA ops do.

use std::collections::HashMap;

use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::{Module, RegionLike, ValueLike};
use strata_dialects::builders::build_graph_op;
use strata_ir::attributes::AttrKind;
use strata_ir::{Attribute, Block, Context, Location, Operation, OperationState, Type, Value};

use crate::upstream::{file_line_col, render_location};
use crate::ImportError;

/// TOSA ops that are one `graph` op of the same operands.
const ONE_TO_ONE: &[(&str, &str)] = &[
    ("tosa.abs", "graph.abs"),
    ("tosa.add", "graph.add"),
    ("tosa.bitwise_and", "graph.and"),
    ("tosa.bitwise_not", "graph.not"),
    ("tosa.bitwise_or", "graph.or"),
    ("tosa.bitwise_xor", "graph.xor"),
    ("tosa.ceil", "graph.ceil"),
    ("tosa.cos", "graph.cos"),
    ("tosa.equal", "graph.equal"),
    ("tosa.erf", "graph.erf"),
    ("tosa.exp", "graph.exp"),
    ("tosa.floor", "graph.floor"),
    ("tosa.greater", "graph.greater"),
    ("tosa.greater_equal", "graph.greater_equal"),
    ("tosa.identity", "graph.identity"),
    ("tosa.intdiv", "graph.div"),
    ("tosa.log", "graph.log"),
    ("tosa.logical_and", "graph.and"),
    ("tosa.logical_not", "graph.not"),
    ("tosa.logical_or", "graph.or"),
    ("tosa.logical_xor", "graph.xor"),
    ("tosa.maximum", "graph.max"),
    ("tosa.minimum", "graph.min"),
    ("tosa.pow", "graph.pow"),
    ("tosa.reciprocal", "graph.reciprocal"),
    ("tosa.rsqrt", "graph.rsqrt"),
    ("tosa.select", "graph.where"),
    ("tosa.sigmoid", "graph.sigmoid"),
    ("tosa.sin", "graph.sin"),
    ("tosa.sub", "graph.sub"),
    ("tosa.tanh", "graph.tanh"),
];

/// TOSA reductions (one axis, kept) and their `graph` op.
const REDUCTIONS: &[(&str, &str)] = &[
    ("tosa.reduce_max", "graph.reduce_max"),
    ("tosa.reduce_min", "graph.reduce_min"),
    ("tosa.reduce_product", "graph.reduce_prod"),
    ("tosa.reduce_sum", "graph.reduce_sum"),
];

/// The other TOSA ops that convert, each by its own rule in [`convert`].
const COMPOSED: &[&str] = &[
    "tosa.argmax",
    "tosa.avg_pool2d",
    "tosa.cast",
    "tosa.clamp",
    "tosa.concat",
    "tosa.const",
    "tosa.const_shape",
    "tosa.conv2d",
    "tosa.depthwise_conv2d",
    "tosa.dim",
    "tosa.gather",
    "tosa.matmul",
    "tosa.max_pool2d",
    "tosa.mul",
    "tosa.negate",
    "tosa.pad",
    "tosa.reduce_all",
    "tosa.reduce_any",
    "tosa.reshape",
    "tosa.reverse",
    "tosa.slice",
    "tosa.tile",
    "tosa.transpose",
];

/// `!tosa.shape` arithmetic, computed at import: every operand is known.
const SHAPE_OPS: &[&str] = &[
    "tosa.add_shape",
    "tosa.concat_shape",
    "tosa.div_ceil_shape",
    "tosa.div_floor_shape",
    "tosa.exp2_shape",
    "tosa.log2_ceil_shape",
    "tosa.log2_floor_shape",
    "tosa.max_shape",
    "tosa.min_shape",
    "tosa.mod_shape",
    "tosa.mul_shape",
    "tosa.sub_shape",
];

/// Ops of other upstream dialects that appear in TOSA modules and convert.
const OTHERS: &[&str] = &["arith.constant", "func.return", "tensor.cast"];

/// Every op the importer converts, sorted.
pub fn ops() -> Vec<&'static str> {
    let mut ops: Vec<&str> = ONE_TO_ONE
        .iter()
        .chain(REDUCTIONS)
        .map(|&(t, _)| t)
        .chain(COMPOSED.iter().copied())
        .chain(SHAPE_OPS.iter().copied())
        .chain(OTHERS.iter().copied())
        .collect();
    ops.sort_unstable();
    ops
}

/// The ops of MLIR 22's TOSA dialect (TOSA 1.0), sorted: the op names of
/// `mlir/Dialect/Tosa/IR/TosaOps.h.inc` (libmlir-22-dev).
pub const TOSA_OPS: &[&str] = &[
    "tosa.abs",
    "tosa.add",
    "tosa.add_shape",
    "tosa.apply_scale",
    "tosa.argmax",
    "tosa.arithmetic_right_shift",
    "tosa.avg_pool2d",
    "tosa.bitwise_and",
    "tosa.bitwise_not",
    "tosa.bitwise_or",
    "tosa.bitwise_xor",
    "tosa.cast",
    "tosa.cast_from_block_scaled",
    "tosa.cast_to_block_scaled",
    "tosa.ceil",
    "tosa.clamp",
    "tosa.clz",
    "tosa.concat",
    "tosa.concat_shape",
    "tosa.cond_if",
    "tosa.const",
    "tosa.const_shape",
    "tosa.conv2d",
    "tosa.conv3d",
    "tosa.cos",
    "tosa.custom",
    "tosa.depthwise_conv2d",
    "tosa.dim",
    "tosa.div_ceil_shape",
    "tosa.div_floor_shape",
    "tosa.equal",
    "tosa.erf",
    "tosa.exp",
    "tosa.exp2_shape",
    "tosa.fft2d",
    "tosa.floor",
    "tosa.gather",
    "tosa.greater",
    "tosa.greater_equal",
    "tosa.identity",
    "tosa.intdiv",
    "tosa.log",
    "tosa.log2_ceil_shape",
    "tosa.log2_floor_shape",
    "tosa.logical_and",
    "tosa.logical_left_shift",
    "tosa.logical_not",
    "tosa.logical_or",
    "tosa.logical_right_shift",
    "tosa.logical_xor",
    "tosa.matmul",
    "tosa.matmul_t_block_scaled",
    "tosa.max_pool2d",
    "tosa.max_shape",
    "tosa.maximum",
    "tosa.min_shape",
    "tosa.minimum",
    "tosa.mod_shape",
    "tosa.mul",
    "tosa.mul_shape",
    "tosa.negate",
    "tosa.pad",
    "tosa.pow",
    "tosa.reciprocal",
    "tosa.reduce_all",
    "tosa.reduce_any",
    "tosa.reduce_max",
    "tosa.reduce_min",
    "tosa.reduce_product",
    "tosa.reduce_sum",
    "tosa.rescale",
    "tosa.reshape",
    "tosa.resize",
    "tosa.reverse",
    "tosa.rfft2d",
    "tosa.rsqrt",
    "tosa.scatter",
    "tosa.select",
    "tosa.sigmoid",
    "tosa.sin",
    "tosa.slice",
    "tosa.slice_shape",
    "tosa.sub",
    "tosa.sub_shape",
    "tosa.table",
    "tosa.tanh",
    "tosa.tile",
    "tosa.transpose",
    "tosa.transpose_conv2d",
    "tosa.variable",
    "tosa.variable_read",
    "tosa.variable_write",
    "tosa.while_loop",
    "tosa.yield",
];

/// Which of [`TOSA_OPS`] convert, and which do not.
pub fn coverage() -> (Vec<&'static str>, Vec<&'static str>) {
    let converted = ops();
    TOSA_OPS.iter().partition(|op| converted.contains(op))
}

/// A value of the upstream module, as the importer holds it.
#[derive(Clone, Debug)]
enum Slot {
    /// A tensor: its `graph` value.
    Tensor(Value),
    /// A `!tosa.shape`: its values, known at import.
    Shape(Vec<i64>),
}

/// One upstream op, read out of melior: what a conversion rule needs.
struct Node {
    name: String,
    location: String,
    loc: Location,
    operands: Vec<Slot>,
    /// The declared result types (`None`: a `!tosa.shape`).
    results: Vec<Option<Type>>,
    /// Attributes as upstream prints them.
    attrs: HashMap<String, String>,
}

type Res<T> = Result<T, String>;

struct Importer<'c> {
    ctx: &'c mut Context,
    file: String,
    block: Block,
    /// Upstream values (by their C handle) to what they became.
    values: HashMap<usize, Slot>,
    /// The elements of small constants (zero points, shifts), by value.
    known: HashMap<Value, Vec<f64>>,
}

/// Import every `func.func` of `module` into a `builtin.module` of
/// `graph` ops in `ctx`.
pub fn import(
    ctx: &mut Context,
    module: &Module<'_>,
    name: &str,
) -> Result<Operation, ImportError> {
    let file = module_file(module, name);
    let unsupported = unsupported_ops(module, &file);
    if !unsupported.is_empty() {
        return Err(ImportError::Unsupported(unsupported));
    }
    let module_region = ctx.create_region();
    let module_block = ctx.create_block();
    ctx.append_block(module_region, module_block);
    let mut op = module.body().first_operation();
    while let Some(func) = op {
        let f = import_func(ctx, &func, &file)?;
        ctx.append_op(module_block, f);
        op = func.next_in_block();
    }
    let loc = ctx.file_line_col_loc(&file, 0, 0);
    let ident = ctx.ident("builtin.module");
    let mut state = OperationState::new(ident, loc);
    state.regions = vec![module_region];
    Ok(ctx.create_operation(state))
}

/// The file the module's ops name in their locations (`name` for a
/// module parsed from a string, which upstream names `-`).
fn module_file(module: &Module<'_>, name: &str) -> String {
    let first = module.body().first_operation();
    first
        .and_then(|op| file_line_col(&op.location().to_string()).map(|(f, _, _)| f))
        .filter(|f| f != "-")
        .unwrap_or_else(|| name.to_string())
}

fn op_name(op: &OperationRef<'_, '_>) -> String {
    op.name()
        .as_string_ref()
        .as_str()
        .map_or_else(|_| "<unnamed>".to_string(), str::to_string)
}

/// Every op nested in `module` that [`convert`] does not take, with its
/// location, in order.
fn unsupported_ops(module: &Module<'_>, file: &str) -> Vec<(String, String)> {
    let converted = ops();
    let mut out = Vec::new();
    let mut stack: Vec<OperationRef<'_, '_>> = Vec::new();
    let mut top = module.body().first_operation();
    while let Some(op) = top {
        stack.push(op);
        top = op.next_in_block();
    }
    while let Some(op) = stack.pop() {
        let name = op_name(&op);
        if name != "func.func" && !converted.contains(&name.as_str()) {
            out.push((render_location(&op.location(), Some(file)), name));
        }
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut inner = b.first_operation();
                while let Some(i) = inner {
                    stack.push(i);
                    inner = i.next_in_block();
                }
                block = b.next_in_region();
            }
        }
    }
    out.sort();
    out
}

fn import_func(
    ctx: &mut Context,
    func: &OperationRef<'_, '_>,
    file: &str,
) -> Result<Operation, ImportError> {
    let location = render_location(&func.location(), Some(file));
    let err = |op: &str, message: String| ImportError::Convert {
        location: location.clone(),
        op: op.to_string(),
        message,
    };
    let name = op_name(func);
    if name != "func.func" {
        return Err(err(&name, "a module holds functions only".into()));
    }
    let sym = func
        .attribute("sym_name")
        .map_err(|_| err(&name, "a function without a name".into()))?
        .to_string();
    let sym = sym.trim_matches('"').to_string();
    let region = func.region(0).map_err(|e| err(&name, e.to_string()))?;
    let Some(entry) = region.first_block() else {
        return Err(err(
            &name,
            format!("@{sym} is a declaration, not a definition"),
        ));
    };
    let body = ctx.create_block();
    let mut importer = Importer {
        ctx,
        file: file.to_string(),
        block: body,
        values: HashMap::new(),
        known: HashMap::new(),
    };
    let mut arg_types = Vec::new();
    for i in 0..entry.argument_count() {
        let arg = entry.argument(i).map_err(|e| err(&name, e.to_string()))?;
        let ty = importer
            .parse_type(&arg.r#type().to_string())
            .map_err(|m| err(&name, format!("argument {i}: {m}")))?;
        let loc = importer.location(&arg.location().to_string());
        let v = importer.ctx.add_block_argument(body, ty, loc);
        importer
            .values
            .insert(arg.to_raw().ptr as usize, Slot::Tensor(v));
        arg_types.push(ty);
    }
    let mut result_types = Vec::new();
    let mut op = entry.first_operation();
    while let Some(o) = op {
        let node = importer.read(&o)?;
        if node.name == "func.return" {
            let values = node
                .operands
                .iter()
                .map(|s| importer.tensor(s))
                .collect::<Res<Vec<Value>>>()
                .map_err(|m| importer.error(&node, m))?;
            result_types = values.iter().map(|&v| importer.ctx.value_type(v)).collect();
            let ident = importer.ctx.ident("func.return");
            let mut state = OperationState::new(ident, node.loc);
            state.operands = values;
            let ret = importer.ctx.create_operation(state);
            importer.ctx.append_op(body, ret);
        } else {
            let results = importer
                .convert(&node)
                .map_err(|m| importer.error(&node, m))?;
            importer.check_results(&node, &results)?;
            for (r, slot) in o.results().zip(results) {
                importer.values.insert(r.to_raw().ptr as usize, slot);
            }
        }
        op = o.next_in_block();
    }
    let region = importer.ctx.create_region();
    importer.ctx.append_block(region, body);
    let fn_type = importer.ctx.function_type(arg_types, result_types);
    let loc = importer.location(&func.location().to_string());
    let ctx = importer.ctx;
    let props = vec![
        (ctx.ident("sym_name"), ctx.string_attr(&sym)),
        (ctx.ident("function_type"), ctx.type_attr(fn_type)),
    ];
    let ident = ctx.ident("func.func");
    let mut state = OperationState::new(ident, loc);
    state.properties = Some(ctx.dictionary_attr(props));
    state.regions = vec![region];
    Ok(ctx.create_operation(state))
}

impl Importer<'_> {
    fn read(&mut self, op: &OperationRef<'_, '_>) -> Result<Node, ImportError> {
        let name = op_name(op);
        let location = render_location(&op.location(), Some(&self.file));
        let loc = self.location(&op.location().to_string());
        let mut operands = Vec::new();
        for (i, v) in op.operands().enumerate() {
            match self.values.get(&(v.to_raw().ptr as usize)) {
                Some(s) => operands.push(s.clone()),
                None => {
                    return Err(ImportError::Convert {
                        location,
                        op: name,
                        message: format!(
                            "operand {i} is defined in a nested region or a later block"
                        ),
                    })
                }
            }
        }
        let mut results = Vec::new();
        for r in op.results() {
            let text = r.r#type().to_string();
            if text.starts_with("!tosa.shape") {
                results.push(None);
            } else {
                let ty = self.parse_type(&text).map_err(|m| ImportError::Convert {
                    location: location.clone(),
                    op: name.clone(),
                    message: m,
                })?;
                results.push(Some(ty));
            }
        }
        let attrs = op
            .attributes()
            .map(|(k, v)| {
                let key = k.as_string_ref().as_str().unwrap_or_default().to_string();
                (key, v.to_string())
            })
            .collect();
        Ok(Node {
            name,
            location,
            loc,
            operands,
            results,
            attrs,
        })
    }

    fn error(&self, node: &Node, message: String) -> ImportError {
        ImportError::Convert {
            location: node.location.clone(),
            op: node.name.clone(),
            message,
        }
    }

    /// A strata location for upstream's location text: `file:line:col`.
    fn location(&mut self, text: &str) -> Location {
        match file_line_col(text) {
            Some((file, line, col)) => {
                let file = if file == "-" { self.file.clone() } else { file };
                self.ctx.file_line_col_loc(&file, line, col)
            }
            None => self.ctx.file_line_col_loc(&self.file.clone(), 0, 0),
        }
    }

    fn parse_type(&mut self, text: &str) -> Res<Type> {
        strata_ir::parser::parse_type(self.ctx, text)
            .map_err(|d| format!("type {text}: {}", d.message))
    }

    fn parse_attr(&mut self, text: &str) -> Res<Attribute> {
        strata_ir::parser::parse_attribute(self.ctx, text)
            .map_err(|d| format!("attribute {}: {}", abbreviate(text), d.message))
    }

    /// The checks a converted op's results pass: each tensor's type is the
    /// declared one (where that is static).
    fn check_results(&mut self, node: &Node, results: &[Slot]) -> Result<(), ImportError> {
        if results.len() != node.results.len() {
            return Err(self.error(
                node,
                format!(
                    "converted to {} results, declares {}",
                    results.len(),
                    node.results.len()
                ),
            ));
        }
        for (i, (slot, declared)) in results.iter().zip(&node.results).enumerate() {
            let (Slot::Tensor(v), Some(declared)) = (slot, declared) else {
                continue;
            };
            let got = self.ctx.value_type(*v);
            if got != *declared && is_static(self.ctx, *declared) {
                let got = strata_ir::printer::type_to_string(self.ctx, got);
                let want = strata_ir::printer::type_to_string(self.ctx, *declared);
                return Err(self.error(
                    node,
                    format!("result {i}: the graph ops compute {got}, the op declares {want}"),
                ));
            }
        }
        Ok(())
    }

    fn tensor(&self, slot: &Slot) -> Res<Value> {
        match slot {
            Slot::Tensor(v) => Ok(*v),
            Slot::Shape(_) => Err("a !tosa.shape where a tensor is expected".into()),
        }
    }

    fn operand(&self, node: &Node, i: usize) -> Res<Value> {
        let slot = node
            .operands
            .get(i)
            .ok_or_else(|| format!("expects operand {i}"))?;
        self.tensor(slot)
    }

    fn shape(&self, node: &Node, i: usize) -> Res<Vec<i64>> {
        match node.operands.get(i) {
            Some(Slot::Shape(s)) => Ok(s.clone()),
            _ => Err(format!("operand {i} is not a !tosa.shape known at import")),
        }
    }

    fn attr<'n>(&self, node: &'n Node, name: &str) -> Res<&'n str> {
        node.attrs
            .get(name)
            .map(String::as_str)
            .ok_or_else(|| format!("expects attribute '{name}'"))
    }

    fn ints(&self, node: &Node, name: &str) -> Res<Vec<i64>> {
        let text = self.attr(node, name)?;
        let values =
            numbers(text).ok_or_else(|| format!("'{name}' = {text} is not a list of integers"))?;
        Ok(values.iter().map(|&v| v as i64).collect())
    }

    fn int(&self, node: &Node, name: &str) -> Res<i64> {
        match self.ints(node, name)?.as_slice() {
            [v] => Ok(*v),
            _ => Err(format!("'{name}' is not one integer")),
        }
    }

    /// Operand `i` must be a constant of zeros (a zero point of a float
    /// op, a multiplication's shift).
    fn require_zero(&self, node: &Node, i: usize, what: &str) -> Res<()> {
        let v = self.operand(node, i)?;
        match self.known.get(&v) {
            Some(values) if values.iter().all(|&x| x == 0.0) => Ok(()),
            Some(_) => Err(format!(
                "a nonzero {what} is not supported (quantized TOSA)"
            )),
            None => Err(format!("the {what} is not a constant")),
        }
    }

    fn build(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        props: Vec<(&str, Attribute)>,
        loc: Location,
    ) -> Res<Value> {
        self.build_typed(name, operands, props, None, loc)
    }

    fn build_typed(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        props: Vec<(&str, Attribute)>,
        element: Option<Type>,
        loc: Location,
    ) -> Res<Value> {
        let op = build_graph_op(self.ctx, loc, name, &operands, &props, 1, element)
            .map_err(|e| format!("{name}: {}", e.message))?;
        self.ctx.append_op(self.block, op);
        self.ctx
            .results(op)
            .next()
            .ok_or_else(|| format!("{name} has no result"))
    }

    fn constant(&mut self, value: Attribute, loc: Location) -> Res<Value> {
        self.build("graph.constant", vec![], vec![("value", value)], loc)
    }

    fn const_i64(&mut self, values: &[i64], loc: Location) -> Res<Value> {
        let i64t = self.ctx.integer_type(64);
        let ty = self.ctx.tensor_type(vec![values.len() as i64], i64t);
        let raw = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let attr = self
            .ctx
            .dense_elements_attr(ty, raw)
            .ok_or("could not build an i64 constant")?;
        self.constant(attr, loc)
    }

    fn i64_array(&mut self, values: &[i64]) -> Attribute {
        let element = self.ctx.integer_type(64);
        self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: values.iter().map(|&x| x as u64).collect(),
        })
    }

    /// `operandSegmentSizes` of an op with several optional operands.
    fn segments(&mut self, sizes: &[i32]) -> Attribute {
        let element = self.ctx.integer_type(32);
        self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: sizes.iter().map(|&x| x as u32 as u64).collect(),
        })
    }

    fn reshape(&mut self, x: Value, shape: &[i64], loc: Location) -> Res<Value> {
        let shape = self.const_i64(shape, loc)?;
        let allowzero = self.ctx.bool_attr(false);
        self.build(
            "graph.reshape",
            vec![x, shape],
            vec![("allowzero", allowzero)],
            loc,
        )
    }

    fn transpose(&mut self, x: Value, perm: &[i64], loc: Location) -> Res<Value> {
        let perm = self.i64_array(perm);
        self.build("graph.transpose", vec![x], vec![("perm", perm)], loc)
    }

    fn element_type(&self, v: Value) -> Res<Type> {
        self.ctx
            .type_kind(self.ctx.value_type(v))
            .element_type()
            .ok_or_else(|| "an operand that is not a tensor".to_string())
    }

    /// The declared result type of `node` (its first result).
    fn declared(&self, node: &Node) -> Res<Type> {
        node.results
            .first()
            .copied()
            .flatten()
            .ok_or_else(|| "expects a tensor result".to_string())
    }

    /// A 0-D constant of `value` (an attribute's text: `6.0 : f32`) in the
    /// element type of `like`.
    fn scalar_like(&mut self, value: &str, like: Value, loc: Location) -> Res<Value> {
        let number = value.split(':').next().unwrap_or(value).trim();
        let element = self.element_type(like)?;
        let element = strata_ir::printer::type_to_string(self.ctx, element);
        let attr = self.parse_attr(&format!("dense<{number}> : tensor<{element}>"))?;
        self.constant(attr, loc)
    }

    /// Convert one op; its results in order.
    fn convert(&mut self, node: &Node) -> Res<Vec<Slot>> {
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
            "tosa.const" | "arith.constant" => {
                let key = if name == "tosa.const" {
                    "values"
                } else {
                    "value"
                };
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
                let repeats = self.const_i64(&multiples, loc)?;
                Slot::Tensor(self.build("graph.tile", vec![x, repeats], vec![], loc)?)
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
            "tosa.conv2d" | "tosa.depthwise_conv2d" => self.convolution(node)?,
            "tosa.avg_pool2d" | "tosa.max_pool2d" => self.pool(node)?,
            _ => return Err(format!("'{name}' has no counterpart in the graph dialect")),
        };
        Ok(vec![out])
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

fn is_float(ctx: &Context, ty: Type) -> bool {
    matches!(ctx.type_kind(ty), strata_ir::TypeKind::Float(_))
}

fn is_bool(ctx: &Context, ty: Type) -> bool {
    matches!(
        ctx.type_kind(ty),
        strata_ir::TypeKind::Integer { width: 1, .. }
    )
}

/// A ranked tensor type's dims, when all are static.
fn static_shape(ctx: &Context, ty: Type) -> Option<Vec<i64>> {
    match ctx.type_kind(ty) {
        strata_ir::TypeKind::RankedTensor { shape, .. } if shape.iter().all(|&d| d >= 0) => {
            Some(shape.to_vec())
        }
        _ => None,
    }
}

fn is_static(ctx: &Context, ty: Type) -> bool {
    static_shape(ctx, ty).is_some()
}

/// The numbers of an attribute's text, for the small lists that TOSA's
/// attributes and shape constants hold: `array<i32: 1, 0>`,
/// `dense<[3, 2]> : tensor<2xindex>`, `dense<0.0> : tensor<1xf32>` (a
/// splat is one number), `6.0 : f32`, `2 : i32`. `None` for anything else
/// (a hex blob, a string).
pub fn numbers(text: &str) -> Option<Vec<f64>> {
    let mut splat_count = None;
    let body = if let Some(rest) = text.strip_prefix("array<") {
        let inner = rest.strip_suffix('>')?;
        match inner.split_once(':') {
            Some((_, list)) => list.to_string(),
            None => String::new(),
        }
    } else if let Some(rest) = text.strip_prefix("dense<") {
        let end = rest.rfind("> :").or_else(|| rest.rfind('>'))?;
        // A splat (`dense<0> : tensor<4xindex>`) holds its type's count.
        if !rest[..end].contains('[') {
            splat_count = element_count(&rest[end..]);
        }
        rest[..end].to_string()
    } else {
        text.split(" : ").next()?.to_string()
    };
    if body.starts_with('"') {
        return None;
    }
    let mut out = Vec::new();
    for token in body.split(|c: char| c == ',' || c == '[' || c == ']' || c.is_whitespace()) {
        if token.is_empty() {
            continue;
        }
        let v = match token {
            "true" => 1.0,
            "false" => 0.0,
            t => t.parse::<f64>().ok()?,
        };
        out.push(v);
    }
    if let (Some(n), [one]) = (splat_count, out.as_slice()) {
        out = vec![*one; n];
    }
    Some(out)
}

/// The element count of the tensor type in `text` (`> : tensor<2x4xf32>`).
fn element_count(text: &str) -> Option<usize> {
    let dims = text.split("tensor<").nth(1)?;
    let mut count = 1usize;
    for part in dims.split('x') {
        match part.parse::<usize>() {
            Ok(d) => count = count.checked_mul(d)?,
            Err(_) => break,
        }
    }
    Some(count)
}

fn abbreviate(text: &str) -> String {
    if text.len() > 80 {
        format!(
            "{}...",
            &text[..text.char_indices().nth(77).map_or(text.len(), |(i, _)| i)]
        )
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_attributes() {
        assert_eq!(numbers("array<i32: 1, 0>"), Some(vec![1.0, 0.0]));
        assert_eq!(numbers("array<i64>"), Some(vec![]));
        assert_eq!(
            numbers("dense<[3, 2]> : tensor<2xindex>"),
            Some(vec![3.0, 2.0])
        );
        assert_eq!(
            numbers("dense<0.000000e+00> : tensor<1xf32>"),
            Some(vec![0.0])
        );
        assert_eq!(numbers("dense<0> : tensor<4xindex>"), Some(vec![0.0; 4]));
        assert_eq!(numbers("dense<2> : tensor<f32>"), Some(vec![2.0]));
        assert_eq!(numbers("6.000000e+00 : f32"), Some(vec![6.0]));
        assert_eq!(numbers("2 : i32"), Some(vec![2.0]));
        assert_eq!(numbers("dense<\"0x0000803F\"> : tensor<1xf32>"), None);
    }

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

    #[test]
    fn coverage_lists_every_converted_tosa_op() {
        let (converted, _) = coverage();
        let ours: Vec<&str> = ops()
            .into_iter()
            .filter(|o| o.starts_with("tosa."))
            .collect();
        assert_eq!(converted, ours, "a converted op missing from TOSA_OPS");
        assert_eq!(TOSA_OPS.len(), 94);
    }
}
