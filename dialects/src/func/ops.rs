//! The `#[op]` declarations of `func`: `func.func`, `func.return` and
//! `func.call`.

use strata_ir::ods::constraints::{
    AnyType, DictArrayAttr, FlatSymbolRefAttr, FunctionTypeAttr, StrAttr, UnitAttr,
};
use strata_ir::op;

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
