complete --keep-order --exclusive --command tunnelctl --arguments "(COMPLETE=fish tunnelctl -- (commandline --current-process --tokenize --cut-at-cursor) (commandline --current-token))"
