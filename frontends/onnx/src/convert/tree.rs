//! `ai.onnx.ml` `TreeEnsemble` (version 5), spelled out with `graph` ops.
//!
//! The trees are fixed by the node's attributes, so the importer walks them
//! once: every root-to-leaf path is a list of the conditions it takes (a
//! node, and whether it goes the true way). The graph evaluates every
//! node's condition on every row at once (a `gather` of the features
//! compared with the splits, grouped by comparison), counts each path's
//! satisfied conditions with two matrix products against constant 0/1
//! matrices, batched by tree (each tree's paths against its own nodes,
//! padded to the largest tree, so that the constants grow with the
//! ensemble, not its square), and a path whose count is its length
//! reaches its leaf. The
//! leaves' weights then aggregate into the targets: a product with a
//! weight matrix for `SUM` and `AVERAGE`, a masked `reduce_min` or
//! `reduce_max` for `MIN` and `MAX`.

use strata_ir::float::FloatKind;
use strata_ir::types::Signedness;
use strata_ir::{Context, Location, Type, TypeKind, Value};

use super::attrs::Attrs;
use super::{ConvertError, Importer, Res};
use crate::proto::NodeProto;

/// The comparisons of `nodes_modes`, in their order (6 is set membership).
const COMPARISONS: [&str; 6] = [
    "graph.less_equal",
    "graph.less",
    "graph.greater_equal",
    "graph.greater",
    "graph.equal",
    "graph.equal", // NEQ: negated below
];
const MEMBER: u8 = 6;

/// Most root-to-leaf paths an ensemble may have (a guard against node
/// lists that share subtrees exponentially).
const MAX_PATHS: usize = 1 << 20;

/// One root-to-leaf path: the conditions it takes, and its leaf.
struct Path {
    /// The tree (its index in `tree_roots`).
    tree: usize,
    conditions: Vec<(usize, bool)>,
    leaf: usize,
}

/// The most cells of a constant the decomposition builds (the per-tree
/// path-counting matrices, the paths-by-targets weights): a larger
/// ensemble is refused rather than exhausting memory.
const MAX_CELLS: usize = 1 << 26;

/// The numbers of the TENSOR attribute `name` (of any float or integer
/// type), as f64s: decoded as the importer decodes every tensor
/// ([`tensor_attr`](crate::tensor::tensor_attr)) and read back by the
/// folder's element view.
fn numbers(ctx: &mut Context, a: &Attrs, name: &str) -> Res<Option<Vec<f64>>> {
    use strata_dialects::fold::{consts, float_const, int_const};
    let Some(attr) = a.get(name) else {
        return Ok(None);
    };
    let t = attr
        .t
        .as_ref()
        .ok_or_else(|| ConvertError::Invalid(format!("has a '{name}' that is not a tensor")))?;
    let dense = crate::tensor::tensor_attr(ctx, t)?;
    let count = t.dims.iter().product::<i64>().max(0) as usize;
    let Some(c) = consts(ctx, dense) else {
        return Ok(Some(Vec::new()));
    };
    let unsigned = matches!(
        ctx.type_kind(c.elem),
        TypeKind::Integer {
            signedness: Signedness::Unsigned,
            ..
        }
    );
    (0..count)
        .map(|i| {
            let bits = c.get(i);
            float_const(ctx, c.elem, bits)
                .map(|f| f.value)
                .or_else(|| {
                    int_const(ctx, c.elem, bits).map(|n| {
                        if unsigned {
                            n.value as f64
                        } else {
                            n.signed() as f64
                        }
                    })
                })
                .ok_or_else(|| format!("has a '{name}' whose elements are not numbers").into())
        })
        .collect::<Res<Vec<f64>>>()
        .map(Some)
}

