//! Vectorizable `f32` approximations of `exp`, `erf` and `tanh`, emitted
//! as plain LLVM arithmetic instead of calls of the C library (which the
//! loop vectorizer cannot widen). Their errors are a few ulp, far inside the
//! tolerances that compiled plans are checked at against the interpreter.
//!
//! - `exp`: Cephes' range reduction `x = n ln 2 + r` (|r| <= ln 2 / 2), a
//!   degree-6 polynomial for `e^r`, and `2^n` built in the exponent bits;
//!   overflow gives `inf`, underflow `0`, NaN stays NaN.
//! - `erf` and `tanh`: Eigen's rational approximations (`generic_fast_erf`,
//!   `generic_fast_tanh`) on the clamped argument. Outside the clamp, `tanh`
//!   is `1 - 2 / (e^{2|x|} + 1)` with its sign (Eigen's clamp stops at
//!   0.99999976, where the exact value keeps rising to 1), and `erf` is
//!   `±1` from 3.9192059 on, where the exact value rounds to 1 in `f32`;
//!   both are exactly ±1 at ±inf, keep ±0 and NaN.

use inkwell::builder::Builder;
use inkwell::context::Context as LlvmContext;
use inkwell::module::Module;
use inkwell::values::{BasicMetadataValueEnum, FloatValue};
use inkwell::FloatPredicate;

use super::HostError;

type R<T> = Result<T, HostError>;

pub(crate) struct FastMath<'a, 'ctx> {
    pub llvm: &'ctx LlvmContext,
    pub module: &'a Module<'ctx>,
    pub builder: &'a Builder<'ctx>,
}

