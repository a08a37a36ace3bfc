//! MLIR affine expressions, affine maps and integer sets as plain values.
//!
//! Expressions are built through [`AffineExpr::add`], [`AffineExpr::mul`],
//! [`AffineExpr::floor_div`], [`AffineExpr::ceil_div`], [`AffineExpr::modulo`],
//! [`AffineExpr::neg`] and [`AffineExpr::sub`], which apply exactly the
//! construction-time simplifications of MLIR 22's `AffineExpr.cpp`
//! (`simplifyAdd`, `simplifyMul`, `simplifyFloorDiv`, `simplifyCeilDiv`,
//! `simplifyMod`, overflow-checked constant folding, constants and symbolic
//! terms moved to the right, `e - (e floordiv q) * q` turned into `e mod q`
//! also inside a sum, and dims/symbols of a commutative leaf pair put in
//! order: dims by position, then symbols by position). Because the parser
//! builds through the same functions, a parsed map is structurally the map
//! `mlir-opt` holds, and `Display` prints it as `mlir-opt` does, inside
//! `affine_map<...>` / `affine_set<...>`.
//!
//! [`parse_affine_map`] and [`parse_integer_set`] read the text between the
//! angle brackets, with MLIR's `AffineParser` grammar and diagnostics;
//! [`parse_affine_map_prefix`] and [`parse_integer_set_prefix`] read from
//! just after the `<` in a longer text through the closing `>`, exactly as
//! MLIR's attribute parser does, and say where they stopped.
//!
//! How `mlir-opt` names and orders the `#map`/`#set` aliases it prints at the
//! top of its output (`AliasInitializer` in MLIR's `AsmPrinter.cpp`): every
//! attribute or type that gets an alias is recorded in *first-use order*
//! while the operation is walked as it will be printed (operands, attribute
//! dictionaries in their printed order, types, regions); that list is then
//! *stable*-sorted by (alias depth, types before attributes, alias name).
//! Depth is 1, or one more than the deepest aliased value it contains (so
//! those are printed first). So all `#map` come before all `#set` (name
//! order) and, within one name, keep first-use order.
//! Suffixes follow that sorted order: `#map`, `#map1`, `#map2`, ... (a name
//! ending in a digit gets `_1`, `_2`, ...). Identical maps are one attribute
//! and share one alias. The definitions are printed in that same order.

use std::fmt;

mod parser;
#[cfg(test)]
mod tests;

pub use parser::{
    parse_affine_map, parse_affine_map_prefix, parse_integer_set, parse_integer_set_prefix,
};

