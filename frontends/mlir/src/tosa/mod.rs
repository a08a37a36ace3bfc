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

mod conv3d;
mod fft;
mod fuse;
mod resize;
mod rules;
mod table;
mod text;

use std::collections::HashMap;

use melior::ir::attribute::AttributeLike;
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::{Module, RegionLike, ValueLike};
use strata_dialects::graph::emit::Emitter;
use strata_ir::{Attribute, Block, Context, Location, Operation, OperationState, Type, Value};

pub use table::{coverage, ops, TOSA_OPS};
pub use text::numbers;

use crate::upstream::{file_line_col, render_location};
use crate::ImportError;
use text::{abbreviate, is_static};

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
    /// A large constant's value, read from upstream's storage instead of
    /// its text: its type, and its elements' bytes (one element for a
    /// splat).
    raw: Option<(Type, Vec<u8>, bool)>,
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
    if let Some((values, loc)) = importer.import_block(&entry, body)? {
        result_types = values.iter().map(|&v| importer.ctx.value_type(v)).collect();
        let ident = importer.ctx.ident("func.return");
        let mut state = OperationState::new(ident, loc);
        state.operands = values;
        let ret = importer.ctx.create_operation(state);
        importer.ctx.append_op(body, ret);
    }
    fuse::recognize(importer.ctx, body).map_err(|m| err(&name, m))?;
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
    /// Convert the ops of upstream `block` into `target`, in order; what
    /// its terminator (`func.return`, `tosa.yield`) returns, and where,
    /// for the caller to return or yield (or use, inlining the block).
    fn import_block(
        &mut self,
        block: &melior::ir::BlockRef<'_, '_>,
        target: Block,
    ) -> Result<Option<(Vec<Value>, Location)>, ImportError> {
        let outer = std::mem::replace(&mut self.block, target);
        let mut terminator = None;
        let mut op = block.first_operation();
        while let Some(o) = op {
            let node = self.read(&o)?;
            if matches!(node.name.as_str(), "func.return" | "tosa.yield") {
                let values = node
                    .operands
                    .iter()
                    .map(|s| self.tensor(s))
                    .collect::<Res<Vec<Value>>>()
                    .map_err(|m| self.error(&node, m))?;
                terminator = Some((values, node.loc));
            } else {
                let results = match node.name.as_str() {
                    "tosa.cond_if" => self.cond_if(&o, &node)?,
                    "tosa.while_loop" => self.while_loop(&o, &node)?,
                    _ => self.convert(&node).map_err(|m| self.error(&node, m))?,
                };
                self.check_results(&node, &results)?;
                for (r, slot) in o.results().zip(results) {
                    self.values.insert(r.to_raw().ptr as usize, slot);
                }
            }
            op = o.next_in_block();
        }
        self.block = outer;
        Ok(terminator)
    }

    /// The region's block converted into `target` with its arguments
    /// standing for `args`; the values it yields.
    fn inline_region(
        &mut self,
        region: &melior::ir::RegionRef<'_, '_>,
        args: &[Slot],
        target: Block,
        node: &Node,
    ) -> Result<(Vec<Value>, Location), ImportError> {
        let Some(entry) = region.first_block() else {
            return Err(self.error(node, "a region without a block".into()));
        };
        if entry.argument_count() != args.len() {
            return Err(self.error(
                node,
                "a region whose arguments are not the op's inputs".into(),
            ));
        }
        for (i, slot) in args.iter().enumerate() {
            let arg = entry
                .argument(i)
                .map_err(|e| self.error(node, e.to_string()))?;
            self.values.insert(arg.to_raw().ptr as usize, slot.clone());
        }
        self.import_block(&entry, target)?
            .ok_or_else(|| self.error(node, "a region without tosa.yield".into()))
    }

    fn yield_op(&mut self, block: Block, values: Vec<Value>, loc: Location) {
        Emitter::at_end(self.ctx, block, loc).region_op("graph.yield", values, vec![], &[], vec![]);
    }

    /// `tosa.while_loop inputs...` (a condition region and a body region,
    /// both over the carried values) as `graph.loop` with no trip limit:
    /// the condition is computed on the inputs before the loop, and on the
    /// body's results at the end of each iteration.
    fn while_loop(
        &mut self,
        op: &OperationRef<'_, '_>,
        node: &Node,
    ) -> Result<Vec<Slot>, ImportError> {
        let regions: Vec<_> = op.regions().collect();
        let [cond_region, body_region] = &regions[..] else {
            return Err(self.error(node, "expects a condition and a body region".into()));
        };
        let inits = node
            .operands
            .iter()
            .map(|s| self.tensor(s))
            .collect::<Res<Vec<Value>>>()
            .map_err(|m| self.error(node, m))?;
        let here = self.block;
        let (c0, _) = self.inline_region(cond_region, &node.operands, here, node)?;
        let [c0] = c0[..] else {
            return Err(self.error(node, "a condition that is not one value".into()));
        };
        let i64t = self.ctx.integer_type(64);
        let i1 = self.ctx.integer_type(1);
        let iter_ty = self.ctx.tensor_type(vec![], i64t);
        let cond_ty = self.ctx.tensor_type(vec![], i1);
        let body = self.ctx.create_block();
        self.ctx.add_block_argument(body, iter_ty, node.loc);
        self.ctx.add_block_argument(body, cond_ty, node.loc);
        let mut carried = Vec::new();
        for &v in &inits {
            let ty = self.ctx.value_type(v);
            carried.push(Slot::Tensor(
                self.ctx.add_block_argument(body, ty, node.loc),
            ));
        }
        let (next, loc) = self.inline_region(body_region, &carried, body, node)?;
        let next_slots: Vec<Slot> = next.iter().map(|&v| Slot::Tensor(v)).collect();
        let (mut yielded, _) = self.inline_region(cond_region, &next_slots, body, node)?;
        yielded.extend(next);
        self.yield_op(body, yielded, loc);
        let region = self.ctx.create_region();
        self.ctx.append_block(region, body);
        let max = self
            .emit(node.loc)
            .const_i64_scalar(i64::MAX)
            .map_err(|m| self.error(node, m))?;
        let result_types: Vec<Type> = inits.iter().map(|&v| self.ctx.value_type(v)).collect();
        let mut operands = vec![max, c0];
        operands.extend(inits);
        let results =
            self.emit(node.loc)
                .region_op("graph.loop", operands, result_types, &[], vec![region]);
        Ok(results.into_iter().map(Slot::Tensor).collect())
    }

    /// `tosa.cond_if %c, inputs...` with a then and an else region, whose
    /// block arguments are the inputs, as `graph.if %c` (whose regions
    /// read the values they use directly): each region's arguments stand
    /// for the inputs, each `tosa.yield` becomes `graph.yield`.
    fn cond_if(
        &mut self,
        op: &OperationRef<'_, '_>,
        node: &Node,
    ) -> Result<Vec<Slot>, ImportError> {
        let cond = self.operand(node, 0).map_err(|m| self.error(node, m))?;
        let mut regions = Vec::new();
        for region in op.regions() {
            let target = self.ctx.create_block();
            let (values, loc) = self.inline_region(&region, &node.operands[1..], target, node)?;
            self.yield_op(target, values, loc);
            let r = self.ctx.create_region();
            self.ctx.append_block(r, target);
            regions.push(r);
        }
        if regions.len() != 2 {
            return Err(self.error(node, "expects a then and an else region".into()));
        }
        let result_types = node
            .results
            .iter()
            .map(|t| t.ok_or_else(|| self.error(node, "a !tosa.shape result".into())))
            .collect::<Result<Vec<Type>, ImportError>>()?;
        let results =
            self.emit(node.loc)
                .region_op("graph.if", vec![cond], result_types, &[], regions);
        Ok(results.into_iter().map(Slot::Tensor).collect())
    }

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
        let mut attrs = HashMap::new();
        let mut raw = None;
        for (k, v) in op.attributes() {
            let key = k.as_string_ref().as_str().unwrap_or_default().to_string();
            let value = (key == "values" || key == "value")
                .then(|| self.raw_dense(v))
                .flatten();
            match value {
                Some(r) => raw = Some(r),
                None => {
                    attrs.insert(key, v.to_string());
                }
            }
        }
        Ok(Node {
            name,
            location,
            loc,
            operands,
            results,
            attrs,
            raw,
        })
    }

    /// A dense constant of more than 64 elements (not `i1`, whose storage
    /// upstream packs in bits, nor `index` or complex): its bytes as
    /// upstream stores them, which are strata's layout too. Printing and
    /// parsing a large constant's hex text was most of a large model's
    /// import time.
    fn raw_dense(&mut self, attr: melior::ir::Attribute<'_>) -> Option<(Type, Vec<u8>, bool)> {
        let a = attr.to_raw();
        // SAFETY: `a` is a live attribute of the module being read.
        let (dense, count) = unsafe {
            (
                mlir_sys::mlirAttributeIsADenseElements(a),
                mlir_sys::mlirElementsAttrGetNumElements(a),
            )
        };
        if !dense || count <= 64 {
            return None;
        }
        let ty = self.parse_type(&attr.r#type().to_string()).ok()?;
        let elem = self.ctx.type_kind(ty).element_type()?;
        let plain = matches!(
            self.ctx.type_kind(elem),
            strata_ir::TypeKind::Float(_) | strata_ir::TypeKind::Integer { .. }
        ) && !matches!(
            self.ctx.type_kind(elem),
            strata_ir::TypeKind::Integer { width: 1, .. }
        );
        if !plain {
            return None;
        }
        let bytes = strata_ir::attributes::dense_storage_bytes(self.ctx, elem)?;
        // SAFETY: as above; a dense attribute's raw data holds one element
        // for a splat, else `count` of them, `bytes` each.
        unsafe {
            let splat = mlir_sys::mlirDenseElementsAttrIsSplat(a);
            let n = if splat { 1 } else { count as usize };
            let data = mlir_sys::mlirDenseElementsAttrGetRawData(a) as *const u8;
            if data.is_null() {
                return None;
            }
            Some((
                ty,
                std::slice::from_raw_parts(data, n * bytes).to_vec(),
                splat,
            ))
        }
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

    /// The dialect's emitter of `graph` ops, appending to the block being
    /// built.
    fn emit(&mut self, loc: Location) -> Emitter<'_> {
        Emitter::at_end(self.ctx, self.block, loc)
    }

    fn build(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        props: Vec<(&str, Attribute)>,
        loc: Location,
    ) -> Res<Value> {
        self.emit(loc).op1(name, &operands, &props)
    }

    fn build_typed(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        props: Vec<(&str, Attribute)>,
        element: Option<Type>,
        loc: Location,
    ) -> Res<Value> {
        Ok(self.emit(loc).op(name, &operands, &props, 1, element)?[0])
    }

    fn constant(&mut self, value: Attribute, loc: Location) -> Res<Value> {
        self.emit(loc).constant(value)
    }

    fn const_i64(&mut self, values: &[i64], loc: Location) -> Res<Value> {
        self.emit(loc).const_i64(values)
    }

    fn i64_array(&mut self, values: &[i64]) -> Attribute {
        let loc = self.ctx.unknown_loc();
        self.emit(loc).i64_array(values)
    }

    /// `operandSegmentSizes` of an op with several optional operands.
    fn segments(&mut self, sizes: &[i32]) -> Attribute {
        let loc = self.ctx.unknown_loc();
        self.emit(loc).segments(sizes)
    }

    fn reshape(&mut self, x: Value, shape: &[i64], loc: Location) -> Res<Value> {
        let mut e = self.emit(loc);
        let shape = e.const_i64(shape)?;
        e.reshape(x, shape)
    }

    fn transpose(&mut self, x: Value, perm: &[i64], loc: Location) -> Res<Value> {
        self.emit(loc).permute(x, perm)
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
}
