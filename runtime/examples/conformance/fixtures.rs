//! The suite's prompts, resources, completion, logging level and resource subscriptions,
//! skills (SEP-2640, served from `skills/` by rmcp's `SkillCatalog`), plus two tools of its
//! own: a plain rmcp `ServerHandler` that knows nothing of mcp-tailor, wrapped by the layer
//! with `.handler(...)` — which passes the skills methods through unchanged.
#![allow(deprecated)] // rmcp marks logging and resource subscriptions deprecated (SEP-2577).

use crate::tools::IMAGE;
use mcp_tailor::server::rmcp::handler::server::skill_catalog::SkillCatalog;
use mcp_tailor::server::rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams,
    CompleteResult, CompletionInfo, ContentBlock, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, ImageContent, Implementation, JsonObject, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, LoggingLevel,
    PaginatedRequestParams, Prompt, PromptArgument, PromptMessage, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Reference, Resource, ResourceContents,
    ResourceTemplate, Role, ServerCapabilities, ServerConfig, SetLevelRequestParams,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
use mcp_tailor::server::rmcp::model::{
    GetSkillRequestParams, GetSkillResult, ListSkillsResult, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult,
};
use mcp_tailor::server::rmcp::service::{RequestContext, SubscriptionContext, SubscriptionSink};
use mcp_tailor::server::rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// How long clients may cache the fixed prompt and resource lists.
const CACHE_TTL_MS: u64 = 60_000;

/// The wrapped handler. Clones share their state: each session gets one.
#[derive(Clone)]
pub struct Fixtures {
    streams: Arc<Mutex<HashMap<u64, SubscriptionSink>>>,
    next_stream: Arc<AtomicU64>,
    subscribed: Arc<Mutex<HashSet<String>>>,
    log_level: Arc<Mutex<Option<LoggingLevel>>>,
    skills: Arc<SkillCatalog>,
}

/// The folder the skills are served from.
const SKILLS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/conformance/skills");

impl Fixtures {
    /// The fixtures, the skills read from [`SKILLS`] once.
    pub fn load() -> Result<Fixtures, Box<dyn std::error::Error>> {
        Ok(Fixtures {
            streams: Arc::default(),
            next_stream: Arc::default(),
            subscribed: Arc::default(),
            log_level: Arc::default(),
            skills: Arc::new(SkillCatalog::from_dir(SKILLS)?),
        })
    }
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// The handler's own tools: one with a hand-written JSON Schema 2020-12, one that tells
/// prompt subscribers their list changed (its strings are tailored by the layer).
fn own_tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features",
            object(json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "$defs": {
                    "address": {
                        "$anchor": "address",
                        "type": "object",
                        "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                    }
                },
                "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
                "allOf": [{"anyOf": [{"required": ["name"]}, {"required": ["address"]}]}],
                "if": {"required": ["address"]},
                "then": {"properties": {"address": {"required": ["street"]}}},
                "else": {"required": ["name"]},
                "additionalProperties": false
            })),
        ),
        Tool::new(
            "test_trigger_prompt_change",
            "Triggers a prompts/list_changed notification on matching subscriptions",
            object(json!({"type": "object", "properties": {}})),
        ),
    ]
}

fn text_contents(uri: &str, mime: &str, text: String) -> ResourceContents {
    ResourceContents::TextResourceContents {
        uri: uri.into(),
        mime_type: Some(mime.into()),
        text,
        meta: None,
    }
}

