//! A board drawn as a grid for people: rank numbers down the left, file letters along the
//! bottom. Most games count ranks from the bottom (square `a1` is the bottom left); Othello's
//! players count rows from the top (`a1` is the top left), and [`draw_from_top`] draws so.

/// The grid of a `width` x `height` board whose square (rank, file), both from 0, shows
/// `cell(rank, file)`: rank 1 at the bottom.
pub fn draw(width: usize, height: usize, cell: impl Fn(usize, usize) -> char) -> String {
    grid(width, height, (0..height).rev(), cell)
}

/// The grid of a board whose row `row` (from 0 at the top) and file show `cell(row, file)`:
/// row 1 at the top, as Othello's notation counts them.
pub fn draw_from_top(width: usize, height: usize, cell: impl Fn(usize, usize) -> char) -> String {
    grid(width, height, 0..height, cell)
}

/// The rows in the order drawn, top first, each labelled with its number from 1.
fn grid(width: usize, height: usize, rows: impl Iterator<Item = usize>, cell: impl Fn(usize, usize) -> char) -> String {
    let margin = height.to_string().len();
    let mut out = String::new();
    for row in rows {
        out.push_str(&format!("{:>margin$} ", row + 1));
        for file in 0..width {
            out.push(' ');
            out.push(cell(row, file));
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(margin + 1));
    for file in 0..width {
        out.push(' ');
        out.push(file_letter(file));
    }
    out
}

/// A position's text as its two words, the board and the side to move; the error says how
/// many words there were.
pub fn board_and_side(text: &str) -> Result<(&str, &str), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words[..] {
        [board, side] => Ok((board, side)),
        _ => Err(format!(
            "{} given, not the board and the side to move",
            crate::counts::counted(words.len() as u64, "word", "words")
        )),
    }
}

/// The side to move written `first` or `second`.
pub fn first_or_second(word: &str) -> Result<crate::vocabulary::Side, String> {
    crate::choice::Choice::from_name(word).ok_or_else(|| format!("unknown side to move {word:?}"))
}

/// The letter of file `file` (from 0): `a`, `b`, ...
pub fn file_letter(file: usize) -> char {
    char::from(b'a' + u8::try_from(file % 26).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    #[test]
    fn rank_one_is_at_the_bottom_and_files_are_lettered() {
        let g = super::draw(3, 2, |r, f| if r == 0 && f == 0 { 'x' } else { '.' });
        assert_eq!(g, "2  . . .\n1  x . .\n   a b c");
    }

    #[test]
    fn from_the_top_row_one_is_at_the_top() {
        let g = super::draw_from_top(3, 2, |r, f| if r == 0 && f == 0 { 'x' } else { '.' });
        assert_eq!(g, "1  x . .\n2  . . .\n   a b c");
    }
}
