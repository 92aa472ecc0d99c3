//! Many servers behind one endpoint: a [`Fleet`] is an rmcp handler over one [`Gateway`]
//! per server, each with its own upstream sessions, filters and deadline.
//! Wrap it like a gateway: `Server::builder().handler(fleet)`.
//!
//! | request | goes to |
//! |---|---|
//! | `tools/list`, `prompts/list`, `resources/list`, templates | every server that is up, merged |
//! | `tools/call`, `prompts/get` | the server whose tool or prompt it names |
//! | `resources/read`, `subscribe`, `completion/complete` | the server that listed the URI or template; else each in turn |
//! | tasks, custom requests | each server in turn, until one knows it |
//! | `logging/setLevel`, roots changed | every server |
//!
//! * A name one server lists is served as it is; a name several list is served as
//!   `{server}_{name}` by each.
//! * What each server sends (progress, logs, list changes, questions to the client) reaches
//!   the client through that server's own gateway.
//! * A server that cannot be reached at start costs only its own tools: it is retried in
//!   the background (1 s, doubling to 30 s), and joins when it answers ([`Fleet::changed`]).
//!   One that exits later is started again by the next request that needs it.
//! * 2026-07-28 `subscriptions/listen` is not merged: a fleet's listeners hear nothing.

mod filter;
pub(crate) mod names;
mod serve;

use crate::{Gateway, GatewayOptions, Upstream};
use mcp_tailor_core::seam::Locked;
use names::Names;
use rmcp::model::{ProtocolVersion, ServerCapabilities, ServerConfig, Tool};
use std::sync::{Arc, OnceLock, RwLock};
use std::time::Duration;

pub use filter::{FilterError, ToolFilter};

/// One server of a fleet.
#[derive(Clone, Debug)]
pub struct FleetMember {
    /// Its name: in logs, metrics, and the names of tools another server lists too.
    pub name: String,
    /// Where it is.
    pub upstream: Upstream,
    /// Which of its tools are served.
    pub tools: ToolFilter,
    /// Its sessions and deadline.
    pub options: GatewayOptions,
}

/// Many servers as one (see the module documentation). Each clone (the layer makes one per
/// session) has its own upstream session with each server.
pub struct Fleet {
    state: Arc<FleetState>,
    /// This session's gateway of each member, cloned from the member's on first use.
    own: Vec<OnceLock<Gateway>>,
}

/// What every clone of a fleet shares.
struct FleetState {
    members: Vec<MemberState>,
    info: ServerConfig,
    /// The served names of tools and of prompts, as last listed.
    tools: RwLock<Arc<Names>>,
    prompts: RwLock<Arc<Names>>,
    /// Which member listed each resource URI and each template, as last listed.
    resources: RwLock<Arc<Owners>>,
    /// Bumped each time a member joins, or the served tool names change.
    changed: tokio::sync::watch::Sender<u64>,
    /// Bumped each time a member's listing changes its tools (`Gateway::tools_changed`).
    tools_changed: tokio::sync::watch::Sender<u64>,
}

/// One member: its configuration and, once it answered, its gateway.
struct MemberState {
    member: FleetMember,
    gateway: RwLock<Option<Gateway>>,
}

/// Resource URIs and templates, by the member that listed them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Owners {
    uris: std::collections::HashMap<String, usize>,
    /// Each template's text before its first `{`, longest first, with its member.
    templates: Vec<(String, usize)>,
}

impl Owners {
    /// The member that listed `uri`, or a template `uri` fits.
    pub(crate) fn owner(&self, uri: &str) -> Option<usize> {
        self.uris.get(uri).copied().or_else(|| {
            self.templates
                .iter()
                .find(|(prefix, _)| !prefix.is_empty() && uri.starts_with(prefix.as_str()))
                .map(|(_, member)| *member)
        })
    }
}

