//! Each distinct block is coloured once. Documentation repeats itself: the big demo's 1 MB
//! page has 1,809 code blocks of which 10 differ, and a page opened after its preview holds
//! the preview's blocks again. Blocks are told apart by their whole content (language, theme,
//! lines), never by a hash alone, so two blocks can never share colours by mistake.
//!
//! A page's identical blocks are highlighted once and the colours handed to every copy as
//! they come back; blocks coloured before (by an earlier page or its preview) are served from
//! a small store of recent colours, bounded by [`REMEMBERED_BYTES`].

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use super::{CodeTheme, Highlighted, Job, Token};

/// The most the colours of recent blocks may take, with their text: a screenful of pages'
/// worth of code, a small part of what quire holds for one big page.
const REMEMBERED_BYTES: usize = 1024 * 1024;

/// A block too big to be worth keeping: it would push out many smaller ones.
const LARGEST_REMEMBERED: usize = REMEMBERED_BYTES / 8;

/// A page's blocks to colour, with the copies each one stands for.
pub(super) struct Distinct<'r> {
    /// Where colours are kept for pages to come.
    recent: &'r Recent,
    /// One block per distinct content not coloured before, grouped by language, each group in
    /// page order (shared with the threads that colour them when there is no worker process).
    pub(super) jobs: Arc<Vec<Job>>,
    /// The page's block indices each of `jobs` stands for (its own first).
    copies: Vec<Vec<usize>>,
}

impl<'r> Distinct<'r> {
    /// Splits `jobs` into distinct blocks; those `recent` holds colours for go to `on_block`
    /// at once. The copies' lines are dropped here: one of each is kept while the page colours.
    pub(super) fn of(
        jobs: Vec<Job>,
        recent: &'r Recent,
        on_block: &mut dyn FnMut(usize, Highlighted),
    ) -> Distinct<'r> {
        let mut first_of: HashMap<BlockKey<'_>, usize> = HashMap::new();
        let mut leaders = Vec::new();
        let mut copies: Vec<Vec<usize>> = Vec::new();
        for (index, job) in jobs.iter().enumerate() {
            if job.language.trim().is_empty() {
                continue;
            }
            if let Some(lines) = recent.recall(job) {
                on_block(index, lines);
                continue;
            }
            match first_of.entry(BlockKey::of(job)) {
                Entry::Occupied(first) => copies[*first.get()].push(index),
                Entry::Vacant(slot) => {
                    slot.insert(leaders.len());
                    leaders.push(index);
                    copies.push(vec![index]);
                }
            }
        }
        drop(first_of);
        let (leaders, copies) = grouped_by_language(&jobs, leaders, copies);
        let mut slots: Vec<Option<Job>> = jobs.into_iter().map(Some).collect();
        let jobs = Arc::new(
            leaders
                .iter()
                .filter_map(|&index| slots.get_mut(index).and_then(Option::take))
                .collect(),
        );
        Distinct {
            recent,
            jobs,
            copies,
        }
    }

    /// Hands the colours of distinct block `index` to every copy of it, and keeps them for
    /// pages to come.
    pub(super) fn deliver(
        &self,
        index: usize,
        lines: Highlighted,
        on_block: &mut dyn FnMut(usize, Highlighted),
    ) {
        let (Some(job), Some(copies)) = (self.jobs.get(index), self.copies.get(index)) else {
            return;
        };
        self.recent.remember(job, &lines);
        let Some((&last, others)) = copies.split_last() else {
            return;
        };
        for &copy in others {
            on_block(copy, lines.clone());
        }
        on_block(last, lines);
    }
}

/// The distinct blocks (`leaders`, with their `copies`) grouped by language, the groups in the
/// order their languages first appear and each in page order. The worker process holds one
/// language's grammars at a time: in page order, a page that goes from shell to Python and
/// back would have it build each grammar again and again.
fn grouped_by_language(
    jobs: &[Job],
    leaders: Vec<usize>,
    copies: Vec<Vec<usize>>,
) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut languages: Vec<String> = Vec::new();
    let mut ranked: Vec<(usize, usize, Vec<usize>)> = leaders
        .into_iter()
        .zip(copies)
        .map(|(leader, copies)| {
            let language = jobs
                .get(leader)
                .map(|job| job.language.to_ascii_lowercase())
                .unwrap_or_default();
            let rank = languages
                .iter()
                .position(|seen| *seen == language)
                .unwrap_or_else(|| {
                    languages.push(language);
                    languages.len() - 1
                });
            (rank, leader, copies)
        })
        .collect();
    ranked.sort_by_key(|(rank, _, _)| *rank);
    ranked
        .into_iter()
        .map(|(_, leader, copies)| (leader, copies))
        .unzip()
}

