//! The config file's keys for the Home view and `quire status`: `[[sections]]`, `notify` and
//! `watch_unfocused_interval_secs`. They are checked when the file is read, so a mistake is
//! one line naming the section and the key (`sections[2].status: "opn" is not one of …`),
//! before anything starts.

use crate::notification::NotifyStyle;
use toml::{Table, Value};

use super::ConfigFile;
use crate::api::home::{DEFAULT_SECTION_LIMIT, Person, ReviewState, SectionQuery};
use crate::api::{ChangeRequestOrderBy, ChangeRequestStatus, MAX_PAGE_LIMIT};

/// The keys a `[[sections]]` table may hold.
const SECTION_KEYS: &[&str] = &[
    "title",
    "organizations",
    "spaces",
    "status",
    "creator",
    "requested_reviewer",
    "contributor",
    "limit",
    "order",
    "review",
    "mergeable",
    "watching",
];

/// The most seconds an interval may be: a day.
const MAX_INTERVAL_SECS: u64 = 24 * 60 * 60;

impl ConfigFile {
    /// The Home sections: the file's `[[sections]]`, or the defaults when it has none.
    /// The file was checked when read ([`check`]); a table that still does not fit is skipped.
    pub fn home_sections(&self) -> Vec<SectionQuery> {
        match &self.sections {
            None => crate::api::home::default_sections(),
            Some(tables) => tables
                .iter()
                .enumerate()
                .filter_map(|(index, table)| section(index, table).ok())
                .collect(),
        }
    }

    /// `notify`; None when the file leaves it to quire (it then picks from the terminal).
    pub fn notify(&self) -> Option<NotifyStyle> {
        self.notify.as_deref().and_then(NotifyStyle::parse)
    }
}

/// The Home keys of `file`, or the first mistake in one line.
pub(super) fn check(file: &ConfigFile) -> Result<(), String> {
    for (index, table) in file.sections.iter().flatten().enumerate() {
        section(index, table)?;
    }
    if let Some(notify) = &file.notify
        && NotifyStyle::parse(notify).is_none()
    {
        return Err(format!(
            "notify: {notify:?} is not one of osc9, osc777, bell, off"
        ));
    }
    check_unfocused_interval(file)
}

fn check_unfocused_interval(file: &ConfigFile) -> Result<(), String> {
    let Some(unfocused) = file.watch_unfocused_interval_secs else {
        return Ok(());
    };
    if unfocused > MAX_INTERVAL_SECS {
        return Err(format!(
            "watch_unfocused_interval_secs: {unfocused} is more than a day ({MAX_INTERVAL_SECS})"
        ));
    }
    match file.watch_interval_secs {
        Some(focused) if unfocused != 0 && focused != 0 && unfocused < focused => Err(format!(
            "watch_unfocused_interval_secs: {unfocused} is shorter than watch_interval_secs \
             ({focused}); unfocused watching is the slower one"
        )),
        _ => Ok(()),
    }
}

/// One `[[sections]]` table as a query, or what is wrong with it.
fn section(index: usize, table: &Table) -> Result<SectionQuery, String> {
    let fields = Fields { index, table };
    if let Some(unknown) = table
        .keys()
        .find(|key| !SECTION_KEYS.contains(&key.as_str()))
    {
        return Err(format!(
            "sections[{index}]: unknown key {unknown:?}; a section takes {}",
            SECTION_KEYS.join(", ")
        ));
    }
    let title = fields
        .text("title")?
        .filter(|title| !title.trim().is_empty())
        .ok_or_else(|| format!("sections[{index}].title: every section needs a title"))?;
    Ok(SectionQuery {
        title,
        organizations: fields.names("organizations")?,
        spaces: fields.names("spaces")?,
        statuses: fields.statuses()?,
        creator: fields.person("creator")?,
        requested_reviewer: fields.person("requested_reviewer")?,
        contributor: fields.person("contributor")?,
        limit: fields.limit()?,
        order_by: fields.order()?,
        review: fields.review()?,
        mergeable: fields.boolean("mergeable")?.unwrap_or(false),
        marked: fields.boolean("watching")?.unwrap_or(false),
    })
}

/// The keys of one section, each read with the section's place for its messages.
struct Fields<'t> {
    index: usize,
    table: &'t Table,
}

