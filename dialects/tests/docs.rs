//! The dialect reference pages in docs/dialects/ are generated from the op
//! definitions; this test fails when one is stale (`STRATA_BLESS=1` rewrites them).

use std::path::PathBuf;

#[test]
fn dialect_docs_are_current() {
    let mut ctx = strata_ir::Context::new();
    strata_dialects::register_all(&mut ctx);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/dialects");
    let bless = std::env::var_os("STRATA_BLESS").is_some();
    let mut stale = Vec::new();
    // Every registered dialect has a page.
    for dialect in ctx.registry().dialects() {
        let text = strata_dialects::docs::dialect_doc(&ctx, dialect);
        let path = root.join(format!("{dialect}.md"));
        if bless {
            std::fs::write(&path, &text).expect("write docs page");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale dialect docs (run `STRATA_BLESS=1 cargo test -p strata-dialects --test docs`): {stale:?}"
    );
}