/// A block's content, borrowed from its job, to find its copies on one page.
#[derive(PartialEq, Eq, Hash)]
struct BlockKey<'j> {
    language: &'j str,
    theme: &'static str,
    lines: &'j [String],
}

impl<'j> BlockKey<'j> {
    fn of(job: &'j Job) -> BlockKey<'j> {
        BlockKey {
            language: &job.language,
            theme: job.theme.name(),
            lines: &job.lines,
        }
    }

    fn hash_value(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.hash(&mut hasher);
        hasher.finish()
    }
}

/// The colours of a block coloured before, with the block they belong to.
struct Remembered {
    language: String,
    theme: CodeTheme,
    lines: Vec<String>,
    colours: Highlighted,
    bytes: usize,
    /// When it was last used, on [`Store::clock`].
    used: u64,
}

impl Remembered {
    fn is_for(&self, job: &Job) -> bool {
        self.language == job.language && self.theme == job.theme && self.lines == job.lines
    }
}

/// Recent colours by the hash of their block's content.
#[derive(Default)]
struct Store {
    entries: HashMap<u64, Remembered>,
    bytes: usize,
    clock: u64,
}

/// Colours of blocks coloured before; [`Recent::everywhere`] is the one pages share.
pub(super) struct Recent(Mutex<Option<Store>>);

impl Recent {
    pub(super) const fn new() -> Recent {
        Recent(Mutex::new(None))
    }

    /// What every page of this process shares.
    pub(super) fn everywhere() -> &'static Recent {
        static EVERYWHERE: Recent = Recent::new();
        &EVERYWHERE
    }

    fn with_store<T>(&self, work: impl FnOnce(&mut Store) -> T) -> T {
        let mut store = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        work(store.get_or_insert_with(Store::default))
    }

    /// The colours `job`'s block was given before, if they are still kept.
    fn recall(&self, job: &Job) -> Option<Highlighted> {
        let hash = BlockKey::of(job).hash_value();
        self.with_store(|store| {
            store.clock += 1;
            let clock = store.clock;
            let entry = store
                .entries
                .get_mut(&hash)
                .filter(|entry| entry.is_for(job))?;
            entry.used = clock;
            Some(entry.colours.clone())
        })
    }

    /// Keeps `colours` for `job`'s block, pushing out the least recently used colours beyond
    /// [`REMEMBERED_BYTES`].
    fn remember(&self, job: &Job, colours: &Highlighted) {
        let bytes = job_bytes(job) + highlighted_bytes(colours);
        if bytes > LARGEST_REMEMBERED {
            return;
        }
        let hash = BlockKey::of(job).hash_value();
        self.with_store(|store| store.insert(hash, job, colours, bytes));
    }
}

impl Store {
    fn insert(&mut self, hash: u64, job: &Job, colours: &Highlighted, bytes: usize) {
        if let Some(old) = self.entries.remove(&hash) {
            self.bytes -= old.bytes;
        }
        while self.bytes + bytes > REMEMBERED_BYTES {
            let Some(oldest) = self
                .entries
                .iter()
                .min_by_key(|(_, entry)| entry.used)
                .map(|(hash, _)| *hash)
            else {
                break;
            };
            if let Some(gone) = self.entries.remove(&oldest) {
                self.bytes -= gone.bytes;
            }
        }
        self.clock += 1;
        self.bytes += bytes;
        self.entries.insert(
            hash,
            Remembered {
                language: job.language.clone(),
                theme: job.theme,
                lines: job.lines.clone(),
                colours: colours.clone(),
                bytes,
                used: self.clock,
            },
        );
    }
}

fn job_bytes(job: &Job) -> usize {
    let line_bytes: usize = job
        .lines
        .iter()
        .map(|line| line.len() + size_of::<String>())
        .sum();
    job.language.len() + line_bytes
}

