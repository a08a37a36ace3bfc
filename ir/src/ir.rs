//! Operations, blocks, regions and values: the structure of the IR.
//!
//! Everything lives in the `Context`'s arenas. Operations sit in intrusive
//! doubly linked lists inside their block, blocks inside their region, so that
//! insertion and erasure are O(1). Every value keeps an intrusive list of its
//! uses (operand slots), and every block the list of successor slots that name
//! it, so replace-all-uses and predecessor queries never scan the IR.

use crate::context::{Attribute, Block, Context, Ident, Location, Operation, Region, Type};

/// An SSA value: an operation result or a block argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// Result `index` of an operation.
    Result(Operation, u32),
    /// Argument `index` of a block.
    Argument(Block, u32),
}

/// A use of a value: operand `index` of operation `op`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpOperand {
    /// The operation that uses the value.
    pub op: Operation,
    /// The operand position.
    pub index: u32,
}

/// A use of a block as a successor: successor `index` of terminator `op`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockOperand {
    /// The branching operation.
    pub op: Operation,
    /// The successor position.
    pub index: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct OperandSlot {
    pub(crate) value: Value,
    prev: Option<OpOperand>,
    next: Option<OpOperand>,
}

#[derive(Clone, Debug)]
pub(crate) struct SuccessorSlot {
    pub(crate) block: Block,
    prev: Option<BlockOperand>,
    next: Option<BlockOperand>,
}

#[derive(Clone, Debug)]
pub(crate) struct ValueData {
    pub(crate) ty: Type,
    first_use: Option<OpOperand>,
}

#[derive(Clone, Debug)]
pub(crate) struct ArgData {
    pub(crate) ty: Type,
    pub(crate) loc: Location,
    first_use: Option<OpOperand>,
}

#[derive(Debug)]
pub(crate) struct OperationData {
    pub(crate) name: Ident,
    pub(crate) loc: Location,
    pub(crate) operands: Vec<OperandSlot>,
    pub(crate) results: Vec<ValueData>,
    pub(crate) successors: Vec<SuccessorSlot>,
    pub(crate) regions: Vec<Region>,
    pub(crate) properties: Option<Attribute>,
    pub(crate) attrs: Attribute,
    pub(crate) parent: Option<Block>,
    prev: Option<Operation>,
    next: Option<Operation>,
}

#[derive(Debug, Default)]
pub(crate) struct BlockData {
    pub(crate) args: Vec<ArgData>,
    first_op: Option<Operation>,
    last_op: Option<Operation>,
    pub(crate) parent: Option<Region>,
    prev: Option<Block>,
    next: Option<Block>,
    first_pred: Option<BlockOperand>,
}

#[derive(Debug, Default)]
pub(crate) struct RegionData {
    first_block: Option<Block>,
    last_block: Option<Block>,
    pub(crate) parent: Option<Operation>,
}

/// Everything needed to create an operation, as MLIR's `OperationState`.
#[derive(Clone, Debug)]
pub struct OperationState {
    /// The operation name, e.g. `arith.addi`.
    pub name: Ident,
    /// Where the operation comes from.
    pub loc: Location,
    /// Operand values.
    pub operands: Vec<Value>,
    /// Result types.
    pub result_types: Vec<Type>,
    /// Successor blocks.
    pub successors: Vec<Block>,
    /// Regions to attach (created empty with `Context::create_region`).
    pub regions: Vec<Region>,
    /// Inherent attributes (`<{...}>`), if any.
    pub properties: Option<Attribute>,
    /// Discardable attributes.
    pub attributes: Vec<(Ident, Attribute)>,
}

impl OperationState {
    /// An empty state for an operation named `name` at `loc`.
    pub fn new(name: Ident, loc: Location) -> Self {
        OperationState {
            name,
            loc,
            operands: Vec::new(),
            result_types: Vec::new(),
            successors: Vec::new(),
            regions: Vec::new(),
            properties: None,
            attributes: Vec::new(),
        }
    }
}

