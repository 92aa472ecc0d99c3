//! `eval`'s reports: a table a person reads in one glance, and JSON with every rank.

use super::{Evaluation, LevelEval};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// Rounds a share to three decimals for JSON.
fn round(share: f64) -> f64 {
    (share * 1000.0).round() / 1000.0
}

/// How one row of the text report shows a level.
type Column = fn(&LevelEval) -> String;

/// The text report: per reader, tokens, `hit@1`, `hit@K` and MRR at each level.
pub fn text(eval: &Evaluation) -> String {
    let mut out = format!(
        "eval --search {}: {} tasks, ranked by {}; hit@{k}: in its top {k}\n",
        eval.search,
        eval.tasks.len(),
        eval.search.describe(),
        k = eval.k
    );
    let width = eval
        .classes
        .iter()
        .map(|c| c.class.label().len())
        .max()
        .unwrap_or(1)
        .max("reader".len());
    let _ = write!(out, "{:<width$}  {:<7}", "reader", "level");
    for level in 0..10 {
        let _ = write!(out, "{level:>7}");
    }
    out.push('\n');
    let rows: [(String, Column); 4] = [
        ("tokens".to_owned(), |l| l.tokens.to_string()),
        ("hit@1".to_owned(), |l| format!("{:.2}", l.hit_at_1)),
        (format!("hit@{}", eval.k), |l| format!("{:.2}", l.hit_at_k)),
        ("mrr".to_owned(), |l| format!("{:.2}", l.mrr)),
    ];
    for class in &eval.classes {
        for (row, (name, cell)) in rows.iter().enumerate() {
            let label = if row == 0 {
                class.class.label()
            } else {
                String::new()
            };
            let _ = write!(out, "{label:<width$}  {name:<7}");
            for level in &class.levels {
                let _ = write!(out, "{:>7}", cell(level));
            }
            out.push('\n');
        }
    }
    out
}

/// The JSON report: the search's name, K, and per reader, per level `tokens`, `hit_at_1`, `hit_at_k`, `mrr`, and each
/// task's `rank` (`null`: not returned at all).
pub fn json(eval: &Evaluation, findings: &[String]) -> Value {
    let readers: serde_json::Map<String, Value> = eval
        .classes
        .iter()
        .map(|class| {
            let levels: Vec<Value> = class
                .levels
                .iter()
                .enumerate()
                .map(|(level, l)| {
                    let tasks: Vec<Value> = class
                        .tasks
                        .iter()
                        .zip(&l.ranks)
                        .map(|(&t, rank)| {
                            let task = &eval.tasks[t];
                            json!({"query": task.query, "expect": task.expect, "rank": rank})
                        })
                        .collect();
                    json!({
                        "level": level,
                        "tokens": l.tokens,
                        "hit_at_1": round(l.hit_at_1),
                        "hit_at_k": round(l.hit_at_k),
                        "mrr": round(l.mrr),
                        "tasks": tasks,
                    })
                })
                .collect();
            (class.class.label(), Value::Array(levels))
        })
        .collect();
    json!({"search": eval.search.name(), "k": eval.k, "readers": readers, "findings": findings})
}
