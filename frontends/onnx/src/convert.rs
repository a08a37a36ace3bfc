//! Node-by-node conversion of an ONNX graph into `graph` ops.

use std::collections::{BTreeMap, HashMap, HashSet};

use strata_dialects::graph::infer::{infer_results, result_type};
use strata_dialects::graph::shape::{shape_of, Dim, Shape};
use strata_ir::attributes::AttrKind;
use strata_ir::float::FloatKind;
use strata_ir::types::{Signedness, TypeKind};
use strata_ir::{Attribute, Block, Context, Location, Operation, OperationState, Type, Value};

use crate::proto::{
    attribute_proto::AttributeType, type_proto, AttributeProto, ModelProto, NodeProto,
    ValueInfoProto,
};
use crate::tensor::{dtype_name, element_type, tensor_attr};
use crate::{ConvertError, ImportError};

mod decompose;

/// The ONNX op types (default domain) the importer converts, directly or
/// as a composition of other ops (see `convert/decompose.rs`).
pub const SUPPORTED_OPS: &[&str] = &[
    "Abs",
    "Acosh",
    "Add",
    "And",
    "ArgMax",
    "ArgMin",
    "Asinh",
    "Atanh",
    "Attention",
    "AveragePool",
    "BatchNormalization",
    "BitShift",
    "BitwiseAnd",
    "BitwiseNot",
    "BitwiseOr",
    "BitwiseXor",
    "BlackmanWindow",
    "Cast",
    "CastLike",
    "Ceil",
    "Celu",
    "CenterCropPad",
    "Clip",
    "Concat",
    "Constant",
    "ConstantOfShape",
    "Conv",
    "ConvInteger",
    "ConvTranspose",
    "Cos",
    "Cosh",
    "CumProd",
    "CumSum",
    "DFT",
    "DepthToSpace",
    "DequantizeLinear",
    "Div",
    "Dropout",
    "DynamicQuantizeLinear",
    "Einsum",
    "Elu",
    "Equal",
    "Erf",
    "Exp",
    "Expand",
    "EyeLike",
    "Flatten",
    "Floor",
    "Gather",
    "GatherElements",
    "GatherND",
    "Gelu",
    "Gemm",
    "GlobalAveragePool",
    "GlobalMaxPool",
    "Greater",
    "GreaterOrEqual",
    "GridSample",
    "GroupNormalization",
    "HammingWindow",
    "HannWindow",
    "HardSigmoid",
    "HardSwish",
    "Hardmax",
    "Identity",
    "InstanceNormalization",
    "IsInf",
    "IsNaN",
    "LRN",
    "LayerNormalization",
    "LeakyRelu",
    "Less",
    "LessOrEqual",
    "Log",
    "LogSoftmax",
    "LpNormalization",
    "LpPool",
    "MatMul",
    "MatMulInteger",
    "Max",
    "MaxPool",
    "Mean",
    "MeanVarianceNormalization",
    "Min",
    "Mish",
    "Mod",
    "Mul",
    "Neg",
    "NegativeLogLikelihoodLoss",
    "NonMaxSuppression",
    "Not",
    "OneHot",
    "Or",
    "PRelu",
    "Pad",
    "Pow",
    "QLinearConv",
    "QLinearMatMul",
    "QuantizeLinear",
    "RMSNormalization",
    "Range",
    "Reciprocal",
    "ReduceL1",
    "ReduceL2",
    "ReduceLogSum",
    "ReduceLogSumExp",
    "ReduceMax",
    "ReduceMean",
    "ReduceMin",
    "ReduceProd",
    "ReduceSum",
    "ReduceSumSquare",
    "Relu",
    "Reshape",
    "Resize",
    "RotaryEmbedding",
    "Round",
    "STFT",
    "Scatter",
    "ScatterElements",
    "ScatterND",
    "Selu",
    "Shape",
    "Shrink",
    "Sigmoid",
    "Sign",
    "Sin",
    "Sinh",
    "Size",
    "Slice",
    "Softmax",
    "SoftmaxCrossEntropyLoss",
    "Softplus",
    "Softsign",
    "SpaceToDepth",
    "Split",
    "Sqrt",
    "Squeeze",
    "Sub",
    "Sum",
    "Swish",
    "Tan",
    "Tanh",
    "ThresholdedRelu",
    "Tile",
    "TopK",
    "Transpose",
    "Trilu",
    "Unsqueeze",
    "Upsample",
    "Where",
    "Xor",
];

pub(crate) struct Importer<'c> {
    ctx: &'c mut Context,
    file: String,
    values: HashMap<String, Value>,
    block: Option<Block>,
    opset: i64,
    /// The opset version imported for each domain.
    domains: HashMap<String, i64>,
}

type Res<T> = Result<T, ConvertError>;

impl<'c> Importer<'c> {
    pub(crate) fn new(ctx: &'c mut Context, file: &str) -> Self {
        Importer {
            ctx,
            file: file.to_string(),
            values: HashMap::new(),
            block: None,
            opset: 0,
            domains: HashMap::new(),
        }
    }

    fn invalid(&self, node: Option<&str>, message: impl Into<String>) -> ImportError {
        ImportError::Invalid {
            file: self.file.clone(),
            node: node.map(str::to_string),
            message: message.into(),
        }
    }

    /// `error` located in this file (and at `node`), of the same kind.
    fn located(&self, node: Option<&str>, error: ConvertError) -> ImportError {
        let (file, node) = (self.file.clone(), node.map(str::to_string));
        match error {
            ConvertError::Invalid(message) => ImportError::Invalid {
                file,
                node,
                message,
            },
            ConvertError::NotSupported(message) => ImportError::NotSupported {
                file,
                node,
                message,
            },
        }
    }

    pub(crate) fn import(mut self, model: &ModelProto) -> Result<Operation, ImportError> {
        self.opset = model
            .opset_import
            .iter()
            .find(|o| o.domain().is_empty() || o.domain() == "ai.onnx")
            .map(|o| o.version())
            .ok_or_else(|| {
                self.invalid(
                    None,
                    "the model imports no version of the default ONNX domain",
                )
            })?;
        self.domains = model
            .opset_import
            .iter()
            .map(|o| (o.domain().to_string(), o.version()))
            .collect();
        let graph = model
            .graph
            .as_ref()
            .ok_or_else(|| self.invalid(None, "the model has no graph"))?;
        if !model.functions.is_empty() {
            let names: Vec<&str> = model.functions.iter().map(|f| f.name()).collect();
            return Err(self.located(
                None,
                ConvertError::unsupported(format!(
                    "model-local functions are not supported: {}",
                    names.join(", ")
                )),
            ));
        }

        // Every unsupported op type, before converting anything.
        let mut unsupported: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (i, node) in graph.node.iter().enumerate() {
            let default_domain = node.domain().is_empty() || node.domain() == "ai.onnx";
            if !default_domain && self.custom_version(model, node).is_some() {
                continue;
            }
            if !default_domain || !SUPPORTED_OPS.contains(&node.op_type()) {
                let key = if default_domain {
                    node.op_type().to_string()
                } else {
                    format!("{}:{}", node.domain(), node.op_type())
                };
                unsupported
                    .entry(key)
                    .or_default()
                    .push(node_label(node, i));
            }
        }
        if !unsupported.is_empty() {
            return Err(ImportError::Unsupported {
                file: self.file.clone(),
                ops: unsupported,
            });
        }

        let file_loc = self.ctx.file_line_col_loc(&self.file, 0, 0);
        let region = self.ctx.create_region();
        let body = self.ctx.create_block();
        self.ctx.append_block(region, body);
        self.block = Some(body);

        // Arguments: the inputs that are not initializers.
        let initializers: HashSet<&str> = graph.initializer.iter().map(|t| t.name()).collect();
        let mut arg_types = Vec::new();
        let mut arg_names = Vec::new();
        for input in graph
            .input
            .iter()
            .filter(|i| !initializers.contains(i.name()))
        {
            let ty = self.value_info_type(input).map_err(|e| {
                let e = e.map_message(|m| format!("input '{}': {m}", input.name()));
                self.located(None, e)
            })?;
            let loc = self.ctx.name_loc(input.name(), Some(file_loc));
            let arg = self.ctx.add_block_argument(body, ty, loc);
            self.values.insert(input.name().to_string(), arg);
            arg_types.push(ty);
            arg_names.push(input.name().to_string());
        }
        for init in &graph.initializer {
            let attr = tensor_attr(self.ctx, init).map_err(|e| self.located(None, e))?;
            let loc = self.ctx.name_loc(init.name(), Some(file_loc));
            let v = self.constant(attr, loc).map_err(|e| {
                let e = e.map_message(|m| format!("initializer '{}': {m}", init.name()));
                self.located(None, e)
            })?;
            self.values.insert(init.name().to_string(), v);
        }
        for (i, node) in graph.node.iter().enumerate() {
            let label = node_label(node, i);
            let loc_name = if node.name().is_empty() {
                label.clone()
            } else {
                node.name().to_string()
            };
            let loc = self.ctx.name_loc(&loc_name, Some(file_loc));
            let results = self.convert(node, loc).map_err(|e| {
                let e = e.map_message(|m| format!("{} {m}", node.op_type()));
                self.located(Some(&label), e)
            })?;
            for (name, value) in node.output.iter().zip(results) {
                if !name.is_empty() {
                    self.values.insert(name.clone(), value);
                }
            }
        }

        // Outputs, refined with the types the model declares for them.
        let mut outputs = Vec::new();
        let mut result_names = Vec::new();
        for out in &graph.output {
            let v = *self.values.get(out.name()).ok_or_else(|| {
                self.invalid(
                    None,
                    format!("output '{}' is not computed by any node", out.name()),
                )
            })?;
            if let Ok(declared) = self.value_info_type(out) {
                self.refine_value(v, declared);
            }
            outputs.push(v);
            result_names.push(out.name().to_string());
        }
        let result_types: Vec<Type> = outputs.iter().map(|&v| self.ctx.value_type(v)).collect();
        let ret_loc = self.ctx.name_loc("return", Some(file_loc));
        let ret = self.create("func.return", outputs, vec![], vec![], ret_loc);
        self.ctx.append_op(body, ret);

        let fn_type = self.ctx.function_type(arg_types, result_types);
        let arg_attrs = self.name_attrs(&arg_names);
        let res_attrs = self.name_attrs(&result_names);
        let mut props = vec![
            ("sym_name", self.ctx.string_attr("main")),
            ("function_type", self.ctx.type_attr(fn_type)),
        ];
        if !arg_names.is_empty() {
            props.push(("arg_attrs", arg_attrs));
        }
        if !result_names.is_empty() {
            props.push(("res_attrs", res_attrs));
        }
        let func = self.create_with_regions("func.func", props, vec![region], file_loc);

        let module_region = self.ctx.create_region();
        let module_block = self.ctx.create_block();
        self.ctx.append_block(module_region, module_block);
        self.ctx.append_op(module_block, func);
        let module =
            self.create_with_regions("builtin.module", vec![], vec![module_region], file_loc);
        Ok(module)
    }

