//! Symbolic shapes of `graph` tensors.
//!
//! A dynamic dimension (`?`) of a tensor may carry a symbolic size, written
//! in the tensor's encoding: `tensor<?x?x32xf32, #graph.dims<batch, seq>>`
//! names the two dynamic dimensions, in order. A size is a monomial: a
//! symbol (`seq`), a product of symbols (`batch*seq`) or a multiple
//! (`2*seq`); `?` in the list leaves a dimension unknown. Two dimensions with
//! the same monomial are equal at run time, which is what lets shape
//! inference prove `seq == seq` across ops.

use std::fmt;

use strata_ir::attributes::AttrKind;
use strata_ir::types::{TypeKind, DYNAMIC};
use strata_ir::{Attribute, Context, Type};

/// A product of symbols times a positive integer (`2*batch*seq`); symbols
/// are kept sorted, a symbol appearing twice is squared.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Monomial {
    /// The integer factor (at least 1).
    pub coeff: i64,
    /// The symbols, sorted.
    pub syms: Vec<String>,
}

impl fmt::Display for Monomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.coeff != 1 {
            write!(f, "{}", self.coeff)?;
            if !self.syms.is_empty() {
                f.write_str("*")?;
            }
        }
        f.write_str(&self.syms.join("*"))
    }
}

/// One dimension of a symbolic shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A static size.
    Known(i64),
    /// A dynamic size with a symbolic value.
    Sym(Monomial),
    /// A dynamic size nothing is known about.
    Unknown,
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Known(n) => write!(f, "{n}"),
            Dim::Sym(m) => write!(f, "{m}"),
            Dim::Unknown => f.write_str("?"),
        }
    }
}

impl Dim {
    /// A dimension named by one symbol.
    pub fn sym(name: &str) -> Dim {
        Dim::Sym(Monomial {
            coeff: 1,
            syms: vec![name.to_string()],
        })
    }

    /// The static size, if known.
    pub fn known(&self) -> Option<i64> {
        match self {
            Dim::Known(n) => Some(*n),
            _ => None,
        }
    }

    /// Whether the two dimensions are provably equal.
    pub fn provably_eq(&self, other: &Dim) -> bool {
        !matches!(self, Dim::Unknown) && self == other
    }

    /// Whether the two dimensions are provably different.
    pub fn provably_ne(&self, other: &Dim) -> bool {
        matches!((self, other), (Dim::Known(a), Dim::Known(b)) if a != b)
    }

    /// The product of two dimensions.
    pub fn mul(&self, other: &Dim) -> Dim {
        match (self, other) {
            (Dim::Known(0), _) | (_, Dim::Known(0)) => Dim::Known(0),
            (Dim::Known(a), Dim::Known(b)) => a.checked_mul(*b).map_or(Dim::Unknown, Dim::Known),
            // A size times a negative number is not a size.
            (Dim::Known(a), Dim::Sym(_)) | (Dim::Sym(_), Dim::Known(a)) if *a < 0 => Dim::Unknown,
            (Dim::Known(a), Dim::Sym(m)) | (Dim::Sym(m), Dim::Known(a)) => {
                match m.coeff.checked_mul(*a) {
                    Some(coeff) => Dim::Sym(Monomial {
                        coeff,
                        syms: m.syms.clone(),
                    }),
                    None => Dim::Unknown,
                }
            }
            (Dim::Sym(a), Dim::Sym(b)) => {
                let mut syms = a.syms.clone();
                syms.extend(b.syms.iter().cloned());
                syms.sort();
                match a.coeff.checked_mul(b.coeff) {
                    Some(coeff) => Dim::Sym(Monomial { coeff, syms }),
                    None => Dim::Unknown,
                }
            }
            _ => Dim::Unknown,
        }
    }

    /// `self / other` when it divides exactly (as a monomial).
    pub fn div_exact(&self, other: &Dim) -> Option<Dim> {
        match (self, other) {
            (_, Dim::Known(1)) => Some(self.clone()),
            (Dim::Known(a), Dim::Known(b)) if a.checked_rem(*b) == Some(0) => {
                a.checked_div(*b).map(Dim::Known)
            }
            (Dim::Sym(m), Dim::Known(b)) if *b > 0 && m.coeff % b == 0 => {
                Some(Dim::Sym(Monomial {
                    coeff: m.coeff / b,
                    syms: m.syms.clone(),
                }))
            }
            (Dim::Sym(a), Dim::Sym(b)) if b.coeff != 0 && a.coeff % b.coeff == 0 => {
                let mut rest = a.syms.clone();
                for s in &b.syms {
                    let pos = rest.iter().position(|r| r == s)?;
                    rest.remove(pos);
                }
                let coeff = a.coeff / b.coeff;
                Some(if rest.is_empty() {
                    Dim::Known(coeff)
                } else {
                    Dim::Sym(Monomial { coeff, syms: rest })
                })
            }
            _ => None,
        }
    }