/// An affine expression, kept in the canonical form MLIR builds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AffineExpr {
    /// The dimension `d<N>`.
    Dim(u32),
    /// The symbol `s<N>`.
    Symbol(u32),
    /// An integer constant.
    Constant(i64),
    /// `lhs + rhs`.
    Add(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs * rhs`.
    Mul(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs mod rhs`.
    Mod(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs floordiv rhs`.
    FloorDiv(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs ceildiv rhs`.
    CeilDiv(Box<AffineExpr>, Box<AffineExpr>),
}

use AffineExpr as E;

/// Floor division of integers (the divisor is nonzero, no overflow).
fn floor_div_i64(lhs: i64, rhs: i64) -> i64 {
    let q = lhs / rhs;
    if lhs % rhs != 0 && ((lhs < 0) != (rhs < 0)) {
        q - 1
    } else {
        q
    }
}

/// Ceiling division of integers (the divisor is nonzero, no overflow).
fn ceil_div_i64(lhs: i64, rhs: i64) -> i64 {
    let q = lhs / rhs;
    if lhs % rhs != 0 && ((lhs < 0) == (rhs < 0)) {
        q + 1
    } else {
        q
    }
}

/// Non-negative remainder for a positive divisor.
fn mod_i64(lhs: i64, rhs: i64) -> i64 {
    lhs.rem_euclid(rhs)
}

fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// Orders the operands of a commutative leaf pair as MLIR 22 does when it
/// creates an add or a mul: dims by position, dims before symbols, symbols by
/// position. Other operand pairs are left as they are.
fn order_commutative(lhs: AffineExpr, rhs: AffineExpr) -> (AffineExpr, AffineExpr) {
    let swap = match (&lhs, &rhs) {
        (E::Dim(a), E::Dim(b)) | (E::Symbol(a), E::Symbol(b)) => a > b,
        (E::Symbol(_), E::Dim(_)) => true,
        _ => false,
    };
    if swap {
        (rhs, lhs)
    } else {
        (lhs, rhs)
    }
}

fn boxed(lhs: AffineExpr, rhs: AffineExpr) -> (Box<AffineExpr>, Box<AffineExpr>) {
    (Box::new(lhs), Box::new(rhs))
}

#[allow(clippy::should_implement_trait)]
impl AffineExpr {
    /// The dimension `d<position>`.
    pub fn dim(position: u32) -> Self {
        E::Dim(position)
    }

    /// The symbol `s<position>`.
    pub fn symbol(position: u32) -> Self {
        E::Symbol(position)
    }

    /// The constant `value`.
    pub fn constant(value: i64) -> Self {
        E::Constant(value)
    }

    /// The value of a constant expression.
    pub fn as_constant(&self) -> Option<i64> {
        match self {
            E::Constant(c) => Some(*c),
            _ => None,
        }
    }

    /// The operands of a binary expression.
    pub fn binary_operands(&self) -> Option<(&AffineExpr, &AffineExpr)> {
        match self {
            E::Add(l, r) | E::Mul(l, r) | E::Mod(l, r) | E::FloorDiv(l, r) | E::CeilDiv(l, r) => {
                Some((l, r))
            }
            _ => None,
        }
    }

    /// True when the expression has no dims (only symbols and constants).
    pub fn is_symbolic_or_constant(&self) -> bool {
        match self {
            E::Dim(_) => false,
            E::Symbol(_) | E::Constant(_) => true,
            E::Add(l, r) | E::Mul(l, r) | E::Mod(l, r) | E::FloorDiv(l, r) | E::CeilDiv(l, r) => {
                l.is_symbolic_or_constant() && r.is_symbolic_or_constant()
            }
        }
    }

    /// True when products, divisions and remainders only involve constants.
    pub fn is_pure_affine(&self) -> bool {
        match self {
            E::Dim(_) | E::Symbol(_) | E::Constant(_) => true,
            E::Add(l, r) => l.is_pure_affine() && r.is_pure_affine(),
            E::Mul(l, r) => {
                l.is_pure_affine()
                    && r.is_pure_affine()
                    && (matches!(**l, E::Constant(_)) || matches!(**r, E::Constant(_)))
            }
            E::Mod(l, r) | E::FloorDiv(l, r) | E::CeilDiv(l, r) => {
                l.is_pure_affine() && matches!(**r, E::Constant(_))
            }
        }
    }

    /// The largest integer known to divide the expression
    /// (MLIR's `getLargestKnownDivisor`, with its wrapping arithmetic).
    pub fn largest_known_divisor(&self) -> i64 {
        match self {
            E::Dim(_) | E::Symbol(_) => 1,
            E::Constant(c) => c.wrapping_abs(),
            E::FloorDiv(l, r) | E::CeilDiv(l, r) => match r.as_constant() {
                Some(c) if c != 0 => {
                    let lhs_div = l.largest_known_divisor();
                    if lhs_div.wrapping_rem(c) == 0 {
                        lhs_div.wrapping_div(c).wrapping_abs()
                    } else {
                        1
                    }
                }
                _ => 1,
            },
            E::Mul(l, r) => l
                .largest_known_divisor()
                .wrapping_mul(r.largest_known_divisor()),
            E::Add(l, r) | E::Mod(l, r) => gcd_u64(
                l.largest_known_divisor() as u64,
                r.largest_known_divisor() as u64,
            ) as i64,
        }
    }

    /// `self + rhs`, simplified as MLIR does.
    pub fn add(self, rhs: AffineExpr) -> AffineExpr {
        if let Some(simplified) = simplify_add(&self, &rhs) {
            return simplified;
        }
        let (l, r) = order_commutative(self, rhs);
        let (l, r) = boxed(l, r);
        E::Add(l, r)
    }

    /// `self * rhs`, simplified as MLIR does.
    pub fn mul(self, rhs: AffineExpr) -> AffineExpr {
        if let Some(simplified) = simplify_mul(&self, &rhs) {
            return simplified;
        }
        let (l, r) = order_commutative(self, rhs);
        let (l, r) = boxed(l, r);
        E::Mul(l, r)
    }

    /// `self floordiv rhs`, simplified as MLIR does.
    pub fn floor_div(self, rhs: AffineExpr) -> AffineExpr {
        if let Some(simplified) = simplify_floor_div(&self, &rhs) {
            return simplified;
        }
        let (l, r) = boxed(self, rhs);
        E::FloorDiv(l, r)
    }

    /// `self ceildiv rhs`, simplified as MLIR does.
    pub fn ceil_div(self, rhs: AffineExpr) -> AffineExpr {
        if let Some(simplified) = simplify_ceil_div(&self, &rhs) {
            return simplified;
        }
        let (l, r) = boxed(self, rhs);
        E::CeilDiv(l, r)
    }

    /// `self mod rhs`, simplified as MLIR does.
    pub fn modulo(self, rhs: AffineExpr) -> AffineExpr {
        if let Some(simplified) = simplify_mod(&self, &rhs) {
            return simplified;
        }
        let (l, r) = boxed(self, rhs);
        E::Mod(l, r)
    }

    /// `-self`, built as MLIR does: `self * -1`.
    pub fn neg(self) -> AffineExpr {
        self.mul(E::Constant(-1))
    }

    /// `self - rhs`, built as MLIR does: `self + rhs * -1`.
    pub fn sub(self, rhs: AffineExpr) -> AffineExpr {
        self.add(rhs.neg())
    }
}

/// MLIR's `simplifyAdd`: `None` when `lhs + rhs` stays as it is.
fn simplify_add(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let lhs_const = lhs.as_constant();
    let rhs_const = rhs.as_constant();
    if let (Some(a), Some(b)) = (lhs_const, rhs_const) {
        return a.checked_add(b).map(E::Constant);
    }
    // Constants, then symbolic terms, go to the right.
    if lhs_const.is_some() || (lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant()) {
        return Some(rhs.clone().add(lhs.clone()));
    }
    if rhs_const == Some(0) {
        return Some(lhs.clone());
    }
    // (e + c1) + c2 -> e + (c1 + c2).
    if let (E::Add(ll, lr), Some(c2)) = (lhs, rhs_const) {
        if let Some(c1) = lr.as_constant() {
            return Some((**ll).clone().add(E::Constant(c1.wrapping_add(c2))));
        }
    }
    // c1 * e + c2 * e -> (c1 + c2) * e.
    let (c1, first) = split_constant_factor(lhs);
    let (c2, second) = split_constant_factor(rhs);
    if first == second {
        return Some(first.clone().mul(E::Constant(c1.wrapping_add(c2))));
    }
    // (e1 + c) + e2 -> (e1 + e2) + c.
    if let E::Add(ll, lr) = lhs {
        if lr.as_constant().is_some() {
            return Some((**ll).clone().add(rhs.clone()).add((**lr).clone()));
        }
    }
    // e + ((e floordiv q) * q) * -1 -> e mod q.
    let (lrhs, rrhs) = rhs.binary_operands()?;
    if rrhs.as_constant() == Some(-1) {
        if let E::Mul(llrhs, rlrhs) = lrhs {
            let E::FloorDiv(dividend, divisor) = &**llrhs else {
                return None;
            };
            if divisor == rlrhs && &**dividend == lhs {
                return Some(lhs.clone().modulo((**rlrhs).clone()));
            }
        }
    }
    // e + (e floordiv c) * -c -> e mod c, for a positive constant c.
    let E::Mul(..) = rhs else {
        return None;
    };
    let E::FloorDiv(llrhs, rlrhs) = lrhs else {
        return None;
    };
    let positive = rlrhs.as_constant().is_some_and(|c| c > 0);
    if positive && &**llrhs == lhs && **rlrhs == rrhs.clone().neg() {
        return Some(lhs.clone().modulo((**rlrhs).clone()));
    }
    // (a + b) + (e floordiv q) * k -> a + simplified(b + (e floordiv q) * k),
    // when that inner sum simplifies (e.g. to `b mod q`).
    if let E::Add(a, b) = lhs {
        if let Some(simplified) = simplify_add(b, rhs) {
            return Some((**a).clone().add(simplified));
        }
    }
    None
}

/// `e * c` as `(c, e)`, anything else as `(1, expr)`.
fn split_constant_factor(expr: &AffineExpr) -> (i64, &AffineExpr) {
    if let E::Mul(l, r) = expr {
        if let Some(c) = r.as_constant() {
            return (c, l);
        }
    }
    (1, expr)
}

/// MLIR's `simplifyMul`: `None` when `lhs * rhs` stays as it is.
fn simplify_mul(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let lhs_const = lhs.as_constant();
    let rhs_const = rhs.as_constant();
    if let (Some(a), Some(b)) = (lhs_const, rhs_const) {
        return a.checked_mul(b).map(E::Constant);
    }
    let lhs_symbolic = lhs.is_symbolic_or_constant();
    let rhs_symbolic = rhs.is_symbolic_or_constant();
    if !lhs_symbolic && !rhs_symbolic {
        // Not affine (MLIR asserts here); keep the product as built.
        return None;
    }
    // The constant, else the symbolic operand, goes to the right.
    if !rhs_symbolic || lhs_const.is_some() {
        return Some(rhs.clone().mul(lhs.clone()));
    }
    match rhs_const {
        Some(1) => return Some(lhs.clone()),
        Some(0) => return Some(E::Constant(0)),
        _ => {}
    }
    if let E::Mul(ll, lr) = lhs {
        if let Some(c1) = lr.as_constant() {
            // (e * c1) * c2 -> e * (c1 * c2).
            if let Some(c2) = rhs_const {
                return Some((**ll).clone().mul(E::Constant(c1.wrapping_mul(c2))));
            }
            // (e * c) * f -> (e * f) * c.
            return Some((**ll).clone().mul(rhs.clone()).mul(E::Constant(c1)));
        }
    }
    None
}

/// MLIR's `simplifyFloorDiv`: `None` when `lhs floordiv rhs` stays.
fn simplify_floor_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let divisor = rhs.as_constant().filter(|&c| c != 0)?;
    if let Some(dividend) = lhs.as_constant() {
        if dividend == i64::MIN && divisor == -1 {
            return None;
        }
        return Some(E::Constant(floor_div_i64(dividend, divisor)));
    }
    if divisor == 1 {
        return Some(lhs.clone());
    }
    match lhs {
        E::Mul(ll, lr) => {
            let c = lr.as_constant()?;
            if c.wrapping_rem(divisor) == 0 {
                return Some((**ll).clone().mul(E::Constant(c.wrapping_div(divisor))));
            }
            None
        }
        E::Add(ll, lr) => {
            let llhs_div = ll.largest_known_divisor();
            let lrhs_div = lr.largest_known_divisor();
            if llhs_div.wrapping_rem(divisor) == 0 || lrhs_div.wrapping_rem(divisor) == 0 {
                let c = E::Constant(divisor);
                return Some(
                    (**ll)
                        .clone()
                        .floor_div(c.clone())
                        .add((**lr).clone().floor_div(c)),
                );
            }
            None
        }
        _ => None,
    }
}

