"""The `matchlens` command line: the parser, one module per command, exit codes, the crash and standard-output guards, interrupts. Never imports Qt."""
