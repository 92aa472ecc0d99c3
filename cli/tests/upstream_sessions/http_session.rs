//! A client session over streamable HTTP, read as raw JSON-RPC (no SDK types in between):
//! what `upstream_sessions.rs` drives `proxy --http` with.

use super::common::post;
use super::{INITIALIZED, LIST, initialize};
use serde_json::{Value, json};
use std::net::SocketAddr;

/// A session over streamable HTTP, read as raw JSON-RPC.
pub(crate) struct HttpSession {
    client: reqwest::Client,
    url: String,
    id: String,
}

impl HttpSession {
    pub(crate) async fn open(addr: SocketAddr, capabilities: Value) -> HttpSession {
        HttpSession::open_as(addr, capabilities, None).await
    }

    /// A session whose every request sends `authorization`.
    pub(crate) async fn open_as(
        addr: SocketAddr,
        capabilities: Value,
        authorization: Option<&str>,
    ) -> HttpSession {
        let mut headers = reqwest::header::HeaderMap::new();
        if let Some(authorization) = authorization {
            headers.insert("authorization", authorization.parse().unwrap());
        }
        let client = reqwest::Client::builder()
            .default_headers(headers)
            .build()
            .unwrap();
        let url = format!("http://{addr}/mcp");
        let response = post(&client, &url, None, &initialize(capabilities)).await;
        let id = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .expect("a session id")
            .to_owned();
        let _ = response.text().await;
        let session = HttpSession { client, url, id };
        let initialized: Value = serde_json::from_str(INITIALIZED).unwrap();
        post(
            &session.client,
            &session.url,
            Some(&session.id),
            &initialized,
        )
        .await;
        session
    }

    /// The same session from a new client, on connections of its own (which another of
    /// the proxy's threads may have accepted).
    pub(crate) fn reconnected(&self) -> HttpSession {
        HttpSession {
            client: reqwest::Client::new(),
            url: self.url.clone(),
            id: self.id.clone(),
        }
    }

    /// `tools/list`: the names listed.
    pub(crate) async fn list(&self) -> Vec<String> {
        let list: Value = serde_json::from_str(LIST).unwrap();
        let response = post(&self.client, &self.url, Some(&self.id), &list).await;
        let body = response.text().await.unwrap();
        let message = body
            .lines()
            .map(|l| l.strip_prefix("data:").unwrap_or(l).trim())
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|m| m["id"] == 1)
            .unwrap_or_else(|| panic!("no answer in {body}"));
        names(&message)
    }

    /// `tools/call NAME`, answering each `roots/list` the server asks meanwhile with
    /// `roots`; the call's answer.
    pub(crate) async fn call_answering_roots(&self, name: &str, roots: &[&str]) -> Value {
        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": name, "arguments": {}}});
        let mut response = post(&self.client, &self.url, Some(&self.id), &call).await;
        // Answered at once: one JSON body; with a question first: an event stream.
        let json = response
            .headers()
            .get("content-type")
            .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
        if json {
            return response.json().await.unwrap();
        }
        let mut buffer = String::new();
        loop {
            let chunk = response.chunk().await.unwrap().expect("no result");
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let event: String = buffer.drain(..end + 2).collect();
                for data in event.lines().filter_map(|l| l.strip_prefix("data:")) {
                    let Ok(message) = serde_json::from_str::<Value>(data.trim()) else {
                        continue;
                    };
                    if message["method"] == "roots/list" {
                        let roots: Vec<Value> = roots.iter().map(|u| json!({"uri": u})).collect();
                        let answer = json!({"jsonrpc": "2.0", "id": message["id"],
                            "result": {"roots": roots}});
                        post(&self.client, &self.url, Some(&self.id), &answer).await;
                    } else if message["id"] == 2 {
                        return message;
                    }
                }
            }
        }
    }

    /// `DELETE`: the session ends; the HTTP status.
    pub(crate) async fn close(self) -> u16 {
        let response = self
            .client
            .delete(&self.url)
            .header("mcp-session-id", &self.id)
            .header("mcp-protocol-version", "2025-11-25")
            .send()
            .await
            .unwrap();
        response.status().as_u16()
    }
}

/// The names a `tools/list` answer lists.
pub(crate) fn names(message: &Value) -> Vec<String> {
    message["result"]["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
