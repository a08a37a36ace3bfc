//! A small builder of `kernel`/`arith` IR for the generated tile programs:
//! ops appended to one block, scalars splatted where they meet tiles.

use strata_ir::{
    Attribute, Block, Context, Location, Operation, OperationState, Type, TypeKind, Value,
};

/// Appends ops at the end of `block`.
pub(crate) struct KernelBuilder<'c> {
    pub ctx: &'c mut Context,
    pub block: Block,
    pub loc: Location,
}

/// `arith.cmpi` predicates.
pub(crate) const SLT: i64 = 2;

impl<'c> KernelBuilder<'c> {
    /// Create `name` with `operands`, `results` and inherent `props`, with
    /// the op's declared defaults filled in, and `regions` empty regions.
    pub fn op_with_regions(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[Type],
        props: Vec<(&str, Attribute)>,
        regions: usize,
    ) -> Operation {
        let ident = self.ctx.ident(name);
        let mut state = OperationState::new(ident, self.loc);
        state.operands = operands.to_vec();
        state.result_types = results.to_vec();
        for _ in 0..regions {
            let r = self.ctx.create_region();
            state.regions.push(r);
        }
        let entries: Vec<_> = props
            .into_iter()
            .map(|(k, v)| (self.ctx.ident(k), v))
            .collect();
        if !entries.is_empty() {
            state.properties = Some(self.ctx.dictionary_attr(entries));
        }
        if let Some(spec) = self.ctx.registry().op_spec(name) {
            strata_ir::ods::fill_default_properties(self.ctx, spec, &mut state);
        }
        let op = self.ctx.create_operation(state);
        self.ctx.append_op(self.block, op);
        op
    }

    pub fn op(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[Type],
        props: Vec<(&str, Attribute)>,
    ) -> Operation {
        self.op_with_regions(name, operands, results, props, 0)
    }

    pub fn value(
        &mut self,
        name: &str,
        operands: &[Value],
        result: Type,
        props: Vec<(&str, Attribute)>,
    ) -> Value {
        let op = self.op(name, operands, &[result], props);
        self.ctx.result(op, 0)
    }

    pub fn i32_type(&mut self) -> Type {
        self.ctx.integer_type(32)
    }

    pub fn const_i32(&mut self, v: i64) -> Value {
        let t = self.i32_type();
        let a = self.ctx.integer_attr(t, i128::from(v));
        self.value("arith.constant", &[], t, vec![("value", a)])
    }

    /// A scalar constant of `ty` from a typed attribute.
    pub fn constant(&mut self, value: Attribute, ty: Type) -> Value {
        self.value("arith.constant", &[], ty, vec![("value", value)])
    }

    pub fn shape(&self, v: Value) -> Option<Vec<i64>> {
        match self.ctx.type_kind(self.ctx.value_type(v)) {
            TypeKind::RankedTensor { shape, .. } => Some(shape.clone()),
            _ => None,
        }
    }

    pub fn splat(&mut self, v: Value, shape: &[i64]) -> Value {
        let ty = self.ctx.value_type(v);
        let tile = self.ctx.tensor_type(shape.to_vec(), ty);
        self.value("kernel.splat", &[v], tile, vec![])
    }

    /// `v` as a tile of `shape` (splatted when it is a scalar).
    pub fn as_tile(&mut self, v: Value, shape: &[i64]) -> Value {
        match self.shape(v) {
            Some(_) => v,
            None => self.splat(v, shape),
        }
    }

    /// The tile shape among `values`, if any is a tile.
    pub fn common_shape(&self, values: &[Value]) -> Option<Vec<i64>> {
        values.iter().find_map(|&v| self.shape(v))
    }

    /// An elementwise op on scalars or tiles: scalars meeting a tile are
    /// splatted; the result is shaped as the tiles.
    pub fn elementwise(
        &mut self,
        name: &str,
        operands: &[Value],
        element: Type,
        props: Vec<(&str, Attribute)>,
    ) -> Value {
        let (operands, ty) = match self.common_shape(operands) {
            Some(shape) => {
                let ops: Vec<Value> = operands.iter().map(|&v| self.as_tile(v, &shape)).collect();
                let ty = self.ctx.tensor_type(shape, element);
                (ops, ty)
            }
            None => (operands.to_vec(), element),
        };
        self.value(name, &operands, ty, props)
    }

