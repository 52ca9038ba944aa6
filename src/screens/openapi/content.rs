//! A spec version's content: its `filesystem` as a tree of folders and files on the left, the
//! selected file's text on the right, highlighted as JSON or YAML (the text goes through the
//! markdown renderer as a fenced code block, which colours code through the highlight worker).
//! `enter` on a file moves the keys to its text (scrolling, `/` search); `esc` goes back to
//! the tree.

use std::sync::Arc;

use ratatui::layout::Rect;

use crate::api::VersionRef;
use crate::api::models::{OpenApiContent, OpenApiVersion, SpecFile};
use crate::screens::ScreenState;
use crate::screens::look::Look;
use crate::screens::step::{Answered, Ctx, Step};
use crate::ui::hit::Canvas;
use crate::ui::keymap::{Action, KeyContext};
use crate::ui::list::Selection;
use crate::ui::reader::Reader;
use crate::ui::tree::{Tree, TreeRows};
use crate::vocabulary::openapi::{OpenApiCall, OpenApiResponse};
use crate::vocabulary::{ApiCall, ApiResponse, Cmd, DocKey, Loadable, RequestId};

/// A node of the file tree: a folder, or a file (an index into `files`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileNode {
    pub name: String,
    pub file: Option<usize>,
}

#[derive(Debug)]
pub struct ContentScreen {
    pub organization: String,
    pub slug: String,
    pub version: OpenApiVersion,
    reference: VersionRef,
    pub content: Loadable<OpenApiContent>,
    pub files: Vec<SpecFile>,
    pub tree: Tree<FileNode>,
    pub rows: TreeRows,
    pub selection: Selection,
    /// The file shown on the right, as an index into `files`.
    pub shown: Option<usize>,
    /// True when the keys go to the file's text rather than the tree.
    pub reading: bool,
    pub reader: Reader,
    /// The version read alone by `r`: "latest" may be a newer one by now.
    version_read: Option<RequestId>,
}

/// The language of the fence a file is shown in, from its name.
pub fn language_of(path: &str) -> &'static str {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".json") {
        "json"
    } else if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        "yaml"
    } else if lower.ends_with(".md") {
        "markdown"
    } else {
        "text"
    }
}

/// The file's text as markdown: one fenced code block, its fence longer than any run of
/// backticks inside, so nothing in the file can end it early.
pub fn as_markdown(path: &str, text: &str) -> String {
    let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run.max(2) + 1);
    let text = text.strip_suffix('\n').unwrap_or(text);
    format!("{fence}{}\n{text}\n{fence}\n", language_of(path))
}

/// Folders and files of `files` (sorted paths) as a tree.
pub fn build_tree(files: &[SpecFile]) -> Tree<FileNode> {
    let mut tree = Tree::default();
    let mut folders: Vec<(String, usize)> = Vec::new();
    for (index, file) in files.iter().enumerate() {
        let parts: Vec<&str> = file.path.split('/').filter(|p| !p.is_empty()).collect();
        let Some((name, parents)) = parts.split_last() else {
            continue;
        };
        let mut parent = None;
        let mut path = String::new();
        for folder in parents {
            path.push_str(folder);
            path.push('/');
            let existing = folders
                .iter()
                .find(|(known, _)| *known == path)
                .map(|(_, node)| *node);
            let node = existing.unwrap_or_else(|| {
                let node = tree.push(
                    FileNode {
                        name: folder.to_string(),
                        file: None,
                    },
                    parent,
                );
                folders.push((path.clone(), node));
                node
            });
            parent = Some(node);
        }
        tree.push(
            FileNode {
                name: name.to_string(),
                file: Some(index),
            },
            parent,
        );
    }
    tree
}

impl ContentScreen {
    pub fn new(
        organization: &str,
        slug: &str,
        version: OpenApiVersion,
        reference: VersionRef,
    ) -> ContentScreen {
        ContentScreen {
            organization: organization.to_string(),
            slug: slug.to_string(),
            version,
            reference,
            content: Loadable::NotAsked,
            files: Vec::new(),
            tree: Tree::default(),
            rows: TreeRows::default(),
            selection: Selection::default(),
            shown: None,
            reading: false,
            reader: Reader::default(),
            version_read: None,
        }
    }

