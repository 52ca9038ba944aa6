//! The `PATCH /spaces/{id}` body: each field checked against the contract, every rejection a
//! 400 naming the field (`mergeRules.rules[0].users[1]`).

use serde_json::Value;

use crate::error::ApiError;
use crate::model::{MergeRules, Role, Space};
use crate::validate::{self, Body};
use crate::world::World;

/// `TranslationLanguage`: the language codes a space may have.
pub(super) const LANGUAGES: [&str; 39] = [
    "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar",
    "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms",
    "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
];

const ROLES: [&str; 6] = ["admin", "create", "review", "edit", "comment", "read"];

const FIELDS: [&str; 6] = [
    "editMode",
    "title",
    "defaultLevel",
    "language",
    "mergeRules",
    "emoji",
];

/// What a valid PATCH changes; `None` leaves a field as it is.
#[derive(Debug, Default)]
pub(super) struct SpaceUpdate {
    edit_mode: Option<&'static str>,
    title: Option<String>,
    default_level: Option<Option<Role>>,
    language: Option<&'static str>,
    merge_rules: Option<MergeRules>,
    emoji: Option<String>,
}

impl SpaceUpdate {
    pub(super) fn apply(self, space: &mut Space) {
        if let Some(mode) = self.edit_mode {
            space.edit_mode = mode;
        }
        if let Some(title) = self.title {
            space.title = title;
        }
        if let Some(level) = self.default_level {
            space.default_level = level;
        }
        if let Some(language) = self.language {
            space.language = language;
        }
        if let Some(rules) = self.merge_rules {
            space.merge_rules = rules;
        }
        if let Some(emoji) = self.emoji {
            space.emoji = emoji;
        }
    }
}

fn invalid(name: &str, expected: &str) -> ApiError {
    ApiError::bad_request(format!("Invalid \"{name}\": expected {expected}"))
}

/// Parses and checks the whole body; reviewers must be members of `organization`.
pub(super) fn space_update(
    bytes: &[u8],
    world: &World,
    organization: &str,
) -> Result<SpaceUpdate, ApiError> {
    let body = validate::object_body(bytes, false)?;
    validate::reject_unknown(&body, &FIELDS)?;
    let edit_mode = validate::choice(&body, "editMode", &["live", "locked"])?;
    let language = validate::choice(&body, "language", &LANGUAGES)?;
    Ok(SpaceUpdate {
        edit_mode: edit_mode.map(|mode| if mode == "live" { "live" } else { "locked" }),
        title: validate::text(&body, "title", 1, 50)?,
        default_level: default_level(&body)?,
        language: language.and_then(|code| LANGUAGES.iter().copied().find(|known| *known == code)),
        merge_rules: merge_rules(&body, world, organization)?,
        emoji: emoji(&body)?,
    })
}

/// A role, or null for no default access.
fn default_level(body: &Body) -> Result<Option<Option<Role>>, ApiError> {
    match body.get("defaultLevel") {
        Some(Value::Null) => Ok(Some(None)),
        _ => Ok(validate::choice(body, "defaultLevel", &ROLES)?.map(|role| Role::parse(&role))),
    }
}

/// An emoji of at most 50 characters; null or "" removes it.
fn emoji(body: &Body) -> Result<Option<String>, ApiError> {
    Ok(validate::nullable_text(body, "emoji", 50)?.map(Option::unwrap_or_default))
}

fn merge_rules(
    body: &Body,
    world: &World,
    organization: &str,
) -> Result<Option<MergeRules>, ApiError> {
    let Some(rules) = body.get("mergeRules") else {
        return Ok(None);
    };
    let expected = "{\"type\":\"inherit\"} or {\"type\":\"rules\",\"rules\":[…]}";
    match rules.get("type").and_then(Value::as_str) {
        Some("inherit") => Ok(Some(MergeRules::Inherit)),
        Some("rules") => {
            let list = rules
                .get("rules")
                .and_then(Value::as_array)
                .ok_or_else(|| invalid("mergeRules.rules", "an array of rules"))?;
            let mut users = Vec::new();
            for (index, rule) in list.iter().enumerate() {
                users.extend(reviewers(rule, index, world, organization)?);
            }
            Ok(Some(MergeRules::SpecificReviewers(users)))
        }
        _ => Err(invalid("mergeRules", expected)),
    }
}

/// One `require_specific_reviewers` rule's users, each a member of the organization.
fn reviewers(
    rule: &Value,
    index: usize,
    world: &World,
    organization: &str,
) -> Result<Vec<String>, ApiError> {
    let at = format!("mergeRules.rules[{index}]");
    if rule.get("rule").and_then(Value::as_str) != Some("require_specific_reviewers") {
        return Err(invalid(
            &format!("{at}.rule"),
            "\"require_specific_reviewers\"",
        ));
    }
    let users = rule
        .get("users")
        .and_then(Value::as_array)
        .filter(|users| !users.is_empty())
        .ok_or_else(|| invalid(&format!("{at}.users"), "a non-empty array of user ids"))?;
    users
        .iter()
        .enumerate()
        .map(|(position, user)| {
            let field = format!("{at}.users[{position}]");
            let id = user
                .as_str()
                .ok_or_else(|| invalid(&field, "a user id string"))?;
            if world.membership(organization, id).is_none() {
                return Err(invalid(&field, "a member of the space's organization"));
            }
            Ok(id.to_string())
        })
        .collect()
}
