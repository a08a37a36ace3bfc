//! Custom ops: user-defined `graph` ops registered at run time.
//!
//! A custom op is a `graph.custom` op whose `name` and `version` select a
//! registered [`CustomOpDef`]; its shape function makes it a first-class
//! member of the graph (verified and shape-inferred like a built-in op).
//! The runtime registers the reference implementation alongside
//! (`strata_runtime::interp::register_custom_op` registers both). A `graph.custom` naming an op that is not
//! registered fails verification with a message naming it.

use std::collections::BTreeMap;
use std::sync::Arc;

use strata_ir::{Attribute, Context};

use super::infer::{Inferred, OperandInfo};

/// A custom op's shape function: its results from its operands and its
/// `config` attribute.
pub type CustomShapeFn = Arc<
    dyn Fn(&Context, Option<Attribute>, &[OperandInfo]) -> Result<Vec<Inferred>, String>
        + Send
        + Sync,
>;

/// The definition of a custom op.
#[derive(Clone)]
pub struct CustomOpDef {
    /// The op's name (`graph.custom "my_op"`), usually `domain.name`.
    pub name: String,
    /// The op's version; several versions may be registered side by side.
    pub version: i64,
    /// One line saying what the op computes.
    pub summary: String,
    /// The shape function.
    pub shape_fn: CustomShapeFn,
}

/// The custom ops registered with a context (a context extension).
#[derive(Default)]
pub struct CustomOpRegistry {
    ops: BTreeMap<(String, i64), CustomOpDef>,
}

impl CustomOpRegistry {
    /// The definition of `name` at `version`.
    pub fn get(&self, name: &str, version: i64) -> Option<&CustomOpDef> {
        self.ops.get(&(name.to_string(), version))
    }

    /// The registered versions of `name`.
    pub fn versions(&self, name: &str) -> Vec<i64> {
        self.ops
            .keys()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| *v)
            .collect()
    }

    /// Every registered definition, by name and version.
    pub fn iter(&self) -> impl Iterator<Item = &CustomOpDef> {
        self.ops.values()
    }
}

/// Registers a custom op with `ctx`; a definition of the same name and
/// version is replaced.
pub fn register_custom_op(ctx: &mut Context, def: CustomOpDef) {
    ctx.registry_mut()
        .extension_mut::<CustomOpRegistry>()
        .ops
        .insert((def.name.clone(), def.version), def);
}
