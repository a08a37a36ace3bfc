//! `#nvptx.blocked<{...}>`: how a tile's elements are distributed over the
//! threads of a block, in the terms of Triton's blocked layout.
//!
//! ```mlir
//! #nvptx.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
//! ```
//!
//! Along each dimension `d`, a thread holds boxes of `sizePerThread[d]`
//! consecutive elements; `threadsPerWarp[d]` lanes of a warp and
//! `warpsPerCTA[d]` warps of the block sit side by side, so that one layer
//! of the layout covers `sizePerThread[d] * threadsPerWarp[d] *
//! warpsPerCTA[d]` elements, and a tile larger than that is covered by
//! repeating it (the thread holds a box in each repetition). Lanes and warps
//! are numbered along `order`, fastest dimension first. Where a layer
//! overhangs the tile, the threads past its end hold nothing there (Triton
//! would replicate; a store must not).
//!
//! A layout of rank 1 on a tile of higher rank deals the tile's elements in
//! row-major order, as if the tile were flat (its boxes lie within rows).
//! This is how tiles whose sizes are not powers of two are dealt out by
//! default: a layout of their rank would leave the lanes past each
//! dimension's size idle.
//!
//! `#nvptx.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>`
//! ([`MmaLayout`]) is the layout of a `dot`'s accumulator on `mma.sync`.
//!
//! Both are stored in the context as their canonical text
//! (`AttrKind::Opaque`).

use std::fmt;

use strata_ir::{AttrKind, Attribute, Context};

/// The warp size of every NVIDIA GPU.
pub const WARP_SIZE: i64 = 32;

/// The largest entry a layout's lists may hold.
const MAX_SIZE: i64 = 1 << 16;

/// A blocked layout (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BlockedLayout {
    /// Consecutive elements per thread along each dimension.
    pub size_per_thread: Vec<i64>,
    /// Lanes of a warp along each dimension (their product is 32).
    pub threads_per_warp: Vec<i64>,
    /// Warps of the block along each dimension.
    pub warps_per_cta: Vec<i64>,
    /// The dimensions from fastest to slowest varying.
    pub order: Vec<usize>,
}

impl BlockedLayout {
    /// The layout that deals a tile of `shape` to `warps` warps in boxes of
    /// `run` consecutive elements along its last dimension (`run` divides
    /// it), row-major: lanes and then warps are given to the innermost
    /// dimension first, as many as it has boxes (rounded up to a power of
    /// two), the rest to the outer ones (the outermost takes what is left).
    /// For tiles whose sizes are powers of two, thread `t` holds boxes
    /// `t, t + T, ...` of the tile in row-major order, `T` the block's
    /// threads.
    pub fn default_for(shape: &[i64], run: i64, warps: i64) -> BlockedLayout {
        let rank = shape.len().max(1);
        let mut size_per_thread = vec![1; rank];
        size_per_thread[rank - 1] = run.max(1);
        let mut threads_per_warp = vec![1; rank];
        let mut warps_per_cta = vec![1; rank];
        let extent = |d: usize| shape.get(d).copied().unwrap_or(1).max(1);
        let mut lanes = WARP_SIZE;
        let mut left = warps.max(1);
        for d in (0..rank).rev() {
            let boxes = (extent(d) + size_per_thread[d] - 1) / size_per_thread[d];
            let t = if d == 0 {
                lanes
            } else {
                lanes.min(next_pow2(boxes))
            };
            threads_per_warp[d] = t;
            lanes /= t;
            let rows = (boxes + t - 1) / t;
            let w = if d == 0 {
                left
            } else {
                left.min(next_pow2(rows))
            };
            warps_per_cta[d] = w;
            left /= w;
        }
        BlockedLayout {
            size_per_thread,
            threads_per_warp,
            warps_per_cta,
            order: (0..rank).rev().collect(),
        }
    }

    /// Its rank.
    pub fn rank(&self) -> usize {
        self.order.len()
    }

    /// The warps it spreads over.
    pub fn warps(&self) -> i64 {
        self.warps_per_cta.iter().product()
    }

    /// The elements one layer of it covers along each dimension.
    pub fn cover(&self) -> Vec<i64> {
        (0..self.rank())
            .map(|d| self.size_per_thread[d] * self.threads_per_warp[d] * self.warps_per_cta[d])
            .collect()
    }

