//! `init --fit LEVELS=TOKENS`: a band of levels drafted so the whole `tools/list` a reader
//! naming no runner gets there costs at most TOKENS — of the per-text budgets whose draft
//! fits, the one whose checked draft ([`check`](super::check)) loses fewest queries.
//!
//! | LEVELS | band |
//! |---|---|
//! | `0..=2` | terse: tools' descriptions, arguments' facts |
//! | `3..=6` | middle: descriptions, arguments' first sentences |
//! | `0..=6` | both, each to TOKENS |
//!
//! A budget under the structure floor (names, types, `required`: no words) cannot be met;
//! it is an error that names the floor.

use super::{Band, Budgets, structure_tokens};
use rmcp::model::Tool;
use std::fmt;
use std::str::FromStr;

/// One `--fit LEVELS=TOKENS`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fit {
    /// The bands it holds: 0..=2, 3..=6.
    bands: [bool; 2],
    tokens: usize,
}

/// Why a `--fit` cannot be read or met.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FitError {
    /// Not `LEVELS=TOKENS` with LEVELS a whole band.
    #[error(
        "--fit `{0}`: expected LEVELS=TOKENS with LEVELS 0..=2, 3..=6 or 0..=6 (the bands a draft \
         words alike; 7..=9 read the server's own words), e.g. --fit 0..=2=1500"
    )]
    Syntax(String),
    /// Under the structure floor.
    #[error(
        "--fit {levels}={tokens}: the catalog's structure alone (names, types, `required`, no \
         words) costs {floor} tokens; no wording fits under that floor"
    )]
    Floor {
        /// The band, as written.
        levels: &'static str,
        /// The budget asked.
        tokens: usize,
        /// The structure floor ([`structure_tokens`]).
        floor: usize,
    },
}

impl FromStr for Fit {
    type Err = FitError;

    fn from_str(text: &str) -> Result<Fit, FitError> {
        let syntax = || FitError::Syntax(text.to_owned());
        let (levels, tokens) = text.rsplit_once('=').ok_or_else(syntax)?;
        let tokens = tokens.trim().parse().map_err(|_| syntax())?;
        let bands = match levels.trim() {
            "0..=2" => [true, false],
            "3..=6" => [false, true],
            "0..=6" => [true, true],
            _ => return Err(syntax()),
        };
        Ok(Fit { bands, tokens })
    }
}

impl fmt::Display for Fit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let levels = match self.bands {
            [true, true] => "0..=6",
            [true, false] => "0..=2",
            _ => "3..=6",
        };
        write!(f, "{levels}={}", self.tokens)
    }
}

/// The scales a band's budgets are tried at, largest first: a tool's terse description
/// within this many tokens (its other budgets in proportion, [`scaled`]).
pub(super) const SCALES: [usize; 10] = [48, 32, 24, 16, 12, 8, 6, 4, 2, 0];

/// `budgets` with `level`'s band scaled to `scale` ([`SCALES`]): at 32, the defaults; at 0
/// nothing.
pub(super) fn scaled(mut budgets: Budgets, level: Band, scale: usize) -> Budgets {
    let of = |default: usize| default * scale / super::TERSE_TOKENS;
    match level {
        Band::Terse => {
            budgets.terse = of(super::TERSE_TOKENS);
            budgets.facts = of(super::FACT_TOKENS);
        }
        Band::Middle => {
            budgets.middle = of(super::MIDDLE_TOKENS);
            budgets.argument = of(super::ARGUMENT_TOKENS);
        }
    }
    budgets
}

/// Each band's budget in tokens (the tightest where two fits name one band), each checked
/// against the structure floor of `tools`.
pub(super) fn caps(tools: &[Tool], fits: &[Fit]) -> Result<[Option<usize>; 2], FitError> {
    let mut caps = [None; 2];
    for fit in fits {
        for (cap, held) in caps.iter_mut().zip(fit.bands) {
            if held {
                *cap = Some(cap.map_or(fit.tokens, |c: usize| c.min(fit.tokens)));
            }
        }
    }
    if caps.iter().any(Option::is_some) {
        let floor = structure_tokens(tools);
        for (cap, levels) in caps.iter().zip(["0..=2", "3..=6"]) {
            if let Some(tokens) = *cap
                && tokens < floor
            {
                return Err(FitError::Floor {
                    levels,
                    tokens,
                    floor,
                });
            }
        }
    }
    Ok(caps)
}

/// The header note of a band fitted to `cap` tokens with `budgets`.
pub(super) fn note(level: Band, cap: usize, budgets: &Budgets) -> String {
    let (levels, description, argument) = match level {
        Band::Terse => ("0..=2", budgets.terse, budgets.facts),
        Band::Middle => ("3..=6", budgets.middle, budgets.argument),
    };
    format!(
        "--fit {levels}={cap}: there, a tool's description within {description} tokens, an \
         argument's within {argument}; what the check adds, within {cap} tokens in all."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_names_a_whole_band_and_a_count() {
        assert_eq!(
            "0..=2=1500".parse::<Fit>().unwrap().to_string(),
            "0..=2=1500"
        );
        assert_eq!("0..=6=900".parse::<Fit>().unwrap().bands, [true, true]);
        for wrong in ["0..=3=100", "7..=9=100", "0..=2", "0..=2=many", "=5"] {
            let error = wrong.parse::<Fit>().unwrap_err();
            assert!(
                error.to_string().contains("0..=2, 3..=6 or 0..=6"),
                "{error}"
            );
        }
    }
}
