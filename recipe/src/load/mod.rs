//! Reading a spanned tree into a [`Recipe`]: the schema, checked key by
//! key. Every problem is recorded with its span and reading goes on (the
//! field keeps its default), so one run reports every error of a file.

use std::collections::BTreeMap;
use std::ops::Range;

mod values;

use crate::error::{Problem, Raw, Severity};
use crate::node::{Key, Node, Val};
use crate::pipeline::DISABLEABLE_PASSES;
use crate::schema::*;
use values::{entry_span, is_symbol, is_version, parse_pow2};

/// Reads recipes; collects diagnostics.
pub(crate) struct Reader<'o> {
    pub raws: Vec<Raw>,
    known_op: Option<&'o dyn Fn(&str) -> bool>,
}

/// A table being read: its path and entries (empty when absent).
struct Tab<'n> {
    path: String,
    entries: &'n [(Key, Node)],
}

impl<'n> Tab<'n> {
    fn get(&self, key: &str) -> Option<&'n Node> {
        self.entries
            .iter()
            .find(|(k, _)| k.name == key)
            .map(|(_, v)| v)
    }

    fn path_of(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn span_of(&self, key: &str) -> Option<Range<usize>> {
        self.get(key).map(|n| n.span.clone())
    }
}

const TOP: &[&str] = &[
    "version",
    "capture",
    "optimize",
    "codegen",
    "runtime",
    "contracts",
];
const CAPTURE: &[&str] = &[
    "include_ops",
    "exclude_ops",
    "input_shapes",
    "buckets",
    "outside_buckets",
    "min_segment_ops",
];
const OPTIMIZE: &[&str] = &[
    "constant_folding",
    "dead_code_elimination",
    "fusion",
    "layout",
    "memory_reuse",
    "disable_passes",
];
const FOLDING: &[&str] = &["enabled", "max_elements"];
const FUSION: &[&str] = &[
    "enabled",
    "min_fused_ops",
    "max_fused_ops",
    "never_fuse",
    "must_fuse",
];
const CODEGEN: &[&str] = &[
    "target",
    "ptx_version",
    "precision",
    "accumulate_precision",
    "emulate_precision_casts",
    "keep_fp32",
    "kernel_selection",
    "tiles",
    "num_warps",
    "threads",
];
const TILES: &[&str] = &["block", "block_m", "block_n", "block_k"];
const RUNTIME: &[&str] = &[
    "exe_mode",
    "plan_cache_limit",
    "fallback",
    "cuda_graphs",
    "recompile_budget",
    "on_budget_exhausted",
    "cache_dir",
];
const CONTRACTS: &[&str] = &["tolerance", "custom_ops", "max_activation_bytes", "inputs"];
const TOLERANCE: &[&str] = &["rtol", "atol"];
const CUSTOM_OP: &[&str] = &["version", "sha256"];
const INPUT: &[&str] = &["dtype", "shape"];

/// Lowest and highest PTX ISA versions accepted (LLVM 22 emits up to 8.8).
const PTX_MIN: (i64, i64) = (7, 0);
const PTX_MAX: (i64, i64) = (8, 8);

impl<'o> Reader<'o> {
    pub fn new(known_op: Option<&'o dyn Fn(&str) -> bool>) -> Self {
        Reader {
            raws: Vec::new(),
            known_op,
        }
    }

    fn push(&mut self, span: Range<usize>, severity: Severity, problem: Problem) {
        self.raws.push(Raw {
            span,
            severity,
            problem,
        });
    }

    fn error(&mut self, span: Range<usize>, problem: Problem) {
        self.push(span, Severity::Error, problem);
    }

    fn wrong_type(&mut self, node: &Node, path: String, expected: &'static str) {
        let found = node.value.describe();
        self.error(
            node.span.clone(),
            Problem::WrongType {
                path,
                expected,
                found,
            },
        );
    }

    fn out_of_range(&mut self, node: &Node, path: String, value: String, allowed: String) {
        self.error(
            node.span.clone(),
            Problem::OutOfRange {
                path,
                value,
                allowed,
            },
        );
    }

