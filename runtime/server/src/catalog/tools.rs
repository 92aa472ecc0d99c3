//! Registered tools: each `#[mcp_tool]` type with its handler, optional `authorize`
//! predicate, icons and `_meta`. Registered definitions never change after `build`.

use crate::call::context::CallContext;
use crate::call::tasks::TaskSupport;
use crate::callbacks::BoxFuture;
use crate::catalog::icons::validate_icons;
use crate::catalog::meta_key::validate_meta_key;
use crate::catalog::tool_result::IntoToolResult;
use crate::request::info::RequestInfo;
use mcp_tailor_core::seam::Locked;
use mcp_tailor_core::{McpTool, RenderCtx, ToolDef};
use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, Icon, JsonObject, MetaObject, Tool,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::future::Future;
use std::sync::{Arc, RwLock};

type Handler = Arc<
    dyn Fn(JsonObject, CallContext) -> BoxFuture<Result<CallToolResponse, ErrorData>> + Send + Sync,
>;
/// A host predicate deciding, per request, whether a tool exists for the caller.
pub type AuthorizeFn =
    Arc<dyn Fn(&'static ToolDef, Arc<RequestInfo>) -> BoxFuture<bool> + Send + Sync>;

/// One tool to register: its type's definition, its handler, and what the host adds.
pub struct ToolRegistration {
    def: &'static ToolDef,
    handler: Handler,
    output_schema: Option<Arc<JsonObject>>,
    authorize: Option<AuthorizeFn>,
    icons: Option<Value>,
    meta: Option<Value>,
    tasks: Option<TaskSupport>,
}

impl ToolRegistration {
    /// Registers the `#[mcp_tool]` type `T` with a handler that receives its arguments
    /// deserialized. Arguments that do not deserialize are a tool execution error
    /// (`isError: true`, the reason as text) the model reads and can correct, and the
    /// handler does not run. A handler returning [`Json<T>`](rmcp::Json) publishes
    /// `outputSchema`.
    pub fn new<T, F, Fut, R>(handler: F) -> Self
    where
        T: McpTool + DeserializeOwned + Send + 'static,
        F: Fn(T, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoToolResult,
    {
        let handler = Arc::new(handler);
        let erased: Handler = Arc::new(move |arguments: JsonObject, call: CallContext| {
            let handler = handler.clone();
            Box::pin(async move {
                let args: T = match serde_json::from_value(Value::Object(arguments)) {
                    Ok(args) => args,
                    Err(e) => return Ok(invalid_arguments(T::NAME, &e).into()),
                };
                handler(args, call).await.into_tool_result()
            })
        });
        ToolRegistration {
            def: T::def(),
            handler: erased,
            output_schema: R::output_schema(),
            authorize: None,
            icons: None,
            meta: None,
            tasks: None,
        }
    }

    /// A definition with no handler behind it: listed like any tool, and a call answers a
    /// tool error. For inspecting a catalog of definitions.
    #[doc(hidden)]
    pub fn listing_only(def: &'static ToolDef) -> Self {
        let handler: Handler = Arc::new(move |_, _| {
            Box::pin(async move {
                Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "`{}` is listed for inspection only",
                    def.name()
                ))])
                .into())
            })
        });
        ToolRegistration {
            def,
            handler,
            output_schema: None,
            authorize: None,
            icons: None,
            meta: None,
            tasks: None,
        }
    }

    /// A predicate run on every request (under its deadline): `false`, an error, a panic
    /// or a timeout hide the tool from `tools/list` and make `tools/call` say `unknown_tool`.
    #[must_use]
    pub fn authorize<F, Fut>(mut self, predicate: F) -> Self
    where
        F: Fn(&'static ToolDef, Arc<RequestInfo>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = bool> + Send + 'static,
    {
        self.authorize = Some(Arc::new(move |def, info| Box::pin(predicate(def, info))));
        self
    }

    /// The tool's icons (validated when the catalog is built).
    #[must_use]
    pub fn icons(mut self, icons: Value) -> Self {
        self.icons = Some(icons);
        self
    }

    /// The tool's `_meta` (keys validated when the catalog is built).
    #[must_use]
    pub fn meta(mut self, meta: Value) -> Self {
        self.meta = Some(meta);
        self
    }

    /// Runs the tool as an MCP task (the tasks extension) for clients that declared it:
    /// a call whose handler has not finished by the time it first waits answers
    /// `CreateTaskResult`, and the handler goes on in the background, polled with
    /// `tasks/get`, given input with `tasks/update` (see [`CallContext::task_input`]),
    /// stopped with `tasks/cancel` (its [`CallContext::cancelled`] fires). The server
    /// then declares the extension. [`TaskSupport::Required`] refuses clients without it.
    #[must_use]
    pub fn tasks(mut self, support: TaskSupport) -> Self {
        self.tasks = Some(support);
        self
    }
}