    /// The version itself, read alone, by the same reference as its files.
    fn read_version(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.version_read = Some(request);
        Cmd::Api {
            request,
            call: ApiCall::OpenApi(OpenApiCall::Version {
                organization: self.organization.clone(),
                slug: self.slug.clone(),
                version: self.reference.clone(),
            }),
        }
    }

    fn load(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.content.start(request);
        Cmd::Api {
            request,
            call: ApiCall::OpenApi(OpenApiCall::Content {
                organization: self.organization.clone(),
                slug: self.slug.clone(),
                version: self.reference.clone(),
            }),
        }
    }

    pub fn selected_node(&self) -> Option<&FileNode> {
        let row = self.rows.rows().get(self.selection.selected)?;
        self.tree.item(row.node)
    }

    /// Width of the text pane, for laying the document out.
    pub fn text_width(ctx: &Ctx) -> u16 {
        let (width, _) = crate::ui::layout::body_size(ctx.size.width, ctx.size.height);
        view_split(width).1
    }

    fn doc_key(&self, file: &SpecFile) -> DocKey {
        DocKey {
            space: format!("openapi:{}/{}", self.organization, self.slug),
            page: format!("{}/{}", self.version.id, file.path),
            version: file.text.len().to_string(),
        }
    }

    /// Shows file `index` on the right: parsed (then highlighted) off the UI thread.
    fn show_file(&mut self, index: usize, ctx: &mut Ctx) -> Cmd {
        let Some(file) = self.files.get(index) else {
            return Cmd::None;
        };
        self.shown = Some(index);
        let key = self.doc_key(file);
        let width = Self::text_width(ctx);
        let markdown: Arc<str> = as_markdown(&file.path, &file.text).into();
        let cached = ctx.docs.get(&key).is_some();
        self.reader.show(key.clone(), ctx.docs, width);
        if cached {
            return Cmd::None;
        }
        Cmd::ParseMarkdown { key, markdown }
    }

    fn text_height(ctx: &Ctx) -> usize {
        let (_, height) = crate::ui::layout::body_size(ctx.size.width, ctx.size.height);
        height.saturating_sub(1).max(1) as usize
    }

    fn on_reading_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let height = Self::text_height(ctx);
        let half = (height / 2).max(1) as isize;
        match action {
            Action::Back => self.reading = false,
            Action::Down => self.reader.scroll_by(1, height),
            Action::Up => self.reader.scroll_by(-1, height),
            Action::HalfPageDown => self.reader.scroll_by(half, height),
            Action::HalfPageUp => self.reader.scroll_by(-half, height),
            Action::PageDown => self.reader.scroll_by(height as isize, height),
            Action::PageUp => self.reader.scroll_by(-(height as isize), height),
            Action::Top => self.reader.scroll_to(0, height),
            Action::Bottom => self.reader.scroll_to(usize::MAX / 2, height),
            _ => return None,
        }
        Some(Step::default())
    }

    fn on_tree_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        let len = self.rows.rows().len();
        let page = ctx.size.height.saturating_sub(5).max(1) as isize;
        let index = self.selection.selected;
        let row = self.rows.rows().get(index).copied();
        match action {
            _ if crate::screens::step::move_selection(&mut self.selection, action, len, page) => {
                return Some(Step::cmd(self.follow_selection(ctx)));
            }
            Action::Expand => {
                if let Some(row) = row
                    && row.has_children
                {
                    self.rows.set_open(&self.tree, index, true);
                }
            }
            Action::Collapse => self
                .rows
                .collapse_or_go_to_parent(&self.tree, &mut self.selection.selected),
            Action::ExpandAll => self.rows.open_all(&self.tree),
            Action::CollapseAll => {
                self.rows.close_all(&self.tree);
                self.selection.top();
            }
            Action::Open => match self.selected_node().and_then(|node| node.file) {
                Some(file) => {
                    self.reading = true;
                    return Some(Step::cmd(self.show_file(file, ctx)));
                }
                None => self.rows.toggle(&self.tree, index),
            },
            _ => return None,
        }
        Some(Step::default())
    }

    /// The file under the cursor shows on the right as the cursor moves.
    fn follow_selection(&mut self, ctx: &mut Ctx) -> Cmd {
        match self.selected_node().and_then(|node| node.file) {
            Some(file) if self.shown != Some(file) => self.show_file(file, ctx),
            _ => Cmd::None,
        }
    }
}

