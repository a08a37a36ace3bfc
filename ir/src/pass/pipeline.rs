//! MLIR's textual pass-pipeline grammar:
//! `builtin.module(func.func(canonicalize{max-iterations=3},cse),symbol-dce)`.

/// One element of a pipeline: a pass with its raw option text, or a nested
/// pipeline anchored on an operation name (or `any`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PipelineElement {
    /// `name` or `name{options}`.
    Pass {
        /// The pass name.
        name: String,
        /// The text between the braces, verbatim.
        options: Option<String>,
        /// Byte offset of the name in the pipeline text.
        offset: usize,
    },
    /// `anchor(elements)`.
    Nested {
        /// The operation name (or `any`).
        anchor: String,
        /// The nested elements.
        elements: Vec<PipelineElement>,
        /// Byte offset of the anchor in the pipeline text.
        offset: usize,
    },
}

/// A located syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineError {
    /// Byte offset in the text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// Parse pipeline text into elements.
pub fn parse_pipeline(text: &str) -> Result<Vec<PipelineElement>, PipelineError> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let elements = parse_list(bytes, &mut pos)?;
    skip_ws(bytes, &mut pos);
    if pos != bytes.len() {
        return Err(PipelineError {
            offset: pos,
            message: format!("unexpected '{}' in pass pipeline", bytes[pos] as char),
        });
    }
    Ok(elements)
}

fn skip_ws(bytes: &[u8], pos: &mut usize) {
    while *pos < bytes.len() && bytes[*pos].is_ascii_whitespace() {
        *pos += 1;
    }
}

fn parse_list(bytes: &[u8], pos: &mut usize) -> Result<Vec<PipelineElement>, PipelineError> {
    let mut elements = Vec::new();
    loop {
        skip_ws(bytes, pos);
        let start = *pos;
        while *pos < bytes.len()
            && !b"(){},".contains(&bytes[*pos])
            && !bytes[*pos].is_ascii_whitespace()
        {
            *pos += 1;
        }
        let name = String::from_utf8_lossy(&bytes[start..*pos]).into_owned();
        skip_ws(bytes, pos);
        match bytes.get(*pos) {
            Some(b'(') => {
                *pos += 1;
                let nested = parse_list(bytes, pos)?;
                skip_ws(bytes, pos);
                if bytes.get(*pos) != Some(&b')') {
                    return Err(PipelineError {
                        offset: *pos,
                        message: "expected ')' to close nested pass pipeline".into(),
                    });
                }
                *pos += 1;
                elements.push(PipelineElement::Nested {
                    anchor: name,
                    elements: nested,
                    offset: start,
                });
            }
            Some(b'{') => {
                let open = *pos;
                let mut level = 0usize;
                while *pos < bytes.len() {
                    match bytes[*pos] {
                        b'{' => level += 1,
                        b'}' => {
                            level -= 1;
                            if level == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    *pos += 1;
                }
                if *pos >= bytes.len() {
                    return Err(PipelineError {
                        offset: open,
                        message: "missing closing '}' while processing pass options".into(),
                    });
                }
                let options = String::from_utf8_lossy(&bytes[open + 1..*pos]).into_owned();
                *pos += 1;
                elements.push(PipelineElement::Pass {
                    name,
                    options: Some(options),
                    offset: start,
                });
            }
            _ => elements.push(PipelineElement::Pass {
                name,
                options: None,
                offset: start,
            }),
        }
        skip_ws(bytes, pos);
        if bytes.get(*pos) == Some(&b',') {
            *pos += 1;
            continue;
        }
        return Ok(elements);
    }
}

/// Split option text into `key=value` pairs (a bare `key` has an empty value).
pub fn parse_options(text: &str) -> Result<Vec<(String, String)>, PipelineError> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let mut out = Vec::new();
    loop {
        skip_ws(bytes, &mut pos);
        if pos >= bytes.len() {
            return Ok(out);
        }
        let start = pos;
        while pos < bytes.len() && bytes[pos] != b'=' && !bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let key = String::from_utf8_lossy(&bytes[start..pos]).into_owned();
        let mut value = String::new();
        if bytes.get(pos) == Some(&b'=') {
            pos += 1;
            let vstart = pos;
            let mut level = 0i32;
            let mut quote: Option<u8> = None;
            while pos < bytes.len() {
                let c = bytes[pos];
                match quote {
                    Some(q) if c == q => quote = None,
                    Some(_) => {}
                    None => match c {
                        b'"' | b'\'' => quote = Some(c),
                        b'{' => level += 1,
                        b'}' => level -= 1,
                        c if c.is_ascii_whitespace() && level == 0 => break,
                        _ => {}
                    },
                }
                pos += 1;
            }
            value = String::from_utf8_lossy(&bytes[vstart..pos]).into_owned();
        }
        out.push((key, value));
    }
}

/// The pipeline on one line.
pub fn print_pipeline(elements: &[PipelineElement]) -> String {
    let mut out = String::new();
    for (i, e) in elements.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match e {
            PipelineElement::Pass { name, options, .. } => {
                out.push_str(name);
                if let Some(o) = options {
                    out.push('{');
                    out.push_str(o);
                    out.push('}');
                }
            }
            PipelineElement::Nested {
                anchor, elements, ..
            } => {
                out.push_str(anchor);
                out.push('(');
                out.push_str(&print_pipeline(elements));
                out.push(')');
            }
        }
    }
    out
}

/// The pipeline as `--dump-pass-pipeline` prints it.
pub fn print_pipeline_pretty(elements: &[PipelineElement]) -> String {
    let mut out = String::new();
    pretty(elements, 0, &mut out);
    out.push('\n');
    out
}

fn pretty(elements: &[PipelineElement], indent: usize, out: &mut String) {
    for (i, e) in elements.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&"  ".repeat(indent));
        match e {
            PipelineElement::Pass { name, options, .. } => {
                out.push_str(name);
                if let Some(o) = options {
                    out.push('{');
                    out.push_str(o);
                    out.push('}');
                }
            }
            PipelineElement::Nested {
                anchor, elements, ..
            } => {
                out.push_str(anchor);
                out.push_str("(\n");
                pretty(elements, indent + 1, out);
                out.push('\n');
                out.push_str(&"  ".repeat(indent));
                out.push(')');
            }
        }
    }
}
