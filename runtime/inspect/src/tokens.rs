//! Token counts with `o200k_base` (the GPT-4o / o-series encoding), whose vocabulary ships
//! inside `tiktoken-rs`: nothing is downloaded.

/// The number of `o200k_base` tokens of `text` (special-token text counted as ordinary).
pub fn count(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(text)
        .len()
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_real_tokens() {
        assert_eq!(count(""), 0);
        assert_eq!(count("hello"), 1);
        assert_eq!(count("hello world"), 2);
        assert!(count("Search notes by words in their title or body.") > 5);
    }
}