    fn name_attrs(&mut self, names: &[String]) -> Attribute {
        let key = self.ctx.ident("onnx.name");
        let dicts: Vec<Attribute> = names
            .iter()
            .map(|n| {
                let s = self.ctx.string_attr(n);
                self.ctx.dictionary_attr(vec![(key, s)])
            })
            .collect();
        self.ctx.array_attr(dicts)
    }

    /// The tensor type of a graph input or output.
    fn value_info_type(&mut self, info: &ValueInfoProto) -> Res<Type> {
        let Some(type_proto::Value::TensorType(t)) =
            info.r#type.as_ref().and_then(|t| t.value.as_ref())
        else {
            return Err(ConvertError::unsupported(
                "non-tensor inputs and outputs (sequences, maps, optionals) are not supported",
            ));
        };
        let elem = element_type(self.ctx, t.elem_type()).ok_or_else(|| {
            ConvertError::unsupported(format!(
                "element type {} is not supported",
                dtype_name(t.elem_type())
            ))
        })?;
        let shape =
            match &t.shape {
                None => Shape::unranked(),
                Some(s) => Shape::ranked(
                    s.dim
                        .iter()
                        .map(|d| match &d.value {
                            Some(crate::proto::tensor_shape_proto::dimension::Value::DimValue(
                                v,
                            )) if *v >= 0 => Dim::Known(*v),
                            Some(crate::proto::tensor_shape_proto::dimension::Value::DimParam(
                                p,
                            )) if !p.is_empty() => Dim::sym(&symbol_name(p)),
                            _ => Dim::Unknown,
                        })
                        .collect(),
                ),
            };
        Ok(strata_dialects::graph::shape::tensor_type(
            self.ctx, &shape, elem,
        ))
    }

    /// Gives `v` the more precise of its type and `declared`; a function
    /// argument keeps its type (the function's signature fixes it).
    fn refine_value(&mut self, v: Value, declared: Type) {
        if self.ctx.defining_op(v).is_none() {
            return;
        }
        let current = self.ctx.value_type(v);
        let (Some((have, elem)), Some((want, welem))) =
            (shape_of(self.ctx, current), shape_of(self.ctx, declared))
        else {
            return;
        };
        if elem != welem {
            return;
        }
        if let Ok(refined) = strata_dialects::graph::infer::refine(&want, &have) {
            let ty = strata_dialects::graph::shape::tensor_type(self.ctx, &refined, elem);
            self.ctx.set_value_type(v, ty);
        }
    }

    fn create(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        result_types: Vec<Type>,
        props: Vec<(&str, Attribute)>,
        loc: Location,
    ) -> Operation {
        let ident = self.ctx.ident(name);
        let mut state = OperationState::new(ident, loc);
        state.operands = operands;
        state.result_types = result_types;
        self.set_props(&mut state, name, props);
        self.ctx.create_operation(state)
    }

    fn create_with_regions(
        &mut self,
        name: &str,
        props: Vec<(&str, Attribute)>,
        regions: Vec<strata_ir::Region>,
        loc: Location,
    ) -> Operation {
        let ident = self.ctx.ident(name);
        let mut state = OperationState::new(ident, loc);
        state.regions = regions;
        self.set_props(&mut state, name, props);
        self.ctx.create_operation(state)
    }

    fn set_props(&mut self, state: &mut OperationState, name: &str, props: Vec<(&str, Attribute)>) {
        if !props.is_empty() {
            let entries = props
                .into_iter()
                .map(|(k, v)| (self.ctx.ident(k), v))
                .collect();
            state.properties = Some(self.ctx.dictionary_attr(entries));
        }
        if let Some(spec) = self.ctx.registry().op_spec(name) {
            strata_ir::ods::fill_default_properties(self.ctx, spec, state);
        }
    }

    /// Creates a `graph` op at the end of the body with inferred result
    /// types (`hint` gives the element type where the op declares it).
    fn op(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        props: Vec<(&str, Attribute)>,
        num_results: usize,
        hint: Option<Type>,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let placeholder = match hint {
            Some(t) => t,
            None => {
                let f32 = self.ctx.float_type(FloatKind::F32);
                self.ctx
                    .intern_type(TypeKind::UnrankedTensor { element: f32 })
            }
        };
        let op = self.create(name, operands, vec![placeholder; num_results], props, loc);
        if let Some(block) = self.block {
            self.ctx.append_op(block, op);
        }
        let inferred = infer_results(self.ctx, op)
            .unwrap_or_else(|| Err("has operands that are not tensors".into()))?;
        let results: Vec<Value> = self.ctx.results(op).collect();
        if inferred.len() != results.len() {
            return Err(format!(
                "infers {} results, expected {}",
                inferred.len(),
                results.len()
            )
            .into());
        }
        for (r, inf) in results.iter().zip(&inferred) {
            let declared = self.ctx.value_type(*r);
            let ty = result_type(self.ctx, inf, declared);
            self.ctx.set_value_type(*r, ty);
        }
        Ok(results)
    }

    fn op1(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        props: Vec<(&str, Attribute)>,
        loc: Location,
    ) -> Res<Value> {
        self.op(name, operands, props, 1, None, loc).map(|r| r[0])
    }

    fn constant(&mut self, value: Attribute, loc: Location) -> Res<Value> {
        self.op1("graph.constant", vec![], vec![("value", value)], loc)
    }

    fn const_i64(&mut self, values: &[i64], loc: Location) -> Res<Value> {
        let i64t = self.ctx.integer_type(64);
        let ty = self.ctx.tensor_type(vec![values.len() as i64], i64t);
        let raw = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let attr = self
            .ctx
            .dense_elements_attr(ty, raw)
            .ok_or("could not build a constant")?;
        self.constant(attr, loc)
    }

    fn input(&self, node: &NodeProto, i: usize) -> Res<Option<Value>> {
        match node.input.get(i) {
            None => Ok(None),
            Some(n) if n.is_empty() => Ok(None),
            Some(n) => self
                .values
                .get(n)
                .copied()
                .map(Some)
                .ok_or_else(|| format!("uses '{n}', which no node or input defines").into()),
        }
    }

    fn req(&self, node: &NodeProto, i: usize) -> Res<Value> {
        self.input(node, i)?
            .ok_or_else(|| format!("requires input #{i}").into())
    }

    fn elem(&self, v: Value) -> Option<Type> {
        shape_of(self.ctx, self.ctx.value_type(v)).map(|(_, e)| e)
    }

    fn i64_attr(&mut self, v: i64) -> Attribute {
        let t = self.ctx.integer_type(64);
        self.ctx.integer_attr(t, i128::from(v))
    }

    fn f64_attr(&mut self, v: f64) -> Attribute {
        let t = self.ctx.float_type(FloatKind::F64);
        self.ctx.float_attr(t, v)
    }

    fn bool_attr(&mut self, v: bool) -> Attribute {
        self.ctx.bool_attr(v)
    }

