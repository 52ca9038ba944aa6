//! The settings form of a site: what the server has (`original`), what the user made of it
//! (`values`), validation per field as the user types, and the PATCH holding only what changed.

use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Serialize};

use crate::api::SiteUpdate;
use crate::api::models::{
    AdaptiveContent, AgentsContext, PublishedSite, Site, SiteSection, SiteSpace, SiteStructureItem,
    SiteVisibility,
};
use crate::ui::form::{Compare, FieldSpec, Form, FormFields, Naming, Presence, ValuesJson};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Title,
    Visibility,
    Basename,
    AdaptiveContent,
    AgentsContext,
    DefaultSection,
    DefaultSpace,
    Proxy,
}

impl Field {
    pub fn label(self) -> &'static str {
        match self {
            Field::Title => "Title",
            Field::Visibility => "Visibility",
            Field::Basename => "Basename",
            Field::AdaptiveContent => "Adaptive content",
            Field::AgentsContext => "Agents context",
            Field::DefaultSection => "Default section",
            Field::DefaultSpace => "Default space",
            Field::Proxy => "Proxy",
        }
    }

    /// The name in the PATCH body, also how the server names it in a 400.
    pub fn wire_name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Visibility => "visibility",
            Field::Basename => "basename",
            Field::AdaptiveContent => "adaptiveContent",
            Field::AgentsContext => "agentsContext",
            Field::DefaultSection => "defaultSiteSection",
            Field::DefaultSpace => "defaultSiteSpace",
            Field::Proxy => "proxy",
        }
    }
}

impl FormFields for Field {
    type Values = Values;

    const ALL: &'static [Field] = &[
        Field::Title,
        Field::Visibility,
        Field::Basename,
        Field::AdaptiveContent,
        Field::AgentsContext,
        Field::DefaultSection,
        Field::DefaultSpace,
        Field::Proxy,
    ];

    /// Title, basename and proxy are typed into a line input; the others are toggled or picked
    /// from a list.
    fn spec(self) -> FieldSpec {
        let (label, wire_name) = (self.label(), self.wire_name());
        match self {
            Field::Title => FieldSpec::text(label, wire_name).checked(title_error),
            Field::Basename => FieldSpec::text(label, wire_name)
                .presence(Presence::OptionalWhileUnset)
                .checked(basename_error),
            Field::Proxy => FieldSpec::text(label, wire_name)
                .presence(Presence::Optional)
                .compared(Compare::Trimmed)
                .checked(proxy_error),
            Field::AdaptiveContent | Field::AgentsContext => FieldSpec::toggle(label, wire_name),
            Field::Visibility | Field::DefaultSection | Field::DefaultSpace => {
                FieldSpec::choice(label, wire_name)
            }
        }
    }

    fn text(self, values: &Values) -> &str {
        match self {
            Field::Title => &values.title,
            Field::Basename => &values.basename,
            Field::Proxy => &values.proxy,
            _ => "",
        }
    }

    const JSON: Option<ValuesJson<Values>> = Some(ValuesJson::SERDE);
}

fn title_error(text: &str) -> Option<String> {
    let length = text.chars().count();
    if length < 2 {
        Some("needs at least 2 characters".into())
    } else if length > 128 {
        Some(format!("at most 128 characters ({length})"))
    } else {
        None
    }
}

/// Checked once the basename is not empty, or was not empty when loaded.
fn basename_error(text: &str) -> Option<String> {
    let length = text.chars().count();
    if length < 1 {
        Some("needs 1 to 100 characters".into())
    } else if length > 100 {
        Some(format!("at most 100 characters ({length})"))
    } else if !is_basename(text) {
        Some("only lowercase letters, digits, - and /".into())
    } else {
        None
    }
}

/// Checked once the proxy is not blank (blank removes it).
fn proxy_error(text: &str) -> Option<String> {
    let origin = text.trim();
    if origin.len() > 512 {
        Some("at most 512 characters".into())
    } else if !is_proxy_origin(origin) {
        Some("a host and path like example.com/docs".into())
    } else {
        None
    }
}

/// Every visibility with what it means, for the picker.
pub const VISIBILITIES: [(SiteVisibility, &str); 4] = [
    (
        SiteVisibility::Public,
        "Anyone can read it; search engines index it.",
    ),
    (
        SiteVisibility::Unlisted,
        "Anyone with the address can read it; not indexed.",
    ),
    (
        SiteVisibility::ShareLink,
        "Only people holding one of its share links.",
    ),
    (
        SiteVisibility::VisitorAuth,
        "Only visitors signed in through your identity provider.",
    ),
];

pub fn visibility_explanation(visibility: &SiteVisibility) -> &'static str {
    VISIBILITIES
        .iter()
        .find(|(candidate, _)| candidate == visibility)
        .map_or(
            "A visibility this version of quire does not know.",
            |(_, text)| text,
        )
}