/// Tree and text widths for a body `width` wide: side by side from 60 columns, else the
/// text alone (the tree shows while it has the keys).
pub fn view_split(width: u16) -> (u16, u16) {
    if width >= 60 {
        let tree = (width / 3).clamp(20, 36);
        (tree, width - tree - 1)
    } else {
        (width, width)
    }
}

impl ScreenState for ContentScreen {
    fn enter(&mut self, ctx: &mut Ctx) -> Cmd {
        self.load(ctx)
    }

    fn refresh(&mut self, ctx: &mut Ctx) -> Cmd {
        Cmd::batch([self.read_version(ctx), self.load(ctx)])
    }

    fn title(&self) -> String {
        self.version.id.clone()
    }

    fn key_contexts(&self) -> &'static [KeyContext] {
        if self.reading {
            &[KeyContext::Reader]
        } else {
            &[KeyContext::SpecVersions, KeyContext::Tree, KeyContext::List]
        }
    }

    fn hints(&self) -> Vec<(Action, &'static str)> {
        if self.reading {
            vec![
                (Action::PageDown, "page"),
                (Action::Back, "files"),
                (Action::Help, "keys"),
            ]
        } else {
            vec![
                (Action::Open, "open"),
                (Action::Expand, "expand"),
                (Action::Collapse, "collapse"),
                (Action::CopyLink, "copy address"),
                (Action::Back, "back"),
                (Action::Help, "keys"),
            ]
        }
    }

    fn on_action(&mut self, action: Action, ctx: &mut Ctx) -> Option<Step> {
        if self.reading {
            return self.on_reading_action(action, ctx);
        }
        self.on_tree_action(action, ctx)
    }

    fn on_resize(&mut self, ctx: &mut Ctx) {
        let width = Self::text_width(ctx);
        self.reader.refresh_layout(ctx.docs, width);
    }

    fn on_response(&mut self, (request, response): Answered, ctx: &mut Ctx) -> Option<Step> {
        if let ApiResponse::OpenApi(OpenApiResponse::Version(result)) = response {
            if self.version_read != Some(request) {
                return None;
            }
            self.version_read = None;
            // A version that cannot be read keeps what the list said.
            if let Ok(version) = result {
                self.version = version.clone();
            }
            return Some(Step::default());
        }
        let ApiResponse::OpenApi(OpenApiResponse::Content(result)) = response else {
            return None;
        };
        if !self.content.settle(request, result.clone()) {
            return None;
        }
        let Some(content) = self.content.value() else {
            return Some(Step::default());
        };
        self.files = SpecFile::list(&content.filesystem);
        self.tree = build_tree(&self.files);
        self.rows = TreeRows::new(&self.tree, |_| true);
        self.selection.clamp(self.rows.rows().len());
        self.shown = None;
        Some(Step::cmd(self.follow_selection(ctx)))
    }

    fn on_document(&mut self, key: &DocKey, ctx: &mut Ctx) {
        if self.reader.key.as_ref() == Some(key) {
            let width = Self::text_width(ctx);
            self.reader.refresh_layout(ctx.docs, width);
        }
    }

    fn link(&self) -> Option<String> {
        self.version.url.clone()
    }

    fn draw(&self, frame: &mut Canvas, area: Rect, look: &Look) {
        super::view::draw_content(self, frame, area, look);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_outlasts_the_backticks_inside() {
        let markdown = as_markdown("a.yaml", "x: ```\n");
        assert!(markdown.starts_with("````yaml\n"), "{markdown}");
        assert!(markdown.ends_with("\n````\n"), "{markdown}");
        assert!(as_markdown("s.json", "{}").starts_with("```json\n"));
    }

    #[test]
    fn folders_are_shared_between_their_files() {
        let files = vec![
            SpecFile {
                path: "components/a.json".into(),
                text: String::new(),
            },
            SpecFile {
                path: "components/b.yaml".into(),
                text: String::new(),
            },
            SpecFile {
                path: "openapi.yaml".into(),
                text: String::new(),
            },
        ];
        let tree = build_tree(&files);
        assert_eq!(tree.len(), 4);
        let names: Vec<&str> = tree
            .nodes()
            .map(|(_, node)| node.item.name.as_str())
            .collect();
        assert_eq!(names, ["components", "a.json", "b.yaml", "openapi.yaml"]);
    }
}
