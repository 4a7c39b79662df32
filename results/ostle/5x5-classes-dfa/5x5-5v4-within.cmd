cargo run --release --example within_choice -- ckpt 5v4 6   # in $RUNS/ostle-5x5-classes, build aa7460c + the example, 2026-11-26 03:32, beside .ci/run
