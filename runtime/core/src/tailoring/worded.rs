//! Input schemas with a file's argument descriptions put in, kept per tool view: worded
//! once for each schema and wording, then shared (`Arc`). Wording a schema copies it
//! whole and walks to each argument; a reader class listing again and again (the gateway
//! lists an upstream's tools per request) gets the schema worded before, and the same
//! `Arc` each time (which compares by pointer when a listing is compared).

use crate::description::Found;
use serde_json::{Map, Value};
use std::sync::{Arc, Mutex, PoisonError};

type Schema = Arc<Map<String, Value>>;

/// How many worded schemas one view keeps (a few reader classes, an upstream's schema
/// or two): past this, the oldest goes.
const KEPT: usize = 8;

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
struct Kept {
    source: Schema,
    words: Vec<Word>,
    worded: Schema,
}

/// The schemas a view worded lately, the latest last.
#[derive(Debug, Default)]
pub(super) struct Worded(Mutex<Vec<Kept>>);

/// A copy of a view starts with none kept.
impl Clone for Worded {
    fn clone(&self) -> Self {
        Worded::default()
    }
}

impl Worded {
    fn kept(&self) -> std::sync::MutexGuard<'_, Vec<Kept>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `source` as worded before with the descriptions' answers `found`, if it was.
    pub(super) fn get(&self, source: &Schema, found: &[Found<'_>]) -> Option<Schema> {
        let kept = self.kept();
        kept.iter()
            .rev()
            .find(|k| {
                Arc::ptr_eq(&k.source, source)
                    && k.words.len() == found.len()
                    && k.words.iter().zip(found).all(|(word, f)| word.is(f))
            })
            .map(|k| k.worded.clone())
    }

    /// Keeps `worded`: `source` worded with the answers `found`.
    pub(super) fn keep(&self, source: Schema, found: &[Found<'_>], worded: Schema) {
        let mut kept = self.kept();
        if kept.len() >= KEPT {
            kept.remove(0);
        }
        kept.push(Kept {
            source,
            words: found.iter().map(Word::of).collect(),
            worded,
        });
    }
}

#[cfg(test)]
mod tests {
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
        worded.keep(source.clone(), &found, terse.clone());
        let again = worded.get(&source, &[Found::Text("Terse."), Found::Uncovered]);
        assert!(again.is_some_and(|s| Arc::ptr_eq(&s, &terse)));
        // Another text, another answer, another schema (even an equal one): not kept.
        assert!(
            worded
                .get(&source, &[Found::Text("Rich."), Found::Uncovered])
                .is_none()
        );
        assert!(
            worded
                .get(&source, &[Found::Text("Terse."), Found::Nothing])
                .is_none()
        );
        let equal = schema(json!({"type": "object"}));
        assert!(worded.get(&equal, &found).is_none());
    }

    #[test]
    fn the_oldest_goes_past_the_bound_and_a_copy_keeps_none() {
        let worded = Worded::default();
        let sources: Vec<Schema> = (0..=KEPT).map(|i| schema(json!({"n": i}))).collect();
        for source in &sources {
            worded.keep(source.clone(), &[Found::Nothing], source.clone());
        }
        assert!(worded.get(&sources[0], &[Found::Nothing]).is_none());
        assert!(worded.get(&sources[KEPT], &[Found::Nothing]).is_some());
        assert!(
            worded
                .clone()
                .get(&sources[KEPT], &[Found::Nothing])
                .is_none()
        );
    }
}
