//! The sandbox's records for published sites: sections, site spaces, section groups, share
//! links and the adaptive-content schema. Like the rest of the sandbox these are its own types,
//! not the client's.
//!
//! The structure of a site is kept flat (each section and group names its parent group) and
//! ordered by a `position` number, so that moving a section between groups is one assignment
//! and can never leave it in two places at once.

use serde_json::Value;

/// Every site of every organization, plus the counter that numbers records made at run time.
#[derive(Clone, Debug, Default)]
pub struct Sites {
    pub sites: Vec<Site>,
    /// Last number handed out by [`Sites::next_number`]; ids and positions both draw from it.
    pub counter: u64,
}

impl Sites {
    /// A number never handed out before, for new ids and for "append at the end" positions.
    pub fn next_number(&mut self) -> u64 {
        self.counter += 1;
        self.counter
    }

    /// The site with this id, only if it belongs to this organization.
    pub fn site(&self, organization: &str, id: &str) -> Option<&Site> {
        self.sites
            .iter()
            .find(|site| site.id == id && site.organization == organization)
    }

    pub fn site_mut(&mut self, organization: &str, id: &str) -> Option<&mut Site> {
        self.sites
            .iter_mut()
            .find(|site| site.id == id && site.organization == organization)
    }
}

#[derive(Clone, Debug)]
pub struct Site {
    pub id: String,
    pub organization: String,
    /// One of the `SiteType` values (`basic`, `premium`, `ultimate`, …).
    pub site_type: String,
    pub title: String,
    /// A custom domain, when the site has one.
    pub hostname: Option<String>,
    pub basename: Option<String>,
    /// The proxy origin (`example.com/docs`), when the site is served behind a proxy.
    pub proxy: Option<String>,
    /// One of `public`, `unlisted`, `share-link`, `visitor-auth`.
    pub visibility: String,
    pub published: bool,
    pub created_at: String,
    pub adaptive_content: bool,
    /// `excluded` or `included`.
    pub agents_context: String,
    /// A role, `inherit`, or `None` for null.
    pub default_level: Option<String>,
    pub sections: Vec<Section>,
    pub site_spaces: Vec<SiteSpace>,
    pub groups: Vec<SectionGroup>,
    pub share_links: Vec<ShareLink>,
    pub adaptive_schema: Option<AdaptiveSchema>,
}

#[derive(Clone, Debug)]
pub struct Section {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub path: String,
    pub icon: Option<String>,
    pub condition: Option<String>,
    /// The group the section sits in; `None` = the root of the site.
    pub group: Option<String>,
    pub default: bool,
    pub position: u64,
}

#[derive(Clone, Debug)]
pub struct SiteSpace {
    pub id: String,
    /// The id of the space (from the world's spaces) this site space publishes.
    pub space: String,
    /// The section holding it; `None` for a site without sections.
    pub section: Option<String>,
    pub path: String,
    pub title: String,
    pub default: bool,
    pub condition: Option<String>,
}

#[derive(Clone, Debug)]
pub struct SectionGroup {
    pub id: String,
    pub title: String,
    pub icon: Option<String>,
    /// The enclosing group; `None` = the root of the site.
    pub parent: Option<String>,
    pub draft: bool,
    pub position: u64,
}

#[derive(Clone, Debug)]
pub struct ShareLink {
    pub id: String,
    pub name: String,
    pub active: bool,
    pub created_at: String,
    /// The secret that goes into the link's published URL.
    pub token: String,
}

#[derive(Clone, Debug)]
pub struct AdaptiveSchema {
    pub json_schema: Value,
    pub updated_at: String,
}

/// One entry of a level of the site structure.
#[derive(Clone, Copy, Debug)]
pub enum Item<'a> {
    Section(&'a Section),
    Group(&'a SectionGroup),
}

impl Item<'_> {
    fn position(&self) -> u64 {
        match self {
            Item::Section(section) => section.position,
            Item::Group(group) => group.position,
        }
    }
}

impl Site {
    pub fn section(&self, id: &str) -> Option<&Section> {
        self.sections.iter().find(|section| section.id == id)
    }

    pub fn group(&self, id: &str) -> Option<&SectionGroup> {
        self.groups.iter().find(|group| group.id == id)
    }

    pub fn site_space(&self, id: &str) -> Option<&SiteSpace> {
        self.site_spaces
            .iter()
            .find(|site_space| site_space.id == id)
    }

    /// The sections and groups directly inside `parent` (`None` = the root), in order.
    pub fn level(&self, parent: Option<&str>) -> Vec<Item<'_>> {
        let mut items: Vec<Item<'_>> = self
            .sections
            .iter()
            .filter(|section| section.group.as_deref() == parent)
            .map(Item::Section)
            .chain(
                self.groups
                    .iter()
                    .filter(|group| group.parent.as_deref() == parent)
                    .map(Item::Group),
            )
            .collect();
        items.sort_by_key(Item::position);
        items
    }

    /// The site spaces of a section (`None` = those at the root of a site without sections).
    pub fn spaces_in(&self, section: Option<&str>) -> impl Iterator<Item = &SiteSpace> {
        self.site_spaces
            .iter()
            .filter(move |site_space| site_space.section.as_deref() == section)
    }

    /// True when `candidate` is `group` itself or lies anywhere inside it.
    pub fn is_within(&self, candidate: &str, group: &str) -> bool {
        let mut current = Some(candidate.to_string());
        // Bounded by the number of groups, so a corrupted chain cannot loop forever.
        for _ in 0..=self.groups.len() {
            match current {
                Some(id) if id == group => return true,
                Some(id) => current = self.group(&id).and_then(|found| found.parent.clone()),
                None => return false,
            }
        }
        false
    }

    /// Puts a section at the end of `group` (`None` = the root), which takes it out of
    /// whatever group held it before.
    pub fn move_section(&mut self, section: &str, group: Option<&str>, position: u64) {
        if let Some(found) = self.sections.iter_mut().find(|found| found.id == section) {
            found.group = group.map(str::to_string);
            found.position = position;
        }
    }

    /// Deletes a group; what it held moves up one level, where the group was. Returns whether
    /// the group existed.
    pub fn remove_group(&mut self, id: &str) -> bool {
        let Some(index) = self.groups.iter().position(|group| group.id == id) else {
            return false;
        };
        let removed = self.groups.remove(index);
        for section in &mut self.sections {
            if section.group.as_deref() == Some(id) {
                section.group = removed.parent.clone();
            }
        }
        for group in &mut self.groups {
            if group.parent.as_deref() == Some(id) {
                group.parent = removed.parent.clone();
            }
        }
        true
    }

    /// Makes one section the site's default (its landing section).
    pub fn set_default_section(&mut self, id: &str) {
        for section in &mut self.sections {
            section.default = section.id == id;
        }
    }

    /// Makes a site space the default of its section (or of the root); when it sits in a
    /// section, that section becomes the site's default too, so the site lands on it.
    pub fn set_default_site_space(&mut self, id: &str) {
        let Some(section) = self.site_space(id).map(|found| found.section.clone()) else {
            return;
        };
        for site_space in &mut self.site_spaces {
            if site_space.section == section {
                site_space.default = site_space.id == id;
            }
        }
        if let Some(section) = section {
            self.set_default_section(&section);
        }
    }
}
