//! Nodes of other domains: a registered custom op (`domain.OpType` at the
//! domain's opset version) becomes `graph.custom`.

use strata_ir::{Location, Value};

use super::{Importer, Res};
use crate::proto::{attribute_proto::AttributeType, NodeProto};
use crate::tensor::tensor_attr;

impl Importer<'_> {
    /// The version of the registered custom op a node of a non-default
    /// domain names (`domain.OpType`, at the domain's imported opset), if
    /// one is registered. A registered custom op takes precedence over
    /// the importer's own conversion of an op of that domain.
    pub(super) fn custom_version(&self, node: &NodeProto) -> Option<i64> {
        let version = self.domains.get(node.domain()).copied().unwrap_or(1);
        let name = format!("{}.{}", node.domain(), node.op_type());
        self.ctx
            .registry()
            .extension::<strata_dialects::graph::custom::CustomOpRegistry>()
            .and_then(|r| r.get(&name, version))
            .map(|_| version)
    }

    /// A node of a registered custom op: `graph.custom` with the node's
    /// attributes as its `config` dictionary.
    pub(super) fn convert_custom(&mut self, node: &NodeProto, loc: Location) -> Res<Vec<Value>> {
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
}
