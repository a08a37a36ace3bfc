//! A node's attributes, read by name and type.

use crate::proto::{attribute_proto::AttributeType, AttributeProto};

/// A node's attributes by name.
pub(super) struct Attrs<'a>(pub(super) &'a [AttributeProto]);

impl Attrs<'_> {
    pub(super) fn get(&self, name: &str) -> Option<&AttributeProto> {
        self.0.iter().find(|a| a.name() == name)
    }

    pub(super) fn int(&self, name: &str) -> Option<i64> {
        self.get(name)
            .filter(|a| {
                a.r#type
                    .is_none_or(|t| t == AttributeType::Int as i32 || t == 0)
            })
            .map(|a| a.i())
    }

    /// The subgraph attribute `name`, if present.
    pub(super) fn graph(&self, name: &str) -> Option<&crate::proto::GraphProto> {
        self.get(name).and_then(|a| a.g.as_ref())
    }

    pub(super) fn float(&self, name: &str) -> Option<f32> {
        self.get(name)
            .filter(|a| {
                a.r#type
                    .is_none_or(|t| t == AttributeType::Float as i32 || t == 0)
            })
            .map(|a| a.f())
    }

    /// The float attribute `name` as an f64, `default` when absent.
    pub(super) fn float_or(&self, name: &str, default: f64) -> f64 {
        self.float(name).map_or(default, f64::from)
    }

    pub(super) fn floats(&self, name: &str) -> Option<Vec<f32>> {
        self.get(name)
            .filter(|a| a.r#type.is_none_or(|t| t == AttributeType::Floats as i32))
            .map(|a| a.floats.clone())
    }

    pub(super) fn ints(&self, name: &str) -> Option<Vec<i64>> {
        self.get(name)
            .filter(|a| {
                a.r#type
                    .is_none_or(|t| t == AttributeType::Ints as i32 || t == 0)
            })
            .map(|a| a.ints.clone())
    }

    pub(super) fn string(&self, name: &str) -> Option<String> {
        self.get(name)
            .filter(|a| {
                a.r#type
                    .is_none_or(|t| t == AttributeType::String as i32 || t == 0)
            })
            .map(|a| String::from_utf8_lossy(a.s()).into_owned())
    }

    pub(super) fn strings(&self, name: &str) -> Option<Vec<String>> {
        self.get(name)
            .filter(|a| {
                a.r#type
                    .is_none_or(|t| t == AttributeType::Strings as i32 || t == 0)
            })
            .map(|a| {
                a.strings
                    .iter()
                    .map(|s| String::from_utf8_lossy(s).into_owned())
                    .collect()
            })
    }
}
