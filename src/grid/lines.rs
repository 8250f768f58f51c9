//! Splits raw input bytes into numbered text lines without trusting the
//! input: lines are capped in length, a UTF-8 BOM and `\r\n` endings are
//! accepted, and bad bytes become a per-line fault instead of a failure.

use std::io::{self, BufRead};

/// Longest line we keep. The longest real puzzle line (a 25x25 puzzle with
/// its solution and a name) is far below this; anything longer is not a
/// puzzle, so we skip the rest of it instead of buffering it.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// An over-long line is skipped to its end, but no further than this: an
/// input whose line goes on past it (`/dev/zero`, a binary file) is given
/// up as unreadable instead of being read forever.
pub(crate) const MAX_SKIPPED_BYTES: usize = 64 * 1024 * 1024;

/// Why a line could not be turned into text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LineFault {
    /// The line exceeds [`MAX_LINE_BYTES`].
    TooLong,
    /// Invalid UTF-8; `column` is the 1-based character position of `byte`.
    NotUtf8 { column: usize, byte: u8 },
}

impl LineFault {
    /// Column and message for reporting this fault.
    pub(crate) fn describe(&self) -> (usize, String) {
        match *self {
            LineFault::TooLong => (
                1,
                format!(
                    "line is longer than {MAX_LINE_BYTES} bytes, far more than any puzzle needs; \
                     check that this is a puzzle file"
                ),
            ),
            LineFault::NotUtf8 { column, byte } => (
                column,
                format!("byte 0x{byte:02X} is not valid UTF-8 text; save the file as UTF-8"),
            ),
        }
    }
}

/// One input line, without its line ending.
#[derive(Debug)]
pub(crate) struct Line {
    /// 1-based line number.
    pub number: usize,
    /// The text, or why it is unusable.
    pub text: Result<String, LineFault>,
}

