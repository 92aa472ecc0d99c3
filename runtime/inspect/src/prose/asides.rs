//! Where a text's asides are: its parenthetical groups, `( … )` and `[ … ]`. A square
//! bracket inside a word is the word's (`items[0]`, `'<width>x<height>[,mobile]'`), no
//! aside; so is a word's ending in parentheses (`field(s)`), and a literal a word wants as
//! its object (`as [box=x,y] in the snapshot`). Any other parenthesis opens one
//! (`branches('all')` is the server's typo).

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
                // A word's own ending in parentheses (`field(s)`) is the word's too.
                let inner = &text[i + 1..];
                let ending = inner.find(')').is_some_and(|end| {
                    (1..=3).contains(&end) && inner[..end].chars().all(|c| c.is_ascii_lowercase())
                });
                let attached = before.is_some_and(|b: char| !b.is_whitespace());
                let object = wanted(&text[..i]) && literal(inner);
                if open == 0 && !(attached && (c == '[' || ending)) && !object {
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

/// The words whose object follows them: a literal group right after one is that object,
/// no aside (`as [box=x,y,width,height] in the snapshot`).
const WANTING: &[&str] = &[
    "a", "an", "the", "as", "of", "to", "into", "in", "on", "at", "by", "for", "from", "with",
    "like",
];

/// Whether the word `before` ends on wants an object (`WANTING`).
fn wanted(before: &str) -> bool {
    let before = before.trim_end();
    let word = before.rsplit(char::is_whitespace).next().unwrap_or(before);
    WANTING.iter().any(|w| w.eq_ignore_ascii_case(word))
}

/// Whether the group `inner` begins (after its opening mark) is one literal: no space
/// before it closes (`[box=x,y,width,height]`, not `(usually a short code)`).
fn literal(inner: &str) -> bool {
    inner
        .find([')', ']'])
        .is_some_and(|end| !inner[..end].contains(char::is_whitespace))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_bracket_inside_a_word_is_the_word_s() {
        let text =
            "Size (in bytes [or KiB]) of items[0], as 'WxH[,mobile]', all('all') field(s) (open";
        let found = asides(text);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].inner(text), "in bytes [or KiB]");
        assert!(found[0].closed);
        assert_eq!(found[1].inner(text), "'all'");
        assert_eq!(found[2].inner(text), "open");
        assert!(!found[2].closed);
    }

    #[test]
    fn a_group_a_word_wants_as_its_object_is_no_aside() {
        // Playwright's `boxes`: cut out, the sentence would read "as in the snapshot".
        let text = "Include each box as [box=x,y,width,height] in the snapshot (CSS pixels)";
        let found = asides(text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].inner(text), "CSS pixels");
        assert_eq!(asides("Run it (In the background)").len(), 1);
        // Words are an aside still (mcp-atlassian's `space_key`).
        assert_eq!(
            asides("the space to create the page in (usually a code)").len(),
            1
        );
    }
}
