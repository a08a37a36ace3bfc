//! Property tests: printed IR parses back to the same IR, in both forms, and
//! no input, however mangled, makes the parser panic.

use proptest::prelude::*;
use strata_ir::parser::parse_source;
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::{verifier, Context, SourceBuffer};

fn parse_print(text: &str, options: PrintOptions) -> Result<String, String> {
    let mut ctx = Context::new();
    ctx.set_allow_unregistered_dialects(true);
    let buffer = SourceBuffer::new("input.mlir", text);
    let first = |d: Vec<strata_ir::Diagnostic>| {
        d.first()
            .map_or_else(|| "no diagnostic".to_string(), |d| d.message.to_string())
    };
    let module = parse_source(&mut ctx, &buffer).map_err(first)?;
    verifier::verify(&ctx, module).map_err(first)?;
    Ok(print_operation(&ctx, module, options))
}

fn attribute() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        any::<i32>().prop_map(|v| format!("{v} : i32")),
        any::<i64>().prop_map(|v| format!("{v}")),
        any::<u8>().prop_map(|v| format!("{v} : ui8")),
        any::<bool>().prop_map(|v| v.to_string()),
        any::<f32>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(|v| format!("{v:.6e} : f32")),
        any::<u32>().prop_map(|bits| format!("0x{bits:08X} : f32")),
        "[a-z]{0,6}".prop_map(|s| format!("\"{s}\"")),
        proptest::collection::vec(any::<u8>(), 0..6).prop_map(|bytes| {
            let body: String = bytes.iter().map(|b| format!("\\{b:02X}")).collect();
            format!("\"{body}\"")
        }),
        Just("unit".to_string()),
        Just("tensor<4x?xf32>".to_string()),
        Just("@sym::@nested".to_string()),
        Just("#foo.attr<\"x\", [1, 2]>".to_string()),
        proptest::collection::vec(-5i64..5, 1..5).prop_map(|v| {
            let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            format!("dense<[{}]> : tensor<{}xi64>", items.join(", "), v.len())
        }),
        proptest::collection::vec(-100i64..100, 0..4).prop_map(|v| {
            let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            if v.is_empty() {
                "array<i64>".to_string()
            } else {
                format!("array<i64: {}>", items.join(", "))
            }
        }),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4)
                .prop_map(|v| format!("[{}]", v.join(", "))),
            proptest::collection::vec(("[a-z_][a-z0-9_]{0,4}", inner), 0..4).prop_map(|v| {
                let mut seen = std::collections::BTreeMap::new();
                for (k, a) in v {
                    seen.insert(k, a);
                }
                let items: Vec<String> = seen
                    .into_iter()
                    .map(|(k, a)| format!("{k} = {a}"))
                    .collect();
                format!("{{{}}}", items.join(", "))
            }),
        ]
    })
}

