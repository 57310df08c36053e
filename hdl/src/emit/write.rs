//! Writing a file set so that a failure leaves the destination as it was.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Why a file set could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// The destination exists and is not a directory: bad input.
    NotADirectory(PathBuf),
    /// A file of the set would replace something that is not a regular file (a directory, a
    /// device): bad input, and nothing is touched.
    Taken(PathBuf),
    /// The file system refused; `dir` is the destination.
    Io {
        /// The destination directory.
        dir: PathBuf,
        /// What the file system said.
        error: io::Error,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::NotADirectory(dir) => write!(
                f,
                "invalid value {} for --out: it exists and is not a directory",
                dir.display()
            ),
            WriteError::Taken(path) => write!(
                f,
                "invalid value for --out: {} exists and is not a regular file; nothing was written",
                path.display()
            ),
            WriteError::Io { dir, error } => write!(
                f,
                "cannot write into --out {}: {error}; nothing was written",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for WriteError {}

/// Writes `files` into `dir` so that a failure leaves the file system as it was: every file is
/// written into a staging directory beside `dir` first, then moved into place (the whole
/// directory when `dir` is new, file by file otherwise, putting back the files it replaced if
/// a move fails). Parent directories it had to create are removed again on failure. Other files
/// in `dir` are never touched.
pub fn write_atomically(dir: &Path, files: &[(String, String)]) -> Result<(), WriteError> {
    if dir.exists() && !dir.is_dir() {
        return Err(WriteError::NotADirectory(dir.to_path_buf()));
    }
    for (name, _) in files {
        let target = dir.join(name);
        if let Ok(meta) = fs::symlink_metadata(&target) {
            if !meta.file_type().is_file() {
                return Err(WriteError::Taken(target));
            }
        }
    }
    let io = |error| WriteError::Io {
        dir: dir.to_path_buf(),
        error,
    };
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => Path::new(".").to_path_buf(),
    };
    let mut parents = NewParents::create(&parent).map_err(io)?;
    let staging = Staging::new(&parent).map_err(io)?;
    for (name, contents) in files {
        fs::write(staging.path.join(name), contents).map_err(io)?;
    }
    if dir.exists() {
        replace_files(dir, &staging.path, files).map_err(io)?;
    } else {
        fs::rename(&staging.path, dir).map_err(io)?;
    }
    parents.keep();
    Ok(())
}

/// Moves each of `files` from `staging` into `dir`. An existing file is first moved aside
/// into `staging/.previous`; if any move fails, the new files are taken out again and the
/// old ones put back.
fn replace_files(dir: &Path, staging: &Path, files: &[(String, String)]) -> io::Result<()> {
    let previous = staging.join(".previous");
    fs::create_dir(&previous)?;
    let mut moved: Vec<(&str, bool)> = Vec::new();
    let result = files.iter().try_for_each(|(name, _)| {
        let target = dir.join(name);
        let existed = target.exists();
        if existed {
            fs::rename(&target, previous.join(name))?;
        }
        moved.push((name, existed));
        fs::rename(staging.join(name), &target)
    });
    if result.is_err() {
        for (name, existed) in moved.into_iter().rev() {
            let target = dir.join(name);
            let _ = fs::remove_file(&target);
            if existed {
                let _ = fs::rename(previous.join(name), &target);
            }
        }
    }
    result
}

/// The directories created to make a path exist, removed again (deepest first) when dropped
/// unless kept.
struct NewParents {
    created: Vec<PathBuf>,
}

impl NewParents {
    /// Creates `path` and its missing ancestors, remembering which were missing.
    fn create(path: &Path) -> io::Result<Self> {
        let mut missing: Vec<PathBuf> = path
            .ancestors()
            .take_while(|p| !p.as_os_str().is_empty() && !p.exists())
            .map(Path::to_path_buf)
            .collect();
        missing.reverse();
        let mut parents = Self {
            created: Vec::new(),
        };
        for dir in missing {
            match fs::create_dir(&dir) {
                Ok(()) => parents.created.push(dir),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => {}
                Err(e) => return Err(e),
            }
        }
        Ok(parents)
    }

    /// Keeps the created directories.
    fn keep(&mut self) {
        self.created.clear();
    }
}

impl Drop for NewParents {
    fn drop(&mut self) {
        for dir in self.created.iter().rev() {
            let _ = fs::remove_dir(dir);
        }
    }
}

/// A fresh staging directory, removed when dropped (after a successful rename it is gone
/// already).
struct Staging {
    path: PathBuf,
}

impl Staging {
    fn new(parent: &Path) -> io::Result<Self> {
        for attempt in 0..100u32 {
            let path = parent.join(format!(".grfgen-staging-{}-{attempt}", std::process::id()));
            match fs::create_dir(&path) {
                Ok(()) => return Ok(Self { path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free staging directory name",
        ))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}