/// The tool execution error for arguments that do not fit the tool's input schema.
fn invalid_arguments(tool: &str, error: &serde_json::Error) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "invalid arguments for tool `{tool}`: {error}"
    ))])
}

/// One rendered input schema and the resolved field texts (by address) it was rendered for.
type SchemaVariant = (Box<[usize]>, Arc<JsonObject>);

/// A registered tool, ready to list and call.
pub(crate) struct ToolEntry {
    pub(crate) def: &'static ToolDef,
    handler: Handler,
    pub(crate) authorize: Option<AuthorizeFn>,
    icons: Option<Vec<Icon>>,
    meta: Option<MetaObject>,
    output_schema: Option<Arc<JsonObject>>,
    /// Whether and how it runs as a task.
    pub(crate) tasks: Option<TaskSupport>,
    /// Rendered input schemas, one per combination of resolved field descriptions (keyed
    /// by the addresses of the `&'static` texts; a tool has a handful of combinations).
    schemas: RwLock<Vec<SchemaVariant>>,
}

impl std::fmt::Debug for ToolEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolEntry")
            .field("name", &self.def.name())
            .finish_non_exhaustive()
    }
}

/// Why a registration cannot join the catalog; the builder says it to the host as a
/// `BuildError`.
#[derive(Debug)]
pub(crate) enum Refused {
    /// Two registrations share a name.
    DuplicateName(String),
    /// A tool's icons break the icon rules.
    Icons { tool: String, reason: String },
    /// A tool's `_meta` is not an object or has an invalid or reserved key.
    Meta { tool: String, reason: String },
    /// An annotated field is not in the tool's generated input schema.
    MissingField(mcp_tailor_core::MissingField),
}

impl From<mcp_tailor_core::MissingField> for Refused {
    fn from(missing: mcp_tailor_core::MissingField) -> Refused {
        Refused::MissingField(missing)
    }
}

impl ToolEntry {
    fn from_registration(reg: ToolRegistration) -> Result<ToolEntry, Refused> {
        reg.def.check_schema()?;
        let tool = reg.def.name().to_owned();
        let icons = match reg.icons {
            None => None,
            Some(icons) => {
                validate_icons(&icons).map_err(|reason| Refused::Icons {
                    tool: tool.clone(),
                    reason,
                })?;
                let icons: Vec<Icon> =
                    serde_json::from_value(icons).map_err(|e| Refused::Icons {
                        tool: tool.clone(),
                        reason: e.to_string(),
                    })?;
                Some(icons)
            }
        };
        let meta = match reg.meta {
            None => None,
            Some(Value::Object(map)) => {
                for key in map.keys() {
                    validate_meta_key(key).map_err(|e| Refused::Meta {
                        tool: tool.clone(),
                        reason: format!("`{key}`: {e}"),
                    })?;
                }
                Some(MetaObject(map))
            }
            Some(_) => {
                return Err(Refused::Meta {
                    tool,
                    reason: "`_meta` must be an object".into(),
                });
            }
        };
        Ok(ToolEntry {
            def: reg.def,
            handler: reg.handler,
            authorize: reg.authorize,
            icons,
            meta,
            output_schema: reg.output_schema,
            tasks: reg.tasks,
            schemas: RwLock::new(Vec::new()),
        })
    }

