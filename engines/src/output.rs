//! Output paths: checked before any work starts, and written so that nothing half-written or
//! unreadable is left. A regular file is replaced atomically (a temporary file beside it, then
//! a rename) and created with mode 0666 less the umask, as any other program's output; a
//! target that is not a regular file (a FIFO, a terminal, `/dev/stdout`) is written in place,
//! never replaced.

use std::ffi::CString;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use grfgen_support::input::shown;
use grfgen_support::interrupt::Partial;

use crate::error::CliError;

/// The refusal of `path`, given as `flag`, for `why`.
fn refused(flag: &str, path: &Path, why: &str) -> CliError {
    let name = match path.as_os_str().is_empty() {
        true => "''".to_string(),
        false => shown(&path.to_string_lossy()),
    };
    CliError::Input(format!("invalid value {name} for {flag}: {why}"))
}

/// Whether this process may write into `path` (`access(2)`, W_OK).
fn writable(path: &Path) -> bool {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated string for the call's duration.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// The directory a file `path` goes into (`.` for a bare name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Symbolic links followed at most, as the kernel does (`ELOOP` past it).
const MAX_LINKS: usize = 40;

/// `path` with the symbolic links at its end followed: the name a write through it reaches. A
/// dangling link gives the name it points at, which a write creates. A link reaching a special
/// file stays as given: `/dev/stdout` on a pipe names `pipe:[N]`, which is no path.
pub fn resolved(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if is_special(&path) {
            break;
        }
        match fs::read_link(&path) {
            Ok(target) if target.is_absolute() => path = target,
            Ok(target) => path = parent_of(&path).join(target),
            Err(_) => break,
        }
    }
    path
}

/// The refusal of `path` (given as `flag`) when the directory `dir` that should hold it cannot:
/// missing, not a directory, or not writable; `None` when it can.
fn unusable_dir(flag: &str, path: &Path, dir: &Path) -> Option<CliError> {
    let why = match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() && writable(dir) => return None,
        Ok(meta) if meta.is_dir() => format!(
            "the directory {} cannot be written (permission denied)",
            dir.display()
        ),
        Ok(_) => format!("{} is not a directory", dir.display()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            format!("the directory {} does not exist", dir.display())
        }
        Err(_) => format!("{} is not a directory", dir.display()),
    };
    Some(refused(flag, path, &why))
}

/// Checks that the file `path` (given as `flag`) can be written, before any work: a name that
/// is not a directory, in an existing directory this process may write into (or an existing
/// special file it may write to). A symbolic link is followed, a dangling one to the new file
/// it names. The name the file is written at.
pub fn check_file(flag: &str, path: &Path) -> Result<PathBuf, CliError> {
    let text = path.to_string_lossy();
    if text.is_empty() || text.ends_with('/') {
        return Err(refused(flag, path, "allowed a file name"));
    }
    let target = resolved(path);
    match fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => return Err(refused(flag, path, "it is a directory")),
        Ok(meta) if !meta.is_file() => {
            return match writable(&target) {
                true => Ok(target),
                false => Err(refused(
                    flag,
                    path,
                    "it cannot be written (permission denied)",
                )),
            };
        }
        _ => {}
    }
    match unusable_dir(flag, path, parent_of(&target)) {
        Some(refusal) => Err(refusal),
        None => Ok(target),
    }
}

/// Checks that the directory `path` (given as `flag`) can hold output, before any work: an
/// existing directory this process may write into, or a new one whose nearest existing
/// ancestor is such a directory. A symbolic link is followed, a dangling one to the new
/// directory it names. The name the directory is written at.
pub fn check_dir(flag: &str, path: &Path) -> Result<PathBuf, CliError> {
    if path.as_os_str().is_empty() {
        return Err(refused(flag, path, "allowed a directory name"));
    }
    // Without a trailing `/`, so that `file/` is seen as the file it names.
    let target: PathBuf = resolved(&path.components().collect::<PathBuf>());
    for ancestor in target.ancestors() {
        let ancestor = match ancestor.as_os_str().is_empty() {
            true => Path::new("."),
            false => ancestor,
        };
        match fs::metadata(ancestor) {
            // Missing, or below a file (`file/sub`): the file is found further up.
            Err(_) => continue,
            Ok(meta) if meta.is_dir() => {
                return match unusable_dir(flag, path, ancestor) {
                    Some(refusal) => Err(refusal),
                    None => Ok(target),
                }
            }
            Ok(_) => {
                let why = match ancestor == target {
                    true => "it exists and is not a directory".to_string(),
                    false => format!("{} is not a directory", ancestor.display()),
                };
                return Err(refused(flag, path, &why));
            }
        }
    }
    Ok(target)
}

