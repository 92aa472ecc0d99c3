//! The warnings about variants that can never be served: `#[mcp_tool]`, `#[mcp_args]` and
//! `description!` use one of these constants, spanned on the dead entry, so rustc warns on
//! stable ("use of deprecated constant mcp_tailor::dead_variant::level_entry") with the note
//! as the fix. `allow(dead_variants)` on the item silences them. Not an API: the
//! macros name them.

/// One deprecated constant per kind of dead variant, its note the fix.
/// The same notes are the messages of a tailoring file's warnings ([`message`]).
macro_rules! kinds {
    ($($(#[$doc:meta])* $kind:ident => $note:literal;)*) => {
        $(
            $(#[$doc])*
            #[deprecated(note = $note)]
            #[allow(non_upper_case_globals)]
            pub const $kind: () = ();
        )*

        /// The note of the dead-variant kind `kind` (as `mcp-tailor-model` names kinds).
        #[cfg_attr(not(feature = "tailoring"), allow(dead_code))]
        pub(crate) fn message(kind: &str) -> &'static str {
            match kind {
                $(stringify!($kind) => $note,)*
                _ => "variant never served",
            }
        }
    };
}

kinds! {
    /// An inline level entry under a non-empty `verbosity_map`.
    level_entry => "level entry never served: a non-empty `verbosity_map` answers every level; remove the entry or add `allow(dead_variants)`";
    /// A list's `default` next to level entries or a `verbosity_map`.
    list_default => "`default` never served: the level entries or the `verbosity_map` answer every level (it is only the definitive text); remove it or add `allow(dead_variants)`";
    /// A runner rule's `default` next to its level entries.
    rule_default => "rule `default` never served: the rule's level entries answer every level; remove it or add `allow(dead_variants)`";
    /// A runner rule that a rule ranked before it always beats.
    shadowed_rule => "runner rule never wins: an earlier or more specific rule matches every reader it matches; remove it, make it more specific, or add `allow(dead_variants)`";
    /// A declared variant that no map entry and no rule names.
    unused_variant => "variant never served: no `verbosity_map` entry or runner rule names its tag; use it, remove it, or add `allow(dead_variants)`";
}
