//! "Did you mean": the choice a mistyped word most likely stands for.

/// The edit distance between `a` and `b` (insertions, deletions, substitutions), in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The one of `choices` that `word` most likely misspells (a typo of a third of its letters at
/// most, or a prefix of it), if any: for "did you mean".
pub fn suggestion<'a>(word: &str, choices: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    suggestion_within(word, choices, (word.chars().count() / 3).max(1))
}

/// The one of `choices` that the flag or key `word` most likely misspells: any within two
/// edits (`bnaks` for `banks`), a third of its letters for longer words, or a prefix of it.
pub fn flag_suggestion<'a>(
    word: &str,
    choices: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    suggestion_within(word, choices, (word.chars().count() / 3).max(2))
}

/// The nearest of `choices` to `word` within `limit` edits (or that `word` starts), if any.
fn suggestion_within<'a>(
    word: &str,
    choices: impl IntoIterator<Item = &'a str>,
    limit: usize,
) -> Option<&'a str> {
    let given = word;
    let word = word.to_lowercase();
    choices
        .into_iter()
        .filter(|c| !c.is_empty() && *c != given)
        .map(|c| (distance(&word, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= limit || (word.len() >= 3 && c.starts_with(word.as_str())))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_finds_its_word_and_nonsense_finds_none() {
        assert_eq!(suggestion("emt", ["emit", "sim", "flow"]), Some("emit"));
        assert_eq!(
            suggestion("evl", ["eval", "shuffle", "window"]),
            Some("eval")
        );
        assert_eq!(suggestion("bank", ["banks", "lanes"]), Some("banks"));
        assert_eq!(
            suggestion("RPT-MAD", ["rpt-mad", "random"]),
            Some("rpt-mad")
        );
        assert_eq!(suggestion("random", ["rpt-mad", "random"]), None);
        assert_eq!(suggestion("zzzz", ["banks", "lanes"]), None);
        assert_eq!(flag_suggestion("bnaks", ["banks", "lanes"]), Some("banks"));
        assert_eq!(flag_suggestion("zzzz", ["banks", "lanes"]), None);
    }
}
