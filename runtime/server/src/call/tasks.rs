//! Registered tools as MCP tasks (the tasks extension, SEP-2663,
//! `io.modelcontextprotocol/tasks`), on rmcp's `TaskManager`.
//!
//! A tool registered with [`TaskSupport`] runs as a task when the client declared the
//! extension (for the session, or in the request's `_meta`): its handler starts at once, and
//! if it has not finished by the time it first waits, the call answers `CreateTaskResult`
//! and the handler goes on in the background; `tasks/get` then reports it (and inlines its
//! result once done), `tasks/update` brings it the client's input, `tasks/cancel` asks it to
//! stop. A handler that answers without waiting — an `InputRequiredResult` round, a result
//! at hand — answers the call directly, which the extension allows. Each task belongs to
//! the principal that started it: to anyone else its id is unknown.
//!
//! A task started on a session (2025 revisions) tells that session of its changes with
//! `notifications/tasks` (when it needs input, and when it ends), each the task as
//! `tasks/get` reads it at that moment. A 2026-07-28 client polls: rmcp 3.11's
//! `subscriptions/listen` has no filter for tasks and refuses to carry their notifications.
//!
//! A principal runs at most `max_tasks_per_principal` tasks at once (the builder's; 100 by
//! default): past it, a call that could become a task is refused (`too_many_tasks`) before
//! its handler runs, so one caller cannot fill the process with tasks that outlive their
//! requests.
//!
//! Behind a load balancer, a replica's task ids read `{replica tag}.{id}` (like its session
//! ids), so that `tasks/*` requests — which name the task in their `Mcp-Name` header — can
//! be routed to the replica that runs the task.

use crate::failure::too_many_tasks;
use mcp_tailor_core::seam::Locked;
use rmcp::model::{
    CallToolResponse, CallToolResult, CancelTaskParams, CreateTaskResult, GetTaskParams,
    GetTaskResult, InputRequest, Notification, ServerNotification, UpdateTaskParams,
};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use rmcp::{ErrorData, Peer, RoleServer};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;
use std::task::Poll;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// Whether a registered tool runs as an MCP task when the client supports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskSupport {
    /// A task for clients that declared the tasks extension; a plain call for the rest.
    Optional,
    /// A task, always: a client that did not declare the extension gets `-32021`
    /// (missing required client capability) and the handler does not run.
    Required,
}

/// The tasks of one server, and whose each one is.
pub(crate) struct TaskTable {
    manager: TaskManager,
    ids: TaskIds,
    /// Task id → the principal that started it. Ids rmcp has evicted are pruned as new
    /// tasks start.
    owners: Mutex<HashMap<String, String>>,
    /// Principal → its calls that are, or may become, tasks now.
    running: Arc<Mutex<HashMap<String, usize>>>,
    max_running: usize,
}

/// A principal's place among its running tasks: taken before a task-capable call runs,
/// given back when it answers directly or its task ends (or is dropped, expired).
struct TaskPlace {
    running: Arc<Mutex<HashMap<String, usize>>>,
    principal: String,
}

impl Drop for TaskPlace {
    fn drop(&mut self) {
        let mut running = self.running.locked();
        if let Some(count) = running.get_mut(&self.principal) {
            *count -= 1;
            if *count == 0 {
                running.remove(&self.principal);
            }
        }
    }
}

impl std::fmt::Debug for TaskTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskTable").finish_non_exhaustive()
    }
}

/// Task ids as clients see them: rmcp's, behind the replica's tag when it has one.
#[derive(Clone, Debug, Default)]
struct TaskIds {
    tag: Option<std::sync::Arc<str>>,
}

impl TaskIds {
    /// The id a client sees for rmcp's `id`.
    fn public(&self, id: &str) -> String {
        match &self.tag {
            Some(tag) => format!("{tag}.{id}"),
            None => id.to_owned(),
        }
    }

