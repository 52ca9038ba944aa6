//! What a link on a page points at, worked out from how it is written: an anchor on the same
//! page, a page of this space (a relative or absolute path, with or without `.md`, or a page
//! id), a page of another space (by its app URL), or an address outside.

use crate::ui::page_tree::PageNode;

/// Where a link goes, before the page tree is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// A heading of the page being read.
    Anchor(String),
    /// A page of a space: `space` None for the space being read.
    Page {
        space: Option<String>,
        reference: PageReference,
        anchor: Option<String>,
    },
    /// A web address (or `mailto:`…) that quire does not show itself.
    Outside(String),
    /// Nothing quire can follow, with the reason.
    Unknown(String),
}

/// How a link names a page of a space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageReference {
    /// Paths to try in order (relative links have more than one reading), or a page id.
    Candidates(Vec<String>),
    /// The app URL of a space without a page: its first page.
    First,
}

/// Splits `#anchor` off a link.
fn split_anchor(link: &str) -> (&str, Option<String>) {
    match link.split_once('#') {
        Some((rest, anchor)) if !anchor.is_empty() => (rest, Some(anchor.to_string())),
        Some((rest, _)) => (rest, None),
        None => (link, None),
    }
}

/// `installation.md`, `installation/README.md`, `./installation/` → `installation`.
fn page_path(path: &str) -> String {
    let path = path.split('?').next().unwrap_or("");
    let path = path.trim_end_matches('/');
    let path = path
        .strip_suffix("/README.md")
        .or_else(|| path.strip_suffix(".md"))
        .unwrap_or(path);
    let path = if path == "README" { "" } else { path };
    path.to_string()
}

/// Joins `relative` to the folder `base`, resolving `.` and `..`; None above the root.
fn join(base: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|part| !part.is_empty()).collect();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// The app's address and the space of an app URL: `https://app…/o/{org}/s/{space}/{path}`.
fn app_page(url: &str, app_base: Option<&str>) -> Option<(String, String)> {
    let base = app_base?;
    let rest = url.strip_prefix(base)?;
    let rest = rest.strip_prefix("/o/")?;
    let (_organization, rest) = rest.split_once('/')?;
    let rest = rest.strip_prefix("s/")?;
    let (space, path) = rest.split_once('/').unwrap_or((rest, ""));
    (!space.is_empty()).then(|| (space.to_string(), path.to_string()))
}

/// The app's address in front of `/o/` in a page's app URL.
pub fn app_base(app_url: Option<&str>) -> Option<String> {
    let url = app_url?;
    let at = url.find("/o/")?;
    Some(url[..at].to_string())
}

/// Reads a link written on the page at `page_path` of the space `space`.
pub fn parse(
    link: &str,
    current_path: Option<&str>,
    space: &str,
    app_base: Option<&str>,
) -> LinkTarget {
    let link = link.trim();
    if link.is_empty() {
        return LinkTarget::Unknown("the link is empty".to_string());
    }
    if let Some(anchor) = link.strip_prefix('#') {
        return LinkTarget::Anchor(anchor.to_string());
    }
    let (without_anchor, anchor) = split_anchor(link);
    if let Some((target_space, path)) = app_page(without_anchor, app_base) {
        let path = page_path(&path);
        let reference = if path.is_empty() {
            PageReference::First
        } else {
            PageReference::Candidates(vec![path])
        };
        return LinkTarget::Page {
            space: (target_space != space).then_some(target_space),
            reference,
            anchor,
        };
    }
    if has_scheme(link) {
        return LinkTarget::Outside(link.to_string());
    }
    if without_anchor.starts_with("//") {
        return LinkTarget::Outside(format!("https:{link}"));
    }
    let path = page_path(without_anchor);
    let here = current_path.unwrap_or("");
    let parent = here.rsplit_once('/').map_or("", |(parent, _)| parent);
    let mut candidates = Vec::new();
    if let Some(absolute) = without_anchor.strip_prefix('/') {
        candidates.push(page_path(absolute));
    } else {
        // A page with children is a folder (`installation/README.md`) in a git-synced space,
        // one without is a file: a relative link may be read from either.
        candidates.extend(join(parent, &path));
        candidates.extend(join(here, &path));
        candidates.push(path.trim_start_matches("./").to_string());
    }
    // A bare word may be a page id too.
    if !without_anchor.contains('/') {
        candidates.push(without_anchor.to_string());
    }
    candidates.dedup();
    LinkTarget::Page {
        space: None,
        reference: PageReference::Candidates(candidates),
        anchor,
    }
}

/// `https:`, `mailto:`… (a Windows drive letter or a path with a colon is not one).
fn has_scheme(link: &str) -> bool {
    match link.split_once(':') {
        Some((scheme, _)) => {
            scheme.len() > 1
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

/// The page a reference names among a space's pages: the first candidate that is a page's
/// path or id; for [`PageReference::First`], the first page with a body.
pub fn find_page<'p>(pages: &'p [PageNode], reference: &PageReference) -> Option<&'p PageNode> {
    match reference {
        PageReference::First => pages.iter().find(|page| page.has_body()),
        PageReference::Candidates(candidates) => candidates.iter().find_map(|wanted| {
            pages
                .iter()
                .find(|page| page.path.as_deref() == Some(wanted.as_str()))
                .or_else(|| pages.iter().find(|page| page.id == *wanted))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "https://app.docs.example";

    fn read(link: &str) -> LinkTarget {
        parse(link, Some("installation/linux"), "spc-a", Some(BASE))
    }

    fn candidates(target: LinkTarget) -> Vec<String> {
        match target {
            LinkTarget::Page {
                reference: PageReference::Candidates(candidates),
                ..
            } => candidates,
            other => panic!("not a page: {other:?}"),
        }
    }

    #[test]
    fn anchors_outside_addresses_and_nothing() {
        assert_eq!(read("#setup"), LinkTarget::Anchor("setup".into()));
        assert_eq!(
            read("https://example.com/x"),
            LinkTarget::Outside("https://example.com/x".into())
        );
        assert_eq!(
            read("mailto:a@b.example"),
            LinkTarget::Outside("mailto:a@b.example".into())
        );
        assert!(matches!(read("  "), LinkTarget::Unknown(_)));
    }

    #[test]
    fn relative_paths_are_read_from_the_page_and_its_folder() {
        let found = candidates(read("macos.md#brew"));
        assert_eq!(found[0], "installation/macos");
        assert_eq!(found[1], "installation/linux/macos");
        assert!(found.contains(&"macos.md".to_string()), "an id: {found:?}");
        assert_eq!(candidates(read("../quickstart.md"))[0], "quickstart");
        assert_eq!(candidates(read("/welcome/README.md")), vec!["welcome"]);
        assert!(matches!(
            read("macos.md#brew"),
            LinkTarget::Page { anchor: Some(anchor), space: None, .. } if anchor == "brew"
        ));
    }

    #[test]
    fn app_urls_name_a_space_and_a_path() {
        assert_eq!(
            read("https://app.docs.example/o/org-1/s/spc-b/guides/setup#two"),
            LinkTarget::Page {
                space: Some("spc-b".into()),
                reference: PageReference::Candidates(vec!["guides/setup".into()]),
                anchor: Some("two".into()),
            }
        );
        assert_eq!(
            read("https://app.docs.example/o/org-1/s/spc-a/"),
            LinkTarget::Page {
                space: None,
                reference: PageReference::First,
                anchor: None,
            }
        );
        assert_eq!(
            app_base(Some("https://app.docs.example/o/x/s/y/z")).as_deref(),
            Some(BASE)
        );
    }
}