/// Creation and structural queries.
impl Context {
    /// Create a detached operation from `state`.
    pub fn create_operation(&mut self, state: OperationState) -> Operation {
        let op = Operation(self.ops.len() as u32);
        let attrs = self.dictionary_attr(state.attributes);
        self.ops.push(OperationData {
            name: state.name,
            loc: state.loc,
            operands: Vec::with_capacity(state.operands.len()),
            results: state
                .result_types
                .iter()
                .map(|&ty| ValueData {
                    ty,
                    first_use: None,
                })
                .collect(),
            successors: Vec::with_capacity(state.successors.len()),
            regions: state.regions,
            properties: state.properties,
            attrs,
            parent: None,
            prev: None,
            next: None,
        });
        for region in self.ops[op.index()].regions.clone() {
            self.regions[region.index()].parent = Some(op);
        }
        for value in state.operands {
            self.push_operand(op, value);
        }
        for block in state.successors {
            self.push_successor(op, block);
        }
        op
    }

    /// Create an empty, detached region.
    pub fn create_region(&mut self) -> Region {
        let region = Region(self.regions.len() as u32);
        self.regions.push(RegionData::default());
        region
    }

    /// Create an empty, detached block.
    pub fn create_block(&mut self) -> Block {
        let block = Block(self.blocks.len() as u32);
        self.blocks.push(BlockData::default());
        block
    }

    /// Append an argument of type `ty` to `block`.
    pub fn add_block_argument(&mut self, block: Block, ty: Type, loc: Location) -> Value {
        let args = &mut self.blocks[block.index()].args;
        args.push(ArgData {
            ty,
            loc,
            first_use: None,
        });
        Value::Argument(block, (args.len() - 1) as u32)
    }

    /// The name of an operation.
    pub fn op_name(&self, op: Operation) -> Ident {
        self.ops[op.index()].name
    }

    /// The name of an operation as text.
    pub fn op_name_str(&self, op: Operation) -> &str {
        self.ident_str(self.ops[op.index()].name)
    }

    /// The location of an operation.
    pub fn op_loc(&self, op: Operation) -> Location {
        self.ops[op.index()].loc
    }

    /// Set the location of an operation.
    pub fn set_op_loc(&mut self, op: Operation, loc: Location) {
        self.ops[op.index()].loc = loc;
    }

    /// Number of operands.
    pub fn num_operands(&self, op: Operation) -> usize {
        self.ops[op.index()].operands.len()
    }

    /// Operand `index`.
    pub fn operand(&self, op: Operation, index: usize) -> Value {
        self.ops[op.index()].operands[index].value
    }

