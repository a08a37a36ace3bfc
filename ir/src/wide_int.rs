//! Integers wider than 128 bits (`i1024` attributes), as little-endian `u64`
//! words: just what parsing and printing integer attributes needs.

/// The magnitude of a decimal or `0x` hexadecimal literal.
pub(crate) fn parse_magnitude(spelling: &str) -> Option<Vec<u64>> {
    let (digits, radix) = match spelling.strip_prefix("0x") {
        Some(hex) => (hex, 16u64),
        None => (spelling, 10u64),
    };
    if digits.is_empty() {
        return None;
    }
    let mut words = vec![0u64];
    for c in digits.chars() {
        let digit = c.to_digit(radix as u32)? as u64;
        let mut carry = digit as u128;
        for word in words.iter_mut() {
            let v = (*word as u128) * radix as u128 + carry;
            *word = v as u64;
            carry = v >> 64;
        }
        if carry != 0 {
            words.push(carry as u64);
        }
    }
    Some(words)
}

/// Number of significant bits.
pub(crate) fn active_bits(words: &[u64]) -> u32 {
    for (i, &w) in words.iter().enumerate().rev() {
        if w != 0 {
            return i as u32 * 64 + (64 - w.leading_zeros());
        }
    }
    0
}

/// `words` resized to hold exactly `width` bits (extra high bits cleared).
pub(crate) fn fit(mut words: Vec<u64>, width: u32) -> Vec<u64> {
    let n = (width as usize).div_ceil(64).max(1);
    words.resize(n, 0);
    let rem = width % 64;
    if rem != 0 {
        if let Some(last) = words.last_mut() {
            *last &= (1u64 << rem) - 1;
        }
    }
    words
}

/// Two's complement negation within `width` bits.
pub(crate) fn negate(words: &[u64], width: u32) -> Vec<u64> {
    let mut out: Vec<u64> = words.iter().map(|w| !w).collect();
    let mut carry = true;
    for word in out.iter_mut() {
        if !carry {
            break;
        }
        let (v, overflow) = word.overflowing_add(1);
        *word = v;
        carry = overflow;
    }
    fit(out, width)
}

/// Whether bit `width - 1` is set.
pub(crate) fn sign_bit(words: &[u64], width: u32) -> bool {
    if width == 0 {
        return false;
    }
    let bit = width - 1;
    words
        .get((bit / 64) as usize)
        .is_some_and(|w| w >> (bit % 64) & 1 == 1)
}

/// Decimal text of the value, signed (two's complement in `width` bits) or not.
pub(crate) fn to_decimal(words: &[u64], width: u32, signed: bool) -> String {
    let negative = signed && sign_bit(words, width);
    let mut magnitude = if negative {
        negate(words, width)
    } else {
        words.to_vec()
    };
    let mut chunks: Vec<u64> = Vec::new();
    const BASE: u64 = 10_000_000_000_000_000_000;
    while magnitude.iter().any(|&w| w != 0) {
        let mut rem: u128 = 0;
        for word in magnitude.iter_mut().rev() {
            let v = (rem << 64) | *word as u128;
            *word = (v / BASE as u128) as u64;
            rem = v % BASE as u128;
        }
        chunks.push(rem as u64);
    }
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    match chunks.split_last() {
        None => out.push('0'),
        Some((first, rest)) => {
            out.push_str(&first.to_string());
            for chunk in rest.iter().rev() {
                out.push_str(&format!("{chunk:019}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_round_trip() {
        let text = "123456789012345678901234567890123456789012345678901234567890";
        let words = fit(parse_magnitude(text).expect("digits"), 256);
        assert_eq!(to_decimal(&words, 256, true), text);
        let neg = negate(&words, 256);
        assert_eq!(to_decimal(&neg, 256, true), format!("-{text}"));
        assert_eq!(to_decimal(&fit(vec![0], 1024), 1024, true), "0");
    }

    #[test]
    fn hex_and_bits() {
        let words = parse_magnitude("0xFFFFFFFFFFFFFFFFFF").expect("hex");
        assert_eq!(active_bits(&words), 72);
        assert!(sign_bit(&fit(words, 72), 72));
    }
}
