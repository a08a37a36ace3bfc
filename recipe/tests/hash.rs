//! The hash is of the meaning: key order, comments, formatting and keys
//! written at their default do not change it; any other change does.

use proptest::prelude::*;
use strata_recipe::{Format, LoadOptions, Recipe};

/// (section, key, default as written or "" for none, other values).
const KEYS: &[(&str, &str, &str, &[&str])] = &[
    (
        "capture",
        "outside_buckets",
        "\"pad\"",
        &["\"reject\"", "\"eager\""],
    ),
    (
        "capture",
        "include_ops",
        "[]",
        &["[\"conv\"]", "[\"conv\", \"relu\"]"],
    ),
    ("capture", "input_shapes", "[]", &["[[1, 128]]"]),
    (
        "capture.buckets",
        "batch",
        "",
        &["[1, 4, 16]", "\"pow2:1..8\""],
    ),
    ("optimize", "dead_code_elimination", "true", &["false"]),
    ("optimize", "layout", "\"auto\"", &["\"nchw\"", "\"nhwc\""]),
    ("optimize", "memory_reuse", "true", &["false"]),
    (
        "optimize",
        "disable_passes",
        "[]",
        &["[\"cse\"]", "[\"cse\", \"dce\"]"],
    ),
    (
        "optimize.constant_folding",
        "max_elements",
        "4096",
        &["16", "100000"],
    ),
    ("optimize.fusion", "min_fused_ops", "2", &["1", "3"]),
    ("optimize.fusion", "max_fused_ops", "64", &["8", "128"]),
    ("optimize.fusion", "never_fuse", "[]", &["[\"tensor.map\"]"]),
    ("codegen", "target", "\"host\"", &["\"sm_80\"", "\"sm_90\""]),
    ("codegen", "precision", "\"f32\"", &["\"f16\"", "\"bf16\""]),
    ("codegen", "emulate_precision_casts", "false", &["true"]),
    (
        "codegen",
        "kernel_selection",
        "\"library\"",
        &["\"generated\"", "\"latency_first\"", "\"throughput_first\""],
    ),
    ("capture", "min_segment_ops", "1", &["3"]),
    ("codegen", "num_warps", "4", &["8"]),
    ("codegen", "threads", "0", &["2"]),
    ("codegen", "ptx_version", "\"8.8\"", &["\"8.0\""]),
    ("codegen.tiles", "block", "1024", &["256"]),
    ("codegen.tiles", "block_m", "64", &["32"]),
    ("codegen.tiles", "block_n", "64", &["128"]),
    ("codegen.tiles", "block_k", "64", &["16"]),
    (
        "runtime",
        "exe_mode",
        "\"graph\"",
        &["\"eager\"", "\"hybrid\""],
    ),
    ("runtime", "plan_cache_limit", "16", &["1"]),
    ("runtime", "fallback", "\"error\"", &["\"eager\""]),
    ("runtime", "cuda_graphs", "true", &["false"]),
    ("runtime", "recompile_budget", "0", &["32"]),
    (
        "runtime",
        "on_budget_exhausted",
        "\"eager\"",
        &["\"error\"", "\"nearest-bucket\""],
    ),
    ("contracts", "max_activation_bytes", "", &["1048576"]),
    ("contracts.tolerance", "rtol", "", &["0.01"]),
    ("contracts.tolerance", "atol", "", &["1e-6"]),
];

/// Per key: `None` (the default meaning) or the index of another value.
type Meaning = Vec<Option<usize>>;

/// One way to write a meaning: per key, whether a default is written out,
/// an order, comments and spacing.
#[derive(Clone, Debug)]
struct Writing {
    write_default: Vec<bool>,
    order: Vec<u32>,
    comments: Vec<bool>,
    spaces: Vec<u8>,
}

fn meaning() -> impl Strategy<Value = Meaning> {
    let per_key: Vec<BoxedStrategy<Option<usize>>> = KEYS
        .iter()
        .map(|(_, _, _, others)| prop_oneof![Just(None), (0..others.len()).prop_map(Some)].boxed())
        .collect();
    per_key
}

fn writing() -> impl Strategy<Value = Writing> {
    let n = KEYS.len();
    (
        proptest::collection::vec(any::<bool>(), n),
        proptest::collection::vec(any::<u32>(), n),
        proptest::collection::vec(any::<bool>(), n),
        proptest::collection::vec(0u8..3, n),
    )
        .prop_map(|(write_default, order, comments, spaces)| Writing {
            write_default,
            order,
            comments,
            spaces,
        })
}

fn render(m: &Meaning, w: &Writing) -> String {
    // Sections in an order given by their first key's rank, keys in rank order.
    let mut idx: Vec<usize> = (0..KEYS.len()).collect();
    idx.sort_by_key(|&i| (w.order[i], i));
    let mut sections: Vec<&str> = Vec::new();
    for &i in &idx {
        if !sections.contains(&KEYS[i].0) {
            sections.push(KEYS[i].0);
        }
    }
    let mut out = String::from("# generated\n");
    for section in sections {
        out.push_str(&format!("\n[{section}]\n"));
        for &i in idx.iter().filter(|&&i| KEYS[i].0 == section) {
            let (_, key, default, others) = KEYS[i];
            let value = match m[i] {
                Some(v) => others[v],
                None if w.write_default[i] && !default.is_empty() => default,
                None => continue,
            };
            let pad = " ".repeat(w.spaces[i] as usize);
            out.push_str(&format!("{key}{pad} ={pad}{value}"));
            if w.comments[i] {
                out.push_str("   # a comment");
            }
            out.push('\n');
        }
    }
    out
}

fn hash(text: &str) -> String {
    match Recipe::parse(text, "r.toml", Format::Toml, &LoadOptions::default()) {
        Ok(l) => l.recipe.sha256(),
        Err(e) => panic!("{e}\n{text}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn writing_does_not_change_the_hash(m in meaning(), a in writing(), b in writing()) {
        prop_assert_eq!(hash(&render(&m, &a)), hash(&render(&m, &b)));
    }

    #[test]
    fn meaning_changes_the_hash(m in meaning(), n in meaning(), w in writing()) {
        let same = m == n;
        prop_assert_eq!(same, hash(&render(&m, &w)) == hash(&render(&n, &w)));
    }

    #[test]
    fn each_single_change_changes_the_hash(key in 0..KEYS.len(), w in writing()) {
        let default: Meaning = vec![None; KEYS.len()];
        let base = hash(&render(&default, &w));
        for v in 0..KEYS[key].3.len() {
            let mut changed = default.clone();
            changed[key] = Some(v);
            prop_assert_ne!(&base, &hash(&render(&changed, &w)));
        }
    }

    #[test]
    fn the_canonical_text_reads_back_to_itself(m in meaning(), w in writing()) {
        let text = render(&m, &w);
        let r = Recipe::parse(&text, "r.toml", Format::Toml, &LoadOptions::default()).unwrap().recipe;
        let canonical = r.canonical();
        let again = Recipe::parse(&canonical, "c.toml", Format::Toml, &LoadOptions::default()).unwrap().recipe;
        prop_assert_eq!(again.canonical(), canonical);
    }
}
