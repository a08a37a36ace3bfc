//! What `strata tune` leaves: the best recipe, a summary table, and an
//! HTML page plotting every trial.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use super::log::{Record, State, Summary};
use super::space::Space;
use super::{Candidate, Paths};
use crate::DriverError;

/// The latest timed record of each trial (the final re-timing over the
/// rungs, a later rung over an earlier one).
pub(crate) fn latest(records: &[Record]) -> Vec<&Record> {
    let rank = |r: &Record| match r.rung.as_str() {
        "final" => usize::MAX,
        n => n.parse().unwrap_or(0),
    };
    let mut out: Vec<&Record> = Vec::new();
    for r in records.iter().filter(|r| r.state != State::Pruned) {
        match out.iter_mut().find(|o| o.trial == r.trial) {
            Some(o) if rank(r) >= rank(o) => *o = r,
            Some(_) => {}
            None => out.push(r),
        }
    }
    out.sort_by_key(|r| r.trial);
    out
}

/// The records the best is chosen from: the final re-timing's when there
/// was one (measured together, interleaved), else the latest records of
/// the trials never pruned.
pub(crate) fn contenders(records: &[Record]) -> Vec<&Record> {
    let finals: Vec<&Record> = records.iter().filter(|r| r.rung == "final").collect();
    if !finals.is_empty() {
        return finals;
    }
    let pruned: Vec<usize> = records
        .iter()
        .filter(|r| r.state == State::Pruned)
        .map(|r| r.trial)
        .collect();
    latest(records)
        .into_iter()
        .filter(|r| !pruned.contains(&r.trial))
        .collect()
}

/// The best trial: the fastest median among `records`; a trial of a
/// lower number (the base recipe first) within the noise of it wins the
/// tie. Returns it and whether it was a tie.
pub(crate) fn best<'r>(records: &[&'r Record]) -> Option<(&'r Record, bool)> {
    let timed: Vec<(&Record, Summary)> = records
        .iter()
        .filter(|r| r.state == State::Ok)
        .filter_map(|r| r.summary.map(|s| (*r, s)))
        .collect();
    let fastest = timed.iter().min_by(|a, b| {
        a.1.median_ms
            .total_cmp(&b.1.median_ms)
            .then(a.0.trial.cmp(&b.0.trial))
    })?;
    let tied = |(r, s): &(&Record, Summary)| {
        (s.median_ms - fastest.1.median_ms).abs() <= s.noise().max(fastest.1.noise())
            && r.trial <= fastest.0.trial
    };
    let first = timed
        .iter()
        .filter(|t| tied(t))
        .min_by_key(|t| t.0.trial)
        .unwrap_or(fastest);
    Some((first.0, first.0.trial != fastest.0.trial))
}

