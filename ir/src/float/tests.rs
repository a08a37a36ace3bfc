use super::*;
use std::path::PathBuf;
use std::process::Command;

/// xorshift64* — deterministic test data without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bits(&mut self, width: u32) -> u128 {
        ((u128::from(self.next()) << 64) | u128::from(self.next())) & low_mask(width)
    }
}

fn hex(kind: FloatKind, lit: &str) -> String {
    let bits = u128::from_str_radix(lit.trim_start_matches("0x"), 16).expect("hex literal");
    format_float(kind, bits)
}

fn lit(kind: FloatKind, lit: &str) -> String {
    format_float(kind, parse_mlir_float_literal(kind, lit).expect("literal"))
}

#[test]
fn names_round_trip() {
    assert_eq!(FloatKind::all().len(), 18);
    for &k in FloatKind::all() {
        assert_eq!(FloatKind::from_mlir_name(k.mlir_name()), Some(k));
    }
    assert_eq!(FloatKind::from_mlir_name("f8E4M3fn"), None);
    assert_eq!(FloatKind::F80.bit_width(), 80);
    assert_eq!(FloatKind::TF32.bit_width(), 19);
    assert_eq!(FloatKind::F4E2M1FN.bit_width(), 4);
}

/// Expected strings captured from `mlir-opt` (MLIR 22): hex inputs are bit
/// patterns, decimal inputs go through MLIR's literal parsing.
#[test]
fn matches_recorded_mlir_opt_output() {
    use FloatKind::*;
    let cases = [
        (F32, "0.1", "1.000000e-01"),
        (F32, "1.0", "1.000000e+00"),
        (F32, "-1.0", "-1.000000e+00"),
        (F32, "0.0", "0.000000e+00"),
        (F32, "-0.0", "-0.000000e+00"),
        (F32, "3.14159265", "3.14159274"),
        (F32, "1.5e10", "1.500000e+10"),
        (F32, "16777216.0", "0x4B800000"),
        (F32, "16777217.0", "0x4B800000"),
        (F32, "123456.789", "123456.789"),
        (F32, "1.0e-45", "1.401300e-45"),
        (F32, "3.4028235e38", "3.40282347E+38"),
        (F32, "1.0e39", "0x7F800000"),
        (F32, "0x7FC00000", "0x7FC00000"),
        (F32, "0xFF800000", "0xFF800000"),
        (F32, "0x7F800000", "0x7F800000"),
        (F32, "0x1", "1.401300e-45"),
        (F32, "0x7F7FFFFF", "3.40282347E+38"),
        (F32, "0x800000", "1.17549435E-38"),
        (F32, "0x80000001", "-1.401300e-45"),
        (F32, "0x7FA00000", "0x7FA00000"),
        (F32, "0xFFC00001", "0xFFC00001"),
        (F32, "0x3DCCCCCD", "1.000000e-01"),
        (F32, "0x4B3C614E", "0x4B3C614E"),
        (F32, "0x4CBEBC20", "1.000000e+08"),
        (F32, "0x3F800001", "1.00000012"),
        (F32, "0x42F6E979", "1.234560e+02"),
        (F64, "0.1", "1.000000e-01"),
        (F64, "1.23456789", "1.2345678899999999"),
        (F64, "123456789.0", "0x419D6F3454000000"),
        (F64, "1.0e100", "1.000000e+100"),
        (F64, "2.5", "2.500000e+00"),
        (F64, "0.3", "3.000000e-01"),
        (F64, "1.0e-320", "9.999880e-321"),
        (F64, "0x7FF8000000000000", "0x7FF8000000000000"),
        (F64, "0xFFF0000000000000", "0xFFF0000000000000"),
        (F64, "0x1", "4.940660e-324"),
        (F64, "0x7FEFFFFFFFFFFFFF", "1.7976931348623157E+308"),
        (F64, "0x3FB999999999999A", "1.000000e-01"),
        (F64, "4503599627370497.0", "0x4330000000000001"),
        (F64, "0.000123", "1.230000e-04"),
        (F64, "100.0", "1.000000e+02"),
        (F64, "1000000.0", "1.000000e+06"),
        (F64, "10000000.0", "1.000000e+07"),
        (F64, "-0.5", "-5.000000e-01"),
        (F64, "0x8000000000000000", "-0.000000e+00"),
        (F16, "65504.0", "6.550400e+04"),
        (F16, "0x7E00", "0x7E00"),
        (F16, "0x7C00", "0x7C00"),
        (F16, "0xFC00", "0xFC00"),
        (F16, "0x1", "5.960460e-08"),
        (F16, "0x3555", "3.332520e-01"),
        (F16, "1.0e-7", "1.192090e-07"),
        (F16, "0.1", "9.997550e-02"),
        (F16, "2049.0", "2.048000e+03"),
        (F16, "0x400", "6.103520e-05"),
        (F16, "0x7BFF", "6.550400e+04"),
        (F16, "1000.0", "1.000000e+03"),
        (F16, "0x8001", "-5.960460e-08"),
        (F16, "65520.0", "0x7C00"),
        (F16, "3.0e-8", "5.960460e-08"),
        (F16, "0x7D00", "0x7D00"),
        (BF16, "0.1", "1.000980e-01"),
        (BF16, "3.140625", "3.140630e+00"),
        (BF16, "1.0e38", "9.969200e+37"),
        (BF16, "0x7FC0", "0x7FC0"),
        (BF16, "0xFF80", "0xFF80"),
        (BF16, "0x1", "9.183550e-41"),
        (BF16, "0x4049", "3.140630e+00"),
        (BF16, "256.5", "2.560000e+02"),
        (BF16, "0x3F81", "1.007810e+00"),
        (BF16, "0x7F7F", "3.389530e+38"),
        (BF16, "-2.0", "-2.000000e+00"),
        (TF32, "0.1", "9.997550e-02"),
        (TF32, "1.0e30", "1.000260e+30"),
        (TF32, "0x3FE00", "0x3FE00"),
        (TF32, "0x1", "1.147940e-41"),
        (TF32, "3.0", "3.000000e+00"),
        (TF32, "0x7FFFF", "0x7FFFF"),
        (F80, "0.1", "0.100000000000000005551"),
        (F80, "1.0", "1.000000e+00"),
        (F80, "2.5", "2.500000e+00"),
        (F80, "1.0e300", "1.0000000000000000525E+300"),
        (F80, "0x7FFFC000000000000000", "0x7FFFC000000000000000"),
        (F80, "0xFFFF8000000000000000", "0xFFFF8000000000000000"),
        (F80, "0x1", "3.645200e-4951"),
        (F80, "0x18000000000000000", "3.36210314311209350626E-4932"),
        (F80, "0x40000000000000000001", "0x7FFF0000000000000001"),
        (F80, "0x8000000000000001", "3.36210314311209350663E-4932"),
        (F80, "0x3FFF8000000000000001", "1.00000000000000000011"),
        (F128, "0.1", "0.100000000000000005551115123125782702"),
        (F128, "1.0", "1.000000e+00"),
        (
            F128,
            "3.0e300",
            "3.00000000000000015751428076561326075E+300",
        ),
        (
            F128,
            "0x7FFF8000000000000000000000000000",
            "0x7FFF8000000000000000000000000000",
        ),
        (F128, "0x1", "6.475180e-4966"),
        (
            F128,
            "0x3FFF0000000000000000000000000001",
            "1.00000000000000000000000000000000019",
        ),
        (
            F128,
            "0xFFFF0000000000000000000000000000",
            "0xFFFF0000000000000000000000000000",
        ),
        (F8E5M2, "0x7C", "0x7C"),
        (F8E5M2, "0x7E", "0x7E"),
        (F8E5M2, "0x1", "1.525880e-05"),
        (F8E5M2, "57344.0", "5.734400e+04"),
        (F8E5M2, "61440.0", "0x7C"),
        (F8E5M2, "0.1", "9.375000e-02"),
        (F8E5M2, "1.0e6", "0x7C"),
        (F8E5M2, "-3.5", "-3.500000e+00"),
        (F8E4M3, "240.0", "2.400000e+02"),
        (F8E4M3, "0x7F", "0x7F"),
        (F8E4M3, "0x78", "0x78"),
        (F8E4M3, "0x1", "1.953130e-03"),
        (F8E4M3, "0.3", "3.125000e-01"),
        (F8E4M3, "248.0", "0x78"),
        (F8E4M3FN, "448.0", "4.480000e+02"),
        (F8E4M3FN, "464.0", "4.480000e+02"),
        (F8E4M3FN, "470.0", "0x7F"),
        (F8E4M3FN, "0x7F", "0x7F"),
        (F8E4M3FN, "0xFF", "0xFF"),
        (F8E4M3FN, "0x1", "1.953130e-03"),
        (F8E4M3FN, "0.1", "1.015630e-01"),
        (F8E4M3FN, "-0.0", "-0.000000e+00"),
        (F8E4M3FN, "1.0e6", "0x7F"),
        (F8E5M2FNUZ, "0x80", "0x80"),
        (F8E5M2FNUZ, "0x0", "0.000000e+00"),
        (F8E5M2FNUZ, "0x7F", "5.734400e+04"),
        (F8E5M2FNUZ, "57344.0", "5.734400e+04"),
        (F8E5M2FNUZ, "1.0e6", "0x80"),
        (F8E5M2FNUZ, "-0.0", "0.000000e+00"),
        (F8E5M2FNUZ, "0.1", "9.375000e-02"),
        (F8E5M2FNUZ, "0x1", "7.629390e-06"),
        (F8E4M3FNUZ, "0x80", "0x80"),
        (F8E4M3FNUZ, "0x7F", "2.400000e+02"),
        (F8E4M3FNUZ, "0x1", "9.765620e-04"),
        (F8E4M3FNUZ, "240.0", "2.400000e+02"),
        (F8E4M3FNUZ, "1000.0", "0x80"),
        (F8E4M3FNUZ, "0.1", "1.015630e-01"),
        (F8E4M3B11FNUZ, "0x80", "0x80"),
        (F8E4M3B11FNUZ, "0x7F", "3.000000e+01"),
        (F8E4M3B11FNUZ, "0x1", "1.220700e-04"),
        (F8E4M3B11FNUZ, "30.0", "3.000000e+01"),
        (F8E4M3B11FNUZ, "0.1", "1.015630e-01"),
        (F8E4M3B11FNUZ, "-1.0e-9", "0.000000e+00"),
        (F8E3M4, "0x70", "0x70"),
        (F8E3M4, "0x7F", "0x7F"),
        (F8E3M4, "0x1", "1.562500e-02"),
        (F8E3M4, "15.5", "1.550000e+01"),
        (F8E3M4, "0.1", "9.375000e-02"),
        (F4E2M1FN, "0x1", "5.000000e-01"),
        (F4E2M1FN, "0x7", "6.000000e+00"),
        (F4E2M1FN, "0x8", "-0.000000e+00"),
        (F4E2M1FN, "0xF", "-6.000000e+00"),
        (F4E2M1FN, "2.5", "2.000000e+00"),
        (F4E2M1FN, "100.0", "6.000000e+00"),
        (F4E2M1FN, "0.25", "0.000000e+00"),
        (F4E2M1FN, "0.75", "1.000000e+00"),
        (F4E2M1FN, "-5.0", "-4.000000e+00"),
        (F6E2M3FN, "0x1", "1.250000e-01"),
        (F6E2M3FN, "0x1F", "7.500000e+00"),
        (F6E2M3FN, "0x3F", "-7.500000e+00"),
        (F6E2M3FN, "7.5", "7.500000e+00"),
        (F6E2M3FN, "100.0", "7.500000e+00"),
        (F6E2M3FN, "0.1", "1.250000e-01"),
        (F6E3M2FN, "0x1", "6.250000e-02"),
        (F6E3M2FN, "0x1F", "2.800000e+01"),
        (F6E3M2FN, "0x3F", "-2.800000e+01"),
        (F6E3M2FN, "28.0", "2.800000e+01"),
        (F6E3M2FN, "100.0", "2.800000e+01"),
        (F6E3M2FN, "0.1", "1.250000e-01"),
        (F8E8M0FNU, "0x0", "5.877470e-39"),
        (F8E8M0FNU, "0x7F", "1.000000e+00"),
        (F8E8M0FNU, "0xFE", "1.701410e+38"),
        (F8E8M0FNU, "0xFF", "0xFF"),
        (F8E8M0FNU, "3.0", "4.000000e+00"),
        (F8E8M0FNU, "1.0", "1.000000e+00"),
        (F8E8M0FNU, "0.0", "5.877470e-39"),
        (F8E8M0FNU, "1.0e39", "0xFF"),
        (F8E8M0FNU, "1.0e-39", "5.877470e-39"),
        (F8E8M0FNU, "6.0", "8.000000e+00"),
        (F8E8M0FNU, "0.75", "1.000000e+00"),
    ];
    for (kind, input, expected) in cases {
        let ours = if input.starts_with("0x") {
            hex(kind, input)
        } else {
            lit(kind, input)
        };
        assert_eq!(ours, expected, "{kind} {input}");
    }
}