impl<'a, 'ctx> FastMath<'a, 'ctx> {
    fn c(&self, v: f64) -> FloatValue<'ctx> {
        self.llvm.f32_type().const_float(v)
    }

    fn call(&self, name: &str, args: &[FloatValue<'ctx>]) -> R<FloatValue<'ctx>> {
        let f32 = self.llvm.f32_type();
        let decl = inkwell::intrinsics::Intrinsic::find(name)
            .and_then(|i| i.get_declaration(self.module, &[f32.into()]))
            .ok_or_else(|| {
                HostError::Llvm(crate::llvm::LlvmError(format!("no intrinsic {name}")))
            })?;
        let args: Vec<BasicMetadataValueEnum<'ctx>> = args.iter().map(|&a| a.into()).collect();
        let call = self.builder.build_call(decl, &args, "")?;
        super::scalar::returned(call.try_as_basic_value())
            .map(|v| v.into_float_value())
            .ok_or_else(|| {
                HostError::Llvm(crate::llvm::LlvmError(format!("{name} returned nothing")))
            })
    }

    /// `c[0] + x (c[1] + x (c[2] + ...))` with fused multiply-adds.
    fn horner(&self, x: FloatValue<'ctx>, coefficients: &[f64]) -> R<FloatValue<'ctx>> {
        let mut acc = self.c(*coefficients.last().unwrap_or(&0.0));
        for &k in coefficients.iter().rev().skip(1) {
            acc = self.call("llvm.fmuladd", &[acc, x, self.c(k)])?;
        }
        Ok(acc)
    }

    fn clamp(&self, x: FloatValue<'ctx>, lo: f64, hi: f64) -> R<FloatValue<'ctx>> {
        let x = self.call("llvm.maxnum", &[x, self.c(lo)])?;
        self.call("llvm.minnum", &[x, self.c(hi)])
    }

    /// `nan(x) ? x : v`: the approximations keep NaN inputs NaN.
    fn keep_nan(&self, x: FloatValue<'ctx>, v: FloatValue<'ctx>) -> R<FloatValue<'ctx>> {
        let b = self.builder;
        let nan = b.build_float_compare(FloatPredicate::UNO, x, x, "")?;
        Ok(b.build_select(nan, x, v, "")?.into_float_value())
    }

    pub fn exp(&self, x: FloatValue<'ctx>) -> R<FloatValue<'ctx>> {
        let b = self.builder;
        // e^x overflows above 88.72 and is 0 below -103.97 (denormals down to there).
        let xc = self.clamp(x, -103.0, 88.72283935546875)?;
        let n = self.call(
            "llvm.rint",
            &[b.build_float_mul(xc, self.c(std::f64::consts::LOG2_E), "")?],
        )?;
        // r = x - n ln2, in two steps for precision (Cephes' C1, C2).
        let r = self.call("llvm.fmuladd", &[n, self.c(-0.693359375), xc])?;
        let r = self.call("llvm.fmuladd", &[n, self.c(2.12194440e-4), r])?;
        // e^r = 1 + r + r^2 P(r).
        let p = self.horner(
            r,
            &[
                5.0000001201e-1,
                1.6666665459e-1,
                4.1665795894e-2,
                8.3334519073e-3,
                1.3981999507e-3,
                1.9875691500e-4,
            ],
        )?;
        let r2 = b.build_float_mul(r, r, "")?;
        let e = self.call("llvm.fmuladd", &[p, r2, r])?;
        let e = b.build_float_add(e, self.c(1.0), "")?;
        // 2^n in two halves (n may reach -150, below the normal exponents).
        let i32t = self.llvm.i32_type();
        let ni = b.build_float_to_signed_int(n, i32t, "")?;
        let half = b.build_right_shift(ni, i32t.const_int(1, false), true, "")?;
        let rest = b.build_int_sub(ni, half, "")?;
        let pow2 = |k: inkwell::values::IntValue<'ctx>| -> R<FloatValue<'ctx>> {
            let biased = b.build_int_add(k, i32t.const_int(127, false), "")?;
            let bits = b.build_left_shift(biased, i32t.const_int(23, false), "")?;
            Ok(b.build_bit_cast(bits, self.llvm.f32_type(), "")?
                .into_float_value())
        };
        let v = b.build_float_mul(e, pow2(half)?, "")?;
        let v = b.build_float_mul(v, pow2(rest)?, "")?;
        // Above the clamp the result is inf; below e^-103.97 (half the
        // smallest denormal) it rounds to 0.
        let big = b.build_float_compare(FloatPredicate::OGT, x, self.c(88.72283935546875), "")?;
        let v = b
            .build_select(big, self.c(f64::INFINITY), v, "")?
            .into_float_value();
        let small = b.build_float_compare(FloatPredicate::OLT, x, self.c(-103.972_084), "")?;
        let v = b
            .build_select(small, self.c(0.0), v, "")?
            .into_float_value();
        self.keep_nan(x, v)
    }

    pub fn erf(&self, x: FloatValue<'ctx>) -> R<FloatValue<'ctx>> {
        let b = self.builder;
        let xc = self.clamp(x, -4.0, 4.0)?;
        let x2 = b.build_float_mul(xc, xc, "")?;
        let p = self.horner(
            x2,
            &[
                -1.60960333262415e-02,
                -2.95459980854025e-03,
                -7.34990630326855e-04,
                -5.69250639462346e-05,
                -2.10102402082508e-06,
                2.77068142495902e-08,
                -2.72614225801306e-10,
            ],
        )?;
        let p = b.build_float_mul(xc, p, "")?;
        let q = self.horner(
            x2,
            &[
                -1.42647390514189e-02,
                -7.37332916720468e-03,
                -1.68282697438203e-03,
                -2.13374055278905e-04,
                -1.45660718464996e-05,
            ],
        )?;
        let v = b.build_float_div(p, q, "")?;
        // Tiny arguments: erf(x) = 2/√π x (the next term is below half an
        // ulp), with the constant in two parts so that the product rounds
        // once, as eager's f64 value does (±0 and denormals included).
        let ax = self.call("llvm.fabs", &[x])?;
        let hi = 1.128_379_225_730_896;
        let lo = std::f64::consts::FRAC_2_SQRT_PI - hi;
        let scaled = b.build_float_mul(x, self.c(hi), "")?;
        let scaled = self.call("llvm.fmuladd", &[x, self.c(lo), scaled])?;
        // ±0 as it is (the two-part product would give +0 for -0).
        let zero = b.build_float_compare(FloatPredicate::OEQ, x, self.c(0.0), "")?;
        let scaled = b.build_select(zero, x, scaled, "")?.into_float_value();
        let tiny = b.build_float_compare(FloatPredicate::OLT, ax, self.c(1e-4), "")?;
        let v = b.build_select(tiny, scaled, v, "")?.into_float_value();
        // From 3.9192059 on, erf(x) rounds to 1 in f32.
        let one = self.call("llvm.copysign", &[self.c(1.0), x])?;
        let big =
            b.build_float_compare(FloatPredicate::OGE, ax, self.c(3.919_205_904_006_958), "")?;
        let v = b.build_select(big, one, v, "")?.into_float_value();
        self.keep_nan(x, v)
    }

    pub fn tanh(&self, x: FloatValue<'ctx>) -> R<FloatValue<'ctx>> {
        let b = self.builder;
        let xc = self.clamp(x, -7.905_311_107_635_498, 7.905_311_107_635_498)?;
        let x2 = b.build_float_mul(xc, xc, "")?;
        let p = self.horner(
            x2,
            &[
                4.89352455891786e-03,
                6.37261928875436e-04,
                1.48572235717979e-05,
                5.12229709037114e-08,
                -8.60467152213735e-11,
                2.00018790482477e-13,
                -2.76076847742355e-16,
            ],
        )?;
        let p = b.build_float_mul(xc, p, "")?;
        let q = self.horner(
            x2,
            &[
                4.89352518554385e-03,
                2.26843463243900e-03,
                1.18534705686654e-04,
                1.19825839466702e-06,
            ],
        )?;
        let v = b.build_float_div(p, q, "")?;
        let ax = self.call("llvm.fabs", &[x])?;
        // Past the clamp: 1 - 2 / (e^{2|x|} + 1), signed (exactly 1 once
        // e^{2|x|} overflows).
        let e = self.exp(b.build_float_mul(ax, self.c(2.0), "")?)?;
        let d = b.build_float_div(self.c(2.0), b.build_float_add(e, self.c(1.0), "")?, "")?;
        let far = self.call(
            "llvm.copysign",
            &[b.build_float_sub(self.c(1.0), d, "")?, x],
        )?;
        let beyond =
            b.build_float_compare(FloatPredicate::OGT, ax, self.c(7.905_311_107_635_498), "")?;
        let v = b.build_select(beyond, far, v, "")?.into_float_value();
        // Tiny arguments: tanh(x) = x (keeps -0 and the last bits).
        let tiny = b.build_float_compare(FloatPredicate::OLT, ax, self.c(0.0004), "")?;
        let v = b.build_select(tiny, x, v, "")?.into_float_value();
        self.keep_nan(x, v)
    }
}
