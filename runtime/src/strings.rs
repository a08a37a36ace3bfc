//! Tensors of strings (`tensor<...x!graph.string>`, ONNX's `STRING`
//! tensors) and the kernels of the string ops.
//!
//! A string tensor is not a [`Tensor`](crate::Tensor): its elements have no
//! fixed size, so it has no byte form for the compiled modes, artifacts or
//! the C ABI of custom ops. It is a [`Datum`](crate::Datum) of its own that
//! the interpreter passes to the string ops.

use crate::kernels::shape::{broadcast_offsets, broadcast_shapes};
use crate::kernels::KResult;
use crate::{Tensor, TensorData};

/// The most strings a string op makes (each a `String`: a few dozen bytes
/// before its text), so that padding cannot exhaust memory.
const MAX_STRINGS: usize = 1 << 26;

/// A tensor of UTF-8 strings, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StringTensor {
    shape: Vec<usize>,
    data: Vec<String>,
}

impl StringTensor {
    /// A tensor of `shape` holding `data`; an error when the element count
    /// differs from the shape's.
    pub fn new(shape: Vec<usize>, data: Vec<String>) -> Result<StringTensor, String> {
        let count = shape
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
            .ok_or_else(|| format!("a string tensor of shape {shape:?} is too large"))?;
        if count != data.len() {
            return Err(format!(
                "a string tensor of shape {shape:?} needs {count} strings, got {}",
                data.len()
            ));
        }
        Ok(StringTensor { shape, data })
    }

    /// The dimensions.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The strings, row-major.
    pub fn data(&self) -> &[String] {
        &self.data
    }

    /// The number of strings.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the tensor holds no string.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// `f` applied to the pairs of `a`'s and `b`'s elements that broadcasting
/// matches, with the broadcast shape.
fn zip_broadcast<T>(
    a: &StringTensor,
    b: &StringTensor,
    f: impl Fn(&str, &str) -> T,
) -> KResult<(Vec<usize>, Vec<T>)> {
    let shape = broadcast_shapes(a.shape(), b.shape())?;
    crate::tensor::checked_numel("broadcast", &shape)?;
    let (ia, ib) = (
        broadcast_offsets(a.shape(), &shape),
        broadcast_offsets(b.shape(), &shape),
    );
    let out = ia
        .iter()
        .zip(&ib)
        .map(|(&i, &j)| f(&a.data[i], &b.data[j]))
        .collect();
    Ok((shape, out))
}

/// `StringConcat`: `a + b` elementwise, broadcasting.
pub fn string_concat(a: &StringTensor, b: &StringTensor) -> KResult<StringTensor> {
    let (shape, data) = zip_broadcast(a, b, |x, y| format!("{x}{y}"))?;
    Ok(StringTensor { shape, data })
}

/// `Equal` on strings, broadcasting.
pub fn string_equal(a: &StringTensor, b: &StringTensor) -> KResult<Tensor> {
    let (shape, data) = zip_broadcast(a, b, |x, y| x == y)?;
    Ok(Tensor::from_parts(shape, TensorData::I1(data)))
}

/// `RegexFullMatch`: whether each string matches `pattern` as a whole (as
/// Python's `re.fullmatch`: the pattern anchored at both ends).
pub fn regex_full_match(x: &StringTensor, pattern: &str) -> Result<Tensor, String> {
    let anchored = regex::Regex::new(&format!("^(?:{pattern})$"))
        .map_err(|e| format!("pattern does not compile: {e}"))?;
    let matches = x.data.iter().map(|s| anchored.is_match(s)).collect();
    Ok(Tensor::from_parts(x.shape.clone(), TensorData::I1(matches)))
}

/// `StringSplit`: each string's pieces at `delimiter` (at runs of
/// whitespace when `None`), at most `maxsplit` splits when given; the
/// pieces padded with empty strings to the longest list, and the counts.
pub fn string_split(
    x: &StringTensor,
    delimiter: Option<&str>,
    maxsplit: Option<usize>,
) -> KResult<(StringTensor, Tensor)> {
    let lists: Vec<Vec<String>> = x
        .data
        .iter()
        .map(|s| split_one(s, delimiter, maxsplit))
        .collect();
    let width = lists.iter().map(Vec::len).max().unwrap_or(0);
    let mut shape = x.shape.clone();
    shape.push(width);
    let total = crate::tensor::checked_numel("string_split", &shape)?;
    if total > MAX_STRINGS {
        return Err(crate::kernels::shape_mismatch(
            "string_split",
            format!(
                "{} strings padded to {width} pieces each make {total} strings, more than {MAX_STRINGS}",
                x.data.len()
            ),
        ));
    }
    let counts: Vec<i64> = lists.iter().map(|l| l.len() as i64).collect();
    let mut data = Vec::with_capacity(lists.len() * width);
    for mut list in lists {
        list.resize(width, String::new());
        data.extend(list);
    }
    Ok((
        StringTensor { shape, data },
        Tensor::from_parts(x.shape.clone(), TensorData::I64(counts)),
    ))
}

/// One string split as Python's `str.split(delimiter, maxsplit)`.
fn split_one(s: &str, delimiter: Option<&str>, maxsplit: Option<usize>) -> Vec<String> {
    match delimiter {
        Some(d) => match maxsplit {
            Some(n) => s.splitn(n + 1, d).map(str::to_string).collect(),
            None => s.split(d).map(str::to_string).collect(),
        },
        None => {
            // Runs of whitespace separate; the last piece keeps what is
            // left after `maxsplit` splits, its trailing whitespace too.
            let mut pieces = Vec::new();
            let mut rest = s.trim_start();
            while !rest.is_empty() {
                if maxsplit.is_some_and(|n| pieces.len() == n) {
                    pieces.push(rest.to_string());
                    break;
                }
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                pieces.push(rest[..end].to_string());
                rest = rest[end..].trim_start();
            }
            pieces
        }
    }
}

/// The case change of `StringNormalizer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseChange {
    /// Leave the case.
    None,
    /// To lower case.
    Lower,
    /// To upper case.
    Upper,
}