#[test]
fn parse_errors() {
    use FloatParseError::*;
    let k = FloatKind::F32;
    assert_eq!(parse_decimal(k, ""), Err(Empty));
    for bad in [
        "-", ".5", "1.5e", "1.5e+", "1..5", "1.5x", "inf", "nan", "0x1p3", "1 ", "+-1",
    ] {
        assert_eq!(parse_decimal(k, bad), Err(InvalidSyntax), "{bad}");
    }
    assert_eq!(
        parse_decimal(FloatKind::F8E8M0FNU, "-1.0"),
        Err(NegativeUnsigned)
    );
    assert_eq!(
        parse_mlir_float_literal(FloatKind::F4E2M1FN, "1.0e400"),
        Err(OutOfRange)
    );
    assert_eq!(parse_decimal(FloatKind::F4E2M1FN, "1.0e400"), Ok(0x7)); // saturates
    assert_eq!(parse_decimal(k, "1"), Ok(0x3F80_0000));
    assert_eq!(parse_decimal(k, "+1.E+1"), Ok(0x4120_0000));
    assert_eq!(parse_decimal(k, "-0.0"), Ok(0x8000_0000));
    assert_eq!(parse_decimal(k, "1.0e99999999999999"), Ok(0x7F80_0000));
    assert_eq!(parse_decimal(k, "1.0e-99999999999999"), Ok(0));
    assert_eq!(
        FloatParseError::InvalidSyntax.to_string(),
        "invalid float literal"
    );
}

