//! The command line every `inspect` subcommand shares: the reader, the caller, the output
//! form, `lint`'s budgets and `eval`'s tasks.

use super::LintConfig;
use crate::server::{Principal, Reader};

/// The options every subcommand takes.
pub(super) struct Options {
    pub(super) reader: Reader,
    pub(super) principal: Principal,
    pub(super) protocol: String,
    pub(super) json: bool,
    pub(super) pretty: bool,
    pub(super) budgets: LintConfig,
    pub(super) eval: EvalOptions,
    pub(super) positional: Vec<String>,
}

/// What `eval` takes beyond the common options.
#[derive(Default)]
pub(super) struct EvalOptions {
    pub(super) tasks: Option<String>,
    pub(super) top: Option<usize>,
    pub(super) floor: Option<f64>,
    pub(super) svg: Option<String>,
}

fn level(flag: &str, value: Option<String>) -> Result<u8, String> {
    let value = value.ok_or_else(|| format!("`{flag}` needs a level 0..=9"))?;
    match value.parse::<u8>() {
        Ok(level) if level <= crate::MAX_VERBOSITY => Ok(level),
        _ => Err(format!("`{flag} {value}`: expected a level 0..=9")),
    }
}

/// `LEVELS=TOKENS`, LEVELS a level `N` or a range `LO..=HI`.
fn budget(value: &str, config: &mut LintConfig) -> Result<(), String> {
    let bad = || format!("`--budget {value}`: expected LEVELS=TOKENS, e.g. 0..=3=40");
    let (levels, tokens) = value.rsplit_once('=').ok_or_else(bad)?;
    let tokens: usize = tokens.parse().map_err(|_| bad())?;
    let (lo, hi) = match levels.split_once("..=") {
        Some((lo, hi)) => (lo.parse::<usize>(), hi.parse::<usize>()),
        None => (levels.parse(), levels.parse()),
    };
    let (Ok(lo), Ok(hi)) = (lo, hi) else {
        return Err(bad());
    };
    if lo > hi || hi > 9 {
        return Err(bad());
    }
    for slot in &mut config.budgets[lo..=hi] {
        *slot = Some(tokens);
    }
    Ok(())
}

pub(super) fn options(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut out = Options {
        reader: Reader::default(),
        principal: Principal::anonymous(),
        protocol: "2025-11-25".to_owned(),
        json: false,
        pretty: false,
        budgets: LintConfig::default(),
        eval: EvalOptions::default(),
        positional: Vec::new(),
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |what: &str| args.next().ok_or_else(|| format!("`{arg}` needs {what}"));
        match arg.as_str() {
            "--runner" => out.reader.runner = Some(value("a name")?),
            "--model" => out.reader.model = Some(value("a name")?),
            "--verbosity" => out.reader.verbosity = Some(level(&arg, args.next())?),
            "--principal" => out.principal.id = value("an id")?,
            "--tenant" => out.principal.tenant = Some(value("a tenant")?),
            "--scopes" => {
                let scopes = value("a comma-separated list")?;
                out.principal = out
                    .principal
                    .with_scopes(scopes.split(',').map(str::trim).filter(|s| !s.is_empty()));
            }
            "--protocol" => out.protocol = value("a revision, e.g. 2026-07-28")?,
            "--budget" => budget(&value("LEVELS=TOKENS")?, &mut out.budgets)?,
            "--tasks" => out.eval.tasks = Some(value("a tasks file")?),
            "--svg" => out.eval.svg = Some(value("a file to write")?),
            "--top" => {
                let k = value("a number of tools")?;
                out.eval.top = Some(k.parse().ok().filter(|&k| k > 0).ok_or_else(|| {
                    format!("`--top {k}`: expected a number of tools, 1 or more")
                })?);
            }
            "--floor" => {
                let f = value("a share 0..=1")?;
                out.eval.floor = Some(
                    f.parse()
                        .ok()
                        .filter(|f| (0.0..=1.0).contains(f))
                        .ok_or_else(|| {
                            format!("`--floor {f}`: expected a share from 0 to 1, e.g. 0.75")
                        })?,
                );
            }
            "--json" => out.json = true,
            "--pretty" => out.pretty = true,
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            _ => out.positional.push(arg),
        }
    }
    Ok(out)
}