impl Clone for Fleet {
    fn clone(&self) -> Self {
        Fleet {
            state: self.state.clone(),
            own: (0..self.state.members.len())
                .map(|_| OnceLock::new())
                .collect(),
        }
    }
}

/// The first wait before a server that did not answer is tried again, and the longest.
const RETRY_FIRST: Duration = Duration::from_secs(1);
const RETRY_MOST: Duration = Duration::from_secs(30);

impl Fleet {
    /// Connects to every member at once. A member that does not answer is logged and
    /// retried in the background; the fleet serves the others meanwhile.
    pub async fn connect(members: Vec<FleetMember>) -> Fleet {
        let opened = futures::future::join_all(
            members
                .iter()
                .map(|m| Gateway::connect_with(m.upstream.clone(), m.options.clone())),
        )
        .await;
        let mut states = Vec::with_capacity(members.len());
        let mut down = Vec::new();
        for (index, (member, opened)) in members.into_iter().zip(opened).enumerate() {
            let gateway = match opened {
                Ok(gateway) => {
                    tell_version(&member.name, &gateway);
                    Some(gateway)
                }
                Err(error) => {
                    tracing::warn!("server `{}`: {error}; retrying", member.name);
                    down.push(index);
                    None
                }
            };
            states.push(MemberState {
                member,
                gateway: RwLock::new(gateway),
            });
        }
        let info = merged_info(&states);
        let state = Arc::new(FleetState {
            members: states,
            info,
            tools: RwLock::default(),
            prompts: RwLock::default(),
            resources: RwLock::default(),
            changed: tokio::sync::watch::Sender::new(0),
            tools_changed: tokio::sync::watch::Sender::new(0),
        });
        for member in &state.members {
            if let Some(gateway) = member.gateway() {
                tokio::spawn(relay_tool_changes(Arc::downgrade(&state), &gateway));
            }
        }
        for index in down {
            tokio::spawn(retry(Arc::downgrade(&state), index));
        }
        let fleet = Fleet {
            own: (0..state.members.len()).map(|_| OnceLock::new()).collect(),
            state,
        };
        fleet.remember_tool_names();
        fleet
    }

    /// Hears each time a member that was down joins (its tools are served from then on:
    /// tell clients their tool list changed), and each time the names the tools are served
    /// by change (a name two servers now list, or one that no longer collides).
    pub fn changed(&self) -> tokio::sync::watch::Receiver<u64> {
        self.state.changed.subscribe()
    }

    /// Hears each time a member's tools change as it lists them (a tool added, gone or
    /// reworded): what [`listed_tools`](Self::listed_tools) answers changed.
    pub fn tools_changed(&self) -> tokio::sync::watch::Receiver<u64> {
        self.state.tools_changed.subscribe()
    }

    /// The name member `member`'s tool `tool` is served by, as last listed; `None` for a
    /// tool it did not list (or its filter keeps out).
    pub fn served_name(&self, member: usize, tool: &str) -> Option<String> {
        let names = self.state.tools.locked();
        names.served(member, tool).map(str::to_owned)
    }

    /// Each member's name and gateway, `None` while it has not answered.
    pub fn members(&self) -> Vec<(String, Option<Gateway>)> {
        self.state
            .members
            .iter()
            .map(|m| (m.member.name.clone(), m.gateway()))
            .collect()
    }

    /// Every tool the members last listed, filtered, under its served name; `None` while no
    /// member has been listed whole.
    pub fn listed_tools(&self) -> Option<Vec<Tool>> {
        let listed = self.state.last_listed();
        if listed.is_empty() {
            return None;
        }
        Some(self.state.serve_tools(listed))
    }

    /// This session's gateway of member `index`, while it is up.
    fn member(&self, index: usize) -> Option<&Gateway> {
        let own = &self.own[index];
        if own.get().is_none() {
            let gateway = self.state.members[index].gateway()?;
            let _ = own.set(gateway);
        }
        own.get()
    }

