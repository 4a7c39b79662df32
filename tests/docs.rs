//! What a user reads points at real things: the examples in `--help` run as written, in a
//! fresh directory, after the README's first command; the Markdown files' links resolve inside
//! the repository.
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `Example:` lines of `dfasolve SUBCOMMAND --help` (commands and pipes into one),
/// without the leading spaces.
fn examples(bin: &str, subcommand: &str) -> Vec<String> {
    let out = Command::new(bin).args([subcommand, "--help"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let after = text.split_once("Example").map_or("", |(_, rest)| rest);
    after
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| l.starts_with("dfasolve ") || l.contains("| dfasolve "))
        .map(String::from)
        .collect()
}

#[test]
fn help_examples_run_as_written() {
    let bin = env!("CARGO_BIN_EXE_dfasolve");
    let dir = crate::scratch::tempdir();
    let path = format!(
        "{}:{}",
        std::path::Path::new(bin).parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |line: &str| {
        let out = Command::new("sh")
            .args(["-c", line])
            .stdin(std::process::Stdio::null())
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(out.status.success(), "`{line}` failed: {}", String::from_utf8_lossy(&out.stderr));
    };
    // The README's first command, then the examples that read what it writes.
    run("dfasolve breakthrough --width 4 --height 5 --quiet");
    let mut ran = 0;
    for subcommand in ["nim", "query", "play", "stats", "check", "export", "plot", "puzzles", "positions"] {
        let lines = examples(bin, subcommand);
        assert!(!lines.is_empty(), "{subcommand} --help has an example");
        for line in lines {
            run(&line);
            ran += 1;
        }
    }
    assert!(ran >= 6);
}

/// The Markdown files of the repository (not `target/`).
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() && name != "target" && !name.to_string_lossy().starts_with('.') {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// Every relative link `](target)` and every backticked path that climbs (`` `../x` ``) in the
/// Markdown files names a file or directory inside the repository.
#[test]
fn markdown_links_resolve_inside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).canonicalize().unwrap();
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    assert!(files.len() > 5);
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let links = text.split("](").skip(1).filter_map(|rest| rest.split(')').next());
        let climbing = text.split('`').skip(1).step_by(2).filter(|t| t.starts_with("../"));
        for target in links.chain(climbing) {
            let target = target.split('#').next().unwrap().split_whitespace().next().unwrap_or("");
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let resolved = file.parent().unwrap().join(target);
            let inside = resolved.canonicalize().is_ok_and(|p| p.starts_with(&root));
            if !inside {
                broken.push(format!("{}: {target}", file.strip_prefix(&root).unwrap().display()));
            }
        }
    }
    assert!(broken.is_empty(), "links that do not resolve inside the repository: {broken:#?}");
}
