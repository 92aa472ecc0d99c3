//! Semantic tool search over static word embeddings: each tool's text and each query
//! become the mean of their tokens' vectors, and tools rank by cosine similarity, as
//! embedding tool retrieval does. The model is WordLlama's `l2_supercat` (256 dimensions),
//! which the PyPI `wordllama` wheel ships with its weights (16 MB) and its tokenizer: no
//! model server, no network, the same numbers as `WordLlama.embed` (CI compares them).
//!
//! Why WordLlama: its wheel carries both files, so a pinned registry package is the whole
//! model; it is a static embedding (a lookup and a mean), fast enough to rank every task
//! at every level; and its vectors are trained for semantic similarity.

use super::SearchEntry;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How many tools an embedding tool retriever returns by default (its top K).
pub const EMBEDDING_LIMIT: usize = 5;

/// The weights inside a WordLlama directory.
const WEIGHTS: &str = "weights/l2_supercat_256.safetensors";
/// The tokenizer inside a WordLlama directory.
const TOKENIZER: &str = "tokenizers/l2_supercat_tokenizer_config.json";
/// The tensor holding one vector per token.
const TENSOR: &str = "embedding.weight";

/// Why the embedding model was not loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EmbeddingError {
    /// A file could not be read.
    #[error(
        "{path}: cannot read: {error} (the embedding model is the `wordllama` wheel's package folder: `pip install wordllama==0.4.0.post1`, then its `wordllama/` folder)"
    )]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        error: std::io::Error,
    },
    /// A file is not what WordLlama ships.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// A static word-embedding model: a tokenizer and one vector per token.
pub struct EmbeddingModel {
    tokenizer: tokenizers::Tokenizer,
    /// `vocabulary × dimensions`, row-major.
    vectors: Vec<f32>,
    dimensions: usize,
}

impl std::fmt::Debug for EmbeddingModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddingModel")
            .field("tokens", &(self.vectors.len() / self.dimensions.max(1)))
            .field("dimensions", &self.dimensions)
            .finish()
    }
}

impl EmbeddingModel {
    /// Loads WordLlama's `l2_supercat` 256-dimension model from `dir`, laid out as the
    /// wheel's package folder is: `weights/l2_supercat_256.safetensors` and
    /// `tokenizers/l2_supercat_tokenizer_config.json`.
    pub fn load(dir: impl AsRef<Path>) -> Result<Arc<EmbeddingModel>, EmbeddingError> {
        let dir = dir.as_ref();
        let (weights, tokenizer) = (dir.join(WEIGHTS), dir.join(TOKENIZER));
        let read = |path: &Path| {
            std::fs::read(path).map_err(|error| EmbeddingError::Read {
                path: path.to_owned(),
                error,
            })
        };
        let invalid = |path: &Path, message: String| EmbeddingError::Invalid {
            path: path.to_owned(),
            message,
        };
        let bytes = read(&weights)?;
        let tensors = safetensors::SafeTensors::deserialize(&bytes)
            .map_err(|e| invalid(&weights, format!("not safetensors: {e}")))?;
        let tensor = tensors
            .tensor(TENSOR)
            .map_err(|e| invalid(&weights, format!("no `{TENSOR}`: {e}")))?;
        let [_, dimensions] = tensor.shape() else {
            return Err(invalid(&weights, format!("`{TENSOR}` is not a matrix")));
        };
        if tensor.dtype() != safetensors::Dtype::F16 {
            return Err(invalid(
                &weights,
                format!("`{TENSOR}` is {:?}, not F16", tensor.dtype()),
            ));
        }
        let vectors = tensor
            .data()
            .chunks_exact(2)
            .map(|pair| half::f16::from_le_bytes([pair[0], pair[1]]).to_f32())
            .collect();
        let text = read(&tokenizer)?;
        let tokenizer = tokenizers::Tokenizer::from_bytes(&text)
            .map_err(|e| invalid(&tokenizer, format!("not a tokenizer: {e}")))?;
        Ok(Arc::new(EmbeddingModel {
            tokenizer,
            vectors,
            dimensions: *dimensions,
        }))
    }