#[test]
fn special_values() {
    use FloatKind::*;
    assert!(is_nan(F32, 0x7FC0_0000) && !is_negative(F32, 0x7FC0_0000));
    assert!(is_inf(F32, 0xFF80_0000) && is_negative(F32, 0xFF80_0000));
    assert!(is_zero(F16, 0x8000) && is_negative(F16, 0x8000));
    assert!(is_nan(F8E4M3FNUZ, 0x80) && is_zero(F8E4M3FNUZ, 0));
    assert!(is_nan(F8E4M3FN, 0x7F) && !is_nan(F8E4M3FN, 0x7E) && !is_inf(F8E4M3FN, 0x78));
    assert!(is_nan(F8E8M0FNU, 0xFF) && !is_zero(F8E8M0FNU, 0) && !is_negative(F8E8M0FNU, 0xFE));
    assert!(!is_nan(F4E2M1FN, 0xF) && !is_inf(F6E3M2FN, 0x3F));
    assert!(is_nan(F80, 0x4000_0000_0000_0000_0001)); // unnormal
    assert!(is_inf(F80, 0x7FFF_8000_0000_0000_0000));
}

#[test]
fn f64_conversions_match_std() {
    let mut rng = Rng(0x1234_5678);
    for _ in 0..20000 {
        let b = rng.next() as u32;
        let f = f32::from_bits(b);
        let d = to_f64(FloatKind::F32, u128::from(b));
        assert!(
            d.to_bits() == f64::from(f).to_bits() || (f.is_nan() && d.is_nan()),
            "{b:#x}"
        );
        let wide = f64::from_bits(rng.next());
        let narrowed = f32::from_bits(from_f64(FloatKind::F32, wide) as u32);
        // `as` rounds to nearest even (NaN payloads are unspecified in Rust).
        let same = narrowed.to_bits() == (wide as f32).to_bits();
        assert!(
            same || (wide.is_nan() && narrowed.is_nan()),
            "{:#x}",
            wide.to_bits()
        );
        assert_eq!(from_f64(FloatKind::F64, wide), u128::from(wide.to_bits()));
        assert_eq!(
            to_f64(FloatKind::F64, u128::from(wide.to_bits())).to_bits(),
            wide.to_bits()
        );
    }
    use FloatKind::*;
    assert_eq!(from_f64(F8E4M3FN, 1e9), 0x7F);
    assert_eq!(from_f64(F8E4M3FNUZ, -0.0), 0);
    assert_eq!(from_f64(F4E2M1FN, f64::NEG_INFINITY), 0xF);
    assert_eq!(from_f64(F4E2M1FN, f64::NAN), 0);
    assert_eq!(from_f64(F8E8M0FNU, -2.0), 0xFF);
    assert_eq!(from_f64(F8E8M0FNU, 0.0), 0);
    assert_eq!(from_f64(F8E8M0FNU, 3.0), 129); // a tie rounds up to 4
    assert_eq!(from_f64(BF16, 1.0 + 1.0 / 256.0), 0x3F80); // tie to even
    assert!(to_f64(F8E8M0FNU, 0xFF).is_nan());
    assert_eq!(to_f64(F8E8M0FNU, 0), 2f64.powi(-127));
    assert_eq!(to_f64(F80, 0x3FFF_C000_0000_0000_0000), 1.5);
    assert_eq!(to_f64(F128, 0x3FFF_8000_0000_0000_0000_0000_0000_0000), 1.5);
}

