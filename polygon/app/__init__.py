"""Use cases: what the CLI (and later the web UI) calls. One function per user action."""
