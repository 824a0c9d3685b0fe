//! Between interlint's byte offsets and the protocol's positions (lines, and columns in UTF-16
//! code units, the encoding every client understands), and between paths and `file:` URIs.

use std::path::{Path, PathBuf};

use lsp_types::{Position, Range, Uri};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

/// Start offsets of the lines of a text (after `\n`; a `\r\n` line ends at its `\r`).
pub struct TextIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> TextIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        TextIndex { text, starts }
    }

    /// The position of a byte offset (clamped to the text and to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let offset = crate::source::floor_char_boundary(self.text, offset.min(self.text.len()));
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let column = self.text[start..offset].encode_utf16().count();
        Position::new(to_u32(line), to_u32(column))
    }

    pub fn range(&self, range: std::ops::Range<usize>) -> Range {
        Range::new(self.position(range.start), self.position(range.end))
    }

    /// The byte offset of a position: a column past the line's end is its end, a line past the
    /// text's end is the end of the text, and a column inside a surrogate pair is its start.
    pub fn offset(&self, position: Position) -> usize {
        let line = position.line as usize;
        let Some(&start) = self.starts.get(line) else {
            return self.text.len();
        };
        let end = self.starts.get(line + 1).map_or(self.text.len(), |next| next - 1);
        let line_text = &self.text[start..end];
        let line_text = line_text.strip_suffix('\r').unwrap_or(line_text);
        let mut units = 0usize;
        for (at, c) in line_text.char_indices() {
            if units + c.len_utf16() > position.character as usize {
                return start + at;
            }
            units += c.len_utf16();
        }
        start + line_text.len()
    }

    /// The UTF-16 column of the `chars`-th character of a line (interlint counts characters).
    pub fn column_of_char(&self, line: usize, chars: usize) -> u32 {
        let Some(&start) = self.starts.get(line) else {
            return 0;
        };
        let end = self.starts.get(line + 1).map_or(self.text.len(), |next| next - 1);
        let units: usize = self.text[start..end]
            .chars()
            .take(chars)
            .map(char::len_utf16)
            .sum();
        to_u32(units)
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// What a URI path keeps as it is: RFC 3986's unreserved characters and `/`.
const PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/');

/// The local path of a `file:` URI.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///x`, or `file://localhost/x`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let decoded = percent_decode_str(rest).decode_utf8().ok()?;
    // `file:///C:/x` on Windows.
    let decoded = match decoded.as_bytes() {
        [b'/', drive, b':', ..] if cfg!(windows) && drive.is_ascii_alphabetic() => &decoded[1..],
        _ => &decoded[..],
    };
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of an absolute path.
pub fn uri_of(path: &Path) -> Option<Uri> {
    let text = path.to_str()?.replace('\\', "/");
    let text = if text.starts_with('/') {
        text
    } else {
        format!("/{text}")
    };
    format!("file://{}", utf8_percent_encode(&text, PATH))
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "a = 'é𝄞x'\r\nb\n";
        let index = TextIndex::new(text);
        let x = text.find('x').unwrap_or_default();
        // é is one unit, 𝄞 two.
        assert_eq!(index.position(x), Position::new(0, 8));
        assert_eq!(index.offset(Position::new(0, 8)), x);
        // Inside the surrogate pair: its start.
        assert_eq!(
            index.offset(Position::new(0, 7)),
            text.find('𝄞').unwrap_or_default()
        );
        // Past the line's end: before its \r\n.
        assert_eq!(
            index.offset(Position::new(0, 99)),
            text.find('\r').unwrap_or_default()
        );
        assert_eq!(
            index.offset(Position::new(1, 0)),
            text.find('b').unwrap_or_default()
        );
        assert_eq!(index.offset(Position::new(9, 0)), text.len());
        assert_eq!(index.position(text.len()), Position::new(2, 0));
        assert_eq!(index.column_of_char(0, 7), 8);
    }

    #[test]
    fn file_uris_round_trip() {
        let path = Path::new("/tmp/a b/ünï.py");
        let uri = uri_of(path).expect("a URI");
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BCn%C3%AF.py");
        assert_eq!(path_of(&uri).as_deref(), Some(path));
        let local: Uri = "file://localhost/x/y.py".parse().expect("a URI");
        assert_eq!(path_of(&local).as_deref(), Some(Path::new("/x/y.py")));
        let untitled: Uri = "untitled:Untitled-1".parse().expect("a URI");
        assert_eq!(path_of(&untitled), None);
    }
}
