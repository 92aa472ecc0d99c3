//! What a server's configuration can get wrong, found when it is built: the errors of the
//! builder, the catalog's registrations and the settings read from the environment.

use crate::catalog::tools::Refused;
use crate::listing::cursor::ShortSecret;

/// Why a server could not be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// Two registered tools share a name.
    #[error("tool `{0}` is registered twice; tool names must be unique")]
    DuplicateName(String),
    /// A tool's icons break the icon rules.
    #[error("tool `{tool}` has invalid icons: {reason}")]
    Icons {
        /// The tool.
        tool: String,
        /// What is wrong.
        reason: String,
    },
    /// A tool's `_meta` is not an object or has an invalid or reserved key.
    #[error("tool `{tool}` has invalid `_meta`: {reason}")]
    Meta {
        /// The tool.
        tool: String,
        /// What is wrong.
        reason: String,
    },
    /// A registered tool has the name of one of the wrapped handler's tools.
    #[error(
        "tool `{0}` is both registered and served by the wrapped handler; rename one, or \
         drop the registration and attach the strings with `.tailor::<T>()`"
    )]
    NameOnBothSides(String),
    /// `.tailor::<T>()` names a tool the wrapped handler does not serve.
    #[error(
        "`.tailor()` names tool `{0}`, but the wrapped handler has no tool of that name \
         (its `get_tool` answers `None`; `#[tool_handler]` implements it)"
    )]
    NoSuchInnerTool(String),
    /// `.tailor::<T>()` was given twice for one name.
    #[error("`.tailor()` names tool `{0}` twice")]
    TailoredTwice(String),
    /// A cursor secret is too short.
    #[error(transparent)]
    CursorSecret(#[from] ShortSecret),
    /// No cursor secret in code, and the one in `MCP_TAILOR_CURSOR_SECRET` is not hex.
    #[error("`MCP_TAILOR_CURSOR_SECRET` is not hex (an even number of digits 0-9, a-f)")]
    EnvCursorSecretNotHex,
    /// An annotated field is not in the tool's generated input schema.
    #[error(transparent)]
    MissingField(#[from] mcp_tailor_core::MissingField),
    /// `HttpConfig::replica_tag` is empty, longer than 32 bytes, or holds a character other
    /// than an ASCII letter, digit, `-` or `_`.
    #[error("replica tag `{0}`: 1 to 32 of `A-Z a-z 0-9 - _`")]
    ReplicaTag(String),
    /// An entry of `HttpConfig::allowed_origins` is neither `*` nor `scheme://host[:port]`.
    #[cfg(feature = "http")]
    #[error("allowed origin `{0}` is not `*` nor `scheme://host[:port]`")]
    Origin(String),
    /// An entry of `MCP_TAILOR_TRUSTED_PROXIES` is not an IP address.
    #[error("`MCP_TAILOR_TRUSTED_PROXIES`: `{0}` is not an IP address")]
    TrustedProxy(String),
}

impl From<Refused> for BuildError {
    fn from(refused: Refused) -> BuildError {
        match refused {
            Refused::DuplicateName(tool) => BuildError::DuplicateName(tool),
            Refused::Icons { tool, reason } => BuildError::Icons { tool, reason },
            Refused::Meta { tool, reason } => BuildError::Meta { tool, reason },
            Refused::MissingField(missing) => BuildError::MissingField(missing),
        }
    }
}
