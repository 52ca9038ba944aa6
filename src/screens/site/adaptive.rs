//! The Adaptive tab: the visitor schema, checked as the service wants it before it is sent, and
//! the keys that scroll it or open it for editing.

use serde_json::Value;

use super::{Modal, SchemaEditor, SiteScreen};
use crate::app::Step;
use crate::app::keymap::Action;
use crate::ui::composer::Composer;

/// The claim types the service's adaptive schema allows (the seed only uses booleans).
pub const CLAIM_TYPES: [&str; 5] = ["boolean", "string", "number", "array", "object"];

/// Checks an adaptive schema as the service wants it before it is sent: valid JSON, an object
/// of `type: "object"` with `additionalProperties: false`, and claims that each have a
/// `description` and one of [`CLAIM_TYPES`]. An optional `unsigned` object holds further
/// claims under its own `properties`.
pub fn check_schema(text: &str) -> Result<Value, String> {
    let schema: Value =
        serde_json::from_str(text).map_err(|error| format!("not valid JSON: {error}"))?;
    let Some(object) = schema.as_object() else {
        return Err("the schema must be a JSON object".into());
    };
    if object.get("type") != Some(&Value::from("object")) {
        return Err("\"type\" must be \"object\"".into());
    }
    if object.get("additionalProperties") != Some(&Value::Bool(false)) {
        return Err("\"additionalProperties\" must be false".into());
    }
    let Some(properties) = object.get("properties").and_then(Value::as_object) else {
        return Err("\"properties\" must be an object of visitor claims".into());
    };
    for (name, property) in properties {
        if name == "unsigned" {
            if property.get("type") != Some(&Value::from("object")) {
                return Err("properties.unsigned.type must be \"object\"".into());
            }
            let Some(inner) = property.get("properties").and_then(Value::as_object) else {
                return Err("properties.unsigned.properties must be an object".into());
            };
            for (inner_name, claim) in inner {
                check_claim(
                    claim,
                    &format!("properties.unsigned.properties.{inner_name}"),
                )?;
            }
        } else {
            check_claim(property, &format!("properties.{name}"))?;
        }
    }
    Ok(schema)
}

/// One claim: a known type and a description (the service requires both).
fn check_claim(claim: &Value, path: &str) -> Result<(), String> {
    let known_type = claim
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|kind| CLAIM_TYPES.contains(&kind));
    if !known_type {
        return Err(format!(
            "{path}.type must be one of {}",
            CLAIM_TYPES.join(", ")
        ));
    }
    let described = claim
        .get("description")
        .and_then(Value::as_str)
        .is_some_and(|text| !text.trim().is_empty());
    if !described {
        return Err(format!(
            "{path}.description is required (say what the claim means)"
        ));
    }
    Ok(())
}

/// Offered for a site with no schema yet; it passes [`check_schema`].
pub const SCHEMA_TEMPLATE: &str = "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"isBetaUser\": {\n      \"type\": \"boolean\",\n      \"description\": \"The visitor takes part in the beta programme\"\n    }\n  },\n  \"additionalProperties\": false\n}";

impl SiteScreen {
    pub(super) fn on_adaptive_action(&mut self, action: Action) -> Option<Step> {
        match action {
            Action::Down => self.adaptive_scroll = self.adaptive_scroll.saturating_add(1),
            Action::Up => self.adaptive_scroll = self.adaptive_scroll.saturating_sub(1),
            Action::PageDown | Action::HalfPageDown => {
                self.adaptive_scroll = self.adaptive_scroll.saturating_add(10)
            }
            Action::PageUp | Action::HalfPageUp => {
                self.adaptive_scroll = self.adaptive_scroll.saturating_sub(10)
            }
            Action::Top => self.adaptive_scroll = 0,
            Action::EditSchema => {
                if let Some(reason) = self.adaptive_edit_reason() {
                    self.warn(reason);
                    return Some(Step::default());
                }
                let text = self.schema_draft.clone().unwrap_or_else(|| {
                    self.adaptive
                        .value()
                        .and_then(|data| data.schema.as_ref())
                        .and_then(|schema| serde_json::to_string_pretty(&schema.json_schema).ok())
                        .unwrap_or_else(|| SCHEMA_TEMPLATE.to_string())
                });
                self.modal = Some(Modal::Composer(Box::new(SchemaEditor::new(Composer::new(
                    "Adaptive schema (JSON)",
                    &text,
                )))));
            }
            _ => return None,
        }
        Some(Step::default())
    }
}
