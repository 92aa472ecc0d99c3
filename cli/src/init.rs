//! `init`: a tailoring file drafted from a server's own words, checked before it is
//! written, and what each level of the catalog costs before and after it (on stderr).

use crate::CommandError;
use crate::args::{InitOptions, Source, Sources};
use mcp_tailor::Tailoring;
use mcp_tailor::gateway::UpstreamTools;
use mcp_tailor::gateway::fleet::ToolFilter;
use mcp_tailor::init::{self, Draft};
use mcp_tailor::inspect::eval::Tasks;
use mcp_tailor::inspect::{CallerCatalog, InspectError, ReaderClass};
use mcp_tailor::server::Principal;
use std::path::Path;
use std::process::ExitCode;

/// The exit code of `init --servers` when some servers were drafted and some were not
/// (none drafted is a failure, 1): a script sees that the copy it got is partial.
pub(crate) const SOME_SKIPPED: u8 = 3;

pub(crate) fn run(options: InitOptions) -> ExitCode {
    let runtime = match crate::runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    match runtime.block_on(init(&options)) {
        Ok(Drafted::All) => ExitCode::SUCCESS,
        Ok(Drafted::SomeSkipped) => ExitCode::from(SOME_SKIPPED),
        Err(error) => {
            eprintln!("mcp-tailor: {error}");
            ExitCode::FAILURE
        }
    }
}

/// What `init` drafted: everything asked, or (`--servers`) not every server.
enum Drafted {
    All,
    SomeSkipped,
}

async fn init(options: &InitOptions) -> Result<Drafted, CommandError> {
    match &options.source {
        Sources::One(source) => {
            let out = options.out.as_deref();
            draft(options, source, out, None)
                .await
                .map(|()| Drafted::All)
        }
        Sources::Servers(file) => {
            let folder = options.out.as_deref().expect("clap requires --out");
            draft_servers(options, file, Path::new(folder)).await
        }
    }
}

/// The servers' own stderr, while `init --servers` drafts them one after another: each
/// line under its server's name (a process ended late still writes after the next
/// server's heading), with the warnings of the drafting.
fn log_servers_stderr() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "warn,mcp_tailor::upstream=info".into());
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(terminal)
        .with_env_filter(filter)
        .without_time()
        .with_target(false)
        .with_level(false)
        .try_init();
}

/// `init --servers FILE --out FOLDER`: a draft of each server of FILE as `FOLDER/NAME.toml`
/// (of the tools its `tools` filter lets through), and a copy of FILE naming each as its
/// server's `"tailoring"`. A server that cannot be drafted is said, and left without a
/// file.
async fn draft_servers(
    options: &InitOptions,
    file: &str,
    folder: &Path,
) -> Result<Drafted, CommandError> {
    let text = std::fs::read_to_string(file).map_err(CommandError::read(file))?;
    let mut entries = crate::servers::parse(&text, folder, file)?;
    log_servers_stderr();
    for entry in &mut entries {
        if let mcp_tailor::gateway::Upstream::Command { stderr_log, .. } = &mut entry.upstream {
            *stderr_log = Some(entry.name.clone());
        }
    }
    // `parse` read it as JSON already.
    let mut copy: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    std::fs::create_dir_all(folder).map_err(CommandError::write(folder))?;
    let mut drafted = 0;
    for entry in &entries {
        let name: String = entry
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let out = folder.join(format!("{name}.toml"));
        eprintln!("server `{}`:", entry.name);
        let source = Source::Upstream(entry.upstream.clone());
        match draft(options, &source, out.to_str(), Some(&entry.tools)).await {
            Ok(()) => {
                drafted += 1;
                let key = match copy.get("mcpServers") {
                    Some(_) => "mcpServers",
                    None => "servers",
                };
                let servers = copy
                    .get_mut(key)
                    .and_then(|s| s.get_mut(&entry.name))
                    .and_then(serde_json::Value::as_object_mut);
                if let Some(server) = servers {
                    server.insert("tailoring".into(), format!("{name}.toml").into());
                }
            }
            Err(error) => eprintln!("server `{}`: not drafted: {error}", entry.name),
        }
    }
    let name = Path::new(file).file_name().unwrap_or("mcp.json".as_ref());
    let servers = folder.join(name);
    let written = serde_json::to_string_pretty(&copy).unwrap_or_default() + "\n";
    std::fs::write(&servers, written).map_err(CommandError::write(&servers))?;
    eprintln!(
        "{drafted} of {} servers drafted; serve them: mcp-tailor proxy --servers {}",
        entries.len(),
        servers.display()
    );
    match drafted {
        0 => Err(CommandError::NothingDrafted),
        n if n < entries.len() => Ok(Drafted::SomeSkipped),
        _ => Ok(Drafted::All),
    }
}

