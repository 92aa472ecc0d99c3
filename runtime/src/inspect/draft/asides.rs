//! Where a text's asides are: its parenthetical groups, `( … )` and `[ … ]`, each opened
//! at a word's start. A bracket inside a word is the word's (`items[0]`,
//! `'<width>x<height>[,mobile]'`), no aside.

use std::ops::Range;

/// One aside of a text: its bytes, marks included (to the end of the text when it is left
/// open), and whether it closes.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Aside {
    pub(super) bytes: Range<usize>,
    pub(super) closed: bool,
}

impl Aside {
    /// What the aside says, its marks left out.
    pub(super) fn inner<'a>(&self, text: &'a str) -> &'a str {
        let end = match self.closed {
            true => self.bytes.end - 1,
            false => self.bytes.end,
        };
        text[self.bytes.start + 1..end].trim()
    }
}

/// The outermost asides of `text`, in order.
pub(super) fn asides(text: &str) -> Vec<Aside> {
    let mut out = Vec::new();
    // The open marks, innermost last; the outermost one's start, if it opened an aside.
    let (mut open, mut start) = (0usize, None);
    let mut before = None;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' => {
                if open == 0 && before.is_none_or(char::is_whitespace) {
                    start = Some(i);
                }
                open += 1;
            }
            ')' | ']' if open > 0 => {
                open -= 1;
                if open == 0
                    && let Some(start) = start.take()
                {
                    out.push(Aside {
                        bytes: start..i + 1,
                        closed: true,
                    });
                }
            }
            _ => {}
        }
        before = Some(c);
    }
    if let Some(start) = start {
        out.push(Aside {
            bytes: start..text.len(),
            closed: false,
        });
    }
    out
}

/// `text` with its asides left out.
pub(super) fn outside(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for aside in asides(text) {
        out.push_str(&text[from..aside.bytes.start]);
        from = aside.bytes.end;
    }
    out.push_str(&text[from..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_aside_opens_at_a_word_s_start() {
        let text = "Size (in bytes [or KiB]) of items[0], as 'WxH[,mobile]' (open";
        let found = asides(text);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].inner(text), "in bytes [or KiB]");
        assert!(found[0].closed);
        assert_eq!(found[1].inner(text), "open");
        assert!(!found[1].closed);
        assert_eq!(outside(text), "Size  of items[0], as 'WxH[,mobile]' ");
    }
}