    /// rmcp's id for the id a client sent; `None` when it is not this replica's.
    fn private<'a>(&self, id: &'a str) -> Option<&'a str> {
        match &self.tag {
            Some(tag) => id.strip_prefix(&**tag)?.strip_prefix('.'),
            None => Some(id),
        }
    }
}

/// A handler's call that may become a task: the link through which the task's context
/// reaches the handler once it is one.
#[derive(Clone)]
pub(crate) struct TaskSlot {
    context: watch::Sender<Option<TaskContext>>,
    /// A status message set before the call became a task: the task's first.
    status: std::sync::Arc<Mutex<Option<String>>>,
    /// Who hears the task's changes, if anyone.
    notifier: Option<Notifier>,
    ids: TaskIds,
    /// Fired by `tasks/cancel`: the call's cancellation once it is a task.
    pub(crate) cancel: CancellationToken,
}

/// The session a task was started on, told of the task's changes.
#[derive(Clone)]
struct Notifier {
    peer: Peer<RoleServer>,
    manager: TaskManager,
    ids: TaskIds,
}

impl Notifier {
    /// Sends task `id` (rmcp's) as `tasks/get` reads it now.
    async fn now(&self, id: &str) {
        if let Ok(mut task) = self.manager.get_task(id) {
            task.task.task_id = self.ids.public(id);
            let notification = Notification::new(task.into());
            let sent = self
                .peer
                .send_notification(ServerNotification::TaskStatusNotification(notification))
                .await;
            if let Err(error) = sent {
                tracing::debug!(%error, "could not send notifications/tasks");
            }
        }
    }

    /// Sends task `id` once rmcp has recorded its end: the task's operation returns just
    /// before rmcp records it, on the same worker; this waits for that (1 s at most).
    fn when_ended(self, id: String) {
        tokio::spawn(async move {
            for _ in 0..1_000 {
                tokio::task::yield_now().await;
                let ended = self
                    .manager
                    .get_task(&id)
                    .is_ok_and(|task| task.status().is_terminal());
                if ended {
                    return self.now(&id).await;
                }
                tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            }
        });
    }
}

impl std::fmt::Debug for TaskSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let id = self
            .context
            .borrow()
            .as_ref()
            .map(|task| task.task_id().to_owned());
        f.debug_struct("TaskSlot").field("task", &id).finish()
    }
}

impl TaskSlot {
    /// The task the call became, once it is one (at the handler's first wait).
    pub(crate) async fn task(&self) -> Option<TaskContext> {
        let mut receiver = self.context.subscribe();
        receiver
            .wait_for(Option::is_some)
            .await
            .ok()
            .and_then(|context| context.clone())
    }

    /// The id of the task the call became, as the client sees it (waits until it is one).
    pub(crate) async fn task_id(&self) -> Option<String> {
        let task = self.task().await?;
        Some(self.ids.public(task.task_id()))
    }

    /// Sets the task's status message (kept for the task when the call is not one yet).
    pub(crate) fn set_status(&self, message: String) {
        let task = self.context.borrow().clone();
        match task {
            Some(task) => task.set_status_message(message),
            None => *self.status.locked() = Some(message),
        }
    }

    /// Asks the client for input under `key`; the task reports `input_required` until a
    /// `tasks/update` answers it.
    pub(crate) async fn input(
        &self,
        key: String,
        request: InputRequest,
    ) -> Result<serde_json::Value, ErrorData> {
        let Some(task) = self.task().await else {
            return Err(not_a_task());
        };
        let mut asking = std::pin::pin!(task.request_input(key, request));
        // The request is registered at the first poll: then the session hears of it.
        let answer = match (poll_once(asking.as_mut()).await, &self.notifier) {
            (Poll::Ready(answer), _) => answer,
            (Poll::Pending, Some(notifier)) => {
                notifier.now(task.task_id()).await;
                asking.await
            }
            (Poll::Pending, None) => asking.await,
        };
        answer.map_err(|exit| match exit {
            TaskExit::Cancelled => ErrorData::internal_error("the task was cancelled", None),
            TaskExit::Error(error) => error,
        })
    }
}

