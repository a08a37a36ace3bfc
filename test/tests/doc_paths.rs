//! Every path that README.md, docs/**/*.md and the README.md of every
//! directory name exists, so that a moved or removed file cannot leave a
//! document pointing at it. A failure names the document, the line and the
//! path.
//!
//! What counts as a path (fenced code blocks are left out, since they hold
//! commands and the files they write):
//!
//! - a word of a code span that contains a `/` and starts with a directory
//!   of the repository (`runtime/src/interp/graph.rs`), or, in a document
//!   below the root, with a name beside the document (`src/load/mod.rs` in
//!   `recipe/README.md`); it must exist from the root or from the document's
//!   directory. Words that start elsewhere (`out/y.npy`, `/tmp/dense.mlir`)
//!   are output files and examples, not checked;
//! - in a crate's README.md (a `Cargo.toml` beside it), a module named
//!   without its directory (`interp/`, `tensor.rs`): some file or folder of
//!   the crate must end so;
//! - the target of a relative Markdown link (`[gpu.md](gpu.md#tile-layouts)`),
//!   resolved from the document's directory.
//!
//! A `#anchor`, a `:LINE` suffix and the `NAME=` of an option are dropped;
//! URLs, globs and placeholders (`*`, `{a,b}`, `<family>`, `...`) are not
//! paths.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[test]
fn every_path_the_docs_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("test/ has a parent")
        .to_path_buf();
    let (problems, checked) = check_tree(&root);
    assert!(
        checked >= 100,
        "only {checked} paths found in the docs: the scan is broken"
    );
    assert!(
        problems.is_empty(),
        "{} path(s) named in the docs do not exist (correct the document; a path \
         that is only an example should not start with a directory of the repository):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The checks themselves, on a small tree of their own.
#[test]
fn a_missing_path_is_named_with_its_document_and_line() {
    let root = std::env::temp_dir().join(format!("strata-doc-paths-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let write = |path: &str, text: &str| {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create the directory");
        std::fs::write(path, text).expect("write the file");
    };
    write("lib/src/a.rs", "");
    write("lib/Cargo.toml", "");
    write("lib/README.md", "- `a.rs`, `b.rs`: modules\n- `src/a.rs`\n");
    write(
        "docs/guide.md",
        "See [the readme](../README.md) and [gone](gone.md#x).\n",
    );
    write(
        "README.md",
        concat!(
            "`lib/src/a.rs:12` and `lib/src/b.rs` and\n",
            "`out/y.npy`, `lib/<family>.rs`, `lib/*.rs`, [guide](docs/guide.md#top),\n",
            "`strata run --input x=lib/src/a.rs` and `lib/src/c.rs`.\n",
            "\n",
            "```sh\n",
            "cat lib/src/d.rs `lib/src/d.rs`\n",
            "```\n",
            "[site](https://example.com/x), `lib/src/`.\n",
        ),
    );
    let (problems, checked) = check_tree(&root);
    let _ = std::fs::remove_dir_all(&root);
    assert_eq!(
        problems,
        [
            "README.md:1: `lib/src/b.rs` does not exist",
            "README.md:3: `lib/src/c.rs` does not exist",
            "docs/guide.md:1: link target `gone.md` does not exist",
            "lib/README.md:1: `b.rs` is no file or folder of this crate",
        ]
    );
    assert_eq!(checked, 11);
}

#[test]
fn code_spans_as_commonmark_reads_them() {
    let parts: Vec<(bool, &str)> = spans("a `b/c` d ``e`f`` g `open")
        .into_iter()
        .map(|(code, _, text)| (code, text))
        .collect();
    assert_eq!(
        parts,
        [
            (false, "a "),
            (true, "b/c"),
            (false, " d "),
            (true, "e`f"),
            (false, " g `open"),
        ]
    );
    assert_eq!(clean("(runtime/src/lib.rs:12:5),"), "runtime/src/lib.rs");
    assert_eq!(clean("docs/gpu.md#tile-layouts"), "docs/gpu.md");
    assert_eq!(clean("../x.md"), "../x.md");
}

/// Checks every document under `root`: the problems found, each as
/// `DOC:LINE: ...`, and how many paths were checked.
fn check_tree(root: &Path) -> (Vec<String>, usize) {
    let tops: BTreeSet<String> = entries(root)
        .into_iter()
        .filter(|(_, is_dir)| *is_dir)
        .map(|(name, _)| name)
        .collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for path in documents(root) {
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                problems.push(format!("{shown}: {e}"));
                continue;
            }
        };
        let doc = Document::new(root, &path);
        for (line, mention) in mentions(&text) {
            let verdict = match mention {
                Mention::Code(word) => doc.check_word(root, &tops, word),
                Mention::Link(target) => doc.check_link(root, target),
            };
            match verdict {
                Verdict::NotAPath => {}
                Verdict::Exists => checked += 1,
                Verdict::Missing(why) => {
                    checked += 1;
                    problems.push(format!("{shown}:{line}: {why}"));
                }
            }
        }
    }
    (problems, checked)
}

