//! Operands and a reference for the tests of the host plan's matrix
//! products (`few_rows`, `packed`, `gemm`).

/// `len` values in `[-2, 2)`, a fixed scramble of `seed`.
pub(crate) fn values(len: usize, seed: u32) -> Vec<f32> {
    (0..len)
        .map(|i| (((i as u32).wrapping_mul(2_654_435_761) ^ seed) % 1000) as f32 / 250.0 - 2.0)
        .collect()
}

/// `a * b` summed in f64, row-major `m x n`: the element `(i, kk)` of `a`
/// at `a[i * l[0] + kk * l[1]]`, `(kk, j)` of `b` at `b[kk * r[0] + j *
/// r[1]]`.
pub(crate) fn plain_product(
    a: &[f32],
    l: [isize; 2],
    b: &[f32],
    r: [isize; 2],
    [m, n, k]: [usize; 3],
) -> Vec<f64> {
    let mut out = vec![0.0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            out[i * n + j] = (0..k)
                .map(|kk| {
                    let x = a[(i as isize * l[0] + kk as isize * l[1]) as usize];
                    let y = b[(kk as isize * r[0] + j as isize * r[1]) as usize];
                    f64::from(x) * f64::from(y)
                })
                .sum();
        }
    }
    out
}
