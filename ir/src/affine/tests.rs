//! Unit tests (expected strings taken from mlir-opt 22) and a differential
//! test that runs mlir-opt on ~1500 generated maps and sets.

use super::*;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

fn map(text: &str) -> String {
    match parse_affine_map(text) {
        Ok(m) => m.to_string(),
        Err(e) => panic!("{text}: {e}"),
    }
}

fn set(text: &str) -> String {
    match parse_integer_set(text) {
        Ok(s) => s.to_string(),
        Err(e) => panic!("{text}: {e}"),
    }
}

fn err(is_set: bool, text: &str) -> (usize, String) {
    let e = if is_set {
        parse_integer_set(text).err()
    } else {
        parse_affine_map(text).err()
    };
    match e {
        Some(e) => (e.offset, e.message),
        None => panic!("{text}: parsed"),
    }
}

#[test]
fn printing_and_simplification() {
    let cases = [
        ("(i, j)[N] -> (i + N, j * 2)", "(d0, d1)[s0] -> (d0 + s0, d1 * 2)"),
        ("(d0) -> (2 + d0, d0 * 1, (d0 + 1) + 2, d0 floordiv 1)", "(d0) -> (d0 + 2, d0, d0 + 3, d0)"),
        ("(d0, d1) -> (d0 + d1 * -1, d0 + -2, d0 * -1)", "(d0, d1) -> (d0 - d1, d0 - 2, -d0)"),
        (
            "(i, j)[N] -> (i + N, j * 2, 2 + i, i * 1, (i+1)+2, i floordiv 1, i floordiv -2, \
             i mod 0, i mod -3, i ceildiv 0, 7 floordiv -2, -7 mod 3)",
            "(d0, d1)[s0] -> (d0 + s0, d1 * 2, d0 + 2, d0, d0 + 3, d0, d0 floordiv -2, d0 mod 0, \
             d0 mod -3, d0 ceildiv 0, -4, 2)",
        ),
        (
            "(mod, floordiv, index, i32, symbol, f32)[x] -> (mod + floordiv + index + i32 + f32)",
            "(d0, d1, d2, d3, d4, d5)[s0] -> (d0 + d1 + d2 + d3 + d5)",
        ),
        ("() -> ()", "() -> ()"),
        ("(d0)[] -> (d0)", "(d0) -> (d0)"),
        (
            "(d0) -> (d0 - 9223372036854775807 - 1, 9223372036854775807 + 1)",
            "(d0) -> (d0 - -9223372036854775808, 9223372036854775807 + 1)",
        ),
        (
            "(d0, d1)[s0, s1] -> (d1 + d0, s1 + s0, s0 + d0, s0 * d0, s1 * s0, 2 * s0, \
             s0 * 2 * d0, 7 mod -3, 7 ceildiv -2, -7 ceildiv 2, (d0 * 6) floordiv -2, \
             (d0 * 6 + d1) floordiv -2, d0 + (d0 floordiv 3) floordiv -3, \
             d0 + (d0 floordiv -2) * 2, d0 - (d0 floordiv 4) * 4, d0 - (d0 floordiv s0) * s0)",
            "(d0, d1)[s0, s1] -> (d0 + d1, s0 + s1, d0 + s0, d0 * s0, s0 * s1, s0 * 2, \
             d0 * (s0 * 2), 7 mod -3, -3, -3, d0 * -3, d0 * -3 + d1 floordiv -2, \
             d0 + (d0 floordiv 3) floordiv -3, d0 + (d0 floordiv -2) * 2, d0 mod 4, d0 mod s0)",
        ),
        (
            "(d0, d1)[s0, s1] -> ((d0 + 9223372036854775807) + 1, d0 * 9223372036854775807 * 2, \
             9223372036854775807 * 2, (-9223372036854775807 - 1) floordiv -1, \
             (-9223372036854775807 - 1) ceildiv -1, (-9223372036854775807 - 1) mod 3, \
             d0 * 3 + d0 * 9223372036854775807)",
            "(d0, d1)[s0, s1] -> (d0 - -9223372036854775808, d0 * -2, 9223372036854775807 * 2, \
             -9223372036854775808 floordiv -1, -9223372036854775808 ceildiv -1, 1, \
             d0 * -9223372036854775806)",
        ),
        (
            "(d0) -> (0x10, 00012, d0 - -3, -(d0 + 1), -(-d0), d0 * -3 + 1, 1 - d0 * 3, \
             -(d0 floordiv 2), -d0 * 2, d0 - (d0 mod 2) * 3)",
            "(d0) -> (16, 12, d0 + 3, -(d0 + 1), d0, d0 * -3 + 1, d0 * -3 + 1, \
             -(d0 floordiv 2), d0 * -2, d0 - (d0 mod 2) * 3)",
        ),
        (
            "(d0, d1, d2)[s0, s1] -> (d2 + d1 + d0, d1 + d0 * 2, d1 * 2 + d0, d1 + (d0 + 1), \
             (d1 + 1) + d0, s1 + s0 + d0, d0 + s1 + s0, s1 * (s0 * 2), (s1 * 2) * s0, d1 + d1, \
             s1 + d0, d1 + d0 floordiv 2, d0 floordiv 2 + d1, s1 * s0 * s0, d0 * s1 + d0 * s0)",
            "(d0, d1, d2)[s0, s1] -> (d1 + d2 + d0, d1 + d0 * 2, d1 * 2 + d0, d1 + d0 + 1, \
             d0 + d1 + 1, d0 + s0 + s1, d0 + s1 + s0, s1 * (s0 * 2), (s0 * s1) * 2, d1 * 2, \
             d0 + s1, d1 + d0 floordiv 2, d0 floordiv 2 + d1, (s0 * s1) * s0, d0 * s1 + d0 * s0)",
        ),
        (
            "(d0, d1)[s0, s1] -> (d0 + (d0 floordiv s0) * (-s0), d0 + (d0 floordiv -3) * 3, \
             d0 + (d0 floordiv 0) * 0, d0 + (d0 floordiv 3) floordiv -3, d0 + (d0 floordiv 3) * -3, \
             (d0 floordiv -1), (d0 * 4) floordiv -2, (d0 * 4) ceildiv -2, (d0 * 4) mod -2, \
             (d0 floordiv -1) mod 1, (d0 * 6 + d1) ceildiv 2, (d0 * 6 + d1) mod 2, \
             (d0 mod 6) mod 3, (d0 mod 6) mod 4, (d0 floordiv 2) floordiv 3, d0 * 2 + d1 * 4 + 8, \
             (d0 * 2 + d1 * 4 + 8) floordiv 2, ((d0 * 4) floordiv 2) mod 2, \
             ((d0 * 4) floordiv -2) mod 2)",
            "(d0, d1)[s0, s1] -> (d0 + (d0 floordiv s0) * (-s0), d0 + (d0 floordiv -3) * 3, d0, \
             d0 + (d0 floordiv 3) floordiv -3, d0 mod 3, d0 floordiv -1, d0 * -2, d0 * -2, \
             (d0 * 4) mod -2, 0, (d0 * 6 + d1) ceildiv 2, d1 mod 2, d0 mod 3, (d0 mod 6) mod 4, \
             (d0 floordiv 2) floordiv 3, d0 * 2 + d1 * 4 + 8, d0 + d1 * 2 + 4, 0, 0)",
        ),
        (
            "(d0, d1)[s0] -> (d0 + d0 * -1, d0 * 2 + d0 * -2, s0 * d0, -(d0 + s0) * 2, \
             d0 - (d1 + 1), d0 + d1 * -3, d0 + d1 * (-9223372036854775807 - 1), \
             -(-9223372036854775807 - 1), (d0 + 1) * s0, d0 * (s0 + 1), (d0 mod 2) * -1 + d1, \
             d1 - d0 mod 2, d1 - (d0 + s0 * 2), (d0 + 1) floordiv 2 + d1)",
            "(d0, d1)[s0] -> (0, 0, d0 * s0, (d0 + s0) * -2, d0 - (d1 + 1), d0 - d1 * 3, \
             d0 - d1 * -9223372036854775808, --9223372036854775808, (d0 + 1) * s0, \
             d0 * (s0 + 1), -(d0 mod 2) + d1, d1 - d0 mod 2, d1 - (d0 + s0 * 2), \
             (d0 + 1) floordiv 2 + d1)",
        ),
        (
            "(d0, d1)[s0] -> (d0 + (d1 * -1) * -1, d0 - (d1 * -1), -(d0 * -1), -(d0 * 2), \
             d0 + s0 * -2 + 5)",
            "(d0, d1)[s0] -> (d0 + d1, d0 + d1, d0, d0 * -2, d0 - s0 * 2 + 5)",
        ),
        (
            "(x) -> (x // comment\n + 1)",
            "(d0) -> (d0 + 1)",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(map(input), expected, "input: {input}");
    }
}

#[test]
fn integer_sets() {
    let cases = [
        (
            "(d0)[s0] : (d0 - s0 >= 0, d0 == 0)",
            "(d0)[s0] : (d0 - s0 >= 0, d0 == 0)",
        ),
        ("(d0)[s0] : ()", "(d0)[s0] : (0 == 0)"),
        (
            "(d0)[s0] : (d0 >= s0, d0 <= 5, d0 == s0 + 1, d0 > = 3)",
            "(d0)[s0] : (d0 - s0 >= 0, -d0 + 5 >= 0, d0 - (s0 + 1) == 0, d0 - 3 >= 0)",
        ),
        ("(d0)[s0] : (1 == 0)", "(d0)[s0] : (1 == 0)"),
    ];
    for (input, expected) in cases {
        assert_eq!(set(input), expected, "input: {input}");
    }
    assert_eq!(IntegerSet::empty(1, 1).to_string(), "(d0)[s0] : (1 == 0)");
    assert!(IntegerSet::empty(2, 0).is_empty_integer_set());
}

#[test]
fn builder_api() {
    let d0 = AffineExpr::dim(0);
    let d1 = AffineExpr::dim(1);
    let s0 = AffineExpr::symbol(0);
    let c = AffineExpr::constant;
    assert_eq!(c(2).add(d0.clone()), d0.clone().add(c(2)));
    assert_eq!(d0.clone().mul(c(1)), d0);
    assert_eq!(d0.clone().add(c(1)).add(c(2)).to_string(), "d0 + 3");
    assert_eq!(d0.clone().floor_div(c(1)), d0);
    assert_eq!(d0.clone().sub(d1.clone()).to_string(), "d0 - d1");
    assert_eq!(d0.clone().neg().to_string(), "-d0");
    assert_eq!((d0.clone() - d0.clone()), c(0));
    assert_eq!((d1.clone() + d0.clone()).to_string(), "d0 + d1");
    assert_eq!((s0.clone() * d0.clone()).to_string(), "d0 * s0");
    assert_eq!((d0.clone() % c(4)).to_string(), "d0 mod 4");
    assert_eq!((-(d0.clone() + s0.clone())).to_string(), "-(d0 + s0)");
    assert_eq!(d0.clone().ceil_div(c(2)).to_string(), "d0 ceildiv 2");
    // Regression tests from MLIR's AffineExprTest.cpp.
    assert_eq!(c(6).floor_div(c(-1)), c(-6));
    assert_eq!((d0.clone() * c(6)).floor_div(c(2)), d0.clone() * c(3));
    assert!(matches!(
        (d0.clone() * c(6)).floor_div(c(4)),
        AffineExpr::FloorDiv(..)
    ));
    assert_eq!((d0.clone() * c(6)).floor_div(c(-2)), d0.clone() * c(-3));
    assert_eq!(
        (d0.clone() * c(6) + d1.clone()).floor_div(c(-2)),
        d0.clone() * c(-3) + d1.clone().floor_div(c(-2))
    );
    assert_eq!((d0.clone() * c(6)).ceil_div(c(-2)), d0.clone() * c(-3));
    assert!(matches!(
        d0.clone() + d0.clone().floor_div(c(3)).floor_div(c(-3)),
        AffineExpr::Add(..)
    ));
    assert_eq!(d0.clone().floor_div(c(-1)).largest_known_divisor(), 1);
    assert_eq!(
        (d0.clone() + d0.clone().floor_div(c(-2)) * c(2)).to_string(),
        "d0 + (d0 floordiv -2) * 2"
    );
    assert!(matches!(c(i64::MAX) + c(1), AffineExpr::Add(..)));
    assert!(matches!(c(i64::MAX) * c(2), AffineExpr::Mul(..)));
    assert!(matches!(
        c(i64::MIN).ceil_div(c(-1)),
        AffineExpr::CeilDiv(..)
    ));
    assert!(matches!(c(3).modulo(c(0)), AffineExpr::Mod(..)));
    // A product of two dims is kept (MLIR asserts) with ordered operands.
    assert_eq!((d1.clone() * d0.clone()).to_string(), "d0 * d1");
}

#[test]
fn maps() {
    assert!(parse_affine_map("(a, b) -> (a, b)").is_ok_and(|m| m.is_identity()));
    assert!(parse_affine_map("(a, b) -> (b, a)").is_ok_and(|m| !m.is_identity()));
    assert!(parse_affine_map("(a)[s] -> (a)").is_ok_and(|m| m.is_identity()));
    assert!(AffineMap::identity(3).is_identity());
    assert_eq!(AffineMap::identity(2).to_string(), "(d0, d1) -> (d0, d1)");
    let text = "(d0) -> (d0 + 1)> rest";
    let (m, end) = parse_affine_map_prefix(text).expect("map");
    assert_eq!(m.to_string(), "(d0) -> (d0 + 1)");
    assert_eq!(&text[end..], " rest");
    let text = "(d0) : (d0 >= 0, d0 <= 4)>";
    let (s, end) = parse_integer_set_prefix(text).expect("set");
    assert_eq!(s.to_string(), "(d0) : (d0 >= 0, -d0 + 4 >= 0)");
    assert_eq!(end, text.len());
    assert_eq!(
        parse_affine_map_prefix("(d0) -> (d0) x>").map_err(|e| (e.offset, e.message)),
        Err((12, "expected '>' in affine map".to_string()))
    );
}

/// Inputs MLIR rejects, with mlir-opt's diagnostic: whether the text is in
/// `affine_set<...>` (else `affine_map<...>`), the text, the byte offset in
/// it and the message. The differential test re-checks them with mlir-opt.
const ERROR_CASES: &[(bool, &str, usize, &str)] = &[
    (false, "(d0) -> (d0 * d0)", 12, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"),
    (false, "(d0) -> (d0 +)", 13, "missing right operand of binary operator"),
    (false, "(d0) -> (d0) x", 12, "expected '>' in affine map"),
    (false, "(d0) : (d0 >= 0)", 0, "expected AffineMap, but got IntegerSet"),
    (false, "(d0) -> (- )", 11, "expected affine expression"),
    (false, "(d0) -> (d1)", 9, "use of undeclared identifier"),
    (false, "(d0, d0) -> (d0)", 5, "redefinition of identifier 'd0'"),
    (false, "(d0)[s0, d0] -> (d0)", 9, "redefinition of identifier 'd0'"),
    (false, "(d0 -> (d0)", 3, "expected ')' in dimensional identifier list"),
    (false, "(d0) (d0)", 4, "expected '->' or ':'"),
    (false, "(d0) -> d0", 7, "expected '(' in affine map range"),
    (false, "(d0) -> (d0", 11, "expected ')' in affine map range"),
    (false, "(d0) -> (d0 floordiv d0)", 12, "non-affine expression: right operand of floordiv has to be either a constant or symbolic"),
    (false, "(d0) -> (d0 ceildiv (d0 + 1))", 12, "non-affine expression: right operand of ceildiv has to be either a constant or symbolic"),
    (false, "(d0) -> (d0 mod d0)", 12, "non-affine expression: right operand of mod has to be either a constant or symbolic"),
    (false, "(d0)[s0] -> (d0 * s0 * d0)", 21, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"),
    (false, "(d0)[s0] -> (d0 * 2 * d0 * 3)", 25, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"),
    (false, "(d0) -> (9223372036854775808)", 9, "constant too large for index"),
    (false, "(d0) -> (99999999999999999999)", 9, "constant too large for index"),
    (false, "(d0) -> (0xffffffffffffffff)", 9, "constant too large for index"),
    (false, "(d0) -> (())", 10, "no expression inside parentheses"),
    (false, "(d0) -> (* d0)", 9, "missing left operand of binary operator"),
    (false, "(d0) -> (+ d0)", 9, "missing left operand of binary operator"),
    (false, "(d0) -> (d0 * )", 14, "missing right operand of binary operator"),
    (false, "(d0) -> (1.5)", 9, "expected affine expression"),
    (false, "(d0) -> (d0 + 1.5)", 14, "missing right operand of binary operator"),
    (false, "(d0) -> (symbol(d0))", 16, "unexpected ssa identifier"),
    (false, "(d0) -> (symbol)", 15, "expected '(' at start of SSA symbol"),
    (false, "(d0) -> (%x)", 9, "unexpected ssa identifier"),
    (false, "(d0) -> (d0 $ 1)", 12, "unexpected character"),
    (false, "(d0) -> (d0 ; 1)", 12, "unexpected character"),
    (false, "(d0) -> (d0 + % )", 14, "invalid SSA name"),
    (false, "(1) -> (d0)", 1, "expected bare identifier"),
    (false, "(%x) -> (d0)", 1, "expected bare identifier"),
    (false, "d0 -> (d0)", 0, "expected '(' in dimensional identifier list"),
    (false, "", 0, "expected '(' in dimensional identifier list"),
    (false, "   ", 0, "expected '(' in dimensional identifier list"),
    (false, "(d0)[s0 -> (d0)", 7, "expected ']' in symbol list"),
    (false, "(d0)[1] -> (d0)", 5, "expected bare identifier"),
    (false, "(d0) -> (d0,)", 12, "expected affine expression"),
    (false, "(d0) -> (d0 d0)", 11, "expected ')' in affine map range"),
    (true, "(d0) : (d0)", 10, "expected '== affine-expr' or '>= affine-expr' at end of affine constraint"),
    (true, "(d0) : (d0 > 0)", 13, "expected '== affine-expr' or '>= affine-expr' at end of affine constraint"),
    (true, "(d0) : (d0 >= 0 x)", 15, "expected ')' in integer set constraint list"),
    (true, "(d0) : (d0 >= 0) x", 16, "expected '>' in integer set"),
    (false, "(d0) -> (d0 >= 0)", 11, "expected ')' in affine map range"),
    (true, "(d0) : (d0 >=)", 13, "expected affine expression"),
    (true, "(d0) : (d0 == )", 14, "expected affine expression"),
    (true, "(d0) : (d0 = 0)", 13, "expected '== affine-expr' or '>= affine-expr' at end of affine constraint"),
    (true, "(d0) : (d0 < 0)", 13, "expected '== affine-expr' or '>= affine-expr' at end of affine constraint"),
    (true, "(d0) : d0 >= 0", 6, "expected '(' in integer set constraint list"),
    (true, "(d0) : (d0 >= 0,)", 16, "expected affine expression"),
    (true, "(d0) : (d0 * d0 >= 0)", 11, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"),
    (false, "(d0)\n  -> (d0 +\n  )", 18, "missing right operand of binary operator"),
    (false, "(d0) -> (d0 + -)", 15, "missing right operand of binary operator"),
    (false, "(d0) -> (d0 - - d1)", 15, "use of undeclared identifier"),
    (false, "(d0) -> (-(d0 * d0))", 14, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"),
    (false, "(d0) -> ((d0)", 13, "expected ')' in affine map range"),
    (false, "(d0) -> (d0))", 12, "expected '>' in affine map"),
    (false, "(d0) -> (d0 ^bb)", 11, "expected ')' in affine map range"),
    (false, "(d0) -> (\"s\")", 9, "expected affine expression"),
    (false, "(d0) -> (d0 . 1)", 13, "expected three consecutive dots for an ellipsis"),
    (false, "(d0, d1) -> (d0 * (d1 + 1))", 16, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"),
    (false, "(d0, d1) -> ((d0 + d1) floordiv (d0 - d1))", 23, "non-affine expression: right operand of floordiv has to be either a constant or symbolic"),
    (true, "(d0) -> (d0)", 0, "expected IntegerSet, but got AffineMap"),
    (false, "(d0) -> (d0 \"a\\q\")", 14, "unknown escape in string literal"),
    (false, "(d0) -> (d0 \"a\")", 11, "expected ')' in affine map range"),
    (false, "(d0) -> (d0 @ )", 13, "@ identifier expected to start with letter or '_'"),
    (false, "(d0) -> (d0 ! )", 12, "invalid type identifier"),
    (false, "(d0) -> (d0 ^ )", 12, "invalid block name"),
    (false, "(d0) -> (d0 # )", 12, "invalid attribute name"),
    (false, "(d0) -> (d0 %1a)", 11, "expected ')' in affine map range"),
    (false, "(d0) -> (d0 ~)", 12, "unexpected character"),
    (false, "(d0) -> (d0 / 2)", 11, "expected ')' in affine map range"),
    (false, "(d0) -> (d0 é)", 12, "unexpected character"),
    (false, "(d0, // c\n) -> (d0)", 4, "expected bare identifier"),
    (false, "(d0) -> (d0 // c\n  // d\n d0)", 11, "expected ')' in affine map range"),
    (true, "(d0) : (d0 >= 0 // c\n d0)", 15, "expected ')' in integer set constraint list"),
];

#[test]
fn parse_errors() {
    for (is_set, case, offset, message) in ERROR_CASES {
        assert_eq!(
            err(*is_set, case),
            (*offset, message.to_string()),
            "input: {case:?}"
        );
    }
    assert_eq!(
        parse_integer_set("(d0) -> (d0)"),
        Err(AffineParseError {
            offset: 0,
            message: "expected IntegerSet, but got AffineMap".into()
        })
    );
    let deep = format!("(d0) -> ({}d0{})", "(".repeat(10_000), ")".repeat(10_000));
    assert!(parse_affine_map(&deep).is_err());
    let long = format!("(d0) -> (d0{})", " + d0".repeat(10_000));
    assert!(parse_affine_map(&long).is_err());
    // The deepest accepted trees build, print, compare and drop on a test
    // thread's stack.
    let dims: Vec<String> = (0..64).map(|i| format!("d{i}")).collect();
    let terms: Vec<String> = (0..4098).map(|i| format!("d{}", i % 64)).collect();
    let text = format!("({}) -> ({})", dims.join(", "), terms.join(" + "));
    assert!(parse_affine_map(&text).is_err());
    let text = format!("({}) -> ({})", dims.join(", "), terms[..4097].join(" - "));
    let parsed = parse_affine_map(&text);
    assert!(parsed.as_ref().is_ok_and(|m| m.to_string().len() > 20_000));
    assert_eq!(parsed.clone(), parsed);
    let nested = format!("(d0) -> ({}d0{})", "-(".repeat(120), ")".repeat(120));
    assert_eq!(map(&nested), "(d0) -> (d0)");
}

/// Text spliced into generated inputs to break them.
const PIECES: &[&str] = &[
    "%", "%x", "#", "/", ".", "...", "-", "->", ">", "=", "<", "(", ")", "[", "]", ",", ":", "*",
    "+", "0x", "9", "1.5e", "mod", "symbol", "d0", "s0", " ", "{", "?", "$", "\\", "é",
];

/// More pieces, which would reach past the end of an attribute in a file.
const RAW_PIECES: &[&str] = &["\"", "//", "\n", "\u{1F600}", "99999999999999999999"];

/// `text` with a few random deletions and insertions of `pieces`.
fn mangle(rng: &mut Rng, mut text: String, pieces: &[&[&str]]) -> String {
    for _ in 0..rng.below(4) + 1 {
        let mut at = rng.below(text.len() as u64 + 1) as usize;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        if rng.chance(30) {
            let mut end = (at + 1 + rng.below(4) as usize).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            text.replace_range(at..end, "");
        } else {
            let set = *rng.pick(pieces);
            let piece = *rng.pick(set);
            text.insert_str(at, piece);
        }
    }
    text
}

/// Mangled generated inputs never panic, and errors point inside the text at
/// a character boundary.
#[test]
fn mangled_inputs() {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    for i in 0..3000 {
        let case = random_case(&mut rng, i % 3 == 0, i % 2 == 0);
        let text = mangle(&mut rng, case, &[PIECES, RAW_PIECES]);
        let errors = [
            parse_affine_map(&text).err(),
            parse_integer_set(&text).err(),
            parse_affine_map_prefix(&text).err(),
            parse_integer_set_prefix(&text).err(),
        ];
        for e in errors.into_iter().flatten() {
            assert!(
                e.offset <= text.len() && text.is_char_boundary(e.offset),
                "{text:?}: {e}"
            );
            assert!(!e.message.is_empty());
        }
    }
}

// ----- Differential test against mlir-opt -----

fn find_mlir_opt() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MLIR_OPT") {
        return Some(PathBuf::from(p)).filter(|p| p.exists());
    }
    // The project's `.cargo/config.toml` points STRATA_LLVM_BIN at LLVM 22.
    let bin = std::env::var_os("STRATA_LLVM_BIN").unwrap_or_else(|| "/usr/lib/llvm-22/bin".into());
    let default = PathBuf::from(bin).join("mlir-opt");
    if default.exists() {
        return Some(default);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join("mlir-opt"))
        .find(|p| p.exists())
}

/// xorshift64* pseudo-random numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    FloorDiv,
    CeilDiv,
    Mod,
}

/// A generated expression, printed as text for the parser.
#[derive(Clone)]
enum Gen {
    Dim(usize),
    Sym(usize),
    Lit(u64),
    Neg(Box<Gen>),
    Bin(Op, Box<Gen>, Box<Gen>),
}

struct Generator {
    rng: Rng,
    dims: usize,
    syms: usize,
    /// Allow products of two dim expressions (usually rejected).
    sloppy: bool,
}

impl Generator {
    fn literal(&mut self) -> u64 {
        match self.rng.below(20) {
            0..=11 => self.rng.below(9),
            12..=16 => self.rng.below(100),
            17 => self.rng.below(1 << 20),
            18 => self.rng.below(1 << 40),
            _ => *self.rng.pick(&[
                i64::MAX as u64,
                (i64::MAX - 1) as u64,
                1 << 62,
                (1 << 32) + 1,
            ]),
        }
    }

    fn leaf(&mut self, symbolic: bool) -> Gen {
        let r = self.rng.below(10);
        if !symbolic && self.dims > 0 && r < 5 {
            Gen::Dim(self.rng.below(self.dims as u64) as usize)
        } else if self.syms > 0 && r < 8 {
            Gen::Sym(self.rng.below(self.syms as u64) as usize)
        } else {
            Gen::Lit(self.literal())
        }
    }

    fn divisor(&mut self, depth: u32) -> Gen {
        match self.rng.below(10) {
            0..=5 => Gen::Lit(self.rng.below(9) + 1),
            6 => Gen::Neg(Box::new(Gen::Lit(self.rng.below(5)))),
            7 => Gen::Lit(self.literal()),
            _ => self.expr(depth + 1, true),
        }
    }

    fn expr(&mut self, depth: u32, symbolic: bool) -> Gen {
        if depth >= 4 || self.rng.below(10) < 2 + depth as u64 * 2 {
            return self.leaf(symbolic);
        }
        let op = *self.rng.pick(&[
            Op::Add,
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Mul,
            Op::FloorDiv,
            Op::CeilDiv,
            Op::Mod,
        ]);
        if self.rng.chance(8) {
            return Gen::Neg(Box::new(self.expr(depth + 1, symbolic)));
        }
        if self.rng.chance(12) {
            return self.pattern(depth, symbolic);
        }
        let (lhs, rhs) = match op {
            Op::Add | Op::Sub => (
                self.expr(depth + 1, symbolic),
                self.expr(depth + 1, symbolic),
            ),
            Op::Mul => {
                let a = self.expr(depth + 1, symbolic);
                let b = self.expr(depth + 1, symbolic || !self.sloppy);
                if self.rng.chance(50) {
                    (a, b)
                } else {
                    (b, a)
                }
            }
            _ => {
                let rhs = if self.sloppy && self.rng.chance(30) {
                    self.expr(depth + 1, symbolic)
                } else {
                    self.divisor(depth)
                };
                (self.expr(depth + 1, symbolic), rhs)
            }
        };
        Gen::Bin(op, Box::new(lhs), Box::new(rhs))
    }
}

impl Generator {
    /// Shapes the simplifier has rules for, with a repeated subexpression.
    fn pattern(&mut self, depth: u32, symbolic: bool) -> Gen {
        let bin = |op, l: Gen, r: Gen| Gen::Bin(op, Box::new(l), Box::new(r));
        let x = self.expr(depth + 2, symbolic);
        let q = if self.rng.chance(70) {
            Gen::Lit(self.rng.below(9) + 1)
        } else {
            self.expr(depth + 2, true)
        };
        let k = if self.rng.chance(80) {
            Gen::Lit(self.rng.below(9))
        } else {
            Gen::Neg(Box::new(Gen::Lit(self.rng.below(9))))
        };
        let other = self.expr(depth + 2, symbolic);
        let fd = bin(Op::FloorDiv, x.clone(), q.clone());
        match self.rng.below(9) {
            // x - (x floordiv q) * q
            0 => bin(Op::Sub, x, bin(Op::Mul, fd, q)),
            // x + (x floordiv q) * k
            1 => bin(Op::Add, x, bin(Op::Mul, fd, k)),
            // (other + x) - (x floordiv q) * q
            2 => bin(Op::Sub, bin(Op::Add, other, x), bin(Op::Mul, fd, q)),
            // (x + other) - (x floordiv q) * q
            3 => bin(Op::Sub, bin(Op::Add, x, other), bin(Op::Mul, fd, q)),
            // x * k + x * k'
            4 => bin(
                Op::Add,
                bin(Op::Mul, x.clone(), k.clone()),
                bin(Op::Mul, x, q),
            ),
            // (x mod q) mod k
            5 => bin(Op::Mod, bin(Op::Mod, x, q), k),
            // (x * k) op q
            6 => {
                let op = *self.rng.pick(&[Op::FloorDiv, Op::CeilDiv, Op::Mod]);
                bin(op, bin(Op::Mul, x, k), q)
            }
            // (x * k + other) op q
            7 => {
                let op = *self.rng.pick(&[Op::FloorDiv, Op::CeilDiv, Op::Mod]);
                bin(op, bin(Op::Add, bin(Op::Mul, x, k), other), q)
            }
            // x - x, x + other - x
            _ => bin(Op::Sub, bin(Op::Add, x.clone(), other), x),
        }
    }
}

fn prec(g: &Gen) -> u8 {
    match g {
        Gen::Bin(Op::Add | Op::Sub, ..) => 1,
        Gen::Bin(..) => 2,
        _ => 3,
    }
}

/// Spells `g` as tokens, with the parentheses precedence needs plus random
/// extra ones.
fn spell(g: &Gen, names: &(Vec<String>, Vec<String>), rng: &mut Rng, out: &mut Vec<String>) {
    let extra = rng.chance(10);
    if extra {
        out.push("(".into());
    }
    match g {
        Gen::Dim(i) => out.push(names.0[*i].clone()),
        Gen::Sym(i) => out.push(names.1[*i].clone()),
        Gen::Lit(v) => out.push(match rng.below(12) {
            0 => format!("{v:#x}"),
            1 => format!("00{v}"),
            _ => v.to_string(),
        }),
        Gen::Neg(x) => {
            out.push("-".into());
            spell_operand(x, prec(x) < 3, names, rng, out);
        }
        Gen::Bin(op, l, r) => {
            let p = prec(g);
            spell_operand(l, prec(l) < p, names, rng, out);
            out.push(
                match op {
                    Op::Add => "+",
                    Op::Sub => "-",
                    Op::Mul => "*",
                    Op::FloorDiv => "floordiv",
                    Op::CeilDiv => "ceildiv",
                    Op::Mod => "mod",
                }
                .into(),
            );
            spell_operand(r, prec(r) <= p, names, rng, out);
        }
    }
    if extra {
        out.push(")".into());
    }
}

fn spell_operand(
    g: &Gen,
    parens: bool,
    names: &(Vec<String>, Vec<String>),
    rng: &mut Rng,
    out: &mut Vec<String>,
) {
    if parens {
        out.push("(".into());
    }
    spell(g, names, rng, out);
    if parens {
        out.push(")".into());
    }
}

fn is_word(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.'))
}

/// Joins tokens with random blanks (and the odd comment).
fn join(tokens: &[String], rng: &mut Rng) -> String {
    let mut text = String::new();
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 {
            let need = is_word(&tokens[i - 1]) && is_word(t)
                || (tokens[i - 1] == "-" && t.starts_with('>'));
            let sep = match rng.below(30) {
                0 => "\n",
                1 => "\t",
                2 => " // note\n",
                3..=12 => "",
                13 => "  ",
                _ => " ",
            };
            text.push_str(if need && sep.is_empty() { " " } else { sep });
        }
        text.push_str(t);
    }
    text
}

const NAMES: &[&str] = &[
    "d0",
    "d1",
    "d2",
    "s0",
    "s1",
    "i",
    "j",
    "k",
    "N",
    "M",
    "x.y",
    "a$b",
    "_t",
    "mod",
    "floordiv",
    "ceildiv",
    "i32",
    "index",
    "f32",
    "affine_map",
    "x1",
    "T_2",
];

fn random_names(rng: &mut Rng, dims: usize, syms: usize) -> (Vec<String>, Vec<String>) {
    let mut pool: Vec<&str> = NAMES.to_vec();
    let mut take = |n: usize, rng: &mut Rng, plain: &str| -> Vec<String> {
        (0..n)
            .map(|i| {
                if rng.chance(50) {
                    format!("{plain}{i}")
                } else {
                    let k = rng.below(pool.len() as u64) as usize;
                    pool.swap_remove(k).to_string()
                }
            })
            .collect()
    };
    let d = take(dims, rng, "d");
    let s = take(syms, rng, "s");
    // Plain names may collide with picked ones; rename those.
    let mut all: Vec<String> = Vec::new();
    let fix = |v: Vec<String>, all: &mut Vec<String>| -> Vec<String> {
        v.into_iter()
            .enumerate()
            .map(|(i, n)| {
                let n = if all.contains(&n) {
                    format!("u{}_{i}", all.len())
                } else {
                    n
                };
                all.push(n.clone());
                n
            })
            .collect()
    };
    let d = fix(d, &mut all);
    let s = fix(s, &mut all);
    (d, s)
}

/// One generated map or set body.
fn random_case(rng: &mut Rng, is_set: bool, sloppy: bool) -> String {
    let dims = rng.below(4) as usize;
    let syms = rng.below(4) as usize;
    let names = random_names(rng, dims, syms);
    let mut g = Generator {
        rng: Rng(rng.next() | 1),
        dims,
        syms,
        sloppy,
    };
    let mut tokens: Vec<String> = vec!["(".into()];
    for (i, n) in names.0.iter().enumerate() {
        if i > 0 {
            tokens.push(",".into());
        }
        tokens.push(n.clone());
    }
    tokens.push(")".into());
    if syms > 0 || rng.chance(5) {
        tokens.push("[".into());
        for (i, n) in names.1.iter().enumerate() {
            if i > 0 {
                tokens.push(",".into());
            }
            tokens.push(n.clone());
        }
        tokens.push("]".into());
    }
    tokens.push(if is_set { ":" } else { "->" }.into());
    tokens.push("(".into());
    let count = rng.below(if is_set { 4 } else { 5 });
    for i in 0..count {
        if i > 0 {
            tokens.push(",".into());
        }
        let e = g.expr(0, false);
        spell(&e, &names, rng, &mut tokens);
        if is_set {
            match rng.below(6) {
                0 => tokens.extend([">=".into(), "0".into()]),
                1 => tokens.extend(["==".into(), "0".into()]),
                r => {
                    let op = match r {
                        2 => ">=",
                        3 => "<=",
                        4 => "==",
                        _ => "> =",
                    };
                    tokens.push(op.into());
                    let e = g.expr(1, false);
                    spell(&e, &names, rng, &mut tokens);
                }
            }
        }
    }
    tokens.push(")".into());
    // `>=` and `==` are two tokens each for MLIR; keep them adjacent or not.
    join(&tokens, rng)
}

fn edge_cases() -> (Vec<String>, Vec<String>) {
    let maps = [
        "(d0, d1)[s0] -> (d0 + s0, d1 * 2)",
        "(d0) -> (2 + d0, d0 * 1, (d0 + 1) + 2, d0 floordiv 1)",
        "(d0, d1) -> (d0 + d1 * -1, d0 + -2, d0 * -1)",
        "() -> ()",
        "()[s0] -> (s0)",
        "(d0)[] -> (d0)",
        "(d0, d1, d2) -> (d0, d1, d2)",
        "(d0, d1) -> (d1, d0)",
        "(d0) -> (9223372036854775807, 0x7fffffffffffffff, -9223372036854775807)",
        "(d0) -> (d0 * 9223372036854775807 + d0, d0 - 9223372036854775807 - 2)",
        "(d0)[s0] -> (s0 * s0, s0 * s0 * d0, (s0 + 1) * (s0 + 2), d0 * s0 floordiv s0)",
        "(d0)[s0] -> (d0 floordiv s0, d0 ceildiv s0, d0 mod s0, (d0 * s0) mod s0)",
        "(d0)[s0] -> ((d0 * s0) floordiv s0, d0 - (d0 floordiv (s0 + 1)) * (s0 + 1))",
        "(d0, d1) -> (d0 - (d0 floordiv 8) * 8 + d1, -(d0 floordiv 8) * 8 + d0)",
        "(d0) -> (d0 mod 1, d0 floordiv -1, d0 ceildiv -1, -d0 mod 2, (d0 mod 4) mod 2)",
        "(d0) -> (((d0 * 8) floordiv 4) ceildiv 2, (d0 * 8 + 4) mod 4, (d0 * 8 + 3) mod 4)",
        "(d0) -> ((d0 * 6) mod 4, (d0 * 6) floordiv 4, ((d0 * 4) mod 8) floordiv -2)",
        "(d0, d1)[s0, s1] -> (s1 + d1 + s0 + d0, d1 * s1 + d0 * s0, s1 * s0 + s0 * s1)",
        "(d0, d1) -> (-(d0 + d1), -(d0 - d1), -(-(d0 * 3)), -(d0 mod 3), - -d0)",
        "(x) -> (x // comment\n + 1)",
        "(mod)[floordiv] -> (mod mod 2, floordiv floordiv floordiv, mod ceildiv 3)",
        "(i32, index, f32, affine_map) -> (i32 + index * 2 + f32 - affine_map)",
        "(d0) -> (d0 + (1 - 1), d0 * (2 - 2), d0 * (0 - 1), (d0 - d0) * d0)",
        "(d0, d1) -> (d0 * 2 + d1 * 2, d0 * 2 + d0 * 3, d0 * 3 + d0, d0 + d0 * -1)",
        "(d0)[s0] -> (d0 + (d0 floordiv s0) * (-s0), d0 - (d0 floordiv s0) * s0)",
    ];
    let sets = [
        "(d0)[s0] : (d0 - s0 >= 0, d0 == 0)",
        "(d0)[s0] : ()",
        "() : ()",
        "(d0)[s0] : (d0 >= s0, d0 <= 5, d0 == s0 + 1, d0 > = 3)",
        "(d0)[s0] : (1 == 0)",
        "(d0, d1)[s0] : (d0 * 2 - d1 >= -s0, d0 mod 4 == d1 floordiv 2, 0 <= d0)",
        "(d0) : (-d0 >= -5, d0 - 9223372036854775807 >= 0)",
    ];
    (
        maps.iter().map(|s| s.to_string()).collect(),
        sets.iter().map(|s| s.to_string()).collect(),
    )
}

/// One attribute per op: `"foo.op"() {m = affine_map<...>} : () -> ()`.
fn op_line(is_set: bool, body: &str) -> String {
    let kw = if is_set { "affine_set" } else { "affine_map" };
    format!("\"foo.op\"() {{m = {kw}<{body}>}} : () -> ()")
}

const OP_PREFIX_MAP: &str = "\"foo.op\"() {m = affine_map<";

fn run_mlir_opt(tool: &PathBuf, src: &str, name: &str, split: bool) -> (bool, String, String) {
    let path =
        std::env::temp_dir().join(format!("strata_affine_{name}_{}.mlir", std::process::id()));
    std::fs::write(&path, src).expect("write temp file");
    let mut cmd = Command::new(tool);
    cmd.args(["--allow-unregistered-dialect", "--mlir-print-op-generic"]);
    if split {
        cmd.arg("--split-input-file");
    }
    let out = cmd.arg(&path).output().expect("run mlir-opt");
    let _ = std::fs::remove_file(&path);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The printed body of each op's `m` attribute, in op order, resolving the
/// `#map`/`#set` aliases printed at the top.
fn printed_bodies(stdout: &str) -> Vec<String> {
    let mut aliases = std::collections::HashMap::new();
    let mut bodies = Vec::new();
    let strip = |v: &str| -> String {
        let v = v.trim();
        let inner = v
            .strip_prefix("affine_map<")
            .or_else(|| v.strip_prefix("affine_set<"))
            .and_then(|v| v.strip_suffix('>'));
        inner.unwrap_or(v).to_string()
    };
    for line in stdout.lines() {
        if line.starts_with('#') {
            if let Some((alias, value)) = line.split_once(" = ") {
                aliases.insert(alias.to_string(), strip(value));
            }
        } else if let Some(rest) = line.trim().strip_prefix("\"foo.op\"() {m = ") {
            let value = rest.rsplit_once("} : () -> ()").map_or(rest, |(v, _)| v);
            let body = match aliases.get(value) {
                Some(b) => b.clone(),
                None => strip(value),
            };
            bodies.push(body);
        }
    }
    bodies
}

/// The first `error:` per `// -----` chunk of a split file, as (line, column,
/// message), 1-based.
fn first_errors(stderr: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for line in stderr.lines() {
        let Some((loc, msg)) = line.split_once(": error: ") else {
            continue;
        };
        let mut parts = loc.rsplitn(3, ':');
        let col = parts.next().and_then(|c| c.parse().ok());
        let row = parts.next().and_then(|r| r.parse().ok());
        if let (Some(row), Some(col)) = (row, col) {
            out.push((row, col, msg.to_string()));
        }
    }
    out
}

/// The diagnostic for `body` in the differential's op line, seen as the
/// strata parser will see it: the `_prefix` parser over the rest of the line.
/// `None` when a `>` in the body closes the attribute early, leaving MLIR to
/// complain about what follows.
fn embedded_error(is_set: bool, body: &str) -> Option<Option<(usize, String)>> {
    let line = format!("{body}>}} : () -> ()");
    let parsed = if is_set {
        parse_integer_set_prefix(&line).map(|(_, end)| end)
    } else {
        parse_affine_map_prefix(&line).map(|(_, end)| end)
    };
    match parsed {
        Err(e) => Some(Some((e.offset, e.message))),
        Ok(end) if &line[end..] == "} : () -> ()" => Some(None),
        Ok(_) => None,
    }
}

#[test]
fn mlir_opt_differential() {
    let Some(tool) = find_mlir_opt() else {
        eprintln!("skipped: mlir-opt not found");
        return;
    };
    // STRATA_AFFINE_SEED, STRATA_AFFINE_CASES and STRATA_AFFINE_ERRORS widen
    // the search.
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let mut rng = Rng(env("STRATA_AFFINE_SEED").unwrap_or(0x9e37_79b9_7f4a_7c15) | 1);
    let random_maps = env("STRATA_AFFINE_CASES").unwrap_or(1000);
    let (edge_maps, edge_sets) = edge_cases();
    let mut cases: Vec<(bool, String)> = Vec::new();
    cases.extend(edge_maps.into_iter().map(|m| (false, m)));
    cases.extend(edge_sets.into_iter().map(|s| (true, s)));
    for i in 0..random_maps {
        cases.push((false, random_case(&mut rng, false, i % 10 == 9)));
    }
    for i in 0..random_maps * 2 / 5 {
        cases.push((true, random_case(&mut rng, true, i % 10 == 9)));
    }
    let first_mangled = cases.len();
    for i in 0..random_maps / 2 {
        let is_set = i % 3 == 0;
        let case = random_case(&mut rng, is_set, false);
        let text = mangle(&mut rng, case, &[PIECES]);
        // In the file, a comment on the last line would also hide the `>`.
        if !text
            .rsplit('\n')
            .next()
            .is_some_and(|last| last.contains("//"))
        {
            cases.push((is_set, text));
        }
    }

    // Valid cases: all in one file, one op each.
    let mut src = String::new();
    let mut ours = Vec::new();
    let mut rejected = Vec::new();
    for (is_set, body) in &cases {
        let parsed = if *is_set {
            parse_integer_set(body).map(|s| s.to_string())
        } else {
            parse_affine_map(body).map(|m| m.to_string())
        };
        match parsed {
            Ok(printed) => {
                assert_eq!(embedded_error(*is_set, body), Some(None), "{body:?}");
                src.push_str(&op_line(*is_set, body));
                src.push('\n');
                ours.push((body.clone(), printed));
            }
            Err(_) => rejected.push((
                *is_set,
                body.clone(),
                ours.len() + rejected.len() >= first_mangled,
            )),
        }
    }
    let (ok, stdout, stderr) = run_mlir_opt(&tool, &src, "valid", false);
    assert!(
        ok,
        "mlir-opt rejected a case this parser accepts:\n{stderr}"
    );
    let theirs = printed_bodies(&stdout);
    assert_eq!(theirs.len(), ours.len(), "op count in mlir-opt output");
    let mut mismatches = String::new();
    let mut count = 0;
    for ((input, mine), expected) in ours.iter().zip(&theirs) {
        if mine != expected {
            count += 1;
            let _ = writeln!(
                mismatches,
                "input:  {input:?}\nmlir:   {expected}\nstrata: {mine}\n"
            );
        }
    }
    assert!(
        count == 0,
        "{count} mismatches of {}:\n{mismatches}",
        ours.len()
    );

    // Rejected cases: one chunk each; compare the first diagnostic.
    let mut errors: Vec<(bool, String)> = ERROR_CASES
        .iter()
        .map(|(is_set, c, ..)| (*is_set, c.to_string()))
        .collect();
    let max_rejected = env("STRATA_AFFINE_ERRORS").unwrap_or(100) as usize;
    let (mangled, generated): (Vec<_>, Vec<_>) = rejected.into_iter().partition(|r| r.2);
    let generated = generated.into_iter().take(max_rejected);
    errors.extend(
        generated
            .chain(mangled)
            .map(|(is_set, body, _)| (is_set, body)),
    );
    let mut src = String::new();
    let mut chunk_first_line = Vec::new();
    let mut line_starts = vec![0usize];
    let mut line_no = 1;
    for (i, (is_set, body)) in errors.iter().enumerate() {
        if i > 0 {
            src.push_str("// -----\n");
            line_no += 1;
            line_starts.push(src.len());
        }
        chunk_first_line.push(line_no);
        let line = op_line(*is_set, body);
        for ch in line.chars() {
            src.push(ch);
            if ch == '\n' {
                line_no += 1;
                line_starts.push(src.len());
            }
        }
        src.push('\n');
        line_no += 1;
        line_starts.push(src.len());
    }
    let (_, _, stderr) = run_mlir_opt(&tool, &src, "errors", true);
    let diags = first_errors(&stderr);
    let mut mismatches = String::new();
    let mut count = 0;
    let mut skipped = 0;
    for (i, (is_set, body)) in errors.iter().enumerate() {
        let first = chunk_first_line[i];
        let last = chunk_first_line.get(i + 1).copied().unwrap_or(usize::MAX);
        let theirs = diags
            .iter()
            .find(|(row, _, _)| *row >= first && *row < last)
            .map(|(row, col, msg)| {
                let file_offset = line_starts[row - 1] + col - 1;
                let chunk_start = line_starts[first - 1];
                (
                    file_offset.wrapping_sub(chunk_start + OP_PREFIX_MAP.len()),
                    msg.clone(),
                )
            });
        let Some(mine) = embedded_error(*is_set, body) else {
            skipped += 1;
            continue;
        };
        if mine != theirs {
            count += 1;
            let _ = writeln!(
                mismatches,
                "input:  {body:?}\nmlir:   {theirs:?}\nstrata: {mine:?}\n"
            );
        }
    }
    assert!(
        count == 0,
        "{count} diagnostic mismatches of {}:\n{mismatches}",
        errors.len()
    );
    eprintln!(
        "mlir-opt differential: {} maps/sets printed identically, {} diagnostics identical \
         ({skipped} closed early by a `>` in the body, not compared)",
        ours.len(),
        errors.len() - skipped
    );
}
