//! The files the commands write (`smtlib --output`, `report`, `vendor
//! --write`, `hw emit`), checked before any work and written whole or not at
//! all.
//!
//! - [`Output::file`] and [`Output::in_dir`] check, before the command
//!   computes anything, that each target's folder takes a new file and that
//!   each target is absent or a regular file: a run of minutes must not fail
//!   at its end, and a device (`/dev/full`), a folder or a link to either is
//!   never replaced.
//! - [`Output::write`] writes each file to a temporary file with a unique
//!   name in the target's folder, so two runs never collide, then renames it
//!   over the target, so a reader sees the old file or the new one and never
//!   part of either. A temporary file not renamed is removed when dropped,
//!   also when the run is interrupted.

use std::fs::{self, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::error::{Error, Result};
use crate::interrupt;

/// Files to be written, checked.
#[derive(Debug)]
pub struct Output {
    /// The folder the files go into, created with its parents on writing.
    dir: PathBuf,
    targets: Vec<Target>,
}

#[derive(Debug)]
struct Target {
    /// As named on the command line, for messages.
    named: PathBuf,
    /// The file replaced: `named`, or the file a symbolic link names.
    real: PathBuf,
}

impl Output {
    /// The file `path`, whose folder must exist.
    pub fn file(path: &Path) -> Result<Output> {
        let what = || format!("cannot write {}", path.display());
        if path.file_name().is_none() {
            return Err(Error::usage(format!("{}: not a file name", what())));
        }
        let dir = folder(path);
        if !dir.exists() {
            return Err(Error::usage(format!("{}: no folder {}", what(), dir.display())));
        }
        let target = Target::check(path)?;
        probe(folder(&target.real), &what)?;
        Ok(Output { dir: dir.to_path_buf(), targets: vec![target] })
    }

    /// The files `names` in `dir`, which is created, with its parents, on
    /// writing when it does not exist.
    pub fn in_dir(dir: &Path, names: &[&str]) -> Result<Output> {
        let what = || format!("cannot write to {}", dir.display());
        // The nearest folder that exists must take new files: the rest of
        // the path is created in it.
        let mut existing = dir;
        while !existing.as_os_str().is_empty() && fs::symlink_metadata(existing).is_err() {
            existing = existing.parent().unwrap_or(Path::new(""));
        }
        let existing = if existing.as_os_str().is_empty() { Path::new(".") } else { existing };
        probe(existing, &what)?;
        let targets = names.iter().map(|name| Target::check(&dir.join(name))).collect::<Result<Vec<_>>>()?;
        // A target in a folder of its own (`html/index.html`), or one a
        // link puts elsewhere, is probed there when that folder exists; a
        // folder still to be made is made in one probed above.
        for target in &targets {
            let at = folder(&target.real);
            if at != dir && at.exists() {
                probe(at, &what)?;
            }
        }
        Ok(Output { dir: dir.to_path_buf(), targets })
    }

    /// Write `texts`, one for each target in order: each into a temporary
    /// file beside its target, and only once all are written, each renamed
    /// over its target. An error, or an interrupt, leaves every target as it
    /// was (up to the renames, each of which is whole).
    pub fn write(&self, texts: &[&str]) -> Result<()> {
        assert_eq!(texts.len(), self.targets.len(), "one text per target");
        let _writing = interrupt::writing();
        fs::create_dir_all(&self.dir).map_err(|e| Error::file(format!("cannot create {}", self.dir.display()), e))?;
        let mut written = Vec::new();
        for (target, text) in self.targets.iter().zip(texts) {
            let at = folder(&target.real);
            fs::create_dir_all(at).map_err(|e| Error::file(format!("cannot create {}", at.display()), e))?;
            written.push(target.write_temporary(text)?);
        }
        for (target, temporary) in self.targets.iter().zip(written) {
            interrupt::check()?;
            // Checked again: the target may have been replaced meanwhile.
            Target::check(&target.named)?;
            temporary
                .persist(&target.real)
                .map_err(|e| Error::file(format!("cannot replace {}", target.named.display()), plain(e.error)))?;
        }
        Ok(())
    }
}

impl Target {
    /// `path`, which must be absent, a regular file, or a symbolic link to
    /// one.
    fn check(path: &Path) -> Result<Target> {
        let refuse = |kind: &str| {
            Err(Error::Io {
                what: format!("refusing to replace {}", path.display()),
                source: io::Error::other(format!("{kind}, not a regular file")),
            })
        };
        let target = |real: PathBuf| Ok(Target { named: path.to_path_buf(), real });
        match fs::symlink_metadata(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => target(path.to_path_buf()),
            Err(e) => Err(Error::file(format!("cannot write {}", path.display()), e)),
            Ok(meta) if meta.is_file() => target(path.to_path_buf()),
            Ok(meta) if meta.is_symlink() => match fs::canonicalize(path) {
                // Writing through the link keeps it: the file it names is
                // replaced, as a shell's `>` would.
                Ok(real) if real.is_file() => target(real),
                Ok(real) => refuse(&format!("a symbolic link to {}", kind(&real))),
                Err(_) => refuse("a symbolic link to nothing"),
            },
            Ok(_) => refuse(kind(path)),
        }
    }

    /// `text` in a new temporary file in the target's folder, with the
    /// target's permissions (a new file's: read and write for all, less the
    /// umask, as for any file a program creates).
    fn write_temporary(&self, text: &str) -> Result<NamedTempFile> {
        let dir = folder(&self.real);
        let name = self.real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let permissions = fs::metadata(&self.real).map(|m| m.permissions()).ok();
        let what = || format!("cannot write {}", self.named.display());
        let mut file = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .permissions(Permissions::from_mode(0o666))
            .tempfile_in(dir)
            .map_err(|e| Error::file(what(), plain(e)))?;
        if let Some(p) = permissions {
            file.as_file().set_permissions(p).map_err(|e| Error::file(what(), e))?;
        }
        file.write_all(text.as_bytes()).and_then(|()| file.as_file().sync_all()).map_err(|e| Error::file(what(), e))?;
        Ok(file)
    }
}

/// The folder `path` is in (`.` for a bare name).
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Fail unless `dir` takes a new file: a temporary one, created and removed.
fn probe(dir: &Path, what: &dyn Fn() -> String) -> Result<()> {
    match fs::metadata(dir) {
        Ok(m) if !m.is_dir() => {
            return Err(Error::Io {
                what: what(),
                source: io::Error::other(format!("{} is not a folder", dir.display())),
            })
        }
        _ => {}
    }
    tempfile::Builder::new()
        .prefix(".ptxcheck-probe.")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| Error::file(format!("{}: {} does not take new files", what(), dir.display()), plain(e)))
}

