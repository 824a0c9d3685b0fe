//! Paginated list results (source document sections 2.4 and 8): a page of items with `total`,
//! `count`, `offset`, `has_more` and `next_offset`, cut to about half (at least one item), with
//! `truncated` and `truncation_message`, until its text fits the character limit.

/// What a page says about itself, beside its items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageInfo {
    pub total: usize,
    pub count: usize,
    pub offset: usize,
    pub has_more: bool,
    /// `offset + count`, when `has_more`.
    pub next_offset: Option<usize>,
    /// Set when the page was cut for length: how many items were kept, and how to see more.
    pub truncation_message: Option<String>,
}

impl PageInfo {
    /// The page's fields as JSON, in the order of the source document, with the items under
    /// `field` (named for the kind of item).
    pub fn json(&self, field: &str, items: Vec<serde_json::Value>) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert("total".into(), self.total.into());
        map.insert("count".into(), self.count.into());
        map.insert("offset".into(), self.offset.into());
        map.insert(field.into(), items.into());
        map.insert("has_more".into(), self.has_more.into());
        if let Some(next) = self.next_offset {
            map.insert("next_offset".into(), next.into());
        }
        if let Some(message) = &self.truncation_message {
            map.insert("truncated".into(), true.into());
            map.insert("truncation_message".into(), message.clone().into());
        }
        serde_json::Value::Object(map)
    }
}

/// The page of `all` from `offset`, at most `limit` items, rendered by `render`; cut to about
/// half while its text is over `char_limit` characters and it has more than one item.
/// `noun` names the items in the truncation message ("findings").
pub fn render<T>(
    all: &[T],
    offset: usize,
    limit: usize,
    char_limit: usize,
    noun: &str,
    render: impl Fn(&[T], &PageInfo) -> String,
) -> String {
    let total = all.len();
    let start = offset.min(total);
    let mut count = limit.min(total - start);
    let mut truncation_message = None;
    loop {
        let has_more = start + count < total;
        let info = PageInfo {
            total,
            count,
            offset,
            has_more,
            next_offset: has_more.then_some(start + count),
            truncation_message: truncation_message.clone(),
        };
        let text = render(&all[start..start + count], &info);
        if count <= 1 || text.chars().count() <= char_limit {
            return text;
        }
        let kept = (count / 2).max(1);
        truncation_message = Some(format!(
            "Response truncated from {count} to {kept} {noun} to stay under {char_limit} characters; \
             call again with offset {} for the next ones, or narrow the request with filters.",
            start + kept
        ));
        count = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(items: &[String], info: &PageInfo) -> String {
        let mut text = format!("{info:?}\n");
        for item in items {
            text.push_str(item);
            text.push('\n');
        }
        text
    }

    #[test]
    fn pages_and_next_offset() {
        let all: Vec<String> = (0..45).map(|i| format!("item {i}")).collect();
        let page = |offset| {
            render(&all, offset, 20, 25_000, "items", |items, info| {
                format!(
                    "{} {} {:?} {}",
                    info.count,
                    info.has_more,
                    info.next_offset,
                    items.len()
                )
            })
        };
        assert_eq!(page(0), "20 true Some(20) 20");
        assert_eq!(page(40), "5 false None 5");
        assert_eq!(page(45), "0 false None 0");
        assert_eq!(page(100), "0 false None 0");
    }

    #[test]
    fn cut_to_half_until_it_fits() {
        let all: Vec<String> = (0..100).map(|i| format!("{i:0>600}")).collect();
        let text = render(&all, 10, 100, 25_000, "items", lines);
        assert!(text.chars().count() <= 25_000, "{}", text.len());
        // 90 items of 601 characters: 45 are still too many, 22 fit.
        assert!(text.contains("count: 22"), "{}", &text[..200]);
        assert!(text.contains("next_offset: Some(32)"));
        assert!(text.contains("Response truncated from 45 to 22 items"));
        assert!(text.contains("offset 32"));
        // One item is kept however long it is.
        let huge = vec!["x".repeat(30_000)];
        let text = render(&huge, 0, 20, 25_000, "items", lines);
        assert!(text.contains("count: 1,") && !text.contains("truncated from"));
    }

    #[test]
    fn json_fields_in_order() {
        let info = PageInfo {
            total: 3,
            count: 1,
            offset: 1,
            has_more: true,
            next_offset: Some(2),
            truncation_message: Some("cut".into()),
        };
        let value = info.json("rules", vec![serde_json::json!("a")]);
        assert_eq!(
            value.to_string(),
            r#"{"total":3,"count":1,"offset":1,"rules":["a"],"has_more":true,"next_offset":2,"truncated":true,"truncation_message":"cut"}"#
        );
    }
}