/// The error of a task-only request on a call that is not a task.
pub(crate) fn not_a_task() -> ErrorData {
    ErrorData::invalid_request(
        "this call is not running as a task (the tool has no task support, or the client \
         did not declare the tasks extension)",
        None,
    )
}

/// The error of a task id this server does not know (or that is not the caller's).
fn unknown_task(id: &str) -> ErrorData {
    ErrorData::invalid_params(format!("unknown task `{id}`"), None)
}

/// Polls `future` once: its output if it finished without waiting.
async fn poll_once<F: Future + ?Sized>(mut future: Pin<&mut F>) -> Poll<F::Output> {
    std::future::poll_fn(|cx| Poll::Ready(future.as_mut().poll(cx))).await
}

/// A handler's future, its panics already caught and reported.
pub(crate) type Call = Pin<Box<dyn Future<Output = Result<CallToolResponse, ErrorData>> + Send>>;

impl TaskTable {
    /// The tasks of a server whose replica tag, if any, is `tag`, each principal running
    /// at most `max_running` at once.
    pub(crate) fn new(tag: Option<&str>, max_running: usize) -> TaskTable {
        TaskTable {
            manager: TaskManager::new(),
            ids: TaskIds {
                tag: tag.map(Into::into),
            },
            owners: Mutex::default(),
            running: Arc::default(),
            max_running,
        }
    }

    /// A place for `principal`, or `too_many_tasks` when it has none left.
    fn place(&self, principal: &str) -> Result<TaskPlace, ErrorData> {
        let mut running = self.running.locked();
        let count = running.entry(principal.to_owned()).or_default();
        if *count >= self.max_running {
            return Err(too_many_tasks(self.max_running));
        }
        *count += 1;
        Ok(TaskPlace {
            running: self.running.clone(),
            principal: principal.to_owned(),
        })
    }

    /// The slot of a call that may become a task; `session`, the peer of the session the
    /// call came on, hears the task's changes.
    pub(crate) fn slot(&self, session: Option<Peer<RoleServer>>) -> TaskSlot {
        TaskSlot {
            context: watch::Sender::new(None),
            status: Default::default(),
            notifier: session.map(|peer| Notifier {
                peer,
                manager: self.manager.clone(),
                ids: self.ids.clone(),
            }),
            ids: self.ids.clone(),
            cancel: CancellationToken::new(),
        }
    }

    /// Runs `call` for `principal`: answered directly if it finishes before it first
    /// waits, else as a task whose context `slot` passes to the handler and whose
    /// `tasks/cancel` fires the slot's `cancel`.
    pub(crate) async fn run(
        &self,
        principal: &str,
        mut call: Call,
        slot: TaskSlot,
    ) -> Result<CallToolResponse, ErrorData> {
        let place = self.place(principal)?;
        if let Poll::Ready(answer) = poll_once(call.as_mut()).await {
            return answer;
        }
        let cancel = slot.cancel.clone();
        let mut options = TaskOptions::default();
        options.status_message = slot.status.locked().take();
        let notifier = slot.notifier.clone();
        let task = self.manager.spawn(options, move |context| {
            slot.context.send_replace(Some(context.clone()));
            Box::pin(async move {
                let _place = place;
                let stop = async {
                    context.cancelled().await;
                    cancel.cancel();
                    std::future::pending::<()>().await;
                };
                let outcome = tokio::select! {
                    outcome = call => outcome,
                    () = stop => unreachable!("`stop` never finishes"),
                };
                let settled = settle(outcome, context.is_cancel_requested());
                if let Some(notifier) = notifier {
                    notifier.when_ended(context.task_id().to_owned());
                }
                settled
            })
        });
        {
            let mut owners = self.owners.locked();
            if owners.len() >= 64 && owners.len().is_power_of_two() {
                owners.retain(|id, _| self.manager.get_task(id).is_ok());
            }
            owners.insert(task.task_id.clone(), principal.to_owned());
        }
        let mut task = task;
        task.task_id = self.ids.public(&task.task_id);
        Ok(CreateTaskResult::new(task).into())
    }