/// The knob that explains most of the variance of rung 0's medians (the
/// share of the variance between its values' groups), with that share.
pub(crate) fn most_influential(space: &Space, records: &[Record]) -> Option<(usize, f64)> {
    let rung0: Vec<&Record> = records
        .iter()
        .filter(|r| r.rung == "0" && r.state == State::Ok && !r.knobs.is_empty())
        .collect();
    let medians: Vec<f64> = rung0
        .iter()
        .filter_map(|r| r.summary.map(|s| s.median_ms))
        .collect();
    if medians.len() < 3 {
        return None;
    }
    let mean = medians.iter().sum::<f64>() / medians.len() as f64;
    let total: f64 = medians.iter().map(|m| (m - mean).powi(2)).sum();
    if total <= 0.0 {
        return None;
    }
    (0..space.knobs.len())
        .map(|k| {
            let mut groups: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
            for r in &rung0 {
                if let (Some((_, v)), Some(s)) = (r.knobs.get(k), r.summary) {
                    groups.entry(v.clone()).or_default().push(s.median_ms);
                }
            }
            let between: f64 = groups
                .values()
                .map(|g| {
                    let m = g.iter().sum::<f64>() / g.len() as f64;
                    g.len() as f64 * (m - mean).powi(2)
                })
                .sum();
            (k, between / total)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

fn fmt_ms(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{v:.3} ms"))
}

/// Writes the best recipe and the report, and prints the summary.
pub(crate) fn finish(
    model: &Path,
    space: &Space,
    candidates: &[Candidate],
    records: &[Record],
    paths: &Paths,
    elapsed: Duration,
) -> Result<(), DriverError> {
    let latest = latest(records);
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in &latest {
        *counts.entry(r.state.name()).or_default() += 1;
    }
    let pruned = records.iter().filter(|r| r.state == State::Pruned).count();
    let contenders = contenders(records);
    let base = contenders
        .iter()
        .chain(&latest)
        .find(|r| r.trial == 0)
        .copied();
    let Some((winner, tie)) = best(&contenders) else {
        write_html(model, space, records, None, &paths.report)?;
        // A GPU target on a machine without a GPU: the candidates compiled.
        let untimed = latest
            .iter()
            .filter(|r| {
                r.state == State::RunError && r.message.contains("a machine with a GPU times it")
            })
            .count();
        if untimed > 0 && untimed == latest.len() {
            return Err(DriverError::Message(format!(
                "every candidate ({untimed}) compiled for {}, none could be timed: there is no CUDA device here; the same command with --resume on a machine with one times them (the log is {})",
                latest[0].fingerprint.target,
                paths.log.display()
            )));
        }
        return Err(DriverError::Message(format!(
            "no candidate compiled, matched eager mode and ran (the log {} says why)",
            paths.log.display()
        )));
    };
    let text = format!(
        "# strata tune: the best of {} candidates for {} (trial {}{}).\n# recipe sha256 {}\n{}",
        candidates.len(),
        model.display(),
        winner.trial,
        if winner.knobs.is_empty() {
            ": the base recipe".to_string()
        } else {
            format!(
                ": {}",
                winner
                    .knobs
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        winner.recipe_sha256,
        winner.recipe
    );
    std::fs::write(&paths.output, text)
        .map_err(|e| DriverError::Message(format!("{}: {e}", paths.output.display())))?;
    write_html(model, space, records, Some(winner), &paths.report)?;
    let states: Vec<String> = counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
    outln!(
        "tune: {} candidates evaluated ({}), {pruned} pruned, in {:.1} s",
        latest.len(),
        states.join(", "),
        elapsed.as_secs_f64()
    );
    outln!(
        "{:<22} {:>14} {:>12} {:>8}",
        "",
        "latency (p50)",
        "compile",
        "kernels"
    );
    // Compile times from rung 0, where each candidate compiled alone (a
    // process that compiles several shares kernels between them).
    let compile_ms = |trial: usize| {
        records
            .iter()
            .find(|r| r.trial == trial && r.rung == "0")
            .and_then(|r| r.compile_ms)
    };
    let row = |label: &str, r: Option<&Record>| {
        let m = r
            .and_then(|r| r.summary.filter(|_| r.state == State::Ok))
            .map(|s| s.median_ms);
        format!(
            "{label:<22} {:>14} {:>12} {:>8}",
            fmt_ms(m),
            fmt_ms(r.and_then(|r| compile_ms(r.trial))),
            r.and_then(|r| r.kernels)
                .map_or("-".into(), |k| k.to_string())
        )
    };
    outln!("{}", row("base recipe", base));
    outln!(
        "{}",
        row(&format!("best (trial {})", winner.trial), Some(winner))
    );
    if let (Some(b), Some(w)) = (
        base.and_then(|r| r.summary.filter(|_| r.state == State::Ok)),
        winner.summary,
    ) {
        outln!(
            "speedup over the base recipe: {:.2}x{}",
            b.median_ms / w.median_ms,
            if tie {
                " (within the noise of a faster trial: the tie goes to the lower trial number)"
            } else {
                ""
            }
        );
    }
    outln!(
        "best recipe: {} (sha256 {})",
        paths.output.display(),
        winner.recipe_sha256
    );
    outln!(
        "log: {}; report: {}",
        paths.log.display(),
        paths.report.display()
    );
    Ok(())
}

/// An SVG scatter plot: points (x, y, failed), x labels.
fn scatter(
    title: &str,
    x_label: &str,
    points: &[(f64, f64, bool)],
    ticks: &[(f64, String)],
) -> String {
    let (w, h, m) = (640.0, 320.0, 50.0);
    let ok: Vec<f64> = points.iter().filter(|p| !p.2).map(|p| p.1).collect();
    let y_max = ok.iter().copied().fold(0.0f64, f64::max).max(1e-9) * 1.1;
    let x_max = points.iter().map(|p| p.0).fold(1.0f64, f64::max);
    let sx = |x: f64| m + x / x_max * (w - 2.0 * m);
    let sy = |y: f64| h - m - y / y_max * (h - 2.0 * m);
    let mut s = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' font-family='sans-serif' font-size='11'>\
         <text x='{}' y='16' text-anchor='middle' font-size='13'>{title}</text>\
         <line x1='{m}' y1='{}' x2='{}' y2='{}' stroke='#333'/><line x1='{m}' y1='{m}' x2='{m}' y2='{}' stroke='#333'/>\
         <text x='{}' y='{}' text-anchor='middle'>{x_label}</text>\
         <text x='12' y='{}' transform='rotate(-90 12 {})' text-anchor='middle'>median latency (ms)</text>",
        w / 2.0, h - m, w - m, h - m, h - m, w / 2.0, h - 12.0, h / 2.0, h / 2.0
    );
    for i in 0..=4 {
        let y = y_max * i as f64 / 4.0;
        let _ = write!(
            s,
            "<text x='{}' y='{}' text-anchor='end'>{y:.3}</text>",
            m - 4.0,
            sy(y) + 4.0
        );
    }
    for (x, label) in ticks {
        let _ = write!(
            s,
            "<text x='{}' y='{}' text-anchor='middle'>{label}</text>",
            sx(*x),
            h - m + 14.0
        );
    }
    for (x, y, failed) in points {
        if *failed {
            let _ = write!(
                s,
                "<text x='{}' y='{}' fill='#c00' text-anchor='middle'>×</text>",
                sx(*x),
                m
            );
        } else {
            let _ = write!(
                s,
                "<circle cx='{}' cy='{}' r='4' fill='#2a6fdb' fill-opacity='0.7'/>",
                sx(*x),
                sy(*y)
            );
        }
    }
    s.push_str("</svg>");
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The HTML page: latency against trial number, against the most
/// influential knob, and a table of every record.
fn write_html(
    model: &Path,
    space: &Space,
    records: &[Record],
    winner: Option<&Record>,
    path: &Path,
) -> Result<(), DriverError> {
    let latest = latest(records);
    let point = |r: &Record| {
        let m = r
            .summary
            .filter(|_| r.state == State::Ok)
            .map(|s| s.median_ms);
        (m.unwrap_or(0.0), m.is_none())
    };
    let by_trial: Vec<(f64, f64, bool)> = latest
        .iter()
        .map(|r| {
            let (y, failed) = point(r);
            (r.trial as f64, y, failed)
        })
        .collect();
    let mut html = format!(
        "<!doctype html><html><head><meta charset='utf-8'><title>strata tune: {0}</title>\
         <style>body{{font-family:sans-serif;margin:2em}}td,th{{padding:2px 8px;text-align:right}}\
         td.l{{text-align:left}}tr.best{{background:#e8f5e9}}</style></head><body>\
         <h1>strata tune: {0}</h1>",
        escape(&model.display().to_string())
    );
    if let Some(w) = winner {
        let _ = write!(
            html,
            "<p>Best: trial {} ({}), recipe sha256 <code>{}</code>.</p>",
            w.trial,
            escape(
                &w.knobs
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            w.recipe_sha256
        );
    }
    html.push_str(&scatter("Every trial (× failed)", "trial", &by_trial, &[]));
    if let Some((k, share)) = most_influential(space, records) {
        let knob = &space.knobs[k];
        let values: Vec<String> = knob.values.iter().map(ToString::to_string).collect();
        let pts: Vec<(f64, f64, bool)> = latest
            .iter()
            .filter_map(|r| {
                let v = &r.knobs.get(k)?.1;
                let x = values.iter().position(|x| x == v)? as f64 + 1.0;
                let (y, failed) = point(r);
                Some((x, y, failed))
            })
            .collect();
        let ticks: Vec<(f64, String)> = values
            .iter()
            .enumerate()
            .map(|(i, v)| (i as f64 + 1.0, escape(v)))
            .collect();
        html.push_str(&scatter(
            &format!(
                "Against {} ({:.0}% of the variance)",
                knob.key,
                share * 100.0
            ),
            &knob.key,
            &pts,
            &ticks,
        ));
    }
    html.push_str("<table><tr><th>trial</th><th>rung</th><th>state</th><th>median</th><th>p10</th><th>p90</th><th>compile</th><th>kernels</th><th class='l'>knobs</th><th class='l'>message</th></tr>");
    for r in records {
        let best = winner.is_some_and(|w| w.trial == r.trial);
        let s = r.summary;
        let _ = write!(
            html,
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class='l'>{}</td><td class='l'>{}</td></tr>",
            if best { " class='best'" } else { "" },
            r.trial,
            r.rung,
            r.state.name(),
            fmt_ms(s.map(|s| s.median_ms)),
            fmt_ms(s.map(|s| s.p10_ms)),
            fmt_ms(s.map(|s| s.p90_ms)),
            fmt_ms(r.compile_ms),
            r.kernels.map_or("-".into(), |k| k.to_string()),
            escape(&r.knobs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")),
            escape(&r.message)
        );
    }
    html.push_str("</table></body></html>\n");
    std::fs::write(path, html).map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::super::log::Fingerprint;
    use super::*;

    fn record(trial: usize, rung: &str, state: State, samples: &[f64]) -> Record {
        Record {
            trial,
            rung: rung.into(),
            model_sha256: "m".into(),
            knobs: if trial == 0 {
                vec![]
            } else {
                vec![("k".into(), trial.to_string())]
            },
            recipe: String::new(),
            recipe_sha256: format!("r{trial}"),
            state,
            message: String::new(),
            samples_ms: samples.to_vec(),
            summary: Summary::of(samples),
            compile_ms: None,
            kernels: None,
            peak_activation_bytes: None,
            fingerprint: Fingerprint::here("host", "cpu".into(), 1),
            at_s: 0.0,
        }
    }

    #[test]
    fn the_latest_rung_counts_and_ties_go_to_the_lower_trial() {
        let records = vec![
            record(0, "0", State::Ok, &[2.0, 2.1, 1.9]),
            record(1, "0", State::Ok, &[1.0, 1.1, 0.9]),
            record(2, "0", State::WrongAnswer, &[]),
            record(0, "final", State::Ok, &[1.00, 1.2, 0.8]),
            record(1, "final", State::Ok, &[0.98, 1.1, 0.9]),
        ];
        let latest = latest(&records);
        assert_eq!(latest.len(), 3);
        assert_eq!(latest[0].rung, "final");
        // Trial 1 is faster by 0.02 ms, within the noise: the base wins.
        let (w, tie) = best(&latest).expect("a winner");
        assert_eq!((w.trial, tie), (0, true));
        let clear = vec![
            record(0, "final", State::Ok, &[2.0, 2.01, 1.99]),
            record(1, "final", State::Ok, &[1.0, 1.01, 0.99]),
        ];
        let (w, tie) = best(&latest_of(&clear)).expect("a winner");
        assert_eq!((w.trial, tie), (1, false));
    }

    #[test]
    fn a_pruned_trial_never_wins() {
        let mut records = vec![
            record(0, "0", State::Ok, &[2.0, 2.01, 1.99]),
            record(1, "0", State::Ok, &[1.0, 1.01, 0.99]),
            record(2, "0", State::Ok, &[1.5, 1.51, 1.49]),
        ];
        records.push(record(1, "1", State::Pruned, &[]));
        let c = contenders(&records);
        assert_eq!(c.iter().map(|r| r.trial).collect::<Vec<_>>(), vec![0, 2]);
        // With a final re-timing, only its records compete.
        records.push(record(0, "final", State::Ok, &[2.0, 2.01, 1.99]));
        records.push(record(2, "final", State::Ok, &[1.9, 1.91, 1.89]));
        let (w, _) = best(&contenders(&records)).expect("a winner");
        assert_eq!(w.trial, 2);
    }

    fn latest_of(records: &[Record]) -> Vec<&Record> {
        latest(records)
    }
}
