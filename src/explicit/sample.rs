//! Positions drawn for a check of saved tables: every one when there are few, else a uniform
//! sample, the same for the same seed on every machine.

use crate::dfa::SplitMix64;

/// `samples` positions drawn uniformly with `rng` from parts of `sizes` positions, as (part,
/// index within it), or every position (in order) if the parts hold no more than `samples`.
pub fn draw(sizes: &[u64], samples: u64, rng: &mut SplitMix64) -> Vec<(usize, u64)> {
    let all: u64 = sizes.iter().sum();
    let locate = |mut i: u64| {
        let mut part = 0;
        while i >= sizes[part] {
            i -= sizes[part];
            part += 1;
        }
        (part, i)
    };
    if samples >= all {
        (0..all).map(locate).collect()
    } else {
        (0..samples).map(|_| locate(rng.below(u128::from(all)) as u64)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every position once when the sample covers them; otherwise each draw lands in a part
    /// with about that part's share, empty parts never.
    #[test]
    fn draws_cover_small_parts_and_follow_the_sizes() {
        let mut rng = SplitMix64::new(7);
        assert_eq!(draw(&[2, 0, 1], 3, &mut rng), [(0, 0), (0, 1), (2, 0)]);
        let picks = draw(&[1000, 0, 3000], 4000, &mut rng);
        assert_eq!(picks.len(), 4000);
        let in_first = picks.iter().filter(|p| p.0 == 0).count();
        assert!(picks.iter().all(|&(p, i)| p != 1 && i < [1000, 0, 3000][p]));
        assert!((800..1200).contains(&in_first), "{in_first} of 4000 in the quarter");
    }
}
