"""Reports of one scoring run, written in the same pass as the scored table: `collect` gathers
what they need while the pieces stream past (bounded: the worst rows, never all of them),
`model` holds it as plain dataclasses, and `html`, `markdown` and `junit` write the three files
`matchlens score --html/--markdown/--junit` asks for (shared/spec/cli.md § Reports)."""
