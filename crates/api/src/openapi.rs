//! Stored OpenAPI specs and their versions, addressed by slug.

use serde_json::json;

use super::address::encode_segment;
use super::client::Client;
use super::error::ApiError;
use super::models::{OpenApiContent, OpenApiSpec, OpenApiVersion, SpecVisibility};
use super::paging::{ListPage, WholeList};

/// Longest slug the service accepts.
pub const MAX_SLUG: usize = 100;
/// Longest source address the service accepts.
pub const MAX_SOURCE_URL: usize = 2048;

/// Why a slug would be refused, in words; `None` when it is fine. The rule is the seed's
/// pattern `^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$`, 1 to 100 characters.
pub fn slug_problem(slug: &str) -> Option<String> {
    let length = slug.chars().count();
    if length == 0 {
        return Some("a slug is needed".to_string());
    }
    if length > MAX_SLUG {
        return Some(format!("at most {MAX_SLUG} characters ({length} now)"));
    }
    if let Some(bad) = slug
        .chars()
        .find(|c| !c.is_ascii_alphanumeric() && *c != '-')
    {
        return Some(format!(
            "only letters, digits and single hyphens (not {bad:?})"
        ));
    }
    if slug.starts_with('-') || slug.ends_with('-') || slug.contains("--") {
        return Some("hyphens only between letters or digits".to_string());
    }
    None
}

/// Why a source address would be refused; `None` when it is an http(s) address of at most
/// 2048 characters.
pub fn source_url_problem(url: &str) -> Option<String> {
    let url = url.trim();
    let length = url.chars().count();
    if length == 0 {
        return Some("an address is needed".to_string());
    }
    if length > MAX_SOURCE_URL {
        return Some(format!(
            "at most {MAX_SOURCE_URL} characters ({length} now)"
        ));
    }
    let has_host = url
        .split_once("://")
        .filter(|(scheme, _)| matches!(*scheme, "http" | "https"))
        .map(|(_, rest)| rest.split(['/', '?', '#']).next().unwrap_or(""))
        .is_some_and(|host| !host.is_empty() && !host.contains(char::is_whitespace));
    if !has_host || url.contains(char::is_whitespace) {
        return Some("an http(s) address such as https://example.com/openapi.yaml".to_string());
    }
    if names_a_scheme_as_host(url) {
        return Some("the scheme is there twice (https://https://…): keep one".to_string());
    }
    None
}

/// True when the address's host is a scheme: `https://https://host/…` (a pasted address
/// after a typed scheme) reads as host `https` with an empty port, which no server answers.
/// The sandbox refuses the same addresses, as the service does.
pub fn names_a_scheme_as_host(url: &str) -> bool {
    let Some((_, rest)) = url.trim().split_once("://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_and_port = authority
        .rsplit_once('@')
        .map_or(authority, |(_, after)| after);
    let host = host_and_port
        .split_once(':')
        .map_or(host_and_port, |(host, _)| host);
    host.eq_ignore_ascii_case("http") || host.eq_ignore_ascii_case("https")
}

fn specs_path(organization: &str) -> String {
    format!("/orgs/{}/openapi", encode_segment(organization))
}

fn spec_path(organization: &str, slug: &str) -> String {
    format!("{}/{}", specs_path(organization), encode_segment(slug))
}

/// Which version of a spec: its latest or one by id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionRef {
    Latest,
    Id(String),
}

impl VersionRef {
    fn segment(&self) -> String {
        match self {
            VersionRef::Latest => "latest".to_string(),
            VersionRef::Id(id) => encode_segment(id),
        }
    }
}

impl Client {
    pub async fn list_openapi_specs(
        &self,
        organization: &str,
        page: Option<&str>,
    ) -> Result<ListPage<OpenApiSpec>, ApiError> {
        self.get_list_page(&specs_path(organization), &[], page)
            .await
    }

    /// `POST /orgs/{org}/openapi` from a URL source.
    /// Every spec of the organization, up to `pages` pages.
    pub async fn all_openapi_specs(
        &self,
        organization: &str,
        pages: usize,
    ) -> Result<WholeList<OpenApiSpec>, ApiError> {
        self.list_up_to(&specs_path(organization), &[], pages).await
    }

    /// Every version of a spec, up to `pages` pages.
    pub async fn all_openapi_versions(
        &self,
        organization: &str,
        slug: &str,
        pages: usize,
    ) -> Result<WholeList<OpenApiVersion>, ApiError> {
        let path = format!("{}/versions", spec_path(organization, slug));
        self.list_up_to(&path, &[], pages).await
    }

