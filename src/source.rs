//! A file's text as interlint sees it: decoded, without its byte-order mark, with a line index
//! for turning byte offsets into the 1-based line and character columns users read.

use std::ops::Range;

/// Line ending style of a file, kept when fixes are written back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnding {
    Lf,
    CrLf,
}

/// A 1-based line and column; the column counts Unicode scalar values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// Start offsets of every line of a text.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    /// Characters before every [`CHUNK`]-th byte, so a column is found without counting from
    /// the start of a long line (a minified bundle is one line); empty when the text is ASCII.
    chars_before: Vec<usize>,
}

const CHUNK: usize = 1024;

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr_newlines(text.as_bytes()).map(|i| i + 1));
        let mut chars_before = Vec::new();
        if !text.is_ascii() {
            let mut count = 0;
            chars_before.push(0);
            for chunk in text.as_bytes().chunks(CHUNK) {
                count += char_count(chunk);
                chars_before.push(count);
            }
        }
        LineIndex { starts, chars_before }
    }

    /// Zero-based index of the line holding `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// Byte range of the zero-based line `line`, without its line terminator.
    pub fn line_range(&self, line: usize, text: &str) -> Range<usize> {
        let start = self.starts.get(line).copied().unwrap_or(text.len());
        let mut end = self.starts.get(line + 1).copied().unwrap_or(text.len());
        let bytes = text.as_bytes();
        if end > start && bytes.get(end - 1) == Some(&b'\n') {
            end -= 1;
        }
        if end > start && bytes.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        start..end
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// 1-based line and character column of `offset` (clamped to the text).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let start = self.starts[line];
        let column = self.chars_before(text, offset) - self.chars_before(text, start) + 1;
        Position {
            line: line + 1,
            column,
        }
    }

    /// The characters of `text` before `offset`, a character boundary.
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        if self.chars_before.is_empty() {
            return offset;
        }
        let chunk = offset / CHUNK;
        self.chars_before[chunk] + char_count(&text.as_bytes()[chunk * CHUNK..offset])
    }
}

/// The characters of UTF-8 bytes: those that do not continue a character.
fn char_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', bytes)
}

/// The largest char boundary not above `offset`.
pub fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// How a file's bytes encode its text: UTF-8, or UTF-16 (always with its byte-order mark,
/// which is how a UTF-16 file is told apart; Windows tools write them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    #[default]
    Utf8,
    Utf16Le,
    Utf16Be,
}

/// The decoded contents of one file.
#[derive(Clone, Debug)]
pub struct SourceText {
    /// The text without a leading byte-order mark.
    pub text: String,
    pub has_bom: bool,
    pub line_ending: LineEnding,
    pub encoding: Encoding,
}

/// The UTF-16 byte order a file's byte-order mark says, if it starts with one.
pub fn utf16_encoding(bytes: &[u8]) -> Option<Encoding> {
    match bytes.get(..2) {
        Some([0xFF, 0xFE]) => Some(Encoding::Utf16Le),
        Some([0xFE, 0xFF]) => Some(Encoding::Utf16Be),
        _ => None,
    }
}

/// What the bytes of a file are, read for checking.
pub enum Decoded {
    Text(SourceText),
    /// UTF-16 with a byte-order mark whose units are not valid UTF-16.
    InvalidUtf16,
    NotUtf8,
}

pub const BOM: &str = "\u{feff}";

impl SourceText {
    /// Decodes file contents. `None` when the bytes are not UTF-8.
    pub fn decode(bytes: Vec<u8>) -> Option<Self> {
        match Self::decode_any(bytes) {
            Decoded::Text(source) => Some(source),
            Decoded::InvalidUtf16 | Decoded::NotUtf8 => None,
        }
    }

    /// Decodes UTF-8, or UTF-16 that starts with its byte-order mark.
    pub fn decode_any(bytes: Vec<u8>) -> Decoded {
        let Some(encoding) = utf16_encoding(&bytes) else {
            return match String::from_utf8(bytes) {
                Ok(text) => Decoded::Text(Self::from_string(text)),
                Err(_) => Decoded::NotUtf8,
            };
        };
        if !bytes.len().is_multiple_of(2) {
            return Decoded::InvalidUtf16;
        }
        let units = bytes[2..].chunks_exact(2).map(|pair| match encoding {
            Encoding::Utf16Be => u16::from_be_bytes([pair[0], pair[1]]),
            _ => u16::from_le_bytes([pair[0], pair[1]]),
        });
        match char::decode_utf16(units).collect::<Result<String, _>>() {
            Ok(text) => Decoded::Text(SourceText {
                has_bom: true,
                encoding,
                ..Self::from_string(text)
            }),
            Err(_) => Decoded::InvalidUtf16,
        }
    }