    /// Every member that is up, with its index.
    fn present(&self) -> impl Iterator<Item = (usize, &Gateway)> {
        (0..self.own.len()).filter_map(|i| Some((i, self.member(i)?)))
    }

    /// The names of the tools the members last listed (for calls made before any listing).
    fn remember_tool_names(&self) {
        self.state.serve_tools(self.state.last_listed());
    }
}

impl MemberState {
    fn gateway(&self) -> Option<Gateway> {
        self.gateway.locked().clone()
    }

    /// The tools of `tools` its filter serves.
    fn served_tools(&self, mut tools: Vec<Tool>) -> Vec<Tool> {
        tools.retain(|t| self.member.tools.serves(&t.name));
        tools
    }
}

impl FleetState {
    /// Each member's tools as it last listed them (filtered), for the members listed whole.
    fn last_listed(&self) -> Vec<(usize, Vec<Tool>)> {
        self.members
            .iter()
            .enumerate()
            .filter_map(|(i, m)| Some((i, m.served_tools(m.gateway()?.listed_tools()?))))
            .collect()
    }

    /// The members' `listed` tools (filtered) under their served names, in the fleet's
    /// order; the names remembered for calls.
    fn serve_tools(&self, listed: Vec<(usize, Vec<Tool>)>) -> Vec<Tool> {
        let (names, changed) = self.names(&self.tools, &listed, |t: &Tool| &t.name);
        if changed {
            self.changed.send_modify(|n| *n += 1);
        }
        let mut served = Vec::new();
        for (member, tools) in listed {
            for mut tool in tools {
                let outward = names.served(member, &tool.name).unwrap_or(&tool.name);
                if outward != tool.name {
                    tool.name = outward.to_owned().into();
                    serve::forget_as_written(&mut tool.meta);
                }
                served.push(tool);
            }
        }
        served
    }

    /// The served names of `listed`, kept in `kept`: those kept while they still fit (a
    /// listing from memory costs no new names), else new ones; and whether they changed.
    fn names<T>(
        &self,
        kept: &RwLock<Arc<Names>>,
        listed: &[(usize, Vec<T>)],
        name: impl Fn(&T) -> &str,
    ) -> (Arc<Names>, bool) {
        let known = kept.locked().clone();
        if known.fit(listed, &name) {
            return (known, false);
        }
        let names = Arc::new(Names::new(&self.named(listed, |i| name(i).to_owned())));
        let mut kept = kept.locked_mut();
        let changed = **kept != *names;
        *kept = names.clone();
        (names, changed)
    }

    /// Per member of `listed` (indices into `members`), its name and the names of its items.
    fn named<T>(
        &self,
        listed: &[(usize, Vec<T>)],
        name: impl Fn(&T) -> String,
    ) -> Vec<(&str, Vec<String>)> {
        // `Names` counts members by position: every member has a row, listed or not.
        let mut rows: Vec<(&str, Vec<String>)> = self
            .members
            .iter()
            .map(|m| (m.member.name.as_str(), Vec::new()))
            .collect();
        for (member, items) in listed {
            rows[*member].1 = items.iter().map(&name).collect();
        }
        rows
    }
}

/// Tries member `index` again, waiting longer each time, until it answers (then it joins)
/// or the fleet is gone.
async fn retry(state: std::sync::Weak<FleetState>, index: usize) {
    let mut wait = RETRY_FIRST;
    loop {
        tokio::time::sleep(wait).await;
        let Some(fleet) = state.upgrade() else {
            return;
        };
        let member = &fleet.members[index].member;
        match Gateway::connect_with(member.upstream.clone(), member.options.clone()).await {
            Ok(gateway) => {
                tell_version(&member.name, &gateway);
                tokio::spawn(relay_tool_changes(state.clone(), &gateway));
                *fleet.members[index].gateway.locked_mut() = Some(gateway);
                tracing::info!("server `{}` answered: its tools are served", member.name);
                fleet.changed.send_modify(|n| *n += 1);
                return;
            }
            Err(error) => {
                tracing::warn!("server `{}`: {error}; retrying", member.name);
                wait = (wait * 2).min(RETRY_MOST);
            }
        }
    }
}