/// `StringNormalizer` on a `[C]` or `[1, C]` tensor: the strings equal to a
/// stop word (ignoring case unless `case_sensitive`) dropped, the rest
/// changed to `case`; one empty string when none is left.
pub fn string_normalizer(
    x: &StringTensor,
    case: CaseChange,
    case_sensitive: bool,
    stopwords: &[String],
) -> KResult<StringTensor> {
    let two_d = match x.shape[..] {
        [_] => false,
        [1, _] => true,
        _ => {
            return Err(crate::kernels::shape_mismatch(
                "string_normalizer",
                format!("takes a [C] or [1, C] tensor, got {:?}", x.shape),
            ))
        }
    };
    // Compared ignoring case: both sides lowered (the stop words once).
    let fold = |s: &str| {
        if case_sensitive {
            s.to_string()
        } else {
            s.to_lowercase()
        }
    };
    let stops: std::collections::HashSet<String> = stopwords.iter().map(|w| fold(w)).collect();
    let stop = |s: &str| stops.contains(&fold(s));
    let mut kept: Vec<String> = x
        .data
        .iter()
        .filter(|s| !stop(s))
        .map(|s| match case {
            CaseChange::None => s.clone(),
            CaseChange::Lower => s.to_lowercase(),
            CaseChange::Upper => s.to_uppercase(),
        })
        .collect();
    if kept.is_empty() {
        kept.push(String::new());
    }
    let shape = if two_d {
        vec![1, kept.len()]
    } else {
        vec![kept.len()]
    };
    Ok(StringTensor { shape, data: kept })
}

/// A column of a lookup table (`LabelEncoder`'s keys, values or default):
/// strings or numbers.
#[derive(Clone, Debug)]
pub enum Column {
    /// Strings.
    Strings(Vec<String>),
    /// Numbers, of the tensor's dtype.
    Numbers(Tensor),
}

/// A float key as a hashable value: NaNs one key, `-0.0` equal to `0.0`.
fn float_key(v: f64) -> u64 {
    if v.is_nan() {
        f64::NAN.to_bits()
    } else {
        (v + 0.0).to_bits()
    }
}

