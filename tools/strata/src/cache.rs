//! The plan cache on disk, as `strata run` and `strata bench --shapes`
//! set it up: the directory and the model's identity.

use std::path::Path;

use strata_runtime::session::SessionOptions;

use crate::DriverError;

/// The plan cache on disk for `model`: `--cache-dir` over what `options`
/// hold (the recipe's, else `STRATA_CACHE_DIR`), with the model file's
/// sha256 as its identity.
pub(crate) fn disk_cache_options(
    options: &mut SessionOptions,
    model: &Path,
    cache_dir: Option<&Path>,
) -> Result<(), DriverError> {
    if let Some(dir) = cache_dir {
        options.cache_dir = Some(dir.to_path_buf());
    }
    if options.cache_dir.is_some() {
        let hash = hash_file(model)
            .map_err(DriverError::Message)?
            .join()
            .unwrap_or_else(|_| Err("hashing the model failed".into()));
        options.model_sha256 = Some(hash.map_err(DriverError::Message)?);
        options.model_name = file_name(model);
    }
    Ok(())
}

/// A thread computing a file's sha256.
pub(crate) type HashThread = std::thread::JoinHandle<Result<String, String>>;

/// The sha256 of the file at `path`, computed on a thread of its own.
pub(crate) fn hash_file(path: &Path) -> Result<HashThread, String> {
    let path = path.to_path_buf();
    let hash = move || {
        std::fs::read(&path)
            .map(|bytes| strata_artifact::sha256_hex(&bytes))
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    std::thread::Builder::new()
        .spawn(hash)
        .map_err(|e| format!("cannot start a thread to hash the model: {e}"))
}

/// The file name of `path`, as text.
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned())
}
