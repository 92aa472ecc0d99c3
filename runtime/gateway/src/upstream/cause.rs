//! Why an upstream failed, in the user's terms: the innermost cause of an error.

/// Why an HTTP upstream's request failed, in the user's terms: the innermost cause.
/// (rmcp's HTTP error does not name reqwest's as its source: start from reqwest's.)
pub(crate) fn http_cause(
    error: &rmcp::transport::streamable_http_client::StreamableHttpError<reqwest::Error>,
) -> String {
    match error {
        rmcp::transport::streamable_http_client::StreamableHttpError::Client(client) => {
            innermost(client)
        }
        other => innermost(other),
    }
}

/// What went wrong, in the user's terms: an error's innermost cause ("Connection
/// refused"), not the wrappings around it (a transport's type name, "when send …").
pub(crate) fn innermost(mut error: &(dyn std::error::Error + 'static)) -> String {
    while let Some(source) = error.source() {
        error = source;
    }
    error.to_string()
}