/// `LabelEncoder`: each element of `x` (strings or numbers) looked up in
/// `keys`, replaced by the `values` entry of its first match, or by
/// `default` (one entry) where none matches.
pub fn label_encoder(
    x: &crate::Datum,
    keys: &Column,
    values: &Column,
    default: &Column,
) -> Result<crate::Datum, String> {
    use std::collections::HashMap;
    let n = match keys {
        Column::Strings(k) => k.len(),
        Column::Numbers(k) => k.len(),
    };
    let (shape, index): (Vec<usize>, Vec<usize>) = match (x, keys) {
        (crate::Datum::Strings(x), Column::Strings(k)) => {
            let mut table: HashMap<&str, usize> = HashMap::new();
            for (i, key) in k.iter().enumerate() {
                table.entry(key.as_str()).or_insert(i);
            }
            let index = x
                .data
                .iter()
                .map(|s| *table.get(s.as_str()).unwrap_or(&n))
                .collect();
            (x.shape.clone(), index)
        }
        (crate::Datum::Tensor(x), Column::Numbers(k)) if k.dtype().is_float() => {
            let mut table: HashMap<u64, usize> = HashMap::new();
            for (i, key) in k.to_f64_vec().into_iter().enumerate() {
                table.entry(float_key(key)).or_insert(i);
            }
            let index = x
                .to_f64_vec()
                .into_iter()
                .map(|v| *table.get(&float_key(v)).unwrap_or(&n))
                .collect();
            (x.shape().to_vec(), index)
        }
        (crate::Datum::Tensor(x), Column::Numbers(k)) => {
            let mut table: HashMap<i64, usize> = HashMap::new();
            for (i, key) in k.to_i64_vec().into_iter().enumerate() {
                table.entry(key).or_insert(i);
            }
            let index = x
                .to_i64_vec()
                .into_iter()
                .map(|v| *table.get(&v).unwrap_or(&n))
                .collect();
            (x.shape().to_vec(), index)
        }
        (x, _) => {
            return Err(format!(
                "cannot look up a {} among {} keys",
                x.kind(),
                match keys {
                    Column::Strings(_) => "string",
                    Column::Numbers(_) => "numeric",
                }
            ))
        }
    };
    match (values, default) {
        (Column::Strings(v), Column::Strings(d)) if v.len() == n && d.len() == 1 => {
            let data = index
                .iter()
                .map(|&i| v.get(i).unwrap_or(&d[0]).clone())
                .collect();
            Ok(crate::Datum::Strings(StringTensor { shape, data }))
        }
        (Column::Numbers(v), Column::Numbers(d)) if v.len() == n && d.len() == 1 => {
            let dtype = v.dtype();
            Ok(crate::Datum::Tensor(if dtype.is_float() {
                let (v, d) = (v.to_f64_vec(), d.to_f64_vec()[0]);
                let out: Vec<f64> = index
                    .iter()
                    .map(|&i| v.get(i).copied().unwrap_or(d))
                    .collect();
                Tensor::from_f64_vec(dtype, &shape, &out)
            } else {
                let (v, d) = (v.to_i64_vec(), d.to_i64_vec()[0]);
                let out: Vec<i64> = index
                    .iter()
                    .map(|&i| v.get(i).copied().unwrap_or(d))
                    .collect();
                Tensor::from_i64_vec(dtype, &shape, &out)
            }))
        }
        _ => Err(format!(
            "needs {n} values and one default of the values' kind"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(shape: Vec<usize>, v: &[&str]) -> StringTensor {
        StringTensor::new(shape, v.iter().map(|s| s.to_string()).collect()).unwrap()
    }

    #[test]
    fn split_like_python() {
        assert_eq!(split_one("a.b..c", Some("."), None), ["a", "b", "", "c"]);
        assert_eq!(split_one("a.b.c", Some("."), Some(1)), ["a", "b.c"]);
        assert_eq!(split_one("  a  b c ", None, None), ["a", "b", "c"]);
        assert_eq!(split_one("  a  b c ", None, Some(1)), ["a", "b c "]);
        assert_eq!(split_one("   ", None, None), Vec::<String>::new());
        assert_eq!(split_one("", Some("-"), None), [""]);
    }

    #[test]
    fn split_pads_to_the_longest() {
        let x = strings(vec![2], &["a b c", "d"]);
        let (y, n) = string_split(&x, None, None).unwrap();
        assert_eq!(y.shape(), [2, 3]);
        assert_eq!(y.data(), ["a", "b", "c", "d", "", ""]);
        assert_eq!(n.to_i64_vec(), [3, 1]);
    }

    #[test]
    fn normalizer_drops_stop_words_and_keeps_one_empty_string() {
        let x = strings(vec![1, 3], &["Monday", "is", "MONDAY"]);
        let stops = ["monday".to_string()];
        let y = string_normalizer(&x, CaseChange::Upper, false, &stops).unwrap();
        assert_eq!(
            (y.shape(), y.data()),
            (&[1usize, 1][..], &["IS".to_string()][..])
        );
        let y = string_normalizer(&x, CaseChange::None, true, &stops).unwrap();
        assert_eq!(y.data(), ["Monday", "is", "MONDAY"]);
        let none = strings(vec![1], &["monday"]);
        let y = string_normalizer(&none, CaseChange::Lower, true, &stops).unwrap();
        assert_eq!((y.shape(), y.data()), (&[1usize][..], &[String::new()][..]));
    }

    #[test]
    fn label_encoder_maps_strings_and_floats() {
        let x = crate::Datum::Strings(strings(vec![3], &["b", "z", "a"]));
        let keys = Column::Strings(vec!["a".into(), "b".into(), "a".into()]);
        let values = Column::Numbers(Tensor::from_i64_vec(crate::DType::I64, &[3], &[1, 2, 3]));
        let default = Column::Numbers(Tensor::from_i64_vec(crate::DType::I64, &[], &[-1]));
        let y = label_encoder(&x, &keys, &values, &default).unwrap();
        assert_eq!(y.as_tensor().unwrap().to_i64_vec(), [2, -1, 1]);

        let x = crate::Datum::Tensor(Tensor::from_f64_vec(
            crate::DType::F32,
            &[3],
            &[f64::NAN, -0.0, 5.0],
        ));
        let keys = Column::Numbers(Tensor::from_f64_vec(
            crate::DType::F32,
            &[2],
            &[0.0, f64::NAN],
        ));
        let values = Column::Strings(vec!["zero".into(), "nan".into()]);
        let default = Column::Strings(vec!["other".into()]);
        match label_encoder(&x, &keys, &values, &default).unwrap() {
            crate::Datum::Strings(y) => assert_eq!(y.data(), ["nan", "zero", "other"]),
            other => panic!("{}", other.describe()),
        }
    }

    #[test]
    fn full_match_needs_the_whole_string() {
        let x = strings(vec![3], &["ab", "a", "abc"]);
        assert_eq!(
            regex_full_match(&x, "a|ab").unwrap().to_i64_vec(),
            [1, 1, 0],
            "a longer alternative that covers the string counts"
        );
    }
}
