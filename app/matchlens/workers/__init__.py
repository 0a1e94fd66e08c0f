"""Qt-free process plumbing: pipe frames, child processes (the scoring child, the compare lanes) and how they start, also from a frozen app."""
