//! Moving a collection or a space to another parent (and a place among its siblings), and
//! transferring one to another organization. The public service has no
//! space transfer; there the call fails with the service's answer, shown as it is.

use serde::Serialize;

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::{Collection, Space};

/// A collection or a space, by id: what is moved, or what a position is next to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ContentPointer {
    Space { space: String },
    Collection { collection: String },
}

impl ContentPointer {
    pub fn space(id: &str) -> ContentPointer {
        ContentPointer::Space {
            space: id.to_string(),
        }
    }

    pub fn collection(id: &str) -> ContentPointer {
        ContentPointer::Collection {
            collection: id.to_string(),
        }
    }

    pub fn id(&self) -> &str {
        match self {
            ContentPointer::Space { space } => space,
            ContentPointer::Collection { collection } => collection,
        }
    }

    /// `/spaces/{id}` or `/collections/{id}`.
    fn path(&self) -> String {
        match self {
            ContentPointer::Space { space } => format!("/spaces/{}", encode_segment(space)),
            ContentPointer::Collection { collection } => {
                format!("/collections/{}", encode_segment(collection))
            }
        }
    }
}

/// Where among the new siblings: `{before: pointer}` or `{after: pointer}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ContentPosition {
    Before(ContentPointer),
    After(ContentPointer),
}

/// The body of a move. `parent` is always sent: an id, or `null` for the top level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContentMove {
    pub parent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<ContentPosition>,
}

#[derive(Serialize)]
struct Transfer<'a> {
    organization: &'a str,
}

/// What a move or transfer answers: the item as it is now.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum MovedContent {
    Collection(Collection),
    Space(Space),
}

impl Client {
    /// `POST /collections/{id}/move` or `POST /spaces/{id}/move`.
    pub async fn move_content(
        &self,
        item: &ContentPointer,
        target: &ContentMove,
    ) -> Result<MovedContent, ApiError> {
        let path = format!("{}/move", item.path());
        match item {
            ContentPointer::Collection { .. } => {
                self.post(&path, target).await.map(MovedContent::Collection)
            }
            ContentPointer::Space { .. } => self.post(&path, target).await.map(MovedContent::Space),
        }
    }

    /// `POST /collections/{id}/transfer` or `POST /spaces/{id}/transfer` to `organization`.
    pub async fn transfer_content(
        &self,
        item: &ContentPointer,
        organization: &str,
    ) -> Result<MovedContent, ApiError> {
        let path = format!("{}/transfer", item.path());
        let body = Transfer { organization };
        match item {
            ContentPointer::Collection { .. } => {
                self.post(&path, &body).await.map(MovedContent::Collection)
            }
            ContentPointer::Space { .. } => self.post(&path, &body).await.map(MovedContent::Space),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_move_sends_parent_and_position_as_the_contract_spells_them() {
        let to_top = ContentMove {
            parent: None,
            position: None,
        };
        assert_eq!(
            serde_json::to_value(&to_top).unwrap(),
            json!({"parent": null})
        );
        let before = ContentMove {
            parent: Some("c1".into()),
            position: Some(ContentPosition::Before(ContentPointer::space("s2"))),
        };
        assert_eq!(
            serde_json::to_value(&before).unwrap(),
            json!({"parent": "c1", "position": {"before": {"type": "space", "space": "s2"}}})
        );
        let after = ContentPosition::After(ContentPointer::collection("c9"));
        assert_eq!(
            serde_json::to_value(&after).unwrap(),
            json!({"after": {"type": "collection", "collection": "c9"}})
        );
    }
}
