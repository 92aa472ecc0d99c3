//! Which of a server's tools the fleet serves: `allow` (when given) names the only ones,
//! `deny` takes some away; each a tool name or a glob (`*`, `?`, `[a-z]`). A tool filtered
//! out is neither listed nor callable. Filtering is the gateway's configuration, not
//! wording: it never lives in a tailoring file.

/// A server's tool filter.
#[derive(Clone, Debug, Default)]
pub struct ToolFilter {
    allow: Option<Vec<glob::Pattern>>,
    deny: Vec<glob::Pattern>,
}

/// A filter pattern that is no glob.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
#[error("tool pattern `{pattern}`: {reason}")]
pub struct FilterError {
    /// The pattern as written.
    pub pattern: String,
    /// Why it is no glob.
    pub reason: String,
}

fn patterns(written: &[String]) -> Result<Vec<glob::Pattern>, FilterError> {
    written
        .iter()
        .map(|p| {
            glob::Pattern::new(p).map_err(|e| FilterError {
                pattern: p.clone(),
                reason: e.msg.to_owned(),
            })
        })
        .collect()
}

impl ToolFilter {
    /// Serves the tools `allow` names (every tool, for `None`) less those `deny` names.
    pub fn new(allow: Option<&[String]>, deny: &[String]) -> Result<ToolFilter, FilterError> {
        Ok(ToolFilter {
            allow: allow.map(patterns).transpose()?,
            deny: patterns(deny)?,
        })
    }

    /// Whether the tool `name` (as its server names it) is served.
    pub fn serves(&self, name: &str) -> bool {
        let allowed = self
            .allow
            .as_ref()
            .is_none_or(|allow| allow.iter().any(|p| p.matches(name)));
        allowed && !self.deny.iter().any(|p| p.matches(name))
    }
}

#[cfg(test)]
mod tests {
    use super::ToolFilter;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn allow_names_the_only_tools_and_deny_takes_some_away() {
        let everything = ToolFilter::default();
        assert!(everything.serves("delete_file"));
        let allow = strings(&["read_*", "list_directory"]);
        let deny = strings(&["read_media_file"]);
        let filter = ToolFilter::new(Some(&allow), &deny).unwrap();
        assert!(filter.serves("read_text_file"));
        assert!(filter.serves("list_directory"));
        assert!(!filter.serves("read_media_file"));
        assert!(!filter.serves("write_file"));
        let deny_only = ToolFilter::new(None, &strings(&["*_file"])).unwrap();
        assert!(deny_only.serves("search"));
        assert!(!deny_only.serves("write_file"));
    }

    #[test]
    fn a_pattern_that_is_no_glob_is_named() {
        let error = ToolFilter::new(None, &strings(&["[a-"])).unwrap_err();
        assert_eq!(error.pattern, "[a-");
    }
}
