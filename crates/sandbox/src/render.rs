//! Turns the sandbox's records into the JSON the contract describes,
//! with `permissions` computed from the caller's role in the owning organization.

use serde_json::{Map, Value, json};

use super::model::{
    Collection, File, Membership, MergeRules, Organization, Page, PageKind, Role, Space, User,
};
use super::world::World;

/// Where the web app of the (pretend) service lives; `urls.app` addresses point here.
pub(crate) const APP_URL: &str = "https://app.docs.example";

/// What a rendering needs to know besides the record: the API's own address (for
/// `urls.location`) and who is asking (for `permissions`).
pub(crate) struct View<'a> {
    pub world: &'a World,
    /// The API root including `/v1`, e.g. `http://127.0.0.1:4000/v1`.
    pub api_url: &'a str,
    pub caller: &'a str,
}

impl View<'_> {
    /// The caller's role in an organization; non-members are treated as readers.
    fn role(&self, organization: &str) -> Role {
        self.world
            .role_in(organization, self.caller)
            .unwrap_or(Role::Read)
    }

    /// The caller's role on content inside `collection`: a role given on the collection (or
    /// one above it) counts before the organization role.
    fn content_role(&self, organization: &str, collection: Option<&str>) -> Role {
        super::collections::content_role(self.world, organization, self.caller, collection)
            .unwrap_or(Role::Read)
    }

    pub(crate) fn user(&self, user: &User) -> Value {
        let mut object = json!({
            "object": "user",
            "id": user.id,
            "displayName": user.display_name,
            "email": user.email,
            "urls": { "location": format!("{}/users/{}", self.api_url, user.id) },
        });
        insert_optional(&mut object, "photoURL", user.photo_url.as_deref());
        object
    }

    pub(crate) fn organization(&self, organization: &Organization) -> Value {
        let role = self.role(&organization.id);
        let admin = role == Role::Admin;
        let pricing = json!({
            "members": {
                "plus_2024": { "monthly": 10, "yearly": 8 },
                "pro_2024": { "monthly": 15, "yearly": 12 },
            },
            "sites": {
                "premium": { "monthly": 65, "yearly": 52 },
                "ultimate": { "monthly": 249, "yearly": 199 },
            },
        });
        let mut object = json!({
            "object": "organization",
            "id": organization.id,
            "title": organization.title,
            "createdAt": organization.created_at,
            "emailDomains": organization.email_domains,
            "hostname": organization.hostname,
            "type": organization.organization_type,
            "useCase": organization.use_case,
            "defaultRole": organization.default_role.map(Role::as_str),
            "sso": organization.sso,
            "ai": organization.ai,
            "inviteLinks": organization.invite_links,
            "plan": organization.plan,
            "billing": {
                "interval": organization.billing_interval,
                "endDate": null,
                "hasPaymentFailed": false,
                "isScheduledToCancel": false,
                "pricing": pricing,
                "usageAddons": { "ai_credits": { "enabled": organization.ai } },
            },
            "mergeRules": { "type": "rules", "rules": [] },
            "urls": {
                "location": format!("{}/orgs/{}", self.api_url, organization.id),
                "app": format!("{APP_URL}/o/{}/", organization.id),
            },
            "trial": { "status": organization.trial_status, "count": 0 },
            "internal_isOnNewTrial": true,
            "permissions": {
                "view": true,
                "admin": admin,
                "ownTeam": role >= Role::Create,
                "createContent": role >= Role::Create,
                "createOpenAPISpec": role >= Role::Create,
                "ingestConversations": admin,
                "viewBilling": admin,
                "listMembers": true,
                "listTeams": true,
                "listIntegrations": true,
                "listInstallations": admin,
                "installIntegration": admin,
            },
        });
        insert_optional(&mut object, "communityType", organization.community_type);
        if let Some(logo) = &organization.logo {
            object["urls"]["logo"] = json!(logo);
        }
        self.world
            .org_settings
            .decorate(&organization.id, &mut object);
        object
    }

    pub(crate) fn member(&self, membership: &Membership) -> Value {
        let user = match self.world.user(&membership.user) {
            Some(user) => self.user(user),
            None => json!({ "object": "user", "id": membership.user, "displayName": "" }),
        };
        let mut object = json!({
            "object": "member",
            "id": membership.user,
            "role": membership.role.map(Role::as_str),
            "user": user,
            "disabled": membership.disabled,
            "joinedAt": membership.joined_at,
            "sso": membership.sso,
            "spaces": membership.spaces,
            "teams": membership.teams,
            "sites": 0,
        });
        insert_optional(
            &mut object,
            "lastSeenAt",
            membership.last_seen_at.as_deref(),
        );
        object
    }

    pub(crate) fn collection(&self, collection: &Collection) -> Value {
        let role = self.content_role(&collection.organization, Some(&collection.id));
        let mut object = json!({
            "object": "collection",
            "id": collection.id,
            "title": collection.title,
            "organization": collection.organization,
            "defaultLevel": collection.default_level.map(Role::as_str),
            "urls": {
                "location": format!("{}/collections/{}", self.api_url, collection.id),
                "app": format!("{APP_URL}/o/{}/c/{}/", collection.organization, collection.id),
            },
            "permissions": {
                "view": true,
                "admin": role == Role::Admin,
                "viewInviteLinks": role == Role::Admin,
                "create": role >= Role::Create,
            },
        });
        insert_optional(
            &mut object,
            "description",
            collection.description.as_deref(),
        );
        insert_optional(&mut object, "parent", collection.parent.as_deref());
        object
    }

    pub(crate) fn space(&self, space: &Space) -> Value {
        let role = self.content_role(&space.organization, space.parent.as_deref());
        let admin = role == Role::Admin;
        let editable = space.edit_mode == "live" || admin;
        let app = format!("{APP_URL}/o/{}/s/{}/", space.organization, space.id);
        let mut urls = json!({
            "location": format!("{}/spaces/{}", self.api_url, space.id),
            "app": app,
        });
        if let Some(published) = &space.published_url {
            urls["published"] = json!(published);
            if matches!(space.visibility, "public" | "unlisted") {
                urls["public"] = json!(published);
            }
        }
        let mut object = json!({
            "object": "space",
            "id": space.id,
            "title": space.title,
            "emoji": space.emoji,
            "visibility": space.visibility,
            "createdAt": space.created_at,
            "updatedAt": space.updated_at,
            "editMode": space.edit_mode,
            "mergeRules": merge_rules(&space.merge_rules),
            "urls": urls,
            "organization": space.organization,
            "language": space.language,
            "revision": space.revision.id,
            "defaultLevel": space.default_level.map(Role::as_str),
            "comments": space.comments,
            "changeRequests": space.change_requests,
            "changeRequestsOpen": space.change_requests_open,
            "changeRequestsDraft": space.change_requests_draft,
            "permissions": {
                "view": true,
                "access": true,
                "admin": admin,
                "viewInviteLinks": admin,
                "edit": role >= Role::Edit && editable,
                "triggerGitSync": admin,
                "comment": role >= Role::Comment,
                "merge": role.may_merge(),
                "review": role >= Role::Review,
                "installIntegration": admin,
            },
        });
        insert_optional(&mut object, "parent", space.parent.as_deref());
        if let Some(git) = self.world.git.info(&space.id) {
            object["gitSync"] = git;
        }
        insert_optional(&mut object, "deletedAt", space.deleted_at.as_deref());
        if space.visibility == "visitor-auth" {
            object["visitorAuth"] = json!({ "backend": "custom" });
        }
        object
    }

    /// The whole current revision, page tree without page bodies.
    pub(crate) fn revision(&self, space: &Space) -> Value {
        let revision = &space.revision;
        let app = format!("{APP_URL}/o/{}/s/{}/", space.organization, space.id);
        let mut urls = json!({ "app": app });
        if let Some(published) = &space.published_url {
            urls["published"] = json!(published);
        }
        let mut object = json!({
            "object": "revision",
            "id": revision.id,
            "parents": revision.parents,
            "pages": self.page_tree(space, &revision.pages),
            "files": revision.files.iter().map(|file| self.file(space, file)).collect::<Vec<_>>(),
            "reusableContents": [],
            "tags": [],
            "variables": revision.variables,
            "createdAt": revision.created_at,
            "urls": urls,
            "type": "edits",
        });
        if let (Some(repository), Some(message)) = (&space.git_repository, &revision.git_message) {
            object["git"] = json!({
                "oid": pseudo_oid(&revision.id),
                "message": message,
                "createdByService": false,
                "url": format!("https://github.com/{repository}/commit/{}", pseudo_oid(&revision.id)),
                "ref": self.world.git.current_ref(&space.id),
            });
        }
        object
    }

    pub(crate) fn page_tree(&self, space: &Space, pages: &[Page]) -> Vec<Value> {
        pages.iter().map(|page| self.page(space, page)).collect()
    }

    /// A page as it appears in trees: metadata and children, no body.
    pub(crate) fn page(&self, space: &Space, page: &Page) -> Value {
        let mut object = json!({
            "id": page.id,
            "title": page.title,
            "createdAt": page.created_at,
            "updatedAt": page.updated_at,
        });
        insert_optional(&mut object, "emoji", page.emoji.as_deref());
        if page.hidden {
            object["hidden"] = json!(true);
        }
        match &page.kind {
            PageKind::Document { .. } => {
                object["kind"] = json!("sheet");
                object["type"] = json!("document");
                object["slug"] = json!(page.slug);
                object["path"] = json!(page.path);
                object["urls"] = json!({ "app": page_app_url(space, page) });
                object["layout"] = default_layout();
                object["tags"] = json!([]);
                object["noIndex"] = json!(false);
                object["noRobotsIndex"] = json!(false);
                insert_optional(&mut object, "description", page.description.as_deref());
                if space.git_repository.is_some() {
                    object["git"] = json!({
                        "oid": pseudo_oid(&page.id),
                        "path": format!("{}.md", page.path),
                    });
                }
                object["pages"] = json!(self.page_tree(space, &page.children));
            }
            PageKind::Group => {
                object["kind"] = json!("group");
                object["type"] = json!("group");
                object["slug"] = json!(page.slug);
                object["path"] = json!(page.path);
                object["pages"] = json!(self.page_tree(space, &page.children));
            }
            PageKind::Link { url } => {
                object["kind"] = json!("link");
                object["type"] = json!("link");
                object["target"] = json!({ "kind": "url", "url": url });
                object["href"] = json!(url);
            }
        }
        object
    }

    /// A page with its body: `markdown` when asked for markdown, otherwise a `document`.
    pub(crate) fn page_with_body(
        &self,
        space: &Space,
        page: &Page,
        markdown_format: bool,
    ) -> Value {
        let mut object = self.page(space, page);
        if let PageKind::Document { markdown } = &page.kind {
            if markdown_format {
                object["markdown"] = json!(markdown);
            } else {
                object["document"] = markdown_to_document(markdown);
            }
        }
        object
    }

    pub(crate) fn file(&self, space: &Space, file: &File) -> Value {
        let mut object = json!({
            "id": file.id,
            "name": file.name,
            "contentType": file.content_type,
            "downloadURL": file_address(&space.id, file),
            "size": file.size,
        });
        if let Some((width, height)) = file.dimensions {
            object["dimensions"] = json!({ "width": width, "height": height });
        }
        object
    }

    /// A space search hit: the page plus the sections whose text matched.
    pub(crate) fn search_hit(
        &self,
        space: &Space,
        page: &Page,
        ancestors: &[&str],
        sections: Vec<(String, String)>,
        rank: usize,
    ) -> Value {
        let app = page_app_url(space, page);
        let sections: Vec<Value> = sections
            .into_iter()
            .map(|(title, body)| {
                let anchor = slugify(&title);
                json!({
                    "id": format!("{}#{}", page.id, anchor),
                    "title": title,
                    "path": format!("{}#{}", page.path, anchor),
                    "body": body,
                    "score": 1.0,
                    "resultType": "section",
                    "urls": { "app": format!("{app}#{anchor}") },
                })
            })
            .collect();
        json!({
            "id": page.id,
            "title": page.title,
            "path": page.path,
            "description": page.description.clone().unwrap_or_default(),
            "score": 1.0 / rank as f64,
            "rank": rank,
            "resultType": "page",
            "sections": sections,
            "ancestors": ancestors.iter().map(|title| json!({ "title": title })).collect::<Vec<_>>(),
            "urls": { "app": app },
        })
    }
}

