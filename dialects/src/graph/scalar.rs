//! The scalar semantics of float elementwise ops, declared on each op.

/// The scalar function of a float elementwise `graph` op, as an op
/// interface declared with the op (`interfaces(FloatScalarFn(f64::acos))`):
/// the op applies it to every element, computed in `f64` and rounded to the
/// element type. The reference interpreter evaluates every op that declares
/// one, with no entry of its own; later lowerings can take it as the op's
/// scalar body.
#[derive(Clone, Copy)]
pub struct FloatScalarFn(pub fn(f64) -> f64);