    /// All operands in order.
    pub fn operands(&self, op: Operation) -> impl ExactSizeIterator<Item = Value> + '_ {
        self.ops[op.index()].operands.iter().map(|slot| slot.value)
    }

    /// Number of results.
    pub fn num_results(&self, op: Operation) -> usize {
        self.ops[op.index()].results.len()
    }

    /// Result `index`.
    pub fn result(&self, op: Operation, index: usize) -> Value {
        debug_assert!(index < self.num_results(op));
        Value::Result(op, index as u32)
    }

    /// All results in order.
    pub fn results(&self, op: Operation) -> impl ExactSizeIterator<Item = Value> {
        (0..self.num_results(op) as u32).map(move |i| Value::Result(op, i))
    }

    /// The regions of an operation.
    pub fn op_regions(&self, op: Operation) -> &[Region] {
        &self.ops[op.index()].regions
    }

    /// Number of successors.
    pub fn num_successors(&self, op: Operation) -> usize {
        self.ops[op.index()].successors.len()
    }

    /// The successor blocks of an operation.
    pub fn successors(&self, op: Operation) -> impl ExactSizeIterator<Item = Block> + '_ {
        self.ops[op.index()].successors.iter().map(|s| s.block)
    }

    /// The inherent attributes (`<{...}>`) of an operation, if any.
    pub fn op_properties(&self, op: Operation) -> Option<Attribute> {
        self.ops[op.index()].properties
    }

    /// Replace the inherent attributes of an operation.
    pub fn set_op_properties(&mut self, op: Operation, properties: Option<Attribute>) {
        self.ops[op.index()].properties = properties;
    }

    /// Set one inherent attribute of an operation (replacing its value, or
    /// adding it), keeping the others.
    pub fn set_op_property(&mut self, op: Operation, name: &str, value: Attribute) {
        let key = self.ident(name);
        let mut entries: Vec<_> = self
            .op_properties(op)
            .map(|p| self.dictionary_entries(p).to_vec())
            .unwrap_or_default();
        entries.retain(|(k, _)| *k != key);
        entries.push((key, value));
        let dict = self.dictionary_attr(entries);
        self.set_op_properties(op, Some(dict));
    }

    /// The discardable attributes of an operation, as a dictionary attribute.
    pub fn op_attr_dict(&self, op: Operation) -> Attribute {
        self.ops[op.index()].attrs
    }

    /// Replace all discardable attributes (`dict` must be a dictionary).
    pub fn set_op_attr_dict(&mut self, op: Operation, dict: Attribute) {
        self.ops[op.index()].attrs = dict;
    }

    /// A discardable attribute by name.
    pub fn op_attr(&self, op: Operation, name: &str) -> Option<Attribute> {
        self.dictionary_entries(self.ops[op.index()].attrs)
            .iter()
            .find(|(n, _)| self.ident_str(*n) == name)
            .map(|(_, a)| *a)
    }

    /// Set (or replace) a discardable attribute.
    pub fn set_op_attr(&mut self, op: Operation, name: &str, value: Attribute) {
        let name = self.ident(name);
        let mut entries = self.dictionary_entries(self.ops[op.index()].attrs).to_vec();
        entries.push((name, value));
        self.ops[op.index()].attrs = self.dictionary_attr(entries);
    }

    /// Remove a discardable attribute; returns it if it was there.
    pub fn remove_op_attr(&mut self, op: Operation, name: &str) -> Option<Attribute> {
        let old = self.op_attr(op, name)?;
        let entries: Vec<_> = self
            .dictionary_entries(self.ops[op.index()].attrs)
            .iter()
            .filter(|(n, _)| self.ident_str(*n) != name)
            .copied()
            .collect();
        self.ops[op.index()].attrs = self.dictionary_attr(entries);
        Some(old)
    }

    /// The block that contains `op`, if it is attached.
    pub fn op_parent_block(&self, op: Operation) -> Option<Block> {
        self.ops[op.index()].parent
    }

    /// The operation whose region contains `op`.
    pub fn op_parent_op(&self, op: Operation) -> Option<Operation> {
        let block = self.op_parent_block(op)?;
        self.block_parent_op(block)
    }

    /// The next operation in the same block.
    pub fn op_next(&self, op: Operation) -> Option<Operation> {
        self.ops[op.index()].next
    }

    /// The previous operation in the same block.
    pub fn op_prev(&self, op: Operation) -> Option<Operation> {
        self.ops[op.index()].prev
    }

    /// The type of a value.
    pub fn value_type(&self, value: Value) -> Type {
        match value {
            Value::Result(op, i) => self.ops[op.index()].results[i as usize].ty,
            Value::Argument(block, i) => self.blocks[block.index()].args[i as usize].ty,
        }
    }

    /// Change the type of a value (its users are not re-verified).
    pub fn set_value_type(&mut self, value: Value, ty: Type) {
        match value {
            Value::Result(op, i) => self.ops[op.index()].results[i as usize].ty = ty,
            Value::Argument(block, i) => self.blocks[block.index()].args[i as usize].ty = ty,
        }
    }

    /// The operation that defines `value`, if it is a result.
    pub fn defining_op(&self, value: Value) -> Option<Operation> {
        match value {
            Value::Result(op, _) => Some(op),
            Value::Argument(..) => None,
        }
    }

    /// The block in which `value` is defined (for results: the block of its op).
    pub fn value_parent_block(&self, value: Value) -> Option<Block> {
        match value {
            Value::Result(op, _) => self.op_parent_block(op),
            Value::Argument(block, _) => Some(block),
        }
    }

    /// The arguments of a block.
    pub fn block_args(&self, block: Block) -> impl ExactSizeIterator<Item = Value> {
        (0..self.blocks[block.index()].args.len() as u32).map(move |i| Value::Argument(block, i))
    }

    /// Number of block arguments.
    pub fn num_block_args(&self, block: Block) -> usize {
        self.blocks[block.index()].args.len()
    }

    /// The location of a block argument.
    pub fn block_arg_loc(&self, block: Block, index: usize) -> Location {
        self.blocks[block.index()].args[index].loc
    }

    /// The operations of a block, in order.
    pub fn block_ops(&self, block: Block) -> OpIter<'_> {
        OpIter {
            ctx: self,
            next: self.blocks[block.index()].first_op,
        }
    }

    /// The first operation of a block.
    pub fn block_first_op(&self, block: Block) -> Option<Operation> {
        self.blocks[block.index()].first_op
    }

    /// The last operation of a block (its terminator, when it has one).
    pub fn block_last_op(&self, block: Block) -> Option<Operation> {
        self.blocks[block.index()].last_op
    }

    /// The region that contains a block.
    pub fn block_parent_region(&self, block: Block) -> Option<Region> {
        self.blocks[block.index()].parent
    }

    /// The operation that owns the region that contains a block.
    pub fn block_parent_op(&self, block: Block) -> Option<Operation> {
        self.region_parent_op(self.block_parent_region(block)?)
    }

    /// The next block in the same region.
    pub fn block_next(&self, block: Block) -> Option<Block> {
        self.blocks[block.index()].next
    }

    /// Whether `block` is the first block of its region.
    pub fn is_entry_block(&self, block: Block) -> bool {
        match self.block_parent_region(block) {
            Some(region) => self.regions[region.index()].first_block == Some(block),
            None => false,
        }
    }

    /// The successor slots that branch to `block` (one per use, duplicates kept).
    pub fn block_predecessors(&self, block: Block) -> impl Iterator<Item = BlockOperand> + '_ {
        let mut next = self.blocks[block.index()].first_pred;
        std::iter::from_fn(move || {
            let current = next?;
            next = self.ops[current.op.index()].successors[current.index as usize].next;
            Some(current)
        })
    }

    /// The blocks of a region, in order.
    pub fn region_blocks(&self, region: Region) -> BlockIter<'_> {
        BlockIter {
            ctx: self,
            next: self.regions[region.index()].first_block,
        }
    }

    /// The entry block of a region.
    pub fn region_entry_block(&self, region: Region) -> Option<Block> {
        self.regions[region.index()].first_block
    }

    /// Whether a region has no blocks.
    pub fn region_is_empty(&self, region: Region) -> bool {
        self.regions[region.index()].first_block.is_none()
    }

    /// The operation that owns a region.
    pub fn region_parent_op(&self, region: Region) -> Option<Operation> {
        self.regions[region.index()].parent
    }

    /// The uses of a value.
    pub fn uses(&self, value: Value) -> impl Iterator<Item = OpOperand> + '_ {
        let mut next = self.first_use(value);
        std::iter::from_fn(move || {
            let current = next?;
            next = self.ops[current.op.index()].operands[current.index as usize].next;
            Some(current)
        })
    }

    /// Whether a value has no uses.
    pub fn use_empty(&self, value: Value) -> bool {
        self.first_use(value).is_none()
    }

    /// The region holding `op`, if it is in a block.
    pub fn op_parent_region(&self, op: Operation) -> Option<Region> {
        self.block_parent_region(self.op_parent_block(op)?)
    }

    /// Whether `op` is in `region`, directly or nested in ops there.
    pub fn region_contains(&self, region: Region, mut op: Operation) -> bool {
        loop {
            let Some(parent_region) = self.op_parent_region(op) else {
                return false;
            };
            if parent_region == region {
                return true;
            }
            match self.region_parent_op(parent_region) {
                Some(parent) => op = parent,
                None => return false,
            }
        }
    }

    /// Whether `ancestor` is `op` or contains it (through regions).
    pub fn is_ancestor(&self, ancestor: Operation, mut op: Operation) -> bool {
        loop {
            if op == ancestor {
                return true;
            }
            match self.op_parent_op(op) {
                Some(parent) => op = parent,
                None => return false,
            }
        }
    }
}

