//! What the site screen sends: one write at a time, and each tab's read the first time the tab
//! is shown.

use super::{Pending, SiteScreen, SiteTab, logged};
use crate::screens::step::Ctx;
use crate::vocabulary::sites::SitesCall;
use crate::vocabulary::{ApiCall, Cmd, Loadable};

impl SiteScreen {
    /// Sends a write and remembers it; refused while another write is in flight.
    pub(super) fn write(&mut self, call: SitesCall, pending: Pending, ctx: &mut Ctx) -> Cmd {
        if self.pending.is_some() {
            self.warn("Still waiting for the previous change…");
            return Cmd::None;
        }
        let request = ctx.requests.issue();
        self.pending = Some((request, pending));
        self.log_pending = logged::entry(self, &call);
        Cmd::Api {
            request,
            call: ApiCall::Sites(call),
        }
    }

    fn read<T>(loadable: &mut Loadable<T>, call: SitesCall, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        loadable.start(request);
        Cmd::Api {
            request,
            call: ApiCall::Sites(call),
        }
    }

    pub(super) fn load_structure(&mut self, ctx: &mut Ctx) -> Cmd {
        let (organization, site) = self.ids();
        Self::read(
            &mut self.structure,
            SitesCall::GetPublished { organization, site },
            ctx,
        )
    }

    pub(super) fn load_share_links(&mut self, ctx: &mut Ctx) -> Cmd {
        let (organization, site) = self.ids();
        Self::read(
            &mut self.share_links,
            SitesCall::ListShareLinks { organization, site },
            ctx,
        )
    }

    pub(super) fn load_groups(&mut self, ctx: &mut Ctx) -> Cmd {
        let (organization, site) = self.ids();
        Self::read(
            &mut self.groups,
            SitesCall::ListSectionGroups { organization, site },
            ctx,
        )
    }

    pub(super) fn load_adaptive(&mut self, ctx: &mut Ctx) -> Cmd {
        if self.adaptive_view_reason().is_some() {
            return Cmd::None;
        }
        let (organization, site) = self.ids();
        Self::read(
            &mut self.adaptive,
            SitesCall::GetAdaptive { organization, site },
            ctx,
        )
    }

    pub(super) fn load_site(&mut self, ctx: &mut Ctx) -> Cmd {
        let request = ctx.requests.issue();
        self.site_request = Some(request);
        let (organization, site) = self.ids();
        Cmd::Api {
            request,
            call: ApiCall::Sites(SitesCall::GetSite { organization, site }),
        }
    }

    /// Loads what the current tab shows, the first time it is shown.
    pub(super) fn load_tab(&mut self, ctx: &mut Ctx) -> Cmd {
        match self.tab {
            SiteTab::ShareLinks if matches!(self.share_links, Loadable::NotAsked) => {
                self.load_share_links(ctx)
            }
            SiteTab::SectionGroups if matches!(self.groups, Loadable::NotAsked) => {
                self.load_groups(ctx)
            }
            SiteTab::Adaptive if matches!(self.adaptive, Loadable::NotAsked) => {
                self.load_adaptive(ctx)
            }
            _ => Cmd::None,
        }
    }

    pub(super) fn switch_tab(&mut self, forward: bool, ctx: &mut Ctx) -> Cmd {
        let count = SiteTab::ALL.len();
        let index = SiteTab::ALL
            .iter()
            .position(|tab| *tab == self.tab)
            .unwrap_or(0);
        let next = if forward {
            index + 1
        } else {
            index + count - 1
        } % count;
        self.tab = SiteTab::ALL[next];
        self.load_tab(ctx)
    }
}
