//! Dominator trees of a region's blocks (MLIR's `DominanceInfo` for one
//! region), shared by the verifier, CSE and region simplification.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::context::{Block, Context, Region};

/// The blocks of `region` reachable from its entry through the successors
/// of their terminators, in reverse post-order (the entry first).
pub fn reverse_post_order(ctx: &Context, region: Region) -> Vec<Block> {
    let Some(entry) = ctx.region_entry_block(region) else {
        return Vec::new();
    };
    let mut visited = FxHashSet::default();
    let mut post = Vec::new();
    let mut stack = vec![(entry, false)];
    while let Some((block, done)) = stack.pop() {
        if done {
            post.push(block);
            continue;
        }
        if !visited.insert(block) {
            continue;
        }
        stack.push((block, true));
        if let Some(last) = ctx.block_last_op(block) {
            let succs: Vec<Block> = ctx.successors(last).collect();
            for s in succs.into_iter().rev() {
                if !visited.contains(&s) && ctx.block_parent_region(s) == Some(region) {
                    stack.push((s, false));
                }
            }
        }
    }
    post.reverse();
    post
}

/// The dominator tree of one region's reachable blocks.
pub struct DomTree {
    /// Reachable blocks in reverse post-order; index 0 is the entry.
    blocks: Vec<Block>,
    /// Block -> position in `blocks`.
    rpo_index: FxHashMap<Block, usize>,
    /// Immediate dominator of each block, by position (the entry's is itself).
    idom: Vec<usize>,
    /// Blocks each block immediately dominates, by position.
    children: Vec<Vec<usize>>,
}

impl DomTree {
    /// Cooper, Harvey and Kennedy's iterative algorithm over reverse post-order.
    pub fn new(ctx: &Context, region: Region) -> DomTree {
        let blocks = reverse_post_order(ctx, region);
        let rpo_index: FxHashMap<Block, usize> =
            blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let preds: Vec<Vec<usize>> = blocks
            .iter()
            .map(|&b| {
                ctx.block_predecessors(b)
                    .filter_map(|u| ctx.op_parent_block(u.op))
                    .filter_map(|p| rpo_index.get(&p).copied())
                    .collect()
            })
            .collect();
        const UNDEF: usize = usize::MAX;
        let mut idom = vec![UNDEF; blocks.len()];
        if !blocks.is_empty() {
            idom[0] = 0;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for b in 1..blocks.len() {
                let mut new_idom = UNDEF;
                for &p in &preds[b] {
                    if idom[p] == UNDEF {
                        continue;
                    }
                    new_idom = if new_idom == UNDEF {
                        p
                    } else {
                        let (mut x, mut y) = (p, new_idom);
                        while x != y {
                            while x > y {
                                x = idom[x];
                            }
                            while y > x {
                                y = idom[y];
                            }
                        }
                        x
                    };
                }
                if new_idom != idom[b] {
                    idom[b] = new_idom;
                    changed = true;
                }
            }
        }
        let mut children = vec![Vec::new(); blocks.len()];
        for (b, &d) in idom.iter().enumerate().skip(1) {
            if d != UNDEF {
                children[d].push(b);
            }
        }
        DomTree {
            blocks,
            rpo_index,
            idom,
            children,
        }
    }

    /// The entry block (the root of the tree), if the region has blocks.
    pub fn root(&self) -> Option<Block> {
        self.blocks.first().copied()
    }

    /// Whether control can reach `block` from the entry.
    pub fn is_reachable(&self, block: Block) -> bool {
        self.rpo_index.contains_key(&block)
    }

    /// The blocks `block` immediately dominates, in reverse post-order.
    pub fn children(&self, block: Block) -> impl Iterator<Item = Block> + '_ {
        let kids = match self.rpo_index.get(&block) {
            Some(&i) => &self.children[i][..],
            None => &[],
        };
        kids.iter().map(|&c| self.blocks[c])
    }

    /// Whether `a` dominates `b` and differs from it. As LLVM's dominator
    /// trees: anything dominates an unreachable block, and an unreachable
    /// block dominates nothing reachable.
    pub fn properly_dominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return false;
        }
        let Some(&bi) = self.rpo_index.get(&b) else {
            return true;
        };
        let Some(&ai) = self.rpo_index.get(&a) else {
            return false;
        };
        let mut current = bi;
        while current != 0 {
            current = self.idom[current];
            if current == ai {
                return true;
            }
        }
        false
    }
}