/// What a word or a link target turned out to be.
enum Verdict {
    NotAPath,
    Exists,
    Missing(String),
}

/// Something a document mentions: a word of a code span, or a link target.
enum Mention<'a> {
    Code(&'a str),
    Link(&'a str),
}

/// A document and what its paths resolve against.
struct Document {
    /// Its directory.
    dir: PathBuf,
    /// The names beside it, when it is below the root.
    beside: BTreeSet<String>,
    /// In a crate's README: every file and folder of the crate, relative to
    /// it, folders ending in `/`.
    crate_paths: Option<Vec<String>>,
}

impl Document {
    fn new(root: &Path, path: &Path) -> Document {
        let dir = path.parent().unwrap_or(root).to_path_buf();
        let below_root = dir.as_path() != root;
        let beside: BTreeSet<String> = if below_root {
            entries(&dir).into_iter().map(|(name, _)| name).collect()
        } else {
            BTreeSet::new()
        };
        let crate_paths = (below_root && dir.join("Cargo.toml").is_file()).then(|| {
            let mut paths = Vec::new();
            all_paths(&dir, "", &mut paths);
            paths
        });
        Document {
            dir,
            beside,
            crate_paths,
        }
    }

    /// A word of a code span.
    fn check_word(&self, root: &Path, tops: &BTreeSet<String>, word: &str) -> Verdict {
        // `--input x=examples/onnx/mlp_input_x.npy`: the option's value.
        let word = word.rsplit('=').next().unwrap_or(word);
        let path = clean(word);
        if path.is_empty() || path.starts_with('/') || is_placeholder(path) {
            return Verdict::NotAPath;
        }
        let first = path.split('/').next().unwrap_or(path);
        if path.contains('/') {
            let mut bases: Vec<&Path> = Vec::new();
            if tops.contains(first) {
                bases.push(root);
            }
            if self.beside.contains(first) {
                bases.push(&self.dir);
            }
            if !bases.is_empty() {
                return if bases.iter().any(|base| base.join(path).exists()) {
                    Verdict::Exists
                } else {
                    Verdict::Missing(format!("`{path}` does not exist"))
                };
            }
        }
        if let Some(paths) = &self.crate_paths {
            let module_like = (path.ends_with('/') || path.ends_with(".rs"))
                && !path.starts_with("../")
                && path
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'));
            if module_like {
                let suffix = format!("/{path}");
                return if paths.iter().any(|p| p == path || p.ends_with(&suffix)) {
                    Verdict::Exists
                } else {
                    Verdict::Missing(format!("`{path}` is no file or folder of this crate"))
                };
            }
        }
        Verdict::NotAPath
    }

    /// The target of a Markdown link.
    fn check_link(&self, root: &Path, target: &str) -> Verdict {
        if target.starts_with('#') || target.contains("://") || target.starts_with("mailto:") {
            return Verdict::NotAPath;
        }
        let path = target.split('#').next().unwrap_or(target);
        if path.is_empty() || is_placeholder(path) {
            return Verdict::NotAPath;
        }
        let full = match path.strip_prefix('/') {
            Some(from_root) => root.join(from_root),
            None => self.dir.join(path),
        };
        if full.exists() {
            Verdict::Exists
        } else {
            Verdict::Missing(format!("link target `{path}` does not exist"))
        }
    }
}

/// A glob, a placeholder or something else that names no one file.
fn is_placeholder(path: &str) -> bool {
    path.contains(|c: char| "*{}<>$[]|:`".contains(c)) || path.contains("...")
}

/// `word` without the punctuation around it in prose, a `:LINE[:COLUMN]`
/// suffix or an `#anchor`.
fn clean(word: &str) -> &str {
    let mut path = word
        .trim_start_matches(['"', '\'', '('])
        .trim_end_matches(['"', '\'', ')', ',', ';', '.', ':']);
    while let Some((head, tail)) = path.rsplit_once(':') {
        if tail.is_empty() || !tail.chars().all(|c| c.is_ascii_digit() || c == '-') {
            break;
        }
        path = head;
    }
    if let Some(hash) = path.find('#') {
        path = &path[..hash];
    }
    path
}

/// The words of code spans and the link targets of `text`, each with its
/// line number.
fn mentions(text: &str) -> Vec<(usize, Mention<'_>)> {
    let mut out = Vec::new();
    for (first_line, block) in paragraphs(text) {
        let line_at = |offset: usize| first_line + block[..offset].matches('\n').count();
        for (is_code, offset, part) in spans(block) {
            if is_code {
                for (at, word) in words(part) {
                    out.push((line_at(offset + at), Mention::Code(word)));
                }
            } else {
                for (at, target) in link_targets(part) {
                    out.push((line_at(offset + at), Mention::Link(target)));
                }
            }
        }
    }
    out
}

/// The paragraphs of `text` (runs of non-blank lines) outside fenced code
/// blocks, each with the number of its first line. A code span may cross
/// the lines of a paragraph, never a paragraph.
fn paragraphs(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut block: Option<(usize, usize)> = None; // first line number, start byte
    let mut fence: Option<&str> = None;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            continue;
        }
        let opens = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(*f));
        if opens.is_some() || trimmed.is_empty() {
            if let Some((number, from)) = block.take() {
                out.push((number, text[from..start].trim_end()));
            }
            fence = opens;
            continue;
        }
        if block.is_none() {
            block = Some((i + 1, start));
        }
    }
    if let Some((number, from)) = block {
        out.push((number, text[from..].trim_end()));
    }
    out
}

