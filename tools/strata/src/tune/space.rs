//! The space `strata tune` searches: recipe keys and the values to try,
//! from a TOML file (`[knobs]`, one dotted recipe key per line) or the
//! target's default, each value checked against the recipe schema with
//! the error located in the space file.

use std::collections::BTreeMap;
use std::path::Path;

use strata_recipe::{Format, LoadOptions, Recipe};

use crate::DriverError;

/// One knob: a dotted recipe key and its values, in the file's order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Knob {
    pub key: String,
    pub values: Vec<toml::Value>,
}

/// The knobs, in order (the file's, or the default's).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Space {
    pub knobs: Vec<Knob>,
}

/// One point of the space: a value per knob (by index).
pub(crate) type Point = Vec<usize>;

/// The default space for `target` (`host`, `sm_80`, `sm_90`); `threads`
/// the cores to try on the host (none when `--threads` fixes them).
pub(crate) fn default_space(target: &str, threads: &[usize]) -> Space {
    let ints = |v: &[i64]| v.iter().map(|&i| toml::Value::Integer(i)).collect();
    let strs = |v: &[&str]| {
        v.iter()
            .map(|s| toml::Value::String(s.to_string()))
            .collect()
    };
    let mut knobs = vec![Knob {
        key: "optimize.fusion.max_fused_ops".into(),
        values: ints(&[4, 16, 64]),
    }];
    if target == "host" {
        knobs.push(Knob {
            key: "codegen.kernel_selection".into(),
            values: strs(&["library", "generated"]),
        });
        knobs.push(Knob {
            key: "optimize.layout".into(),
            values: strs(&["nchw", "nhwc"]),
        });
        knobs.push(Knob {
            key: "codegen.tiles.block".into(),
            values: ints(&[256, 1024, 4096]),
        });
        if threads.len() > 1 {
            knobs.push(Knob {
                key: "codegen.threads".into(),
                values: threads
                    .iter()
                    .map(|&t| toml::Value::Integer(t as i64))
                    .collect(),
            });
        }
    } else {
        knobs.push(Knob {
            key: "codegen.num_warps".into(),
            values: ints(&[2, 4, 8]),
        });
        knobs.push(Knob {
            key: "codegen.tiles.block_m".into(),
            values: ints(&[32, 64, 128]),
        });
        knobs.push(Knob {
            key: "codegen.tiles.block_n".into(),
            values: ints(&[32, 64, 128]),
        });
        knobs.push(Knob {
            key: "codegen.tiles.block_k".into(),
            values: ints(&[32, 64]),
        });
    }
    Space { knobs }
}

/// `line:column` (from 1) of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rfind('\n')
        .map_or(before.len(), |n| before.len() - n - 1)
        + 1;
    (line, col)
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SpaceFile {
    knobs: toml::Spanned<BTreeMap<String, toml::Spanned<Vec<toml::Spanned<toml::Value>>>>>,
}

/// Reads a space file, every value checked against `base` (the recipe it
/// is set on): an unknown key, an empty list or a value the recipe
/// refuses is an error located in the file.
pub(crate) fn load(path: &Path, base: &toml::Table) -> Result<Space, DriverError> {
    let name = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| DriverError::Message(format!("{name}: {e}")))?;
    let located = |offset: usize, message: String| {
        let (line, col) = line_col(&text, offset);
        DriverError::Message(format!("{name}:{line}:{col}: error: {message}"))
    };
    let file: SpaceFile = toml::from_str(&text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        located(
            offset,
            format!(
                "{}; a space is `[knobs]` with `\"recipe.key\" = [values]`",
                e.message()
            ),
        )
    })?;
    let mut knobs: Vec<(usize, Knob)> = Vec::new();
    for (key, values) in file.knobs.get_ref() {
        // Where the key is: its first mention in the file.
        let key_at = text
            .find(&format!("\"{key}\""))
            .or_else(|| text.find(key.as_str()))
            .unwrap_or(values.span().start);
        if values.get_ref().is_empty() {
            return Err(located(
                values.span().start,
                format!("'{key}': no values to try"),
            ));
        }
        for v in values.get_ref() {
            if let Err(why) = candidate(base, &[(key.as_str(), v.get_ref())]) {
                let at = if why.contains("unknown key") {
                    key_at
                } else {
                    v.span().start
                };
                let message = if why.contains(key.as_str()) {
                    why
                } else {
                    format!("'{key}' = {}: {why}", v.get_ref())
                };
                return Err(located(at, message));
            }
        }
        knobs.push((
            key_at,
            Knob {
                key: key.clone(),
                values: values
                    .get_ref()
                    .iter()
                    .map(|v| v.get_ref().clone())
                    .collect(),
            },
        ));
    }
    if knobs.is_empty() {
        return Err(located(
            file.knobs.span().start,
            "[knobs] is empty: nothing to tune".into(),
        ));
    }
    knobs.sort_by_key(|(at, _)| *at);
    Ok(Space {
        knobs: knobs.into_iter().map(|(_, k)| k).collect(),
    })
}