/// A space's `mergeRules` as the seed writes them.
pub(crate) fn merge_rules(rules: &MergeRules) -> Value {
    match rules {
        MergeRules::Inherit => json!({ "type": "inherit" }),
        MergeRules::SpecificReviewers(users) => json!({
            "type": "rules",
            "rules": [{ "rule": "require_specific_reviewers", "users": users }],
        }),
    }
}

fn insert_optional(object: &mut Value, key: &str, value: Option<&str>) {
    if let (Some(value), Some(map)) = (value, object.as_object_mut()) {
        map.insert(key.to_string(), json!(value));
    }
}

fn page_app_url(space: &Space, page: &Page) -> String {
    format!(
        "{APP_URL}/o/{}/s/{}/{}",
        space.organization, space.id, page.path
    )
}

fn default_layout() -> Value {
    json!({
        "width": "default",
        "cover": false,
        "coverSize": "hero",
        "coverMask": "none",
        "title": true,
        "description": true,
        "tableOfContents": true,
        "outline": true,
        "pagination": true,
        "metadata": true,
        "tags": false,
        "actions": true,
        "anchors": true,
    })
}

/// A stable 40-hex-digit stand-in for a git object id, derived from an id.
fn pseudo_oid(seed: &str) -> String {
    let mut state: u64 = 0xcbf2_9ce4_8422_2325;
    let mut oid = String::with_capacity(40);
    while oid.len() < 40 {
        for byte in seed.bytes() {
            state ^= u64::from(byte);
            state = state.wrapping_mul(0x0100_0000_01b3);
        }
        oid.push_str(&format!("{state:016x}"));
    }
    oid.truncate(40);
    oid
}