    pub fn from_string(mut text: String) -> Self {
        let has_bom = text.starts_with(BOM);
        if has_bom {
            text.drain(..BOM.len());
        }
        let line_ending = match text.find('\n') {
            Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => LineEnding::CrLf,
            _ => LineEnding::Lf,
        };
        SourceText {
            text,
            has_bom,
            line_ending,
            encoding: Encoding::Utf8,
        }
    }

    /// The bytes to write back for a new text: the byte-order mark restored.
    pub fn encode(&self, text: &str) -> Vec<u8> {
        let units = |bom: [u8; 2], unit: fn(u16) -> [u8; 2]| -> Vec<u8> {
            let mut out = Vec::with_capacity(2 * text.len() + 2);
            out.extend_from_slice(&bom);
            for u in text.encode_utf16() {
                out.extend_from_slice(&unit(u));
            }
            out
        };
        match self.encoding {
            Encoding::Utf16Le => return units([0xFF, 0xFE], u16::to_le_bytes),
            Encoding::Utf16Be => return units([0xFE, 0xFF], u16::to_be_bytes),
            Encoding::Utf8 => {}
        }
        let mut out = Vec::with_capacity(text.len() + 3);
        if self.has_bom {
            out.extend_from_slice(BOM.as_bytes());
        }
        out.extend_from_slice(text.as_bytes());
        out
    }
}

/// An I/O error in the words users expect ("No such file or directory").
pub fn describe_io(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters() {
        let text = "ab\ncafé x\r\nz";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 0), Position { line: 1, column: 1 });
        assert_eq!(index.position(text, 3), Position { line: 2, column: 1 });
        // "x" follows "café " whose é is two bytes.
        let x = text.find('x').unwrap();
        assert_eq!(index.position(text, x), Position { line: 2, column: 6 });
        assert_eq!(index.line_range(1, text), 3..10);
        assert_eq!(index.position(text, text.len()), Position { line: 3, column: 2 });
    }

    #[test]
    fn columns_of_a_long_line_count_characters() {
        let text = "é".repeat(3000) + "x" + &"a".repeat(3000) + "\nb";
        let index = LineIndex::new(&text);
        let x = text.find('x').unwrap();
        assert_eq!(
            index.position(&text, x),
            Position {
                line: 1,
                column: 3001
            }
        );
        assert_eq!(
            index.position(&text, x + 2000),
            Position {
                line: 1,
                column: 5001
            }
        );
        assert_eq!(index.position(&text, text.len()), Position { line: 2, column: 2 });
    }

    #[test]
    fn bom_and_crlf_are_detected() {
        let source = SourceText::decode(b"\xEF\xBB\xBFa\r\nb".to_vec()).unwrap();
        assert!(source.has_bom);
        assert_eq!(source.line_ending, LineEnding::CrLf);
        assert_eq!(source.text, "a\r\nb");
        assert_eq!(source.encode("x"), b"\xEF\xBB\xBFx");
        // UTF-16 with its byte-order mark, both orders, back to the same bytes.
        let text = "m = \"gemini-2.0-flash\" # é𝄞\r\n";
        for (bom, unit) in [
            ([0xFF, 0xFE], u16::to_le_bytes as fn(u16) -> [u8; 2]),
            ([0xFE, 0xFF], u16::to_be_bytes),
        ] {
            let mut bytes = bom.to_vec();
            text.encode_utf16()
                .for_each(|u| bytes.extend_from_slice(&unit(u)));
            let Decoded::Text(source) = SourceText::decode_any(bytes.clone()) else {
                panic!("UTF-16 decodes");
            };
            assert_eq!(source.text, text);
            assert_eq!(source.line_ending, LineEnding::CrLf);
            assert_eq!(source.encode(&source.text), bytes);
        }
        // A lone surrogate, or an odd byte count, is not UTF-16.
        assert!(matches!(
            SourceText::decode_any(vec![0xFF, 0xFE, 0x00, 0xD8]),
            Decoded::InvalidUtf16
        ));
        assert!(matches!(
            SourceText::decode_any(vec![0xFF, 0xFE, 0x41]),
            Decoded::InvalidUtf16
        ));
    }
}
