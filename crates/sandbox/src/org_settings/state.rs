//! What the sandbox keeps of an organization besides its record.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// What the organization record does not hold: its default content, merge rules, invite
/// links and agent instructions, per organization id.
#[derive(Clone, Debug, Default)]
pub struct OrgSettings {
    /// The site shown by default.
    pub default_content: BTreeMap<String, String>,
    /// `{type:'rules', rules}` or `{type:'none'}`, as last set.
    pub merge_rules: BTreeMap<String, Value>,
    /// Invite link ids still valid.
    pub invite_links: BTreeMap<String, Vec<String>>,
    pub agent_instructions: BTreeMap<String, AgentInstructions>,
}

#[derive(Clone, Debug)]
pub struct AgentInstructions {
    pub document: Value,
    pub updated_at: String,
    pub updated_by: String,
}

impl OrgSettings {
    /// What the organization's JSON gains from these settings: called by the renderer.
    pub(crate) fn decorate(&self, organization: &str, object: &mut Value) {
        if let Some(site) = self.default_content.get(organization) {
            object["defaultContent"] = json!({ "type": "site", "site": site });
        }
        if let Some(rules) = self.merge_rules.get(organization) {
            object["mergeRules"] = rules.clone();
        }
    }
}