/// Lower-case, dash-separated anchor text as documentation sites make from headings.
/// Where a space's file is downloaded from: what its `downloadURL` says, and what a page's
/// image of it links to (the links report reads the file's id back from it).
pub(crate) fn file_address(space: &str, file: &File) -> String {
    format!("{FILES_URL}/{space}/{}/{}", file.id, file.name)
}

/// The host of the files' addresses.
pub(crate) const FILES_URL: &str = "https://files.docs.example";

pub(crate) fn slugify(text: &str) -> String {
    let mut slug = String::new();
    for character in text.chars().flat_map(char::to_lowercase) {
        if character.is_alphanumeric() {
            slug.push(character);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_string()
}

/// A rough rich-text document for `format=document`: one block per markdown block (headings,
/// code, paragraphs), each holding its text in a single leaf. Good enough for a client that
/// only needs to recognise the shape.
pub(crate) fn markdown_to_document(markdown: &str) -> Value {
    let mut nodes = Vec::new();
    let mut in_code = false;
    let mut code = String::new();
    let mut paragraph = String::new();
    let flush = |nodes: &mut Vec<Value>, paragraph: &mut String| {
        if !paragraph.trim().is_empty() {
            let mut node = block(nodes.len(), "paragraph", paragraph.trim());
            if let Some(data) = table_data(paragraph) {
                node["type"] = json!("table");
                node["data"] = data;
            }
            nodes.push(node);
        }
        paragraph.clear();
    };
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            if in_code {
                nodes.push(block(nodes.len(), "code", code.trim_end()));
                code.clear();
            } else {
                flush(&mut nodes, &mut paragraph);
            }
            in_code = !in_code;
        } else if in_code {
            code.push_str(line);
            code.push('\n');
        } else if let Some(level) = heading_level(line) {
            flush(&mut nodes, &mut paragraph);
            let text = line.trim_start_matches('#').trim();
            nodes.push(block(nodes.len(), &format!("heading-{level}"), text));
        } else if line.trim().is_empty() {
            flush(&mut nodes, &mut paragraph);
        } else {
            paragraph.push_str(line);
            paragraph.push('\n');
        }
    }
    if in_code {
        nodes.push(block(nodes.len(), "code", code.trim_end()));
    }
    flush(&mut nodes, &mut paragraph);
    json!({ "object": "document", "data": { "schemaVersion": 1 }, "nodes": nodes })
}

