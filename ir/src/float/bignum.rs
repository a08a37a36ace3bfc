//! The small arbitrary-precision unsigned integer behind the exact decimal <->
//! binary conversions in `float`: only the operations those algorithms need.

/// An unsigned integer as little-endian base-2^32 limbs with no zero top limb
/// (so zero is the empty vector and `bit_len` is cheap).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Big(Vec<u32>);

impl Big {
    pub(super) fn from_u128(mut v: u128) -> Big {
        let mut limbs = Vec::new();
        while v != 0 {
            limbs.push(v as u32);
            v >>= 32;
        }
        Big(limbs)
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    pub(super) fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// The low 128 bits.
    pub(super) fn low_u128(&self) -> u128 {
        self.0
            .iter()
            .take(4)
            .rev()
            .fold(0u128, |acc, &l| (acc << 32) | u128::from(l))
    }

    /// Number of significant bits (0 for zero).
    pub(super) fn bit_len(&self) -> u64 {
        match self.0.last() {
            None => 0,
            Some(&top) => (self.0.len() as u64 - 1) * 32 + u64::from(32 - top.leading_zeros()),
        }
    }

    /// Index of the lowest set bit; `u64::MAX` for zero (nothing is ever lost).
    pub(super) fn trailing_zeros(&self) -> u64 {
        match self.0.iter().position(|&l| l != 0) {
            Some(i) => i as u64 * 32 + u64::from(self.0[i].trailing_zeros()),
            None => u64::MAX,
        }
    }

    /// Number of consecutive set bits starting at bit 0.
    pub(super) fn trailing_ones(&self) -> u64 {
        let full = self.0.iter().take_while(|&&l| l == u32::MAX).count();
        let partial = self.0.get(full).map_or(0, |l| l.trailing_ones());
        full as u64 * 32 + u64::from(partial)
    }

    pub(super) fn bit(&self, i: u64) -> bool {
        let word = (i / 32) as usize;
        word < self.0.len() && (self.0[word] >> (i % 32)) & 1 == 1
    }

    pub(super) fn shl(&mut self, n: u64) {
        if self.is_zero() || n == 0 {
            return;
        }
        let (words, bits) = ((n / 32) as usize, (n % 32) as u32);
        let mut out = vec![0u32; words];
        if bits == 0 {
            out.extend_from_slice(&self.0);
        } else {
            let mut carry = 0;
            for &l in &self.0 {
                out.push((l << bits) | carry);
                carry = l >> (32 - bits);
            }
            if carry != 0 {
                out.push(carry);
            }
        }
        self.0 = out;
    }

    /// Shifts right, discarding the low `n` bits.
    pub(super) fn shr(&mut self, n: u64) {
        let words = (n / 32) as usize;
        if words >= self.0.len() {
            self.0.clear();
            return;
        }
        let bits = (n % 32) as u32;
        let src = &self.0[words..];
        let out = (0..src.len())
            .map(|i| {
                let high = match src.get(i + 1) {
                    Some(&h) if bits != 0 => h << (32 - bits),
                    _ => 0,
                };
                (src[i] >> bits) | high
            })
            .collect();
        self.0 = out;
        self.trim();
    }

    /// `self = self * m + a`.
    pub(super) fn mul_add_small(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for l in &mut self.0 {
            let t = u64::from(*l) * u64::from(m) + carry;
            *l = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }

    /// `self /= d`, returning the remainder.
    pub(super) fn divrem_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for l in self.0.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*l);
            *l = (cur / u64::from(d)) as u32;
            rem = cur % u64::from(d);
        }
        self.trim();
        rem as u32
    }

    /// `self *= base^n`, in steps of the largest power of `base` that fits a limb.
    pub(super) fn mul_pow(&mut self, base: u32, mut n: u64) {
        let (chunk, chunk_exp) = limb_power(base);
        while n > 0 {
            let step = n.min(chunk_exp);
            let m = if step == chunk_exp {
                chunk
            } else {
                base.pow(step as u32)
            };
            self.mul_add_small(m, 0);
            n -= step;
        }
    }

    /// `self = floor(self / base^n)`; returns true if the division was inexact.
    /// Exact because floor(floor(x / a) / b) == floor(x / (a * b)).
    pub(super) fn div_pow(&mut self, base: u32, mut n: u64) -> bool {
        let (chunk, chunk_exp) = limb_power(base);
        let mut inexact = false;
        while n > 0 && !self.is_zero() {
            let step = n.min(chunk_exp);
            let d = if step == chunk_exp {
                chunk
            } else {
                base.pow(step as u32)
            };
            inexact |= self.divrem_small(d) != 0;
            n -= step;
        }
        inexact
    }
}

/// The largest power of `base` that fits in a `u32`, and its exponent.
fn limb_power(base: u32) -> (u32, u64) {
    let (mut p, mut e) = (base, 1);
    while let Some(next) = p.checked_mul(base) {
        p = next;
        e += 1;
    }
    (p, e)
}