/// Serialized under the fields' wire names (see `FormFields::JSON`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Values {
    pub title: String,
    pub visibility: Option<SiteVisibility>,
    pub basename: String,
    pub adaptive_content: bool,
    pub agents_context: Option<AgentsContext>,
    #[serde(rename = "defaultSiteSection")]
    pub default_section: Option<String>,
    #[serde(rename = "defaultSiteSpace")]
    pub default_space: Option<String>,
    pub proxy: String,
}

impl Values {
    pub fn from_site(site: &Site) -> Values {
        Values {
            title: site.title.clone(),
            visibility: site.visibility.clone(),
            basename: site.basename.clone().unwrap_or_default(),
            adaptive_content: site.adaptive_content.is_some_and(|a| a.enabled),
            agents_context: site.agents_context.clone(),
            default_section: None,
            default_space: None,
            proxy: site
                .proxy
                .as_ref()
                .map(|proxy| proxy.origin.clone())
                .unwrap_or_default(),
        }
    }
}

/// A section and its site spaces, as choices for the defaults.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SectionChoice {
    pub id: String,
    pub title: String,
    pub spaces: Vec<SpaceChoice>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpaceChoice {
    pub id: String,
    pub title: String,
    pub path: String,
}

/// What the published structure offers for the default section and site space.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Choices {
    /// Sections, for a site with sections.
    pub sections: Vec<SectionChoice>,
    /// Site spaces of a site without sections.
    pub spaces: Vec<SpaceChoice>,
    pub default_section: Option<String>,
    pub default_space: Option<String>,
}

impl Choices {
    pub fn from_published(published: &PublishedSite) -> Choices {
        let mut choices = Choices::default();
        for item in &published.structure.structure {
            choices.collect(item, 0);
        }
        choices
    }

    fn collect(&mut self, item: &SiteStructureItem, depth: usize) {
        if depth > 32 {
            return;
        }
        match item {
            SiteStructureItem::Section(section) => self.add_section(section),
            SiteStructureItem::Group(group) => {
                for child in &group.children {
                    self.collect(child, depth + 1);
                }
                if group.children.is_empty() {
                    for section in &group.sections {
                        self.add_section(section);
                    }
                }
            }
            SiteStructureItem::Space(space) => {
                if space.default == Some(true) {
                    self.default_space = Some(space.id.clone());
                }
                self.spaces.push(space_choice(space));
            }
            SiteStructureItem::ExternalLink(_) | SiteStructureItem::Other(_) => {}
        }
    }

    fn add_section(&mut self, section: &SiteSection) {
        if self.sections.iter().any(|known| known.id == section.id) {
            return;
        }
        if section.default == Some(true) {
            self.default_section = Some(section.id.clone());
            if let Some(space) = section
                .site_spaces
                .iter()
                .find(|space| space.default == Some(true))
            {
                self.default_space = Some(space.id.clone());
            }
        }
        self.sections.push(SectionChoice {
            id: section.id.clone(),
            title: section.title.clone(),
            spaces: section.site_spaces.iter().map(space_choice).collect(),
        });
    }

    pub fn has_sections(&self) -> bool {
        !self.sections.is_empty()
    }

    /// The site spaces one may make default: those of `section` on a site with sections.
    pub fn spaces_in(&self, section: Option<&str>) -> Vec<SpaceChoice> {
        if !self.has_sections() {
            return self.spaces.clone();
        }
        self.sections
            .iter()
            .find(|candidate| Some(candidate.id.as_str()) == section)
            .map(|found| found.spaces.clone())
            .unwrap_or_default()
    }

    pub fn section_title(&self, id: &str) -> Option<&str> {
        self.sections
            .iter()
            .find(|section| section.id == id)
            .map(|section| section.title.as_str())
    }

    pub fn space_title(&self, id: &str) -> Option<String> {
        self.sections
            .iter()
            .flat_map(|section| section.spaces.iter())
            .chain(self.spaces.iter())
            .find(|space| space.id == id)
            .map(|space| format!("{} /{}", space.title, space.path))
    }
}

fn space_choice(space: &SiteSpace) -> SpaceChoice {
    let title = if space.title.is_empty() {
        space
            .space
            .as_ref()
            .map(|inner| inner.title.clone())
            .unwrap_or_default()
    } else {
        space.title.clone()
    };
    SpaceChoice {
        id: space.id.clone(),
        title,
        path: space.path.clone().unwrap_or_default(),
    }
}

/// The site's settings as a [`Form`], with what the published structure offers for the
/// defaults.
#[derive(Debug, Clone)]
pub struct SettingsForm {
    pub form: Form<Field>,
    /// None until the published structure arrived.
    pub choices: Option<Choices>,
}

/// The form's cursor, typing, checks and changes are used through the settings form as they are.
impl Deref for SettingsForm {
    type Target = Form<Field>;

    fn deref(&self) -> &Form<Field> {
        &self.form
    }
}

impl DerefMut for SettingsForm {
    fn deref_mut(&mut self) -> &mut Form<Field> {
        &mut self.form
    }
}

