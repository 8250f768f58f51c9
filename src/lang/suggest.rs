//! "Did you mean": the known name closest to a misspelt one, for the
//! errors about relations, techniques, rules and variants.

/// The candidate most like `name`, if one is close enough to be what was
/// meant (Jaro-Winkler similarity of at least 0.8, the measure and the
/// threshold clap uses for misspelt options).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (strsim::jaro_winkler(name, c), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `" (did you mean `x`?)"` for the closest candidate, or nothing.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, candidates)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelling_finds_its_name_and_nonsense_finds_none() {
        let names = ["cell", "peer", "placed", "eliminated"];
        assert_eq!(closest("cel", names), Some("cell"));
        assert_eq!(closest("eliminatd", names), Some("eliminated"));
        assert_eq!(closest("zzz", names), None);
        assert_eq!(did_you_mean("palced", names), " (did you mean `placed`?)");
        assert_eq!(did_you_mean("qqq", names), "");
    }
}