/// `block` split into code spans and the text between them, as CommonMark
/// reads them: a run of n backticks opens a span that the next run of
/// exactly n closes, and a run that nothing closes is text. Each part comes
/// with whether it is code and its byte offset.
fn spans(block: &str) -> Vec<(bool, usize, &str)> {
    let bytes = block.as_bytes();
    let run_at = |i: usize| bytes[i..].iter().take_while(|&&b| b == b'`').count();
    let mut parts = Vec::new();
    let mut text_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let run = run_at(i);
        let open_end = i + run;
        let mut k = open_end;
        let mut close = None;
        while k < bytes.len() {
            if bytes[k] == b'`' {
                let r = run_at(k);
                if r == run {
                    close = Some(k);
                    break;
                }
                k += r;
            } else {
                k += 1;
            }
        }
        match close {
            Some(c) => {
                parts.push((false, text_start, &block[text_start..i]));
                parts.push((true, open_end, &block[open_end..c]));
                i = c + run;
                text_start = i;
            }
            None => i = open_end,
        }
    }
    parts.push((false, text_start, &block[text_start..]));
    parts
}

/// The whitespace-separated words of `text`, with their byte offsets.
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// The targets of the inline links and images of `text` (`[text](target
/// "title")`), with their byte offsets.
fn link_targets(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = text[from..].find("](") {
        let start = from + k + 2;
        let Some(len) = text[start..].find(')') else {
            break;
        };
        let mut target = text[start..start + len].trim();
        if let Some(space) = target.find(char::is_whitespace) {
            target = &target[..space];
        }
        let target = target
            .strip_prefix('<')
            .and_then(|t| t.strip_suffix('>'))
            .unwrap_or(target);
        out.push((start, target));
        from = start + len + 1;
    }
    out
}

/// The Markdown files checked: README.md, docs/**/*.md and every README.md
/// below the root.
fn documents(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, in_docs: bool, out: &mut Vec<PathBuf>) {
        for (name, is_dir) in entries(dir) {
            let path = dir.join(&name);
            if is_dir {
                walk(&path, in_docs, out);
            } else if name == "README.md" || (in_docs && name.ends_with(".md")) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for (name, is_dir) in entries(root) {
        let path = root.join(&name);
        if is_dir {
            walk(&path, name == "docs", &mut out);
        } else if name == "README.md" {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Every file and folder under `dir`, as `prefix` followed by its path
/// (folders end in `/`).
fn all_paths(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    for (name, is_dir) in entries(dir) {
        if is_dir {
            let folder = format!("{prefix}{name}/");
            all_paths(&dir.join(&name), &folder, out);
            out.push(folder);
        } else {
            out.push(format!("{prefix}{name}"));
        }
    }
}

/// The names in `dir`, each with whether it is a directory (symbolic links
/// are not followed), hidden names and build output (`target`) left out.
fn entries(dir: &Path) -> Vec<(String, bool)> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(String, bool)> = read
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            if name.starts_with('.') || name == "target" {
                return None;
            }
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            Some((name, is_dir))
        })
        .collect();
    out.sort();
    out
}