    /// The shape it deals out for a tile of `shape`: the tile's own, or,
    /// for a layout of rank 1 on a tile of higher rank, the tile's element
    /// count (its elements in row-major order).
    pub fn dealt_shape(&self, shape: &[i64]) -> Vec<i64> {
        if shape.is_empty() {
            // A rank-0 tile is one element.
            vec![1]
        } else if self.rank() == 1 && shape.len() > 1 {
            vec![shape.iter().product()]
        } else {
            shape.to_vec()
        }
    }

    /// The consecutive elements of a box along its last dimension (a
    /// flat layout's boxes lie along the tile's last dimension too).
    pub fn row_length(&self) -> usize {
        self.size_per_thread.last().copied().unwrap_or(1).max(1) as usize
    }

    /// How many layers cover a tile of `shape` along each dimension.
    pub fn repetitions(&self, shape: &[i64]) -> Vec<i64> {
        self.cover()
            .iter()
            .zip(&self.dealt_shape(shape))
            .map(|(&c, &s)| ((s + c - 1) / c).max(1))
            .collect()
    }

    /// The elements each thread holds of a tile of `shape` (those past the
    /// tile's end included).
    pub fn per_thread(&self, shape: &[i64]) -> i64 {
        if shape.contains(&0) {
            return 0;
        }
        self.repetitions(shape).iter().product::<i64>()
            * self.size_per_thread.iter().product::<i64>()
    }

    /// Checks it on its own: equal ranks, powers of two, 32 lanes a warp,
    /// an order that is a permutation of the dimensions.
    pub fn verify(&self) -> Result<(), String> {
        let rank = self.order.len();
        for (name, v) in [
            ("sizePerThread", &self.size_per_thread),
            ("threadsPerWarp", &self.threads_per_warp),
            ("warpsPerCTA", &self.warps_per_cta),
        ] {
            if v.len() != rank {
                return Err(format!(
                    "{name} has {} dimensions, order has {rank}",
                    v.len()
                ));
            }
            if let Some(x) = v.iter().find(|&&x| x < 1 || x & (x - 1) != 0) {
                return Err(format!("{name} must hold powers of two, got {x}"));
            }
            // Larger sizes fit no tile or block (and keep products exact).
            if let Some(x) = v.iter().find(|&&x| x > MAX_SIZE) {
                return Err(format!("{name} holds {x}, more than {MAX_SIZE}"));
            }
        }
        if rank == 0 {
            return Err("a layout needs at least one dimension".into());
        }
        let product = |v: &[i64]| v.iter().try_fold(1i64, |a, &x| a.checked_mul(x));
        if product(&self.size_per_thread).is_none_or(|s| s > MAX_SIZE) {
            return Err(format!("sizePerThread must multiply to at most {MAX_SIZE}"));
        }
        if product(&self.warps_per_cta).is_none_or(|w| w > MAX_SIZE) {
            return Err(format!("warpsPerCTA must multiply to at most {MAX_SIZE}"));
        }
        let lanes = product(&self.threads_per_warp).unwrap_or(i64::MAX);
        if lanes != WARP_SIZE {
            return Err(format!(
                "threadsPerWarp must multiply to {WARP_SIZE}, got {lanes}"
            ));
        }
        let mut seen = vec![false; rank];
        for &d in &self.order {
            if d >= rank || seen[d] {
                return Err(format!(
                    "order must be a permutation of 0..{rank}, got {:?}",
                    self.order
                ));
            }
            seen[d] = true;
        }
        Ok(())
    }

    /// Checks it for a tile of `shape` on a block of `warps` warps.
    pub fn verify_for(&self, shape: &[i64], warps: i64) -> Result<(), String> {
        self.verify()?;
        if self.rank() != shape.len().max(1) && self.rank() != 1 {
            return Err(format!(
                "has rank {}, the tile has rank {} (or a layout of rank 1 deals it in row-major order)",
                self.rank(),
                shape.len()
            ));
        }
        if self.rank() == 1 && shape.len() > 1 {
            let (s, last) = (self.size_per_thread[0], shape[shape.len() - 1]);
            if last % s != 0 {
                return Err(format!(
                    "sizePerThread[0] = {s} does not divide the tile's last dimension ({last}): a box must lie within a row"
                ));
            }
        }
        if self.warps() != warps {
            return Err(format!(
                "spreads over {} warps, the block has {warps}",
                self.warps()
            ));
        }
        // A dimension of size 0 holds no box; others, whole boxes.
        let dealt = self.dealt_shape(shape);
        let own_rank: &[i64] = if self.rank() == dealt.len() {
            &dealt
        } else {
            &[]
        };
        for (d, (&s, &n)) in self.size_per_thread.iter().zip(own_rank).enumerate() {
            if n % s != 0 || (n == 0 && s != 1) {
                return Err(format!(
                    "sizePerThread[{d}] = {s} does not divide the tile's dimension {d} ({n})"
                ));
            }
        }
        Ok(())
    }

