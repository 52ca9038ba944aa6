//! The Adaptive tab: the visitor schema, checked as the service wants it before it is sent, and
//! the keys that scroll it or open it for editing.

use serde_json::Value;

use super::{Modal, SchemaEditor, SiteScreen};
use crate::api::adaptive_schema;
use crate::screens::step::Step;
use crate::ui::composer::Composer;
use crate::ui::keymap::Action;

/// Checks an adaptive schema before it is sent: valid JSON, then exactly the shape the service
/// accepts ([`adaptive_schema::check`], the same check the sandbox answers 400 with).
pub fn check_schema(text: &str) -> Result<Value, String> {
    let schema: Value =
        serde_json::from_str(text).map_err(|error| format!("not valid JSON: {error}"))?;
    adaptive_schema::check(&schema)?;
    Ok(schema)
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
