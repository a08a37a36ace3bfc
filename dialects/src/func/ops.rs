//! The `#[op]` declarations of `func`: `func.func`, `func.return`,
//! `func.call`, `func.call_indirect` and `func.constant`.

use strata_ir::ods::constraints::{
    AnyType, DictArrayAttr, FlatSymbolRefAttr, FunctionTypeAttr, StrAttr, UnitAttr,
};
use strata_ir::op;

use crate::func::indirect::{
    call_indirect_patterns, constant_names, fold_constant, parse_call_indirect,
    print_call_indirect, verify_call_indirect, verify_constant_use,
};
use crate::func::syntax::{parse_func, print_func};
use crate::func::verify::{verify_call, verify_func, verify_return};

/// An operation with a name containing a single `SSACFG` region.
///
/// `func.func @name(%arg0: i32) -> i32 { ... }` defines a function;
/// without a body it declares one (which may not be public).
#[op("func.func",
     traits(IsolatedFromAbove, Symbol, Callable),
     default_dialect = "func",
     parse = parse_func,
     print = print_func,
     verify = verify_func)]
pub struct FuncOp {
    sym_name: Attr<StrAttr>,
    function_type: Attr<FunctionTypeAttr>,
    sym_visibility: OptionalAttr<StrAttr>,
    arg_attrs: OptionalAttr<DictArrayAttr>,
    res_attrs: OptionalAttr<DictArrayAttr>,
    no_inline: OptionalAttr<UnitAttr>,
    body: Region,
}

/// Function return operation.
///
/// Returns its operands to the caller of the enclosing `func.func`; their
/// types must match the function's results.
#[op("func.return",
     traits(Pure, Terminator, ReturnLike),
     format = "attr-dict ($operands^ `:` type($operands))?",
     verify = verify_return)]
pub struct ReturnOp {
    operands: Variadic<AnyType>,
}

/// Call operation: calls the function named by `callee` with the operands.
#[op("func.call",
     traits(Call),
     format = "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)",
     verify_symbol_uses = verify_call)]
pub struct CallOp {
    callee: Attr<FlatSymbolRefAttr>,
    arg_attrs: OptionalAttr<DictArrayAttr>,
    res_attrs: OptionalAttr<DictArrayAttr>,
    no_inline: OptionalAttr<UnitAttr>,
    operands: Variadic<AnyType>,
    results: VariadicResult<AnyType>,
}

/// Indirect call operation: calls the function value `callee` (of function
/// type) with the operands, whose types and the results' are the callee's.
#[op("func.call_indirect",
     traits(Call),
     parse = parse_call_indirect,
     print = print_call_indirect,
     verify_predicates = verify_call_indirect,
     canonicalize = call_indirect_patterns)]
pub struct CallIndirectOp {
    callee: Operand<AnyType>,
    callee_operands: Variadic<AnyType>,
    arg_attrs: OptionalAttr<DictArrayAttr>,
    res_attrs: OptionalAttr<DictArrayAttr>,
    results: VariadicResult<AnyType>,
}

/// Constant: the function named by `value` as an SSA value of its type.
#[op("func.constant",
     traits(ConstantLike, Pure),
     format = "attr-dict $value `:` type(results)",
     fold = fold_constant,
     result_names = constant_names,
     verify_symbol_uses = verify_constant_use)]
pub struct ConstantOp {
    value: Attr<FlatSymbolRefAttr>,
    result: Result<AnyType>,
}
