//! The built-in API server: in memory, its own types, used by `--demo`, `quire sandbox` and tests.
