//! Op names as people write them outside IR (recipes, command lines):
//! `graph.layer_norm`, `layer_norm`, `layernorm`, `LayerNormalization`.

use strata_ir::Context;

/// ONNX op types whose `graph` op has another name (compared in
/// [`normalize`]d form).
const ALIASES: &[(&str, &str)] = &[
    ("conv", "graph.conv2d"),
    ("convtranspose", "graph.conv_transpose2d"),
    ("maxpool", "graph.max_pool2d"),
    ("averagepool", "graph.avg_pool2d"),
    ("avgpool", "graph.avg_pool2d"),
    ("globalaveragepool", "graph.global_avg_pool"),
    ("layernormalization", "graph.layer_norm"),
    ("batchnormalization", "graph.batch_norm"),
    ("rmsnormalization", "graph.rms_norm"),
    ("shape", "graph.shape_of"),
];

/// The registered op that `name` means: a full op name (`tensor.map`), a
/// `graph` op by its short name (`conv`, `layer_norm`), either compared
/// without case and `_` (`layernorm`, `MatMul`), or an ONNX op type whose
/// `graph` op is named differently (`LayerNormalization`). `None` when no
/// registered dialect defines it.
pub fn resolve(ctx: &Context, name: &str) -> Option<&'static str> {
    let ops = ctx.registry().ops();
    if let Some(def) = ops.iter().find(|d| d.name == name) {
        return Some(def.name);
    }
    let wanted = normalize(name);
    let graph_short = |full: &str| full.strip_prefix("graph.").map(normalize);
    if let Some(def) = ops.iter().find(|d| {
        graph_short(d.name).as_deref() == Some(wanted.as_str()) || normalize(d.name) == wanted
    }) {
        return Some(def.name);
    }
    let (_, full) = ALIASES.iter().find(|(alias, _)| *alias == wanted)?;
    ops.iter().find(|d| d.name == *full).map(|d| d.name)
}

/// Lowercase without `_`: `Layer_Norm` → `layernorm`.
fn normalize(name: &str) -> String {
    name.chars()
        .filter(|&c| c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn recipe_spellings_resolve_to_graph_ops() {
        let mut ctx = strata_ir::Context::new();
        crate::register_all(&mut ctx);
        for (name, op) in [
            ("conv", "graph.conv2d"),
            ("Conv", "graph.conv2d"),
            ("batch_norm", "graph.batch_norm"),
            ("matmul", "graph.matmul"),
            ("layernorm", "graph.layer_norm"),
            ("layer_norm", "graph.layer_norm"),
            ("LayerNormalization", "graph.layer_norm"),
            ("gelu", "graph.gelu"),
            ("MatMul", "graph.matmul"),
            ("tensor.contract", "tensor.contract"),
        ] {
            assert_eq!(resolve(&ctx, name), Some(op), "{name}");
        }
        assert_eq!(resolve(&ctx, "dynamic_branch"), None);
        assert_eq!(resolve(&ctx, "host_sync"), None);
    }
}
