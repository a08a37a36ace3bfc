//! The enum attributes of `arith`: the `cmpi` and `cmpf` predicates,
//! fast-math and overflow flags, rounding modes, and the parser of the
//! dialect's attributes (`#arith.fastmath<...>`, `#arith.overflow<...>`).

use strata_ir::ods::constraints::{EnumSpec, EnumStorage};
use strata_ir::{enum_attr, Attribute, Context};

/// `arith.cmpi` predicates.
pub static CMPI_PREDICATE: EnumSpec = EnumSpec {
    name: "CmpIPredicate",
    attr_def: "",
    summary: "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9",
    cases: &[
        ("eq", 0),
        ("ne", 1),
        ("slt", 2),
        ("sle", 3),
        ("sgt", 4),
        ("sge", 5),
        ("ult", 6),
        ("ule", 7),
        ("ugt", 8),
        ("uge", 9),
    ],
    bit_enum: false,
    separator: "",
    storage: EnumStorage::Integer(64),
};

/// `arith.cmpf` predicates.
pub static CMPF_PREDICATE: EnumSpec = EnumSpec {
    name: "CmpFPredicate",
    attr_def: "",
    summary: "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
    cases: &[
        ("false", 0),
        ("oeq", 1),
        ("ogt", 2),
        ("oge", 3),
        ("olt", 4),
        ("ole", 5),
        ("one", 6),
        ("ord", 7),
        ("ueq", 8),
        ("ugt", 9),
        ("uge", 10),
        ("ult", 11),
        ("ule", 12),
        ("une", 13),
        ("uno", 14),
        ("true", 15),
    ],
    bit_enum: false,
    separator: "",
    storage: EnumStorage::Integer(64),
};

/// Fast-math flags (`#arith.fastmath<...>`).
pub static FASTMATH: EnumSpec = EnumSpec {
    name: "::mlir::arith::FastMathFlags",
    attr_def: "Arith_FastMathAttr",
    summary: "Floating point fast math flags",
    cases: &[
        ("none", 0),
        ("reassoc", 1),
        ("nnan", 2),
        ("ninf", 4),
        ("nsz", 8),
        ("arcp", 16),
        ("contract", 32),
        ("afn", 64),
        ("fast", 127),
    ],
    bit_enum: true,
    separator: ",",
    storage: EnumStorage::Dialect {
        dialect: "arith",
        mnemonic: "fastmath",
    },
};

/// Integer overflow flags (`#arith.overflow<...>`).
pub static OVERFLOW: EnumSpec = EnumSpec {
    name: "::mlir::arith::IntegerOverflowFlags",
    attr_def: "Arith_IntegerOverflowAttr",
    summary: "Integer overflow arith flags",
    cases: &[("none", 0), ("nsw", 1), ("nuw", 2)],
    bit_enum: true,
    separator: ", ",
    storage: EnumStorage::Dialect {
        dialect: "arith",
        mnemonic: "overflow",
    },
};

/// Rounding modes of `arith.truncf`.
pub static ROUNDING_MODE: EnumSpec = EnumSpec {
    name: "RoundingMode",
    attr_def: "",
    summary: "Floating point rounding mode",
    cases: &[
        ("to_nearest_even", 0),
        ("downward", 1),
        ("upward", 2),
        ("toward_zero", 3),
        ("to_nearest_away", 4),
    ],
    bit_enum: false,
    separator: "",
    storage: EnumStorage::Integer(32),
};

enum_attr!(
    /// `predicate` of `arith.cmpi`.
    CmpIPredicateAttr, CMPI_PREDICATE, Keyword
);
enum_attr!(
    /// `predicate` of `arith.cmpf`.
    CmpFPredicateAttr, CMPF_PREDICATE, Keyword
);
enum_attr!(
    /// `#arith.fastmath<...>`.
    FastMathAttr, FASTMATH, Stripped
);
enum_attr!(
    /// `#arith.overflow<...>`.
    IntegerOverflowAttr, OVERFLOW, Stripped
);
enum_attr!(
    /// `roundingmode` of `arith.truncf`.
    RoundingModeAttr, ROUNDING_MODE, Keyword
);

/// Parses `#arith.fastmath<...>` and `#arith.overflow<...>`.
pub(super) fn parse_arith_attr(
    ctx: &mut Context,
    body: &str,
) -> Result<Attribute, Vec<(usize, String)>> {
    if body.starts_with("fastmath") {
        FASTMATH.parse_dialect_body(ctx, body)
    } else if body.starts_with("overflow") {
        OVERFLOW.parse_dialect_body(ctx, body)
    } else {
        let mnemonic = body.split('<').next().unwrap_or(body);
        Err(vec![(
            0,
            format!("unknown attribute `{mnemonic}` in dialect `arith`"),
        )])
    }
}
