//! How much a list subcommand (`quire org list`, `space list`, `search`, `cr list`) reads and
//! prints: `--limit N` items (30 unless told, as gh lists), a note on stderr when there are
//! more, and a bound on the requests one command sends, so a list over every organization
//! cannot send thousands.

use std::io::Write;

use serde::de::DeserializeOwned;

use crate::api::{ApiError, Client, ListPage, MAX_PAGE_LIMIT, PageCursor};
use crate::cli::output::Streams;
use crate::cli::script::{Failure, Outcome};

/// Items a list prints unless `--limit` says otherwise, as gh's lists.
pub const DEFAULT_LIMIT: u32 = 30;

/// The most requests one list command sends for its items. Without `--org`, `cr list`,
/// `space list` and `search` read every organization's list, and a page of up to 1,000 items
/// is one request: 100 reads a hundred organizations, or a hundred thousand items of one. When
/// reached, the command prints what it read, says that it stopped and how to narrow it, and
/// exits 1: the list is incomplete though nobody asked it to be.
pub const MAX_LIST_REQUESTS: usize = 100;

/// `--limit N`, flattened into every list subcommand.
#[derive(Debug, Clone, clap::Args)]
pub struct LimitArgs {
    /// The most items to print; a note on stderr says when there are more.
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_LIMIT,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub limit: u32,
}

/// Reads the lists of one command within its limit and its bound on requests.
pub struct ListReader<'c> {
    client: &'c Client,
    limit: usize,
    requests: usize,
    /// Why reading ended before the lists did, when it did.
    stopped: Option<String>,
}

/// How a listing ended, for the note after it.
#[derive(Debug, PartialEq)]
pub struct ListEnd {
    /// More items exist than were printed.
    pub more: bool,
    /// Reading stopped early (the bound on requests, a server repeating a page): why.
    pub stopped: Option<String>,
}

impl<'c> ListReader<'c> {
    pub fn new(client: &'c Client, limit: &LimitArgs) -> ListReader<'c> {
        ListReader {
            client,
            limit: usize::try_from(limit.limit).unwrap_or(usize::MAX),
            requests: 0,
            stopped: None,
        }
    }

    /// The client the lists are read with.
    pub fn client(&self) -> &'c Client {
        self.client
    }

    /// True once `found` items fill the limit with one to spare (that one says more exist),
    /// or reading had to stop: nothing more should be read.
    pub fn has_enough(&self, found: usize) -> bool {
        self.wanted(found) == 0 || self.stopped.is_some()
    }

    /// Items still to read after `found`: up to one past the limit, which tells whether there
    /// are more without reading them all.
    fn wanted(&self, found: usize) -> usize {
        self.limit.saturating_add(1).saturating_sub(found)
    }

    /// Reads `path`'s items into `found` until it holds one past the limit, the list ends or
    /// the bound on requests is reached.
    pub async fn read_into<T: DeserializeOwned>(
        &mut self,
        path: &str,
        query: &[(&str, &str)],
        found: &mut Vec<T>,
    ) -> Result<(), ApiError> {
        let items = self.read_after(path, query, found.len()).await?;
        found.extend(items);
        Ok(())
    }

    /// Reads `path`'s items as [`ListReader::read_into`] does when `found` were found already
    /// (each of them may stand for several printed ones: a search answers spaces, each with
    /// its pages).
    pub async fn read_after<T: DeserializeOwned>(
        &mut self,
        path: &str,
        query: &[(&str, &str)],
        found: usize,
    ) -> Result<Vec<T>, ApiError> {
        self.read(path, query, self.wanted(found)).await
    }

    /// Every item of `path` within the bound on requests: the organizations a list goes
    /// through, which the limit on printed items does not cut.
    pub async fn read_every<T: DeserializeOwned>(
        &mut self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<Vec<T>, ApiError> {
        self.read(path, query, usize::MAX).await
    }

    /// As [`ListReader::read_into`], keeping only the items `keep` accepts: `found` still
    /// fills to one past the limit when the list has that many kept items.
    pub async fn read_matching_into<T: DeserializeOwned>(
        &mut self,
        path: &str,
        query: &[(&str, &str)],
        found: &mut Vec<T>,
        keep: impl Fn(&T) -> bool,
    ) -> Result<(), ApiError> {
        let wanted = self.wanted(found.len());
        let items = self.read_matching(path, query, wanted, keep).await?;
        found.extend(items);
        Ok(())
    }

    async fn read<T: DeserializeOwned>(
        &mut self,
        path: &str,
        query: &[(&str, &str)],
        wanted: usize,
    ) -> Result<Vec<T>, ApiError> {
        self.read_matching(path, query, wanted, |_| true).await
    }

    async fn read_matching<T: DeserializeOwned>(
        &mut self,
        path: &str,
        query: &[(&str, &str)],
        wanted: usize,
        keep: impl Fn(&T) -> bool,
    ) -> Result<Vec<T>, ApiError> {
        let mut items = Vec::new();
        let mut cursor = PageCursor::with_max_pages(MAX_LIST_REQUESTS);
        let mut page: Option<String> = None;
        while items.len() < wanted && self.stopped.is_none() {
            if self.requests >= MAX_LIST_REQUESTS {
                self.stopped = Some(format!(
                    "stopped after {MAX_LIST_REQUESTS} requests, the most one list sends"
                ));
                break;
            }
            if let Err(reason) = cursor.begin(page.as_deref()) {
                self.stopped = Some(format!("stopped: {reason}"));
                break;
            }
            let page_size = (wanted - items.len())
                .min(MAX_PAGE_LIMIT as usize)
                .to_string();
            let mut page_query = query.to_vec();
            page_query.push(("limit", page_size.as_str()));
            self.requests += 1;
            let list: ListPage<T> = self
                .client
                .get_list_page(path, &page_query, page.as_deref())
                .await?;
            items.extend(list.items.into_iter().filter(|item| keep(item)));
            match list.next_page {
                Some(next) => page = Some(next),
                None => break,
            }
        }
        Ok(items)
    }

    /// `found` cut to the limit, and how the listing ended.
    pub fn finish<T>(&self, mut found: Vec<T>) -> (Vec<T>, ListEnd) {
        let more = found.len() > self.limit;
        found.truncate(self.limit);
        let end = ListEnd {
            more,
            stopped: self.stopped.clone(),
        };
        (found, end)
    }
}

/// Says on stderr how a printed list ended: more items than the limit (the command
/// succeeded), or reading stopped early (it failed: what was printed is not the whole list).
/// `narrow` says how to read fewer places ("name --org"), when there is a way.
pub fn tell_end(streams: &mut Streams, limit: &LimitArgs, end: &ListEnd, narrow: &str) -> Outcome {
    streams.done();
    if let Some(why) = &end.stopped {
        let _ = writeln!(
            streams.err,
            "quire: {why}; what was read is shown, the list is incomplete{narrow}"
        );
        return Err(Failure::Said);
    }
    if end.more {
        let _ = writeln!(
            streams.err,
            "quire: showing {} of more; use --limit to see more",
            limit.limit
        );
    }
    Ok(())
}