/// Iterator over the operations of a block.
pub struct OpIter<'a> {
    ctx: &'a Context,
    next: Option<Operation>,
}

impl Iterator for OpIter<'_> {
    type Item = Operation;
    fn next(&mut self) -> Option<Operation> {
        let current = self.next?;
        self.next = self.ctx.ops[current.index()].next;
        Some(current)
    }
}

/// Iterator over the blocks of a region.
pub struct BlockIter<'a> {
    ctx: &'a Context,
    next: Option<Block>,
}

impl Iterator for BlockIter<'_> {
    type Item = Block;
    fn next(&mut self) -> Option<Block> {
        let current = self.next?;
        self.next = self.ctx.blocks[current.index()].next;
        Some(current)
    }
}

/// Mutation: use lists, insertion, erasure.
impl Context {
    fn first_use(&self, value: Value) -> Option<OpOperand> {
        match value {
            Value::Result(op, i) => self.ops[op.index()].results[i as usize].first_use,
            Value::Argument(block, i) => self.blocks[block.index()].args[i as usize].first_use,
        }
    }

    fn first_use_mut(&mut self, value: Value) -> &mut Option<OpOperand> {
        match value {
            Value::Result(op, i) => &mut self.ops[op.index()].results[i as usize].first_use,
            Value::Argument(block, i) => &mut self.blocks[block.index()].args[i as usize].first_use,
        }
    }