/// MLIR's `simplifyCeilDiv`: `None` when `lhs ceildiv rhs` stays.
fn simplify_ceil_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let divisor = rhs.as_constant().filter(|&c| c != 0)?;
    if let Some(dividend) = lhs.as_constant() {
        if dividend == i64::MIN && divisor == -1 {
            return None;
        }
        return Some(E::Constant(ceil_div_i64(dividend, divisor)));
    }
    if divisor == 1 {
        return Some(lhs.clone());
    }
    if let E::Mul(ll, lr) = lhs {
        let c = lr.as_constant()?;
        if c.wrapping_rem(divisor) == 0 {
            return Some((**ll).clone().mul(E::Constant(c.wrapping_div(divisor))));
        }
    }
    None
}

/// MLIR's `simplifyMod`: `None` when `lhs mod rhs` stays.
fn simplify_mod(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    // A remainder by zero or a negative number is left as it is.
    let divisor = rhs.as_constant().filter(|&c| c >= 1)?;
    if let Some(dividend) = lhs.as_constant() {
        return Some(E::Constant(mod_i64(dividend, divisor)));
    }
    if lhs.largest_known_divisor().wrapping_rem(divisor) == 0 {
        return Some(E::Constant(0));
    }
    match lhs {
        E::Add(ll, lr) => {
            if ll.largest_known_divisor().wrapping_rem(divisor) == 0 {
                return Some((**lr).clone().modulo(E::Constant(divisor)));
            }
            if lr.largest_known_divisor().wrapping_rem(divisor) == 0 {
                return Some((**ll).clone().modulo(E::Constant(divisor)));
            }
            None
        }
        E::Mod(ll, lr) => {
            let inner = lr.as_constant()?;
            if inner >= 1 && mod_i64(inner, divisor) == 0 {
                return Some((**ll).clone().modulo(E::Constant(divisor)));
            }
            None
        }
        _ => None,
    }
}

