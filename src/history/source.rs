//! Which agent a kept capture came from: its source. By default the host's name and the
//! agent's URL (`laptop http://127.0.0.1:4040/api`), so that the captures of many agents in
//! one team store stay apart; `--source NAME` or `history_source` names it otherwise.

/// The source of captures recorded here from the agent at `agent_url`.
pub fn default_source(agent_url: &str) -> String {
    format!("{} {agent_url}", host_name())
}

/// This host's name (`localhost` when it cannot be read).
pub fn host_name() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: the buffer is valid for its length; gethostname writes at most that much.
        let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
        if rc == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            let name = String::from_utf8_lossy(&buf[..end]).trim().to_string();
            if !name.is_empty() {
                return name;
            }
        }
    }
    ["HOSTNAME", "COMPUTERNAME"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "localhost".into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_the_host_and_the_agent() {
        let s = super::default_source("http://127.0.0.1:4040/api");
        assert!(s.ends_with(" http://127.0.0.1:4040/api"), "{s}");
        assert!(!s.starts_with(' '), "{s}");
    }
}