/// `base` with each `(dotted key, value)` set, loaded as a recipe: the
/// recipe, or the recipe's own message.
pub(crate) fn candidate(
    base: &toml::Table,
    settings: &[(&str, &toml::Value)],
) -> Result<Recipe, String> {
    let mut table = base.clone();
    for (key, value) in settings {
        let mut parts: Vec<&str> = key.split('.').collect();
        let last = parts.pop().ok_or("an empty key")?;
        let mut at = &mut table;
        for p in parts {
            let entry = at
                .entry(p.to_string())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            at = entry
                .as_table_mut()
                .ok_or_else(|| format!("unknown key '{key}' ('{p}' is not a table)"))?;
        }
        at.insert(last.to_string(), (*value).clone());
    }
    let text = toml::to_string(&table).map_err(|e| e.to_string())?;
    Recipe::parse(&text, "candidate", Format::Toml, &LoadOptions::default())
        .map(|l| l.recipe)
        .map_err(|e| {
            e.diagnostics
                .iter()
                .map(|d| d.problem.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })
}

impl Space {
    /// How many points the space has.
    pub(crate) fn size(&self) -> usize {
        self.knobs.iter().map(|k| k.values.len()).product()
    }

    /// Every point, the first knob slowest.
    pub(crate) fn points(&self) -> Vec<Point> {
        let mut out: Vec<Point> = vec![Vec::new()];
        for k in &self.knobs {
            out = out
                .into_iter()
                .flat_map(|p| {
                    (0..k.values.len()).map(move |i| {
                        let mut q = p.clone();
                        q.push(i);
                        q
                    })
                })
                .collect();
        }
        out
    }

    /// The settings of `point`.
    pub(crate) fn settings(&self, point: &Point) -> Vec<(&str, &toml::Value)> {
        self.knobs
            .iter()
            .zip(point)
            .map(|(k, &i)| (k.key.as_str(), &k.values[i]))
            .collect()
    }

    /// `key=value` pairs of `point`, for a person.
    pub(crate) fn describe(&self, point: &Point) -> String {
        self.settings(point)
            .iter()
            .map(|(k, v)| format!("{}={v}", k.rsplit('.').next().unwrap_or(k)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> toml::Table {
        toml::from_str(&Recipe::default().canonical()).expect("canonical TOML")
    }

    fn write(text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("strata-space-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(format!(
            "{:x}.toml",
            text.len() * 31 + text.bytes().map(usize::from).sum::<usize>()
        ));
        std::fs::write(&path, text).expect("write");
        path
    }

    #[test]
    fn a_space_file_loads_in_file_order() {
        let path = write(
            "[knobs]\n\"optimize.fusion.max_fused_ops\" = [2, 8]\n\"codegen.kernel_selection\" = [\"library\", \"generated\"]\n",
        );
        let space = load(&path, &base()).expect("valid");
        assert_eq!(space.knobs[0].key, "optimize.fusion.max_fused_ops");
        assert_eq!(space.size(), 4);
        assert_eq!(space.points().len(), 4);
        assert_eq!(
            space.describe(&vec![1, 0]),
            "max_fused_ops=8 kernel_selection=\"library\""
        );
        let r = candidate(&base(), &space.settings(&vec![1, 1])).expect("a recipe");
        assert_eq!(r.optimize.fusion.max_fused_ops, 8);
    }

    #[test]
    fn bad_spaces_are_located() {
        let unknown = write("[knobs]\n\"codegen.warp_speed\" = [9]\n");
        let e = load(&unknown, &base()).unwrap_err().to_string();
        assert!(
            e.contains(":2:1: error: unknown key 'codegen.warp_speed'"),
            "{e}"
        );
        let refused = write("[knobs]\n\"codegen.kernel_selection\" = [\"library\", \"fastest\"]\n");
        let e = load(&refused, &base()).unwrap_err().to_string();
        assert!(
            e.contains(":2:42: error: 'codegen.kernel_selection' = \"fastest\" is out of range"),
            "{e}"
        );
        let empty = write("[knobs]\n\"codegen.threads\" = []\n");
        assert!(load(&empty, &base())
            .unwrap_err()
            .to_string()
            .contains("no values"));
        let nothing = write("[knobs]\n");
        assert!(load(&nothing, &base())
            .unwrap_err()
            .to_string()
            .contains("nothing to tune"));
    }

    #[test]
    fn the_default_spaces_are_valid_recipes() {
        for target in ["host", "sm_90"] {
            let mut b = base();
            if target != "host" {
                b["codegen"]["target"] = toml::Value::String(target.into());
            }
            let space = default_space(target, &[1, 2]);
            for p in space.points() {
                candidate(&b, &space.settings(&p)).unwrap_or_else(|e| panic!("{target}: {e}"));
            }
        }
    }
}