/// A module of unregistered ops: values flow from earlier ops and block
/// arguments; some ops carry a region with its own ops.
fn module_text() -> impl Strategy<Value = String> {
    let op = (attribute(), 0usize..3, any::<bool>(), 0usize..3);
    proptest::collection::vec(op, 1..12).prop_map(|ops| {
        let mut text = String::new();
        let mut values: Vec<String> = Vec::new();
        for (i, (attr, results, region, operands)) in ops.into_iter().enumerate() {
            let used: Vec<String> = values.iter().rev().take(operands).cloned().collect();
            let lhs = match results {
                0 => String::new(),
                1 => format!("%v{i} = "),
                n => format!("%v{i}:{n} = "),
            };
            let body = if region {
                format!(
                    " ({{\n^bb0(%a{i}: i32):\n  %w{i} = \"bar.inner\"(%a{i}) : (i32) -> i32\n  \"bar.yield\"(%w{i}) : (i32) -> ()\n}})"
                )
            } else {
                String::new()
            };
            let types = vec!["i32"; used.len()].join(", ");
            let results_ty = match results {
                0 => "()".to_string(),
                1 => "i32".to_string(),
                n => format!("({})", vec!["i32"; n].join(", ")),
            };
            text.push_str(&format!(
                "{lhs}\"foo.op{i}\"({}){body} {{attr = {attr}}} : ({types}) -> {results_ty}\n",
                used.join(", ")
            ));
            match results {
                0 => {}
                1 => values.push(format!("%v{i}")),
                n => values.extend((0..n).map(|k| format!("%v{i}#{k}"))),
            }
        }
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn generic_output_round_trips(text in module_text(), debug_info in any::<bool>()) {
        let options = PrintOptions { generic: true, debug_info };
        let first = parse_print(&text, options).map_err(TestCaseError::fail)?;
        let second = parse_print(&first, options).map_err(TestCaseError::fail)?;
        prop_assert_eq!(first, second);
    }

    #[test]
    fn pretty_output_round_trips(text in module_text()) {
        let options = PrintOptions::default();
        let first = parse_print(&text, options).map_err(TestCaseError::fail)?;
        let second = parse_print(&first, options).map_err(TestCaseError::fail)?;
        prop_assert_eq!(first, second);
    }

    #[test]
    fn mangled_input_never_panics(text in module_text(), cut in 0usize..400, junk in "[-<>(){}\\[\\]%^#!@:=,\"0-9a-z. x?*]{0,8}") {
        let mut bytes = text.into_bytes();
        let at = cut.min(bytes.len());
        bytes.splice(at..at, junk.bytes());
        if let Ok(mangled) = String::from_utf8(bytes) {
            let _ = parse_print(&mangled, PrintOptions { generic: true, debug_info: true });
        }
    }
}

#[test]
fn deeply_nested_input_is_an_error_not_a_crash() {
    let depth = 100_000;
    let text = format!(
        "\"foo.a\"() {{a = {}{}}} : () -> ()",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let result = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || parse_print(&text, PrintOptions::default()))
        .and_then(|h| h.join().map_err(|_| std::io::Error::other("panicked")));
    let outcome = result.expect("parser must not crash");
    assert!(
        outcome.is_err(),
        "100000 levels of nesting must be rejected"
    );
}

/// Found by fuzzing: f80 values print with more digits than a double holds;
/// they must read back exactly.
#[test]
fn wide_float_literals_round_trip() {
    let text = "\"foo.a\"() {a = 1.00000000000060457422 : f80, b = -3.14159265358979323846264 : f128} : () -> ()";
    let options = PrintOptions {
        generic: true,
        debug_info: false,
    };
    let first = parse_print(text, options).expect("parses");
    let second = parse_print(&first, options).expect("parses again");
    assert_eq!(first, second);
    assert!(first.contains("1.00000000000060457422 : f80"), "{first}");
}

/// Inputs the fuzzer (fuzz/fuzz_targets/parse.rs) once failed on. Each has
/// its expected outcome in `fuzz/regressions/expected.txt`: `parses` (it
/// parses, verifies, prints and reads back to the same text) or
/// `rejected: <message>` (the first diagnostic says exactly that). An input
/// without a recorded outcome, or a recorded input that is missing, fails.
#[test]
fn fuzz_regressions_stay_fixed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    let manifest = dir.join("expected.txt");
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let mut expected: std::collections::BTreeMap<String, String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (file, outcome) = l
                .split_once(' ')
                .unwrap_or_else(|| panic!("{}: malformed line {l:?}", manifest.display()));
            (file.to_string(), outcome.trim().to_string())
        })
        .collect();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fuzz/regressions exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    let options = PrintOptions {
        generic: true,
        debug_info: true,
    };
    let mut problems = Vec::new();
    for path in &files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        let text = std::fs::read(path).expect("readable input");
        let text = String::from_utf8_lossy(&text);
        let outcome = match parse_print(&text, options) {
            Ok(first) => {
                let second = parse_print(&first, options).unwrap_or_else(|e| {
                    panic!("{}: printed IR does not parse back: {e}", path.display())
                });
                assert_eq!(first, second, "{}: printing is not stable", path.display());
                "parses".to_string()
            }
            Err(message) => format!("rejected: {message}"),
        };
        match expected.remove(&name) {
            Some(want) if want == outcome => {}
            Some(want) => problems.push(format!("{name}: expected `{want}`, got `{outcome}`")),
            None => problems.push(format!(
                "{name}: no outcome in {} (it gives `{outcome}`)",
                manifest.display()
            )),
        }
    }
    for name in expected.keys() {
        problems.push(format!("{name}: listed in expected.txt but missing"));
    }
    assert!(
        !files.is_empty(),
        "no regression inputs in {}",
        dir.display()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