/// A random decimal literal of MLIR's float form, scaled to `kind`'s range.
fn random_literal(rng: &mut Rng, kind: FloatKind) -> String {
    let s = kind.sem();
    let max_digits = if rng.below(2) == 0 { 4 } else { 25 };
    let digits = 1 + rng.below(max_digits) as usize;
    let mut m: String = (0..digits)
        .map(|_| char::from(b'0' + rng.below(10) as u8))
        .collect();
    if m.starts_with('0') && m.len() > 1 {
        m.replace_range(0..1, "1");
    }
    // Decimal exponent range of the type (min subnormal .. max), a little beyond.
    let lo = ((s.min_exp - s.prec as i32) as f64 * std::f64::consts::LOG10_2) as i64 - 2;
    let hi = (f64::from(s.max_exp) * std::f64::consts::LOG10_2) as i64 + 2;
    let (lo, hi) = (lo.max(-330), hi.min(300)); // stay inside f64 for MLIR's parser
    let e = lo + rng.below((hi - lo + 1) as u64) as i64 - (digits as i64 - 1);
    let sign = if s.signed && rng.below(2) == 0 {
        "-"
    } else {
        ""
    };
    let split = 1 + rng.below(digits as u64) as usize;
    format!("{sign}{}.{}e{e}", &m[..split], &m[split..])
}

