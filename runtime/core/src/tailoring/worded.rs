//! Schemas with a file's argument descriptions put in and its `[schemas]` boilerplate left
//! out (`lean`), kept per tool view: worded once for each schema and wording, then shared
//! (`Arc`). Wording a schema copies it
//! whole and walks to each argument; a reader class listing again and again (the gateway
//! lists an upstream's tools per request) gets the schema worded before, and the same
//! `Arc` each time (which compares by pointer when a listing is compared).

use super::lean::Cut;
use crate::description::Found;
use crate::locked::Locked;
use serde_json::{Map, Value};
use std::sync::{Arc, Mutex};

type Schema = Arc<Map<String, Value>>;

/// How many worded schemas one tool's view keeps (a few reader classes, an upstream's
/// schema or two): past this, the oldest goes.
const KEPT: usize = 8;

/// How many the view of every tool a file names not keeps: a few reader classes of each.
const KEPT_SHARED: usize = 512;

/// What one argument's description answered: a text, nothing, or the tool's own words.
#[derive(Debug, PartialEq)]
enum Word {
    Text(Box<str>),
    Nothing,
    Uncovered,
}

impl Word {
    fn of(found: &Found<'_>) -> Word {
        match found {
            Found::Text(text) => Word::Text((*text).into()),
            Found::Nothing => Word::Nothing,
            Found::Uncovered => Word::Uncovered,
        }
    }

    fn is(&self, found: &Found<'_>) -> bool {
        match (self, found) {
            (Word::Text(kept), Found::Text(text)) => **kept == **text,
            (Word::Nothing, Found::Nothing) | (Word::Uncovered, Found::Uncovered) => true,
            _ => false,
        }
    }
}

/// One schema as worded: the schema it was worded from (held, so its address is never
/// another's while kept), what each argument's description answered, the result.
#[derive(Debug)]
struct KeptWords {
    source: Schema,
    words: Vec<Word>,
    cut: Cut,
    worded: Schema,
}

/// The schemas a view worded lately, the latest last, and how many it keeps.
#[derive(Debug)]
pub(super) struct Worded(Mutex<Vec<KeptWords>>, usize);

impl Default for Worded {
    fn default() -> Self {
        Worded(Mutex::default(), KEPT)
    }
}

/// A copy of a view starts with none kept.
impl Clone for Worded {
    fn clone(&self) -> Self {
        Worded(Mutex::default(), self.1)
    }
}

impl Worded {
    /// A cache for a view that words many tools' schemas.
    pub(super) fn shared() -> Self {
        Worded(Mutex::default(), KEPT_SHARED)
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, Vec<KeptWords>> {
        self.0.locked()
    }

    /// `source` as worded before with the descriptions' answers `found` and leaned by
    /// `cut`, if it was.
    pub(super) fn get(&self, source: &Schema, found: &[Found<'_>], cut: Cut) -> Option<Schema> {
        let kept = self.kept();
        kept.iter()
            .rev()
            .find(|k| {
                Arc::ptr_eq(&k.source, source)
                    && k.cut == cut
                    && k.words.len() == found.len()
                    && k.words.iter().zip(found).all(|(word, f)| word.is(f))
            })
            .map(|k| k.worded.clone())
    }

    /// Keeps `worded`: `source` worded with the answers `found`, leaned by `cut`.
    pub(super) fn keep(&self, source: Schema, found: &[Found<'_>], cut: Cut, worded: Schema) {
        let mut kept = self.kept();
        if kept.len() >= self.1 {
            kept.remove(0);
        }
        kept.push(KeptWords {
            source,
            words: found.iter().map(Word::of).collect(),
            cut,
            worded,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::lean::Lean;
    use super::*;
    use serde_json::json;

    fn schema(value: Value) -> Schema {
        match value {
            Value::Object(map) => Arc::new(map),
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_schema_worded_the_same_way_is_the_one_kept_and_any_other_is_not() {
        let worded = Worded::default();
        let source = schema(json!({"type": "object"}));
        let terse = schema(json!({"type": "object", "x": 1}));
        let found = [Found::Text("Terse."), Found::Uncovered];
        worded.keep(source.clone(), &found, Cut::default(), terse.clone());
        let again = worded.get(&source, &found, Cut::default());
        assert!(again.is_some_and(|s| Arc::ptr_eq(&s, &terse)));
        // Another text, another answer, another schema (even an equal one): not kept.
        assert!(
            worded
                .get(
                    &source,
                    &[Found::Text("Rich."), Found::Uncovered],
                    Cut::default()
                )
                .is_none()
        );
        assert!(
            worded
                .get(
                    &source,
                    &[Found::Text("Terse."), Found::Nothing],
                    Cut::default()
                )
                .is_none()
        );
        let equal = schema(json!({"type": "object"}));
        assert!(worded.get(&equal, &found, Cut::default()).is_none());
        // Leaned otherwise: not kept.
        assert!(
            worded
                .get(
                    &source,
                    &found,
                    Lean {
                        dialect: 1,
                        titles: 0
                    }
                    .cut(0)
                )
                .is_none()
        );
    }

    #[test]
    fn the_oldest_goes_past_the_bound_and_a_copy_keeps_none() {
        let worded = Worded::default();
        let sources: Vec<Schema> = (0..=KEPT).map(|i| schema(json!({"n": i}))).collect();
        for source in &sources {
            worded.keep(
                source.clone(),
                &[Found::Nothing],
                Cut::default(),
                source.clone(),
            );
        }
        assert!(
            worded
                .get(&sources[0], &[Found::Nothing], Cut::default())
                .is_none()
        );
        assert!(
            worded
                .get(&sources[KEPT], &[Found::Nothing], Cut::default())
                .is_some()
        );
        assert!(
            worded
                .clone()
                .get(&sources[KEPT], &[Found::Nothing], Cut::default())
                .is_none()
        );
    }
}