/// Whether `path` names something that is there and is not a regular file (a FIFO, a device,
/// `/dev/stdout`): such a target is written in place.
pub fn is_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| {
        let kind = m.file_type();
        kind.is_fifo() || kind.is_char_device() || kind.is_block_device() || kind.is_socket()
    })
}

/// Writes `bytes` to `path` (given as `flag`): in place when it is a special file, else
/// through a temporary file beside it and a rename, so that the file is whole or not there.
/// A symbolic link is followed: the file it names is replaced, or created when it is missing.
pub fn write_file(flag: &str, path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let failed = |e: io::Error| {
        CliError::Failed(format!(
            "cannot write {flag} {}: {e}",
            shown(&path.to_string_lossy())
        ))
    };
    if is_special(path) {
        let mut file = OpenOptions::new().write(true).open(path).map_err(failed)?;
        return file
            .write_all(bytes)
            .and_then(|_| file.flush())
            .map_err(failed);
    }
    let target = resolved(path);
    let temp = Temporary::create(&target).map_err(failed)?;
    temp.fill(bytes).map_err(failed)?;
    temp.finish(&target).map_err(failed)
}

/// A temporary file beside a target: created 0666 less the umask, removed if dropped or if the
/// run is interrupted before it is renamed into place.
struct Temporary {
    path: PathBuf,
    _partial: Partial,
}

impl Temporary {
    /// A new temporary file in `target`'s directory.
    fn create(target: &Path) -> io::Result<Self> {
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        let dir = parent_of(target);
        for attempt in 0..100u32 {
            let path = dir.join(format!(".{name}.tmp-{}-{attempt}", std::process::id()));
            let created = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o666)
                .open(&path);
            match created {
                Ok(_) => {
                    let partial = Partial::new(&path);
                    return Ok(Self {
                        path,
                        _partial: partial,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free temporary file name",
        ))
    }

    /// Writes `bytes` into the file and flushes them to the disk.
    fn fill(&self, bytes: &[u8]) -> io::Result<()> {
        let mut file = OpenOptions::new().write(true).open(&self.path)?;
        file.write_all(bytes)?;
        file.sync_data()
    }

    /// Renames the file to `target`.
    fn finish(self, target: &Path) -> io::Result<()> {
        fs::rename(&self.path, target)
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        // After `finish` the file has its name already.
        let _ = fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_regular_file_is_replaced_whole_with_the_umask_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_file("-o", &path, b"one").unwrap();
        write_file("-o", &path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        // SAFETY: reading the umask by setting it and putting it back.
        let mask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        };
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !(mask as u32));
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file stays");
    }

    #[test]
    fn a_fifo_is_written_in_place_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let c = CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: `c` is a valid path string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        write_file("--junit", &fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(is_special(&fifo), "the FIFO is still a FIFO");
    }

    #[test]
    fn paths_are_checked_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        fs::write(&file, "x").unwrap();
        let words = |r: Result<PathBuf, CliError>| r.unwrap_err().to_string();
        assert!(
            words(check_file("--junit", &dir.path().join("no/j.xml"))).contains("does not exist")
        );
        assert!(words(check_file("-o", dir.path())).contains("is a directory"));
        assert!(words(check_file("-o", &file.join("p.svg"))).contains("is not a directory"));
        assert!(words(check_dir("--out", &file)).contains("not a directory"));
        assert!(words(check_dir("--out", &file.join("sub"))).contains("not a directory"));
        check_file("-o", &dir.path().join("p.svg")).unwrap();
        check_file("--vcd", Path::new("/dev/null")).unwrap();
        check_dir("--out", &dir.path().join("a/b/c")).unwrap();
    }
}
