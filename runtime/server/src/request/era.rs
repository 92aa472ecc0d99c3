//! Protocol eras: what a protocol revision changes for the layer, decided in one place
//! instead of comparing revision strings wherever it matters.

/// The protocol eras the layer serves, oldest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Era {
    /// 2025-06-18 and earlier: sessions (`initialize`), no tool icons.
    SessionsWithoutIcons,
    /// 2025-11-25: sessions (`initialize`), tool icons.
    Sessions,
    /// 2026-07-28 and later: stateless requests (`server/discover`, per-request `_meta`),
    /// cache hints on list results.
    Stateless,
}

impl Era {
    /// The first revision of the stateless era.
    pub const STATELESS_SINCE: &'static str = "2026-07-28";
    /// The first revision with tool icons.
    pub const ICONS_SINCE: &'static str = "2025-11-25";

    /// The era of a revision (`YYYY-MM-DD`); a request that names none is in the
    /// session-bound era of its handshake, taken as [`Era::Sessions`].
    pub fn of(revision: Option<&str>) -> Era {
        match revision {
            None => Era::Sessions,
            // Revisions are dates, so their strings order like the dates.
            Some(v) if v >= Era::STATELESS_SINCE => Era::Stateless,
            Some(v) if v >= Era::ICONS_SINCE => Era::Sessions,
            Some(_) => Era::SessionsWithoutIcons,
        }
    }

    /// Whether requests carry their own context (`_meta`) instead of a session's.
    pub fn is_stateless(self) -> bool {
        self == Era::Stateless
    }

    /// Whether tools may carry `icons`.
    pub fn has_icons(self) -> bool {
        self >= Era::Sessions
    }
}

#[cfg(test)]
mod tests {
    use super::Era;

    #[test]
    fn revisions_fall_in_their_eras() {
        assert_eq!(Era::of(None), Era::Sessions);
        assert_eq!(Era::of(Some("2024-11-05")), Era::SessionsWithoutIcons);
        assert_eq!(Era::of(Some("2025-06-18")), Era::SessionsWithoutIcons);
        assert_eq!(Era::of(Some("2025-11-25")), Era::Sessions);
        assert_eq!(Era::of(Some("2026-07-28")), Era::Stateless);
        assert_eq!(Era::of(Some("2027-01-01")), Era::Stateless);
        assert!(!Era::of(Some("2025-06-18")).has_icons());
        assert!(Era::of(None).has_icons() && !Era::of(None).is_stateless());
        assert!(Era::of(Some("2026-07-28")).has_icons());
    }
}