impl std::ops::Add for AffineExpr {
    type Output = AffineExpr;
    fn add(self, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::add(self, rhs)
    }
}

impl std::ops::Sub for AffineExpr {
    type Output = AffineExpr;
    fn sub(self, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::sub(self, rhs)
    }
}

impl std::ops::Mul for AffineExpr {
    type Output = AffineExpr;
    fn mul(self, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::mul(self, rhs)
    }
}

impl std::ops::Rem for AffineExpr {
    type Output = AffineExpr;
    fn rem(self, rhs: AffineExpr) -> AffineExpr {
        self.modulo(rhs)
    }
}

impl std::ops::Neg for AffineExpr {
    type Output = AffineExpr;
    fn neg(self) -> AffineExpr {
        AffineExpr::neg(self)
    }
}

/// Writes `expr` as MLIR's `printAffineExprInternal` does; `strong` is the
/// enclosing binding strength (parenthesize a binary expression).
fn write_expr(f: &mut fmt::Formatter<'_>, expr: &AffineExpr, strong: bool) -> fmt::Result {
    let (lhs, rhs, spelling) = match expr {
        E::Dim(p) => return write!(f, "d{p}"),
        E::Symbol(p) => return write!(f, "s{p}"),
        E::Constant(c) => return write!(f, "{c}"),
        E::Add(..) => return write_sum(f, expr, strong),
        E::Mul(l, r) => (l, r, " * "),
        E::FloorDiv(l, r) => (l, r, " floordiv "),
        E::CeilDiv(l, r) => (l, r, " ceildiv "),
        E::Mod(l, r) => (l, r, " mod "),
    };
    if strong {
        f.write_str("(")?;
    }
    if matches!(expr, E::Mul(..)) && rhs.as_constant() == Some(-1) {
        // `e * -1` prints as `-e`.
        f.write_str("-")?;
        write_expr(f, lhs, true)?;
    } else {
        write_expr(f, lhs, true)?;
        f.write_str(spelling)?;
        write_expr(f, rhs, true)?;
    }
    if strong {
        f.write_str(")")?;
    }
    Ok(())
}

