//! The interpreter's matmul and conv2d against the references the issue
//! names: a straightforward cache-blocked triple loop (i-k-j, 64x64x64
//! blocks) and a direct convolution loop with the same blocking over output
//! channels. Each case runs the two side by side, alternating, and reports
//! the median of the runs and the ratio (strata / reference; below 1 is
//! faster). Outputs are compared first.
//!
//! `cargo bench -p strata-runtime --bench kernels [-- --runs N]`

use std::time::Instant;

mod common;
use common::{data, median, runs};

use strata_runtime::kernels::{conv2d, matmul};
use strata_runtime::Tensor;

/// The reference matmul: blocked i-k-j over row-major f32.
fn blocked_matmul(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    const BS: usize = 64;
    let mut c = vec![0f32; m * n];
    for i0 in (0..m).step_by(BS) {
        for k0 in (0..k).step_by(BS) {
            for j0 in (0..n).step_by(BS) {
                for i in i0..(i0 + BS).min(m) {
                    for kk in k0..(k0 + BS).min(k) {
                        let av = a[i * k + kk];
                        for j in j0..(j0 + BS).min(n) {
                            c[i * n + j] += av * b[kk * n + j];
                        }
                    }
                }
            }
        }
    }
    c
}

/// The reference convolution: direct loops, NCHW, stride 1, `pad` on every
/// side, blocked over 16 output channels.
fn direct_conv(
    x: &[f32],
    w: &[f32],
    shape: (usize, usize, usize, usize),
    m: usize,
    kh: usize,
    pad: usize,
) -> Vec<f32> {
    let (n, c, h, wd) = shape;
    let (oh, ow) = (h + 2 * pad - kh + 1, wd + 2 * pad - kh + 1);
    let mut out = vec![0f32; n * m * oh * ow];
    for b in 0..n {
        for m0 in (0..m).step_by(16) {
            for oc in m0..(m0 + 16).min(m) {
                for ic in 0..c {
                    for ky in 0..kh {
                        for kx in 0..kh {
                            let wv = w[((oc * c + ic) * kh + ky) * kh + kx];
                            for oy in 0..oh {
                                let iy = oy + ky;
                                if iy < pad || iy >= h + pad {
                                    continue;
                                }
                                let row = ((b * c + ic) * h + iy - pad) * wd;
                                let orow = ((b * m + oc) * oh + oy) * ow;
                                for ox in 0..ow {
                                    let ix = ox + kx;
                                    if ix >= pad && ix < wd + pad {
                                        out[orow + ox] += wv * x[row + ix - pad];
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

fn main() {
    let runs = runs(7);
    println!("| case | strata median (ms) | reference median (ms) | ratio |");
    println!("|---|---:|---:|---:|");
    for &size in &[128usize, 256, 512] {
        let (m, k, n) = (size, size, size);
        let a = data(m * k, 1);
        let b = data(k * n, 2);
        let ta = Tensor::from_f32(vec![m, k], a.clone()).expect("shape");
        let tb = Tensor::from_f32(vec![k, n], b.clone()).expect("shape");
        let ours = matmul(&ta, &tb).expect("matmul").to_f64_vec();
        let reference = blocked_matmul(&a, &b, m, k, n);
        let ours32: Vec<f32> = ours.iter().map(|&v| v as f32).collect();
        assert!(
            max_diff(&ours32, &reference) < 1e-2,
            "matmul results differ"
        );
        let (mut t_ours, mut t_ref) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let t = Instant::now();
            std::hint::black_box(matmul(&ta, &tb).expect("matmul"));
            t_ours.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            std::hint::black_box(blocked_matmul(&a, &b, m, k, n));
            t_ref.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let (o, r) = (median(t_ours), median(t_ref));
        println!(
            "| matmul f32 {m}x{k}x{n} | {o:.2} | {r:.2} | {:.2} |",
            o / r
        );
    }
    for &(c, hw, m) in &[(16usize, 56usize, 32usize), (64, 56, 64), (128, 28, 128)] {
        let (n, kh, pad) = (1, 3, 1);
        let x = data(n * c * hw * hw, 3);
        let w = data(m * c * kh * kh, 4);
        let tx = Tensor::from_f32(vec![n, c, hw, hw], x.clone()).expect("shape");
        let tw = Tensor::from_f32(vec![m, c, kh, kh], w.clone()).expect("shape");
        let run =
            || conv2d(&tx, &tw, None, &[1, 1], &[pad, pad, pad, pad], &[1, 1], 1).expect("conv2d");
        let ours: Vec<f32> = run().to_f64_vec().iter().map(|&v| v as f32).collect();
        let reference = direct_conv(&x, &w, (n, c, hw, hw), m, kh, pad);
        assert!(max_diff(&ours, &reference) < 1e-2, "conv2d results differ");
        let (mut t_ours, mut t_ref) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let t = Instant::now();
            std::hint::black_box(run());
            t_ours.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            std::hint::black_box(direct_conv(&x, &w, (n, c, hw, hw), m, kh, pad));
            t_ref.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let (o, r) = (median(t_ours), median(t_ref));
        println!(
            "| conv2d f32 1x{c}x{hw}x{hw}, {m} filters 3x3 | {o:.2} | {r:.2} | {:.2} |",
            o / r
        );
    }
}
