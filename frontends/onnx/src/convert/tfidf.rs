//! `TfIdfVectorizer` (opset 9), spelled out with `graph` ops: the pool's
//! n-grams are constants, each (gram length, skip distance) pair gathers
//! the input's windows, compares them with the pool's grams of that length
//! and counts the matches; a one-hot matrix sends each gram's count to its
//! output column.
//!
//! Counting follows ONNX's reference: an n-gram of length `n` at skip
//! distance `d` (1 to `max_skip_count + 1`) starts at every position `i`
//! with `i + (n - 1) * d` inside the row; unigrams count once, whatever
//! the distance; only grams of `min_gram_length` to `max_gram_length`
//! count. A gram listed twice in the pool counts at its last index.

use std::collections::HashMap;

use strata_dialects::graph::shape::Dim;
use strata_ir::float::FloatKind;
use strata_ir::{Location, Value};

use super::attrs::Attrs;
use super::{ConvertError, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, super::Convert)] = &[("TfIdfVectorizer", tfidf_vectorizer)];

/// The most output columns (`max(ngram_indexes) + 1`) and the most cells
/// of the one-hot matrix that places the counts: the decomposition holds
/// them as constants.
const MAX_COLUMNS: i64 = 1 << 24;
const MAX_ONEHOT_CELLS: usize = 1 << 26;

/// How counts become the output (`mode`).
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// The counts.
    Tf,
    /// The weight where a gram occurs, else 0.
    Idf,
    /// The weight times the count.
    TfIdf,
}

/// The pool's grams that count, by length: each gram's items and its
/// output column.
type Grams = Vec<(usize, Vec<(Vec<i64>, i64)>)>;

/// Reads the pool (`pool_int64s` split by `ngram_counts`) into the grams of
/// `min..=max` items, each with its column (`ngram_indexes` at the gram's
/// index in the whole pool).
fn pool_grams(a: &Attrs, min: usize, max: usize) -> Res<(Grams, i64)> {
    if a.strings("pool_strings").is_some_and(|s| !s.is_empty()) {
        return Err(ConvertError::unsupported(
            "with pool_strings is not supported (strata has no string tensors)",
        ));
    }
    let pool = a.ints("pool_int64s").unwrap_or_default();
    let counts = a.ints("ngram_counts").ok_or("requires ngram_counts")?;
    let indexes = a.ints("ngram_indexes").ok_or("requires ngram_indexes")?;
    if indexes.iter().any(|&i| i < 0) {
        return Err("has a negative ngram_indexes entry".into());
    }
    let columns = indexes.iter().max().map_or(0, |m| m.saturating_add(1));
    if columns > MAX_COLUMNS {
        return Err(ConvertError::unsupported(format!(
            "with {columns} output columns is not supported (at most {MAX_COLUMNS})"
        )));
    }
    let mut grams: Grams = Vec::new();
    let mut gram_index = 0usize;
    for (k, &start) in counts.iter().enumerate() {
        let n = k + 1;
        let end = counts.get(k + 1).copied().unwrap_or(pool.len() as i64);
        if start < 0 || end < start || end as usize > pool.len() {
            return Err(format!(
                "has ngram_counts {counts:?} that do not split a pool of {} items",
                pool.len()
            )
            .into());
        }
        let items = &pool[start as usize..end as usize];
        let count = items.len() / n;
        if (min..=max).contains(&n) && count > 0 {
            // The last occurrence of a gram decides its column.
            let mut column_of: HashMap<&[i64], i64> = HashMap::new();
            let mut order: Vec<&[i64]> = Vec::new();
            for (j, gram) in items.chunks_exact(n).enumerate() {
                let column = *indexes.get(gram_index + j).ok_or_else(|| {
                    ConvertError::Invalid(format!(
                        "has {} ngram_indexes for a pool of more grams",
                        indexes.len()
                    ))
                })?;
                if column_of.insert(gram, column).is_none() {
                    order.push(gram);
                }
            }
            let list = order
                .into_iter()
                .map(|g| (g.to_vec(), column_of[g]))
                .collect();
            grams.push((n, list));
        }
        gram_index += count;
    }
    Ok((grams, columns))
}