/// Writes a sum. The left operand of `+` always prints with weak binding, so
/// a left-nested chain prints as its leftmost term followed by each
/// right operand in turn; this walks the chain without recursing.
fn write_sum(f: &mut fmt::Formatter<'_>, expr: &AffineExpr, strong: bool) -> fmt::Result {
    if strong {
        f.write_str("(")?;
    }
    let mut right_operands = Vec::new();
    let mut leftmost = expr;
    while let E::Add(l, r) = leftmost {
        right_operands.push(&**r);
        leftmost = l;
    }
    write_expr(f, leftmost, false)?;
    for rhs in right_operands.into_iter().rev() {
        write_sum_operand(f, rhs)?;
    }
    if strong {
        f.write_str(")")?;
    }
    Ok(())
}

/// Writes ` + rhs`, or one of MLIR's "pretty" subtraction forms.
fn write_sum_operand(f: &mut fmt::Formatter<'_>, rhs: &AffineExpr) -> fmt::Result {
    if let E::Mul(rl, rr) = rhs {
        match rr.as_constant() {
            // `a + b * -1` prints as `a - b`.
            Some(-1) => {
                f.write_str(" - ")?;
                return write_expr(f, rl, matches!(**rl, E::Add(..)));
            }
            // `a + b * -c` prints as `a - b * c`.
            Some(c) if c < -1 => {
                f.write_str(" - ")?;
                write_expr(f, rl, true)?;
                return write!(f, " * {}", c.wrapping_neg());
            }
            _ => {}
        }
    }
    match rhs.as_constant() {
        // `a + -c` prints as `a - c`.
        Some(c) if c < 0 => write!(f, " - {}", c.wrapping_neg()),
        _ => {
            f.write_str(" + ")?;
            write_expr(f, rhs, false)
        }
    }
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self, false)
    }
}

