//! Child codes kept packed while deeper layers are explored.

/// One layer's child codes, kept while the deeper layers are explored. Most codes of a
/// large alphabet are 0 (reject: an Ostle square has 9 symbols, and few fit a position), and
/// the codes of all layers are most of an image's memory, so when that saves a quarter or
/// more they are stored as a bit mask of the non-zero symbols per state plus the non-zero
/// codes.
pub(crate) enum PackedCodes {
    Raw(Vec<u32>),
    Sparse { alphabet: usize, masks: Vec<u16>, nonzero: Vec<u32> },
}

impl PackedCodes {
    pub(crate) fn pack(alphabet: usize, codes: Vec<u32>) -> PackedCodes {
        // Small layers stay raw: they do not matter to memory, and packing them cost the
        // small images of Ostle 4x4 about 5%.
        if codes.len() < 1 << 20 {
            return PackedCodes::Raw(codes);
        }
        Self::pack_any(alphabet, codes)
    }

    /// [`PackedCodes::pack`] without the size floor.
    fn pack_any(alphabet: usize, codes: Vec<u32>) -> PackedCodes {
        let nonzero_count = codes.iter().filter(|&&c| c != 0).count();
        let states = codes.len() / alphabet.max(1);
        // Packed: 2 bytes per state and 4 per non-zero code, against 4 per code.
        if alphabet > 16 || 2 * states + 4 * nonzero_count > 3 * codes.len() {
            return PackedCodes::Raw(codes);
        }
        let mut masks = Vec::with_capacity(states);
        let mut nonzero = Vec::with_capacity(nonzero_count);
        for row in codes.chunks_exact(alphabet) {
            let mut mask = 0u16;
            for (c, &code) in row.iter().enumerate() {
                if code != 0 {
                    mask |= 1 << c;
                    nonzero.push(code);
                }
            }
            masks.push(mask);
        }
        PackedCodes::Sparse { alphabet, masks, nonzero }
    }

    pub(crate) fn unpack(self) -> Vec<u32> {
        match self {
            PackedCodes::Raw(codes) => codes,
            PackedCodes::Sparse { alphabet, masks, nonzero } => {
                let mut codes = Vec::with_capacity(masks.len() * alphabet);
                let mut next = nonzero.into_iter();
                for mask in masks {
                    for c in 0..alphabet {
                        codes.push(if mask & (1 << c) != 0 { next.next().expect("one code per mask bit") } else { 0 });
                    }
                }
                codes
            }
        }
    }

    /// Number of codes (packed or not).
    pub(crate) fn len(&self) -> usize {
        match self {
            PackedCodes::Raw(codes) => codes.len(),
            PackedCodes::Sparse { alphabet, masks, .. } => alphabet * masks.len(),
        }
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        match self {
            PackedCodes::Raw(codes) => 4 * codes.len(),
            PackedCodes::Sparse { masks, nonzero, .. } => 2 * masks.len() + 4 * nonzero.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PackedCodes;
    use proptest::prelude::*;

    proptest! {
        /// Packing keeps every code, whichever form it picks, and picks the sparse form for
        /// mostly-zero codes of a small alphabet.
        #[test]
        fn packed_codes_round_trip(alphabet in 1usize..20, states in 0usize..50, seed in any::<u64>(), zeros in 0u32..10) {
            let mut rng = crate::dfa::SplitMix64::new(seed);
            let codes: Vec<u32> = (0..alphabet * states)
                .map(|_| {
                    let r = (rng.next_u64() >> 33) as u32;
                    if r % 10 < zeros { 0 } else { r | 1 }
                })
                .collect();
            let packed = PackedCodes::pack_any(alphabet, codes.clone());
            if (4..=16).contains(&alphabet) && zeros == 9 && states >= 20 {
                let sparse = matches!(packed, PackedCodes::Sparse { .. });
                prop_assert!(sparse);
            }
            prop_assert!(packed.bytes() <= 4 * codes.len());
            prop_assert_eq!(packed.len(), codes.len());
            prop_assert_eq!(packed.unpack(), codes);
        }
    }
}
