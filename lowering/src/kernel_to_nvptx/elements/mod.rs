//! The GPU form of one `kernel.func`: uniform (scalar) code once, every
//! store a loop over the thread's own elements, each element computed
//! where it is needed (see the module docs).

mod folds;
mod layout;
mod loops;
mod mma;
mod retype;
mod runs;

use std::collections::{HashMap, HashSet};

use mma::MmaLayout;
use strata_dialects::nvptx::layout::BlockedLayout;

use strata_dialects::kernel::types::{element_of, is_ptr, is_ptr_like, pointee, tile_shape};
use strata_dialects::nvptx::types::{ptr_type, AddressSpace};
use strata_ir::{
    AttrKind, Attribute, Block, Context, Diagnostic, Location, Operation, OperationState, Type,
    TypeKind, Value,
};

/// The GPU value of one element of a kernel value: a number, or a pointer
/// as a base parameter and an offset in elements (`i32`).
#[derive(Clone, Copy, Debug)]
enum Elem {
    Val(Value),
    Ptr(Value, Value),
}

type R<T> = Result<T, Diagnostic>;

struct Conv<'c> {
    ctx: &'c mut Context,
    loc: Location,
    /// Threads per block.
    threads: i64,
    max_unroll: i64,
    /// Uniform values: a kernel scalar's GPU value.
    scalars: HashMap<Value, Elem>,
    /// Elements computed in the current element scope, innermost last.
    memo: Vec<HashMap<(Value, Vec<Value>), Elem>>,
    /// Tiles held in registers (loop-carried, or an `mma` accumulator):
    /// this thread's elements.
    owned: HashMap<Value, Vec<Value>>,
    /// The owned tiles dealt out in an `mma` layout.
    mma: HashMap<Value, MmaLayout>,
    /// The owned tiles dealt out in a blocked layout.
    blocked: HashMap<Value, BlockedLayout>,
    /// The `dot`s whose results a loop carries in an `mma` layout.
    mma_dots: HashMap<Operation, MmaLayout>,
    /// The MMA layouts the kernel's `dot`s are given (their result types').
    given_mma: HashMap<Operation, strata_dialects::nvptx::layout::MmaLayout>,
    /// Tiles the block has written to shared memory: the buffer and its
    /// strides (elements); their elements are read from there.
    shared: HashMap<Value, (Value, Vec<i64>)>,
    /// Bytes of shared memory allocated so far, and promised to the
    /// buffers of `mma_dots` not allocated yet.
    shared_bytes: i64,
    reserved_bytes: i64,
    /// The element being computed for a store or a carried tile.
    slot: Option<Slot>,
    /// Where ops are appended.
    block: Block,
    tid: Value,
    /// How many kernel `scf.for` bodies the current op is in (block-wide
    /// reductions, which synchronize the block, are made at depth 0 only).
    nested: usize,
    /// The widest access a thread makes to a tile's consecutive elements,
    /// in bytes (a store's elements are dealt out in runs of that size).
    vector_bytes: i64,
    /// A kernel mask known to hold at these indices (a run whose lanes are
    /// all inside it): a load under it at one of them needs no branch. At
    /// any other index (a reduction's or a dot's loop reads its source
    /// there) the load keeps its branch.
    assumed_mask: Option<(Value, Vec<Vec<Value>>)>,
    /// The kernel ops converted so far (or being converted): a layout
    /// conversion placed before one of them is converted at once.
    visited: HashSet<Operation>,
}

/// How a loop carries one of its values.
enum Carry {
    Scalar,
    /// A tile of this shape, dealt out in this layout.
    Tile(Vec<i64>, BlockedLayout),
    /// A tile of this shape in an `mma` layout.
    Mma(Vec<i64>, MmaLayout),
}

/// Which of the thread's elements of an owned tile are being computed:
/// their numbers and indices in a tile of `shape`, and the layout that
/// numbers them (an `mma` one, or a blocked one).
#[derive(Clone, Debug)]
struct Slot {
    elems: Vec<(usize, Vec<Value>)>,
    shape: Vec<i64>,
    mma: Option<MmaLayout>,
    blocked: Option<BlockedLayout>,
}

