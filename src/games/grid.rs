//! A board drawn as a grid for people: the highest rank at the top, rank numbers down the
//! left, file letters along the bottom (square `a1` is the bottom left).

/// The grid of a `width` x `height` board whose square (rank, file), both from 0, shows
/// `cell(rank, file)`.
pub fn draw(width: usize, height: usize, cell: impl Fn(usize, usize) -> char) -> String {
    let margin = height.to_string().len();
    let mut out = String::new();
    for rank in (0..height).rev() {
        out.push_str(&format!("{:>margin$} ", rank + 1));
        for file in 0..width {
            out.push(' ');
            out.push(cell(rank, file));
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
}