    /// Reads the whole recipe.
    pub fn recipe(&mut self, root: &Node) -> Recipe {
        let empty = Tab {
            path: String::new(),
            entries: &[],
        };
        let top = self.table(root, String::new(), TOP).unwrap_or(empty);
        if let Some(v) = top.get("version") {
            match v.value {
                Val::Int(FORMAT_VERSION) => {}
                Val::Int(n) => self.out_of_range(v, "version".into(), n.to_string(), "1".into()),
                _ => self.wrong_type(v, "version".into(), "an integer"),
            }
        }
        let capture = self.section(&top, "capture", CAPTURE);
        let optimize = self.section(&top, "optimize", OPTIMIZE);
        let codegen = self.section(&top, "codegen", CODEGEN);
        let runtime = self.section(&top, "runtime", RUNTIME);
        let contracts = self.section(&top, "contracts", CONTRACTS);
        Recipe {
            capture: self.capture(&capture),
            optimize: self.optimize(&optimize),
            codegen: self.codegen(&codegen),
            runtime: self.runtime(&runtime),
            contracts: self.contracts(&contracts),
        }
    }

    fn capture(&mut self, t: &Tab<'_>) -> Capture {
        let include_ops = self.ops(t, "include_ops");
        let exclude_ops = self.ops(t, "exclude_ops");
        if let Some(node) = t.get("exclude_ops") {
            for name in exclude_ops.iter().filter(|n| include_ops.contains(n)) {
                self.error(
                    entry_span(node, name),
                    Problem::Contradiction(format!(
                        "op '{name}' is in both 'capture.include_ops' and 'capture.exclude_ops'"
                    )),
                );
            }
        }
        let mut input_shapes = Vec::new();
        if let Some(node) = t.get("input_shapes") {
            let path = t.path_of("input_shapes");
            match &node.value {
                Val::Array(shapes) => {
                    for (i, shape) in shapes.iter().enumerate() {
                        let path = format!("{path}[{i}]");
                        let dims = self.int_list(shape, &path, 0, i64::MAX, "a size >= 0");
                        input_shapes.push(dims.into_iter().map(|(d, _)| d).collect());
                    }
                }
                _ => self.wrong_type(node, path, "an array of shapes (arrays of sizes)"),
            }
        }
        let mut buckets = BTreeMap::new();
        if let Some(node) = t.get("buckets") {
            let path = t.path_of("buckets");
            if let Some(table) = self.table(node, path, &[]).map(|t| t.entries) {
                for (key, value) in table {
                    let path = format!("{}.{}", t.path_of("buckets"), key.name);
                    if !is_symbol(&key.name) {
                        self.error(
                            key.span.clone(),
                            Problem::OutOfRange {
                                path: path.clone(),
                                value: format!("\"{}\"", key.name),
                                allowed: "a dimension symbol (letters, digits, '_')".into(),
                            },
                        );
                        continue;
                    }
                    if let Some(sizes) = self.bucket(value, &path) {
                        buckets.insert(key.name.clone(), sizes);
                    }
                }
            }
        }
        Capture {
            include_ops,
            exclude_ops,
            input_shapes,
            buckets,
            outside_buckets: self.choice(t, "outside_buckets", OutsideBuckets::default()),
            min_segment_ops: self.int(t, "min_segment_ops", 1, 1, 1 << 20),
        }
    }

    /// A bucket list: increasing sizes, or `"pow2:MIN..MAX"`.
    fn bucket(&mut self, node: &Node, path: &str) -> Option<Vec<i64>> {
        match &node.value {
            Val::Array(_) => {
                let sizes = self.int_list(node, path, 1, i64::MAX, "a size >= 1");
                if sizes.is_empty() {
                    self.out_of_range(node, path.into(), "[]".into(), "at least one size".into());
                    return None;
                }
                for pair in sizes.windows(2) {
                    if pair[1].0 <= pair[0].0 {
                        self.error(
                            pair[1].1.clone(),
                            Problem::Contradiction(format!(
                                "'{path}' must be strictly increasing: {} after {}",
                                pair[1].0, pair[0].0
                            )),
                        );
                        return None;
                    }
                }
                Some(sizes.into_iter().map(|(s, _)| s).collect())
            }
            Val::Str(s) => {
                let range = parse_pow2(s);
                if range.is_none() {
                    self.out_of_range(
                        node,
                        path.into(),
                        format!("\"{s}\""),
                        "\"pow2:MIN..MAX\" with MIN <= MAX powers of two".into(),
                    );
                }
                range
            }
            _ => {
                self.wrong_type(node, path.into(), "an array of sizes or \"pow2:MIN..MAX\"");
                None
            }
        }
    }

