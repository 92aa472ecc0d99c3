//! The names a fleet serves its servers' tools and prompts by. A name one server alone
//! lists is served as it is; a name two or more list is served as `{server}_{name}` by
//! each (the server's name with every character outside `A-Z a-z 0-9 _ -` made `_`), so
//! every name is served once and says whose it is. Names follow what the servers list
//! now: a collision that appears or goes renames the tools involved.

use std::collections::HashMap;

/// Where a served name goes: the member's index and the name its server knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Destination {
    pub(crate) member: usize,
    pub(crate) name: String,
}

/// Served names both ways.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Names {
    served: HashMap<String, Destination>,
    /// Per member, its own name → the served one.
    by_member: Vec<HashMap<String, String>>,
}

/// `server` as it goes into a tool name.
fn prefix(server: &str) -> String {
    server
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                true => c,
                false => '_',
            },
        )
        .collect()
}

impl Names {
    /// The names of `listed`: per member (in the fleet's order), its server's name and the
    /// names it lists (filtered).
    pub(crate) fn new(listed: &[(&str, Vec<String>)]) -> Names {
        let mut count: HashMap<&str, usize> = HashMap::new();
        for (_, names) in listed {
            for name in names {
                *count.entry(name).or_default() += 1;
            }
        }
        let mut served = HashMap::new();
        let mut by_member = vec![HashMap::new(); listed.len()];
        let mut serve = |served: &mut HashMap<String, Destination>,
                         member: usize,
                         name: &str,
                         outward: String| {
            let owner = Destination {
                member,
                name: name.to_owned(),
            };
            by_member[member].insert(name.to_owned(), outward.clone());
            served.insert(outward, owner);
        };
        // The names one server lists first, as they are; then the shared ones, prefixed,
        // counting on past a name already served.
        for (member, (_, names)) in listed.iter().enumerate() {
            for name in names.iter().filter(|n| count[n.as_str()] == 1) {
                serve(&mut served, member, name, name.clone());
            }
        }
        for (member, (server, names)) in listed.iter().enumerate() {
            for name in names.iter().filter(|n| count[n.as_str()] > 1) {
                let mut outward = format!("{}_{name}", prefix(server));
                let mut n = 2;
                while served.contains_key(&outward) {
                    outward = format!("{}_{name}_{n}", prefix(server));
                    n += 1;
                }
                serve(&mut served, member, name, outward);
            }
        }
        Names { served, by_member }
    }

    /// Whether these names serve `listed` (per member index, its items, `name` naming
    /// each): every member lists the same names as when they were made, so they need not be
    /// made again.
    pub(crate) fn fit<T>(&self, listed: &[(usize, Vec<T>)], name: impl Fn(&T) -> &str) -> bool {
        let mut count = 0;
        for (member, items) in listed {
            let Some(known) = self.by_member.get(*member) else {
                return false;
            };
            if known.len() != items.len() || !items.iter().all(|i| known.contains_key(name(i))) {
                return false;
            }
            count += known.len();
        }
        // No member missing from `listed` had names.
        count == self.served.len()
    }

    /// Whose the served `name` is.
    pub(crate) fn owner(&self, name: &str) -> Option<&Destination> {
        self.served.get(name)
    }

    /// The name member `member`'s `name` is served by.
    pub(crate) fn served(&self, member: usize, name: &str) -> Option<&str> {
        self.by_member.get(member)?.get(name).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::{Destination, Names};

    fn names(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_name_one_server_lists_stays_and_a_shared_one_is_prefixed() {
        let listed = [
            ("files", names(&["read_file", "search"])),
            ("git hub", names(&["search", "create_issue"])),
        ];
        let served = Names::new(&listed);
        assert_eq!(served.served(0, "read_file"), Some("read_file"));
        assert_eq!(served.served(0, "search"), Some("files_search"));
        assert_eq!(served.served(1, "search"), Some("git_hub_search"));
        let owner = Destination {
            member: 1,
            name: "search".to_owned(),
        };
        assert_eq!(served.owner("git_hub_search"), Some(&owner));
        assert_eq!(served.owner("search"), None);
    }

    #[test]
    fn names_fit_the_same_names_listed_again_and_nothing_else() {
        let rows = |a: &[&str], b: &[&str]| vec![(0, names(a)), (1, names(b))];
        let served = Names::new(&[("a", names(&["x", "y"])), ("b", names(&["x"]))]);
        let name = String::as_str;
        assert!(served.fit(&rows(&["y", "x"], &["x"]), name));
        assert!(!served.fit(&rows(&["x"], &["x"]), name), "a tool gone");
        assert!(
            !served.fit(&rows(&["x", "z"], &["x"]), name),
            "a tool renamed"
        );
        assert!(
            !served.fit(&rows(&["x", "y"], &["x", "y"]), name),
            "a tool added"
        );
        assert!(
            !served.fit(&[(0, names(&["x", "y"]))], name),
            "a member gone"
        );
        assert!(!served.fit(&[(0, names(&["x", "y"])), (2, names(&["x"]))], name));
    }

    #[test]
    fn a_prefixed_name_never_takes_a_listed_one() {
        let listed = [("b", names(&["x"])), ("a", names(&["x", "b_x"]))];
        let served = Names::new(&listed);
        assert_eq!(served.served(1, "b_x"), Some("b_x"));
        assert_eq!(served.served(0, "x"), Some("b_x_2"));
        assert_eq!(served.served(1, "x"), Some("a_x"));
    }
}