    /// As an attribute.
    pub fn to_attr(&self, ctx: &mut Context) -> Attribute {
        nvptx_attr(ctx, &self.to_string())
    }

    /// The layout of attribute `attr`: `None` when it is not a
    /// `#nvptx.blocked`, an error when it is one that does not parse.
    pub fn from_attr(ctx: &mut Context, attr: Attribute) -> Option<Result<BlockedLayout, String>> {
        let body = nvptx_body(ctx, attr, "blocked")?;
        Some(parse_blocked(ctx, &body).map_err(|(_, m)| m))
    }
}

impl fmt::Display for BlockedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[i64]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let order: Vec<i64> = self.order.iter().map(|&d| d as i64).collect();
        write!(
            f,
            "blocked<{{sizePerThread = [{}], threadsPerWarp = [{}], warpsPerCTA = [{}], order = [{}]}}>",
            list(&self.size_per_thread),
            list(&self.threads_per_warp),
            list(&self.warps_per_cta),
            list(&order)
        )
    }
}

/// `#nvptx.<text>`, stored as its text.
fn nvptx_attr(ctx: &mut Context, text: &str) -> Attribute {
    let dialect = ctx.ident("nvptx");
    ctx.intern_attr(AttrKind::Opaque {
        dialect,
        data: text.into(),
        ty: None,
    })
}

/// The body of `attr` when it is an `#nvptx.<mnemonic>...` attribute.
fn nvptx_body(ctx: &Context, attr: Attribute, mnemonic: &str) -> Option<String> {
    match ctx.attr_kind(attr) {
        AttrKind::Opaque { dialect, data, .. }
            if ctx.ident_str(*dialect) == "nvptx" && data.starts_with(mnemonic) =>
        {
            Some(data.to_string())
        }
        _ => None,
    }
}

fn next_pow2(n: i64) -> i64 {
    (n.max(1) as u64).next_power_of_two() as i64
}

/// The parameters of `mnemonic<{name = [ints], ...}>`, each as its list of
/// integers (a single integer as a list of one), with the byte offset of
/// the dictionary in `body` for errors; errors are (offset, message).
type Params = (usize, Vec<(String, Vec<i64>)>);

fn parse_params(ctx: &mut Context, body: &str, mnemonic: &str) -> Result<Params, (usize, String)> {
    let Some(inner) = body
        .strip_prefix(mnemonic)
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix('<'))
    else {
        return Err((mnemonic.len(), format!("expected '<' after '{mnemonic}'")));
    };
    let at = body.len() - inner.len();
    let Some(dict) = inner.trim_end().strip_suffix('>') else {
        return Err((body.len(), "expected '>'".into()));
    };
    let attr = strata_ir::parser::parse_attribute(ctx, dict.trim())
        .map_err(|e| (at, format!("expected a dictionary: {}", e.message)))?;
    let AttrKind::Dictionary(entries) = ctx.attr_kind(attr) else {
        return Err((
            at,
            "expected a dictionary of the layout's parameters".into(),
        ));
    };
    let mut out = Vec::new();
    for &(k, v) in entries.iter() {
        let name = ctx.ident_str(k).to_string();
        let int = |x: Attribute| match ctx.attr_kind(x) {
            AttrKind::Integer { value, .. } => i64::try_from(*value)
                .map_err(|_| (at, format!("'{name}' holds an integer out of range"))),
            _ => Err((at, format!("'{name}' must be an array of integers"))),
        };
        let values = match ctx.attr_kind(v) {
            AttrKind::Array(items) => items
                .iter()
                .map(|&x| int(x))
                .collect::<Result<Vec<_>, _>>()?,
            AttrKind::Integer { .. } => vec![int(v)?],
            _ => return Err((at, format!("'{name}' must be an array of integers"))),
        };
        out.push((name, values));
    }
    Ok((at, out))
}

/// Takes parameter `name` of `params`, which allow only `known`.
fn param(params: &Params, name: &str, known: &[&str]) -> Result<Vec<i64>, (usize, String)> {
    let (at, entries) = params;
    if let Some((k, _)) = entries.iter().find(|(k, _)| !known.contains(&k.as_str())) {
        return Err((*at, format!("unknown parameter '{k}'")));
    }
    entries
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
        .ok_or_else(|| (*at, format!("missing parameter '{name}'")))
}

