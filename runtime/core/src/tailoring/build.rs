//! A checked description of the file → the runtime's [`Description`]: the model's tables
//! (`tables::build`), their texts owned, resolved by the same code as the macro's.

use super::source::File;
use crate::description::{CompiledModelMatch, CompiledRule, Description, Tailored};
use mcp_tailor_model::tables::{self, LEVELS, Shape};
use mcp_tailor_model::valid::Checked;
use std::borrow::Cow;

/// The description a checked site amounts to.
pub(crate) fn description(checked: &Checked<File>) -> Description {
    let text = |handle: usize| checked.texts[handle].value.clone();
    let table = match tables::build(checked.plan.clone()) {
        Shape::Absent => return Description::ABSENT,
        Shape::Bare(handle) => return Description::bare_owned(text(handle)),
        Shape::Tailored(table) => table,
    };
    let pool = tables::pool(&table);
    let slots = |slots: &[Option<usize>]| -> [u8; LEVELS] {
        let bytes = tables::slot_bytes(&table, &pool, slots);
        bytes.try_into().expect("ten slots make ten bytes")
    };
    let owned = |names: &[String]| names.iter().cloned().map(Cow::Owned).collect();
    let rules = table
        .rules
        .iter()
        .map(|rule| CompiledRule {
            runner: rule.runner.clone().map(Cow::Owned),
            model: match &rule.model {
                tables::ModelMatch::Any => CompiledModelMatch::Any,
                tables::ModelMatch::Exact(name) => {
                    CompiledModelMatch::Exact(Cow::Owned(name.clone()))
                }
                tables::ModelMatch::List(names) => CompiledModelMatch::List(owned(names)),
            },
            slots: slots(&rule.slots),
        })
        .collect();
    Description::shared(Tailored {
        texts: pool.iter().map(|h| Cow::Owned(text(*h))).collect(),
        base: slots(&table.base),
        rules,
        default_verbosity: table.default_verbosity,
        definitive: tables::slot_bytes(&table, &pool, &[table.definitive])[0],
    })
}
