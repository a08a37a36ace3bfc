//! Typed pass options, declared once per pass as a table and set from
//! pipeline text (`canonicalize{max-iterations=3 top-down=false}`).

/// The type of an option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` / `false` (a bare `name` sets it to true).
    Bool,
    /// A signed 64-bit integer.
    Int,
    /// An unsigned 64-bit integer.
    UInt,
    /// Any text.
    String,
    /// One of the listed words.
    Enum(&'static [&'static str]),
    /// A comma-separated list of signed integers.
    IntList,
    /// A comma-separated list of words.
    StringList,
}

impl OptionKind {
    /// How the type is named in `--list-passes` and in errors.
    pub fn describe(self) -> &'static str {
        match self {
            OptionKind::Bool => "bool",
            OptionKind::Int => "long",
            OptionKind::UInt => "ulong",
            OptionKind::String => "string",
            OptionKind::Enum(_) => "enum",
            OptionKind::IntList => "list of long",
            OptionKind::StringList => "list of string",
        }
    }
}

/// One declared option.
#[derive(Clone, Copy, Debug)]
pub struct PassOptionDef {
    /// The key in pipeline text.
    pub name: &'static str,
    /// One-line help.
    pub help: &'static str,
    /// Its type.
    pub kind: OptionKind,
    /// Its default value, as text.
    pub default: &'static str,
}

/// The current values of a pass's options.
#[derive(Clone, Debug)]
pub struct PassOptions {
    defs: &'static [PassOptionDef],
    values: Vec<String>,
    /// Whether each option was set explicitly (unset lists print as nothing).
    explicit: Vec<bool>,
}

impl PassOptions {
    /// All options at their defaults.
    pub fn new(defs: &'static [PassOptionDef]) -> Self {
        PassOptions {
            defs,
            values: defs.iter().map(|d| d.default.to_string()).collect(),
            explicit: vec![false; defs.len()],
        }
    }