impl Fields<'_> {
    fn at(&self, key: &str) -> String {
        format!("sections[{}].{key}", self.index)
    }

    fn text(&self, key: &str) -> Result<Option<String>, String> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(other) => Err(format!(
                "{}: {} is not a string",
                self.at(key),
                shown(other)
            )),
        }
    }

    /// A string or a list of strings (ids or titles), none empty.
    fn names(&self, key: &str) -> Result<Vec<String>, String> {
        let names = match self.table.get(key) {
            None => return Ok(Vec::new()),
            Some(Value::String(one)) => vec![one.clone()],
            Some(Value::Array(many)) => many
                .iter()
                .map(|value| match value {
                    Value::String(name) => Ok(name.clone()),
                    other => Err(format!(
                        "{}: {} is not a string (an id or a title)",
                        self.at(key),
                        shown(other)
                    )),
                })
                .collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(format!(
                    "{}: {} is not a list of ids or titles",
                    self.at(key),
                    shown(other)
                ));
            }
        };
        if names.iter().any(|name| name.trim().is_empty()) {
            return Err(format!("{}: an empty name", self.at(key)));
        }
        Ok(names
            .into_iter()
            .map(|name| name.trim().to_owned())
            .collect())
    }

    fn statuses(&self) -> Result<Vec<ChangeRequestStatus>, String> {
        use ChangeRequestStatus::{Archived, Draft, Merged, Open};
        let Some(status) = self.text("status")? else {
            return Ok(vec![Open]);
        };
        match status.as_str() {
            "open" => Ok(vec![Open]),
            "draft" => Ok(vec![Draft]),
            "merged" => Ok(vec![Merged]),
            "archived" => Ok(vec![Archived]),
            "all" => Ok(vec![Open, Draft, Merged, Archived]),
            other => Err(format!(
                "{}: {other:?} is not one of open, draft, merged, archived, all",
                self.at("status")
            )),
        }
    }

    fn person(&self, key: &str) -> Result<Option<Person>, String> {
        match self.text(key)? {
            None => Ok(None),
            Some(text) => Person::parse(&text)
                .map(Some)
                .ok_or_else(|| format!("{}: empty; give a user id or @me", self.at(key))),
        }
    }

    fn limit(&self) -> Result<u32, String> {
        match self.table.get("limit") {
            None => Ok(DEFAULT_SECTION_LIMIT),
            Some(Value::Integer(limit)) => u32::try_from(*limit)
                .ok()
                .filter(|limit| (1..=MAX_PAGE_LIMIT).contains(limit))
                .ok_or_else(|| {
                    format!(
                        "{}: {limit} is not between 1 and {MAX_PAGE_LIMIT}",
                        self.at("limit")
                    )
                }),
            Some(other) => Err(format!(
                "{}: {} is not a number",
                self.at("limit"),
                shown(other)
            )),
        }
    }

    fn order(&self) -> Result<ChangeRequestOrderBy, String> {
        match self.text("order")?.as_deref() {
            None | Some("updated" | "updatedAt") => Ok(ChangeRequestOrderBy::UpdatedAt),
            Some("created" | "createdAt") => Ok(ChangeRequestOrderBy::CreatedAt),
            Some(other) => Err(format!(
                "{}: {other:?} is not one of updated, created",
                self.at("order")
            )),
        }
    }

    fn review(&self) -> Result<Option<ReviewState>, String> {
        match self.text("review")? {
            None => Ok(None),
            Some(text) => ReviewState::parse(&text).map(Some).ok_or_else(|| {
                format!(
                    "{}: {text:?} is not one of approved, changes-requested, pending",
                    self.at("review")
                )
            }),
        }
    }

    fn boolean(&self, key: &str) -> Result<Option<bool>, String> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Boolean(value)) => Ok(Some(*value)),
            Some(other) => Err(format!(
                "{}: {} is not true or false",
                self.at(key),
                shown(other)
            )),
        }
    }
}