/// The ensemble, read from the node's attributes and checked.
struct Ensemble {
    modes: Vec<u8>,
    splits: Vec<f64>,
    features: Vec<i64>,
    missing_true: Vec<bool>,
    /// Per node, its members (membership nodes only).
    members: Vec<Vec<f64>>,
    paths: Vec<Path>,
    trees: usize,
    leaf_weights: Vec<f64>,
    leaf_targets: Vec<i64>,
    targets: i64,
}

fn read_ensemble(ctx: &mut Context, a: &Attrs) -> Res<Ensemble> {
    let ints = |name: &str| a.ints(name).ok_or_else(|| format!("requires {name}"));
    let features = ints("nodes_featureids")?;
    let true_ids = ints("nodes_truenodeids")?;
    let false_ids = ints("nodes_falsenodeids")?;
    let true_leafs = ints("nodes_trueleafs")?;
    let false_leafs = ints("nodes_falseleafs")?;
    let leaf_targets = ints("leaf_targetids")?;
    let roots = ints("tree_roots")?;
    let modes: Vec<u8> = numbers(ctx, a, "nodes_modes")?
        .ok_or("requires nodes_modes")?
        .into_iter()
        .map(|m| {
            if (0.0..=6.0).contains(&m) {
                m as u8
            } else {
                u8::MAX
            }
        })
        .collect();
    let splits = numbers(ctx, a, "nodes_splits")?.ok_or("requires nodes_splits")?;
    let leaf_weights = numbers(ctx, a, "leaf_weights")?.ok_or("requires leaf_weights")?;
    let targets = a.int("n_targets").ok_or("requires n_targets")?;
    let n = modes.len();
    for (name, len) in [
        ("nodes_featureids", features.len()),
        ("nodes_truenodeids", true_ids.len()),
        ("nodes_falsenodeids", false_ids.len()),
        ("nodes_trueleafs", true_leafs.len()),
        ("nodes_falseleafs", false_leafs.len()),
        ("nodes_splits", splits.len()),
    ] {
        if len != n {
            return Err(format!("has {len} {name} for {n} nodes").into());
        }
    }
    if modes.contains(&u8::MAX) {
        return Err("has a nodes_modes entry outside 0..=6".into());
    }
    if leaf_weights.len() != leaf_targets.len() {
        return Err(format!(
            "has {} leaf_weights for {} leaf_targetids",
            leaf_weights.len(),
            leaf_targets.len()
        )
        .into());
    }
    if let Some(t) = leaf_targets.iter().find(|&&t| t < 0 || t >= targets) {
        return Err(format!("has a leaf target {t} outside 0..{targets}").into());
    }
    if features.iter().any(|&f| f < 0) {
        return Err("has a negative feature id".into());
    }
    let missing_true = match a.ints("nodes_missing_value_tracks_true") {
        Some(m) if m.len() == n => m.iter().map(|&v| v != 0).collect(),
        Some(m) => return Err(format!("has {} missing-value flags for {n} nodes", m.len()).into()),
        None => vec![false; n],
    };
    // Membership nodes take, in node order, the runs of
    // `membership_values` between NaNs.
    let mut members = vec![Vec::new(); n];
    let values = numbers(ctx, a, "membership_values")?.unwrap_or_default();
    let mut runs = values.split(|v| v.is_nan());
    for (i, _) in modes.iter().enumerate().filter(|(_, &m)| m == MEMBER) {
        members[i] = runs
            .next()
            .ok_or("has fewer membership_values runs than membership nodes")?
            .to_vec();
    }

    let leaf = |i: i64| -> Res<usize> {
        usize::try_from(i)
            .ok()
            .filter(|&i| i < leaf_weights.len())
            .ok_or_else(|| format!("has a leaf index {i} outside 0..{}", leaf_weights.len()).into())
    };
    let node = |i: i64| -> Res<usize> {
        usize::try_from(i)
            .ok()
            .filter(|&i| i < n)
            .ok_or_else(|| format!("has a node index {i} outside 0..{n}").into())
    };
    if !(1..=1 << 24).contains(&targets) {
        return Err(format!("has n_targets {targets}, not 1 to {}", 1 << 24).into());
    }
    let mut paths = Vec::new();
    for (tree, &root) in roots.iter().enumerate() {
        let r = node(root)?;
        // A tree that is one leaf, as ONNX's reference reads it: both
        // branches the same leaf, the leaf at the root's index.
        if true_leafs[r] != 0 && false_leafs[r] != 0 && true_ids[r] == false_ids[r] {
            paths.push(Path {
                tree,
                conditions: Vec::new(),
                leaf: leaf(root)?,
            });
            continue;
        }
        let mut stack = vec![(r, Vec::new())];
        while let Some((i, taken)) = stack.pop() {
            if taken.len() > n {
                return Err(format!("has a tree (root {root}) with a cycle").into());
            }
            for (way, target, is_leaf) in [
                (true, true_ids[i], true_leafs[i] != 0),
                (false, false_ids[i], false_leafs[i] != 0),
            ] {
                let mut conditions: Vec<(usize, bool)> = taken.clone();
                conditions.push((i, way));
                if is_leaf {
                    paths.push(Path {
                        tree,
                        conditions,
                        leaf: leaf(target)?,
                    });
                } else {
                    stack.push((node(target)?, conditions));
                }
            }
            if paths.len() + stack.len() > MAX_PATHS {
                return Err(format!("has more than {MAX_PATHS} root-to-leaf paths").into());
            }
        }
    }
    Ok(Ensemble {
        modes,
        splits,
        features,
        missing_true,
        members,
        paths,
        trees: roots.len(),
        leaf_weights,
        leaf_targets,
        targets,
    })
}

