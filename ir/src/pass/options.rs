//! Pass options, set from pipeline text
//! (`canonicalize{max-iterations=3 top-down=false}`).
//!
//! A pass declared with `#[pass]` keeps each option in a typed field (see
//! [`PassOptionValue`] for the types an option may have): the macro writes
//! the option table ([`PassOptionDef`]), the parsing and the printing. A
//! hand-written pass may keep its options as text in a [`PassOptions`]
//! instead. Both parse and print the same way, with LLVM's messages.

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

/// A type an option of a `#[pass]` struct may have: how it is parsed
/// from pipeline text and printed back (MLIR's `PassOptions::print`).
///
/// Implemented for `bool` (`Bool`), `i64` (`Int`), `u64` (`UInt`),
/// `String` (`String`), [`ListOption<i64>`] (`IntList`),
/// [`ListOption<String>`] (`StringList`) and the canonicalizer's
/// [`RegionSimplify`](crate::rewrite::RegionSimplify) (`Enum`). An enum
/// option of another pass implements it by hand: `KIND` is
/// `OptionKind::Enum(&["word", ...])`, and `parse_option` /
/// `render_option` map the words.
pub trait PassOptionValue: Sized + Default {
    /// The option's type, as `--list-passes` names it.
    const KIND: OptionKind;

    /// The value that `text` (one value, already split from the others)
    /// denotes, or `None` when it is not one of this type.
    fn parse_option(text: &str) -> Option<Self>;

    /// Take a value given in pipeline text (a list given twice keeps both).
    fn assign(&mut self, value: Self) {
        *self = value;
    }

    /// The option as it prints inside `{...}`: `name=value` (an empty
    /// string leaves an empty item, as an unset list does).
    fn render_option(&self, name: &str) -> String;
}

/// Set the option `name` held in `slot` from pipeline text: `None` for a
/// bare `name` (true for a `bool`, an error otherwise), with LLVM's
/// messages (`for the --name option: 'x' value invalid for long argument!`).
pub fn set_option_value<T: PassOptionValue>(
    slot: &mut T,
    name: &str,
    value: Option<&str>,
) -> Result<(), String> {
    let text = match (value, T::KIND) {
        (None, OptionKind::Bool) => "true",
        (None, _) => return Err(format!("for the --{name} option: requires a value!")),
        (Some(v), _) => v,
    };
    let parsed = T::parse_option(text).ok_or_else(|| {
        format!(
            "for the --{name} option: '{text}' value invalid for {} argument!",
            T::KIND.describe()
        )
    })?;
    slot.assign(parsed);
    Ok(())
}

/// Whether `text` is a valid value of `kind` (used to check declared
/// defaults).
pub fn is_valid_value(kind: OptionKind, text: &str) -> bool {
    normalize(text, kind).is_some()
}

impl PassOptionValue for bool {
    const KIND: OptionKind = OptionKind::Bool;

    fn parse_option(text: &str) -> Option<Self> {
        normalize(text, Self::KIND).map(|v| v == "true")
    }

    fn render_option(&self, name: &str) -> String {
        format!("{name}={self}")
    }
}

impl PassOptionValue for i64 {
    const KIND: OptionKind = OptionKind::Int;

    fn parse_option(text: &str) -> Option<Self> {
        text.trim().parse().ok()
    }

    fn render_option(&self, name: &str) -> String {
        format!("{name}={self}")
    }
}

impl PassOptionValue for u64 {
    const KIND: OptionKind = OptionKind::UInt;

    fn parse_option(text: &str) -> Option<Self> {
        text.trim().parse().ok()
    }

    fn render_option(&self, name: &str) -> String {
        format!("{name}={self}")
    }
}

impl PassOptionValue for String {
    const KIND: OptionKind = OptionKind::String;

    fn parse_option(text: &str) -> Option<Self> {
        normalize(text, Self::KIND)
    }

    fn render_option(&self, name: &str) -> String {
        format!("{name}={self}")
    }
}

/// The value of a list option (`list=1,2,3` or `list={1,2,3}`): its items,
/// and whether pipeline text set it (a list never set prints as an empty
/// item, one set prints as `list={...}`, as MLIR's). It dereferences to its
/// items.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListOption<T> {
    items: Vec<T>,
    explicit: bool,
}

impl<T> ListOption<T> {
    /// A list set to `items` (as if given in pipeline text).
    pub fn new(items: Vec<T>) -> Self {
        ListOption {
            items,
            explicit: true,
        }
    }

    /// Whether pipeline text set the list.
    pub fn is_set(&self) -> bool {
        self.explicit
    }
}

impl<T> std::ops::Deref for ListOption<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.items
    }
}

fn assign_list<T>(list: &mut ListOption<T>, value: ListOption<T>) {
    // A list given twice keeps both, as llvm::cl lists do; an empty value
    // clears it.
    if list.explicit && !value.items.is_empty() {
        list.items.extend(value.items);
    } else {
        list.items = value.items;
    }
    list.explicit = true;
}

fn render_list<T: std::fmt::Display>(list: &ListOption<T>, name: &str) -> String {
    if !list.explicit {
        return String::new();
    }
    let items: Vec<String> = list.items.iter().map(T::to_string).collect();
    format!("{name}={{{}}}", items.join(","))
}

impl PassOptionValue for ListOption<i64> {
    const KIND: OptionKind = OptionKind::IntList;

    fn parse_option(text: &str) -> Option<Self> {
        let items = split_list(text.trim())
            .map(|v| v.trim().parse::<i64>().ok())
            .collect::<Option<Vec<i64>>>()?;
        Some(ListOption::new(items))
    }

    fn assign(&mut self, value: Self) {
        assign_list(self, value);
    }

    fn render_option(&self, name: &str) -> String {
        render_list(self, name)
    }
}

impl PassOptionValue for ListOption<String> {
    const KIND: OptionKind = OptionKind::StringList;

    fn parse_option(text: &str) -> Option<Self> {
        let items = split_list(text.trim())
            .map(|v| unquote(v.trim()).to_string())
            .collect();
        Some(ListOption::new(items))
    }

    fn assign(&mut self, value: Self) {
        assign_list(self, value);
    }

    fn render_option(&self, name: &str) -> String {
        render_list(self, name)
    }
}

impl PassOptionValue for crate::rewrite::RegionSimplify {
    const KIND: OptionKind = OptionKind::Enum(&["disabled", "normal", "aggressive"]);

    fn parse_option(text: &str) -> Option<Self> {
        use crate::rewrite::RegionSimplify;
        match text.trim() {
            "disabled" => Some(RegionSimplify::Disabled),
            "normal" => Some(RegionSimplify::Normal),
            "aggressive" => Some(RegionSimplify::Aggressive),
            _ => None,
        }
    }

    fn render_option(&self, name: &str) -> String {
        use crate::rewrite::RegionSimplify;
        let word = match self {
            RegionSimplify::Disabled => "disabled",
            RegionSimplify::Normal => "normal",
            RegionSimplify::Aggressive => "aggressive",
        };
        format!("{name}={word}")
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