    fn link_use(&mut self, value: Value, user: OpOperand) {
        let head = self.first_use(value);
        {
            let slot = &mut self.ops[user.op.index()].operands[user.index as usize];
            slot.prev = None;
            slot.next = head;
        }
        if let Some(head) = head {
            self.ops[head.op.index()].operands[head.index as usize].prev = Some(user);
        }
        *self.first_use_mut(value) = Some(user);
    }

    fn unlink_use(&mut self, user: OpOperand) {
        let slot = &self.ops[user.op.index()].operands[user.index as usize];
        let (value, prev, next) = (slot.value, slot.prev, slot.next);
        match prev {
            Some(p) => self.ops[p.op.index()].operands[p.index as usize].next = next,
            None => *self.first_use_mut(value) = next,
        }
        if let Some(n) = next {
            self.ops[n.op.index()].operands[n.index as usize].prev = prev;
        }
    }

    fn push_operand(&mut self, op: Operation, value: Value) {
        let index = self.ops[op.index()].operands.len() as u32;
        self.ops[op.index()].operands.push(OperandSlot {
            value,
            prev: None,
            next: None,
        });
        self.link_use(value, OpOperand { op, index });
    }

    fn push_successor(&mut self, op: Operation, block: Block) {
        let index = self.ops[op.index()].successors.len() as u32;
        let head = self.blocks[block.index()].first_pred;
        self.ops[op.index()].successors.push(SuccessorSlot {
            block,
            prev: None,
            next: head,
        });
        let user = BlockOperand { op, index };
        if let Some(head) = head {
            self.ops[head.op.index()].successors[head.index as usize].prev = Some(user);
        }
        self.blocks[block.index()].first_pred = Some(user);
    }

    fn unlink_successor(&mut self, user: BlockOperand) {
        let slot = &self.ops[user.op.index()].successors[user.index as usize];
        let (block, prev, next) = (slot.block, slot.prev, slot.next);
        match prev {
            Some(p) => self.ops[p.op.index()].successors[p.index as usize].next = next,
            None => self.blocks[block.index()].first_pred = next,
        }
        if let Some(n) = next {
            self.ops[n.op.index()].successors[n.index as usize].prev = prev;
        }
    }

    /// Make operand `index` of `op` use `value`.
    pub fn set_operand(&mut self, op: Operation, index: usize, value: Value) {
        let user = OpOperand {
            op,
            index: index as u32,
        };
        self.unlink_use(user);
        self.ops[op.index()].operands[index].value = value;
        self.link_use(value, user);
    }

