"""Text primitives every layer above uses: case folding, normalisation, word edges, the edit script, redaction, elision, reading text files."""
