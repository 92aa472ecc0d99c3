//! A fleet's server side: listings merged from every member that is up, each other request
//! routed to the member whose name, URI or template it carries (the table in the fleet's
//! module documentation).
#![allow(deprecated)] // rmcp marks logging and resource subscriptions deprecated.

use super::names::Names;
use super::{Fleet, Owners};
use crate::Gateway;
use futures::future::join_all;
use mcp_tailor_core::seam::Locked;
use mcp_tailor_server::seam::{unknown_tool, verbatim};
use rmcp::model::*;
use rmcp::service::{NotificationContext, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use std::sync::Arc;

/// Drops what a member's item kept of itself as written: renamed, it is no longer the
/// item its server wrote, and restoring it would bring the old name back.
pub(super) fn forget_as_written(meta: &mut Option<MetaObject>) {
    if let Some(kept) = meta {
        kept.0.remove(verbatim::KEY);
        if kept.0.is_empty() {
            *meta = None;
        }
    }
}

/// Each member's whole listing (every page) of `$method`'s `$field`, concurrently, for
/// every member that is up; the members that answered, with their items.
macro_rules! merged {
    ($fleet:ident, $context:ident, $method:ident, $field:ident, $what:literal) => {{
        let asked = $fleet.present().map(|(i, g)| {
            let context = $context.clone();
            async move {
                let mut items = Vec::new();
                let mut cursor: Option<Cursor> = None;
                loop {
                    let page = cursor
                        .take()
                        .map(|c| PaginatedRequestParams::default().with_cursor(Some(c)));
                    match g.$method(page, context.clone()).await {
                        Ok(listed) => {
                            items.extend(listed.$field);
                            match listed.next_cursor {
                                Some(next) => cursor = Some(next),
                                None => break (i, Ok(items)),
                            }
                        }
                        Err(error) => break (i, Err(error)),
                    }
                }
            }
        });
        $fleet.answered($what, join_all(asked).await)
    }};
}

/// `$call` (with `$g` each member's gateway) of each member that is up in turn, until one
/// answers: the first error when none does.
macro_rules! first_that_knows {
    ($fleet:ident, |$g:ident| $call:expr) => {{
        let mut first_error = None;
        let mut answer = None;
        for (_, $g) in $fleet.present() {
            match $call.await {
                Ok(answered) => {
                    answer = Some(answered);
                    break;
                }
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        match answer {
            Some(answered) => Ok(answered),
            None => Err(first_error.unwrap_or_else(none_up)),
        }
    }};
}

/// `$call` of the member that listed `$uri` (or a template it fits), else of each in turn.
macro_rules! by_uri {
    ($fleet:ident, $uri:expr, |$g:ident| $call:expr) => {{
        match $fleet.uri_owner($uri) {
            Some($g) => $call.await,
            None => first_that_knows!($fleet, |$g| $call),
        }
    }};
}

/// The error of a request no member could take: none is up.
fn none_up() -> ErrorData {
    ErrorData::internal_error("no server of the fleet is up", None)
}

/// Whether `error` says the server does not serve the method (its capability is absent).
fn unserved(error: &ErrorData) -> bool {
    error.code == ErrorCode::METHOD_NOT_FOUND
}

impl Fleet {
    /// The answers of `merged!` that are results; an error logged (a method a member does
    /// not serve is no error).
    fn answered<T>(
        &self,
        what: &str,
        answers: Vec<(usize, Result<T, ErrorData>)>,
    ) -> Vec<(usize, T)> {
        answers
            .into_iter()
            .filter_map(|(i, answer)| match answer {
                Ok(items) => Some((i, items)),
                Err(error) => {
                    if !unserved(&error) {
                        let name = &self.state.members[i].member.name;
                        tracing::warn!("server `{name}`: {what} failed: {}", error.message);
                    }
                    None
                }
            })
            .collect()
    }

    /// This session's gateway of the member that listed `uri` (or a template it fits).
    fn uri_owner(&self, uri: &str) -> Option<&Gateway> {
        let owner = self.state.resources.locked().owner(uri);
        self.member(owner?)
    }

    /// The served prompt names, listing the prompts when `name` is not among them yet.
    async fn prompt_owner(
        &self,
        name: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<super::names::Destination> {
        let known = |names: &Arc<Names>| names.owner(name).cloned();
        let names = self.state.prompts.locked().clone();
        if let Some(owner) = known(&names) {
            return Some(owner);
        }
        let _ = self.merged_prompts(context).await;
        let names = self.state.prompts.locked().clone();
        known(&names)
    }

    async fn merged_prompts(&self, context: &RequestContext<RoleServer>) -> Vec<Prompt> {
        let listed = merged!(self, context, list_prompts, prompts, "prompts/list");
        let (names, _) = self
            .state
            .names(&self.state.prompts, &listed, |p: &Prompt| &p.name);
        let mut prompts = Vec::new();
        for (member, items) in listed {
            for mut prompt in items {
                if let Some(outward) = names.served(member, &prompt.name) {
                    prompt.name = outward.to_owned();
                }
                prompts.push(prompt);
            }
        }
        prompts
    }

    /// The served tool `name`'s member and the name its server knows; `None` for a tool no
    /// member serves (or one filtered out).
    fn tool_owner(&self, name: &str) -> Option<(usize, String)> {
        let known = |fleet: &Fleet| {
            let names = fleet.state.tools.locked().clone();
            names.owner(name).map(|o| (o.member, o.name.clone()))
        };
        known(self).or_else(|| {
            // Named before any listing, or since a member joined: the names as last listed.
            self.remember_tool_names();
            known(self)
        })
    }

    /// Remembers which member listed each resource URI (the first, where two did).
    fn remember_uris(&self, listed: &[(usize, Vec<Resource>)]) {
        let mut uris = std::collections::HashMap::new();
        for (member, resources) in listed {
            for resource in resources {
                uris.entry(resource.uri.clone()).or_insert(*member);
            }
        }
        self.change_owners(|owners| owners.uris = uris);
    }

    /// Remembers which member listed each template: its text before the first `{`,
    /// longest first (the most particular template a URI fits wins).
    fn remember_templates(&self, listed: &[(usize, Vec<ResourceTemplate>)]) {
        let mut prefixes: Vec<(String, usize)> = listed
            .iter()
            .flat_map(|(member, items)| {
                items.iter().map(|t| {
                    let prefix = t.uri_template.split('{').next().unwrap_or_default();
                    (prefix.to_owned(), *member)
                })
            })
            .collect();
        prefixes.sort_by_key(|(prefix, _)| std::cmp::Reverse(prefix.len()));
        self.change_owners(|owners| owners.templates = prefixes);
    }

    fn change_owners(&self, change: impl FnOnce(&mut Owners)) {
        let mut kept = self.state.resources.locked_mut();
        let mut owners = Owners::clone(&kept);
        change(&mut owners);
        *kept = Arc::new(owners);
    }
}

/// `ServerHandler` methods routed by their request's `uri` (`by_uri!`).
macro_rules! routed_by_uri {
    ($($method:ident($params:ty) -> $result:ty;)*) => {$(
        async fn $method(
            &self,
            request: $params,
            context: RequestContext<RoleServer>,
        ) -> Result<$result, ErrorData> {
            let uri = request.uri.clone();
            by_uri!(self, &uri, |g| g.$method(request.clone(), context.clone()))
        }
    )*};
}

/// `ServerHandler` methods asked of each member in turn (`first_that_knows!`): what no
/// listing names (a task id, a skill, a custom method) only its own member knows.
macro_rules! asked_in_turn {
    ($($method:ident($params:ty) -> $result:ty;)*) => {$(
        async fn $method(
            &self,
            request: $params,
            context: RequestContext<RoleServer>,
        ) -> Result<$result, ErrorData> {
            first_that_knows!(self, |g| g.$method(request.clone(), context.clone()))
        }
    )*};
}

impl ServerHandler for Fleet {
    fn get_info(&self) -> ServerConfig {
        self.state.info.clone()
    }

    routed_by_uri! {
        read_resource(ReadResourceRequestParams) -> ReadResourceResponse;
        subscribe(SubscribeRequestParams) -> ();
        unsubscribe(UnsubscribeRequestParams) -> ();
        read_resource_directory(ReadResourceDirectoryRequestParams) -> ReadResourceDirectoryResult;
    }

    asked_in_turn! {
        get_skill(GetSkillRequestParams) -> GetSkillResult;
        get_task(GetTaskParams) -> GetTaskResult;
        update_task(UpdateTaskParams) -> ();
        cancel_task(CancelTaskParams) -> ();
        on_custom_request(CustomRequest) -> CustomResult;
    }

    /// Every revision: each member is spoken to in its own, whatever its clients speak
    /// (`tell_version`), so one old member holds no client back.
    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        std::borrow::Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS)
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let listed = merged!(self, context, list_tools, tools, "tools/list")
            .into_iter()
            .map(|(i, tools)| (i, self.state.members[i].served_tools(tools)))
            .collect();
        Ok(ListToolsResult::with_all_items(
            self.state.serve_tools(listed),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let (member, theirs) = self.tool_owner(name)?;
        let mut tool = self.member(member)?.get_tool(&theirs)?;
        if *tool.name != *name {
            tool.name = name.to_owned().into();
            forget_as_written(&mut tool.meta);
        }
        Some(tool)
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let owner = self.tool_owner(&request.name);
        let Some(gateway) = owner.as_ref().and_then(|(member, _)| self.member(*member)) else {
            return Err(unknown_tool(&request.name));
        };
        if let Some((_, theirs)) = owner {
            request.name = theirs.into();
        }
        gateway.call_tool(request, context).await
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(
            self.merged_prompts(&context).await,
        ))
    }

    async fn get_prompt(
        &self,
        mut request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let owner = self.prompt_owner(&request.name, &context).await;
        let Some(owner) = owner else {
            return first_that_knows!(self, |g| g.get_prompt(request.clone(), context.clone()));
        };
        let Some(gateway) = self.member(owner.member) else {
            return Err(ErrorData::invalid_params(
                format!("unknown prompt `{}`", request.name),
                None,
            ));
        };
        request.name = owner.name;
        gateway.get_prompt(request, context).await
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let listed = merged!(self, context, list_resources, resources, "resources/list");
        self.remember_uris(&listed);
        Ok(ListResourcesResult::with_all_items(
            listed.into_iter().flat_map(|(_, items)| items).collect(),
        ))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let listed = merged!(
            self,
            context,
            list_resource_templates,
            resource_templates,
            "resources/templates/list"
        );
        self.remember_templates(&listed);
        Ok(ListResourceTemplatesResult::with_all_items(
            listed.into_iter().flat_map(|(_, items)| items).collect(),
        ))
    }

    async fn complete(
        &self,
        mut request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        match &mut request.r#ref {
            Reference::Prompt(prompt) => {
                if let Some(owner) = self.prompt_owner(&prompt.name, &context).await
                    && let Some(gateway) = self.member(owner.member)
                {
                    prompt.name = owner.name;
                    return gateway.complete(request, context).await;
                }
                first_that_knows!(self, |g| g.complete(request.clone(), context.clone()))
            }
            Reference::Resource(template) => {
                let uri = template.uri.clone();
                by_uri!(self, &uri, |g| g.complete(request.clone(), context.clone()))
            }
            _ => first_that_knows!(self, |g| g.complete(request.clone(), context.clone())),
        }
    }

    async fn list_skills(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let listed = merged!(self, context, list_skills, skills, "skills/list");
        Ok(ListSkillsResult::with_all_items(
            listed.into_iter().flat_map(|(_, items)| items).collect(),
        ))
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let told = self.present().map(|(i, g)| {
            let (request, context) = (request.clone(), context.clone());
            async move { (i, g.set_level(request, context).await) }
        });
        let answers = join_all(told).await;
        match self.answered("logging/setLevel", answers).is_empty() {
            false => Ok(()),
            true => Err(ErrorData::method_not_found::<SetLevelRequestMethod>()),
        }
    }

    async fn ping(&self, _: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        Ok(())
    }

    /// Each member opens its upstream session, as a gateway does for its session.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let opened = self
            .present()
            .map(|(_, g)| g.on_initialized(context.clone()));
        join_all(opened).await;
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        let told = self
            .present()
            .map(|(_, g)| g.on_roots_list_changed(context.clone()));
        join_all(told).await;
    }
}