/// Reads [`Line`]s from a byte stream, holding at most one capped line.
pub(crate) struct LineSource<R> {
    input: R,
    lines_read: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineSource<R> {
    /// Wraps `input`; nothing is read yet.
    pub(crate) fn new(input: R) -> Self {
        LineSource {
            input,
            lines_read: 0,
            buf: Vec::new(),
        }
    }

    /// How many lines have been returned so far (the number of the last one).
    pub(crate) fn lines_read(&self) -> usize {
        self.lines_read
    }

    /// The next line, `None` at end of input, or the I/O error that stopped us.
    pub(crate) fn next_line(&mut self) -> Option<io::Result<Line>> {
        self.buf.clear();
        let mut too_long = false;
        let mut saw_bytes = false;
        let mut line_bytes = 0usize;
        loop {
            if line_bytes > MAX_SKIPPED_BYTES {
                return Some(Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "line {} goes on for more than {} MiB without an end; this is no puzzle file",
                        self.lines_read + 1,
                        MAX_SKIPPED_BYTES / (1024 * 1024)
                    ),
                )));
            }
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Some(Err(e)),
            };
            if chunk.is_empty() {
                break;
            }
            saw_bytes = true;
            // Lines end at `\n`, `\r\n` or a lone `\r` (old Mac files).
            let end = chunk.iter().position(|&b| b == b'\n' || b == b'\r');
            let take = end.unwrap_or(chunk.len());
            let room = MAX_LINE_BYTES.saturating_sub(self.buf.len());
            too_long |= take > room;
            line_bytes += take;
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            let carriage_return = end.is_some_and(|e| chunk[e] == b'\r');
            self.input.consume(take + usize::from(end.is_some()));
            if carriage_return {
                self.skip_newline_after_cr();
            }
            if end.is_some() {
                break;
            }
        }
        if !saw_bytes {
            return None;
        }
        self.lines_read += 1;
        let text = if too_long {
            Err(LineFault::TooLong)
        } else {
            self.decode()
        };
        Some(Ok(Line {
            number: self.lines_read,
            text,
        }))
    }

    /// After a `\r` line end: a `\n` right after it belongs to the same end.
    fn skip_newline_after_cr(&mut self) {
        loop {
            match self.input.fill_buf() {
                Ok([b'\n', ..]) => self.input.consume(1),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                // Anything else (or an error, reported by the next read) is
                // the next line's business.
                _ => {}
            }
            return;
        }
    }

    /// Turns the buffered bytes into text, dropping a leading BOM.
    fn decode(&self) -> Result<String, LineFault> {
        let mut bytes = self.buf.as_slice();
        if self.lines_read == 1 {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => Ok(text.to_string()),
            Err(e) => {
                let valid = &bytes[..e.valid_up_to()];
                // A comment is skipped whatever it holds.
                if valid.trim_ascii_start().starts_with(b"#") {
                    return Ok(String::from_utf8_lossy(bytes).into_owned());
                }
                // The prefix is valid by definition; the fallback only keeps this panic-free.
                let column = std::str::from_utf8(valid).map_or(1, |s| s.chars().count() + 1);
                let byte = bytes.get(e.valid_up_to()).copied().unwrap_or(0);
                Err(LineFault::NotUtf8 { column, byte })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor, Read};

    fn lines(input: &[u8]) -> Vec<(usize, Result<String, LineFault>)> {
        let mut src = LineSource::new(Cursor::new(input.to_vec()));
        let mut out = Vec::new();
        while let Some(line) = src.next_line() {
            let line = line.unwrap();
            out.push((line.number, line.text));
        }
        out
    }

    #[test]
    fn splits_lines_and_handles_endings() {
        let got = lines(b"\xEF\xBB\xBFab\r\ncd\n\nef");
        assert_eq!(
            got,
            vec![
                (1, Ok("ab".to_string())),
                (2, Ok("cd".to_string())),
                (3, Ok(String::new())),
                (4, Ok("ef".to_string())),
            ]
        );
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"\n"), vec![(1, Ok(String::new()))]);
    }

    #[test]
    fn bom_only_counts_at_the_start() {
        let got = lines(b"a\n\xEF\xBB\xBFb\n");
        assert_eq!(got[1], (2, Ok("\u{FEFF}b".to_string())));
    }

    #[test]
    fn invalid_utf8_is_a_line_fault() {
        let got = lines(b"\xC3\xA91\xFF2\nok\n");
        assert_eq!(
            got[0].1,
            Err(LineFault::NotUtf8 {
                column: 3,
                byte: 0xFF
            })
        );
        assert_eq!(got[1], (2, Ok("ok".to_string())));
    }

    #[test]
    fn long_lines_are_capped_and_skipped() {
        let mut input = vec![b'1'; 10 * 1024 * 1024];
        input.extend_from_slice(b"\nnext\n");
        // A small buffer makes the cap logic run over many chunks.
        let mut src = LineSource::new(BufReader::with_capacity(4096, Cursor::new(input)));
        let first = src.next_line().unwrap().unwrap();
        assert_eq!(first.text, Err(LineFault::TooLong));
        assert!(src.buf.len() <= MAX_LINE_BYTES);
        let second = src.next_line().unwrap().unwrap();
        assert_eq!((second.number, second.text), (2, Ok("next".to_string())));
        assert!(src.next_line().is_none());
    }

    #[test]
    fn an_endless_line_is_given_up_not_read_forever() {
        // `/dev/zero`, say: no line end ever comes.
        let mut src = LineSource::new(BufReader::new(std::io::repeat(b'0')));
        let e = src.next_line().expect("an answer").expect_err("an error");
        assert!(e.to_string().contains("without an end"), "{e}");
    }

    #[test]
    fn line_of_exactly_the_cap_is_fine() {
        let mut input = vec![b'x'; MAX_LINE_BYTES];
        input.push(b'\n');
        assert!(lines(&input)[0].1.is_ok());
        input.insert(0, b'x');
        assert_eq!(lines(&input)[0].1, Err(LineFault::TooLong));
    }

    /// Fails after handing out some bytes, like a disk error mid-file.
    struct Failing(Cursor<Vec<u8>>);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.read(buf)? {
                0 => Err(io::Error::other("disk on fire")),
                n => Ok(n),
            }
        }
    }

    #[test]
    fn io_errors_are_passed_on() {
        let mut src = LineSource::new(BufReader::new(Failing(Cursor::new(b"a\nb".to_vec()))));
        assert_eq!(src.next_line().unwrap().unwrap().text, Ok("a".to_string()));
        assert!(src.next_line().unwrap().is_err());
        assert_eq!(src.lines_read(), 1);
    }
}