    /// The sum of two dimensions (concatenation): exact for static sizes
    /// and multiples of one monomial.
    pub fn add(&self, other: &Dim) -> Dim {
        match (self, other) {
            (Dim::Known(a), Dim::Known(b)) => a.checked_add(*b).map_or(Dim::Unknown, Dim::Known),
            (Dim::Known(0), d) | (d, Dim::Known(0)) => d.clone(),
            (Dim::Sym(a), Dim::Sym(b)) if a.syms == b.syms => match a.coeff.checked_add(b.coeff) {
                Some(coeff) => Dim::Sym(Monomial {
                    coeff,
                    syms: a.syms.clone(),
                }),
                None => Dim::Unknown,
            },
            _ => Dim::Unknown,
        }
    }
}

/// A symbolic shape: `None` when even the rank is unknown.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape(pub Option<Vec<Dim>>);

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => f.write_str("*"),
            Some(dims) => {
                f.write_str("[")?;
                for (i, d) in dims.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{d}")?;
                }
                f.write_str("]")
            }
        }
    }
}

impl Shape {
    /// A ranked shape.
    pub fn ranked(dims: Vec<Dim>) -> Shape {
        Shape(Some(dims))
    }

    /// A shape of unknown rank.
    pub fn unranked() -> Shape {
        Shape(None)
    }

    /// A shape of static sizes.
    pub fn of(dims: &[i64]) -> Shape {
        Shape(Some(dims.iter().map(|&d| Dim::Known(d)).collect()))
    }

    /// The dimensions, when ranked.
    pub fn dims(&self) -> Option<&[Dim]> {
        self.0.as_deref()
    }

    /// The rank, when known.
    pub fn rank(&self) -> Option<usize> {
        self.0.as_ref().map(Vec::len)
    }

    /// Whether every dimension is known or symbolic.
    pub fn is_resolved(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|d| d.iter().all(|d| !matches!(d, Dim::Unknown)))
    }

    /// The number of elements, as a dimension.
    pub fn num_elements(&self) -> Dim {
        match &self.0 {
            None => Dim::Unknown,
            Some(dims) => dims.iter().fold(Dim::Known(1), |acc, d| acc.mul(d)),
        }
    }
}

/// The symbolic shape and element type of a tensor type; `None` for a
/// type that is not a tensor.
pub fn shape_of(ctx: &Context, ty: Type) -> Option<(Shape, Type)> {
    match ctx.type_kind(ty) {
        TypeKind::UnrankedTensor { element } => Some((Shape::unranked(), *element)),
        TypeKind::RankedTensor {
            shape,
            element,
            encoding,
        } => {
            let syms = encoding.and_then(|e| dims_of_encoding(ctx, e));
            let mut syms = syms.into_iter().flatten();
            let dims = shape
                .iter()
                .map(|&d| {
                    if d == DYNAMIC {
                        syms.next().unwrap_or(Dim::Unknown)
                    } else {
                        Dim::Known(d)
                    }
                })
                .collect();
            Some((Shape::ranked(dims), *element))
        }
        _ => None,
    }
}

/// Checks that a tensor type's `#graph.dims` encoding names as many
/// dimensions as the type has dynamic ones, and names at least one.
pub fn check_encoding(ctx: &Context, ty: Type) -> Result<(), String> {
    let TypeKind::RankedTensor {
        shape,
        encoding: Some(encoding),
        ..
    } = ctx.type_kind(ty)
    else {
        return Ok(());
    };
    let Some(dims) = dims_of_encoding(ctx, *encoding) else {
        return Ok(());
    };
    let dynamic = shape.iter().filter(|&&d| d == DYNAMIC).count();
    let printed = strata_ir::printer::type_to_string(ctx, ty);
    if dims.len() != dynamic {
        return Err(format!(
            "type '{printed}' names {} dimension(s) in #graph.dims but has {dynamic} dynamic dimension(s)",
            dims.len()
        ));
    }
    if dims.iter().all(|d| matches!(d, Dim::Unknown)) {
        return Err(format!(
            "type '{printed}' names no symbol in #graph.dims: leave the encoding out"
        ));
    }
    Ok(())
}

/// The symbols of a `#graph.dims<...>` encoding, if `attr` is one.
pub fn dims_of_encoding(ctx: &Context, attr: Attribute) -> Option<Vec<Dim>> {
    match ctx.attr_kind(attr) {
        AttrKind::Opaque { dialect, data, .. } if ctx.ident_str(*dialect) == "graph" => {
            let body = data.strip_prefix("dims<")?.strip_suffix('>')?;
            parse_dim_list(body).ok()
        }
        _ => None,
    }
}