impl ServerHandler for Fixtures {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_prompts_list_changed()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_resources_list_changed()
                .enable_completions()
                .enable_logging()
                .enable_tools()
                .enable_skills_with_directory_read()
                .build(),
        )
        .with_server_info(Implementation::new(
            "mcp-tailor-conformance",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions("The MCP conformance suite's reference server, written with mcp-tailor")
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        own_tools().into_iter().find(|t| t.name == name)
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(own_tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = match request.name.as_ref() {
            "json_schema_2020_12_tool" => {
                let args = request.arguments.unwrap_or_default();
                format!(
                    "Hello, {}!",
                    args.get("name").and_then(Value::as_str).unwrap_or("world")
                )
            }
            "test_trigger_prompt_change" => {
                let streams: Vec<SubscriptionSink> =
                    self.streams.lock().unwrap().values().cloned().collect();
                for stream in streams {
                    let _ = stream.notify_prompt_list_changed().await;
                }
                "Prompt list change triggered".to_owned()
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("Unknown tool: {other}"),
                    None,
                ));
            }
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.supported_by(&self.get_info().capabilities))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let key = self.next_stream.fetch_add(1, Ordering::Relaxed);
        self.streams
            .lock()
            .unwrap()
            .insert(key, context.sink().clone());
        context.cancelled().await;
        self.streams.lock().unwrap().remove(&key);
        Ok(())
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        *self.log_level.lock().unwrap() = Some(request.level);
        Ok(())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed
            .lock()
            .unwrap()
            .insert(request.uri.to_string());
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed.lock().unwrap().remove(request.uri.as_str());
        Ok(())
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut resources = vec![
            Resource::new("test://static-text", "Static Text Resource")
                .with_description("A static text resource for testing")
                .with_mime_type("text/plain"),
            Resource::new("test://static-binary", "Static Binary Resource")
                .with_description("A static binary/blob resource for testing")
                .with_mime_type("image/png"),
        ];
        resources.extend(self.skills.resources());
        Ok(ListResourcesResult::with_all_items(resources)
            .with_ttl_ms(CACHE_TTL_MS)
            .with_cache_scope(CacheScope::Public))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new("test://template/{id}/data", "Dynamic Resource")
                .with_description("A dynamic resource with parameter substitution")
                .with_mime_type("application/json"),
        ])
        .with_ttl_ms(CACHE_TTL_MS)
        .with_cache_scope(CacheScope::Public))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        if let Some(skill_file) = self.skills.read_resource(uri) {
            return Ok(skill_file.into());
        }
        let contents = match uri {
            "test://static-text" => text_contents(
                uri,
                "text/plain",
                "This is the content of the static text resource.".into(),
            ),
            "test://static-binary" => ResourceContents::BlobResourceContents {
                uri: uri.into(),
                mime_type: Some("image/png".into()),
                blob: IMAGE.into(),
                meta: None,
            },
            _ => match uri
                .strip_prefix("test://template/")
                .and_then(|s| s.strip_suffix("/data"))
            {
                Some(id) => text_contents(
                    uri,
                    "application/json",
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                        .to_string(),
                ),
                None => {
                    return Err(ErrorData::resource_not_found(
                        format!("Resource not found: {uri}"),
                        Some(json!({ "uri": uri })),
                    ));
                }
            },
        };
        Ok(ReadResourceResult::new(vec![contents])
            .with_ttl_ms(CACHE_TTL_MS)
            .with_cache_scope(CacheScope::Public)
            .into())
    }

    async fn list_skills(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        Ok(self.skills.list_skills())
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.skills.get_skill(&request.uri)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.skills.read_resource_directory(&request.uri)
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![
            Prompt::new(
                "test_simple_prompt",
                Some("A simple test prompt with no arguments"),
                None,
            ),
            Prompt::new(
                "test_prompt_with_arguments",
                Some("A test prompt that accepts arguments"),
                Some(vec![
                    PromptArgument::new("arg1")
                        .with_description("First test argument")
                        .with_required(true),
                    PromptArgument::new("arg2")
                        .with_description("Second test argument")
                        .with_required(false),
                ]),
            ),
            Prompt::new(
                "test_prompt_with_embedded_resource",
                Some("A test prompt that includes an embedded resource"),
                None,
            ),
            Prompt::new(
                "test_prompt_with_image",
                Some("A test prompt that includes an image"),
                None,
            ),
            Prompt::new(
                "test_input_required_result_prompt",
                Some("A prompt that requires elicitation input via InputRequiredResult (SEP-2322)"),
                None,
            ),
        ])
        .with_ttl_ms(CACHE_TTL_MS)
        .with_cache_scope(CacheScope::Public))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let user = |text: String| PromptMessage::new_text(Role::User, text);
        let result = match request.name.as_str() {
            "test_input_required_result_prompt" => {
                let answer = request
                    .input_responses
                    .as_ref()
                    .and_then(|r| r.get("user_context"))
                    .and_then(Value::as_object);
                let Some(answer) = answer else {
                    return Ok(crate::mrtr::input_required(
                        "user_context",
                        crate::mrtr::elicitation(
                            "What context should the prompt use?",
                            json!({"context": {"type": "string"}}),
                            json!(["context"]),
                        ),
                    )
                    .into());
                };
                let context = answer
                    .get("content")
                    .and_then(|c| c.get("context"))
                    .and_then(Value::as_str)
                    .unwrap_or("(no context)");
                GetPromptResult::new(vec![user(format!(
                    "Prompt with elicited context: {context}"
                ))])
                .with_description("A prompt built from elicited context")
            }
            "test_simple_prompt" => {
                GetPromptResult::new(vec![user("This is a simple test prompt.".into())])
                    .with_description("A simple test prompt")
            }
            "test_prompt_with_arguments" => {
                let args = request.arguments.unwrap_or_default();
                let arg = |name: &str| {
                    args.get(name)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned()
                };
                GetPromptResult::new(vec![user(format!(
                    "Prompt with arguments: arg1='{}', arg2='{}'",
                    arg("arg1"),
                    arg("arg2")
                ))])
                .with_description("A prompt with arguments")
            }
            "test_prompt_with_embedded_resource" => GetPromptResult::new(vec![
                user("Here is a resource:".into()),
                PromptMessage::new_resource(
                    Role::User,
                    "test://static-text".into(),
                    Some("text/plain".into()),
                    Some("Resource content for prompt".into()),
                    None,
                    None,
                    None,
                ),
            ])
            .with_description("A prompt with an embedded resource"),
            "test_prompt_with_image" => GetPromptResult::new(vec![
                user("Here is an image:".into()),
                PromptMessage::new(
                    Role::User,
                    ContentBlock::Image(ImageContent::new(IMAGE, "image/png")),
                ),
            ])
            .with_description("A prompt with an image"),
            other => {
                return Err(ErrorData::invalid_params(
                    format!("Unknown prompt: {other}"),
                    None,
                ));
            }
        };
        Ok(result.into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let argument = request.argument.name.as_str();
        let values: Vec<String> = match &request.r#ref {
            Reference::Resource(_) if argument == "id" => vec!["1".into(), "2".into(), "3".into()],
            Reference::Prompt(_) if argument == "name" => {
                vec!["Alice".into(), "Bob".into(), "Charlie".into()]
            }
            Reference::Prompt(_) if argument == "style" => {
                vec!["friendly".into(), "formal".into(), "casual".into()]
            }
            Reference::Prompt(prompt) => vec![prompt.name.clone()],
            _ => vec![],
        };
        Ok(CompleteResult::new(
            CompletionInfo::new(values).map_err(|e| ErrorData::internal_error(e, None))?,
        ))
    }
}
