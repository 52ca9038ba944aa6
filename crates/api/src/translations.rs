//! Translations of spaces: list, create, read, change the instructions, delete,
//! and run now.

use serde::Serialize;
use serde_json::Value;

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::Translation;
use super::paging::{ListPage, WholeList};

/// `TranslationLanguage` (also a space's language): every code the service accepts.
pub use super::models::space::LANGUAGES;

/// The English names of [`LANGUAGES`].
const NAMES: [(&str, &str); 39] = [
    ("en", "English"),
    ("fr", "French"),
    ("de", "German"),
    ("es", "Spanish"),
    ("it", "Italian"),
    ("pt", "Portuguese"),
    ("pt-br", "Portuguese (Brazil)"),
    ("ru", "Russian"),
    ("ja", "Japanese"),
    ("zh", "Chinese (simplified)"),
    ("zh-tw", "Chinese (traditional)"),
    ("yue", "Cantonese"),
    ("ko", "Korean"),
    ("ar", "Arabic"),
    ("hi", "Hindi"),
    ("nl", "Dutch"),
    ("pl", "Polish"),
    ("tr", "Turkish"),
    ("sv", "Swedish"),
    ("no", "Norwegian"),
    ("da", "Danish"),
    ("fi", "Finnish"),
    ("el", "Greek"),
    ("cs", "Czech"),
    ("hu", "Hungarian"),
    ("ro", "Romanian"),
    ("th", "Thai"),
    ("vi", "Vietnamese"),
    ("id", "Indonesian"),
    ("ms", "Malay"),
    ("he", "Hebrew"),
    ("uk", "Ukrainian"),
    ("sk", "Slovak"),
    ("bg", "Bulgarian"),
    ("hr", "Croatian"),
    ("lt", "Lithuanian"),
    ("lv", "Latvian"),
    ("et", "Estonian"),
    ("sl", "Slovenian"),
];

/// The English name of a language code, or the code itself when it is not one we know.
pub fn language_name(code: &str) -> &str {
    NAMES
        .iter()
        .find(|(known, _)| *known == code)
        .map_or(code, |(_, name)| name)
}

/// The body of `POST /orgs/{org}/translations`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NewTranslation {
    /// The target language code.
    pub language: String,
    pub source: NewTranslationSource,
    /// A Document; left out when there are no instructions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewTranslationSource {
    pub space: String,
    pub language: String,
}

fn translations_path(organization: &str) -> String {
    format!("/orgs/{}/translations", encode_segment(organization))
}

fn translation_path(organization: &str, id: &str) -> String {
    format!("{}/{}", translations_path(organization), encode_segment(id))
}

impl Client {
    /// `GET /orgs/{org}/translations`: one page.
    pub async fn list_translations(
        &self,
        organization: &str,
        page: Option<&str>,
    ) -> Result<ListPage<Translation>, ApiError> {
        self.get_list_page(&translations_path(organization), &[], page)
            .await
    }

    /// `GET /orgs/{org}/translations`, every page up to `max_pages`, keeping what was read
    /// when paging stops.
    pub async fn list_translations_up_to(
        &self,
        organization: &str,
        max_pages: usize,
    ) -> Result<WholeList<Translation>, ApiError> {
        self.list_up_to(&translations_path(organization), &[], max_pages)
            .await
    }

    /// `POST /orgs/{org}/translations`: 201 with the translation.
    pub async fn create_translation(
        &self,
        organization: &str,
        translation: &NewTranslation,
    ) -> Result<Translation, ApiError> {
        self.post(&translations_path(organization), translation)
            .await
    }

    pub async fn get_translation(
        &self,
        organization: &str,
        id: &str,
    ) -> Result<Translation, ApiError> {
        self.get(&translation_path(organization, id), &[]).await
    }

    /// `PUT /orgs/{org}/translations/{id}` with the new instructions (a Document).
    pub async fn set_translation_instructions(
        &self,
        organization: &str,
        id: &str,
        instructions: &Value,
    ) -> Result<Translation, ApiError> {
        let body = serde_json::json!({ "instructions": instructions });
        self.put(&translation_path(organization, id), &body).await
    }

    /// `DELETE /orgs/{org}/translations/{id}`: 204 also when it was not there.
    pub async fn delete_translation(&self, organization: &str, id: &str) -> Result<(), ApiError> {
        self.delete(&translation_path(organization, id)).await
    }

    /// `POST /orgs/{org}/translations/{id}/run`: 204, a run was triggered.
    pub async fn run_translation(&self, organization: &str, id: &str) -> Result<(), ApiError> {
        let path = format!("{}/run", translation_path(organization, id));
        self.post_empty(&path).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_named_and_unknown_codes_kept() {
        assert_eq!(language_name("pt-br"), "Portuguese (Brazil)");
        assert_eq!(language_name("xx"), "xx");
        let body = serde_json::to_value(NewTranslation {
            language: "fr".into(),
            source: NewTranslationSource {
                space: "spc".into(),
                language: "en".into(),
            },
            instructions: None,
        })
        .unwrap();
        assert_eq!(
            body,
            serde_json::json!({"language": "fr", "source": {"space": "spc", "language": "en"}})
        );
    }
}
