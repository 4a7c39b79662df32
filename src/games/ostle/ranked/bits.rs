//! Moving a mask's bits onto the set bits of another and back (x86's PDEP and PEXT): the
//! boards of a rank directory are packed masks spread over the squares left free. The
//! instructions are used where the processor has them (one per call, where the loops below
//! take one step per free square; measured in `docs/measurements.md`), and this module is one
//! of the crate's three places of unsafe code (listed in the crate docs): calling a function
//! compiled for a feature the processor was just found to have.
#![allow(unsafe_code)]

/// The bits of `mask`, lowest first, moved onto the set bits of `free`, lowest first.
#[inline]
pub fn deposit(mask: u64, free: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the processor has BMI2, checked on the line above.
        return unsafe { hardware::deposit(mask, free) };
    }
    deposit_by_loop(mask, free)
}

/// The bits of `set` at the set bits of `free`, packed lowest first: the inverse of
/// [`deposit`] for sets within `free`.
#[inline]
pub fn extract(set: u64, free: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the processor has BMI2, checked on the line above.
        return unsafe { hardware::extract(set, free) };
    }
    extract_by_loop(set, free)
}

fn deposit_by_loop(mask: u64, free: u64) -> u64 {
    let (mut out, mut f, mut m) = (0, free, mask);
    while m != 0 && f != 0 {
        let low = f & f.wrapping_neg();
        if m & 1 == 1 {
            out |= low;
        }
        f ^= low;
        m >>= 1;
    }
    out
}

fn extract_by_loop(set: u64, free: u64) -> u64 {
    let (mut out, mut f, mut i) = (0, free, 0);
    while f != 0 {
        let low = f & f.wrapping_neg();
        if set & low != 0 {
            out |= 1 << i;
        }
        f ^= low;
        i += 1;
    }
    out
}

#[cfg(target_arch = "x86_64")]
mod hardware {
    #[target_feature(enable = "bmi2")]
    pub(super) fn deposit(mask: u64, free: u64) -> u64 {
        std::arch::x86_64::_pdep_u64(mask, free)
    }

    #[target_feature(enable = "bmi2")]
    pub(super) fn extract(set: u64, free: u64) -> u64 {
        std::arch::x86_64::_pext_u64(set, free)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfa::SplitMix64;

    /// The instructions (where this processor has them) and the loops agree, on sparse and
    /// dense masks alike; extracting undoes depositing.
    #[test]
    fn instructions_and_loops_agree() {
        let mut rng = SplitMix64::new(7);
        for i in 0..200_000u32 {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            let (mask, free) = match i % 3 {
                0 => (a, b),
                1 => (a & rng.next_u64(), b | rng.next_u64()),
                _ => (a >> (i % 64), b & rng.next_u64()),
            };
            let spread = deposit_by_loop(mask, free);
            assert_eq!(deposit(mask, free), spread, "deposit {mask:#x} onto {free:#x}");
            assert_eq!(extract(spread, free), extract_by_loop(spread, free), "extract {spread:#x} from {free:#x}");
            let width = free.count_ones();
            let low = if width == 64 { u64::MAX } else { (1 << width) - 1 };
            assert_eq!(extract(spread, free), mask & low);
            assert_eq!(extract(a, free), extract_by_loop(a, free));
        }
    }
}