/// The cells of a markdown table's row: `| a | b |` → `["a", "b"]`.
fn table_cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner
        .split('|')
        .map(|cell| cell.trim().to_string())
        .collect()
}

/// A markdown table's block data, as the document format names a table's parts: its columns
/// (`definition`, by id, with their titles, in `view.columns` order) and its rows (`records`,
/// by id, each with its `orderIndex` and its values by column). `None` for a block that is
/// no table (every line a `|` row, the second the header's rule).
fn table_data(block: &str) -> Option<Value> {
    let lines: Vec<&str> = block.lines().map(str::trim).collect();
    let is_rule = |line: &str| {
        line.chars()
            .all(|character| matches!(character, '|' | '-' | ':' | ' '))
    };
    let table =
        lines.len() >= 2 && lines.iter().all(|line| line.starts_with('|')) && is_rule(lines[1]);
    if !table {
        return None;
    }
    let header = table_cells(lines[0]);
    let column = |index: usize| format!("col-{index}");
    let definition: Map<String, Value> = header
        .iter()
        .enumerate()
        .map(|(index, title)| (column(index), json!({ "title": title, "type": "text" })))
        .collect();
    let records: Map<String, Value> = lines[2..]
        .iter()
        .enumerate()
        .map(|(row, line)| {
            let values: Map<String, Value> = table_cells(line)
                .into_iter()
                .enumerate()
                .map(|(index, text)| (column(index), json!(text)))
                .collect();
            (
                format!("row-{row}"),
                json!({ "orderIndex": format!("{row:06}"), "values": values }),
            )
        })
        .collect();
    let columns: Vec<String> = (0..header.len()).map(column).collect();
    Some(json!({
        "view": { "type": "grid", "columns": columns },
        "definition": definition,
        "records": records,
    }))
}