    /// The tool's definition.
    pub(crate) fn def(&self) -> &'static ToolDef {
        self.def
    }

    /// The input schema for this context, rendered once per combination of field texts;
    /// a hit allocates nothing.
    fn schema(&self, ctx: &RenderCtx<'_>) -> Arc<JsonObject> {
        let key = || {
            self.def
                .argument_descriptions()
                .map(|d| d.resolve(ctx).map_or(0, |t| t.as_ptr() as usize))
        };
        let found = |schemas: &[SchemaVariant]| {
            schemas
                .iter()
                .find(|(k, _)| k.iter().copied().eq(key()))
                .map(|(_, s)| s.clone())
        };
        if let Some(schema) = found(&self.schemas.locked()) {
            return schema;
        }
        let schema = match self.def.render_schema(ctx) {
            Value::Object(map) => Arc::new(map),
            _ => Arc::new(JsonObject::new()),
        };
        let mut schemas = self.schemas.locked_mut();
        if let Some(existing) = found(&schemas) {
            return existing;
        }
        schemas.push((key().collect(), schema.clone()));
        schema
    }

    /// The tool as this reader sees it, before any host presentation.
    pub(crate) fn render(&self, ctx: &RenderCtx<'_>, with_icons: bool) -> Tool {
        let mut tool = self.def.tool_with_schema(ctx, self.schema(ctx));
        tool.output_schema.clone_from(&self.output_schema);
        if with_icons {
            tool.icons.clone_from(&self.icons);
        }
        tool.meta.clone_from(&self.meta);
        tool
    }

    /// Runs the handler.
    pub(crate) fn call(
        &self,
        arguments: JsonObject,
        call: CallContext,
    ) -> BoxFuture<Result<CallToolResponse, ErrorData>> {
        (self.handler)(arguments, call)
    }
}

/// Every registered tool, in registration order, with unique names.
#[derive(Debug)]
pub(crate) struct Catalog {
    entries: Vec<ToolEntry>,
}

impl Catalog {
    /// Builds the catalog, rejecting duplicate names and invalid icons or `_meta`.
    pub(crate) fn new(registrations: Vec<ToolRegistration>) -> Result<Catalog, Refused> {
        let mut entries: Vec<ToolEntry> = Vec::with_capacity(registrations.len());
        for reg in registrations {
            if entries.iter().any(|e| e.def.name() == reg.def.name()) {
                return Err(Refused::DuplicateName(reg.def.name().to_owned()));
            }
            entries.push(ToolEntry::from_registration(reg)?);
        }
        Ok(Catalog { entries })
    }

    /// The tools, in registration order.
    pub(crate) fn entries(&self) -> &[ToolEntry] {
        &self.entries
    }

    /// The tool with this name.
    pub(crate) fn get(&self, name: &str) -> Option<&ToolEntry> {
        self.entries.iter().find(|e| e.def.name() == name)
    }

    /// Whether any tool's wording depends on the reader.
    pub(crate) fn is_tailored(&self) -> bool {
        self.entries.iter().any(|e| e.def.is_tailored())
    }

    /// Whether any tool runs as a task.
    pub(crate) fn has_tasks(&self) -> bool {
        self.entries.iter().any(|e| e.tasks.is_some())
    }

    /// Whether any tool's existence depends on the caller (scopes or `authorize`).
    pub(crate) fn is_gated(&self) -> bool {
        self.entries
            .iter()
            .any(|e| !e.def.scopes().is_empty() || e.authorize.is_some())
    }
}