    /// Replace the whole operand list of `op`.
    pub fn set_operands(&mut self, op: Operation, values: &[Value]) {
        for index in (0..self.num_operands(op)).rev() {
            self.unlink_use(OpOperand {
                op,
                index: index as u32,
            });
        }
        self.ops[op.index()].operands.clear();
        for &value in values {
            self.push_operand(op, value);
        }
    }

    /// Remove operand `index` of `op`; the later operands move down one.
    pub fn erase_operand(&mut self, op: Operation, index: usize) {
        let mut values: Vec<Value> = self.operands(op).collect();
        if index >= values.len() {
            return;
        }
        values.remove(index);
        self.set_operands(op, &values);
    }

    /// Remove argument `index` of `block`, which must have no uses; the
    /// later arguments move down one, and their uses follow them.
    pub fn erase_block_argument(&mut self, block: Block, index: usize) {
        let count = self.num_block_args(block);
        if index >= count || !self.use_empty(Value::Argument(block, index as u32)) {
            return;
        }
        // Unlink the uses of the arguments that move, remove the slot, and
        // link those uses again to the argument's new position.
        let mut moved: Vec<(OpOperand, u32)> = Vec::new();
        for later in index + 1..count {
            let value = Value::Argument(block, later as u32);
            let uses: Vec<OpOperand> = self.uses(value).collect();
            for user in uses {
                self.unlink_use(user);
                moved.push((user, later as u32 - 1));
            }
        }
        self.blocks[block.index()].args.remove(index);
        for (user, new_index) in moved {
            let value = Value::Argument(block, new_index);
            self.ops[user.op.index()].operands[user.index as usize].value = value;
            self.link_use(value, user);
        }
    }

    /// Make successor `index` of `op` branch to `block`.
    pub fn set_successor(&mut self, op: Operation, index: usize, block: Block) {
        let user = BlockOperand {
            op,
            index: index as u32,
        };
        self.unlink_successor(user);
        let head = self.blocks[block.index()].first_pred;
        let slot = &mut self.ops[op.index()].successors[index];
        slot.block = block;
        slot.prev = None;
        slot.next = head;
        if let Some(head) = head {
            self.ops[head.op.index()].successors[head.index as usize].prev = Some(user);
        }
        self.blocks[block.index()].first_pred = Some(user);
    }

    /// Make every use of `from` use `to` instead.
    pub fn replace_all_uses_with(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        while let Some(user) = self.first_use(from) {
            self.set_operand(user.op, user.index as usize, to);
        }
    }

    /// Append `block` at the end of `region`.
    pub fn append_block(&mut self, region: Region, block: Block) {
        let last = self.regions[region.index()].last_block;
        {
            let data = &mut self.blocks[block.index()];
            data.parent = Some(region);
            data.prev = last;
            data.next = None;
        }
        match last {
            Some(last) => self.blocks[last.index()].next = Some(block),
            None => self.regions[region.index()].first_block = Some(block),
        }
        self.regions[region.index()].last_block = Some(block);
    }

    /// Insert detached `block` just before `before`, in `before`'s region.
    pub fn insert_block_before(&mut self, block: Block, before: Block) {
        let Some(region) = self.blocks[before.index()].parent else {
            return;
        };
        let prev = self.blocks[before.index()].prev;
        {
            let data = &mut self.blocks[block.index()];
            data.parent = Some(region);
            data.prev = prev;
            data.next = Some(before);
        }
        self.blocks[before.index()].prev = Some(block);
        match prev {
            Some(p) => self.blocks[p.index()].next = Some(block),
            None => self.regions[region.index()].first_block = Some(block),
        }
    }

    /// Append detached `op` at the end of `block`.
    pub fn append_op(&mut self, block: Block, op: Operation) {
        let last = self.blocks[block.index()].last_op;
        {
            let data = &mut self.ops[op.index()];
            data.parent = Some(block);
            data.prev = last;
            data.next = None;
        }
        match last {
            Some(last) => self.ops[last.index()].next = Some(op),
            None => self.blocks[block.index()].first_op = Some(op),
        }
        self.blocks[block.index()].last_op = Some(op);
    }

