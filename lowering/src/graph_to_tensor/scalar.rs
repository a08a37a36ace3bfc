//! Building the scalar `arith` / `math` code of `tensor.map` and
//! `tensor.reduce` bodies.

use strata_ir::float::FloatKind;
use strata_ir::{Attribute, Block, Context, Location, OperationState, Type, TypeKind, Value};

/// Appends scalar ops to one block.
pub(super) struct Scalar<'c> {
    pub ctx: &'c mut Context,
    pub block: Block,
    pub loc: Location,
}

/// `arith.cmpf` predicates (MLIR's `CmpFPredicate` values).
pub(super) mod cmpf {
    pub const OEQ: i64 = 1;
    pub const OGT: i64 = 2;
    pub const OGE: i64 = 3;
    pub const OLT: i64 = 4;
    pub const OLE: i64 = 5;
    pub const UNO: i64 = 14;
    pub const UNE: i64 = 13;
}

/// `arith.cmpi` predicates (MLIR's `CmpIPredicate` values).
pub(super) mod cmpi {
    pub const EQ: i64 = 0;
    pub const NE: i64 = 1;
    pub const SLT: i64 = 2;
    pub const SLE: i64 = 3;
    pub const SGT: i64 = 4;
    pub const SGE: i64 = 5;
}

/// Whether `ty` is a float type.
pub(super) fn is_float(ctx: &Context, ty: Type) -> bool {
    matches!(ctx.type_kind(ty), TypeKind::Float(_))
}

/// Whether `ty` is `f16` or `bf16`, which the bodies compute in `f32`.
pub(super) fn is_half(ctx: &Context, ty: Type) -> bool {
    matches!(ctx.float_kind(ty), Some(FloatKind::F16 | FloatKind::BF16))
}

impl Scalar<'_> {
    /// An op `name` with `operands`, properties `props` (defaults filled
    /// in) and one result of `ty`, appended to the block.
    pub fn op(
        &mut self,
        name: &str,
        operands: &[Value],
        props: &[(&str, Attribute)],
        ty: Type,
    ) -> Value {
        let ident = self.ctx.ident(name);
        let mut state = OperationState::new(ident, self.loc);
        state.operands = operands.to_vec();
        state.result_types = vec![ty];
        if !props.is_empty() {
            let entries = props.iter().map(|&(k, v)| (self.ctx.ident(k), v)).collect();
            state.properties = Some(self.ctx.dictionary_attr(entries));
        }
        if let Some(spec) = self.ctx.registry().op_spec(name) {
            strata_ir::ods::fill_default_properties(self.ctx, spec, &mut state);
        }
        let op = self.ctx.create_operation(state);
        self.ctx.append_op(self.block, op);
        self.ctx.result(op, 0)
    }

    fn ty(&self, v: Value) -> Type {
        self.ctx.value_type(v)
    }

    /// A binary op whose result has the operands' type.
    pub fn bin(&mut self, name: &str, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.op(name, &[a, b], &[], ty)
    }

    /// A unary op whose result has the operand's type.
    pub fn un(&mut self, name: &str, a: Value) -> Value {
        let ty = self.ty(a);
        self.op(name, &[a], &[], ty)
    }

    /// A float constant of `ty`.
    pub fn float(&mut self, ty: Type, value: f64) -> Value {
        let attr = self.ctx.float_attr(ty, value);
        self.op("arith.constant", &[], &[("value", attr)], ty)
    }

    /// An integer constant of `ty`.
    pub fn int(&mut self, ty: Type, value: i128) -> Value {
        let attr = self.ctx.integer_attr(ty, value);
        self.op("arith.constant", &[], &[("value", attr)], ty)
    }

    /// A constant of `ty` (float or integer) holding `value`.
    pub fn constant(&mut self, ty: Type, value: f64) -> Value {
        if is_float(self.ctx, ty) {
            self.float(ty, value)
        } else {
            self.int(ty, value as i128)
        }
    }

    /// A comparison with `pred` (`cmpf` for floats, `cmpi` otherwise).
    pub fn cmp(&mut self, pred: i64, a: Value, b: Value) -> Value {
        let i64_type = self.ctx.integer_type(64);
        let attr = self.ctx.integer_attr(i64_type, pred as i128);
        let i1 = self.ctx.integer_type(1);
        let name = if is_float(self.ctx, self.ty(a)) {
            "arith.cmpf"
        } else {
            "arith.cmpi"
        };
        self.op(name, &[a, b], &[("predicate", attr)], i1)
    }

    /// `c ? a : b`.
    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.op("arith.select", &[c, a, b], &[], ty)
    }

    /// `a` converted to `to` (extension, truncation or int/float
    /// conversion; signless integers are signed, `i1` unsigned).
    pub fn convert(&mut self, a: Value, to: Type) -> Value {
        let from = self.ty(a);
        if from == to {
            return a;
        }
        let (ff, tf) = (is_float(self.ctx, from), is_float(self.ctx, to));
        let width = |ctx: &Context, t| ctx.int_or_float_bit_width(t).unwrap_or(0);
        let (fw, tw) = (width(self.ctx, from), width(self.ctx, to));
        let name = match (ff, tf) {
            (true, true) if fw < tw => "arith.extf",
            (true, true) => "arith.truncf",
            (false, true) if fw == 1 => "arith.uitofp",
            (false, true) => "arith.sitofp",
            (true, false) if tw == 1 => {
                let zero = self.float(from, 0.0);
                return self.cmp(cmpf::UNE, a, zero);
            }
            (true, false) => "arith.fptosi",
            (false, false) if tw == 1 => {
                let zero = self.int(from, 0);
                return self.cmp(cmpi::NE, a, zero);
            }
            (false, false) if fw == 1 => "arith.extui",
            (false, false) if fw < tw => "arith.extsi",
            (false, false) => "arith.trunci",
        };
        self.op(name, &[a], &[], to)
    }
}