fn tfidf_vectorizer(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let mode = match a.string("mode").ok_or("requires mode")?.as_str() {
        "TF" => Mode::Tf,
        "IDF" => Mode::Idf,
        "TFIDF" => Mode::TfIdf,
        other => return Err(format!("has mode '{other}' (expected TF, IDF or TFIDF)").into()),
    };
    let min = a.int("min_gram_length").ok_or("requires min_gram_length")?;
    let max = a.int("max_gram_length").ok_or("requires max_gram_length")?;
    let skips = a.int("max_skip_count").ok_or("requires max_skip_count")?;
    if min < 1 || max < min || skips < 0 {
        return Err(format!(
            "has min_gram_length {min}, max_gram_length {max}, max_skip_count {skips}"
        )
        .into());
    }
    let (grams, columns) = pool_grams(a, min as usize, max as usize)?;
    let weights = a.floats("weights").unwrap_or_default();
    if !weights.is_empty() && weights.len() as i64 != columns {
        return Err(format!("has {} weights for {columns} output columns", weights.len()).into());
    }

    // The input as rows: [C] (a scalar is one item) or [B, C].
    let dims = im.dims_of(x).ok_or("needs an input of known rank")?;
    let x = match dims.len() {
        0 => im.unsqueeze(x, &[0], loc)?,
        1 | 2 => x,
        r => return Err(format!("needs an input of rank 1 or 2, got {r}").into()),
    };
    let elem = im.elem(x).ok_or("needs a tensor input")?;
    let width = match dims.last() {
        None => 1,
        Some(Dim::Known(c)) => *c,
        Some(_) => return Err("needs a static row length".into()),
    };
    let rank = dims.len().max(1) as i64;
    let f32t = im.ctx.float_type(FloatKind::F32);

    // Per gram length, the counts of its grams: [..., P_n].
    let mut counts = Vec::new();
    let mut onehot = Vec::new();
    // A gram with an item outside a 32-bit input's range matches nothing
    // (cast to i32 it would wrap onto another value).
    let narrow = matches!(
        im.ctx.type_kind(elem),
        strata_ir::TypeKind::Integer { width: 32, .. }
    );
    for (n, list) in &grams {
        let n = *n as i64;
        let list: Vec<&(Vec<i64>, i64)> = list
            .iter()
            .filter(|(g, _)| !narrow || g.iter().all(|&v| i32::try_from(v).is_ok()))
            .collect();
        if list.is_empty() {
            continue;
        }
        let mut total: Option<Value> = None;
        // Unigrams count once; longer grams at each distance that fits
        // in the row (the windows shrink as the distance grows).
        let distances = if n == 1 { 1 } else { skips.saturating_add(1) };
        for d in 1..=distances {
            let windows = width.saturating_sub((n - 1).saturating_mul(d));
            if windows <= 0 {
                break;
            }
            let positions: Vec<i64> = (0..windows)
                .flat_map(|i| (0..n).map(move |t| i + t * d))
                .collect();
            let idx = im.const_i64_shaped(&positions, &[windows, n], loc)?;
            let axis = im.i64_attr(rank - 1);
            // [..., W, n], then [..., W, 1, n] against the pool's [P_n, n].
            let taken = im.op1("graph.gather", vec![x, idx], vec![("axis", axis)], loc)?;
            let taken = im.unsqueeze(taken, &[-2], loc)?;
            let flat: Vec<i64> = list.iter().flat_map(|(g, _)| g.iter().copied()).collect();
            let pool = im.const_i64_shaped(&flat, &[list.len() as i64, n], loc)?;
            let pool = im.cast_to(pool, elem, loc)?;
            let same = im.bin("graph.equal", taken, pool, loc)?;
            let same = im.cast_to(same, f32t, loc)?;
            let keep = im.bool_attr(false);
            let last = im.const_i64(&[-1], loc)?;
            let whole = im.op1(
                "graph.reduce_prod",
                vec![same, last],
                vec![("keepdims", keep)],
                loc,
            )?;
            let found = im.reduce_sum(whole, &[-2], loc)?;
            total = Some(match total {
                Some(t) => im.bin("graph.add", t, found, loc)?,
                None => found,
            });
        }
        if let Some(t) = total {
            counts.push(t);
            onehot.extend(list.iter().map(|(_, column)| *column));
        }
    }

    // The counts in their columns: [..., P] times a [P, columns] one-hot.
    let frequencies = if counts.is_empty() {
        // Nothing can match: zeros of the output's shape.
        let as_f32 = im.cast_to(x, f32t, loc)?;
        let row = im.reduce_sum(as_f32, &[-1], loc)?;
        let zero = im.scalar(f32t, 0.0, loc)?;
        let row = im.bin("graph.mul", row, zero, loc)?;
        let row = im.unsqueeze(row, &[-1], loc)?;
        let zeros = im.const_f32_shaped(&vec![0.0; columns as usize], &[1, columns], loc)?;
        im.bin("graph.matmul", row, zeros, loc)?
    } else {
        let all = if counts.len() == 1 {
            counts[0]
        } else {
            let axis = im.i64_attr(-1);
            im.op1("graph.concat", counts, vec![("axis", axis)], loc)?
        };
        let cells = onehot.len().saturating_mul(columns as usize);
        if cells > MAX_ONEHOT_CELLS {
            return Err(ConvertError::unsupported(format!(
                "with {} pool grams and {columns} output columns is not supported (at most {MAX_ONEHOT_CELLS} pairs)",
                onehot.len()
            )));
        }
        let mut matrix = vec![0.0f32; cells];
        for (row, column) in onehot.iter().enumerate() {
            matrix[row * columns as usize + *column as usize] = 1.0;
        }
        let matrix = im.const_f32_shaped(&matrix, &[onehot.len() as i64, columns], loc)?;
        im.bin("graph.matmul", all, matrix, loc)?
    };
    let weights = (!weights.is_empty())
        .then(|| im.const_f32_shaped(&weights, &[columns], loc))
        .transpose()?;
    let y = match (mode, weights) {
        (Mode::Tf, _) | (Mode::TfIdf, None) => frequencies,
        (Mode::TfIdf, Some(w)) => im.bin("graph.mul", frequencies, w, loc)?,
        (Mode::Idf, w) => {
            let zero = im.scalar(f32t, 0.0, loc)?;
            let seen = im.bin("graph.greater", frequencies, zero, loc)?;
            let seen = im.cast_to(seen, f32t, loc)?;
            match w {
                Some(w) => im.bin("graph.mul", seen, w, loc)?,
                None => seen,
            }
        }
    };
    Ok(vec![y])
}