    fn optimize(&mut self, t: &Tab<'_>) -> Optimize {
        let defaults = Optimize::default();
        let constant_folding = match t.get("constant_folding") {
            None => defaults.constant_folding,
            Some(Node {
                value: Val::Bool(b),
                ..
            }) => ConstantFolding {
                enabled: *b,
                ..ConstantFolding::default()
            },
            Some(node) => match &node.value {
                Val::Table(_) => {
                    let path = t.path_of("constant_folding");
                    let d = ConstantFolding::default();
                    match self.table(node, path, FOLDING) {
                        Some(cf) => ConstantFolding {
                            enabled: self.bool(&cf, "enabled", d.enabled),
                            max_elements: self.int(&cf, "max_elements", d.max_elements, 0, 1 << 30),
                        },
                        None => d,
                    }
                }
                _ => {
                    self.wrong_type(node, t.path_of("constant_folding"), "a boolean or a table");
                    defaults.constant_folding
                }
            },
        };
        let fusion = match t.get("fusion") {
            None => defaults.fusion,
            Some(Node {
                value: Val::Bool(b),
                ..
            }) => Fusion {
                enabled: *b,
                ..Fusion::default()
            },
            Some(node) => match &node.value {
                Val::Table(_) => {
                    let path = t.path_of("fusion");
                    match self.table(node, path, FUSION) {
                        Some(f) => self.fusion(&f),
                        None => Fusion::default(),
                    }
                }
                _ => {
                    self.wrong_type(node, t.path_of("fusion"), "a boolean or a table");
                    defaults.fusion
                }
            },
        };
        let disable_passes = self.strings(t, "disable_passes");
        if let Some(node) = t.get("disable_passes") {
            for name in &disable_passes {
                if !DISABLEABLE_PASSES.contains(&name.as_str()) {
                    let allowed = format!("one of: {}", DISABLEABLE_PASSES.join(", "));
                    self.error(
                        entry_span(node, name),
                        Problem::OutOfRange {
                            path: t.path_of("disable_passes"),
                            value: format!("\"{name}\""),
                            allowed,
                        },
                    );
                }
            }
        }
        Optimize {
            constant_folding,
            dead_code_elimination: self.bool(t, "dead_code_elimination", true),
            fusion,
            layout: self.choice(t, "layout", Layout::default()),
            memory_reuse: self.bool(t, "memory_reuse", true),
            disable_passes,
        }
    }

    fn fusion(&mut self, t: &Tab<'_>) -> Fusion {
        let d = Fusion::default();
        let enabled = self.bool(t, "enabled", d.enabled);
        let mut min = self.int(t, "min_fused_ops", d.min_fused_ops, 1, 1024);
        let mut max = self.int(t, "max_fused_ops", d.max_fused_ops, 1, 1024);
        // A bound written alone moves the other, unwritten one with it
        // (`max_fused_ops = 1` alone means no group of two or more).
        match (t.get("min_fused_ops"), t.get("max_fused_ops")) {
            (None, Some(_)) => min = min.min(max),
            (Some(_), None) => max = max.max(min),
            _ => {}
        }
        if min > max {
            let span = t
                .span_of("min_fused_ops")
                .or_else(|| t.span_of("max_fused_ops"))
                .unwrap_or(0..0);
            self.error(
                span,
                Problem::Contradiction(format!(
                    "'{}' ({min}) is greater than '{}' ({max})",
                    t.path_of("min_fused_ops"),
                    t.path_of("max_fused_ops")
                )),
            );
        }
        let never_fuse = self.ops(t, "never_fuse");
        let mut must_fuse = Vec::new();
        if let Some(node) = t.get("must_fuse") {
            let path = t.path_of("must_fuse");
            match &node.value {
                Val::Array(chains) => {
                    for (i, chain) in chains.iter().enumerate() {
                        let path = format!("{path}[{i}]");
                        let ops = self.op_names(chain, &path);
                        if ops.len() < 2 {
                            self.out_of_range(
                                chain,
                                path,
                                format!("{} op(s)", ops.len()),
                                "a chain of at least 2 ops".into(),
                            );
                        }
                        for (name, span) in &ops {
                            if never_fuse.contains(name) {
                                self.error(
                                    span.clone(),
                                    Problem::Contradiction(format!(
                                        "op '{name}' is in both '{}' and '{}'",
                                        t.path_of("must_fuse"),
                                        t.path_of("never_fuse")
                                    )),
                                );
                            }
                        }
                        must_fuse.push(ops.into_iter().map(|(n, _)| n).collect());
                    }
                }
                _ => self.wrong_type(
                    node,
                    path.clone(),
                    "an array of op chains (arrays of op names)",
                ),
            }
            if !enabled && !must_fuse.is_empty() {
                self.error(
                    node.span.clone(),
                    Problem::Contradiction(format!(
                        "'{path}' needs fusion, but '{}' is false",
                        t.path_of("enabled")
                    )),
                );
            }
        }
        Fusion {
            enabled,
            min_fused_ops: min,
            max_fused_ops: max,
            never_fuse,
            must_fuse,
        }
    }

