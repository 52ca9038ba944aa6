//! The server's answers to the site's writes: what a success shows and reloads, and a refusal's
//! reason (a 403 turns the screen read-only).

use super::{Field, Modal, Pending, SiteScreen, logged};
use crate::api::ApiError;
use crate::api::error::server_message;
use crate::api::models::PublishOutcome;
use crate::screens::sites::role::audience;
use crate::screens::step::Ctx;
use crate::vocabulary::Cmd;
use crate::vocabulary::sites::SitesResponse;

impl SiteScreen {
    /// A write was refused: say why. A 403 turns the screen read-only and names the roles.
    fn refused(&mut self, error: &ApiError, ctx: &mut Ctx) -> Cmd {
        let message = server_message(error);
        if error.status() == Some(403) {
            self.forbidden = Some(message);
            self.warn(self.refusal("Refused", "change this site"));
            return self.ask_my_role(ctx);
        }
        self.warn(format!("Refused: {message}"));
        Cmd::None
    }

    pub(super) fn finish(
        &mut self,
        pending: Pending,
        response: &SitesResponse,
        ctx: &mut Ctx,
    ) -> Cmd {
        self.pending = None;
        if let Some(entry) = self.log_pending.take()
            && logged::accepted(response)
        {
            ctx.action_log.record(entry);
        }
        match (pending, response) {
            (Pending::Save(fields), SitesResponse::Site(Ok(site))) => {
                self.site = site.clone();
                self.form.reset(site);
                let names: Vec<&str> = fields.iter().map(|field| field.wire_name()).collect();
                self.say(format!("Saved: {}", names.join(", ")));
                if fields.contains(&Field::DefaultSection) || fields.contains(&Field::DefaultSpace)
                {
                    return self.load_structure(ctx);
                }
                Cmd::None
            }
            (Pending::Save(_), SitesResponse::Site(Err(error))) => {
                if error.status() == Some(400) {
                    self.form.refused(&server_message(error));
                }
                self.refused(error, ctx)
            }
            (Pending::Publish, SitesResponse::Published(Ok(outcome))) => match outcome {
                PublishOutcome::Published(site) => {
                    self.site = (**site).clone();
                    self.say(format!(
                        "Published: reachable by {}",
                        audience(self.site.visibility.as_ref())
                    ));
                    self.load_structure(ctx)
                }
                PublishOutcome::Checkout { session_id } => {
                    self.warn(format!(
                        "Publishing needs a plan upgrade: finish checkout {session_id} in the web app"
                    ));
                    Cmd::None
                }
            },
            (Pending::Unpublish, SitesResponse::Site(Ok(site))) => {
                self.site = site.clone();
                self.say("Unpublished");
                Cmd::None
            }
            (
                Pending::ShareLink(done),
                SitesResponse::ShareLink(Ok(_)) | SitesResponse::Done(Ok(())),
            ) => {
                // What was just created or changed is selected once the list is back, so the
                // next key acts on it and not on whichever link now sits at the old index.
                if let SitesResponse::ShareLink(Ok(link)) = response {
                    self.select_after_reload = Some(link.id.clone());
                }
                self.say(done);
                self.load_share_links(ctx)
            }
            (
                Pending::SectionGroup(done, select),
                SitesResponse::SectionGroup(Ok(_)) | SitesResponse::Done(Ok(())),
            ) => {
                self.select_after_reload = select.or_else(|| match response {
                    SitesResponse::SectionGroup(Ok(group)) => Some(group.id.clone()),
                    _ => None,
                });
                self.say(done);
                Cmd::batch([self.load_groups(ctx), self.load_structure(ctx)])
            }
            (Pending::Schema, SitesResponse::SchemaSaved(Ok(_))) => {
                self.modal = None;
                self.schema_draft = None;
                self.say("Saved the adaptive schema");
                let discard = Cmd::DiscardDraft {
                    key: self.schema_draft_key(),
                };
                Cmd::batch([discard, self.load_adaptive(ctx)])
            }
            (Pending::Schema, SitesResponse::SchemaSaved(Err(error))) => {
                if let Some(Modal::Composer(editor)) = self.modal.as_mut() {
                    let composer = editor.get_mut();
                    composer.submitting = false;
                    composer.error = Some(server_message(error));
                }
                if error.status() == Some(403) {
                    self.forbidden = Some(server_message(error));
                    return self.ask_my_role(ctx);
                }
                Cmd::None
            }
            (pending, response) => {
                let Some(error) = response_error(response) else {
                    return Cmd::None;
                };
                let asked = self.refused(&error, ctx);
                // No answer: the write may have landed. Show the server's state before the user
                // tries again, so a share link is never created twice unseen.
                if crate::screens::roles::outcome_unknown(&error) {
                    self.warn(format!(
                        "No answer from the server; it may or may not have been done. Reloaded: \
                         check before trying again ({})",
                        server_message(&error)
                    ));
                    return match pending {
                        Pending::ShareLink(_) => self.load_share_links(ctx),
                        Pending::SectionGroup(..) => {
                            Cmd::batch([self.load_groups(ctx), self.load_structure(ctx)])
                        }
                        _ => self.load_tab(ctx),
                    };
                }
                asked
            }
        }
    }
}

pub(super) fn response_error(response: &SitesResponse) -> Option<ApiError> {
    let error = match response {
        SitesResponse::Sites(Err(error))
        | SitesResponse::Site(Err(error))
        | SitesResponse::Published(Err(error))
        | SitesResponse::Structure(Err(error))
        | SitesResponse::Adaptive(Err(error))
        | SitesResponse::SchemaSaved(Err(error))
        | SitesResponse::ShareLinks(Err(error))
        | SitesResponse::ShareLink(Err(error))
        | SitesResponse::SectionGroups(Err(error))
        | SitesResponse::SectionGroup(Err(error))
        | SitesResponse::Done(Err(error))
        | SitesResponse::Access(Err(error)) => error,
        _ => return None,
    };
    Some(error.clone())
}