/// Random bit patterns biased toward short mantissas (which print as short
/// decimals) plus the edges of every binade class.
fn interesting_bits(rng: &mut Rng, kind: FloatKind, count: usize) -> Vec<u128> {
    let w = kind.bit_width();
    if w <= 8 {
        return (0..1u128 << w).collect();
    }
    let mant_bits = if kind == FloatKind::F80 {
        64
    } else {
        kind.sem().prec - 1
    };
    let mut out: Vec<u128> = vec![
        0,
        1,
        low_mask(w),
        1 << (w - 1),
        low_mask(w - 1),
        low_mask(mant_bits),
    ];
    while out.len() < count {
        let mut b = rng.bits(w);
        if rng.below(2) == 0 {
            let keep = rng.below(u64::from(mant_bits) + 1) as u32;
            b &= !low_mask(mant_bits - keep.min(mant_bits));
        }
        if kind == FloatKind::F80 && rng.below(8) != 0 {
            b |= 1 << 63; // mostly valid x87 numbers, some unnormals
        }
        out.push(b);
    }
    out
}

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

/// Prints `literals` as attributes of type `kind` through mlir-opt, returning
/// the printed value of each, in order.
fn mlir_print(tool: &PathBuf, kind: FloatKind, literals: &[String]) -> Vec<String> {
    let attrs: Vec<String> = literals
        .iter()
        .enumerate()
        .map(|(i, l)| format!("v{i} = {l} : {kind}"))
        .collect();
    let src = format!("\"t.op\"() {{{}}} : () -> ()\n", attrs.join(", "));
    let path =
        std::env::temp_dir().join(format!("strata_float_{kind}_{}.mlir", std::process::id()));
    std::fs::write(&path, src).expect("write temp file");
    let out = Command::new(tool)
        .args(["--allow-unregistered-dialect", "--mlir-print-op-generic"])
        .arg(&path)
        .output()
        .expect("run mlir-opt");
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "mlir-opt failed for {kind}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body = stdout
        .split_once("\"t.op\"() {")
        .and_then(|(_, rest)| rest.split_once("} :"))
        .expect("t.op in mlir-opt output")
        .0;
    let mut printed = vec![String::new(); literals.len()];
    for entry in body.split(", ") {
        let (name, rest) = entry.split_once(" = ").expect("attr entry");
        let (value, _) = rest.rsplit_once(" : ").expect("typed attr");
        let i: usize = name[1..].parse().expect("attr index");
        printed[i] = value.to_string();
    }
    printed
}

