//! `strata bench MODEL --shapes FILE`: a stream of request shapes replayed
//! through one session, as a server would see it: latency with and
//! without compile stalls, plans compiled, padding waste, cache size.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use strata_runtime::interp::lookup_function;
use strata_runtime::session::{ExeMode, Session, SessionOptions, Source};

use crate::{load, new_context, random_input, DriverError, SplitMix};

/// The options of a replay besides the model and the shapes file.
pub(crate) struct ReplayOptions<'a> {
    pub recipe: Option<&'a Path>,
    /// `--trace FILE`: a Chrome trace of the runs and compile events.
    pub trace: Option<&'a Path>,
    /// `--cache-dir DIR`: the plan cache on disk.
    pub cache_dir: Option<&'a Path>,
    pub mode: &'a str,
    pub function: &'a str,
    pub threads: Option<usize>,
    pub seed: u64,
    pub json: bool,
}

/// The requests of a shapes file: one `SYM=N,SYM=N` per line, or
/// `random COUNT SYM=LO..HI ... [seed=S]` for COUNT requests drawn
/// uniformly; `#` starts a comment.
pub(crate) fn parse_shapes(text: &str) -> Result<Vec<BTreeMap<String, usize>>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |m: String| format!("line {}: {m}", n + 1);
        let words: Vec<&str> = line
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        if words.first() == Some(&"random") {
            let count: usize = words
                .get(1)
                .and_then(|c| c.parse().ok())
                .ok_or_else(|| at("expected 'random COUNT SYM=LO..HI ...'".into()))?;
            let mut ranges = Vec::new();
            let mut seed = 0u64;
            for w in &words[2..] {
                let (sym, range) = w
                    .split_once('=')
                    .ok_or_else(|| at(format!("'{w}': expected SYM=LO..HI")))?;
                if sym == "seed" {
                    seed = range.parse().map_err(|_| at(format!("'{w}': bad seed")))?;
                    continue;
                }
                let (lo, hi) = range
                    .split_once("..")
                    .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
                    .filter(|(a, b)| a <= b)
                    .ok_or_else(|| at(format!("'{w}': expected SYM=LO..HI with LO <= HI")))?;
                ranges.push((sym.to_string(), lo, hi));
            }
            let mut rng = SplitMix(seed);
            for _ in 0..count {
                out.push(
                    ranges
                        .iter()
                        .map(|(s, lo, hi)| {
                            let span = (hi - lo) as u64 + 1;
                            let draw = rng.next().checked_rem(span).unwrap_or(0);
                            (s.clone(), lo + draw as usize)
                        })
                        .collect(),
                );
            }
            continue;
        }
        let mut request = BTreeMap::new();
        for w in words {
            let (sym, size) = w
                .split_once('=')
                .and_then(|(s, v)| Some((s, v.parse::<usize>().ok()?)))
                .ok_or_else(|| at(format!("'{w}': expected SYM=N")))?;
            request.insert(sym.to_string(), size);
        }
        out.push(request);
    }
    if out.is_empty() {
        return Err("no requests".into());
    }
    Ok(out)
}

fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// A quantile as the summary prints it: `none` without samples (every
/// request failed, or every one that ran compiled).
fn shown(v: Option<f64>) -> String {
    v.map_or_else(|| "none".to_string(), |v| format!("{v:.3} ms"))
}

