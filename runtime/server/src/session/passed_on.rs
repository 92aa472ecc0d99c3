//! The requests a layer passes on without owning them, listed once: the session forwards
//! them to its wrapped handler, the gateway to its upstream. rmcp's `ServerHandler` has a
//! method per request (and its blanket `Service` impl does the protocol's checks around
//! them), so forwarding is a method per request; this table is the one list of them.
//!
//! `passed_on!(each)` calls the macro `each` with one line per request:
//! `method(Params) -> Result = ClientRequestVariant(make);`, where `make` builds the
//! variant's request from the params.

/// Calls the macro named by its argument with the table above. Exported (hidden) for the
/// gateway, which forwards the same requests.
#[doc(hidden)]
#[macro_export]
macro_rules! passed_on {
    ($each:ident) => {
        $each! {
            complete(CompleteRequestParams) -> CompleteResult = CompleteRequest(Request::new);
            get_prompt(GetPromptRequestParams) -> GetPromptResponse = GetPromptRequest(Request::new);
            list_prompts(Option<PaginatedRequestParams>) -> ListPromptsResult = ListPromptsRequest(optional);
            list_resources(Option<PaginatedRequestParams>) -> ListResourcesResult = ListResourcesRequest(optional);
            list_resource_templates(Option<PaginatedRequestParams>) -> ListResourceTemplatesResult = ListResourceTemplatesRequest(optional);
            read_resource(ReadResourceRequestParams) -> ReadResourceResponse = ReadResourceRequest(Request::new);
            subscribe(SubscribeRequestParams) -> () = SubscribeRequest(Request::new);
            unsubscribe(UnsubscribeRequestParams) -> () = UnsubscribeRequest(Request::new);
            list_skills(Option<PaginatedRequestParams>) -> ListSkillsResult = ListSkillsRequest(optional);
            get_skill(GetSkillRequestParams) -> GetSkillResult = GetSkillRequest(Request::new);
            read_resource_directory(ReadResourceDirectoryRequestParams) -> ReadResourceDirectoryResult = ReadResourceDirectoryRequest(Request::new);
        }
    };
}

pub(crate) use crate::passed_on;

/// A request of optional params, for the table's `make`.
pub fn optional<M: Default, P>(params: Option<P>) -> rmcp::model::RequestOptionalParam<M, P> {
    rmcp::model::RequestOptionalParam {
        method: M::default(),
        params,
        extensions: rmcp::model::Extensions::default(),
    }
}
