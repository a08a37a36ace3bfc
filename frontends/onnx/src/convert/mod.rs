//! Node-by-node conversion of an ONNX graph into `graph` ops.
//!
//! [`Importer::import`] walks the graph; [`Importer::convert`] converts one
//! node by its op type's [`Rule`]: the one-to-one tables of
//! [`elementwise`] (an ONNX op that is exactly one `graph` op), or a
//! conversion function from one family's table (`OPS` in each of the
//! modules below, grouped by op family). Some conversions are compositions
//! of other `graph` ops (the ONNX definitions spelled out), so that they
//! need no op, shape function or kernel of their own. [`SUPPORTED_OPS`] is
//! the union of the tables (a unit test checks that they agree).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::LazyLock;

use strata_dialects::graph::shape::{shape_of, Dim, Shape};
use strata_ir::{Attribute, Block, Context, Location, Operation, Type, Value};

use crate::proto::{type_proto, GraphProto, ModelProto, NodeProto, ValueInfoProto};
use crate::tensor::{dtype_name, element_type, tensor_attr};
use crate::{ConvertError, ImportError};

mod activation;
mod attention;
mod attrs;
mod build;
mod constant;
mod control;
mod conv3d;
mod custom;
mod einsum;
mod elementwise;
mod indexing;
mod legacy;
mod loss;
mod ml;
mod nn;
mod norm;
mod opset;
mod quantize;
mod recurrent;
mod reduce;
mod resample;
mod sequence;
mod shape;
mod signal;
mod signature;
mod stateful;
mod strings;
mod tfidf;
mod training;
mod tree;

use attrs::Attrs;
use build::scalar_attr;
use opset::min_opset;
pub(crate) use signature::{read_signature, SignatureModel};

/// The ONNX op types the importer converts, directly or as a composition
/// of other ops, in alphabetical order: every op type of the conversion
/// tables (see the `convert` module), so that the list cannot drift from
/// what the importer does. An op of the default domain is its bare op type
/// (`Relu`), one of another domain `domain:OpType`
/// (`ai.onnx.preview.training:Adam`).
pub static SUPPORTED_OPS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut ops: Vec<&'static str> = rules().map(|(op, _)| op).collect();
    ops.sort_unstable();
    ops.dedup();
    ops
});

