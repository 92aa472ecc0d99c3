use super::*;
use crate::upstream::stdio::child::{Child, Spawn};
use crate::upstream::verbatim::store::Verbatim;
use rmcp::model::{
    CallToolRequestParams, ClientRequest, ProgressToken, Request, RequestId, RequestMetaObject,
    ServerResult,
};
use rmcp::transport::Transport as _;
use serde_json::json;

#[test]
fn only_answers_with_a_lanes_id_are_the_lanes() {
    let lane_id = FIRST + 3;
    assert_eq!(
        answer_id(&json!({"jsonrpc": "2.0", "id": lane_id, "result": {}})),
        Some(RequestId::Number(lane_id))
    );
    assert!(answer_id(&json!({"jsonrpc": "2.0", "id": lane_id, "error": {}})).is_some());
    // rmcp's own ids, requests from the upstream, other versions, notifications.
    assert!(answer_id(&json!({"jsonrpc": "2.0", "id": 3, "result": {}})).is_none());
    let asking = json!({"jsonrpc": "2.0", "id": lane_id, "method": "roots/list"});
    assert!(answer_id(&asking).is_none());
    assert!(answer_id(&json!({"jsonrpc": "1.0", "id": lane_id, "result": {}})).is_none());
    assert!(answer_id(&json!({"jsonrpc": "2.0", "method": "x"})).is_none());
    assert!(answer_id(&json!({"jsonrpc": "2.0", "id": "a", "result": {}})).is_none());
}

/// An upstream that logs a line before each answer, answers a call with the request as
/// it read it, a call of `late` (or `sleep`) after a while, and never a call of `hang`.
const UPSTREAM: &str = r#"
import json, sys, time
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                      "params": {"level": "info", "data": "before"}}), flush=True)
    if request["params"]["name"] in ("late", "sleep"):
        time.sleep(0.2)
    if request["params"]["name"] != "hang":
        text = json.dumps(request)
        print(json.dumps({"jsonrpc": "2.0", "id": request["id"],
                          "result": {"content": [{"type": "text", "text": text}]}}), flush=True)
"#;

fn call(name: &str) -> ClientRequest {
    ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new(name.to_owned())))
}

/// The request as the upstream read it, from its answer.
async fn as_read(lane: &Lane, meta: RequestMetaObject, token: Option<ProgressToken>) -> Value {
    let mut sent = lane.send(call("echo"), meta, token).await.unwrap();
    let answered = tokio::time::timeout(std::time::Duration::from_secs(10), sent.answer());
    let (answer, written) = answered.await.expect("an answer").unwrap();
    let JsonRpcMessage::Response(response) = answer else {
        panic!("not a result: {answer:?}");
    };
    let ServerResult::CallToolResult(result) = response.result else {
        panic!("not read as a call's result: {:?}", response.result);
    };
    assert_eq!(response.id, sent.id);
    assert_eq!(written["id"], json!(sent.id));
    let text = result.content[0].as_text().unwrap().text.clone();
    serde_json::from_str(&text).unwrap()
}

#[tokio::test]
async fn requests_go_past_rmcp_and_their_answers_straight_back() {
    let args = ["-c".to_owned(), UPSTREAM.to_owned()];
    let (child, stdout, stdin) = Child::spawn(&Spawn::plain("python3", &args)).unwrap();
    let mut lines = StdioLines::new(Box::new(stdout), Box::new(stdin), Verbatim::default());
    let lane = Lane::on(&mut lines);
    // What the transport gives rmcp: everything but the lane's answers.
    let (given, mut to_rmcp) = tokio::sync::mpsc::unbounded_channel();
    let reader = tokio::spawn(async move {
        while let Some(message) = lines.receive().await {
            let _ = given.send(message);
        }
    });

    // The client's `_meta` as it came, its progress token the lane's own.
    let mut meta = RequestMetaObject::default();
    meta.0.insert("theirs".to_owned(), json!(1));
    meta.set_progress_token(ProgressToken(RequestId::Number(7)));
    let token = lane.progress_token();
    let read = as_read(&lane, meta, Some(token.clone())).await;
    assert!(read["id"].as_i64().unwrap() >= 1 << 40);
    assert_eq!(read["params"]["_meta"]["theirs"], json!(1));
    assert_eq!(read["params"]["_meta"]["progressToken"], json!(token.0));
    // A client that asked for no progress: no token upstream.
    let mut meta = RequestMetaObject::default();
    meta.set_progress_token(ProgressToken(RequestId::Number(8)));
    let read = as_read(&lane, meta, None).await;
    assert!(
        read["params"]
            .get("_meta")
            .is_none_or(|m| m.get("progressToken").is_none())
    );
    // A request given up on (its deadline, a cancelled client): its answer, when it
    // comes (before the next one's), goes nowhere.
    drop(
        lane.send(call("late"), Default::default(), None)
            .await
            .unwrap(),
    );
    as_read(&lane, RequestMetaObject::default(), None).await;
    // A line longer than the pipe holds, while the upstream reads nothing, given up
    // on mid-write: written whole all the same, the next one read as it should be.
    drop(
        lane.send(call("sleep"), Default::default(), None)
            .await
            .unwrap(),
    );
    let mut big = CallToolRequestParams::new("big");
    big.arguments = Some(serde_json::Map::from_iter([(
        "text".to_owned(),
        json!("x".repeat(1 << 20)),
    )]));
    let big = ClientRequest::CallToolRequest(Request::new(big));
    let cut = tokio::time::timeout(
        std::time::Duration::from_millis(20),
        lane.send(big, Default::default(), None),
    );
    assert!(
        cut.await.is_err(),
        "the pipe took a line longer than it holds"
    );
    let read = as_read(&lane, RequestMetaObject::default(), None).await;
    assert_eq!(read["params"]["name"], json!("echo"));
    // The notifications before each answer reached rmcp; no answer did.
    for _ in 0..7 {
        let message = to_rmcp.recv().await.unwrap();
        assert!(
            matches!(message, JsonRpcMessage::Notification(_)),
            "{message:?}"
        );
    }
    assert!(to_rmcp.try_recv().is_err());

    // The upstream ends with a request unanswered: it fails, and so does a new one.
    let mut hanging = lane
        .send(call("hang"), Default::default(), None)
        .await
        .unwrap();
    to_rmcp.recv().await.unwrap();
    drop(child);
    assert!(matches!(hanging.answer().await, Err(LaneError::Closed)));
    reader.await.unwrap();
    assert!(
        lane.send(call("echo"), Default::default(), None)
            .await
            .is_err()
    );
}