    fn codegen(&mut self, t: &Tab<'_>) -> Codegen {
        let d = Codegen::default();
        let target = self.choice(t, "target", d.target);
        let ptx_version = match t.get("ptx_version") {
            None => d.ptx_version,
            Some(node) => self.ptx_version(node, t.path_of("ptx_version"), target),
        };
        let precision = self.choice(t, "precision", d.precision);
        let accumulate_precision = self.choice(t, "accumulate_precision", d.accumulate_precision);
        if !accumulate_precision.holds(precision) {
            let span = t
                .span_of("accumulate_precision")
                .or_else(|| t.span_of("precision"))
                .unwrap_or(0..0);
            self.error(
                span,
                Problem::Contradiction(format!(
                    "'{}' ({}) is narrower than '{}' ({}); accumulate in f32 or in the compute precision",
                    t.path_of("accumulate_precision"),
                    accumulate_precision.name(),
                    t.path_of("precision"),
                    precision.name()
                )),
            );
        }
        let tiles = {
            let tt = self.section(t, "tiles", TILES);
            let dt = Tiles::default();
            Tiles {
                block: self.pow2(&tt, "block", dt.block, 65536),
                block_m: self.pow2(&tt, "block_m", dt.block_m, 1024),
                block_n: self.pow2(&tt, "block_n", dt.block_n, 1024),
                block_k: self.pow2(&tt, "block_k", dt.block_k, 1024),
            }
        };
        Codegen {
            target,
            ptx_version,
            precision,
            accumulate_precision,
            emulate_precision_casts: self.bool(t, "emulate_precision_casts", false),
            keep_fp32: self.ops(t, "keep_fp32"),
            kernel_selection: self.choice(t, "kernel_selection", d.kernel_selection),
            tiles,
            num_warps: self.pow2(t, "num_warps", d.num_warps, 32),
            threads: self.int(t, "threads", d.threads, 0, 1024),
        }
    }

    fn ptx_version(&mut self, node: &Node, path: String, target: Target) -> (i64, i64) {
        let d = Codegen::default().ptx_version;
        let Val::Str(s) = &node.value else {
            self.wrong_type(node, path, "a string such as \"8.8\"");
            return d;
        };
        let allowed = format!(
            "a version from \"{}.{}\" to \"{}.{}\"",
            PTX_MIN.0, PTX_MIN.1, PTX_MAX.0, PTX_MAX.1
        );
        let parsed = s
            .split_once('.')
            .and_then(|(a, b)| Some((a.parse::<i64>().ok()?, b.parse::<i64>().ok()?)))
            .filter(|v| (PTX_MIN..=PTX_MAX).contains(v) && (0..10).contains(&v.1));
        let Some(version) = parsed else {
            self.out_of_range(node, path, format!("\"{s}\""), allowed);
            return d;
        };
        if target == Target::Sm90 && version < (7, 8) {
            self.error(
                node.span.clone(),
                Problem::Contradiction(format!(
                    "'{path}' \"{s}\" is older than sm_90 needs (PTX 7.8)"
                )),
            );
        }
        version
    }

    fn runtime(&mut self, t: &Tab<'_>) -> Runtime {
        let d = Runtime::default();
        Runtime {
            exe_mode: self.choice(t, "exe_mode", d.exe_mode),
            plan_cache_limit: self.int(t, "plan_cache_limit", d.plan_cache_limit, 1, 65536),
            fallback: self.choice(t, "fallback", d.fallback),
            cuda_graphs: self.bool(t, "cuda_graphs", d.cuda_graphs),
            recompile_budget: self.int(t, "recompile_budget", d.recompile_budget, 0, 1 << 31),
            on_budget_exhausted: self.choice(t, "on_budget_exhausted", d.on_budget_exhausted),
            cache_dir: self.string(t, "cache_dir", true),
        }
    }

