cargo run --release --example subgame_gap -- 5 5 4 3   # build 71ab091+subgame, 2026-11-25 22:35, beside the 4 v 4 census
