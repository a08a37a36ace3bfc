//! Sizes and positions in the padding proof.
//!
//! Exported models compute shapes from their inputs: `shape_of`, `gather`,
//! `concat`, a little arithmetic, then `reshape`, `expand`, `slice`,
//! `range` or `constant_of_shape`. In a plan for padded shapes those sizes
//! are the bucket's, not the request's. That is safe where a size only
//! says how long a padded axis is (the reshape that splits heads, the
//! position ids sliced from a table, the mask expanded to the scores), and
//! wrong where it becomes data (a mean divided by the length).
//!
//! The proof follows, besides the padded axes of each value ([`Padded`]):
//! - **sizes**: the elements of small integer tensors as [`Dim`]s, a
//!   padded dimension's size being its symbol (`seq`);
//! - **positions**: integer tensors that hold `Σ coeff(axis) *
//!   position(axis) + offset`, made by `range(0, size)`, broadcasting and
//!   scaling by a size (`row * seq + column`);
//! - **merged** values: padded dimensions merged into one axis (`flatten`,
//!   `reshape` to `[-1]`), which only a gather whose positions undo the
//!   merge (or a reshape that splits it back) may read.
//!
//! A padded symbol's size is at least 1 ([`super::super::buckets::resolve`]
//! never pads an empty dimension).

use std::collections::{BTreeMap, HashMap};

use strata_dialects::graph::infer::{attr_i64, int_elements};
use strata_dialects::graph::shape::Dim;
use strata_dialects::graph::shape_value::{slice_1d, slice_operand};
use strata_ir::{Context, Operation, TypeKind, Value};

use super::rules::{dims_of, rank};
use super::Padded;

/// The most elements a tensor followed as sizes may have.
const MAX_ELEMENTS: usize = 64;

/// An integer tensor that holds `offset + Σ coeff(axis) * position(axis)`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Positions {
    /// The coefficient of each axis's position (axes without one add 0).
    pub terms: BTreeMap<usize, Dim>,
    /// The constant part.
    pub offset: i64,
    /// The tensor's shape, a padded axis as its symbol.
    pub shape: Vec<Dim>,
}

/// A value whose leading axis merges `dims` (row-major), some of them
/// padded, followed by the static axes `tail`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Merged {
    /// The merged dimensions, a padded one as its symbol.
    pub dims: Vec<Dim>,
    /// The axes after the merged one.
    pub tail: Vec<i64>,
}

/// What the proof knows of one value.
#[derive(Clone, Debug, Default)]
pub(crate) struct Fact {
    /// Its padded axes.
    pub padded: Padded,
    /// Its elements as sizes (small integer tensors).
    pub sizes: Option<Vec<Dim>>,
    /// Its elements as positions.
    pub positions: Option<Positions>,
    /// The padded dimensions its first axis merges.
    pub merged: Option<Merged>,
}

impl Fact {
    /// A value padded along `padded`.
    pub fn padded(padded: Padded) -> Fact {
        Fact {
            padded,
            ..Fact::default()
        }
    }

    /// A small integer tensor whose elements are `sizes`.
    pub fn sizes(sizes: Vec<Dim>) -> Fact {
        Fact {
            sizes: Some(sizes),
            ..Fact::default()
        }
    }
}

/// What the proof knows of the values it has followed.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    /// The padded axes of each padded value.
    pub padded: HashMap<Value, Padded>,
    sizes: HashMap<Value, Vec<Dim>>,
    positions: HashMap<Value, Positions>,
    merged: HashMap<Value, Merged>,
    /// The size of each padded symbol in the plan's shapes.
    pub bucket: HashMap<String, i64>,
}

/// The symbol of a size that is one padded dimension's (`seq`, not
/// `2*seq` or `batch*seq`).
pub(crate) fn simple(d: &Dim) -> Option<&str> {
    match d {
        Dim::Sym(m) if m.coeff == 1 && m.syms.len() == 1 => Some(&m.syms[0]),
        _ => None,
    }
}

pub(crate) fn product(dims: &[Dim]) -> Dim {
    dims.iter().fold(Dim::Known(1), |acc, d| acc.mul(d))
}

pub(crate) fn shown(dims: &[Dim]) -> String {
    let d: Vec<String> = dims.iter().map(ToString::to_string).collect();
    format!("[{}]", d.join(", "))
}

