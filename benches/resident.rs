//! The process's resident memory, for the memory figures of `benches/dfa_ops.rs` and
//! `examples/peak_memory.rs` (both include this file).

/// (VmRSS, VmHWM) of this process in bytes, Linux only.
pub fn resident() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |k: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(k))?;
        Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}