    /// An `i32` index computation. Offsets of the kernels' tensors fit in
    /// `i32` (the conversion checks sizes), so adds and multiplies carry
    /// `nsw`: LLVM may then widen them and see consecutive addresses.
    pub fn int_bin(&mut self, name: &str, a: Value, b: Value) -> Value {
        let t = self.i32_type();
        let props = if matches!(name, "arith.addi" | "arith.muli") {
            match strata_ir::parser::parse_attribute(self.ctx, "#arith.overflow<nsw>") {
                Ok(nsw) => vec![("overflowFlags", nsw)],
                Err(_) => vec![],
            }
        } else {
            vec![]
        };
        self.elementwise(name, &[a, b], t, props)
    }

    pub fn addi(&mut self, a: Value, b: Value) -> Value {
        self.int_bin("arith.addi", a, b)
    }

    pub fn muli(&mut self, a: Value, b: Value) -> Value {
        self.int_bin("arith.muli", a, b)
    }

    pub fn cmp_slt(&mut self, a: Value, b: Value) -> Value {
        let i64t = self.ctx.integer_type(64);
        let p = self.ctx.integer_attr(i64t, i128::from(SLT));
        let i1 = self.ctx.integer_type(1);
        self.elementwise("arith.cmpi", &[a, b], i1, vec![("predicate", p)])
    }

    pub fn andi(&mut self, a: Value, b: Value) -> Value {
        let i1 = self.ctx.integer_type(1);
        self.elementwise("arith.andi", &[a, b], i1, vec![])
    }

    pub fn program_id(&mut self, axis: i64) -> Value {
        let t = self.i32_type();
        let a = self.ctx.integer_attr(t, i128::from(axis));
        self.value("kernel.program_id", &[], t, vec![("axis", a)])
    }

    pub fn range(&mut self, n: i64) -> Value {
        let t = self.i32_type();
        let start = self.ctx.integer_attr(t, 0);
        let end = self.ctx.integer_attr(t, i128::from(n));
        let ty = self.ctx.tensor_type(vec![n], t);
        self.value(
            "kernel.range",
            &[],
            ty,
            vec![("start", start), ("end", end)],
        )
    }

    pub fn expand_dims(&mut self, v: Value, axis: i64) -> Value {
        let mut shape = self.shape(v).unwrap_or_default();
        shape.insert(axis as usize, 1);
        let element = strata_dialects::kernel::types::element_of(self.ctx, self.ctx.value_type(v));
        let ty = self.ctx.tensor_type(shape, element);
        let t = self.i32_type();
        let a = self.ctx.integer_attr(t, i128::from(axis));
        self.value("kernel.expand_dims", &[v], ty, vec![("axis", a)])
    }

    pub fn broadcast(&mut self, v: Value, shape: &[i64]) -> Value {
        if self.shape(v).as_deref() == Some(shape) {
            return v;
        }
        let element = strata_dialects::kernel::types::element_of(self.ctx, self.ctx.value_type(v));
        let ty = self.ctx.tensor_type(shape.to_vec(), element);
        self.value("kernel.broadcast", &[v], ty, vec![])
    }

    /// `ptr + offset` elements; a scalar pointer is splatted to the offsets' shape.
    pub fn addptr(&mut self, ptr: Value, offset: Value) -> Value {
        match self.shape(offset) {
            Some(shape) => {
                let p = self.splat(ptr, &shape);
                let ty = self.ctx.value_type(p);
                self.value("kernel.addptr", &[p, offset], ty, vec![])
            }
            None => {
                let ty = self.ctx.value_type(ptr);
                self.value("kernel.addptr", &[ptr, offset], ty, vec![])
            }
        }
    }

    pub fn load(
        &mut self,
        ptrs: Value,
        mask: Option<Value>,
        other: Option<Value>,
        value_type: Type,
    ) -> Value {
        let mut operands = vec![ptrs];
        operands.extend(mask);
        operands.extend(other);
        let n = operands.len() as u64;
        let sizes = strata_dialects::kernel::segment_sizes(
            self.ctx,
            &[1, u64::from(n > 1), u64::from(n > 2)],
        );
        let op = self.op("kernel.load", &operands, &[value_type], vec![]);
        let key = self.ctx.ident("operandSegmentSizes");
        let props = self.ctx.dictionary_attr(vec![(key, sizes)]);
        self.ctx.set_op_properties(op, Some(props));
        self.ctx.result(op, 0)
    }

    pub fn store(&mut self, ptrs: Value, value: Value, mask: Option<Value>) {
        let mut operands = vec![ptrs, value];
        operands.extend(mask);
        self.op("kernel.store", &operands, &[], vec![]);
    }
}