impl Facts {
    /// Whether padding reaches `v`: padded, sized by a padded dimension,
    /// positions scaled by one, or merged.
    pub fn reached(&self, v: Value) -> bool {
        self.padded.contains_key(&v)
            || self.positions.get(&v).is_some_and(|p| {
                p.terms
                    .values()
                    .chain(&p.shape)
                    .any(|d| d.known().is_none())
            })
            || self.merged.contains_key(&v)
            || self
                .sizes
                .get(&v)
                .is_some_and(|s| s.iter().any(|d| d.known().is_none()))
    }

    /// Why `v` may not be used as a padded value (an op without a rule
    /// for sizes, positions or merged values refuses it), if it may not.
    pub fn opaque(&self, v: Value) -> Option<String> {
        self.opaque_except(v, false, false)
    }

    /// [`Facts::opaque`] for an op that follows merged values
    /// (`merged_ok`) or positions (`positions_ok`).
    pub fn opaque_except(&self, v: Value, merged_ok: bool, positions_ok: bool) -> Option<String> {
        // A value merged from one padded dimension is padded along it.
        let merges = !merged_ok && !self.padded.contains_key(&v);
        if let Some(m) = self.merged.get(&v).filter(|_| merges) {
            return Some(format!(
                "merges padded dimensions into one ({})",
                shown(&m.dims)
            ));
        }
        if let Some(s) = self.sizes.get(&v) {
            if let Some(d) = s.iter().find(|d| d.known().is_none()) {
                return Some(format!("is computed from the size '{d}'"));
            }
        }
        match self.positions.get(&v) {
            Some(p) if !positions_ok && p.terms.values().any(|d| d.known().is_none()) => {
                let d = p.terms.values().find(|d| d.known().is_none());
                Some(format!(
                    "holds positions scaled by the size '{}'",
                    d.map_or_else(|| "?".to_string(), ToString::to_string)
                ))
            }
            _ => None,
        }
    }

    /// Records what `op`'s results are.
    pub fn record(&mut self, ctx: &Context, op: Operation, out: Vec<Fact>) {
        for (r, f) in ctx.results(op).zip(out) {
            if !f.padded.is_empty() {
                self.padded.insert(r, f.padded);
            }
            if let Some(s) = f.sizes {
                self.sizes.insert(r, s);
            }
            if let Some(p) = f.positions {
                self.positions.insert(r, p);
            }
            if let Some(m) = f.merged {
                self.merged.insert(r, m);
            }
        }
    }

    /// The positions `v` holds, if it holds positions.
    pub fn positions_of(&self, v: Value) -> Option<&Positions> {
        self.positions.get(&v)
    }

    /// The dimensions `v`'s first axis merges, if it merges padded ones.
    pub fn merged_of(&self, v: Value) -> Option<&Merged> {
        self.merged.get(&v)
    }

    /// The size of padded symbol `sym` in the plan's shapes.
    pub fn bucket_size(&self, sym: &str) -> Option<i64> {
        self.bucket.get(sym).copied()
    }

    /// The elements of `v` as sizes: followed ones, or a constant's.
    pub fn elems(&self, ctx: &Context, v: Value) -> Option<Vec<Dim>> {
        if let Some(s) = self.sizes.get(&v) {
            return Some(s.clone());
        }
        if self.reached(v) {
            return None;
        }
        let op = ctx.defining_op(v)?;
        if ctx.op_name_str(op) != "graph.constant" {
            return None;
        }
        let attr = strata_ir::ods::inherent_attr(ctx, op, "value")?;
        let values = int_elements(ctx, attr)?;
        (values.len() <= MAX_ELEMENTS).then(|| values.into_iter().map(Dim::Known).collect())
    }

    /// The shape of `v`, a padded axis as its symbol.
    pub fn dims(&self, ctx: &Context, v: Value) -> Option<Vec<Dim>> {
        if let Some(m) = self.merged.get(&v) {
            let mut d = vec![product(&m.dims)];
            d.extend(m.tail.iter().map(|&n| Dim::Known(n)));
            return Some(d);
        }
        if let Some(p) = self.positions.get(&v) {
            return Some(p.shape.clone());
        }
        let mut d: Vec<Dim> = dims_of(ctx, v)?
            .into_iter()
            .map(|n| if n < 0 { Dim::Unknown } else { Dim::Known(n) })
            .collect();
        for (&axis, sym) in self.padded.get(&v).into_iter().flatten() {
            *d.get_mut(axis)? = Dim::sym(sym);
        }
        Some(d)
    }
}

