//! Graph mode's f32 matrix products on the CPU: the `gemm` crate (AVX2,
//! both operands packed on every call) against the packed AVX-512 kernels
//! of `strata_runtime::plan::packed`, with the left operand (a weight)
//! packed once ahead and packed on every call. One thread; each case runs
//! the variants alternating, after one untimed run each, and reports the
//! medians, GFLOP/s and the ratio to the `gemm` crate. Results are compared
//! first. The shapes are the products of ResNet-18's convolutions (im2col:
//! `out[C_out, HW] = weight[C_out, C_in·k²] · columns[C_in·k², HW]`) and of
//! a small transformer's linear layers and attention.
//!
//! `cargo bench -p strata-runtime --bench gemm [-- --runs N]`

use std::time::Instant;

mod common;
use common::{data, median, runs};

use strata_runtime::plan::packed::{self, Operand, Packed, Side};
use strata_runtime::plan::Gemm;
use strata_runtime::workers::{Parallel, Workers};

/// `c = a · b`, all row-major, through the `gemm` crate.
fn crate_product(a: &[f32], b: &[f32], c: &mut [f32], [m, n, k]: [usize; 3]) {
    // SAFETY: the slices hold the row-major matrices.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c.as_mut_ptr(),
            1,
            n as isize,
            false,
            a.as_ptr(),
            1,
            k as isize,
            b.as_ptr(),
            1,
            n as isize,
            0.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        )
    }
}

fn main() {
    if !packed::available() {
        println!("skipped: this CPU has no AVX-512 F");
        return;
    }
    let runs = runs(15);
    let cases: [(&str, [usize; 3]); 12] = [
        ("resnet18 conv1 7x7/2", [64, 12544, 147]),
        ("resnet18 layer1 3x3", [64, 3136, 576]),
        ("resnet18 layer2 3x3", [128, 784, 1152]),
        ("resnet18 layer3 3x3", [256, 196, 2304]),
        ("resnet18 layer4 3x3", [512, 49, 4608]),
        ("resnet18 layer4 1x1/2", [512, 49, 256]),
        ("resnet18 at 64x64 layer3", [256, 16, 2304]),
        ("resnet18 at 64x64 layer2", [128, 64, 1152]),
        ("linear 128 tokens 768->3072", [128, 3072, 768]),
        ("linear 32 tokens 256->256", [32, 256, 256]),
        ("attention scores 128x128 (64)", [128, 128, 64]),
        ("square 512", [512, 512, 512]),
    ];
    println!("| product (m x n x k) | gemm crate (ms) | packed, weight ahead (ms) | packed per call (ms) | GFLOP/s ahead | ahead / crate | per call / crate | plan step, 1 thread (ms) | 2 threads (ms) | speed-up |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    // The plan's workers, held as a run holds them (spinning between steps).
    let workers = Workers::new(2, 16 << 20).ok();
    let lease = workers.as_ref().and_then(|w| w.lease());
    let two = lease.as_ref().map(|l| l as &dyn Parallel);
    for (name, [m, n, k]) in cases {
        let a = data(m * k, 1);
        let b = data(k * n, 2);
        let mut want = vec![0.0f32; m * n];
        crate_product(&a, &b, &mut want, [m, n, k]);
        // SAFETY: the strides stay inside `a`.
        let ahead = unsafe { Packed::new(Side::Left, a.as_ptr(), [k as isize, 1], m, k) };
        let rhs = Operand::InPlace {
            ptr: b.as_ptr(),
            strides: [1, n as isize],
        };
        let variants = [
            Operand::Packed {
                packed: &ahead,
                first: 0,
            },
            Operand::InPlace {
                ptr: a.as_ptr(),
                strides: [k as isize, 1],
            },
        ];
        let ours = |lhs: Operand<'_>, c: &mut [f32]| {
            // SAFETY: the operands and `c` hold the row-major matrices.
            unsafe { packed::product(lhs, rhs, c.as_mut_ptr(), n as isize, [m, n, k]) }
        };
        for lhs in variants {
            let mut c = vec![0.0f32; m * n];
            ours(lhs, &mut c);
            let worst = c
                .iter()
                .zip(&want)
                .map(|(x, y)| (x - y).abs() / y.abs().max(1.0))
                .fold(0.0f32, f32::max);
            assert!(worst < 1e-3, "{name}: results differ by {worst}");
        }
        let mut c = vec![0.0f32; m * n];
        let mut times = [Vec::new(), Vec::new(), Vec::new()];
        for run in 0..=runs {
            let t = Instant::now();
            crate_product(&a, &b, &mut c, [m, n, k]);
            let t0 = t.elapsed().as_secs_f64() * 1e3;
            let t = Instant::now();
            ours(variants[0], &mut c);
            let t1 = t.elapsed().as_secs_f64() * 1e3;
            let t = Instant::now();
            ours(variants[1], &mut c);
            let t2 = t.elapsed().as_secs_f64() * 1e3;
            if run > 0 {
                for (v, t) in times.iter_mut().zip([t0, t1, t2]) {
                    v.push(t);
                }
            }
        }
        let [c0, c1, c2] = times.map(median);
        let gflops = 2.0 * (m * n * k) as f64 / (c1 * 1e6);
        // The plan's step: the weight packed as the plan packs it, on one
        // thread and split over two.
        let step = Gemm {
            f64: false,
            batch: vec![1],
            m,
            n,
            k,
            strides: [
                vec![0, k as i64, 1],
                vec![0, n as i64, 1],
                vec![0, n as i64, 1],
            ],
        };
        let sides = step.packing([true, false]);
        // SAFETY: the strides stay inside `a`.
        let left = sides[0].map(|side| unsafe { step.prepack(0, side, a.as_ptr()) });
        let mut threads = [Vec::new(), Vec::new()];
        for run in 0..=runs {
            for (t, parallel) in [None, two].into_iter().enumerate() {
                let ptrs = [a.as_ptr() as u64, b.as_ptr() as u64, c.as_mut_ptr() as u64];
                let start = Instant::now();
                // SAFETY: the operands and `c` hold the matrices.
                unsafe { step.run(ptrs, parallel, [left.as_ref(), None]) };
                if run > 0 {
                    threads[t].push(start.elapsed().as_secs_f64() * 1e3);
                }
            }
        }
        let [s1, s2] = threads.map(median);
        println!(
            "| {name} ({m} x {n} x {k}) | {c0:.3} | {c1:.3} | {c2:.3} | {gflops:.0} | {:.2} | {:.2} | {s1:.3} | {s2:.3} | {:.2} |",
            c1 / c0,
            c2 / c0,
            s1 / s2
        );
    }
}