/// Whether the table block `node` of `document` has the row `record` and the column
/// `definition`.
pub(crate) fn table_has_cell(document: &Value, node: &str, record: &str, definition: &str) -> bool {
    document["nodes"].as_array().is_some_and(|nodes| {
        nodes.iter().any(|block| {
            block["key"] == node
                && block["type"] == "table"
                && block["data"]["records"].get(record).is_some()
                && block["data"]["definition"].get(definition).is_some()
        })
    })
}

fn heading_level(line: &str) -> Option<usize> {
    let level = line
        .chars()
        .take_while(|character| *character == '#')
        .count();
    let rest = &line[level..];
    ((1..=6).contains(&level) && rest.starts_with(' ')).then_some(level.min(3))
}

fn block(index: usize, kind: &str, text: &str) -> Value {
    let mut data = Map::new();
    if kind == "paragraph" {
        data.insert("align".to_string(), json!("start"));
    }
    json!({
        "object": "block",
        "type": kind,
        "key": format!("block-{index}"),
        "isVoid": false,
        "data": data,
        "nodes": [{
            "object": "text",
            "leaves": [{ "object": "leaf", "text": text, "marks": [] }],
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(
            slugify("Install on Linux (x86_64)"),
            "install-on-linux-x86-64"
        );
        assert_eq!(slugify("  --  "), "");
    }

    #[test]
    fn document_blocks() {
        let document =
            markdown_to_document("# Title\n\nSome text\nmore\n\n```rust\nfn main() {}\n```\n");
        let kinds: Vec<&str> = document["nodes"]
            .as_array()
            .map(|nodes| {
                nodes
                    .iter()
                    .filter_map(|node| node["type"].as_str())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(kinds, ["heading-1", "paragraph", "code"]);
    }

    #[test]
    fn oid_is_forty_hex_digits() {
        let oid = pseudo_oid("page");
        assert_eq!(oid.len(), 40);
        assert!(oid.chars().all(|character| character.is_ascii_hexdigit()));
    }
}