/// Replays the requests of `shapes` through one session over `model`.
pub(crate) fn replay(model: &Path, shapes: &Path, o: ReplayOptions<'_>) -> Result<(), DriverError> {
    let text = std::fs::read_to_string(shapes)
        .map_err(|e| DriverError::Message(format!("{}: {e}", shapes.display())))?;
    let requests = parse_shapes(&text)
        .map_err(|e| DriverError::Message(format!("{}: {e}", shapes.display())))?;
    let recipe = match o.recipe {
        Some(path) => crate::recipe::load(path)?,
        None => strata_recipe::Recipe::default(),
    };
    let mut options = SessionOptions::from_recipe(&recipe);
    options.exe_mode = ExeMode::from_name(o.mode).ok_or_else(|| {
        DriverError::Message(format!(
            "unknown exe mode '{}'; the modes are: eager, graph, hybrid",
            o.mode
        ))
    })?;
    options.function = o.function.to_string();
    if let Some(t) = o.threads {
        options.threads = t;
    }
    options.trace = o.trace.is_some();
    crate::cache::disk_cache_options(&mut options, model, o.cache_dir)?;
    // The inputs are made from a copy of the model of their own.
    let mut gen = new_context();
    let gen_module = load(&mut gen, model)?;
    let func = lookup_function(&gen, gen_module, o.function).ok_or_else(|| {
        DriverError::Message(format!(
            "{}: no function '@{}'",
            model.display(),
            o.function
        ))
    })?;
    let (arg_types, _) = strata_dialects::func::function_signature(&gen, func)
        .ok_or_else(|| DriverError::Message("the function has no function type".into()))?;
    let path = model.to_path_buf();
    let source: Source = Arc::new(move || {
        let mut ctx = new_context();
        let module = load(&mut ctx, &path).map_err(|e| e.to_string())?;
        Ok((ctx, module))
    });
    let session = Session::new(source, options).map_err(|e| DriverError::Message(e.to_string()))?;
    let names: Vec<String> = session.inputs().iter().map(|s| s.name.clone()).collect();
    let mut rng = SplitMix(o.seed);
    let (mut all, mut steady) = (Vec::new(), Vec::new());
    let mut failures: BTreeMap<String, usize> = BTreeMap::new();
    for request in &requests {
        let inputs = arg_types
            .iter()
            .zip(&names)
            .map(|(&ty, name)| random_input(&gen, ty, &mut rng, request, name))
            .collect::<Result<Vec<_>, _>>()?;
        let before = session.compile_count();
        let start = Instant::now();
        let result = session.run(&inputs);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        match result {
            Ok(_) => {
                all.push(ms);
                if session.compile_count() == before {
                    steady.push(ms);
                }
            }
            Err(e) => *failures.entry(e.to_string()).or_default() += 1,
        }
    }
    all.sort_by(f64::total_cmp);
    steady.sort_by(f64::total_cmp);
    let report = session.report();
    if let Some(path) = o.trace {
        std::fs::write(path, format!("{}\n", report.to_chrome_trace()))
            .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))?;
    }
    let failed: usize = failures.values().sum();
    if o.json {
        let j = serde_json::json!({
            "requests": requests.len(),
            "failed": failed,
            "exe_mode": report.exe_mode.name(),
            "compiles": report.compiles,
            "compile_ms": report.compile_ms,
            "p50_ms": quantile(&all, 0.5),
            "p99_ms": quantile(&all, 0.99),
            "p50_ms_steady": quantile(&steady, 0.5),
            "p99_ms_steady": quantile(&steady, 0.99),
            "padding_waste": report.padding_waste,
            "cache_plans": report.plans,
            "cache_arena_bytes": report.cache_arena_bytes,
            "evictions": report.evictions,
        });
        let mut j = j;
        if report.cache_dir.is_some() {
            j["disk_hits"] = serde_json::json!(report.disk_hits);
            j["disk_writes"] = serde_json::json!(report.disk_writes);
            j["disk_rejected"] = serde_json::json!(report.disk_rejected);
        }
        outln!("{j}");
    } else {
        outln!(
            "{} requests ({} mode): {} compiles ({:.0} ms), {} evictions, {failed} failed",
            requests.len(),
            report.exe_mode.name(),
            report.compiles,
            report.compile_ms,
            report.evictions
        );
        outln!(
            "latency with compile stalls: p50 {}, p99 {}; without: p50 {}, p99 {}",
            shown(quantile(&all, 0.5)),
            shown(quantile(&all, 0.99)),
            shown(quantile(&steady, 0.5)),
            shown(quantile(&steady, 0.99))
        );
        outln!(
            "padding waste {:.1} %; cache: {} plans, {} bytes of arenas",
            100.0 * report.padding_waste,
            report.plans,
            report.cache_arena_bytes
        );
        if let Some(dir) = &report.cache_dir {
            outln!(
                "disk cache {}: {} plans loaded, {} written, {} refused",
                dir.display(),
                report.disk_hits,
                report.disk_writes,
                report.disk_rejected
            );
        }
        for (message, n) in &failures {
            outln!("failed ({n}): {message}");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_files() {
        let r = parse_shapes("# a comment\nbatch=2,seq=8\nbatch=1 seq=16\n").expect("parses");
        assert_eq!(r.len(), 2);
        assert_eq!(r[1]["seq"], 16);
        let random = parse_shapes("random 50 batch=1..4 seq=8..8 seed=3").expect("parses");
        assert_eq!(random.len(), 50);
        assert!(random
            .iter()
            .all(|q| (1..=4).contains(&q["batch"]) && q["seq"] == 8));
        assert_eq!(
            random,
            parse_shapes("random 50 batch=1..4 seq=8..8 seed=3").expect("same")
        );
        assert!(parse_shapes("batch=x").is_err());
        assert!(parse_shapes("random 3 batch=4..1").is_err());
        assert!(parse_shapes("# nothing").is_err());
    }
}