    pub async fn create_openapi_spec(
        &self,
        organization: &str,
        slug: &str,
        url: &str,
    ) -> Result<OpenApiSpec, ApiError> {
        let body = json!({ "slug": slug, "source": { "url": url } });
        self.post(&specs_path(organization), &body).await
    }

    pub async fn get_openapi_spec(
        &self,
        organization: &str,
        slug: &str,
    ) -> Result<OpenApiSpec, ApiError> {
        self.get(&spec_path(organization, slug), &[]).await
    }

    /// `PUT /orgs/{org}/openapi/{slug}`: a new source (creates the spec when there is none).
    pub async fn replace_openapi_source(
        &self,
        organization: &str,
        slug: &str,
        url: &str,
    ) -> Result<OpenApiSpec, ApiError> {
        let body = json!({ "source": { "url": url } });
        self.put(&spec_path(organization, slug), &body).await
    }

    pub async fn set_openapi_visibility(
        &self,
        organization: &str,
        slug: &str,
        visibility: &SpecVisibility,
    ) -> Result<OpenApiSpec, ApiError> {
        let body = json!({ "visibility": visibility.as_str() });
        self.patch(&spec_path(organization, slug), &body).await
    }

    pub async fn delete_openapi_spec(
        &self,
        organization: &str,
        slug: &str,
    ) -> Result<(), ApiError> {
        self.delete(&spec_path(organization, slug)).await
    }

    pub async fn list_openapi_versions(
        &self,
        organization: &str,
        slug: &str,
        page: Option<&str>,
    ) -> Result<ListPage<OpenApiVersion>, ApiError> {
        let path = format!("{}/versions", spec_path(organization, slug));
        self.get_list_page(&path, &[], page).await
    }

    pub async fn get_openapi_version(
        &self,
        organization: &str,
        slug: &str,
        version: &VersionRef,
    ) -> Result<OpenApiVersion, ApiError> {
        let path = format!(
            "{}/versions/{}",
            spec_path(organization, slug),
            version.segment()
        );
        self.get(&path, &[]).await
    }

    pub async fn get_openapi_content(
        &self,
        organization: &str,
        slug: &str,
        version: &VersionRef,
    ) -> Result<OpenApiContent, ApiError> {
        let path = format!(
            "{}/versions/{}/content",
            spec_path(organization, slug),
            version.segment()
        );
        self.get(&path, &[]).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_the_pattern() {
        assert_eq!(slug_problem("pet-store-v2"), None);
        assert_eq!(slug_problem("A1"), None);
        assert!(slug_problem("").is_some());
        assert!(slug_problem("-pets").is_some());
        assert!(slug_problem("pets-").is_some());
        assert!(slug_problem("pet--store").is_some());
        assert!(slug_problem("pet store").is_some());
        assert!(slug_problem("pet_store").is_some());
        assert!(slug_problem(&"a".repeat(100)).is_none());
        assert!(slug_problem(&"a".repeat(101)).is_some());
    }

    #[test]
    fn source_urls_are_http_addresses_up_to_2048() {
        assert_eq!(source_url_problem("https://example.com/openapi.yaml"), None);
        assert!(source_url_problem("").is_some());
        assert!(source_url_problem("ftp://example.com/x").is_some());
        assert!(source_url_problem("https://").is_some());
        assert!(source_url_problem("https://exa mple.com").is_some());
        let long = format!("https://example.com/{}", "a".repeat(2048));
        assert!(source_url_problem(&long).is_some());
    }

    #[test]
    fn a_scheme_typed_twice_or_as_the_host_is_refused() {
        for doubled in [
            "https://https://example.com/openapi.yaml",
            "https://http://example.com/openapi.yaml",
            "http://https://example.com/openapi.yaml",
            "https://HTTPS://example.com/openapi.yaml",
            "https://https:/example.com/openapi.yaml",
            "https://https:",
            "https://http:8080/openapi.yaml",
            "https://user@https://example.com/x",
        ] {
            let problem = source_url_problem(doubled).unwrap_or_default();
            assert!(problem.contains("twice"), "{doubled}: {problem:?}");
        }
        for fine in [
            "https://httpbin.org/openapi.json",
            "https://example.com/https://mirror/openapi.yaml",
            "https://example.com:8443/openapi.yaml",
            "http://https.example.com/openapi.yaml",
        ] {
            assert_eq!(source_url_problem(fine), None, "{fine}");
        }
    }
}