    /// Insert detached `op` right before `before`.
    pub fn insert_op_before(&mut self, before: Operation, op: Operation) {
        let Some(block) = self.op_parent_block(before) else {
            return;
        };
        let prev = self.ops[before.index()].prev;
        {
            let data = &mut self.ops[op.index()];
            data.parent = Some(block);
            data.prev = prev;
            data.next = Some(before);
        }
        self.ops[before.index()].prev = Some(op);
        match prev {
            Some(prev) => self.ops[prev.index()].next = Some(op),
            None => self.blocks[block.index()].first_op = Some(op),
        }
    }

    /// Unlink `op` from its block, keeping it (and its uses) alive.
    pub fn detach_op(&mut self, op: Operation) {
        let Some(block) = self.ops[op.index()].parent else {
            return;
        };
        let (prev, next) = (self.ops[op.index()].prev, self.ops[op.index()].next);
        match prev {
            Some(p) => self.ops[p.index()].next = next,
            None => self.blocks[block.index()].first_op = next,
        }
        match next {
            Some(n) => self.ops[n.index()].prev = prev,
            None => self.blocks[block.index()].last_op = prev,
        }
        let data = &mut self.ops[op.index()];
        data.parent = None;
        data.prev = None;
        data.next = None;
    }

    /// Unlink `block` from its region, keeping it (and its ops) alive.
    pub fn detach_block(&mut self, block: Block) {
        let Some(region) = self.blocks[block.index()].parent else {
            return;
        };
        let (prev, next) = (
            self.blocks[block.index()].prev,
            self.blocks[block.index()].next,
        );
        match prev {
            Some(p) => self.blocks[p.index()].next = next,
            None => self.regions[region.index()].first_block = next,
        }
        match next {
            Some(n) => self.blocks[n.index()].prev = prev,
            None => self.regions[region.index()].last_block = prev,
        }
        let data = &mut self.blocks[block.index()];
        data.parent = None;
        data.prev = None;
        data.next = None;
    }

    /// Detach and destroy `block` with its ops: their operand and successor
    /// uses are dropped. The block must have no predecessors left, and its
    /// arguments and results no uses outside the erased IR.
    pub fn erase_block(&mut self, block: Block) {
        self.detach_block(block);
        let ops: Vec<Operation> = self.block_ops(block).collect();
        for op in ops {
            self.drop_references(op);
        }
    }

    /// Detach and destroy `op` and everything nested in it: its operand uses
    /// and successor uses are dropped. Results must have no remaining uses
    /// outside the erased ops.
    pub fn erase_op(&mut self, op: Operation) {
        self.detach_op(op);
        self.drop_references(op);
    }

    fn drop_references(&mut self, op: Operation) {
        if self.ops[op.index()].regions.is_empty() {
            self.drop_own_references(op);
            return;
        }
        // `op` first, then what it nests, in pre-order.
        for inner in self.collect_ops(op, crate::walk::WalkOrder::PreOrder) {
            self.drop_own_references(inner);
        }
    }

    /// Unlink `op`'s operand and successor uses (not those of nested ops).
    fn drop_own_references(&mut self, op: Operation) {
        for index in (0..self.num_operands(op)).rev() {
            self.unlink_use(OpOperand {
                op,
                index: index as u32,
            });
        }
        self.ops[op.index()].operands.clear();
        for index in (0..self.num_successors(op)).rev() {
            self.unlink_successor(BlockOperand {
                op,
                index: index as u32,
            });
        }
        self.ops[op.index()].successors.clear();
    }
}

/// A map from values and blocks of cloned IR to their copies (MLIR's `IRMapping`).
#[derive(Default, Debug)]
pub struct IrMapping {
    values: rustc_hash::FxHashMap<Value, Value>,
    blocks: rustc_hash::FxHashMap<Block, Block>,
}

impl IrMapping {
    /// Map `from` to `to`.
    pub fn map_value(&mut self, from: Value, to: Value) {
        self.values.insert(from, to);
    }

