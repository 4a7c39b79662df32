//! Records the commit a binary was built from (`DFASOLVE_COMMIT`), so that every file and
//! report it writes says which program wrote it: the short hash, `-modified` when tracked
//! files differ from it, `unknown` outside a git checkout (a source package).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    // `--no-optional-locks`: `git status` would otherwise refresh `.git/index`, a file this
    // script watches, and every later cargo command would build the crate again.
    let out = Command::new("git").arg("--no-optional-locks").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) => match git(&["status", "--porcelain", "--untracked-files=no"]) {
            Some(changes) if !changes.is_empty() => format!("{hash}-modified"),
            _ => hash,
        },
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=DFASOLVE_COMMIT={commit}");
    // A new commit (the branch's ref moves), a checkout or an edit can change the answer. The
    // index is not watched: staging changes nothing here, and any git command run beside a
    // build (an editor's, a CI runner's) may refresh it, which made every later cargo
    // command build the crate again.
    let mut watched = vec![".git/HEAD".to_string(), ".git/packed-refs".into()];
    if let Some(branch) =
        std::fs::read_to_string(".git/HEAD").ok().and_then(|h| h.strip_prefix("ref: ").map(str::trim).map(String::from))
    {
        watched.push(format!(".git/{branch}"));
    }
    watched.extend(["src".into(), "Cargo.toml".into()]);
    // A watched path that does not exist (a fresh clone has no `.git/packed-refs`) is
    // always stale to cargo: it would build the crate again on every command.
    for path in watched.into_iter().filter(|p| std::path::Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={path}");
    }
}
