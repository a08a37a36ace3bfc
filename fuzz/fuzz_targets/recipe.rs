//! Fuzz the recipe loader: any input, read as TOML and as JSON, must load
//! or be rejected with located diagnostics, never panic; a recipe that
//! loads must have a canonical form that loads back to itself (same text,
//! same hash) and a pipeline.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_recipe::{Format, LoadOptions, Recipe};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let known = |name: &str| name.starts_with("graph.");
    let options = LoadOptions { known_op: Some(&known) };
    for format in [Format::Toml, Format::Json] {
        match Recipe::parse(text, "fuzz", format, &options) {
            Ok(loaded) => {
                let canonical = loaded.recipe.canonical();
                let again = Recipe::parse(&canonical, "canonical.toml", Format::Toml, &options)
                    .expect("the canonical form must load");
                assert_eq!(again.recipe.canonical(), canonical, "canonical form not stable");
                assert_eq!(again.recipe.sha256(), loaded.recipe.sha256());
                assert!(loaded.recipe.pipeline().starts_with("builtin.module("));
            }
            Err(e) => {
                assert!(e.errors().next().is_some(), "a rejected recipe names an error");
                for d in &e.diagnostics {
                    assert!(d.line >= 1 && d.column >= 1);
                }
            }
        }
    }
});