/// The refusal of an ensemble whose constants would hold `cells` cells.
fn too_large(cells: usize) -> ConvertError {
    ConvertError::unsupported(format!(
        "with this many trees, nodes, paths and targets is not supported (a constant of {cells} cells; at most {MAX_CELLS})"
    ))
}

/// Every node's condition on every row of `xf` (`X` in f64), as columns
/// of `i1` (`[N, k]` each, grouped by comparison), with the column of each
/// node (`usize::MAX` for none) and the number of columns.
fn node_conditions(
    im: &mut Importer,
    e: &Ensemble,
    xf: Value,
    loc: Location,
) -> Res<(Vec<Value>, Vec<usize>, usize)> {
    let f32t = im.ctx.float_type(FloatKind::F32);
    let mut columns: Vec<Value> = Vec::new();
    let mut column = vec![usize::MAX; e.modes.len()];
    let mut next = 0;
    for mode in 0..=MEMBER {
        let nodes: Vec<usize> = (0..e.modes.len()).filter(|&i| e.modes[i] == mode).collect();
        if nodes.is_empty() {
            continue;
        }
        let groups: Vec<Vec<usize>> = if mode == MEMBER {
            nodes.iter().map(|&i| vec![i]).collect()
        } else {
            vec![nodes]
        };
        for group in groups {
            let feats: Vec<i64> = group.iter().map(|&i| e.features[i]).collect();
            let idx = im.const_i64(&feats, loc)?;
            let axis = im.i64_attr(1);
            let picked = im.op1("graph.gather", vec![xf, idx], vec![("axis", axis)], loc)?;
            let mut cond = if mode == MEMBER {
                im.membership(picked, &e.members[group[0]], f32t, loc)?
            } else {
                let splits: Vec<f64> = group.iter().map(|&i| e.splits[i]).collect();
                let splits = im.const_f64_shaped(&splits, &[splits.len() as i64], loc)?;
                let c = im.bin(COMPARISONS[mode as usize], picked, splits, loc)?;
                if mode == 5 {
                    im.un("graph.not", c, loc)?
                } else {
                    c
                }
            };
            if group.iter().any(|&i| e.missing_true[i]) {
                let flags: Vec<i64> = group
                    .iter()
                    .map(|&i| i64::from(e.missing_true[i]))
                    .collect();
                let flags = im.const_i64(&flags, loc)?;
                let zero = im.const_i64_scalar(0, loc)?;
                let flags = im.bin("graph.greater", flags, zero, loc)?;
                let same = im.bin("graph.equal", picked, picked, loc)?;
                let nan = im.un("graph.not", same, loc)?;
                let missing = im.bin("graph.and", nan, flags, loc)?;
                cond = im.bin("graph.or", cond, missing, loc)?;
            }
            for &i in &group {
                column[i] = next;
                next += 1;
            }
            columns.push(cond);
        }
    }

    Ok((columns, column, next))
}