/// An affine map `(dims)[symbols] -> (results)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AffineMap {
    /// Number of dimensions.
    pub num_dims: u32,
    /// Number of symbols.
    pub num_symbols: u32,
    /// The result expressions.
    pub results: Vec<AffineExpr>,
}

impl AffineMap {
    /// A map with the given dims, symbols and results.
    pub fn new(num_dims: u32, num_symbols: u32, results: Vec<AffineExpr>) -> Self {
        AffineMap {
            num_dims,
            num_symbols,
            results,
        }
    }

    /// The identity map on `num_dims` dimensions.
    pub fn identity(num_dims: u32) -> Self {
        AffineMap::new(num_dims, 0, (0..num_dims).map(E::Dim).collect())
    }

    /// True when result `i` is `d<i>` for every dim and there are as many
    /// results as dims (symbols are not considered, as in MLIR).
    pub fn is_identity(&self) -> bool {
        self.results.len() == self.num_dims as usize
            && self
                .results
                .iter()
                .enumerate()
                .all(|(i, r)| matches!(r, E::Dim(p) if *p as usize == i))
    }
}

/// Writes `(d0, d1)[s0]` (the bracket list only when there are symbols).
fn write_dims_and_symbols(f: &mut fmt::Formatter<'_>, dims: u32, symbols: u32) -> fmt::Result {
    f.write_str("(")?;
    for i in 0..dims {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "d{i}")?;
    }
    f.write_str(")")?;
    if symbols > 0 {
        f.write_str("[")?;
        for i in 0..symbols {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "s{i}")?;
        }
        f.write_str("]")?;
    }
    Ok(())
}

impl fmt::Display for AffineMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_dims_and_symbols(f, self.num_dims, self.num_symbols)?;
        f.write_str(" -> (")?;
        for (i, r) in self.results.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_expr(f, r, false)?;
        }
        f.write_str(")")
    }
}

/// An integer set `(dims)[symbols] : (constraints)`: each constraint is
/// `expr == 0` when its flag is set, else `expr >= 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntegerSet {
    /// Number of dimensions.
    pub num_dims: u32,
    /// Number of symbols.
    pub num_symbols: u32,
    /// The constraint expressions.
    pub constraints: Vec<AffineExpr>,
    /// Per constraint: equality (`== 0`) rather than inequality (`>= 0`).
    pub eq_flags: Vec<bool>,
}

impl IntegerSet {
    /// A set with the given dims, symbols, constraints and equality flags.
    pub fn new(
        num_dims: u32,
        num_symbols: u32,
        constraints: Vec<AffineExpr>,
        eq_flags: Vec<bool>,
    ) -> Self {
        IntegerSet {
            num_dims,
            num_symbols,
            constraints,
            eq_flags,
        }
    }

    /// MLIR's canonical empty set, `1 == 0`.
    pub fn empty(num_dims: u32, num_symbols: u32) -> Self {
        IntegerSet::new(num_dims, num_symbols, vec![E::Constant(1)], vec![true])
    }

    /// True for MLIR's canonical empty set (the single constraint `1 == 0`).
    pub fn is_empty_integer_set(&self) -> bool {
        self.constraints == [E::Constant(1)] && self.eq_flags == [true]
    }
}

impl fmt::Display for IntegerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_dims_and_symbols(f, self.num_dims, self.num_symbols)?;
        f.write_str(" : (")?;
        for (i, c) in self.constraints.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_expr(f, c, false)?;
            let is_eq = self.eq_flags.get(i).copied().unwrap_or(false);
            f.write_str(if is_eq { " == 0" } else { " >= 0" })?;
        }
        f.write_str(")")
    }
}

/// A parse error: a byte offset into the parsed text and MLIR's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineParseError {
    /// Byte offset in the parsed text where MLIR would report the error.
    pub offset: usize,
    /// The diagnostic, worded as MLIR's `AffineParser` words it.
    pub message: String,
}

impl fmt::Display for AffineParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for AffineParseError {}
