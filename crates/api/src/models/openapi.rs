//! Stored OpenAPI specifications and their versions.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::{Urls, lenient_count, null_as_default, string_enum};

string_enum! {
    /// `OpenAPISpecProcessingState`.
    pub enum ProcessingState {
        Pending => "pending",
        Progress => "progress",
        Complete => "complete",
    }
}

impl Default for ProcessingState {
    fn default() -> Self {
        ProcessingState::Other(String::new())
    }
}

string_enum! {
    /// `OpenAPISpecVisibility`.
    pub enum SpecVisibility {
        Private => "private",
        Public => "public",
    }
}

/// An OpenAPI spec (`object`='openapi-spec').
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenApiSpec {
    pub id: String,
    #[serde(default, deserialize_with = "null_as_default")]
    pub slug: String,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default, rename = "sourceURL")]
    pub source_url: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub processing_state: ProcessingState,
    #[serde(default)]
    pub visibility: Option<SpecVisibility>,
    #[serde(default)]
    pub last_version: Option<String>,
    #[serde(default)]
    pub last_processed_at: Option<String>,
    #[serde(default)]
    pub last_process_error_code: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub last_processed_errors: Vec<ProcessingError>,
    /// The service's count (real API); the seed has only the list of errors.
    #[serde(default, deserialize_with = "lenient_count")]
    pub last_processed_error_count: Option<u64>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub permissions: SpecPermissions,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

impl OpenApiSpec {
    /// How many errors the last processing found: the server's count, else the list's length.
    pub fn error_count(&self) -> u64 {
        self.last_processed_error_count
            .unwrap_or(self.last_processed_errors.len() as u64)
            .max(self.last_processed_errors.len() as u64)
    }

    pub fn is_public(&self) -> bool {
        self.visibility == Some(SpecVisibility::Public)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProcessingError {
    pub message: String,
    pub code: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpecPermissions {
    pub view: bool,
    pub edit: bool,
}

/// A version of a spec (`object`='openapi-spec-version').
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenApiVersion {
    pub id: String,
    #[serde(default)]
    pub created_at: Option<String>,
    /// Where the spec of this version can be read.
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub urls: Urls,
}

/// A version's content: `filesystem` (kept raw; see [`SpecFile::list`]) and where it came from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OpenApiContent {
    #[serde(default, deserialize_with = "null_as_default")]
    pub filesystem: Value,
    /// The seed's `url`.
    #[serde(default)]
    pub url: Option<String>,
    /// The service's `urls{source, public}`.
    #[serde(default)]
    pub urls: Option<Value>,
}

/// One file of a version's filesystem, by its path from the root (`components/schemas.json`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecFile {
    pub path: String,
    pub text: String,
}

impl SpecFile {
    /// The files of a `filesystem` object, sorted by path. The shape is not documented, so it is
    /// read leniently: a key whose value is a string is a file with that text; a key whose
    /// value is an object holding a string `text` or `content` is a file with that text; any
    /// other object is a folder whose keys are read the same way. Keys may themselves hold `/`.
    pub fn list(filesystem: &Value) -> Vec<SpecFile> {
        let mut files = Vec::new();
        collect(filesystem, "", 0, &mut files);
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }
}

/// Folders deeper than this are not followed (a hostile server cannot recurse us to death).
const MAX_DEPTH: usize = 32;

fn collect(value: &Value, prefix: &str, depth: usize, files: &mut Vec<SpecFile>) {
    let Some(entries) = value.as_object() else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    for (name, entry) in entries {
        let path = if prefix.is_empty() {
            name.trim_matches('/').to_string()
        } else {
            format!("{prefix}/{}", name.trim_matches('/'))
        };
        match entry {
            Value::String(text) => files.push(SpecFile {
                path,
                text: text.clone(),
            }),
            Value::Object(fields) => {
                let text = ["text", "content"]
                    .iter()
                    .find_map(|key| fields.get(*key).and_then(Value::as_str));
                match text {
                    Some(text) => files.push(SpecFile {
                        path,
                        text: text.to_string(),
                    }),
                    None => collect(entry, &path, depth + 1, files),
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn files_come_from_nested_and_flat_filesystems() {
        let filesystem = json!({
            "openapi.yaml": "openapi: 3.1.0",
            "components": {"schemas.json": "{}", "paths": {"pets.yaml": {"text": "get: {}"}}},
            "extra/notes.md": "hi",
            "weird": 3
        });
        let paths: Vec<String> = SpecFile::list(&filesystem)
            .into_iter()
            .map(|file| file.path)
            .collect();
        assert_eq!(
            paths,
            [
                "components/paths/pets.yaml",
                "components/schemas.json",
                "extra/notes.md",
                "openapi.yaml"
            ]
        );
        assert!(SpecFile::list(&json!("not an object")).is_empty());
    }

    #[test]
    fn error_count_uses_the_larger_of_count_and_list() {
        let spec: OpenApiSpec = serde_json::from_value(json!({
            "id": "s", "slug": "pets", "processingState": "complete",
            "lastProcessedErrors": [{"message": "bad"}]
        }))
        .unwrap();
        assert_eq!(spec.error_count(), 1);
        assert_eq!(spec.processing_state, ProcessingState::Complete);
    }
}