/// Tells the fleet's `tools_changed` of each change to `gateway`'s tools, while both last.
fn relay_tool_changes(
    state: std::sync::Weak<FleetState>,
    gateway: &Gateway,
) -> impl Future<Output = ()> + use<> {
    let mut changes = gateway.tools_changed();
    async move {
        while changes.changed().await.is_ok() {
            let Some(fleet) = state.upgrade() else {
                return;
            };
            fleet.tools_changed.send_modify(|n| *n += 1);
        }
    }
}

/// Logs what the fleet does for a member that speaks an older revision than its clients
/// may: each client negotiates its own revision with the fleet (an old member no longer
/// holds every client back to its own); the member is spoken to in its revision, and its
/// answers pass on as it wrote them, which each later revision reads as they are (a
/// revision adds fields and methods; it removes none a tool listing or call uses).
fn tell_version(name: &str, gateway: &Gateway) {
    let theirs = rmcp::ServerHandler::get_info(gateway).protocol_version;
    if theirs < ProtocolVersion::LATEST_WITH_INITIALIZE && theirs.has_initialize() {
        tracing::info!(
            "server `{name}` speaks MCP {theirs}: it is spoken to in {theirs}, its answers \
             passed on as written to clients of any revision"
        );
    }
}

/// What a fleet says of itself at `initialize`: every capability a member that answered
/// has (tools always), and each member's instructions under its name. Its revision is
/// the newest the layer speaks: each member is spoken to in its own (`tell_version`).
fn merged_info(members: &[MemberState]) -> ServerConfig {
    let mut capabilities = ServerCapabilities::default();
    let mut instructions = Vec::new();
    for state in members {
        let Some(gateway) = state.gateway() else {
            continue;
        };
        let info = rmcp::ServerHandler::get_info(&gateway);
        let theirs = info.capabilities;
        capabilities.tools = capabilities.tools.or(theirs.tools);
        capabilities.prompts = capabilities.prompts.or(theirs.prompts);
        capabilities.logging = capabilities.logging.or(theirs.logging);
        capabilities.completions = capabilities.completions.or(theirs.completions);
        if let Some(resources) = theirs.resources {
            let ours = capabilities.resources.get_or_insert_with(Default::default);
            ours.subscribe =
                Some(ours.subscribe.unwrap_or(false) || resources.subscribe == Some(true));
            ours.list_changed =
                Some(ours.list_changed.unwrap_or(false) || resources.list_changed == Some(true));
        }
        if let Some(text) = info.instructions.filter(|t| !t.trim().is_empty()) {
            instructions.push(format!("## {}\n\n{text}", state.member.name));
        }
    }
    capabilities.tools.get_or_insert_with(Default::default);
    let mut info = ServerConfig::default();
    info.capabilities = capabilities;
    info.server_info = rmcp::model::Implementation::new("mcp-tailor", env!("CARGO_PKG_VERSION"));
    info.instructions = (!instructions.is_empty()).then(|| instructions.join("\n\n"));
    info
}

#[cfg(test)]
mod tests {
    use super::Owners;

    #[test]
    fn a_uri_goes_to_the_member_that_listed_it_or_its_most_particular_template() {
        let owners = Owners {
            uris: [("file:///a".to_owned(), 0)].into(),
            templates: vec![("repo://issues/".to_owned(), 2), ("repo://".to_owned(), 1)],
        };
        assert_eq!(owners.owner("file:///a"), Some(0));
        assert_eq!(owners.owner("repo://issues/7"), Some(2));
        assert_eq!(owners.owner("repo://readme"), Some(1));
        assert_eq!(owners.owner("other://x"), None);
    }
}