    /// The number of dimensions of each vector.
    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    /// `text`'s embedding, as `WordLlama.embed` makes it: the mean of its tokens' vectors
    /// (no special tokens; a token past the vocabulary reads the last vector), in `f32`;
    /// all zeros for a text of no tokens.
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let mut sum = vec![0.0f32; self.dimensions];
        let ids = match self.tokenizer.encode(text, false) {
            Ok(encoding) => encoding.get_ids().to_vec(),
            Err(_) => Vec::new(),
        };
        let rows = self.vectors.len() / self.dimensions.max(1);
        for &id in &ids {
            let row = (id as usize).min(rows.saturating_sub(1)) * self.dimensions;
            for (total, value) in sum
                .iter_mut()
                .zip(&self.vectors[row..row + self.dimensions])
            {
                *total += value;
            }
        }
        let count = ids.len().max(1) as f32;
        sum.iter_mut().for_each(|v| *v /= count);
        sum
    }

    /// The cosine similarity of two embeddings (0 where either is all zeros).
    pub fn similarity(a: &[f32], b: &[f32]) -> f32 {
        let norm = |v: &[f32]| match v.iter().map(|x| x * x).sum::<f32>().sqrt() {
            0.0 => 1.0,
            n => n,
        };
        let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        dot / (norm(a) * norm(b))
    }
}

/// What the embedding search reads of a tool: its name in words (`_` and `-` as spaces),
/// its title and its description, the empty ones left out.
pub(super) fn text(entry: &SearchEntry) -> String {
    let mut parts = vec![entry.name.replace(['_', '-'], " ")];
    for text in [&entry.title, &entry.description] {
        if let Some(text) = text.as_deref().map(str::trim)
            && !text.is_empty()
        {
            parts.push(text.to_owned());
        }
    }
    parts.join(" ")
}

/// One catalog's embeddings, made once and asked many queries.
pub struct EmbeddingSearch {
    model: Arc<EmbeddingModel>,
    tools: Vec<Vec<f32>>,
}

impl EmbeddingSearch {
    /// Embeds `entries` (in catalog order) with `model`.
    pub fn new(model: &Arc<EmbeddingModel>, entries: &[SearchEntry]) -> EmbeddingSearch {
        EmbeddingSearch {
            model: Arc::clone(model),
            tools: entries.iter().map(|e| model.embed(&text(e))).collect(),
        }
    }

    /// Each tool's similarity to `query`, in catalog order.
    pub fn scores(&self, query: &str) -> Vec<f32> {
        let query = self.model.embed(query);
        self.tools
            .iter()
            .map(|tool| EmbeddingModel::similarity(&query, tool))
            .collect()
    }

    /// Every tool, most similar to `query` first (ties in catalog order).
    pub fn rank(&self, query: &str) -> Vec<usize> {
        let scores = self.scores(query);
        let mut ranked: Vec<usize> = (0..scores.len()).collect();
        ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        ranked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_text_is_the_name_in_words_the_title_and_the_description() {
        let entry = SearchEntry::from_tool(&json!({
            "name": "read_text-file", "title": " Read ", "description": "Read a file.",
            "inputSchema": {"properties": {"path": {"description": "Where."}}},
        }))
        .unwrap();
        assert_eq!(text(&entry), "read text file Read Read a file.");
    }

    #[test]
    fn cosine_similarity_is_zero_against_no_words() {
        assert_eq!(EmbeddingModel::similarity(&[0.0, 0.0], &[1.0, 2.0]), 0.0);
        let same = EmbeddingModel::similarity(&[3.0, 4.0], &[6.0, 8.0]);
        assert!((same - 1.0).abs() < 1e-6, "{same}");
        assert_eq!(EmbeddingModel::similarity(&[1.0, 0.0], &[0.0, 1.0]), 0.0);
    }

    #[test]
    fn a_missing_model_says_where_to_get_it() {
        let error = EmbeddingModel::load("/nonexistent")
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("/nonexistent/weights/l2_supercat_256.safetensors: cannot read")
                && error.contains("pip install wordllama==0.4.0.post1"),
            "{error}"
        );
    }
}
