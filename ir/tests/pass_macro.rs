//! `#[pass]`: the options of a pass struct parse, print and register as
//! the hand-written tables did.

use strata_ir::pass::{ListOption, OpPassManager, Pass, PassInfo, PassRegistry, Statistics};
use strata_ir::rewrite::RegionSimplify;
use strata_ir::{pass, Context, Diagnostic, Operation};

#[pass(
    name = "test-options",
    display_name = "TestOptions",
    summary = "Exercise every option type"
)]
struct TestOptions {
    #[option(name = "flag", default = true, description = "A flag")]
    flag: bool,
    #[option(name = "count", default = -1, description = "A signed count")]
    count: i64,
    #[option(default = 7, description = "An unsigned count")]
    max_size: u64,
    #[option(name = "label", default = "hello", description = "Some text")]
    label: String,
    #[option(name = "mode", default = "aggressive", description = "An enum")]
    mode: RegionSimplify,
    #[option(name = "sizes", description = "Integers")]
    sizes: ListOption<i64>,
    #[option(name = "names", description = "Words")]
    names: ListOption<String>,
    /// Not an option: state, at its default.
    runs: u32,
}

impl Pass for TestOptions {
    fn run(&mut self, _: &mut Context, _: Operation, _: &mut Statistics) -> Result<(), Diagnostic> {
        self.runs += 1;
        Ok(())
    }
}

#[pass(
    name = "test-anchored",
    summary = "Runs on test.func only",
    anchor = "test.func"
)]
struct Anchored;

impl Pass for Anchored {
    fn run(&mut self, _: &mut Context, _: Operation, _: &mut Statistics) -> Result<(), Diagnostic> {
        Ok(())
    }
}

#[test]
fn defaults_come_from_the_declaration() {
    let pass = TestOptions::default();
    assert!(pass.flag);
    assert_eq!(pass.count, -1);
    assert_eq!(pass.max_size, 7);
    assert_eq!(pass.label, "hello");
    assert_eq!(pass.mode, RegionSimplify::Aggressive);
    assert!(pass.sizes.is_empty() && !pass.sizes.is_set());
    assert!(pass.names.is_empty());
    assert_eq!(pass.runs, 0);
    assert_eq!(pass.name(), "test-options");
    assert_eq!(pass.display_name(), "TestOptions");
    assert_eq!(pass.description(), "Exercise every option type");
    assert_eq!(pass.anchor(), None);
    assert_eq!(Anchored.anchor(), Some("test.func"));
    assert_eq!(Anchored.display_name(), "test-anchored");
    // Sorted by name; unset lists leave empty items.
    assert_eq!(
        pass.render_options(),
        "count=-1 flag=true label=hello max-size=7 mode=aggressive  "
    );
}

#[test]
fn the_table_lists_options_in_declaration_order() {
    let registration = TestOptions::registration();
    let names: Vec<&str> = registration.options.iter().map(|d| d.name).collect();
    assert_eq!(
        names,
        ["flag", "count", "max-size", "label", "mode", "sizes", "names"]
    );
    let defaults: Vec<&str> = registration.options.iter().map(|d| d.default).collect();
    assert_eq!(defaults, ["true", "-1", "7", "hello", "aggressive", "", ""]);
    let mut registry = PassRegistry::default();
    registry.register(registration);
    let text = registry.describe();
    assert!(text.contains(
        "    --mode=<enum>                  - An enum (enum, default: aggressive)\n      one of: disabled, normal, aggressive\n"
    ));
    assert!(text.contains("--sizes=<list of long>"));
}

#[test]
fn options_parse_from_pipeline_text() {
    let mut pass = TestOptions::default();
    pass.set_option("flag", Some("false")).expect("bool");
    pass.set_option("count", Some("12")).expect("int");
    pass.set_option("max-size", Some("3")).expect("uint");
    pass.set_option("label", Some("'a b'")).expect("string");
    pass.set_option("mode", Some("disabled")).expect("enum");
    pass.set_option("sizes", Some("{1,2}")).expect("list");
    pass.set_option("sizes", Some("3")).expect("list again");
    pass.set_option("names", Some("x,\"y\"")).expect("words");
    assert!(!pass.flag);
    assert_eq!((pass.count, pass.max_size), (12, 3));
    assert_eq!(pass.label, "a b");
    assert_eq!(pass.mode, RegionSimplify::Disabled);
    assert_eq!(&*pass.sizes, &[1, 2, 3]);
    assert_eq!(&*pass.names, &["x".to_string(), "y".to_string()]);
    assert_eq!(
        pass.render_options(),
        "count=12 flag=false label=a b max-size=3 mode=disabled names={x,y} sizes={1,2,3}"
    );
    // A bare flag is true; an empty list value clears the list.
    pass.set_option("flag", None).expect("bare flag");
    pass.set_option("sizes", Some("")).expect("empty list");
    assert!(pass.flag);
    assert!(pass.sizes.is_empty() && pass.sizes.is_set());
    assert!(pass.render_options().ends_with("sizes={}"));
}

#[test]
fn bad_values_have_llvm_messages() {
    let mut pass = TestOptions::default();
    let error = |pass: &mut TestOptions, key: &str, value: Option<&str>| {
        pass.set_option(key, value).expect_err("invalid")
    };
    assert_eq!(
        error(&mut pass, "count", Some("x")),
        "for the --count option: 'x' value invalid for long argument!"
    );
    assert_eq!(
        error(&mut pass, "max-size", Some("-1")),
        "for the --max-size option: '-1' value invalid for ulong argument!"
    );
    assert_eq!(
        error(&mut pass, "mode", Some("fast")),
        "for the --mode option: 'fast' value invalid for enum argument!"
    );
    assert_eq!(
        error(&mut pass, "count", None),
        "for the --count option: requires a value!"
    );
    assert_eq!(
        error(&mut pass, "sizes", Some("1,a")),
        "for the --sizes option: '1,a' value invalid for list of long argument!"
    );
    assert_eq!(error(&mut pass, "bogus", Some("1")), "no such option bogus");
    assert_eq!(
        Anchored.set_option("bogus", None).expect_err("no options"),
        "no such option bogus"
    );
}

#[test]
fn pipelines_build_and_print_with_the_options() {
    let mut registry = PassRegistry::default();
    registry.register(TestOptions::registration());
    let pm = OpPassManager::parse(
        &registry,
        "builtin.module(test-options{count=2 names=a,b},test-options)",
    )
    .expect("valid pipeline");
    assert_eq!(
        pm.to_text(),
        "builtin.module(test-options{count=2 flag=true label=hello max-size=7 mode=aggressive names={a,b} },test-options{count=-1 flag=true label=hello max-size=7 mode=aggressive  })"
    );
    let error = OpPassManager::parse(&registry, "builtin.module(test-options{count=x})")
        .err()
        .expect("invalid option");
    assert_eq!(
        error.message,
        "for the --count option: 'x' value invalid for long argument!\n\nfailed to add `test-options` with options `count=x`\n"
    );
    let error = OpPassManager::parse(&registry, "builtin.module(test-options{nope=1})")
        .err()
        .expect("unknown option");
    assert!(error
        .message
        .starts_with("<Pass-Options-Parser>: no such option nope"));
}

#[test]
fn an_anchored_pass_cannot_be_added_elsewhere() {
    let mut pm = OpPassManager::new("builtin.module");
    let error = pm
        .add_pass(Box::new(Anchored))
        .expect_err("restricted to test.func");
    assert!(error.contains("restricted to 'test.func'"));
    pm.nest("test.func")
        .add_pass(Box::new(Anchored))
        .expect("nested");
}