/// The number of elements of `v` if it is an integer (or boolean) tensor
/// of rank 0 or 1 small enough to follow as sizes.
fn small(ctx: &Context, v: Value) -> Option<usize> {
    match ctx.type_kind(ctx.value_type(v)) {
        TypeKind::RankedTensor { shape, element, .. }
            if matches!(
                ctx.type_kind(*element),
                TypeKind::Integer { .. } | TypeKind::Index
            ) =>
        {
            match shape.as_slice() {
                [] => Some(1),
                [n] => usize::try_from(*n).ok().filter(|&n| n <= MAX_ELEMENTS),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The bit width of `v`'s integer elements (`index`: 64).
pub(crate) fn int_width(ctx: &Context, v: Value) -> Option<u32> {
    let (_, elem) = strata_dialects::graph::shape::shape_of(ctx, ctx.value_type(v))?;
    match ctx.type_kind(elem) {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Index => Some(64),
        _ => None,
    }
}

/// The bounds of a size: a padded symbol's product is at least its
/// coefficient.
fn bounds(d: &Dim) -> Option<(i64, Option<i64>)> {
    match d {
        Dim::Known(n) => Some((*n, Some(*n))),
        Dim::Sym(m) if m.coeff > 0 => Some((m.coeff, None)),
        _ => None,
    }
}

/// `a < b`, when the bounds decide it.
fn less(a: &Dim, b: &Dim) -> Option<bool> {
    if a == b {
        return Some(false);
    }
    let ((alo, ahi), (blo, bhi)) = (bounds(a)?, bounds(b)?);
    if ahi.is_some_and(|ahi| ahi < blo) {
        return Some(true);
    }
    if bhi.is_some_and(|bhi| alo >= bhi) {
        return Some(false);
    }
    None
}

/// One element of an elementwise op on sizes.
fn binary(name: &str, a: &Dim, b: &Dim) -> Result<Dim, String> {
    let bool_dim = |b: bool| Dim::Known(i64::from(b));
    let decided = match name {
        "graph.add" => Some(a.add(b)),
        "graph.sub" => match (a, b) {
            (Dim::Known(x), Dim::Known(y)) => x.checked_sub(*y).map(Dim::Known),
            (_, Dim::Known(0)) => Some(a.clone()),
            _ => None,
        },
        "graph.mul" => Some(a.mul(b)),
        "graph.div" => match (a, b) {
            (Dim::Known(x), Dim::Known(y)) => x.checked_div(*y).map(Dim::Known),
            _ => a.div_exact(b),
        },
        "graph.max" | "graph.min" => {
            let a_less = less(a, b).or_else(|| (a == b).then_some(false));
            a_less.map(|lt| match (name == "graph.max", lt) {
                (true, true) | (false, false) => b.clone(),
                _ => a.clone(),
            })
        }
        "graph.less" => less(a, b).map(bool_dim),
        "graph.greater" => less(b, a).map(bool_dim),
        "graph.less_equal" => less(b, a).map(|x| bool_dim(!x)),
        "graph.greater_equal" => less(a, b).map(|x| bool_dim(!x)),
        "graph.equal" => {
            if a == b {
                Some(bool_dim(true))
            } else {
                let differ = less(a, b) == Some(true) || less(b, a) == Some(true);
                differ.then(|| bool_dim(false))
            }
        }
        "graph.and" | "graph.or" | "graph.xor" => match (a, b) {
            (Dim::Known(x), Dim::Known(y)) => {
                let (x, y) = (*x != 0, *y != 0);
                Some(bool_dim(match name {
                    "graph.and" => x && y,
                    "graph.or" => x || y,
                    _ => x != y,
                }))
            }
            _ => None,
        },
        _ => None,
    };
    match decided {
        Some(d) if d != Dim::Unknown => Ok(d),
        _ => {
            let sym = [a, b].into_iter().find(|d| d.known().is_none());
            Err(format!(
                "computes '{}' with the size '{}', which differs between the padded and the real shapes",
                name.trim_start_matches("graph."),
                sym.map_or_else(|| "?".to_string(), ToString::to_string)
            ))
        }
    }
}

const BINARY: &[&str] = &[
    "graph.add",
    "graph.sub",
    "graph.mul",
    "graph.div",
    "graph.max",
    "graph.min",
    "graph.less",
    "graph.greater",
    "graph.less_equal",
    "graph.greater_equal",
    "graph.equal",
    "graph.and",
    "graph.or",
    "graph.xor",
];

/// Elementwise `f` over `a` and `b` broadcast (rank 0 or 1).
fn broadcast(
    a: &[Dim],
    b: &[Dim],
    mut f: impl FnMut(&Dim, &Dim) -> Result<Dim, String>,
) -> Option<Result<Vec<Dim>, String>> {
    let n = match (a.len(), b.len()) {
        (x, y) if x == y => x,
        (1, y) => y,
        (x, 1) => x,
        _ => return None,
    };
    let at = |v: &[Dim], i: usize| v[if v.len() == 1 { 0 } else { i }].clone();
    Some((0..n).map(|i| f(&at(a, i), &at(b, i))).collect())
}

/// The value of a slice's bound group (`starts`, `ends`, `axes`, `steps`:
/// 1 to 4) of `op`, as sizes; `Some(None)` when the group is absent.
pub(crate) fn slice_group(
    ctx: &Context,
    op: Operation,
    facts: &Facts,
    group: usize,
) -> Option<Option<Vec<Dim>>> {
    match slice_operand(ctx, op, group) {
        None => Some(None),
        Some(v) => facts.elems(ctx, v).map(Some),
    }
}

/// The elements of `op`'s result as sizes, when it is a small integer
/// tensor computed from sizes and constants; an error where a padded size
/// would become a value that differs from the real one; `None` when the
/// op is not shape arithmetic (or its operands are not sizes).
pub(crate) fn evaluate(
    ctx: &Context,
    op: Operation,
    facts: &Facts,
) -> Option<Result<Vec<Dim>, String>> {
    let result = ctx.results(op).next()?;
    let len = small(ctx, result)?;
    let name = ctx.op_name_str(op);
    let operands: Vec<Value> = ctx.operands(op).collect();
    let elems = |i: usize| facts.elems(ctx, *operands.get(i)?);
    let out = match name {
        "graph.constant" => facts.elems(ctx, result)?,
        "graph.shape_of" => {
            let dims = facts.dims(ctx, operands[0])?;
            let r = dims.len() as i64;
            let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
            let start = clamp(attr_i64(ctx, op, "start").unwrap_or(0));
            let end = clamp(attr_i64(ctx, op, "end").unwrap_or(r));
            let picked = dims.get(start..end.max(start))?.to_vec();
            if picked.contains(&Dim::Unknown) {
                return None;
            }
            picked
        }
        "graph.size" => {
            let n = product(&facts.dims(ctx, operands[0])?);
            if n == Dim::Unknown {
                return None;
            }
            vec![n]
        }
        "graph.identity" | "graph.reshape" | "graph.squeeze" | "graph.unsqueeze" => elems(0)?,
        "graph.cast" => {
            let v = elems(0)?;
            match int_width(ctx, result)? {
                // A size (at least 1) is true.
                1 => v
                    .iter()
                    .map(|d| match d {
                        Dim::Known(n) => Dim::Known(i64::from(*n != 0)),
                        _ => Dim::Known(1),
                    })
                    .collect(),
                // Sizes fit in 32 bits; a static value must fit the type.
                w if w >= 32 => {
                    let fits = |n: i64| w >= 64 || i32::try_from(n).is_ok();
                    if v.iter().any(|d| d.known().is_some_and(|n| !fits(n))) {
                        return None;
                    }
                    v
                }
                _ => {
                    if v.iter().any(|d| d.known().is_none()) {
                        return Some(Err("casts a padded size to a narrow integer type".into()));
                    }
                    return None;
                }
            }
        }
        "graph.concat" => {
            if attr_i64(ctx, op, "axis").unwrap_or(0) != 0 {
                return None;
            }
            let mut out = Vec::new();
            for i in 0..operands.len() {
                out.extend(elems(i)?);
            }
            out
        }
        "graph.gather" => {
            if attr_i64(ctx, op, "axis").unwrap_or(0) != 0 || rank(ctx, operands[0]) != Some(1) {
                return None;
            }
            let (data, indices) = (elems(0)?, elems(1)?);
            let n = data.len() as i64;
            let mut out = Vec::new();
            for i in indices {
                let i = i.known()?;
                let i = if i < 0 { i + n } else { i };
                out.push(data.get(usize::try_from(i).ok()?)?.clone());
            }
            out
        }
        "graph.slice" => {
            let data = elems(0)?;
            slice_1d(&data, |g| match slice_group(ctx, op, facts, g)? {
                None => Some(None),
                Some(v) => match v.as_slice() {
                    [d] => Some(Some(d.known()?)),
                    _ => None,
                },
            })?
        }
        "graph.where" => {
            let (c, a, b) = (elems(0)?, elems(1)?, elems(2)?);
            // Select element by element; the condition must be known.
            let n = c.len().max(a.len()).max(b.len());
            let at = |v: &[Dim], i: usize| v.get(if v.len() == 1 { 0 } else { i }).cloned();
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                let cond = at(&c, i)?;
                let Some(cond) = cond.known() else {
                    return Some(Err(format!("selects by a condition on the size '{cond}'")));
                };
                out.push(if cond != 0 { at(&a, i)? } else { at(&b, i)? });
            }
            out
        }
        "graph.not" => {
            let logical = int_width(ctx, result)? == 1;
            elems(0)?
                .iter()
                .map(|d| {
                    d.known()
                        .map(|n| Dim::Known(if logical { i64::from(n == 0) } else { !n }))
                })
                .collect::<Option<Vec<_>>>()?
        }
        "graph.neg" => elems(0)?
            .iter()
            .map(|d| d.known().and_then(i64::checked_neg).map(Dim::Known))
            .collect::<Option<Vec<_>>>()?,
        "graph.constant_of_shape" => {
            let shape = elems(0)?;
            let n = shape
                .iter()
                .try_fold(1i64, |acc, d| acc.checked_mul(d.known()?))?;
            if usize::try_from(n).ok()? != len {
                return None;
            }
            let fill = strata_ir::ods::inherent_attr(ctx, op, "value")
                .and_then(|a| int_elements(ctx, a))
                .and_then(|v| v.first().copied())
                .unwrap_or(0);
            vec![Dim::Known(fill); usize::try_from(n).ok()?]
        }
        "graph.range" => {
            let (s, l, d) = (elems(0)?, elems(1)?, elems(2)?);
            let (s, l, d) = (
                s.first()?.known()?,
                l.first()?.known()?,
                d.first()?.known()?,
            );
            if d == 0 {
                return None;
            }
            let mut out = Vec::new();
            let mut x = s;
            while (d > 0 && x < l) || (d < 0 && x > l) {
                if out.len() >= MAX_ELEMENTS {
                    return None;
                }
                out.push(Dim::Known(x));
                x = x.checked_add(d)?;
            }
            out
        }
        "graph.and" | "graph.or" | "graph.xor" if int_width(ctx, result)? != 1 => {
            // Bitwise on integers.
            let (a, b) = (elems(0)?, elems(1)?);
            let bit = |x: &Dim, y: &Dim| -> Result<Dim, String> {
                match (x.known(), y.known()) {
                    (Some(x), Some(y)) => Ok(Dim::Known(match name {
                        "graph.and" => x & y,
                        "graph.or" => x | y,
                        _ => x ^ y,
                    })),
                    _ => Err(format!(
                        "computes '{}' on the bits of a padded size",
                        name.trim_start_matches("graph.")
                    )),
                }
            };
            match broadcast(&a, &b, bit)? {
                Ok(v) => v,
                Err(e) => return Some(Err(e)),
            }
        }
        _ if BINARY.contains(&name) => {
            let (a, b) = (elems(0)?, elems(1)?);
            match broadcast(&a, &b, |x, y| binary(name, x, y))? {
                Ok(v) => v,
                Err(e) => return Some(Err(e)),
            }
        }
        _ => return None,
    };
    // A result that disagrees with its declared length is not trusted.
    (out.len() == len).then_some(Ok(out))
}