/// The types and names of `@main`'s arguments and results.
struct Signature {
    arg_types: Vec<Type>,
    arg_names: Vec<String>,
    result_types: Vec<Type>,
    result_names: Vec<String>,
}

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
        // A model of another domain only (ai.onnx.ml, the training ops)
        // need not import the default one; a default-domain node then is
        // an error (see `convert`).
        self.opset = model
            .opset_import
            .iter()
            .find(|o| is_default_domain(o.domain()))
            .map_or(0, |o| o.version());
        if self.opset == 0 && model.opset_import.is_empty() {
            return Err(self.invalid(None, "the model imports no opset"));
        }
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
        self.find_unsupported(graph, "", &mut unsupported);
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
        self.convert_nodes(&graph.node)
            .map_err(|(label, e)| self.located(Some(&label), e))?;

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
            let mut v = v;
            if let Ok(declared) = self.value_info_type(out) {
                v = self.unwrap_optional_output(v, declared, file_loc);
                self.refine_value(v, declared);
            }
            outputs.push(v);
            result_names.push(out.name().to_string());
        }
        let result_types: Vec<Type> = outputs.iter().map(|&v| self.ctx.value_type(v)).collect();
        let ret_loc = self.ctx.name_loc("return", Some(file_loc));
        let ret = self.create("func.return", outputs, vec![], vec![], ret_loc);
        self.ctx.append_op(body, ret);

        let signature = Signature {
            arg_types,
            arg_names,
            result_types,
            result_names,
        };
        Ok(self.module_of_main(signature, region, false))
    }

    /// `builtin.module` holding `func.func @main` of `signature` with
    /// `body` (empty and `private` for a declaration).
    fn module_of_main(
        &mut self,
        signature: Signature,
        body: strata_ir::Region,
        private: bool,
    ) -> Operation {
        let file_loc = self.ctx.file_line_col_loc(&self.file, 0, 0);
        let Signature {
            arg_types,
            arg_names,
            result_types,
            result_names,
        } = signature;
        let fn_type = self.ctx.function_type(arg_types, result_types);
        let arg_attrs = self.name_attrs(&arg_names);
        let res_attrs = self.name_attrs(&result_names);
        let mut props = vec![
            ("sym_name", self.ctx.string_attr("main")),
            ("function_type", self.ctx.type_attr(fn_type)),
        ];
        if private {
            props.push(("sym_visibility", self.ctx.string_attr("private")));
        }
        if !arg_names.is_empty() {
            props.push(("arg_attrs", arg_attrs));
        }
        if !result_names.is_empty() {
            props.push(("res_attrs", res_attrs));
        }
        let func = self.create_with_regions("func.func", props, vec![body], file_loc);
        let module_region = self.ctx.create_region();
        let module_block = self.ctx.create_block();
        self.ctx.append_block(module_region, module_block);
        self.ctx.append_op(module_block, func);
        self.create_with_regions("builtin.module", vec![], vec![module_region], file_loc)
    }

    /// Adds the op types of `graph`'s nodes (and of their subgraphs') that
    /// the importer does not convert to `unsupported`, with the nodes'
    /// labels (a subgraph's nodes prefixed by their node's label).
    fn find_unsupported(
        &self,
        graph: &GraphProto,
        prefix: &str,
        unsupported: &mut BTreeMap<String, Vec<String>>,
    ) {
        for (i, node) in graph.node.iter().enumerate() {
            let label = format!("{prefix}{}", node_label(node, i));
            let default_domain = is_default_domain(node.domain());
            if !default_domain && self.custom_version(node).is_some() {
                continue;
            }
            let key = qualified_op(node);
            if !SUPPORTED_OPS.contains(&key.as_str()) {
                unsupported.entry(key).or_default().push(label.clone());
            }
            for attr in &node.attribute {
                for g in attr.g.iter().chain(&attr.graphs) {
                    self.find_unsupported(g, &format!("{label}/"), unsupported);
                }
            }
        }
    }

    /// Converts `nodes` in order at the end of the current block, binding
    /// their outputs' names; a failure is the node's label and the error.
    fn convert_nodes(&mut self, nodes: &[NodeProto]) -> Result<(), (String, ConvertError)> {
        let file_loc = self.ctx.file_line_col_loc(&self.file, 0, 0);
        for (i, node) in nodes.iter().enumerate() {
            let label = node_label(node, i);
            let loc_name = if node.name().is_empty() {
                label.clone()
            } else {
                node.name().to_string()
            };
            let loc = self.ctx.name_loc(&loc_name, Some(file_loc));
            let results = self.convert(node, loc).map_err(|e| {
                let e = e.map_message(|m| format!("{} {m}", node.op_type()));
                (label.clone(), e)
            })?;
            for (name, value) in node.output.iter().zip(results) {
                if !name.is_empty() {
                    self.values.insert(name.clone(), value);
                }
            }
        }
        Ok(())
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

    /// The type of a graph input or output.
    fn value_info_type(&mut self, info: &ValueInfoProto) -> Res<Type> {
        match info.r#type.as_ref() {
            Some(t) => self.type_proto_type(t),
            None => Err(ConvertError::unsupported("has no type")),
        }
    }

    /// The type an ONNX type describes: a tensor type, `!graph.seq<T>`
    /// for a sequence of tensors, `!graph.opt<T>` for an optional tensor
    /// or sequence.
    pub(super) fn type_proto_type(&mut self, t: &crate::proto::TypeProto) -> Res<Type> {
        use strata_dialects::graph::types::{
            opt_type, seq_type, valid_opt_element, valid_seq_element,
        };
        match t.value.as_ref() {
            Some(type_proto::Value::TensorType(t)) => self.tensor_proto_type(t),
            Some(type_proto::Value::SequenceType(s)) => {
                let element = s
                    .elem_type
                    .as_deref()
                    .ok_or_else(|| {
                        ConvertError::Invalid("a sequence type has no element type".into())
                    })
                    .and_then(|e| self.type_proto_type(e))?;
                if !valid_seq_element(self.ctx, element) {
                    return Err(ConvertError::unsupported(
                        "sequences of sequences, maps or optionals are not supported",
                    ));
                }
                Ok(seq_type(self.ctx, element))
            }
            Some(type_proto::Value::OptionalType(o)) => {
                let element = o
                    .elem_type
                    .as_deref()
                    .ok_or_else(|| {
                        ConvertError::Invalid("an optional type has no element type".into())
                    })
                    .and_then(|e| self.type_proto_type(e))?;
                if !valid_opt_element(self.ctx, element) {
                    return Err(ConvertError::unsupported(
                        "optionals of maps or optionals are not supported",
                    ));
                }
                Ok(opt_type(self.ctx, element))
            }
            Some(type_proto::Value::MapType(_)) => {
                Err(ConvertError::unsupported("map values are not supported"))
            }
            _ => Err(ConvertError::unsupported(
                "values of this type are not supported",
            )),
        }
    }

    fn tensor_proto_type(&mut self, t: &crate::proto::type_proto::Tensor) -> Res<Type> {
        let elem = if t.elem_type() == crate::proto::tensor_proto::DataType::String as i32 {
            strata_dialects::graph::types::string_type(self.ctx)
        } else {
            element_type(self.ctx, t.elem_type()).ok_or_else(|| {
                ConvertError::unsupported(format!(
                    "element type {} is not supported",
                    dtype_name(t.elem_type())
                ))
            })?
        };
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

    /// An optional output the model declares as its value's type (a loop
    /// that carries an optional, see `control`): the optional's value.
    fn unwrap_optional_output(&mut self, v: Value, declared: Type, loc: Location) -> Value {
        use strata_dialects::graph::types::opt_element;
        let Some(element) = opt_element(self.ctx, self.ctx.value_type(v)) else {
            return v;
        };
        if opt_element(self.ctx, declared).is_some() {
            return v;
        }
        let get = self.create(
            "graph.optional_get_element",
            vec![v],
            vec![element],
            vec![],
            loc,
        );
        if let Some(block) = self.block {
            self.ctx.append_op(block, get);
        }
        self.ctx.result(get, 0)
    }

    /// Gives `v` the more precise of its type and `declared`; a function
    /// argument keeps its type (the function's signature fixes it), and so
    /// does a result of control flow (its type is what its regions yield,
    /// which the declared type of one run may contradict: a branch not
    /// taken for these shapes). A value other ops use keeps its type too:
    /// their result types were inferred from it, and a declared symbol
    /// (ONNX's shape inference names each unknown size afresh, `unk__7`)
    /// could contradict what they inferred.
    fn refine_value(&mut self, v: Value, declared: Type) {
        let Some(def) = self.ctx.defining_op(v) else {
            return;
        };
        if !self.ctx.op_regions(def).is_empty() || !self.ctx.use_empty(v) {
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

    /// Converts one node: a node of another domain as a custom op, one of
    /// the default domain by its op type's [`Rule`].
    fn convert(&mut self, node: &NodeProto, loc: Location) -> Res<Vec<Value>> {
        if !is_default_domain(node.domain()) {
            if self.custom_version(node).is_some() {
                return self.convert_custom(node, loc);
            }
            return self.convert_node(node, loc);
        }
        if self.opset == 0 {
            return Err(ConvertError::Invalid(
                "is of the default ONNX domain, which the model does not import".into(),
            ));
        }
        let since = min_opset(node.op_type());
        if self.opset < since {
            return self.convert_legacy(node, since, loc);
        }
        self.convert_node(node, loc)
    }

    /// Converts a node of the default domain by its op type's [`Rule`] (the
    /// definition of [`min_opset`] and later).
    fn convert_node(&mut self, node: &NodeProto, loc: Location) -> Res<Vec<Value>> {
        let a = Attrs(&node.attribute);
        match rule(&qualified_op(node)) {
            Some(Rule::Unary(name)) => {
                let x = self.req(node, 0)?;
                one(self.op1(name, vec![x], vec![], loc))
            }
            Some(Rule::Binary(name)) => {
                let (l, r) = (self.req(node, 0)?, self.req(node, 1)?);
                one(self.op1(name, vec![l, r], vec![], loc))
            }
            Some(Rule::Variadic(name)) => {
                // Variadic in ONNX: a chain of binary ops.
                let mut acc = self.req(node, 0)?;
                for i in 1..node.input.len() {
                    let next = self.req(node, i)?;
                    acc = self.op1(name, vec![acc, next], vec![], loc)?;
                }
                Ok(vec![acc])
            }
            Some(Rule::Convert(convert)) => convert(self, node, &a, loc),
            None => Err(format!("op type '{}' has no conversion", node.op_type()).into()),
        }
    }
}

/// A conversion function: a node, with its attributes, to the values of
/// its outputs (in order; an output it does not produce is left out).
type Convert = fn(&mut Importer<'_>, &NodeProto, &Attrs<'_>, Location) -> Res<Vec<Value>>;

/// How the nodes of one op type convert.
#[derive(Clone, Copy)]
enum Rule {
    /// The `graph` op of that name on the node's one input, no attributes.
    Unary(&'static str),
    /// The (broadcasting) `graph` op of that name on the node's two inputs.
    Binary(&'static str),
    /// The binary `graph` op of that name folded over the node's inputs
    /// (the ONNX op is variadic).
    Variadic(&'static str),
    /// A family's conversion function.
    Convert(Convert),
}

/// The conversion tables of the op families.
const FAMILIES: &[&[(&str, Convert)]] = &[
    elementwise::OPS,
    activation::OPS,
    reduce::OPS,
    nn::OPS,
    norm::OPS,
    shape::OPS,
    indexing::OPS,
    constant::OPS,
    resample::OPS,
    attention::OPS,
    quantize::OPS,
    signal::OPS,
    loss::OPS,
    einsum::OPS,
    recurrent::OPS,
    control::OPS,
    sequence::OPS,
    stateful::OPS,
    training::OPS,
    ml::OPS,
    tfidf::OPS,
    strings::OPS,
];

/// Every op type with its rule: the one-to-one tables, then the families'.
fn rules() -> impl Iterator<Item = (&'static str, Rule)> {
    let simple = |table: &'static [(&'static str, &'static str)],
                  rule: fn(&'static str) -> Rule| {
        table.iter().map(move |&(op, name)| (op, rule(name)))
    };
    simple(elementwise::UNARY, Rule::Unary)
        .chain(simple(elementwise::BINARY, Rule::Binary))
        .chain(simple(elementwise::VARIADIC, Rule::Variadic))
        .chain(
            FAMILIES
                .iter()
                .flat_map(|family| family.iter())
                .map(|&(op, convert)| (op, Rule::Convert(convert))),
        )
}

/// The rule of op type `op`, if it has one.
fn rule(op: &str) -> Option<Rule> {
    rules().find(|&(name, _)| name == op).map(|(_, rule)| rule)
}

/// Whether `domain` names the default ONNX domain (`""` or `ai.onnx`).
fn is_default_domain(domain: &str) -> bool {
    domain.is_empty() || domain == "ai.onnx"
}

/// A node's op type as the conversion tables and [`SUPPORTED_OPS`] name
/// it: the bare op type in the default domain, `domain:OpType` in another
/// (`ai.onnx.ml:Binarizer`).
fn qualified_op(node: &NodeProto) -> String {
    if is_default_domain(node.domain()) {
        node.op_type().to_string()
    } else {
        format!("{}:{}", node.domain(), node.op_type())
    }
}

/// A conversion's one result as the node's results.
fn one(result: Res<Value>) -> Res<Vec<Value>> {
    result.map(|v| vec![v])
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

#[cfg(test)]
mod tests {
    use super::*;

    /// No op type has two rules (`SUPPORTED_OPS` is their union).
    #[test]
    fn each_op_type_has_one_rule() {
        let all: Vec<&str> = rules().map(|(op, _)| op).collect();
        assert_eq!(all.len(), SUPPORTED_OPS.len(), "an op type has two rules");
        assert!(SUPPORTED_OPS.contains(&"Add") && SUPPORTED_OPS.contains(&"Einsum"));
    }
}
