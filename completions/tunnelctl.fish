# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_tunnelctl_global_optspecs
    string join \n api-key= api-url= agent-url= config= profile= json o/output= jq= y/yes q/quiet v/verbose no-color timeout= rate= h/help V/version
end

function __fish_tunnelctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_tunnelctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_tunnelctl_using_subcommand
    set -l cmd (__fish_tunnelctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "sessions" -d 'Online tunnel sessions: list, inspect, restart, stop or update their agents'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "ip-policies" -d 'IP policies: named sets of IP restriction rules'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "backends" -d 'Backends (tunnel-group backends that match tunnels by labels)'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "edges" -d 'Edge modules (TLS termination of TLS edges)'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "event-destinations" -d 'Event destinations: where events are delivered (Kinesis, Firehose, CloudWatch Logs)'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "event-subscriptions" -d 'Event subscriptions: which event types go to which destinations'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "local" -d 'The agent on this machine: its tunnels and the HTTP requests it captured'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "api" -d 'Send any request to the management API (auth and version headers added)'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "config" -d 'Settings: the config file and its profiles'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c tunnelctl -n "__fish_tunnelctl_needs_command" -f -a "help" -d 'Help on a command, or on a topic: exit-codes'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -f -a "list" -d 'List online tunnel sessions (selectors filter them)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -f -a "get" -d 'Show one tunnel session'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -f -a "restart" -d 'Restart agents (each reconnects with a new session ID; not on Windows)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -f -a "stop" -d 'Stop agents (they exit and do not come back by themselves)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -f -a "update" -d 'Update agents; restart them 10 seconds or more later (or use \'sessions upgrade\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and not __fish_seen_subcommand_from list get restart stop update upgrade" -f -a "upgrade" -d 'Rolling upgrade: update, wait, restart and wait for each agent to reconnect, in batches'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l region -d 'Only sessions in this region (e.g. us, eu, ap)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l os -d 'Only sessions whose agent runs on this OS (e.g. linux, darwin, windows)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l agent-version -d 'Only agents of this version: 3.19.1, a prefix (3.19), or a comparison (<3.20, >=3.19.1)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l credential-id -d 'Only sessions started with this credential (cr_…)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l ip -d 'Only sessions from this IP address or CIDR block (203.0.113.0/24)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l metadata-contains -d 'Only sessions whose metadata contains this text' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l limit -d 'Stop after N sessions (fetches no more pages than needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l all -d 'Every online session'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l region -d 'Only sessions in this region (e.g. us, eu, ap)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l os -d 'Only sessions whose agent runs on this OS (e.g. linux, darwin, windows)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l agent-version -d 'Only agents of this version: 3.19.1, a prefix (3.19), or a comparison (<3.20, >=3.19.1)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l credential-id -d 'Only sessions started with this credential (cr_…)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l ip -d 'Only sessions from this IP address or CIDR block (203.0.113.0/24)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l metadata-contains -d 'Only sessions whose metadata contains this text' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l parallel -d 'Requests at once' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l all -d 'Every online session'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l dry-run -d 'Print what would be done and send nothing'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l wait -d 'Wait until every agent is back under a new session ID (exit 7 when --timeout runs out)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from restart" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l region -d 'Only sessions in this region (e.g. us, eu, ap)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l os -d 'Only sessions whose agent runs on this OS (e.g. linux, darwin, windows)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l agent-version -d 'Only agents of this version: 3.19.1, a prefix (3.19), or a comparison (<3.20, >=3.19.1)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l credential-id -d 'Only sessions started with this credential (cr_…)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l ip -d 'Only sessions from this IP address or CIDR block (203.0.113.0/24)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l metadata-contains -d 'Only sessions whose metadata contains this text' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l parallel -d 'Requests at once' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l all -d 'Every online session'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l dry-run -d 'Print what would be done and send nothing'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from stop" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l region -d 'Only sessions in this region (e.g. us, eu, ap)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l os -d 'Only sessions whose agent runs on this OS (e.g. linux, darwin, windows)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l agent-version -d 'Only agents of this version: 3.19.1, a prefix (3.19), or a comparison (<3.20, >=3.19.1)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l credential-id -d 'Only sessions started with this credential (cr_…)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l ip -d 'Only sessions from this IP address or CIDR block (203.0.113.0/24)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l metadata-contains -d 'Only sessions whose metadata contains this text' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l parallel -d 'Requests at once' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l all -d 'Every online session'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l dry-run -d 'Print what would be done and send nothing'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from update" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l region -d 'Only sessions in this region (e.g. us, eu, ap)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l os -d 'Only sessions whose agent runs on this OS (e.g. linux, darwin, windows)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l agent-version -d 'Only agents of this version: 3.19.1, a prefix (3.19), or a comparison (<3.20, >=3.19.1)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l credential-id -d 'Only sessions started with this credential (cr_…)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l ip -d 'Only sessions from this IP address or CIDR block (203.0.113.0/24)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l metadata-contains -d 'Only sessions whose metadata contains this text' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l parallel -d 'Requests at once' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l batch -d 'Agents per batch' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l settle -d 'Wait between update and restart (at least 10s, as the service requires)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l all -d 'Every online session'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l dry-run -d 'Print what would be done and send nothing'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l keep-going -d 'Go on with the next batches after a batch with failures'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand sessions; and __fish_seen_subcommand_from upgrade" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -f -a "list" -d 'List IP policies'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -f -a "get" -d 'Show one IP policy'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -f -a "create" -d 'Create an IP policy'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -f -a "update" -d 'Change the description or metadata of an IP policy (only the flags given are sent)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and not __fish_seen_subcommand_from list get create update delete" -f -a "delete" -d 'Delete IP policies'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l limit -d 'Stop after N items (fetches no more pages than needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l description -d 'Human-readable description of the source IPs (at most 255 bytes)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l metadata -d 'Machine-readable data of your choice (at most 4096 bytes)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l description -d 'Human-readable description of the source IPs (at most 255 bytes)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l metadata -d 'Machine-readable data of your choice (at most 4096 bytes)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from update" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand ip-policies; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and not __fish_seen_subcommand_from tunnel-group" -f -a "tunnel-group" -d 'Tunnel-group backends: route to the online tunnels whose labels match'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -f -a "list" -d 'List tunnel-group backends'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -f -a "get" -d 'Show one tunnel-group backend and the tunnels it matches'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -f -a "create" -d 'Create a tunnel-group backend'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -f -a "update" -d 'Change a tunnel-group backend (only the flags given are sent; --label replaces all labels)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand backends; and __fish_seen_subcommand_from tunnel-group" -f -a "delete" -d 'Delete tunnel-group backends'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and not __fish_seen_subcommand_from tls-termination" -f -a "tls-termination" -d 'The TLS termination module of a TLS edge (edgtls_…)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -f -a "get" -d 'Show the module of an edge'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -f -a "set" -d 'Configure the module of an edge (replaces it)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand edges; and __fish_seen_subcommand_from tls-termination" -f -a "delete" -d 'Remove the module of an edge'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -f -a "list" -d 'List event destinations'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -f -a "get" -d 'Show one event destination'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -f -a "create" -d 'Create an event destination: exactly one target and exactly one way to authenticate'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -f -a "update" -d 'Change an event destination (only the flags given are sent; a target replaces the target)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and not __fish_seen_subcommand_from list get create update delete" -f -a "delete" -d 'Delete event destinations'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l limit -d 'Stop after N items (fetches no more pages than needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l description -d 'Human-readable description (at most 255 bytes)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l metadata -d 'Machine-readable data of your choice (at most 4096 bytes)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l format -d 'Serialization of the events; only json is accepted' -r -f -a "json\t''"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l kinesis-stream-arn -d 'Target: the ARN of a Kinesis stream' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l firehose-delivery-stream-arn -d 'Target: the ARN of a Firehose delivery stream' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l cloudwatch-log-group-arn -d 'Target: the ARN of a CloudWatch Logs log group' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l role-arn -d 'Auth: the ARN of a role the service assumes to deliver' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l aws-access-key-id -d 'Auth: the ID of an AWS access key; its secret comes from TUNNELCTL_AWS_SECRET_ACCESS_KEY, --aws-secret-access-key-stdin, or a hidden prompt' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l target-json -d 'The whole target as JSON (an EventTarget object), or @FILE to read it from a file' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l aws-secret-access-key-stdin -d 'Read the AWS secret access key from the first line of stdin'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l description -d 'Human-readable description (at most 255 bytes)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l metadata -d 'Machine-readable data of your choice (at most 4096 bytes)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l format -d 'Serialization of the events; only json is accepted' -r -f -a "json\t''"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l kinesis-stream-arn -d 'Target: the ARN of a Kinesis stream' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l firehose-delivery-stream-arn -d 'Target: the ARN of a Firehose delivery stream' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l cloudwatch-log-group-arn -d 'Target: the ARN of a CloudWatch Logs log group' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l role-arn -d 'Auth: the ARN of a role the service assumes to deliver' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l aws-access-key-id -d 'Auth: the ID of an AWS access key; its secret comes from TUNNELCTL_AWS_SECRET_ACCESS_KEY, --aws-secret-access-key-stdin, or a hidden prompt' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l target-json -d 'The whole target as JSON (an EventTarget object), or @FILE to read it from a file' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l aws-secret-access-key-stdin -d 'Read the AWS secret access key from the first line of stdin'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from update" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-destinations; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -f -a "list" -d 'List event subscriptions'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -f -a "get" -d 'Show one event subscription'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -f -a "create" -d 'Create an event subscription'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -f -a "update" -d 'Change an event subscription (only the flags given are sent; a list given replaces the list)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -f -a "delete" -d 'Delete event subscriptions'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and not __fish_seen_subcommand_from list get create update delete sources" -f -a "sources" -d 'The event types (sources) of a subscription'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l limit -d 'Stop after N items (fetches no more pages than needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l description -d 'Human-readable description (at most 255 characters)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l metadata -d 'Machine-readable data of your choice (at most 4096 characters)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l source -d 'An event type that triggers the subscription, e.g. ip_policy_created.v0 (repeatable)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l destination-id -d 'An event destination that receives the events (repeatable)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l description -d 'Human-readable description (at most 255 characters)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l metadata -d 'Machine-readable data of your choice (at most 4096 characters)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l source -d 'An event type that triggers the subscription, e.g. ip_policy_created.v0 (repeatable)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l destination-id -d 'An event destination that receives the events (repeatable)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from update" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -f -a "list" -d 'List the event types of a subscription'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -f -a "get" -d 'Show one event type of a subscription'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -f -a "create" -d 'Add an event type to a subscription'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -f -a "update" -d 'Update an event type of a subscription (the API takes no fields yet)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand event-subscriptions; and __fish_seen_subcommand_from sources" -f -a "delete" -d 'Remove an event type from a subscription'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -f -a "tunnels" -d 'Tunnels running in the local agent'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and not __fish_seen_subcommand_from tunnels requests" -f -a "requests" -d 'HTTP requests captured by the local agent'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -f -a "list" -d 'List running tunnels, sorted by name'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -f -a "get" -d 'Show one tunnel and its metrics'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -f -a "start" -d 'Start a tunnel'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from tunnels" -f -a "stop" -d 'Stop a tunnel (an http tunnel\'s two halves are stopped one by one)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -f -a "list" -d 'List captured requests, newest first'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -f -a "get" -d 'Show one captured exchange, decoded: request line, headers, body, then the response'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -f -a "replay" -d 'Send a captured request to the local server again (captured again as "replayed")'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -f -a "clear" -d 'Delete every captured request'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -f -a "tail" -d 'Follow new captured requests as they arrive, until Ctrl-C'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand local; and __fish_seen_subcommand_from requests" -f -a "export" -d 'Write captured exchanges to a HAR 1.2 file (opens in browsers\' developer tools)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -s f -l raw-field -d 'A string field, KEY=VALUE (repeatable)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -s F -l field -d 'A typed field, KEY=JSON, e.g. -F enabled=true -F labels=\'{"env":"prod"}\' (repeatable)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l input -d 'The request body from a file, or - for stdin' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l paginate -d 'Follow next_page_uri and print every item of every page as one array'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand api" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -f -a "init" -d 'Store the API URL and key in the profile (asks on a terminal; the key is hidden)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -f -a "show" -d 'Show the settings in effect and where each comes from (the key redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -f -a "get" -d 'Print the value of a key in the profile (the API key only redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -f -a "set" -d 'Set a key in the profile (\'-\' as VALUE reads it from stdin)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -f -a "unset" -d 'Remove a key from the profile'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and not __fish_seen_subcommand_from init show get set unset path" -f -a "path" -d 'Print the path of the config file'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l api-key-stdin -d 'Read the API key from the first line of stdin'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from init" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from unset" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand config; and __fish_seen_subcommand_from path" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -l api-key -d 'API key of the management API. The TUNNELCTL_API_KEY environment variable or the config file are safer: a flag is visible to other users in `ps` and in shell history' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -l api-url -d 'Base URL of the management API (https://, or http:// to a loopback address)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -l agent-url -d 'URL of the local agent API [default: http://127.0.0.1:4040/api]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -l config -d 'Config file [default: config.toml in the platform\'s config folder]' -r -F
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -l profile -d 'Profile of the config file to use [default: default]' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -s o -l output -d 'Output format' -r -f -a "table\t'A table on a terminal, tab-separated values in a pipe'
json\t'The API\'s JSON, unchanged; a list is one array of every item'
ndjson\t'One JSON object per line'"
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -l jq -d 'Filter the JSON output with a jq expression (in-process; no jq needed)' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -l timeout -d 'Time limit of the command (each request, its retries, and waits such as `sessions restart --wait`): seconds, or with a unit: 90s, 2m, 1h' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -l rate -d 'Pace management requests to at most N per SECONDS (the service allows 120/60), or off' -r
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -l json -d 'Print JSON (same as -o json)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -s y -l yes -d 'Do not ask for confirmation'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -s q -l quiet -d 'Print no confirmations or progress, only data and errors'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -s v -l verbose -d 'Trace requests and responses on stderr (the API key is redacted)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -l no-color -d 'No colour (also when NO_COLOR is set)'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tunnelctl -n "__fish_tunnelctl_using_subcommand help" -s V -l version -d 'Print version'