/// Which root-to-leaf paths each row takes: `[N, P]` `i1`, the paths laid
/// out by tree in `slots` (each tree's padded to the largest tree's count,
/// a padding slot `None`).
fn reached_paths<'e>(
    im: &mut Importer,
    x: Value,
    e: &'e Ensemble,
    conditions: (Vec<Value>, Vec<usize>, usize),
    loc: Location,
) -> Res<(Value, Vec<Option<&'e Path>>)> {
    let (columns, column, next) = conditions;
    let f32t = im.ctx.float_type(FloatKind::F32);
    // The paths by tree, each tree's in `slots` of `width` (padded).
    let trees = e.trees;
    let mut per_tree: Vec<Vec<&Path>> = vec![Vec::new(); trees];
    for path in &e.paths {
        per_tree[path.tree].push(path);
    }
    let width = per_tree.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let slots: Vec<Option<&Path>> = per_tree
        .iter()
        .flat_map(|ps| (0..width).map(move |j| ps.get(j).copied()))
        .collect();
    let p = slots.len() as i64;

    // Which paths each row takes: [N, P].
    let reached = if next == 0 {
        // Every tree is one leaf (one path each): every row reaches it.
        let rows = im.dim_scalar(x, 0, loc)?;
        let rows = im.unsqueeze(rows, &[0], loc)?;
        let count = im.const_i64(&[p], loc)?;
        let axis = im.i64_attr(0);
        let shape = im.op1("graph.concat", vec![rows, count], vec![("axis", axis)], loc)?;
        let yes = im.const_bool(true, loc)?;
        im.op1("graph.expand", vec![yes, shape], vec![], loc)?
    } else {
        let cond = if columns.len() == 1 {
            columns[0]
        } else {
            let axis = im.i64_attr(1);
            im.op1("graph.concat", columns, vec![("axis", axis)], loc)?
        };
        let cond = im.cast_to(cond, f32t, loc)?;
        // Each tree's nodes, in the order of its columns here.
        let nodes: Vec<Vec<usize>> = per_tree
            .iter()
            .map(|ps| {
                let mut n: Vec<usize> = ps
                    .iter()
                    .flat_map(|p| p.conditions.iter().map(|&(i, _)| i))
                    .collect();
                n.sort_unstable();
                n.dedup();
                n
            })
            .collect();
        let depth = nodes.iter().map(Vec::len).max().unwrap_or(0).max(1);
        let cells = trees.saturating_mul(depth).saturating_mul(width);
        if cells > MAX_CELLS {
            return Err(too_large(cells));
        }
        // [N, trees, depth]: each tree's conditions (padding reads column
        // 0, which no path of it counts), then [trees, N, depth].
        let column = &column;
        let picks: Vec<i64> = nodes
            .iter()
            .flat_map(|n| (0..depth).map(move |k| n.get(k).map_or(0, |&i| column[i] as i64)))
            .collect();
        let picks = im.const_i64(&picks, loc)?;
        let axis = im.i64_attr(1);
        let c = im.op1("graph.gather", vec![cond, picks], vec![("axis", axis)], loc)?;
        let shape = im.const_i64(&[-1, trees as i64, depth as i64], loc)?;
        let c = im.reshape(c, shape, loc)?;
        let swap = vec![("perm", im.i64_array(&[1, 0, 2]))];
        let c = im.op1("graph.transpose", vec![c], swap.clone(), loc)?;
        // [trees, depth, width]: how many of each path's conditions take
        // each node the true (false) way.
        let (mut takes_true, mut takes_false) = (vec![0.0f32; cells], vec![0.0f32; cells]);
        for (t, ps) in per_tree.iter().enumerate() {
            for (j, path) in ps.iter().enumerate() {
                for &(i, way) in &path.conditions {
                    let k = nodes[t].binary_search(&i).unwrap_or(0);
                    let cell = (t * depth + k) * width + j;
                    if way {
                        takes_true[cell] += 1.0;
                    } else {
                        takes_false[cell] += 1.0;
                    }
                }
            }
        }
        let shape = [trees as i64, depth as i64, width as i64];
        let t = im.const_f32_shaped(&takes_true, &shape, loc)?;
        let f = im.const_f32_shaped(&takes_false, &shape, loc)?;
        let one = im.scalar(f32t, 1.0, loc)?;
        let not_c = im.bin("graph.sub", one, c, loc)?;
        let a = im.bin("graph.matmul", c, t, loc)?;
        let b = im.bin("graph.matmul", not_c, f, loc)?;
        let satisfied = im.bin("graph.add", a, b, loc)?;
        // A path is taken when all its conditions hold; a padding slot
        // (length -1) never is.
        let lengths: Vec<f32> = slots
            .iter()
            .map(|s| s.map_or(-1.0, |p| p.conditions.len() as f32))
            .collect();
        let lengths = im.const_f32_shaped(&lengths, &[trees as i64, 1, width as i64], loc)?;
        let taken = im.bin("graph.equal", satisfied, lengths, loc)?;
        let taken = im.op1("graph.transpose", vec![taken], swap, loc)?;
        let shape = im.const_i64(&[-1, p], loc)?;
        im.reshape(taken, shape, loc)?
    };

    Ok((reached, slots))
}

