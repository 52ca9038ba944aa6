//! HTTP client for the documentation platform's v1 REST API. Imports nothing from the UI.
