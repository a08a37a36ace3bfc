//! Every class of validation error, with its location and message.

use strata_recipe::{Format, LoadOptions, Problem, Recipe, Severity};

fn errors(text: &str) -> Vec<String> {
    match Recipe::parse(text, "r.toml", Format::Toml, &LoadOptions::default()) {
        Ok(_) => panic!("expected errors for:\n{text}"),
        Err(e) => e.diagnostics.iter().map(ToString::to_string).collect(),
    }
}

fn first_error(text: &str) -> String {
    errors(text).into_iter().next().unwrap_or_default()
}

#[test]
fn an_unknown_key_names_its_path_location_and_the_keys_allowed() {
    let text =
        "# a recipe\n\n[optimize]\nmemory_reuse = true\n\n[optimize.fusion]\n  max_fused = 4\n";
    assert_eq!(
        first_error(text),
        "r.toml:7:3: error: unknown key 'optimize.fusion.max_fused' (expected one of: \
         enabled, min_fused_ops, max_fused_ops, never_fuse, must_fuse)"
    );
    assert_eq!(
        first_error("[optimise]\n"),
        "r.toml:1:2: error: unknown key 'optimise' (expected one of: version, capture, \
         optimize, codegen, runtime, contracts)"
    );
}

#[test]
fn a_wrong_type_names_the_type_expected_and_found() {
    assert_eq!(
        first_error("[optimize]\nmemory_reuse = \"yes\"\n"),
        "r.toml:2:16: error: 'optimize.memory_reuse' must be a boolean, found a string"
    );
    assert_eq!(
        first_error("[optimize]\nconstant_folding = 3\n"),
        "r.toml:2:20: error: 'optimize.constant_folding' must be a boolean or a table, found an integer"
    );
    assert_eq!(
        first_error("capture = 1\n"),
        "r.toml:1:11: error: 'capture' must be a table, found an integer"
    );
}

#[test]
fn an_out_of_range_value_names_what_is_allowed() {
    assert_eq!(
        first_error("[codegen]\nprecision = \"f8\"\n"),
        "r.toml:2:13: error: 'codegen.precision' = \"f8\" is out of range (expected one of: \
         \"f32\", \"f16\", \"bf16\", \"fp32\", \"fp16\")"
    );
    assert_eq!(
        first_error("[codegen.tiles]\nblock_m = 48\n"),
        "r.toml:2:11: error: 'codegen.tiles.block_m' = 48 is out of range (expected a power of two from 1 to 1024)"
    );
    assert_eq!(
        first_error("[optimize.fusion]\nmax_fused_ops = 0\n"),
        "r.toml:2:17: error: 'optimize.fusion.max_fused_ops' = 0 is out of range (expected an integer from 1 to 1024)"
    );
    assert_eq!(
        first_error("version = 2\n"),
        "r.toml:1:11: error: 'version' = 2 is out of range (expected 1)"
    );
    assert!(first_error("[codegen]\nptx_version = \"9.0\"\n").contains("from \"7.0\" to \"8.8\""));
    assert!(
        first_error("[optimize]\ndisable_passes = [\"convert-graph-to-tensor\"]\n")
            .contains("expected one of: canonicalize, cse, dce")
    );
    assert!(first_error("[capture.buckets]\nseq = \"pow2:16..100\"\n").contains("pow2:MIN..MAX"));
    assert!(first_error(
        "[contracts.custom_ops.\"my.op\"]\nversion = \"1.2.3\"\nsha256 = \"abc\"\n"
    )
    .contains("64 hexadecimal digits"));
    assert!(first_error("[contracts.tolerance]\nrtol = -1.0\n").contains("a number from 0 to 1"));
}

#[test]
fn contradictions_are_errors() {
    assert_eq!(
        first_error("[optimize.fusion]\nmin_fused_ops = 8\nmax_fused_ops = 4\n"),
        "r.toml:2:17: error: 'optimize.fusion.min_fused_ops' (8) is greater than \
         'optimize.fusion.max_fused_ops' (4)"
    );
    assert_eq!(
        first_error(
            "[optimize.fusion]\nnever_fuse = [\"relu\"]\nmust_fuse = [[\"conv\", \"batch_norm\", \"relu\"]]\n"
        ),
        "r.toml:3:37: error: op 'relu' is in both 'optimize.fusion.must_fuse' and 'optimize.fusion.never_fuse'"
    );
    assert_eq!(
        first_error("[codegen]\nprecision = \"f32\"\naccumulate_precision = \"f16\"\n"),
        "r.toml:3:24: error: 'codegen.accumulate_precision' (f16) is narrower than \
         'codegen.precision' (f32); accumulate in f32 or in the compute precision"
    );
    assert!(
        first_error("[codegen]\nprecision = \"bf16\"\naccumulate_precision = \"f16\"\n")
            .contains("narrower")
    );
    assert_eq!(
        first_error("[capture.buckets]\nbatch = [1, 4, 4, 16]\n"),
        "r.toml:2:16: error: 'capture.buckets.batch' must be strictly increasing: 4 after 4"
    );
    assert!(
        first_error("[capture]\ninclude_ops = [\"conv\"]\nexclude_ops = [\"conv\"]\n")
            .contains("in both 'capture.include_ops' and 'capture.exclude_ops'")
    );
    assert!(
        first_error("[optimize.fusion]\nenabled = false\nmust_fuse = [[\"a\", \"b\"]]\n")
            .contains("needs fusion")
    );
    assert!(
        first_error("[codegen]\ntarget = \"sm_90\"\nptx_version = \"7.0\"\n")
            .contains("older than sm_90")
    );
}