impl SettingsForm {
    pub fn new(site: &Site) -> SettingsForm {
        let mut form = SettingsForm {
            form: Form::new(Values::from_site(site)),
            choices: None,
        };
        form.show_fields();
        form
    }

    /// Takes a fresh site from the server as the new starting point (after a save).
    pub fn reset(&mut self, site: &Site) {
        let mut values = Values::from_site(site);
        if let Some(choices) = &self.choices {
            values.default_section = choices.default_section.clone();
            values.default_space = choices.default_space.clone();
        }
        self.form.load(values);
        self.show_fields();
    }

    /// The published structure arrived: the defaults become known. Edited defaults stay.
    pub fn set_choices(&mut self, choices: Choices) {
        if self.values.default_section == self.original.default_section {
            self.values.default_section = choices.default_section.clone();
        }
        if self.values.default_space == self.original.default_space {
            self.values.default_space = choices.default_space.clone();
        }
        self.original.default_section = choices.default_section.clone();
        self.original.default_space = choices.default_space.clone();
        self.choices = Some(choices);
        self.show_fields();
    }

    /// The fields shown, in order. Agents context only when the server reported it; the
    /// default section only on a site with sections.
    fn show_fields(&mut self) {
        let mut fields = vec![
            Field::Title,
            Field::Visibility,
            Field::Basename,
            Field::AdaptiveContent,
        ];
        if self.original.agents_context.is_some() {
            fields.push(Field::AgentsContext);
        }
        if self.choices.as_ref().is_some_and(Choices::has_sections) {
            fields.push(Field::DefaultSection);
        }
        fields.push(Field::DefaultSpace);
        fields.push(Field::Proxy);
        self.form.show(fields);
    }

    /// The PATCH: only the fields that differ from what the server has.
    pub fn update(&self) -> SiteUpdate {
        let changed = |field| self.is_changed(field);
        let values = &self.values;
        SiteUpdate {
            title: changed(Field::Title).then(|| values.title.clone()),
            visibility: values
                .visibility
                .clone()
                .filter(|_| changed(Field::Visibility)),
            basename: changed(Field::Basename).then(|| values.basename.clone()),
            adaptive_content: changed(Field::AdaptiveContent).then_some(AdaptiveContent {
                enabled: values.adaptive_content,
            }),
            agents_context: values
                .agents_context
                .clone()
                .filter(|_| changed(Field::AgentsContext)),
            default_level: None,
            default_site_space: values
                .default_space
                .clone()
                .filter(|_| changed(Field::DefaultSpace)),
            default_site_section: values
                .default_section
                .clone()
                .filter(|_| changed(Field::DefaultSection)),
            proxy: changed(Field::Proxy).then(|| {
                let origin = values.proxy.trim();
                (!origin.is_empty()).then(|| origin.to_string())
            }),
        }
    }

    /// Flips an on/off field.
    pub fn toggle(&mut self, field: Field) {
        match field {
            Field::AdaptiveContent => {
                self.values.adaptive_content = !self.values.adaptive_content;
            }
            Field::AgentsContext => {
                self.values.agents_context = Some(match self.values.agents_context {
                    Some(AgentsContext::Included) => AgentsContext::Excluded,
                    _ => AgentsContext::Included,
                });
            }
            _ => {}
        }
    }

    /// The server refused the save: keep its message, beside the field it names.
    pub fn refused(&mut self, message: &str) {
        self.form.place_server_error(message, Naming::QuotedOrPath);
    }
}

/// The service's slug rule for a basename: lowercase ASCII letters, digits, `-` and `/`.
pub fn is_basename(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '/')
}

/// `[\w-]` of the seed's proxy pattern (ASCII).
fn is_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The seed's proxy pattern `^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$`, checked by hand:
/// dotted host labels ending in a letters-only label of two or more, then `/segment`s.
pub fn is_proxy_origin(origin: &str) -> bool {
    let Some((host, path)) = origin.split_once('/') else {
        return false;
    };
    let labels: Vec<&str> = host.split('.').collect();
    let top_level = labels.last().copied().unwrap_or_default();
    labels.len() >= 2
        && labels.iter().all(|label| is_word(label))
        && top_level.len() >= 2
        && top_level.chars().all(|c| c.is_ascii_alphabetic())
        && path.split('/').all(is_word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_pattern_by_hand() {
        for good in [
            "example.com/docs",
            "a_b.c-d.io/x_y/z",
            "docs.acme.example/portal",
        ] {
            assert!(is_proxy_origin(good), "{good}");
        }
        for bad in [
            "example.com",
            "example.com/",
            "example.com/docs/",
            "example/docs",
            "example.c/docs",
            "example.c0m/docs",
            "https://example.com/docs",
            "exa mple.com/docs",
            ".example.com/docs",
            "example.com//docs",
            "",
        ] {
            assert!(!is_proxy_origin(bad), "{bad}");
        }
    }
}