/// `e` without the name of the temporary file that tempfile adds to its
/// errors: that file is ptxcheck's, and gone; the kind of error is what
/// tells the user something.
fn plain(e: io::Error) -> io::Error {
    if e.get_ref().is_some() {
        io::Error::from(e.kind())
    } else {
        e
    }
}

/// What `path` is, in words ("a folder").
fn kind(path: &Path) -> &'static str {
    let Ok(meta) = fs::metadata(path) else { return "nothing" };
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_fifo() {
        "a named pipe"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn writes_whole_files_and_leaves_no_temporary() {
        let dir = scratch();
        let out = Output::in_dir(&dir.path().join("a/b"), &["one", "two"]).unwrap();
        assert!(!dir.path().join("a").exists(), "nothing is created before writing");
        out.write(&["1\n", "2\n"]).unwrap();
        assert_eq!(names(&dir.path().join("a/b")), ["one", "two"]);
        assert_eq!(fs::read_to_string(dir.path().join("a/b/two")).unwrap(), "2\n");
        let file = dir.path().join("f");
        Output::file(&file).unwrap().write(&["x"]).unwrap();
        Output::file(&file).unwrap().write(&["y"]).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "y");
        assert_eq!(names(dir.path()), ["a", "f"]);
    }

    #[test]
    fn keeps_permissions_and_links() {
        let dir = scratch();
        let file = dir.path().join("f");
        fs::write(&file, "old").unwrap();
        fs::set_permissions(&file, Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        Output::file(&link).unwrap().write(&["new"]).unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&file).unwrap(), "new");
        assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o640);
        // A new file is not left readable by its owner only, as temporary
        // files are created.
        let new = dir.path().join("new");
        Output::file(&new).unwrap().write(&["x"]).unwrap();
        assert_ne!(fs::metadata(&new).unwrap().permissions().mode() & 0o077, 0);
    }

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        let dir = scratch();
        let link = dir.path().join("to-dir");
        std::os::unix::fs::symlink(dir.path(), &link).unwrap();
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nothing"), &dangling).unwrap();
        let cases = [
            (dir.path().to_path_buf(), "a folder, not a regular file"),
            (PathBuf::from("/dev/null"), "a character device, not a regular file"),
            (link, "a symbolic link to a folder, not a regular file"),
            (dangling, "a symbolic link to nothing, not a regular file"),
        ];
        for (path, expected) in cases {
            let e = Output::file(&path).unwrap_err();
            assert_eq!(e.to_string(), format!("refusing to replace {}: {expected}", path.display()));
            assert_eq!(e.status(), 3);
        }
        let e = Output::in_dir(Path::new("/dev"), &["null"]).unwrap_err();
        assert!(e.to_string().starts_with("refusing to replace /dev/null"), "{e}");
    }

    #[test]
    fn a_missing_folder_is_bad_usage() {
        let dir = scratch();
        let e = Output::file(&dir.path().join("no/such/file")).unwrap_err();
        assert_eq!(e.status(), 2, "{e}");
        let file = dir.path().join("file");
        fs::write(&file, "").unwrap();
        let e = Output::in_dir(&file.join("sub"), &["x"]).unwrap_err();
        assert!(e.to_string().contains("is not a folder"), "{e}");
    }
}