/// Bulk differential check against mlir-opt (one invocation per kind): hex bit
/// patterns through `format_float`, and random decimal literals through
/// `parse_mlir_float_literal` + `format_float`.
#[test]
fn mlir_opt_differential() {
    let Some(tool) = find_mlir_opt() else {
        eprintln!("skipped: mlir-opt not found");
        return;
    };
    let count: usize = std::env::var("STRATA_FLOAT_COUNT")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(2000);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut failures = Vec::new();
    for &kind in FloatKind::all() {
        let bits = interesting_bits(&mut rng, kind, count);
        let decimals: Vec<String> = (0..count / 2)
            .map(|_| random_literal(&mut rng, kind))
            .collect();
        let mut literals: Vec<String> = bits.iter().map(|b| format!("0x{b:X}")).collect();
        literals.extend(decimals.iter().cloned());
        let printed = mlir_print(&tool, kind, &literals);
        let mut bad = 0;
        for (i, lit) in literals.iter().enumerate() {
            let ours = match bits.get(i) {
                Some(&b) => format_float(kind, b),
                None => parse_mlir_float_literal(kind, lit)
                    .map_or_else(|e| e.to_string(), |b| format_float(kind, b)),
            };
            if ours != printed[i] {
                bad += 1;
                if bad <= 5 {
                    failures.push(format!(
                        "{kind}: {lit}: mlir-opt {} ours {ours}",
                        printed[i]
                    ));
                }
            }
        }
        eprintln!(
            "{kind}: {} bit patterns + {} literals compared, {bad} mismatches",
            bits.len(),
            decimals.len()
        );
    }
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}

/// `truncated_digits` against a literal transcription of toStringImpl's
/// "multiply by 5^e, then AdjustToPrecision" on the full integer.
#[test]
fn truncated_digits_matches_reference() {
    let mut rng = Rng(42);
    for i in 0..300 {
        let width = 1 + rng.below(113) as u32;
        let n0 = rng.bits(width) | 1;
        let (pow2, pow5) = if i % 3 == 0 {
            (rng.below(16500), 0)
        } else {
            (0, rng.below(16500))
        };
        let precision = if i % 2 == 0 { 6 } else { 2 + width * 59 / 196 };
        let mut full = Big::from_u128(n0);
        full.mul_pow(5, pow5);
        full.shl(pow2);
        let required = (u64::from(precision) * 196).div_ceil(59);
        let tens = full.bit_len().saturating_sub(required) * 59 / 196;
        full.div_pow(10, tens);
        let expected = (full, tens);
        assert_eq!(truncated_digits(n0, pow2, pow5, precision, false), expected);
        assert_eq!(truncated_digits(n0, pow2, pow5, precision, true), expected);
    }
}

