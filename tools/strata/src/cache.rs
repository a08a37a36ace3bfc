//! The plan cache on disk, as `strata run` and `strata bench --shapes`
//! set it up: the directory and the model's identity.

use std::path::{Path, PathBuf};

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
    if let Some(dir) = options.cache_dir.clone() {
        let hash = hash_file(model, Some(&dir))
            .map_err(DriverError::Message)?
            .join()
            .unwrap_or_else(|_| Err("hashing the model failed".into()));
        options.model_sha256 = Some(hash.map_err(DriverError::Message)?);
        options.model_name = file_name(model);
    }
    Ok(())
}

/// The plan cache directory a run uses: `--cache-dir`, else the recipe's
/// `runtime.cache_dir`, else `STRATA_CACHE_DIR` (as
/// `SessionOptions::from_recipe` reads them).
pub(crate) fn cache_dir_of(
    flag: Option<&Path>,
    recipe: Option<&strata_recipe::Recipe>,
) -> Option<PathBuf> {
    flag.map(Path::to_path_buf)
        .or_else(|| recipe.and_then(|r| r.runtime.cache_dir.as_ref().map(PathBuf::from)))
        .or_else(|| {
            std::env::var_os("STRATA_CACHE_DIR")
                .filter(|d| !d.is_empty())
                .map(PathBuf::from)
        })
}

/// A thread computing a file's sha256.
pub(crate) type HashThread = std::thread::JoinHandle<Result<String, String>>;

/// The sha256 of the file at `path`, computed on a thread of its own.
/// With a plan cache directory `dir`, the hash is remembered there by the
/// file's identity (device, inode, size, modification and change times,
/// as git's index remembers a file's hash): a warm start does not read a
/// model of gigabytes to name it. A file changed in any way has another
/// change time (which no tool sets), so its hash is computed again.
pub(crate) fn hash_file(path: &Path, dir: Option<&Path>) -> Result<HashThread, String> {
    let path = path.to_path_buf();
    let dir = dir.map(Path::to_path_buf);
    let hash = move || {
        let memo = dir.as_deref().and_then(|d| Memo::of(d, &path));
        if let Some(sha) = memo.as_ref().and_then(Memo::read) {
            return Ok(sha);
        }
        let sha = std::fs::read(&path)
            .map(|bytes| strata_artifact::sha256_hex(&bytes))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(memo) = memo {
            memo.write(&path, &sha);
        }
        Ok(sha)
    };
    std::thread::Builder::new()
        .spawn(hash)
        .map_err(|e| format!("cannot start a thread to hash the model: {e}"))
}

/// The hash remembered in the cache directory `dir` for the file at `path`
/// as it is now (its identity unchanged since it was hashed).
pub(crate) fn remembered_hash(dir: &Path, path: &Path) -> Option<String> {
    Memo::of(dir, path)?.read()
}

/// Where a model's hash is remembered (`DIR/models/<40 hex digits>`, named
/// by its canonical path) and the identity of the file it was taken of.
struct Memo {
    file: PathBuf,
    identity: String,
}

impl Memo {
    /// The memo of the model at `path` in the cache directory `dir`; `None`
    /// where the file's identity cannot be read.
    fn of(dir: &Path, path: &Path) -> Option<Memo> {
        let canonical = std::fs::canonicalize(path).ok()?;
        let identity = identity(&canonical)?;
        let name = strata_artifact::sha256_hex(canonical.as_os_str().as_encoded_bytes());
        Some(Memo {
            file: dir.join("models").join(&name[..40]),
            identity,
        })
    }

    /// The hash remembered for this identity.
    fn read(&self) -> Option<String> {
        let text = std::fs::read_to_string(&self.file).ok()?;
        let (identity, sha) = text.trim_end().rsplit_once(' ')?;
        let hex = sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit());
        (identity == self.identity && hex).then(|| sha.to_string())
    }

    /// Remembers `sha`, taken of `path`, unless the file changed while it
    /// was read or was changed so recently that a change within the same
    /// clock tick could follow; best effort (a memo not written is a hash
    /// computed again).
    fn write(&self, path: &Path, sha: &str) {
        let now = std::time::SystemTime::now();
        let settled = std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age.as_secs() >= 2);
        let unchanged = std::fs::canonicalize(path)
            .ok()
            .and_then(|p| identity(&p))
            .is_some_and(|i| i == self.identity);
        let Some(parent) = self.file.parent() else {
            return;
        };
        if !settled || !unchanged || std::fs::create_dir_all(parent).is_err() {
            return;
        }
        let temporary = parent.join(format!(".memo-{}-{}.tmp", std::process::id(), sha));
        let text = format!("{} {sha}\n", self.identity);
        if std::fs::write(&temporary, text).is_err()
            || std::fs::rename(&temporary, &self.file).is_err()
        {
            let _ = std::fs::remove_file(&temporary);
        }
    }
}

/// A file's identity: device, inode, size, modification and change times
/// (nanoseconds).
#[cfg(unix)]
fn identity(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some(format!(
        "{} {} {} {}.{} {}.{}",
        m.dev(),
        m.ino(),
        m.size(),
        m.mtime(),
        m.mtime_nsec(),
        m.ctime(),
        m.ctime_nsec()
    ))
}

/// Elsewhere the hash is always computed.
#[cfg(not(unix))]
fn identity(_: &Path) -> Option<String> {
    None
}

/// The file name of `path`, as text.
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned())
}