impl Slot {
    /// The elements of a box in a blocked layout, numbered from `first`.
    fn of_box(first: usize, lanes: &[Vec<Value>], shape: &[i64], layout: &BlockedLayout) -> Slot {
        Slot {
            elems: lanes
                .iter()
                .enumerate()
                .map(|(j, idx)| (first + j, idx.clone()))
                .collect(),
            shape: shape.to_vec(),
            mma: None,
            blocked: Some(layout.clone()),
        }
    }
}

/// The alignment in bytes that every buffer a kernel is launched on has,
/// and its GPU form's pointer parameters promise (`llvm.align`).
pub(super) const BUFFER_ALIGN: i128 = 16;

/// The MMA layouts kernel `k`'s `dot`s are given (their result types'),
/// checked against the block's `threads`.
fn given_mma(
    ctx: &mut Context,
    k: Operation,
    threads: i64,
) -> R<HashMap<Operation, strata_dialects::nvptx::layout::MmaLayout>> {
    use strata_dialects::nvptx::layout::MmaLayout as MmaAttr;
    let mut out = HashMap::new();
    for op in ctx.nested_ops(k, strata_ir::WalkOrder::PreOrder) {
        if ctx.op_name_str(op) != "kernel.dot" {
            continue;
        }
        let r = ctx.result(op, 0);
        let Some(attr) = strata_dialects::kernel::types::encoding_of(ctx, ctx.value_type(r)) else {
            continue;
        };
        if BlockedLayout::from_attr(ctx, attr).is_some() {
            continue;
        }
        let layout = match MmaAttr::from_attr(ctx, attr) {
            Some(Ok(l)) => l,
            Some(Err(m)) => return Err(err(ctx, op, format!("has an invalid layout: {m}"))),
            None => {
                return Err(err(
                    ctx,
                    op,
                    "has a result whose encoding is not an #nvptx.blocked or #nvptx.mma layout",
                ))
            }
        };
        let [m, n] = layout.warps_per_cta;
        if m * n != threads / 32 {
            return Err(err(
                ctx,
                op,
                format!(
                    "has a layout that spreads over {} warps, the block has {}",
                    m * n,
                    threads / 32
                ),
            ));
        }
        out.insert(op, layout);
    }
    Ok(out)
}

fn err(ctx: &Context, op: Operation, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::op_error(ctx, op, message)
}

/// The GPU form of kernel `k` with `threads` threads per program.
pub(super) fn convert_kernel(
    ctx: &mut Context,
    k: Operation,
    threads: i64,
    max_unroll: i64,
    vector_bytes: i64,
) -> R<Operation> {
    let loc = ctx.op_loc(k);
    let name = ctx
        .symbol_name(k)
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .unwrap_or_default();
    let Some(&region) = ctx.op_regions(k).first() else {
        return Err(err(ctx, k, "has no body"));
    };
    let Some(entry) = ctx.region_entry_block(region) else {
        return Err(err(ctx, k, "has no body"));
    };
    let params: Vec<Value> = ctx.block_args(entry).collect();
    let mut inputs = Vec::new();
    for &p in &params {
        let ty = ctx.value_type(p);
        let gpu = if is_ptr(ctx, ty) {
            let Some(e) = pointee(ctx, ty) else {
                return Err(err(ctx, k, "has a pointer without a pointee"));
            };
            ptr_type(ctx, e, AddressSpace::Global)
        } else {
            ty
        };
        inputs.push(gpu);
    }
    let func = strata_dialects::func::FuncOp::build_with_entry_block(ctx, loc, &name, &inputs, &[]);
    let Some(body) = func.entry_block(ctx) else {
        return Err(err(ctx, k, "could not create its GPU function"));
    };
    // Every buffer a kernel is launched on starts at a 16-byte boundary
    // (the plan's arena offsets are multiples of 64, and inputs and
    // constants are allocations of their own), which lets LLVM merge a
    // thread's consecutive accesses into vector ones.
    let mut arg_attrs = Vec::new();
    for &t in &inputs {
        let dict = if strata_dialects::nvptx::types::is_ptr(ctx, t) {
            let i64t = ctx.integer_type(64);
            let align = ctx.integer_attr(i64t, BUFFER_ALIGN);
            let key = ctx.ident("llvm.align");
            ctx.dictionary_attr(vec![(key, align)])
        } else {
            ctx.dictionary_attr(vec![])
        };
        arg_attrs.push(dict);
    }
    let arg_attrs = ctx.array_attr(arg_attrs);
    ctx.set_op_property(func.op(), "arg_attrs", arg_attrs);
    let args = func.arguments(ctx);
    let given_mma = given_mma(ctx, k, threads)?;
    let mut c = Conv {
        ctx,
        loc,
        threads,
        max_unroll,
        scalars: HashMap::new(),
        memo: vec![HashMap::new()],
        owned: HashMap::new(),
        mma: HashMap::new(),
        blocked: HashMap::new(),
        mma_dots: HashMap::new(),
        given_mma,
        shared: HashMap::new(),
        shared_bytes: 0,
        reserved_bytes: 0,
        slot: None,
        block: body,
        tid: Value::Argument(body, 0),
        nested: 0,
        vector_bytes,
        assumed_mask: None,
        visited: HashSet::new(),
    };
    for (&p, &a) in params.iter().zip(&args) {
        let e = if is_ptr(c.ctx, c.ctx.value_type(p)) {
            let zero = c.const_i32(0);
            Elem::Ptr(a, zero)
        } else {
            Elem::Val(a)
        };
        c.scalars.insert(p, e);
    }
    let i32t = c.ctx.integer_type(32);
    let axis = c.ctx.integer_attr(i32t, 0);
    c.tid = c.value("nvptx.thread_id", &[], &[i32t], &[("axis", axis)]);
    c.ops(entry)?;
    // For the executor: threads per block, and the grid's rank.
    let i64t = c.ctx.integer_type(64);
    let t = c.ctx.integer_attr(i64t, i128::from(threads));
    c.ctx.set_op_attr(func.op(), "nvptx.threads", t);
    if let Some(grid) = strata_ir::ods::inherent_attr(c.ctx, k, "grid") {
        c.ctx.set_op_attr(func.op(), "nvptx.grid_rank", grid);
    }
    Ok(func.op())
}