/// A TOML value as the file spells it, for a message.
fn shown(value: &Value) -> String {
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<ConfigFile, String> {
        let file: ConfigFile = toml::from_str(text).map_err(|error| error.to_string())?;
        check(&file)?;
        Ok(file)
    }

    #[test]
    fn no_sections_are_the_five_defaults() {
        let titles: Vec<String> = ConfigFile::default()
            .home_sections()
            .into_iter()
            .map(|section| section.title)
            .collect();
        assert_eq!(
            titles,
            [
                "Review requested from me",
                "Mine, open",
                "Ready to merge",
                "Recently merged",
                "Watching"
            ]
        );
    }

    #[test]
    fn a_section_reads_every_key() {
        let file = read(
            r#"
            [[sections]]
            title = "Docs team"
            organizations = ["Acme Robotics"]
            spaces = "spc-getting-started"
            status = "all"
            creator = "usr-1"
            requested_reviewer = "@me"
            contributor = "@me"
            limit = 5
            order = "created"
            review = "approved"
            mergeable = true
            "#,
        )
        .unwrap();
        let sections = file.home_sections();
        let docs = &sections[0];
        assert_eq!(docs.title, "Docs team");
        assert_eq!(docs.organizations, ["Acme Robotics"]);
        assert_eq!(docs.spaces, ["spc-getting-started"]);
        assert_eq!(docs.statuses.len(), 4);
        assert_eq!(docs.creator, Some(Person::User("usr-1".into())));
        assert_eq!(docs.requested_reviewer, Some(Person::Me));
        assert_eq!(docs.limit, 5);
        assert_eq!(docs.order_by, ChangeRequestOrderBy::CreatedAt);
        assert_eq!(docs.review, Some(ReviewState::Approved));
        assert!(docs.mergeable);
        let minimal = read("[[sections]]\ntitle = \"Open\"\n").unwrap();
        let open = &minimal.home_sections()[0];
        assert_eq!(open.statuses, [ChangeRequestStatus::Open]);
        assert_eq!(open.limit, DEFAULT_SECTION_LIMIT);
        assert_eq!(open.order_by, ChangeRequestOrderBy::UpdatedAt);
    }

    #[test]
    fn a_bad_section_is_one_line_naming_the_section_and_the_key() {
        let cases = [
            (
                "[[sections]]\ntitle = \"a\"\n[[sections]]\ntitle = \"b\"\n[[sections]]\ntitle = \"c\"\nstatus = \"opn\"",
                r#"sections[2].status: "opn" is not one of open, draft, merged, archived, all"#,
            ),
            (
                "[[sections]]\nstatus = \"open\"",
                "sections[0].title: every section needs a title",
            ),
            (
                "[[sections]]\ntitle = \"a\"\nlimit = 0",
                "sections[0].limit: 0 is not between 1 and 1000",
            ),
            (
                "[[sections]]\ntitle = \"a\"\norder = \"title\"",
                r#"sections[0].order: "title" is not one of updated, created"#,
            ),
            (
                "[[sections]]\ntitle = \"a\"\ncreator = \"\"",
                "sections[0].creator: empty; give a user id or @me",
            ),
            (
                "[[sections]]\ntitle = \"a\"\nlimit = \"ten\"",
                r#"sections[0].limit: "ten" is not a number"#,
            ),
            (
                "[[sections]]\ntitle = \"a\"\nreview = \"ok\"",
                r#"sections[0].review: "ok" is not one of approved, changes-requested, pending"#,
            ),
            (
                "notify = \"beep\"",
                r#"notify: "beep" is not one of osc9, osc777, bell, off"#,
            ),
            (
                "watch_interval_secs = 60\nwatch_unfocused_interval_secs = 30",
                "watch_unfocused_interval_secs: 30 is shorter than watch_interval_secs (60); \
                 unfocused watching is the slower one",
            ),
        ];
        for (text, said) in cases {
            let problem = read(text).unwrap_err();
            assert_eq!(problem, said, "{text}");
            assert!(!problem.contains('\n'));
        }
        let unknown = read("[[sections]]\ntitle = \"a\"\ntitel = \"b\"").unwrap_err();
        assert!(
            unknown.starts_with("sections[0]: unknown key \"titel\""),
            "{unknown}"
        );
    }

    #[test]
    fn notify_and_the_unfocused_interval_are_read() {
        let file = read("notify = \"osc777\"\nwatch_unfocused_interval_secs = 600").unwrap();
        assert_eq!(file.notify(), Some(NotifyStyle::Osc777));
        assert_eq!(file.watch_unfocused_interval_secs, Some(600));
        assert_eq!(ConfigFile::default().notify(), None);
        assert!(read("watch_unfocused_interval_secs = 90000").is_err());
        assert!(read("watch_interval_secs = 0\nwatch_unfocused_interval_secs = 5").is_ok());
    }
}
