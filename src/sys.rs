//! What the operating system reports about this process and the machine: resident memory,
//! its peak, CPU time, memory available. Linux reads `/proc`; elsewhere every answer is
//! `None`, and callers report "unknown" rather than a made-up figure.

/// A memory field of `/proc/self/status` (e.g. `VmRSS`, `VmHWM`), in KiB.
fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.strip_prefix(field).is_some_and(|rest| rest.starts_with(':')))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Resident memory of this process now (VmRSS), in bytes.
pub fn resident_bytes() -> Option<u64> {
    status_kib("VmRSS").map(|kib| kib * 1024)
}

/// Resident memory of this process now, in MiB, for trace lines (0 where not reported).
pub fn resident_mib() -> u64 {
    resident_bytes().map_or(0, |b| b >> 20)
}

/// Resident memory of this process that the kernel cannot drop and read back from a file:
/// anonymous and shared pages (`RssAnon` + `RssShmem`), in bytes. Pages mapped from files
/// (sets spilled to disk, Ostle's tables) are left out: the kernel reclaims them under
/// pressure.
pub fn unreclaimable_resident_bytes() -> Option<u64> {
    Some((status_kib("RssAnon")? + status_kib("RssShmem").unwrap_or(0)) * 1024)
}

/// Peak resident memory of this process so far (VmHWM), in bytes.
pub fn peak_resident_bytes() -> Option<u64> {
    status_kib("VmHWM").map(|kib| kib * 1024)
}

/// Memory the system can give this process now (`MemAvailable`), in bytes.
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kib| kib * 1024)
}

/// CPU time this process has used (user and system), in seconds.
pub fn cpu_seconds() -> Option<f64> {
    // utime and stime, fields 14 and 15 of /proc/self/stat, in clock ticks of 1/100 s; the
    // fields are counted after the command name, which may hold spaces and ends at the last ')'.
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some((f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?) as f64 / 100.0)
}

/// Give the memory the allocator holds free back to the system, where the C library can
/// (glibc's `malloc_trim`): after a stopped operation has dropped its tables, so that the
/// resident memory the budget watches falls before the work is tried again in parts.
#[allow(unsafe_code)]
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: `malloc_trim` only returns free heap pages to the kernel; it takes no
        // pointer and is safe to call from any thread at any time.
        unsafe {
            malloc_trim(0);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn linux_reports_memory_and_cpu() {
        if !cfg!(target_os = "linux") {
            return;
        }
        let (now, peak) = (super::resident_bytes().unwrap(), super::peak_resident_bytes().unwrap());
        assert!(now > 0 && peak >= now, "resident {now}, peak {peak}");
        assert!(super::available_memory().unwrap() > 0);
        assert!(super::cpu_seconds().unwrap() >= 0.0);
    }
}