impl Conv<'_> {
    /// Appends op `name` to the current block.
    fn op(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[Type],
        props: &[(&str, Attribute)],
    ) -> Operation {
        let op = self.make_op(name, operands, results, props);
        self.ctx.append_op(self.block, op);
        op
    }

    /// Creates op `name` (in no block).
    fn make_op(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[Type],
        props: &[(&str, Attribute)],
    ) -> Operation {
        let ident = self.ctx.ident(name);
        let mut st = OperationState::new(ident, self.loc);
        st.operands = operands.to_vec();
        st.result_types = results.to_vec();
        if !props.is_empty() {
            let entries = props.iter().map(|&(k, v)| (self.ctx.ident(k), v)).collect();
            st.properties = Some(self.ctx.dictionary_attr(entries));
        }
        if let Some(spec) = self.ctx.registry().op_spec(name) {
            strata_ir::ods::fill_default_properties(self.ctx, spec, &mut st);
        }
        self.ctx.create_operation(st)
    }

    fn value(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[Type],
        props: &[(&str, Attribute)],
    ) -> Value {
        let op = self.op(name, operands, results, props);
        self.ctx.result(op, 0)
    }

    fn const_i32(&mut self, v: i64) -> Value {
        let t = self.ctx.integer_type(32);
        let a = self.ctx.integer_attr(t, i128::from(v));
        self.value("arith.constant", &[], &[t], &[("value", a)])
    }

    fn bin_i32(&mut self, name: &str, a: Value, b: Value) -> Value {
        let t = self.ctx.integer_type(32);
        self.value(name, &[a, b], &[t], &[])
    }

    fn cmp_slt(&mut self, a: Value, b: Value) -> Value {
        let i1 = self.ctx.integer_type(1);
        let i64t = self.ctx.integer_type(64);
        // arith.cmpi's `slt` is predicate 2.
        let p = self.ctx.integer_attr(i64t, 2);
        self.value("arith.cmpi", &[a, b], &[i1], &[("predicate", p)])
    }

    /// A copy of `op` on `operands` with `results` types (its properties and
    /// attributes kept).
    fn recreate(&mut self, op: Operation, operands: &[Value], results: &[Type]) -> Operation {
        let name = self.ctx.op_name(op);
        let mut st = OperationState::new(name, self.loc);
        st.operands = operands.to_vec();
        st.result_types = results.to_vec();
        st.properties = self.ctx.op_properties(op);
        let new = self.ctx.create_operation(st);
        let attrs = self.ctx.op_attr_dict(op);
        self.ctx.set_op_attr_dict(new, attrs);
        self.ctx.append_op(self.block, new);
        new
    }

    fn scalar(&self, op: Operation, v: Value) -> R<Elem> {
        self.scalars
            .get(&v)
            .copied()
            .ok_or_else(|| err(self.ctx, op, "uses a value not lowered to nvptx"))
    }

    fn scalar_val(&self, op: Operation, v: Value) -> R<Value> {
        match self.scalar(op, v)? {
            Elem::Val(x) => Ok(x),
            Elem::Ptr(..) => Err(err(self.ctx, op, "uses a pointer as a number")),
        }
    }

    fn is_tile(&self, v: Value) -> bool {
        matches!(
            self.ctx.type_kind(self.ctx.value_type(v)),
            TypeKind::RankedTensor { .. }
        )
    }

    /// Converts the ops of a kernel block (the body, or a loop's).
    fn ops(&mut self, block: Block) -> R<()> {
        // Layout conversions may be placed after the current op as it is
        // converted: the walk reaches them.
        let mut next = self.ctx.block_first_op(block);
        while let Some(op) = next {
            if !self.visited.contains(&op) {
                self.statement(op)?;
            }
            next = self.ctx.op_next(op);
        }
        Ok(())
    }

    /// One op of a kernel block: uniform ops are emitted, stores become
    /// loops over the thread's elements, tile ops wait until an element of
    /// them is needed.
    fn statement(&mut self, op: Operation) -> R<()> {
        self.visited.insert(op);
        let name = self.ctx.op_name_str(op).to_string();
        let tile_result = self.ctx.results(op).any(|r| self.is_tile(r));
        for old in ["nvptx.layout", "nvptx.layouts"] {
            if self.ctx.op_attr(op, old).is_some() {
                return Err(err(
                    self.ctx,
                    op,
                    format!("has {old}: layouts are given on tile types now (tensor<..., #nvptx.blocked<...>>)"),
                ));
            }
        }
        match name.as_str() {
            "kernel.return" => {
                self.op("func.return", &[], &[], &[]);
                Ok(())
            }
            "scf.yield" => Ok(()),
            "kernel.store" => self.store(op),
            "kernel.dot" => self.dot_statement(op),
            "scf.for" => self.for_loop(op),
            "kernel.convert_layout" => self.convert_statement(op),
            "kernel.program_id" | "kernel.num_programs" => {
                let reg = if name == "kernel.program_id" {
                    "nvptx.block_id"
                } else {
                    "nvptx.grid_dim"
                };
                let axis = strata_ir::ods::inherent_attr(self.ctx, op, "axis");
                let i32t = self.ctx.integer_type(32);
                let props: Vec<(&str, Attribute)> = axis.map(|a| ("axis", a)).into_iter().collect();
                let v = self.value(reg, &[], &[i32t], &props);
                self.scalars.insert(self.ctx.result(op, 0), Elem::Val(v));
                Ok(())
            }
            _ if tile_result => self.reads_elsewhere(op),
            "kernel.reduce" if self.nested == 0 && self.block_reducible(op) => {
                let r = self.ctx.result(op, 0);
                let e = self.block_reduce(op)?;
                self.scalars.insert(r, e);
                Ok(())
            }
            "kernel.addptr" | "kernel.load" | "kernel.reduce" => {
                if name == "kernel.reduce" {
                    // Folded by each thread at every element: a tile held
                    // in a layout is read through shared memory.
                    let src = self.ctx.operand(op, 0);
                    if strata_dialects::kernel::types::encoding_of(
                        self.ctx,
                        self.ctx.value_type(src),
                    )
                    .is_some()
                    {
                        self.assign(op, 0, None)?;
                    }
                }
                let r = self.ctx.result(op, 0);
                let e = self.element(op, r, &[])?;
                self.scalars.insert(r, e);
                Ok(())
            }
            _ if name.starts_with("arith.") || name.starts_with("math.") => {
                let mut operands = Vec::new();
                for v in self.ctx.operands(op).collect::<Vec<_>>() {
                    operands.push(self.scalar_val(op, v)?);
                }
                let types: Vec<Type> = self
                    .ctx
                    .results(op)
                    .map(|r| self.ctx.value_type(r))
                    .collect();
                let new = self.recreate(op, &operands, &types);
                for (i, r) in self
                    .ctx
                    .results(op)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .enumerate()
                {
                    let nr = self.ctx.result(new, i);
                    self.scalars.insert(r, Elem::Val(nr));
                }
                Ok(())
            }
            _ => Err(err(
                self.ctx,
                op,
                format!("'{name}' is not lowered to nvptx yet"),
            )),
        }
    }

    /// An `scf.if` on `cond` with `types` results: its then and else
    /// blocks (empty) and the op.
    fn if_op(&mut self, cond: Value, types: &[Type]) -> (Block, Block, Operation) {
        let ident = self.ctx.ident("scf.if");
        let mut st = OperationState::new(ident, self.loc);
        st.operands = vec![cond];
        st.result_types = types.to_vec();
        let (r0, r1) = (self.ctx.create_region(), self.ctx.create_region());
        st.regions = vec![r0, r1];
        let op = self.ctx.create_operation(st);
        self.ctx.append_op(self.block, op);
        let (b0, b1) = (self.ctx.create_block(), self.ctx.create_block());
        self.ctx.append_block(r0, b0);
        self.ctx.append_block(r1, b1);
        (b0, b1, op)
    }

    fn zero(&mut self, t: Type) -> Value {
        let a = match self.ctx.type_kind(t) {
            TypeKind::Float(_) => self.ctx.float_attr(t, 0.0),
            _ => self.ctx.integer_attr(t, 0),
        };
        self.value("arith.constant", &[], &[t], &[("value", a)])
    }

    /// A tile store: each of the thread's elements stored under its mask.
    fn store(&mut self, op: Operation) -> R<()> {
        let operands: Vec<Value> = self.ctx.operands(op).collect();
        let ptrs = operands[0];
        if !self.is_tile(ptrs) {
            // A scalar store: thread 0 stores it.
            let zero = self.const_i32(0);
            let i1 = self.ctx.integer_type(1);
            let i64t = self.ctx.integer_type(64);
            let eq = self.ctx.integer_attr(i64t, 0);
            let first = self.value("arith.cmpi", &[self.tid, zero], &[i1], &[("predicate", eq)]);
            let (then_block, else_block, _) = self.if_op(first, &[]);
            let outer = self.block;
            self.block = then_block;
            self.store_element(op, &operands, &[])?;
            self.op("scf.yield", &[], &[], &[]);
            self.block = else_block;
            self.op("scf.yield", &[], &[], &[]);
            self.block = outer;
            return Ok(());
        }
        let shape = tile_shape(self.ctx, self.ctx.value_type(ptrs));
        let layout = self.store_layout(op, &shape)?;
        // (The layout may have put conversions in front of the operands.)
        let operands: Vec<Value> = self.ctx.operands(op).collect();
        let boxes = self.boxes(&layout, &shape);
        let box_len = layout.size_per_thread.iter().product::<i64>() as usize;
        for (b, bx) in boxes.iter().enumerate() {
            let cond = self.box_cond(bx, &shape);
            self.under(cond, &[], &mut |c| {
                let lanes = c.box_lanes(&bx.first, &layout);
                c.slot = Some(Slot::of_box(b * box_len, &lanes, &shape, &layout));
                c.memo.push(HashMap::new());
                let r = if lanes.len() > 1 {
                    c.store_box(op, &operands, &lanes, layout.row_length())
                } else {
                    c.store_element(op, &operands, &lanes[0])
                };
                c.memo.pop();
                c.slot = None;
                r.map(|()| Vec::new())
            })?;
        }
        Ok(())
    }

    /// Stores element `idx` of a store's value through its pointer, under
    /// its mask.
    fn store_element(&mut self, op: Operation, operands: &[Value], idx: &[Value]) -> R<()> {
        let Elem::Ptr(base, offset) = self.element(op, operands[0], idx)? else {
            return Err(err(
                self.ctx,
                op,
                "stores through a value that is not a pointer",
            ));
        };
        let Elem::Val(value) = self.element(op, operands[1], idx)? else {
            return Err(err(self.ctx, op, "stores a pointer"));
        };
        let store = |c: &mut Self| {
            c.op("nvptx.store", &[value, base, offset], &[], &[]);
        };
        match operands.get(2) {
            None => store(self),
            Some(&m) => {
                let Elem::Val(mask) = self.element(op, m, idx)? else {
                    return Err(err(self.ctx, op, "has a pointer mask"));
                };
                let (then_block, else_block, _) = self.if_op(mask, &[]);
                let outer = self.block;
                self.block = then_block;
                store(self);
                self.op("scf.yield", &[], &[], &[]);
                self.block = else_block;
                self.op("scf.yield", &[], &[], &[]);
                self.block = outer;
            }
        }
        Ok(())
    }

    /// Element `idx` of kernel value `v` (a tile; a scalar for `idx = []`).
    fn element(&mut self, user: Operation, v: Value, idx: &[Value]) -> R<Elem> {
        if !self.is_tile(v) {
            if let Some(&e) = self.scalars.get(&v) {
                return Ok(e);
            }
        }
        if let Some(slots) = self.owned.get(&v) {
            let shape = tile_shape(self.ctx, self.ctx.value_type(v));
            let mma = self.mma.get(&v).copied();
            let blocked = self.blocked.get(&v);
            let at = match &self.slot {
                Some(s) if s.shape == shape && s.mma == mma && s.blocked.as_ref() == blocked => s
                    .elems
                    .iter()
                    .find(|(_, at)| at.as_slice() == idx)
                    .map(|&(e, _)| e),
                _ => None,
            };
            let other_layout = match (&self.slot, blocked) {
                (Some(s), Some(held)) if s.shape == shape => s
                    .blocked
                    .as_ref()
                    .filter(|&l| l != held)
                    .map(|l| (l.clone(), held.clone())),
                _ => None,
            };
            return match at.and_then(|e| slots.get(e)) {
                Some(&x) => Ok(Elem::Val(x)),
                None => Err(match other_layout {
                    Some((mine, held)) => err(
                        self.ctx,
                        user,
                        format!("reads a loop-carried tile in layout #nvptx.{mine}, but the loop holds it in #nvptx.{held}"),
                    ),
                    None => err(
                        self.ctx,
                        user,
                        "reads a loop-carried tile at an element another thread holds (not lowered to nvptx yet)",
                    ),
                }),
            };
        }
        let key = (v, idx.to_vec());
        for scope in self.memo.iter().rev() {
            if let Some(&e) = scope.get(&key) {
                return Ok(e);
            }
        }
        if let Some((ptr, strides)) = self.shared.get(&v).cloned() {
            let t = element_of(self.ctx, self.ctx.value_type(v));
            let at = self.shared_index(idx, &strides);
            let x = self.value("nvptx.load", &[ptr, at], &[t], &[]);
            if let Some(scope) = self.memo.last_mut() {
                scope.insert(key, Elem::Val(x));
            }
            return Ok(Elem::Val(x));
        }
        let Some(def) = self.ctx.defining_op(v) else {
            return Err(err(
                self.ctx,
                user,
                "uses a block argument not lowered to nvptx",
            ));
        };
        let e = self.compute(def, v, idx)?;
        if let Some(scope) = self.memo.last_mut() {
            scope.insert(key, e);
        }
        Ok(e)
    }

    fn val(&mut self, user: Operation, v: Value, idx: &[Value]) -> R<Value> {
        match self.element(user, v, idx)? {
            Elem::Val(x) => Ok(x),
            Elem::Ptr(..) => Err(err(self.ctx, user, "uses a pointer as a number")),
        }
    }

    /// Computes element `idx` of `v`, the result of `def`.
    fn compute(&mut self, def: Operation, v: Value, idx: &[Value]) -> R<Elem> {
        let name = self.ctx.op_name_str(def).to_string();
        let operands: Vec<Value> = self.ctx.operands(def).collect();
        match name.as_str() {
            "kernel.range" => {
                let start = strata_ir::ods::inherent_attr(self.ctx, def, "start")
                    .and_then(|a| match self.ctx.attr_kind(a) {
                        AttrKind::Integer { value, .. } => Some(*value as i64),
                        _ => None,
                    })
                    .unwrap_or(0);
                if start == 0 {
                    return Ok(Elem::Val(idx[0]));
                }
                let s = self.const_i32(start);
                Ok(Elem::Val(self.bin_i32("arith.addi", idx[0], s)))
            }
            "kernel.splat" => self.element(def, operands[0], &[]),
            "kernel.broadcast" => {
                let src = tile_shape(self.ctx, self.ctx.value_type(operands[0]));
                let out = tile_shape(self.ctx, self.ctx.value_type(v));
                let mut j = Vec::new();
                for (d, &x) in idx.iter().enumerate() {
                    if src[d] == 1 && out[d] != 1 {
                        j.push(self.const_i32(0));
                    } else {
                        j.push(x);
                    }
                }
                self.element(def, operands[0], &j)
            }
            "kernel.expand_dims" => {
                let axis = strata_ir::ods::inherent_attr(self.ctx, def, "axis")
                    .and_then(|a| match self.ctx.attr_kind(a) {
                        AttrKind::Integer { value, .. } => Some(*value as usize),
                        _ => None,
                    })
                    .unwrap_or(0);
                let j: Vec<Value> = idx
                    .iter()
                    .enumerate()
                    .filter(|&(d, _)| d != axis)
                    .map(|(_, &x)| x)
                    .collect();
                self.element(def, operands[0], &j)
            }
            "kernel.addptr" => {
                let Elem::Ptr(base, o) = self.element(def, operands[0], idx)? else {
                    return Err(err(self.ctx, def, "offsets a value that is not a pointer"));
                };
                let off = self.val(def, operands[1], idx)?;
                let off = self.as_i32(off);
                Ok(Elem::Ptr(base, self.bin_i32("arith.addi", o, off)))
            }
            "kernel.load" => self.load(def, v, &operands, idx),
            "kernel.convert_layout" => self.element(def, operands[0], idx),
            "arith.constant" => self.constant(def, v),
            "kernel.reduce" => self.reduce(def, v, idx),
            "kernel.dot" => self.dot(def, v, idx),
            _ if name.starts_with("arith.") || name.starts_with("math.") => {
                let mut args = Vec::new();
                for &o in &operands {
                    args.push(self.val(def, o, idx)?);
                }
                let t = element_of(self.ctx, self.ctx.value_type(v));
                let new = self.recreate(def, &args, &[t]);
                Ok(Elem::Val(self.ctx.result(new, 0)))
            }
            _ => Err(err(
                self.ctx,
                def,
                format!("'{name}' is not lowered to nvptx yet"),
            )),
        }
    }

    fn as_i32(&mut self, x: Value) -> Value {
        let t = self.ctx.value_type(x);
        match self.ctx.type_kind(t) {
            TypeKind::Integer { width: 32, .. } => x,
            TypeKind::Integer { width, .. } if *width > 32 => {
                let i32t = self.ctx.integer_type(32);
                self.value("arith.trunci", &[x], &[i32t], &[])
            }
            TypeKind::Index => {
                let i32t = self.ctx.integer_type(32);
                self.value("arith.index_cast", &[x], &[i32t], &[])
            }
            _ => {
                let i32t = self.ctx.integer_type(32);
                self.value("arith.extsi", &[x], &[i32t], &[])
            }
        }
    }

    fn load(&mut self, def: Operation, v: Value, operands: &[Value], idx: &[Value]) -> R<Elem> {
        let Elem::Ptr(base, off) = self.element(def, operands[0], idx)? else {
            return Err(err(
                self.ctx,
                def,
                "loads through a value that is not a pointer",
            ));
        };
        let t = element_of(self.ctx, self.ctx.value_type(v));
        if is_ptr_like(self.ctx, t) {
            return Err(err(
                self.ctx,
                def,
                "loads pointers (not lowered to nvptx yet)",
            ));
        }
        let assumed = |m: Value| {
            self.assumed_mask.as_ref().is_some_and(|(a, lanes)| {
                self.root(*a) == self.root(m) && lanes.iter().any(|l| l.as_slice() == idx)
            })
        };
        let Some(&m) = operands.get(1).filter(|&&m| !assumed(m)) else {
            return Ok(Elem::Val(self.value("nvptx.load", &[base, off], &[t], &[])));
        };
        let mask = self.val(def, m, idx)?;
        let other = match operands.get(2) {
            Some(&o) => Some(self.val(def, o, idx)?),
            None => None,
        };
        let (then_block, else_block, op) = self.if_op(mask, &[t]);
        let outer = self.block;
        self.block = then_block;
        let x = self.value("nvptx.load", &[base, off], &[t], &[]);
        self.op("scf.yield", &[x], &[], &[]);
        self.block = else_block;
        let fallback = match other {
            Some(o) => o,
            None => self.zero(t),
        };
        self.op("scf.yield", &[fallback], &[], &[]);
        self.block = outer;
        Ok(Elem::Val(self.ctx.result(op, 0)))
    }
}
