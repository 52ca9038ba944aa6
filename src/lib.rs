//! quire: a keyboard-first terminal client for a documentation platform's REST API.
//!
//! The module tree: `api` is the HTTP client and knows
//! nothing of terminals; `sandbox` is an independent in-memory server speaking the same API;
//! `app` holds the Elm-style model/update; `screens` and `ui` draw; `runtime` runs the loop.

pub mod api;
pub mod app;
pub mod calls_collections;
pub mod calls_files;
pub mod calls_git;
pub mod calls_links;
pub mod calls_reviews;
pub mod calls_search;
pub mod calls_sites;
pub mod calls_spaces;
// ── issue 11 people: members, teams ──
pub mod calls_members;
pub mod calls_teams;

// ── issue 11 admin: sso, org settings, agent instructions ──
pub mod calls_org_settings;
pub mod calls_sso;

// ── issue 12: translations, openapi ──
pub mod calls_openapi;
pub mod calls_translations;

// ── issue 12: conversations, integrations ──
pub mod calls_conversations;
pub mod calls_integrations;
pub mod cli_conversations;
pub mod cli_docs;
pub mod cli_integrations;

// ── end of the area blocks ──

pub mod config;
pub mod headless;
pub mod output;
pub mod runtime;
pub mod sandbox;
pub mod screens;
pub mod screenshots;
pub mod terminal;
pub mod ui;
