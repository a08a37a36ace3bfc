//! What `strata run` prints of its outputs.

use strata_runtime::{DType, Tensor};

/// A tensor's values as nested lists (`[[1, 2], [3, 4]]`).
pub(crate) fn format_values(t: &Tensor) -> String {
    let values: Vec<String> = if t.dtype().is_float() {
        t.to_f64_vec().iter().map(|v| format!("{v:?}")).collect()
    } else if t.dtype() == DType::I1 {
        t.to_i64_vec()
            .iter()
            .map(|&v| (v != 0).to_string())
            .collect()
    } else {
        t.to_i128_vec().iter().map(ToString::to_string).collect()
    };
    fn nest(values: &[String], shape: &[usize]) -> String {
        match shape.split_first() {
            None => values.first().cloned().unwrap_or_default(),
            Some((&n, rest)) => {
                let inner: usize = rest.iter().product();
                let parts: Vec<String> = (0..n)
                    .map(|i| nest(values.get(i * inner..(i + 1) * inner).unwrap_or(&[]), rest))
                    .collect();
                format!("[{}]", parts.join(", "))
            }
        }
    }
    nest(&values, t.shape())
}

/// The outputs as tensors: a sequence output `NAME` is its elements
/// `NAME.0`, `NAME.1`, ...; an optional one is its value, or nothing when
/// it is empty. The third list says what each sequence or optional was.
pub(crate) fn flatten_outputs(
    out_names: &[String],
    values: Vec<strata_runtime::Datum>,
) -> (Vec<String>, Vec<Tensor>, Vec<String>) {
    use strata_runtime::Datum;
    let (mut names, mut tensors, mut notes) = (Vec::new(), Vec::new(), Vec::new());
    let mut pending: Vec<(String, Datum)> = out_names.iter().cloned().zip(values).collect();
    pending.reverse();
    while let Some((name, value)) = pending.pop() {
        match value {
            Datum::Tensor(t) => {
                names.push(name);
                tensors.push(t);
            }
            Datum::Sequence(items) => {
                notes.push(match items.len() {
                    0 => format!("{name}: an empty sequence"),
                    n => format!(
                        "{name}: a sequence of {n} tensors ({name}.0 to {name}.{})",
                        n - 1
                    ),
                });
                for (i, t) in items.into_iter().enumerate() {
                    names.push(format!("{name}.{i}"));
                    tensors.push(t);
                }
            }
            Datum::Optional(None) => notes.push(format!("{name}: an empty optional")),
            Datum::Optional(Some(inner)) => {
                notes.push(format!("{name}: an optional with a value"));
                pending.push((name, *inner));
            }
            Datum::Strings(t) => {
                // Strings have no .npy form here: their values are printed.
                const SHOWN: usize = 16;
                let shown: Vec<String> = t
                    .data()
                    .iter()
                    .take(SHOWN)
                    .map(|s| format!("{s:?}"))
                    .collect();
                let more = if t.len() > SHOWN { ", ..." } else { "" };
                notes.push(format!(
                    "{name}: string {:?} [{}{more}] (not written as .npy)",
                    t.shape(),
                    shown.join(", ")
                ));
            }
        }
    }
    (names, tensors, notes)
}
