//! Layouts on tile types: which tiles the block holds, and in which layout.
//!
//! A tile type without an encoding is computed where it is used: each
//! reader computes the elements it needs (a store's, a reduction's, a
//! carried tile's). A tile type with an `#nvptx.blocked` or `#nvptx.mma`
//! encoding is held by the block in that layout, every thread computing
//! (or keeping, across a loop) its own elements. Where a tile changes
//! layout is a `kernel.convert_layout`: to a layout from none, the tile is
//! computed at the new layout's elements (nothing moves); from a layout,
//! the block writes the tile to shared memory and the readers read it
//! there (`convert_statement`).
//!
//! The conversion completes the kernel's types as it goes (as Triton's
//! layout assignment does before its lowering, here in the same walk): a
//! store, a block reduction and a loop-carried tile without a layout get
//! the one chosen for them, pushed back through the single-use,
//! elementwise values that compute them (`assign`) and forward through the
//! elementwise ops that read a held tile (`spread`); a value needed in two
//! layouts, or one that is held and read elsewhere in another, gets a
//! `kernel.convert_layout`. The kernel IR after the conversion so says how
//! every tile is distributed, and converting it again follows it.

use strata_dialects::kernel::types::{encoding_of, tile_shape, with_encoding};
use strata_dialects::nvptx::layout::{BlockedLayout, MmaLayout as MmaAttr};
use strata_ir::{Attribute, Operation, OperationState, Value};

use super::{err, Conv, R};

/// A tile's layout, as its type's encoding says.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum TypedLayout {
    Blocked(BlockedLayout),
    Mma(MmaAttr),
}

/// What an op does with the elements of a tile operand.
enum Reads {
    /// Reads it at its own elements (elementwise, a pointer offset, a
    /// load, a store): all its tile operands and results share a layout.
    Pointwise,
    /// Makes a new tile from it, read at other elements (a broadcast,
    /// `expand_dims`, a reduction along an axis, a `dot` operand).
    Elsewhere,
    /// A block reduction, a layout conversion, a loop's initial value or
    /// a yield: takes it in whatever layout the op's own rule gives.
    Own,
}