/// Parses `blocked<{...}>` (the body of `#nvptx.blocked<...>`); errors are
/// (byte offset in `body`, message).
fn parse_blocked(ctx: &mut Context, body: &str) -> Result<BlockedLayout, (usize, String)> {
    const KNOWN: &[&str] = &["sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"];
    let params = parse_params(ctx, body, "blocked")?;
    let at = params.0;
    let order = param(&params, "order", KNOWN)?;
    if order.iter().any(|&d| d < 0) {
        return Err((at, format!("order must be a permutation, got {order:?}")));
    }
    let layout = BlockedLayout {
        size_per_thread: param(&params, "sizePerThread", KNOWN)?,
        threads_per_warp: param(&params, "threadsPerWarp", KNOWN)?,
        warps_per_cta: param(&params, "warpsPerCTA", KNOWN)?,
        order: order.iter().map(|&d| d as usize).collect(),
    };
    layout.verify().map_err(|m| (at, m))?;
    Ok(layout)
}

/// `#nvptx.mma<{versionMajor = 2, warpsPerCTA = [m, n], instrShape = [16, 8]}>`:
/// the layout of a `dot`'s accumulator on `mma.sync.m16n8k16` (Triton's
/// `nvidia_mma` of version 2). The accumulator is cut into 16x8 tiles dealt
/// to an `m x n` grid of warps, each warp holding a block of them; lane `l`
/// holds elements `(l / 4 + 8 (e / 2), 2 (l % 4) + e % 2)` of each of its
/// warp's tiles, as PTX lays accumulators out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MmaLayout {
    /// Warps along the accumulator's rows and columns.
    pub warps_per_cta: [i64; 2],
}

impl MmaLayout {
    /// As an attribute.
    pub fn to_attr(&self, ctx: &mut Context) -> Attribute {
        nvptx_attr(ctx, &self.to_string())
    }

    /// The layout of attribute `attr`: `None` when it is not a
    /// `#nvptx.mma`, an error when it is one that does not parse.
    pub fn from_attr(ctx: &mut Context, attr: Attribute) -> Option<Result<MmaLayout, String>> {
        let body = nvptx_body(ctx, attr, "mma")?;
        Some(parse_mma(ctx, &body).map_err(|(_, m)| m))
    }
}

impl fmt::Display for MmaLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [m, n] = self.warps_per_cta;
        write!(
            f,
            "mma<{{versionMajor = 2, warpsPerCTA = [{m}, {n}], instrShape = [16, 8]}}>"
        )
    }
}

/// Parses `mma<{...}>`; errors as `parse_blocked`'s.
fn parse_mma(ctx: &mut Context, body: &str) -> Result<MmaLayout, (usize, String)> {
    const KNOWN: &[&str] = &["versionMajor", "versionMinor", "warpsPerCTA", "instrShape"];
    let params = parse_params(ctx, body, "mma")?;
    let at = params.0;
    if param(&params, "versionMajor", KNOWN)? != [2] {
        return Err((
            at,
            "versionMajor must be 2 (mma.sync, sm_80 and later)".into(),
        ));
    }
    if let Ok(minor) = param(&params, "versionMinor", KNOWN) {
        if minor != [0] {
            return Err((at, "versionMinor must be 0".into()));
        }
    }
    if param(&params, "instrShape", KNOWN)? != [16, 8] {
        return Err((at, "instrShape must be [16, 8] (mma.sync.m16n8k16)".into()));
    }
    let warps = param(&params, "warpsPerCTA", KNOWN)?;
    let [m, n] = warps[..] else {
        return Err((
            at,
            format!("warpsPerCTA must have 2 entries, got {}", warps.len()),
        ));
    };
    for w in [m, n] {
        if !(1..=32).contains(&w) || w & (w - 1) != 0 {
            return Err((
                at,
                format!("warpsPerCTA must hold powers of two up to 32, got {w}"),
            ));
        }
    }
    Ok(MmaLayout {
        warps_per_cta: [m, n],
    })
}

/// Parses the body of an `#nvptx.` attribute: `blocked<{...}>`,
/// `mma<{...}>`.
/// The alias the printer gives a layout where tile types use it, as
/// Triton's: `#blocked`, `#blocked1`, ..., `#mma`.
pub(crate) fn nvptx_attr_alias(body: &str) -> Option<&'static str> {
    if body.starts_with("blocked") {
        Some("blocked")
    } else if body.starts_with("mma") {
        Some("mma")
    } else {
        None
    }
}

