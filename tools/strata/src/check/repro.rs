//! `--check-repro DIR`: a bundle that reproduces a mismatch on its own,
//! kept only when its command, run once, still reports the mismatch.

use std::path::{Path, PathBuf};
use std::process::Command;

use strata_runtime::check::Localization;
use strata_runtime::DType;

use super::{CheckRun, Checked};
use crate::DriverError;

/// What every successful repro run prints (and nothing else does).
const MISMATCH: &str = "graph mode does not match eager mode";

/// Refuses a `DIR` that holds files already: a repro that does not fail
/// is removed, and nothing else may go with it.
pub(crate) fn check_dir(dir: &Path) -> Result<(), DriverError> {
    let occupied = std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
    if occupied {
        return Err(DriverError::Message(format!(
            "--check-repro {}: the directory is not empty",
            dir.display()
        )));
    }
    Ok(())
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> DriverError + '_ {
    move |e| DriverError::Message(format!("{}: {e}", path.display()))
}

/// One try: the model file to run, its inputs as (name, model input
/// index).
struct Attempt {
    model: PathBuf,
    inputs: Vec<(String, usize)>,
}

/// Writes the bundle into `dir` and runs its command; returns the lines
/// to show and whether the bundle was kept.
pub(crate) fn bundle(
    c: &CheckRun<'_>,
    found: &Localization,
    dir: &Path,
    checked: &Checked,
) -> Result<(Vec<String>, bool), DriverError> {
    std::fs::create_dir_all(dir.join("inputs")).map_err(io(dir))?;
    let mut attempts = Vec::new();
    // The diverging prefix on its own first; the whole model if that does
    // not fail alone.
    if let Some(text) = &found.repro_module {
        let path = dir.join("model.mlir");
        std::fs::write(&path, format!("{text}\n")).map_err(io(&path))?;
        let inputs = found
            .repro_inputs
            .iter()
            .enumerate()
            .map(|(j, &i)| (format!("input_{j}"), i))
            .collect();
        attempts.push(Attempt {
            model: PathBuf::from("model.mlir"),
            inputs,
        });
    }
    let ext = c
        .model
        .extension()
        .map_or(String::new(), |e| format!(".{}", e.to_string_lossy()));
    attempts.push(Attempt {
        model: PathBuf::from(format!("whole-model{ext}")),
        inputs: c.in_names.iter().cloned().zip(0..).collect(),
    });
    let tol = (c.tolerance_of)(DType::F32);
    let mut lines = Vec::new();
    for attempt in &attempts {
        if attempt.model.starts_with("whole-model") {
            let path = dir.join(&attempt.model);
            std::fs::copy(c.model, &path).map_err(io(&path))?;
        }
        let mut args: Vec<String> = vec![
            "run".into(),
            attempt.model.display().to_string(),
            "--mode".into(),
            "graph".into(),
            "--check".into(),
            "--check-no-localize".into(),
            "--threads".into(),
            c.threads.max(1).to_string(),
            "--rtol".into(),
            tol.rtol.to_string(),
            "--atol".into(),
            tol.atol.to_string(),
        ];
        if attempt.model.starts_with("whole-model") && c.function != "main" {
            args.extend(["--function".into(), c.function.to_string()]);
        }
        for (name, i) in &attempt.inputs {
            let Some(t) = c.inputs.get(*i) else {
                continue;
            };
            let file = format!("inputs/{name}.npy");
            let path = dir.join(&file);
            strata_runtime::npy::save(&path, t)
                .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))?;
            args.extend(["--input".into(), format!("{name}={file}")]);
        }
        if let Some(recipe) = c.recipe {
            let path = dir.join("recipe.toml");
            std::fs::copy(recipe, &path).map_err(io(&path))?;
            args.extend(["--recipe".into(), "recipe.toml".into()]);
        }
        let exe = std::env::current_exe().map_err(|e| DriverError::Message(e.to_string()))?;
        let ran = Command::new(&exe)
            .args(&args)
            .current_dir(dir)
            .output()
            .map_err(|e| DriverError::Message(format!("{}: {e}", exe.display())))?;
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&ran.stdout),
            String::from_utf8_lossy(&ran.stderr)
        );
        if ran.status.success() || !said.contains(MISMATCH) {
            lines.push(format!(
                "check: the repro with {} does not reproduce the mismatch{}",
                attempt.model.display(),
                if ran.status.success() {
                    String::new()
                } else {
                    format!(
                        " (it fails otherwise: {})",
                        said.lines().last().unwrap_or("")
                    )
                }
            ));
            continue;
        }
        let quoted: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
        let script = format!(
            "#!/bin/sh\n# Reproduces the mismatch `strata run --check` found in {}: graph mode\n# against eager mode on the inputs below; it exits 1 while the mismatch is there.\n# STRATA: the strata binary to run (default: strata on PATH).\ncd \"$(dirname \"$0\")\" || exit 2\nexec \"${{STRATA:-strata}}\" {}\n",
            c.model.display(),
            quoted.join(" ")
        );
        let path = dir.join("repro.sh");
        std::fs::write(&path, script).map_err(io(&path))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .map_err(io(&path))?;
        }
        let path = dir.join("pipeline.txt");
        std::fs::write(&path, format!("{}\n", c.pipeline)).map_err(io(&path))?;
        let path = dir.join("check.json");
        let mut report = checked.to_json();
        for (k, v) in found
            .to_json()
            .as_object()
            .into_iter()
            .flat_map(|o| o.iter())
        {
            report[k] = v.clone();
        }
        std::fs::write(&path, format!("{report:#}\n")).map_err(io(&path))?;
        if !attempt.model.starts_with("whole-model") {
            let _ = std::fs::remove_file(dir.join(format!("whole-model{ext}")));
        }
        lines.push(format!(
            "check: repro bundle in {} (run {}/repro.sh: it fails as the model does)",
            dir.display(),
            dir.display()
        ));
        return Ok((lines, true));
    }
    // Nothing reproduced: nothing is kept.
    let _ = std::fs::remove_dir_all(dir);
    lines.push(format!(
        "check: no repro bundle kept in {}: no command reproduced the mismatch on its own",
        dir.display()
    ));
    Ok((lines, false))
}

fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_=./,:".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
