//! Markdown (`.md`, `.mdx`): prose, plus fenced code blocks dispatched by their info string to
//! the other surfaces. A block's findings and fixes map back to the Markdown file.

use std::ops::Range;

use super::treesitter::complement;
use super::{Document, OffsetMap, Surface, Syntax};

/// A fenced code block.
struct Fence {
    info: String,
    /// From the opening fence line to the end of the closing fence line.
    whole: Range<usize>,
    /// The lines between the fences.
    content: Range<usize>,
    /// Indentation of the opening fence, stripped from each content line.
    indent: usize,
}

pub fn documents(text: &str) -> Vec<Document> {
    let fences = fences(text);
    let mut holes: Vec<Range<usize>> = fences.iter().map(|f| f.whole.clone()).collect();
    holes.extend(html_comments(text, &fences));
    holes.sort_by_key(|r| r.start);
    let prose_regions = complement(text.len(), &holes);
    let mut docs = vec![Document::whole(
        Surface::Markdown,
        text.to_string(),
        Syntax::None,
        prose_regions,
        0,
    )];
    for fence in &fences {
        let surface = Surface::from_info_string(&fence.info);
        let (content, map) = block_content(text, fence);
        docs.extend(super::embedded(surface, content, map, None));
    }
    docs
}

/// The block's text with the fence's indentation removed, and where each byte came from.
fn block_content(text: &str, fence: &Fence) -> (String, OffsetMap) {
    let raw = &text[fence.content.clone()];
    let mut map = OffsetMap::new(false, fence.indent > 0);
    if fence.indent == 0 {
        map.push(0, fence.content.start, raw.len());
        return (raw.to_string(), map);
    }
    let mut content = String::with_capacity(raw.len());
    let mut at = fence.content.start;
    for line in raw.split_inclusive('\n') {
        let strip = line.bytes().take(fence.indent).take_while(|b| *b == b' ').count();
        map.push(content.len(), at + strip, line.len() - strip);
        content.push_str(&line[strip..]);
        at += line.len();
    }
    (content, map)
}

fn fences(text: &str) -> Vec<Fence> {
    let mut fences = Vec::new();
    let mut open: Option<(char, usize, usize, String, usize, usize)> = None; // (char, len, indent, info, start, content_start)
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let line_start = at;
        at += line.len();
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |m| trimmed.chars().take_while(|c| *c == m).count());
        match &open {
            None => {
                if let Some(m) = marker
                    && run >= 3
                {
                    let info = trimmed[run..].trim().to_string();
                    if m == '`' && info.contains('`') {
                        continue;
                    }
                    open = Some((m, run, indent, info, line_start, at));
                }
            }
            Some((m, len, fence_indent, info, start, content_start)) => {
                if marker == Some(*m) && run >= *len && trimmed[run..].trim().is_empty() {
                    fences.push(Fence {
                        info: info.clone(),
                        whole: *start..at,
                        content: *content_start..line_start,
                        indent: *fence_indent,
                    });
                    open = None;
                }
            }
        }
    }
    if let Some((_, _, indent, info, start, content_start)) = open {
        fences.push(Fence {
            info,
            whole: start..text.len(),
            content: content_start..text.len(),
            indent,
        });
    }
    fences
}

/// `<!-- ... -->` outside code blocks.
fn html_comments(text: &str, fences: &[Fence]) -> Vec<Range<usize>> {
    let mut comments = Vec::new();
    let mut from = 0;
    while let Some(offset) = text[from..].find("<!--") {
        let start = from + offset;
        if let Some(fence) = fences.iter().find(|f| f.whole.contains(&start)) {
            from = fence.whole.end;
            continue;
        }
        let end = text[start + 4..]
            .find("-->")
            .map_or(text.len(), |e| start + 4 + e + 3);
        comments.push(start..end);
        from = end;
    }
    comments
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_become_documents() {
        let text = "# T\n\n```python\nx = 'a'\n```\n\n- item\n\n  ```js\n  y = \"b\";\n  ```\n<!-- c -->\n";
        let docs = documents(text);
        assert_eq!(docs.len(), 3);
        assert_eq!(docs[1].surface, Surface::Python);
        assert_eq!(docs[1].text, "x = 'a'\n");
        assert_eq!(docs[2].surface, Surface::JavaScript);
        assert_eq!(docs[2].text, "y = \"b\";\n");
        let map = docs[2].map.as_ref().unwrap();
        assert_eq!(&text[map.range(4..7)], "\"b\"");
        let prose: Vec<&str> = docs[0].scan_regions.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(prose, ["# T\n\n", "\n- item\n\n", "\n"]);
    }
}
