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
    /// The file system refused.
    Io(io::Error),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::NotADirectory(dir) => write!(
                f,
                "invalid value {} for --out: it exists and is not a directory",
                dir.display()
            ),
            WriteError::Io(e) => write!(f, "writing the design: {e}"),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

/// Writes `files` into `dir` so that a failure leaves `dir` as it was: everything is written
/// to a staging directory beside `dir` first, then moved into place (the whole directory when
/// `dir` is new, file by file otherwise).
pub fn write_atomically(dir: &Path, files: &[(String, String)]) -> Result<(), WriteError> {
    if dir.exists() && !dir.is_dir() {
        return Err(WriteError::NotADirectory(dir.to_path_buf()));
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => Path::new(".").to_path_buf(),
    };
    fs::create_dir_all(&parent)?;
    let staging = Staging::new(&parent)?;
    for (name, contents) in files {
        fs::write(staging.path.join(name), contents)?;
    }
    if !dir.exists() {
        fs::rename(&staging.path, dir)?;
        return Ok(());
    }
    for (name, _) in files {
        fs::rename(staging.path.join(name), dir.join(name))?;
    }
    Ok(())
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
