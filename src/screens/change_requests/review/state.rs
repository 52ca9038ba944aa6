//! The review screen's state types: its tabs, what a composer's text is for, what must be
//! confirmed, the overlay on top and the writes in flight.

use crate::api::WholeList;
use crate::api::models::{Comment, Member, Reaction};
use crate::ui::address_popup::AddressPopup;
use crate::ui::composer::Composer;
use crate::ui::emoji_picker::EmojiPicker;
use crate::ui::input::{Filter, LineInput};
use crate::ui::list::Selection;
use crate::vocabulary::Loadable;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReviewTab {
    /// What the change request is and what happened to it: a review opens here.
    #[default]
    Overview,
    Changes,
    Comments,
    Reviews,
}

impl ReviewTab {
    pub const ALL: [ReviewTab; 4] = [
        ReviewTab::Overview,
        ReviewTab::Changes,
        ReviewTab::Comments,
        ReviewTab::Reviews,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ReviewTab::Overview => "Overview",
            ReviewTab::Changes => "Changes",
            ReviewTab::Comments => "Comments",
            ReviewTab::Reviews => "Reviews",
        }
    }

    /// The name in three letters, for a narrow tab line: a tab stays named, not a bare number.
    pub fn short_label(self) -> &'static str {
        match self {
            ReviewTab::Overview => "Ovw",
            ReviewTab::Changes => "Chg",
            ReviewTab::Comments => "Cmt",
            ReviewTab::Reviews => "Rev",
        }
    }
}

/// What a composer's text will become when sent.
#[derive(Debug, Clone, PartialEq)]
pub enum ComposeTarget {
    NewComment {
        page: Option<String>,
    },
    Reply {
        comment: String,
    },
    Edit {
        comment: String,
        reply: Option<String>,
    },
    Review {
        approve: bool,
    },
    /// The description, as text from [`crate::ui::document`].
    Description,
    /// A comment on a line of a page's diff: on its block (`node`) when the line is in one.
    BlockComment {
        page: String,
        node: Option<String>,
        /// The line the block starts on, in the change request's version.
        line: usize,
        /// The block in words.
        about: String,
        /// Why this block, when the cursor was not on it.
        note: Option<super::diff_cursor::SpotNote>,
        /// The cell of the table block `node` the comment is on, when one was picked.
        cell: Option<super::cells::CellPick>,
    },
}

/// Something that must be confirmed before it is sent.
#[derive(Debug, Clone, PartialEq)]
pub enum Confirmation {
    Delete {
        comment: String,
        reply: Option<String>,
    },
    SetStatus {
        status: crate::api::models::ChangeRequestStatus,
    },
    RemoveReviewer {
        user: String,
        name: String,
    },
    SetSubject {
        subject: String,
    },
    /// A description whose text could not hold every block: `kept` of them stay as they are.
    SetDescription {
        document: serde_json::Value,
        kept: usize,
        draft_key: String,
    },
}

// One overlay at a time, replaced as a whole: the size difference does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Overlay {
    Composer {
        target: ComposeTarget,
        draft_key: String,
        composer: Composer,
    },
    /// By id, not by row: a reload while the picker is open must not move the reaction.
    Reactions {
        comment: String,
        reply: Option<String>,
        picker: EmojiPicker,
    },
    WhoReacted {
        lines: Vec<String>,
    },
    Confirm(Confirmation),
    /// The merge pre-flight, with how far it is scrolled and which warnings were read.
    Preflight(super::preflight::Preflight),
    /// The one-line subject editor; enter asks before anything is sent.
    Subject {
        input: LineInput,
        error: Option<String>,
    },
    Reviewers {
        members: Loadable<WholeList<Member>>,
        filter: Filter,
        selection: Selection,
    },
    /// The address of a PDF the server made.
    Pdf(AddressPopup),
    /// Whose threads the comments tab shows: everyone or one commenter.
    Authors(crate::ui::picker::Picker<()>),
    /// A content template's id, then the question before it goes into this change request.
    Template(crate::screens::templates::TemplateFlow),
    /// Which cell of a table's row a comment from the diff is on; its purpose is the comment
    /// on the whole table, what esc leaves.
    Cell(crate::ui::picker::Picker<ComposeTarget>),
}

/// A write in flight, with what to restore if the server refuses it.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum PendingWrite {
    Resolve {
        comment: String,
        previous: Comment,
    },
    React {
        comment: String,
        reply: Option<String>,
        previous: Vec<Reaction>,
    },
    Post {
        draft_key: String,
    },
    Edit {
        draft_key: String,
        comment: String,
        reply: Option<String>,
        text: String,
    },
    Delete {
        comment: String,
        reply: Option<String>,
    },
    Review {
        draft_key: String,
    },
    Reviewers,
    Status,
    Subject,
    Description {
        draft_key: String,
    },
    Pdf {
        /// The page's title, or None for the whole change request.
        page: Option<String>,
    },
    Merge,
    Update,
    /// A content template applied into this change request.
    Template {
        template: String,
        target: crate::screens::templates::TemplateTarget,
    },
}
