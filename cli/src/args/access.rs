//! Who may call `proxy --http` (one bearer token read from the environment, or
//! OAuth 2.1 JWT access tokens) and which browser origins besides its own.

use clap::Args;

/// The arguments of who may call, as typed.
#[derive(Debug, Args)]
pub(super) struct AccessArgs {
    #[arg(
        long = "bearer-token-env",
        value_name = "NAME",
        requires = "http",
        conflicts_with = "oauth_issuer",
        help = "Require every HTTP request to carry Authorization: Bearer <the value of $NAME>",
        long_help = "Require every HTTP request to carry `Authorization: Bearer TOKEN`, TOKEN \
                     being the value of the environment variable NAME (never written on the \
                     command line). Any other request is answered 401 with WWW-Authenticate. \
                     The token is compared in constant time, and not sent upstream unless \
                     --forward-authorization says so."
    )]
    bearer_token_env: Option<String>,
    #[arg(
        long = "oauth-issuer",
        value_name = "URL",
        requires_all = ["http", "oauth_jwks"],
        help = "Accept OAuth 2.1 access tokens (JWTs) of this issuer only",
        long_help = "Act as an OAuth 2.1 resource server, as the MCP authorization \
                     specification describes: a request must carry a JWT signed by a key of \
                     --oauth-jwks, whose `iss` is URL, whose `aud` names --oauth-audience and \
                     which holds at this time (`exp`, `nbf`, `iat`, 60 s leeway); else 401. The \
                     protected-resource metadata is served at \
                     /.well-known/oauth-protected-resource."
    )]
    oauth_issuer: Option<String>,
    #[arg(
        long = "oauth-jwks",
        value_name = "FILE|URL",
        requires = "oauth_issuer",
        help = "The issuer's JSON Web Key Set: a file, or an http(s):// URL",
        long_help = "The issuer's JSON Web Key Set: a file, or an http(s):// URL. A URL must \
                     answer within 10 s at start (else the proxy stops, saying so), and is read \
                     again as its Cache-Control max-age says (1 h by default). A token naming a \
                     key the set lacks makes it be read again, at most once a minute."
    )]
    oauth_jwks: Option<String>,
    #[arg(
        long = "oauth-audience",
        value_name = "AUD",
        requires = "oauth_issuer",
        help = "The `aud` a token must name (default: the endpoint's URL, --oauth-resource)"
    )]
    oauth_audience: Option<String>,
    #[arg(
        long = "oauth-resource",
        value_name = "URL",
        requires = "oauth_issuer",
        help = "This endpoint's URL as clients reach it (default: http://ADDR/mcp)"
    )]
    oauth_resource: Option<String>,
    #[arg(
        long = "require-scope",
        value_name = "SCOPE",
        requires = "oauth_issuer",
        help = "A scope every token must grant (repeat for more); else 403 insufficient_scope"
    )]
    require_scope: Vec<String>,
    #[arg(
        long = "allow-origin",
        value_name = "ORIGIN",
        requires = "http",
        help = "A browser origin allowed to call besides the endpoint's own: scheme://host[:port], or *",
        long_help = "A browser origin (scheme://host[:port], or * for any) allowed to call the \
                     endpoint besides its own; repeat for more. A request whose Origin header is \
                     neither the endpoint's own nor allowed is answered 403 (MCP's transport asks \
                     servers to check Origin: DNS rebinding). Requests without Origin pass."
    )]
    allow_origin: Vec<String>,
}

/// Who may call: anyone, the holders of one token, or of an issuer's JWTs.
#[derive(Debug, PartialEq, Eq, Default)]
pub(crate) enum Auth {
    #[default]
    Open,
    /// The token is the value of this environment variable, read when serving starts.
    Bearer { env: String },
    /// OAuth 2.1 JWT access tokens.
    Oauth {
        issuer: String,
        /// A file, or an `http://` URL.
        jwks: String,
        audience: Option<String>,
        resource: Option<String>,
        /// Scopes every token must grant.
        scopes: Vec<String>,
    },
}

/// Access: who may call, and the origins allowed besides the endpoint's own.
#[derive(Debug, PartialEq, Eq, Default)]
pub(crate) struct Access {
    pub(crate) auth: Auth,
    pub(crate) allowed_origins: Vec<String>,
}

impl AccessArgs {
    /// The access these arguments describe (clap has checked which go together).
    pub(super) fn access(self) -> Access {
        let auth = match (self.bearer_token_env, self.oauth_issuer, self.oauth_jwks) {
            (Some(env), _, _) => Auth::Bearer { env },
            (None, Some(issuer), Some(jwks)) => Auth::Oauth {
                issuer,
                jwks,
                audience: self.oauth_audience,
                resource: self.oauth_resource,
                scopes: self.require_scope,
            },
            _ => Auth::Open,
        };
        Access {
            auth,
            allowed_origins: self.allow_origin,
        }
    }
}