    fn contracts(&mut self, t: &Tab<'_>) -> Contracts {
        let tol = self.section(t, "tolerance", TOLERANCE);
        let tolerance = Tolerance {
            rtol: self.tolerance(&tol, "rtol"),
            atol: self.tolerance(&tol, "atol"),
        };
        let mut custom_ops = BTreeMap::new();
        if let Some(node) = t.get("custom_ops") {
            if let Some(ops) = self.table(node, t.path_of("custom_ops"), &[]) {
                for (key, value) in ops.entries {
                    let path = format!("{}.{}", ops.path, key.name);
                    if let Some(op) = self.custom_op(value, path, key) {
                        custom_ops.insert(key.name.clone(), op);
                    }
                }
            }
        }
        let max_activation_bytes = t
            .get("max_activation_bytes")
            .map(|_| self.int(t, "max_activation_bytes", 1, 1, i64::MAX));
        let mut inputs = BTreeMap::new();
        if let Some(node) = t.get("inputs") {
            if let Some(table) = self.table(node, t.path_of("inputs"), &[]) {
                for (key, value) in table.entries {
                    let path = format!("{}.{}", table.path, key.name);
                    if let Some(input) = self.table(value, path, INPUT) {
                        inputs.insert(key.name.clone(), self.input(&input));
                    }
                }
            }
        }
        Contracts {
            tolerance,
            custom_ops,
            max_activation_bytes,
            inputs,
        }
    }

    fn tolerance(&mut self, t: &Tab<'_>, key: &str) -> Option<f64> {
        let node = t.get(key)?;
        let path = t.path_of(key);
        let value = match node.value {
            Val::Float(f) => f,
            Val::Int(i) => i as f64,
            _ => {
                self.wrong_type(node, path, "a number");
                return None;
            }
        };
        if !value.is_finite() || !(0.0..=1.0).contains(&value) {
            self.out_of_range(
                node,
                path,
                format!("{value}"),
                "a number from 0 to 1".into(),
            );
            return None;
        }
        Some(value)
    }

    fn custom_op(&mut self, node: &Node, path: String, key: &Key) -> Option<CustomOp> {
        let t = self.table(node, path.clone(), CUSTOM_OP)?;
        let field = |this: &mut Self, name: &str| -> Option<(String, &Node)> {
            match t.get(name) {
                None => {
                    this.error(
                        key.span.clone(),
                        Problem::MissingKey {
                            path: t.path_of(name),
                        },
                    );
                    None
                }
                Some(n) => match &n.value {
                    Val::Str(s) => Some((s.clone(), n)),
                    _ => {
                        this.wrong_type(n, t.path_of(name), "a string");
                        None
                    }
                },
            }
        };
        let version = field(self, "version");
        let sha256 = field(self, "sha256");
        let (version, vnode) = version?;
        let (sha256, snode) = sha256?;
        let mut ok = true;
        if !is_version(&version) {
            self.out_of_range(
                vnode,
                t.path_of("version"),
                format!("\"{version}\""),
                "a version such as \"1.2.3\"".into(),
            );
            ok = false;
        }
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            self.out_of_range(
                snode,
                t.path_of("sha256"),
                format!("\"{sha256}\""),
                "64 hexadecimal digits".into(),
            );
            ok = false;
        }
        ok.then(|| CustomOp {
            version,
            sha256: sha256.to_ascii_lowercase(),
        })
    }

    fn input(&mut self, t: &Tab<'_>) -> InputConstraint {
        let dtype = t.get("dtype").and_then(|node| match &node.value {
            Val::Str(s) if DTYPES.contains(&s.as_str()) => Some(s.clone()),
            Val::Str(s) => {
                let allowed = format!("one of: {}", DTYPES.join(", "));
                self.out_of_range(node, t.path_of("dtype"), format!("\"{s}\""), allowed);
                None
            }
            _ => {
                self.wrong_type(node, t.path_of("dtype"), "a string");
                None
            }
        });
        let shape = t.get("shape").and_then(|node| {
            let path = t.path_of("shape");
            let Val::Array(items) = &node.value else {
                self.wrong_type(node, path, "an array of sizes and symbols");
                return None;
            };
            let mut dims = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let path = format!("{path}[{i}]");
                match &item.value {
                    Val::Int(n) if *n >= 0 => dims.push(Dim::Fixed(*n)),
                    Val::Int(n) => {
                        self.out_of_range(item, path, n.to_string(), "a size >= 0".into())
                    }
                    Val::Str(s) if is_symbol(s) => dims.push(Dim::Symbol(s.clone())),
                    Val::Str(s) => self.out_of_range(
                        item,
                        path,
                        format!("\"{s}\""),
                        "a symbol (letters, digits, '_')".into(),
                    ),
                    _ => self.wrong_type(item, path, "a size or a symbol"),
                }
            }
            Some(dims)
        });
        InputConstraint { dtype, shape }
    }
}
