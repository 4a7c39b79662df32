//! `dfasolve serve`: a page in the browser over a saved solution. The page plays moves by
//! clicking, colours each by its value and keeps the game's history; it asks the server the
//! same questions `query --json` answers, one position at a time.
//!
//! Routes: `/` the page; `/api/start` the game's name and start; `/api/query?position=TEXT`
//! the `query --json` object of a position (status 400 with `{position, error}` for a position
//! the solution cannot answer).

use super::files::answer;
use super::output::AboutFile;
use crate::solved::explore::Solved;
use anyhow::{Result, anyhow};
use std::path::Path;

const PAGE: &str = include_str!("serve/page.html");

/// Serve `path` on `host`:`port` (0: any free port) until the process is stopped; the first
/// line on standard output is the address. The server only answers questions: nothing it is
/// asked writes a file, so another host (`--host 0.0.0.0`) can be offered it.
pub(super) fn serve(path: &Path, host: &str, port: u16) -> Result<()> {
    let solved = crate::solved::open(path, &crate::games::GAMES).about_file("loading", path)?;
    let server = tiny_http::Server::http((host, port)).map_err(|e| anyhow!("cannot listen on {host}:{port}: {e}"))?;
    let address = server.server_addr().to_ip().ok_or_else(|| anyhow!("the server has no IP address"))?;
    let reach = if address.ip().is_loopback() { "this machine only" } else { "read-only answers to the network" };
    println!("serving {} on http://{address}/ ({reach}; stop with Ctrl-C)", path.display());
    for request in server.incoming_requests() {
        let (status, body, kind) = route(solved.as_ref(), request.url());
        let header = tiny_http::Header::from_bytes("Content-Type", kind).expect("a valid header");
        let response = tiny_http::Response::from_string(body).with_status_code(status).with_header(header);
        // A browser that went away is its own business, not the server's.
        let _ = request.respond(response);
    }
    Ok(())
}

/// The status, body and content type for `url`.
fn route(solved: &dyn Solved, url: &str) -> (u16, String, &'static str) {
    const JSON: &str = "application/json";
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    match path {
        "/" | "/index.html" => (200, first_paint(solved), "text/html; charset=utf-8"),
        "/api/start" => {
            let start = StartJson { game: solved.game(), position: solved.start() };
            (200, crate::solved::report::to_json(&start).to_string(), JSON)
        }
        "/api/query" => {
            let Some(position) = parameter(query, "position") else {
                return (400, error_json("no position= parameter".into()), JSON);
            };
            match answer(solved, &position, None) {
                Ok((object, _)) => (200, object.to_string(), JSON),
                Err(e) => {
                    let error = super::files::PositionError { position: &position, error: e.to_string() };
                    (400, crate::solved::report::to_json(&error).to_string(), JSON)
                }
            }
        }
        _ => (404, error_json(format!("no page {path}")), JSON),
    }
}

/// The page with the start already drawn in it (the game's name, the board, the position
/// and its value), so it shows the game before its script asks for anything, or without one.
fn first_paint(solved: &dyn Solved) -> String {
    let start = solved.start();
    let Ok(look) = solved.look(&start) else { return PAGE.to_string() };
    let value = look.value.map_or_else(|| "not covered by this solution".into(), |v| v.to_string());
    PAGE.replacen(r#"<h1 id="game">dfasolve</h1>"#, &format!(r#"<h1 id="game">{}</h1>"#, escape(&solved.game())), 1)
        .replacen(r#"<pre id="board"></pre>"#, &format!(r#"<pre id="board">{}</pre>"#, escape(&look.board)), 1)
        .replacen(
            r#"<div id="position"></div>"#,
            &format!(r#"<div id="position">position: {}</div>"#, escape(&start)),
            1,
        )
        .replacen(
            r#"<div id="value"></div>"#,
            &format!(r#"<div id="value">value for the player to move: {}</div>"#, escape(&value)),
            1,
        )
}

/// Text for HTML: `&`, `<`, `>` and `"` escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The value of `name` in a URL query string, decoded (`+` a space, `%XX` a byte).
fn parameter(query: &str, name: &str) -> Option<String> {
    let raw = query.split('&').find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))?;
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::{escape, parameter};

    #[test]
    fn text_is_escaped_for_the_page() {
        assert_eq!(escape(r#"<a href="x">&</a>"#), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
    }

    #[test]
    fn parameters_are_decoded() {
        assert_eq!(parameter("position=xx%2F..+first", "position").as_deref(), Some("xx/.. first"));
        assert_eq!(parameter("a=1&position=%41", "position").as_deref(), Some("A"));
        assert_eq!(parameter("position=%4", "position"), None);
        assert_eq!(parameter("other=1", "position"), None);
        assert_eq!(parameter("position=%ff", "position"), None, "not UTF-8");
    }
}

/// `/api/start`: the game and its start.
#[derive(serde::Serialize)]
struct StartJson {
    game: String,
    position: String,
}

/// A request the server cannot answer, as JSON.
fn error_json(error: String) -> String {
    #[derive(serde::Serialize)]
    struct ErrorJson {
        error: String,
    }
    crate::solved::report::to_json(&ErrorJson { error }).to_string()
}