    /// Whether `id` is a task of this layer (whoever started it).
    pub(crate) fn knows(&self, id: &str) -> bool {
        self.ids
            .private(id)
            .is_some_and(|id| self.owners.locked().contains_key(id))
    }

    /// rmcp's id for `id`, if it is `principal`'s task; an unknown task otherwise.
    fn owned<'a>(&self, id: &'a str, principal: &str) -> Result<&'a str, ErrorData> {
        let owners = self.owners.locked();
        match self.ids.private(id) {
            Some(private) if owners.get(private).is_some_and(|owner| owner == principal) => {
                Ok(private)
            }
            _ => Err(unknown_task(id)),
        }
    }

    /// `tasks/get` for `principal`.
    pub(crate) fn get(
        &self,
        params: &GetTaskParams,
        principal: &str,
    ) -> Result<GetTaskResult, ErrorData> {
        let private = self.owned(&params.task_id, principal)?;
        let mut task = self.manager.get_task(private)?;
        task.task.task_id.clone_from(&params.task_id);
        Ok(GetTaskResult::new(task))
    }

    /// `tasks/update` for `principal`.
    pub(crate) fn update(
        &self,
        params: UpdateTaskParams,
        principal: &str,
    ) -> Result<(), ErrorData> {
        let private = self.owned(&params.task_id, principal)?;
        self.manager.update_task(private, params.input_responses)
    }

    /// `tasks/cancel` for `principal`.
    pub(crate) fn cancel(
        &self,
        params: &CancelTaskParams,
        principal: &str,
    ) -> Result<(), ErrorData> {
        let private = self.owned(&params.task_id, principal)?;
        self.manager.cancel_task(private)
    }
}

/// How a finished handler settles its task: a tool result completes it (a tool error too,
/// as `completed` with `isError`), a protocol error fails it; once `tasks/cancel` arrived,
/// any failure is the cancellation. A task cannot answer with another round of input or
/// another task.
fn settle(
    outcome: Result<CallToolResponse, ErrorData>,
    cancel_requested: bool,
) -> Result<CallToolResult, TaskExit> {
    match outcome {
        Ok(CallToolResponse::Complete(result))
            if cancel_requested && result.is_error == Some(true) =>
        {
            Err(TaskExit::Cancelled)
        }
        Ok(CallToolResponse::Complete(result)) => Ok(result),
        Ok(_) => Err(TaskExit::Error(ErrorData::internal_error(
            "a task's handler answered with another round (InputRequiredResult or a task); \
                 in a task, ask for input with CallContext::task_input",
            None,
        ))),
        Err(_) if cancel_requested => Err(TaskExit::Cancelled),
        Err(error) => Err(TaskExit::Error(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::TaskIds;

    #[test]
    fn a_replicas_task_ids_carry_its_tag_and_others_are_not_its_own() {
        let tagged = TaskIds {
            tag: Some("r2".into()),
        };
        assert_eq!(tagged.public("5f0c"), "r2.5f0c");
        assert_eq!(tagged.private("r2.5f0c"), Some("5f0c"));
        for foreign in ["r1.5f0c", "5f0c", "r2", "r25f0c", "r22.5f0c"] {
            assert_eq!(tagged.private(foreign), None, "{foreign}");
        }
        let plain = TaskIds::default();
        assert_eq!(plain.public("5f0c"), "5f0c");
        assert_eq!(plain.private("r2.5f0c"), Some("r2.5f0c"));
    }
}
