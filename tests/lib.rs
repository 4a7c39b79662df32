//! All integration tests, one binary (faster to link).
mod dfa_props;
mod oracle;
