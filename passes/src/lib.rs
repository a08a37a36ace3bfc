//! strata-passes: generic transformations (`canonicalize`, `cse`, `dce`,
//! `symbol-dce`, ...)
//! and, later, the graph- and tensor-level ones.
//!
//! Each pass lives in its own file and is registered by [`register_all`].

mod arith_emulate_floats;
mod arith_expand;
mod canonicalize;
mod control_flow_sink;
mod conv_layout;
mod cse;
mod dce;
mod duplicate_functions;
mod equivalence;
pub mod fusion_chains;
mod graph;
mod graph_fold;
mod graph_layout;
mod graph_precision;
mod graph_recurrent;
mod graph_specialize;
mod inline;
mod licm;
mod math_fusion;
mod reconcile_casts;
mod remove_dead_values;
mod sccp;
mod scf_lowering;
mod symbol_dce;
mod tensor_fuse;
mod tensor_generic;
mod test_passes;

use strata_ir::pass::PassRegistry;

/// Apply one pattern to `op`'s regions with the greedy driver (its default
/// configuration: folding, constant hoisting, region simplification), as
/// MLIR's passes that call `applyPatternsGreedily` with one pattern do;
/// whether the driver converged does not matter, as there.
pub(crate) fn run_pattern_greedily(
    ctx: &mut strata_ir::Context,
    op: strata_ir::Operation,
    pattern: strata_ir::rewrite::FnPattern,
) -> Result<(), strata_ir::Diagnostic> {
    let mut set = strata_ir::rewrite::RewritePatternSet::new();
    set.add(pattern);
    let patterns = set.freeze(ctx);
    let config = strata_ir::rewrite::GreedyConfig::default();
    let _ = strata_ir::rewrite::apply_patterns_greedily(ctx, op, &patterns, &config);
    Ok(())
}

/// Register every pass of this crate.
pub fn register_all(registry: &mut PassRegistry) {
    registry.register(arith_emulate_floats::EmulateUnsupportedFloats::registration());
    registry.register(arith_expand::ArithExpand::registration());
    registry.register(canonicalize::Canonicalize::registration());
    registry.register(control_flow_sink::ControlFlowSink::registration());
    registry.register(cse::Cse::registration());
    registry.register(dce::Dce::registration());
    registry.register(duplicate_functions::DuplicateFunctionElimination::registration());
    registry.register(fusion_chains::GraphMarkFusionChains::registration());
    registry.register(graph::InferShapes::registration());
    registry.register(graph::GraphVerify::registration());
    registry.register(graph_fold::GraphFoldConstants::registration());
    registry.register(graph_layout::GraphEliminateLayout::registration());
    registry.register(conv_layout::GraphConvertConvLayout::registration());
    registry.register(graph_precision::GraphConvertPrecision::registration());
    registry.register(graph_recurrent::GraphDecomposeRecurrent::registration());
    registry.register(graph_specialize::GraphSpecialize::registration());
    registry.register(inline::Inline::registration());
    registry.register(licm::LoopInvariantCodeMotion::registration());
    registry.register(math_fusion::SincosFusion::registration());
    registry.register(math_fusion::UpliftToFma::registration());
    registry.register(reconcile_casts::ReconcileUnrealizedCasts::registration());
    registry.register(remove_dead_values::RemoveDeadValues::registration());
    registry.register(sccp::Sccp::registration());
    registry.register(scf_lowering::ForallToFor::registration());
    registry.register(scf_lowering::ForallToParallel::registration());
    registry.register(scf_lowering::ForToWhile::registration());
    registry.register(scf_lowering::ParallelToNestedFors::registration());
    registry.register(symbol_dce::SymbolDce::registration());
    registry.register(tensor_fuse::TensorFuse::registration());
    registry.register(tensor_generic::TensorGeneralize::registration());
    registry.register(tensor_generic::TensorSpecialize::registration());
    registry.register(test_passes::ReverseOps::registration());
}

#[cfg(test)]
mod tests {
    use strata_ir::pass::{options::is_valid_value, PassRegistry};

    #[test]
    fn declared_defaults_are_valid_values() {
        let mut registry = PassRegistry::default();
        super::register_all(&mut registry);
        for reg in registry.iter() {
            for def in reg.options {
                assert!(
                    def.default.is_empty() || is_valid_value(def.kind, def.default),
                    "{}: the default of {} is not a {}",
                    reg.name,
                    def.name,
                    def.kind.describe()
                );
            }
        }
    }

    #[test]
    fn a_fresh_pass_prints_its_declared_defaults() {
        let mut registry = PassRegistry::default();
        super::register_all(&mut registry);
        for reg in registry.iter() {
            let pass = (reg.create)();
            assert_eq!(pass.name(), reg.name);
            assert_eq!(pass.description(), reg.description);
            let mut expected: Vec<(&str, String)> = reg
                .options
                .iter()
                .map(|d| {
                    let list = matches!(
                        d.kind,
                        strata_ir::pass::OptionKind::IntList
                            | strata_ir::pass::OptionKind::StringList
                    );
                    let item = if list {
                        String::new()
                    } else {
                        format!("{}={}", d.name, d.default)
                    };
                    (d.name, item)
                })
                .collect();
            expected.sort();
            let expected: Vec<String> = expected.into_iter().map(|(_, i)| i).collect();
            assert_eq!(pass.render_options(), expected.join(" "), "{}", reg.name);
        }
    }
}