    fn i64_array(&mut self, v: &[i64]) -> Attribute {
        let element = self.ctx.integer_type(64);
        self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: v.iter().map(|&x| x as u64).collect(),
        })
    }

    fn segments(&mut self, sizes: &[i32]) -> Attribute {
        let element = self.ctx.integer_type(32);
        self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: sizes.iter().map(|&x| x as u32 as u64).collect(),
        })
    }

    /// A `Constant` node's value.
    fn constant_value(&mut self, node: &NodeProto) -> Res<Attribute> {
        let attr = node.attribute.first().ok_or("has no value attribute")?;
        if node.attribute.len() != 1 {
            return Err("must have exactly one value attribute".into());
        }
        let f32t = self.ctx.float_type(FloatKind::F32);
        let i64t = self.ctx.integer_type(64);
        let (ty, raw): (Type, Vec<u8>) = match attr.name() {
            "value" => {
                return tensor_attr(self.ctx, attr.t.as_ref().ok_or("'value' holds no tensor")?)
            }
            "value_float" => (
                self.ctx.tensor_type(vec![], f32t),
                attr.f().to_le_bytes().to_vec(),
            ),
            "value_floats" => (
                self.ctx.tensor_type(vec![attr.floats.len() as i64], f32t),
                attr.floats.iter().flat_map(|v| v.to_le_bytes()).collect(),
            ),
            "value_int" => (
                self.ctx.tensor_type(vec![], i64t),
                attr.i().to_le_bytes().to_vec(),
            ),
            "value_ints" => (
                self.ctx.tensor_type(vec![attr.ints.len() as i64], i64t),
                attr.ints.iter().flat_map(|v| v.to_le_bytes()).collect(),
            ),
            other => {
                return Err(ConvertError::unsupported(format!(
                    "attribute '{other}' is not supported"
                )))
            }
        };
        self.ctx
            .dense_elements_attr(ty, raw)
            .ok_or_else(|| "could not build the constant".into())
    }

    /// The version of the registered custom op a node of a non-default
    /// domain names (`domain.OpType`, at the domain's imported opset), if
    /// one is registered.
    fn custom_version(&self, model: &ModelProto, node: &NodeProto) -> Option<i64> {
        let version = model
            .opset_import
            .iter()
            .find(|o| o.domain() == node.domain())
            .map_or(1, |o| o.version());
        let name = format!("{}.{}", node.domain(), node.op_type());
        self.ctx
            .registry()
            .extension::<strata_dialects::graph::custom::CustomOpRegistry>()
            .and_then(|r| r.get(&name, version))
            .map(|_| version)
    }

    /// A node of a registered custom op: `graph.custom` with the node's
    /// attributes as its `config` dictionary.
    fn convert_custom(&mut self, node: &NodeProto, loc: Location) -> Res<Vec<Value>> {
        let name = format!("{}.{}", node.domain(), node.op_type());
        let version = self.domains.get(node.domain()).copied().unwrap_or(1);
        let operands = (0..node.input.len())
            .map(|i| self.req(node, i))
            .collect::<Res<Vec<_>>>()?;
        let mut entries = Vec::new();
        for attr in &node.attribute {
            let value = match AttributeType::try_from(attr.r#type.unwrap_or(0)) {
                Ok(AttributeType::Int) => self.i64_attr(attr.i()),
                Ok(AttributeType::Float) => self.f64_attr(f64::from(attr.f())),
                Ok(AttributeType::String) => {
                    let text = String::from_utf8_lossy(attr.s()).into_owned();
                    self.ctx.string_attr(&text)
                }
                Ok(AttributeType::Ints) => self.i64_array(&attr.ints),
                Ok(AttributeType::Tensor) => tensor_attr(
                    self.ctx,
                    attr.t.as_ref().ok_or("tensor attribute without a tensor")?,
                )?,
                _ => {
                    return Err(format!(
                        "attribute '{}' has a type custom ops do not support",
                        attr.name()
                    )
                    .into())
                }
            };
            entries.push((self.ctx.ident(attr.name()), value));
        }
        let mut props = vec![
            ("name", self.ctx.string_attr(&name)),
            ("version", self.i64_attr(version)),
        ];
        if !entries.is_empty() {
            props.push(("config", self.ctx.dictionary_attr(entries)));
        }
        let n = node.output.len();
        self.op("graph.custom", operands, props, n, None, loc)
    }

    fn convert(&mut self, node: &NodeProto, loc: Location) -> Res<Vec<Value>> {
        if !(node.domain().is_empty() || node.domain() == "ai.onnx") {
            return self.convert_custom(node, loc);
        }
        let since = min_opset(node.op_type());
        if self.opset < since {
            return Err(ConvertError::unsupported(format!(
                "at opset {} is not supported: strata implements its version of opset {since} and later",
                self.opset
            )));
        }
        let a = Attrs(&node.attribute);
        let one = |r: Res<Value>| r.map(|v| vec![v]);
        let op = node.op_type();
        if decompose::DECOMPOSED_OPS.contains(&op) {
            return self.convert_decomposed(node, &a, loc);
        }
        let binary = |name: &str| -> Option<&'static str> {
            Some(match name {
                "Add" | "Sum" => "graph.add",
                "Sub" => "graph.sub",
                "Mul" => "graph.mul",
                "Div" => "graph.div",
                "Pow" => "graph.pow",
                "Max" => "graph.max",
                "Min" => "graph.min",
                "And" | "BitwiseAnd" => "graph.and",
                "Or" | "BitwiseOr" => "graph.or",
                "Xor" | "BitwiseXor" => "graph.xor",
                "Equal" => "graph.equal",
                "Less" => "graph.less",
                "LessOrEqual" => "graph.less_equal",
                "Greater" => "graph.greater",
                "GreaterOrEqual" => "graph.greater_equal",
                _ => return None,
            })
        };
        let unary = |name: &str| -> Option<&'static str> {
            Some(match name {
                "Neg" => "graph.neg",
                "Abs" => "graph.abs",
                "Sign" => "graph.sign",
                "Sqrt" => "graph.sqrt",
                "Reciprocal" => "graph.reciprocal",
                "Exp" => "graph.exp",
                "Log" => "graph.log",
                "Erf" => "graph.erf",
                "Tanh" => "graph.tanh",
                "Sin" => "graph.sin",
                "Cos" => "graph.cos",
                "Floor" => "graph.floor",
                "Round" => "graph.round",
                "Ceil" => "graph.ceil",
                "Sigmoid" => "graph.sigmoid",
                "Relu" => "graph.relu",
                "Softplus" => "graph.softplus",
                "Not" | "BitwiseNot" => "graph.not",
                _ => return None,
            })
        };
        if let Some(name) = binary(op) {
            if matches!(op, "Max" | "Min" | "Sum") {
                // Variadic in ONNX: a chain of binary ops.
                let mut acc = self.req(node, 0)?;
                for i in 1..node.input.len() {
                    let next = self.req(node, i)?;
                    acc = self.op1(name, vec![acc, next], vec![], loc)?;
                }
                return Ok(vec![acc]);
            }
            let (l, mut r) = (self.req(node, 0)?, self.req(node, 1)?);
            if op == "Pow" && self.elem(l) != self.elem(r) {
                // ONNX lets the exponent have its own type: convert it to the base's.
                let elem = self.elem(l).ok_or("operand is not a tensor")?;
                let hint = self
                    .ctx
                    .intern_type(TypeKind::UnrankedTensor { element: elem });
                r = self.op("graph.cast", vec![r], vec![], 1, Some(hint), loc)?[0];
            }
            return one(self.op1(name, vec![l, r], vec![], loc));
        }
        if let Some(name) = unary(op) {
            let x = self.req(node, 0)?;
            return one(self.op1(name, vec![x], vec![], loc));
        }
        match op {
            "Identity" => Ok(vec![self.req(node, 0)?]),
            "Dropout" => {
                let x = self.req(node, 0)?;
                let with_mask = node.output.get(1).is_some_and(|o| !o.is_empty());
                // training_mode: absent or a constant false is inference (the
                // identity); a constant true or a run-time value needs the op.
                let training = self.input(node, 2)?;
                let constant = training.map(|t| {
                    self.const_int(t)
                        .map(|v| v.first().copied().unwrap_or(0) != 0)
                });
                if matches!(constant, Some(Some(true) | None)) {
                    let ratio = match self.input(node, 1)? {
                        Some(r) => r,
                        None => {
                            let f32 = self.ctx.float_type(FloatKind::F32);
                            self.scalar(f32, 0.5, loc)?
                        }
                    };
                    // Without a seed (ONNX: "auto-generated"), each node gets its
                    // own, derived from its first output's name, so two dropouts
                    // neither share a mask nor fold into one.
                    let first = node.output.first().map_or("", String::as_str);
                    let seed = a.int("seed").unwrap_or_else(|| name_seed(first));
                    let props = vec![("seed", self.i64_attr(seed))];
                    let mut operands = vec![x, ratio];
                    if constant == Some(None) {
                        operands.extend(training);
                    }
                    let results = if with_mask { 2 } else { 1 };
                    return self.op("graph.dropout", operands, props, results, None, loc);
                }
                if !with_mask {
                    return Ok(vec![x]);
                }
                // In inference the mask keeps everything: all true, shaped as x.
                let shape = self.op1("graph.shape_of", vec![x], vec![], loc)?;
                let i1 = self.ctx.integer_type(1);
                let ty = self.ctx.tensor_type(vec![1], i1);
                let one = self
                    .ctx
                    .dense_elements_attr(ty, vec![1])
                    .ok_or("could not build the mask")?;
                let mask = self.op1(
                    "graph.constant_of_shape",
                    vec![shape],
                    vec![("value", one)],
                    loc,
                )?;
                Ok(vec![x, mask])
            }
            "Mean" => {
                let n = node.input.len();
                let mut acc = self.req(node, 0)?;
                for i in 1..n {
                    let next = self.req(node, i)?;
                    acc = self.op1("graph.add", vec![acc, next], vec![], loc)?;
                }
                if n > 1 {
                    let elem = self.elem(acc).ok_or("operand is not a tensor")?;
                    let ty = self.ctx.tensor_type(vec![], elem);
                    let count = scalar_attr(self.ctx, ty, n as f64).ok_or_else(|| {
                        ConvertError::unsupported("Mean of non-float tensors is not supported")
                    })?;
                    let c = self.constant(count, loc)?;
                    acc = self.op1("graph.div", vec![acc, c], vec![], loc)?;
                }
                Ok(vec![acc])
            }
            "Mod" => {
                let (l, r) = (self.req(node, 0)?, self.req(node, 1)?);
                let fmod = a.int("fmod").unwrap_or(0) != 0;
                let is_float = self
                    .elem(l)
                    .is_some_and(|e| self.ctx.float_kind(e).is_some());
                if is_float && !fmod {
                    return Err("on floats requires fmod=1".into());
                }
                let fmod = self.bool_attr(fmod);
                one(self.op1("graph.mod", vec![l, r], vec![("fmod", fmod)], loc))
            }
            "Gelu" => {
                let x = self.req(node, 0)?;
                let approx = a.string("approximate").unwrap_or_else(|| "none".into());
                let s = self.ctx.string_attr(&approx);
                one(self.op1("graph.gelu", vec![x], vec![("approximate", s)], loc))
            }
            "LeakyRelu" | "Elu" => {
                let x = self.req(node, 0)?;
                let default = if op == "Elu" { 1.0 } else { 0.01 };
                let alpha = self.f64_attr(f64::from(a.float("alpha").unwrap_or(default)));
                let name = if op == "Elu" {
                    "graph.elu"
                } else {
                    "graph.leaky_relu"
                };
                one(self.op1(name, vec![x], vec![("alpha", alpha)], loc))
            }
            "HardSigmoid" => {
                let x = self.req(node, 0)?;
                let alpha = self.f64_attr(f64::from(a.float("alpha").unwrap_or(0.2)));
                let beta = self.f64_attr(f64::from(a.float("beta").unwrap_or(0.5)));
                one(self.op1(
                    "graph.hard_sigmoid",
                    vec![x],
                    vec![("alpha", alpha), ("beta", beta)],
                    loc,
                ))
            }
            "Clip" => {
                let x = self.req(node, 0)?;
                let (lo, hi) = (self.input(node, 1)?, self.input(node, 2)?);
                let seg = self.segments(&[1, i32::from(lo.is_some()), i32::from(hi.is_some())]);
                let operands = std::iter::once(x).chain(lo).chain(hi).collect();
                one(self.op1(
                    "graph.clip",
                    operands,
                    vec![("operandSegmentSizes", seg)],
                    loc,
                ))
            }
            "Cast" | "CastLike" => {
                let x = self.req(node, 0)?;
                let elem = if op == "Cast" {
                    let to = a.int("to").ok_or("requires 'to'")?;
                    element_type(self.ctx, to as i32).ok_or_else(|| {
                        ConvertError::unsupported(format!(
                            "to {} is not supported",
                            dtype_name(to as i32)
                        ))
                    })?
                } else {
                    let like = self.req(node, 1)?;
                    self.elem(like).ok_or("operand is not a tensor")?
                };
                let hint = self
                    .ctx
                    .intern_type(TypeKind::UnrankedTensor { element: elem });
                self.op("graph.cast", vec![x], vec![], 1, Some(hint), loc)
            }
            "Where" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?, self.req(node, 2)?];
                one(self.op1("graph.where", ops, vec![], loc))
            }
            "MatMul" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                one(self.op1("graph.matmul", ops, vec![], loc))
            }
            "Gemm" => {
                let mut ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                ops.extend(self.input(node, 2)?);
                let props = vec![
                    (
                        "alpha",
                        self.f64_attr(f64::from(a.float("alpha").unwrap_or(1.0))),
                    ),
                    (
                        "beta",
                        self.f64_attr(f64::from(a.float("beta").unwrap_or(1.0))),
                    ),
                    ("transA", self.bool_attr(a.int("transA").unwrap_or(0) != 0)),
                    ("transB", self.bool_attr(a.int("transB").unwrap_or(0) != 0)),
                ];
                one(self.op1("graph.gemm", ops, props, loc))
            }
            "LpPool" => {
                // (sum |x|^p)^(1/p) over each window: an AveragePool of
                // |x|^p that counts padding, times the window size.
                let x = self.req(node, 0)?;
                let p = a.int("p").unwrap_or(2);
                if p < 1 {
                    return Err(format!("p = {p} must be at least 1").into());
                }
                let kernel = a.ints("kernel_shape").ok_or("requires 'kernel_shape'")?;
                let window = kernel
                    .iter()
                    .try_fold(1i64, |acc, &k| acc.checked_mul(k).filter(|_| k > 0))
                    .ok_or("needs positive kernel sizes")?;
                let elem = self.elem(x).ok_or("operand is not a tensor")?;
                let abs = self.op1("graph.abs", vec![x], vec![], loc)?;
                let exponent = self.scalar(elem, p as f64, loc)?;
                let powered = self.op1("graph.pow", vec![abs, exponent], vec![], loc)?;
                let mut pooled = node.clone();
                pooled.op_type = Some("AveragePool".into());
                let name = format!("{}#lp#{}", node.input[0], self.values.len());
                self.values.insert(name.clone(), powered);
                pooled.input[0] = name;
                pooled.attribute.retain(|attr| attr.name() != "p");
                pooled.attribute.push(crate::proto::AttributeProto {
                    name: Some("count_include_pad".into()),
                    r#type: Some(AttributeType::Int as i32),
                    i: Some(1),
                    ..Default::default()
                });
                let avg = self.convert(&pooled, loc)?;
                let avg = *avg.first().ok_or("pooling gave no result")?;
                let count = self.scalar(elem, window as f64, loc)?;
                let sum = self.op1("graph.mul", vec![avg, count], vec![], loc)?;
                let root = self.scalar(elem, 1.0 / p as f64, loc)?;
                one(self.op1("graph.pow", vec![sum, root], vec![], loc))
            }
            "Conv" | "MaxPool" | "AveragePool" => {
                let rank = self.req(node, 0).ok().and_then(|x| {
                    shape_of(self.ctx, self.ctx.value_type(x)).and_then(|(s, _)| s.rank())
                });
                match rank {
                    Some(3) => self.convert_1d(node, loc, Self::convert_window),
                    Some(5) if node.op_type() != "Conv" => self.convert_pool_3d(node, &a, loc),
                    _ => self.convert_window(node, &a, loc),
                }
            }
            "GlobalAveragePool" | "GlobalMaxPool" => {
                let x = self.req(node, 0)?;
                let name = if op == "GlobalMaxPool" {
                    "graph.global_max_pool"
                } else {
                    "graph.global_avg_pool"
                };
                one(self.op1(name, vec![x], vec![], loc))
            }
            "Softmax" | "LogSoftmax" => {
                let x = self.req(node, 0)?;
                let axis = self.i64_attr(a.int("axis").unwrap_or(-1));
                let name = if op == "Softmax" {
                    "graph.softmax"
                } else {
                    "graph.log_softmax"
                };
                one(self.op1(name, vec![x], vec![("axis", axis)], loc))
            }
            "LayerNormalization" | "RMSNormalization" => {
                let extra = node.output.iter().skip(1).any(|o| !o.is_empty());
                if extra && op == "RMSNormalization" {
                    return Err(ConvertError::unsupported(
                        "with more than one output is not supported",
                    ));
                }
                let mut ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                let name = if op == "LayerNormalization" {
                    ops.extend(self.input(node, 2)?);
                    "graph.layer_norm"
                } else {
                    "graph.rms_norm"
                };
                let props = vec![
                    ("axis", self.i64_attr(a.int("axis").unwrap_or(-1))),
                    (
                        "epsilon",
                        self.f64_attr(f64::from(a.float("epsilon").unwrap_or(1e-5))),
                    ),
                ];
                let x = ops[0];
                let y = self.op1(name, ops, props, loc)?;
                if !extra {
                    return Ok(vec![y]);
                }
                let (mean, inv_std) = self.layer_norm_stats(&a, x, loc)?;
                Ok(vec![y, mean, inv_std])
            }
            "BatchNormalization" => {
                let mut ops = (0..5).map(|i| self.req(node, i)).collect::<Res<Vec<_>>>()?;
                let eps = self.f64_attr(f64::from(a.float("epsilon").unwrap_or(1e-5)));
                if a.int("training_mode").unwrap_or(0) == 0 {
                    if node.output.iter().skip(1).any(|o| !o.is_empty()) {
                        return Err("outside training mode has one output".into());
                    }
                    return one(self.op1("graph.batch_norm", ops, vec![("epsilon", eps)], loc));
                }
                // Training mode: normalize with the batch's statistics (over
                // every axis but the channels; the variance is the
                // population one) and update the running ones.
                let x = ops[0];
                let rank = self
                    .dims_of(x)
                    .map(|d| d.len())
                    .ok_or("needs a ranked input")?;
                if rank < 2 {
                    return Err("needs an input of rank 2 or more".into());
                }
                let elem = self.elem(x).ok_or("operand is not a tensor")?;
                let axes: Vec<i64> = std::iter::once(0).chain(2..rank as i64).collect();
                let axes = self.const_i64(&axes, loc)?;
                let keep = vec![("keepdims", self.bool_attr(true))];
                let drop = vec![("keepdims", self.bool_attr(false))];
                let mean_k = self.op1("graph.reduce_mean", vec![x, axes], keep.clone(), loc)?;
                let centered = self.op1("graph.sub", vec![x, mean_k], vec![], loc)?;
                let squared = self.op1("graph.mul", vec![centered, centered], vec![], loc)?;
                let mean = self.op1("graph.reduce_mean", vec![x, axes], drop.clone(), loc)?;
                let var = self.op1("graph.reduce_mean", vec![squared, axes], drop, loc)?;
                let (running_mean, running_var) = (ops[3], ops[4]);
                ops[3] = mean;
                ops[4] = var;
                let y = self.op1("graph.batch_norm", ops, vec![("epsilon", eps)], loc)?;
                let momentum = f64::from(a.float("momentum").unwrap_or(0.9));
                let m = self.scalar(elem, momentum, loc)?;
                let one_minus = self.scalar(elem, 1.0 - momentum, loc)?;
                let mut blend = |old: Value, new: Value| -> Res<Value> {
                    let a = self.op1("graph.mul", vec![old, m], vec![], loc)?;
                    let b = self.op1("graph.mul", vec![new, one_minus], vec![], loc)?;
                    self.op1("graph.add", vec![a, b], vec![], loc)
                };
                let new_mean = blend(running_mean, mean)?;
                let new_var = blend(running_var, var)?;
                Ok(vec![y, new_mean, new_var])
            }
            "ReduceSum" | "ReduceMean" | "ReduceMax" | "ReduceMin" | "ReduceProd"
            | "ReduceSumSquare" | "ReduceL1" | "ReduceL2" | "ReduceLogSumExp" => {
                let name = match op {
                    "ReduceSum" => "graph.reduce_sum",
                    "ReduceMean" => "graph.reduce_mean",
                    "ReduceMax" => "graph.reduce_max",
                    "ReduceMin" => "graph.reduce_min",
                    "ReduceProd" => "graph.reduce_prod",
                    "ReduceSumSquare" => "graph.reduce_sum_square",
                    "ReduceL1" => "graph.reduce_l1",
                    "ReduceL2" => "graph.reduce_l2",
                    _ => "graph.reduce_log_sum_exp",
                };
                let x = self.req(node, 0)?;
                // Axes became an input in opset 13 (ReduceSum) or 18 (the others).
                let axes = match a.ints("axes") {
                    Some(v) => Some(self.const_i64(&v, loc)?),
                    None => self.input(node, 1)?,
                };
                let props = vec![
                    (
                        "keepdims",
                        self.bool_attr(a.int("keepdims").unwrap_or(1) != 0),
                    ),
                    (
                        "noop_with_empty_axes",
                        self.bool_attr(a.int("noop_with_empty_axes").unwrap_or(0) != 0),
                    ),
                ];
                one(self.op1(name, std::iter::once(x).chain(axes).collect(), props, loc))
            }
            "ArgMax" | "ArgMin" => {
                let x = self.req(node, 0)?;
                let props = vec![
                    ("axis", self.i64_attr(a.int("axis").unwrap_or(0))),
                    (
                        "keepdims",
                        self.bool_attr(a.int("keepdims").unwrap_or(1) != 0),
                    ),
                    (
                        "select_last_index",
                        self.bool_attr(a.int("select_last_index").unwrap_or(0) != 0),
                    ),
                ];
                let name = if op == "ArgMax" {
                    "graph.argmax"
                } else {
                    "graph.argmin"
                };
                one(self.op1(name, vec![x], props, loc))
            }
            "Reshape" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                let allowzero = self.bool_attr(a.int("allowzero").unwrap_or(0) != 0);
                one(self.op1("graph.reshape", ops, vec![("allowzero", allowzero)], loc))
            }
            "Transpose" => {
                let x = self.req(node, 0)?;
                let props = match a.ints("perm") {
                    Some(p) => vec![("perm", self.i64_array(&p))],
                    None => vec![],
                };
                one(self.op1("graph.transpose", vec![x], props, loc))
            }
            "Expand" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                one(self.op1("graph.expand", ops, vec![], loc))
            }
            "Tile" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                one(self.op1("graph.tile", ops, vec![], loc))
            }
            "Concat" => {
                let ops = (0..node.input.len())
                    .map(|i| self.req(node, i))
                    .collect::<Res<Vec<_>>>()?;
                let axis = self.i64_attr(a.int("axis").ok_or("requires 'axis'")?);
                one(self.op1("graph.concat", ops, vec![("axis", axis)], loc))
            }
            "Split" => {
                let x = self.req(node, 0)?;
                let split = match a.ints("split") {
                    Some(v) => Some(self.const_i64(&v, loc)?),
                    None => self.input(node, 1)?,
                };
                let n = node.output.len();
                if split.is_none() {
                    if let Some(k) = a.int("num_outputs") {
                        if k as usize != n {
                            return Err(format!("has num_outputs={k} but {n} outputs").into());
                        }
                    }
                }
                let axis = self.i64_attr(a.int("axis").unwrap_or(0));
                self.op(
                    "graph.split",
                    std::iter::once(x).chain(split).collect(),
                    vec![("axis", axis)],
                    n,
                    None,
                    loc,
                )
            }
            "Slice" => {
                let mut ops = vec![self.req(node, 0)?, self.req(node, 1)?, self.req(node, 2)?];
                let (axes, steps) = (self.input(node, 3)?, self.input(node, 4)?);
                let seg = self.segments(&[
                    1,
                    1,
                    1,
                    i32::from(axes.is_some()),
                    i32::from(steps.is_some()),
                ]);
                ops.extend(axes);
                ops.extend(steps);
                one(self.op1("graph.slice", ops, vec![("operandSegmentSizes", seg)], loc))
            }
            "Gather" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                let axis = self.i64_attr(a.int("axis").unwrap_or(0));
                one(self.op1("graph.gather", ops, vec![("axis", axis)], loc))
            }
            "ConvTranspose" => {
                let rank = self
                    .req(node, 0)
                    .ok()
                    .and_then(|x| self.dims_of(x).map(|d| d.len()));
                match rank {
                    Some(3) => self.convert_1d(node, loc, Self::convert_conv_transpose),
                    _ => self.convert_conv_transpose(node, &a, loc),
                }
            }
            "Upsample" => {
                // The deprecated Upsample is Resize with asymmetric
                // coordinates (nearest rounding down, so integral scales
                // repeat); scales are an input from opset 9, an attribute
                // before.
                let x = self.req(node, 0)?;
                let scales = match (self.input(node, 1)?, a.floats("scales")) {
                    (Some(s), _) => s,
                    (None, Some(v)) => {
                        let f32t = self.ctx.float_type(FloatKind::F32);
                        let ty = self.ctx.tensor_type(vec![v.len() as i64], f32t);
                        let raw = v.iter().flat_map(|f| f.to_le_bytes()).collect();
                        let attr = self
                            .ctx
                            .dense_elements_attr(ty, raw)
                            .ok_or("could not build the scales")?;
                        self.constant(attr, loc)?
                    }
                    (None, None) => return Err("requires scales".into()),
                };
                let mode = a.string("mode").unwrap_or_else(|| "nearest".into());
                if !matches!(mode.as_str(), "nearest" | "linear") {
                    return Err(format!("has an unknown mode '{mode}'").into());
                }
                let seg = self.segments(&[1, 0, 1, 0]);
                let props = vec![
                    ("operandSegmentSizes", seg),
                    ("mode", self.ctx.string_attr(&mode)),
                    (
                        "coordinate_transformation_mode",
                        self.ctx.string_attr("asymmetric"),
                    ),
                    ("nearest_mode", self.ctx.string_attr("floor")),
                ];
                one(self.op1("graph.resize", vec![x, scales], props, loc))
            }
            "Resize" => {
                let x = self.req(node, 0)?;
                // Before opset 13 roi and scales were required inputs, given
                // as empty tensors when unused: an empty one is absent.
                let present = |i: usize| -> Res<Option<Value>> {
                    let v = self.input(node, i)?;
                    Ok(v.filter(|&v| self.dims_of(v).as_deref() != Some(&[Dim::Known(0)][..])))
                };
                let (roi, scales, sizes) = (present(1)?, present(2)?, present(3)?);
                let seg = self.segments(&[
                    1,
                    i32::from(roi.is_some()),
                    i32::from(scales.is_some()),
                    i32::from(sizes.is_some()),
                ]);
                let mut props = vec![("operandSegmentSizes", seg)];
                for (name, default) in [
                    ("mode", "nearest"),
                    ("coordinate_transformation_mode", "half_pixel"),
                    ("nearest_mode", "round_prefer_floor"),
                    ("keep_aspect_ratio_policy", "stretch"),
                ] {
                    let v = a.string(name).unwrap_or_else(|| default.into());
                    props.push((name, self.ctx.string_attr(&v)));
                }
                props.push((
                    "cubic_coeff_a",
                    self.f64_attr(a.float("cubic_coeff_a").map_or(-0.75, f64::from)),
                ));
                props.push((
                    "extrapolation_value",
                    self.f64_attr(a.float("extrapolation_value").map_or(0.0, f64::from)),
                ));
                props.push((
                    "exclude_outside",
                    self.bool_attr(a.int("exclude_outside").unwrap_or(0) != 0),
                ));
                props.push((
                    "antialias",
                    self.bool_attr(a.int("antialias").unwrap_or(0) != 0),
                ));
                if let Some(axes) = a.ints("axes") {
                    props.push(("axes", self.i64_array(&axes)));
                }
                let operands = [x]
                    .into_iter()
                    .chain(roi)
                    .chain(scales)
                    .chain(sizes)
                    .collect();
                one(self.op1("graph.resize", operands, props, loc))
            }
            "BitShift" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                let direction = match a.string("direction").as_deref() {
                    Some("LEFT") => "left",
                    Some("RIGHT") => "right",
                    other => return Err(format!("has an unknown direction {other:?}").into()),
                };
                let direction = self.ctx.string_attr(direction);
                one(self.op1("graph.bit_shift", ops, vec![("direction", direction)], loc))
            }
            "DFT" => {
                // The axis is an attribute (default 1) before opset 20, an
                // input (default -2) from 20: a constant one becomes the
                // attribute, a run-time one the op's axis operand.
                let x = self.req(node, 0)?;
                let length = self.input(node, 1)?;
                let (axis, axis_value) = if self.opset >= 20 {
                    match self.input(node, 2)? {
                        Some(v) => match self.const_int(v).and_then(|v| v.first().copied()) {
                            Some(c) => (c, None),
                            None => (-2, Some(v)),
                        },
                        None => (-2, None),
                    }
                } else {
                    (a.int("axis").unwrap_or(1), None)
                };
                let seg = self.segments(&[
                    1,
                    i32::from(length.is_some()),
                    i32::from(axis_value.is_some()),
                ]);
                let props = vec![
                    ("operandSegmentSizes", seg),
                    ("axis", self.i64_attr(axis)),
                    (
                        "inverse",
                        self.bool_attr(a.int("inverse").unwrap_or(0) != 0),
                    ),
                    (
                        "onesided",
                        self.bool_attr(a.int("onesided").unwrap_or(0) != 0),
                    ),
                ];
                let ops = std::iter::once(x).chain(length).chain(axis_value).collect();
                one(self.op1("graph.dft", ops, props, loc))
            }
            "NonMaxSuppression" => {
                let (boxes, scores) = (self.req(node, 0)?, self.req(node, 1)?);
                let (m, iou, score) = (
                    self.input(node, 2)?,
                    self.input(node, 3)?,
                    self.input(node, 4)?,
                );
                let seg = self.segments(&[
                    1,
                    1,
                    i32::from(m.is_some()),
                    i32::from(iou.is_some()),
                    i32::from(score.is_some()),
                ]);
                let props = vec![
                    ("operandSegmentSizes", seg),
                    (
                        "center_point_box",
                        self.bool_attr(a.int("center_point_box").unwrap_or(0) != 0),
                    ),
                ];
                let ops = [boxes, scores]
                    .into_iter()
                    .chain(m)
                    .chain(iou)
                    .chain(score)
                    .collect();
                one(self.op1("graph.non_max_suppression", ops, props, loc))
            }
            "GridSample" => {
                // Opset 16 named the modes after their 2-D forms.
                let mode = match a.string("mode").as_deref() {
                    None | Some("linear") | Some("bilinear") => "linear",
                    Some("nearest") => "nearest",
                    Some("cubic") | Some("bicubic") => "cubic",
                    Some(other) => return Err(format!("has an unknown mode '{other}'").into()),
                };
                let padding = a.string("padding_mode").unwrap_or_else(|| "zeros".into());
                let props = vec![
                    ("mode", self.ctx.string_attr(mode)),
                    ("padding_mode", self.ctx.string_attr(&padding)),
                    (
                        "align_corners",
                        self.bool_attr(a.int("align_corners").unwrap_or(0) != 0),
                    ),
                ];
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                one(self.op1("graph.grid_sample", ops, props, loc))
            }
            "GatherND" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                let b = self.i64_attr(a.int("batch_dims").unwrap_or(0));
                one(self.op1("graph.gather_nd", ops, vec![("batch_dims", b)], loc))
            }
            "GatherElements" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                let axis = self.i64_attr(a.int("axis").unwrap_or(0));
                one(self.op1("graph.gather_elements", ops, vec![("axis", axis)], loc))
            }
            "ScatterElements" | "Scatter" | "ScatterND" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?, self.req(node, 2)?];
                let reduction = a.string("reduction").unwrap_or_else(|| "none".into());
                let mut props = vec![("reduction", self.ctx.string_attr(&reduction))];
                let name = if op == "ScatterND" {
                    "graph.scatter_nd"
                } else {
                    props.push(("axis", self.i64_attr(a.int("axis").unwrap_or(0))));
                    "graph.scatter_elements"
                };
                one(self.op1(name, ops, props, loc))
            }
            "CumSum" | "CumProd" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                let props = vec![
                    (
                        "exclusive",
                        self.bool_attr(a.int("exclusive").unwrap_or(0) != 0),
                    ),
                    (
                        "reverse",
                        self.bool_attr(a.int("reverse").unwrap_or(0) != 0),
                    ),
                ];
                let name = if op == "CumProd" {
                    "graph.cumprod"
                } else {
                    "graph.cumsum"
                };
                one(self.op1(name, ops, props, loc))
            }
            "TopK" => {
                // `sorted = 0` allows any order: the sorted one is as good.
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?];
                let props = vec![
                    ("axis", self.i64_attr(a.int("axis").unwrap_or(-1))),
                    (
                        "largest",
                        self.bool_attr(a.int("largest").unwrap_or(1) != 0),
                    ),
                ];
                self.op("graph.top_k", ops, props, 2, None, loc)
            }
            "Squeeze" | "Unsqueeze" => {
                let x = self.req(node, 0)?;
                let axes = match a.ints("axes") {
                    Some(v) => Some(self.const_i64(&v, loc)?),
                    None => self.input(node, 1)?,
                };
                if op == "Unsqueeze" {
                    let axes = axes.ok_or("requires axes")?;
                    one(self.op1("graph.unsqueeze", vec![x, axes], vec![], loc))
                } else {
                    one(self.op1(
                        "graph.squeeze",
                        std::iter::once(x).chain(axes).collect(),
                        vec![],
                        loc,
                    ))
                }
            }
            "Flatten" => {
                let x = self.req(node, 0)?;
                let axis = self.i64_attr(a.int("axis").unwrap_or(1));
                one(self.op1("graph.flatten", vec![x], vec![("axis", axis)], loc))
            }
            "Pad" => {
                let x = self.req(node, 0)?;
                let pads = self.req(node, 1)?;
                let value = self.input(node, 2)?;
                let axes = self.input(node, 3)?;
                let mode = a.string("mode").unwrap_or_else(|| "constant".into());
                let mode = self.ctx.string_attr(&mode);
                let seg =
                    self.segments(&[1, 1, i32::from(value.is_some()), i32::from(axes.is_some())]);
                let ops = [x, pads].into_iter().chain(value).chain(axes).collect();
                one(self.op1(
                    "graph.pad",
                    ops,
                    vec![("mode", mode), ("operandSegmentSizes", seg)],
                    loc,
                ))
            }
            "Shape" => {
                let x = self.req(node, 0)?;
                let mut props = vec![("start", self.i64_attr(a.int("start").unwrap_or(0)))];
                if let Some(end) = a.int("end") {
                    props.push(("end", self.i64_attr(end)));
                }
                one(self.op1("graph.shape_of", vec![x], props, loc))
            }
            "Size" => {
                let x = self.req(node, 0)?;
                one(self.op1("graph.size", vec![x], vec![], loc))
            }
            "ConstantOfShape" => {
                let s = self.req(node, 0)?;
                let props = match a.get("value").and_then(|v| v.t.as_ref()) {
                    Some(t) => vec![("value", tensor_attr(self.ctx, t)?)],
                    None => vec![],
                };
                one(self.op1("graph.constant_of_shape", vec![s], props, loc))
            }
            "Range" => {
                let ops = vec![self.req(node, 0)?, self.req(node, 1)?, self.req(node, 2)?];
                one(self.op1("graph.range", ops, vec![], loc))
            }
            "Constant" => {
                let value = self.constant_value(node)?;
                one(self.constant(value, loc))
            }
            "Attention" => self.convert_attention(node, &a, loc),
            other => Err(format!("op type '{other}' has no conversion").into()),
        }
    }

    fn const_int(&self, v: Value) -> Option<Vec<i64>> {
        strata_dialects::graph::infer::operand_info(self.ctx, v).and_then(|i| i.value)
    }

    fn convert_window(&mut self, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
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
                "in {}-D is not supported (1-D and 2-D only)",
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

    /// The `Mean` and `InvStdDev` outputs of LayerNormalization, computed
    /// (in the input's type) over the normalized dimensions, kept as size 1.
    fn layer_norm_stats(&mut self, a: &Attrs, x: Value, loc: Location) -> Res<(Value, Value)> {
        if a.int("stash_type").unwrap_or(1) != 1 {
            return Err(ConvertError::unsupported(
                "with stash_type other than 1 is not supported",
            ));
        }
        let elem = self.elem(x).ok_or("operand is not a tensor")?;
        if self.ctx.float_kind(elem) != Some(FloatKind::F32) {
            return Err("with mean or inverse-deviation outputs is supported on f32 only".into());
        }
        let rank = shape_of(self.ctx, self.ctx.value_type(x))
            .and_then(|(s, _)| s.rank())
            .ok_or("with mean or inverse-deviation outputs needs a ranked input")?
            as i64;
        let axis = a.int("axis").unwrap_or(-1);
        let first = if axis < 0 { axis + rank } else { axis };
        if first < 0 || first >= rank {
            return Err(format!("axis {axis} is out of range for rank {rank}").into());
        }
        let axes: Vec<i64> = (first..rank).collect();
        let axes = self.const_i64(&axes, loc)?;
        let keep = vec![("keepdims", self.bool_attr(true))];
        let mean = self.op1("graph.reduce_mean", vec![x, axes], keep.clone(), loc)?;
        let centered = self.op1("graph.sub", vec![x, mean], vec![], loc)?;
        let squared = self.op1("graph.mul", vec![centered, centered], vec![], loc)?;
        let var = self.op1("graph.reduce_mean", vec![squared, axes], keep, loc)?;
        let eps_ty = self.ctx.tensor_type(vec![], elem);
        let eps = f64::from(a.float("epsilon").unwrap_or(1e-5));
        let eps = scalar_attr(self.ctx, eps_ty, eps).ok_or("could not build epsilon")?;
        let eps = self.constant(eps, loc)?;
        let shifted = self.op1("graph.add", vec![var, eps], vec![], loc)?;
        let inv_std = self.op1("graph.rsqrt", vec![shifted], vec![], loc)?;
        Ok((mean, inv_std))
    }

    /// A 3-D MaxPool or AveragePool as two 2-D ones: a box window is
    /// separable (the maximum, the sum and the count of real or padded
    /// positions all factor over the axes), so pool over (H, W) with the
    /// depth folded into the channels, then over D with H and W flattened.
    fn convert_pool_3d(&mut self, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
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
    fn convert_1d<F>(&mut self, node: &NodeProto, loc: Location, convert_2d: F) -> Res<Vec<Value>>
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
    fn convert_conv_transpose(
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
                    "in {}-D is not supported (1-D and 2-D only)",
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
                "in {}-D is not supported (1-D and 2-D only)",
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

    fn dims_of(&self, x: Value) -> Option<Vec<Dim>> {
        shape_of(self.ctx, self.ctx.value_type(x)).and_then(|(s, _)| s.dims().map(<[Dim]>::to_vec))
    }

    /// ONNX Attention (opset 23): 3-D inputs are split into heads and
    /// merged back, past keys and values are concatenated in front of the
    /// new ones (and returned as the present ones), and a causal mask is
    /// aligned after the past positions; the core is `graph.attention` on
    /// 4-D tensors.
    fn convert_attention(&mut self, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
        if node.input.len() > 7 {
            return Err(format!("has {} inputs (at most 7)", node.input.len()).into());
        }
        let nonpad = self.input(node, 6)?;
        let softcap = a.float("softcap").filter(|&c| c != 0.0);
        let qk_out = node.output.get(3).is_some_and(|o| !o.is_empty());
        // The fused op has no softcap, padding lengths or score output:
        // those go through the decomposed form.
        let decompose = softcap.is_some() || qk_out || nonpad.is_some();
        let (mut q, mut k, mut v) = (self.req(node, 0)?, self.req(node, 1)?, self.req(node, 2)?);
        let rank = self
            .dims_of(q)
            .map(|d| d.len())
            .ok_or("needs inputs of known rank")?;
        let three_d = rank == 3;
        if three_d {
            let qh = a
                .int("q_num_heads")
                .ok_or("on 3-D inputs requires q_num_heads")?;
            let kvh = a
                .int("kv_num_heads")
                .ok_or("on 3-D inputs requires kv_num_heads")?;
            q = self.split_heads(q, qh, loc)?;
            k = self.split_heads(k, kvh, loc)?;
            v = self.split_heads(v, kvh, loc)?;
        } else if rank != 4 {
            return Err(ConvertError::unsupported(format!(
                "on rank-{rank} inputs is not supported (3-D or 4-D)"
            )));
        }
        let axis2 = vec![("axis", self.i64_attr(2))];
        let (past_k, past_v) = (self.input(node, 4)?, self.input(node, 5)?);
        let past_len = past_k
            .and_then(|p| self.dims_of(p))
            .and_then(|d| d.get(2).cloned());
        if let (Some(pk), Some(pv)) = (past_k, past_v) {
            k = self.op1("graph.concat", vec![pk, k], axis2.clone(), loc)?;
            v = self.op1("graph.concat", vec![pv, v], axis2, loc)?;
        } else if past_k.is_some() || past_v.is_some() {
            return Err("needs both past_key and past_value, or neither".into());
        }
        let elem = self.elem(q).ok_or("operand is not a tensor")?;
        let causal = a.int("is_causal").unwrap_or(0) != 0;
        let mut mask = self.input(node, 3)?;
        // A mask shorter than the key sequence is padded (masked out).
        if let Some(m) = mask {
            let (md, kd) = (self.dims_of(m), self.dims_of(k));
            if let (Some(md), Some(kd)) = (md, kd) {
                if let (Some(Dim::Known(have)), Some(Dim::Known(want))) = (md.last(), kd.get(2)) {
                    if have < want {
                        mask = Some(self.pad_mask(m, md.len(), want - have, elem, loc)?);
                    }
                }
            }
        }
        if decompose {
            let past = match &past_len {
                None if past_k.is_none() => 0,
                Some(Dim::Known(p)) => *p,
                _ => {
                    return Err(ConvertError::unsupported(
                        "with a past of unknown length is not supported here",
                    ))
                }
            };
            if causal {
                mask = Some(self.causal_mask(q, k, past, mask, elem, loc)?);
            }
            let parts = AttentionParts {
                mask,
                nonpad,
                scale: a.float("scale").map(f64::from),
                softcap: softcap.map(f64::from),
                mode: a.int("qk_matmul_output_mode").unwrap_or(0),
            };
            let (mut y, scores) = self.attention_decomposed(q, k, v, parts, elem, loc)?;
            if three_d {
                y = self.merge_heads(y, loc)?;
            }
            let mut outs = vec![y, k, v];
            if qk_out {
                outs.push(scores);
            }
            return Ok(outs);
        }
        let mut props = Vec::new();
        if causal {
            let past = match &past_len {
                None if past_k.is_none() => Some(0),
                Some(Dim::Known(p)) => Some(*p),
                _ => None,
            };
            match past {
                Some(0) => props.push(("is_causal", self.bool_attr(true))),
                Some(p) => mask = Some(self.causal_mask(q, k, p, mask, elem, loc)?),
                None => {
                    return Err(ConvertError::unsupported(
                        "with is_causal and a past of unknown length is not supported",
                    ))
                }
            }
        }
        if let Some(s) = a.float("scale") {
            props.push(("scale", self.f64_attr(f64::from(s))));
        }
        let ops = [q, k, v].into_iter().chain(mask).collect();
        let mut y = self.op1("graph.attention", ops, props, loc)?;
        if three_d {
            let perm = vec![("perm", self.i64_array(&[0, 2, 1, 3]))];
            y = self.op1("graph.transpose", vec![y], perm, loc)?;
            let merged = self.const_i64(&[0, 0, -1], loc)?;
            y = self.op1("graph.reshape", vec![y, merged], vec![], loc)?;
        }
        let mut outs = vec![y];
        if node.output.get(1).is_some_and(|o| !o.is_empty())
            || node.output.get(2).is_some_and(|o| !o.is_empty())
        {
            outs.push(k);
            outs.push(v);
        }
        Ok(outs)
    }

    /// `[B, H, S, D]` to `[B, S, H * D]`.
    fn merge_heads(&mut self, y: Value, loc: Location) -> Res<Value> {
        let perm = vec![("perm", self.i64_array(&[0, 2, 1, 3]))];
        let t = self.op1("graph.transpose", vec![y], perm, loc)?;
        let merged = self.const_i64(&[0, 0, -1], loc)?;
        self.op1("graph.reshape", vec![t, merged], vec![], loc)
    }

    /// A 0-D constant of the attention's element type.
    fn scalar(&mut self, elem: Type, v: f64, loc: Location) -> Res<Value> {
        let ty = self.ctx.tensor_type(vec![], elem);
        let attr =
            scalar_attr(self.ctx, ty, v).ok_or("in this form is supported on f32 and f64 only")?;
        self.constant(attr, loc)
    }

    /// Attention spelled out with graph ops, as the ONNX reference computes
    /// it: scores `q kᵀ * scale`, softcap, plus the mask (bool masks keep
    /// where true) and the key padding of `nonpad_kv_seqlen`, softmax, times
    /// `v`; key/value heads repeat for grouped queries. Returns the output
    /// and the score output that `mode` selects.
    fn attention_decomposed(
        &mut self,
        q: Value,
        mut k: Value,
        mut v: Value,
        parts: AttentionParts,
        elem: Type,
        loc: Location,
    ) -> Res<(Value, Value)> {
        let (qd, kd) = (
            self.dims_of(q).ok_or("needs ranked q")?,
            self.dims_of(k).ok_or("needs ranked k")?,
        );
        let (Some(Dim::Known(qh)), Some(Dim::Known(kh))) = (qd.get(1).cloned(), kd.get(1).cloned())
        else {
            return Err("needs static head counts here".into());
        };
        if qh != kh {
            if kh == 0 || qh % kh != 0 {
                return Err(
                    format!("{qh} query heads are not a multiple of {kh} key/value heads").into(),
                );
            }
            // Interleave-repeat each key/value head: [h0, h0, h1, h1, ...].
            for x in [&mut k, &mut v] {
                let axes = self.const_i64(&[2], loc)?;
                let u = self.op1("graph.unsqueeze", vec![*x, axes], vec![], loc)?;
                let reps = self.const_i64(&[1, 1, qh / kh, 1, 1], loc)?;
                let t = self.op1("graph.tile", vec![u, reps], vec![], loc)?;
                // [B, kh, g, S, D] to [B, qh, S, D]: B copied (0), S inferred.
                let d = match self.dims_of(*x).and_then(|d| d.get(3).cloned()) {
                    Some(Dim::Known(d)) => d,
                    _ => return Err("with grouped heads needs a static head size here".into()),
                };
                let target = self.const_i64(&[0, qh, -1, d], loc)?;
                *x = self.op1("graph.reshape", vec![t, target], vec![], loc)?;
            }
        }
        let e = match qd.get(3) {
            Some(Dim::Known(e)) => *e,
            _ => return Err("needs a static head size here".into()),
        };
        let scale = parts.scale.unwrap_or(1.0 / (e as f64).sqrt());
        let perm = vec![("perm", self.i64_array(&[0, 1, 3, 2]))];
        let kt = self.op1("graph.transpose", vec![k], perm, loc)?;
        let raw = self.op1("graph.matmul", vec![q, kt], vec![], loc)?;
        let scale = self.scalar(elem, scale, loc)?;
        let mut scores = self.op1("graph.mul", vec![raw, scale], vec![], loc)?;
        if let Some(c) = parts.softcap {
            let cap = self.scalar(elem, c, loc)?;
            let d = self.op1("graph.div", vec![scores, cap], vec![], loc)?;
            let t = self.op1("graph.tanh", vec![d], vec![], loc)?;
            scores = self.op1("graph.mul", vec![t, cap], vec![], loc)?;
        }
        let capped = scores;
        let zero = self.scalar(elem, 0.0, loc)?;
        let ninf = self.scalar(elem, f64::NEG_INFINITY, loc)?;
        if let Some(m) = parts.mask {
            let me = self.elem(m).ok_or("mask is not a tensor")?;
            let bias = if strata_ir::ods::constraints::is_i1(self.ctx, me) {
                self.op1("graph.where", vec![m, zero, ninf], vec![], loc)?
            } else {
                m
            };
            scores = self.op1("graph.add", vec![scores, bias], vec![], loc)?;
        }
        if let Some(lens) = parts.nonpad {
            // Keys at or past each batch's length are padding.
            let s_len = match self.dims_of(k).and_then(|d| d.get(2).cloned()) {
                Some(Dim::Known(s)) => s,
                _ => return Err("with nonpad_kv_seqlen needs a static key length".into()),
            };
            let positions: Vec<i64> = (0..s_len).collect();
            let positions = self.const_i64(&positions, loc)?;
            let col = self.const_i64(&[-1, 1, 1, 1], loc)?;
            let lens = self.op1("graph.reshape", vec![lens, col], vec![], loc)?;
            let keep = self.op1("graph.less", vec![positions, lens], vec![], loc)?;
            let bias = self.op1("graph.where", vec![keep, zero, ninf], vec![], loc)?;
            scores = self.op1("graph.add", vec![scores, bias], vec![], loc)?;
        }
        let axis = vec![("axis", self.i64_attr(-1))];
        let probs = self.op1("graph.softmax", vec![scores], axis, loc)?;
        let y = self.op1("graph.matmul", vec![probs, v], vec![], loc)?;
        let selected = match parts.mode {
            0 | 1 => capped,
            2 => scores,
            3 => probs,
            m => return Err(format!("qk_matmul_output_mode {m} is not defined").into()),
        };
        Ok((y, selected))
    }

    /// `[B, S, H * D]` to `[B, H, S, D]`.
    fn split_heads(&mut self, x: Value, heads: i64, loc: Location) -> Res<Value> {
        let shape = self.const_i64(&[0, 0, heads, -1], loc)?;
        let r = self.op1("graph.reshape", vec![x, shape], vec![], loc)?;
        let perm = vec![("perm", self.i64_array(&[0, 2, 1, 3]))];
        self.op1("graph.transpose", vec![r], perm, loc)
    }

    /// `mask` padded at the end of its last axis by `amount` masked-out
    /// positions (false, or -inf).
    fn pad_mask(
        &mut self,
        mask: Value,
        rank: usize,
        amount: i64,
        elem: Type,
        loc: Location,
    ) -> Res<Value> {
        let mut pads = vec![0i64; 2 * rank];
        pads[2 * rank - 1] = amount;
        let pads = self.const_i64(&pads, loc)?;
        let mask_elem = self.elem(mask).ok_or("mask is not a tensor")?;
        let fill = if strata_ir::ods::constraints::is_i1(self.ctx, mask_elem) {
            let ty = self.ctx.tensor_type(vec![], mask_elem);
            self.ctx
                .dense_elements_attr(ty, vec![0])
                .ok_or("could not build the padding")?
        } else {
            let _ = elem;
            let ty = self.ctx.tensor_type(vec![], mask_elem);
            scalar_attr(self.ctx, ty, f64::NEG_INFINITY).ok_or_else(|| {
                ConvertError::unsupported("with a mask of this type is not supported")
            })?
        };
        let fill = self.constant(fill, loc)?;
        let seg = self.segments(&[1, 1, 1, 0]);
        self.op1(
            "graph.pad",
            vec![mask, pads, fill],
            vec![("operandSegmentSizes", seg)],
            loc,
        )
    }

    /// The causal mask after `past` positions (`j <= past + i` is kept),
    /// combined with `mask` when there is one.
    fn causal_mask(
        &mut self,
        q: Value,
        k: Value,
        past: i64,
        mask: Option<Value>,
        elem: Type,
        loc: Location,
    ) -> Res<Value> {
        let (qd, kd) = (self.dims_of(q), self.dims_of(k));
        let (Some(Dim::Known(l)), Some(Dim::Known(s))) = (
            qd.and_then(|d| d.get(2).cloned()),
            kd.and_then(|d| d.get(2).cloned()),
        ) else {
            return Err("with is_causal and a past needs static sequence lengths".into());
        };
        let (rows, cols) = (
            usize::try_from(l).map_err(|_| "bad length")?,
            usize::try_from(s).map_err(|_| "bad length")?,
        );
        let keep: Vec<u8> = (0..rows)
            .flat_map(|i| (0..cols).map(move |j| u8::from(j as i64 <= past + i as i64)))
            .collect();
        let i1 = self.ctx.integer_type(1);
        let ty = self.ctx.tensor_type(vec![l, s], i1);
        let keep = self
            .ctx
            .dense_elements_attr(ty, keep)
            .ok_or("could not build the causal mask")?;
        let keep = self.constant(keep, loc)?;
        let Some(mask) = mask else { return Ok(keep) };
        let mask_elem = self.elem(mask).ok_or("mask is not a tensor")?;
        if strata_ir::ods::constraints::is_i1(self.ctx, mask_elem) {
            return self.op1("graph.and", vec![mask, keep], vec![], loc);
        }
        let ty = self.ctx.tensor_type(vec![], elem);
        let ninf = scalar_attr(self.ctx, ty, f64::NEG_INFINITY).ok_or_else(|| {
            ConvertError::unsupported("with a mask of this type is not supported")
        })?;
        let ninf = self.constant(ninf, loc)?;
        self.op1("graph.where", vec![keep, mask, ninf], vec![], loc)
    }
}

/// The optional parts of an ONNX Attention node (see
/// `Importer::attention_decomposed`).
struct AttentionParts {
    mask: Option<Value>,
    nonpad: Option<Value>,
    scale: Option<f64>,
    softcap: Option<f64>,
    mode: i64,
}

/// The oldest opset whose definition of `op` the importer converts: the
/// op's version current at opset 13, or an older one when the versions in
/// between only added element types (bfloat16 at 13, integers at 12) or
/// attributes the importer reads by name (Squeeze's, Split's and the
/// reductions' `axes` attributes before they became inputs at 13). Older
/// models use older definitions (Softmax coerced its input to 2-D before
/// 13; binary ops did not broadcast before 7).
fn min_opset(op: &str) -> i64 {
    match op {
        "Constant" | "GlobalAveragePool" | "GlobalMaxPool" | "Identity" | "Not" | "Shape"
        | "Size" | "Softplus" | "Transpose" => 1,
        "Reshape" => 5,
        "Abs" | "Cast" | "Ceil" | "Elu" | "Exp" | "Floor" | "HardSigmoid" | "LeakyRelu" | "Log"
        | "Neg" | "Reciprocal" | "Relu" | "Sigmoid" | "Sqrt" | "Tanh" | "Tile" => 6,
        "Add" | "And" | "Cos" | "Div" | "Dropout" | "Equal" | "Greater" | "Less" | "Mul" | "Or"
        | "Pow" | "Sin" | "Sub" | "Xor" => 7,
        "Expand" | "Max" | "Mean" | "Min" | "Sum" => 8,
        "BatchNormalization" | "ConstantOfShape" | "Erf" | "MatMul" | "Sign" | "Where" => 9,
        "Mod" | "Slice" => 10,
        "AveragePool" | "Clip" | "Concat" | "Conv" | "ConvTranspose" | "Flatten" | "Gather"
        | "LpPool" | "Gemm" | "Pad" | "Range" | "ReduceL1" | "ReduceL2" | "ReduceLogSumExp"
        | "ReduceMax" | "ReduceMean" | "ReduceMin" | "ReduceProd" | "ReduceSum"
        | "ReduceSumSquare" | "Split" | "Squeeze" | "Unsqueeze" => 11,
        "ArgMax" | "ArgMin" | "GreaterOrEqual" | "LessOrEqual" | "MaxPool" => 12,
        "LpNormalization" | "Softsign" | "SpaceToDepth" => 1,
        "InstanceNormalization" | "Selu" => 6,
        "LRN" => 1,
        "CenterCropPad" => 18,
        "BlackmanWindow" | "DFT" | "HammingWindow" | "HannWindow" | "STFT" => 17,
        "GridSample" => 16,
        "NonMaxSuppression" => 11,
        // Deprecated at 10 (Resize replaces it).
        "Upsample" => 7,
        "ConvInteger" | "MatMulInteger" | "QLinearConv" | "QLinearMatMul" => 10,
        // Scatter (deprecated at 11) is ScatterElements without reduction.
        "Scatter" => 9,
        "Tan" => 7,
        "Acosh"
        | "Asinh"
        | "Atanh"
        | "Cosh"
        | "EyeLike"
        | "IsNaN"
        | "MeanVarianceNormalization"
        | "PRelu"
        | "Shrink"
        | "Sinh" => 9,
        // Per-axis parameters (13) and blocks (21) are read by name.
        "DequantizeLinear" | "IsInf" | "QuantizeLinear" | "ThresholdedRelu" => 10,
        "CumSum"
        | "DepthToSpace"
        | "DynamicQuantizeLinear"
        | "GatherElements"
        | "GatherND"
        | "OneHot"
        | "ReduceLogSum"
        | "Resize"
        | "Round"
        | "ScatterElements"
        | "ScatterND"
        | "TopK" => 11,
        "Celu" | "Einsum" | "NegativeLogLikelihoodLoss" | "SoftmaxCrossEntropyLoss" => 12,
        "BitShift" => 11,
        "BitwiseAnd" | "BitwiseNot" | "BitwiseOr" | "BitwiseXor" => 18,
        // Scale and bias became per channel (from per group) at 21.
        "GroupNormalization" => 21,
        // Ops introduced after opset 13 exist only in their own versions.
        "Attention" | "CastLike" | "Gelu" | "HardSwish" | "LayerNormalization" | "Mish"
        | "RMSNormalization" | "RotaryEmbedding" | "Swish" | "Trilu" | "CumProd" => 1,
        _ => 13,
    }
}

/// A constant of type `ty` (a tensor of one element) holding `v`: floats
/// round to nearest, integers truncate toward zero and saturate, `i1` is
/// `v != 0`.
fn scalar_attr(ctx: &mut Context, ty: Type, v: f64) -> Option<Attribute> {
    let elem = ctx.type_kind(ty).element_type()?;
    let raw = match ctx.type_kind(elem) {
        TypeKind::Float(kind) => match kind {
            FloatKind::F16 => half::f16::from_f64(v).to_le_bytes().to_vec(),
            FloatKind::BF16 => half::bf16::from_f64(v).to_le_bytes().to_vec(),
            FloatKind::F32 => (v as f32).to_le_bytes().to_vec(),
            FloatKind::F64 => v.to_le_bytes().to_vec(),
            _ => return None,
        },
        TypeKind::Integer { width: 1, .. } => vec![u8::from(v != 0.0)],
        &TypeKind::Integer { width, signedness } if matches!(width, 8 | 16 | 32 | 64) => {
            // Saturate at the type's bounds (NaN becomes 0), then keep the
            // low bytes.
            let bits = width - 1;
            let bytes = if signedness == Signedness::Unsigned {
                let max = if width == 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                ((v.max(0.0) as u64).min(max)).to_le_bytes()
            } else {
                let (lo, hi) = (-(1i128 << bits), (1i128 << bits) - 1);
                ((v as i128).clamp(lo, hi) as i64).to_le_bytes()
            };
            bytes[..width as usize / 8].to_vec()
        }
        _ => return None,
    };
    ctx.dense_elements_attr(ty, raw)
}

/// A seed derived from `name` (64-bit FNV-1a): stable across runs and
/// machines, different for different names.
fn name_seed(name: &str) -> i64 {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    hash as i64
}

/// A node's name for messages: its name, or its op type and index.
fn node_label(node: &NodeProto, index: usize) -> String {
    if node.name().is_empty() {
        format!("{}#{index}", node.op_type())
    } else {
        node.name().to_string()
    }
}

/// A `dim_param` as a symbol: identifier characters kept, others `_`.
fn symbol_name(param: &str) -> String {
    let mut s: String = param
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        s.insert(0, '_');
    }
    s
}

/// A node's attributes by name.
struct Attrs<'a>(&'a [AttributeProto]);