    /// The declarations.
    pub fn defs(&self) -> &'static [PassOptionDef] {
        self.defs
    }

    /// Set an option from text, checking its type (LLVM's messages).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let Some(index) = self.defs.iter().position(|d| d.name == name) else {
            return Err(format!("no such option {name}"));
        };
        let def = self.defs[index];
        let value = match (value, def.kind) {
            (None, OptionKind::Bool) => "true".to_string(),
            (None, _) => return Err(format!("for the --{name} option: requires a value!")),
            (Some(v), kind) => normalize(v, kind).ok_or_else(|| {
                format!(
                    "for the --{name} option: '{v}' value invalid for {} argument!",
                    kind.describe()
                )
            })?,
        };
        if matches!(def.kind, OptionKind::IntList | OptionKind::StringList)
            && self.explicit[index]
            && !value.is_empty()
        {
            // A list given twice keeps both, as llvm::cl lists do.
            self.values[index] = format!("{},{value}", self.values[index]);
        } else {
            self.values[index] = value;
        }
        self.explicit[index] = true;
        Ok(())
    }

    fn raw(&self, name: &str) -> &str {
        self.defs
            .iter()
            .position(|d| d.name == name)
            .map_or("", |i| self.values[i].as_str())
    }

    /// A boolean option's value.
    pub fn bool(&self, name: &str) -> bool {
        self.raw(name) == "true"
    }

    /// An integer option's value.
    pub fn int(&self, name: &str) -> i64 {
        self.raw(name).parse().unwrap_or(0)
    }

    /// An unsigned option's value.
    pub fn uint(&self, name: &str) -> u64 {
        self.raw(name).parse().unwrap_or(0)
    }

    /// A string or enum option's value.
    pub fn string(&self, name: &str) -> &str {
        self.raw(name)
    }

    /// A list option's values.
    pub fn list(&self, name: &str) -> Vec<String> {
        let raw = self.raw(name);
        if raw.is_empty() {
            return Vec::new();
        }
        raw.split(',').map(str::to_string).collect()
    }

    /// The options as MLIR prints them inside `{...}`: sorted by name, each
    /// `key=value` (lists as `key={a,b}`), joined by single spaces; a list
    /// that was never set prints as an empty item (hence the double spaces
    /// in `canonicalize{  max-iterations=10 ...}`).
    pub fn render(&self) -> String {
        let mut items: Vec<(&str, String)> = self
            .defs
            .iter()
            .zip(&self.values)
            .zip(&self.explicit)
            .map(|((def, value), &explicit)| {
                let item = match def.kind {
                    OptionKind::IntList | OptionKind::StringList if !explicit => String::new(),
                    OptionKind::IntList | OptionKind::StringList => {
                        format!("{}={{{value}}}", def.name)
                    }
                    _ => format!("{}={value}", def.name),
                };
                (def.name, item)
            })
            .collect();
        items.sort_by(|a, b| a.0.cmp(b.0));
        items
            .into_iter()
            .map(|(_, item)| item)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Check `value` against `kind`, returning its canonical text.
fn normalize(value: &str, kind: OptionKind) -> Option<String> {
    let value = value.trim();
    match kind {
        OptionKind::Bool => match value {
            "true" | "1" | "TRUE" | "True" => Some("true".into()),
            "false" | "0" | "FALSE" | "False" => Some("false".into()),
            _ => None,
        },
        OptionKind::Int => value.parse::<i64>().ok().map(|v| v.to_string()),
        OptionKind::UInt => value.parse::<u64>().ok().map(|v| v.to_string()),
        OptionKind::String => Some(unquote(value).to_string()),
        OptionKind::Enum(words) => words.contains(&value).then(|| value.to_string()),
        OptionKind::IntList => {
            let items: Option<Vec<String>> = split_list(value)
                .map(|v| v.trim().parse::<i64>().ok().map(|v| v.to_string()))
                .collect();
            items.map(|v| v.join(","))
        }
        OptionKind::StringList => Some(
            split_list(value)
                .map(|v| unquote(v.trim()).to_string())
                .collect::<Vec<_>>()
                .join(","),
        ),
    }
}

fn split_list(value: &str) -> impl Iterator<Item = &str> {
    let value = value
        .strip_prefix('{')
        .and_then(|v| v.strip_suffix('}'))
        .unwrap_or(value);
    value.split(',').filter(|v| !v.trim().is_empty())
}

fn unquote(value: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|v| v.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFS: &[PassOptionDef] = &[
        PassOptionDef {
            name: "max-iterations",
            help: "Max iterations",
            kind: OptionKind::Int,
            default: "10",
        },
        PassOptionDef {
            name: "top-down",
            help: "Top-down traversal",
            kind: OptionKind::Bool,
            default: "true",
        },
        PassOptionDef {
            name: "mode",
            help: "A mode",
            kind: OptionKind::Enum(&["normal", "aggressive"]),
            default: "normal",
        },
        PassOptionDef {
            name: "sizes",
            help: "Sizes",
            kind: OptionKind::IntList,
            default: "",
        },
    ];

    #[test]
    fn set_and_render() {
        let mut options = PassOptions::new(DEFS);
        // Sorted by name; the unset list leaves an empty item.
        assert_eq!(
            options.render(),
            "max-iterations=10 mode=normal  top-down=true"
        );
        options.set("max-iterations", Some("3")).expect("valid");
        options.set("top-down", None).expect("flag");
        options.set("sizes", Some("1,2,3")).expect("list");
        assert_eq!(options.int("max-iterations"), 3);
        assert_eq!(options.list("sizes"), vec!["1", "2", "3"]);
        assert_eq!(
            options.render(),
            "max-iterations=3 mode=normal sizes={1,2,3} top-down=true"
        );
    }

    #[test]
    fn bad_values_are_errors() {
        let mut options = PassOptions::new(DEFS);
        assert_eq!(
            options.set("max-iterations", Some("x")).unwrap_err(),
            "for the --max-iterations option: 'x' value invalid for long argument!"
        );
        assert_eq!(
            options.set("bogus", Some("1")).unwrap_err(),
            "no such option bogus"
        );
        assert!(options.set("mode", Some("fast")).is_err());
    }
}