/// One server's (or catalog's) draft, to `out` or stdout, of the tools `filter` serves.
async fn draft(
    options: &InitOptions,
    source: &Source,
    out: Option<&str>,
    filter: Option<&ToolFilter>,
) -> Result<(), CommandError> {
    let tasks = options.tasks.as_deref().map(Tasks::load).transpose()?;
    let mut listed = crate::inspect::fetch(source).await?;
    // A denied tool is never served: it gets no words either.
    if let Some(filter) = filter {
        listed.tools.retain(|tool| filter.serves(&tool.name));
    }
    let tools = &listed.tools;
    let source = match source {
        Source::Catalog(path) => path.clone(),
        Source::Upstream(upstream) => format!("`{upstream}`"),
    };
    let mut searches = mcp_tailor::inspect::eval::Search::lexical().to_vec();
    if options.embedding_model.is_some() {
        let names = ["embedding".to_owned()];
        searches.extend(crate::reports::searches_named(
            &names,
            options.embedding_model.as_deref(),
        )?);
    }
    let checking = init::Options::new(searches, tasks.as_ref(), options.fits.clone());
    let draft = init::draft_checked(tools, &source, &checking)?;
    if let Some(path) = &options.update {
        return update(path, out.unwrap_or(path), tools, &draft.text);
    }
    // Every draft passes `check`: a failure here is this command's bug, not the user's.
    let name = out.unwrap_or("<draft>");
    let tailoring =
        Tailoring::parse(name, &draft.text).map_err(|source| CommandError::Unchecked {
            made: "draft",
            source,
        })?;
    match out {
        Some(path) => std::fs::write(path, &draft.text).map_err(CommandError::write(path))?,
        None => crate::print_out(draft.text.trim_end()),
    }
    eprintln!("{}", summary(&listed, tailoring, &draft).await?);
    Ok(())
}

/// `init --update`: the drafted file at `path` brought up to date with `tools` (as `fresh`
/// drafts them), written to `out`; what was done on stderr.
fn update(
    path: &str,
    out: &str,
    tools: &[mcp_tailor::server::rmcp::model::Tool],
    fresh: &str,
) -> Result<(), CommandError> {
    let text = std::fs::read_to_string(path).map_err(CommandError::read(path))?;
    let file = Tailoring::parse(path, &text)?;
    let update = init::update(&text, &file, tools, fresh);
    Tailoring::parse(out, &update.text).map_err(|source| CommandError::Unchecked {
        made: "update",
        source,
    })?;
    if update.text != text || out != path {
        std::fs::write(out, &update.text).map_err(CommandError::write(out))?;
    }
    for line in &update.done {
        eprintln!("{line}");
    }
    eprintln!(
        "{out}: {}",
        match update.done.len() {
            0 => "up to date with the server".to_owned(),
            n => crate::counted(n, "change"),
        }
    );
    Ok(())
}

/// `o200k_base` tokens of every `tools/list` page a reader naming no runner or model gets
/// at each level 0..=9, the tools listed through the gateway as `tailoring` words them (as
/// `inspect … tokens` counts them).
async fn served_tokens(
    listed: &UpstreamTools,
    tailoring: Tailoring,
) -> Result<[usize; 10], CommandError> {
    let server = crate::inspect::wrapping_server(tailoring, listed.page_size, None)?;
    let sizes = CallerCatalog::new(&server, Principal::anonymous(), "2025-11-25")
        .wrapping(listed.tools.clone())
        .sizes(&ReaderClass::new(None, None))
        .await
        .map_err(InspectError::from)?;
    Ok(sizes.map(|size| size.tokens))
}

/// What the catalog costs a reader at each level before and after the draft, and the
/// structure no wording can save.
async fn summary(
    listed: &UpstreamTools,
    tailoring: Tailoring,
    draft: &Draft,
) -> Result<String, CommandError> {
    let before = served_tokens(listed, Tailoring::default()).await?;
    let after = served_tokens(listed, tailoring).await?;
    let tools = &listed.tools;
    let floor = init::structure_tokens(tools);
    let mut out = format!(
        "drafted {} and {} of {}; tools/list in o200k_base tokens (no runner):\n\
         level  before  after  saved\n",
        crate::counted(draft.tools, "tool"),
        crate::counted(draft.arguments, "argument"),
        crate::counted(tools.len(), "tool")
    );
    for level in 0..10 {
        let saved = 100.0 * (1.0 - after[level] as f64 / before[level].max(1) as f64);
        out.push_str(&format!(
            "{level:>5}  {:>6}  {:>5}  {saved:>4.1}%\n",
            before[level], after[level]
        ));
    }
    out.push_str(&format!(
        "structure (names, types, no words): {floor} tokens; the most any wording saves is {:.1}%",
        100.0 * (1.0 - floor as f64 / before[0].max(1) as f64)
    ));
    out.push_str(&findability(&draft.findability));
    out.push('\n');
    out.push_str(&draft.audit.summary());
    if !draft.kept_for_tasks.is_empty() {
        out.push_str(&format!(
            "\nterse texts keep task words for: {}",
            draft.kept_for_tasks.join(", ")
        ));
    }
    Ok(out)
}

/// Findability beside tokens, per band: how many queries each search finds in its top
/// [`init::TOP`] — the server's own words made into queries, then the tasks file's.
fn findability(bands: &[init::Findability]) -> String {
    let Some(first) = bands.first() else {
        return String::new();
    };
    let mut out = String::new();
    for (asked, of) in [
        ("queries made of the server's own words", &first.own),
        ("tasks of --tasks", &first.tasks),
    ] {
        let Some(count) = of.first().map(|found| found.of) else {
            continue;
        };
        out.push_str(&format!(
            "\nfindability: {count} {asked}, found in the top {} (lost: found by the server's words, not by the level)\n{:<7}{:>7}",
            init::TOP,
            "levels",
            "tokens"
        ));
        for found in of {
            out.push_str(&format!("  {:>16}", found.search));
        }
        for band in bands {
            out.push_str(&format!("\n{:<7}{:>7}", band.levels, band.tokens));
            let row = if std::ptr::eq(of, &first.own) {
                &band.own
            } else {
                &band.tasks
            };
            for found in row {
                let lost = match found.lost {
                    0 => String::new(),
                    n => format!(" ({n} lost)"),
                };
                out.push_str(&format!(
                    "  {:>16}",
                    format!("{}/{}{lost}", found.found, found.of)
                ));
            }
        }
    }
    out
}
