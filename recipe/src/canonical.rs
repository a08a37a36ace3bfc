//! The canonical text of a recipe and its sha256.
//!
//! The canonical form is TOML with every key written, defaults filled in:
//! `version` first, then the sections and their keys in sorted order, each
//! sub-table as its own `[a.b]` header, one value per line, no comments.
//! Lists that are sets (op names, passes, shapes, chains) are sorted and
//! de-duplicated, and settings that a disabled feature makes meaningless
//! are written at their defaults. So key order, comments, formatting and
//! keys written with their default value do not change the text, and any
//! change of meaning does.

use std::fmt::Write;

use sha2::{Digest, Sha256};

use crate::schema::*;

/// Writes the canonical text of `recipe`.
pub(crate) fn canonical(recipe: &Recipe) -> String {
    let r = normalized(recipe);
    let mut w = Writer::default();
    w.line(format!("version = {FORMAT_VERSION}"));

    let c = &r.capture;
    w.header("capture");
    w.kv("exclude_ops", strings(&c.exclude_ops));
    w.kv("include_ops", strings(&c.include_ops));
    let shapes: Vec<String> = c.input_shapes.iter().map(|s| ints(s)).collect();
    w.kv("input_shapes", format!("[{}]", shapes.join(", ")));
    // Written only when set: a key added after recipes were hashed must
    // not change the hash of every recipe (and refuse their artifacts).
    if c.min_segment_ops != 1 {
        w.kv("min_segment_ops", c.min_segment_ops.to_string());
    }
    w.kv("outside_buckets", string(c.outside_buckets.spelling()));
    w.header("capture.buckets");
    for (name, sizes) in &c.buckets {
        w.kv(&key(name), ints(sizes));
    }

    let g = &r.codegen;
    w.header("codegen");
    w.kv(
        "accumulate_precision",
        string(g.accumulate_precision.name()),
    );
    w.kv(
        "emulate_precision_casts",
        g.emulate_precision_casts.to_string(),
    );
    w.kv("keep_fp32", strings(&g.keep_fp32));
    w.kv("kernel_selection", string(g.kernel_selection.spelling()));
    w.kv("num_warps", g.num_warps.to_string());
    w.kv("precision", string(g.precision.name()));
    w.kv(
        "ptx_version",
        string(&format!("{}.{}", g.ptx_version.0, g.ptx_version.1)),
    );
    w.kv("target", string(g.target.spelling()));
    w.kv("threads", g.threads.to_string());
    w.header("codegen.tiles");
    w.kv("block", g.tiles.block.to_string());
    w.kv("block_k", g.tiles.block_k.to_string());
    w.kv("block_m", g.tiles.block_m.to_string());
    w.kv("block_n", g.tiles.block_n.to_string());

    let k = &r.contracts;
    w.header("contracts");
    if let Some(bytes) = k.max_activation_bytes {
        w.kv("max_activation_bytes", bytes.to_string());
    }
    w.header("contracts.custom_ops");
    for (name, op) in &k.custom_ops {
        w.header(&format!("contracts.custom_ops.{}", key(name)));
        w.kv("sha256", string(&op.sha256));
        w.kv("version", string(&op.version));
    }
    w.header("contracts.inputs");
    for (name, input) in &k.inputs {
        w.header(&format!("contracts.inputs.{}", key(name)));
        if let Some(dtype) = &input.dtype {
            w.kv("dtype", string(dtype));
        }
        if let Some(shape) = &input.shape {
            let dims: Vec<String> = shape
                .iter()
                .map(|d| match d {
                    Dim::Fixed(n) => n.to_string(),
                    Dim::Symbol(s) => string(s),
                })
                .collect();
            w.kv("shape", format!("[{}]", dims.join(", ")));
        }
    }
    w.header("contracts.tolerance");
    if let Some(atol) = k.tolerance.atol {
        w.kv("atol", float(atol));
    }
    if let Some(rtol) = k.tolerance.rtol {
        w.kv("rtol", float(rtol));
    }

    let o = &r.optimize;
    w.header("optimize");
    w.kv("dead_code_elimination", o.dead_code_elimination.to_string());
    w.kv("disable_passes", strings(&o.disable_passes));
    w.kv("layout", string(o.layout.spelling()));
    w.kv("memory_reuse", o.memory_reuse.to_string());
    w.header("optimize.constant_folding");
    w.kv("enabled", o.constant_folding.enabled.to_string());
    w.kv("max_elements", o.constant_folding.max_elements.to_string());
    let f = &o.fusion;
    w.header("optimize.fusion");
    w.kv("enabled", f.enabled.to_string());
    w.kv("max_fused_ops", f.max_fused_ops.to_string());
    w.kv("min_fused_ops", f.min_fused_ops.to_string());
    let chains: Vec<String> = f.must_fuse.iter().map(|c| strings(c)).collect();
    w.kv("must_fuse", format!("[{}]", chains.join(", ")));
    w.kv("never_fuse", strings(&f.never_fuse));

    let t = &r.runtime;
    w.header("runtime");
    w.kv("cuda_graphs", t.cuda_graphs.to_string());
    w.kv("exe_mode", string(t.exe_mode.spelling()));
    w.kv("fallback", string(t.fallback.spelling()));
    // Written only when set (keys added after recipes were hashed).
    if t.on_budget_exhausted != BudgetAction::Eager {
        w.kv(
            "on_budget_exhausted",
            string(t.on_budget_exhausted.spelling()),
        );
    }
    w.kv("plan_cache_limit", t.plan_cache_limit.to_string());
    if t.recompile_budget != 0 {
        w.kv("recompile_budget", t.recompile_budget.to_string());
    }
    w.out
}

/// The lowercase hex sha256 of `text`.
pub(crate) fn sha256_hex(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// `recipe` with sets sorted and de-duplicated, and the settings of
/// disabled features at their defaults.
fn normalized(recipe: &Recipe) -> Recipe {
    fn set<T: Ord>(v: &mut Vec<T>) {
        v.sort();
        v.dedup();
    }
    let mut r = recipe.clone();
    set(&mut r.capture.include_ops);
    set(&mut r.capture.exclude_ops);
    set(&mut r.capture.input_shapes);
    set(&mut r.optimize.disable_passes);
    set(&mut r.codegen.keep_fp32);
    let f = &mut r.optimize.fusion;
    set(&mut f.never_fuse);
    set(&mut f.must_fuse);
    if !f.enabled {
        *f = Fusion {
            enabled: false,
            ..Fusion::default()
        };
    }
    if !r.optimize.constant_folding.enabled {
        r.optimize.constant_folding = ConstantFolding {
            enabled: false,
            ..ConstantFolding::default()
        };
    }
    r
}

#[derive(Default)]
struct Writer {
    out: String,
}

impl Writer {
    fn line(&mut self, s: String) {
        self.out.push_str(&s);
        self.out.push('\n');
    }

    fn header(&mut self, path: &str) {
        self.out.push('\n');
        self.line(format!("[{path}]"));
    }

    fn kv(&mut self, key: &str, value: String) {
        self.line(format!("{key} = {value}"));
    }
}

/// A TOML key: bare when it can be, quoted otherwise.
fn key(name: &str) -> String {
    let bare = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if bare {
        name.to_string()
    } else {
        string(name)
    }
}

/// A TOML basic string.
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn strings(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|s| string(s)).collect();
    format!("[{}]", items.join(", "))
}

fn ints(items: &[i64]) -> String {
    let items: Vec<String> = items.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// The shortest text that reads back as the same f64 (TOML accepts it).
fn float(f: f64) -> String {
    format!("{f:?}")
}
