//! Which sessions can take which agent command, by the API reference's rules, so that selectors leave
//! out the sessions that would only refuse: rule 1 says restart "is not supported on Windows",
//! and a rolling upgrade ends in a restart. Nothing in a session tells whether its update would
//! be refused (rule 3's conditions are not among its fields), so `update` and `stop` skip none.
//! The bulk commands' selectors and the fleet screen's action keys leave out the same sessions.

use super::SessionFields;

/// Why the agent of `session` cannot take `command` (`restart`, `stop`, `update`, `upgrade`),
/// or `None` when nothing known stops it.
pub fn refusal<S: SessionFields + ?Sized>(command: &str, session: &S) -> Option<&'static str> {
    let restarts = matches!(command, "restart" | "upgrade");
    (restarts && session.text_field("os").eq_ignore_ascii_case("windows"))
        .then_some("restart is not supported on Windows")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_restarts_of_windows_agents_are_known_to_fail() {
        let win = json!({"os": "Windows"});
        let linux = json!({"os": "linux"});
        assert!(refusal("restart", &win).is_some());
        assert!(refusal("upgrade", &win).is_some());
        assert!(refusal("update", &win).is_none());
        assert!(refusal("stop", &win).is_none());
        assert!(refusal("restart", &linux).is_none());
    }
}
