//! The file container of the explicit tables and their checkpoints: a magic naming the
//! format, a versioned header, a body, and a checksum of the whole, written atomically.
//!
//! # Layout
//! ```text
//! magic     24 bytes naming the format
//! u64       header length h (little-endian)
//! header    h bytes: postcard of the format's header, whose first field is its version (u32)
//! [u8; 32]  SHA-256 of the header, in formats read through a map (a reader then trusts the
//!           header without reading the whole file)
//! padding   zero bytes up to the format's alignment of the body
//! body      the format's own
//! [u8; 32]  SHA-256 of everything before it
//! ```
//! Every reader checks the magic, the header's checksum where there is one, and the version
//! before it decodes the rest of the header; how much of the body's checksum it checks is the
//! reader's choice: all of it ([`Format::read`], [`BodyReader::finish`]) or on request
//! ([`verify_checksum`]), as a query of a mapped table should not read gigabytes.

use super::Hashing;
use super::mapped::map_file;
use crate::error::{Error, Result};
use memmap2::Mmap;
use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};
use std::io::{BufReader, BufWriter, Read, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

/// Bytes of the magic.
pub const MAGIC_LEN: usize = 24;
/// Bytes of a checksum.
const DIGEST_LEN: usize = 32;

/// A file format in the container.
#[derive(Clone, Copy, Debug)]
pub struct Format {
    /// The first bytes of every file of the format.
    pub magic: &'static [u8; MAGIC_LEN],
    /// The version this build writes and reads.
    pub version: u32,
    /// Whether the header has its own checksum.
    pub header_digest: bool,
    /// The body starts at a multiple of this many bytes from the start of the file.
    pub body_align: u64,
}

/// A file opened through a map: its header, and where its body lies in the map.
pub struct Mapped<H> {
    /// The decoded header.
    pub header: H,
    /// The whole file.
    pub map: Arc<Mmap>,
    /// The body's bytes in the map (the final checksum left out).
    pub body: Range<usize>,
}

impl Format {
    fn magic_text(&self) -> &'static str {
        std::str::from_utf8(self.magic).map_or("", |m| m.trim_end_matches(['\n', '\0']))
    }

    /// Write `header` and the body `fill` writes to `path`, atomically.
    ///
    /// # Errors
    /// [`Error::Io`] naming the file; [`Error::Corrupt`] if the header does not encode.
    pub fn write<H: Serialize>(
        &self,
        path: &Path,
        header: &H,
        fill: impl FnOnce(&mut BodyWriter<'_>) -> std::io::Result<()>,
    ) -> Result<()> {
        let head = postcard::to_allocvec(header).map_err(|e| Error::Corrupt {
            path: path.to_path_buf(),
            what: format!("the header does not encode: {e}"),
        })?;
        crate::atomic::write_atomically_with(path, |file| {
            let mut out = BodyWriter(Hashing::new(BufWriter::with_capacity(1 << 22, file)));
            out.write_all(self.magic)?;
            out.write_all(&(head.len() as u64).to_le_bytes())?;
            out.write_all(&head)?;
            if self.header_digest {
                out.write_all(&Sha256::digest(&head))?;
            }
            out.pad_to(self.body_align)?;
            fill(&mut out)?;
            let Hashing { mut inner, hasher, .. } = out.0;
            inner.write_all(&hasher.finalize())?;
            inner.flush()
        })
    }

    /// The header in `bytes` (the file's start), checked, and where the body starts.
    fn header<H: DeserializeOwned>(&self, path: &Path, bytes: &[u8], file_len: u64) -> Result<(H, usize)> {
        let corrupt = |what: &str| Error::Corrupt { path: path.to_path_buf(), what: what.into() };
        if bytes.len() < MAGIC_LEN || &bytes[..MAGIC_LEN] != self.magic {
            return Err(Error::ForeignFile { path: path.to_path_buf(), expected: self.magic_text() });
        }
        let len = bytes.get(MAGIC_LEN..MAGIC_LEN + 8).ok_or_else(|| corrupt("cut short in its header"))?;
        let len = u64::from_le_bytes(len.try_into().expect("8 bytes"));
        let digest = if self.header_digest { DIGEST_LEN as u64 } else { 0 };
        let head_end = (MAGIC_LEN as u64 + 8)
            .checked_add(len)
            .filter(|&end| end.saturating_add(digest + DIGEST_LEN as u64) <= file_len)
            .ok_or_else(|| corrupt("its header is longer than the file"))? as usize;
        let head = bytes.get(MAGIC_LEN + 8..head_end).ok_or_else(|| corrupt("cut short in its header"))?;
        if self.header_digest {
            let stored =
                bytes.get(head_end..head_end + DIGEST_LEN).ok_or_else(|| corrupt("cut short in its header"))?;
            if Sha256::digest(head)[..] != *stored {
                return Err(corrupt("the header fails its checksum"));
            }
        }
        let (version, _) = postcard::take_from_bytes::<u32>(head).map_err(|_| corrupt("the header has no version"))?;
        if version != self.version {
            return Err(Error::UnsupportedVersion {
                path: path.to_path_buf(),
                found: version,
                supported: self.version,
            });
        }
        let header = postcard::from_bytes(head).map_err(|e| corrupt(&format!("the header does not decode: {e}")))?;
        let body = (head_end as u64 + digest).next_multiple_of(self.body_align);
        if body + DIGEST_LEN as u64 > file_len {
            return Err(corrupt("cut short before its body"));
        }
        Ok((header, body as usize))
    }

    /// Open the file at `path` through a memory map, checking its header but not the whole
    /// file's checksum ([`verify_checksum`] does).
    ///
    /// # Errors
    /// [`Error::Io`], [`Error::ForeignFile`], [`Error::UnsupportedVersion`] or
    /// [`Error::Corrupt`].
    pub fn open_mapped<H: DeserializeOwned>(&self, path: &Path) -> Result<Mapped<H>> {
        let file = open_regular(path)?;
        let map = map_file(&file).map_err(|error| Error::Io { path: path.to_path_buf(), error })?;
        let (header, body) = self.header(path, &map, map.len() as u64)?;
        let end = map.len() - DIGEST_LEN;
        Ok(Mapped { header, map, body: body..end })
    }

    /// Read the whole file at `path`, checking its checksum: its header and body.
    ///
    /// # Errors
    /// As [`Format::open_mapped`], and [`Error::Corrupt`] if the file fails its checksum.
    pub fn read<H: DeserializeOwned>(&self, path: &Path) -> Result<(H, Vec<u8>)> {
        let mut bytes = std::fs::read(path).map_err(|error| Error::Io { path: path.to_path_buf(), error })?;
        // The checksum before the header, so that damage anywhere reads as damage.
        let end = bytes.len().saturating_sub(DIGEST_LEN);
        if bytes.starts_with(self.magic) && Sha256::digest(&bytes[..end])[..] != bytes[end..] {
            return Err(Error::Corrupt { path: path.to_path_buf(), what: "the file fails its checksum".into() });
        }
        let (header, body) = self.header(path, &bytes, bytes.len() as u64)?;
        bytes.truncate(end);
        Ok((header, bytes.split_off(body)))
    }

    /// Open the file at `path` to read its body as a stream; `Ok(None)` if there is no file.
    /// The body's reader checks the checksum at its end ([`BodyReader::finish`]).
    ///
    /// # Errors
    /// As [`Format::open_mapped`].
    pub fn stream<H: DeserializeOwned>(&self, path: &Path) -> Result<Option<(H, BodyReader)>> {
        let io = |error| Error::Io { path: path.to_path_buf(), error };
        let file = match open_regular(path) {
            Ok(f) => f,
            Err(Error::Io { error, .. }) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let file_len = file.metadata().map_err(io)?.len();
        let mut inner = BufReader::with_capacity(1 << 22, file);
        // The header, read as far as its length says (the magic and length first).
        let mut start = vec![0u8; MAGIC_LEN + 8];
        let got = read_up_to(&mut inner, &mut start).map_err(io)?;
        start.truncate(got);
        if got == MAGIC_LEN + 8 {
            let len = u64::from_le_bytes(start[MAGIC_LEN..].try_into().expect("8 bytes"));
            let more = if self.header_digest { DIGEST_LEN as u64 } else { 0 };
            let rest = len.saturating_add(more).min(file_len.saturating_sub(got as u64)) as usize;
            let mut head = vec![0u8; rest];
            let got = read_up_to(&mut inner, &mut head).map_err(io)?;
            start.extend_from_slice(&head[..got]);
        }
        let (header, body) = self.header(path, &start, file_len)?;
        let mut hash = Sha256::new();
        hash.update(&start);
        let mut reader = BodyReader {
            inner,
            hash,
            remaining: file_len - DIGEST_LEN as u64 - start.len() as u64,
            path: path.to_path_buf(),
        };
        let pad = body - start.len();
        reader.read_exact(&mut [0u8; 8][..pad]).map_err(io)?;
        Ok(Some((header, reader)))
    }
}

/// Open `path` for reading, refusing what is not a regular file.
fn open_regular(path: &Path) -> Result<std::fs::File> {
    let io = |error| Error::Io { path: path.to_path_buf(), error };
    let file = std::fs::File::open(path).map_err(io)?;
    if !file.metadata().map_err(io)?.is_file() {
        return Err(io(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file")));
    }
    Ok(file)
}

/// Read into `buf` until it is full or the input ends; how many bytes were read.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got)
}

/// Check the checksum of the whole file at `path` (of any format in the container).
///
/// # Errors
/// [`Error::Io`] or [`Error::Corrupt`].
pub fn verify_checksum(path: &Path) -> Result<()> {
    let file = open_regular(path)?;
    let map = map_file(&file).map_err(|error| Error::Io { path: path.to_path_buf(), error })?;
    if map.len() < DIGEST_LEN {
        return Err(Error::Corrupt { path: path.to_path_buf(), what: "cut short".into() });
    }
    let (body, digest) = map.split_at(map.len() - DIGEST_LEN);
    let mut hash = Sha256::new();
    for chunk in body.chunks(1 << 24) {
        hash.update(chunk);
    }
    if hash.finalize()[..] != *digest {
        return Err(Error::Corrupt { path: path.to_path_buf(), what: "the file fails its checksum".into() });
    }
    Ok(())
}

/// The checksum a file of the container ends with, in hex, as stored (not verified, so the
/// file is not read whole): it names the file's contents, so a record of it tells whether a
/// file is the one it was made from.
///
/// # Errors
/// [`Error::Io`]; [`Error::Corrupt`] if the file is shorter than a checksum.
pub fn stored_checksum(path: &Path) -> Result<String> {
    use std::io::{Seek, SeekFrom};
    let io = |error| Error::Io { path: path.to_path_buf(), error };
    let mut file = open_regular(path)?;
    let len = file.metadata().map_err(io)?.len();
    if len < DIGEST_LEN as u64 {
        return Err(Error::Corrupt { path: path.to_path_buf(), what: "cut short".into() });
    }
    let mut digest = [0u8; DIGEST_LEN];
    file.seek(SeekFrom::Start(len - DIGEST_LEN as u64)).map_err(io)?;
    file.read_exact(&mut digest).map_err(io)?;
    Ok(super::hex(&digest))
}

/// Where a body is written: hashed and counted as it goes.
pub struct BodyWriter<'f>(Hashing<BufWriter<&'f mut std::fs::File>>);

impl BodyWriter<'_> {
    /// Bytes written from the start of the file.
    pub fn written(&self) -> u64 {
        self.0.len
    }

    /// Zero bytes up to a multiple of `align` from the start of the file.
    ///
    /// # Errors
    /// What the operating system says.
    pub fn pad_to(&mut self, align: u64) -> std::io::Result<()> {
        let pad = self.0.len.next_multiple_of(align) - self.0.len;
        for _ in 0..pad {
            self.write_all(&[0])?;
        }
        Ok(())
    }
}

impl Write for BodyWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// A body read as a stream, hashed as it goes; [`BodyReader::finish`] checks the checksum.
pub struct BodyReader {
    inner: BufReader<std::fs::File>,
    hash: Sha256,
    /// Body bytes not read yet.
    remaining: u64,
    path: std::path::PathBuf,
}

impl BodyReader {
    /// Fill `buf` from the body.
    ///
    /// # Errors
    /// [`Error::Corrupt`] if the body ends first.
    pub fn fill(&mut self, buf: &mut [u8]) -> Result<()> {
        self.read_exact(buf)
            .map_err(|_| Error::Corrupt { path: self.path.clone(), what: "its body is cut short".into() })
    }

    /// Check that the body was read to its end and that the file's checksum holds.
    ///
    /// # Errors
    /// [`Error::Corrupt`] if bytes are left over, or the checksum is missing or wrong.
    pub fn finish(mut self) -> Result<()> {
        let corrupt = |what: &str| Error::Corrupt { path: self.path.clone(), what: what.into() };
        if self.remaining != 0 {
            return Err(corrupt("its body is longer than its header says"));
        }
        let mut stored = [0u8; DIGEST_LEN];
        self.inner.read_exact(&mut stored).map_err(|_| corrupt("the checksum is missing"))?;
        let extra = self.inner.read(&mut [0u8; 1]).map_err(|error| Error::Io { path: self.path.clone(), error })?;
        if stored[..] != self.hash.clone().finalize()[..] || extra != 0 {
            return Err(corrupt("the file fails its checksum"));
        }
        Ok(())
    }
}

impl Read for BodyReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let most = buf.len().min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..most])?;
        self.hash.update(&buf[..n]);
        self.remaining -= n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: Format = Format { magic: b"DFASOLVE-CONTAINER-TEST\n", version: 3, header_digest: true, body_align: 8 };

    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Header {
        version: u32,
        name: String,
    }

    fn header(version: u32) -> Header {
        Header { version, name: "seven".into() }
    }

    fn written(format: Format, body: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file");
        format.write(&path, &header(format.version), |w| w.write_all(body)).unwrap();
        (dir, path)
    }

    #[test]
    fn every_reader_reads_back_what_was_written() {
        for format in [TEST, Format { header_digest: false, body_align: 1, ..TEST }] {
            let (_dir, path) = written(format, b"the body");
            let (h, body): (Header, _) = format.read(&path).unwrap();
            assert_eq!((h, body.as_slice()), (header(3), &b"the body"[..]));
            let mapped: Mapped<Header> = format.open_mapped(&path).unwrap();
            assert_eq!(&mapped.map[mapped.body.clone()], b"the body");
            assert_eq!(mapped.body.start as u64 % format.body_align, 0);
            let (h, mut reader) = format.stream::<Header>(&path).unwrap().unwrap();
            let mut body = [0u8; 8];
            reader.fill(&mut body).unwrap();
            assert_eq!((h, &body), (header(3), b"the body"));
            reader.finish().unwrap();
            verify_checksum(&path).unwrap();
        }
    }

    #[test]
    fn a_damaged_foreign_or_newer_file_is_an_error_from_every_reader() {
        let (dir, path) = written(TEST, b"the body");
        let bytes = std::fs::read(&path).unwrap();
        let damaged = |at: usize| {
            let mut b = bytes.clone();
            b[at] ^= 1;
            let p = dir.path().join(format!("damaged-{at}"));
            std::fs::write(&p, b).unwrap();
            p
        };
        let errors = |p: &Path| {
            let stream = match TEST.stream::<Header>(p) {
                Ok(Some((_, r))) => r.finish().err(),
                other => other.err(),
            };
            [TEST.read::<Header>(p).err(), verify_checksum(p).err().or(TEST.open_mapped::<Header>(p).err()), stream]
        };
        for at in [0, 30, bytes.len() - 12, bytes.len() - 1] {
            let p = damaged(at);
            for e in errors(&p) {
                assert!(
                    matches!(e, Some(Error::Corrupt { .. } | Error::ForeignFile { .. })),
                    "a flip at byte {at}: {e:?}"
                );
            }
        }
        let cut = dir.path().join("cut");
        std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
        assert!(errors(&cut).iter().all(Option::is_some));
        let newer = dir.path().join("newer");
        TEST.write(&newer, &header(4), |w| w.write_all(b"x")).unwrap();
        assert!(matches!(TEST.read::<Header>(&newer), Err(Error::UnsupportedVersion { found: 4, .. })));
        assert!(TEST.stream::<Header>(&dir.path().join("absent")).unwrap().is_none());
        assert!(TEST.open_mapped::<Header>(dir.path()).is_err(), "a directory");
    }
}