/// Exact decimal `digits` and exponent of sig * 2^exp2.
fn exact_decimal(sig: &Big, exp2: i64) -> (String, i64) {
    let mut n = sig.clone();
    let e10 = if exp2 >= 0 {
        n.shl(exp2 as u64);
        0
    } else {
        n.mul_pow(5, exp2.unsigned_abs());
        exp2
    };
    let mut chunks = Vec::new(); // nine digits per division
    while !n.is_zero() {
        chunks.push(n.divrem_small(1_000_000_000));
    }
    let mut digits = chunks.pop().map_or(String::new(), |c| c.to_string());
    chunks
        .iter()
        .rev()
        .for_each(|c| digits.push_str(&format!("{c:09}")));
    (digits, e10)
}

fn decrement_decimal(d: &str) -> String {
    let mut b = d.as_bytes().to_vec();
    let mut i = b.len();
    while i > 0 {
        i -= 1;
        if b[i] == b'0' {
            b[i] = b'9';
        } else {
            b[i] -= 1;
            break;
        }
    }
    String::from_utf8(b)
        .expect("ascii")
        .trim_start_matches('0')
        .to_string()
}

/// Independent check of correct rounding in every kind: the exact midpoint
/// between two neighbours ties to the even one (for `f8E8M0FNU`, whose only
/// significand bit is odd, upward); a hair above/below goes to hi/lo.
#[test]
fn parse_decimal_rounds_midpoints() {
    let mut rng = Rng(99);
    let mut checked = 0;
    for &kind in FloatKind::all() {
        let s = kind.sem();
        for bits in interesting_bits(&mut rng, kind, 300) {
            let lo = decode(kind, bits);
            if lo.sign || !matches!(lo.cat, Cat::Normal | Cat::Zero) {
                continue;
            }
            let (lo_sig, lo_exp) = if lo.cat == Cat::Zero {
                (0, s.min_exp)
            } else {
                (lo.sig, lo.exp)
            };
            let (hi_sig, hi_exp) = if lo_sig + 1 == 1 << s.prec {
                (1 << (s.prec - 1), lo_exp + 1)
            } else {
                (lo_sig + 1, lo_exp)
            };
            let hi = Value {
                cat: Cat::Normal,
                sign: false,
                exp: hi_exp,
                sig: hi_sig,
            };
            if hi_exp > s.max_exp || decode(kind, encode(kind, &hi)) != hi {
                continue; // past the largest finite value
            }
            // mid = (lo + hi) / 2 = (lo_sig + hi_sig * 2^(hi_exp - lo_exp)) * 2^(lo_exp - prec)
            let total = lo_sig + (hi_sig << (hi_exp - lo_exp));
            let (digits, e10) = exact_decimal(
                &Big::from_u128(total),
                i64::from(lo_exp) - i64::from(s.prec),
            );
            let lo_bits = encode(kind, &lo);
            let hi_bits = encode(kind, &hi);
            let tie = if lo_sig & 1 == 0 && s.prec > 1 {
                lo_bits
            } else {
                hi_bits
            };
            let cases = [
                (format!("{digits}e{e10}"), tie),
                (format!("{digits}1e{}", e10 - 1), hi_bits),
                (
                    format!("{}9e{}", decrement_decimal(&digits), e10 - 1),
                    lo_bits,
                ),
            ];
            for (text, want) in cases {
                if text.starts_with('9') && digits == "1" {
                    continue; // "1" - 1 has no digits left; covered elsewhere
                }
                assert_eq!(parse_decimal(kind, &text), Ok(want), "{kind} {text}");
                checked += 1;
            }
        }
    }
    eprintln!("midpoint cases checked: {checked}");
    assert!(checked > 5000, "{checked}");
}

/// `parse_decimal` agrees with Rust's correctly rounded `str::parse` for
/// random literals and for near-halfway cases of `f32` and `f64`.
#[test]
fn parse_decimal_matches_std() {
    let mut rng = Rng(5);
    for _ in 0..3000 {
        for kind in [FloatKind::F32, FloatKind::F64] {
            let text = random_literal(&mut rng, kind);
            let want = match kind {
                FloatKind::F32 => u128::from(text.parse::<f32>().expect("std").to_bits()),
                _ => u128::from(text.parse::<f64>().expect("std").to_bits()),
            };
            assert_eq!(parse_decimal(kind, &text), Ok(want), "{kind} {text}");
        }
    }
}