pub(crate) fn parse_nvptx_attr(
    ctx: &mut Context,
    body: &str,
) -> Result<Attribute, Vec<(usize, String)>> {
    if body.starts_with("blocked") {
        let layout = parse_blocked(ctx, body).map_err(|e| vec![e])?;
        return Ok(layout.to_attr(ctx));
    }
    if body.starts_with("mma") {
        let layout = parse_mma(ctx, body).map_err(|e| vec![e])?;
        return Ok(layout.to_attr(ctx));
    }
    let mnemonic = body.split('<').next().unwrap_or(body);
    Err(vec![(
        0,
        format!("unknown attribute `{mnemonic}` in dialect `nvptx`"),
    )])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_layouts_deal_boxes_row_major() {
        // 1-D: all lanes and warps along the one dimension.
        let l = BlockedLayout::default_for(&[1024], 4, 4);
        assert_eq!(
            l.to_string(),
            "blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
        );
        assert_eq!(l.per_thread(&[1024]), 8);
        // 64 x 64 f32 in boxes of 4: 16 boxes a row, 2 rows a warp.
        let l = BlockedLayout::default_for(&[64, 64], 4, 4);
        assert_eq!(l.threads_per_warp, [2, 16]);
        assert_eq!(l.warps_per_cta, [4, 1]);
        assert_eq!(l.cover(), [8, 64]);
        assert_eq!(l.per_thread(&[64, 64]), 32);
        // A wide row: warps side by side along it.
        let l = BlockedLayout::default_for(&[2, 512], 4, 4);
        assert_eq!(l.threads_per_warp, [1, 32]);
        assert_eq!(l.warps_per_cta, [1, 4]);
        // Sizes that are not powers of two are overhung.
        let l = BlockedLayout::default_for(&[3, 7], 1, 4);
        assert_eq!(l.threads_per_warp, [4, 8]);
        assert_eq!(l.warps_per_cta, [4, 1]);
        assert_eq!(l.per_thread(&[3, 7]), 1);
        for l in [
            BlockedLayout::default_for(&[1, 1, 5], 1, 8),
            BlockedLayout::default_for(&[7, 1, 96], 2, 2),
        ] {
            l.verify().expect("valid");
        }
    }

    #[test]
    fn layouts_print_parse_and_verify() {
        let mut ctx = Context::new();
        crate::nvptx::register(&mut ctx);
        let text = "blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>";
        let attr = parse_nvptx_attr(&mut ctx, text).expect("parses");
        let l = BlockedLayout::from_attr(&mut ctx, attr)
            .expect("a layout")
            .expect("valid");
        assert_eq!(l.to_string(), text);
        assert_eq!(l.verify_for(&[16, 32], 4), Ok(()));
        assert!(l.verify_for(&[16, 6], 4).is_err());
        assert!(l.verify_for(&[16, 32], 8).is_err());
        // Rank 1 on a 2-D tile: row-major, boxes within rows.
        let flat = BlockedLayout::default_for(&[18 * 18], 2, 4);
        assert_eq!(flat.verify_for(&[18, 18], 4), Ok(()));
        assert_eq!(flat.per_thread(&[18, 18]), 4);
        assert!(BlockedLayout::default_for(&[64], 4, 4)
            .verify_for(&[9, 6], 4)
            .is_err());
        let bad = "blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>";
        let e = parse_nvptx_attr(&mut ctx, bad).expect_err("16 lanes");
        assert!(e[0].1.contains("multiply to 32"), "{e:?}");
        let huge = "blocked<{sizePerThread = [4611686018427387904], threadsPerWarp = [32], warpsPerCTA = [4611686018427387904], order = [0]}>";
        let e = parse_nvptx_attr(&mut ctx, huge).expect_err("too large");
        assert!(e[0].1.contains("more than 65536"), "{e:?}");
        let e = parse_nvptx_attr(&mut ctx, "swizzled<{}>").expect_err("unknown");
        assert!(e[0].1.contains("unknown attribute `swizzled`"), "{e:?}");
        let mma = "mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>";
        let attr = parse_nvptx_attr(&mut ctx, mma).expect("parses");
        let m = MmaLayout::from_attr(&mut ctx, attr)
            .expect("mma")
            .expect("valid");
        assert_eq!((m.warps_per_cta, m.to_string().as_str()), ([2, 2], mma));
        let e = parse_nvptx_attr(
            &mut ctx,
            "mma<{versionMajor = 3, warpsPerCTA = [2, 2], instrShape = [16, 8]}>",
        )
        .expect_err("version");
        assert!(e[0].1.contains("versionMajor must be 2"), "{e:?}");
    }
}
