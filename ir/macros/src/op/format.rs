//! The compile-time check of an op's assembly format.

use super::parse::FieldDecl;

/// Compile-time check of an assembly format: balanced groups, known
/// variables and directives, anchors inside groups.
pub(super) fn check_format(text: &str, fields: &[FieldDecl]) -> Result<(), String> {
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    // Anchors seen in each open optional group.
    let mut anchors: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => {
                let end = text[i + 1..].find('`').ok_or("unterminated literal")?;
                i += end + 2;
            }
            b'$' => {
                let start = i + 1;
                let mut end = start;
                while end < bytes.len()
                    && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_')
                {
                    end += 1;
                }
                let name = &text[start..end];
                if !names.contains(&name) {
                    return Err(format!(
                        "format names `${name}`, which the op does not declare"
                    ));
                }
                i = end;
            }
            b'(' => {
                depth += 1;
                // `type(`, `functional-type(`: directive arguments, not a group.
                let directive = text[..i].trim_end().ends_with("type");
                anchors.push(if directive { u32::MAX } else { 0 });
                i += 1;
            }
            b')' => {
                depth -= 1;
                if depth < 0 {
                    return Err("unbalanced ')' in format".into());
                }
                match anchors.pop() {
                    Some(0) => return Err("optional group has no anchor ('^')".into()),
                    Some(n) if n != u32::MAX && n > 1 => {
                        return Err("optional group has more than one anchor ('^')".into())
                    }
                    _ => {}
                }
                i += 1;
            }
            b'^' => {
                match anchors.iter_mut().rev().find(|n| **n != u32::MAX) {
                    Some(n) => *n += 1,
                    None => return Err("'^' outside of an optional group".into()),
                }
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'-' | b'_'))
                {
                    i += 1;
                }
                let word = &text[start..i];
                if !matches!(
                    word,
                    "attr-dict"
                        | "attr-dict-with-keyword"
                        | "type"
                        | "functional-type"
                        | "operands"
                        | "results"
                        | "regions"
                        | "successors"
                ) {
                    return Err(format!("unknown format directive `{word}`"));
                }
            }
            b' ' | b'\n' | b'?' | b',' => i += 1,
            c => return Err(format!("unexpected `{}` in format", c as char)),
        }
    }
    if depth != 0 {
        return Err("unbalanced '(' in format".into());
    }
    Ok(())
}