/// TreeEnsemble (`ai.onnx.ml` 5) on `X` `[N, F]`: `Y` `[N, n_targets]` in
/// `X`'s type. Conditions compare in f64 (every float type converts
/// exactly); a NaN feature takes the true way where
/// `nodes_missing_value_tracks_true` says so. `post_transform` `NONE`,
/// `SOFTMAX` (1) and `LOGISTIC` (2) are applied as the spec numbers them
/// (ONNX's reference ignores the attribute; onnxruntime 1.32 swaps the
/// two). Under `MIN` and `MAX` a target no reached leaf adds to is 0, as
/// onnxruntime gives it.
pub(super) fn tree_ensemble(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let elem = im.elem(x).ok_or("needs a tensor X")?;
    if im.rank_of(x) != Some(2) {
        return Err("needs a 2-D X ([N, features])".into());
    }
    let e = read_ensemble(im.ctx, a)?;
    let aggregate = a.int("aggregate_function").unwrap_or(1);
    let post = a.int("post_transform").unwrap_or(0);
    if !(0..=3).contains(&aggregate) {
        return Err(format!("has aggregate_function {aggregate}, not 0..=3").into());
    }
    if !matches!(post, 0..=2) {
        return Err(ConvertError::unsupported(format!(
            "with post_transform {post} (SOFTMAX_ZERO or PROBIT) is not supported"
        )));
    }
    let f64t = im.ctx.float_type(FloatKind::F64);
    let f32t = im.ctx.float_type(FloatKind::F32);
    let xf = im.cast_to(x, f64t, loc)?;

    let conditions = node_conditions(im, &e, xf, loc)?;
    let (reached, slots) = reached_paths(im, x, &e, conditions, loc)?;
    let p = slots.len() as i64;

    // The targets: [N, n_targets].
    let targets = e.targets;
    let size = (p as usize).saturating_mul(targets as usize);
    if size > MAX_CELLS {
        return Err(too_large(size));
    }
    let mut cells = vec![0.0f64; size];
    let mut hits = vec![0i64; size];
    for (j, path) in slots.iter().enumerate() {
        let Some(path) = path else { continue };
        let cell = j * targets as usize + e.leaf_targets[path.leaf] as usize;
        cells[cell] += e.leaf_weights[path.leaf];
        hits[cell] = 1;
    }
    let y = if aggregate <= 1 {
        if aggregate == 0 && e.trees > 0 {
            cells.iter_mut().for_each(|c| *c /= e.trees as f64);
        }
        let w = im.const_f64_shaped(&cells, &[p, targets], loc)?;
        let r = im.cast_to(reached, f64t, loc)?;
        im.bin("graph.matmul", r, w, loc)?
    } else {
        // MIN (2) or MAX (3) over the reached leaves of each target.
        let fill = if aggregate == 2 {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
        let w = im.const_f64_shaped(&cells, &[p, targets], loc)?;
        let hit_cells = hits.clone();
        let hits = im.const_i64(&hits, loc)?;
        let shape = im.const_i64(&[p, targets], loc)?;
        let hits = im.reshape(hits, shape, loc)?;
        let zero = im.const_i64_scalar(0, loc)?;
        let hits = im.bin("graph.greater", hits, zero, loc)?;
        let r = im.unsqueeze(reached, &[2], loc)?;
        let mask = im.bin("graph.and", r, hits, loc)?;
        let fill = im.scalar(f64t, fill, loc)?;
        let masked = im.op1("graph.where", vec![mask, w, fill], vec![], loc)?;
        let reduce = if aggregate == 2 {
            "graph.reduce_min"
        } else {
            "graph.reduce_max"
        };
        let axes = im.const_i64(&[1], loc)?;
        let keep = im.bool_attr(false);
        let extreme = im.op1(reduce, vec![masked, axes], vec![("keepdims", keep)], loc)?;
        // A target no reached leaf adds to is 0, as onnxruntime gives it
        // (ONNX's reference leaves the starting value).
        let counts: Vec<f32> = hit_cells.iter().map(|&h| h as f32).collect();
        let counts = im.const_f32_shaped(&counts, &[p, targets], loc)?;
        let r = im.cast_to(reached, f32t, loc)?;
        let counts = im.bin("graph.matmul", r, counts, loc)?;
        let zero32 = im.scalar(f32t, 0.0, loc)?;
        let any = im.bin("graph.greater", counts, zero32, loc)?;
        let zero = im.scalar(f64t, 0.0, loc)?;
        im.op1("graph.where", vec![any, extreme, zero], vec![], loc)?
    };
    let y = match post {
        1 => {
            let axis = vec![("axis", im.i64_attr(-1))];
            im.op1("graph.softmax", vec![y], axis, loc)?
        }
        2 => im.un("graph.sigmoid", y, loc)?,
        _ => y,
    };
    Ok(vec![im.cast_to(y, elem, loc)?])
}

impl Importer<'_> {
    /// Whether each row of `picked` (`[N, 1]`, f64) is one of `members`:
    /// `[N, 1]` booleans.
    fn membership(
        &mut self,
        picked: Value,
        members: &[f64],
        f32t: Type,
        loc: Location,
    ) -> Res<Value> {
        if members.is_empty() {
            let no = self.const_bool(false, loc)?;
            let same = self.bin("graph.equal", picked, picked, loc)?;
            return self.bin("graph.and", same, no, loc);
        }
        let set = self.const_f64_shaped(members, &[members.len() as i64], loc)?;
        let eq = self.bin("graph.equal", picked, set, loc)?;
        let eq = self.cast_to(eq, f32t, loc)?;
        let axes = self.const_i64(&[1], loc)?;
        let keep = self.bool_attr(true);
        let any = self.op1(
            "graph.reduce_max",
            vec![eq, axes],
            vec![("keepdims", keep)],
            loc,
        )?;
        let zero = self.scalar(f32t, 0.0, loc)?;
        self.bin("graph.greater", any, zero, loc)
    }
}
