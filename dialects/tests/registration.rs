//! Dialects register their ops from the `#[op]` declarations themselves
//! (`strata_ir::ods::register_dialect_ops`), with no hand-written list. A
//! declaration the linker dropped would silently leave its op unregistered:
//! these tests read the dialects' sources and check that every op declared
//! there is registered, and nothing else.

use std::collections::BTreeSet;

use strata_ir::Context;

/// The dialects' source files, by dialect.
const SOURCES: &[(&str, &[&str])] = &[
    (
        "func",
        &[
            include_str!("../src/func/mod.rs"),
            include_str!("../src/func/ops.rs"),
        ],
    ),
    (
        "arith",
        &[
            include_str!("../src/arith/mod.rs"),
            include_str!("../src/arith/ops.rs"),
            include_str!("../src/arith/extended.rs"),
        ],
    ),
    (
        "math",
        &[
            include_str!("../src/math/mod.rs"),
            include_str!("../src/math/integer.rs"),
            include_str!("../src/math/classify.rs"),
        ],
    ),
    (
        "cf",
        &[
            include_str!("../src/cf/mod.rs"),
            include_str!("../src/cf/ops.rs"),
        ],
    ),
    (
        "scf",
        &[
            include_str!("../src/scf/mod.rs"),
            include_str!("../src/scf/ops.rs"),
        ],
    ),
    (
        "graph",
        &[
            include_str!("../src/graph/ops/mod.rs"),
            include_str!("../src/graph/ops/control.rs"),
            include_str!("../src/graph/ops/elementwise.rs"),
            include_str!("../src/graph/ops/indexing.rs"),
            include_str!("../src/graph/ops/nn.rs"),
            include_str!("../src/graph/ops/recurrent.rs"),
            include_str!("../src/graph/ops/reduce.rs"),
            include_str!("../src/graph/ops/resample.rs"),
            include_str!("../src/graph/ops/sequence.rs"),
            include_str!("../src/graph/ops/shape.rs"),
            include_str!("../src/graph/ops/signal.rs"),
            include_str!("../src/graph/ops/strings.rs"),
        ],
    ),
    (
        "tensor",
        &[
            include_str!("../src/tensor/mod.rs"),
            include_str!("../src/tensor/ops.rs"),
        ],
    ),
    ("vector", &[include_str!("../src/vector/mod.rs")]),
    ("ub", &[include_str!("../src/ub.rs")]),
];

/// The first string literal in `text`, if any.
fn first_literal(text: &str) -> Option<&str> {
    let start = text.find('"')? + 1;
    let len = text[start..].find('"')?;
    Some(&text[start..start + len])
}

/// The names of the `dialect.*` ops that `source` declares: the name of each
/// `#[op("...")]`, and the first string literal of each invocation of a
/// `macro_rules!` helper whose body declares an op with `#[op($...`.
fn declared_names(source: &str, dialect: &str) -> Vec<String> {
    let prefix = format!("{dialect}.");
    let mut names = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("#[op(") {
        rest = &rest[at + "#[op(".len()..];
        if rest.trim_start().starts_with('"') {
            names.extend(first_literal(rest).map(str::to_string));
        }
    }
    // Helper macros that declare an op, and their invocations.
    let mut helpers = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("macro_rules! ") {
        rest = &rest[at + "macro_rules! ".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let body_end = rest.find("\n}\n").unwrap_or(rest.len());
        if rest[..body_end].contains("#[op($") {
            helpers.push(name);
        }
    }
    for helper in helpers {
        let call = format!("\n{helper}!(");
        let mut rest = source;
        while let Some(at) = rest.find(&call) {
            rest = &rest[at + call.len()..];
            names.extend(first_literal(rest).map(str::to_string));
        }
    }
    names.retain(|n| n.starts_with(&prefix));
    names
}

fn registered_names(ctx: &Context, dialect: &str) -> BTreeSet<String> {
    let prefix = format!("{dialect}.");
    ctx.registry()
        .ops()
        .iter()
        .map(|def| def.name.to_string())
        .filter(|n| n.starts_with(&prefix))
        .collect()
}

#[test]
fn every_declared_op_is_registered_and_nothing_else() {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    for (dialect, sources) in SOURCES {
        let declared: Vec<String> = sources
            .iter()
            .flat_map(|s| declared_names(s, dialect))
            .collect();
        let unique: BTreeSet<String> = declared.iter().cloned().collect();
        assert_eq!(
            unique.len(),
            declared.len(),
            "{dialect}: an op is declared twice"
        );
        let registered = registered_names(&ctx, dialect);
        let missing: Vec<&String> = unique.difference(&registered).collect();
        let extra: Vec<&String> = registered.difference(&unique).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{dialect}: declared but not registered: {missing:?}; registered but not declared: {extra:?}"
        );
        assert!(!declared.is_empty(), "{dialect}: found no declarations");
    }
}

#[test]
fn registering_a_dialect_registers_its_ops_only() {
    let mut ctx = Context::new();
    let count = strata_ir::ods::register_dialect_ops(&mut ctx, "scf");
    assert_eq!(count, 12);
    let names = registered_names(&ctx, "scf");
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        [
            "scf.condition",
            "scf.execute_region",
            "scf.for",
            "scf.forall",
            "scf.forall.in_parallel",
            "scf.if",
            "scf.index_switch",
            "scf.parallel",
            "scf.reduce",
            "scf.reduce.return",
            "scf.while",
            "scf.yield"
        ]
    );
    assert!(ctx.registry().op("arith.addi").is_none());
    // Interfaces declared on the op come with it.
    assert!(ctx
        .registry()
        .interface::<strata_ir::interfaces::RegionBranch>("scf.for")
        .is_some());
}
