//! The demo's in-memory notes store: what the tools do when they are called.

use crate::tools::{CreateNote, DeleteNote, ReadNote, SearchNotes, TagNote};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// One note.
#[derive(Clone, Debug, Serialize)]
pub struct Note {
    pub id: u64,
    pub title: String,
    pub body: String,
    pub tags: Vec<String>,
}

/// All notes, by id; ids only grow.
#[derive(Debug, Default)]
pub struct Notes {
    next_id: u64,
    notes: BTreeMap<u64, Note>,
}

/// A failed call, in words for the model.
pub type CallError = String;

fn clean_tags(tags: &[String]) -> Result<Vec<String>, CallError> {
    let mut out: Vec<String> = Vec::new();
    for tag in tags {
        let tag = tag.trim().to_lowercase();
        if tag.is_empty() || tag.contains(char::is_whitespace) || tag.starts_with('#') {
            return Err(format!(
                "invalid tag {tag:?}: tags are single lower-case words without `#`"
            ));
        }
        if !out.contains(&tag) {
            out.push(tag);
        }
    }
    Ok(out)
}

impl Notes {
    pub fn create(&mut self, args: CreateNote) -> Result<Value, CallError> {
        if args.title.trim().is_empty() {
            return Err("the title must not be empty".into());
        }
        let tags = clean_tags(&args.tags)?;
        self.next_id += 1;
        let id = self.next_id;
        self.notes.insert(
            id,
            Note {
                id,
                title: args.title,
                body: args.body,
                tags,
            },
        );
        Ok(json!({ "id": id }))
    }

    pub fn search(&self, args: SearchNotes) -> Result<Value, CallError> {
        let words: Vec<String> = args
            .query
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        if words.is_empty() {
            return Err("the query needs at least one word".into());
        }
        let limit = args.max_results.unwrap_or(10).clamp(1, 50) as usize;
        let hits: Vec<Value> = self
            .notes
            .values()
            .rev()
            .filter(|n| {
                args.tag
                    .as_ref()
                    .is_none_or(|t| n.tags.contains(&t.to_lowercase()))
            })
            .filter_map(|n| {
                let text = format!("{}\n{}", n.title, n.body).to_lowercase();
                if !words.iter().all(|w| text.contains(w.as_str())) {
                    return None;
                }
                let snippet: String = n.body.chars().take(80).collect();
                Some(json!({ "id": n.id, "title": n.title, "tags": n.tags, "snippet": snippet }))
            })
            .take(limit)
            .collect();
        Ok(json!({ "results": hits }))
    }

    pub fn read(&self, args: ReadNote) -> Result<Value, CallError> {
        self.notes
            .get(&args.id)
            .map(|n| json!(n))
            .ok_or_else(|| format!("no note with id {}", args.id))
    }

    pub fn delete(&mut self, args: DeleteNote) -> Result<Value, CallError> {
        self.notes
            .remove(&args.id)
            .map(|n| json!({ "deleted": n.id }))
            .ok_or_else(|| format!("no note with id {}", args.id))
    }

    pub fn tag(&mut self, args: TagNote) -> Result<Value, CallError> {
        let tags = clean_tags(&args.new_tags)?;
        let note = self
            .notes
            .get_mut(&args.id)
            .ok_or_else(|| format!("no note with id {}", args.id))?;
        note.tags = tags;
        Ok(json!({ "id": note.id, "tags": note.tags }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create(notes: &mut Notes, title: &str, body: &str, tags: &[&str]) -> u64 {
        let args = CreateNote {
            title: title.into(),
            body: body.into(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
        };
        notes.create(args).unwrap()["id"].as_u64().unwrap()
    }

    #[test]
    fn create_search_read_tag_delete() {
        let mut notes = Notes::default();
        let a = create(&mut notes, "Groceries", "milk, eggs and bread", &["home"]);
        let b = create(
            &mut notes,
            "Ideas",
            "a milk-based dessert",
            &["Work", "work"],
        );
        let search = |notes: &Notes, query: &str, tag: Option<&str>| {
            let args = SearchNotes {
                query: query.into(),
                tag: tag.map(Into::into),
                max_results: None,
            };
            let found = notes.search(args).unwrap();
            found["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["id"].as_u64().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            search(&notes, "MILK", None),
            vec![b, a],
            "newest first, case-insensitive"
        );
        assert_eq!(
            search(&notes, "milk eggs", None),
            vec![a],
            "every word must appear"
        );
        assert_eq!(search(&notes, "milk", Some("work")), vec![b]);
        assert_eq!(
            notes.read(ReadNote { id: b }).unwrap()["tags"],
            json!(["work"])
        );
        let tagged = notes
            .tag(TagNote {
                id: a,
                new_tags: vec!["errands".into()],
            })
            .unwrap();
        assert_eq!(tagged["tags"], json!(["errands"]));
        assert_eq!(notes.delete(DeleteNote { id: a }).unwrap()["deleted"], a);
        assert!(
            notes
                .read(ReadNote { id: a })
                .unwrap_err()
                .contains("no note")
        );
        assert!(notes.delete(DeleteNote { id: a }).is_err());
    }

    #[test]
    fn bad_input_is_a_clean_error() {
        let mut notes = Notes::default();
        let args = CreateNote {
            title: " ".into(),
            body: String::new(),
            tags: vec![],
        };
        assert!(notes.create(args).is_err());
        let args = CreateNote {
            title: "t".into(),
            body: String::new(),
            tags: vec!["two words".into()],
        };
        assert!(notes.create(args).unwrap_err().contains("invalid tag"));
        let args = SearchNotes {
            query: "  ".into(),
            tag: None,
            max_results: Some(0),
        };
        assert!(notes.search(args).is_err());
    }
}