fn highlighted_bytes(lines: &Highlighted) -> usize {
    lines
        .iter()
        .map(|tokens| {
            size_of::<Vec<Token>>()
                + tokens
                    .iter()
                    .map(|token| token.text.len() + size_of::<Token>())
                    .sum::<usize>()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use syntect::highlighting::FontStyle;

    fn job(language: &str, lines: &[&str]) -> Job {
        Job {
            language: language.into(),
            lines: lines.iter().map(|line| (*line).to_string()).collect(),
            theme: CodeTheme::default(),
        }
    }

    fn coloured(text: &str) -> Highlighted {
        vec![vec![Token {
            foreground: Some((1, 2, 3)),
            font: FontStyle::empty(),
            text: text.into(),
        }]]
    }

    #[test]
    fn copies_share_one_job_and_each_gets_the_colours() {
        let page = vec![
            job("rust", &["fn a() {}"]),
            job("python", &["a = 1"]),
            job("rust", &["fn a() {}"]),
            job("", &["plain"]),
            job("rust", &["fn b() {}"]),
            job("python", &["a = 1"]),
        ];
        let mut served = Vec::new();
        let recent = Recent::new();
        let distinct = Distinct::of(page, &recent, &mut |index, _| served.push(index));
        let languages: Vec<&str> = distinct.jobs.iter().map(|j| j.language.as_str()).collect();
        let first_lines: Vec<&str> = distinct.jobs.iter().map(|j| j.lines[0].as_str()).collect();
        assert_eq!(languages, ["rust", "rust", "python"]);
        assert_eq!(first_lines, ["fn a() {}", "fn b() {}", "a = 1"]);
        for index in 0..distinct.jobs.len() {
            let text = distinct.jobs[index].lines[0].clone();
            distinct.deliver(index, coloured(&text), &mut |copy, _| served.push(copy));
        }
        served.sort_unstable();
        assert_eq!(served, [0, 1, 2, 4, 5], "every block with a language, once");
    }

    /// The worker holds one language's grammars at a time: a page that goes back and forth
    /// between languages still has each built once.
    #[test]
    fn distinct_blocks_are_grouped_by_language_in_order_of_first_use() {
        let page = vec![
            job("sh", &["ls"]),
            job("Python", &["a = 1"]),
            job("ts", &["let a = 1"]),
            job("sh", &["cd /"]),
            job("python", &["b = 2"]),
            job("sh", &["ls"]),
            job("sh", &["pwd"]),
        ];
        let recent = Recent::new();
        let distinct = Distinct::of(page, &recent, &mut |_, _| {});
        let order: Vec<&str> = distinct.jobs.iter().map(|j| j.lines[0].as_str()).collect();
        assert_eq!(order, ["ls", "cd /", "pwd", "a = 1", "b = 2", "let a = 1"]);
        let mut copies_of_ls = Vec::new();
        distinct.deliver(0, coloured("ls"), &mut |copy, _| copies_of_ls.push(copy));
        assert_eq!(copies_of_ls, [0, 5], "the copies follow their block");
        let mut copies_of_pwd = Vec::new();
        distinct.deliver(2, coloured("pwd"), &mut |copy, _| copies_of_pwd.push(copy));
        assert_eq!(copies_of_pwd, [6]);
    }

    #[test]
    fn a_block_coloured_before_is_served_from_memory_and_a_changed_one_is_not() {
        let recent = Recent::new();
        let first = Distinct::of(vec![job("go", &["x := 1"])], &recent, &mut |_, _| {});
        first.deliver(0, coloured("x := 1"), &mut |_, _| {});
        let mut served = Vec::new();
        let again = Distinct::of(
            vec![job("go", &["x := 1"]), job("go", &["x := 2"])],
            &recent,
            &mut |index, lines| served.push((index, lines)),
        );
        assert_eq!(served, [(0, coloured("x := 1"))]);
        assert_eq!(again.jobs.len(), 1);
        assert_eq!(again.jobs[0].lines, ["x := 2"]);
    }

    #[test]
    fn remembered_colours_stay_within_their_bound() {
        let recent = Recent::new();
        let line = "x".repeat(1000);
        for round in 0..3 * REMEMBERED_BYTES / 1000 {
            let block = job("toml", &[&line, &round.to_string()]);
            recent.remember(&block, &coloured(&line));
        }
        recent.with_store(|store| {
            assert!(store.bytes <= REMEMBERED_BYTES, "{} bytes", store.bytes);
            assert!(!store.entries.is_empty());
        });
    }
}