/// The tensor type of a symbolic shape: symbolic dimensions become `?` and
/// are named in a `#graph.dims<...>` encoding.
pub fn tensor_type(ctx: &mut Context, shape: &Shape, element: Type) -> Type {
    let Some(dims) = shape.dims() else {
        return ctx.intern_type(TypeKind::UnrankedTensor { element });
    };
    let sizes: Vec<i64> = dims.iter().map(|d| d.known().unwrap_or(DYNAMIC)).collect();
    let names: Vec<String> = dims
        .iter()
        .filter(|d| d.known().is_none())
        .map(ToString::to_string)
        .collect();
    let encoding = if names.iter().any(|n| n != "?") {
        Some(dims_encoding(ctx, &names))
    } else {
        None
    };
    ctx.intern_type(TypeKind::RankedTensor {
        shape: sizes,
        element,
        encoding,
    })
}

fn dims_encoding(ctx: &mut Context, names: &[String]) -> Attribute {
    let dialect = ctx.ident("graph");
    let data = format!("dims<{}>", names.join(", ")).into_boxed_str();
    ctx.intern_attr(AttrKind::Opaque {
        dialect,
        data,
        ty: None,
    })
}

/// Parses the list of a `#graph.dims<...>` body: `?` or monomials
/// (`batch`, `2*seq`, `batch*seq`) separated by commas. Errors carry the
/// byte offset in `body`.
pub fn parse_dim_list(body: &str) -> Result<Vec<Dim>, (usize, String)> {
    let mut dims = Vec::new();
    let mut offset = 0;
    if body.trim().is_empty() {
        return Ok(dims);
    }
    for item in body.split(',') {
        let lead = item.len() - item.trim_start().len();
        let text = item.trim();
        let at = offset + lead;
        offset += item.len() + 1;
        if text == "?" {
            dims.push(Dim::Unknown);
            continue;
        }
        let mut coeff: i64 = 1;
        let mut syms = Vec::new();
        for factor in text.split('*') {
            let f = factor.trim();
            if f.is_empty() {
                return Err((at, "expected a symbol, an integer or '?'".into()));
            }
            if f.bytes().all(|b| b.is_ascii_digit()) {
                let n: i64 = f
                    .parse()
                    .map_err(|_| (at, format!("integer '{f}' is too large")))?;
                if n < 1 {
                    return Err((at, "a factor of a symbolic size must be positive".into()));
                }
                coeff = coeff
                    .checked_mul(n)
                    .ok_or((at, "symbolic size overflows".to_string()))?;
            } else if f.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                syms.push(f.to_string());
            } else {
                return Err((at, format!("invalid symbolic size '{f}'")));
            }
        }
        if syms.is_empty() {
            return Err((
                at,
                format!("'{text}' is a static size: write it in the tensor's shape"),
            ));
        }
        syms.sort();
        dims.push(Dim::Sym(Monomial { coeff, syms }));
    }
    Ok(dims)
}

/// Parses the body of a `graph` dialect attribute (after `#graph.`).
pub fn parse_graph_attr(ctx: &mut Context, body: &str) -> Result<Attribute, Vec<(usize, String)>> {
    if body == "dims" {
        return Err(vec![(
            4,
            "expected '<' and the list of dimensions after 'dims'".into(),
        )]);
    }
    let Some(inner) = body.strip_prefix("dims<") else {
        let mnemonic = body.split('<').next().unwrap_or(body);
        return Err(vec![(
            0,
            format!("unknown attribute `{mnemonic}` in dialect `graph`"),
        )]);
    };
    let Some(list) = inner.strip_suffix('>') else {
        return Err(vec![(body.len(), "expected '>'".into())]);
    };
    let dims = parse_dim_list(list).map_err(|(at, msg)| vec![(at + 5, msg)])?;
    let names: Vec<String> = dims.iter().map(ToString::to_string).collect();
    Ok(dims_encoding(ctx, &names))
}

/// Broadcasts two symbolic shapes with ONNX's multidirectional rules.
/// Sizes that cannot be proven compatible give an unknown dimension; sizes
/// that are provably incompatible are an error.
pub fn broadcast(a: &Shape, b: &Shape) -> Result<Shape, String> {
    let (Some(x), Some(y)) = (a.dims(), b.dims()) else {
        return Ok(Shape::unranked());
    };
    let rank = x.len().max(y.len());
    let mut out = Vec::with_capacity(rank);
    for i in 0..rank {
        let dx = if i + x.len() >= rank {
            &x[i + x.len() - rank]
        } else {
            &Dim::Known(1)
        };
        let dy = if i + y.len() >= rank {
            &y[i + y.len() - rank]
        } else {
            &Dim::Known(1)
        };
        let d = match (dx, dy) {
            (Dim::Known(1), d) | (d, Dim::Known(1)) => d.clone(),
            (a, b) if a.provably_eq(b) => a.clone(),
            (Dim::Known(p), Dim::Known(q)) => {
                return Err(format!(
                    "shapes {a} and {b} are not broadcastable: {p} vs {q} in dimension {i}"
                ))
            }
            // A dynamic size broadcast with a static one is that size (or 1).
            (Dim::Known(n), _) | (_, Dim::Known(n)) => Dim::Known(*n),
            _ => Dim::Unknown,
        };
        out.push(d);
    }
    Ok(Shape::ranked(out))
}