    /// The copy of `value`, or `value` itself when it was not cloned.
    pub fn lookup_value(&self, value: Value) -> Value {
        self.values.get(&value).copied().unwrap_or(value)
    }

    /// The copy of `block`, or `block` itself when it was not cloned.
    pub fn lookup_block(&self, block: Block) -> Block {
        self.blocks.get(&block).copied().unwrap_or(block)
    }
}

/// Cloning.
impl Context {
    /// A detached deep copy of `op` (regions included). Operands and
    /// successors are remapped through `mapping`, which learns the copies of
    /// the results, nested blocks and block arguments. All operations are
    /// created first and their operands remapped afterwards, so uses that
    /// come before their definition (graph regions, blocks laid out before
    /// the blocks that dominate them) are remapped too, as MLIR's `clone`.
    pub fn clone_op(&mut self, op: Operation, mapping: &mut IrMapping) -> Operation {
        let mut pairs = Vec::new();
        let clone = self.clone_op_unmapped(op, mapping, &mut pairs);
        self.remap_clones(&pairs, mapping);
        clone
    }

    /// Append copies of `from`'s blocks to `into` (see [`Context::clone_op`]).
    pub fn clone_region_into(&mut self, from: Region, into: Region, mapping: &mut IrMapping) {
        let mut pairs = Vec::new();
        self.clone_region_unmapped(from, into, mapping, &mut pairs);
        self.remap_clones(&pairs, mapping);
    }

    fn remap_clones(&mut self, pairs: &[(Operation, Operation)], mapping: &IrMapping) {
        for &(original, clone) in pairs {
            for index in 0..self.num_operands(original) {
                let value = mapping.lookup_value(self.operand(original, index));
                if self.operand(clone, index) != value {
                    self.set_operand(clone, index, value);
                }
            }
            for index in 0..self.num_successors(original) {
                let block =
                    mapping.lookup_block(self.ops[original.index()].successors[index].block);
                if self.ops[clone.index()].successors[index].block != block {
                    self.set_successor(clone, index, block);
                }
            }
        }
    }

    fn clone_op_unmapped(
        &mut self,
        op: Operation,
        mapping: &mut IrMapping,
        pairs: &mut Vec<(Operation, Operation)>,
    ) -> Operation {
        let data = &self.ops[op.index()];
        let mut state = OperationState::new(data.name, data.loc);
        state.properties = data.properties;
        state.attributes = self.dictionary_entries(data.attrs).to_vec();
        state.result_types = data.results.iter().map(|r| r.ty).collect();
        let regions = data.regions.clone();
        state.operands = self.operands(op).collect();
        state.successors = self.successors(op).collect();
        for &region in &regions {
            let copy = self.create_region();
            self.clone_region_unmapped(region, copy, mapping, pairs);
            state.regions.push(copy);
        }
        let clone = self.create_operation(state);
        for i in 0..self.num_results(op) {
            mapping.map_value(Value::Result(op, i as u32), Value::Result(clone, i as u32));
        }
        pairs.push((op, clone));
        clone
    }

    fn clone_region_unmapped(
        &mut self,
        from: Region,
        into: Region,
        mapping: &mut IrMapping,
        pairs: &mut Vec<(Operation, Operation)>,
    ) {
        let blocks: Vec<Block> = self.region_blocks(from).collect();
        for &block in &blocks {
            let copy = self.create_block();
            for i in 0..self.num_block_args(block) {
                let ty = self.value_type(Value::Argument(block, i as u32));
                let loc = self.block_arg_loc(block, i);
                let arg = self.add_block_argument(copy, ty, loc);
                mapping.map_value(Value::Argument(block, i as u32), arg);
            }
            mapping.blocks.insert(block, copy);
            self.append_block(into, copy);
        }
        for &block in &blocks {
            let copy = mapping.lookup_block(block);
            let ops: Vec<Operation> = self.block_ops(block).collect();
            for op in ops {
                let cloned = self.clone_op_unmapped(op, mapping, pairs);
                self.append_op(copy, cloned);
            }
        }
    }
}
