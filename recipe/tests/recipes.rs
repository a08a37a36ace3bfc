//! The shipped recipes in `recipes/`, the seed example, JSON, and the
//! canonical form.

use std::path::PathBuf;

use strata_recipe::{Format, KernelSelection, LoadOptions, Precision, Recipe};

fn recipes_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../recipes")
}

fn parse(text: &str) -> Recipe {
    match Recipe::parse(text, "r.toml", Format::Toml, &LoadOptions::default()) {
        Ok(l) => l.recipe,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn every_shipped_recipe_loads_and_its_canonical_form_reads_back() {
    let mut count = 0;
    for entry in std::fs::read_dir(recipes_dir()).unwrap() {
        let path = entry.unwrap().path();
        let loaded = Recipe::load(&path, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let canonical = loaded.recipe.canonical();
        let again = parse(&canonical);
        assert_eq!(again.canonical(), canonical, "{}", path.display());
        count += 1;
    }
    assert!(count >= 4);
}

#[test]
fn the_default_recipe_is_the_empty_recipe() {
    let loaded =
        Recipe::load(&recipes_dir().join("default.toml"), &LoadOptions::default()).unwrap();
    assert_eq!(loaded.recipe, Recipe::default());
    assert_eq!(loaded.recipe.sha256(), parse("").sha256());
    assert_eq!(
        Recipe::default().pipeline(),
        "builtin.module(graph-infer-shapes,graph-decompose-recurrent,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes,\
         convert-graph-to-tensor,tensor-fuse,convert-tensor-to-kernel{library-gemm=true},canonicalize,cse)"
    );
}

#[test]
fn the_seed_example_loads_as_written() {
    let r = Recipe::load(
        &recipes_dir().join("seed-example.toml"),
        &LoadOptions::default(),
    )
    .unwrap()
    .recipe;
    assert_eq!(
        r.capture.include_ops,
        ["conv", "matmul", "layernorm", "gelu"]
    );
    assert_eq!(r.capture.exclude_ops, ["dynamic_branch", "host_sync"]);
    assert_eq!(
        r.capture.input_shapes,
        [vec![1, 128], vec![8, 128], vec![32, 128]]
    );
    assert!(r.optimize.constant_folding.enabled && r.optimize.dead_code_elimination);
    assert_eq!(
        (
            r.optimize.fusion.min_fused_ops,
            r.optimize.fusion.max_fused_ops
        ),
        (2, 4)
    );
    assert_eq!(r.codegen.precision, Precision::F16);
    assert_eq!(r.codegen.accumulate_precision, Precision::F32);
    assert_eq!(r.codegen.kernel_selection, KernelSelection::LatencyFirst);
    assert!(r.pipeline().contains("tensor-fuse{max-ops=4}"));

    // The same recipe in JSON, as the seed writes it (tuples as arrays).
    let json = r#"{ "capture": { "include_ops": ["conv", "matmul", "layernorm", "gelu"],
        "exclude_ops": ["dynamic_branch", "host_sync"],
        "input_shapes": [[1, 128], [8, 128], [32, 128]] },
      "optimize": { "constant_folding": true, "dead_code_elimination": true,
        "fusion": { "enabled": true, "max_fused_ops": 4, "min_fused_ops": 2 },
        "memory_reuse": true },
      "codegen": { "precision": "fp16", "accumulate_precision": "fp32",
        "kernel_selection": "latency_first" } }"#;
    assert_eq!(Format::detect("seed", json), Format::Json);
    let from_json = Recipe::parse(json, "seed.json", Format::Json, &LoadOptions::default())
        .unwrap()
        .recipe;
    assert_eq!(from_json.sha256(), r.sha256());
}

#[test]
fn constant_folding_is_a_bool_or_a_table() {
    assert_eq!(
        parse("[optimize]\nconstant_folding = true\n"),
        Recipe::default()
    );
    let off = parse("[optimize]\nconstant_folding = false\n");
    assert!(!off.optimize.constant_folding.enabled);
    assert!(!off.pipeline().contains("graph-fold-constants"));
    let limited = parse("[optimize.constant_folding]\nmax_elements = 64\n");
    assert!(limited
        .pipeline()
        .contains("graph-fold-constants{max-elements=64}"));
    assert_eq!(
        parse("[optimize]\nconstant_folding = { enabled = false, max_elements = 64 }\n").sha256(),
        off.sha256(),
        "the limit of disabled folding has no meaning"
    );
}

#[test]
fn the_pipeline_follows_the_options() {
    let p = parse(
        "[optimize.fusion]\nmin_fused_ops = 1\nmax_fused_ops = 8\nnever_fuse = [\"tensor.contract\", \"layer_norm\"]\n\
         [codegen]\nkernel_selection = \"generated\"\n[codegen.tiles]\nblock = 256\nblock_m = 32\n\
         [optimize]\ndisable_passes = [\"cse\", \"dce\"]\n",
    )
    .pipeline();
    assert_eq!(
        p,
        "builtin.module(graph-infer-shapes,graph-decompose-recurrent,canonicalize,graph-eliminate-layout,graph-fold-constants,graph-infer-shapes,\
         convert-graph-to-tensor,tensor-fuse{exclude=tensor.contract max-ops=8 min-ops=1},\
         convert-tensor-to-kernel{block=256 block-m=32},canonicalize)"
    );
    let unfused = parse("[optimize]\nfusion = false\n").pipeline();
    assert!(!unfused.contains("tensor-fuse"));
}

#[test]
fn a_fusion_bound_written_alone_moves_the_other() {
    let one = parse("[optimize.fusion]\nmax_fused_ops = 1\n");
    assert_eq!(
        (
            one.optimize.fusion.min_fused_ops,
            one.optimize.fusion.max_fused_ops
        ),
        (1, 1)
    );
    let big = parse("[optimize.fusion]\nmin_fused_ops = 100\n");
    assert_eq!(
        (
            big.optimize.fusion.min_fused_ops,
            big.optimize.fusion.max_fused_ops
        ),
        (100, 100)
    );
}

#[test]
fn spellings_and_set_order_do_not_change_the_hash() {
    let a =
        parse("[codegen]\nprecision = \"fp16\"\n[capture]\ninclude_ops = [\"b\", \"a\", \"a\"]\n");
    let b =
        parse("[capture]\ninclude_ops = [\"a\", \"b\"]\n[codegen]\nprecision = \"f16\"  # half\n");
    assert_eq!(a.sha256(), b.sha256());
    let c = parse("[capture.buckets]\nseq = \"pow2:16..128\"\n");
    let d = parse("[capture.buckets]\nseq = [16, 32, 64, 128]\n");
    assert_eq!(c.sha256(), d.sha256());
    // Chains keep their order.
    let e = parse("[optimize.fusion]\nmust_fuse = [[\"a\", \"b\"]]\n");
    let f = parse("[optimize.fusion]\nmust_fuse = [[\"b\", \"a\"]]\n");
    assert_ne!(e.sha256(), f.sha256());
}

#[test]
fn the_canonical_form_is_versioned_and_complete() {
    let text = Recipe::default().canonical();
    assert!(text.starts_with("version = 1\n"));
    for key in [
        "outside_buckets",
        "max_elements",
        "min_fused_ops",
        "kernel_selection",
        "block_k",
        "plan_cache_limit",
    ] {
        assert!(
            text.contains(&format!("\n{key} = ")),
            "{key} missing from\n{text}"
        );
    }
}
