cargo run --release --example othello_won_ends 4x4 4x5 5x4 5x5 4x6 6x4 5x6 6x5 > results/othello/runs/won-ends.txt
