//! The core's waves: how many instruction streams the slice interleaves, and the issue policy
//! that picks the stream whose instruction enters the window.

use serde::{Deserialize, Serialize};

use super::{Kind, ParamValue};

/// Waves the core slice interleaves (`--waves`): 1..=[`Waves::MAX`], or `auto` (the most that
/// fit the program's registers, settled by the run before anything is built).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Waves(pub usize);

impl Waves {
    /// The most waves a slice holds.
    pub const MAX: usize = 16;
    /// `auto`: as many waves as fit, at most [`Waves::MAX`].
    pub const AUTO: Waves = Waves(0);

    /// Whether the count is left to the run (`auto`).
    pub fn is_auto(self) -> bool {
        self == Self::AUTO
    }

    /// The number of waves; `auto` counts as one until a run settles it.
    pub fn count(self) -> usize {
        self.0.max(1)
    }
}

impl Default for Waves {
    fn default() -> Self {
        Waves(1)
    }
}

impl ParamValue for Waves {
    const KIND: Kind = Kind::Integer;
    fn parse(text: &str) -> Option<Self> {
        match text.eq_ignore_ascii_case("auto") {
            true => Some(Self::AUTO),
            false => usize::parse(text).filter(|&n| n > 0).map(Waves),
        }
    }
    fn show(&self) -> String {
        match self.is_auto() {
            true => "auto".into(),
            false => self.0.to_string(),
        }
    }
}

/// Which ready wave's instruction enters the window when several are offered (`--issue`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IssuePolicy {
    /// The waves in turn, starting after the wave whose instruction entered last.
    #[default]
    RoundRobin,
    /// Greedy then oldest: the wave that entered last while it is ready, else the
    /// lowest-numbered ready wave (every wave starts together, so the lowest is the oldest).
    OldestReady,
}

impl IssuePolicy {
    /// Both policies, in the order the help lists them.
    pub const ALL: [IssuePolicy; 2] = [IssuePolicy::RoundRobin, IssuePolicy::OldestReady];

    /// The policy's command-line name.
    pub fn name(self) -> &'static str {
        match self {
            IssuePolicy::RoundRobin => "round-robin",
            IssuePolicy::OldestReady => "oldest-ready",
        }
    }

    /// The short name, as module names write it (`rr`, `gto`).
    pub fn short(self) -> &'static str {
        match self {
            IssuePolicy::RoundRobin => "rr",
            IssuePolicy::OldestReady => "gto",
        }
    }

    /// The wave counted as having entered last when the slice starts (`waves` of them): for
    /// round-robin the last, so that wave 0 goes first; for greedy-then-oldest wave 0.
    pub fn first_last(self, waves: usize) -> usize {
        match self {
            IssuePolicy::RoundRobin => waves - 1,
            IssuePolicy::OldestReady => 0,
        }
    }
}

/// Written `round-robin` or `oldest-ready`; `rr` and `gto` are read too and written in module
/// names.
impl ParamValue for IssuePolicy {
    const KIND: Kind = Kind::Text;
    fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(text) || p.short().eq_ignore_ascii_case(text))
    }
    fn show(&self) -> String {
        self.short().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waves_read_auto_and_counts_and_refuse_zero() {
        assert_eq!(Waves::parse("auto"), Some(Waves::AUTO));
        assert_eq!(Waves::parse("4"), Some(Waves(4)));
        assert_eq!(Waves::parse("0"), None);
        assert_eq!(Waves::AUTO.show(), "auto");
        assert_eq!(IssuePolicy::parse("gto"), Some(IssuePolicy::OldestReady));
        assert_eq!(
            IssuePolicy::parse("round-robin"),
            Some(IssuePolicy::RoundRobin)
        );
    }
}