#[test]
fn a_missing_required_key_is_an_error() {
    assert_eq!(
        first_error("[contracts.custom_ops]\n\"my.op\" = { version = \"1.0\" }\n"),
        "r.toml:2:1: error: missing key 'contracts.custom_ops.my.op.sha256'"
    );
}

#[test]
fn every_error_of_a_file_is_reported_in_file_order() {
    let e = errors("[optimize]\nlayout = \"nhcw\"\nbogus = 1\n[codegen]\nthreads = -1\n");
    assert_eq!(e.len(), 3, "{e:?}");
    assert!(e[0].starts_with("r.toml:2:10:"));
    assert!(e[1].starts_with("r.toml:3:1:"));
    assert!(e[2].starts_with("r.toml:5:11:"));
}

#[test]
fn syntax_errors_are_located() {
    let e = first_error("[optimize\n");
    assert!(e.starts_with("r.toml:1:"), "{e}");
    assert!(e.contains("error: invalid TOML"), "{e}");
    let json = Recipe::parse(
        "{\n  \"optimize\": {\n    \"fusion\": tru\n  }\n}",
        "r.json",
        Format::Json,
        &LoadOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        json.starts_with("r.json:3:15: error: invalid JSON"),
        "{json}"
    );
}

#[test]
fn json_errors_are_located_like_toml_ones() {
    let text = "{\n  \"optimize\": {\n    \"fusion\": { \"max_fused\": 4 }\n  }\n}\n";
    let e = Recipe::parse(text, "r.json", Format::Json, &LoadOptions::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("r.json:3:17: error: unknown key 'optimize.fusion.max_fused'"),
        "{e}"
    );
    let dup = Recipe::parse(
        "{\"runtime\": {}, \"runtime\": {}}",
        "r.json",
        Format::Json,
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(
        dup.diagnostics[0].problem,
        Problem::Duplicate { .. }
    ));
}

#[test]
fn an_unknown_op_is_a_warning_that_names_it() {
    let known = |name: &str| ["conv", "relu", "graph.matmul"].contains(&name);
    let options = LoadOptions {
        known_op: Some(&known),
    };
    let text = "[capture]\ninclude_ops = [\"conv\", \"dynamic_branch\"]\n";
    let loaded = Recipe::parse(text, "r.toml", Format::Toml, &options).unwrap();
    assert_eq!(loaded.warnings.len(), 1);
    assert_eq!(loaded.warnings[0].severity, Severity::Warning);
    assert_eq!(
        loaded.warnings[0].to_string(),
        "r.toml:2:24: warning: unknown op 'dynamic_branch' in 'capture.include_ops' \
         (no registered dialect defines it)"
    );
}

#[test]
fn hostile_input_never_panics() {
    for text in [
        "",
        "\u{0}",
        "[[capture]]\n",
        "capture = []\n",
        "[capture.buckets]\nbatch = \"pow2:0..8\"\n",
        "[capture.buckets]\n\"a b\" = [1]\n",
        "[capture]\ninput_shapes = [1]\n",
        "[optimize]\nconstant_folding = { enabled = 1 }\n",
        "[optimize.fusion]\nmust_fuse = [\"x\"]\n",
        "[contracts]\ninputs = { x = { shape = [\"?\", -1, 1.5] } }\n",
        "[codegen]\nptx_version = \"8.\"\n",
        "[contracts.tolerance]\nrtol = nan\natol = inf\n",
        "when = 1979-05-27\n",
    ] {
        let _ = Recipe::parse(text, "r.toml", Format::Toml, &LoadOptions::default());
    }
    for text in [
        "{",
        "{\"a\"",
        "[1,",
        "{\"a\":\"\\",
        "{\"a\":\"\\é",
        "-",
        "1e999",
        "{\"x\": 99999999999999999999}",
        "\"\u{1F600}",
    ] {
        let _ = Recipe::parse(text, "r.json", Format::Json, &LoadOptions::default());
    }
}

mod arbitrary_text {
    use proptest::prelude::*;
    use strata_recipe::{Format, LoadOptions, Recipe};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// Any text loads or is rejected with located errors; what loads
        /// has a canonical form that loads back to itself.
        #[test]
        fn the_loader_never_panics(text in "[\\[\\]{}\"=,.:a-z_0-9 \n#-]{0,120}") {
            for format in [Format::Toml, Format::Json] {
                match Recipe::parse(&text, "r", format, &LoadOptions::default()) {
                    Ok(l) => {
                        let c = l.recipe.canonical();
                        let again = Recipe::parse(&c, "c", Format::Toml, &LoadOptions::default()).unwrap();
                        prop_assert_eq!(again.recipe.canonical(), c);
                    }
                    Err(e) => prop_assert!(e.errors().all(|d| d.line >= 1 && d.column >= 1)),
                }
            }
        }
    }
}

#[test]
fn the_cache_dir_is_read_but_is_not_part_of_the_hash() {
    let load = |text: &str| {
        Recipe::parse(text, "r.toml", Format::Toml, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"))
            .recipe
    };
    let with = load("[runtime]\ncache_dir = \"/var/cache/strata\"\n");
    let without = load("");
    assert_eq!(with.runtime.cache_dir.as_deref(), Some("/var/cache/strata"));
    assert_eq!(without.runtime.cache_dir, None);
    assert_eq!(with.sha256(), without.sha256());
    assert!(!with.canonical().contains("cache_dir"));
    assert_eq!(
        first_error("[runtime]\ncache_dir = \"\"\n"),
        "r.toml:2:13: error: 'runtime.cache_dir' = \"\" is out of range (expected a non-empty string)"
    );
    assert_eq!(
        first_error("[runtime]\ncache_dir = 3\n"),
        "r.toml:2:13: error: 'runtime.cache_dir' must be a string, found an integer"
    );
}
