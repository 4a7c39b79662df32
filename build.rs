//! Records the commit a binary was built from (`DFASOLVE_COMMIT`), so that every file and
//! report it writes says which program wrote it: the short hash, `-modified` when tracked
//! files differ from it, `unknown` outside a git checkout (a source package).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
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
    // A new commit (the branch's ref moves), a checkout, a staged change or an edit can change
    // the answer.
    let mut watched = vec![".git/HEAD".to_string(), ".git/index".into(), ".git/packed-refs".into()];
    if let Some(branch) =
        std::fs::read_to_string(".git/HEAD").ok().and_then(|h| h.strip_prefix("ref: ").map(str::trim).map(String::from))
    {
        watched.push(format!(".git/{branch}"));
    }
    watched.extend(["src".into(), "Cargo.toml".into()]);
    for path in watched {
        println!("cargo:rerun-if-changed={path}");
    }
}