impl Conv<'_> {
    /// The layout of tile `v`'s type, checked for its shape (an error
    /// located at `user`).
    pub(super) fn type_layout(&mut self, user: Operation, v: Value) -> R<Option<TypedLayout>> {
        let ty = self.ctx.value_type(v);
        let Some(enc) = encoding_of(self.ctx, ty) else {
            return Ok(None);
        };
        let shape = tile_shape(self.ctx, ty);
        if let Some(r) = BlockedLayout::from_attr(self.ctx, enc) {
            let l = r.map_err(|m| {
                err(
                    self.ctx,
                    user,
                    format!("has a tile of an invalid layout: {m}"),
                )
            })?;
            let warps = self.warps();
            l.verify_for(&shape, warps)
                .map_err(|m| err(self.ctx, user, format!("has a tile whose layout {m}")))?;
            return Ok(Some(TypedLayout::Blocked(l)));
        }
        if let Some(r) = MmaAttr::from_attr(self.ctx, enc) {
            let m = r.map_err(|m| {
                err(
                    self.ctx,
                    user,
                    format!("has a tile of an invalid layout: {m}"),
                )
            })?;
            return Ok(Some(TypedLayout::Mma(m)));
        }
        Err(err(
            self.ctx,
            user,
            "has a tile whose encoding is not an #nvptx.blocked or #nvptx.mma layout",
        ))
    }

    /// The tile `v` converts from, through layout conversions not staged
    /// in shared memory (the same elements, computed the same way).
    pub(super) fn root(&self, mut v: Value) -> Value {
        while let Some(d) = self.ctx.defining_op(v) {
            if self.ctx.op_name_str(d) != "kernel.convert_layout" || self.shared.contains_key(&v) {
                break;
            }
            v = self.ctx.operand(d, 0);
        }
        v
    }

    /// A `kernel.convert_layout` of tile `v` to layout `enc` (in no block).
    pub(super) fn convert_op(
        &mut self,
        v: Value,
        enc: Option<Attribute>,
        loc: strata_ir::Location,
    ) -> Operation {
        let ty = with_encoding(self.ctx, self.ctx.value_type(v), enc);
        let ident = self.ctx.ident("kernel.convert_layout");
        let mut st = OperationState::new(ident, loc);
        st.operands = vec![v];
        st.result_types = vec![ty];
        self.ctx.create_operation(st)
    }

    /// Gives value `v` layout `enc` in its type.
    pub(super) fn retype(&mut self, v: Value, enc: Option<Attribute>) {
        let t = with_encoding(self.ctx, self.ctx.value_type(v), enc);
        self.ctx.set_value_type(v, t);
    }

    /// How `op` reads its tile operands.
    fn reads_of(&self, op: Operation) -> Reads {
        let name = self.ctx.op_name_str(op);
        let tile_result = self.ctx.results(op).any(|r| self.is_tile(r));
        match name {
            "kernel.addptr" | "kernel.load" | "kernel.store" => Reads::Pointwise,
            "kernel.reduce" if !tile_result => Reads::Own,
            "kernel.convert_layout" | "scf.yield" | "scf.for" => Reads::Own,
            "arith.constant" => Reads::Own,
            _ if (name.starts_with("arith.") || name.starts_with("math.")) && tile_result => {
                Reads::Pointwise
            }
            _ => Reads::Elsewhere,
        }
    }

    /// Whether `op` reads its operand `i` at the elements of its result (a
    /// pointwise op's operands, a `dot`'s accumulator): the two share a
    /// layout.
    fn pointwise_operand(&self, op: Operation, i: usize) -> bool {
        match self.reads_of(op) {
            Reads::Pointwise => true,
            _ => self.ctx.op_name_str(op) == "kernel.dot" && i == 2,
        }
    }

    /// Whether `v`, read only by `user`, may take a layout in its type:
    /// it is computed by an op that can make its result in any layout
    /// (reading its own tile operands at the same elements, or making it
    /// from tiles without one).
    fn retypeable(&self, v: Value, user: Operation) -> bool {
        if !self.ctx.uses(v).all(|u| u.op == user) || self.owned.contains_key(&v) {
            return false;
        }
        // A dot that reads `v` twice (as an operand and its accumulator)
        // takes it in two layouts.
        if self.ctx.op_name_str(user) == "kernel.dot" && self.ctx.uses(v).count() > 1 {
            return false;
        }
        let Some(def) = self.ctx.defining_op(v) else {
            return false;
        };
        if self.ctx.num_results(def) != 1 {
            return false;
        }
        let name = self.ctx.op_name_str(def);
        matches!(
            name,
            "kernel.splat"
                | "kernel.range"
                | "kernel.broadcast"
                | "kernel.expand_dims"
                | "kernel.convert_layout"
        ) || name == "kernel.reduce"
            || name == "kernel.dot"
            || matches!(self.reads_of(def), Reads::Pointwise)
    }

    /// Makes operand `i` of `user` a tile in layout `enc` (`None`: none):
    /// the value itself when it can take it (and, through elementwise
    /// ops, the values it is computed from), else a `kernel.convert_layout`
    /// of it placed before `user`.
    pub(super) fn assign(&mut self, user: Operation, i: usize, enc: Option<Attribute>) -> R<()> {
        let v = self.ctx.operand(user, i);
        if !self.is_tile(v) {
            return Ok(());
        }
        let cur = encoding_of(self.ctx, self.ctx.value_type(v));
        if cur == enc {
            return Ok(());
        }
        if cur.is_none() && enc.is_some() && self.retypeable(v, user) {
            self.retype(v, enc);
            let Some(def) = self.ctx.defining_op(v) else {
                return Ok(());
            };
            for j in 0..self.ctx.num_operands(def) {
                if self.pointwise_operand(def, j) {
                    self.assign(def, j, enc)?;
                }
            }
            return Ok(());
        }
        let c = self.convert_op(v, enc, self.ctx.op_loc(user));
        self.ctx.insert_op_before(user, c);
        let r = self.ctx.result(c, 0);
        self.ctx.set_operand(user, i, r);
        // Before an op already converted (or being converted): converted
        // now; else when the walk reaches it.
        if self.visited.contains(&user) {
            self.convert_statement(c)?;
        }
        Ok(())
    }

    /// Pushes the layout of tile `v` (a tile the block holds) into the ops
    /// that read it: an elementwise op takes it (its other operands and
    /// its result too, and so on), a store whose layout is still open takes
    /// it; an op that needs another layout, or reads the tile at other
    /// elements, gets a conversion.
    pub(super) fn spread(&mut self, v: Value) -> R<()> {
        let enc = encoding_of(self.ctx, self.ctx.value_type(v));
        let uses: Vec<_> = self.ctx.uses(v).collect();
        for u in uses {
            let (user, i) = (u.op, u.index as usize);
            if self.ctx.operand(user, i) != v {
                continue;
            }
            let name = self.ctx.op_name_str(user).to_string();
            match self.reads_of(user) {
                Reads::Own if name == "scf.yield" => {
                    let want = self.yield_layout(user, i);
                    self.assign(user, i, want)?;
                }
                Reads::Own if name == "kernel.reduce" => {
                    if matches!(self.type_layout(user, v)?, Some(TypedLayout::Mma(_))) {
                        self.assign(user, i, None)?;
                    }
                }
                Reads::Own => {}
                Reads::Pointwise if name == "kernel.store" => {
                    let ptrs = self.ctx.operand(user, 0);
                    let held = encoding_of(self.ctx, self.ctx.value_type(ptrs));
                    let open = held.is_none() && !self.visited.contains(&user);
                    let mma = matches!(self.type_layout(user, v)?, Some(TypedLayout::Mma(_)));
                    if open && !mma {
                        for j in 0..self.ctx.num_operands(user) {
                            self.assign(user, j, enc)?;
                        }
                    } else {
                        self.assign(user, i, held)?;
                    }
                }
                _ if self.pointwise_operand(user, i) => {
                    let r = self.ctx.result(user, 0);
                    let held = encoding_of(self.ctx, self.ctx.value_type(r));
                    let mma = matches!(self.type_layout(user, v)?, Some(TypedLayout::Mma(_)));
                    if held.is_none() && !mma {
                        self.retype(r, enc);
                        for j in 0..self.ctx.num_operands(user) {
                            if self.pointwise_operand(user, j) {
                                self.assign(user, j, enc)?;
                            }
                        }
                        self.spread(r)?;
                    } else if held != enc {
                        self.assign(user, i, held)?;
                    }
                }
                Reads::Elsewhere | Reads::Pointwise => {
                    self.assign(user, i, None)?;
                }
            }
        }
        Ok(())
    }

    /// A tile op that reads its operands at other elements (a broadcast, a
    /// reduction along an axis, a `dot`) reads a tile held in a layout
    /// through shared memory: a conversion to none before it.
    pub(super) fn reads_elsewhere(&mut self, op: Operation) -> R<()> {
        if !matches!(self.reads_of(op), Reads::Elsewhere) {
            return Ok(());
        }
        if self.ctx.op_name_str(op) == "kernel.dot" {
            // (Its operands are staged in their layouts, its accumulator
            // is in its own: `dot_statement`.)
            return Ok(());
        }
        for i in 0..self.ctx.num_operands(op) {
            let v = self.ctx.operand(op, i);
            if self.is_tile(v) && encoding_of(self.ctx, self.ctx.value_type(v)).is_some() {
                self.assign(op, i, None)?;
            }
        }
        Ok(())
    }

    /// The layout (encoding) of the loop-carried value that operand `i` of
    /// `yield` feeds (none when its parent is not a loop).
    fn yield_layout(&self, yield_op: Operation, i: usize) -> Option<Attribute> {
        let parent = self.ctx.op_parent_op(yield_op)?;
        if self.ctx.op_name_str(parent) != "scf.for" {
            return None;
        }
        let r = self.ctx.results(parent).nth(i)?;
        encoding_of(self.ctx, self.ctx.value_type(r))
    }

    /// A `kernel.convert_layout` where it stands: from a tile without a
    /// layout nothing happens (its readers compute it at their elements);
    /// from a held tile, the block writes it to shared memory in its
    /// layout, and its elements are read from there afterwards.
    pub(super) fn convert_statement(&mut self, op: Operation) -> R<()> {
        self.visited.insert(op);
        let src = self.ctx.operand(op, 0);
        let r = self.ctx.result(op, 0);
        let shape = tile_shape(self.ctx, self.ctx.value_type(src));
        match self.type_layout(op, src)? {
            None => Ok(()),
            Some(TypedLayout::Mma(_)) => {
                let (Some(slots), Some(&m)) = (self.owned.get(&src).cloned(), self.mma.get(&src))
                else {
                    return Err(err(
                        self.ctx,
                        op,
                        "converts a tile in an MMA layout that no dot on mma_sync holds",
                    ));
                };
                self.mma_to_shared(r, &shape, &slots, m)
            }
            Some(TypedLayout::Blocked(l)) => self.stage_in(op, src, r, &shape, &l, true),
        }
    }
}
