"""What a run writes: the scored table and its sidecar, atomic writes, the summary."""