impl Attrs<'_> {
    fn get(&self, name: &str) -> Option<&AttributeProto> {
        self.0.iter().find(|a| a.name() == name)
    }

    fn int(&self, name: &str) -> Option<i64> {
        self.get(name)
            .filter(|a| {
                a.r#type
                    .is_none_or(|t| t == AttributeType::Int as i32 || t == 0)
            })
            .map(|a| a.i())
    }

    fn float(&self, name: &str) -> Option<f32> {
        self.get(name)
            .filter(|a| {
                a.r#type
                    .is_none_or(|t| t == AttributeType::Float as i32 || t == 0)
            })
            .map(|a| a.f())
    }

    fn floats(&self, name: &str) -> Option<Vec<f32>> {
        self.get(name)
            .filter(|a| a.r#type.is_none_or(|t| t == AttributeType::Floats as i32))
            .map(|a| a.floats.clone())
    }

    fn ints(&self, name: &str) -> Option<Vec<i64>> {
        self.get(name)
            .filter(|a| {
                a.r#type
                    .is_none_or(|t| t == AttributeType::Ints as i32 || t == 0)
            })
            .map(|a| a.ints.clone())
    }

    fn string(&self, name: &str) -> Option<String> {
        self.get(name)
            .filter(|a| {
                a.r#type
                    .is_none_or(|t| t == AttributeType::String as i32 || t == 0)
            })
            .map(|a| String::from_utf8_lossy(a.s()).into_owned())
    }
}
